"""Tests for the analysis package, on small hand-made deal tables with hand-computed answers."""

import doctest
import json
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cardlab import analysis
import cardlab.analysis.io
import cardlab.analysis.plots
import cardlab.analysis.report
import cardlab.analysis.stats
from cardlab.analysis import (
    format_report,
    load_run,
    mean_ci,
    plot_score_distributions,
    proportion_ci,
    score_shares,
    seat_scores,
    summary,
)
from cardlab.analysis.plots import plot_contract_scores, save_figure

Z95 = 1.959963984540054  # standard normal 97.5% quantile
Z90 = 1.6448536269514722  # standard normal 95% quantile


def deals():
    """Five deals, three seats, two contracts; 'no-hearts' is seen first.

    deal contract   declarer  score_0 score_1 score_2   declarer score / others' scores
    0    no-hearts  0         -2      -4      -6        -2 / -4, -6  (others' mean -5)
    1    no-tricks  2          0     -10      -3        -3 /  0, -10 (others' mean -5)
    2    no-hearts  1         -8       0      -4         0 / -8, -4  (others' mean -6)
    3    no-hearts  2         -6      -2      -4        -4 / -6, -2  (others' mean -4)
    4    no-tricks  0         -5      -5      -3        -5 / -5, -3  (others' mean -4)
    """
    df = pd.DataFrame(
        {
            "deal": np.arange(5, dtype=np.int64),
            "contract": ["no-hearts", "no-tricks", "no-hearts", "no-hearts", "no-tricks"],
            "declarer": np.array([0, 2, 1, 2, 0], dtype=np.int8),
            "score_0": np.array([-2, 0, -8, -6, -5], dtype=np.int16),
            "score_1": np.array([-4, -10, 0, -2, -5], dtype=np.int16),
            "score_2": np.array([-6, -3, -4, -4, -3], dtype=np.int32),
            "tricks_0": 99,  # extra columns are ignored
            "score_total": 0,  # not a seat column
        }
    )
    df.attrs["cardlab"] = {"game": "barbu"}  # as simulate's rows: the report reads Barbu's columns from its game
    return df


# --- stats -----------------------------------------------------------------------------------------


def test_mean_ci_matches_hand_computation():
    values = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, squared deviations sum to 32, s^2 = 32/7, se = sqrt(4/7)
    mean, low, high = mean_ci(values)
    assert mean == 5.0
    assert high - mean == pytest.approx(Z95 * math.sqrt(4 / 7))
    assert mean - low == pytest.approx(Z95 * math.sqrt(4 / 7))
    _, low90, high90 = mean_ci(np.array(values), level=0.90)
    assert high90 - low90 == pytest.approx(2 * Z90 * math.sqrt(4 / 7))


def test_mean_ci_degenerate_and_bad_input():
    mean, low, high = mean_ci([3])
    assert mean == 3.0 and math.isnan(low) and math.isnan(high)
    assert mean_ci([4, 4, 4]) == (4.0, 4.0, 4.0)  # zero spread, zero width
    with pytest.raises(ValueError, match="empty"):
        mean_ci([])
    with pytest.raises(ValueError, match="level"):
        mean_ci([1, 2], level=95)


def test_proportion_ci_wilson():
    # Textbook Wilson 95% interval for 5 successes out of 10.
    share, low, high = proportion_ci(5, 10)
    assert share == 0.5
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    # For 0 successes the Wilson interval is [0, z^2 / (n + z^2)], and it mirrors for n successes.
    _, low0, high0 = proportion_ci(0, 10)
    assert low0 == 0.0 and high0 == pytest.approx(Z95**2 / (10 + Z95**2))
    _, low10, high10 = proportion_ci(10, 10)
    assert high10 == 1.0 and low10 == pytest.approx(1 - high0)
    shares, lows, highs = proportion_ci(np.array([0, 5, 10]), np.array([10, 10, 10]))
    np.testing.assert_allclose(lows, [low0, low, low10])
    np.testing.assert_allclose(highs, [high0, high, high10])
    with pytest.raises(ValueError, match="between 0 and n"):
        proportion_ci(11, 10)
    with pytest.raises(ValueError, match="positive"):
        proportion_ci(0, 0)


# --- report ----------------------------------------------------------------------------------------


