"""Numba functions for Euchre-for-five's Numba seat (its card play, and its bids as the extra decision ``bid``), and
their Python twin, used by the tests (an importable module, so that process executors can import them by name)."""
from numba import njit

from cardlab.sim.cards import ctz, lowest_card

PASS, ACCEPT, NAME = 196, 197, 192  # the bids' action ids (cardlab.sim.euchre5.rules)


@njit(cache=True)
def lowest(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, dealer, upcard, unseen, won):
    """The legal card of lowest id."""
    return lowest_card(legal)


@njit(cache=True)
def always_pass(hand, upcard, rnd, place, allowed):
    """Pass; a stuck dealer names the lowest suit it may."""
    if allowed >> (PASS - NAME) & 1:
        return PASS
    return NAME + ctz(allowed & 15)


@njit(cache=True)
def always_accept(hand, upcard, rnd, place, allowed):
    """Accept the upcard's suit in round one; pass in round two (a stuck dealer: the heuristic's suit)."""
    if rnd == 1:
        return ACCEPT
    return PASS if allowed >> (PASS - NAME) & 1 else -1


@njit(cache=True)
def heuristic_bid(hand, upcard, rnd, place, allowed):
    """Every bid left to the heuristic."""
    return -1


@njit(cache=True)
def illegal_when_last(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, dealer, upcard, unseen,
                      won):
    """A legal card, except card 63 (not in the deck) when last to play to a trick."""
    if k == 4:
        return 63
    return lowest_card(legal)


@njit(cache=True)
def accept_in_round_two(hand, upcard, rnd, place, allowed):
    """Pass in round one, then ``accept`` (197) in round two, where it is not a legal bid."""
    return PASS if rnd == 1 else ACCEPT


@njit(cache=True)
def two_arguments(hand, legal):
    """The wrong signature."""
    return lowest_card(legal)


@njit(cache=True)
def bid_of_two_arguments(hand, upcard):
    """The wrong signature for a bid."""
    return -1


def lowest_in_python(observation, legal):
    """:func:`lowest` and :func:`always_pass` in Python: pass when allowed, else the action of lowest id (the lowest
    card; a stuck dealer's lowest suit). Its discard and call are not the heuristic's: the twin is compared on hands
    its seat does not deal (never the maker, it never discards or calls)."""
    return next((a for a in legal if a.entry["kind"] == "pass"), None) or min(legal, key=lambda a: a.id)
