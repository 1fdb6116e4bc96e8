"""The balance study's report, for every game: the value found, its uncertainty, every evaluation made
and a plot of the figure against the value.

Input: a balance study (``cardlab study <game> balance --tune NAME --target EXPR``;
:mod:`cardlab.sim.balance`), one row per evaluation (``value``, ``deals``, ``left`` and ``right``,
the target's two sides, and ``gap`` = left - right, each with its 95% interval, ``stage``), its
metadata holding the option tuned, the target and the ``answer``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .common import run_header, run_meta, unit_word
from .stats import interval


def latest(df: pd.DataFrame) -> pd.DataFrame:
    """Each value's evaluation on the most deals, by value."""
    return df.sort_values(["value", "deals"]).groupby("value", as_index=False).last()


def format_balance(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The answer (the value, its neighbours and uncertainty, or the closest value when none reaches the target),
    then every evaluation in the order made."""
    meta = run_meta(df, meta)
    unit = unit_word(meta)
    name, goal = meta.get("tune", "value"), meta.get("target", "left = right")
    left, right = goal.split(" = ", 1)
    low, high = (meta.get("range") or [df["value"].min(), df["value"].max()])[:2]
    answer = meta.get("answer") or {}
    lines = [*run_header(meta, f"balance study: {name} from {low} to {high}, at most {meta.get('deals', 0):,} "
                               f"{unit}s a value", count=int(df["deals"].max()) if len(df) else 0),
             f"target: {goal} (gap = {left} - {right}; 95% intervals over {unit}s, every value on the same {unit}s)",
             "", f"answer: {answer.get('text', '(none recorded)')}"]
    if answer.get("reached"):
        lines.append(f"the gap crosses 0 near {name} = {answer['crossing']:.4g} (a line through the two neighbours)")
    width = max([len(name), *(len(str(v)) for v in df["value"])])
    lines += ["", f"every evaluation ({len(df)}, in the order made):",
              f"  {name:>{width}}  {unit + 's':>9}  {left:>24}  {right:>24}  {'gap':>24}"]
    for r in df.itertuples():
        lines.append(f"  {str(r.value):>{width}}  {r.deals:>9,}  {_with_ci(r.left, r.left_low, r.left_high)}  "
                     f"{_with_ci(r.right, r.right_low, r.right_high)}  {_with_ci(r.gap, r.low, r.high)}")
    return "\n".join(lines)


def _with_ci(value, low, high) -> str:
    if np.isnan(low) or low == high:
        return f"{value:>24.4g}"
    return f"{value:+9.4g} ({interval(low, high, '+.3g')})".rjust(24)


def plot_balance(df: pd.DataFrame, meta: dict | None = None, *, fig=None):
    """Left: the target's two sides against the value tuned over the values tried (each at its most deals, with
    95% intervals), the answer marked. Right: the gap near the answer, every evaluation, one series per number
    of deals (the search plays more deals there). A new constrained-layout Figure (no pyplot) unless ``fig``."""
    from .plots import new_figure

    meta = run_meta(df, meta)
    name, goal = meta.get("tune", "value"), meta.get("target", "left = right")
    left, right = goal.split(" = ", 1)
    fig = new_figure(fig, (11, 4.5))
    ax, near = fig.subplots(1, 2, width_ratios=(3, 2))
    last = latest(df)
    x = last["value"].to_numpy(float)
    for side, label, color in (("left", left, "C0"), ("right", right, "C1")):
        y, lo, hi = (last[c].to_numpy(float) for c in (side, f"{side}_low", f"{side}_high"))
        if side == "right" and _is_number(right):
            ax.axhline(float(right), color=color, lw=1, ls="--", label=f"target {right}")
            continue
        ax.errorbar(x, y, yerr=np.nan_to_num(np.vstack([y - lo, hi - y])), fmt="o-", ms=4, capsize=3, color=color,
                    label=label)
    answer = meta.get("answer") or {}
    for axis in (ax, near):
        if answer.get("reached"):
            axis.axvspan(answer["low"], answer["high"], color="grey", alpha=0.15, label="uncertainty")
            axis.axvline(answer["value"], color="grey", lw=1, label=f"{name} = {answer['value']}")
        elif answer:
            axis.axvline(answer["value"], color="grey", lw=1, ls=":", label=f"closest: {name} = {answer['value']}")
    ax.set_xlabel(name)
    ax.set_ylabel("figure (95% CI)")
    ax.set_title(f"balance: {goal}", fontsize=10)
    ax.legend(fontsize=8)
    low, high = answer.get("low", x.min()), answer.get("high", x.max())
    span = max(high - low, 1) * 2
    close = df[(df["value"] >= low - span) & (df["value"] <= high + span)]
    for deals, part in close.groupby("deals"):
        part = part.sort_values("value")
        y = part["gap"].to_numpy(float)
        near.errorbar(part["value"], y, yerr=np.nan_to_num(np.vstack([y - part["low"], part["high"] - y])), fmt="o",
                      ms=4, capsize=3, label=f"{deals:,} {unit_word(meta)}s")
    if np.allclose(x, np.round(x)):  # an integer option: ticks on its values
        from matplotlib.ticker import MaxNLocator

        for axis in (ax, near):
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    near.axhline(0, color="black", lw=0.8)
    near.set_xlabel(name)
    near.set_ylabel(f"gap: {left} - {right} (95% CI)")
    near.set_title("near the answer: every evaluation", fontsize=10)
    near.legend(fontsize=8)
    return fig


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


REPORT = (format_balance, plot_balance)

__all__ = ["REPORT", "format_balance", "latest", "plot_balance"]
