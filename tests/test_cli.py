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
    assert code == 0 and "wrote 5,000 deals" in stdout
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
    assert code == 2 and "--out:" in stderr and "not writable" in stderr and "is a file, not a directory" in stderr


def test_report_of_a_missing_file(capsys):
    code, _, stderr = run_cli(capsys, "report", "nowhere.parquet")
    assert code == 2 and "does not exist" in stderr


def test_whole_games_with_doubling_report_and_plot(tmp_path, capsys):
    out, plot = tmp_path / "games.parquet", tmp_path / "games.png"
    code, stdout, _ = run_cli(capsys, "simulate", "barbu", "--games", "300", "--geronimo", "--double", "--out",
                              str(out), "--plot", str(plot), "--seed", "3")
    assert code == 0 and stdout == f"wrote 300 games to {out}\nplot written to {plot}\n"  # the report: below
    meta = json.loads(pq.read_schema(out).metadata[b"cardlab"])
    assert meta["unit"] == "game" and meta["games"] == 300 and meta["options"]["double"] is True
    assert pq.read_table(out).num_rows == 300 * 28
    code, stdout, _ = run_cli(capsys, "report", str(out))
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
    assert "=== deal 0:" in stdout and "=== deal 28" not in stdout  # numbered from 0, as the rows and records


@pytest.mark.parametrize("argv,message", [
    (["simulate", "barbu", "--games", "5", "--trumps"], "--trumps does not apply here; it applies only to Geronimo"),
    (["simulate", "barbu", "--games", "5", "--geronimo", "--double", "--double-obligation", "9"],
     "--double-obligation: 9 is impossible"),
    (["simulate", "barbu", "--games", "5", "--deals", "5"], "give --games (whole games) or --deals"),
    (["simulate", "barbu", "--games", "5", "--domino-rules", "klondike"], "--domino-rules: 'klondike' is not allowed"),
    (["simulate", "barbu", "--games", "5", "--double", "--double-policy", "always"], "--double-policy: 'always' is not allowed"),
    (["study", "barbu", "bridge"],
     "study: 'bridge' is not allowed; choose trumps, contracts, strength, options, variants or balance"),
    (["simulate", "barbu", "--games", "5", "--skip-undoubled-negative"],
     "--skip-undoubled-negative does not apply here; it applies only to whole games with --double"),
    (["replay", "barbu"], "give --deal (deals) or --game-index (whole games)"),
])
def test_bad_game_options_are_one_line(capsys, argv, message):
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 2 and message in stderr and stderr.strip().count("\n") == 0


GAMES_ONLY = "it applies only to whole games (--games, replay --game-index)"
WITH_DOUBLE = "it applies only to whole games with --double"


