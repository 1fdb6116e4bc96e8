"""The built-in seats in the step API (``State.policy_action``): the kernels' own decisions, called on the state's
view. A deal played through the state by the built-in policies gives the kernels' rows exactly, column for
column and type for type, in every game: whole tables of each policy and mixed tables (random seats draw from the
deal's own stream, as the kernels do, where the game's state holds it)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardlab.sim.games import GAMES, game
from cardlab.sim.python_seats import play_columns
from cardlab.sim.runner import to_frame
from cardlab.sim.whole_games import play_game_columns

#: Keywords a game's study needs for the state to play it (Barbu: every contract, Domino included).
KEYWORDS = {"barbu": dict(contract="all")}


#: The built-in policies each game's state plays (``State.builtin_policies``) besides search and oracle, which it plays
#: where the game sets ``search_beside_python`` (the searched kernel given the deal so far; Barbu's random seats beside
#: a Python seat draw from their own generator, not the kernels' stream: tests/test_python_seats.py).
BUILTIN = {"barbu": ("heuristic", "classic")}
#: The policies of the tables below.
TABLED = {"barbu": ("heuristic", "classic")}


def tables(name: str) -> list[list[str]]:
    """Whole tables of each built-in policy the state plays, and a table mixing them seat by seat."""
    g = game(name)
    n = g.players(g.Options())
    builtin = TABLED.get(name, ("random", "heuristic"))
    mixed = [builtin[p % len(builtin)] for p in range(n)]
    return [[p] * n for p in builtin] + ([mixed, mixed[1:] + mixed[:1]] if len(builtin) > 1 else [])


CASES = [(name, table) for name in GAMES for table in tables(name)]


def _same_rows(name: str, table: list[str], first: int, count: int, seed: int) -> None:
    study = game(name).build("deals", seed=seed, policy=table, **KEYWORDS.get(name, {}))
    kernel = to_frame(study.play(first, count))
    state = to_frame(play_columns(study, first, count))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])
    assert len(state.columns) == len(game(name).schema(study.options, "deals"))  # every column of a run


@pytest.mark.parametrize("name", list(GAMES))
def test_every_state_plays_its_built_in_policies(name):
    g = game(name)
    state = g.new_state(g.build("deals", seed=3, **KEYWORDS.get(name, {})), 1)
    searched = ("search", "oracle") if g.search_beside_python else ()
    assert state.builtin_policies == BUILTIN.get(name, ("random", "heuristic")) + searched
    for _ in range(12):
        move = state.policy_action("heuristic")
        assert move in state.legal_actions()
        state.apply(move)
    if "search" not in state.builtin_policies:
        with pytest.raises(ValueError, match="search seats do not play"):
            state.policy_action("search")


@pytest.mark.parametrize("name,table", CASES, ids=[f"{n}-{'-'.join(t)}" for n, t in CASES])
def test_built_in_seats_in_the_state_give_the_kernels_rows(name, table):
    count = {"rami": 40, "minchiate": 100}.get(name, 300)
    _same_rows(name, table, 0, count, seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("name,table", CASES, ids=[f"{n}-{'-'.join(t)}" for n, t in CASES])
def test_built_in_seats_in_the_state_give_the_kernels_rows_on_more_deals(name, table):
    count = {"rami": 200, "minchiate": 600}.get(name, 2000)
    _same_rows(name, table, 5000, count, seed=29)


#: Tables with search and oracle seats, the others built-in, in the games whose state plays them.
SEARCHED = [name for name in GAMES if game(name).search_beside_python]


def _searched_table(name: str) -> list[str]:
    g = game(name)
    n = g.players(g.Options())
    return (["search", "heuristic", "oracle"] + [BUILTIN.get(name, ("random",))[0]] * n)[:n]


@pytest.mark.parametrize("name", SEARCHED)
def test_search_seats_in_the_state_give_the_search_kernels_rows(name):
    """Search and oracle seats played through the state (the searched kernel stopped at each of their decisions)
    give the search kernel's rows exactly, column for column, in a run of deals and in whole games."""
    keywords = dict(seed=17, policy=_searched_table(name), search_worlds=4, **KEYWORDS.get(name, {}))
    study = game(name).build("deals", **keywords)
    kernel = to_frame(study.play(0, 24))
    state = to_frame(play_columns(study, 0, 24))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def _search_keywords(name: str) -> dict:
    """Every contract in Barbu (Domino included); the others' defaults."""
    return KEYWORDS.get(name, {})


