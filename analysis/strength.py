"""The strength ladder's report, the same for every game: what each card policy gains against the others.

Input: a strength study (``cardlab study <game> strength``; :mod:`cardlab.sim.ladder`), one row per
deal. Every deal is played at nine tables: the three whole tables (every seat random, heuristic or
search) and the six where one side (a seat, or a partnership) plays X and the others Y. The game's
``ladder_head`` names the changed side (``lone``, or Minchiate's ``team``) and its
``ladder_columns`` say what each table adds: ``<name>_<X>`` or ``<name>_<X>_<seat>`` for a whole
table, ``<name>_<X>_in_<Y>`` (or ``_vs_``) for a mixed one.

What is particular to a game is data, a :class:`Ladder` in its report module
(``cardlab.analysis.<game>.STRENGTH``): which head column is the side, how the side's results
(:class:`Measure`) are read at a table, whether lower is better (Rami's penalties), a grouping
column (Barbu's ``contract``), the seat the side's place is counted from, and the whole tables'
figures (default: every column the whole tables wrote).

* :func:`strength_gains`: the gain of X against Y: the changed side's result at the mixed table
  minus its result at the whole-Y table, on the same deal (paired), with a normal interval.
* :func:`gains_by_place`: one pair's gain by the changed side's place from the dealer (declarer).
* :func:`table_figures`: each whole table's figures and their paired shift from the heuristic table.
* :func:`oracle_gaps`: with the ceiling (``--oracle``: the oracle's whole table and one oracle side among
  search and among heuristic players), the honest-to-oracle gap, what the changed side gains by seeing the
  true deal instead of searching honestly; :func:`inference_share`: the share of that gap that the search's
  inference closes, from two such ladders on the same deals (inference on and off).

>>> df = example_study()
>>> float(strength_gains(df, ladder=EXAMPLE).loc[("search", "heuristic"), "points"])
3.0
"""
from __future__ import annotations

import re
from typing import Callable, NamedTuple

import numpy as np
import pandas as pd

from .common import registered_game, run_header, run_meta, table_text, unit_word
from .stats import interval, mean_ci, ratio_ci

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
KEY_PAIRS = (("search", "heuristic"), ("heuristic", "random"), ("search", "random"))  # the plot's headline pairs
_COLOURS = {"random": "tab:grey", "heuristic": "tab:blue", "search": "tab:red"}
_OWN_COLOURS = ("tab:green", "tab:orange", "tab:brown")


def ladder_policies(meta: dict | None) -> tuple:
    """The run's rungs: random, heuristic, search, then your own policies (the study's ``policies``)."""
    names = (meta or {}).get("policies") if (meta or {}).get("study") == "strength" else None
    return tuple(names) if names else LADDER


def _pairs(policies) -> tuple:
    return tuple((x, y) for x in policies for y in policies if x != y)


def _key_pairs(policies) -> tuple:
    """The plot's pairs: the built-in headline pairs, then each own policy against heuristic and search."""
    return KEY_PAIRS + tuple((p, q) for p in policies if p not in LADDER for q in ("heuristic", "search"))


def _colour(policy: str, policies) -> str:
    own = [p for p in policies if p not in LADDER]
    return _COLOURS.get(policy) or _OWN_COLOURS[own.index(policy) % len(_OWN_COLOURS)]


def _column_patterns(policies) -> tuple:
    names = "|".join(map(re.escape, policies))
    return re.compile(rf"(.+)_({names})_(?:in|vs)_({names})"), re.compile(rf"(.+)_({names})(?:_(\d+))?")


# ---------------------------------------------------------------- what a game declares


class Measure(NamedTuple):
    """One result of the changed side: ``read(df, x, y, side)`` gives it per deal at the table where the
    side plays ``x`` and the others ``y`` (``y=None``: the whole-``x`` table); ``side`` is the head column."""

    name: str
    read: Callable


class Figure(NamedTuple):
    """A whole table's figure: ``read(df, policy)`` per deal (a ``(deals, k)`` array is averaged per deal;
    NaN leaves a deal out); ``share``: a yes/no figure, shown in %."""

    read: Callable
    share: bool = False


