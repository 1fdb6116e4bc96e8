"""Barbu's figures: contracts in whole games, doubling, the trump and contract studies, the games dashboard."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .barbu_games import contract_points, contract_timing, double_payoffs, has_doubles, is_chosen_schedule
from .barbu_studies import contract_value_summary, trump_by_length
from .plots import _new_axes, _yerr, plot_placings, plot_seat_advantage
from .stats import proportion_ci


def plot_contract_points(df: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Plot each contract's share of the game's points (Σ|score| of its deals / Σ|score| of all deals).

    Data from ``games.contract_points``; bars are annotated with the declarer's mean score. A new
    Figure is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"contract": ["no-tricks", "trumps"], "declarer": [0, 1],
    ...                    "score_0": [-3, 6], "score_1": [-1, 12]})
    >>> [t.get_text() for t in plot_contract_points(df).get_xticklabels()]
    ['no-tricks', 'trumps']
    """
    table = contract_points(df)
    ax = _new_axes(ax)
    x = np.arange(len(table))
    bars = ax.bar(x, 100 * table["share"], color="tab:purple")
    ax.bar_label(bars, labels=[f"decl. {v:+.1f}" for v in table["declarer_mean"]], fontsize="x-small")
    ax.set_xticks(x, [str(c) for c in table.index], rotation=30, ha="right")
    ax.set_ylabel("% of game points (Σ|score|)")
    ax.set_title("Where the points are")
    return ax


