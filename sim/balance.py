"""The balance study of every game: the value of one numeric option that brings a balance figure to a target.

    cardlab study rami balance --tune open_threshold --target "blocked = 5" --range 20:80
    cardlab study barbu balance --tune queen --target "edge(no-queens) = edge(no-hearts)"

``tune`` names a numeric option of the game: an integer with a declared range (``open_threshold``,
0 to 10,000), an option whose choices are numbers (``players``: 3, 4 or 5), or an integer without
bounds, which then needs ``range`` (``--range LO:HI``); ``range`` also narrows a declared one. The
values tried are the option's grain: every integer from ``lo`` to ``hi`` (or each choice between).

``target`` is ``FIGURE = NUMBER`` or ``FIGURE = FIGURE``: a figure is one the game declares
(:meth:`Game.figures <cardlab.sim.game.Game.figures>`: its variant figures and its own balance
figures), ``name`` or ``name(arg)`` for a figure read on the deals of one kind (Barbu's
``edge(no-queens)``, the declarer's edge on the No Queens deals). The study looks for the value
where the *gap*, left side minus right side, changes sign.

The search (:func:`search`) is paired: every value is played on the same deals ``first_deal``,
``first_deal + 1`` … (common random numbers), so two values differ by the rule alone. It spends
deals where they matter: the first stage plays each value tried on ``deals / 16`` deals (at
least 1,000), brackets the target between the range's ends (or, when they do not bracket it,
between two of nine values spread over the range, played on four times the deals, and again,
while no bracket is found and some of their intervals of the gap hold 0), and narrows the bracket to two neighbouring
values by secant and bisection steps in turn; then only those two values are played on four
times the deals, and again, up to ``deals``. It stops when the answer is pinned to the grain
(the 95% intervals of the gap at the two neighbours exclude 0 on either side) or the deals are
spent: the answer's uncertainty is then the values whose interval of the gap holds 0. The
figure is assumed to move one way with the value near the answer; when no value in the range
reaches the target, the study says so and gives the closest value tried.

One row per evaluation (value, deals, each side's figure and its 95% interval, the gap and its
interval, the stage), in the order made; the metadata's ``answer`` holds the result.
``cardlab.analysis.balance`` reports and plots it.

>>> plan_deals(100_000), plan_deals(2_000), plan_deals(500)
([6250, 25000, 100000], [1000, 2000], [500])
"""
from __future__ import annotations

import math
import re
import sys
from statistics import NormalDist
from typing import Callable, NamedTuple

import numpy as np

from cardlab.sim import runner
from cardlab.sim.game import Figure, StudyKind
from cardlab.sim.options import allowed_of, allowed_text, check_value, declared, is_switch, parse_text
from cardlab.sim.variants import check_single_deals

Z95 = NormalDist().inv_cdf(0.975)  # the normal quantile of a two-sided 95% interval
GROWTH = 4  # each stage plays the bracket's values on this many times the deals of the stage before
FIRST_SHARE = 16  # the first stage plays deals / FIRST_SHARE deals a value ...
FIRST_MIN = 1_000  # ... and at least this many (every deal asked, when fewer)
SCAN = 9  # values spread over the range, tried when its ends do not bracket the target


def plan_deals(deals: int, start: int | None = None) -> list[int]:
    """The deals of each stage: ``start`` (default ``deals / 16``, at least 1,000), four times that, … up to
    ``deals``."""
    n = min(deals, max(FIRST_MIN, math.ceil(deals / FIRST_SHARE)) if start is None else start)
    plan = [n]
    while plan[-1] < deals:
        plan.append(min(deals, plan[-1] * GROWTH))
    return plan


# ---------------------------------------------------------------- the target


class Term(NamedTuple):
    """One side of a target: a figure of the game (with its argument) or a number."""

    text: str
    figure: Figure | None = None
    arg: str | None = None
    number: float | None = None


class Target(NamedTuple):
    """``left = right``; the study brings ``left - right`` (the gap) to 0."""

    text: str
    left: Term
    right: Term