class Ladder(NamedTuple):
    """How a game's ladder rows read (see the module docstring)."""

    side: str = "lone"  # the head column naming the side that changes policy
    team: bool = False  # the side is a partnership (team 0 or 1), its results team 0 minus team 1
    measures: tuple = ()  # Measures; default: the lone seat's points (seat_result())
    lower_is_better: bool = False  # the gain is then the result saved (Rami: penalty points)
    by: str | None = None  # a head column to break every table down by (Barbu: contract)
    place: str | None = "dealer"  # the seat (head column) the changed side's place is counted from
    figures: dict | None = None  # name -> Figure; None: every whole-table column (seat columns as name_*)

    def all_measures(self) -> tuple:
        return self.measures or (seat_result(),)


def _seat_columns(df: pd.DataFrame, stem: str, policy: str) -> list[str]:
    names, s = [], 0
    while f"{stem}_{policy}_{s}" in df.columns:
        names.append(f"{stem}_{policy}_{s}")
        s += 1
    if not names:
        raise ValueError(f"missing column '{stem}_{policy}_0': {_EXPECTED}")
    return names


def _column(df: pd.DataFrame, name: str) -> np.ndarray:
    if name not in df.columns:
        raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    return df[name].to_numpy(np.float64)


def _pair(df: pd.DataFrame, stem: str, x: str, y: str) -> np.ndarray:
    """``<stem>_<X>_in_<Y>`` (or ``_vs_``)."""
    for word in ("in", "vs"):
        if f"{stem}_{x}_{word}_{y}" in df.columns:
            return df[f"{stem}_{x}_{word}_{y}"].to_numpy(np.float64)
    raise ValueError(f"missing column '{stem}_{x}_in_{y}': {_EXPECTED}")


