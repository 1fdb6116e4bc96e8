"""Per-contract score reports for simulation results (one row per deal, one score column per seat).

Input: a DataFrame with columns ``deal``, ``contract``, ``declarer`` (seat 0..n-1)
and ``score_0`` … ``score_{n-1}`` (each seat's points for the deal); any other
column is ignored. Every seat of every deal is either the *declarer* (the seat
that chose the contract) or one of the n-1 *others*.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
import pandas as pd

from .stats import normal_quantile

ROLES = ("declarer", "others")
QUANTILES = (0.05, 0.25, 0.50, 0.75, 0.95)
QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
MAX_SCORE_BINS = 12  # format_report: at most this many bins for wide score ranges
SUMMARY_COLUMNS = ("deals", "mean", "std", "ci_low", "ci_high", *QUANTILE_COLUMNS, "min", "max")

_EXPECTED = "expected columns deal, contract, declarer and one integer score column per seat, score_0 … score_{n-1}"
_SCORE_COLUMN = re.compile(r"score_(\d+)")


class _Deals(NamedTuple):
    """Validated input as arrays: one entry (or row of ``scores``) per deal."""

    deal: np.ndarray
    contract: pd.Categorical  # categories in display order, unused ones removed
    declarer: np.ndarray
    scores: np.ndarray  # shape (deals, seats)


def _score_columns(df: pd.DataFrame) -> list[str]:
    """Return ``["score_0", …, "score_{n-1}"]``, raising ValueError if one is missing."""
    found = sorted(int(m.group(1)) for c in df.columns if isinstance(c, str) and (m := _SCORE_COLUMN.fullmatch(c)))
    if not found or found[0] != 0:
        raise ValueError(f"missing column 'score_0': {_EXPECTED}")
    names = [f"score_{i}" for i in range(found[-1] + 1)]
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r} (found score columns up to score_{found[-1]}): {_EXPECTED}")
    if len(names) < 2:
        raise ValueError(f"need at least two seats (score_0 and score_1), found only score_0: {_EXPECTED}")
    return names


def _integer_array(frame, what: str) -> np.ndarray:
    """``frame.to_numpy()`` for integer columns (NumPy or nullable dtypes without missing values)."""
    columns = [frame] if isinstance(frame, pd.Series) else [frame[c] for c in frame.columns]
    for col in columns:
        if not pd.api.types.is_integer_dtype(col.dtype):
            raise ValueError(f"column {col.name!r} must hold integers ({what}), got dtype {col.dtype}")
    values = frame.to_numpy()
    if values.dtype.kind not in "iu":  # nullable extension dtypes come back as object
        if frame.isna().to_numpy().any():
            raise ValueError(f"{what} contain missing values")
        values = frame.to_numpy(dtype=np.int64)
    return values


def _contract_categorical(col: pd.Series) -> pd.Categorical:
    """Contracts as a Categorical: categorical order if given, else order of first appearance."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col.array.remove_unused_categories()
    codes, uniques = pd.factorize(col, sort=False)
    return pd.Categorical.from_codes(codes, categories=uniques)


def _validate(df: pd.DataFrame) -> _Deals:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame with one row per deal, got {type(df).__name__}")
    for name in ("deal", "contract", "declarer"):
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    score_columns = _score_columns(df)
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no deals to analyse")
    if df["contract"].isna().any():
        raise ValueError("column 'contract' contains missing values")
    scores = _integer_array(df[score_columns], "seat scores")
    declarer = _integer_array(df["declarer"], "declarer seats")
    n_seats = len(score_columns)
    if declarer.min() < 0 or declarer.max() >= n_seats:
        raise ValueError(
            f"column 'declarer' must hold seats 0..{n_seats - 1} (there are {n_seats} score columns), "
            f"found values from {declarer.min()} to {declarer.max()}"
        )
    return _Deals(df["deal"].to_numpy(), _contract_categorical(df["contract"]), declarer, scores)


def _repeat_categorical(values: pd.Categorical, repeats: int) -> pd.Categorical:
    return pd.Categorical.from_codes(np.repeat(values.codes, repeats), dtype=values.dtype)


