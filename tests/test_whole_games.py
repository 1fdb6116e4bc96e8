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


def play_own_doubles(answer, *, games: range, policy_at_doubles: str = "heuristic", **keywords) -> list:
    """Whole Barbu games where seat 0, a Python seat of doubling policy ``own``, makes every move (its doubling
    choices included) by ``answer(state)``; the other seats play their policies. The finished game states."""
    barbu = game("barbu")
    n = keywords.get("players", 4)
    out = []
    for index in games:
        state = barbu.game_state(game=index, policy=[lowest] + ["heuristic"] * (n - 1),
                                 double_policy=",".join(["own"] + [policy_at_doubles] * (n - 1)), **keywords)
        seats = list(state.study.policies)
        while not state.is_over:
            if state.current_player == 0:
                state.apply(answer(state))
            else:
                state.play_builtin(seats)
        out.append(state)
    return out


def asked(state) -> bool:
    return state.current is not None and state.current.asking is not None


OWN_GAMES = [dict(seed=13, double=True), dict(seed=5, geronimo=True, double=True, late_redouble=True),
             dict(seed=7, geronimo=True, players=3, deck=32, domino_rules="fan_tan", double=True, late_redouble=True),
             dict(seed=9, double=True, skip_undoubled_negative=True, double_obligation=0, players=5)]
OWN_IDS = ["double", "geronimo-late", "geronimo-3-fan-tan", "skip-5"]


@pytest.mark.parametrize("rules", OWN_GAMES, ids=OWN_IDS)
def test_a_python_seat_choosing_its_doubles_as_the_heuristic_gives_the_kernels_game_rows(rules):
    """Issue #18: a Python seat of doubling policy ``own`` is asked each of its doubling choices, in the kernel's
    round's order; answering each as the heuristic does (``policy_action("heuristic")``), cards too, gives the
    heuristic table's kernel rows exactly (doubles, settled scores, Geronimo choices)."""
    n = rules.get("players", 4)
    kernel = to_frame(game("barbu").build("games", policy=["heuristic"] * n, **rules).play_games(1, 3))
    questions = []

    def answer(state):
        if asked(state):
            questions.append(state.current.asking)
        return state.policy_action("heuristic")

    states = play_own_doubles(answer, games=range(1, 4), **rules)
    mine = to_frame(game("barbu").game_state_columns(states))
    pd.testing.assert_frame_equal(mine[list(kernel.columns)], kernel)
    assert questions and all(actor == 0 for actor, _, _, _ in questions)
    assert {kind for _, _, kind, _ in questions} >= {1, 2}


@pytest.mark.parametrize("rules", OWN_GAMES[:3], ids=OWN_IDS[:3])
def test_a_python_seat_that_always_doubles_is_the_maximum_and_one_that_never_does_meets_its_obligations(rules):
    """Saying yes to every choice (redoubles, late ones included) is the ``maximum`` doubling policy's game, row for
    row; saying no to every choice plays other games, whose forced doubles are still made (each seat doubles each
    declarer in at least ``min(2, D_d)`` of its deals)."""
    barbu = game("barbu")
    n = rules.get("players", 4)

    def yes(state):
        if asked(state):
            return state.legal_actions()[0]
        return state.policy_action("heuristic")

    maximum = to_frame(barbu.build("games", policy=["heuristic"] * n,
                                   double_policy=",".join(["maximum"] + ["heuristic"] * (n - 1)), **rules
                                   ).play_games(0, 2))
    always = to_frame(barbu.game_state_columns(play_own_doubles(yes, games=range(2), **rules)))
    pd.testing.assert_frame_equal(always[list(maximum.columns)], maximum)

    def refuse(state):
        if asked(state):
            return next(a for a in state.legal_actions() if a.name == "no")
        return state.policy_action("heuristic")

    never = to_frame(barbu.game_state_columns(play_own_doubles(refuse, games=range(2), **rules)))
    doubles = [f"double_0_{j}" for j in range(1, n)]
    assert not never[doubles].equals(always[doubles])
    for _, g in never.groupby("game"):
        for d in range(1, n):
            declared = (g["declarer"] == d).sum()
            assert (g.loc[g["declarer"] == d, f"double_0_{d}"] > 0).sum() >= min(2, declared)


