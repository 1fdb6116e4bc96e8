"""Whole games in the step API (cardlab.sim.whole_games): deal after deal, dealt where the kernels deal them. Played
by the built-in policies through the state, a game gives the kernels' game rows exactly, column for column and type
for type; a Python seat plays whole games in simulate_games; the state is a State (observation with the game's
totals, clone, resample, record)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardlab.sim.games import game
from cardlab.sim.runner import to_frame
from cardlab.sim.whole_games import WholeGame, play_game_columns

WHOLE = ("euchre5", "minchiate", "rami")
KEYWORDS = {"minchiate": dict(n_deals=3)}
COUNT = {"euchre5": 40, "minchiate": 8, "rami": 4}


def tables(name: str) -> list[list[str]]:
    n = game(name).players(game(name).Options())
    mixed = [("random", "heuristic")[p % 2] for p in range(n)]
    return [["heuristic"] * n, ["random"] * n, mixed]


CASES = [(name, table) for name in WHOLE for table in tables(name)]


@pytest.mark.parametrize("name,table", CASES, ids=[f"{n}-{'-'.join(t)}" for n, t in CASES])
def test_whole_games_through_the_state_give_the_kernels_game_rows(name, table):
    study = game(name).build("games", seed=13, policy=table, **KEYWORDS.get(name, {}))
    kernel = to_frame(study.play_games(5, COUNT[name]))
    state = to_frame(play_game_columns(study, 5, COUNT[name]))
    pd.testing.assert_frame_equal(state, kernel)


@pytest.mark.parametrize("name", WHOLE)
def test_a_whole_game_is_a_state(name):
    g = game(name)
    state = g.game_state(seed=3, game=2, **KEYWORDS.get(name, {}))
    assert isinstance(state, WholeGame) and state.deal == 0 and not state.is_over
    seat = state.current_player
    view = state.observation(seat)
    assert view["game"] == {"deal": 0, "totals": [0] * len(state.scores())}
    copy = state.clone()
    state.apply(state.policy_action("heuristic"))
    assert copy.deal == 0 and copy.current.legal_actions() == copy.legal_actions()
    # the resampled game keeps what the seat to move sees of the deal under way
    seat = state.current_player
    other = state.resample(seat, np.random.default_rng(1))
    assert other.observation(seat) == state.observation(seat)
    while not state.is_over:
        state.apply(state.policy_action("heuristic"))
    totals = [sum(s) for s in zip(*(d.scores() for d in state.finished))]
    assert state.scores() == totals and state.legal_actions() == [] and state.current_player == -1
    record = state.record()
    assert record["game_index"] == 2 and len(record["deals"]) == len(state.finished) >= 1
    assert record["totals"] == totals


def test_a_python_seat_plays_whole_games_in_simulate_games():
    euchre = game("euchre5")

    def lowest(observation, legal):
        return min(legal, key=lambda a: a.id)

    df = euchre.simulate_games(games=20, seed=4, policy=[lowest] + ["heuristic"] * 4)
    assert df.attrs["cardlab"]["policies"][0].startswith("python:")
    assert set(df.columns) == set(euchre.simulate_games(games=2, seed=4).columns)
    totals = df.groupby("game")[[f"score_{p}" for p in range(5)]].sum()
    assert (totals.max(axis=1) >= 10).all() or (df.groupby("game").size() == euchre.Options().max_hands).any()


def test_a_python_seat_error_names_the_game_and_the_deal():
    def fails_late(observation, legal):
        if observation["game"]["deal"] == 1:
            raise RuntimeError("no idea")
        return legal[0]

    with pytest.raises(ValueError, match=r"^policy: seat 0 \(python:.*fails_late\) raised RuntimeError: no idea in "
                                         r"game 0, deal 1$"):
        game("minchiate").simulate_games(games=1, seed=1, n_deals=2, policy=[fails_late] + ["heuristic"] * 3)


BARBU_GAMES = [dict(), dict(geronimo=True), dict(geronimo=True, players=3, deck=32, domino_rules="fan_tan"),
               dict(double=True), dict(geronimo=True, double=True, late_redouble=True, double_policy="random"),
               dict(double=True, skip_undoubled_negative=True, double_obligation=0, players=5,
                    double_policy="heuristic,maximum,random,heuristic,heuristic")]


@pytest.mark.parametrize("rules", BARBU_GAMES, ids=["regular", "geronimo", "geronimo-3-fan-tan", "double",
                                                    "geronimo-double-late-random", "double-skip-5-mixed"])
def test_barbu_whole_games_through_the_state_give_the_kernels_game_rows(rules):
    """Doubles included: every seat doubles by its doubling policy as the kernel's round does, from the game's
    obligations and the deal's stream (random doubles too), and the scores are settled alike."""
    n = rules.get("players", 4)
    for table in (["heuristic"] * n, ["heuristic", "random", "heuristic", "random", "heuristic"][:n]):
        study = game("barbu").build("games", seed=13, policy=table, **rules)
        kernel = to_frame(study.play_games(3, 3))
        if "random" in table:  # Barbu's random seats beside a Python seat draw from their own generator: the
            kernel = kernel[["game", "deal", "contract", "declarer"]]  # contract choices alone are the kernels'
        state = to_frame(play_game_columns(study, 3, 3))
        pd.testing.assert_frame_equal(state[list(kernel.columns)], kernel)


