"""Score distributions by a grouping key, shared by every game (one row per deal, one score column per seat).

Input: a DataFrame with columns ``deal``, a grouping key ``by`` (Barbu: ``contract``), a role
seat ``role`` (seat 0..n-1 that has the role in the deal; Barbu: ``declarer``, Euchre: ``maker``)
and ``score_0`` … ``score_{n-1}`` (each seat's points for the deal); any other column is ignored.
Every seat of every deal is either the role seat or one of the n-1 *others*. There are no default
columns: ``by`` and ``role`` are given, or read from the run's game (``analysis.<game>.SCORES``,
the game named by the metadata in ``df.attrs``, as ``simulate`` and ``load_run`` return it).

:func:`format_report` and :func:`plot_report` are every run's entry points: they pick the report
of the run's game and kind (deals, whole games or a study) through the registry.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
import pandas as pd

from .common import registered_game, run_header, run_meta, table_text
from .stats import interval, normal_quantile, paired_comparison

ROLES = ("declarer", "others")  # the role names with the default ``role="declarer"``
QUANTILES = (0.05, 0.25, 0.50, 0.75, 0.95)
QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
MAX_SCORE_BINS = 12  # format_report: at most this many bins for wide score ranges
SUMMARY_COLUMNS = ("deals", "mean", "std", "ci_low", "ci_high", *QUANTILE_COLUMNS, "min", "max")



def _expected(by: str = "contract", role: str = "declarer") -> str:
    return f"expected columns deal, {by}, {role} and one integer score column per seat, score_0 … score_{{n-1}}"


_EXPECTED = _expected()


class _Deals(NamedTuple):
    """Validated input as arrays: one entry (or row of ``scores``) per deal."""

    deal: np.ndarray
    contract: pd.Categorical  # the grouping key: categories in display order, unused ones removed
    declarer: np.ndarray  # the role seat
    scores: np.ndarray  # shape (deals, seats)
    by: str = "contract"
    roles: tuple = ROLES


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


def score_keys(df, by: str | None = None, role: str | None = None, meta: dict | None = None) -> tuple[str, str]:
    """``(by, role)``: as given, else the run's game's ``SCORES`` (``analysis.<game>``); a ValueError when
    neither names them (the report has no default columns).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0]})
    >>> df.attrs["cardlab"] = {"game": "barbu"}
    >>> score_keys(df), score_keys(df, "trump", "maker")
    (('contract', 'declarer'), ('trump', 'maker'))
    """
    if by is not None and role is not None:
        return by, role
    game = registered_game(run_meta(df, meta))
    declared = {}
    if game is not None:
        from cardlab.sim.games import reports

        declared = getattr(reports(game.name), "SCORES", {})
    by, role = by or declared.get("by"), role or declared.get("role")
    if by is None or role is None:
        what = f"a {game.name} run declares none" if game is not None else "the run names no game that declares them"
        raise ValueError(f"by, role: give the grouping column and the role seat's column (e.g. by='contract', "
                         f"role='declarer'); {what}")
    return by, role


def roles(role: str = "declarer") -> tuple[str, str]:
    """The two role names of a report: the role seat's and ``"others"``."""
    return (role, "others")


def _validate(df: pd.DataFrame, by: str | None = None, role: str | None = None) -> _Deals:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame with one row per deal, got {type(df).__name__}")
    by, role = score_keys(df, by, role)
    for name in ("deal", by, role):
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_expected(by, role)}")
    score_columns = _score_columns(df)
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no deals to analyse")
    if df[by].isna().any():
        raise ValueError(f"column {by!r} contains missing values")
    scores = _integer_array(df[score_columns], "seat scores")
    declarer = _integer_array(df[role], f"{role} seats")
    n_seats = len(score_columns)
    if declarer.min() < 0 or declarer.max() >= n_seats:
        raise ValueError(
            f"column {role!r} must hold seats 0..{n_seats - 1} (there are {n_seats} score columns), "
            f"found values from {declarer.min()} to {declarer.max()}"
        )
    return _Deals(df["deal"].to_numpy(), _contract_categorical(df[by]), declarer, scores, by, roles(role))


def _repeat_categorical(values: pd.Categorical, repeats: int) -> pd.Categorical:
    return pd.Categorical.from_codes(np.repeat(values.codes, repeats), dtype=values.dtype)


