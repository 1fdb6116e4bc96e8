"""Your own player in Python (cardlab.sim.python_seats): a seat played by a function of (observation,
legal actions). Its deals go through the step API, the built-in seats beside it play the kernels' own
decisions: a whole table of them gives the kernels' records exactly, and the same simple policy
written in Python and in Numba gives identical rows."""
from __future__ import annotations

import pandas as pd
import pytest

from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.games import GAMES, game
from cardlab.sim.play import saved_record
from cardlab.sim.python_seats import play_columns
from cardlab.sim.runner import to_frame
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


@pytest.mark.parametrize("rules", [dict(), dict(ace_replay_optional=True), dict(domino_rules="bga_adjacent")],
                         ids=["upward", "ace-replay-optional", "bga-adjacent"])
def test_the_same_domino_rule_in_python_and_in_numba_gives_identical_rows(rules):
    # the lowest playable card by card id; a pass (and a single playable card) is forced in both
    barbu = game("barbu")
    keywords = dict(deals=300, seed=3, contract="domino", **rules)
    in_python = barbu.simulate(policy=[lowest] + HEURISTIC3, **keywords)
    player = {"card": barbu_cards.lowest, "domino": barbu_cards.domino_lowest}
    in_numba = barbu.simulate(policy=[player] + HEURISTIC3, **keywords)
    assert in_python.equals(in_numba)
    assert not in_python.equals(barbu.simulate(**keywords))  # not the heuristic's moves


def test_a_python_seat_run_is_the_same_in_any_chunks():
    barbu = game("barbu")
    keywords = dict(deals=90, seed=4, contract="no-hearts,trumps", policy=[lowest, "heuristic", lowest, "random"])
    assert barbu.simulate(chunk_size=25, **keywords).equals(barbu.simulate(**keywords))


def _raises(observation, legal):
    raise ZeroDivisionError("my bug")


def _returns_nothing(observation, legal):
    return None


def _returns_an_illegal_id(observation, legal):
    return -5


def test_a_python_seat_that_raises_or_returns_no_move_stops_the_run_in_one_line(tmp_path):
    barbu = game("barbu")
    out = tmp_path / "run.parquet"
    for policy, said in ((_raises, "raised ZeroDivisionError: my bug in deal 0"),
                         (_returns_nothing, "returned None in deal 0, which is not one of its legal moves there")):
        with pytest.raises(ValueError) as e:
            barbu.simulate(deals=50, contract="no-tricks", policy=[policy] + HEURISTIC3, out=out)
        assert "\n" not in str(e.value) and said in str(e.value) and "seat 0 (python:" in str(e.value)
        assert not any(tmp_path.iterdir())


def test_a_python_seat_plays_domino_beside_the_built_in_seats():
    barbu = game("barbu")
    keywords = dict(seed=8, contract="domino", policy=[lowest, "heuristic", "classic", "heuristic"])
    rows = barbu.simulate(deals=80, **keywords)
    places = barbu.build("deals", **keywords).kernel_args["places"]
    assert (rows[[f"score_{p}" for p in range(4)]].sum(axis=1) == places.sum()).all()  # every deal played out
    assert rows.equals(barbu.simulate(deals=80, chunk_size=15, **keywords))
    heuristic = barbu.simulate(deals=80, **{**keywords, "policy": ["heuristic", "heuristic", "classic", "heuristic"]})
    assert not rows.equals(heuristic)


@pytest.mark.parametrize("keywords", [dict(policy=["search", "heuristic", "search", "classic"]),
                                      dict(policy=["heuristic", "oracle", "search", "heuristic"]),
                                      dict(policy=["search"] * 4, search_inference="on", search_rollout="random")],
                         ids=["search", "oracle", "inference-random-rollouts"])
def test_search_seats_in_the_state_play_the_kernels_moves(keywords):
    """The state's search seat is the searched kernel given the deal so far: a table of search and other built-in
    seats played move by move through the state gives the kernels' rows (Trumps' searched trump included)."""
    barbu = game("barbu")
    study = barbu.build("deals", seed=9, contract=",".join(TRICK_CONTRACTS), search_worlds=4, **keywords)
    kernel = to_frame(study.play(0, 48))
    state = to_frame(play_columns(study, 0, 48))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def test_a_python_seat_plays_beside_search_seats_as_its_numba_twin_does():
    """Search decides from the public play alone (its rollouts and inference model every other seat as the
    heuristic), so the Python and the Numba lowest-card seat give the same rows beside search seats."""
    barbu = game("barbu")
    keywords = dict(deals=40, seed=4, search_worlds=4, contract=",".join(c for c in TRICK_CONTRACTS if c != "trumps"))
    in_python = barbu.simulate(policy=[lowest, "search", "heuristic", "search"], **keywords)
    in_numba = barbu.simulate(policy=[barbu_cards.lowest, "search", "heuristic", "search"], **keywords)
    assert in_python.equals(in_numba)


