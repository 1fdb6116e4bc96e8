"""Euchre-for-five policies for every decision, selected per seat by an integer id.

``RANDOM`` is uniform over the legal actions of each decision: round one {pass, accept}; the
dealer's discard, one of its six cards (five when it may not discard the upcard); round two
{pass, each of the three other suits} ({the three suits} for a stuck dealer); the call,
{alone} ∪ every callable card; play, every legal card.

``HEURISTIC`` plays by rules of thumb a club player would recognise:

* **Hand strength** for a trump suit (:func:`strength_nb`, in half points): right bower 6,
  left bower 5, trump Ace 4, trump King 3, any other trump 2, each off-suit Ace 2, and 1 for
  each empty plain suit when holding at least two trumps (a chance to ruff). The seat that
  leads first (left of the dealer) adds 1.
* **Round one**: accept when the strength in the upcard's suit reaches ``ACCEPT_AT`` (14, e.g.
  the left bower, the Ace, another trump and an off Ace, with a void). The dealer counts its
  hand after the exchange it would make; a seat other than the dealer subtracts 2 when the
  upcard is a bower or the Ace (it strengthens the dealer, more often an opponent). Measured
  against four random seats over 300,000 hands, the heuristic seat's edge per hand was 0.432
  bidding from 12, 0.434 from 14 and 0.434 from 16 (within noise); from 10 it fell to 0.423.
* **Dealer's discard**: keep every trump and off-suit Ace; throw the lowest plain card, from the
  shortest suit on ties (making a void); a dealer holding the called card (call before the
  exchange) keeps it.
* **Round two**: name the strongest of the three other suits when its strength reaches ``NAME_AT``
  (14); a stuck dealer names its strongest suit whatever it holds.
* **Call**: go alone when the strength reaches ``ALONE_AT`` (20, e.g. both bowers, the Ace and King
  with an off Ace); otherwise call the strongest callable card (the highest trump not held,
  which is the right bower whenever the maker lacks it; an Ace under ``non_trump``).
* **Play**: a seat knows its side only as far as the table does: the partner knows the maker;
  the maker and the defenders learn the partner when the called card appears (and everyone
  knows a lone maker who said so). Leading, an attacker plays the highest trump left when it
  holds it ("pull trumps"), then a card no one can beat, then its lowest plain card; a defender
  leads a card no one can beat in a plain suit, then its lowest plain card. Following, a seat
  whose known ally is winning with a card nobody left can beat (or who plays last) throws its
  lowest card; otherwise it wins as cheaply as it can, or throws its lowest card when it cannot.

Every decision function is inlined into the kernels that call it (``inline="always"``): whole
hands measured 12% faster than with calls.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import LANE, ONE, ZERO, bit, ctz, nth_card, popcount
from cardlab.sim.policy import POLICY, ROLLOUT_POLICIES as POLICY_NAMES  # the shared ids: random 0, heuristic 1
from cardlab.sim.rng import below_n
from cardlab.sim.euchre5.rules import EIGHT, tables

ACCEPT_AT = 14  # round one: accept the upcard's suit from this strength (half points)
NAME_AT = 14  # round two: name a suit from this strength
ALONE_AT = 20  # go alone from this strength
THRESHOLDS = {"accept": ACCEPT_AT, "name": NAME_AT, "alone": ALONE_AT}  # as the trump study records them
UPCARD_PENALTY = 2  # round one, not the dealer: the upcard is a bower or the Ace
FIRST_SEAT_BONUS = 1  # the seat left of the dealer leads the first trick

_T = tables()
SUIT_MASKS = _T.suit_masks  # (trump, effective suit) -> cards
EFF = _T.eff  # (trump, card) -> effective suit
KEY = _T.key  # (trump, card) -> trick strength
HIGHER = _T.higher  # (trump, card) -> cards of its effective suit above it
BEATS = _T.beats  # (trump, card) -> cards that beat it
ORDER = np.array([sorted((int(c) for c in np.flatnonzero(EFF[t] >= 0)), key=lambda c: -KEY[t, c]) for t in range(4)],
                 np.int64)  # (trump, i) -> the deck from the strongest card down
BOWERS = np.array([(1 << (LANE * t + 9)) | (1 << (LANE * (3 - t) + 9)) for t in range(4)], np.uint64)
ACES = np.uint64(sum(1 << (LANE * s + 12) for s in range(4)))
ACE_RANK_KEY = 12 - EIGHT  # key of a plain Ace
LANE_RANKS = np.uint64(0x7F)  # the seven ranks 8..A of one lane, shifted down to bit 0
LANE_TOP = np.uint64(1 << LANE)  # above every card of the lowest lane
LANE_JACK, LANE_KING = np.uint64(9 - EIGHT), np.uint64(11 - EIGHT)  # their bits in such a lane
NO_RANK = np.uint64(0x80)  # above every rank: an empty lane's key loses to any card's


@njit(cache=True, error_model="numpy", inline="always")
def random_of(state, mask):
    """A uniformly random card of a non-empty ``mask``: returns (state, card)."""
    state, k = below_n(state, popcount(mask))
    return state, nth_card(mask, k)


@njit(cache=True, error_model="numpy", inline="always")
def best_by_key(mask, trump):
    """The strongest card of a non-empty ``mask`` for trick play (trumps above plain cards)."""
    for c in ORDER[trump]:
        if mask & bit(c) != ZERO:
            return c
    return -1


@njit(cache=True, error_model="numpy", inline="always")
def lane_of(hand, s):
    """The ranks 8..A of printed suit ``s`` in ``hand``, shifted down to bits 0..6."""
    return (hand >> np.uint64(LANE * s + EIGHT)) & LANE_RANKS


@njit(cache=True, error_model="numpy", inline="always")
def worst_by_key(mask, trump):
    """The weakest card of a non-empty ``mask``; on equal rank, the one from the shortest suit (then
    the lowest suit number).

    Plain cards rank below trumps, so the answer is a plain card whenever the mask holds one. The
    plain cards of effective suit ``s`` are exactly lane ``s`` of ``mask & ~trumps`` (the left bower
    leaves its lane with the trumps), so one key per lane, (lowest rank, length, suit), and the
    smallest key names the card without a branch per suit. With trumps only, bit order is rank order
    but for the bowers: the lowest plain trump, else the left bower, else the right.
    """
    plain = mask & ~SUIT_MASKS[trump, trump]
    if plain != ZERO:
        low = ctz(plain)
        if plain >> np.uint64(low - low % LANE) < LANE_TOP:  # one suit only (a seat following suit): its lowest
            return low
        best = 1 << 30
        for s in range(4):
            cards = lane_of(plain, s)
            key = (ctz(cards | NO_RANK) << 6) | (popcount(cards) << 2) | s
            best = min(best, key)
        return LANE * (best & 3) + EIGHT + (best >> 6)
    low = mask & ~BOWERS[trump]
    if low != ZERO:
        return ctz(low)
    left = LANE * (3 - trump) + 9
    return left if mask & bit(left) != ZERO else LANE * trump + 9


@njit(cache=True, error_model="numpy", inline="always")
def strength_nb(hand, trump):
    """Hand strength for ``trump`` in half points (see the module docstring): 2 per trump, plus 4 for
    the right bower, 3 for the left and 1 for the King of trumps, 2 per Ace (the trump Ace's 2 as
    an Ace is its 2 over a plain trump), and 1 per empty plain suit with two trumps or more.

    Counted on the lanes of the hand's printed suits, without a loop: the trump suit's lane, and
    its mate's (the other suit of its colour), which gives up its Jack as the left bower."""
    mate = 3 - trump
    t = lane_of(hand, trump)
    m = lane_of(hand, mate)
    left = (m >> LANE_JACK) & ONE
    n_trumps = popcount(t) + np.int64(left)
    total = 2 * n_trumps + np.int64(4 * ((t >> LANE_JACK) & ONE) + 3 * left + ((t >> LANE_KING) & ONE)) \
        + 2 * popcount(hand & ACES)
    if n_trumps >= 2:
        a = 1 if trump == 0 or trump == 3 else 0  # the other colour's suits: a and 3 - a
        total += np.int64(m & ~(ONE << LANE_JACK) == ZERO) + np.int64(lane_of(hand, a) == ZERO) \
            + np.int64(lane_of(hand, 3 - a) == ZERO)
    return total


