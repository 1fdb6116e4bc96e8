"""Rami's reports, by kind of run: single rounds (``deal``), whole games (``game``) and the paired studies.

Rounds are independent, so every interval is a plain normal (``mean_ci``) or Wilson
(``proportion_ci``) interval over rounds (over games for game figures). Positions are counted
from the dealer: position 1 plays first, position n is the dealer.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import interval, mean_ci, proportion_ci
from .common import run_header, run_meta
from .plots import _yerr, new_figure, plain_numbers, whole_number_axis
from .strength import Ladder, format_strength_study, plot_strength_study
from .variants import format_variants, plot_variants

_EXPECTED = "expected a Rami run: deal or round rows with dealer, turns, blocked, rami_sec, won_i, opened_i, score_i"


def _players(df: pd.DataFrame) -> int:
    n = 0
    while f"score_{n}" in df.columns:
        n += 1
    if n < 2:
        raise ValueError(f"missing columns score_0, score_1 …: {_EXPECTED}")
    return n


def _require(df, names):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no rounds to analyse")


def _seat_matrix(df, prefix, n):
    return np.stack([df[f"{prefix}{p}"].to_numpy() for p in range(n)], axis=1)


def by_position(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Mean round score and win rate by position from the dealer (1 = first to play, n = dealer)."""
    _require(df, ["dealer", "score_0", "won_0"])
    n = _players(df)
    score = _seat_matrix(df, "score_", n).astype(float)
    won = _seat_matrix(df, "won_", n).astype(bool)
    dealer = df["dealer"].to_numpy().astype(int)
    rows = []
    for k in range(1, n + 1):
        seat = (dealer + k) % n
        s = score[np.arange(len(df)), seat]
        w = won[np.arange(len(df)), seat]
        mean, low, high = mean_ci(s, level=level)
        share, wlow, whigh = proportion_ci(int(w.sum()), len(w), level=level)
        rows.append(dict(position=k, role="dealer" if k == n else "first player" if k == 1 else "",
                         mean_score=mean, low=low, high=high, win_rate=share, win_low=wlow, win_high=whigh))
    return pd.DataFrame(rows)


