"""Tests for analysis.games, analysis.studies and their plots: hand-made tables with hand-computed answers,
and structural facts on a small real run of whole games."""

import doctest
import importlib
import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cardlab import analysis
import cardlab.analysis.games
import cardlab.analysis.barbu_studies
from cardlab.analysis import (
    cluster_mean_ci,
    game_totals,
    mean_ci,
    placings,
    plot_placings,
    proportion_ci,
    seat_advantage,
    summary,
)
from cardlab.analysis.barbu import (  # Barbu's own reports live under analysis.barbu
    contract_points,
    contract_timing,
    contract_value_summary,
    double_events,
    double_payoffs,
    doubling_effects,
    format_contract_study,
    format_game_report,
    format_trump_study,
    plot_contract_timing,
    plot_contract_values,
    plot_double_payoffs,
    plot_game_report,
    plot_trump_study,
    trump_by_length,
    trump_choice_summary,
)
from cardlab.analysis.barbu_games import is_chosen_schedule

Z95 = 1.959963984540054


# --- whole games without doubling --------------------------------------------------------------------


def games():
    """Two games (ids 7 and 3, rows out of order), two deals each, three seats.

    game deal contract   declarer  score_0 score_1 score_2
    7    0    trumps     0          9       6       3
    7    1    no-tricks  1          1       4       1      totals 10, 10, 4 -> places 1, 1, 3
    3    0    trumps     2          0       6       6
    3    1    no-tricks  0         -5      -3      -3      totals -5,  3, 3 -> places 3, 1, 1
    """
    df = pd.DataFrame(
        {
            "game": np.array([7, 7, 3, 3], dtype=np.int64),
            "deal": np.array([0, 1, 0, 1], dtype=np.int16),
            "contract": pd.Categorical(["trumps", "no-tricks", "trumps", "no-tricks"],
                                       categories=["no-tricks", "salade", "trumps"]),
            "declarer": np.array([0, 1, 2, 0], dtype=np.int8),
            "trump": np.array([1, -1, 3, -1], dtype=np.int8),
            "score_0": np.array([9, 1, 0, -5], dtype=np.int16),
            "score_1": np.array([6, 4, 6, -3], dtype=np.int16),
            "score_2": np.array([3, 1, 6, -3], dtype=np.int16),
        }
    )
    return df.iloc[[3, 0, 2, 1]].reset_index(drop=True)


def test_game_totals_sum_scores_and_ties_share_a_place():
    t = game_totals(games())
    assert list(t.index) == [3, 7]
    assert t.loc[7, ["total_0", "total_1", "total_2"]].tolist() == [10, 10, 4]
    assert t.loc[7, ["place_0", "place_1", "place_2"]].tolist() == [1, 1, 3]  # tie for first, no 2nd place
    assert t.loc[3, ["total_0", "total_1", "total_2"]].tolist() == [-5, 3, 3]
    assert t.loc[3, ["place_0", "place_1", "place_2"]].tolist() == [3, 1, 1]


def test_game_totals_rejects_incomplete_games():
    df = games()
    with pytest.raises(ValueError, match="complete.*game 3 has 1 deals"):
        game_totals(df.drop(index=0))  # row 0 is game 3, deal 1


def test_seat_advantage_hand_computed():
    table = seat_advantage(games())
    # seat 0 totals: 10 (game 7), -5 (game 3); table means per game: 8 and 1/3
    mean, low, high = mean_ci([10, -5])
    assert table.loc[0, ["mean", "ci_low", "ci_high"]].tolist() == pytest.approx([mean, low, high])
    assert table.loc[0, "std"] == pytest.approx(np.std([10, -5], ddof=1))
    edge = [10 - 8, -5 - 1 / 3]
    assert table.loc[0, ["edge", "edge_ci_low", "edge_ci_high"]].tolist() == pytest.approx(list(mean_ci(edge)))
    assert table["mean"].tolist() == pytest.approx([2.5, 6.5, 3.5])
    assert table["mean_place"].tolist() == [2.0, 1.0, 2.0]
    assert table["win_share"].tolist() == [0.5, 1.0, 0.5]
    assert table["edge"].sum() == pytest.approx(0.0)  # edges of all seats cancel


