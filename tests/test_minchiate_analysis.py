"""Minchiate reports against hand computations on a tiny table."""
import numpy as np
import pandas as pd

from cardlab.analysis import minchiate as report

SOURCES = report.SOURCES


def tiny() -> pd.DataFrame:
    rows = []
    for deal, (dealer, net, a, b) in enumerate([(0, 2, 100, 10), (1, -1, 20, 60), (2, 0, 30, 30), (3, 3, 90, 0)]):
        row = {"deal": deal, "dealer": dealer, "net_resti": net}
        for s in SOURCES:
            row[f"{s}_0"], row[f"{s}_1"] = (a, b) if s == "card_points" else (0, 0)
        for k in report.COMBO_TYPES:
            row[f"declared_{k}"], row[f"declared_{k}_value"] = (1, 24) if (k == "R2" and deal < 2) else (0, 0)
        rows.append(row)
    return pd.DataFrame(rows)


def test_role_edges_by_hand():
    t = report.role_edges(tiny())
    # dealer's team: +2 (dealer 0, team 0), +1 (dealer 1, team 1 gains when net is -1), 0, -3 (dealer 3)
    assert np.isclose(t.loc["dealer's team", "mean"], 0.0)
    assert np.isclose(t.loc["team 0 (seats 0, 2)", "mean"], 1.0)
    assert np.isclose(t.loc["team 0 (seats 0, 2)", "win"], 0.5) and np.isclose(t.loc["dealer's team", "tie"], 0.25)
    assert np.isclose(t.loc["cutter's team", "mean"], -t.loc["dealer's team", "mean"])


def test_points_by_role_and_source_by_hand():
    roles = report.points_by_role(tiny())
    # dealer's team card points: 100 (team 0), 60 (team 1), 30 (team 0), 0 (team 1) -> 47.5
    assert np.isclose(roles.loc["card_points", "dealer's team"], 47.5)
    assert np.isclose(roles.loc["card_points", "cutter's team"], (10 + 20 + 30 + 90) / 4)
    table = report.points_by_source(tiny())
    assert np.isclose(table.loc["card_points", "team 0"], 60) and np.isclose(table.loc["card_points", "share"], 1)


def test_combination_stats_and_distribution_by_hand():
    c = report.combination_stats(tiny())
    assert np.isclose(c.loc["R2", "deals_with"], 0.5) and np.isclose(c.loc["R2", "worth"], 24)
    assert np.isnan(c.loc["C3", "worth"])
    dist = report.net_resti_distribution(tiny())
    assert dist["count"].sum() == 4 and np.isclose(dist.loc[3, "share"], 0.25)
    assert "dealer's team" in report.format_deal_report(tiny(), {"policies": ["heuristic"] * 4, "seed": 1})
