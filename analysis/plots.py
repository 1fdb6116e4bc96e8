"""Matplotlib figures every game shares (object API only: no pyplot, no GUI backend, no plt.show()).

Score distributions by a grouping key, placings and seat advantage, and ``save_figure``; a game's
own figures (Barbu's in ``barbu_plots``) build on these.
"""

from __future__ import annotations

import warnings

import math
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, StrMethodFormatter

from .games import placings, seat_advantage
from .report import score_keys, score_shares, summary

_COLOURS = ("tab:red", "tab:blue")  # the role seat, the others


MAX_TICKS = 12  # score axes: a tick on every score that occurs, or on round multiples that occur
_NICE_STEPS = (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 25, 50, 100, 200, 500, 1000)


def score_ticks(values) -> np.ndarray:
    """The x ticks of a score axis: every score that occurs, or when there are many, the multiples of
    the smallest round step (2, 5, 10 …) that leaves at most ``MAX_TICKS``, among the scores that occur.

    >>> score_ticks([-12, 0]).tolist(), score_ticks(range(-13, 1)).tolist()
    ([-12, 0], [-12, -10, -8, -6, -4, -2, 0])
    """
    values = np.unique(np.asarray(values))
    if len(values) <= MAX_TICKS:
        return values
    span = int(values[-1] - values[0])
    for step in _NICE_STEPS:
        if span // step + 1 <= MAX_TICKS:
            ticks = values[values % step == 0]
            if len(ticks) >= 2:
                return ticks
    return values[:: math.ceil(len(values) / MAX_TICKS)]


def _draw_shares(ax: Axes, shares: pd.DataFrame, stats: pd.DataFrame, contract) -> None:
    """Side-by-side bars of the score shares (%) of each role for one group, legend (mean ± CI half-width)
    below the axes, where it hides no bar; x ticks on the scores that occur."""
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
        ax.bar(part["score"] + offset, 100 * part["share"], width=width, color=colour, label=label)
    ax.set_title(str(contract))
    ax.set_xlabel("score (points in the deal)")
    ax.set_ylabel("% of the role's seat scores")
    ax.set_xticks(score_ticks(values))
    ax.legend(title="mean ± 95% CI half-width", fontsize="small", title_fontsize="small", ncols=2,
              loc="upper center", bbox_to_anchor=(0.5, -0.22), frameon=False)


def plot_contract_scores(df: pd.DataFrame, contract, *, ax: Axes | None = None, level: float = 0.95,
                         by: str | None = None, role: str | None = None) -> Axes:
    """Plot one contract's score distribution on ``ax`` (declarer vs others bars) and return the Axes.

    x is the score, y the share of the role's seat scores with that score
    (``score_shares``); the legend gives each role's mean ± the half-width of
    its ``level`` confidence interval (``summary``). A new Figure (no pyplot)
    is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu"] * 2, "declarer": [0, 2],
    ...                    "score_0": [0, -20], "score_1": [-20, 0], "score_2": [0, 0]})
    >>> plot_contract_scores(df, "no-barbu", by="contract", role="declarer").get_title()
    'no-barbu'
    """
    by, role = score_keys(df, by, role)
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
                             by: str | None = None, role: str | None = None) -> Figure:
    """Plot one panel per contract (in ``summary`` order) with the score distributions of declarer and others.

    Each panel is drawn like ``plot_contract_scores``: side-by-side bars of
    the share of seat scores at each score for the two roles, titled with the
    contract, with each role's mean ± ``level`` CI half-width in the legend.
    Panels are laid out in up to three columns, on ``fig`` if given (it should
    be empty) or else on a new Figure; nothing is shown, use ``save_figure``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "contract": ["no-barbu", "no-queens"], "declarer": [0, 2],
    ...                    "score_0": [0, -12], "score_1": [-20, 0], "score_2": [0, -12]})
    >>> [ax.get_title() for ax in plot_score_distributions(df, by="contract", role="declarer").axes]
    ['no-barbu', 'no-queens']
    """
    by, role = score_keys(df, by, role)
    stats = summary(df, by=by, role=role, level=level)
    shares = score_shares(df, by=by, role=role)
    contracts = list(stats.index.get_level_values(by).unique())
    ncols = 2 if len(contracts) in (2, 4) else min(3, len(contracts))
    nrows = math.ceil(len(contracts) / ncols)
    if fig is None:
        fig = Figure(figsize=(5 * ncols, 4.2 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, contract in zip(axes, contracts):
        _draw_shares(ax, shares[shares[by] == contract], stats.xs(contract, level=by), contract)
    for ax in axes[len(contracts):]:
        fig.delaxes(ax)
    return fig


def whole_number_axis(axis) -> None:
    """Ticks on whole numbers only: for axes of positions, tricks, hands or rounds (no 2.5th seat)."""
    axis.set_major_locator(MaxNLocator(integer=True))


def plain_numbers(axis) -> None:
    """Tick labels as plain numbers with thousands separators, never a ``1e6`` offset or multiplier."""
    axis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))


