"""Euchre for five: called-partner Euchre on 28 cards (rules as coded in ``rules.py``)."""
from cardlab.sim.euchre5.rules import Euchre5Options
from cardlab.sim.euchre5.simulate import Study, replay, replay_game, simulate, simulate_games

__all__ = ["Euchre5Options", "Study", "replay", "replay_game", "simulate", "simulate_games"]
