"""Policies for every Minchiate decision (discards, declarations, plays), selected by integer id.

Hands are two words ``(lo, hi)`` (see :mod:`cardlab.sim.minchiate.rules`). A policy sees its own
hand, the legal cards, the cards of the current trick and which cards it has not yet seen
(``unseen``: not in its hand, not played, not in the face-up Fola, not among the discards it
knows: its own, and everybody's after trick 1).

``random`` (id 0; ids are the shared ones of :mod:`cardlab.sim.policy`): discards a uniformly
random subset of the required size among the legal discards, declares every combination, plays a
uniformly random legal card (the Matto included where legal). Its draws come from the deal's own stream.

``heuristic`` (id 1), rule by rule:

* **Discards** void short suits: repeatedly discard the weakest legal card of the plain suit
  with the fewest cards in hand, suits without their King first (a King can never be
  discarded, so its suit can never be voided); zero-value trumps only when no plain suit card
  is left to discard. A void lets the player trump in and capture counting cards.
* **Declarations**: every combination (points at once; hiding them gains nothing here).
* **Leads**: lead the lowest *sure winner* (no card still unseen can beat it) when there is one
  and unseen trumps remain (it draws the opponents' trumps) or it counts; otherwise the weakest
  zero-value card of the longest plain suit (suits holding our King last: a low lead in the
  King's suit invites a trump on the King's first round); with no plain suit card, the
  cheapest trump. The Matto is led only when nothing else is left.
* **Partner winning** (the partner's card is a sure winner, or we play last): *smear*: give
  the most valuable legal card (Kings, trumps 2-5, 1, 10, 13, 20, 28; trumps from 30 up are
  kept to win tricks of their own).
* **Opponent winning**: when playing last, take the trick with the weakest card that wins;
  otherwise take with the weakest sure winner, else with the weakest winning card if it is
  worth nothing (a counting card is not risked on a trick still open).
* **Saving the Matto**: when the trick goes to the opponents and the cheapest legal card
  counts, the Matto excuses the play instead (it stays with our team for one blank card).
* Otherwise dump the cheapest legal card: blanks before counting cards, suit cards before
  trumps, weak before strong, trump 29 kept (it is worth 5 in a pile combination).
* The King rule needs no care: when it binds, the King is the only legal card.

The heuristic values cards by the run's scoring options (a card's group points, :mod:`.points`), so a
changed value changes what it smears, dumps and saves, as a player would adapt; which cards count
(blanks against counting cards) does not change with the values.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import ONE, ZERO, ctz, highest_card, nth_card, popcount
from cardlab.sim.rng import below_n
from cardlab.sim.minchiate.rules import CARD_GROUP, MATTO, N_TRUMPS, OPT, STRENGTH, SUIT_BASE, TRUMP_29

LO_TRUMPS = np.uint64((1 << N_TRUMPS) - 1)
LO_MATTO = np.uint64(1 << MATTO)
LANE = np.array([np.uint64(0x3FFF) << np.uint64(14 * s) for s in range(4)], dtype=np.uint64)
KING_BIT = np.array([np.uint64(1) << np.uint64(14 * s + 13) for s in range(4)], dtype=np.uint64)
NO_SUIT = -1
TRUMP_SUIT = 4


def _discardable() -> tuple[int, int]:
    lo = sum(1 << c for c in range(N_TRUMPS) if CARD_GROUP[c] < 0 and c != TRUMP_29)
    hi = sum(1 << (c - SUIT_BASE) for c in range(SUIT_BASE, 97) if CARD_GROUP[c] < 0)
    return lo, hi


DISCARD_LO, DISCARD_HI = (np.uint64(m) for m in _discardable())
KEPT_29 = 2  # the points the dumping cost gives trump 29, a blank kept for the pile combinations


def heuristic_tables(points) -> tuple[int, ...]:
    """The heuristic's two card orders under the card ``points`` (by id), for the options array: each card's
    dumping cost (blanks first, suit cards before trumps, weak before strong; 29 kept), then its smearing
    worth (its points, except that trumps from 30 up are kept to win tricks)."""
    cost = [100 * (KEPT_29 if c == TRUMP_29 else int(points[c])) + int(STRENGTH[c]) for c in range(97)]
    smear = [(0 if c < N_TRUMPS and c + 1 >= 30 else int(points[c])) * 100 - int(STRENGTH[c]) for c in range(97)]
    return tuple(cost + smear)


@njit(cache=True, error_model="numpy", inline="always")
def cost_nb(opts, c):
    """Dumping cost of card ``c`` under the options (:func:`heuristic_tables`)."""
    return opts[OPT.DUMP_COST + c]


@njit(cache=True, error_model="numpy", inline="always")
def smear_nb(opts, c):
    """Smearing worth of card ``c`` under the options (:func:`heuristic_tables`)."""
    return opts[OPT.SMEAR_WORTH + c]


@njit(cache=True, error_model="numpy", inline="always")
def card_id(word, b):
    """Card id of bit ``b`` of word 0 (trumps, Matto) or word 1 (suit cards)."""
    return b if word == 0 else b + SUIT_BASE


@njit(cache=True, error_model="numpy", inline="always")
def suit_of_nb(c):
    """0..3 plain suit, 4 trumps, -1 the Matto."""
    if c < N_TRUMPS:
        return TRUMP_SUIT
    if c == MATTO:
        return NO_SUIT
    return (c - SUIT_BASE) // 14


@njit(cache=True, error_model="numpy", inline="always")
def beats(c, w, led):
    """Does card ``c`` beat the trick's winning card ``w`` (``-1``: none yet) with led suit ``led``?"""
    if c == MATTO:
        return False
    if w < 0:
        return True
    if c < N_TRUMPS:
        return w >= N_TRUMPS or c > w
    if w < N_TRUMPS:
        return False
    return suit_of_nb(c) == led and STRENGTH[c] > STRENGTH[w]


