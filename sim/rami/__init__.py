"""Rami: the French two-deck rummy with jokers for 2 to 6 players, scored the Catalan way.

>>> from cardlab.sim.rami import best_opening
>>> best_opening("A♥ 2♥ 3♥ K♠ K♦ K♣ JK 9♣").value
46
"""
from cardlab.sim.rami.melds import Opening, best_opening
from cardlab.sim.rami.rules import RamiOptions, hand_text, parse_hand
from cardlab.sim.rami.simulate import Study, replay, simulate, simulate_games

__all__ = ["Opening", "RamiOptions", "Study", "best_opening", "hand_text", "parse_hand", "replay", "simulate",
           "simulate_games"]
