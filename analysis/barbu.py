"""Barbu's reports, by kind of run: single deals, whole games and the paired studies."""
from .games import format_game_report
from .plots import plot_contract_values, plot_game_report, plot_score_distributions, plot_trump_study
from .report import format_report
from .strength import format_strength_study, plot_strength_study
from .studies import format_contract_study, format_trump_study

REPORTS = {
    "deal": (format_report, plot_score_distributions),
    "game": (format_game_report, plot_game_report),
    "trumps": (format_trump_study, plot_trump_study),
    "contracts": (format_contract_study, plot_contract_values),
    "strength": (format_strength_study, plot_strength_study),
}