@pytest.mark.parametrize("name", SEARCHED)
def test_hidden_cards_never_change_a_search_seats_decision(name):
    """At each of a search seat's decisions in the state, a deal redealt consistently with its view (``resample``:
    the cards hidden from it moved) gives the same candidate means: the search decides only from what it may know."""
    g = game(name)
    n = g.players(g.Options())
    study = g.build("deals", seed=23, policy=["search"] + ["heuristic"] * (n - 1), search_worlds=4,
                    **_search_keywords(name))
    rng = np.random.default_rng(0)
    checked = 0
    for deal in range(4):
        state = g.new_state(study, deal)
        while not state.is_over:
            seat = state.current_player
            if seat == 0 and state.policy_ready():
                means = state.search_means(4)
                if means:
                    other = state.resample(0, rng)
                    assert other.observation(0) == state.observation(0)
                    assert other.search_means(4) == means, (deal, state.observation(0))
                    checked += 1
            state.apply(state.policy_action(study.policies[seat]))
    assert checked >= 8


@pytest.mark.parametrize("name", SEARCHED)
def test_a_python_policy_plays_beside_search_seats_and_joins_the_ladder(name):
    """A Python seat shares a table with search seats in a run and on the strength ladder (its gains against
    search included)."""
    from cardlab.sim.ladder import strength_study

    def first_legal(observation, legal):
        return legal[0]

    g = game(name)
    n = g.players(g.Options())
    df = g.simulate(deals=6, seed=2, policy=[first_legal] + ["search"] * (n - 1), search_worlds=2,
                    **_search_keywords(name))
    assert len(df) == 6
    ladder = strength_study(g, deals=4, seed=1, search_worlds=2, policies={"first": first_legal},
                            **_search_keywords(name))
    assert any("first" in c and "search" in c for c in ladder.columns)  # the own rung against search (lone or team)
    assert ladder.attrs["cardlab"]["policies"][-1] == "first"


#: Whole games of a few deals (Minchiate's of three deals).
GAME_KEYWORDS = {"minchiate": dict(n_deals=3), "rami": dict(target_per_opponent=20)}


@pytest.mark.parametrize("name", SEARCHED)
def test_search_seats_in_whole_games_through_the_state_give_the_search_kernels_game_rows(name):
    """The same in whole games: each deal's searches draw from the streams the games kernel keys them by."""
    study = game(name).build("games", seed=19, policy=_searched_table(name), search_worlds=3,
                             **GAME_KEYWORDS.get(name, {}))
    kernel = to_frame(study.play_games(0, 2))
    state = to_frame(play_game_columns(study, 0, 2))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


DOMINO_RULES = [dict(), dict(domino_rules="fan_tan"), dict(ace_replay_optional=True),
                dict(domino_rules="bga_adjacent", domino_starter="left"), dict(players=3, deck=32)]


@pytest.mark.parametrize("rules", DOMINO_RULES,
                         ids=["-".join(f"{v}" for v in r.values()) or "upward" for r in DOMINO_RULES])
def test_built_in_seats_in_the_state_give_the_kernels_rows_on_domino_deals(rules):
    n = rules.get("players", 4)
    for table in (["heuristic"] * n, ["classic", "heuristic"] * (n // 2) + ["classic"] * (n % 2)):
        study = game("barbu").build("deals", seed=13, policy=table, contract="domino", **rules)
        kernel = to_frame(study.play(0, 150))
        state = to_frame(play_columns(study, 0, 150))
        pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


@pytest.mark.parametrize("rules", [dict(domino_rules="fan_tan"), dict(ace_replay_optional=True)])
def test_a_domino_state_gives_the_kernels_heuristic_moves_one_at_a_time(rules):
    barbu = game("barbu")
    keywords = dict(seed=6, contract="domino", **rules)
    study = barbu.build("deals", **keywords)
    for deal, record in enumerate(barbu.replay(deal="0:60", **keywords).records):
        state = barbu.new_state(study, deal)
        while not state.is_over:
            state.apply(state.policy_action("heuristic"))
        assert state.record()["actions"] == record["actions"], deal


def test_a_game_whose_state_plays_no_search_refuses_search_beside_a_python_seat():
    """A game that does not set ``search_beside_python`` (a new game's default) refuses such a table in one line."""
    hearts = game("hearts")
    plain = type("PlainHearts", (type(hearts),), {"search_beside_python": False})()
    study = hearts.build("deals", seed=1, policy=["search", "heuristic", "heuristic", "heuristic"])
    with pytest.raises(ValueError, match="policy: a Python seat and a search seat cannot share a table yet"):
        plain.check_search_beside_python(study, "deals")
    hearts.check_search_beside_python(study, "deals")  # Hearts' own: allowed