def _long_form(deals: _Deals) -> pd.DataFrame:
    n_deals, n_seats = deals.scores.shape
    seat = np.tile(np.arange(n_seats, dtype=np.int8), n_deals)
    is_other = seat != np.repeat(deals.declarer, n_seats)
    return pd.DataFrame(
        {
            "deal": np.repeat(deals.deal, n_seats),
            "contract": _repeat_categorical(deals.contract, n_seats),
            "role": pd.Categorical.from_codes(is_other.astype(np.int8), categories=ROLES),
            "seat": seat,
            "score": deals.scores.ravel(),
        }
    )


def _per_deal_observations(deals: _Deals) -> pd.DataFrame:
    """One independent observation per (deal, role): the declarer's score, and the mean score of the others."""
    n_deals, n_seats = deals.scores.shape
    declarer_score = deals.scores[np.arange(n_deals), deals.declarer]
    others_mean = (deals.scores.sum(axis=1, dtype=np.int64) - declarer_score) / (n_seats - 1)
    return pd.DataFrame(
        {
            "contract": pd.Categorical.from_codes(np.tile(deals.contract.codes, 2), dtype=deals.contract.dtype),
            "role": pd.Categorical.from_codes(np.repeat(np.array([0, 1], dtype=np.int8), n_deals), categories=ROLES),
            "value": np.concatenate([declarer_score.astype(float), others_mean]),
        }
    )


def seat_scores(df: pd.DataFrame) -> pd.DataFrame:
    """Return the scores in long form, one row per (deal, seat), with each seat's role.

    Columns are ``deal``, ``contract`` (categorical, in order of first
    appearance or in the input's categorical order), ``role`` (categorical:
    "declarer" for the seat in the ``declarer`` column, "others" for every
    other seat), ``seat`` and ``score``; rows follow the input's deal order,
    then seat order. Extra input columns are ignored.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0], "contract": ["no-tricks"], "declarer": [1],
    ...                    "score_0": [-4], "score_1": [-10], "score_2": [-12]})
    >>> seat_scores(df)[["seat", "role", "score"]].values.tolist()
    [[0, 'others', -4], [1, 'declarer', -10], [2, 'others', -12]]
    """
    return _long_form(_validate(df))