DOMINO_RULES = [dict(), dict(domino_rules="fan_tan"), dict(ace_replay_optional=True),
                dict(domino_rules="bga_adjacent", domino_starter="left"), dict(players=3, deck=32)]


@pytest.mark.parametrize("rules", DOMINO_RULES,
                         ids=["-".join(f"{v}" for v in r.values()) or "upward" for r in DOMINO_RULES])
def test_search_seats_in_a_domino_state_play_the_kernels_moves(rules):
    """Domino's search seat in the state is the searched deal's own decision at that move (its table, the passes
    shown, its stream): a table of search, oracle and heuristic seats through the state gives the kernels' rows."""
    n = rules.get("players", 4)
    table = (["search", "heuristic", "oracle", "classic", "search"])[:n]
    study = game("barbu").build("deals", seed=21, contract="domino", policy=table, search_worlds=4, **rules)
    kernel = to_frame(study.play(0, 40))
    state = to_frame(play_columns(study, 0, 40))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def test_a_python_seat_plays_beside_search_seats_in_domino_and_whole_games():
    barbu = game("barbu")
    df = barbu.simulate(deals=6, seed=3, policy=[lowest, "search", "heuristic", "search"], contract="domino",
                        search_worlds=2)
    assert (df[[f"score_{p}" for p in range(4)]].sum(axis=1) == df[[f"score_{p}" for p in range(4)]].sum(
        axis=1).iloc[0]).all()
    games = barbu.simulate_games(games=1, seed=3, policy=[lowest, "search", "heuristic", "heuristic"],
                                 search_worlds=2)
    assert set(games.contract) >= {"domino"}


def first_card(observation, legal):
    """The legal move of lowest id: in every game a legal move (a pass, a discard, a declaration, a card)."""
    return min(legal, key=lambda a: a.id)


@pytest.mark.parametrize("name", [g for g in GAMES if g != "barbu"])
def test_a_python_seat_plays_in_every_game_beside_the_built_in_seats(name, tmp_path):
    g = game(name)
    n = g.players(g.Options())
    deals = 12 if name == "rami" else 60
    out = tmp_path / "run.parquet"
    keywords = dict(deals=deals, seed=5, policy=[first_card] + ["heuristic"] * (n - 1))
    rows = g.simulate(**keywords)
    assert rows.attrs["cardlab"]["policies"][0].endswith("test_python_seats.first_card")
    g.simulate(out=out, **keywords)
    assert pd.read_parquet(out).reset_index(drop=True).equals(rows.reset_index(drop=True))
    assert sorted(rows.columns) == sorted(g.schema(g.Options(), "deals"))  # every column of a plain run
    assert rows.equals(g.simulate(chunk_size=5, **keywords))  # the same in any chunks
    named = f"python:{first_card.__module__}.first_card"  # the command line's spelling
    assert g.simulate(**{**keywords, "policy": ",".join([named] + ["heuristic"] * (n - 1))}).equals(rows)
    study, states = g.build("deals", seed=5, policy=keywords["policy"]), []
    for deal in range(3):  # each deal: seat 0 played its lowest move, the others the kernels' heuristic
        state = g.new_state(study, deal)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(first_card(None, legal) if state.current_player == 0 else state.policy_action("heuristic"))
        states.append(state)
    assert to_frame(g.state_columns(states)).equals(rows.iloc[:3].reset_index(drop=True))


@pytest.mark.parametrize("name", [g for g in GAMES if g != "barbu"])
def test_a_python_seat_that_raises_or_returns_no_move_stops_the_run_in_one_line_in_every_game(name, tmp_path):
    g = game(name)
    n = g.players(g.Options())
    out = tmp_path / "run.parquet"
    for policy, said in ((_raises, "raised ZeroDivisionError: my bug in deal 0"),
                         (_returns_nothing, "returned None in deal 0, which is not one of its legal moves there"),
                         (_returns_an_illegal_id, "returned -5 in deal 0, which is not one of its legal moves there")):
        with pytest.raises(ValueError) as e:
            g.simulate(deals=8, policy=[policy] + ["heuristic"] * (n - 1), out=out)
        assert "\n" not in str(e.value) and said in str(e.value) and "seat 0 (python:" in str(e.value)
        assert not any(tmp_path.iterdir())
