"""Reports, statistics and plots for cardlab simulation results.

>>> from cardlab.analysis import load_run, summary, format_report  # doctest: +SKIP
>>> df, meta = load_run("runs/study.parquet")  # doctest: +SKIP
>>> print(format_report(df, meta))  # doctest: +SKIP
>>> games, meta = load_run("runs/games.parquet")  # doctest: +SKIP
>>> print(format_game_report(games, meta))  # doctest: +SKIP
"""

# What every game shares: score distributions by a grouping key, intervals, paired comparisons,
# whole-game totals and placings, plots.
from .games import cluster_mean_ci, game_totals, placings, seat_advantage
from .io import load_run
from .plots import (
    add_run_title,
    plot_contract_scores,
    plot_placings,
    plot_score_distributions,
    plot_seat_advantage,
    run_title,
    save_figure,
)
from .report import format_report, options_that_apply, role_edge, score_shares, seat_scores, summary
from .stats import mean_ci, paired_comparison, proportion_ci

# Barbu's own reports (also reached through the registry: ``analysis.barbu.REPORTS``).
from .barbu_games import (
    contract_points,
    contract_timing,
    double_events,
    double_payoffs,
    doubling_effects,
    format_game_report,
)
from .barbu_plots import (
    plot_contract_points,
    plot_contract_study,
    plot_contract_timing,
    plot_contract_values,
    plot_double_payoffs,
    plot_game_report,
    plot_trump_study,
)
from .strength import format_strength_study, plot_strength_study, strength_distributions, strength_gains
from .strength import format_policy_conclusions, plot_policy_conclusions, policy_conclusions
from .barbu_studies import (
    contract_value_summary,
    format_contract_study,
    format_trump_study,
    trump_by_length,
    trump_choice_summary,
)
from . import barbu  # the registry module (REPORTS, options_that_apply), reached as analysis.barbu

__all__ = [
    "add_run_title",
    "cluster_mean_ci",
    "contract_points",
    "contract_timing",
    "contract_value_summary",
    "double_events",
    "double_payoffs",
    "doubling_effects",
    "format_contract_study",
    "format_game_report",
    "format_report",
    "format_trump_study",
    "game_totals",
    "load_run",
    "mean_ci",
    "options_that_apply",
    "paired_comparison",
    "placings",
    "plot_contract_points",
    "plot_contract_scores",
    "plot_contract_study",
    "plot_contract_timing",
    "plot_contract_values",
    "plot_double_payoffs",
    "plot_game_report",
    "plot_placings",
    "plot_score_distributions",
    "plot_seat_advantage",
    "plot_trump_study",
    "proportion_ci",
    "role_edge",
    "run_title",
    "save_figure",
    "score_shares",
    "seat_advantage",
    "seat_scores",
    "summary",
    "trump_by_length",
    "trump_choice_summary",
    "format_strength_study",
    "format_policy_conclusions",
    "plot_policy_conclusions",
    "policy_conclusions",
    "plot_strength_study",
    "strength_distributions",
    "strength_gains",
]
