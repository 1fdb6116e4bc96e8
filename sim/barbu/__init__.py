"""Barbu: trick-taking compendium (rules in ``shared/rules/barbu.md``)."""
from sim.barbu.rules import CONTRACT_NAMES, TRICK_CONTRACTS, BarbuOptions
from sim.barbu.simulate import Study, replay, simulate

__all__ = ["BarbuOptions", "CONTRACT_NAMES", "TRICK_CONTRACTS", "Study", "replay", "simulate"]
