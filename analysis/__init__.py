"""Reports, statistics and plots for cardlab simulation results.

>>> from analysis import load_run, summary, format_report  # doctest: +SKIP
>>> df, meta = load_run("runs/study.parquet")  # doctest: +SKIP
>>> print(format_report(df, meta))  # doctest: +SKIP
"""

from .io import load_run
from .plots import plot_contract_scores, plot_score_distributions, save_figure
from .report import format_report, score_shares, seat_scores, summary
from .stats import mean_ci, proportion_ci

__all__ = [
    "format_report",
    "load_run",
    "mean_ci",
    "plot_contract_scores",
    "plot_score_distributions",
    "proportion_ci",
    "save_figure",
    "score_shares",
    "seat_scores",
    "summary",
]