@njit(cache=True, error_model="numpy", inline="always")
def discard_nb(hand, trump, keep):
    """The dealer's discard from ``hand`` (six cards, or five): the weakest card, never ``keep``."""
    candidates = hand & ~keep
    plain = candidates & ~SUIT_MASKS[trump, trump] & ~ACES
    if plain != ZERO:
        return worst_by_key(plain, trump)
    return worst_by_key(candidates, trump)


@njit(cache=True, error_model="numpy", inline="always")
def bid_strength_nb(hand, upcard, trump, seat_from_dealer, may_discard_upcard):
    """The strength a seat ``seat_from_dealer`` places after the dealer (5 = the dealer) bids on.

    For the upcard's suit the dealer counts its hand after the exchange it would make, and any
    other seat loses ``UPCARD_PENALTY`` when the upcard is a bower or the Ace; the seat left of
    the dealer adds ``FIRST_SEAT_BONUS``.
    """
    if trump == upcard // LANE and seat_from_dealer == 5:
        with_up = hand | bit(upcard)
        keep = ZERO if may_discard_upcard else bit(upcard)
        s = strength_nb(with_up & ~bit(discard_nb(with_up, trump, keep)), trump)
    else:
        s = strength_nb(hand, trump)
        if trump == upcard // LANE and KEY[trump, upcard] >= 10 + ACE_RANK_KEY:
            s -= UPCARD_PENALTY
    if seat_from_dealer == 1:
        s += FIRST_SEAT_BONUS
    return s