def test_seat_scores_long_form_and_roles():
    long = seat_scores(deals())
    assert list(long.columns) == ["deal", "contract", "role", "seat", "score"]
    assert len(long) == 5 * 3
    # Exactly one declarer row per deal, at the declarer's seat, holding the declarer's score.
    declarers = long[long["role"] == "declarer"]
    assert declarers["deal"].tolist() == [0, 1, 2, 3, 4]
    assert declarers["seat"].tolist() == [0, 2, 1, 2, 0]
    assert declarers["score"].tolist() == [-2, -3, 0, -4, -5]
    deal1 = long[long["deal"] == 1]
    assert deal1["role"].tolist() == ["others", "others", "declarer"]
    assert deal1["score"].tolist() == [0, -10, -3]
    assert set(deal1["contract"]) == {"no-tricks"}


def test_seat_scores_detects_number_of_seats():
    df = pd.DataFrame(
        {"deal": [0, 1], "contract": ["salade"] * 2, "declarer": [3, 4]}
        | {f"score_{i}": [-i, -10 * i] for i in range(5)}
    )
    long = seat_scores(df, by="contract", role="declarer")
    assert len(long) == 10
    assert (long.groupby("deal")["role"].apply(lambda r: (r == "others").sum()) == 4).all()
    assert long.loc[long["role"] == "declarer", "score"].tolist() == [-3, -40]


def test_summary_exact_values():
    table = summary(deals())
    assert list(table.columns) == [
        "deals", "mean", "std", "ci_low", "ci_high", "q05", "q25", "q50", "q75", "q95", "min", "max",
    ]
    # Contracts in order of first appearance, roles declarer then others.
    assert list(table.index) == [
        ("no-hearts", "declarer"), ("no-hearts", "others"), ("no-tricks", "declarer"), ("no-tricks", "others"),
    ]
    # no-hearts declarer: scores -2, 0, -4 -> mean -2, s = 2. Quantiles by linear interpolation on
    # sorted [-4, -2, 0]: q05 at position 0.1 -> -3.8, q95 at 1.9 -> -0.2.
    row = table.loc[("no-hearts", "declarer")]
    assert row["deals"] == 3 and row["mean"] == -2.0 and row["std"] == pytest.approx(2.0)
    assert row["ci_high"] - row["mean"] == pytest.approx(Z95 * 2 / math.sqrt(3))
    assert row[["q05", "q25", "q50", "q75", "q95"]].tolist() == pytest.approx([-3.8, -3.0, -2.0, -1.0, -0.2])
    assert (row["min"], row["max"]) == (-4, 0)
    # no-hearts others: seat scores -4, -6, -8, -4, -6, -2 -> mean -5, squared deviations 22, s^2 = 22/5.
    # Sorted [-8, -6, -6, -4, -4, -2]: q05 at 0.25 -> -7.5, q50 at 2.5 -> -5, q95 at 4.75 -> -2.5.
    row = table.loc[("no-hearts", "others")]
    assert row["deals"] == 3 and row["mean"] == -5.0 and row["std"] == pytest.approx(math.sqrt(22 / 5))
    assert row[["q05", "q25", "q50", "q75", "q95"]].tolist() == pytest.approx([-7.5, -6.0, -5.0, -4.0, -2.5])
    assert (row["min"], row["max"]) == (-8, -2)
    # no-tricks declarer: -3, -5 -> mean -4, s = sqrt(2), half-width z * sqrt(2) / sqrt(2) = z.
    row = table.loc[("no-tricks", "declarer")]
    assert (row["deals"], row["mean"]) == (2, -4.0)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-4 - Z95, -4 + Z95))
    # no-tricks others: 0, -10, -5, -3 -> mean -4.5, squared deviations 53, s^2 = 53/3.
    row = table.loc[("no-tricks", "others")]
    assert row["mean"] == -4.5 and row["std"] == pytest.approx(math.sqrt(53 / 3))


def test_summary_others_ci_uses_per_deal_means():
    table = summary(deals())
    # no-hearts others' per-deal means are -5, -6, -4: mean -5, s = 1, so the half-width is z / sqrt(3),
    # not the naive z * sqrt(22/5) / sqrt(6) that treats the 6 correlated seat scores as independent.
    row = table.loc[("no-hearts", "others")]
    honest = Z95 / math.sqrt(3)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-5 - honest, -5 + honest))
    assert honest < Z95 * math.sqrt(22 / 5) / math.sqrt(6)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(mean_ci([-5, -6, -4])[1:])
    # no-tricks others' per-deal means are -5 and -4: s = sqrt(1/2), half-width z * sqrt(1/2) / sqrt(2) = z / 2.
    row = table.loc[("no-tricks", "others")]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-4.5 - Z95 / 2, -4.5 + Z95 / 2))
    # The level option is passed through.
    row90 = summary(deals(), level=0.90).loc[("no-hearts", "others")]
    assert row90["ci_high"] - row90["mean"] == pytest.approx(Z90 / math.sqrt(3))


