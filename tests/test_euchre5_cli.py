"""Euchre for five on the command line: simulate -> Parquet, report, games, study, replay (text and
JSON lines), and one-line errors that leave no file behind."""
import json

import pyarrow.parquet as pq
import pytest

from cardlab.sim.cli import main
from cardlab.sim.euchre5.referee import check_hand
from cardlab.sim.euchre5.rules import Euchre5Options
from cardlab.sim.cards import parse_card

COLUMNS = ["deal", "dealer", "maker", "trump", "round", "alone", "partner", "maker_tricks", "score_0", "score_1",
           "score_2", "score_3", "score_4"]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_report_and_plot(tmp_path, capsys):
    out = tmp_path / "runs" / "e5.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "euchre5", "--deals", "4000", "--seed", "7", "--out", str(out),
                              "--lone-march-points", "4", "--threads", "1")
    assert code == 0 and "wrote 4,000 hands" in stdout
    table = pq.read_table(out)
    df = table.to_pandas()
    assert list(df.columns[:len(COLUMNS) - 5]) == COLUMNS[:-5] and set(COLUMNS) <= set(df.columns)
    assert (df["dealer"] == df["deal"] % 5).all()
    meta = json.loads(table.schema.metadata[b"cardlab"])
    assert meta["game"] == "euchre5" and meta["options"]["lone_march_points"] == 4 and meta["deals"] == 4000
    plot = tmp_path / "e5.png"
    code, stdout, _ = run_cli(capsys, "report", str(out), "--plot", str(plot))
    assert code == 0 and "forced alone" in stdout and "right bower" in stdout and "dealer+1" in stdout
    assert plot.stat().st_size > 10_000


def test_mixed_policies_report_the_heuristic_edge(capsys):
    code, stdout, _ = run_cli(capsys, "simulate", "euchre5", "--deals", "3000", "--policy",
                              "heuristic,random,random,random,random", "--call-rule", "non_trump")
    assert code == 0 and "heuristic - random" in stdout


def test_games_report(tmp_path, capsys):
    out = tmp_path / "games.parquet"
    code, stdout, _ = run_cli(capsys, "simulate", "euchre5", "--games", "300", "--tie-rule", "maker_side_first",
                              "--out", str(out))
    assert code == 0 and "wrote 300 games" in stdout
    df = pq.read_table(out).to_pandas()
    assert {"game", "deal"} <= set(df.columns) and df["game"].nunique() == 300
    code, stdout, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "Game length" in stdout and "maker_side_first ties" in stdout and "first dealer" in stdout


def test_trump_study(tmp_path, capsys):
    plot = tmp_path / "trumps.png"
    code, stdout, _ = run_cli(capsys, "study", "euchre5", "trumps", "--deals", "1500", "--plot", str(plot))
    assert code == 0 and "upcard suit" in stdout and "same colour" in stdout and "bid strength" in stdout
    assert plot.stat().st_size > 10_000


def test_replay_text_and_json(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "euchre5", "--seed", "7", "--deal", "12")
    assert code == 0 and stdout.startswith("deal 12: dealer seat 2") and stdout.count("\ntrick ") == 5
    assert "scores:" in stdout and "♠" in stdout
    code, stdout, _ = run_cli(capsys, "replay", "euchre5", "--seed", "7", "--deal", "10:14", "--json",
                              "--call-rule", "ace_of_suit")
    records = [json.loads(line) for line in stdout.strip().splitlines()]
    assert [r["deal"] for r in records] == [10, 11, 12, 13]
    options = Euchre5Options(call_rule="ace_of_suit")
    for r in records:  # another tool can re-check a hand from the record alone
        assert len(r["hands"]) == 5 and len(r["kitty"]) == 3 and r["dealer"] == r["deal"] % 5
        actions = [(a["seat"], a["kind"], parse_card(a["card"]) if "card" in a else "♣♦♥♠".index(a["suit"])
                    if "suit" in a else -1) for a in r["actions"]]
        hand = check_hand(options, r["dealer"], [{parse_card(c) for c in h} for h in r["hands"]],
                          [parse_card(c) for c in r["kitty"]], actions)
        assert hand.scores == r["scores"]
        assert sum(a["kind"] == "play" for a in r["actions"]) == 25


