"""The strength ladder's report: how much each card policy gains against the others, per contract.

Input: a strength study (``cardlab study barbu strength``), one row per deal: ``deal``,
``contract``, ``declarer``, ``lone`` (the seat that changes policy), ``score_<policy>_<seat>``
(every seat playing that policy) and ``lone_<X>_in_<Y>`` (the lone seat's score when it plays X
and the others Y), for the policies random, heuristic and search.

* :func:`strength_gains`: the gain of X against Y, the lone seat's score minus its score at the
  whole-Y table on the same deal, with a normal confidence interval (one gain per deal).
* :func:`strength_distributions`: each contract's score distribution under each policy (every
  seat playing it): a seat's mean, spread, share of zero scores and quantiles, the declarer's
  mean with its interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .games import _require
from .stats import mean_ci
from .studies import _rounded, _study_header

LADDER = ("random", "heuristic", "search")
_EXPECTED = ("expected a strength study, one row per deal: deal, contract, declarer, lone, score_<policy>_<seat> "
             "and lone_<X>_in_<Y> for the policies random, heuristic and search")


def example_study() -> pd.DataFrame:
    """A two-deal No Queens strength study small enough to read (used by the examples below).

    The changed seat loses 6 points as a random player and 0 as a heuristic or search player;
    every whole table scores -3 at every seat.
    """
    rows = []
    for deal in (0, 1):
        row = {"deal": deal, "contract": "no-queens", "declarer": deal, "lone": 1}
        for p in LADDER:
            row.update({f"score_{p}_{s}": -3 for s in range(4)})
        row.update({f"lone_{x}_in_{y}": (-6 if x == "random" else 0) for x in LADDER for y in LADDER if x != y})
        rows.append(row)
    return pd.DataFrame(rows)


def _seats(df: pd.DataFrame) -> int:
    n = 0
    while f"score_search_{n}" in df.columns:
        n += 1
    if n == 0:
        raise ValueError(f"missing column 'score_search_0': {_EXPECTED}")
    return n


def _contracts(df: pd.DataFrame) -> list:
    contract = df["contract"]
    order = list(contract.cat.categories) if hasattr(contract, "cat") else sorted(contract.unique())
    present = set(contract.astype(str))
    return [c for c in order if c in present]


def strength_gains(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return the points a seat gains per deal by playing ``policy`` instead of ``against`` at a table of ``against``.

    Index (``contract``, ``policy``, ``against``); columns ``deals``, ``gain``, ``ci_low``, ``ci_high``.

    >>> gains = strength_gains(example_study())
    >>> [float(gains.loc[("no-queens", x, y), "gain"]) for x, y in (("search", "heuristic"), ("random", "search"))]
    [3.0, -3.0]
    """
    _require(df, ("deal", "contract", "declarer", "lone"), _EXPECTED)
    n = _seats(df)
    lone = df["lone"].to_numpy(np.int64)
    rows = {}
    for contract in _contracts(df):
        part = (df["contract"].astype(str) == contract).to_numpy()
        for x in LADDER:
            for y in LADDER:
                if x == y:
                    continue
                _require(df, (f"lone_{x}_in_{y}", *(f"score_{y}_{s}" for s in range(n))), _EXPECTED)
                base = df[[f"score_{y}_{s}" for s in range(n)]].to_numpy(np.float64)[part]
                gain = df[f"lone_{x}_in_{y}"].to_numpy(np.float64)[part] - base[np.arange(part.sum()), lone[part]]
                rows[(contract, x, y)] = (len(gain), *mean_ci(gain, level=level))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["deals", "gain", "ci_low", "ci_high"])
    table.index = pd.MultiIndex.from_tuples(table.index, names=["contract", "policy", "against"])
    return table