def test_placings_shares_with_wilson_intervals():
    table = placings(games())
    assert table.index.names == ["seat", "place"] and len(table) == 9
    assert table["count"].tolist() == [1, 0, 1, 2, 0, 0, 1, 0, 1]
    share, low, high = proportion_ci(1, 2)
    assert table.loc[(0, 1), ["share", "ci_low", "ci_high"]].tolist() == pytest.approx([share, low, high])
    assert table.loc[(1, 1), ["share", "ci_low", "ci_high"]].tolist() == pytest.approx(list(proportion_ci(2, 2)))
    assert table.loc[(1, 2), "ci_low"] == 0.0 and table.loc[(1, 2), "share"] == 0.0
    assert table.groupby(level="seat")["share"].sum().tolist() == [1.0, 1.0, 1.0]


def test_contract_points_share_of_absolute_points():
    table = contract_points(games())
    assert list(table.index) == ["no-tricks", "trumps"]  # categorical order, unused 'salade' dropped
    # |scores|: trumps 9+6+3+0+6+6 = 30, no-tricks 1+4+1+5+3+3 = 17
    assert table["points"].tolist() == [17, 30]
    assert table["share"].tolist() == pytest.approx([17 / 47, 30 / 47])
    assert table["points_per_deal"].tolist() == pytest.approx([8.5, 15.0])
    assert table["declarer_mean"].tolist() == pytest.approx([(4 - 5) / 2, (9 + 6) / 2])
    assert table["others_mean"].tolist() == pytest.approx([(1 + 1 - 3 - 3) / 4, (6 + 3 + 0 + 6) / 4])
    dec = summary(games(), by="contract", role="declarer").xs("declarer", level="role")  # the same interval as the per-deal report
    assert table["declarer_ci_low"].tolist() == pytest.approx(dec.loc[table.index, "ci_low"].tolist())


def test_contract_timing_rows_sum_to_one():
    df = games()
    by_deal = contract_timing(df, by="deal")
    assert by_deal.loc[0].to_dict() == {"no-tricks": 0.0, "trumps": 1.0}
    assert by_deal.loc[1].to_dict() == {"no-tricks": 1.0, "trumps": 0.0}
    by_round = contract_timing(df)  # 3 seats: deals 0 and 1 are both round 0
    assert list(by_round.index) == [0] and by_round.loc[0].tolist() == [0.5, 0.5]
    assert not is_chosen_schedule(df)  # same contract at each deal index in every game
    swapped = df.assign(contract=df["contract"].where(df["game"] == 7, df["contract"].map(
        {"trumps": "no-tricks", "no-tricks": "trumps"}).astype(df["contract"].dtype)))
    assert is_chosen_schedule(swapped)
    assert contract_timing(swapped, by="deal").loc[0].tolist() == [0.5, 0.5]
    assert not is_chosen_schedule(swapped, {"options": {"geronimo": False}})  # metadata decides when given
    with pytest.raises(ValueError, match="by: 'game'"):
        contract_timing(df, by="game")


def test_missing_columns_are_named():
    df = games()
    with pytest.raises(ValueError, match="'score_1'"):
        game_totals(df.drop(columns="score_1"))
    with pytest.raises(ValueError, match="missing column 'declarer'"):
        contract_points(df.drop(columns="declarer"))
    with pytest.raises(ValueError, match="missing column 'game'"):
        placings(df.drop(columns="game"))
    with pytest.raises(ValueError, match="raw_0"):
        doubling_effects(df)
    with pytest.raises(ValueError, match="double_0_1.*double=True"):
        double_payoffs(df.assign(raw_0=df["score_0"], raw_1=df["score_1"], raw_2=df["score_2"]))


def test_game_report_sections():
    text = format_game_report(games(), {"game": "barbu", "seed": 5, "deals_per_game": 2, "unit": "game",
                                        "double_policies": ["heuristic"] * 3,
                                        "options": {"players": 3, "geronimo": False, "double": False,
                                                    "late_redouble": False, "declarer_blocks": False}})
    lines = text.splitlines()
    # the shared header: only the options away from their defaults (geronimo and double are not)
    assert lines[:3] == ["Barbu (barbu): whole-game report | seed 5 | 2 games", "options: players=3",
                         "data: 2 games × 2 deals, 3 seats"]
    for title in ("Seat advantage", "Placings", "Contract points", "Deal scores by contract and role"):
        assert title in text
    assert "Contract timing" not in text and "Doubl" not in text  # regular schedule, no doubling
    assert "double policies" not in text  # doubling policies only where doubles are played


