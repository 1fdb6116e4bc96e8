"""Hearts for four with OpenSpiel's rules and options: kernels, policies, search, referee and facade.

The facade is the game interface's (:class:`cardlab.sim.game.Game`): :func:`simulate` (deals),
:func:`simulate_games` (games to ``target``), :func:`replay` and :func:`replay_game`, the same keywords as every
game.

>>> from cardlab.sim import hearts
>>> df = hearts.simulate(deals=100, seed=3)
>>> sorted(set(df.pass_direction.tolist()))
[0, 1, 2, 3]
"""
from cardlab.sim.hearts.interface import HEARTS, HeartsStudy
from cardlab.sim.hearts.rules import HeartsOptions

Study = HeartsStudy
simulate, simulate_games, replay, replay_game = (HEARTS.simulate, HEARTS.simulate_games, HEARTS.replay,
                                                 HEARTS.replay_game)

__all__ = ["HEARTS", "HeartsOptions", "Study", "replay", "replay_game", "simulate", "simulate_games"]
