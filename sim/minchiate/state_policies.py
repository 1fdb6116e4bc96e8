"""Minchiate's built-in seats in a step-API state: the kernels' own decisions, called on the state's view of the
deal, so that a random or heuristic seat plays in the state exactly the move it plays in the kernels (a table
of them played through the state gives the kernels' rows).

* **Discards** (§5): the kernel's ``_discard`` chooses a seat's whole set of discards at once (by its policy
  among the legal discards, then the fallback order) from the hand it holds before the first; the state
  plays them one at a time, lowest card first, as the kernel's log lists them.
* **Declarations** (§6): both built-in policies declare every combination, ``combos_nb``'s value.
* **A card** (§8): :func:`~cardlab.sim.minchiate.kernels.card_step_nb`, the step of the kernel's trick loop,
  with the trick so far rebuilt by the kernel's ``put_card_nb`` (:func:`state_card_nb`).

A random seat draws from the deal's own stream (:attr:`MinchiateState.stream`: the stream ``(seed, deal)``
after the shuffle, advanced by each random decision in the kernel's order).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.minchiate.combos import combos_nb
from cardlab.sim.minchiate.kernels import LOG_WIDTH, _discard, card_step_nb, put_card_nb
from cardlab.sim.minchiate.policies import NO_SUIT
from cardlab.sim.minchiate.referee import action_of
from cardlab.sim.minchiate.rules import MATTO, SUIT_BASE
from cardlab.sim.policy import ROLLOUT_POLICIES as POLICY_NAMES
from cardlab.sim.state import as_stream


def words(cards) -> tuple:
    """A set of card ids as the kernels' two words (trumps and the Matto low, suit cards high)."""
    lo = hi = 0
    for c in cards:
        if c <= MATTO:
            lo |= 1 << c
        else:
            hi |= 1 << (c - SUIT_BASE)
    return np.uint64(lo), np.uint64(hi)


def cards_in(lo, hi) -> list[int]:
    """The card ids of two words, lowest first."""
    return [c for c in range(64) if int(lo) >> c & 1] + [c + SUIT_BASE for c in range(64) if int(hi) >> c & 1]


@njit(cache=True, error_model="numpy")
def state_card_nb(policy, opts, p, hand_lo, hand_hi, trick_cards, trick_seats, led_suits, trick, cutter, dealer,
                  fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi, dd_lo, dd_hi, stream):
    """Seat ``p``'s card after ``trick_cards`` (played by ``trick_seats``) in trick ``trick``: the trick's led suit,
    trump and winner so far as the kernel's ``put_card_nb`` keeps them, then the kernel's ``card_step_nb``.
    Returns (stream, card)."""
    led, trump_played, win_seat, win_card = NO_SUIT, False, -1, -1
    scratch_lo, scratch_hi = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    cards, seats = np.empty(4, np.int64), np.empty(4, np.int64)
    for n in range(trick_cards.shape[0]):
        led, trump_played, win_seat, win_card = put_card_nb(trick_cards[n], trick_seats[n], n, scratch_lo, scratch_hi,
                                                            cards, seats, led, trump_played, win_seat, win_card)
    return card_step_nb(policy, opts, p, hand_lo, hand_hi, trick_cards.shape[0], led, led_suits, trump_played,
                        win_seat, win_card, trick, cutter, dealer, fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi,
                        dd_lo, dd_hi, stream, None, np.zeros(2, np.int64))


def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move
    (the state's stream advanced by a random seat's draws)."""
    p, pid, opts, phase = state.current_player, POLICY_NAMES.index(policy), state.study.flags, state.phase
    if phase == "discards":
        left = state.to_discard[p] - len(state.discards[p])
        plan = state.discard_plans.get(p)
        if plan is None or len(plan) != left or not set(plan) <= state.hands[p]:
            lo, hi = words(state.hands[p])
            stream, d_lo, d_hi = _discard(np.uint64(state.stream or 0), pid, left, lo, hi, False,
                                          np.empty(LOG_WIDTH, np.int8), 0)
            plan = cards_in(d_lo, d_hi)
            if state.stream is not None:
                state.stream = as_stream(stream)
        state.discard_plans[p] = plan[1:]
        return action_of("discard", plan[0])
    if phase == "declarations":
        lo, hi = words(state.hands[p])
        return action_of("declare", int(combos_nb(lo, hi, opts, np.empty(12, np.int64))))
    trick = state.trick
    played = state.played()
    cd = words(state.discards[state.cutter])
    dd = words(state.discards[state.dealer])
    stream, card = state_card_nb(pid, opts, p, *words(state.hands[p]), np.array([c for _, c in trick], np.int64),
                                 np.array([s for s, _ in trick], np.int64), sum(1 << s for s in state.led_suits),
                                 len(state.tricks), state.cutter, state.dealer, *words(state.fola_after),
                                 *words(played), *cd, *dd, np.uint64(state.stream or 0))
    if state.stream is not None:
        state.stream = as_stream(stream)
    return action_of("play", int(card))