# --- doubling ------------------------------------------------------------------------------------------


def doubled():
    """Three one-deal games, four seats, with doubles (rules §5 worked example first).

    game 0, no-queens, declarer 0, raw 0 -12 -6 -6: 1 doubles 0 and 2, 2 doubles 0, 0 redoubles 2
        payoffs: 1->0: -12, 1->2: 1*(-12 - -6) = -6, 2->0: 2*(-6 - 0) = -12; finals 24 -30 -12 -6
    game 1, trumps, declarer 1, raw 3 18 9 9: 0, 2 (redoubled) and 3 double 1
        payoffs: 0->1: -15, 2->1: 2*(9-18) = -18, 3->1: -9; finals -12 60 -9 0
    game 2, no-queens, declarer 2, raw -3 -3 0 -6: 3 doubles 2, 0 doubles 1
        payoffs: 3->2: -6, 0->1: 0; finals -3 -3 6 -12
    """
    raw = np.array([[0, -12, -6, -6], [3, 18, 9, 9], [-3, -3, 0, -6]])
    final = np.array([[24, -30, -12, -6], [-12, 60, -9, 0], [-3, -3, 6, -12]])
    columns = {
        "game": np.arange(3, dtype=np.int64),
        "deal": np.zeros(3, np.int16),
        "contract": pd.Categorical(["no-queens", "trumps", "no-queens"]),
        "declarer": np.array([0, 1, 2], np.int8),
        "trump": np.array([-1, 2, -1], np.int8),
    }
    columns.update({f"raw_{p}": raw[:, p].astype(np.int16) for p in range(4)})
    columns.update({f"score_{p}": final[:, p].astype(np.int16) for p in range(4)})
    m = np.zeros((3, 4, 4), np.int8)
    m[0, 1, 0] = m[0, 1, 2] = 1
    m[0, 2, 0] = 2
    m[1, 0, 1] = m[1, 3, 1] = 1
    m[1, 2, 1] = 2
    m[2, 3, 2] = m[2, 0, 1] = 1
    columns.update({f"double_{i}_{j}": m[:, i, j] for i in range(4) for j in range(4) if i != j})
    return pd.DataFrame(columns)


def test_settlement_of_the_hand_example_matches_the_rules():
    """The fixture itself follows §5: final_i = raw_i + Σ payoffs to i − Σ payoffs against i."""
    df, events = doubled(), double_events(doubled())
    raw = df[[f"raw_{p}" for p in range(4)]].to_numpy().astype(int)
    settled = raw.copy()
    np.add.at(settled, (events["row"], events["doubler"]), events["payoff"])
    np.add.at(settled, (events["row"], events["target"]), -events["payoff"])
    assert (settled == df[[f"score_{p}" for p in range(4)]].to_numpy()).all()


def test_double_events_payoff_sign_and_redouble_factor():
    events = double_events(doubled()).set_index(["game", "doubler", "target"])
    assert len(events) == 8
    assert events.loc[(0, 1, 0), "payoff"] == -12  # doubled the declarer who took no queen: lost 12
    assert events.loc[(0, 2, 0), ["multiplier", "payoff"]].tolist() == [2, -12]  # redoubled: 2 * (-6 - 0)
    assert events.loc[(1, 2, 1), ["redoubled", "payoff"]].tolist() == [True, -18]
    assert events.loc[(2, 0, 1), "payoff"] == 0
    assert set(events["doubler_role"]) == {"non-declarer"}
    assert events.loc[(0, 1, 2), "target_role"] == "non-declarer"


def test_double_payoffs_groups_means_and_cluster_intervals():
    table = double_payoffs(doubled())
    row = table.loc[("no-queens", "non-declarer", "declarer", False)]
    assert row["count"] == 2 and row["mean"] == -9.0  # -12 (game 0) and -6 (game 2)
    assert [row["ci_low"], row["ci_high"]] == pytest.approx(list(mean_ci([-12, -6]))[1:])  # one per cluster
    one = table.loc[("no-queens", "non-declarer", "declarer", True)]
    assert one["mean"] == -12.0 and math.isnan(one["ci_low"])
    nd = table.loc[("no-queens", "non-declarer", "non-declarer", False)]
    assert nd[["mean", "positive_share", "zero_share"]].tolist() == [-3.0, 0.0, 0.5]
    assert table.loc[("trumps", "non-declarer", "declarer", False), "mean"] == -12.0  # -15 and -9
    assert table.loc[("trumps", "non-declarer", "declarer", True), "mean"] == -18.0
    pooled = double_payoffs(doubled(), split_redoubled=False).loc[("no-queens", "non-declarer", "declarer")]
    # -12, -12 in game 0 and -6 in game 2: mean -10; cluster residuals -24+20 = -4 and -6+10 = 4
    # variance 2/(2-1) * (16 + 16) / 3^2 = 64/9, standard error 8/3
    assert pooled["count"] == 3 and pooled["mean"] == -10.0
    assert pooled["ci_high"] - pooled["mean"] == pytest.approx(Z95 * 8 / 3)