_SIDE = re.compile(r"\s*(?:(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|"
                   r"(?P<name>[A-Za-z_]\w*)\s*(?:\(\s*(?P<arg>[^()]*?)\s*\))?)\s*")


def figures_text(game) -> str:
    """The figures a target of ``game`` may name: ``edge(contract), declarer_edge, score``."""
    return ", ".join(f"{name}({f.by})" if f.by else name for name, f in game.figures().items())


def parse_target(game, text) -> Target:
    """The target ``text`` (``FIGURE = NUMBER`` or ``FIGURE = FIGURE``), its figures checked against the game's
    (:meth:`Game.figures <cardlab.sim.game.Game.figures>`); one ``ValueError`` naming what is wrong."""
    figures = game.figures()
    listed = f"{game.title} figures: {figures_text(game)}"
    first = next(iter(figures))
    if not isinstance(text, str) or text.replace("==", "=").count("=") != 1:
        raise ValueError(f"target: {text!r} is not allowed; write FIGURE = NUMBER or FIGURE = FIGURE, e.g. "
                         f"'{first} = 0'; {listed}")
    sides = []
    for part in text.replace("==", "=").split("="):
        found = _SIDE.fullmatch(part)
        if found is None:
            raise ValueError(f"target: {part.strip()!r} is neither a figure nor a number; write FIGURE = NUMBER or "
                             f"FIGURE = FIGURE; {listed}")
        if found["number"] is not None:
            sides.append(Term(found["number"], number=float(found["number"])))
            continue
        name, arg = found["name"], found["arg"]
        figure = figures.get(name)
        if figure is None:
            raise ValueError(f"target: {name!r} is not a figure of {game.title}; {listed}")
        if figure.by is not None and not arg:
            example = f"{name}({figure.args[0]})" if figure.args else f"{name}(...)"
            raise ValueError(f"target: {name} needs a {figure.by}, e.g. {example}" + (
                f"; choose {allowed_text(figure.args)}" if figure.args else ""))
        if figure.by is None and arg is not None:
            raise ValueError(f"target: {name} takes no argument; write {name} alone ({listed})")
        if figure.args and arg not in figure.args:
            raise ValueError(f"target: {name}({arg}): {arg!r} is not allowed; choose {allowed_text(figure.args)}")
        sides.append(Term(f"{name}({arg})" if arg else name, figure, arg))
    left, right = sides
    if left.figure is None and right.figure is None:
        raise ValueError(f"target: {text!r} names no figure; {listed}")
    if left.figure is None:
        left, right = right, left
    if left.text == right.text:
        raise ValueError(f"target: {text!r} compares {left.text} with itself; name two figures or a number")
    return Target(f"{left.text} = {right.text}", left, right)


# ---------------------------------------------------------------- the option tuned and its values


def numeric_options(game) -> list[str]:
    """The options of ``game`` that ``tune`` may name (see :func:`tune_values`)."""
    return [f.name for f in declared(game.Options) if _numbers_of(f) is not None]


def _numbers_of(f):
    """The numeric values a field allows: its number choices, ``range`` of its bounds, ``()`` for an integer
    without bounds; None for an option that is not numeric."""
    if is_switch(f):
        return None
    if f.metadata["choices"] is not None:
        numbers = sorted(v for v in f.metadata["choices"] if isinstance(v, int) and not isinstance(v, bool))
        return tuple(numbers) if len(numbers) >= 2 else None
    if f.metadata["between"] is not None:
        low, high = f.metadata["between"]
        return range(low, high + 1)
    return () if isinstance(f.default, int) and not isinstance(f.default, bool) else None


