"""Euchre's built-in seats in a step-API state: the kernels' own decision steps, called from Python on the
state's view of the hand, so that a random or heuristic seat plays in the state exactly the move it
plays in the kernels (a table of them played through the state gives the kernels' rows).

Each decision is the step :func:`~cardlab.sim.euchre5.kernels.play_hand_inline` takes at that point,
given what the kernel would hold there:

* round one, place ``k`` after the dealer: ``accept_step_nb`` (the hand, the upcard, ``k``);
* round two: ``name_step_nb`` (a stuck dealer never passes);
* the dealer's exchange: ``discard_step_nb`` on its six cards (the called card kept when the dealer is
  the partner of a call made before the exchange);
* the call: ``decide_call_nb`` on the maker's hand;
* a lead: ``lead_step_nb`` with the cards not yet seen played (the upcard out of them when it was turned
  down in round two); a card after it: ``follow_step_nb`` with the led effective suit, the cards that beat
  the winning one, the winning seat, the cards in the trick, whether the called card has fallen.

A random seat draws from the hand's own stream (:attr:`Euchre5State.stream`: the stream ``(seed, hand)``
after the deal, advanced by every random decision in play order), as the kernel does. A search or oracle seat's
decision (a bid, the call, a card; its discard is the heuristic's) is the searched hand's
(:func:`~cardlab.sim.euchre5.search.play_search_hand_nb`), given the hand's actions so far and stopped at this one,
its search drawing from the stream it draws from in a run (:func:`searched_move`).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.cards import mask_of
from cardlab.sim.euchre5.kernels import (DECK_BITS, accept_step_nb, decide_call_nb, discard_step_nb, follow_step_nb,
                                         lead_step_nb, legal_nb, name_step_nb)
from cardlab.sim.euchre5.policies import BEATS, EFF, POLICY_NAMES, SUIT_MASKS
from cardlab.sim.euchre5.referee import N, action_of, trick_winner
from cardlab.sim.state import as_stream
from cardlab.sim.user import run_callback

def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move
    (the state's stream advanced by a random seat's draws)."""
    if policy in ("search", "oracle"):
        return searched_move(state, policy)[0]
    h, p, pid = state.hand, state.current_player, POLICY_NAMES.index(policy)
    rules, stream, phase = state.study.rules, np.uint64(state.stream or 0), state.phase
    hand = np.uint64(mask_of(state.held[p]))
    k = state.bidder + 1  # places after the dealer (1 = its left), in a bidding round
    if phase == "round one":
        stream, yes = accept_step_nb(pid, hand, state.upcard, k, rules, stream)
        action = action_of("accept" if yes else "pass")
    elif phase == "round two":
        stream, suit = name_step_nb(pid, hand, state.upcard, k, rules, stream)
        action = action_of("pass") if suit < 0 else action_of("name", int(suit))
    elif phase == "exchange":
        hands = np.array([mask_of(x) for x in state.held], np.uint64)
        called = h.called if state.own is not None else -2  # -2: not called yet
        stream, card = discard_step_nb(hands, h.dealer, h.maker, state.upcard, h.trump, called, rules, pid, stream)
        action = action_of("discard", int(card))
    elif phase == "call":
        stream, card = decide_call_nb(hand, h.trump, state.upcard, rules, pid, stream)
        action = action_of("alone") if card < 0 else action_of("call", int(card))
    else:
        stream, card = trick_card(state, p, hand, pid, stream)
        action = action_of("play", int(card))
    if state.stream is not None:
        state.stream = as_stream(stream)
    return action


def trick_card(state, p: int, hand, pid: int, stream):
    """``(stream, card)``: seat ``p``'s card in the trick under way, by the kernel's lead or follow step."""
    h, trick, trump = state.hand, state.trick, state.hand.trump
    played = [c for _, cards, _ in h.tricks for c in cards]
    remaining = DECK_BITS & ~np.uint64(mask_of(played) | (1 << state.upcard if h.round == 2 else 0))
    if not trick:
        return lead_step_nb(pid, p, hand, trump, remaining, h.maker, h.partner, stream)
    best = trick_winner(trick, trump)
    revealed = h.called in played or h.called in trick
    suit = SUIT_MASKS[trump, EFF[trump, trick[0]]]
    return follow_step_nb(pid, p, hand, legal_nb(hand, len(trick), suit), len(trick), trump, BEATS[trump, trick[best]],
                          remaining, np.uint64(mask_of(trick)), h.maker, h.partner, (state.leader + best) % N,
                          revealed, h.called < 0, stream)


def searched_move(state, policy: str = "search", worlds: int | None = None) -> tuple:
    """The move a ``policy`` (``search`` or ``oracle``) seat makes here and each candidate's mean edge, ``(action,
    {action id: mean})`` (no means where the seat had one choice): the kernels' searched hand given the hand so far
    and stopped at this action, every other seat the heuristic, its search drawing from the stream of this decision
    in a run (``state.search_key``: the hand's, or a whole game's and the hand's first decision), so a search seat
    beside a Python seat plays as it does in the kernels. ``worlds``: the study's by default."""
    from cardlab.sim.euchre5.kernels import N_RES
    from cardlab.sim.euchre5.rules import ACTION_KINDS, MAX_ACTIONS
    from cardlab.sim.euchre5.search import ALONE_COL, PASS_COL, play_search_hand_nb
    from cardlab.sim.state import search_settings

    study, h = state.study, state.hand
    done = h.actions
    log = np.full((MAX_ACTIONS, 3), -1, np.int8)
    for n, (seat, kind, value) in enumerate(done):
        log[n] = seat, ACTION_KINDS.index(kind), value
    means = np.full((MAX_ACTIONS, 64), np.nan, np.float32)
    policies, worlds, rollout = search_settings(state, policy, worlds)
    unit, base = state.search_key if state.search_key is not None else (state.deal, 0)
    maker, trump = state.forced if state.forced is not None else (-1, -1)
    hands = np.array([mask_of(x) for x in h.hands], np.uint64)
    # seed and key typed as the kernels pass them (int64), so that the step API reuses their compiled search
    play_search_hand_nb(int(study.seed), int(unit), base, hands, np.array(h.kitty, np.int64), h.dealer,
                        study.rules, policies, maker, trump, worlds, rollout, study.racing_level,
                        study.inference_eps(policies), np.uint64(state.stream or 0), log, means,
                        np.zeros(N_RES, np.int64),
                        run_callback("", study.game.numba_seat, "bid", searched=True),
                        run_callback("", study.game.numba_seat, searched=True),
                        np.zeros(2, np.int64), len(done))
    _, kind, value = (int(x) for x in log[len(done)])
    action = action_of(ACTION_KINDS[kind], value)
    row = means[len(done)]
    cols = np.flatnonzero(~np.isnan(row)).tolist()
    if kind == ACTION_KINDS.index("play"):
        ids = {c: action_of("play", c).id for c in cols}
    elif ACTION_KINDS[kind] in ("call", "alone"):
        ids = {c: action_of("alone" if c == ALONE_COL else "call", c).id for c in cols}
    elif state.phase == "round one":
        ids = {c: action_of("pass" if c == PASS_COL else "accept").id for c in cols}
    else:
        ids = {c: action_of("pass" if c == PASS_COL else "name", c).id for c in cols}
    return action, {ids[c]: float(row[c]) for c in cols}
