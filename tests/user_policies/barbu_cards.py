"""Numba card functions for Barbu's Numba seat, used by the tests (an importable module, so that
process executors can import them by name)."""
from numba import njit

from cardlab.sim.cards import highest_card, lowest_card


@njit(cache=True)
def lowest(hand, legal, led, best, trump, last, unseen, values, points):
    """The lowest legal card (by card id: the lowest club first)."""
    return lowest_card(legal)


@njit(cache=True)
def highest(hand, legal, led, best, trump, last, unseen, values, points):
    """The highest legal card (by card id: the Ace of spades first)."""
    return highest_card(legal)


@njit(cache=True)
def illegal_when_last(hand, legal, led, best, trump, last, unseen, values, points):
    """A legal card, except card 63 (never in a hand) when last to play to a trick."""
    return 63 if last else lowest_card(legal)


@njit(cache=True)
def two_arguments(hand, legal):
    """The wrong signature."""
    return lowest_card(legal)


# ---------------------------------------------------------------- Domino: {"card": lowest, "domino": ...}


@njit(cache=True)
def domino_lowest(hand, legal, table, laid, unseen, counts, may_decline):
    """The lowest playable card (by card id), never declining an Ace's extra turn."""
    return lowest_card(legal)


@njit(cache=True)
def domino_declines(hand, legal, table, laid, unseen, counts, may_decline):
    """Decline an Ace's extra turn whenever allowed, else the highest playable card."""
    return -3 if may_decline else highest_card(legal)


@njit(cache=True)
def domino_heuristic(hand, legal, table, laid, unseen, counts, may_decline):
    """Every move left to the heuristic (-1)."""
    return -1


@njit(cache=True)
def domino_illegal_late(hand, legal, table, laid, unseen, counts, may_decline):
    """A playable card, except card 63 (never in a hand) once the next seat holds fewer cards than it does."""
    return 63 if counts[1] < counts[0] else lowest_card(legal)
