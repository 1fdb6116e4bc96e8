"""Hearts' reports, by kind of run: single deals (``deal``) and whole games (``game``); the options study and the
strength ladder are every game's, the ladder read through :data:`STRENGTH`.

Points are penalties (fewer is better). Deals are independent, so every interval is a normal (``mean_ci``) or
Wilson (``proportion_ci``) interval over deals (over games for game figures). A seat's position counts from the
deal's 2♣ leader: position 1 leads the first trick, 4 plays last to it (3 or 5 with three or five players, whose
runs have ``points_0`` … ``points_2`` or ``points_4``: the table's size is read from the columns).

Input columns as written by ``cardlab.sim.hearts`` (``pass_direction``, ``leader``, ``points_0`` … ``points_3``,
``tricks_*``, ``hearts_*``, ``queen``, ``jack``, ``moon``; whole games add ``game``, ``deal`` and ``total_*``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .common import run_header, run_meta, table_text
from .plots import _yerr, new_figure
from .stats import interval, mean_ci, proportion_ci
from .strength import Figure, Ladder, format_strength_study, plot_strength_study, seat_mean, seat_result
from .variants import format_variants, plot_variants

PLAYERS = 4
PASS_NAMES = ("none", "left", "across", "right")  # four players' (pass_name for any table)
_EXPECTED = "expected a Hearts run: deal rows with pass_direction, leader, points_0 … points_3, queen and moon"


def _require(df, names=("pass_direction", "leader", "points_0", "queen", "moon")) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no deals to analyse")


def players(df: pd.DataFrame, prefix: str = "points_") -> int:
    """The table's size: how many per-seat columns ``points_0``, ``points_1`` … (or another prefix) the run has."""
    n = 0
    while f"{prefix}{n}" in df.columns:
        n += 1
    return n


def pass_name(offset: int, n: int = PLAYERS) -> str:
    """A pass direction's name (``pass_direction``: seat + offset receives), as ``cardlab.sim.hearts.rules.pass_name``:
    with five players 2 is ``two left`` and 3 ``two right``, with three 2 is ``right``."""
    if n == PLAYERS or offset == 0:
        return PASS_NAMES[offset]
    return {2: "two left", 1: "left", n - 1: "right"}.get(offset, "two right")  # with three, 2 is the right


def points_matrix(df: pd.DataFrame, prefix: str = "points_") -> np.ndarray:
    """The (deals, players) matrix of ``points_0`` … ``points_3`` (or another per-seat prefix)."""
    return np.stack([df[f"{prefix}{p}"].to_numpy(np.float64) for p in range(players(df, prefix))], axis=1)


