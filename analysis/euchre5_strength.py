"""Euchre for five under stronger play: the strength ladder's report (the trump-choice study compared
between heuristic and search play is :func:`cardlab.analysis.euchre5.compare_trump_studies`).

Input of the ladder functions: a strength study (``cardlab study euchre5 strength``), one row per
hand: ``deal``, ``dealer``, ``lone`` (the seat that changes policy), for each policy P of random,
heuristic and search the whole table's ``score_<P>_<seat>``, ``maker_<P>``, ``round_<P>``,
``alone_<P>``, ``tricks_<P>``, and for each ordered pair ``lone_<X>_in_<Y>`` (the lone seat's
points) and ``others_<X>_in_<Y>`` (the other four seats' points, summed).

* :func:`strength_gains`: what one seat gains by playing X instead of Y at a table of Y players,
  in points and in edge (points minus the other four seats' mean), paired on the same hands.
* :func:`strength_distributions`: each policy's whole table: a seat's points distribution, how
  trump is made, the makers' results.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import mean_ci

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
SEATS = 5
PLACES = ("left of dealer", "dealer+2", "dealer+3", "dealer+4", "dealer")
_EXPECTED = ("expected a Euchre strength study, one row per hand: deal, dealer, lone, score_<policy>_<seat>, "
             "lone_<X>_in_<Y> and others_<X>_in_<Y> for the policies random, heuristic and search")


def _check(df: pd.DataFrame) -> None:
    need = ["deal", "dealer", "lone", *(f"score_{p}_{s}" for p in LADDER for s in range(SEATS)),
            *(f"{k}_{x}_in_{y}" for x, y in PAIRS for k in ("lone", "others"))]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ValueError(f"missing column {missing[0]!r}: {_EXPECTED}")


def example_study() -> pd.DataFrame:
    """Two hands small enough to read: every whole table scores 1 point to seats 0 and 1; the lone
    seat (seat 2) scores 2 points when it plays search, 0 otherwise, the others 4 points in all."""
    rows = []
    for deal in (0, 1):
        row = {"deal": deal, "dealer": deal, "lone": 2}
        for p in LADDER:
            row.update({f"score_{p}_{s}": int(s < 2) for s in range(SEATS)})
            row.update({f"maker_{p}": 0, f"round_{p}": 1, f"alone_{p}": 0, f"tricks_{p}": 3})
        for x, y in PAIRS:
            row.update({f"lone_{x}_in_{y}": 2 if x == "search" else 0, f"others_{x}_in_{y}": 4})
        rows.append(row)
    return pd.DataFrame(rows)


def _lone_results(df: pd.DataFrame, x: str, y: str) -> tuple[np.ndarray, np.ndarray]:
    """Per hand: (gain in points, gain in edge) of the lone seat playing X instead of Y among Y players."""
    lone = df["lone"].to_numpy(np.int64)
    base = df[[f"score_{y}_{s}" for s in range(SEATS)]].to_numpy(np.float64)
    rows = np.arange(len(df))
    base_own = base[rows, lone]
    base_edge = base_own - (base.sum(axis=1) - base_own) / (SEATS - 1)
    own = df[f"lone_{x}_in_{y}"].to_numpy(np.float64)
    edge = own - df[f"others_{x}_in_{y}"].to_numpy(np.float64) / (SEATS - 1)
    return own - base_own, edge - base_edge


def strength_gains(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return what a seat gains per hand by playing ``policy`` instead of ``against`` at a table of ``against``.

    Index (``policy``, ``against``); columns ``hands``, ``points`` with ``points_ci_low``/``points_ci_high``,
    ``edge`` with ``edge_ci_low``/``edge_ci_high`` (edge: points minus the other four seats' mean).

    >>> g = strength_gains(example_study())
    >>> float(g.loc[("search", "heuristic"), "points"]), float(g.loc[("search", "heuristic"), "edge"])
    (2.0, 1.5)
    """
    _check(df)
    rows = {}
    for x, y in PAIRS:
        points, edge = _lone_results(df, x, y)
        rows[(x, y)] = (len(df), *mean_ci(points, level=level), *mean_ci(edge, level=level))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=[
        "hands", "points", "points_ci_low", "points_ci_high", "edge", "edge_ci_low", "edge_ci_high"])
    table.index = pd.MultiIndex.from_tuples(table.index, names=["policy", "against"])
    return table


def gains_by_place(df: pd.DataFrame, policy: str = "search", against: str = "heuristic", *,
                   level: float = 0.95) -> pd.DataFrame:
    """The edge gained by ``policy`` against ``against`` by the lone seat's place after the dealer.

    >>> list(gains_by_place(example_study()).index)
    ['left of dealer', 'dealer+2']
    """
    _check(df)
    _, edge = _lone_results(df, policy, against)
    place = (df["lone"].to_numpy(np.int64) - df["dealer"].to_numpy(np.int64) - 1) % SEATS
    rows = {}
    for k in sorted(set(place.tolist())):
        rows[PLACES[k]] = (int((place == k).sum()), *mean_ci(edge[place == k], level=level))
    return pd.DataFrame.from_dict(rows, orient="index", columns=["hands", "edge", "ci_low", "ci_high"])


