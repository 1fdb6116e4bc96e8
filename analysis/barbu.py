"""Barbu's reports, by kind of run: single deals, whole games and the two paired studies.

The deal report is the shared one (score distributions by contract, declarer against the others);
what only Barbu has lives in ``barbu_games`` (contracts in a game, doubling), ``barbu_studies``
(trump and contract choice) and ``barbu_plots``.
"""
from .barbu_games import format_game_report
from .barbu_plots import plot_contract_values, plot_game_report, plot_trump_study
from .barbu_studies import format_contract_study, format_trump_study
from .plots import plot_score_distributions
from .report import format_report

REPORTS = {
    "deal": (format_report, plot_score_distributions),
    "game": (format_game_report, plot_game_report),
    "trumps": (format_trump_study, plot_trump_study),
    "contracts": (format_contract_study, plot_contract_values),
}