def lowest(observation, legal):
    """A Python seat: the legal move of lowest id."""
    return min(legal, key=lambda a: a.id)


@pytest.mark.parametrize("others,rules", [(["heuristic"] * 3, dict(games=3, seed=4, geronimo=True)),
                                          (["search", "heuristic", "search"],
                                           dict(games=1, seed=6, geronimo=True, search_worlds=3))],
                         ids=["heuristic", "search"])
def test_a_python_seat_plays_whole_barbu_games(others, rules):
    """Beside heuristic seats, and beside search seats (Domino included)."""
    barbu = game("barbu")
    keywords = dict(policy=[lowest] + others, **rules)
    df = barbu.simulate_games(**keywords)
    options = barbu.Options(**{k: v for k, v in rules.items() if k in ("geronimo", "domino")})
    assert list(df.columns) == list(barbu.simulate_games(games=1, seed=4, geronimo=True).columns)
    assert (df.groupby(["game", "declarer"])["contract"].nunique() == len(options.game_contracts)
            ).all()  # each declarer chose each contract once
    assert df.equals(barbu.simulate_games(chunk_size=1, **keywords))
    state = barbu.game_state(seed=4, game=1, geronimo=True)
    assert state.observation(state.current_player)["game"] == {"deal": 0, "totals": [0] * 4}


def test_barbu_whole_games_with_search_seats_through_the_state_give_the_kernels_game_rows():
    """Search seats in a whole game played through the state: their Geronimo choices, trumps and cards are the game
    kernel's own searches on the streams it keys them by (the game's, the deal, the decision)."""
    study = game("barbu").build("games", seed=5, policy=["search", "heuristic", "oracle", "heuristic"], search_worlds=3,
                                geronimo=True, domino=False, double=True)
    kernel = to_frame(study.play_games(1, 2))
    state = to_frame(play_game_columns(study, 1, 2))
    pd.testing.assert_frame_equal(state[list(kernel.columns)], kernel)


def test_a_python_seat_plays_whole_barbu_games_with_doubling():
    """The Python seat plays its cards (and names its trump); its doubles are its doubling policy's (heuristic by
    default), which every seat sees among the deal's public facts; the settled scores add up to the raw ones."""
    barbu = game("barbu")
    seen = []

    def watching(observation, legal):
        seen.append((observation.get("doubles"), legal[0].entry["kind"]))
        return lowest(observation, legal)

    keywords = dict(games=2, seed=4, geronimo=True, double=True, policy=[watching] + ["heuristic"] * 3)
    df = barbu.simulate_games(**keywords)
    assert list(df.columns) == list(barbu.simulate_games(games=1, seed=4, geronimo=True, double=True).columns)
    raw, score = df[[f"raw_{p}" for p in range(4)]].to_numpy(), df[[f"score_{p}" for p in range(4)]].to_numpy()
    assert (raw.sum(axis=1) == score.sum(axis=1)).all() and (raw != score).any()
    assert any(d for d, _ in seen)  # the doubles are made once the trump is named, before the first card
    assert all(isinstance(d, list) if kind != "trump" else d is None for d, kind in seen)
    assert df.equals(barbu.simulate_games(chunk_size=1, **keywords))
    state = barbu.game_state(seed=4, game=0, geronimo=True, double=True)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = state.record()["deals"]
    assert all("played" in r and "raw" in r for r in record)
    assert any(a["kind"] in ("double", "redouble", "late-redouble") for r in record for a in r["actions"])


def test_a_doubled_barbu_games_state_records_are_the_replays():
    """A whole game with doubling played through the state by the heuristic: each deal's record (the doubles first,
    ``played``, ``raw``, settled scores) is ``replay_game``'s, key for key."""
    barbu = game("barbu")
    keywords = dict(seed=3, geronimo=True, double=True, late_redouble=True)
    state = barbu.game_state(game=0, **keywords)
    while not state.is_over:
        state.apply(state.policy_action("heuristic"))
    mine = state.record()["deals"]
    replayed = barbu.replay_game(game=0, **keywords).records
    assert len(mine) == len(replayed) == barbu.Options(geronimo=True).game_length
    assert [{k: r[k] for k in m} for r, m in zip(replayed, mine)] == mine
