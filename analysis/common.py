"""Game-agnostic summaries for any run with one row per deal and ``score_0`` … ``score_{n-1}`` columns.

Means carry normal 95% intervals (``stats.mean_ci``), shares Wilson intervals
(``stats.proportion_ci``). Whole games may have different lengths (``game`` column); a game's
win credit is supplied by the game's own module (tie rules differ from game to game).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import mean_ci, proportion_ci


def score_matrix(df: pd.DataFrame) -> np.ndarray:
    """The ``score_i`` columns as an int64 array (rows, seats)."""
    n = 0
    while f"score_{n}" in df.columns:
        n += 1
    if n < 2:
        raise ValueError("missing columns score_0, score_1 …: expected one score column per seat")
    return df[[f"score_{p}" for p in range(n)]].to_numpy(np.int64)


def mean_table(values, groups, *, level: float = 0.95, name: str = "mean") -> pd.DataFrame:
    """Per group: ``count``, the mean of ``values`` and its interval, as columns ``name``, ``ci_low``, ``ci_high``.

    >>> float(mean_table([1, 3, 5, 7], ["a", "a", "b", "b"]).loc["b", "mean"])
    6.0
    """
    frame = pd.DataFrame({"v": np.asarray(values, float), "g": np.asarray(groups)})
    rows = {}
    for key, part in frame.groupby("g", sort=True)["v"]:
        m, lo, hi = mean_ci(part.to_numpy(), level=level)
        rows[key] = {"count": len(part), name: m, "ci_low": lo, "ci_high": hi}
    return pd.DataFrame.from_dict(rows, orient="index")


def share_table(hits, groups, *, level: float = 0.95, name: str = "share") -> pd.DataFrame:
    """Per group: ``count`` and the share of true ``hits`` with its Wilson interval."""
    frame = pd.DataFrame({"h": np.asarray(hits, bool), "g": np.asarray(groups)})
    g = frame.groupby("g", sort=True)["h"]
    count, k = g.size(), g.sum()
    share, lo, hi = proportion_ci(k.to_numpy(), count.to_numpy(), level=level)
    return pd.DataFrame({"count": count.to_numpy(), name: share, "ci_low": lo, "ci_high": hi}, index=count.index)


def position_scores(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Mean points per deal of the seat ``k`` places after the dealer (``k = n`` is the dealer itself),
    and its edge over the table average (a fair table has edge 0 everywhere)."""
    scores = score_matrix(df)
    n = scores.shape[1]
    dealer = df["dealer"].to_numpy(np.int64)
    rows = {}
    average = scores.mean(axis=1)
    for k in range(1, n + 1):
        seat_scores = scores[np.arange(len(scores)), (dealer + k) % n]
        m, lo, hi = mean_ci(seat_scores, level=level)
        e, elo, ehi = mean_ci(seat_scores - average, level=level)
        rows["dealer" if k == n else f"dealer+{k}"] = dict(mean=m, ci_low=lo, ci_high=hi, edge=e, edge_ci_low=elo,
                                                           edge_ci_high=ehi)
    return pd.DataFrame.from_dict(rows, orient="index")


def game_totals(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game: ``hands``, each seat's ``total_i`` and place ``place_i`` (1 + seats strictly ahead)."""
    scores = score_matrix(df)
    codes, games = pd.factorize(df["game"], sort=True)
    n = scores.shape[1]
    totals = np.stack([np.bincount(codes, weights=scores[:, p], minlength=len(games)) for p in range(n)], axis=1)
    totals = totals.round().astype(np.int64)
    places = 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
    out = {"hands": np.bincount(codes, minlength=len(games))}
    out.update({f"total_{p}": totals[:, p] for p in range(n)})
    out.update({f"place_{p}": places[:, p] for p in range(n)})
    return pd.DataFrame(out, index=pd.Index(games, name="game"))


def win_shares(credit: np.ndarray, *, level: float = 0.95, labels=None) -> pd.DataFrame:
    """Per seat (or label): the mean win credit over games (1 a sole win, 1/k a shared one) with its interval."""
    rows = {}
    for p in range(credit.shape[1]):
        m, lo, hi = mean_ci(credit[:, p], level=level)
        rows[labels[p] if labels is not None else f"seat {p}"] = dict(games=len(credit), win_share=m, ci_low=lo,
                                                                      ci_high=hi)
    return pd.DataFrame.from_dict(rows, orient="index")


def length_summary(hands: np.ndarray, *, level: float = 0.95) -> pd.DataFrame:
    """Game length in deals: mean with interval, quantiles and extremes."""
    m, lo, hi = mean_ci(hands, level=level)
    q = np.quantile(hands, [0.05, 0.5, 0.95])
    return pd.DataFrame([dict(games=len(hands), mean=m, ci_low=lo, ci_high=hi, q05=q[0], median=q[1], q95=q[2],
                              min=int(hands.min()), max=int(hands.max()))], index=["hands per game"])
