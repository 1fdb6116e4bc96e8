"""Barbu: trick-taking compendium (rules as coded in ``docs/rules/barbu.md``).

The facade is the game interface's (:mod:`cardlab.sim.barbu.interface`, on :class:`cardlab.sim.game.Game`):
:func:`simulate` (single deals), :func:`simulate_games`, :func:`replay`, :func:`replay_game`, the same
keywords as every game; the paired studies are :mod:`cardlab.sim.barbu.studies`' (imported when first
used) and the strength ladder :func:`strength_study` (:mod:`cardlab.sim.ladder`).
"""
from cardlab.sim.barbu.interface import BARBU, BarbuGameStudy, BarbuStudy
from cardlab.sim.barbu.rules import ALL_CONTRACTS, CONTRACT_NAMES, TRICK_CONTRACTS, BarbuOptions

Study, GameStudy = BarbuStudy, BarbuGameStudy
simulate, simulate_games, replay, replay_game = BARBU.simulate, BARBU.simulate_games, BARBU.replay, BARBU.replay_game
STUDIES = ("contract_value_study", "lone_gain_study", "policy_comparison_study", "trump_study")


def strength_study(**keywords):
    """Barbu's strength ladder: :func:`cardlab.sim.ladder.strength_study` (per contract; see the interface)."""
    from cardlab.sim.ladder import strength_study

    return strength_study(BARBU, **keywords)


def __getattr__(name):  # the studies import the kernels: only when used
    if name in STUDIES:
        from cardlab.sim.barbu import studies

        return getattr(studies, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ALL_CONTRACTS", "BARBU", "BarbuOptions", "CONTRACT_NAMES", "GameStudy", "Study", "TRICK_CONTRACTS",
           "contract_value_study", "lone_gain_study", "policy_comparison_study", "replay", "replay_game", "simulate",
           "simulate_games", "strength_study", "trump_study"]