def tune_values(game, base, tune, range_=None):
    """``(name, values)``: the option ``tune`` names and the values it is tried at, in increasing order (a
    ``range`` or a tuple): its declared bounds or number choices, narrowed by ``range_`` (``"lo:hi"`` or
    ``(lo, hi)``), which an integer option without bounds needs. One ``ValueError`` naming what is wrong."""
    known = {f.name: f for f in declared(game.Options)}
    name = str(tune).strip().lstrip("-").replace("-", "_")
    numeric = ", ".join(numeric_options(game)) or "none"
    if name not in known:
        raise ValueError(f"tune: {tune!r} is not an option of {game.title}; its numeric options: {numeric}")
    f = known[name]
    values = _numbers_of(f)
    if values is None:
        raise ValueError(f"tune: {name} is not numeric (it takes {allowed_of(f)}); numeric options of {game.title}: "
                         f"{numeric}")
    check_single_deals(game, base, [name], flag="tune", study_name="balance")
    if range_ is None:
        if values == ():
            raise ValueError(f"range: {name} has no declared range; give --range LO:HI (range=(lo, hi) in Python), "
                             f"e.g. --range 0:{max(10, 2 * int(f.default))}")
        return name, values
    low, high = _read_range(f, range_)
    if values == ():
        return name, range(low, high + 1)
    if isinstance(values, range):
        for bound in (low, high):
            try:
                check_value(f, bound)
            except ValueError as err:
                raise ValueError(f"range: {err}") from None
        return name, range(low, high + 1)
    inside = tuple(v for v in values if low <= v <= high)
    if len(inside) < 2:
        raise ValueError(f"range: {low}:{high} holds {len(inside)} of the values {name} takes "
                         f"({allowed_text(values)}); give a range that holds two or more")
    return name, inside


def _read_range(f, range_) -> tuple[int, int]:
    if isinstance(range_, str):
        parts = re.fullmatch(r"\s*([-+]?\d+)\s*:\s*([-+]?\d+)\s*", range_)
        if parts is None:
            raise ValueError(f"range: {range_!r} is not allowed; give LO:HI, two integers, e.g. 0:10")
        low, high = (parse_text(f, p) for p in parts.groups())
    else:
        try:
            low, high = range_
        except (TypeError, ValueError):
            raise ValueError(f"range: {range_!r} is not allowed; give (lo, hi), two integers") from None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            raise ValueError(f"range: {range_!r} is not allowed; give (lo, hi), two integers")
    if low >= high:
        raise ValueError(f"range: {low}:{high} is not allowed; give LO:HI with LO below HI")
    return low, high


# ---------------------------------------------------------------- one value's figures


class Evaluation(NamedTuple):
    """A value played on ``deals`` deals: each side's figure and the gap (left - right), with 95% intervals."""

    value: float
    deals: int
    left: float
    left_low: float
    left_high: float
    right: float
    right_low: float
    right_high: float
    gap: float
    low: float
    high: float
    stage: int


def term_values(term: Term, df) -> tuple[np.ndarray, np.ndarray] | None:
    """Per deal of a plain run's rows ``df``: the figure's value and whether the deal counts (its ``by`` is the
    argument); None for a number."""
    from cardlab.analysis.variants import figure_values

    if term.figure is None:
        return None
    x = figure_values(df, term.figure.of, None, sides=term.figure.sides)
    mask = np.ones(len(df), bool) if term.figure.by is None else \
        (df[term.figure.by].astype(str).to_numpy() == term.arg)
    return x, mask


def _side(term: Term, data, n: int) -> tuple[float, np.ndarray]:
    """A side's figure on the first ``n`` deals and its influence per deal (the mean over the deals that count;
    its variance over deals gives the interval, by the delta method when only some deals count)."""
    if data is None:
        return term.number, np.zeros(n)
    x, mask = data[0][:n], data[1][:n]
    counted = int(mask.sum())
    if counted == 0:
        raise ValueError(f"target: {term.text} has no deals in this run: no deal's {term.figure.by} is {term.arg} "
                         f"(among the first {n})")
    mean = float(x[mask].mean())
    return mean, np.where(mask, x - mean, 0.0) * (n / counted)


def _interval(value: float, influence: np.ndarray) -> tuple[float, float]:
    n = len(influence)
    if n < 2:
        return math.nan, math.nan
    half = Z95 * float(influence.std(ddof=1)) / math.sqrt(n)
    return value - half, value + half


