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


class _Deals(NamedTuple):
    """Validated input as arrays: one entry (or row of ``scores``) per deal."""

    deal: np.ndarray
    contract: pd.Categorical  # categories in display order, unused ones removed
    declarer: np.ndarray
    scores: np.ndarray  # shape (deals, seats)


def _seat_columns(df: pd.DataFrame, prefix: str, what: str) -> list[str]:
    """``[prefix0, prefix1, …]`` for the seats found, raising a clear ValueError if the set is broken."""
    pattern = re.compile(re.escape(prefix) + r"(\d+)")
    found = sorted(int(m.group(1)) for c in df.columns if isinstance(c, str) and (m := pattern.fullmatch(c)))
    if not found:
        raise ValueError(f"missing column '{prefix}0': {what}")
    names = [f"{prefix}{i}" for i in range(found[-1] + 1)]
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r} (found {prefix}* columns up to {prefix}{found[-1]}): {what}")
    if len(names) < 2:
        raise ValueError(f"need at least two seats ({prefix}0 and {prefix}1), found only {prefix}0: {what}")
    return names


def _score_columns(df: pd.DataFrame) -> list[str]:
    """Return ``["score_0", …, "score_{n-1}"]``, raising ValueError if one is missing."""
    return _seat_columns(df, "score_", _EXPECTED)


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
        codes = col.array.codes
        used = np.bincount(codes[codes >= 0], minlength=len(col.cat.categories)) > 0
        if used.all():
            return col.array
        remap = np.cumsum(used) - 1  # old code -> new code (a bincount instead of a sort of every row)
        return pd.Categorical.from_codes(np.where(codes >= 0, remap[codes], -1),
                                         categories=col.cat.categories[used])
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


def _per_deal_spread(deals: _Deals) -> pd.DataFrame:
    """Count and std (ddof=1) of one independent observation per deal and role, per (contract, role).

    The declarer's observation is its score; the others' is the mean score of the non-declarers.
    """
    n_deals, n_seats = deals.scores.shape
    declarer_score = deals.scores[np.arange(n_deals), deals.declarer].astype(float)
    others_mean = (deals.scores.sum(axis=1, dtype=np.int64) - declarer_score) / (n_seats - 1)
    codes = deals.contract.codes.astype(np.int64)
    k = len(deals.contract.categories)
    rows = []
    for role, values in zip(ROLES, (declarer_score, others_mean)):
        count = np.bincount(codes, minlength=k)
        mean = np.bincount(codes, weights=values, minlength=k) / np.maximum(count, 1)
        squares = np.bincount(codes, weights=(values - mean[codes]) ** 2, minlength=k)  # two passes: exact
        with np.errstate(invalid="ignore", divide="ignore"):
            std = np.sqrt(squares / (count - 1))
        rows += [(contract, role, count[c], std[c]) for c, contract in enumerate(deals.contract.categories)
                 if count[c] > 0]
    table = pd.DataFrame(rows, columns=["contract", "role", "count", "std"])
    table["contract"] = pd.Categorical(table["contract"], categories=deals.contract.categories)
    table["role"] = pd.Categorical(table["role"], categories=ROLES)
    return table.set_index(["contract", "role"])


def is_seat_summary(df: pd.DataFrame) -> bool:
    """A ``--summary`` run: counted rows (contract, declarer, seat, score, score_others, count), not deals."""
    return isinstance(df, pd.DataFrame) and {"seat", "score", "score_others", "count"} <= set(df.columns)


def _seat_summary_tables(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, int, int]:
    """``(_score_counts, _per_deal_spread, seats, deals)`` of a seat summary, the same as from its deals' rows.

    Each row counts seats with that score; ``score_others`` is the other seats' total in the same
    deal, so the declarer's rows give each deal's declarer score and others' mean, paired.
    """
    for name in ("contract", "declarer"):
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: a summary needs contract, declarer, seat, score and count")
    contract = _contract_categorical(df["contract"])
    seat, declarer = df["seat"].to_numpy(np.int64), df["declarer"].to_numpy(np.int64)
    score, weight = df["score"].to_numpy(np.int64), df["count"].to_numpy(np.int64)
    n_seats = int(seat.max()) + 1
    counts = (pd.DataFrame({"contract": contract, "role": pd.Categorical.from_codes((seat != declarer).astype(np.int8),
                                                                                    categories=ROLES),
                            "score": score, "count": weight})
              .groupby(["contract", "role", "score"], observed=True, sort=True)["count"].sum().reset_index())
    counts = counts[counts["count"] > 0].reset_index(drop=True)
    own = seat == declarer
    codes, w = contract.codes[own].astype(np.int64), weight[own].astype(np.float64)
    k = len(contract.categories)
    rows = []
    for role, values in zip(ROLES, (score[own].astype(float), df["score_others"].to_numpy(float)[own] / (n_seats - 1))):
        count = np.bincount(codes, weights=w, minlength=k).astype(np.int64)
        mean = np.bincount(codes, weights=w * values, minlength=k) / np.maximum(count, 1)
        squares = np.bincount(codes, weights=w * (values - mean[codes]) ** 2, minlength=k)
        with np.errstate(invalid="ignore", divide="ignore"):
            std = np.sqrt(squares / (count - 1))
        rows += [(name, role, count[c], std[c]) for c, name in enumerate(contract.categories) if count[c] > 0]
    spread = pd.DataFrame(rows, columns=["contract", "role", "count", "std"])
    spread["contract"] = pd.Categorical(spread["contract"], categories=contract.categories)
    spread["role"] = pd.Categorical(spread["role"], categories=ROLES)
    return counts, spread.set_index(["contract", "role"]), n_seats, int(weight[own].sum())


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


