"""Barbu's reports, by kind of run: single deals, whole games, its paired studies and the shared ones.

The deal report is the shared one (score distributions by contract, declarer against the others:
:data:`SCORES`); the strength ladder's is every game's, read through :data:`STRENGTH` (per
contract, the lone seat's place counted from the declarer). What only Barbu has lives in
``barbu_games`` (contracts in a game, doubling), ``barbu_studies`` (trump and contract choice),
``barbu_policies`` (which conclusions change with the policy) and ``barbu_plots``; every name is
reached here, as ``analysis.barbu.<name>``.

>>> sorted(REPORTS)
['contracts', 'deal', 'game', 'options', 'policies', 'strength', 'trumps']
>>> SCORES
{'by': 'contract', 'role': 'declarer'}
"""
from .barbu_games import (contract_points, contract_timing, double_events, double_payoffs, doubling_effects,
                          format_game_report)
from .barbu_plots import (plot_contract_points, plot_contract_study, plot_contract_timing, plot_contract_values,
                          plot_double_payoffs, plot_game_report, plot_trump_study)
from .barbu_policies import (example_policy_comparison, format_policy_conclusions, plot_policy_conclusions,
                             policy_conclusions)
from .barbu_studies import (contract_value_summary, format_contract_study, format_trump_study, trump_by_length,
                            trump_choice_summary)
from .plots import plot_score_distributions
from .report import format_score_report
from .strength import Figure, Ladder, format_strength_study, plot_strength_study, role_value, seat_mean

#: The deal report's grouping column and role seat (``analysis.summary`` and the plots read them for a Barbu run).
SCORES = {"by": "contract", "role": "declarer"}

#: The strength ladder's rows (``sim/barbu/interface.py``'s hooks): the lone seat's points per contract.
STRENGTH = Ladder(by="contract", place="declarer", figures={
    "declarer's score": role_value("declarer"),
    "a seat's score": seat_mean(),
    "seat scores of 0": Figure(lambda df, p: df[[f"score_{p}_{s}" for s in range(_seats(df))]].to_numpy() == 0,
                               share=True),
})


def _seats(df) -> int:
    return sum(1 for c in df.columns if isinstance(c, str) and c.startswith("score_heuristic_"))


REPORTS = {
    "deal": (format_score_report, plot_score_distributions),
    "game": (format_game_report, plot_game_report),
    "trumps": (format_trump_study, plot_trump_study),
    "contracts": (format_contract_study, plot_contract_study),
    "strength": (format_strength_study, plot_strength_study),
    "policies": (format_policy_conclusions, plot_policy_conclusions),
    "options": (lambda df, meta: _variants().format_variants(df, meta), lambda df: _variants().plot_variants(df)),
}


def _variants():
    """The options study's report (every game's: ``analysis.variants``), imported when a run needs it."""
    from . import variants

    return variants


__all__ = ["REPORTS", "SCORES", "STRENGTH", "contract_points", "contract_timing", "contract_value_summary",
           "double_events", "double_payoffs", "doubling_effects", "example_policy_comparison", "format_contract_study",
           "format_game_report", "format_policy_conclusions", "format_trump_study", "plot_contract_points",
           "plot_contract_study", "plot_contract_timing", "plot_contract_values", "plot_double_payoffs",
           "plot_game_report", "plot_policy_conclusions", "plot_trump_study", "policy_conclusions",
           "trump_by_length", "trump_choice_summary"]