def test_cluster_mean_ci_matches_mean_ci_for_single_observations():
    rng = np.random.default_rng(3)
    x = rng.normal(size=50)
    t = cluster_mean_ci(x, np.zeros(50), np.arange(50), level=0.9)
    assert t.iloc[0][["mean", "ci_low", "ci_high"]].tolist() == pytest.approx(list(mean_ci(x, level=0.9)))
    assert t.iloc[0]["std"] == pytest.approx(x.std(ddof=1))


def test_doubling_effects_hand_computed():
    table = doubling_effects(doubled())
    nq = table.loc["no-queens"]
    assert nq["deals"] == 2 and nq["doubles_per_deal"] == 2.5  # 3 + 2 doubles
    assert nq["redoubled_share"] == pytest.approx(1 / 5) and nq["doubled_deals"] == 1.0
    assert nq["raw_std"] == pytest.approx(np.std([0, -12, -6, -6, -3, -3, 0, -6], ddof=1))
    assert nq["final_std"] == pytest.approx(np.std([24, -30, -12, -6, -3, -3, 6, -12], ddof=1))
    assert nq["spread_ratio"] == pytest.approx(nq["final_std"] / nq["raw_std"])
    overall = table.loc["all", ["deals", "doubles_per_deal", "redoubled_share"]].tolist()
    assert overall == pytest.approx([3, 8 / 3, 2 / 8])


def test_game_report_with_doubles_and_choice():
    text = format_game_report(doubled())
    assert text.startswith("cardlab run (no run metadata): whole-game report | 3 games")
    assert "Contract timing" in text  # deal 0 carries different contracts: declarers chose
    assert "Doubling effects" in text and "Double payoffs by whether the target redoubled" in text


# --- studies ---------------------------------------------------------------------------------------------


def trumps():
    """Three deals; chosen suit and the declarer's score with each suit as trump.

    deal chosen scores t0..t3    chosen best random regret  lengths      honours
    0    0      12  9  6  3      12     12   7.5    0       5 3 3 2      2 1 0 1
    1    1       6  3  9  6       3      9   6      6       4 4 3 2      1 1 2 0
    2    2       6  9  9  0       9      9   6      0 (tie) 3 5 4 1      0 2 1 1
    """
    scores = [[12, 9, 6, 3], [6, 3, 9, 6], [6, 9, 9, 0]]
    lengths = [[5, 3, 3, 2], [4, 4, 3, 2], [3, 5, 4, 1]]
    honours = [[2, 1, 0, 1], [1, 1, 2, 0], [0, 2, 1, 1]]
    columns = {"deal": np.arange(3), "declarer": np.array([0, 1, 2], np.int8), "chosen": np.array([0, 1, 2], np.int8)}
    for name, rows in (("score", scores), ("length", lengths), ("honours", honours)):
        columns.update({f"{name}_t{t}": np.array([r[t] for r in rows], np.int16) for t in range(4)})
    return pd.DataFrame(columns)


def test_trump_choice_summary_regret_and_baselines():
    t = trump_choice_summary(trumps())
    assert t.loc["chosen", "value"] == 8.0 and t.loc["best", "value"] == 10.0 and t.loc["random", "value"] == 6.5
    assert t.loc["regret", ["value", "ci_low", "ci_high"]].tolist() == pytest.approx(list(mean_ci([0, 6, 0])))
    assert t.loc["regret_if_not_best", ["deals", "value"]].tolist() == [1, 6.0]
    assert t.loc["gain_over_random", "value"] == pytest.approx(1.5)  # 4.5, -3, 3
    share, low, high = proportion_ci(2, 3)  # the tie in deal 2 counts as best
    assert t.loc["chosen_is_best", ["value", "ci_low", "ci_high"]].tolist() == pytest.approx([share, low, high])