def evaluate(target: Target, left, right, n: int, value, stage: int) -> Evaluation:
    """The :class:`Evaluation` of ``value`` from its sides' per-deal data (:func:`term_values`) on ``n`` deals."""
    a, da = _side(target.left, left, n)
    b, db = _side(target.right, right, n)
    return Evaluation(value, n, a, *_interval(a, da), b, *_interval(b, db), a - b, *_interval(a - b, da - db), stage)


# ---------------------------------------------------------------- the search


class Outcome(NamedTuple):
    """What :func:`search` found, as indices of the values tried."""

    reached: bool  # a value in the range brings the gap to 0 (its sign changes between two neighbours)
    pinned: bool  # the intervals at the two neighbours exclude 0, on either side
    below: int  # the neighbour below the answer (reached), or the closest value (not reached)
    above: int  # the neighbour above
    low: int  # the uncertainty: the answer lies between low and high, the nearest values tried on either side
    high: int  # whose 95% interval of the gap is clear of 0 (or the range's ends)
    deals: int  # the deals of the last stage


def search(gap_at: Callable[[int, int, int], Evaluation], size: int, plan: list[int]) -> Outcome:
    """Find where the gap changes sign over the values ``0 .. size-1`` (indices), ``gap_at(k, deals, stage)``
    giving value ``k``'s :class:`Evaluation` on the first ``deals`` deals. ``plan`` is the deals of each stage
    (:func:`plan_deals`). See the module docstring."""
    stage, n = 0, plan[0]

    def gap(k):
        return gap_at(k, n, stage).gap

    def side(k):
        return gap(k) >= 0

    spread = sorted({round(i * (size - 1) / (SCAN - 1)) for i in range(SCAN)})

    def scan():
        """A bracket among values spread over the range, or None."""
        return next(((a, b) for a, b in zip(spread, spread[1:]) if side(a) != side(b)), None)

    def settled():
        """Whether every spread value's interval of the gap is clear of 0: then no bracket is not noise."""
        return not any(e.low <= 0 <= e.high for e in (gap_at(k, n, stage) for k in spread))

    def rescan():
        """A bracket by a scan of the range, on more deals while no bracket may be noise; None when none
        is found on all the deals or the scan's intervals all clear 0 on one side."""
        nonlocal stage, n
        while (found := scan()) is None and not settled() and stage < len(plan) - 1:
            stage += 1
            n = plan[stage]
        return found

    a, b = 0, size - 1
    if side(a) == side(b):
        found = rescan()
        if found is None:
            return _closest(gap_at, size, plan, stage)
        a, b = found
    while True:
        a, b = _narrow(gap, a, b)
        ea, eb = gap_at(a, n, stage), gap_at(b, n, stage)
        pinned = (ea.high < 0 < eb.low) or (eb.high < 0 < ea.low)
        if pinned or stage == len(plan) - 1:
            break
        stage += 1
        n = plan[stage]
        if side(a) == side(b):  # more deals moved the answer out of the bracket: walk out to find it again
            found = _walk(gap, a, b, size) or rescan()
            if found is None:
                return _closest(gap_at, size, plan, stage)
            a, b = found
    if pinned:
        return Outcome(True, True, a, b, a, b, n)
    low, high = a, b  # walk out from each neighbour whose interval holds 0 to the first value tried clear of 0
    for k, step in ((a, -1), (b, 1)):
        e, i = gap_at(k, n, stage), 0
        while e.low <= 0 <= e.high and k not in (0, size - 1):  # doubling steps: at most log2(size) of them
            k = min(size - 1, max(0, k + step * 2 ** i))
            e, i = gap_at(k, n, stage), i + 1
        low, high = (k, high) if step < 0 else (low, k)
    return Outcome(True, False, a, b, low, high, n)


