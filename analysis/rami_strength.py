"""Rami's strength ladder report: the points each policy saves against the others, and how the round changes.

Input: a strength study (``cardlab study rami strength``), one row per round: ``deal``,
``dealer``, ``lone`` (the seat that changes policy), per policy ``p`` of the whole tables
``score_<p>_<seat>``, ``turns_<p>``, ``rami_sec_<p>``, ``blocked_<p>``, and per ordered pair
``lone_<X>_in_<Y>`` (the lone seat's score when it plays X and the others Y), for the policies
random, heuristic and search.

* :func:`strength_gains`: the points per round a seat saves by playing X instead of Y at a table
  of Y (its score at the whole-Y table minus its score as the lone X; Rami scores are
  penalties), with a normal interval over rounds.
* :func:`policy_table`: every seat playing one policy: a seat's mean round score, the rami sec
  rate (Wilson interval), the round length in turns and the blocked rate, with the paired change
  of the turns and the rami sec rate from the heuristic table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import mean_ci, proportion_ci

LADDER = ("random", "heuristic", "search")
_EXPECTED = ("expected a Rami strength study, one row per round: deal, dealer, lone, score_<policy>_<seat>, "
             "turns_<policy>, rami_sec_<policy>, blocked_<policy>, lone_<X>_in_<Y>")


def _check(df: pd.DataFrame) -> int:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    for name in ("deal", "lone", "score_search_0", "turns_search", "lone_search_in_heuristic"):
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no rounds to analyse")
    n = 0
    while f"score_search_{n}" in df.columns:
        n += 1
    return n


def example_study() -> pd.DataFrame:
    """Two two-player rounds small enough to read: a lone random seat pays 40, every other seat 10.

    >>> int(example_study().loc[0, "lone_random_in_search"])
    40
    """
    rows = []
    for deal in (0, 1):
        row = {"deal": deal, "dealer": deal % 2, "lone": 0}
        for p in LADDER:
            row.update({f"score_{p}_{s}": 10 for s in range(2)})
            row.update({f"turns_{p}": 20 + LADDER.index(p), f"rami_sec_{p}": p == "search" and deal == 0,
                        f"blocked_{p}": False})
        row.update({f"lone_{x}_in_{y}": (40 if x == "random" else 10) for x in LADDER for y in LADDER if x != y})
        rows.append(row)
    return pd.DataFrame(rows)


def strength_gains(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Points per round a seat saves by playing ``policy`` instead of ``against`` at a table of ``against``.

    Index (``policy``, ``against``); columns ``rounds``, ``gain``, ``ci_low``, ``ci_high``.

    >>> t = strength_gains(example_study())
    >>> float(t.loc[("random", "heuristic"), "gain"]), float(t.loc[("search", "heuristic"), "gain"])
    (-30.0, 0.0)
    """
    n = _check(df)
    lone = df["lone"].to_numpy(np.int64)
    rows = {}
    for x in LADDER:
        for y in LADDER:
            if x == y:
                continue
            base = df[[f"score_{y}_{s}" for s in range(n)]].to_numpy(np.float64)[np.arange(len(df)), lone]
            gain = base - df[f"lone_{x}_in_{y}"].to_numpy(np.float64)
            rows[(x, y)] = (len(gain), *mean_ci(gain, level=level))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["rounds", "gain", "ci_low", "ci_high"])
    table.index = pd.MultiIndex.from_tuples(table.index, names=["policy", "against"])
    return table