def test_summary_single_deal_has_no_interval():
    row = summary(deals().iloc[[1]]).loc[("no-tricks", "declarer")]
    assert row["deals"] == 1 and row["mean"] == -3.0
    assert math.isnan(row["ci_low"]) and math.isnan(row["ci_high"])


def test_summary_follows_categorical_order_and_drops_unused():
    df = deals()
    df["contract"] = pd.Categorical(df["contract"], categories=["no-tricks", "no-queens", "no-hearts"])
    table = summary(df)
    assert list(table.index.get_level_values("contract").unique()) == ["no-tricks", "no-hearts"]
    assert table.loc[("no-tricks", "declarer"), "mean"] == -4.0


def test_score_shares():
    shares = score_shares(deals())
    assert list(shares.columns) == ["contract", "role", "score", "share"]
    totals = shares.groupby(["contract", "role"], observed=True)["share"].sum()
    assert totals.to_numpy() == pytest.approx([1.0] * 4)
    others = shares[(shares["contract"] == "no-hearts") & (shares["role"] == "others")]
    # Others' scores -8, -6, -6, -4, -4, -2.
    assert others["score"].tolist() == [-8, -6, -4, -2]
    assert others["share"].tolist() == pytest.approx([1 / 6, 2 / 6, 2 / 6, 1 / 6])
    declarer = shares[(shares["contract"] == "no-tricks") & (shares["role"] == "declarer")]
    assert declarer["score"].tolist() == [-5, -3] and declarer["share"].tolist() == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda df: df.drop(columns="score_0"), "missing column 'score_0'.*score_0 … score_"),
        (lambda df: df.drop(columns="score_1"), "missing column 'score_1'"),
        (lambda df: df.drop(columns=["score_1", "score_2"]), "at least two seats"),
        (lambda df: df.drop(columns="declarer"), "missing column 'declarer'"),
        (lambda df: df.assign(declarer=[0, 1, 2, 3, 0]), "seats 0..2"),
        (lambda df: df.assign(score_1=df["score_1"] + 0.5), "'score_1' must hold integers"),
        (lambda df: df.iloc[:0], "no rows"),
    ],
)
def test_bad_input_raises_clear_value_error(change, message):
    bad = change(deals())
    for function in (seat_scores, summary, score_shares, format_report):
        with pytest.raises(ValueError, match=message):
            function(bad)


def test_not_a_dataframe():
    with pytest.raises(TypeError, match="DataFrame"):
        summary(deals().to_dict())


def test_format_report_contents():
    meta = {"game": "barbu", "options": {"players": 3, "deck": 36}, "seed": 7, "deals": 5, "versions": {"numba": "0.6"}}
    text = format_report(deals(), meta)
    lines = text.splitlines()
    assert lines[:2] == ["Barbu (barbu): deal report | seed 7 | 5 deals", "options: players=3, deck=36"]
    assert "no-hearts" in text and "no-tricks" in text and "numba 0.6" in text
    # Summary rounded to 3 decimals: s of the no-hearts others is sqrt(4.4) = 2.0976...
    assert "2.098" in text and "2.0976" not in text
    # Share table of no-hearts: columns -8 -6 -4 -2 0, values in percent.
    start = lines.index("no-hearts (scores -8..0)")
    assert lines[start + 1].split() == ["-8", "-6", "-4", "-2", "0"]
    assert lines[start + 2].split() == ["declarer", "0.0", "0.0", "33.3", "33.3", "33.3"]
    assert lines[start + 3].split() == ["others", "16.7", "33.3", "33.3", "16.7", "0.0"]
    assert format_report(deals()).startswith("Barbu (barbu): deal report | 5 deals")  # the rows' own metadata
    bare = deals()
    bare.attrs = {}
    assert format_report(bare, by="contract", role="declarer").startswith("cardlab run (no run metadata)")
    with pytest.raises(ValueError, match="by, role: give the grouping column"):
        format_report(bare)  # no game, no default columns


def test_format_report_bins_wide_score_ranges():
    # 51 deals, the declarer scores -50, -49, ..., 0; the others always 0 (a wide, 51-score range).
    n = 51
    df = pd.DataFrame(
        {"deal": range(n), "contract": ["salade"] * n, "declarer": [0] * n,
         "score_0": [-k for k in range(n)], "score_1": [0] * n, "score_2": [0] * n}
    )
    lines = format_report(df, {"game": "barbu"}, max_score_columns=16).splitlines()
    # More than 16 distinct scores -> at most 12 bins of ceil(51 / 12) = 5 points from -50: 11 bins, the last is 0.
    start = lines.index("salade (scores -50..0; binned, 5 score points per column)")
    columns = lines[start + 1].split()
    assert columns == [f"{s}..{s + 4}" for s in range(-50, 0, 5)] + ["0"]
    declarer = [float(v) for v in lines[start + 2].split()[1:]]
    assert declarer == pytest.approx([100 * 5 / 51] * 10 + [100 / 51], abs=0.05)
    assert lines[start + 3].split()[-1] == "100.0"  # the others are all in the top bin
    # Narrow ranges are never binned.
    assert "binned" not in format_report(deals())


