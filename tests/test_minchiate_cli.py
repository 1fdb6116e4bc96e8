"""Minchiate through the cardlab command and the facade: columns, replay, studies, errors, determinism."""
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from cardlab import analysis
from cardlab.sim import minchiate
from cardlab.sim.cli import main
from cardlab.sim.minchiate.rules import SOURCES

COLUMNS = ["deal", "dealer", "cutter_cards", "points_0", "points_1", "resti_0", "resti_1", "net_resti",
           *[f"{s}_{t}" for t in range(2) for s in SOURCES]]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_columns_report_and_plot(tmp_path, capsys):
    out = tmp_path / "m.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "minchiate", "--deals", "3000", "--seed", "4", "--policy",
                              "heuristic", "--out", str(out), "--plot", str(tmp_path / "m.png"))
    assert code == 0 and "wrote 3,000 deals" in stdout and "dealer's team" not in stdout  # the report: below
    table = pq.read_table(out)
    assert table.column_names[:len(COLUMNS)] == COLUMNS
    df = table.to_pandas()
    assert (df.dealer == df.deal % 4).all()
    meta = json.loads(table.schema.metadata[b"cardlab"])
    assert meta["game"] == "minchiate" and meta["options"]["steal_29"] is True and meta["deals"] == 3000
    assert (tmp_path / "m.png").stat().st_size > 10_000
    code, stdout, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "points per deal by source" in stdout and "declared combinations" in stdout
    assert "dealer's team" in stdout


def test_every_option_flag(capsys):
    code, stdout, _ = run_cli(capsys, "simulate", "minchiate", "--deals", "200", "--no-steal-29", "--cutter-cap", "5",
                              "--expose-last-cards", "all_four", "--dealer-takes-from-fola", "counting+trumps_above_20",
                              "--discards-to", "own_team_pile", "--declarations", "mandatory_all", "--no-c5-merge",
                              "--no-combos-may-share", "--matto-bonus-on-c3", "--no-score-pile-combos",
                              "--card-bonus-rule", "beyond_42", "--cappotto-double", "--policy", "random")
    assert code == 0 and "net resti" in stdout


