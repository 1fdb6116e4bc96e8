"""Reports, statistics and plots for cardlab simulation results, the same for every game.

A run's rows carry their metadata (``df.attrs["cardlab"]``, as ``simulate`` and ``load_run`` return
them), so ``format_report`` and ``plot_report`` pick the report of the run's game and kind (single
deals, whole games or a study) through the registry. What only one game has lives in its module,
``analysis.<game>`` (``analysis.barbu.format_game_report``, ``analysis.euchre5.format_trump_study`` …).

>>> from cardlab.analysis import load_run, format_report  # doctest: +SKIP
>>> df, meta = load_run("runs/study.parquet")  # doctest: +SKIP
>>> print(format_report(df, meta))  # doctest: +SKIP
"""

# What every game shares: the run's header, score distributions by a grouping key, intervals, paired
# comparisons, whole-game totals and placings, the strength ladder's report, plots.
from .common import options_that_apply, run_header
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
from .report import (format_report, format_score_report, plot_report, role_edge, score_shares, seat_scores,
                     summary)
from .stats import mean_ci, paired_comparison, proportion_ci
from .strength import format_strength_study, plot_strength_study, strength_gains, table_figures

# Each game's own reports, reached as analysis.<game> (and through the registry: games.reports(name)).
from . import barbu, euchre5, hearts, minchiate, rami  # noqa: E402

__all__ = [
    "add_run_title",
    "cluster_mean_ci",
    "format_report",
    "format_score_report",
    "format_strength_study",
    "game_totals",
    "load_run",
    "mean_ci",
    "options_that_apply",
    "paired_comparison",
    "placings",
    "plot_contract_scores",
    "plot_placings",
    "plot_report",
    "plot_score_distributions",
    "plot_seat_advantage",
    "plot_strength_study",
    "proportion_ci",
    "role_edge",
    "run_header",
    "run_title",
    "save_figure",
    "score_shares",
    "seat_advantage",
    "seat_scores",
    "strength_gains",
    "summary",
    "table_figures",
]
