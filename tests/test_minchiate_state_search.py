"""Minchiate's search and oracle seats in the step API (``MinchiateState.policy_action("search")``): the search
kernel's own card play given the deal so far (``state_policies.searched_move``), so they play beside a Python seat
as in the kernels: whole games give the search games kernel's rows, hidden cards never change a searched decision,
and a Python seat runs beside them in ``simulate`` and in the strength ladder."""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim.games import game
from cardlab.sim.ladder import strength_study
from cardlab.sim.minchiate.state_policies import searched_move
from cardlab.sim.runner import to_frame
from cardlab.sim.whole_games import play_game_columns

MINCHIATE = game("minchiate")


def lowest(observation, legal):
    """A Python seat: the legal move of lowest id (its first discard, declaring nothing, its lowest card)."""
    return min(legal, key=lambda a: a.id)


def test_whole_games_with_search_seats_through_the_state_give_the_search_games_kernel_rows():
    """Each deal of a game searches on its own stream ``(seed, deal, move)``, the deal numbered within the run, so
    the state's deals of a game search as the games kernel's do."""
    study = MINCHIATE.build("games", seed=5, policy=["search", "heuristic", "oracle", "random"], search_worlds=4,
                            n_deals=2)
    kernel = to_frame(study.play_games(1, 3))
    state = to_frame(play_game_columns(study, 1, 3))
    pd.testing.assert_frame_equal(state[list(kernel.columns)], kernel)


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
    rng = np.random.default_rng(0)
    checked = differ = 0
    for state in _decisions("search", deals=range(3)):
        move, means = searched_move(state)
        assert move in state.legal_actions() and set(means) <= {a.id for a in state.legal_actions()} and means
        other = state.resample(0, rng)
        assert other.observation(0) == state.observation(0)
        assert searched_move(other) == (move, means)
        checked += 1
        differ += searched_move(other, "oracle") != searched_move(state, "oracle")
    assert checked > 30 and differ > 0


def test_a_python_seat_plays_beside_search_seats_in_simulate_and_in_the_ladder():
    df = MINCHIATE.simulate(deals=4, seed=2, policy=[lowest, "search", "heuristic", "oracle"], search_worlds=4)
    assert df.deal.tolist() == [0, 1, 2, 3] and len(df.columns) == len(MINCHIATE.schema(MINCHIATE.Options(), "deals"))
    ladder = strength_study(MINCHIATE, deals=8, seed=1, search_worlds=2, policies={"mine": lowest})
    assert len(ladder) == 8 and {"net_mine_vs_search", "net_search_vs_mine"} <= set(ladder.columns)


def lowest_declaring_all(observation, legal):
    """The Python twin of ``example_players.minchiate_lowest`` where its seat does not discard: every combination
    declared (the highest value, as the heuristic declares), then the legal card of lowest id."""
    return max(legal, key=lambda a: a.id) if legal[0].entry["kind"] == "declare" else lowest(observation, legal)


def test_a_python_seat_beside_search_seats_gives_its_numba_twins_rows():
    """The searches decide from what their seats have seen, so beside a Python seat and beside its Numba twin (the
    search kernel's own run) they play the same cards: seat 0 neither cuts nor deals in deals 2, 3, 6, 7, ..."""
    from cardlab.sim.example_players import minchiate_lowest
    from cardlab.sim.minchiate.interface import columns
    from cardlab.sim.minchiate.search_play import search_raw
    from cardlab.sim.python_seats import play_deal

    deals = np.array([2, 3, 6, 7, 10, 11])
    table = ["search", "heuristic", "oracle"]
    numba = MINCHIATE.build("deals", seed=3, policy=[minchiate_lowest, *table], search_worlds=4)
    python = MINCHIATE.build("deals", seed=3, policy=[lowest_declaring_all, *table], search_worlds=4)
    kernel = to_frame(columns(search_raw(numba, deals)[0]))
    state = to_frame(columns(MINCHIATE.state_rows([play_deal(python, int(d)) for d in deals])))
    pd.testing.assert_frame_equal(state, kernel)
