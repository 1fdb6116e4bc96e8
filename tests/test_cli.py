"""The cardlab command: simulate -> Parquet with metadata, report, replay, one-line errors."""
import json

import pyarrow.parquet as pq
import pytest

from cardlab.sim.cli import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_report_and_plot(tmp_path, capsys):
    out = tmp_path / "runs" / "nt.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "barbu", "--contract", "no-tricks", "--players", "4", "--deck", "52",
                              "--deals", "5000", "--seed", "7", "--out", str(out), "--threads", "1")
    assert code == 0 and "wrote 5000 deals" in stdout
    table = pq.read_table(out)
    assert table.num_rows == 5000
    assert {"deal", "contract", "declarer", "score_0", "score_3"} <= set(table.column_names)
    meta = json.loads(table.schema.metadata[b"cardlab"])
    assert meta["seed"] == 7 and meta["options"]["players"] == 4 and meta["contracts"] == ["no-tricks"]
    assert meta["versions"]["numba"] and meta["deals"] == 5000
    totals = table.to_pandas()[[f"score_{p}" for p in range(4)]].sum(axis=1)
    assert (totals == -13).all()

    plot = tmp_path / "scores.png"
    code, stdout, _ = run_cli(capsys, "report", str(out), "--plot", str(plot))
    assert code == 0 and "no-tricks" in stdout and "declarer" in stdout and "others" in stdout
    assert plot.stat().st_size > 10_000


def test_mixed_policies_and_all_contracts(capsys):
    code, stdout, _ = run_cli(capsys, "simulate", "barbu", "--contract", "all", "--deals", "700", "--players", "3",
                              "--deck", "32", "--policy", "heuristic,random,random", "--scoring", "wiki")
    assert code == 0
    for name in ("no-tricks", "no-hearts", "no-queens", "no-barbu", "last-two", "salade", "anti-salade"):
        assert name in stdout


def test_replay_prints_tricks_with_readable_cards(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--seed", "7", "--deal", "123456", "--contract", "no-tricks")
    assert code == 0
    assert stdout.count("\ntrick ") == 13 and "♥" in stdout and "scores:" in stdout


@pytest.mark.parametrize("argv,message", [
    (["--players", "6"], "--players: 6 is not allowed; choose 3, 4 or 5"),
    (["--deck", "36"], "--deck: 36 is not allowed; choose 32 or 52"),
    (["--contract", "grand-slam"], "--contract: 'grand-slam' is not allowed"),
    (["--deals", "0"], "--deals: 0 is not allowed; use an integer >= 1"),
    (["--deals", "ten"], "argument --deals: invalid int value: 'ten'"),
    (["--scoring", "rubber"], "--scoring: 'rubber' is not allowed; choose 'basic' or 'wiki'"),
    (["--hearts-lead", "never"], "--hearts-lead: 'never' is not allowed"),
])
def test_bad_input_is_one_line_and_leaves_no_file(tmp_path, capsys, argv, message):
    out = tmp_path / "x.parquet"
    code, stdout, stderr = run_cli(capsys, "simulate", "barbu", "--deals", "10", "--out", str(out), *argv)
    assert code == 2
    assert stderr.strip().count("\n") == 0 and message in stderr
    assert list(tmp_path.iterdir()) == []


def test_unknown_game_and_unwritable_output(tmp_path, capsys):
    code, _, stderr = run_cli(capsys, "simulate", "chess", "--deals", "10")
    assert code == 2 and "game: 'chess' is not allowed; choose barbu" in stderr
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--deals", "10", "--out", str(blocker / "run.parquet"))
    assert code == 2 and "--out:" in stderr and "not writable" in stderr


def test_report_of_a_missing_file(capsys):
    code, _, stderr = run_cli(capsys, "report", "nowhere.parquet")
    assert code == 2 and "does not exist" in stderr


def test_whole_games_with_doubling_report_and_plot(tmp_path, capsys):
    out, plot = tmp_path / "games.parquet", tmp_path / "games.png"
    code, stdout, _ = run_cli(capsys, "simulate", "barbu", "--games", "300", "--geronimo", "--double", "--out",
                              str(out), "--plot", str(plot), "--seed", "3")
    assert code == 0 and "wrote 300 games" in stdout
    meta = json.loads(pq.read_schema(out).metadata[b"cardlab"])
    assert meta["unit"] == "game" and meta["games"] == 300 and meta["options"]["double"] is True
    assert pq.read_table(out).num_rows == 300 * 28
    for section in ("Seat advantage", "Placings", "Contract points", "Contract timing", "Double payoffs"):
        assert section in stdout
    assert plot.stat().st_size > 10_000


@pytest.mark.parametrize("study,marker", [("trumps", "chosen"), ("contracts", "pick")])
def test_studies_print_their_report(capsys, tmp_path, study, marker):
    plot = tmp_path / "s.png"
    code, stdout, _ = run_cli(capsys, "study", "barbu", study, "--deals", "400", "--plot", str(plot))
    assert code == 0 and marker in stdout and plot.stat().st_size > 5_000


def test_replay_of_a_whole_game(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--game-index", "4", "--geronimo", "--double", "--seed", "2")
    assert code == 0 and stdout.count("=== deal") == 28 and "final totals" in stdout and "doubles:" in stdout


@pytest.mark.parametrize("argv,message", [
    (["simulate", "barbu", "--games", "5", "--trumps"], "--trumps: True is only allowed with geronimo=True"),
    (["simulate", "barbu", "--games", "5", "--geronimo", "--double", "--double-obligation", "9"],
     "--double-obligation: 9 is impossible"),
    (["simulate", "barbu", "--games", "5", "--deals", "5"], "give --games (whole games) or --deals"),
    (["simulate", "barbu", "--games", "5", "--domino-rules", "klondike"], "--domino-rules: 'klondike' is not allowed"),
    (["simulate", "barbu", "--games", "5", "--double-policy", "always"], "--double-policy: 'always' is not allowed"),
    (["study", "barbu", "bridge"], "study: 'bridge' is not allowed; choose trumps, contracts or strength"),
    (["simulate", "barbu", "--games", "5", "--skip-undoubled-negative"],
     "--skip-undoubled-negative: True is only allowed with double=True"),
    (["replay", "barbu"], "give --deal (one deal) or --game-index"),
])
def test_bad_game_options_are_one_line(capsys, argv, message):
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 2 and message in stderr and stderr.strip().count("\n") == 0