def _own(df: pd.DataFrame, stem: str, policy: str, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(the seat's value, every seat's values)`` at the whole ``policy`` table."""
    scores = df[_seat_columns(df, stem, policy)].to_numpy(np.float64)
    return scores[np.arange(len(df)), seat], scores


def seat_result(name: str = "points", *, pair: str = "lone", table: str = "score") -> Measure:
    """The lone seat's result: ``<pair>_<X>_in_<Y>`` at a mixed table, its ``<table>_<Y>_<seat>`` at a whole one."""
    def read(df, x, y, side):
        if y is None:
            return _own(df, table, x, df[side].to_numpy(np.int64))[0]
        return _pair(df, pair, x, y)
    return Measure(name, read)


def seat_edge(name: str = "edge", *, pair: str = "lone", others: str = "others", table: str = "score") -> Measure:
    """The lone seat's result minus the other seats' mean (``<others>_<X>_in_<Y>`` is their sum)."""
    def read(df, x, y, side):
        n = len(_seat_columns(df, table, "heuristic"))
        if y is None:
            own, scores = _own(df, table, x, df[side].to_numpy(np.int64))
            return own - (scores.sum(axis=1) - own) / (n - 1)
        return _pair(df, pair, x, y) - _pair(df, others, x, y) / (n - 1)
    return Measure(name, read)


def _team_sign(team: np.ndarray) -> np.ndarray:
    return np.where(team % 2 == 0, 1.0, -1.0)


def team_result(name: str, column: str) -> Measure:
    """A partnership's result from a team-0-minus-team-1 column: ``<column>_<X>`` or ``<column>_<X>_vs_<Y>``,
    seen from the changed team's side."""
    def read(df, x, y, side):
        values = _column(df, f"{column}_{x}") if y is None else _pair(df, column, x, y)
        return values * _team_sign(df[side].to_numpy(np.int64))
    return Measure(name, read)


def seat_mean(table: str = "score") -> Figure:
    """A seat's mean ``<table>_<policy>_<seat>`` over the seats."""
    return Figure(lambda df, p: df[_seat_columns(df, table, p)].to_numpy(np.float64))


def role_value(role: str, table: str = "score") -> Figure:
    """The ``<table>`` value of the seat named by the head column ``role`` (Barbu: the declarer's score)."""
    return Figure(lambda df, p: _own(df, table, p, df[role].to_numpy(np.int64))[0])


def team_value(column: str, of: str | None = "dealer", *, wins: bool = False) -> Figure:
    """A team-0-minus-team-1 column seen from the team of seat ``of`` (None: team 0; ``wins``: the share of
    deals that team is ahead)."""
    def read(df, p):
        value = _column(df, f"{column}_{p}")
        if of is not None:
            value = value * _team_sign(df[of].to_numpy(np.int64))
        return value > 0 if wins else value
    return Figure(read, share=wins)


# ---------------------------------------------------------------- the report's tables

_EXPECTED = ("expected a strength study (cardlab study <game> strength), one row per deal: the game's head columns, "
             "each whole table's <name>_<policy>[_<seat>] and each pair's <name>_<X>_in_<Y> for random, heuristic "
             "and search")


def ladder_of(meta: dict | None) -> Ladder:
    """The run's game's :class:`Ladder` (``cardlab.analysis.<game>.STRENGTH``), or the default one."""
    game = registered_game(meta)
    if game is None:
        return Ladder()
    from cardlab.sim.games import reports

    return getattr(reports(game.name), "STRENGTH", Ladder())


def _resolve(df, meta, ladder) -> tuple[dict, Ladder]:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    meta = run_meta(df, meta)
    ladder = ladder or ladder_of(meta)
    for name in ("deal", ladder.side) + ((ladder.by,) if ladder.by else ()):
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {_EXPECTED}")
    if len(df) == 0:
        raise ValueError("the DataFrame has no rows: there are no deals to analyse")
    return meta, ladder


def _groups(df: pd.DataFrame, by: str | None) -> list:
    """``[(key, row mask)]``: one group per value of ``by`` (categorical order, else first seen), or all rows."""
    if by is None:
        return [(None, np.ones(len(df), bool))]
    col = df[by]
    order = list(col.cat.categories) if hasattr(col, "cat") else list(dict.fromkeys(col))
    values = col.astype(str).to_numpy()
    return [(key, values == str(key)) for key in order if (values == str(key)).any()]


def _with_group(rows: dict, names: list[str], by: str | None) -> pd.DataFrame:
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index = pd.MultiIndex.from_tuples(table.index, names=[by] + names) if by else (
        pd.MultiIndex.from_tuples(table.index, names=names) if len(names) > 1 else pd.Index(table.index, name=names[0]))
    return table


def _gain(df, ladder: Ladder, measure: Measure, x: str, y: str) -> np.ndarray:
    mixed, base = measure.read(df, x, y, ladder.side), measure.read(df, y, None, ladder.side)
    return base - mixed if ladder.lower_is_better else mixed - base


def strength_gains(df: pd.DataFrame, meta: dict | None = None, *, ladder: Ladder | None = None,
                   level: float = 0.95) -> pd.DataFrame:
    """What the changed side gains per deal by playing ``policy`` instead of ``against`` at a table of ``against``.

    Index (``policy``, ``against``), led by the game's ``by`` column when it has one; columns
    ``deals`` and, per measure ``m`` of the game's :class:`Ladder`, ``m`` with ``m_low``/``m_high``.
    The ladder is the run's game's (from ``meta`` or ``df.attrs``) unless given.

    >>> gains = strength_gains(example_study(), ladder=EXAMPLE)
    >>> [float(gains.loc[p, "points"]) for p in (("search", "heuristic"), ("random", "search"))]
    [3.0, -3.0]
    """
    meta, ladder = _resolve(df, meta, ladder)
    rows = {}
    for key, rows_in in _groups(df, ladder.by):
        part = df[rows_in]
        for x, y in _pairs(ladder_policies(meta)):
            row = {"deals": int(rows_in.sum())}
            for m in ladder.all_measures():
                row[m.name], row[f"{m.name}_low"], row[f"{m.name}_high"] = mean_ci(_gain(part, ladder, m, x, y),
                                                                                  level=level)
            rows[(key, x, y) if ladder.by else (x, y)] = row
    return _with_group(rows, ["policy", "against"], ladder.by)


def _sides(df: pd.DataFrame, ladder: Ladder) -> int:
    if ladder.team:
        return 2
    return len(_seat_columns(df, "score", "heuristic"))


def gains_by_place(df: pd.DataFrame, meta: dict | None = None, *, policy: str = "search", against: str = "heuristic",
                   ladder: Ladder | None = None, level: float = 0.95) -> pd.DataFrame | None:
    """The first measure's gain of ``policy`` against ``against`` by the changed side's place from the game's
    ``place`` seat (the dealer; Barbu's declarer): ``dealer``, ``dealer+1`` …, or for partnerships the
    dealer's team and the other team. None when the game counts no place.

    >>> list(gains_by_place(example_study(), ladder=EXAMPLE).index)
    ['dealer', 'dealer+1']
    """
    meta, ladder = _resolve(df, meta, ladder)
    if ladder.place is None or ladder.place not in df.columns:
        return None
    measure = ladder.all_measures()[0]
    gain = _gain(df, ladder, measure, policy, against)
    n = _sides(df, ladder)
    place = (df[ladder.side].to_numpy(np.int64) - df[ladder.place].to_numpy(np.int64)) % n
    if ladder.team:
        labels = [f"{ladder.place}'s team", "the other team"]
    else:
        labels = [ladder.place] + [f"{ladder.place}+{k}" for k in range(1, n)]
    rows = {}
    for k in range(n):
        if (place == k).any():
            rows[labels[k]] = (int((place == k).sum()), *mean_ci(gain[place == k], level=level))
    return pd.DataFrame.from_dict(rows, orient="index", columns=["deals", measure.name, "low", "high"])


def default_figures(df: pd.DataFrame, ladder: Ladder | None = None, policies=LADDER) -> dict:
    """Every column the whole tables wrote, as figures: ``<name>_<policy>`` (a yes/no column as a share) and
    ``<name>_<policy>_<seat>`` as one figure ``<name>_*``, a seat's mean; head and pair columns are not figures."""
    skip = {"deal", *(((ladder.side, ladder.by, ladder.place)) if ladder else ())}
    pair_column, table_column = _column_patterns(tuple(policies) + ("oracle",))  # the oracle's pairs are no figures
    out = {}
    for column in df.columns:
        if not isinstance(column, str) or column in skip or pair_column.fullmatch(column):
            continue
        m = table_column.fullmatch(column)
        if m is None or m.group(2) != "heuristic":
            continue
        stem, seat = m.group(1), m.group(3)
        if seat is not None:
            out.setdefault(f"{stem}_*", seat_mean(stem))
        elif pd.api.types.is_bool_dtype(df[column]):
            out[stem] = Figure(lambda d, p, s=stem: d[f"{s}_{p}"].to_numpy(bool), share=True)
        elif pd.api.types.is_numeric_dtype(df[column]):
            out[stem] = Figure(lambda d, p, s=stem: d[f"{s}_{p}"].to_numpy(np.float64))
    return out


def _per_deal(values, rows: int, share: bool) -> np.ndarray:
    values = np.asarray(values)
    values = values.reshape(rows, -1).astype(np.float64).mean(axis=1) if values.ndim > 1 else values.astype(np.float64)
    return 100 * values if share else values


def table_figures(df: pd.DataFrame, meta: dict | None = None, *, ladder: Ladder | None = None,
                  level: float = 0.95) -> pd.DataFrame:
    """Each whole table's figures: per figure (and ``by`` group), its value with every seat playing each policy
    (a share in %), and the paired shift of every other policy from the heuristic table with its interval
    (``random_shift``, ``random_low``, ``random_high``, ``search_shift`` …, then your own policies', then the
    oracle's when the ladder has it). A deal
    where a figure is NaN (e.g. the maker's points when no trump is made) is left out of it.

    >>> t = table_figures(example_study(), ladder=EXAMPLE)
    >>> float(t.loc["score_*", "search"]), float(t.loc["score_*", "search_shift"])
    (-3.0, 0.0)
    """
    meta, ladder = _resolve(df, meta, ladder)
    policies = ladder_policies(meta) + (("oracle",) if has_oracle(df, meta) else ())
    figures = ladder.figures if ladder.figures is not None else default_figures(df, ladder, policies)
    rows = {}
    for key, rows_in in _groups(df, ladder.by):
        part = df[rows_in]
        for name, figure in figures.items():
            values = {p: _per_deal(figure.read(part, p), len(part), figure.share) for p in policies}
            row = {p: float(np.nanmean(v)) if np.isfinite(v).any() else np.nan for p, v in values.items()}
            for p in (q for q in policies if q != "heuristic"):
                diff = values[p] - values["heuristic"]
                diff = diff[np.isfinite(diff)]
                row[f"{p}_shift"], row[f"{p}_low"], row[f"{p}_high"] = (mean_ci(diff, level=level) if len(diff)
                                                                        else (np.nan, np.nan, np.nan))
            row["share"] = figure.share
            rows[(key, name) if ladder.by else name] = row
    return _with_group(rows, ["figure"], ladder.by)


# ---------------------------------------------------------------- the ceiling: the oracle


def has_oracle(df: pd.DataFrame, meta: dict | None = None) -> bool:
    """Whether the ladder has the oracle's tables (``--oracle``)."""
    return bool(run_meta(df, meta).get("oracle")) or "lone_oracle_in_search" in df.columns


def oracle_gaps(df: pd.DataFrame, meta: dict | None = None, *, ladder: Ladder | None = None,
                level: float = 0.95) -> pd.DataFrame:
    """The ceiling, per group (Barbu: contract), from a ladder with the oracle: ``gap``, what the changed side gains
    per deal by playing oracle (search over the true deal) instead of search at a table of search players, the
    honest-to-oracle gap; ``oracle`` and ``search``, the gains of each over heuristic at a table of heuristic
    players; ``search_share``, search's gain over heuristic as a share of the oracle's (a delta-method interval).
    Each with ``_low``/``_high``; the first measure of the game's :class:`Ladder`.

    >>> gaps = oracle_gaps(example_study(oracle=True), ladder=EXAMPLE)
    >>> float(gaps.loc["all", "gap"]), float(gaps.loc["all", "search_share"])
    (2.0, 0.2)
    """
    meta, ladder = _resolve(df, meta, ladder)
    if not has_oracle(df, meta):
        raise ValueError("no oracle in this ladder: run the strength study with --oracle (oracle=True)")
    m = ladder.all_measures()[0]
    rows = {}
    for key, rows_in in _groups(df, ladder.by):
        part = df[rows_in]
        row = {"deals": int(rows_in.sum())}
        oracle_h, search_h = _gain(part, ladder, m, "oracle", "heuristic"), _gain(part, ladder, m, "search", "heuristic")
        for name, values in (("gap", _gain(part, ladder, m, "oracle", "search")), ("oracle", oracle_h),
                             ("search", search_h)):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(values, level=level)
        row["search_share"], row["search_share_low"], row["search_share_high"] = ratio_ci(search_h, oracle_h,
                                                                                          level=level)
        rows[key if ladder.by else "all"] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = ladder.by or "deals"
    return table


def inference_share(on: pd.DataFrame, off: pd.DataFrame, *, ladder: Ladder | None = None,
                    level: float = 0.95) -> pd.DataFrame:
    """The share of the honest-to-oracle gap that the search's inference closes, per group, from two ladders with
    the oracle on the same deals and seed, the search's inference ``on`` and ``off``.

    At a table of heuristic players (the same in both runs, deal by deal), ``gain`` is what one side gains by
    searching with inference instead of without (paired per deal), ``gap`` what it would gain by seeing the
    deal instead of searching without inference (oracle minus search), and ``share`` = ``gain / gap`` with a
    delta-method interval. Columns ``deals``, each with ``_low``/``_high``.

    >>> base = example_study(oracle=True)
    >>> better = example_study(oracle=True, search=-1)
    >>> float(inference_share(better, base, ladder=EXAMPLE).loc["all", "share"])
    0.25
    """
    meta_on, ladder = _resolve(on, None, ladder)
    meta_off, _ = _resolve(off, None, ladder)
    for df, meta in ((on, meta_on), (off, meta_off)):
        if not has_oracle(df, meta):
            raise ValueError("no oracle in this ladder: run both strength studies with --oracle (oracle=True)")
    if len(on) != len(off) or not np.array_equal(on["deal"].to_numpy(), off["deal"].to_numpy()):
        raise ValueError("the two ladders must hold the same deals in the same order (same seed, deals, options)")
    m = ladder.all_measures()[0]
    rows = {}
    for key, rows_in in _groups(on, ladder.by):
        a, b = on[rows_in], off[rows_in]
        gain = _gain(a, ladder, m, "search", "heuristic") - _gain(b, ladder, m, "search", "heuristic")
        gap = _gain(b, ladder, m, "oracle", "heuristic") - _gain(b, ladder, m, "search", "heuristic")
        row = {"deals": int(rows_in.sum())}
        for name, values in (("gain", gain), ("gap", gap)):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(values, level=level)
        row["share"], row["share_low"], row["share_high"] = ratio_ci(gain, gap, level=level)
        rows[key if ladder.by else "all"] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = ladder.by or "deals"
    return table


# ---------------------------------------------------------------- text and figure


def _interval(row, name: str) -> str:
    low, high = row[f"{name}_low"], row[f"{name}_high"]
    return f"{row[name]:+.3f} ({interval(low, high, '+.3f')})" if np.isfinite(low) else f"{row[name]:+.3f} (no CI)"


def format_strength_study(df: pd.DataFrame, meta: dict | None = None, *, ladder: Ladder | None = None,
                          level: float = 0.95) -> str:
    """The strength ladder as text, for every game: the shared header, how far the heuristic is from search,
    every pair's gain, search against heuristic by place, the whole tables' figures.

    >>> text = format_strength_study(example_study(), {"search_worlds": 32}, ladder=EXAMPLE)
    >>> "How far the heuristic is from search" in text and "32 sampled worlds" in text
    True
    """
    meta, ladder = _resolve(df, meta, ladder)
    unit = unit_word(meta)
    who = "partnership" if ladder.team else "seat"
    verb = "saves" if ladder.lower_is_better else "gains"
    lines = run_header(meta, f"strength ladder (paired: the same {unit}s, one {who} changes policy)", count=len(df))
    gains = strength_gains(df, meta, ladder=ladder, level=level)
    measures = [m.name for m in ladder.all_measures()]
    if ladder.by:
        gap = list(gains.xs(("search", "heuristic"), level=("policy", "against")).iterrows())
    else:
        gap = [(None, gains.loc[("search", "heuristic")])]
    lines += ["", f"How far the heuristic is from search: what one {who} {verb} per {unit} by searching at a table "
                  f"of heuristic players ({level:.0%} CI)"]
    for key, row in gap:
        text = ", ".join(f"{m} {_interval(row, m)}" for m in measures)
        lines.append(f"  {key}: {text}" if ladder.by else f"  {text}")
    lines += ["", f"{who.capitalize()} {verb} by playing POLICY instead of AGAINST at a table of AGAINST players "
                  f"(per {unit}, {level:.0%} CI)", table_text(gains)]
    places = gains_by_place(df, meta, ladder=ladder, level=level)
    if places is not None and len(places) > 1:
        lines += ["", f"Search against heuristic by the {who}'s place from the {ladder.place} ({measures[0]} per "
                      f"{unit}, {level:.0%} CI)", table_text(places)]
    if has_oracle(df, meta):
        gaps = oracle_gaps(df, meta, ladder=ladder, level=level)
        lines += ["", f"The ceiling: what one {who} {verb} per {unit} by seeing the true deal (oracle) instead of "
                      f"searching honestly, at a table of search players, the honest-to-oracle gap ({measures[0]}, "
                      f"{level:.0%} CI); the oracle's and search's gains at a table of heuristic players, and "
                      "search's share of the oracle's"]
        for key, row in gaps.iterrows():
            lines.append(f"  {key}: gap {_interval(row, 'gap')}; over heuristic: oracle {_interval(row, 'oracle')}, "
                         f"search {_interval(row, 'search')}, share {_interval(row, 'search_share')}")
    figures = table_figures(df, meta, ladder=ladder, level=level)
    lines += ["", f"Whole tables (every seat one policy): each figure per {unit} (shares in %), and the paired shift "
                  f"of random and search from the heuristic table ({level:.0%} CI)",
              table_text(figures.drop(columns="share"))]
    return "\n".join(lines)


def plot_strength_study(df: pd.DataFrame, meta: dict | None = None, *, fig=None, ladder: Ladder | None = None,
                        level: float = 0.95):
    """The gain of one side changing policy for the key pairs (by group when the game has one), then one small
    panel per whole-table figure (each policy's value; random and search with the paired interval of their
    shift from the heuristic table). A new Figure (no pyplot) unless ``fig``.

    >>> [ax.get_title() for ax in plot_strength_study(example_study(), ladder=EXAMPLE).axes][1]
    'score (mean over sides)'
    """
    from matplotlib.figure import Figure as MplFigure

    meta, ladder = _resolve(df, meta, ladder)
    gains = strength_gains(df, meta, ladder=ladder, level=level)
    figures = table_figures(df, meta, ladder=ladder, level=level)
    names = list(dict.fromkeys(figures.index.get_level_values("figure")))
    cols = 3
    rows = 1 + -(-len(names) // cols)
    fig = fig or MplFigure(figsize=(5 * cols, 3.4 * rows), layout="constrained")
    grid = fig.add_gridspec(rows, cols)
    ax = fig.add_subplot(grid[0, :])
    measure = ladder.all_measures()[0].name
    policies = ladder_policies(meta)
    key_pairs = _key_pairs(policies)
    groups = [k for k, _ in _groups(df, ladder.by)]
    x = np.arange(len(groups))
    width = 0.8 / len(key_pairs)
    for k, (p, q) in enumerate(key_pairs):
        part = gains.xs((p, q), level=("policy", "against"))
        part = part.reindex(groups) if ladder.by else part
        g = part[measure].to_numpy(float)
        err = np.nan_to_num(np.vstack([g - part[f"{measure}_low"], part[f"{measure}_high"] - g]))
        ax.bar(x - 0.4 + width * (k + 0.5), g, width=width, yerr=err, capsize=2, ecolor="0.3",
               color=(("tab:red", "tab:blue", "tab:purple") + _OWN_COLOURS * 2)[k], label=f"{p} against {q}")
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(x, [str(g) for g in groups] if ladder.by else [""])
    unit = unit_word(meta)
    ax.set_ylabel(f"{measure} {'saved' if ladder.lower_is_better else 'gained'} per {unit}")
    ax.set_title(f"Gain of one {'partnership' if ladder.team else 'seat'} changing policy, same {unit}s "
                 f"({level:.0%} CI)")
    ax.legend(fontsize="small")
    from .variants import figure_label

    for i, name in enumerate(names):
        ax = fig.add_subplot(grid[1 + i // cols, i % cols])
        part = figures.xs(name, level="figure") if ladder.by else figures.loc[[name]]
        step = 0.8 / len(policies)
        for k, p in enumerate(policies):
            err = None  # every policy but the heuristic: the paired interval of its shift from the heuristic table
            if f"{p}_shift" in part.columns:
                shift = part[f"{p}_shift"].to_numpy(float)
                err = np.nan_to_num(np.vstack([shift - part[f"{p}_low"], part[f"{p}_high"] - shift]))
            ax.bar(np.arange(len(part)) - 0.4 + step * (k + 0.5), part[p], width=step, color=_colour(p, policies),
                   label=p, yerr=err, capsize=2, ecolor="0.3")
        ax.set_xticks(np.arange(len(part)), [str(g) for g in part.index] if ladder.by else [""])
        ax.set_title(figure_label(name))
        share = bool(part["share"].iloc[0])
        ax.set_ylabel(f"% of {unit}s" if share else f"mean per {unit}")
        if i == 0:
            ax.legend(fontsize="x-small", title=f"paired {level:.0%} CI\nfrom heuristic", title_fontsize="x-small")
    return fig


# ---------------------------------------------------------------- a small example


EXAMPLE = Ladder()  # the default: the lone seat's points, counted from the dealer


def example_study(*, oracle: bool = False, search: int = -2) -> pd.DataFrame:
    """Two deals at a two-seat table small enough to read: every whole table scores -3 at every seat; the
    lone seat (seat 1) scores -6 as a random player and 0 otherwise. With ``oracle`` the ceiling's tables:
    the oracle scores 0 among search players (the search table's -2, when ``search`` is the lone search
    seat's score among heuristic players: -2) and +2 among heuristic players."""
    rows = []
    for deal in (0, 1):
        row = {"deal": deal, "dealer": deal % 2, "lone": 1}
        for p in LADDER:
            row.update({f"score_{p}_{s}": -3 for s in range(2)})
        row.update({f"lone_{x}_in_{y}": (-6 if x == "random" else 0) for x, y in PAIRS})
        if oracle:
            row.update({f"score_search_{s}": -2 for s in range(2)}, lone_search_in_heuristic=search)
            row.update({f"score_oracle_{s}": 0 for s in range(2)}, lone_oracle_in_search=0,
                       lone_oracle_in_heuristic=2)
        rows.append(row)
    return pd.DataFrame(rows)


__all__ = ["Figure", "Ladder", "Measure", "default_figures", "format_strength_study", "gains_by_place", "has_oracle",
           "inference_share", "oracle_gaps", "plot_strength_study", "role_value", "seat_edge", "seat_mean",
           "seat_result", "strength_gains", "table_figures", "team_result", "team_value"]
