"""Hearts' built-in seats in the step API: the kernels' own decisions (:mod:`cardlab.sim.hearts.policies`) called on
a :class:`~cardlab.sim.hearts.referee.HeartsState`'s view, so a table with a Python seat plays as the kernels do. A
random seat draws from the state's stream, as the kernels draw from the deal's: its passes seat by seat, then its
cards in play order."""
from __future__ import annotations

import numpy as np

from cardlab.sim.cards import mask_of
from cardlab.sim.hearts.policies import heuristic_card_nb, heuristic_pass_nb, random_card_nb
from cardlab.sim.hearts.referee import HeartsState, pass_action, play_action
from cardlab.sim.state import Action, as_stream
from cardlab.sim.user import run_callback


def _draw(state: HeartsState, cards: int) -> int:
    stream, c = random_card_nb(np.uint64(state.stream), np.uint64(cards))
    state.stream = as_stream(stream)
    return int(c)


def policy_action(state: HeartsState, policy: str) -> Action:
    """The move of a built-in seat of ``policy`` (``random``, ``heuristic``, ``search`` or ``oracle``: search seats pass
    as the heuristic does) for the seat to move."""
    seat = state.current_player
    if policy in ("search", "oracle") and not state.passing:
        return searched_move(state, policy)[0]
    if state.passing:
        if policy == "random":
            return pass_action(_draw(state, mask_of(state.hands[seat])))
        return pass_action(int(heuristic_pass_nb(np.uint64(mask_of(state.dealt[seat])), len(state.passed[seat]))))
    legal = mask_of(state.legal_cards())
    if policy == "random":
        return play_action(_draw(state, legal))
    trick = [c for _, c in state.trick]
    win_card = -1
    if trick:
        led = trick[0] // 16
        win_card = max(c for c in trick if c // 16 == led)
    seen = mask_of(c for _, cards, _ in state.tricks for _, c in cards)
    return play_action(int(heuristic_card_nb(np.uint64(mask_of(state.hands[seat])), np.uint64(legal), len(trick),
                                             win_card, np.uint64(mask_of(trick)), np.uint64(seen),
                                             state.options.players)))



def searched_move(state: HeartsState, policy: str = "search", worlds: int | None = None) -> tuple[Action, dict]:
    """The card a ``policy`` (``search`` or ``oracle``) seat plays here and each candidate's mean points, ``(action,
    {card id: mean})``: the kernels' searched deal (:func:`~cardlab.sim.hearts.search.play_searched_nb`) given the
    deal so far and stopped at this move, its search drawing from the stream it draws from in a whole run, so a
    search seat beside a Python seat plays as it does in the kernels. ``worlds``: the study's by default."""
    from cardlab.sim.hearts.kernels import N_CARDS_ROWS, N_ST, start_nb
    from cardlab.sim.hearts.search import play_searched_nb
    from cardlab.sim.state import search_settings

    study = state.study
    o = study.options
    plays = [(seat, c) for _, cards, _ in state.tricks for seat, c in cards] + list(state.trick)
    cards = np.zeros(N_CARDS_ROWS, np.uint64)
    for p in range(o.players):
        cards[p] = mask_of(state.hands[p] | {c for seat, c in plays if seat == p})
    st = np.zeros(N_ST, np.int64)
    start_nb(study.rules, cards, st)
    log = np.full(o.log_width, -1, np.int8)
    log[o.log_plays:o.log_plays + len(plays)] = [c for _, c in plays]
    means = np.full((o.moves, 64), np.nan, np.float32)
    policies, worlds, rollout = search_settings(state, policy, worlds)
    passed = np.array([mask_of(p) for p in state.passed], np.uint64)
    key, base = state.search_key
    # seed and key typed as the kernels pass them (int64), so that the step API reuses their compiled search
    play_searched_nb(int(study.seed), int(key), base, study.rules, policies, cards, st, passed,
                     state.offset, np.uint64(state.stream or 0), worlds, rollout, log, means,
                     run_callback("", study.game.numba_seat, searched=True), np.zeros(2, np.int64),
                     len(plays), study.inference_eps(policies))
    row = means[len(plays)]
    means_of = {int(c): float(row[c]) for c in np.flatnonzero(~np.isnan(row))}
    return play_action(int(log[o.log_plays + len(plays)])), means_of