@pytest.mark.parametrize("argv,message", [
    (["study", "barbu", "trumps", "--contract", "bogus"], "--contract bogus does not apply here"),
    (["study", "barbu", "trumps", "--geronimo", "--double"], "--geronimo does not apply here; " + GAMES_ONLY),
    (["study", "barbu", "contracts", "--salade"], "--salade does not apply here; " + GAMES_ONLY),
    (["simulate", "barbu", "--deals", "5", "--geronimo"], "--geronimo does not apply here; " + GAMES_ONLY),
    (["simulate", "barbu", "--deals", "5", "--double"], "--double does not apply here; " + GAMES_ONLY),
    (["simulate", "barbu", "--deals", "5", "--double-policy", "random"], "--double-policy random does not apply here"),
    (["simulate", "barbu", "--games", "5", "--late-redouble"], "--late-redouble does not apply here; " + WITH_DOUBLE),
    (["simulate", "barbu", "--games", "5", "--declarer-blocks"], "--declarer-blocks does not apply here; it applies "
                                                                 "only to Geronimo games (--geronimo)"),
    (["simulate", "barbu", "--games", "5", "--no-trumps"], "--no-trumps does not apply here"),
    (["simulate", "barbu", "--games", "5", "--trumps", "--no-trumps"], "--no-trumps: not allowed with argument --trumps"),
    (["simulate", "barbu", "--games", "5", "--geronimo", "--iterations", "2"], "--iterations 2 does not apply here"),
    (["simulate", "barbu", "--games", "5", "--geronimo", "--regular-cycle", "per_contract"],
     "--regular-cycle per_contract does not apply here"),
    (["replay", "barbu", "--game-index", "3", "--contract", "no-tricks"], "--contract no-tricks does not apply here"),
    (["replay", "barbu", "--deal", "1", "--double"], "--double does not apply here"),
    (["replay", "barbu", "--deal", "1", "--double-policy", "maximum"], "--double-policy maximum does not apply here"),
    (["simulate", "barbu", "--deals", "100", "--double-obligation", "99"], "--double-obligation 99 does not apply here"),
    (["simulate", "barbu", "--games", "5", "--double", "--skip-remainder", "others"], "--skip-remainder others"),
    (["simulate", "barbu", "--deals", "5", "--contract", "no-tricks", "--domino-rules", "fan_tan"],
     "--domino-rules fan_tan does not apply here; it applies only to Domino"),
    (["simulate", "barbu", "--deals", "5", "--contract", "domino", "--domino-rules", "bga_adjacent",
      "--ace-replay-optional"], "--ace-replay-optional does not apply here"),
    (["simulate", "barbu", "--deals", "5", "--domino-three-last", "last_place"], "only to Domino with three players"),
    (["simulate", "barbu", "--deals", "5", "--contract", "no-queens", "--no-must-trump"], "only to Trumps"),
    (["simulate", "barbu", "--deals", "5", "--contract", "no-tricks", "--no-early-stop"], "--no-early-stop does not"),
    (["simulate", "barbu", "--deals", "5", "--contract", "no-queens", "--hearts-lead", "broken"],
     "--hearts-lead broken does not apply here"),
    (["simulate", "barbu", "--deals", "5", "--hearts-lead-salade"], "--hearts-lead-salade does not apply here"),
    (["simulate", "barbu", "--deals", "5", "--contract", "no-hearts", "--kh-forced-discard"], "only to No K♥ and Salade"),
    (["simulate", "barbu", "--games", "5", "--no-domino", "--domino-starter", "left"], "only to Domino"),
    (["study", "barbu", "trumps", "--domino-rules", "fan_tan"], "--domino-rules fan_tan does not apply here"),
])
def test_no_option_is_silently_ignored(tmp_path, capsys, argv, message):
    """Issue 7.4 / 6.5: an option that does not apply to the command or mode is a one-line error
    naming it and where it applies, and no file is left behind."""
    out = tmp_path / "x.parquet"
    extra = ["--out", str(out)] if argv[0] != "replay" else []
    code, _, stderr = run_cli(capsys, *argv, *extra)
    assert code == 2 and message in stderr and stderr.strip().count("\n") == 0, stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["simulate", "barbu", "--games", "2", "--trumps-in-regular", "--iterations", "2", "--regular-cycle", "per_contract"],
    ["simulate", "barbu", "--games", "2", "--geronimo", "--no-trumps", "--declarer-blocks", "--double", "--late-redouble",
     "--double-policy", "maximum", "--skip-undoubled-negative", "--skip-remainder", "others"],
    ["simulate", "barbu", "--deals", "20", "--contract", "domino", "--players", "3", "--domino-three-last", "last_place",
     "--ace-replay-optional", "--domino-starter", "left"],
    ["study", "barbu", "contracts", "--deals", "20", "--contract", "no-hearts,salade", "--hearts-lead", "broken",
     "--hearts-lead-salade", "--kh-forced-discard"],
    ["replay", "barbu", "--deal", "3", "--contract", "trumps", "--no-must-trump"],
])
def test_options_that_apply_are_accepted(capsys, argv):
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 0, stderr
@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o027, 0o640)])
def test_output_files_get_the_umask_permissions(tmp_path, capsys, umask, mode):
    import os

    old = os.umask(umask)
    try:
        out, plot = tmp_path / "run.parquet", tmp_path / "run.png"
        code, _, _ = run_cli(capsys, "simulate", "barbu", "--contract", "no-queens", "--deals", "200", "--out",
                             str(out), "--plot", str(plot), "--threads", "1")
    finally:
        os.umask(old)
    assert code == 0
    assert out.stat().st_mode & 0o777 == mode and plot.stat().st_mode & 0o777 == mode