def round_rates(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Rates per round: rami sec, blocked, never-opened penalties (share of losers), and mean turns."""
    _require(df, ["turns", "blocked", "rami_sec", "opened_0", "won_0"])
    n = _players(df)
    opened = _seat_matrix(df, "opened_", n).astype(bool)
    won = _seat_matrix(df, "won_", n).astype(bool)
    losers = ~won
    never = losers & ~opened & ~df["rami_sec"].to_numpy()[:, None]
    rows = []
    for name, hits, total in (("rami sec", int(df["rami_sec"].sum()), len(df)),
                              ("blocked", int(df["blocked"].sum()), len(df)),
                              ("never-opened penalty (per loser)", int(never.sum()), int(losers.sum()))):
        share, low, high = proportion_ci(hits, max(total, 1), level=level)
        rows.append(dict(figure=name, value=share, low=low, high=high))
    mean, low, high = mean_ci(df["turns"].to_numpy(), level=level)
    rows.append(dict(figure="turns per round", value=mean, low=low, high=high))
    return pd.DataFrame(rows)


def format_deal_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    """Text report of a run of single rounds."""
    lines = run_header(run_meta(df, meta), f"round report, {_players(df)} players (95% intervals)", count=len(df))
    return "\n".join(lines + [""] + _round_lines(df))


def _round_lines(df: pd.DataFrame) -> list[str]:
    n = _players(df)
    pos = by_position(df)
    rates = round_rates(df)
    lines = ["by position from the dealer:"]
    for r in pos.itertuples():
        lines.append(f"  {r.position} {r.role:<12} score {r.mean_score:7.2f} ({interval(r.low, r.high, '.2f')})  "
                     f"wins {100 * r.win_rate:5.1f}% ({interval(100 * r.win_low, 100 * r.win_high, '.1f')})")
    first, dealer = pos.iloc[0], pos.iloc[-1]
    lines.append(f"  first-player advantage (mean score, dealer minus first player): "
                 f"{dealer.mean_score - first.mean_score:+.2f}")
    lines.append("")
    for r in rates.itertuples():
        if r.figure == "turns per round":
            lines.append(f"{r.figure}: {r.value:.2f} ({interval(r.low, r.high, '.2f')})")
        else:
            lines.append(f"{r.figure}: {100 * r.value:.2f}% ({interval(100 * r.low, 100 * r.high, '.2f')})")
    score = _seat_matrix(df, "score_", n).ravel()
    q = np.percentile(score, [50, 90, 99])
    lines.append(f"round scores of all seats: mean {score.mean():.2f}, median {q[0]:.0f}, 90% {q[1]:.0f}, "
                 f"99% {q[2]:.0f}, max {score.max()}")
    return lines


def _position_ticks(ax, n: int) -> None:
    """Whole-number x ticks on the positions 1..n, the first player and the dealer named."""
    ax.set_xticks(range(1, n + 1), [f"{k}\nfirst" if k == 1 else f"{k}\ndealer" if k == n else str(k)
                                    for k in range(1, n + 1)])


def plot_deal_report(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Three panels: the distribution of the losers' round scores (legend: their mean with its ``level``
    interval over rounds), and the mean round score and the win rate by position from the dealer, with
    ``level`` intervals. Drawn on ``fig`` (empty) or a new Figure (no pyplot)."""
    n = _players(df)
    fig = new_figure(fig, (16, 4.6))
    ax1, ax2, ax3 = fig.subplots(1, 3)
    scores = _seat_matrix(df, "score_", n).astype(float)
    lost = scores > 0
    losing = scores[lost]
    per_round = np.where(lost, scores, np.nan)
    per_round = np.nanmean(per_round[lost.any(axis=1)], axis=1) if lost.any() else np.zeros(1)
    mean, low, high = mean_ci(per_round, level=level)
    if len(losing):
        ax1.hist(losing, bins=np.arange(0, losing.max() + 10, 5), color="tab:blue",
                 weights=np.full(len(losing), 100 / len(losing)), label=f"mean {mean:.1f} ({low:.1f} to {high:.1f})")
        ax1.legend(title=f"{level:.0%} CI over rounds", fontsize="small", title_fontsize="small")
    ax1.set_xlabel("round score of a loser (penalty points)")
    ax1.set_ylabel("% of the losers' round scores")
    ax1.set_title("Losers' round scores")
    pos = by_position(df, level=level)
    ax2.bar(pos["position"], pos["mean_score"], yerr=_yerr(pos, "mean_score", "low", "high"),
            color="tab:orange", capsize=3, ecolor="0.3")
    ax2.set_xlabel("position from the dealer")
    ax2.set_ylabel(f"mean round score (lower is better, {level:.0%} CI)")
    ax2.set_title("Round score by position")
    ax3.bar(pos["position"], 100 * pos["win_rate"], yerr=100 * _yerr(pos, "win_rate", "win_low", "win_high"),
            color="tab:green", capsize=3, ecolor="0.3")
    ax3.axhline(100 / n, color="0.4", lw=1, ls=":")
    ax3.set_xlabel("position from the dealer")
    ax3.set_ylabel(f"% of rounds won ({level:.0%} CI)")
    ax3.set_title("Round wins by position (dotted: a fair seat)")
    for ax in (ax2, ax3):
        _position_ticks(ax, n)
    return fig


# ------------------------------------------------------------------------------- whole games


def game_summary(df: pd.DataFrame, *, level: float = 0.95) -> dict:
    """Rounds per game and the winner's position from the first dealer, over games."""
    _require(df, ["game", "round", "dealer", "total_0"])
    n = _players(df)
    last = df.sort_values(["game", "round"]).groupby("game").tail(1)
    first = df[df["round"] == 0].set_index("game")["dealer"]
    totals = _seat_matrix(last, "total_", n)
    winner = totals.argmin(axis=1)
    first_dealer = first.loc[last["game"].to_numpy()].to_numpy().astype(int)
    position = (winner - first_dealer - 1) % n + 1
    rounds = last["round"].to_numpy() + 1
    mean, low, high = mean_ci(rounds, level=level)
    wins = []
    for k in range(1, n + 1):
        share, wl, wh = proportion_ci(int((position == k).sum()), len(position), level=level)
        wins.append(dict(position=k, win_rate=share, low=wl, high=wh))
    return dict(games=len(last), rounds=rounds, rounds_mean=(mean, low, high), wins=pd.DataFrame(wins))


def format_game_report(df: pd.DataFrame, meta: dict | None = None) -> str:
    n = _players(df)
    s = game_summary(df)
    mean, low, high = s["rounds_mean"]
    lines = [*run_header(run_meta(df, meta), f"whole-game report, {n} players (target {100 * (n - 1)}; 95% intervals)",
                         count=s["games"], unit="game"),
             f"rounds per game: {mean:.2f} ({interval(low, high, '.2f')}), median {np.median(s['rounds']):.0f}, "
             f"max {s['rounds'].max()}", "game wins by position from the first dealer (1 plays first):"]
    for r in s["wins"].itertuples():
        lines.append(f"  {r.position}: {100 * r.win_rate:5.1f}% ({interval(100 * r.low, 100 * r.high, '.1f')})")
    lines.append("")
    lines += _round_lines(df)
    return "\n".join(lines)


def plot_game_report(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Two panels over games: the distribution of game length (its mean with a ``level`` interval), and the
    share of games won by position from the first dealer (Wilson intervals). A new Figure unless ``fig``."""
    n = _players(df)
    s = game_summary(df, level=level)
    fig = new_figure(fig, (12, 4.4))
    ax1, ax2 = fig.subplots(1, 2)
    mean, low, high = s["rounds_mean"]
    ax1.hist(s["rounds"], bins=np.arange(0.5, s["rounds"].max() + 1.5), color="tab:green")
    ax1.axvline(mean, color="0.2", lw=1, ls="--", label=f"mean {mean:.2f} ({low:.2f} to {high:.2f})")
    ax1.legend(title=f"{level:.0%} CI", fontsize="small", title_fontsize="small")
    ax1.set_xlabel("rounds per game")
    ax1.set_ylabel("games")
    ax1.set_title("Game length")
    whole_number_axis(ax1.xaxis)
    whole_number_axis(ax1.yaxis)
    plain_numbers(ax1.yaxis)
    w = s["wins"]
    ax2.bar(w["position"], 100 * w["win_rate"], yerr=100 * _yerr(w, "win_rate", "low", "high"), capsize=3,
            ecolor="0.3")
    ax2.axhline(100 / n, color="0.4", lw=1, ls=":")
    _position_ticks(ax2, n)
    ax2.set_xlabel("position from the first dealer")
    ax2.set_ylabel(f"% of games won ({level:.0%} CI)")
    ax2.set_title("Game winners by position (dotted: a fair seat)")
    return fig


#: The strength ladder's rows (``sim/rami/interface.py``'s hooks): the lone seat's round score, a penalty, so a
#: policy's gain is the points it saves; the whole tables' figures are every column they wrote.
STRENGTH = Ladder(lower_is_better=True)


REPORTS = {
    "deal": (format_deal_report, plot_deal_report),
    "game": (format_game_report, plot_game_report),
    "options": (format_variants, plot_variants),  # the options study of every game: analysis.variants
    "strength": (format_strength_study, plot_strength_study),  # every game's ladder report, read through STRENGTH
}