def by_position(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Mean points, the share of deals taking the Q♠ and the moon rate by position from the 2♣ leader (1 leads)."""
    _require(df)
    points = points_matrix(df)
    leader = df["leader"].to_numpy(np.int64)
    rows, idx, n = [], np.arange(len(df)), points.shape[1]
    for k in range(n):
        seat = (leader + k) % n
        mean, low, high = mean_ci(points[idx, seat], level=level)
        q, qlow, qhigh = proportion_ci(int((df["queen"].to_numpy() == seat).sum()), len(df), level=level)
        rows.append(dict(position=k + 1, points=mean, ci_low=low, ci_high=high, queen=q, queen_low=qlow,
                         queen_high=qhigh, moon=float((df["moon"].to_numpy() == seat).mean())))
    return pd.DataFrame(rows)


def by_pass_direction(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Per pass direction: deals, the moon rate (Wilson interval) and the mean points of the Q♠'s taker."""
    _require(df)
    rows = []
    points = points_matrix(df)
    for code in range(points.shape[1]):
        name = pass_name(code, points.shape[1])
        sel = df["pass_direction"].to_numpy() == code
        if not sel.any():
            continue
        moons = int((df["moon"].to_numpy()[sel] >= 0).sum())
        share, low, high = proportion_ci(moons, int(sel.sum()), level=level)
        queen = df["queen"].to_numpy(np.int64)[sel]
        rows.append(dict(passing=name, deals=int(sel.sum()), moon=share, ci_low=low, ci_high=high,
                         queen_taker_points=float(points[sel][np.arange(int(sel.sum())), queen].mean())))
    return pd.DataFrame(rows).set_index("passing")


def format_deal_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """Text report of a run of single deals: points by position from the 2♣ leader, the moon by pass direction."""
    _require(df)
    lines = run_header(run_meta(df, meta), "deal report (95% intervals)", count=len(df))
    pos = by_position(df)
    lines += ["", "by position from the 2♣ leader (1 leads the first trick):"]
    for r in pos.itertuples():
        lines.append(f"  {r.position}  points {r.points:6.3f} ({interval(r.ci_low, r.ci_high, '.3f')})  "
                     f"takes the Q♠ {100 * r.queen:5.1f}% ({interval(100 * r.queen_low, 100 * r.queen_high, '.1f')})")
    lines += ["", "by pass direction:", table_text(by_pass_direction(df), percent=("moon", "ci_low", "ci_high"))]
    points = points_matrix(df).ravel()
    moon, low, high = proportion_ci(int((df["moon"].to_numpy() >= 0).sum()), len(df))
    lines += ["", f"moon shot: {100 * moon:.2f}% of deals ({interval(100 * low, 100 * high, '.2f')})",
              f"a seat's points: mean {points.mean():.2f}, zero in {100 * (points == 0).mean():.1f}% of seats, "
              f"13 or more in {100 * (points >= 13).mean():.1f}%"]
    return "\n".join(lines)


def plot_deal_report(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Three panels: the distribution of a seat's points on a deal, the mean points by position from the 2♣ leader
    and the moon rate by pass direction, with ``level`` intervals. Drawn on ``fig`` (empty) or a new Figure."""
    _require(df)
    fig = new_figure(fig, (15, 4.4))
    ax1, ax2, ax3 = fig.subplots(1, 3)
    points = points_matrix(df).ravel()
    ax1.hist(points, bins=np.arange(points.min(), points.max() + 2) - 0.5, color="tab:blue",
             weights=np.full(len(points), 100 / len(points)))
    ax1.set_xlabel("a seat's points on a deal")
    ax1.set_ylabel("% of seats")
    ax1.set_title("Points per seat and deal")
    pos = by_position(df, level=level)
    ax2.bar(pos["position"], pos["points"], yerr=_yerr(pos, "points", "ci_low", "ci_high"), color="tab:orange",
            capsize=3, ecolor="0.3")
    ax2.set_xticks(pos["position"], [f"{k}\nleads" if k == 1 else str(k) for k in pos["position"]])
    ax2.set_xlabel("position from the 2♣ leader")
    ax2.set_ylabel(f"mean points ({level:.0%} CI)")
    ax2.set_title("Points by position")
    t = by_pass_direction(df, level=level)
    ax3.bar(t.index, 100 * t["moon"], yerr=100 * _yerr(t, "moon", "ci_low", "ci_high"), color="tab:red", capsize=3,
            ecolor="0.3")
    ax3.set_xlabel("pass direction")
    ax3.set_ylabel(f"% of deals ({level:.0%} CI)")
    ax3.set_title("Moon shots")
    return fig


def game_results(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game: its deals, each seat's final total and its share of the win (the lowest total; shared on a
    tie)."""
    _require(df, ("game", "deal", "total_0", "points_0"))
    last = df.groupby("game", sort=True).tail(1).set_index("game")
    totals = points_matrix(last, "total_")
    low = totals.min(axis=1, keepdims=True)
    credit = (totals == low) / (totals == low).sum(axis=1, keepdims=True)
    out = pd.DataFrame({"deals": df.groupby("game", sort=True).size().to_numpy()}, index=last.index)
    for p in range(totals.shape[1]):
        out[f"total_{p}"] = totals[:, p]
        out[f"win_{p}"] = credit[:, p]
    return out


def seat_results(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Per seat over whole games: the win share (the lowest total; ties shared) and the final total, with ``level``
    intervals over games."""
    games = game_results(df)
    rows = []
    for p in range(players(games, "total_")):
        w, wlow, whigh = mean_ci(games[f"win_{p}"].to_numpy(float), level=level)
        t, tlow, thigh = mean_ci(games[f"total_{p}"].to_numpy(float), level=level)
        rows.append(dict(seat=p, win=w, ci_low=wlow, ci_high=whigh, total=t, total_low=tlow, total_high=thigh))
    return pd.DataFrame(rows).set_index("seat")


def format_game_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """Text report of whole games: their length, each seat's win share and final total."""
    games = game_results(df)
    lines = run_header(run_meta(df, meta), "whole-game report (95% intervals over games)", count=len(games),
                       unit="game")
    mean, low, high = mean_ci(games["deals"].to_numpy(float))
    lines += ["", f"deals per game: {mean:.2f} ({interval(low, high, '.2f')}), longest {games['deals'].max()}", "",
              "by seat: the win share (lowest total; ties shared) and the final total",
              table_text(seat_results(df), percent=("win", "ci_low", "ci_high"), digits=1)]
    return "\n".join(lines)


def plot_game_report(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Two panels: the distribution of game lengths, and each seat's win share with ``level`` intervals."""
    games = game_results(df)
    fig = new_figure(fig, (11, 4.4))
    ax1, ax2 = fig.subplots(1, 2)
    lengths = games["deals"].to_numpy()
    ax1.hist(lengths, bins=np.arange(lengths.min(), lengths.max() + 2) - 0.5, color="tab:blue",
             weights=np.full(len(lengths), 100 / len(lengths)))
    ax1.set_xlabel("deals in a game")
    ax1.set_ylabel("% of games")
    ax1.set_title("Game length")
    seats = seat_results(df, level=level)
    ax2.bar(range(len(seats)), 100 * seats["win"], yerr=100 * _yerr(seats, "win", "ci_low", "ci_high"),
            color="tab:green", capsize=3, ecolor="0.3")
    ax2.set_xticks(range(len(seats)), [f"seat {p}" for p in range(len(seats))])
    ax2.set_ylabel(f"% of games won ({level:.0%} CI)")
    ax2.set_title("Wins by seat")
    return fig


PASS_RULES = ("heuristic", "highest", "lowest", "shortest", "random")  # as cardlab.sim.hearts.rules.PASS_RULES


def passing_table(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Per pass rule of a passing study: the passing seat's mean points, their paired shift from the heuristic's
    pass on the same deals, the share of deals it took the Q♠ and shot the moon, with ``level`` intervals."""
    rules = [r for r in PASS_RULES if f"points_{r}" in df.columns]
    if not rules or "seat" not in df.columns:
        raise ValueError("expected a passing study (cardlab study hearts passing): rows with seat and points_<rule>")
    base = df["points_heuristic"].to_numpy(float)
    rows = []
    for r in rules:
        points = df[f"points_{r}"].to_numpy(float)
        mean, low, high = mean_ci(points, level=level)
        shift, slow, shigh = mean_ci(points - base, level=level)
        queen, qlow, qhigh = proportion_ci(int(df[f"queen_{r}"].sum()), len(df), level=level)
        rows.append(dict(rule=r, points=mean, ci_low=low, ci_high=high, shift=shift, shift_low=slow,
                         shift_high=shigh, queen=queen, queen_low=qlow, queen_high=qhigh,
                         moon=float(df[f"moon_{r}"].mean())))
    return pd.DataFrame(rows).set_index("rule")


def format_passing_study(df: pd.DataFrame, meta: dict | None = None) -> str:
    """Text report of a passing study: each pass rule's points for the passing seat, paired against the heuristic's."""
    lines = run_header(run_meta(df, meta), "passing study (paired: the same deals, one seat passes by each rule)",
                       count=len(df))
    lines += ["", "the passing seat's points per deal by how it chose its three cards (fewer is better), the shift "
                  "from the heuristic's pass on the same deals, the share of deals it took the Q♠ and shot the moon "
                  "(95% CI):", table_text(passing_table(df), percent=("queen", "queen_low", "queen_high", "moon"))]
    return "\n".join(lines)


def plot_passing_study(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Two panels: each pass rule's points for the passing seat and their paired shift from the heuristic's pass,
    with ``level`` intervals."""
    t = passing_table(df, level=level)
    fig = new_figure(fig, (11, 4.4))
    ax1, ax2 = fig.subplots(1, 2)
    ax1.bar(t.index, t["points"], yerr=_yerr(t, "points", "ci_low", "ci_high"), color="tab:blue", capsize=3,
            ecolor="0.3")
    ax1.set_ylabel(f"the passing seat's mean points ({level:.0%} CI)")
    ax1.set_title("Points by pass rule")
    ax2.bar(t.index, t["shift"], yerr=_yerr(t, "shift", "shift_low", "shift_high"), color="tab:orange", capsize=3,
            ecolor="0.3")
    ax2.axhline(0, color="0.4", lw=0.8)
    ax2.set_ylabel(f"shift from the heuristic's pass ({level:.0%} CI, paired)")
    ax2.set_title("Against the heuristic's pass")
    for ax in (ax1, ax2):
        ax.set_xlabel("pass rule")
    return fig


#: The strength ladder's rows (``sim/hearts/interface.py``'s hooks): the lone seat's points, a penalty, so a policy's
#: gain is the points it saves; the whole tables' figures are a seat's points and the share of deals with a moon.
STRENGTH = Ladder(lower_is_better=True, measures=(seat_result("points", table="points"),), place=None, figures={
    "points": seat_mean("points"), "moon": Figure(lambda df, p: df[f"moon_{p}"].to_numpy() >= 0, share=True)})

REPORTS = {
    "deal": (format_deal_report, plot_deal_report),
    "game": (format_game_report, plot_game_report),
    "passing": (format_passing_study, plot_passing_study),
    "options": (format_variants, plot_variants),  # the options study of every game: analysis.variants
    "strength": (format_strength_study, plot_strength_study),  # every game's ladder report, read through STRENGTH
}