def _long_form(deals: _Deals) -> pd.DataFrame:
    n_deals, n_seats = deals.scores.shape
    seat = np.tile(np.arange(n_seats, dtype=np.int8), n_deals)
    is_other = seat != np.repeat(deals.declarer, n_seats)
    return pd.DataFrame(
        {
            "deal": np.repeat(deals.deal, n_seats),
            deals.by: _repeat_categorical(deals.contract, n_seats),
            "role": pd.Categorical.from_codes(is_other.astype(np.int8), categories=deals.roles),
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
    for role, values in zip(deals.roles, (declarer_score, others_mean)):
        count = np.bincount(codes, minlength=k)
        mean = np.bincount(codes, weights=values, minlength=k) / np.maximum(count, 1)
        squares = np.bincount(codes, weights=(values - mean[codes]) ** 2, minlength=k)  # two passes: exact
        with np.errstate(invalid="ignore", divide="ignore"):
            std = np.sqrt(squares / (count - 1))
        rows += [(contract, role, count[c], std[c]) for c, contract in enumerate(deals.contract.categories)
                 if count[c] > 0]
    table = pd.DataFrame(rows, columns=[deals.by, "role", "count", "std"])
    table[deals.by] = pd.Categorical(table[deals.by], categories=deals.contract.categories)
    table["role"] = pd.Categorical(table["role"], categories=deals.roles)
    return table.set_index([deals.by, "role"])


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


def seat_scores(df: pd.DataFrame, *, by: str | None = None, role: str | None = None) -> pd.DataFrame:
    """Return the scores in long form, one row per (deal, seat), with each seat's role.

    Columns are ``deal``, ``contract`` (categorical, in order of first
    appearance or in the input's categorical order), ``role`` (categorical:
    "declarer" for the seat in the ``declarer`` column, "others" for every
    other seat), ``seat`` and ``score``; rows follow the input's deal order,
    then seat order. Extra input columns are ignored. ``by`` names the grouping
    column and ``role`` the role seat's column (default: the run's game's, see :func:`score_keys`).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0], "contract": ["no-tricks"], "declarer": [1],
    ...                    "score_0": [-4], "score_1": [-10], "score_2": [-12]})
    >>> seat_scores(df, by="contract", role="declarer")[["seat", "role", "score"]].values.tolist()
    [[0, 'others', -4], [1, 'declarer', -10], [2, 'others', -12]]
    """
    return _long_form(_validate(df, by, role))


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
        deals.by: pd.Categorical.from_codes(contract, dtype=deals.contract.dtype),
        "role": pd.Categorical.from_codes(role, categories=deals.roles),
        "score": score + low,
        "count": counts[nonzero],
    })