@njit(cache=True, error_model="numpy", inline="always")
def sure_winner(c, w, led, unseen_lo, unseen_hi):
    """``c`` beats ``w`` and no unseen card could beat ``c`` afterwards."""
    if not beats(c, w, led):
        return False
    if c < N_TRUMPS:
        higher = unseen_lo & LO_TRUMPS & ~((ONE << np.uint64(c + 1)) - ONE)
        return higher == ZERO
    if unseen_lo & LO_TRUMPS:
        return False
    s = suit_of_nb(c) if led < 0 else led
    m = unseen_hi & LANE[s]
    while m:
        b = ctz(m)
        if STRENGTH[b + SUIT_BASE] > STRENGTH[c]:
            return False
        m &= m - ONE
    return True


@njit(cache=True, error_model="numpy", inline="always")
def random_card(state, legal_lo, legal_hi):
    """A uniformly random legal card."""
    n_lo = popcount(legal_lo)
    state, r = below_n(state, n_lo + popcount(legal_hi))
    if r < n_lo:
        return state, nth_card(legal_lo, r)
    return state, nth_card(legal_hi, r - n_lo) + SUIT_BASE


@njit(cache=True, error_model="numpy", inline="always")  # inlined: an array argument costs a call its refcounts
def heuristic_card(opts, seat, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card,
                   unseen_lo, unseen_hi):
    """The heuristic's card for ``seat`` (see the module docstring for each rule)."""
    plain_lo = legal_lo & ~LO_MATTO
    if plain_lo == ZERO and legal_hi == ZERO:
        return MATTO
    has_matto = legal_lo & LO_MATTO != ZERO
    if n == 0 or win_card < 0:
        return _lead(opts, hand_lo, hand_hi, plain_lo, legal_hi, n, has_matto, unseen_lo, unseen_hi)
    last = n == 3
    partner = (seat + 2) % 4
    partner_sure = win_seat == partner and (last or sure_winner(win_card, -1, led, unseen_lo, unseen_hi))
    best_smear, best_smear_key = -1, -(1 << 30)
    cheapest, cheapest_cost = -1, 1 << 30
    weakest_win, weakest_win_s = -1, 1 << 30
    weakest_sure, weakest_sure_s = -1, 1 << 30
    for word in range(2):
        m = plain_lo if word == 0 else legal_hi
        while m:
            c = card_id(word, ctz(m))
            m &= m - ONE
            smear, cost = smear_nb(opts, c), cost_nb(opts, c)
            if smear > best_smear_key:
                best_smear, best_smear_key = c, smear
            if cost < cheapest_cost:
                cheapest, cheapest_cost = c, cost
            if beats(c, win_card, led):
                if STRENGTH[c] < weakest_win_s:
                    weakest_win, weakest_win_s = c, STRENGTH[c]
                if not last and STRENGTH[c] < weakest_sure_s and sure_winner(c, win_card, led, unseen_lo, unseen_hi):
                    weakest_sure, weakest_sure_s = c, STRENGTH[c]
    if partner_sure:
        return best_smear
    if win_seat != partner:
        if last and weakest_win >= 0:
            return weakest_win
        if weakest_sure >= 0:
            return weakest_sure
        if weakest_win >= 0 and CARD_GROUP[weakest_win] < 0 and weakest_win != TRUMP_29:
            return weakest_win
        if has_matto and CARD_GROUP[cheapest] >= 0:
            return MATTO
    return cheapest


