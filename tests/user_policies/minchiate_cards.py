"""Numba card functions for Minchiate's Numba seat, and the Python twin of one, used by the tests (an importable
module, so that process executors can import them by name)."""
from numba import njit

from cardlab.sim.cards import ZERO, ctz

SUIT_BASE = 41  # the high word's first card id (cardlab.sim.minchiate.rules.SUIT_BASE)


@njit(cache=True)
def lowest(hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_card, partner_wins, unseen_lo, unseen_hi):
    """The legal card of lowest id (trumps first, then the Matto, then the suits)."""
    return ctz(legal_lo) if legal_lo != ZERO else ctz(legal_hi) + SUIT_BASE


@njit(cache=True)
def illegal_when_last(hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_card, partner_wins, unseen_lo, unseen_hi):
    """A legal card, except card 97 (no card) when last to play to a trick."""
    if n == 3:
        return 97
    return ctz(legal_lo) if legal_lo != ZERO else ctz(legal_hi) + SUIT_BASE


@njit(cache=True)
def two_arguments(hand_lo, legal_lo):
    """The wrong signature."""
    return ctz(legal_lo)


def lowest_in_python(observation, legal):
    """:func:`lowest` in Python for card play; discards and declarations as the heuristic makes them (the weakest
    cards are not the heuristic's discards, so the twin is only compared on deals where its seat neither cuts nor
    deals; it declares every combination)."""
    if legal[0].entry["kind"] == "declare":
        return max(legal, key=lambda a: a.entry["value"])
    return min(legal, key=lambda a: a.id)