def test_trump_by_length_and_honours():
    t = trump_by_length(trumps())
    assert list(t.index) == [1, 2, 3, 4, 5]
    assert t.loc[5, ["suits", "mean_score", "chosen", "regret", "chosen_is_best"]].tolist() == [2, 10.5, 1, 0.0, 1.0]
    assert t.loc[5, ["score_ci_low", "score_ci_high"]].tolist() == pytest.approx(list(mean_ci([12, 9]))[1:])
    four = t.loc[4]  # suits: 6 and 3 (deal 1), 9 (deal 2); chosen in deals 1 (regret 6) and 2 (regret 0)
    assert four[["suits", "mean_score", "chosen", "regret", "chosen_is_best"]].tolist() == [3, 6.0, 2, 3.0, 0.5]
    assert four["choice_rate"] == pytest.approx(2 / 3)
    assert four["score_ci_high"] - 6.0 == pytest.approx(Z95 * 2.0)  # clusters by deal: residuals -3, 3 -> se 2
    assert t.loc[3, "chosen"] == 0 and math.isnan(t.loc[3, "regret"])
    h = trump_by_length(trumps(), by="honours")
    assert h.loc[2, ["suits", "mean_score", "chosen", "regret"]].tolist() == [3, 10.0, 1, 0.0]  # 12, 9, 9
    assert h.loc[1, ["suits", "mean_score", "chosen", "regret"]].tolist() == [6, 5.0, 2, 3.0]  # 9 3 6 3 9 0
    with pytest.raises(ValueError, match="by: 'rank'"):
        trump_by_length(trumps(), by="rank")


def test_trump_study_errors_name_the_column():
    with pytest.raises(ValueError, match="'score_t2'"):
        trump_choice_summary(trumps().drop(columns="score_t2"))
    with pytest.raises(ValueError, match="'length_t0'"):
        trump_by_length(trumps().drop(columns="length_t0"))
    with pytest.raises(ValueError, match="'chosen' must hold a suit 0-3"):
        trump_choice_summary(trumps().assign(chosen=[0, 4, 1]))


def contracts():
    """Four deals, three contracts; values and the pick (scores = value + average: -3, 15, 12).

    deal pick       no-tricks trumps domino   best              loss
    0    trumps      1.0      3.0    2.0      trumps            0
    1    domino      2.0     -1.0    0.5      no-tricks         1.5
    2    trumps     -2.0      4.0    4.0      trumps, domino    0 (tie counts as best)
    3    no-tricks   0.5      2.5   -3.0      trumps            2.0
    """
    values = np.array([[1.0, 3.0, 2.0], [2.0, -1.0, 0.5], [-2.0, 4.0, 4.0], [0.5, 2.5, -3.0]])
    df = pd.DataFrame({"deal": np.arange(4), "declarer": np.arange(4) % 3,
                       "pick": pd.Categorical(["trumps", "domino", "trumps", "no-tricks"],
                                              categories=["no-tricks", "salade", "trumps", "domino"])})
    for k, (name, average) in enumerate((("no_tricks", -3), ("trumps", 15), ("domino", 12))):
        df[f"score_{name}"] = (values[:, k] + average).astype(np.float32)
        df[f"value_{name}"] = values[:, k].astype(np.float32)
    return df


def test_contract_value_summary_hand_computed():
    t = contract_value_summary(contracts())
    assert list(t.index) == ["no-tricks", "trumps", "domino", "all"]
    assert t["picked"].tolist() == [1, 2, 1, 4]
    assert t["best"].tolist() == [1, 3, 1, 4]  # deal 2: trumps and domino tie
    assert t["mean_value"].tolist()[:3] == pytest.approx([0.375, 2.125, 0.875])
    assert t.loc["no-tricks", "mean_score"] == pytest.approx(0.375 - 3)
    assert t["value_when_picked"].tolist() == pytest.approx([0.5, 3.5, 0.5, 2.0])
    assert t["value_when_best"].tolist() == pytest.approx([2.0, 9.5 / 3, 4.0, 2.875])
    assert t["pick_is_best"].tolist() == [0.0, 1.0, 0.0, 0.5]
    assert t["loss"].tolist() == pytest.approx([2.0, 0.0, 1.5, 0.875])
    overall = t.loc["all"]
    assert overall[["loss", "loss_ci_low", "loss_ci_high"]].tolist() == pytest.approx(list(mean_ci([0, 1.5, 0, 2])))
    assert overall[["pick_is_best", "best_ci_low", "best_ci_high"]].tolist() == pytest.approx(list(proportion_ci(2, 4)))
    assert overall["loss_if_not_best"] == pytest.approx(1.75)
    assert math.isnan(t.loc["trumps", "loss_if_not_best"])  # both trumps picks were best


