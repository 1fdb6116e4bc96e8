"""Barbu's reports, by kind of run: single deals, whole games, its paired studies and the shared ones.

The deal report is the shared one (score distributions by contract, declarer against the others);
what only Barbu has lives in ``barbu_games`` (contracts in a game, doubling), ``barbu_studies``
(trump and contract choice) and ``barbu_plots``.
"""
from .barbu_games import format_game_report
from .barbu_plots import plot_contract_study, plot_game_report, plot_trump_study
from .barbu_studies import format_contract_study, format_trump_study
from .plots import plot_score_distributions
from .report import format_report
from .strength import format_policy_conclusions, format_strength_study, plot_policy_conclusions, plot_strength_study

REPORTS = {
    "deal": (format_report, plot_score_distributions),
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


# Which Barbu options a run's header lists: those that can change its results.
_DEAL_OPTIONS = {  # option -> the contracts it acts on (None: every contract)
    "players": None, "deck": None, "scoring": None,
    "hearts_lead": ("no-hearts", "no-barbu", "salade"), "hearts_lead_salade": ("salade",),
    "kh_forced_discard": ("no-barbu", "salade"), "early_stop": ("no-hearts", "no-queens", "no-barbu"),
    "overtrump_on_trump_lead": ("trumps",), "must_trump": ("trumps",), "overtrump_when_ruffing": ("trumps",),
    "domino_rules": ("domino",), "domino_starter": ("domino",), "ace_replay_optional": ("domino",),
    "domino_table": ("domino",),
}


def options_that_apply(meta: dict) -> dict:
    """The options of a Barbu run that can change its results, for the report header.

    Rule options count when a contract they act on is dealt (the Trumps duties only with Trumps,
    the Domino options only with Domino, the hearts-lead rule with No Hearts, No K♥ or Salade);
    the whole-game options (schedule, contract set, doubling) only in runs of whole games, and the
    doubling details only with doubling.

    >>> meta = {"contracts": ["no-queens"], "options": {"players": 4, "deck": 52, "must_trump": True,
    ...                                                 "geronimo": False, "double": False}}
    >>> options_that_apply(meta)
    {'players': 4, 'deck': 52}
    """
    options = dict(meta.get("options") or {})
    contracts = set(meta.get("contracts") or ())
    games = meta.get("unit") == "game"
    out = {}
    for name, value in options.items():
        if name in _DEAL_OPTIONS:
            acts_on = _DEAL_OPTIONS[name]
            keep = acts_on is None or bool(contracts & set(acts_on)) or not contracts
        elif not games:
            keep = False
        elif name in ("late_redouble", "double_obligation", "skip_undoubled_negative"):
            keep = bool(options.get("double"))
        elif name in ("trumps_in_regular", "regular_cycle", "iterations"):
            keep = not options.get("geronimo")
        elif name == "declarer_blocks":
            keep = bool(options.get("geronimo"))
        else:
            keep = True
        if keep:
            out[name] = value
    return out
