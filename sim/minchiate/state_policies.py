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

A ``search`` or ``oracle`` seat discards and declares as the heuristic (so the search kernels' seats do) and
searches its cards by the search kernel itself given the deal so far (:func:`searched_move`); it never draws
from the deal's stream.
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
from cardlab.sim.user import run_callback


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
    if policy in ("search", "oracle"):
        if state.phase == "play":
            return searched_move(state, policy)[0]
        policy = "heuristic"
    p, pid, opts, phase = state.current_player, POLICY_NAMES.index(policy), state.study.rules, state.phase
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


def searched_move(state, policy: str = "search", worlds: int | None = None) -> tuple:
    """The card a ``policy`` (``search`` or ``oracle``) seat plays here and each candidate's mean final points
    difference for its side, ``(action, {card id: mean})``: the search kernels' own card play
    (:func:`~cardlab.sim.minchiate.search.play_searched_cards_nb`) from the deal as set up (the hands after the
    discards, the discards, the Fola, the cards the declarations showed), given the cards played so far and
    stopped at this one, its search drawing from the stream ``(seed, deal, move)`` as in a run (a whole game's
    deals keep their numbers), so a search seat beside a Python seat plays as it does in the kernels.
    ``worlds``: the study's by default."""
    from cardlab.sim.minchiate.kernels import COL, LOG_PLAYS, WORK_SIZE
    from cardlab.sim.minchiate.rules import N_CARDS, SOURCES
    from cardlab.sim.minchiate.search import N_MOVES, play_searched_cards_nb
    from cardlab.sim.state import search_settings

    study = state.study
    played = state.played()
    work = np.zeros(WORK_SIZE, np.int64)
    work[:N_CARDS] = state.perm
    words_ = np.zeros(12, np.uint64)
    shown = np.zeros((2, 4), np.uint64)
    for q in range(4):
        hand = state.hands[q] | {c for s, c, _ in state.plays if s == q}  # as after the discards
        words_[q], words_[4 + q] = words(hand)
        cards = set().union(*(cb.cards for cb in state.shown[q]))
        if cards and MATTO in hand:  # the Matto's bonus shows it
            cards.add(MATTO)
        shown[:, q] = words(cards)
    out = np.zeros(COL.WIDTH, np.int32)
    out[COL.CUTTER_CARDS] = len(state.cutter_draw)
    for t in range(2):  # the points before the first trick (the tricks' captures are replayed)
        for name in ("draws", "exposed", "declarations"):
            out[COL.SOURCES + 8 * t + SOURCES.index(name)] = state.ledger.sources[t][name]
    log = np.full(LOG_WIDTH, -1, np.int8)
    log[LOG_PLAYS:LOG_PLAYS + len(played)] = played
    means = np.empty((N_MOVES, N_CARDS), np.float32)
    policies, worlds, rollout = search_settings(state, policy, worlds)
    play_searched_cards_nb(study.seed, state.deal, study.rules, policies, worlds, rollout, study.racing_level,
                           study.inference_eps(policies), True,
                           work, words_, out, log, np.empty(12, np.int64), means, np.uint64(0), 0, 0,
                           *words(state.discards[state.cutter]), *words(state.discards[state.dealer]),
                           *words(state.fola_after), run_callback("", study.game.numba_seat, searched=True),
                           np.zeros(2, np.int64), len(played), shown)
    row = means[len(played)]
    return action_of("play", int(log[LOG_PLAYS + len(played)])), {int(c): float(row[c])
                                                                   for c in np.flatnonzero(~np.isnan(row))}
