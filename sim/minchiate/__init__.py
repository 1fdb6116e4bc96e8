"""Minchiate, the Florentine 97-card tarot for two partnerships: kernels, policies, referee and facade.

>>> from cardlab.sim import minchiate
>>> df = minchiate.simulate(deals=100, seed=3)
>>> sorted(set(df.dealer.tolist()))
[0, 1, 2, 3]
"""
from cardlab.sim.minchiate.rules import MinchiateOptions, card_name
from cardlab.sim.minchiate.simulate import Study, replay, simulate, simulate_games

__all__ = ["MinchiateOptions", "Study", "card_name", "replay", "simulate", "simulate_games"]