def test_contract_value_errors():
    with pytest.raises(ValueError, match="'salade'.*value_salade"):
        contract_value_summary(contracts().assign(pick=["salade", "trumps", "trumps", "domino"]))
    with pytest.raises(ValueError, match="value_<c>"):
        contract_value_summary(contracts().filter(regex="^(deal|declarer|pick|score_.*)$"))
    with pytest.raises(ValueError, match="missing column 'pick'"):
        contract_value_summary(contracts().drop(columns="pick"))


def test_study_reports():
    text = format_trump_study(trumps(), {"game": "barbu", "seed": 2, "options": {"players": 4}})
    assert text.startswith("Barbu (barbu): trump-choice study | seed 2 | 3 deals")
    assert "By trump length" in text and "By trump honours" in text and "♣ 33.3" in text
    text = format_contract_study(contracts())
    assert "The pick was the best contract in 50.0% of deals" in text and "mean loss 0.875" in text


# --- plots -----------------------------------------------------------------------------------------------


def test_plots_draw_on_given_axes_and_figures():
    ax = Figure().add_subplot()
    assert plot_placings(games(), ax=ax) is ax
    assert len(ax.patches) == 9  # 3 seats x 3 places
    assert isinstance(plot_contract_timing(games()), Axes)
    ax = plot_double_payoffs(doubled())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["no-queens", "trumps"]
    ax = plot_contract_values(contracts())
    assert len(ax.patches) == 6  # picked and best for 3 contracts
    fig = Figure()
    assert plot_trump_study(trumps(), fig=fig) is fig and len(fig.axes) == 2
    assert len(plot_game_report(games()).axes) == 3  # no timing (fixed schedule), no doubles
    titles = [a.get_title() for a in plot_game_report(doubled()).axes]
    assert titles[3:] == ["Contract timing", "Double payoffs to the doubler"]


# --- real data -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_games():
    from cardlab.sim.barbu import simulate_games

    return simulate_games(games=200, seed=1, geronimo=True, double=True)


def test_real_run_structure(real_games):
    df = real_games
    n = 4
    totals = game_totals(df)
    assert len(totals) == 200
    places = totals[[f"place_{p}" for p in range(n)]].to_numpy()
    assert places.shape == (200, n) and places.min() == 1 and places.max() <= n
    assert (places.min(axis=1) == 1).all()  # someone always wins
    # the place of each seat is its rank among the totals, ties sharing the better place
    t = totals[[f"total_{p}" for p in range(n)]].to_numpy()
    assert (places == 1 + (t[:, None, :] > t[:, :, None]).sum(axis=2)).all()
    assert np.allclose(placings(df).groupby(level="seat")["share"].sum(), 1.0)
    assert seat_advantage(df)["edge"].sum() == pytest.approx(0.0, abs=1e-9)

    events = double_events(df)
    assert len(events) > 0 and (events["doubler_role"] == "non-declarer").all()  # §5: declarer never initiates
    positive = events["contract"].isin(["trumps", "domino", "anti-salade"])
    assert (events.loc[positive, "target_role"] == "declarer").all()
    raw = df[[f"raw_{p}" for p in range(n)]].to_numpy().astype(int)
    settled = raw.copy()
    np.add.at(settled, (events["row"], events["doubler"]), events["payoff"])
    np.add.at(settled, (events["row"], events["target"]), -events["payoff"])
    assert (settled == df[[f"score_{p}" for p in range(n)]].to_numpy()).all()  # payoffs explain every final score

    timing = contract_timing(df)
    assert len(timing) == 7 and np.allclose(timing.sum(axis=1), 1.0)  # 28 deals = 7 rounds of 4
    assert np.allclose(timing.mean(axis=0), 1 / 7)  # Geronimo: every contract once per seat and game
    points = contract_points(df)
    assert points["share"].sum() == pytest.approx(1.0) and (points["deals"] == 800).all()
    payoffs = double_payoffs(df)
    assert payoffs["count"].sum() == len(events)
    effects = doubling_effects(df)
    assert (effects["final_std"] >= effects["raw_std"]).all()  # doubles only add spread here
    text = format_game_report(df)
    assert "Contract timing" in text and "Double payoffs" in text