def policy_table(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Every seat playing one policy: mean seat score, rami sec rate, turns, blocked rate, changes from heuristic.

    >>> t = policy_table(example_study())
    >>> float(t.loc["search", "rami_sec"]), float(t.loc["search", "d_turns"])
    (0.5, 1.0)
    """
    n = _check(df)
    rows = {}
    base_turns = df["turns_heuristic"].to_numpy(np.float64)
    base_sec = df["rami_sec_heuristic"].to_numpy(np.float64)
    for p in LADDER:
        scores = df[[f"score_{p}_{s}" for s in range(n)]].to_numpy(np.float64)
        turns = df[f"turns_{p}"].to_numpy(np.float64)
        sec = df[f"rami_sec_{p}"].to_numpy(bool)
        rate, low, high = proportion_ci(int(sec.sum()), len(sec), level=level)
        d_turns = mean_ci(turns - base_turns, level=level)
        d_sec = mean_ci(sec - base_sec, level=level)
        rows[p] = dict(seat_score=scores.mean(), seat_sd=scores.std(), rami_sec=rate, rami_sec_low=low,
                       rami_sec_high=high, turns=turns.mean(), blocked=float(df[f"blocked_{p}"].mean()),
                       d_turns=d_turns[0], d_turns_low=d_turns[1], d_turns_high=d_turns[2], d_rami_sec=d_sec[0],
                       d_rami_sec_low=d_sec[1], d_rami_sec_high=d_sec[2])
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "policy"
    return table


def format_strength(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The ladder as text: the gain of every pair, then the whole tables side by side.

    >>> print(format_strength(example_study()).splitlines()[0])
    Rami strength study, 2 rounds (paired: the same rounds, one seat changes policy)
    """
    gains = strength_gains(df, level=level)
    table = policy_table(df, level=level)
    meta = meta or {}
    lines = [f"Rami strength study, {len(df)} rounds (paired: the same rounds, one seat changes policy)"]
    if meta.get("search_worlds"):
        lines.append(f"search: {meta['search_worlds']} sampled worlds per decision, "
                     f"{meta.get('search_rollout', 'heuristic')} rollouts")
    if meta.get("options"):
        lines.append(f"players: {meta['options'].get('players')} | seed: {meta.get('seed')}")
    lines += ["", f"Points per round a seat saves by playing POLICY instead of AGAINST at a table of AGAINST "
                  f"({level:.0%} CI)", f"{'policy':<10}{'against':<11}{'gain':>8}  interval"]
    for (x, y), r in gains.iterrows():
        lines.append(f"{x:<10}{y:<11}{r.gain:+8.2f}  [{r.ci_low:+.2f}, {r.ci_high:+.2f}]")
    lines += ["", "Every seat playing one policy (changes paired with the heuristic table)",
              f"{'policy':<10}{'seat score':>11}{'rami sec':>10}{'interval':>18}{'turns':>8}{'Δturns':>20}"
              f"{'blocked':>9}"]
    for p, r in table.iterrows():
        lines.append(f"{p:<10}{r.seat_score:11.2f}{100 * r.rami_sec:9.2f}% [{100 * r.rami_sec_low:5.2f},"
                     f"{100 * r.rami_sec_high:6.2f}]%{r.turns:8.2f} {r.d_turns:+6.2f} [{r.d_turns_low:+.2f},"
                     f"{r.d_turns_high:+.2f}]{100 * r.blocked:8.2f}%")
    return "\n".join(line.replace("nan", " - ") for line in lines)


def plot_strength(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """The gains of the three key pairs with intervals, then the rami sec rate and turns per policy.

    >>> len(plot_strength(example_study()).axes)
    3
    """
    from matplotlib.figure import Figure

    gains = strength_gains(df, level=level)
    table = policy_table(df, level=level)
    fig = fig or Figure(figsize=(13, 4), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(1, 3)
    pairs = (("search", "heuristic"), ("heuristic", "random"), ("search", "random"), ("heuristic", "search"))
    g = gains.loc[list(pairs)]
    x = np.arange(len(pairs))
    ax1.bar(x, g["gain"], yerr=np.vstack([g["gain"] - g["ci_low"], g["ci_high"] - g["gain"]]), capsize=3,
            color=["tab:red", "tab:blue", "tab:purple", "tab:cyan"])
    ax1.axhline(0, color="0.4", linewidth=0.8)
    ax1.set_xticks(x, [f"{p}\nvs {q}" for p, q in pairs])
    ax1.set_ylabel("points saved per round by one seat")
    ax1.set_title(f"One seat changes policy ({level:.0%} CI)")
    colours = ["tab:grey", "tab:blue", "tab:red"]
    xs = np.arange(len(LADDER))
    err = np.vstack([table["rami_sec"] - table["rami_sec_low"], table["rami_sec_high"] - table["rami_sec"]])
    ax2.bar(xs, 100 * table["rami_sec"], color=colours, yerr=100 * err, capsize=3)
    ax2.set_xticks(xs, LADDER)
    ax2.set_ylabel("rami sec, % of rounds")
    ax2.set_title("Rami sec rate, every seat one policy")
    ax3.bar(xs, table["turns"], color=colours)
    ax3.set_xticks(xs, LADDER)
    ax3.set_ylabel("turns per round")
    ax3.set_title("Round length, every seat one policy")
    return fig


__all__ = ["format_strength", "plot_strength", "policy_table", "strength_gains"]