@pytest.mark.parametrize("argv,message", [
    (["simulate", "barbu", "--first-deal", "18446744073709551615"],
     "--first-deal: 18446744073709551615 is not allowed; use an integer from 0 to 9223372036854775807"),
    (["simulate", "barbu", "--first-deal", "-1"], "--first-deal: -1 is not allowed; use an integer from 0 to"),
    (["simulate", "barbu", "--first-deal", "9223372036854775807", "--deals", "10"],
     "--deals: 10 is not allowed from index 9223372036854775807; the last index is 9223372036854775807, "
     "so use at most 1"),
    (["simulate", "barbu", "--first-deal", "9223372036854775000", "--deals", "10000"], "so use at most 808"),
    (["simulate", "barbu", "--first-deal", "9223372036854775800", "--games", "10"], "--games: 10 is not allowed"),
    (["replay", "barbu", "--deal", "100000000000000000000"],
     "--deal: '100000000000000000000' is not allowed; indices run from 0 to 9223372036854775807"),
    (["replay", "barbu", "--game-index", "100000000000000000000"],
     "--game-index: '100000000000000000000' is not allowed; indices run from 0 to 9223372036854775807"),
])
def test_integers_outside_their_range_are_one_line(capsys, argv, message):
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 2 and message in stderr and stderr.strip().count("\n") == 0


def test_the_last_deal_indices_play_without_wrapping(capsys):
    from cardlab.sim import barbu

    last = 2**63 - 1
    df = barbu.simulate(deals=5, first_deal=last - 4, contract="no-queens", threads=1)
    assert df["deal"].tolist() == list(range(last - 4, last + 1))
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--deal", str(last), "--contract", "no-queens")
    assert code == 0 and "scores:" in stdout


