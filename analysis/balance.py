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
    width = max(len(str(v)) for v in df["value"]) if len(df) else 5
    lines += ["", f"every evaluation ({len(df)}, in the order made):",
              f"  {name:>{max(width, len(name))}}  {unit + 's':>9}  {left:>24}  {right:>24}  {'gap':>24}"]
    for r in df.itertuples():
        lines.append(f"  {str(r.value):>{max(width, len(name))}}  {r.deals:>9,}  {_with_ci(r.left, r.left_low, r.left_high)}"
                     f"  {_with_ci(r.right, r.right_low, r.right_high)}  {_with_ci(r.gap, r.low, r.high)}")
    return "\n".join(lines)


def _with_ci(value, low, high) -> str:
    if np.isnan(low) or low == high:
        return f"{value:>24.4g}"
    return f"{value:+9.4g} ({interval(low, high, '+.3g')})".rjust(24)


def plot_balance(df: pd.DataFrame, meta: dict | None = None, *, fig=None):
    """The target's two sides against the value tuned (each value at its most deals, with 95% intervals), the
    answer marked: its neighbours' span, or the closest value when none reaches the target. A new
    constrained-layout Figure (no pyplot) unless ``fig``."""
    from .plots import new_figure

    meta = run_meta(df, meta)
    name, goal = meta.get("tune", "value"), meta.get("target", "left = right")
    left, right = goal.split(" = ", 1)
    fig = new_figure(fig, (7.5, 4.5))
    ax = fig.subplots()
    last = latest(df)
    x = last["value"].to_numpy(float)
    for side, label, color in (("left", left, "C0"), ("right", right, "C1")):
        y, lo, hi = (last[c].to_numpy(float) for c in (side, f"{side}_low", f"{side}_high"))
        if side == "right" and np.allclose(y, y[0]) and np.all(np.isnan(lo)):
            ax.axhline(y[0], color=color, lw=1, ls="--", label=f"{label} (target)")
            continue
        ax.errorbar(x, y, yerr=np.nan_to_num(np.vstack([y - lo, hi - y])), fmt="o-", ms=4, capsize=3, color=color,
                    label=label)
    answer = meta.get("answer") or {}
    if answer.get("reached"):
        ax.axvspan(answer["low"], answer["high"], color="grey", alpha=0.15, label="uncertainty")
        ax.axvline(answer["value"], color="grey", lw=1, label=f"{name} = {answer['value']}")
    elif answer:
        ax.axvline(answer["value"], color="grey", lw=1, ls=":", label=f"closest: {name} = {answer['value']}")
    ax.set_xlabel(f"{name} (each value at its most deals)")
    ax.set_ylabel("figure (95% CI)")
    ax.set_title(f"balance: {goal}", fontsize=10)
    ax.legend(fontsize=8)
    return fig


REPORT = (format_balance, plot_balance)

__all__ = ["REPORT", "format_balance", "latest", "plot_balance"]
