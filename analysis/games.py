"""What every game's whole-game runs share: game totals, placings, seat advantage, clustered intervals.

Input: a DataFrame of whole games, one row per deal (hand): ``game`` (game id), ``deal`` (index of
the deal within its game) and ``score_0`` … ``score_{n-1}`` (each seat's points for the deal); any
other column is ignored. A game's reports (``analysis/<game>.py``) add what is particular to it
(Barbu's contracts and doubling live in ``barbu_games``).

Every function is vectorised (NumPy/pandas): 100,000 games of 28 deals take seconds. Confidence
intervals are normal approximations (``stats.mean_ci``) for means and Wilson intervals
(``stats.proportion_ci``) for shares. Games are independent; the deals of one game are not, so
intervals over deals use games as clusters (``cluster_mean_ci``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .report import _integer_array, _seat_columns
from .stats import mean_ci, normal_quantile, proportion_ci

_EXPECTED = "expected a whole-game run, one row per deal: game, deal, score_0 … score_{n-1} (and the game's own columns)"


# ----------------------------------------------------------------------------------------- helpers


def _require(df, names, what: str = _EXPECTED) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame with one row per deal, got {type(df).__name__}")
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {what}")
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no deals to analyse")


def _scores(df: pd.DataFrame, prefix: str = "score_") -> np.ndarray:
    what = {
        "score_": "one final score column per seat, score_0 … score_{n-1}",
        "raw_": "one raw (before doubling) score column per seat, raw_0 … raw_{n-1}",
    }[prefix]
    return _integer_array(df[_seat_columns(df, prefix, what)], what).astype(np.int64, copy=False)


def _declarer(df: pd.DataFrame, n: int) -> np.ndarray:
    declarer = _integer_array(df["declarer"], "declarer seats").astype(np.int64, copy=False)
    if declarer.min() < 0 or declarer.max() >= n:
        raise ValueError(
            f"column 'declarer' must hold seats 0..{n - 1} (there are {n} score columns), "
            f"found values from {declarer.min()} to {declarer.max()}"
        )
    return declarer


def _game_codes(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(code per row 0..G-1, sorted unique game ids)."""
    codes, uniques = pd.factorize(df["game"], sort=True)
    if (codes < 0).any():
        raise ValueError("column 'game' contains missing values")
    return codes, np.asarray(uniques)