def summary(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return score statistics per (contract, role): deals, mean, std, a confidence interval, quantiles, min, max.

    The index is (contract, role) with contracts in order of first appearance
    (or categorical order) and roles "declarer" then "others". ``deals`` is the
    number of deals of the contract; ``mean``, ``std`` (ddof=1), ``q05`` …
    ``q95`` (linear interpolation) and ``min``/``max`` describe the individual
    seat scores of the role (for "others" that is n-1 seats per deal). The
    ``ci_low``/``ci_high`` normal-approximation interval of the mean (see
    ``stats.mean_ci``) needs independent observations, but the others' seats
    of one deal are correlated (in a trick contract they share the same fixed
    total), so for "others" it is computed from one value per deal, the mean
    of the others' scores in that deal (same mean, honest spread), and for the
    declarer from the declarer's score; intervals are NaN with fewer than two deals.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-tricks"] * 2, "declarer": [0, 1],
    ...                    "score_0": [-4, -2], "score_1": [-10, -8], "score_2": [-12, -16]})
    >>> summary(df).loc[("no-tricks", "others"), ["deals", "mean", "min", "max"]].tolist()
    [2.0, -10.0, -16.0, -2.0]
    """
    z = normal_quantile(level)
    deals = _validate(df)
    keys = ["contract", "role"]
    scores = _long_form(deals).groupby(keys, observed=True)["score"]
    moments = scores.agg(["mean", "std", "min", "max"])
    quantiles = scores.quantile(list(QUANTILES)).unstack()
    quantiles.columns = list(QUANTILE_COLUMNS)
    independent = _per_deal_observations(deals).groupby(keys, observed=True)["value"].agg(["count", "std"])
    independent = independent.reindex(moments.index)
    half_width = z * independent["std"] / np.sqrt(independent["count"])
    table = pd.DataFrame(
        {
            "deals": independent["count"],
            "mean": moments["mean"],
            "std": moments["std"],
            "ci_low": moments["mean"] - half_width,
            "ci_high": moments["mean"] + half_width,
        }
    )
    table = pd.concat([table, quantiles.reindex(moments.index), moments[["min", "max"]]], axis=1)
    return table[list(SUMMARY_COLUMNS)]


def score_shares(df: pd.DataFrame) -> pd.DataFrame:
    """Return how often each score occurs: columns contract, role, score, share.

    ``share`` is the fraction of the role's seat observations in that contract
    with that score (declarer: one per deal; others: n-1 per deal), so the
    shares sum to 1 within each (contract, role); only scores that occur are
    listed, sorted by contract (as in ``summary``), role, then score.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-queens"] * 2, "declarer": [0, 0],
    ...                    "score_0": [-6, 0], "score_1": [0, -12], "score_2": [-12, -6]})
    >>> score_shares(df).query("role == 'others'")[["score", "share"]].values.tolist()
    [[-12.0, 0.5], [-6.0, 0.25], [0.0, 0.25]]
    """
    long = seat_scores(df)
    counts = long.groupby(["contract", "role", "score"], observed=True).size()
    totals = counts.groupby(level=["contract", "role"], observed=True).transform("sum")
    return (counts / totals).rename("share").reset_index()


def _header(meta: dict | None) -> str:
    if meta is None or meta == {}:
        return "cardlab report (no run metadata)"
    if not isinstance(meta, dict):
        raise TypeError(f"meta must be a dict (as returned by load_run) or None, got {type(meta).__name__}")
    options = meta.get("options")
    if isinstance(options, dict):
        options = ", ".join(f"{key}={value}" for key, value in options.items())
    deals = meta.get("deals", "?")
    if isinstance(deals, int):
        deals = f"{deals:,}"
    parts = [f"game: {meta.get('game', '?')}", f"options: {options or '-'}", f"seed: {meta.get('seed', '?')}"]
    line = "cardlab report | " + " | ".join([*parts, f"deals: {deals}"])
    versions = meta.get("versions")
    if isinstance(versions, dict) and versions:
        line += "\nversions: " + ", ".join(f"{key} {value}" for key, value in versions.items())
    return line


def _range_label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


def _share_table(block: pd.DataFrame, max_columns: int) -> tuple[str, str]:
    """Wide percent table (rows = roles, columns = scores or score bins) for one contract, and a note."""
    low, high = int(block["score"].min()), int(block["score"].max())
    if block["score"].nunique() <= max_columns:
        width, note = 1, ""
    else:
        bins = min(max_columns, MAX_SCORE_BINS)
        width = -(-(high - low + 1) // bins)  # ceiling division: at most `bins` bins
        note = f"; binned, {width} score points per column"
    start = low + (block["score"] - low) // width * width  # first score of each column's bin
    wide = block.assign(start=start).groupby(["role", "start"], observed=True)["share"].sum().unstack(fill_value=0.0)
    wide = (100 * wide).map(lambda v: f"{v:.1f}")
    wide.columns = [_range_label(s, min(s + width - 1, high)) for s in wide.columns]  # string labels align well
    wide.index.name = None
    return wide.to_string(), f"scores {low}..{high}{note}"


def format_report(
    df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95, max_score_columns: int = 16
) -> str:
    """Return a plain-text report: run header, the ``summary`` table and per-contract score distributions.

    The header comes from ``meta`` (as returned by ``load_run``: game,
    options, seed, deals, and versions if present). The summary is rounded to
    3 decimals. The distributions show, for each contract, one row per role
    and one column per score with the percentage of that role's seat scores;
    a contract with more than ``max_score_columns`` distinct scores is shown in
    at most 12 equal-width score bins starting at its lowest score (e.g.
    "-50..-46"; the table's title says so), so that wide ranges stay readable.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu"] * 2, "declarer": [0, 2],
    ...                    "score_0": [0, -20], "score_1": [-20, 0], "score_2": [0, 0]})
    >>> text = format_report(df, {"game": "barbu", "options": {"players": 3}, "seed": 7, "deals": 2})
    >>> text.splitlines()[0]
    'cardlab report | game: barbu | options: players=3 | seed: 7 | deals: 2'
    """
    if max_score_columns < 1:
        raise ValueError(f"max_score_columns must be at least 1, got {max_score_columns}")
    header = _header(meta)
    table = summary(df, level=level)
    shares = score_shares(df)
    n_seats = len(_score_columns(df))
    lines = [
        header,
        f"data: {len(df):,} deals, {n_seats} seats; {level:.0%} confidence intervals of the mean "
        "(others: from per-deal means of the non-declarers)",
        "",
        "Seat scores by contract and role",
        table.round(3).to_string(),
        "",
        "Score distribution: % of the role's seat scores",
    ]
    for contract, block in shares.groupby("contract", observed=True):
        text, note = _share_table(block, max_score_columns)
        lines += ["", f"{contract} ({note})", text]
    return "\n".join(lines) + "\n"