# --- io --------------------------------------------------------------------------------------------


def write_parquet(df, path, meta=None):
    table = pa.Table.from_pandas(df, preserve_index=False)
    if meta is not None:
        table = table.replace_schema_metadata({**table.schema.metadata, b"cardlab": json.dumps(meta).encode()})
    pq.write_table(table, path)


def test_load_run_round_trip(tmp_path):
    df = deals().drop(columns=["tricks_0", "score_total"])
    df["contract"] = df["contract"].astype("category")
    meta = {"game": "barbu", "options": {"players": 3}, "seed": 7, "deals": 5, "versions": {"cardlab": "0.1.0"}}
    path = tmp_path / "run.parquet"
    write_parquet(df, path, meta)
    loaded, loaded_meta = load_run(path)
    assert loaded_meta == meta
    pd.testing.assert_frame_equal(loaded, df)
    assert summary(loaded).equals(summary(df))


def test_load_run_without_or_with_bad_metadata(tmp_path):
    write_parquet(deals(), tmp_path / "plain.parquet")
    loaded, meta = load_run(tmp_path / "plain.parquet")
    assert meta == {} and len(loaded) == 5
    table = pa.table({"deal": [0]}).replace_schema_metadata({b"cardlab": b"{not json"})
    pq.write_table(table, tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_run(tmp_path / "bad.parquet")
    with pytest.raises(FileNotFoundError):
        load_run(tmp_path / "missing.parquet")


# --- plots -----------------------------------------------------------------------------------------


def test_plot_score_distributions(tmp_path):
    fig = plot_score_distributions(deals())
    assert isinstance(fig, Figure)
    assert [ax.get_title() for ax in fig.axes] == ["no-hearts", "no-tricks"]
    ax = fig.axes[0]
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    # no-hearts: declarer mean -2 with half-width z * 2 / sqrt(3); others mean -5 with half-width z / sqrt(3).
    assert labels == [
        f"declarer: -2.000 ± {Z95 * 2 / math.sqrt(3):.3f}",
        f"others: -5.000 ± {Z95 / math.sqrt(3):.3f}",
    ]
    # Three declarer bars (scores -4, -2, 0) and four others bars (-8, -6, -4, -2), heights in % (as the text).
    heights = sorted(round(p.get_height(), 6) for p in ax.patches)
    assert heights == sorted([round(100 / 3, 6)] * 3 + [round(100 * v, 6) for v in (1 / 6, 2 / 6, 2 / 6, 1 / 6)])
    path = save_figure(fig, tmp_path / "plots" / "scores.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000


def test_plot_score_distributions_uses_given_figure_and_grid():
    df = pd.concat([deals().assign(contract=name) for name in ("a", "b", "c", "d")], ignore_index=True)
    fig = Figure()
    assert plot_score_distributions(df, fig=fig) is fig
    assert [ax.get_title() for ax in fig.axes] == ["a", "b", "c", "d"]  # a 2 x 2 grid: no empty slot


def test_plot_contract_scores():
    ax = plot_contract_scores(deals(), "no-tricks")
    assert isinstance(ax, Axes) and ax.get_title() == "no-tricks"
    given = Figure().add_subplot()
    assert plot_contract_scores(deals(), "no-hearts", ax=given) is given
    with pytest.raises(ValueError, match="no deals with contract 'trumps'"):
        plot_contract_scores(deals(), "trumps")


# --- documentation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("module", [analysis.stats, analysis.report, analysis.io, analysis.plots])
def test_docstring_examples_run(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_public_functions_documented_with_examples():
    for name in analysis.__all__:
        doc = getattr(analysis, name).__doc__
        assert doc and ">>>" in doc, name


# --- the shared layer serves any game -----------------------------------------------------------------


def test_reports_group_by_any_key_and_role():
    """Another game's columns (Euchre-like: grouped by trump, the maker's seat) go through the same reports."""
    df = pd.DataFrame({"deal": [0, 1, 2, 3], "trump": ["♠", "♠", "♥", "♥"], "maker": [0, 1, 2, 0],
                       "score_0": [2, -1, -1, -2], "score_1": [-1, 2, -1, 1], "score_2": [-1, -1, 2, 1]})
    table = analysis.summary(df, by="trump", role="maker")
    assert table.index.names == ["trump", "role"]
    assert table.loc[("♠", "maker"), "mean"] == 2.0 and table.loc[("♥", "maker"), "mean"] == 0.0
    assert table.loc[("♠", "others"), "mean"] == -1.0
    shares = analysis.score_shares(df, by="trump", role="maker")
    assert set(shares["role"]) == {"maker", "others"}
    text = analysis.format_report(df, by="trump", role="maker")
    assert "Seat scores by trump and role" in text and "maker" in text
    fig = analysis.plot_score_distributions(df, by="trump", role="maker")
    assert [ax.get_title() for ax in fig.axes][:2] == ["♠", "♥"]
    with pytest.raises(ValueError, match="missing column 'declarer'"):
        analysis.summary(df.rename(columns={"trump": "contract"}), by="contract", role="declarer")
    with pytest.raises(ValueError, match="by, role: give the grouping column"):
        analysis.summary(df)  # no Barbu defaults: a run that names no game gives its columns


def test_paired_comparison_reports_its_variance_reduction():
    rng = np.random.default_rng(1)
    hand = rng.normal(0, 10, 4000)  # what the deal brings, shared by both alternatives
    a, b = hand + 1.0 + rng.normal(0, 1, 4000), hand + rng.normal(0, 1, 4000)
    r = analysis.paired_comparison(a, b)
    assert r["ci_low"] < 1.0 < r["ci_high"] and r["variance_reduction"] > 0.95
    assert r["ci_high"] - r["diff"] < r["unpaired_half"] / 5
    independent = analysis.paired_comparison(rng.normal(0, 1, 4000), rng.normal(0, 1, 4000))
    assert abs(independent["variance_reduction"]) < 0.1


# --- the report leads with the balance figure ----------------------------------------------------------


def test_role_edge_is_the_paired_declarer_minus_others_difference_ranked():
    df = pd.DataFrame({"deal": range(6), "contract": ["a", "a", "a", "b", "b", "b"], "declarer": [0, 1, 2, 0, 1, 2],
                       "score_0": [4, 0, 1, -3, 0, 0], "score_1": [0, 6, 1, 0, -6, 0], "score_2": [2, 0, 5, 0, 0, -9]})
    table = analysis.role_edge(df, by="contract", role="declarer")
    assert list(table.index) == ["a", "b"]  # ranked: most favourable to the declarer first
    # a: per-deal differences 4 - 1 = 3, 6 - 0 = 6, 5 - 1 = 4 -> mean 13/3; b: -3, -6, -9 -> -6
    assert table.loc["a", "edge"] == pytest.approx(13 / 3) and table.loc["b", "edge"] == pytest.approx(-6)
    mean, low, high = analysis.mean_ci([3, 6, 4])
    assert table.loc["a", ["ci_low", "ci_high"]].tolist() == pytest.approx([low, high])
    assert table.loc["a", "declarer_mean"] == 5 and table.loc["a", "others_mean"] == pytest.approx(2 / 3)


def test_deal_report_leads_with_the_declarers_edge_and_lists_only_options_that_apply():
    options = {"players": 4, "deck": 52, "scoring": "basic", "hearts_lead": "anytime", "must_trump": True,
               "domino_rules": "upward", "geronimo": False, "double": False, "double_obligation": 2}
    meta = {"game": "barbu", "options": options, "contracts": ["no-tricks", "no-hearts"], "seed": 1, "deals": 5}
    text = format_report(deals(), meta)
    lines = text.splitlines()
    assert lines[1] == "options: the rules as coded"  # every option at its default
    changed = dict(options, hearts_lead="broken", must_trump=False, domino_rules="fan_tan", double=True)
    lines = format_report(deals(), dict(meta, options=changed)).splitlines()
    assert lines[1] == "options: hearts_lead=broken"  # no Trumps, no Domino, no whole games in this run
    lead = lines.index(next(line for line in lines if line.startswith("Declarer's edge by contract, ranked")))
    assert "points per deal" in lines[lead] and "95% CI from the per-deal differences" in lines[lead]
    assert lead < lines.index("Seat scores by contract and role (points per deal)")
    ranked = [line.split()[0] for line in lines[lead + 1:lead + 3]]
    edges = analysis.role_edge(deals())
    assert ranked == [str(c) for c in edges.index] and "points (" in lines[lead + 1]
    games = dict(meta, unit="game", options=dict(options, double=True, geronimo=True, double_obligation=1))
    assert {"geronimo", "double", "double_obligation"} <= set(analysis.options_that_apply(games))
