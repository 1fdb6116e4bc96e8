"""Policy kinds with the same integer ids in every game, as the kernels read them.

A seat's policy is one of these names; a game may add its own after them (Barbu: ``classic``),
so ``POLICY_NAMES[id]`` is the name of kernel id ``id`` in every game. Plain Python, imported by
kernels (the ids) and facades (the names) alike.

>>> POLICY.HEURISTIC, SHARED_POLICIES[POLICY.SEARCH]
(1, 'search')
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Policy(NamedTuple):
    """Kernel ids of the policy kinds every game has."""

    RANDOM: int = 0  # a legal move drawn uniformly from the deal's own stream
    HEURISTIC: int = 1  # the game's rule-of-thumb player
    SEARCH: int = 2  # sampled worlds of the hidden cards, each move rolled out (the game's search.py)
    ORACLE: int = 3  # search that sees the true deal, the ceiling of the ladder


POLICY = Policy()
SHARED_POLICIES = ("random", "heuristic", "search", "oracle")
#: The policies a search's rollouts may use, ids as above.
ROLLOUT_POLICIES = ("random", "heuristic")
#: A search seat's play run to its end: no decision at which to stop and report the candidates' means (the step API
#: passes the decision's number). Typed, not a literal: Numba compiles a function again for each literal argument,
#: so every game's kernels passing -1 where the step API passes a number would compile its searched play twice.
NO_STOP = np.int64(-1)
