"""Minchiate's search and oracle seats in the step API (``MinchiateState.policy_action("search")``): the search
kernel's own card play given the deal so far (``state_policies.searched_move``), so they play beside a Python seat
as in the kernels: hidden cards never change a searched decision, even where a Python seat kept a combination
hidden, and beside a Python seat they play as beside its Numba twin. (The conformance tests of
``tests/test_state_policies.py`` check search tables in deals and whole games, and a Python policy on the ladder.)"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim.games import game
from cardlab.sim.minchiate.state_policies import searched_move
from cardlab.sim.runner import to_frame
from tests.search_checks import hidden_cards_checked

MINCHIATE = game("minchiate")


def lowest(observation, legal):
    """A Python seat: the legal move of lowest id (its first discard, declaring nothing, its lowest card)."""
    return min(legal, key=lambda a: a.id)


def _decisions(policy, deals=range(4), seat_policies=("search", lowest, "heuristic", "random")):
    """States at each decision of the first seat (playing ``policy``) with more than one legal card; the other
    seats play ``seat_policies[1:]`` (a callable: a Python seat)."""
    policies = [policy, *seat_policies[1:]]
    study = MINCHIATE.build("deals", seed=7, policy=["search", "heuristic", "heuristic", "random"], search_worlds=4)
    for deal in deals:
        state = MINCHIATE.new_state(study, deal)
        while not state.is_over:
            seat, legal = state.current_player, state.legal_actions()
            if seat == 0 and state.phase == "play" and len(legal) > 1:
                yield state
            mover = policies[seat]
            state.apply(mover(state.observation(seat), legal) if callable(mover) else state.policy_action(mover))


def test_hidden_cards_never_change_the_search_decision():
    """At every searched card, a world redealt consistently with the searcher's view (its hidden cards moved, the
    combinations the Python seat kept hidden among them) gives the same card and the same candidate means; the
    oracle, which sees the deal, does not."""
    checked, differ = hidden_cards_checked(_decisions("search", deals=range(3)), searched_move)
    assert checked > 30 and differ > 0


def lowest_declaring_all(observation, legal):
    """The Python twin of ``example_players.minchiate_lowest`` where its seat does not discard: every combination
    declared (the highest value, as the heuristic declares), then the legal card of lowest id."""
    return max(legal, key=lambda a: a.id) if legal[0].entry["kind"] == "declare" else lowest(observation, legal)


def test_a_python_seat_beside_search_seats_gives_its_numba_twins_rows():
    """The searches decide from what their seats have seen, so beside a Python seat and beside its Numba twin (the
    search kernel's own run) they play the same cards: seat 0 neither cuts nor deals in deals 2, 3, 6, 7, ..."""
    from cardlab.sim.example_players import minchiate_lowest
    from cardlab.sim.minchiate.interface import row_columns
    from cardlab.sim.python_seats import play_deal

    deals = np.array([2, 3, 6, 7, 10, 11])
    table = ["search", "heuristic", "oracle"]
    numba = MINCHIATE.build("deals", seed=3, policy=[minchiate_lowest, *table], search_worlds=4)
    python = MINCHIATE.build("deals", seed=3, policy=[lowest_declaring_all, *table], search_worlds=4)
    kernel = to_frame(row_columns(numba.searched(deals)[0]))
    state = to_frame(row_columns(MINCHIATE.state_rows([play_deal(python, int(d)) for d in deals])))
    pd.testing.assert_frame_equal(state, kernel)