def _moments(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean, std (ddof=1), quantiles (linear interpolation), min and max of each (group, role) from counts."""
    by = counts.columns[0]
    rows = []
    for (contract, role), block in counts.groupby([by, "role"], observed=True, sort=True):
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
    table = pd.DataFrame(rows, columns=[by, "role", "mean", "std", *QUANTILE_COLUMNS, "min", "max"])
    table[by] = pd.Categorical(table[by], categories=counts[by].cat.categories)
    table["role"] = pd.Categorical(table["role"], categories=counts["role"].cat.categories)
    return table.set_index([by, "role"]).sort_index()


def summary(df: pd.DataFrame, *, by: str | None = None, role: str | None = None, level: float = 0.95) -> pd.DataFrame:
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
    ``by`` and ``role`` name the grouping and role-seat columns (index ``(by, "role")``; default: the
    run's game's, see :func:`score_keys`).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-tricks"] * 2, "declarer": [0, 1],
    ...                    "score_0": [-4, -2], "score_1": [-10, -8], "score_2": [-12, -16]})
    >>> table = summary(df, by="contract", role="declarer")
    >>> table.loc[("no-tricks", "others"), ["deals", "mean", "min", "max"]].tolist()
    [2.0, -10.0, -16.0, -2.0]
    """
    z = normal_quantile(level)
    if is_seat_summary(df):  # a --summary run: the same tables from its counts
        counts, spread, _, _ = _seat_summary_tables(df)
    else:
        deals = _validate(df, by, role)
        by = deals.by
        counts, spread = _score_counts(deals), _per_deal_spread(deals)
    moments = _moments(counts)
    independent = spread.reindex(moments.index)
    half_width = z * independent["std"] / np.sqrt(independent["count"])
    table = moments.assign(deals=independent["count"], ci_low=moments["mean"] - half_width,
                           ci_high=moments["mean"] + half_width)
    return table[list(SUMMARY_COLUMNS)]


def score_shares(df: pd.DataFrame, *, by: str | None = None, role: str | None = None) -> pd.DataFrame:
    """Return how often each score occurs: columns contract, role, score, share.

    ``share`` is the fraction of the role's seat observations in that contract
    with that score (declarer: one per deal; others: n-1 per deal), so the
    shares sum to 1 within each (contract, role); only scores that occur are
    listed, sorted by contract (as in ``summary``), role, then score.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-queens"] * 2, "declarer": [0, 0],
    ...                    "score_0": [-6, 0], "score_1": [0, -12], "score_2": [-12, -6]})
    >>> score_shares(df, by="contract", role="declarer").query("role == 'others'")[["score", "share"]].values.tolist()
    [[-12.0, 0.5], [-6.0, 0.25], [0.0, 0.25]]
    """
    if is_seat_summary(df):
        by, counts = "contract", _seat_summary_tables(df)[0]
    else:
        by, role = score_keys(df, by, role)
        counts = _score_counts(_validate(df, by, role))
    counts = counts.sort_values([by, "role", "score"], kind="stable")
    totals = counts.groupby([by, "role"], observed=True)["count"].transform("sum")
    shares = counts.assign(share=counts["count"] / totals)
    return shares[[by, "role", "score", "share"]].reset_index(drop=True)


def role_edge(df: pd.DataFrame, *, by: str | None = None, role: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Return per group the role seat's edge: its score minus the mean score of the others, per deal.

    The balance figure of a contract: ``edge`` is the mean over the group's deals of (role seat's
    score − mean of the other seats' scores in the same deal), in points per deal; 0 is a contract
    that favours nobody. Its interval ``ci_low``/``ci_high`` comes from those per-deal differences
    (paired: ``stats.paired_comparison``), the right interval since both figures come from the same deals.
    ``variance_reduction`` is ``1 − var(difference) / (var(role) + var(others))``: positive where the two
    move together (pairing narrows the interval), negative where they move apart. In a contract with a
    fixed total (No Queens, Salade ...) the others' mean is the total less the role seat's score, so it is
    negative (−0.6 with four seats): pairing widens the interval there, and comparing the two means as if
    independent would understate it. Columns: ``deals`` (an integer), ``<role>_mean``, ``others_mean``,
    ``edge``, ``ci_low``, ``ci_high``, ``variance_reduction``. Rows are ranked by edge, most favourable to
    the role seat first.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1, 2], "contract": ["no-queens", "no-queens", "trumps"],
    ...                    "declarer": [0, 1, 0], "score_0": [-6, 0, 20], "score_1": [0, -12, 10],
    ...                    "score_2": [-6, 0, 0]})
    >>> t = role_edge(df, by="contract", role="declarer")
    >>> t["deals"].tolist(), t["edge"].tolist()
    ([1, 2], [15.0, -7.5])
    """
    if is_seat_summary(df):  # the declarer's rows pair its score with the others' total in the same deal
        by, role = "contract", "declarer"
        own_rows = df["seat"].to_numpy() == df["declarer"].to_numpy()
        n_seats = int(df["seat"].max()) + 1
        contract = _contract_categorical(df["contract"])[own_rows]
        own = df["score"].to_numpy(float)[own_rows]
        others = df["score_others"].to_numpy(float)[own_rows] / (n_seats - 1)
        weights = df["count"].to_numpy(float)[own_rows]
    else:
        by, role = score_keys(df, by, role)
        deals = _validate(df, by, role)
        n_deals, n_seats = deals.scores.shape
        own = deals.scores[np.arange(n_deals), deals.declarer].astype(float)
        others = (deals.scores.sum(axis=1, dtype=np.int64) - own) / (n_seats - 1)
        contract, weights = deals.contract, np.ones(n_deals)
    codes = contract.codes
    rows = []
    for c, name in enumerate(contract.categories):
        mask = codes == c
        if not mask.any():
            continue
        r = paired_comparison(own[mask], others[mask], level=level, weights=weights[mask])
        rows.append({"deals": r["n"], f"{role}_mean": r["mean_a"], "others_mean": r["mean_b"], "edge": r["diff"],
                     "ci_low": r["ci_low"], "ci_high": r["ci_high"], "variance_reduction": r["variance_reduction"]})
    names = [name for c, name in enumerate(contract.categories) if (codes == c).any()]
    table = pd.DataFrame(rows, index=pd.CategoricalIndex(names, categories=contract.categories, name=by))
    table["deals"] = table["deals"].astype(np.int64)
    return table.sort_values("edge", ascending=False, kind="stable")


def _edge_lines(df, by: str, role: str, level: float) -> list[str]:
    """The report's lead: the role seat's edge per group, ranked, with units and intervals."""
    table = role_edge(df, by=by, role=role, level=level)
    lines = [f"{role.capitalize()}'s edge by {by}, ranked: {role}'s score − the others' mean score in the same "
             f"deal, in points per deal ({level:.0%} CI from the per-deal differences)"]
    width = max(len(str(name)) for name in table.index)
    for name, row in table.iterrows():
        ci = f"({interval(row['ci_low'], row['ci_high'], '+.3f')})" if np.isfinite(row["ci_low"]) else "(no CI: one deal)"
        lines.append(f"  {str(name):<{width}}  {row['edge']:+9.3f} points {ci}   "
                     f"{role} {row[f'{role}_mean']:+.3f}, others {row['others_mean']:+.3f}, {int(row['deals']):,} deals")
    return lines


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


def format_score_report(
    df: pd.DataFrame, meta: dict | None = None, *, by: str | None = None, role: str | None = None,
    level: float = 0.95, max_score_columns: int = 16
) -> str:
    """Return a plain-text report: run header, the role seat's edge, the ``summary`` table and score distributions.

    The report leads with the balance figure, ``role_edge``: per group (``by``, Barbu's contract) the
    role seat's (Barbu's declarer's) score minus the others' mean, ranked, in points per deal with its
    paired interval. ``by`` and ``role`` default to the run's game's (:func:`score_keys`). The header is
    every report's (``common.run_header``, from ``meta`` or ``df.attrs``). The summary is rounded to
    3 decimals. The distributions show, for each group, one row per role
    and one column per score with the percentage of that role's seat scores;
    a group with more than ``max_score_columns`` distinct scores is shown in
    at most 12 equal-width score bins starting at its lowest score (e.g.
    "-50..-46"; the table's title says so), so that wide ranges stay readable.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu"] * 2, "declarer": [0, 2],
    ...                    "score_0": [0, -20], "score_1": [-20, 0], "score_2": [0, 0]})
    >>> text = format_score_report(df, {"game": "barbu", "options": {"players": 3}, "seed": 7, "deals": 2})
    >>> text.splitlines()[:2]
    ['Barbu (barbu): deal report | seed 7 | 2 deals', 'options: players=3']
    """
    if max_score_columns < 1:
        raise ValueError(f"max_score_columns must be at least 1, got {max_score_columns}")
    meta = run_meta(df, meta)
    if is_seat_summary(df):
        by, role = "contract", "declarer"
        _, _, n_seats, n_deals = _seat_summary_tables(df)
    else:
        by, role = score_keys(df, by, role, meta)
        _validate(df, by, role)
        n_seats, n_deals = len(_score_columns(df)), len(df)
    table = summary(df, by=by, role=role, level=level)
    shares = score_shares(df, by=by, role=role)
    lines = [
        *run_header(meta, "deal report", count=meta.get("games") if meta.get("unit") == "game" else n_deals),
        f"data: {n_deals:,} deals, {n_seats} seats; {level:.0%} confidence intervals of the mean "
        f"(others: from per-deal means of the seats other than the {role})",
        "",
        *_edge_lines(df, by, role, level),
        "",
        f"Seat scores by {by} and role (points per deal)",
        table_text(table),
        "",
        "Score distribution: % of the role's seat scores",
    ]
    for contract, block in shares.groupby(by, observed=True):
        text, note = _share_table(block, max_score_columns)
        lines += ["", f"{contract} ({note})", text]
    return "\n".join(lines) + "\n"


def _report_of(df, meta: dict | None, which: int):
    """The run's game's report (``REPORTS[kind][which]``, through the registry) and the run's metadata."""
    meta = run_meta(df, meta)
    if registered_game(meta) is None:
        return None, meta
    from cardlab.sim.games import report_for

    return report_for(meta)[which], meta


