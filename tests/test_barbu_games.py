"""Whole Barbu games: kernel vs referee, §8 game invariants, zero-sum, determinism."""
import numba
import pandas as pd
import pytest

from cardlab.sim.barbu.game_referee import check_game, game_deals, placings, split_points
from cardlab.sim.barbu.rules import BarbuOptions
from cardlab.sim.barbu import GameStudy, simulate_games

GAMES = 60

OPTION_SETS = [
    dict(geronimo=True),
    dict(geronimo=True, double=True),
    dict(geronimo=True, double=True, late_redouble=True, scoring="wiki"),
    dict(geronimo=True, declarer_blocks=True, salade=True, anti_salade=True, double=True, double_obligation=1),
    dict(geronimo=True, players=3, deck=32, double=True, domino_rules="fan_tan"),
    dict(geronimo=True, players=5, deck=52, double=True, domino_rules="bga_adjacent", domino_starter="left"),
    dict(geronimo=True, players=5, deck=32, must_trump=False, ace_replay_optional=True, kh_forced_discard=True),
    dict(double=True),
    dict(regular_cycle="per_contract", iterations=3, double=True, players=3),
    dict(trumps_in_regular=True, trumps=True, iterations=2, hearts_lead="broken", deck=32),
    dict(geronimo=True, double=True, skip_undoubled_negative=True),
    dict(double=True, skip_undoubled_negative=True, double_obligation=0, players=3, scoring="wiki"),
    dict(geronimo=True, double=True, skip_undoubled_negative=True, skip_remainder="others", players=5),
    dict(geronimo=True, players=3, scoring="wiki", domino_three_last="last_place"),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", OPTION_SETS, ids=[",".join(f"{k}={v}" for k, v in r.items()) for r in OPTION_SETS])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_games_match_the_referee(rules, policy):
    study = GameStudy.build(seed=17, policy=policy, **rules)
    cols = study.play_games(0, GAMES, record=True)
    length = study.options.game_length
    assert len(cols["game"]) == GAMES * length
    for g in range(GAMES):
        verdict = check_game(study.options, game_deals(cols, g, length))
        rows = slice(g * length, (g + 1) * length)
        assert verdict.totals == cols["score"][rows].astype(int).sum(axis=0).tolist()


def test_geronimo_every_player_declares_every_contract_once():
    df = simulate_games(games=500, seed=2, geronimo=True, double=True)
    pairs = df.groupby(["game", "declarer", "contract"], observed=True).size()
    assert (pairs == 1).all() and len(pairs) == 500 * 4 * 7


@pytest.mark.parametrize("double", [False, True])
def test_wiki_four_player_52_card_games_are_zero_sum(double):
    df = simulate_games(games=400, seed=4, geronimo=True, double=double, scoring="wiki")
    totals = df.groupby("game")[[f"score_{p}" for p in range(4)]].sum().sum(axis=1)
    assert (totals == 0).all()


def test_settlement_preserves_every_deal_total():
    df = simulate_games(games=300, seed=5, geronimo=True, double=True, double_policy="maximum")
    raw = df[[f"raw_{p}" for p in range(4)]].sum(axis=1)
    final = df[[f"score_{p}" for p in range(4)]].sum(axis=1)
    assert (raw == final).all()
    assert (df[[c for c in df.columns if c.startswith("double_")]].to_numpy() > 0).any()


def test_positive_contract_doubles_target_the_declarer():
    df = simulate_games(games=300, seed=6, geronimo=True, double=True, double_policy="random", policy="random")
    positive = df[df["contract"].isin(["trumps", "domino", "anti-salade"])]
    for i in range(4):
        for j in range(4):
            if i != j:
                hit = positive[positive[f"double_{i}_{j}"] > 0]
                assert (hit["declarer"] == j).all()
                # the declarer never initiates a double
                assert not (df[f"double_{i}_{j}"] > 0)[df["declarer"] == i].any()


def test_games_do_not_depend_on_threads_or_chunks():
    a = simulate_games(games=200, seed=8, geronimo=True, double=True, threads=1, chunk_size=200)
    b = simulate_games(games=200, seed=8, geronimo=True, double=True, threads=numba.config.NUMBA_NUM_THREADS,
                       chunk_size=37)
    pd.testing.assert_frame_equal(a, b)
    c = simulate_games(games=10, seed=8, geronimo=True, double=True, first_game=150)
    pd.testing.assert_frame_equal(a[a["game"] >= 150].head(len(c)).reset_index(drop=True), c)


def test_placings_share_ties():
    assert placings([10, 30, 10, -5]) == [2, 1, 2, 4]


def test_heuristic_declarer_choices_beat_random_ones():
    """Geronimo heuristic seat 0 among random players finishes ahead of a random seat 0."""
    mixed = simulate_games(games=3000, seed=9, geronimo=True, policy="heuristic,random,random,random")
    base = simulate_games(games=3000, seed=9, geronimo=True, policy="random")
    assert mixed.groupby("game")["score_0"].sum().mean() > base.groupby("game")["score_0"].sum().mean() + 10


@pytest.mark.parametrize("total,n,declarer,expected", [
    (-26, 4, 0, [1, -9, -9, -9]), (-24, 4, 2, [-8, -8, 0, -8]), (-13, 4, 1, [-5, 2, -5, -5]),
    (-20, 3, 2, [-10, -10, 0]), (-50, 5, 4, [-13, -13, -13, -13, 2])])
def test_an_undoubled_negative_deal_splits_its_points(total, n, declarer, expected):
    """§7 item 12: the non-declarers share the total, rounded down; the declarer takes 0 to n-2."""
    assert split_points(total, n, declarer) == expected and sum(expected) == total


def test_skipped_deals_keep_wiki_games_zero_sum_and_happen_only_without_doubles():
    df = simulate_games(games=400, seed=12, geronimo=True, double=True, scoring="wiki",
                        skip_undoubled_negative=True)
    assert (df.groupby("game")[[f"score_{p}" for p in range(4)]].sum().sum(axis=1) == 0).all()
    doubled = (df[[c for c in df.columns if c.startswith("double_")]] > 0).any(axis=1)
    negative = ~df["contract"].isin(["trumps", "domino", "anti-salade"])
    skipped = negative & ~doubled
    assert skipped.any()
    raw = df.loc[skipped, [f"raw_{p}" for p in range(4)]].to_numpy()
    declarer = df.loc[skipped, "declarer"].to_numpy()
    others = raw.copy()
    others[range(len(raw)), declarer] = 999
    assert ((others == 999) | (others == others.min(axis=1, keepdims=True))).all()  # equal shares


CONTRACT_SETS = {  # |C| from 4 to 9
    4: dict(last_two=False, domino=False), 5: dict(domino=False), 6: dict(), 7: dict(salade=True),
    8: dict(salade=True, anti_salade=True), 9: dict(salade=True, anti_salade=True, trumps_in_regular=True, trumps=True)}


def _declarations(declarers, contracts, players):
    """(seat x contract) counts of who declared what."""
    table = pd.crosstab(pd.Series(declarers, name="seat"), pd.Series(contracts, name="contract"))
    return table.reindex(range(players), fill_value=0)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("cycle", ["per_player", "per_contract"])
@pytest.mark.parametrize("iterations", [1, 2, 3])
def test_regular_games_rotate_fairly(players, cycle, iterations):
    """Issue 6.3: every seat declares every contract equally often when the game length allows it,
    as evenly as possible otherwise, for every contract count."""
    for k, extra in CONTRACT_SETS.items():
        options = BarbuOptions(players=players, regular_cycle=cycle, iterations=iterations, **extra)
        assert len(options.game_contracts) == k
        declarers = [d for d, _ in options.schedule]
        contracts = [options.game_contracts[s] for _, s in options.schedule]
        table = _declarations(declarers, contracts, players)
        assert (table.max() - table.min() <= 1).all(), (k, table)  # per contract, over the seats
        totals = table.sum(axis=1)
        assert totals.max() - totals.min() <= 1, (k, totals)
        if cycle == "per_player" or iterations % players == 0:
            assert (table == table.iloc[0, 0]).all().all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_regular_kernel_follows_the_fair_schedule(players):
    df = simulate_games(games=3, seed=3, players=players, regular_cycle="per_contract", iterations=3, salade=True,
                        domino=False)
    options = BarbuOptions(players=players, regular_cycle="per_contract", iterations=3, salade=True, domino=False)
    for _, game in df.groupby("game"):
        assert game["declarer"].tolist() == [d for d, _ in options.schedule]
        assert game["contract"].astype(str).tolist() == [options.game_contracts[s] for _, s in options.schedule]
        table = _declarations(game["declarer"], game["contract"].astype(str), players)
        assert table.to_numpy().max() == 1  # three iterations: three different declarers per contract
        if players == 3:
            assert table.to_numpy().min() == 1  # 3 players, 6 contracts: each seat declares each once


@pytest.mark.parametrize("rules", [dict(geronimo=True), dict(geronimo=True, double=True, double_policy="random"),
                                   dict(geronimo=True, double=True, double_policy="maximum", late_redouble=True),
                                   dict(double=True, iterations=2, regular_cycle="per_contract")])
@pytest.mark.parametrize("policy", ["heuristic", "random", "random,heuristic,random,heuristic"])
def test_each_deal_of_a_game_has_its_own_stream(rules, policy):
    """Issue 6.4: early stop changes how many draws a deal consumes, never the later deals of the game."""
    on = simulate_games(games=40, seed=21, policy=policy, **rules)
    off = simulate_games(games=40, seed=21, policy=policy, early_stop=False, **rules)
    pd.testing.assert_frame_equal(on, off)


@pytest.mark.parametrize("total,n,declarer,expected", [
    (-26, 4, 0, [0, -8, -9, -9]), (-24, 4, 2, [-8, -8, 0, -8]), (-13, 4, 1, [-5, 0, -4, -4]),
    (-20, 3, 2, [-10, -10, 0]), (-50, 5, 4, [-12, -12, -13, -13, 0])])
def test_split_remainder_to_the_others(total, n, declarer, expected):
    """Issue 6.6: skip_remainder='others': the declarer scores 0, the others' shares differ by one at most."""
    assert split_points(total, n, declarer, "others") == expected and sum(expected) == total


def test_skip_remainder_others_leaves_the_declarer_zero():
    df = simulate_games(games=200, seed=12, geronimo=True, double=True, skip_undoubled_negative=True,
                        skip_remainder="others")
    doubled = (df[[c for c in df.columns if c.startswith("double_")]] > 0).any(axis=1)
    skipped = df[~df["contract"].isin(["trumps", "domino", "anti-salade"]) & ~doubled]
    raw = skipped[[f"raw_{p}" for p in range(4)]].to_numpy()
    assert len(raw) and (raw[range(len(raw)), skipped["declarer"].to_numpy()] == 0).all()
    assert (raw.sum(axis=1) < 0).all()
