"""Rami rules: options, the seed's worked examples, game end, determinism, whole games and the CLI."""
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from cardlab.sim.cli import main
from cardlab.sim.rami import RamiOptions, replay, simulate, simulate_games
from cardlab.sim.rami.rules import (DECK_HAND_VALUE, HAND_VALUE, game_over, hand_value, never_opened_cap,
                                    parse_hand, round_scores, target)


def test_deck_hand_value_is_840():
    assert int(HAND_VALUE[:52].sum()) * 2 + 4 * int(HAND_VALUE[52]) == DECK_HAND_VALUE == 840


def test_seed_worked_examples():
    assert hand_value(parse_hand("A♥ JK 5♣")) == 36  # ace 11 + joker 20 + 5
    two = RamiOptions(players=2)
    assert round_scores(two, [True, False], [True, False], [0, 40], False) == [0, 50]  # min(65, 100, 50)
    four = RamiOptions(players=4)
    assert round_scores(four, [True, False, False, False], [True, True, True, False], [0, 12, 30, 80], False) == \
        [0, 12, 30, 100]  # min(105, 100, 150); the opened losers pay H
    three = RamiOptions(players=3)
    assert round_scores(three, [False, True, False], [False, True, False], [95, 0, 3], True) == [200, 0, 200]
    assert [target(n) for n in range(2, 7)] == [100, 200, 300, 400, 500]
    assert never_opened_cap(2) == 50 and never_opened_cap(3) == 100 and never_opened_cap(6) == 100


def test_game_end_needs_a_single_lowest_total():
    assert not game_over([90, 40], 2)
    assert game_over([100, 40], 2)
    assert not game_over([300, 120, 120, 200], 4)  # tie at the lowest total: another round
    assert game_over([300, 119, 120, 200], 4)


@pytest.mark.parametrize("bad,match", [
    (dict(players=7), r"^players: 7 is not allowed"),
    (dict(open_threshold=-1), r"^open_threshold: -1 is not allowed"),
    (dict(n_jokers=2, max_jokers_per_meld=2), r"^max_jokers_per_meld: 2 is not allowed with n_jokers=2"),
    (dict(n_jokers=3), r"^n_jokers: 3"),
    (dict(freed_joker_use="hand"), r"^freed_joker_use: 'hand'"),
    (dict(blocked_tie="first"), r"^blocked_tie: 'first'"),
    (dict(hand_size=12), r"^hand_size: 12"),
    (dict(max_jokers_per_meld=True), r"^max_jokers_per_meld"),
])
def test_bad_options_are_one_line_errors(bad, match):
    with pytest.raises(ValueError, match=match) as err:
        RamiOptions(**bad)
    assert "\n" not in str(err.value)


def test_columns_and_dealer_rotation():
    df = simulate(deals=120, seed=3, players=5)
    expected = ["deal", "dealer", "turns", "blocked", "rami_sec"] + [f"{c}_{p}" for c in ("won", "opened", "hand_value",
                                                                                        "score") for p in range(5)]
    assert list(df.columns) == expected
    assert (df["dealer"] == df["deal"] % 5).all()
    assert df["blocked"].dtype == bool and df["won_0"].dtype == bool


def test_same_results_whatever_threads_and_chunks():
    a = simulate(deals=300, seed=11, players=4, threads=1, chunk_size=300)
    b = simulate(deals=300, seed=11, players=4, threads=2, chunk_size=37)
    assert a.equals(b)
    c = simulate(deals=50, seed=11, players=4, first_deal=100)
    assert c.reset_index(drop=True).equals(a.iloc[100:150].reset_index(drop=True))
    g1 = simulate_games(games=30, seed=4, players=3, threads=1, chunk_size=30)
    g2 = simulate_games(games=30, seed=4, players=3, threads=2, chunk_size=7)
    assert g1.equals(g2)


