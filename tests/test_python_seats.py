"""Your own player in Python (cardlab.sim.python_seats): a seat played by a function of (observation,
legal actions). Its deals go through the step API, the built-in seats beside it play the kernels' own
decisions: a whole table of them gives the kernels' records exactly, and the same simple policy
written in Python and in Numba gives identical rows."""
from __future__ import annotations

import pytest

from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.game import Game
from cardlab.sim.games import GAMES, game
from cardlab.sim.play import saved_record
from tests.user_policies import barbu_cards

HEURISTIC3 = ["heuristic"] * 3


def lowest(observation, legal):
    """The lowest card id among the legal moves (the Numba ``barbu_cards.lowest``, in Python)."""
    return min(legal, key=lambda a: a.id)


@pytest.mark.parametrize("policy", ["heuristic", "classic"])
def test_built_in_seats_in_the_state_play_the_kernels_moves(policy):
    barbu = game("barbu")
    keywords = dict(seed=21, policy=policy, contract=",".join(TRICK_CONTRACTS))
    replay = barbu.replay(deal="0:300", **keywords)
    study = barbu.build("deals", **keywords)
    for deal, record in enumerate(replay.records):
        state = barbu.new_state(study, deal)
        while not state.is_over:
            state.apply(state.policy_action(policy))
        assert saved_record(state) == record, deal  # the replay's record opens with the study's metadata too


def test_the_same_policy_in_python_and_in_numba_gives_identical_rows():
    # (not Trumps: a Numba seat names its trump suit as the heuristic does, a Python seat itself)
    barbu = game("barbu")
    keywords = dict(deals=600, seed=3, contract=",".join(c for c in TRICK_CONTRACTS if c != "trumps"))
    in_python = barbu.simulate(policy=[lowest] + HEURISTIC3, **keywords)
    in_numba = barbu.simulate(policy=[barbu_cards.lowest] + HEURISTIC3, **keywords)
    assert in_python.attrs["cardlab"]["policies"][0].endswith("test_python_seats.lowest")
    assert in_python.equals(in_numba)


def test_a_python_seat_run_is_the_same_in_any_chunks():
    barbu = game("barbu")
    keywords = dict(deals=90, seed=4, contract="no-hearts,trumps", policy=[lowest, "heuristic", lowest, "random"])
    assert barbu.simulate(chunk_size=25, **keywords).equals(barbu.simulate(**keywords))


def _raises(observation, legal):
    raise ZeroDivisionError("my bug")


def _returns_nothing(observation, legal):
    return None


def test_a_python_seat_that_raises_or_returns_no_move_stops_the_run_in_one_line(tmp_path):
    barbu = game("barbu")
    out = tmp_path / "run.parquet"
    for policy, said in ((_raises, "raised ZeroDivisionError: my bug in deal 0"),
                         (_returns_nothing, "returned None in deal 0, which is not one of its legal moves there")):
        with pytest.raises(ValueError) as e:
            barbu.simulate(deals=50, contract="no-tricks", policy=[policy] + HEURISTIC3, out=out)
        assert "\n" not in str(e.value) and said in str(e.value) and "seat 0 (python:" in str(e.value)
        assert not any(tmp_path.iterdir())


def test_where_a_python_seat_does_not_play_yet_it_is_refused():
    barbu = game("barbu")
    with pytest.raises(ValueError, match="not domino"):
        barbu.simulate(deals=20, contract="domino", policy=[lowest] + HEURISTIC3)
    with pytest.raises(ValueError, match="search seat"):
        barbu.simulate(deals=2, contract="no-tricks", policy=[lowest, "search", "heuristic", "heuristic"])
    with pytest.raises(ValueError, match="not whole games"):
        barbu.simulate_games(games=2, policy=[lowest] + HEURISTIC3)


@pytest.mark.parametrize("name", [g for g in GAMES if type(game(g)).state_columns is Game.state_columns])
def test_a_game_that_runs_no_python_seat_says_where_to_play_one(name):
    g = game(name)
    n = g.players(g.Options())
    with pytest.raises(ValueError, match="runs no Python seat yet"):
        g.simulate(deals=5, policy=[lowest] + ["heuristic"] * (n - 1))
    named = f"python:{lowest.__module__}.lowest"  # the command line's spelling is checked the same way
    with pytest.raises(ValueError, match="runs no Python seat yet"):
        g.simulate(deals=5, policy=",".join([named] + ["heuristic"] * (n - 1)))