def new_figure(fig: Figure | None, size) -> Figure:
    """``fig`` when given, else a new constrained-layout Figure (no pyplot): its layout keeps the run's
    title (``add_run_title``) clear of the panels' titles."""
    return Figure(figsize=size, layout="constrained") if fig is None else fig


def _new_axes(ax: Axes | None, size=(6, 4)) -> Axes:
    return Figure(figsize=size, layout="constrained").add_subplot() if ax is None else ax


def _yerr(table: pd.DataFrame, mean: str, low: str, high: str) -> np.ndarray:
    """Asymmetric error bar lengths (2, k) from interval columns; NaN intervals draw no bar."""
    err = np.vstack([table[mean] - table[low], table[high] - table[mean]]).astype(float)
    return np.nan_to_num(err, nan=0.0)


def plot_placings(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Plot, per seat, the share of games finished at each place (grouped bars with Wilson CI error bars).

    Data from ``games.placings`` (tied seats share the better place), in % of games; a dotted line
    marks 100/n %, the share of a fair seat with no ties; the legend sits below the axes. A new Figure is created only when ``ax`` is None.

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
        ax.bar(x, 100 * part["share"], width=width, color=colours[k], label=f"place {place}",
               yerr=100 * _yerr(part, "share", "ci_low", "ci_high"), capsize=2, ecolor="0.3")
    ax.axhline(100 / len(places), color="0.4", linestyle=":", linewidth=1)
    ax.set_xticks(np.arange(len(seats)), [f"seat {s}" for s in seats])
    ax.set_ylabel("% of games (95% CI)")
    ax.set_title("Finishing places per seat")
    ax.set_ylim(0, 100 * max(float(table["ci_high"].max()), 1 / len(places)) * 1.05)
    ax.legend(fontsize="small", ncols=min(len(places), 5), loc="upper center", bbox_to_anchor=(0.5, -0.08),
              frameon=False)
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


def run_title(meta: dict | None, df: pd.DataFrame | None = None) -> str:
    """A figure's overall title from the run's metadata: game, players, deck, deals (games), seed, policy.

    >>> run_title({"game": "barbu", "options": {"players": 4, "deck": 52}, "deals": 30000, "seed": 7,
    ...            "policies": ["heuristic"] * 4})
    'Barbu · 4 players · 52 cards · 30,000 deals · seed 7 · policy heuristic'
    """
    meta = meta or {}
    options = meta.get("options") if isinstance(meta.get("options"), dict) else {}
    try:
        from cardlab.sim.games import GAMES

        game = GAMES.get(meta.get("game"), meta.get("game"))
    except ImportError:  # analysis used without the engines
        game = meta.get("game")
    parts = [str(game or "cardlab run")]
    if "players" in options:
        parts.append(f"{options['players']} players")
    if "deck" in options:
        parts.append(f"{options['deck']} cards")
    unit = "games" if meta.get("unit") == "game" else "deals"
    count = meta.get(unit)
    if count is None and df is not None:
        count = df["game"].nunique() if unit == "games" and "game" in df.columns else len(df)
    if count is not None:
        from .common import unit_word

        parts.append(f"{count:,} {unit_word(meta)}{'' if count == 1 else 's'}")  # the game's word: hands, rounds
    if meta.get("study"):
        parts.append(f"{meta['study']} study")
    if "seed" in meta:
        parts.append(f"seed {meta['seed']}")
    policies = meta.get("policies")
    if isinstance(policies, list) and policies:
        parts.append("policy " + (policies[0] if len(set(policies)) == 1 else ",".join(policies)))
    return " · ".join(parts)


def add_run_title(fig, meta: dict | None, df: pd.DataFrame | None = None):
    """Put :func:`run_title` over ``fig`` (a Figure, or the Figure of an Axes) and return the Figure.

    >>> add_run_title(Figure(), {"game": "barbu", "deals": 10, "seed": 1}).get_suptitle()
    'Barbu · 10 deals · seed 1'
    """
    fig = getattr(fig, "figure", fig)
    fig.suptitle(run_title(meta, df), fontsize="large")
    band = (0, 0, 1, 1 - min(0.2, 0.5 / fig.get_figheight()))  # the title's own band above the panels' titles
    engine = type(fig.get_layout_engine()).__name__
    if fig.axes and engine != "ConstrainedLayoutEngine":  # a constrained layout makes room for the title itself
        with warnings.catch_warnings():  # "the figure layout has changed to tight": the panels' own tight layout
            warnings.simplefilter("ignore", UserWarning)
            fig.tight_layout(rect=band)
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