def _narrow(gap, a: int, b: int) -> tuple[int, int]:
    """Narrow the bracket ``a < b`` (the gap's sign differs at its ends) to neighbours, on the current deals:
    secant and bisection steps in turn (so never more than twice the bisection's steps)."""
    ga, gb = gap(a), gap(b)
    secant = True
    while b - a > 1:
        k = a + (b - a) * ga / (ga - gb) if secant and ga != gb else (a + b) / 2
        k = min(b - 1, max(a + 1, int(round(k))))
        gk = gap(k)
        if (gk >= 0) == (ga >= 0):
            a, ga = k, gk
        else:
            b, gb = k, gk
        secant = not secant
    return a, b


def _walk(gap, a: int, b: int, size: int):
    """A bracket near ``a < b`` (whose gaps now share a sign), walking outward in doubling steps towards 0: to
    lower values when the gap falls towards 0 there, else to higher ones. None when the range ends first (the
    caller then scans the range again)."""
    down = abs(gap(a)) < abs(gap(b))
    last = a if down else b
    for i in range(size.bit_length() + 1):  # doubling steps reach either end within this many
        if last in (0, size - 1):
            return None
        k = max(0, last - 2 ** i) if down else min(size - 1, last + 2 ** i)
        if (gap(k) >= 0) != (gap(last) >= 0):
            return (k, last) if down else (last, k)
        last = k
    return None


def _closest(gap_at, size, plan, stage) -> Outcome:
    """No bracket: the value tried whose gap is smallest, played on every deal of the plan."""
    tried = {k: gap_at(k, plan[stage], stage) for k in sorted({round(i * (size - 1) / (SCAN - 1))
                                                               for i in range(SCAN)} | {0, size - 1})}
    best = min(tried, key=lambda k: abs(tried[k].gap))
    for later in range(stage + 1, len(plan)):
        gap_at(best, plan[later], later)
    return Outcome(False, False, best, best, best, best, plan[-1])


# ---------------------------------------------------------------- the study


def balance_study(game, *, tune, target, deals: int = 100_000, range=None, start_deals: int | None = None,
                  threads=None, first_deal: int = 0, chunk_size: int | None = None, progress: bool = False, out=None,
                  **keywords):
    """Find the value of the numeric option ``tune`` that brings the ``target`` (``"FIGURE = NUMBER"`` or
    ``"FIGURE = FIGURE"``) true, playing each value tried on at most ``deals`` deals (the first stage on
    ``start_deals``, default ``deals / 16``); ``range=(lo, hi)`` (or ``"lo:hi"``) bounds the values. Returns
    one row per evaluation, the run's metadata (``answer`` among it) in ``DataFrame.attrs["cardlab"]``; with
    ``out``, also writes them to that Parquet file. Keywords: ``seed``, ``policy``, rule options,
    ``variant`` … as :meth:`Game.simulate <cardlab.sim.game.Game.simulate>`. See the module docstring."""
    import pandas as pd

    base, meta, (name, values, goal) = _balance_plan(game, tune=tune, target=target, range=range, **keywords)
    runner.check_span(first_deal, deals)
    if start_deals is not None:
        runner.check_positive_int("start_deals", start_deals, maximum=deals)
    if out is not None:
        runner.refuse_existing(out, meta)
    plan = plan_deals(deals, start_deals)
    played, rows, made = {}, [], {}  # value index -> [deals played, left side's data, right side's]; evaluations

    def gap_at(k, n, stage):
        if (k, n) in made:
            return made[(k, n)]
        value = values[k]
        done, left, right = played.get(k, (0, None, None))
        if done < n:  # the deals after those played already: the same deals for every value
            with runner.run_options(summary=False):
                df = game.run(base.with_options(**{name: value}), "deals", n - done, first=first_deal + done,
                              chunk_size=chunk_size, threads=threads)
            left = _extend(left, term_values(goal.left, df))
            right = _extend(right, term_values(goal.right, df))
            played[k] = (n, left, right)
        result = made[(k, n)] = evaluate(goal, left, right, n, value, stage)
        rows.append(result)
        if progress:
            print(f"balance: {name} = {value} on {n:,} deals: gap {result.gap:+.4g} ({result.low:+.4g} to "
                  f"{result.high:+.4g})", file=sys.stderr, flush=True)
        return result

    runner.set_threads(threads)
    try:
        outcome = search(gap_at, len(values), plan)
    except runner.RunInterrupted:  # Ctrl-C in one value's deals: the study as a whole stops, nothing written
        raise KeyboardInterrupt from None
    frame = pd.DataFrame(rows, columns=Evaluation._fields)
    meta = {**meta, "deals": deals, "first_deal": first_deal, "plan": plan,
            "answer": _answer(outcome, values, made, name, goal, f"{game.unit}s")}
    frame.attrs["cardlab"] = meta
    if out is not None:
        runner.write_frame(frame, out, meta)
    return frame


