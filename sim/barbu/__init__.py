"""Barbu: trick-taking compendium (rules as coded in ``docs/rules/barbu.md``)."""
from cardlab.sim.barbu.rules import ALL_CONTRACTS, CONTRACT_NAMES, TRICK_CONTRACTS, BarbuOptions
from cardlab.sim.barbu.simulate import GameStudy, Study, replay, replay_game, simulate, simulate_games
from cardlab.sim.barbu.studies import contract_value_study, trump_study

__all__ = ["ALL_CONTRACTS", "BarbuOptions", "CONTRACT_NAMES", "GameStudy", "Study", "TRICK_CONTRACTS",
           "contract_value_study", "replay", "replay_game", "simulate", "simulate_games", "trump_study"]