# --- documentation ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["games", "barbu", "barbu_games", "barbu_studies", "barbu_plots"])
def test_docstring_examples_run(module):
    module = importlib.import_module(f"cardlab.analysis.{module}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# --- figures a reader can trust ------------------------------------------------------------------------


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_deal_figure_title_ticks_percent_and_legends_that_hide_no_bar():
    from cardlab.analysis.plots import add_run_title

    df = pd.DataFrame({"deal": range(6), "contract": ["no-barbu"] * 3 + ["no-queens"] * 3, "declarer": [0, 1, 2] * 2,
                       "score_0": [-12, 0, 0, -6, 0, -3], "score_1": [0, -12, 0, -3, -9, 0],
                       "score_2": [0, 0, -12, -3, -3, -9]})
    meta = {"game": "barbu", "options": {"players": 3, "deck": 32}, "deals": 6, "seed": 4,
            "policies": ["heuristic", "random", "random"]}
    df.attrs["cardlab"] = meta  # the rows carry their run, as simulate's do: the plot reads Barbu's columns
    fig = add_run_title(analysis.plot_score_distributions(df), meta, df)
    assert fig.get_suptitle() == "Barbu · 3 players · 32 cards · 6 deals · seed 4 · policy heuristic,random,random"
    fig.canvas.draw()
    no_barbu, no_queens = fig.axes
    assert list(no_barbu.get_xticks()) == [-12, 0] and list(no_queens.get_xticks()) == [-9, -6, -3, 0]
    for ax in fig.axes:
        heights = [p.get_height() for p in ax.patches]
        assert sum(heights) == pytest.approx(200)  # two roles, each 100% of its seat scores
        assert "%" in ax.get_ylabel()
        legend = ax.get_legend().get_window_extent()
        assert not any(_overlaps(legend, p.get_window_extent()) for p in ax.patches)
        assert not _overlaps(legend, ax.get_window_extent())


def test_games_dashboard_has_no_empty_panel_and_percent_placings():
    df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "declarer": [0, 1, 0, 1],
                       "contract": ["no-tricks", "trumps"] * 2, "score_0": [-3, 6, 0, 9], "score_1": [-10, 33, -13, 30]})
    fig = analysis.barbu.plot_game_report(df, meta={"options": {"geronimo": False}})
    assert len(fig.axes) == 3 and all(ax.patches for ax in fig.axes)  # the third panel spans its row
    placings_ax = fig.axes[0]
    assert "%" in placings_ax.get_ylabel() and max(p.get_height() for p in placings_ax.patches) == pytest.approx(100)


def test_contract_study_figure_leads_with_the_loss_and_shows_intervals():
    from cardlab.analysis.barbu import REPORTS

    df = pd.DataFrame({"deal": range(4), "declarer": [0, 1, 2, 3], "pick": ["no-tricks", "trumps", "trumps", "trumps"],
                       "value_no_tricks": [2.0, -1.0, 0.0, 1.0], "value_trumps": [1.0, -3.0, 2.0, 4.0]})
    assert REPORTS["contracts"][1] is analysis.barbu.plot_contract_study
    fig = analysis.barbu.plot_contract_study(df)
    lead, shares = fig.axes
    assert lead.get_title().startswith("What the pick loses against the best contract")
    assert [t.get_text() for t in lead.get_xticklabels()] == ["no-tricks", "trumps", "all"]
    from matplotlib.container import ErrorbarContainer

    assert any(isinstance(c, ErrorbarContainer) for c in lead.containers)
    assert sum(isinstance(c, ErrorbarContainer) for c in shares.containers) == 2
    # trumps picked on deals 1-3: best there are no-tricks (+2 on deal 1), trumps, trumps -> loss 2/3
    assert lead.patches[1].get_height() == pytest.approx(2 / 3)
    assert [round(p.get_height(), 6) for p in shares.patches[:2]] == [25.0, 75.0]  # picked: 1 and 3 of 4 deals