def test_doubling_choices_are_public_and_recorded():
    """While the round asks seat 0, every seat sees the doubles made so far and the question; the choices are
    ids 100 (no) and 100 + 10 * kind + target, apart from every card, trump and Domino id; the record keeps the
    doubles, the Python seat's among them, in the round's order, as ``replay_game`` writes them, and the doubling
    referee accepts them (turn order, obligations, settlement)."""
    from cardlab.sim.barbu.doubling_referee import DoublingDeal, check_game
    from cardlab.sim.barbu.referee import DOUBLE_KIND_NAMES
    from cardlab.sim.barbu.rules import POSITIVE_CONTRACTS

    seen = []

    def answer(state):
        if asked(state):
            views = [state.observation(p) for p in range(4)]
            assert all(v["doubling"] == views[0]["doubling"] and v["doubles"] == views[0]["doubles"] for v in views)
            assert views[0]["doubling"]["seat"] == 0
            legal = state.legal_actions()
            assert [a.id for a in legal] == [100 + 10 * state.current.asking[2] + state.current.asking[1], 100]
            seen.append(views[0])
            return legal[len(seen) % 2]  # yes and no in turn
        return state.policy_action("heuristic")

    state, = play_own_doubles(answer, games=range(1), seed=5, geronimo=True, double=True, late_redouble=True)
    assert seen and any(v["doubles"] for v in seen)
    deals = state.record()["deals"]
    kinds = {v: k for k, v in DOUBLE_KIND_NAMES.items()}
    logs = [[(a["seat"], a["target"], kinds[a["kind"]]) for a in r["actions"] if a["kind"] in kinds] for r in deals]
    assert any(actor == 0 for log in logs for actor, _, _ in log)
    check_game(4, [DoublingDeal(r["declarer"], log, r["contract"] in POSITIVE_CONTRACTS, r["raw"], r["scores"])
                   for r, log in zip(deals, logs)], late_redouble=True)  # order, obligations, settled scores


def test_own_doubles_are_refused_for_a_seat_that_is_not_a_python_seat():
    barbu = game("barbu")
    refused = (r"^double_policy: seat 2 is a (heuristic|search) seat, which cannot choose its own doubles; own is "
               r"allowed only for a Python seat \(a function in policy=\[...\]\); give random, heuristic or maximum$")
    for policy, doubles in ((["heuristic"] * 4, "heuristic,heuristic,own,random"),
                            ([lowest, "heuristic", "search", "heuristic"], "own,heuristic,own,random")):
        with pytest.raises(ValueError, match=refused):
            barbu.simulate_games(games=1, seed=1, double=True, policy=policy, double_policy=doubles)


def test_simulate_games_asks_an_own_python_seat_its_doubles():
    """In ``simulate_games`` the Python function itself is asked: ``observation["doubling"]`` the question, its legal
    moves the yes (``double seat t`` ...) and ``no``; saying yes every time doubles at least as often as the
    heuristic's doubles for that seat."""
    barbu = game("barbu")
    questions = []

    def doubler(observation, legal):
        if "doubling" in observation:
            assert [a.name for a in legal][1] == "no" and legal[0].entry["target"] == observation["doubling"]["target"]
            questions.append(observation["doubling"])
            return legal[0]
        return lowest(observation, legal)

    keywords = dict(games=1, seed=4, geronimo=True, double=True, late_redouble=True)
    own = barbu.simulate_games(policy=[doubler] + ["heuristic"] * 3, double_policy="own,heuristic,heuristic,heuristic",
                               **keywords)
    assert questions and {q["seat"] for q in questions} == {0}
    assert own.attrs["cardlab"]["double_policies"][0] == "own"
    plain = barbu.simulate_games(policy=[lowest] + ["heuristic"] * 3, **keywords)
    made = [f"double_0_{j}" for j in range(1, 4)]
    assert (own[made] > 0).to_numpy().sum() >= (plain[made] > 0).to_numpy().sum()


def test_a_person_chooses_their_doubles_in_cardlab_play():
    """``cardlab play barbu --game-index G --double --double-policy own,...``: the person's seat (``person``, which
    the play command sets to ``--seat``) is asked its doubling choices like its cards; other seats may not be own."""
    from cardlab.sim.play import play

    lines = []
    state = play("barbu", seat=1, game_index=0, seed=2, double=True, double_policy="heuristic,own,heuristic,heuristic",
                 person=1, read=lambda prompt: "1", write=lines.append)
    asks = [line for line in lines if line.startswith("your move: 1) ") and " seat " in line.split(")")[1]]
    assert asks and all(line.endswith("2) no") for line in asks)
    assert any(a["seat"] == 1 for r in state.record()["deals"] for a in r["actions"] if a["kind"] == "double")
    with pytest.raises(ValueError, match="^double_policy: seat 2 is a heuristic seat"):
        play("barbu", seat=1, game_index=0, double=True, double_policy="heuristic,own,own,heuristic", person=1,
             read=lambda prompt: "q", write=lines.append)
