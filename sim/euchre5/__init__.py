"""Euchre for five: called-partner Euchre on 28 cards (rules as coded in ``rules.py``).

The facade is the game interface's (:class:`cardlab.sim.game.Game`): :func:`simulate` (hands),
:func:`simulate_games`, :func:`replay`, :func:`replay_game`, the same keywords as every game; the
studies :func:`trump_study` (every maker, every trump) and :func:`strength_study` (the ladder).
"""
from functools import partial

from cardlab.sim import ladder
from cardlab.sim.euchre5.interface import EUCHRE5, Euchre5Study
from cardlab.sim.euchre5.trumps import trump_study as _trump_study
from cardlab.sim.euchre5.rules import Euchre5Options

Study = Euchre5Study
simulate, simulate_games, replay, replay_game = EUCHRE5.simulate, EUCHRE5.simulate_games, EUCHRE5.replay, \
    EUCHRE5.replay_game
trump_study = partial(_trump_study, EUCHRE5)
strength_study = partial(ladder.strength_study, EUCHRE5)

__all__ = ["EUCHRE5", "Euchre5Options", "Study", "replay", "replay_game", "simulate", "simulate_games",
           "strength_study", "trump_study"]
