"""Hearts' built-in players as inline Numba steps: the legal cards, the heuristic's pass and card, random moves.

Cards are ids ``16 * suit + rank`` (:mod:`cardlab.sim.cards`), a hand one ``uint64``. The rules' one
legality function, :func:`legal_nb`, is OpenSpiel's order of checks (``docs/rules/hearts.md``): follow the
led suit; the deal's first card is the 2♣ (the 3♣ with five players, who play without the 2♣; any club with
``can_lead_any_club``); on the first trick (its first card a player) no
heart and no Q♠ while the seat holds anything else (``no_pts_on_first_trick``); no heart led before
hearts are broken while the leader holds anything else (and, with ``can_lead_hearts_instead_of_qs``, a
leader left with only the Q♠ and hearts may lead either); otherwise any card.

The heuristic is a plain avoidance player, deterministic:

* **pass** the three most dangerous cards: the Q♠, then the A♠ and K♠, then the highest cards, a heart
  before another suit's card of the same rank;
* **lead** the lowest card, ♣ before ♦ before ♠ before ♥ among equal ranks;
* **follow** with the highest card that loses to the trick's winner (the Q♠ first, onto a higher
  spade); when every card wins, the last seat (of three, four or five) takes a trick without penalty cards with its
  highest card,
  any other seat plays its lowest; the Q♠ only when nothing else is left;
* **discard** (void in the led suit) the Q♠, else the A♠ or K♠ while the Q♠ is out, else the highest
  heart, else the highest card, from the shortest suit among equal ranks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import LANE, ONE, ZERO, bit, below, ctz, highest_card, lowest_card, nth_card, popcount
from cardlab.sim.hearts.rules import QUEEN_SPADES, R_ANY_CLUB, R_HEARTS_INSTEAD_OF_QS, R_LEAD, R_NO_PTS_FIRST, TWO_CLUBS
from cardlab.sim.rng import below_n

SUIT_MASK = np.uint64(0x1FFF)
CLUB_CARDS = SUIT_MASK
HEART_CARDS = SUIT_MASK << np.uint64(2 * LANE)
SPADE_CARDS = SUIT_MASK << np.uint64(3 * LANE)
QS_BIT = np.uint64(1) << np.uint64(QUEEN_SPADES)
TWO_CLUBS_BIT = np.uint64(1) << np.uint64(TWO_CLUBS)
HIGH_SPADES = (np.uint64(1) << np.uint64(QUEEN_SPADES + 1)) | (np.uint64(1) << np.uint64(QUEEN_SPADES + 2))  # K♠ A♠
PENALTY_CARDS = HEART_CARDS | QS_BIT
LEAD_ORDER = np.array([0, 1, 3, 2], np.int64)  # suits tried among equal ranks when leading: ♣ ♦ ♠ ♥


@njit(cache=True, error_model="numpy", inline="always")
def suit_cards(suit):
    """Every card of ``suit`` as a mask."""
    return SUIT_MASK << np.uint64(LANE * suit)


@njit(cache=True, error_model="numpy", inline="always")
def legal_nb(rules, hand, n, led, played_count, broken, players):
    """The cards ``hand`` may play as the ``n``-th card of the trick (``led`` its suit, -1 when leading), the
    ``played_count``-th card of the deal, with hearts ``broken`` or not, at a table of ``players`` (the first trick's
    cards are the first ``players``; see the module docstring)."""
    if n > 0:
        follow = hand & suit_cards(led)
        if follow != ZERO:
            return follow
    if played_count == 0:
        return hand & CLUB_CARDS if rules[R_ANY_CLUB] else bit(rules[R_LEAD])
    if rules[R_NO_PTS_FIRST] and played_count < players:
        clean = hand & ~PENALTY_CARDS
        if clean != ZERO:
            return clean
    if n == 0:
        allowed = hand if broken else hand & ~HEART_CARDS
        if rules[R_HEARTS_INSTEAD_OF_QS] and allowed == QS_BIT:
            allowed = ZERO
        if allowed != ZERO:
            return allowed
    return hand


@njit(cache=True, error_model="numpy", inline="always")
def danger(c):
    """How much the heuristic wants to pass card ``c``: the Q♠, the A♠ and K♠, then by rank (a heart first)."""
    if c == QUEEN_SPADES:
        return 100
    if c == QUEEN_SPADES + 2:
        return 99
    if c == QUEEN_SPADES + 1:
        return 98
    return 2 * (c % LANE) + (1 if c // LANE == 2 else 0)


@njit(cache=True, error_model="numpy", inline="always")
def heuristic_pass_nb(hand, k):
    """The ``k``-th (0, 1, 2) card the heuristic passes from its dealt ``hand``: the ``k``-th most dangerous."""
    chosen = ZERO
    best = -1
    for _ in range(k + 1):
        best, top = -1, -1
        rest = hand & ~chosen
        while rest != ZERO:
            c = ctz(rest)
            rest &= rest - ONE
            d = danger(c)
            if d > top:
                best, top = c, d
        chosen |= bit(best)
    return best


@njit(cache=True, error_model="numpy", inline="always")
def random_card_nb(stream, cards):
    """A card drawn uniformly from the mask ``cards`` on ``stream``: ``(stream, card)``."""
    stream, k = below_n(stream, popcount(cards))
    return stream, nth_card(cards, k)


@njit(cache=True, error_model="numpy", inline="always")
def shortest_suit_of_rank(hand, legal, rank):
    """The card of ``rank`` in ``legal`` whose suit is shortest in ``hand`` (the higher suit on a tie); -1 if none."""
    best, length = -1, 99
    for suit in range(3, -1, -1):
        c = LANE * suit + rank
        if legal & bit(c) != ZERO:
            m = popcount(hand & suit_cards(suit))
            if m < length:
                best, length = c, m
    return best


@njit(cache=True, error_model="numpy", inline="always")
def heuristic_card_nb(hand, legal, n, win_card, trick, seen, players):
    """The heuristic's card (see the module docstring) from ``legal``, as the ``n``-th card of a trick holding the
    cards ``trick`` and won so far by ``win_card``; ``seen``: every card played before this trick; ``players``: the
    table's (its last seat plays card ``players - 1``)."""
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    if n == 0:
        for rank in range(13):
            for i in range(4):
                c = LANE * LEAD_ORDER[i] + rank
                if legal & bit(c) != ZERO:
                    return c
    if legal & suit_cards(win_card // LANE) != ZERO:  # following suit
        under = legal & below(win_card)
        if under != ZERO:
            return QUEEN_SPADES if under & QS_BIT != ZERO else highest_card(under)
        safe = legal & ~QS_BIT
        if safe == ZERO:
            return QUEEN_SPADES
        if n == players - 1 and trick & PENALTY_CARDS == ZERO:
            return highest_card(safe)
        return lowest_card(safe)
    if legal & QS_BIT != ZERO:  # discarding
        return QUEEN_SPADES
    if (seen | trick | hand) & QS_BIT == ZERO and legal & HIGH_SPADES != ZERO:
        return highest_card(legal & HIGH_SPADES)
    if legal & HEART_CARDS != ZERO:
        return highest_card(legal & HEART_CARDS)
    for rank in range(12, -1, -1):
        c = shortest_suit_of_rank(hand, legal, rank)
        if c >= 0:
            return c
    return lowest_card(legal)
