"""A check the games' search tests share: a search seat decides only from what it may know."""
from __future__ import annotations

import numpy as np


def hidden_cards_checked(states, searched_move, seat: int = 0) -> tuple[int, int]:
    """At each of ``states`` (a decision of ``seat``, a search seat), ``searched_move(state)`` (the move and its
    candidates' means) is the same in a world resampled from the seat's view, whose observation is the same; the
    oracle's (``searched_move(state, "oracle")``), which sees the deal, is counted where it differs. Returns
    ``(decisions checked, oracle differences)``."""
    rng = np.random.default_rng(0)
    checked = differ = 0
    for state in states:
        move, means = searched_move(state)
        assert move in state.legal_actions() and set(means) <= {a.id for a in state.legal_actions()} and means
        other = state.resample(seat, rng)
        assert other.observation(seat) == state.observation(seat)
        assert searched_move(other) == (move, means)
        checked += 1
        differ += searched_move(other, "oracle") != searched_move(state, "oracle")
    return checked, differ