@njit(cache=True, error_model="numpy", inline="always")
def accept_nb(hand, upcard, seat_from_dealer, may_discard_upcard):
    """Round one: whether to accept the upcard's suit."""
    return bid_strength_nb(hand, upcard, upcard // LANE, seat_from_dealer, may_discard_upcard) >= ACCEPT_AT


@njit(cache=True, error_model="numpy", inline="always")
def name_nb(hand, upcard, seat_from_dealer, stuck):
    """Round two: the suit to name (never the upcard's), or -1 to pass."""
    best = -1
    best_s = -1
    for t in range(4):
        if t == upcard // LANE:
            continue
        s = strength_nb(hand, t)
        if s > best_s:
            best_s = s
            best = t
    if seat_from_dealer == 1:
        best_s += FIRST_SEAT_BONUS
    if best_s >= NAME_AT or stuck:
        return best
    return -1


@njit(cache=True, error_model="numpy", inline="always")
def call_nb(hand, trump, callable_cards):
    """The call: -1 to go alone, else the card to call (the strongest callable one)."""
    if strength_nb(hand, trump) >= ALONE_AT or callable_cards == ZERO:
        return -1
    return best_by_key(callable_cards, trump)


@njit(cache=True, error_model="numpy", inline="always")
def lead_nb(hand, trump, remaining, attacker):
    """The card to lead (see the module docstring); ``remaining``: cards not yet played, ``hand`` included."""
    trumps = hand & SUIT_MASKS[trump, trump]
    if attacker:
        m = trumps
        while m != ZERO:
            c = ctz(m)
            m &= m - ONE
            if remaining & HIGHER[trump, c] == ZERO:
                return c
    plain = hand & ~trumps
    m = plain
    while m != ZERO:
        c = ctz(m)
        m &= m - ONE
        if remaining & HIGHER[trump, c] == ZERO:
            return c
    if plain != ZERO:
        return worst_by_key(plain, trump)
    return worst_by_key(hand, trump)


@njit(cache=True, error_model="numpy")
def follow_nb(legal, trump, best, ally_winning, last, unplayed_out):
    """The card to follow with. ``best``: the card now winning; ``unplayed_out``: cards still held by
    others (not in this trick, not in this hand)."""
    return follow_beat_nb(legal, trump, BEATS[trump, best], ally_winning, last, unplayed_out)


@njit(cache=True, error_model="numpy", inline="always")
def follow_beat_nb(legal, trump, beat, ally_winning, last, unplayed_out):
    """:func:`follow_nb` given ``beat``, the cards that beat the winning card (``BEATS[trump, best]``),
    which the trick loop keeps as it goes."""
    if ally_winning and (last or unplayed_out & beat == ZERO):
        return worst_by_key(legal, trump)
    winners = legal & beat
    if winners != ZERO:
        return worst_by_key(winners, trump)
    return worst_by_key(legal, trump)
