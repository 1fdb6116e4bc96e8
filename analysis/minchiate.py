"""Minchiate's reports, by kind of run: single deals and whole games (the strength ladder's and the options
study's reports are every game's: :mod:`cardlab.analysis.strength`, read through :data:`STRENGTH`, and
:mod:`cardlab.analysis.variants`).

Every table is a DataFrame (``net_resti_distribution``, ``points_by_source``, ``role_edges``,
``combination_stats``); the ``format_*`` functions print them and the
``plot_*`` functions draw them. The dealer's team and the cutter's team are always opponents
(the cutter sits on the dealer's left), so the cutter's edge is the dealer's with the sign
turned; both are shown because each is a question a player asks.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .common import run_header, run_meta, table_text
from .strength import Ladder, format_strength_study, plot_strength_study, team_result, team_value
from .stats import mean_ci, proportion_ci

SOURCES = ("draws", "exposed", "declarations", "captures", "card_points", "pile_combos", "beyond42", "last_trick")
COMBO_TYPES = ("R1", "R2", "C3", "C4", "C5", "C6")
COMBO_NAMES = {"R1": "low run 1-5", "R2": "high run 28-40", "C3": "1-40-Matto", "C4": "1-13-28",
               "C5": "10-20-30(-40)", "C6": "3-4 Kings"}


def _require(df: pd.DataFrame, columns) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"path: a Minchiate run needs the column {missing[0]!r}")


def dealer_team_net(df: pd.DataFrame, dealer: str = "dealer") -> np.ndarray:
    """Net resti of the dealer's team, row by row."""
    _require(df, [dealer, "net_resti"])
    return df["net_resti"].to_numpy(np.int64) * np.where(df[dealer].to_numpy() % 2 == 0, 1, -1)


def net_resti_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Share of deals at each net resti value (team 0 minus team 1)."""
    _require(df, ["net_resti"])
    counts = df["net_resti"].value_counts().sort_index()
    return pd.DataFrame({"count": counts, "share": counts / counts.sum()}).rename_axis("net_resti")


def points_by_source(df: pd.DataFrame) -> pd.DataFrame:
    """Mean points per deal by source (rows) for each team (columns), with the share of the total."""
    _require(df, [f"{s}_{t}" for s in SOURCES for t in range(2)])
    table = pd.DataFrame({f"team {t}": [df[f"{s}_{t}"].mean() for s in SOURCES] for t in range(2)}, index=SOURCES)
    total = table.sum(axis=1)
    table["share"] = total / total.sum()
    return table.rename_axis("source")


def points_by_role(df: pd.DataFrame, dealer: str = "dealer") -> pd.DataFrame:
    """Mean points per deal by source for the dealer's team and the cutter's team, and their difference."""
    _require(df, [dealer] + [f"{s}_{t}" for s in SOURCES for t in range(2)])
    even = (df[dealer].to_numpy() % 2 == 0)
    rows = {}
    for s in SOURCES:
        a, b = df[f"{s}_0"].to_numpy(np.int64), df[f"{s}_1"].to_numpy(np.int64)
        mine, theirs = np.where(even, a, b), np.where(even, b, a)
        rows[s] = {"dealer's team": mine.mean(), "cutter's team": theirs.mean(), "difference": (mine - theirs).mean()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("source")


def role_edges(df: pd.DataFrame, dealer: str = "dealer", level: float = 0.95) -> pd.DataFrame:
    """Mean net resti (with CI) and win/tie shares of team 0, the dealer's team and the cutter's team."""
    rows = {}
    for name, values in (("team 0 (seats 0, 2)", df["net_resti"].to_numpy(np.int64)),
                         ("dealer's team", dealer_team_net(df, dealer)),
                         ("cutter's team", -dealer_team_net(df, dealer))):
        mean, low, high = mean_ci(values, level=level)
        win, win_low, win_high = proportion_ci(int((values > 0).sum()), len(values), level=level)
        rows[name] = dict(mean=mean, ci_low=low, ci_high=high, win=win, win_low=win_low, win_high=win_high,
                          tie=float((values == 0).mean()))
    return pd.DataFrame.from_dict(rows, orient="index")


def combination_stats(df: pd.DataFrame) -> pd.DataFrame:
    """Per combination type: share of deals where one is declared, pieces per deal, mean worth of a piece."""
    _require(df, [f"declared_{k}" for k in COMBO_TYPES])
    rows = {}
    for k in COMBO_TYPES:
        n, v = df[f"declared_{k}"], df[f"declared_{k}_value"]
        pieces = int(n.sum())
        rows[k] = dict(name=COMBO_NAMES[k], deals_with=float((n > 0).mean()), pieces_per_deal=float(n.mean()),
                       worth=float(v.sum() / pieces) if pieces else float("nan"), points_per_deal=float(v.mean()))
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("combination")


#: The share columns of :func:`role_edges`, shown in % in the reports.
EDGE_SHARES = ("win", "win_low", "win_high", "tie")


def _fmt(table: pd.DataFrame, *percent, digits: int = 3) -> str:
    return table_text(table, percent=percent, digits=digits)


def format_deal_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The report of a run of single deals."""
    meta = run_meta(df, meta)
    dist = net_resti_distribution(df)
    lines = [*run_header(meta, "deal report", count=len(df)), "",
             "net resti per deal (team 0 - team 1):", _fmt(dist, "share"), "",
             "edges (net resti per deal, 95% CI):", _fmt(role_edges(df), *EDGE_SHARES), "",
             "mean points per deal by source:", _fmt(points_by_source(df), "share", digits=2), "",
             "where the dealer's edge comes from (mean points per deal):", _fmt(points_by_role(df), digits=2), "",
             "declared combinations:", _fmt(combination_stats(df), "deals_with")]
    return "\n".join(lines)