def test_whole_games_sum_their_deals(tmp_path, capsys):
    out = tmp_path / "g.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "minchiate", "--games", "50", "--n-deals", "4", "--seed", "2",
                              "--out", str(out))
    assert code == 0 and "wrote 50 games" in stdout
    games, meta = analysis.load_run(out)
    assert meta["unit"] == "game" and (games.n_deals == 4).all()
    deals = minchiate.simulate(deals=200, seed=2)
    summed = deals.groupby(deals.deal // 4)[["net_resti", "points_0", "card_points_1"]].sum()
    assert (summed.to_numpy() == games[["net_resti", "points_0", "card_points_1"]].to_numpy()).all()
    code, stdout, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "whole-game report (4 deals a game) | seed 2 | 50 games" in stdout and "n_deals=4" in stdout


def test_replay_text_and_json(capsys):
    code, text, _ = run_cli(capsys, "replay", "minchiate", "--seed", "7", "--deal", "3")
    assert code == 0
    assert "deal 3: dealer seat 3" in text and "trick 21:" in text and "Δ" in text and "net resti" in text
    assert "Trump" in text and " of " in text
    code, lines, _ = run_cli(capsys, "replay", "minchiate", "--seed", "7", "--deal", "3:5", "--json")
    records = [json.loads(line) for line in lines.strip().splitlines()]
    assert [r["deal"] for r in records] == [3, 4]
    for r in records:
        assert {"dealer", "cutter_draw", "hands", "exposed", "fola", "dealer_draw", "discards", "declarations",
                "tricks", "points_by_source", "resti"} <= set(r)
        assert len(r["tricks"]) == 21 and all(len(t) == 4 for t in r["tricks"])
        assert all(len(h) == 21 for p, h in enumerate(r["hands"]) if p != (r["dealer"] + 3) % 4)
        assert sum(len(r["discards"][p]) for p in range(4)) + len(r["fola"]) >= len(r["cutter_draw"])
    row = minchiate.simulate(deals=1, first_deal=4, seed=7)
    assert records[1]["net_resti"] == int(row.net_resti[0])


def test_option_study(tmp_path, capsys):
    out = tmp_path / "o.parquet"
    code, stdout, _ = run_cli(capsys, "study", "minchiate", "options", "--deals", "400", "--out", str(out),
                              "--plot", str(tmp_path / "o.png"))
    assert code == 0 and stdout.startswith("wrote 400 deals") and (tmp_path / "o.png").exists()
    df, meta = analysis.load_run(out)  # one row per deal, a column per figure and variant (cardlab.sim.variants)
    assert meta["study"] == "options" and len(df) == 400 and all(f"net_resti@{v}" in df for v in meta["variants"])
    base, same = df["net_resti@default"], df["net_resti@declarations=mandatory_all"]
    assert (base == same).all()  # both policies declare everything already
    pytest.importorskip("cardlab.analysis.variants")  # the options report every game shares
    code, stdout, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "score_pile_combos=false" in stdout and "shift" in stdout


def test_replay_whole_games(capsys):
    code, lines, _ = run_cli(capsys, "replay", "minchiate", "--seed", "2", "--game-index", "1:3", "--n-deals", "4",
                             "--json")
    records = [json.loads(line) for line in lines.strip().splitlines()]
    assert code == 0 and [(r["game"], r["deal"]) for r in records] == [(g, 4 * g + d) for g in (1, 2) for d in range(4)]
    games = minchiate.simulate_games(games=3, seed=2, n_deals=4)
    for g in (1, 2):
        assert sum(r["net_resti"] for r in records if r["game"] == g) == games.net_resti[g]
    text = minchiate.replay_game(game=1, seed=2, n_deals=4).text
    assert text.startswith("game 1: deals 4 to 7") and "deal 7: dealer seat 3" in text


@pytest.mark.parametrize("argv, text", [
    (["simulate", "minchiate", "--players", "3", "--deals", "5"], "--players: 3 is not allowed; choose 4"),
    (["simulate", "minchiate", "--games", "5", "--n-deals", "0"], "--n-deals: 0 is not allowed"),
    (["simulate", "minchiate", "--deals", "5", "--n-deals", "4"],
     "--n-deals 4 does not apply here; it applies only to whole games (--games, replay --game-index)"),
    (["simulate", "minchiate", "--deals", "5", "--expose-last-cards", "nobody"], "--expose-last-cards: 'nobody'"),
    (["simulate", "minchiate", "--deals", "5", "--policy", "greedy"], "--policy: 'greedy' is not allowed"),
    (["replay", "minchiate", "--deal", "5:2"], "--deal: '5:2' is an empty range"),
])
def test_bad_input_one_line_no_file(tmp_path, capsys, argv, text):
    out = tmp_path / "bad.parquet"
    code, _, err = run_cli(capsys, *argv, *(["--out", str(out)] if argv[0] == "simulate" else []))
    assert code == 2 and text in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_same_results_whatever_threads_and_chunks():
    import random

    import numpy as np

    a = minchiate.simulate(deals=5000, seed=9, threads=1, chunk_size=5000)
    np.random.seed(123)  # disturbing the global generators changes nothing
    random.seed(5)
    b = minchiate.simulate(deals=5000, seed=9, threads=2, chunk_size=777)
    pd.testing.assert_frame_equal(a, b)
    c = minchiate.simulate(deals=100, seed=9, first_deal=2000, policy="random", threads=2)
    d = minchiate.simulate(deals=5000, seed=9, policy="random", threads=1, chunk_size=1234).iloc[2000:2100]
    pd.testing.assert_frame_equal(c, d.reset_index(drop=True))
    g1 = minchiate.simulate_games(games=300, seed=9, n_deals=4, threads=1, chunk_size=300)
    g2 = minchiate.simulate_games(games=300, seed=9, n_deals=4, threads=2, chunk_size=64)
    pd.testing.assert_frame_equal(g1, g2)


def test_long_games_do_not_overflow():
    games = minchiate.simulate_games(games=2, n_deals=150, seed=1)
    deals = minchiate.simulate(deals=300, seed=1)
    total = deals.groupby(deals.deal // 150)[["points_0", "points_1", "net_resti"]].sum()
    assert (games.points_0 + games.points_1 > 40_000).all()
    assert (total.to_numpy() == games[["points_0", "points_1", "net_resti"]].to_numpy()).all()