def strength_distributions(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return each contract's score distribution with every seat playing ``policy``.

    Index (``contract``, ``policy``); columns ``seat_mean``, ``seat_sd``, ``zero_share`` (seat
    scores of exactly 0), ``p05``/``median``/``p95`` (a seat's score quantiles), ``declarer_mean``
    with ``declarer_ci_low``/``declarer_ci_high`` (one declarer per deal).

    >>> table = strength_distributions(example_study())
    >>> float(table.loc[("no-queens", "search"), "seat_mean"]), float(table.loc[("no-queens", "search"), "zero_share"])
    (-3.0, 0.0)
    """
    _require(df, ("deal", "contract", "declarer"), _EXPECTED)
    n = _seats(df)
    declarer = df["declarer"].to_numpy(np.int64)
    rows = {}
    for contract in _contracts(df):
        part = (df["contract"].astype(str) == contract).to_numpy()
        for policy in LADDER:
            scores = df[[f"score_{policy}_{s}" for s in range(n)]].to_numpy(np.float64)[part]
            seat = scores.ravel()
            mean, low, high = mean_ci(scores[np.arange(len(scores)), declarer[part]], level=level)
            rows[(contract, policy)] = (seat.mean(), seat.std(), float((seat == 0).mean()),
                                        *np.quantile(seat, [0.05, 0.5, 0.95]), mean, low, high)
    table = pd.DataFrame.from_dict(rows, orient="index", columns=[
        "seat_mean", "seat_sd", "zero_share", "p05", "median", "p95", "declarer_mean", "declarer_ci_low",
        "declarer_ci_high"])
    table.index = pd.MultiIndex.from_tuples(table.index, names=["contract", "policy"])
    return table


def format_strength_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The strength study as text: the search-vs-heuristic gap per contract, every pair's gain, the distributions.

    >>> text = format_strength_study(example_study(), {"search_worlds": 32})
    >>> "How far the heuristic is from search" in text and "32 sampled worlds" in text
    True
    """
    gains = strength_gains(df, level=level)
    dists = strength_distributions(df, level=level)
    lines = _study_header("Strength study (paired: same deals, one seat changes policy)", meta, len(df))
    worlds = (meta or {}).get("search_worlds")
    if worlds:
        lines.append(f"search: {worlds} sampled worlds per decision, {meta.get('search_rollout', 'heuristic')} "
                     "rollouts")
    gap = gains.xs(("search", "heuristic"), level=("policy", "against"))
    lines += ["", f"How far the heuristic is from search: points per deal a seat gains by searching at a table "
                  f"of heuristic players ({level:.0%} CI)", _rounded(gap).to_string()]
    pairs = [(x, y) for x in LADDER for y in LADDER if x != y]
    wide = gains["gain"].unstack(["policy", "against"]).reindex(index=_contracts(df), columns=pairs)
    wide.columns = [f"{x} vs {y}" for x, y in wide.columns]
    lines += ["", "Gain of each policy against each other (points per deal for the seat that changes; "
                  "CIs in strength_gains)", _rounded(wide).to_string()]
    lines += ["", "Score distribution with every seat playing one policy", _rounded(dists).to_string()]
    return "\n".join(lines)


_COLOURS = {"random": "tab:grey", "heuristic": "tab:blue", "search": "tab:red"}


def plot_strength_study(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Gains against the heuristic (and the heuristic against random) per contract, then each contract's
    score distribution under the three policies side by side. A new Figure (no pyplot) unless ``fig``.

    >>> [ax.get_title() for ax in plot_strength_study(example_study()).axes][1]
    'no-queens'
    """
    gains = strength_gains(df, level=level)
    contracts = _contracts(df)
    n = _seats(df)
    cols = 3
    rows = 1 + -(-len(contracts) // cols)
    fig = fig or Figure(figsize=(5 * cols, 3.4 * rows), layout="constrained")
    grid = fig.add_gridspec(rows, cols)
    ax = fig.add_subplot(grid[0, :])
    x = np.arange(len(contracts))
    pairs = (("search", "heuristic"), ("heuristic", "random"), ("search", "random"))
    width = 0.8 / len(pairs)
    for k, (p, q) in enumerate(pairs):
        part = gains.xs((p, q), level=("policy", "against")).reindex(contracts)
        err = np.nan_to_num(np.vstack([part["gain"] - part["ci_low"], part["ci_high"] - part["gain"]]))
        ax.bar(x - 0.4 + width * (k + 0.5), part["gain"], width=width, yerr=err, capsize=2, ecolor="0.3",
               color=("tab:red", "tab:blue", "tab:purple")[k], label=f"{p} against {q}")
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(x, contracts)
    ax.set_ylabel("points per deal gained by one seat")
    ax.set_title(f"Gain of one seat changing policy, same deals ({level:.0%} CI)")
    ax.legend(fontsize="small")
    for i, contract in enumerate(contracts):
        ax = fig.add_subplot(grid[1 + i // cols, i % cols])
        part = df[df["contract"].astype(str) == contract]
        values = {p: part[[f"score_{p}_{s}" for s in range(n)]].to_numpy().ravel() for p in LADDER}
        scores = np.unique(np.concatenate(list(values.values())))
        step = int(np.gcd.reduce(np.diff(scores))) if len(scores) > 1 else 1
        bar = 0.8 * step / len(LADDER)
        for k, p in enumerate(LADDER):
            label = f"{p}: sd {values[p].std():.2f}"
            if len(scores) > 16:  # many distinct scores (Salade): outlines over shared bins
                bins = np.linspace(scores[0], scores[-1] + 1, 25)
                ax.hist(values[p], bins=bins, weights=np.full(len(values[p]), 1 / len(values[p])), histtype="step",
                        color=_COLOURS[p], linewidth=1.5, label=label)
                continue
            s, counts = np.unique(values[p], return_counts=True)
            ax.bar(s - 0.4 * step + bar * (k + 0.5), counts / len(values[p]), width=bar, color=_COLOURS[p],
                   label=label)
        ax.set_title(contract)
        ax.set_xlabel("seat score")
        ax.set_ylabel("share of seat scores")
        ax.legend(fontsize="x-small")
    return fig


__all__ = ["format_strength_study", "plot_strength_study", "strength_distributions", "strength_gains"]