def _score_counts(deals: _Deals) -> pd.DataFrame:
    """How many seat observations have each score, per (contract, role): columns contract, role, score, count.

    Built with one ``bincount`` per seat column, so memory stays at a few arrays of one entry per deal.
    """
    n_deals, n_seats = deals.scores.shape
    low, high = int(deals.scores.min()), int(deals.scores.max())
    width = high - low + 1
    n_contracts = len(deals.contract.categories)
    group = deals.contract.codes.astype(np.int64) * 2  # role 0 = declarer, 1 = others
    counts = np.zeros(n_contracts * 2 * width, dtype=np.int64)
    for seat in range(n_seats):
        role = (deals.declarer != seat).astype(np.int64)
        key = (group + role) * width + (deals.scores[:, seat].astype(np.int64) - low)
        counts += np.bincount(key, minlength=counts.size)
    nonzero = np.flatnonzero(counts)
    group_of, score = np.divmod(nonzero, width)
    contract, role = np.divmod(group_of, 2)
    return pd.DataFrame({
        "contract": pd.Categorical.from_codes(contract, dtype=deals.contract.dtype),
        "role": pd.Categorical.from_codes(role, categories=ROLES),
        "score": score + low,
        "count": counts[nonzero],
    })


def _moments(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean, std (ddof=1), quantiles (linear interpolation), min and max of each (contract, role) from counts."""
    rows = []
    for (contract, role), block in counts.groupby(["contract", "role"], observed=True, sort=True):
        values = block["score"].to_numpy(dtype=float)
        weights = block["count"].to_numpy()
        total = weights.sum()
        mean = float(values @ weights) / total
        std = float(np.sqrt(((values - mean) ** 2) @ weights / (total - 1))) if total > 1 else float("nan")
        upper = np.cumsum(weights)  # values[k] holds the sorted positions upper[k-1] .. upper[k]-1
        position = (total - 1) * np.array(QUANTILES)
        below, fraction = np.floor(position).astype(np.int64), position - np.floor(position)
        at = values[np.searchsorted(upper, below, side="right")]
        nxt = values[np.searchsorted(upper, np.minimum(below + 1, total - 1), side="right")]
        rows.append((contract, role, mean, std, *(at + fraction * (nxt - at)), values[0], values[-1]))
    table = pd.DataFrame(rows, columns=["contract", "role", "mean", "std", *QUANTILE_COLUMNS, "min", "max"])
    table["contract"] = pd.Categorical(table["contract"], categories=counts["contract"].cat.categories)
    table["role"] = pd.Categorical(table["role"], categories=ROLES)
    return table.set_index(["contract", "role"]).sort_index()


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
    Scores are counted, not expanded, so ten million deals fit in little memory.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-tricks"] * 2, "declarer": [0, 1],
    ...                    "score_0": [-4, -2], "score_1": [-10, -8], "score_2": [-12, -16]})
    >>> summary(df).loc[("no-tricks", "others"), ["deals", "mean", "min", "max"]].tolist()
    [2.0, -10.0, -16.0, -2.0]
    """
    z = normal_quantile(level)
    if is_seat_summary(df):  # a --summary run: the same tables from its counts
        counts, spread, _, _ = _seat_summary_tables(df)
    else:
        deals = _validate(df)
        counts, spread = _score_counts(deals), _per_deal_spread(deals)
    moments = _moments(counts)
    independent = spread.reindex(moments.index)
    half_width = z * independent["std"] / np.sqrt(independent["count"])
    table = moments.assign(deals=independent["count"], ci_low=moments["mean"] - half_width,
                           ci_high=moments["mean"] + half_width)
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
    counts = _seat_summary_tables(df)[0] if is_seat_summary(df) else _score_counts(_validate(df))
    counts = counts.sort_values(["contract", "role", "score"], kind="stable")
    totals = counts.groupby(["contract", "role"], observed=True)["count"].transform("sum")
    shares = counts.assign(share=counts["count"] / totals)
    return shares[["contract", "role", "score", "share"]].reset_index(drop=True)


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
    if is_seat_summary(df):
        _, _, n_seats, n_deals = _seat_summary_tables(df)
    else:
        n_seats, n_deals = len(_score_columns(df)), len(df)
    lines = [
        header,
        f"data: {n_deals:,} deals, {n_seats} seats; {level:.0%} confidence intervals of the mean "
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
