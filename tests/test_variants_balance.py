"""``study <game> balance --tune NAME --target EXPR``: the search finds a known answer (a built case, and a figure
linear in the value checked against a direct ``variants`` sweep on the same deals), is reproducible from the
seed, reads the figures every game declares, and refuses bad input in one line with nothing written."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from cardlab.sim import games
from cardlab.sim.balance import (Evaluation, balance_study, numeric_options, parse_target, plan_deals, search,
                                 tune_values)
from cardlab.sim.cli import main
from cardlab.sim.options import option

GAMES = sorted(games.INTERFACES)


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------- the search on a case built to have an answer


def built(root: float, slope: float, half: float, values):
    """``gap_at`` of a figure linear in the value, ``slope * (value - root)``, whose 95% interval is ``half`` wide
    on each side at 1,000 deals and narrows as one over the root of the deals; records every call."""
    calls = []

    def gap_at(k, n, stage):
        v = values[k]
        g = slope * (v - root)
        h = half * math.sqrt(1000 / n)
        calls.append((v, n))
        return Evaluation(v, n, g, g - h, g + h, 0.0, math.nan, math.nan, g, g - h, g + h, stage)

    return gap_at, calls


def test_the_search_pins_a_root_to_the_grain_when_the_intervals_allow():
    values = range(0, 1001)
    gap_at, calls = built(root=413.7, slope=0.5, half=0.1, values=values)
    out = search(gap_at, len(values), plan_deals(16_000))
    assert out.reached and out.pinned and (values[out.below], values[out.above]) == (413, 414)
    assert all(n == 1000 for _, n in calls)  # pinned on the first stage: no deal spent beyond it
    assert len(calls) <= 2 * math.ceil(math.log2(1000)) + 2


def test_the_search_spends_deals_near_the_answer_and_reports_the_uncertainty():
    values = range(0, 1001)
    gap_at, calls = built(root=413.7, slope=0.01, half=0.2, values=values)  # noisy: 20 values either side
    out = search(gap_at, len(values), plan_deals(16_000))
    assert out.reached and not out.pinned and (values[out.below], values[out.above]) == (413, 414)
    assert values[out.low] < 413 < 414 < values[out.high]
    assert 0.01 * (413.7 - values[out.low]) >= 0.2 * math.sqrt(1000 / 16_000)  # the bounds are clear of 0 ...
    assert 0.01 * (values[out.high] - 413.7) >= 0.2 * math.sqrt(1000 / 16_000)
    most = {v for v, n in calls if n == 16_000}  # the most deals went to values near the answer, none far away
    assert {413, 414} <= most and all(values[out.low] <= v <= values[out.high] for v in most)
    assert {0, 1000} <= {v for v, n in calls if n == 1000} and not {0, 1000} & most


def test_the_search_finds_a_crossing_the_ends_do_not_bracket_and_says_when_there_is_none():
    values = range(0, 101)
    gap_at, _ = built(root=0, slope=1, half=0.01, values=values)

    def hump(k, n, stage):  # below 0 at both ends, above in the middle: crosses at 20.5 and 60.5
        e = gap_at(k, n, stage)
        g = -(k - 20.5) * (k - 60.5)
        return e._replace(gap=g, low=g - 0.01, high=g + 0.01)

    out = search(hump, len(values), plan_deals(1000))
    assert out.reached and (values[out.below], values[out.above]) in ((20, 21), (60, 61))
    out = search(lambda k, n, s: gap_at(k, n, s)._replace(gap=5.0 + k, low=4.0 + k, high=6.0 + k), len(values),
                 plan_deals(4000))
    assert not out.reached and values[out.below] == 0  # closest: the lowest value, where the gap is smallest


def test_a_bracket_hidden_by_the_first_stage_s_noise_is_found_on_more_deals():
    """On the first stage's deals the gap reads below 0 at every value tried, but its intervals hold 0 at the
    top of the range: no value is said to miss the target before more deals look again (as a real Barbu run
    of --tune queen did on too few deals)."""
    values = range(-50, 1)

    def gap_at(k, n, stage):  # truly 0.005·(value + 15); the first stage's noise pulls every reading down by 0.3
        true = 0.005 * (values[k] + 15)
        g, h = true - (0.3 if stage == 0 else 0.0), 0.4 * math.sqrt(1000 / n)
        return Evaluation(values[k], n, g, g - h, g + h, 0.0, math.nan, math.nan, g, g - h, g + h, stage)

    out = search(gap_at, len(values), plan_deals(16_000))
    assert out.reached and values[out.below] <= -15 <= values[out.above]
    later = set()

    def settled(k, n, stage):  # every interval clear of 0: no second look, only the closest value is played on
        if stage:
            later.add(k)
        return gap_at(k, n, stage)._replace(gap=-1.0 - k / 100, low=-1.1 - k / 100, high=-0.9 - k / 100)

    out = search(settled, len(values), plan_deals(16_000))
    assert not out.reached and later == {out.below} == {0}


def test_plan_deals_grows_by_four_to_the_budget():
    assert plan_deals(100_000) == [6250, 25_000, 100_000]
    assert plan_deals(3000, start=500) == [500, 2000, 3000]


# ---------------------------------------------------------------- a figure linear in the value, on a real game


@pytest.mark.slow  # two sweeps of Rami rounds and a balance search on them: 5 s warm
def test_a_figure_linear_in_the_value_lands_where_a_direct_sweep_says():
    """Rami's mean score is linear in the rami sec penalty on fixed rounds (no policy reads it): a variants sweep at
    0 and 1,000 on the same rounds puts the target at a known value, which balance finds, every evaluation on the
    line; the same seed gives the same evaluations."""
    from cardlab.analysis.variants import variant_table
    from cardlab.sim.variants import variants_study

    rami = games.game("rami")
    sweep = variant_table(variants_study(rami, deals=1000, seed=8, threads=1, vary={"rami_sec_penalty": [0, 1000]}),
                          figures=["score_*"]).set_index("variant")["value"]
    s0, s1 = sweep["rami_sec_penalty=0"], sweep["rami_sec_penalty=1000"]
    assert s1 > s0
    root = 413.7
    target = float(s0 + (s1 - s0) * root / 1000)
    df = balance_study(rami, tune="rami_sec_penalty", target=f"score = {target!r}", range=(0, 1000), deals=1000,
                       seed=8, threads=1)
    answer = df.attrs["cardlab"]["answer"]
    assert answer["reached"] and answer["best"] == [413, 414] and answer["value"] in (413, 414)
    assert answer["crossing"] == pytest.approx(root, abs=1e-6)
    assert np.allclose(df["left"], s0 + (s1 - s0) * df["value"] / 1000)
    assert (df["deals"] == 1000).all() and (df["right"] == target).all()
    again = balance_study(rami, tune="rami_sec_penalty", target=f"score = {target!r}", range=(0, 1000), deals=1000,
                          seed=8, threads=2)
    pd.testing.assert_frame_equal(df, again)
    assert again.attrs["cardlab"]["answer"] == answer


def test_a_staged_run_is_reproducible_and_plays_every_value_on_the_same_deals():
    rami = games.game("rami")
    kw = dict(tune="open_threshold", target="blocked = 5", range="20:120", deals=3000, seed=2, threads=1)
    df = balance_study(rami, **kw)
    pd.testing.assert_frame_equal(df, balance_study(rami, **kw))
    assert sorted(set(df["deals"])) == [1000, 3000] and df.attrs["cardlab"]["plan"] == [1000, 3000]
    last = df[df["deals"] == 3000].iloc[0]
    alone = rami.simulate(deals=3000, seed=2, threads=1, open_threshold=int(last["value"]))
    assert last["left"] == pytest.approx(100 * alone["blocked"].mean())


def test_a_figure_with_an_argument_reads_the_deals_of_that_kind():
    """Barbu's ``edge(no-queens)``: the declarer's edge on the No Queens deals (every value on the same deals)."""
    barbu = games.game("barbu")
    df = balance_study(barbu, tune="players", target="edge(no-queens) = edge(no-hearts)", deals=450, seed=1,
                       threads=1)
    assert set(df["value"]) <= {3, 4, 5} and len(df) >= 2
    row = df[df["value"] == 4].iloc[0]
    rows = barbu.simulate(deals=450, seed=1, threads=1)
    scores = rows[[f"score_{i}" for i in range(4)]].to_numpy(float)
    own = scores[np.arange(len(rows)), rows["declarer"].to_numpy()]
    edge = own - (scores.sum(axis=1) - own) / 3
    for side, contract in (("left", "no-queens"), ("right", "no-hearts")):
        assert row[side] == pytest.approx(edge[(rows["contract"] == contract).to_numpy()].mean())


def test_the_dealer_edge_of_a_partnership_game_reads_its_teams():
    from cardlab.analysis.minchiate import dealer_team_net

    minchiate = games.game("minchiate")
    df = balance_study(minchiate, tune="cutter_cap", target="dealer_edge = 0", deals=200, seed=3, threads=1)
    row = df.iloc[0]
    rows = minchiate.simulate(deals=200, seed=3, threads=1, cutter_cap=int(row["value"]))
    assert row["left"] == pytest.approx(dealer_team_net(rows).mean())


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_figures_a_target_may_name_and_tunes_a_numeric_option(name):
    game = games.game(name)
    figures = game.figures()
    assert figures and all(f.help for f in figures.values())
    plain = next(n for n, f in figures.items() if f.by is None)
    assert parse_target(game, f"{plain} = 0").left.figure == figures[plain]
    base = game.build("deals")
    tunable = []
    for option_name in numeric_options(game):
        try:
            tunable.append((option_name, tune_values(game, base, option_name)[1]))
        except ValueError:
            continue  # whole games only, or no declared range
    assert tunable, name
    option_name, values = tunable[-1]
    values = values if len(values) < 50 else (values[0], values[-1])
    df = balance_study(game, tune=option_name, target=f"{plain} = 0", range=(values[0], values[-1]), deals=60,
                       seed=5, threads=1)
    meta = df.attrs["cardlab"]
    assert meta["study"] == "balance" and meta["tune"] == option_name and meta["target"] == f"{plain} = 0"
    assert {"reached", "value", "text", "low", "high"} <= set(meta["answer"])
    assert list(df.columns) == list(Evaluation._fields)


# ---------------------------------------------------------------- the command line, end to end


def test_the_command_line_writes_the_evaluations_reports_and_plots_them(tmp_path, capsys):
    out, plot = tmp_path / "runs" / "balance.parquet", tmp_path / "balance.png"
    argv = ["study", "rami", "balance", "--tune", "open_threshold", "--target", "blocked = 5", "--range", "20:120",
            "--deals", 2000, "--seed", 4, "--threads", 1]
    code, stdout, stderr = run_cli(capsys, *argv, "--out", out, "--plot", plot)
    assert code == 0, stderr
    assert "evaluations (at most 2,000 rounds a value)" in stdout and plot.stat().st_size > 0
    from cardlab.analysis import load_run

    df, meta = load_run(out)
    assert meta["answer"]["reached"] and meta["tune"] == "open_threshold" and len(df) == len(meta and df)
    code, report, _ = run_cli(capsys, "report", out)
    assert code == 0 and "balance study: open_threshold from 20 to 120" in report and "answer: open_threshold =" \
        in report and "every evaluation" in report
    code, printed, _ = run_cli(capsys, *argv)  # without --out the report is printed
    assert code == 0 and printed.splitlines()[4:] == report.splitlines()[4:]
    code, _, stderr = run_cli(capsys, *argv, "--out", out)  # an existing --out is refused before any deal is played
    assert code == 2 and "already holds a complete rami run" in stderr


BAD = [
    (["--target", "blocked = 5"], "--tune: study balance needs --tune NAME and --target EXPR"),
    (["--tune", "open_threshold"], "--target: study balance needs --tune NAME and --target EXPR"),
    (["--tune", "open_threshold", "--target", "blocked"], "--target: 'blocked' is not allowed; write FIGURE = NUMBER"),
    (["--tune", "open_threshold", "--target", "a = b = c"], "is not allowed; write FIGURE = NUMBER or FIGURE = FIGURE"),
    (["--tune", "open_threshold", "--target", "wins = 3"], "--target: 'wins' is not a figure of Rami; Rami figures: "
                                                            "turns, blocked, rami_sec, score, dealer_edge"),
    (["--tune", "open_threshold", "--target", "blocked(3) = 3"], "--target: blocked takes no argument"),
    (["--tune", "open_threshold", "--target", "3 = 4"], "--target: '3 = 4' names no figure"),
    (["--tune", "open_threshold", "--target", "blocked = blocked"], "compares blocked with itself"),
    (["--tune", "open_threshold", "--target", "blocked = 5%"], "'5%' is neither a figure nor a number"),
    (["--tune", "blocked_tie", "--target", "blocked = 5"], "--tune: blocked_tie is not numeric (it takes 'all_zero'"),
    (["--tune", "recycle_discards", "--target", "blocked = 5"], "--tune: recycle_discards is not numeric"),
    (["--tune", "threshold", "--target", "blocked = 5"], "--tune: 'threshold' is not an option of Rami; its numeric "
                                                         "options: players"),
    (["--tune", "open_threshold", "--target", "blocked = 5", "--range", "5-10"], "--range: '5-10' is not allowed"),
    (["--tune", "open_threshold", "--target", "blocked = 5", "--range", "10:5"], "--range: 10:5 is not allowed"),
    (["--tune", "open_threshold", "--target", "blocked = 5", "--range", "-5:10"],
     "--range: open_threshold: -5 is not allowed; use an integer from 0 to 10000"),
    (["--tune", "players", "--target", "blocked = 5", "--range", "5:9"], "--range: 5:9 holds 2 of the values"),
    (["--tune", "open_threshold", "--target", "blocked = 5", "--summary", "--out", "x.parquet"],
     "--summary: study balance keeps one row per value tried"),
]


@pytest.mark.parametrize("argv,message", BAD)
def test_bad_balance_input_is_one_line_and_nothing_is_written(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = run_cli(capsys, "study", "rami", "balance", "--deals", 100, *argv)
    if "5:9 holds" in message:  # 5 and 6 are two values: allowed
        assert code == 0, stderr
        return
    assert code == 2 and stdout == "" and message in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert not list(tmp_path.iterdir())


def test_barbu_figures_with_an_argument_are_checked(capsys):
    barbu = games.game("barbu")
    for target, message in (("edge = 0", "target: edge needs a contract, e.g. edge(no-tricks); choose"),
                            ("edge(no-jacks) = 0", "target: edge(no-jacks): 'no-jacks' is not allowed; choose "
                                                   "'no-tricks'")):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_target(barbu, target)
    code, _, stderr = run_cli(capsys, "study", "barbu", "balance", "--tune", "players", "--target",
                              "edge(no-queens) = 0", "--contract", "no-hearts", "--deals", 50, "--threads", 1)
    assert code == 2 and "--target: edge(no-queens) has no deals in this run" in stderr


def test_the_study_flags_are_refused_elsewhere(capsys):
    code, _, stderr = run_cli(capsys, "study", "rami", "variants", "--vary", "players=3", "--tune", "players",
                              "--deals", 10)
    assert code == 2 and "--tune: players does not apply here; it applies only to study balance" in stderr
    code, _, stderr = run_cli(capsys, "study", "rami", "balance", "--vary", "players=3", "--deals", 10)
    assert code == 2 and "--vary: players=3 does not apply here; it applies only to study variants" in stderr


def test_an_option_without_bounds_needs_a_range_and_one_of_whole_games_is_refused():
    @dataclass(frozen=True)
    class Options:
        stake: int = option(3, "points per trick")
        fast: bool = option(False, "a switch")

    game = SimpleNamespace(Options=Options, title="Demo", scope=lambda: {}, run_context=lambda *a, **k: {})
    with pytest.raises(ValueError, match=r"^range: stake has no declared range; give --range LO:HI"):
        tune_values(game, None, "stake")
    assert tune_values(game, None, "stake", "1:7") == ("stake", range(1, 8))
    with pytest.raises(ValueError, match=r"^tune: fast is not numeric \(it takes True or False\); numeric options of "
                                         r"Demo: stake"):
        tune_values(game, None, "fast")
    euchre = games.game("euchre5")
    with pytest.raises(ValueError, match="tune: target does not apply to single deals; it applies only to whole"):
        tune_values(euchre, euchre.build("deals"), "target")


def test_a_variant_file_sets_the_base_of_a_balance_study(tmp_path):
    variant = tmp_path / "rami.toml"
    variant.write_text("players = 3\n")
    df = balance_study(games.game("rami"), tune="open_threshold", target="blocked = 5", range=(30, 90), deals=200,
                       seed=1, threads=1, variant=variant)
    meta = df.attrs["cardlab"]
    assert meta["options"]["players"] == 3 and meta["variant"] == {"file": str(variant), "options": {"players": 3}}
    assert json.loads(json.dumps(meta)) == meta


@pytest.mark.parametrize("module", ["cardlab.sim.balance", "cardlab.sim.options", "cardlab.analysis.variants"])
def test_the_docstring_examples_of_the_option_machinery_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