def format_game_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The report of a run of whole games (``net_resti`` summed over each game's deals)."""
    meta = run_meta(df, meta)
    n = int(df["n_deals"].iloc[0]) if "n_deals" in df else (meta.get("options") or {}).get("n_deals", "?")
    title = f"whole-game report ({n} deal{'' if n == 1 else 's'} a game)"
    lines = [*run_header(meta, title, count=len(df), unit="game"), "",
             "net resti per game (team 0 - team 1):", _fmt(net_resti_distribution(df), "share"), "",
             "edges per game (95% CI; 'dealer' = the game's first dealer):",
             _fmt(role_edges(df, "first_dealer"), *EDGE_SHARES), "",
             "mean points per game by source:", _fmt(points_by_source(df), "share", digits=2)]
    return "\n".join(lines)


# ---------------------------------------------------------------- plots


SOURCE_NAMES = {"draws": "draws", "exposed": "exposed card", "declarations": "declarations", "captures": "captures",
                "card_points": "card points", "pile_combos": "pile combinations", "beyond42": "beyond 42",
                "last_trick": "last trick"}


def _axes(ax: Axes | None, size=(6, 4)) -> Axes:
    return Figure(figsize=size, layout="constrained").add_subplot() if ax is None else ax


def _unit(unit: str | None, df: pd.DataFrame) -> str:
    """'deal' or 'game': given, else from the run's metadata (whole games carry ``first_dealer``)."""
    if unit:
        return unit
    return "game" if run_meta(df).get("unit") == "game" or "first_dealer" in df.columns else "deal"


def plot_net_resti(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95, unit: str | None = None) -> Axes:
    """Bars of the share (%) of deals (or games) at each net resti value, with Wilson ``level`` intervals."""
    ax = _axes(ax)
    unit = _unit(unit, df)
    dist = net_resti_distribution(df)
    total = int(dist["count"].sum())
    share, low, high = proportion_ci(dist["count"].to_numpy(), np.full(len(dist), total), level=level)
    ax.bar(dist.index, 100 * share, yerr=100 * np.vstack([share - low, high - share]), color="tab:blue",
           capsize=2, ecolor="0.3")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(xlabel="net resti (team 0 - team 1)", ylabel=f"% of {unit}s ({level:.0%} CI)",
           title=f"Net resti per {unit}")
    return ax


def plot_points_by_source(df: pd.DataFrame, *, ax: Axes | None = None, dealer: str = "dealer",
                          level: float = 0.95, unit: str | None = None) -> Axes:
    """Grouped bars: mean points per deal (or game) by source for the dealer's team and the cutter's team,
    with ``level`` intervals."""
    ax = _axes(ax)
    unit = _unit(unit, df)
    _require(df, [dealer] + [f"{s}_{t}" for s in SOURCES for t in range(2)])
    even = df[dealer].to_numpy() % 2 == 0
    x = np.arange(len(SOURCES))
    first = "first " if dealer == "first_dealer" else ""
    for offset, mine, label, colour in ((-0.2, True, f"{first}dealer's team", "tab:red"),
                                        (0.2, False, "cutter's team", "tab:green")):
        stats = np.array([mean_ci(np.where(even == mine, df[f"{s}_0"], df[f"{s}_1"]).astype(float), level=level)
                          for s in SOURCES])
        err = np.nan_to_num(np.vstack([stats[:, 0] - stats[:, 1], stats[:, 2] - stats[:, 0]]))
        ax.bar(x + offset, stats[:, 0], 0.4, yerr=err, capsize=2, ecolor="0.3", label=label, color=colour)
    ax.set_xticks(x, [SOURCE_NAMES[s] for s in SOURCES], rotation=30, ha="right")
    ax.set(ylabel=f"mean points per {unit} ({level:.0%} CI)", title=f"Points by source ({first}dealer's team vs "
           "cutter's)")
    ax.legend(fontsize="small")
    return ax


def plot_role_edges(df: pd.DataFrame, *, ax: Axes | None = None, dealer: str = "dealer", level: float = 0.95,
                    unit: str | None = None) -> Axes:
    """Mean net resti of team 0, the dealer's team and the cutter's team, with ``level`` intervals."""
    ax = _axes(ax)
    unit = _unit(unit, df)
    t = role_edges(df, dealer, level=level)
    err = np.nan_to_num(np.vstack([t["mean"] - t["ci_low"], t["ci_high"] - t["mean"]]))
    ax.bar(range(len(t)), t["mean"], yerr=err, capsize=4, color=["tab:gray", "tab:red", "tab:green"], ecolor="0.3")
    ax.axhline(0, color="black", lw=0.8)
    labels = list(t.index)
    if dealer == "first_dealer":
        labels = [n.replace("dealer's", "first dealer's") for n in labels]
    ax.set_xticks(range(len(t)), labels)
    ax.set(ylabel=f"mean net resti per {unit} ({level:.0%} CI)", title="Edges by team")
    return ax


def plot_combinations(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Share (%) of deals in which each combination type is declared (Wilson ``level`` intervals),
    annotated with a piece's mean worth."""
    ax = _axes(ax)
    t = combination_stats(df)
    n = len(df)
    share, low, high = proportion_ci(np.round(t["deals_with"].to_numpy() * n).astype(int), np.full(len(t), n),
                                     level=level)
    bars = ax.bar(range(len(t)), 100 * share, yerr=100 * np.vstack([share - low, high - share]), capsize=3,
                  color="tab:purple", ecolor="0.3")
    ax.bar_label(bars, labels=[f"{w:.0f} pts" if np.isfinite(w) else "" for w in t["worth"]], fontsize="x-small",
                 padding=2)
    ax.set_xticks(range(len(t)), [f"{v}\n({k})" for k, v in t["name"].items()], fontsize="small")
    ax.set(ylabel=f"% of deals declaring one ({level:.0%} CI)",
           title="Declared combinations (labels: a piece's mean worth)")
    return ax


def plot_deal_report(df: pd.DataFrame, *, fig: Figure | None = None) -> Figure:
    """Four panels: net resti, points by source, edges, combinations."""
    fig = fig or Figure(figsize=(13, 8.5), layout="constrained")
    axes = fig.subplots(2, 2).ravel()
    plot_net_resti(df, ax=axes[0], unit="deal")
    plot_points_by_source(df, ax=axes[1], unit="deal")
    plot_role_edges(df, ax=axes[2], unit="deal")
    plot_combinations(df, ax=axes[3])
    return fig


def plot_game_report(df: pd.DataFrame, *, fig: Figure | None = None) -> Figure:
    """Three panels for whole games: net resti, points by source, edges (the dealer is the game's first)."""
    fig = fig or Figure(figsize=(16, 4.6), layout="constrained")
    axes = fig.subplots(1, 3)
    plot_net_resti(df, ax=axes[0], unit="game")
    plot_points_by_source(df, ax=axes[1], dealer="first_dealer", unit="game")
    plot_role_edges(df, ax=axes[2], dealer="first_dealer", unit="game")
    return fig


def _format_variants(df: pd.DataFrame, meta: dict | None = None) -> str:
    from .variants import format_variants  # the options study of every game (cardlab.sim.variants)

    return format_variants(df, meta)


def _plot_variants(df: pd.DataFrame):
    from .variants import plot_variants

    return plot_variants(df)


#: The strength ladder's rows (``sim/minchiate/interface.py``'s hooks): a partnership changes policy; its net
#: resti and points difference are team 0 minus team 1, seen from its side; the dealer's team at each whole table.
STRENGTH = Ladder(side="team", team=True, measures=(team_result("net_resti", "net"), team_result("points", "diff")),
                  figures={"net resti, team 0 - team 1": team_value("net", of=None),
                           "dealer's team net resti": team_value("net"),
                           "dealer's team ahead": team_value("net", wins=True),
                           "dealer's team points difference": team_value("diff")})


REPORTS = {
    "deal": (format_deal_report, plot_deal_report),
    "game": (format_game_report, plot_game_report),
    "options": (_format_variants, _plot_variants),
    "strength": (format_strength_study, plot_strength_study),
}
