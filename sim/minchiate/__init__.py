"""Minchiate, the Florentine 97-card tarot for two partnerships: kernels, policies, referee and facade.

The facade is the game interface's (:class:`cardlab.sim.game.Game`): :func:`simulate` (deals),
:func:`simulate_games` (games of ``n_deals`` deals), :func:`replay` and :func:`replay_game`, the same
keywords as every game.

>>> from cardlab.sim import minchiate
>>> df = minchiate.simulate(deals=100, seed=3)
>>> sorted(set(df.dealer.tolist()))
[0, 1, 2, 3]
"""
from cardlab.sim.minchiate.interface import MINCHIATE, MinchiateStudy
from cardlab.sim.minchiate.rules import MinchiateOptions, card_name

Study = MinchiateStudy
simulate, simulate_games, replay, replay_game = (MINCHIATE.simulate, MINCHIATE.simulate_games, MINCHIATE.replay,
                                                 MINCHIATE.replay_game)

__all__ = ["MINCHIATE", "MinchiateOptions", "Study", "card_name", "replay", "replay_game", "simulate",
           "simulate_games"]