def test_replay_game(capsys):
    code, stdout, _ = run_cli(capsys, "replay", "euchre5", "--seed", "3", "--game-index", "4")
    assert code == 0 and "=== hand 0:" in stdout and "winner" in stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("argv,message", [
    (["--players", "4"], "--players: 4 is not allowed; Euchre for five is played by exactly 5"),
    (["--call-rule", "partner"], "--call-rule: 'partner' is not allowed; choose 'any', 'non_trump' or 'ace_of_suit'"),
    (["--target", "0"], "--target: 0 is not allowed; use an integer from 1 to 100"),
    (["--lone-march-points", "3"], "--lone-march-points: 3 is not allowed; choose 2, 4 or 5"),
    (["--defender-points", "2"], "--defender-points: '2' is not allowed"),
    (["--tie-rule", "dice"], "--tie-rule: 'dice' is not allowed"),
    (["--policy", "greedy"], "--policy: 'greedy' is not allowed; choose 'random', 'heuristic', 'search' or 'oracle'"),
    (["--deals", "0"], "--deals: 0 is not allowed; use an integer >= 1"),
])
def test_bad_input_is_one_line_and_leaves_no_file(tmp_path, capsys, argv, message):
    out = tmp_path / "x.parquet"
    code, stdout, stderr = run_cli(capsys, "simulate", "euchre5", "--deals", "100", *argv, "--out", str(out))
    assert code == 2 and message in stderr and stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_bad_replay_range(capsys):
    code, _, stderr = run_cli(capsys, "replay", "euchre5", "--deal", "9:3")
    assert code == 2 and "--deal: '9:3' is an empty range" in stderr


def test_writing_a_file_loads_neither_pandas_nor_barbu(tmp_path):
    """A `simulate ... --out` command never builds a frame, so it never imports pandas (0.2 s of its
    start-up), and Euchre's search shares the world sampler without importing Barbu's package."""
    import subprocess
    import sys

    code = ("import sys; from cardlab.sim.cli import main; "
            f"main(['simulate', 'euchre5', '--games', '20', '--out', {str(tmp_path / 'g.parquet')!r}]); "
            "print(sorted(m for m in ('pandas', 'cardlab.sim.barbu') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert pq.read_metadata(tmp_path / "g.parquet").num_rows > 20


WHOLE_GAMES = "it applies only to whole games (--games, replay --game-index)"


@pytest.mark.parametrize("argv,message", [
    (["simulate", "euchre5", "--deals", "10", "--tie-rule", "play_on"], "--tie-rule play_on does not apply here; "
     + WHOLE_GAMES),
    (["simulate", "euchre5", "--deals", "10", "--target", "5"], "--target 5 does not apply here; " + WHOLE_GAMES),
    (["replay", "euchre5", "--deal", "3", "--target", "5"], "--target 5 does not apply here; " + WHOLE_GAMES),
    (["study", "euchre5", "trumps", "--deals", "10", "--tie-rule", "play_on"], "does not apply here"),
])
def test_options_of_whole_games_are_refused_for_single_hands(tmp_path, capsys, argv, message):
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 2 and message in stderr and stderr.count("\n") == 1


def test_replay_of_a_range_of_games_and_the_options_study(capsys):
    from cardlab.sim.euchre5 import EUCHRE5, replay_game
    from cardlab.sim.variants import options_study

    code, stdout, _ = run_cli(capsys, "replay", "euchre5", "--seed", "3", "--game-index", "0:2", "--json")
    records = [json.loads(line) for line in stdout.strip().splitlines()]
    games = [r["game"] for r in records]
    assert code == 0 and games == sorted(games) and set(games) == {0, 1}
    assert [r["deal"] for r in records] == list(range(games.count(0))) + list(range(games.count(1)))
    assert records == replay_game(game="0:2", seed=3).records
    df = options_study(EUCHRE5, deals=200, seed=1)
    assert "score_0@default" in df and "score_0@call_rule=ace_of_suit" in df and "maker@stick_the_dealer=false" in df
    assert not any("tie_rule" in c or "target" in c for c in df.columns)
