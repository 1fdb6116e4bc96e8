"""Numba card functions for Hearts' Numba seat, and the Python twin of one, used by the tests (an importable module,
so that process executors can import them by name)."""
from numba import njit

from cardlab.sim.cards import lowest_card


@njit(cache=True)
def lowest(hand, legal, n, led, win_card, trick, seen, broken):
    """The legal card of lowest id (the lowest club first)."""
    return lowest_card(legal)


@njit(cache=True)
def illegal_when_last(hand, legal, n, led, win_card, trick, seen, broken):
    """A legal card, except card 63 (no card of the deck) when last to play to a trick."""
    if n == 3:
        return 63
    return lowest_card(legal)


@njit(cache=True)
def two_arguments(hand, legal):
    """The wrong signature."""
    return lowest_card(legal)


def lowest_in_python(observation, legal):
    """:func:`lowest` in Python for card play; its passes as the heuristic's are not known here, so the twin is
    compared on deals without passing."""
    return min(legal, key=lambda a: a.id)