def test_messages_name_the_right_thing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        (["simulate", "barbu", "--deals", "10", "--out", ""], "--out: '' is empty; give a file path"),
        (["simulate", "barbu", "--deals", "10", "--out", "runs/x.csv"],
         "--out: 'runs/x.csv' is not allowed; cardlab writes Parquet, so give a name ending in .parquet or .pq"),
        (["simulate", "barbu", "--deals", "10", "--plot", "file/x.png"],
         "--plot: 'file/x.png' is not writable: 'file' is a file, not a directory"),
        (["study", "barbu", "trumps", "--deals", "10", "--plot", "file/x.png"], "--plot: 'file/x.png'"),
        (["report", str(tmp_path)], "is a directory that holds no cardlab dataset"),
        (["report", "file"], "path: 'file' is not a Parquet file"),
        (["report", "missing.parquet", "--plot", "file/x.png"], "does not exist"),
    ]
    for argv, message in cases:
        code, _, stderr = run_cli(capsys, *argv)
        assert code == 2 and message in stderr and stderr.strip().count("\n") == 0, (argv, stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing created, not even runs/


def test_missing_directories_are_created_with_a_note_and_tiny_chunks_warn(tmp_path, capsys):
    out = tmp_path / "new" / "dir" / "x.parquet"
    code, stdout, stderr = run_cli(capsys, "simulate", "barbu", "--contract", "no-queens", "--deals", "2000",
                                   "--chunk-size", "1", "--out", str(out), "--threads", "1")
    assert code == 0 and out.is_file() and "wrote 2,000 deals" in stdout
    assert f"note: created the directory {out.parent} for --out" in stderr
    assert "warning: --chunk-size 1 is very small" in stderr


def test_absurd_counts_warn(capsys, monkeypatch):
    from cardlab.sim import cli

    monkeypatch.setattr(cli, "LONG_RUN", {"deals": 50, "games": 5})
    monkeypatch.setattr(cli, "IN_MEMORY", {"deals": 60, "games": 5})
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--contract", "no-queens", "--deals", "100")
    assert code == 0 and "warning: --deals 100 takes hours" in stderr and "without --out keeps every row" in stderr


def test_version(capsys):
    code, stdout, _ = run_cli(capsys, "--version")
    assert code == 0 and stdout.startswith("cardlab ") and stdout.split()[1][0].isdigit()


# --- replay --json and --deal a:b ---------------------------------------------------------------------


def _records(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def test_replay_json_lines_for_a_range_of_deals_match_the_run_and_the_text(capsys):
    from cardlab.sim import barbu

    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--seed", "7", "--deal", "10:19", "--json")
    assert code == 0
    records = _records(stdout)
    assert [r["deal"] for r in records] == list(range(10, 19))
    assert all(list(r) == ["game", "options", "policies", "seed", "contracts", "deal", "contract", "declarer", "trump",
                           "hands", "actions", "scores"] for r in records)
    assert all(r["game"] == "barbu" and r["seed"] == 7 and r["policies"] == ["heuristic"] * 4 for r in records)
    rows = barbu.simulate(deals=9, first_deal=10, seed=7, threads=1)
    for r, (_, row) in zip(records, rows.iterrows()):
        assert r["contract"] == row["contract"] and r["declarer"] == row["declarer"]
        assert r["scores"] == [row[f"score_{p}"] for p in range(4)]
        assert (r["trump"] is None) == (r["contract"] != "trumps") and r["trump"] in (None, "♣", "♦", "♥", "♠")
        held = {card: seat for seat, hand in enumerate(r["hands"]) for card in hand}
        assert len(held) == 52 and all(len(hand) == 13 for hand in r["hands"])
        plays = [a for a in r["actions"] if a["kind"] == "play"]
        assert all(held[a["card"]] == a["seat"] for a in plays) and len({a["card"] for a in plays}) == len(plays)
    domino = next(r for r in records if r["contract"] == "domino")
    assert {a["kind"] for a in domino["actions"]} <= {"play", "pass", "decline"}
    trick = next(r for r in records if r["contract"] == "no-tricks")
    assert trick["actions"][0] == {"seat": trick["declarer"], "kind": "play", "card": trick["actions"][0]["card"]}
    code, text, _ = run_cli(capsys, "replay", "barbu", "--seed", "7", "--deal", str(trick["deal"]))
    shown = [tok for line in text.splitlines() if line.startswith("trick ") for tok in line.split()[3:-3:2]]
    assert shown == [a["card"] for a in trick["actions"]]


def test_replay_json_of_domino_passes_and_of_a_game_with_doubles(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--contract", "domino", "--deal", "0:6", "--json")
    assert code == 0 and any(a["kind"] == "pass" for r in _records(stdout) for a in r["actions"])
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--game-index", "4", "--geronimo", "--double", "--seed", "2",
                              "--json")
    records = _records(stdout)
    assert code == 0 and len(records) == 28 and {r["game"] for r in records} == {4}
    assert [r["deal"] for r in records] == list(range(28))
    doubles = [a for r in records for a in r["actions"] if a["kind"] in ("double", "redouble", "late-redouble")]
    assert doubles and all(set(a) == {"seat", "kind", "target"} and a["seat"] != a["target"] for a in doubles)
    first = records[0]["actions"]
    kinds = [a["kind"] for a in first]
    assert kinds == sorted(kinds, key=lambda k: k == "play")  # the doubles come before the play
    assert all(sum(r["scores"]) == sum(r["raw"]) for r in records)


def test_replay_ranges_as_text(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "barbu", "--contract", "no-queens", "--deal", "5:8")
    assert code == 0 and [line for line in stdout.splitlines() if line.startswith("===")] == [
        "=== deal 5", "=== deal 6", "=== deal 7"]


@pytest.mark.parametrize("argv,message", [
    (["--deal", "5:5"], "--deal: '5:5' is an empty range; give a:b with a < b"),
    (["--deal", "0:1000000"], "--deal: '0:1000000' holds 1,000,000 indices; one replay shows at most 100,000"),
    (["--deal", "x"], "--deal: 'x' is not allowed; give an index (0 to 9223372036854775807) or a range a:b"),
    (["--deal", "9223372036854775807:9223372036854775809"], "indices run from 0 to 9223372036854775807"),
    (["--game-index", "1:a"], "--game-index: '1:a' is not allowed"),
])
def test_bad_replay_ranges_are_one_line(capsys, argv, message):
    code, _, stderr = run_cli(capsys, "replay", "barbu", *argv)
    assert code == 2 and message in stderr and stderr.strip().count("\n") == 0


def test_shared_replay_helpers_docstrings():
    import doctest

    from cardlab.sim import replay

    result = doctest.testmod(replay)
    assert result.attempted > 0 and result.failed == 0


def test_a_run_that_compiles_says_once_that_kernels_compile(capsys):
    from numba import njit

    from cardlab.sim import cli

    argv = ("simulate", "barbu", "--contract", "no-queens", "--deals", "100")
    run_cli(capsys, *argv)  # compiles on a fresh machine (and may say so)
    cli._announce_compiling.listener.said = False
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 0 and "compiling" not in stderr  # everything compiled or cached: silent

    @njit  # a kernel never compiled before: what a first run meets
    def fresh(x):
        return x + 1

    assert fresh(1) == 2 and fresh(2.5) == 3.5  # two compilations, one note
    stderr = capsys.readouterr().err
    assert stderr.count("cardlab: note: compiling the kernels for this machine (about 30 s to a minute") == 1
    assert "cached in" in stderr


def test_the_python_side_refuses_parquet_under_another_name_too(tmp_path):
    from cardlab.sim import barbu

    with pytest.raises(ValueError, match="out: .* is not allowed; cardlab writes Parquet"):
        barbu.simulate(deals=10, contract="no-queens", out=tmp_path / "x.csv")
    assert list(tmp_path.iterdir()) == []


def test_searching_runs_get_sizes_that_finish(capsys, monkeypatch):
    """A strength study without --deals plays its game's STUDY_DEALS, not 100,000; big search runs warn."""
    from cardlab.sim import cli, games
    from cardlab.sim.command import GameCommand

    seen = {}

    def fake_study(self, args, **kwargs):
        seen["deals"] = args.deals
        raise ValueError("stop here")

    monkeypatch.setattr(GameCommand, "study", fake_study)
    code, _, stderr = run_cli(capsys, "study", "rami", "strength")
    assert code != 0 and "stop here" in stderr and seen["deals"] == games.command("rami").STUDY_DEALS["strength"] < 100_000
    code, _, _ = run_cli(capsys, "study", "rami", "threshold")
    assert seen["deals"] == 100_000
    assert all(isinstance(n, int) and n > 0 for g in games.GAMES
               for n in getattr(games.command(g), "STUDY_DEALS", {}).values())

    monkeypatch.setattr(cli, "SEARCH_LONG_RUN", 5)
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--contract", "no-queens", "--deals", "6",
                              "--policy", "search,heuristic,heuristic,heuristic")
    assert code == 0 and "with a search seat takes a long while" in stderr


@pytest.mark.parametrize("argv,message", [
    (["simulate", "barbu", "--deals", "5", "--contract", "domino", "--domino-table", "1,2"],
     "--domino-table: 1,2 is not allowed; give 4 integers"),
    (["simulate", "euchre5", "--deals", "5", "--defender-points", "-1,-2"],
     "--defender-points: -1,-2 is not allowed; give two integers 1-20"),
    (["simulate", "barbu", "--deals", "-3"], "--deals: -3 is not allowed; use an integer >= 1"),
    (["simulate", "rami", "--deals", "5", "--max-jokers-per-meld", "3"], "choose 1, 2 or none"),
])
def test_errors_spell_values_as_the_command_line_does(capsys, argv, message):
    """A value in an error reads as typed (``1,2``, ``none``), and a negative value after a flag is that flag's
    value, not an unknown option (#21 item 20)."""
    code, stdout, stderr = run_cli(capsys, *argv)
    assert code == 2 and stdout == "" and message in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["simulate", "replay", "study"])
@pytest.mark.parametrize("name", ["barbu", "euchre5", "hearts", "minchiate", "rami"])
def test_every_command_gives_its_help(name, command, capsys):
    """Each game's flags come from its options' help texts: a ``%`` in one (``deal i % 4``) must not break argparse."""
    from cardlab.sim.games import GAMES

    assert name in GAMES
    code, out, _ = run_cli(capsys, command, name, "--help")
    assert code == 0 and "--seed" in out
