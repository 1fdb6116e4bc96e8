"""The Minchiate strength ladder's report: what each card policy gains against the others, and the dealer's
team edge under each policy.

Input: a strength study (``cardlab study minchiate strength``), one row per deal: ``deal``, ``dealer``,
``team`` (the team that changes policy), ``net_<policy>``/``diff_<policy>`` (team 0 minus team 1, net
resti and points, every seat playing that policy) and ``net_<X>_vs_<Y>``/``diff_<X>_vs_<Y>`` (team 0
minus team 1 when ``team`` plays X and the other team Y), for the policies random, heuristic, search.

* :func:`strength_gains`: the gain of X against Y: the changed team's net resti (and points
  difference) at the mixed table minus at the whole-Y table, on the same deal, with CIs.
* :func:`dealer_edges`: the dealer's team's net resti per deal at each whole table, its win share,
  and its paired shift from the heuristic table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .stats import mean_ci, proportion_ci

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)


def _require(df: pd.DataFrame) -> None:
    need = ["deal", "dealer", "team"] + [f"net_{p}" for p in LADDER] + [f"net_{x}_vs_{y}" for x, y in PAIRS]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ValueError(f"path: a Minchiate strength study needs the column {missing[0]!r}")


def example_study() -> pd.DataFrame:
    """Four deals small enough to read: the dealer's team nets one resto at every whole table, and the
    changing team (team 0) nets one resto (30 points) more by searching against heuristic players."""
    rows = []
    for deal in range(4):
        row = {"deal": deal, "dealer": deal % 4, "team": 0}
        net = 1 - 2 * (deal % 2)  # team 0 minus team 1: +1 when team 0 deals
        for p in LADDER:
            row.update({f"net_{p}": net, f"diff_{p}": 40 * net})
        for x, y in PAIRS:
            up = 1 if (x, y) == ("search", "heuristic") else 0
            row.update({f"net_{x}_vs_{y}": net + up, f"diff_{x}_vs_{y}": 40 * net + 30 * up})
        rows.append(row)
    return pd.DataFrame(rows)


def _side(df: pd.DataFrame, column: str, team: np.ndarray) -> np.ndarray:
    """``column`` (team 0 minus team 1) from the side of ``team`` (0 or 1, row by row)."""
    return df[column].to_numpy(np.float64) * np.where(team == 0, 1.0, -1.0)


def strength_gains(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """The net resti (``gain``) and points (``points``) a partnership gains per deal by playing ``policy``
    instead of ``against`` against ``against`` opponents, with CIs; index (``policy``, ``against``).

    >>> g = strength_gains(example_study())
    >>> float(g.loc[("search", "heuristic"), "gain"]), float(g.loc[("search", "heuristic"), "points"])
    (1.0, 30.0)
    """
    _require(df)
    team = df["team"].to_numpy(np.int64)
    rows = {}
    for x, y in PAIRS:
        gain = _side(df, f"net_{x}_vs_{y}", team) - _side(df, f"net_{y}", team)
        pts = _side(df, f"diff_{x}_vs_{y}", team) - _side(df, f"diff_{y}", team)
        rows[(x, y)] = (len(gain), *mean_ci(gain, level=level), *mean_ci(pts, level=level))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["deals", "gain", "ci_low", "ci_high", "points",
                                                                  "points_ci_low", "points_ci_high"])
    table.index = pd.MultiIndex.from_tuples(table.index, names=["policy", "against"])
    return table


def dealer_edges(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """The dealer's team's net resti per deal with every seat playing ``policy`` (CI), its win share, its
    points difference, and the paired shift of the edge from the all-heuristic table (CI).

    >>> e = dealer_edges(example_study())
    >>> float(e.loc["search", "edge"]), float(e.loc["search", "shift"])
    (1.0, 0.0)
    """
    _require(df)
    dealer_team = df["dealer"].to_numpy(np.int64) % 2
    base = _side(df, "net_heuristic", dealer_team)
    rows = {}
    for p in LADDER:
        edge = _side(df, f"net_{p}", dealer_team)
        mean, low, high = mean_ci(edge, level=level)
        win, _, _ = proportion_ci(int((edge > 0).sum()), len(edge), level=level)
        shift, s_low, s_high = mean_ci(edge - base, level=level)
        pts = _side(df, f"diff_{p}", dealer_team).mean() if f"diff_{p}" in df else np.nan
        rows[p] = dict(deals=len(edge), edge=mean, ci_low=low, ci_high=high, win=win, points=pts, shift=shift,
                       shift_low=s_low, shift_high=s_high)
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("policy")


def format_strength_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The strength study as text: every pair's gain, then the dealer's team edge under each policy.

    >>> "dealer's team" in format_strength_study(example_study(), {"search_worlds": 32})
    True
    """
    meta = meta or {}
    gains = strength_gains(df, level=level)
    edges = dealer_edges(df, level=level)
    lines = [f"Minchiate strength study: {len(df)} deals, paired (same deals; one partnership changes policy)"]
    if meta.get("search_worlds"):
        lines.append(f"search: {meta['search_worlds']} sampled worlds per decision, "
                     f"{meta.get('search_rollout', 'heuristic')} rollouts; seed {meta.get('seed', '?')}")
    lines += ["", f"Gain of a partnership playing `policy` instead of `against`, against `against` opponents "
                  f"(net resti and points per deal, {level:.0%} CI)", gains.round(3).to_string(),
              "", f"The dealer's team with every seat playing one policy (net resti per deal, {level:.0%} CI; "
                  "shift: paired change from the heuristic table)", edges.round(3).to_string()]
    return "\n".join(lines)


def plot_strength_study(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Two panels: each pair's gain in net resti per deal (CI), and the dealer's team edge per policy (CI).

    >>> [ax.get_title() for ax in plot_strength_study(example_study()).axes][1]
    "The dealer's team edge"
    """
    gains = strength_gains(df, level=level)
    edges = dealer_edges(df, level=level)
    fig = fig or Figure(figsize=(12, 4.5), layout="constrained")
    ax, bx = fig.subplots(1, 2, width_ratios=[2, 1])
    y = np.arange(len(gains))
    err = np.nan_to_num(np.vstack([gains["gain"] - gains["ci_low"], gains["ci_high"] - gains["gain"]]))
    colours = ["tab:red" if x == "search" else "tab:blue" if x == "heuristic" else "tab:grey" for x, _ in gains.index]
    ax.barh(y, gains["gain"], xerr=err, capsize=3, color=colours)
    ax.set_yticks(y, [f"{x} against {a}" for x, a in gains.index])
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set(xlabel="net resti per deal gained by the partnership that changes policy",
           title=f"Gain of one partnership changing policy, same deals ({level:.0%} CI)")
    err = np.nan_to_num(np.vstack([edges["edge"] - edges["ci_low"], edges["ci_high"] - edges["edge"]]))
    bx.bar(range(len(edges)), edges["edge"], yerr=err, capsize=4, color=["tab:grey", "tab:blue", "tab:red"])
    bx.set_xticks(range(len(edges)), edges.index)
    bx.set(ylabel="dealer's team net resti per deal", title="The dealer's team edge")
    return fig


__all__ = ["dealer_edges", "format_strength_study", "plot_strength_study", "strength_gains"]