@njit(cache=True, error_model="numpy", inline="always")
def _lead(opts, hand_lo, hand_hi, plain_lo, plain_hi, n, has_matto, unseen_lo, unseen_hi):
    """Lead (or play second after a led Matto): a sure winner, else a blank from the longest suit."""
    unseen_trumps = unseen_lo & LO_TRUMPS
    if unseen_trumps:  # only trumps above every unseen trump are sure: the lowest of them
        top = highest_card(unseen_trumps)
        mine = plain_lo & LO_TRUMPS & ~((ONE << np.uint64(top + 1)) - ONE)
        if mine:
            return ctz(mine)
    else:  # late in the deal: any counting card nobody can beat
        sure, sure_s = -1, 1 << 30
        for word in range(2):
            m = plain_lo if word == 0 else plain_hi
            while m:
                c = card_id(word, ctz(m))
                m &= m - ONE
                if STRENGTH[c] < sure_s and CARD_GROUP[c] >= 0 and sure_winner(c, -1, NO_SUIT, unseen_lo, unseen_hi):
                    sure, sure_s = c, STRENGTH[c]
        if sure >= 0:
            return sure
    best, best_key = -1, -(1 << 30)
    for s in range(4):
        lane = plain_hi & LANE[s]
        blanks = lane & ~KING_BIT[s]
        if blanks == ZERO:
            continue
        key = popcount(hand_hi & LANE[s]) - (100 if hand_hi & KING_BIT[s] else 0)
        if key > best_key:
            weakest, weakest_s = -1, 1 << 30
            m = blanks
            while m:
                c = ctz(m) + SUIT_BASE
                m &= m - ONE
                if STRENGTH[c] < weakest_s:
                    weakest, weakest_s = c, STRENGTH[c]
            best, best_key = weakest, key
    if best >= 0:
        return best
    cheapest, cheapest_cost = -1, 1 << 30
    for word in range(2):
        m = plain_lo if word == 0 else plain_hi
        while m:
            c = card_id(word, ctz(m))
            m &= m - ONE
            cost = cost_nb(opts, c)
            if cost < cheapest_cost:
                cheapest, cheapest_cost = c, cost
    return cheapest


@njit(cache=True, error_model="numpy")
def heuristic_discard_one(hand_lo, hand_hi, legal_lo, legal_hi):
    """One discard: the weakest card of the shortest plain suit (King-less suits first), else a blank trump."""
    best, best_key = -1, 1 << 30
    for s in range(4):
        lane = legal_hi & LANE[s]
        if lane == ZERO:
            continue
        key = popcount(hand_hi & LANE[s]) + (100 if hand_hi & KING_BIT[s] else 0)
        if key < best_key:
            weakest, weakest_s = -1, 1 << 30
            m = lane
            while m:
                c = ctz(m) + SUIT_BASE
                m &= m - ONE
                if STRENGTH[c] < weakest_s:
                    weakest, weakest_s = c, STRENGTH[c]
            best, best_key = weakest, key
    if best >= 0:
        return best
    return ctz(legal_lo)  # the lowest blank trump