def test_whole_games_end_as_the_seed_says():
    for players in (2, 4, 6):
        df = simulate_games(games=40, seed=5, players=players)
        n, t = players, target(players)
        for _, g in df.groupby("game"):
            totals = g[[f"total_{p}" for p in range(n)]].to_numpy()
            scores = g[[f"score_{p}" for p in range(n)]].to_numpy()
            assert (np.cumsum(scores, axis=0) == totals).all()  # totals never decrease
            assert (g["round"].to_numpy() == np.arange(len(g))).all()
            assert (np.diff(g["dealer"].to_numpy()) % n == 1).all()  # the deal passes clockwise
            for row in totals[:-1]:
                assert not game_over(row, n)
            assert game_over(totals[-1], n) and totals[-1].max() >= t


def test_replay_matches_the_run_and_is_checked():
    df = simulate(deals=6, seed=7, players=4)
    for deal in range(6):
        r = replay(deal=deal, seed=7, players=4)
        assert r.record["result"]["score"] == [int(df[f"score_{p}"][deal]) for p in range(4)]
        assert "turn 1: seat" in r.text and "scores:" in r.text
        assert r.record["actions"] and len(r.record["deck"]) == 108


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_simulate_report_replay(tmp_path, capsys):
    out = tmp_path / "r.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "rami", "--players", "3", "--deals", "400", "--seed", "2", "--out",
                              str(out), "--open-threshold", "40", "--recycle-discards")
    assert code == 0 and "wrote 400 rounds" in stdout
    table = pq.read_table(out)
    meta = json.loads(table.schema.metadata[b"cardlab"])
    assert meta["game"] == "rami" and meta["options"]["open_threshold"] == 40 and meta["options"]["recycle_discards"]
    assert table.num_rows == 400 and "hand_value_2" in table.column_names
    code, stdout, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "first player" in stdout and "rami sec" in stdout
    code, stdout, _ = run_cli(capsys, "replay", "rami", "--players", "3", "--seed", "2", "--deal", "4:6", "--json",
                              "--open-threshold", "40", "--recycle-discards")
    records = [json.loads(line) for line in stdout.splitlines()]
    assert [r["deal"] for r in records] == [4, 5]
    df = table.to_pandas()
    assert records[0]["result"]["score"] == [int(df[f"score_{p}"][4]) for p in range(3)]
    code, stdout, _ = run_cli(capsys, "simulate", "rami", "--players", "2", "--games", "30", "--seed", "1")
    assert code == 0 and "whole-game report" in stdout
    code, stdout, _ = run_cli(capsys, "study", "rami", "threshold", "--players", "4", "--deals", "100")
    # the variants study with the threshold at 30 and 40 beside the run's own 51, paired on the same rounds
    assert code == 0 and "varied: open_threshold = 30, 40, 51" in stdout and "open_threshold=51" not in stdout
    assert "open_threshold=30" in stdout and "open_threshold=40" in stdout and "turns" in stdout


@pytest.mark.parametrize("argv,needle", [
    (["simulate", "rami", "--players", "7", "--deals", "5"], "--players: 7 is not allowed"),
    (["simulate", "rami", "--open-threshold", "-1", "--deals", "5"], "--open-threshold: -1 is not allowed"),
    (["simulate", "rami", "--n-jokers", "2", "--max-jokers-per-meld", "2", "--deals", "5"], "n_jokers=2"),
    (["replay", "rami", "--deal", "5:2"], "--deal: '5:2' is an empty range"),
    (["simulate", "rami", "--freed-joker-use", "pocket", "--deals", "5"], "--freed-joker-use: 'pocket'"),
])
def test_cli_bad_input_leaves_no_file(tmp_path, capsys, argv, needle):
    out = tmp_path / "bad.parquet"
    code, _, err = run_cli(capsys, *argv, *(["--out", str(out)] if argv[0] == "simulate" else []))
    assert code == 2 and needle in err and err.count("\n") == 1
    assert not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["cardlab.sim.rami", "cardlab.sim.rami.rules", "cardlab.sim.rami.melds",
                                  "cardlab.sim.rami.interface"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
