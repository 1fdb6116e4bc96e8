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

from .common import run_header, run_meta
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


def _fmt(table: pd.DataFrame, digits: int = 3) -> str:
    return table.round(digits).to_string()


def format_deal_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The report of a run of single deals."""
    meta = run_meta(df, meta)
    dist = net_resti_distribution(df)
    lines = [*run_header(meta, "deal report", count=len(df)), "",
             "net resti per deal (team 0 - team 1):", _fmt(dist), "",
             "edges (net resti per deal, 95% CI):", _fmt(role_edges(df)), "",
             "mean points per deal by source:", _fmt(points_by_source(df), 2), "",
             "where the dealer's edge comes from (mean points per deal):", _fmt(points_by_role(df), 2), "",
             "declared combinations:", _fmt(combination_stats(df))]
    return "\n".join(lines)


def format_game_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The report of a run of whole games (``net_resti`` summed over each game's deals)."""
    meta = run_meta(df, meta)
    n = int(df["n_deals"].iloc[0]) if "n_deals" in df else (meta.get("options") or {}).get("n_deals", "?")
    title = f"whole-game report ({n} deal{'' if n == 1 else 's'} a game)"
    lines = [*run_header(meta, title, count=len(df), unit="game"), "",
             "net resti per game (team 0 - team 1):", _fmt(net_resti_distribution(df)), "",
             "edges per game (95% CI; 'dealer' = the game's first dealer):", _fmt(role_edges(df, "first_dealer")), "",
             "mean points per game by source:", _fmt(points_by_source(df), 2)]
    return "\n".join(lines)


# ---------------------------------------------------------------- plots


def _axes(ax: Axes | None, size=(6, 4)) -> Axes:
    return Figure(figsize=size, layout="constrained").add_subplot() if ax is None else ax


def plot_net_resti(df: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Bar chart of the share of deals at each net resti value."""
    ax = _axes(ax)
    dist = net_resti_distribution(df)
    ax.bar(dist.index, dist["share"], color="tab:blue")
    ax.set(xlabel="net resti (team 0 - team 1)", ylabel="share of deals", title="Net resti per deal")
    return ax


def plot_points_by_source(df: pd.DataFrame, *, ax: Axes | None = None, dealer: str = "dealer") -> Axes:
    """Grouped bars: mean points per deal by source for the dealer's team and the cutter's team."""
    ax = _axes(ax)
    table = points_by_role(df, dealer)
    x = np.arange(len(table))
    ax.bar(x - 0.2, table["dealer's team"], 0.4, label="dealer's team", color="tab:red")
    ax.bar(x + 0.2, table["cutter's team"], 0.4, label="cutter's team", color="tab:green")
    ax.set_xticks(x, table.index, rotation=30, ha="right")
    ax.set(ylabel="mean points", title="Points by source")
    ax.legend()
    return ax


def plot_role_edges(df: pd.DataFrame, *, ax: Axes | None = None, dealer: str = "dealer") -> Axes:
    """Mean net resti of team 0, the dealer's team and the cutter's team, with 95% CIs."""
    ax = _axes(ax)
    t = role_edges(df, dealer)
    err = np.nan_to_num(np.vstack([t["mean"] - t["ci_low"], t["ci_high"] - t["mean"]]))
    ax.bar(range(len(t)), t["mean"], yerr=err, capsize=4, color=["tab:gray", "tab:red", "tab:green"])
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(t)), t.index)
    ax.set(ylabel="mean net resti", title="Edges (95% CI)")
    return ax


def plot_combinations(df: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Share of deals in which each combination type is declared, annotated with a piece's mean worth."""
    ax = _axes(ax)
    t = combination_stats(df)
    ax.bar(range(len(t)), t["deals_with"], color="tab:purple")
    for i, w in enumerate(t["worth"]):
        if np.isfinite(w):
            ax.annotate(f"{w:.0f} pts", (i, t["deals_with"].iloc[i]), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(t)), [f"{k}\n{v}" for k, v in t["name"].items()], fontsize=7)
    ax.set(ylabel="share of deals declaring one", title="Declared combinations")
    return ax


def plot_deal_report(df: pd.DataFrame, *, fig: Figure | None = None) -> Figure:
    """Four panels: net resti, points by source, edges, combinations."""
    fig = fig or Figure(figsize=(12, 8), layout="constrained")
    axes = fig.subplots(2, 2).ravel()
    plot_net_resti(df, ax=axes[0])
    plot_points_by_source(df, ax=axes[1])
    plot_role_edges(df, ax=axes[2])
    plot_combinations(df, ax=axes[3])
    return fig


def plot_game_report(df: pd.DataFrame, *, fig: Figure | None = None) -> Figure:
    """Three panels for whole games: net resti, points by source, edges."""
    fig = fig or Figure(figsize=(15, 4), layout="constrained")
    axes = fig.subplots(1, 3)
    plot_net_resti(df, ax=axes[0])
    axes[0].set_title("Net resti per game")
    plot_points_by_source(df, ax=axes[1], dealer="first_dealer")
    plot_role_edges(df, ax=axes[2], dealer="first_dealer")
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