def cluster_mean_ci(values, groups, clusters, *, level: float = 0.95) -> pd.DataFrame:
    """Return per group: count, mean, std and a cluster-robust confidence interval of the mean.

    ``values``, ``groups`` and ``clusters`` are equally long arrays; observations of one cluster
    (e.g. the doubles of one game) may be dependent, clusters are independent. The variance of a
    group's mean is ``C/(C-1) · Σ_c (S_c − n_c·mean)² / N²`` (``S_c``, ``n_c``: sum and count of
    the group's observations in cluster c; ``C`` clusters, ``N`` observations), which equals
    ``s²/N`` (as in ``stats.mean_ci``) when every cluster holds one observation. Intervals are NaN
    with fewer than two clusters. The index is the sorted group labels.

    >>> t = cluster_mean_ci([1.0, 3.0, 5.0, 7.0], ["a"] * 4, [0, 1, 2, 3])
    >>> t.loc["a", ["count", "mean"]].tolist(), float(round(t.loc["a", "ci_high"] - 4, 3))   # 1.96 · s / √4
    ([4.0, 4.0], 2.53)
    """
    z = normal_quantile(level)
    x = np.asarray(values, dtype=float)
    g_codes, g_labels = pd.factorize(np.asarray(groups), sort=True)
    c_codes, _ = pd.factorize(np.asarray(clusters), sort=False)
    n_groups = len(g_labels)
    count = np.bincount(g_codes, minlength=n_groups).astype(float)
    total = np.bincount(g_codes, weights=x, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / count
        sq = np.bincount(g_codes, weights=(x - mean[g_codes]) ** 2, minlength=n_groups)
        std = np.sqrt(sq / (count - 1))
        n_clusters = int(c_codes.max()) + 1 if len(c_codes) else 1
        pair, pair_ids = pd.factorize(g_codes.astype(np.int64) * n_clusters + c_codes)
        pair_group = np.asarray(pair_ids) // n_clusters
        pair_sum = np.bincount(pair, weights=x)
        pair_count = np.bincount(pair).astype(float)
        resid = pair_sum - pair_count * mean[pair_group]
        ss = np.bincount(pair_group, weights=resid**2, minlength=n_groups)
        k = np.bincount(pair_group, minlength=n_groups).astype(float)  # clusters per group
        half = z * np.sqrt(k / (k - 1) * ss) / count
    half = np.where(k >= 2, half, np.nan)
    std = np.where(count >= 2, std, np.nan)
    return pd.DataFrame(
        {"count": count, "mean": mean, "std": std, "ci_low": mean - half, "ci_high": mean + half},
        index=pd.Index(g_labels),
    )


def _mean_ci_row(values, level: float) -> tuple[float, float, float]:
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return np.nan, np.nan, np.nan
    return mean_ci(values, level=level)


# ------------------------------------------------------------------------------------------ totals


def game_totals(df: pd.DataFrame) -> pd.DataFrame:
    """Return one row per game: each seat's game total ``total_p`` and finishing place ``place_p``.

    ``total_p`` is the sum of ``score_p`` (final, after doubling) over the game's deals;
    ``place_p`` is 1 + the number of seats with a strictly higher total (highest total wins,
    rules §6), so tied seats share a place and the next place is skipped (totals 10, 10, 4 give
    places 1, 1, 3). The index is the game id, sorted. Every game must have the same number of
    deals (a ValueError names the first game that does not).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0], "deal": [0, 1], "score_0": [3, -1], "score_1": [1, 1],
    ...                    "score_2": [-4, 0]})
    >>> game_totals(df).values.tolist()
    [[2, 2, -4, 1, 1, 3]]
    """
    _require(df, ("game",))
    scores = _scores(df)
    codes, games = _game_codes(df)
    n_games, n = len(games), scores.shape[1]
    deals = np.bincount(codes, minlength=n_games)
    if deals.min() != deals.max():
        bad = int(np.flatnonzero(deals < deals.max())[0])
        raise ValueError(
            f"every game must be complete with the same number of deals: game {games[bad]} has "
            f"{deals[bad]} deals, others have {deals.max()}"
        )
    totals = np.empty((n_games, n), np.int64)
    for p in range(n):
        totals[:, p] = np.bincount(codes, weights=scores[:, p], minlength=n_games).round().astype(np.int64)
    places = 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
    columns = {f"total_{p}": totals[:, p] for p in range(n)}
    columns.update({f"place_{p}": places[:, p].astype(np.int8) for p in range(n)})
    return pd.DataFrame(columns, index=pd.Index(games, name="game"))


def _totals_arrays(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    t = game_totals(df)
    n = sum(1 for c in t.columns if c.startswith("total_"))
    return t[[f"total_{p}" for p in range(n)]].to_numpy(), t[[f"place_{p}" for p in range(n)]].to_numpy()


def seat_advantage(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return per seat the game-total statistics: does sitting in a seat pay?

    Columns: ``games``; ``mean``, ``std`` (ddof=1), ``ci_low``, ``ci_high`` of the seat's game
    total (games are independent); ``edge`` = mean of (seat total − the mean total of all seats
    in that game), with its interval ``edge_ci_low``/``edge_ci_high`` computed from those
    per-game differences (0 everywhere for a perfectly fair table); ``mean_place`` (tied seats
    share the better place) and ``win_share`` (share of games at place 1, ties included).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "score_0": [4, 2], "score_1": [0, 2]})
    >>> seat_advantage(df)[["mean", "edge", "mean_place", "win_share"]].values.tolist()
    [[3.0, 1.0, 1.0, 1.0], [1.0, -1.0, 1.5, 0.5]]
    """
    totals, places = _totals_arrays(df)
    n_games, n = totals.shape
    edge = totals - totals.mean(axis=1, keepdims=True)
    rows = []
    for p in range(n):
        mean, low, high = mean_ci(totals[:, p], level=level)
        e_mean, e_low, e_high = mean_ci(edge[:, p], level=level)
        rows.append(
            {
                "games": n_games,
                "mean": mean,
                "std": float(totals[:, p].std(ddof=1)) if n_games > 1 else np.nan,
                "ci_low": low,
                "ci_high": high,
                "edge": e_mean,
                "edge_ci_low": e_low,
                "edge_ci_high": e_high,
                "mean_place": float(places[:, p].mean()),
                "win_share": float((places[:, p] == 1).mean()),
            }
        )
    return pd.DataFrame(rows, index=pd.Index(range(n), name="seat"))


def placings(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return per (seat, place) the share of games the seat finished at that place, with a Wilson CI.

    Places run 1..n for n seats and every pair is listed (count 0 included); tied seats share the
    better place (totals 10, 10, 4 give places 1, 1, 3, so place 2 is empty in that game). For
    each seat the shares sum to 1 over the places. Columns: ``games``, ``count``, ``share``,
    ``ci_low``, ``ci_high`` (``stats.proportion_ci``).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "score_0": [4, 2], "score_1": [0, 2]})
    >>> placings(df)["count"].tolist()   # seat 0: 1st twice; seat 1: 2nd once, tied 1st once
    [2, 0, 1, 1]
    """
    _, places = _totals_arrays(df)
    n_games, n = places.shape
    counts = np.stack([np.bincount(places[:, p] - 1, minlength=n) for p in range(n)])  # (seat, place-1)
    share, low, high = proportion_ci(counts, np.full_like(counts, n_games), level=level)
    index = pd.MultiIndex.from_product([range(n), range(1, n + 1)], names=["seat", "place"])
    return pd.DataFrame(
        {
            "games": n_games,
            "count": counts.ravel(),
            "share": share.ravel(),
            "ci_low": low.ravel(),
            "ci_high": high.ravel(),
        },
        index=index,
    )