def _extend(old, new):
    """A side's per-deal data with the next deals' appended (None for a number)."""
    if new is None or old is None:
        return new
    return tuple(np.concatenate([o, p]) for o, p in zip(old, new))


def _answer(outcome: Outcome, values, made: dict, name: str, goal: Target, units: str) -> dict:
    """The answer as the metadata records it: the value (and, reached, its two neighbours and the value where
    the gap crosses 0 between them, read off a line through them), its uncertainty and a sentence."""
    n = outcome.deals
    at = {k: made[(k, n)] for k in (outcome.below, outcome.above)}
    below, above = values[outcome.below], values[outcome.above]
    best = min((outcome.below, outcome.above), key=lambda k: abs(at[k].gap))
    answer = {"reached": outcome.reached, "pinned": outcome.pinned, "value": values[best], "deals": n,
              "low": values[outcome.low], "high": values[outcome.high]}
    if not outcome.reached:
        e = at[best]
        inside = e.low <= 0 <= e.high
        answer["text"] = (f"no value of {name} from {values[0]} to {values[-1]} brings {goal.text}: the gap stays "
                          f"{'above' if e.gap > 0 else 'below'} 0 over the values tried; closest {name} = "
                          f"{values[best]}"
                          f" (gap {e.gap:+.4g}, {e.low:+.4g} to {e.high:+.4g}"
                          + (", whose interval holds 0: more deals or a wider range may reach it)" if inside else ")"))
        return answer
    ga, gb = at[outcome.below].gap, at[outcome.above].gap
    crossing = below + (above - below) * ga / (ga - gb) if ga != gb else below
    answer.update(best=[below, above], crossing=float(crossing))
    if outcome.pinned:
        answer["text"] = (f"{name} = {values[best]}: {goal.text} between {name} = {below} and {above} (gap "
                          f"{ga:+.4g} and {gb:+.4g}, each 95% interval clear of 0 on {n:,} {units})")
    else:
        answer["text"] = (f"{name} = {values[best]}, between {values[outcome.low]} and {values[outcome.high]} (the "
                          f"nearest values tried where the gap's 95% interval is clear of 0 on {n:,} {units}); more "
                          f"{units} narrow it")
    return answer


def balance_metadata(game, *, tune, target, range=None, **keywords) -> dict:
    return _balance_plan(game, tune=tune, target=target, range=range, **keywords)[1]


def _balance_plan(game, *, tune, target, range=None, **keywords):
    """The study's base, its metadata so far and ``(option, values, target)``, every input checked first."""
    base = game.build("deals", study_name="balance", **keywords)
    goal = parse_target(game, target)
    name, values = tune_values(game, base, tune, range)
    for value in (values[0], values[-1]):
        base.with_options(**{name: value})
    meta = {**base.metadata(), "study": "balance", "tune": name, "target": goal.text,
            "range": [values[0], values[-1]], "values": len(values)}
    return base, meta, (name, values, goal)


STUDY = StudyKind("the value of one numeric option (--tune NAME) that brings a figure to a target (--target "
                  "'FIGURE = NUMBER|FIGURE'), by a paired search", balance_study, balance_metadata)

__all__ = ["STUDY", "Evaluation", "Outcome", "Target", "balance_metadata", "balance_study", "numeric_options",
           "parse_target", "plan_deals", "search", "tune_values"]
