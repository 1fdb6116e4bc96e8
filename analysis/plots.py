"""Matplotlib figures every game shares (object API only: no pyplot, no GUI backend, no plt.show()).

Score distributions by a grouping key, placings and seat advantage, and ``save_figure``; a game's
own figures (Barbu's in ``barbu_plots``) build on these.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .games import placings, seat_advantage
from .report import score_shares, summary

_COLOURS = ("tab:red", "tab:blue")  # the role seat, the others


def _draw_shares(ax: Axes, shares: pd.DataFrame, stats: pd.DataFrame, contract) -> None:
    """Side-by-side bars of the score shares of each role for one group, legend with mean ± CI half-width."""
    values = np.unique(shares["score"].to_numpy())
    step = int(np.gcd.reduce(np.diff(values))) if len(values) > 1 else 1
    width = 0.4 * step
    for offset, role, colour in zip((-width / 2, width / 2), shares["role"].cat.categories, _COLOURS):
        part = shares[shares["role"] == role]
        if part.empty:
            continue
        row = stats.loc[role]
        half = (row["ci_high"] - row["ci_low"]) / 2
        label = f"{role}: {row['mean']:.3f} ± {half:.3f}"
        ax.bar(part["score"] + offset, part["share"], width=width, color=colour, label=label)
    ax.set_title(str(contract))
    ax.set_xlabel("score")
    ax.set_ylabel("share of seat scores")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(title="mean ± CI half-width", fontsize="small", title_fontsize="small")


def plot_contract_scores(df: pd.DataFrame, contract, *, ax: Axes | None = None, level: float = 0.95,
                         by: str = "contract", role: str = "declarer") -> Axes:
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
    if by not in getattr(df, "columns", ()):
        raise ValueError(f"missing column {by!r}: expected the simulator's DataFrame, one row per deal")
    subset = df[df[by] == contract]
    if subset.empty:
        found = ", ".join(map(str, pd.unique(df[by])))
        raise ValueError(f"no deals with {by} {contract!r}; values in the data: {found}")
    if ax is None:
        ax = Figure(figsize=(6, 4), layout="constrained").add_subplot()
    _draw_shares(ax, score_shares(subset, by=by, role=role),
                 summary(subset, by=by, role=role, level=level).xs(contract, level=by), contract)
    return ax


def plot_score_distributions(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95,
                             by: str = "contract", role: str = "declarer") -> Figure:
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
    stats = summary(df, by=by, role=role, level=level)
    shares = score_shares(df, by=by, role=role)
    contracts = list(stats.index.get_level_values(by).unique())
    ncols = min(3, len(contracts))
    nrows = math.ceil(len(contracts) / ncols)
    if fig is None:
        fig = Figure(figsize=(5 * ncols, 3.6 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, contract in zip(axes, contracts):
        _draw_shares(ax, shares[shares[by] == contract], stats.xs(contract, level=by), contract)
    for ax in axes[len(contracts):]:
        fig.delaxes(ax)
    return fig


def _new_axes(ax: Axes | None, size=(6, 4)) -> Axes:
    return Figure(figsize=size, layout="constrained").add_subplot() if ax is None else ax


def _yerr(table: pd.DataFrame, mean: str, low: str, high: str) -> np.ndarray:
    """Asymmetric error bar lengths (2, k) from interval columns; NaN intervals draw no bar."""
    err = np.vstack([table[mean] - table[low], table[high] - table[mean]]).astype(float)
    return np.nan_to_num(err, nan=0.0)


def plot_placings(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Plot, per seat, the share of games finished at each place (grouped bars with Wilson CI error bars).

    Data from ``games.placings`` (tied seats share the better place); a dotted line marks 1/n,
    the share of a fair seat with no ties. A new Figure is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "score_0": [4, 2], "score_1": [0, 3]})
    >>> plot_placings(df).get_title()
    'Finishing places per seat'
    """
    table = placings(df, level=level)
    seats = table.index.get_level_values("seat").unique()
    places = table.index.get_level_values("place").unique()
    ax = _new_axes(ax)
    width = 0.8 / len(places)
    colours = matplotlib.colormaps["viridis"](np.linspace(0.1, 0.9, len(places)))
    for k, place in enumerate(places):
        part = table.xs(place, level="place")
        x = np.arange(len(seats)) - 0.4 + width * (k + 0.5)
        ax.bar(x, part["share"], width=width, color=colours[k], label=f"place {place}",
               yerr=_yerr(part, "share", "ci_low", "ci_high"), capsize=2, ecolor="0.3")
    ax.axhline(1 / len(places), color="0.4", linestyle=":", linewidth=1)
    ax.set_xticks(np.arange(len(seats)), [f"seat {s}" for s in seats])
    ax.set_ylabel("share of games")
    ax.set_title("Finishing places per seat")
    ax.set_ylim(0, 1.25 * max(float(table["ci_high"].max()), 1 / len(places)))  # room for the legend
    ax.legend(fontsize="small", ncols=min(len(places), 5))
    return ax


def plot_seat_advantage(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Plot each seat's edge: mean game total minus the table's mean total, with its confidence interval.

    Data from ``games.seat_advantage``; 0 (dotted) is a perfectly fair seat. A new Figure is
    created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "score_0": [4, 2], "score_1": [0, 3]})
    >>> plot_seat_advantage(df).get_ylabel()
    'seat total − table mean (points per game)'
    """
    table = seat_advantage(df, level=level)
    ax = _new_axes(ax)
    x = np.arange(len(table))
    ax.bar(x, table["edge"], color="tab:blue", yerr=_yerr(table, "edge", "edge_ci_low", "edge_ci_high"),
           capsize=4, ecolor="0.3")
    ax.axhline(0, color="0.4", linestyle=":", linewidth=1)
    ax.set_xticks(x, [f"seat {s}" for s in table.index])
    ax.set_ylabel("seat total − table mean (points per game)")
    ax.set_title(f"Seat advantage ({level:.0%} CI)")
    return ax


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
