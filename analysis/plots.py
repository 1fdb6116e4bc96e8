"""Matplotlib figures for simulation results (object API only: no pyplot, no GUI backend, no plt.show())."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .report import ROLES, score_shares, summary

_COLOURS = {"declarer": "tab:red", "others": "tab:blue"}


def _draw_shares(ax: Axes, shares: pd.DataFrame, stats: pd.DataFrame, contract) -> None:
    """Side-by-side bars of the score shares of each role for one contract, legend with mean ± CI half-width."""
    values = np.unique(shares["score"].to_numpy())
    step = int(np.gcd.reduce(np.diff(values))) if len(values) > 1 else 1
    width = 0.4 * step
    for offset, role in zip((-width / 2, width / 2), ROLES):
        part = shares[shares["role"] == role]
        if part.empty:
            continue
        row = stats.loc[role]
        half = (row["ci_high"] - row["ci_low"]) / 2
        label = f"{role}: {row['mean']:.3f} ± {half:.3f}"
        ax.bar(part["score"] + offset, part["share"], width=width, color=_COLOURS[role], label=label)
    ax.set_title(str(contract))
    ax.set_xlabel("score")
    ax.set_ylabel("share of seat scores")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(title="mean ± CI half-width", fontsize="small", title_fontsize="small")


def plot_contract_scores(df: pd.DataFrame, contract, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Plot one contract's score distribution on ``ax`` (declarer vs others bars) and return the Axes.

    x is the score, y the share of the role's seat scores with that score
    (``score_shares``); the legend gives each role's mean ± the half-width of
    its ``level`` confidence interval (``summary``). A new Figure (no pyplot)
    is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu"] * 2, "declarer": [0, 2],
    ...                    "score_0": [0, -20], "score_1": [-20, 0], "score_2": [0, 0]})
    >>> plot_contract_scores(df, "no-barbu").get_title()
    'no-barbu'
    """
    if "contract" not in getattr(df, "columns", ()):
        raise ValueError("missing column 'contract': expected the simulator's DataFrame, one row per deal")
    subset = df[df["contract"] == contract]
    if subset.empty:
        found = ", ".join(map(str, pd.unique(df["contract"])))
        raise ValueError(f"no deals with contract {contract!r}; contracts in the data: {found}")
    if ax is None:
        ax = Figure(figsize=(6, 4), layout="constrained").add_subplot()
    _draw_shares(ax, score_shares(subset), summary(subset, level=level).xs(contract, level="contract"), contract)
    return ax


def plot_score_distributions(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Plot one panel per contract (in ``summary`` order) with the score distributions of declarer and others.

    Each panel is drawn like ``plot_contract_scores``: side-by-side bars of
    the share of seat scores at each score for the two roles, titled with the
    contract, with each role's mean ± ``level`` CI half-width in the legend.
    Panels are laid out in up to three columns, on ``fig`` if given (it should
    be empty) or else on a new Figure; nothing is shown, use ``save_figure``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu", "no-queens"], "declarer": [0, 2],
    ...                    "score_0": [0, -12], "score_1": [-20, 0], "score_2": [0, -12]})
    >>> [ax.get_title() for ax in plot_score_distributions(df).axes]
    ['no-barbu', 'no-queens']
    """
    stats = summary(df, level=level)
    shares = score_shares(df)
    contracts = list(stats.index.get_level_values("contract").unique())
    ncols = min(3, len(contracts))
    nrows = math.ceil(len(contracts) / ncols)
    if fig is None:
        fig = Figure(figsize=(5 * ncols, 3.6 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, contract in zip(axes, contracts):
        _draw_shares(ax, shares[shares["contract"] == contract], stats.xs(contract, level="contract"), contract)
    for ax in axes[len(contracts):]:
        fig.delaxes(ax)
    return fig


def save_figure(fig: Figure, path) -> Path:
    """Save ``fig`` to ``path`` (format from the suffix, e.g. .png or .pdf) at 120 dpi with a tight bounding box.

    Missing parent directories are created; the path is returned.

    >>> import os, tempfile
    >>> fig = Figure()
    >>> _ = fig.add_subplot().plot([0, 1], [1, 0])
    >>> os.path.getsize(save_figure(fig, os.path.join(tempfile.mkdtemp(), "line.png"))) > 0
    True
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    return path
