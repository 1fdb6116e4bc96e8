"""A card's points under the options, for every Minchiate kernel (the deal, the combinations, the heuristic).

The kernels receive the scoring values in the options array ``opts``
(:meth:`~cardlab.sim.minchiate.rules.MinchiateOptions.kernel_flags`, indices
:data:`~cardlab.sim.minchiate.rules.OPT`): a counting card is worth its group's points
(:data:`~cardlab.sim.minchiate.rules.POINT_GROUPS`), a blank nothing; inside a combination trump 29 is
worth ``combo_29``. Which cards count is fixed by the groups (each worth at least one point), so the
draws, the discards and the Fola take the same cards whatever the values.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import popcount
from cardlab.sim.minchiate.rules import CARD_GROUP, KING_GROUP, KINGS, MATTO, OPT, POINT_GROUPS, SUIT_BASE, TRUMP_29

#: The trump/Matto word of each point group (the Kings' group holds none); the Kings in the suit word.
LO_GROUPS = np.array([sum(1 << c for c in range(MATTO + 1) if CARD_GROUP[c] == g) for g in range(len(POINT_GROUPS))],
                     dtype=np.uint64)
HI_KINGS = np.uint64(sum(1 << (k - SUIT_BASE) for k in KINGS))


@njit(cache=True, error_model="numpy", inline="always")
def points_nb(opts, c):
    """Points of card ``c`` alone: its group's (0 for a blank, trump 29 among them), one read of ``opts``."""
    return opts[OPT.CARD_POINTS + c]


@njit(cache=True, error_model="numpy", inline="always")
def combo_points_nb(opts, c):
    """Points of card ``c`` inside a combination: its own, trump 29 ``combo_29``."""
    return opts[OPT.COMBO_29] if c == TRUMP_29 else points_nb(opts, c)


@njit(cache=True, error_model="numpy", inline="always")
def pile_value(lo, hi, opts):
    """Card points of a pile (trump 29 counts 0): each group's points times its cards in the pile, by popcount."""
    total = opts[OPT.GROUP_POINTS + KING_GROUP] * popcount(hi & HI_KINGS)
    for g in range(LO_GROUPS.shape[0]):
        total += opts[OPT.GROUP_POINTS + g] * popcount(lo & LO_GROUPS[g])
    return total
