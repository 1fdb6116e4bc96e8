"""Rami: the French two-deck rummy with jokers for 2 to 6 players, scored the Catalan way.

The facade is the game interface's (:class:`cardlab.sim.game.Game`): :func:`simulate` (rounds),
:func:`simulate_games`, :func:`replay` (rounds) and :func:`replay_game` (whole games, round by round), the
same keywords as every game.

>>> from cardlab.sim.rami import best_opening
>>> best_opening("A♥ 2♥ 3♥ K♠ K♦ K♣ JK 9♣").value
46
"""
from cardlab.sim.rami.interface import RAMI, RamiStudy
from cardlab.sim.rami.melds import Opening, best_opening
from cardlab.sim.rami.rules import RamiOptions, hand_text, parse_hand

Study = RamiStudy
simulate, simulate_games, replay, replay_game = RAMI.simulate, RAMI.simulate_games, RAMI.replay, RAMI.replay_game

__all__ = ["Opening", "RAMI", "RamiOptions", "Study", "best_opening", "hand_text", "parse_hand", "replay",
           "replay_game", "simulate", "simulate_games"]
