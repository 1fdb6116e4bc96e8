"""The simplest Numba player of each game: a legal move by a fixed rule, to start your own from.

Each fits its game's Numba seat (``cardlab.sim.games.game(name).numba_seat`` states the signature) and
goes wherever a policy name goes, e.g. ``simulate(policy=[barbu_lowest, "heuristic", "heuristic",
"heuristic"])``. The seat's other decisions (Barbu's Domino, Euchre's bids, Rami's draws and melds) stay
the heuristic's. ``python -m cardlab.sim.warm`` plays them to compile every game's kernels for a Numba
seat: the kernels are compiled once per signature, not once per function, so any player of the same
game then finds them cached.
"""
from numba import njit

from cardlab.sim.cards import ZERO, ctz, lowest_card

MINCHIATE_SUIT_BASE = 41  # Minchiate's first card id in the high word (cardlab.sim.minchiate.rules.SUIT_BASE)


@njit(cache=True)
def barbu_lowest(hand, legal, led, best, trump, last, unseen, values, points):
    """Barbu's trick contracts: the legal card of lowest id (the lowest club first)."""
    return lowest_card(legal)


@njit(cache=True)
def euchre5_lowest(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, dealer, upcard, unseen,
                   won):
    """Euchre for five: the legal card of lowest id."""
    return lowest_card(legal)


@njit(cache=True)
def minchiate_lowest(hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_card, partner_wins, unseen_lo, unseen_hi):
    """Minchiate: the legal card of lowest id (trumps first, then the Matto, then the suits)."""
    return ctz(legal_lo) if legal_lo != ZERO else ctz(legal_hi) + MINCHIATE_SUIT_BASE


@njit(cache=True)
def rami_costliest(hand, forbidden, opened, opponent_close, values):
    """Rami's discard: the kind held worth the most penalty points that may go (ties: the lowest kind)."""
    best = -1
    for k in range(53):
        if hand[k] > 0 and k != forbidden and (best < 0 or values[k] > values[best]):
            best = k
    return best


@njit(cache=True)
def hearts_lowest(hand, legal, n, led, win_card, trick, seen, broken):
    """Hearts: the legal card of lowest id (the lowest club first)."""
    return lowest_card(legal)


#: The example player of each game, by game name.
BY_GAME = {"barbu": barbu_lowest, "euchre5": euchre5_lowest, "minchiate": minchiate_lowest, "rami": rami_costliest,
           "hearts": hearts_lowest}