def plot_contract_timing(df: pd.DataFrame, *, ax: Axes | None = None, by: str = "round") -> Axes:
    """Plot a stacked area of the contracts' shares by round (or deal index) of the game.

    Data from ``games.contract_timing`` (each round's shares sum to 1); in Geronimo it shows which
    contracts the declarers take early and which they keep for last. A new Figure is created only
    when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "declarer": [0, 1, 0, 1],
    ...                    "contract": ["trumps", "domino", "domino", "trumps"],
    ...                    "score_0": [0, 0, 0, 0], "score_1": [0, 0, 0, 0]})
    >>> plot_contract_timing(df, by="deal").get_xlabel()
    'deal'
    """
    table = contract_timing(df, by=by)
    ax = _new_axes(ax)
    colours = matplotlib.colormaps["tab10"](np.arange(table.shape[1]) % 10)
    ax.stackplot(table.index, 100 * table.to_numpy().T, labels=[str(c) for c in table.columns], colors=colours)
    ax.set_xlim(table.index.min(), max(table.index.max(), table.index.min() + 1))
    ax.set_ylim(0, 100)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(by)
    ax.set_ylabel(f"% of the {by}'s deals")
    ax.set_title("Contract timing")
    handles, labels = ax.get_legend_handles_labels()  # top of the stack first, as drawn
    ax.legend(handles[::-1], labels[::-1], fontsize="x-small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    return ax


def plot_double_payoffs(df: pd.DataFrame, *, ax: Axes | None = None, level: float = 0.95) -> Axes:
    """Plot the doubler's mean payoff per contract and target role (declarer or not), with CIs.

    Data from ``games.double_payoffs(df, split_redoubled=False)``: every double counts, redoubled
    or not, so a bar is what making that double is worth on average (intervals with games as
    clusters). Positive bars are doubles that pay. A new Figure is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "contract": ["no-barbu"] * 2, "declarer": [0, 0],
    ...                    "raw_0": [-12, 0], "raw_1": [0, -12], "score_0": [-24, 12], "score_1": [12, -24],
    ...                    "double_0_1": [0, 0], "double_1_0": [1, 1]})
    >>> plot_double_payoffs(df).get_title()
    'Double payoffs to the doubler'
    """
    table = double_payoffs(df, level=level, split_redoubled=False)
    ax = _new_axes(ax)
    contracts = list(table.index.get_level_values("contract").unique())
    targets = [t for t in ("declarer", "non-declarer") if t in table.index.get_level_values("target_role")]
    width = 0.8 / max(len(targets), 1)
    colours = {"declarer": "tab:red", "non-declarer": "tab:blue"}
    for k, target in enumerate(targets):
        part = table.xs(target, level="target_role").groupby(level="contract", observed=True).first()
        part = part.reindex(contracts)
        x = np.arange(len(contracts)) - 0.4 + width * (k + 0.5)
        ax.bar(x, part["mean"], width=width, color=colours[target], label=f"target: {target}",
               yerr=_yerr(part, "mean", "ci_low", "ci_high"), capsize=3, ecolor="0.3")
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(np.arange(len(contracts)), [str(c) for c in contracts], rotation=30, ha="right")
    ax.set_ylabel(f"mean payoff per double ({level:.0%} CI)")
    ax.set_title("Double payoffs to the doubler")
    if targets:  # beside the axes, where it hides no bar
        ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    return ax


def plot_trump_study(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Plot a trump-choice study in two panels and return the Figure.

    Left: the declarer's mean score against the length of the suit played as trump (every suit
    of every deal, ``studies.trump_by_length``). Right: the regret (best − chosen score) of the
    heuristic's chosen suit by its length; the bar labels give how many deals chose such a suit.
    Error bars are ``level`` confidence intervals. Drawn on ``fig`` (empty) or a new Figure.

    >>> import pandas as pd
    >>> row = {"deal": [0, 1], "declarer": [0, 1], "chosen": [0, 1]}
    >>> row.update({f"{k}_t{t}": [v + t, v - t] for k, v in (("score", 9), ("length", 3), ("honours", 1))
    ...             for t in range(4)})
    >>> len(plot_trump_study(pd.DataFrame(row)).axes)
    2
    """
    table = trump_by_length(df, by="length", level=level)
    if fig is None:
        fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    left.errorbar(table.index, table["mean_score"], yerr=_yerr(table, "mean_score", "score_ci_low", "score_ci_high"),
                  marker="o", capsize=3, color="tab:green")
    left.set_xlabel("declarer's cards in the trump suit")
    left.set_ylabel("declarer's mean score (points per deal, 95% CI)")
    left.set_title("Score by trump length (every suit as trump)")
    chosen = table[table["chosen"] > 0]
    bars = right.bar(chosen.index, chosen["regret"], color="tab:orange",
                     yerr=_yerr(chosen, "regret", "regret_ci_low", "regret_ci_high"), capsize=3, ecolor="0.3")
    right.bar_label(bars, labels=[f"{c:,}" for c in chosen["chosen"]], fontsize="x-small", padding=2)
    right.set_xlabel("length of the chosen trump suit")
    right.set_ylabel("mean regret, best − chosen (points per deal)")
    right.set_title("Regret of the chosen suit (labels: deals)")
    for ax in (left, right):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig


def plot_contract_values(df: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Plot, per contract, its mean value when the heuristic picks it vs when it is the best contract.

    Data from ``studies.contract_value_summary`` (value = declarer's score − the contract's average
    declarer score), the blue bars labelled with how often the contract is picked: bars close
    together mean the heuristic picks the contract on the right hands. A new Figure is created only when ``ax`` is None.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "declarer": [0, 1], "pick": ["no-tricks", "trumps"],
    ...                    "value_no_tricks": [2.0, -1.0], "value_trumps": [1.0, -3.0]})
    >>> plot_contract_values(df).get_title()
    'Contract value: when picked vs when best'
    """
    table = contract_value_summary(df).drop(index="all")
    ax = _new_axes(ax)
    x = np.arange(len(table))
    picked = ax.bar(x - 0.2, table["value_when_picked"], width=0.4, color="tab:blue", label="when picked")
    ax.bar_label(picked, labels=[f"{p:.0%}" for p in table["pick_share"]], fontsize="x-small", padding=2)
    ax.bar(x + 0.2, table["value_when_best"], width=0.4, color="tab:green", label="when best")
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(x, [str(c) for c in table.index], rotation=30, ha="right")
    ax.set_ylabel("mean value (score − average declarer score)")
    ax.set_title("Contract value: when picked vs when best")
    ax.legend(fontsize="small")
    return ax


def plot_contract_study(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Plot a contract-value study in two panels, the verdict first, and return the Figure.

    Left, the figure that answers the study: what the heuristic's pick loses against the best
    contract for the hand (best value − picked value, points per deal, ``level`` CI), per picked
    contract and over all deals, labelled with how often the pick was the best. Right: how often
    each contract is picked against how often it is the best one (% of deals, Wilson CIs): a
    contract picked far less often than it is best is one the heuristic overlooks. (A contract's
    mean value is 0 by construction, so it is not plotted.) Drawn on ``fig`` (empty) or a new Figure.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1, 2], "declarer": [0, 1, 2], "pick": ["no-tricks", "trumps", "trumps"],
    ...                    "value_no_tricks": [2.0, -1.0, 0.0], "value_trumps": [1.0, -3.0, 2.0]})
    >>> [ax.get_title().split(" (")[0] for ax in plot_contract_study(df).axes]
    ['What the pick loses against the best contract', 'Picked vs best contract']
    """
    table = contract_value_summary(df, level=level)
    n = int(table.loc["all", "picked"])
    if fig is None:
        fig = Figure(figsize=(13, 4.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    picked = table[table["picked"] > 0]
    x = np.arange(len(picked))
    colours = ["0.35" if name == "all" else "tab:orange" for name in picked.index]
    bars = left.bar(x, picked["loss"], color=colours, yerr=_yerr(picked, "loss", "loss_ci_low", "loss_ci_high"),
                    capsize=3, ecolor="0.3")
    left.bar_label(bars, labels=[f"{100 * v:.0f}%\nbest" for v in picked["pick_is_best"]], fontsize="x-small",
                   label_type="center", color="white")
    left.set_xticks(x, [str(c) for c in picked.index], rotation=30, ha="right")
    left.set_ylabel(f"best − picked value (points per deal, {level:.0%} CI)")
    left.set_title(f"What the pick loses against the best contract ({n:,} deals)")
    contracts = table.drop(index="all")
    x = np.arange(len(contracts))
    for offset, column, colour, label in ((-0.2, "picked", "tab:blue", "picked by the heuristic"),
                                          (0.2, "best", "tab:green", "best contract for the hand")):
        share, low, high = proportion_ci(contracts[column].to_numpy(), np.full(len(contracts), n), level=level)
        err = 100 * np.vstack([share - low, high - share])
        right.bar(x + offset, 100 * share, width=0.4, color=colour, label=label, yerr=err, capsize=2, ecolor="0.3")
    right.set_xticks(x, [str(c) for c in contracts.index], rotation=30, ha="right")
    right.set_ylabel(f"% of deals ({level:.0%} CI)")
    right.set_title("Picked vs best contract (ties: best for each tied contract)")
    right.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.28), ncols=2, frameon=False)
    return fig


def plot_game_report(df: pd.DataFrame, *, fig: Figure | None = None, meta: dict | None = None,
                     level: float = 0.95) -> Figure:
    """Plot a dashboard of a whole-game run and return the Figure.

    Panels: placings (``plot_placings``), seat advantage (``plot_seat_advantage``), contract
    points (``plot_contract_points``), contract timing when the declarers choose (Geronimo, see
    ``games.is_chosen_schedule``; ``meta`` from ``load_run`` decides when given) and double payoffs
    when the run has ``double_i_j`` columns, two to a row; an odd last panel spans its row, so no
    panel is left empty. Drawn on ``fig`` (empty) or a new Figure.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "declarer": [0, 1, 0, 1],
    ...                    "contract": ["no-tricks", "trumps"] * 2, "score_0": [-3, 6, 0, 9],
    ...                    "score_1": [-10, 33, -13, 30]})
    >>> [ax.get_title() for ax in plot_game_report(df).axes][:2]
    ['Finishing places per seat', 'Seat advantage (95% CI)']
    """
    panels = [
        lambda ax: plot_placings(df, ax=ax, level=level),
        lambda ax: plot_seat_advantage(df, ax=ax, level=level),
        lambda ax: plot_contract_points(df, ax=ax),
    ]
    if is_chosen_schedule(df, meta):
        panels.append(lambda ax: plot_contract_timing(df, ax=ax))
    if has_doubles(df):
        panels.append(lambda ax: plot_double_payoffs(df, ax=ax, level=level))
    nrows = math.ceil(len(panels) / 2)
    if fig is None:
        fig = Figure(figsize=(13, 4.6 * nrows), layout="constrained")
    grid = fig.add_gridspec(nrows, 2)
    for k, draw in enumerate(panels):
        last_alone = k == len(panels) - 1 and len(panels) % 2  # an odd last panel spans the row: no empty panel
        draw(fig.add_subplot(grid[k // 2, :] if last_alone else grid[k // 2, k % 2]))
    return fig