def strength_distributions(df: pd.DataFrame) -> pd.DataFrame:
    """Return each policy's whole table: a seat's points (mean, sd, share of 0, 1, 2 and 4 or more),
    the share of hands made in round one, round two and not at all, alone by choice, the makers'
    march and euchre rates and the maker's mean points.

    >>> float(strength_distributions(example_study()).loc["search", "seat_mean"])
    0.4
    """
    _check(df)
    rows = {}
    for p in LADDER:
        scores = df[[f"score_{p}_{s}" for s in range(SEATS)]].to_numpy(np.int64)
        seat = scores.ravel()
        maker = df[f"maker_{p}"].to_numpy(np.int64)
        made = maker >= 0
        rnd = df[f"round_{p}"].to_numpy()
        tricks = df[f"tricks_{p}"].to_numpy()[made]
        maker_points = scores[np.flatnonzero(made), maker[made]]
        rows[p] = dict(seat_mean=seat.mean(), seat_sd=seat.std(), share_0=(seat == 0).mean(),
                       share_1=(seat == 1).mean(), share_2=(seat == 2).mean(), share_4plus=(seat >= 4).mean(),
                       round_one=(rnd == 1).mean(), round_two=(rnd == 2).mean(), void=(~made).mean(),
                       alone_by_choice=(df[f"alone_{p}"].to_numpy()[made] == 1).mean(),
                       march=(tricks == 5).mean(), euchre=(tricks < 3).mean(), maker_points=maker_points.mean())
    return pd.DataFrame.from_dict(rows, orient="index")


def format_strength_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The strength study as text: the search-vs-heuristic gap, every pair's gain, by place, the distributions.

    >>> text = format_strength_study(example_study(), {"search_worlds": 32, "seed": 0})
    >>> "How far the heuristic is from search" in text and "32 sampled worlds" in text
    True
    """
    meta = meta or {}
    lines = [f"Euchre for five, strength study (paired: same hands, one seat changes policy): {len(df):,} hands, "
             f"seed {meta.get('seed', '?')}"]
    options = meta.get("options")
    if options:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in options.items() if k != "players"))
    if meta.get("search_worlds"):
        lines.append(f"search: {meta['search_worlds']} sampled worlds per decision, "
                     f"{meta.get('search_rollout', 'heuristic')} rollouts")
    gains = strength_gains(df, level=level)
    gap = gains.loc[("search", "heuristic")]
    lines += ["", f"How far the heuristic is from search: one seat searching at a table of heuristic players gains "
                  f"{gap['edge']:+.3f} edge ({gap['edge_ci_low']:+.3f} to {gap['edge_ci_high']:+.3f}) and "
                  f"{gap['points']:+.3f} points ({gap['points_ci_low']:+.3f} to {gap['points_ci_high']:+.3f}) per hand "
                  f"({level:.0%} CI; edge = points minus the other four seats' mean)"]
    lines += ["", "Gain of each policy against each other (per hand, for the seat that changes):",
              gains.round(3).to_string()]
    lines += ["", "Search against heuristic by the seat's place after the dealer (edge per hand):",
              gains_by_place(df, level=level).round(3).to_string()]
    lines += ["", "Whole tables (every seat one policy): points of a seat, how trump is made, the makers' results",
              strength_distributions(df).round(3).to_string()]
    return "\n".join(lines)


_COLOURS = {"random": "tab:grey", "heuristic": "tab:blue", "search": "tab:red"}


def plot_strength_study(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """The gain of one seat changing policy (edge and points, with CIs), and a seat's points
    distribution under each policy side by side. A new Figure (no pyplot) unless ``fig``.

    >>> [ax.get_title() for ax in plot_strength_study(example_study()).axes][1]
    "a seat's points per hand"
    """
    from matplotlib.figure import Figure

    gains = strength_gains(df, level=level)
    fig = fig or Figure(figsize=(13, 4.2), layout="constrained")
    a, b = fig.subplots(1, 2)
    pairs = [(x, y) for x, y in PAIRS]
    x = np.arange(len(pairs))
    for k, (measure, colour) in enumerate((("edge", "tab:red"), ("points", "tab:blue"))):
        g = gains[measure].to_numpy()
        err = np.nan_to_num(np.vstack([g - gains[f"{measure}_ci_low"], gains[f"{measure}_ci_high"] - g]))
        a.bar(x - 0.2 + 0.4 * k, g, width=0.4, yerr=err, capsize=2, color=colour, label=measure)
    a.axhline(0, color="0.4", linewidth=0.8)
    a.set_xticks(x, [f"{p}\nvs {q}" for p, q in pairs], fontsize="small")
    a.set_ylabel("per hand, one seat changing policy")
    a.set_title(f"Gain of one seat changing policy, same hands ({level:.0%} CI)")
    a.legend(fontsize="small")
    values = [0, 1, 2, 4]
    for k, p in enumerate(LADDER):
        seat = df[[f"score_{p}_{s}" for s in range(SEATS)]].to_numpy().ravel()
        shares = [(seat == v).mean() if v < 4 else (seat >= 4).mean() for v in values]
        b.bar(np.arange(len(values)) - 0.3 + 0.3 * k, shares, width=0.3, color=_COLOURS[p],
              label=f"{p}: mean {seat.mean():.2f}")
    b.set_xticks(np.arange(len(values)), ["0", "1", "2", "4+"])
    b.set_xlabel("points")
    b.set_ylabel("share of seat-hands")
    b.set_title("a seat's points per hand")
    b.legend(fontsize="small")
    return fig


__all__ = ["format_strength_study", "gains_by_place", "plot_strength_study", "strength_distributions",
           "strength_gains"]