def format_report(df: pd.DataFrame, meta: dict | None = None, **keywords) -> str:
    """The text report that fits the run, for every game: its game's (``meta["game"]``, from ``meta`` or
    ``df.attrs``) report of its kind (single deals, whole games, or the study it is), through the registry.

    Keywords go to that report (``level`` …). Rows that name no registered game get the shared score
    report (:func:`format_score_report`), which then needs ``by`` and ``role``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "trump": ["♠", "♥"], "maker": [0, 1],
    ...                    "score_0": [2, -1], "score_1": [-1, 2], "score_2": [-1, -1]})
    >>> format_report(df, by="trump", role="maker").splitlines()[0]
    'cardlab run (no run metadata): deal report | 2 deals'
    """
    text, meta = _report_of(df, meta, 0)
    if text is None:
        return format_score_report(df, meta, **keywords)
    return text(df, meta, **keywords)


def plot_report(df: pd.DataFrame, meta: dict | None = None):
    """The figure of the run's report (see :func:`format_report`), titled with the run (``plots.add_run_title``).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu"] * 2, "declarer": [0, 2],
    ...                    "score_0": [0, -20], "score_1": [-20, 0], "score_2": [0, 0]})
    >>> plot_report(df, {"game": "barbu", "deals": 2, "seed": 1}).get_suptitle()
    'Barbu · 2 deals · seed 1'
    """
    from .plots import add_run_title

    figure, meta = _report_of(df, meta, 1)
    if figure is None:
        raise ValueError("meta: the run names no registered game, so it has no figure; pass meta from load_run")
    if meta and not df.attrs.get("cardlab"):
        df = df.copy(deep=False)
        df.attrs["cardlab"] = meta
    return add_run_title(figure(df), meta, df)
