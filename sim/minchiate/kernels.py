"""Minchiate deal kernels: shuffle, draws, deal, discards, declarations, 21 tricks and the settlement.

One deal, rule by rule (``D`` dealer, seats counter-clockwise so ``D + 1`` is next):

1. The 97 cards are shuffled (Fisher-Yates on the deal's own stream, ``deal_state(seed, deal)``).
2. **Cutter's draw** (``D + 3``): while the top card qualifies and fewer than ``cutter_cap``
   were taken, the cutter takes it; its counting cards score for the cutter's team (one event).
3. **Deal**: a packet of 10 to each player from ``D + 1`` round to ``D``, then a packet of 11.
   The dealer's last card is shown and scores if it counts (``expose_last_cards='all_four'``:
   every player's last card, one event each in dealing order).
4. **Fola**: the ``13 - k`` cards left. The dealer takes its top cards while they qualify,
   scoring the counting ones (one event), then takes without scoring every counting card and
   trump 29 left in it (``'counting+trumps_above_20'``: also every trump above 20).
5. **Discards**: the cutter and the dealer each discard back to 21 by policy, zero-value cards
   only and never trump 29; with too few of those, the rest in the fixed fallback order
   (:data:`DISCARD_ORDER`: blanks, then trumps 2-5, the fives, the tens, trump 29 last).
6. **Declarations** from ``D + 1``: each player shows the combinations the policy chooses
   (both policies: all), one event each.
7. **21 tricks**, ``D + 1`` leading: follow the led suit, else trump, else anything; the Matto
   may always be played instead, except under the King rule (first trick of a plain suit, a
   trump already in it: a holder of that King must play it). Highest trump wins, else the
   highest card of the led suit. The winners score their opponents' counting cards in the
   trick (one event per trick); an excused Matto stays with its team, which owes the winners
   one card if they are opponents.
8. **End**: the Matto debt is paid (:func:`matto_payment_nb`: the weakest blank of the pile, else its
   card of the fewest points; the Matto itself only from a team without a trick); each team adds its
   pile's card points, its pile combinations, ``beyond_42`` (1) per card beyond 42 and ``last_trick``
   (10) for the last trick; the resti left are rounded up in units of ``resto_unit`` (60).

Resti: Δ = points of team 0 - points of team 1, settled after every event (each full resto unit is a
resto and leaves Δ); at the end ⌈|Δ| / unit⌉ more go to the team ahead. ``cappotto_double``
doubles both teams' resti when a team took no trick.

Every scoring value is an option, read from the ``opts`` array (:data:`~cardlab.sim.minchiate.rules.OPT`):
a card's points are its group's (:func:`points_nb`); which cards count (and so qualify, may be discarded
or are taken from the Fola) is fixed by the groups, each worth at least one point.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from cardlab.sim.cards import ONE, ZERO, ctz, popcount
from cardlab.sim.dealing import BLOCK
from cardlab.sim.policy import POLICY, SHARED_POLICIES
from cardlab.sim.rng import below_n, deal_state
from cardlab.sim.minchiate.combos import combos_nb
from cardlab.sim.minchiate.policies import (DISCARD_HI, DISCARD_LO, KING_BIT, LANE, LO_MATTO, LO_TRUMPS, NO_SUIT,
                                            TRUMP_SUIT, beats, heuristic_card, heuristic_discard_one,
                                            random_card, suit_of_nb)
from cardlab.sim.minchiate.points import pile_value, points_nb
from cardlab.sim.minchiate.rules import (CARD_GROUP, CARD_VALUES, MATTO, N_CARDS, N_TRUMPS, OPT, PILE_PAR, STRENGTH,
                                         SUIT_BASE, TRUMP_29)

# -------------------------------------------------------------- log and output layout

DISCARD_SLOTS = 13  # at most 13 cards are drawn, so at most 13 discarded
LOG_PERM = 0  # the shuffled pack: 97 card ids
LOG_CUTTER_DISCARDS = LOG_PERM + N_CARDS  # -1 padded
LOG_DEALER_DISCARDS = LOG_CUTTER_DISCARDS + DISCARD_SLOTS  # -1 padded
LOG_PLAYS = LOG_DEALER_DISCARDS + DISCARD_SLOTS  # 84 cards in play order
LOG_WIDTH = LOG_PLAYS + 84
DECK_HI = np.uint64((1 << 56) - 1)  # the 56 suit cards of the high word
WORK_SIZE = N_CARDS + 12  # the pack, resti, tricks, the current trick's cards and seats


class Col(NamedTuple):
    """Columns of the kernel's per-deal integer output."""

    DEALER: int = 0
    CUTTER_CARDS: int = 1
    DEALER_CARDS: int = 2
    POINTS: int = 3  # 2 teams
    RESTI: int = 5  # 2 teams
    SOURCES: int = 7  # 2 teams x 8 sources: team t, source s at 7 + 8 t + s
    DECL_COUNT: int = 23  # 6 combination types
    DECL_VALUE: int = 29  # 6 combination types
    TRICKS: int = 35  # 2 teams
    MAX_DELTA: int = 37  # largest |delta| after a settlement during the deal
    MATTO_OWED: int = 38
    WIDTH: int = 39


COL = Col()
SRC_DRAWS, SRC_EXPOSED, SRC_DECLARATIONS, SRC_CAPTURES, SRC_CARD_POINTS, SRC_PILE_COMBOS, SRC_BEYOND42, \
    SRC_LAST_TRICK = range(8)


def _discard_order() -> np.ndarray:
    order = sorted(range(N_CARDS), key=lambda c: (c == TRUMP_29, int(CARD_VALUES[c]), c))
    return np.array(order, dtype=np.int64)


def _blank_pay_order() -> np.ndarray:
    blanks = sorted((c for c in range(N_CARDS) if CARD_GROUP[c] < 0 and c != TRUMP_29),
                    key=lambda c: (int(STRENGTH[c]), c))
    return np.array(blanks, dtype=np.int64)


#: Fallback discard order when a player lacks legal discards (the legal ones come first).
DISCARD_ORDER = _discard_order()
#: Order in which a team pays the Matto debt from its blanks (29 aside), weakest first; a team without one pays
#: its lowest-valued card (:func:`matto_payment_nb`).
BLANK_PAY_ORDER = _blank_pay_order()


@njit(cache=True, error_model="numpy", inline="always")
def has_card(lo, hi, c):
    if c <= MATTO:
        return lo >> np.uint64(c) & ONE != ZERO
    return hi >> np.uint64(c - SUIT_BASE) & ONE != ZERO


@njit(cache=True, error_model="numpy", inline="always")
def lo_bit(c):
    return ONE << np.uint64(c) if c <= MATTO else ZERO


@njit(cache=True, error_model="numpy", inline="always")
def hi_bit(c):
    return ONE << np.uint64(c - SUIT_BASE) if c > MATTO else ZERO


@njit(cache=True, error_model="numpy", inline="always")
def qualifies_nb(c, steal_29):
    """A counting card or a trump above 20 (29 only with ``steal_29``)."""
    if CARD_GROUP[c] >= 0:
        return True
    return 20 <= c < N_TRUMPS and (steal_29 or c != TRUMP_29)


@njit(cache=True, error_model="numpy", inline="always")
def legal_cards(hand_lo, hand_hi, led, first_of_suit, trump_played):
    """Legal cards (two words) for a hand, given the led suit (-1 none yet) and the King rule's state."""
    if led == NO_SUIT:
        return hand_lo, hand_hi
    if led == TRUMP_SUIT:
        if hand_lo & LO_TRUMPS:
            return hand_lo & (LO_TRUMPS | LO_MATTO), ZERO
        return hand_lo, hand_hi
    if first_of_suit and trump_played and hand_hi & KING_BIT[led]:
        return ZERO, KING_BIT[led]
    lane = hand_hi & LANE[led]
    if lane:
        return hand_lo & LO_MATTO, lane
    if hand_lo & LO_TRUMPS:
        return hand_lo & (LO_TRUMPS | LO_MATTO), ZERO
    return hand_lo, hand_hi


@njit(cache=True, error_model="numpy", inline="always")
def settle(delta, resti, max_delta, unit):
    """Turn every full ``unit`` (the resto unit, 60) of Δ into a resto for the team ahead; track the largest |Δ|
    left."""
    while delta >= unit:
        resti[0] += 1
        delta -= unit
    while delta <= -unit:
        resti[1] += 1
        delta += unit
    a = delta if delta >= 0 else -delta
    return delta, max(max_delta, a)


@njit(cache=True, error_model="numpy", inline="always")
def single_card(legal_lo, legal_hi):
    """The only legal card, or -1 when there is a choice."""
    if legal_hi == ZERO and legal_lo & (legal_lo - ONE) == ZERO:
        return ctz(legal_lo)
    if legal_lo == ZERO and legal_hi & (legal_hi - ONE) == ZERO:
        return ctz(legal_hi) + SUIT_BASE
    return -1


@njit(cache=True, error_model="numpy", inline="always")
def unseen_nb(p, hand_lo, hand_hi, trick, cutter, dealer, fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi, dd_lo,
              dd_hi):
    """The cards seat ``p`` has not seen, as ``(lo, hi)``: neither in its hand, the Fola nor played, nor a
    discard it has seen (its own, before the first trick; both, once that trick has shown them)."""
    known_lo, known_hi = fola_lo | played_lo | hand_lo, fola_hi | played_hi | hand_hi
    if trick > 0 or p == cutter:
        known_lo |= cd_lo
        known_hi |= cd_hi
    if trick > 0 or p == dealer:
        known_lo |= dd_lo
        known_hi |= dd_hi
    return ~known_lo & (LO_TRUMPS | LO_MATTO), ~known_hi & DECK_HI


@njit(cache=True, error_model="numpy", inline="always")
def heuristic_move_nb(opts, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card, trick, cutter, dealer,
                      fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi, dd_lo, dd_hi):
    """The heuristic's card for seat ``p``, from what it has not seen (:func:`unseen_nb`)."""
    unseen_lo, unseen_hi = unseen_nb(p, hand_lo, hand_hi, trick, cutter, dealer, fola_lo, fola_hi, played_lo,
                                     played_hi, cd_lo, cd_hi, dd_lo, dd_hi)
    return heuristic_card(opts, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card,
                          unseen_lo, unseen_hi)


#: The kernel id of a seat played by the run's own Numba function (:mod:`cardlab.sim.user`): after the shared ids.
USER = len(SHARED_POLICIES)


def user_card(user_fn, fault, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card, unseen_lo,
              unseen_hi):
    """The card of seat ``p`` played by the run's Numba function ``user_fn``, called as
    ``card(hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_card, partner_wins, unseen_lo, unseen_hi)``
    (the interface's ``NUMBA_SEAT``). A card outside ``legal`` is written to the deal's ``fault`` slot
    (seat + 1, card) and replaced by the lowest legal card, so the deal ends and the run can report it.
    A run without a Numba seat passes ``None``: the kernels are then compiled with no call at all."""
    raise NotImplementedError("called from kernels only")


@overload(user_card, inline="always")
def _user_card(user_fn, fault, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card, unseen_lo,
               unseen_hi):
    if isinstance(user_fn, types.NoneType):
        def no_seat(user_fn, fault, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card, unseen_lo,
                    unseen_hi):
            return -1
        return no_seat

    def seat(user_fn, fault, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card, unseen_lo,
             unseen_hi):
        c = user_fn(hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_card, win_seat == (p + 2) % 4, unseen_lo,
                    unseen_hi)
        if c < 0 or c >= N_CARDS or not has_card(legal_lo, legal_hi, c):
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = c
            return ctz(legal_lo) if legal_lo != ZERO else ctz(legal_hi) + SUIT_BASE
        return c
    return seat


@njit(cache=True, error_model="numpy", inline="always")
def put_card_nb(c, p, n, hand_lo, hand_hi, cards, seats, led, trump_played, win_seat, win_card):
    """Seat ``p`` plays ``c`` as the trick's ``n``-th card. Returns the led suit, whether a trump has been
    played, and the seat and card winning so far: the Matto leads no suit and wins nothing."""
    hand_lo[p] &= ~lo_bit(c)
    hand_hi[p] &= ~hi_bit(c)
    cards[n] = c
    seats[n] = p
    if c != MATTO:
        if led == NO_SUIT:
            led = suit_of_nb(c)
        if c < N_TRUMPS:
            trump_played = True
        if beats(c, win_card, led):
            win_seat, win_card = p, c
    return led, trump_played, win_seat, win_card


@njit(cache=True, error_model="numpy", inline="always")
def end_trick_nb(opts, trick, led, led_suits, cards, seats, win_seat, pile_lo, pile_hi, tricks, cutter, dealer,
                 cd_lo, cd_hi, dd_lo, dd_hi):
    """Close a trick: its plain suit counts as led, its cards go to ``win_seat``'s team (an excused Matto to
    its owner's team), and after the first trick the discards join their teams' piles when they score for
    their owners. Returns the led suits, the points taken from the other team and whether the Matto is owed."""
    if led >= 0 and led < 4:
        led_suits |= 1 << led
    w = win_seat % 2
    tricks[w] += 1
    pts = 0
    owed = False
    for n in range(4):
        c = cards[n]
        if c == MATTO:
            owner = seats[n] % 2
            pile_lo[owner] |= LO_MATTO
            if owner != w:
                owed = True
            continue
        if seats[n] % 2 != w:
            pts += points_nb(opts, c)
        pile_lo[w] |= lo_bit(c)
        pile_hi[w] |= hi_bit(c)
    if trick == 0 and opts[OPT.DISCARDS_OWN] != 0:
        pile_lo[cutter % 2] |= cd_lo
        pile_hi[cutter % 2] |= cd_hi
        pile_lo[dealer % 2] |= dd_lo
        pile_hi[dealer % 2] |= dd_hi
    return led_suits, pts, owed


@njit(cache=True, error_model="numpy")
def _discard(state, policy, n, hand_lo, hand_hi, record, log, at):
    """Discard ``n`` cards by policy (legal ones), then by the fallback order; logs them. Returns (state, lo, hi)."""
    d_lo, d_hi = ZERO, ZERO
    legal_lo, legal_hi = hand_lo & DISCARD_LO, hand_hi & DISCARD_HI
    n_legal = popcount(legal_lo) + popcount(legal_hi)
    take = min(n, n_legal)
    for _ in range(take):
        if policy == POLICY.RANDOM:
            state, c = random_card(state, legal_lo, legal_hi)
        else:  # the heuristic, and a Numba seat (its function plays cards only)
            c = heuristic_discard_one(hand_lo, hand_hi, legal_lo, legal_hi)
        d_lo |= lo_bit(c)
        d_hi |= hi_bit(c)
        hand_lo &= ~lo_bit(c)
        hand_hi &= ~hi_bit(c)
        legal_lo &= ~lo_bit(c)
        legal_hi &= ~hi_bit(c)
    i = 0
    while take < n:  # the fallback: too few legal discards
        c = DISCARD_ORDER[i]
        i += 1
        if has_card(hand_lo, hand_hi, c):
            d_lo |= lo_bit(c)
            d_hi |= hi_bit(c)
            hand_lo &= ~lo_bit(c)
            hand_hi &= ~hi_bit(c)
            take += 1
    if not record:
        return state, d_lo, d_hi
    j = at
    for word in range(2):  # ascending ids
        m = d_lo if word == 0 else d_hi
        while m:
            b = ctz(m)
            m &= m - ONE
            log[j] = b if word == 0 else b + SUIT_BASE
            j += 1
    return state, d_lo, d_hi


@njit(cache=True, error_model="numpy", inline="always")
def shuffle_pack_nb(state, perm):
    """Step 1: the 97 card ids into ``perm`` in the order of the shuffled pack (Fisher-Yates from the top, one draw
    of the stream per card); returns the advanced stream."""
    for i in range(N_CARDS):
        perm[i] = i
    for i in range(N_CARDS - 1, 0, -1):
        state, j = below_n(state, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    return state


@njit(cache=True, error_model="numpy", inline="always")
def card_step_nb(policy, opts, p, hand_lo, hand_hi, n, led, led_suits, trump_played, win_seat, win_card, trick, cutter,
                 dealer, fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi, dd_lo, dd_hi, state, user_fn, fault):
    """Seat ``p``'s card as the ``n``-th of trick ``trick`` (step 7), by its random, heuristic or Numba ``policy``
    (``user_fn``, :func:`user_card`): the only legal card without a decision, else the heuristic's
    (:func:`heuristic_move_nb`), the Numba function's or a uniformly random legal card. ``led``, ``trump_played``,
    ``win_seat`` and ``win_card`` describe the trick so far, ``led_suits`` the plain suits led before it (bit s).
    Returns (state, card)."""
    first_of_suit = led >= 0 and led < 4 and (led_suits >> led) & 1 == 0
    legal_lo, legal_hi = legal_cards(hand_lo, hand_hi, led, first_of_suit, trump_played)
    c = single_card(legal_lo, legal_hi)
    if c >= 0:
        return state, c  # a forced card: no decision
    if policy == USER:
        unseen_lo, unseen_hi = unseen_nb(p, hand_lo, hand_hi, trick, cutter, dealer, fola_lo, fola_hi, played_lo,
                                         played_hi, cd_lo, cd_hi, dd_lo, dd_hi)
        return state, user_card(user_fn, fault, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card,
                                unseen_lo, unseen_hi)
    if policy == POLICY.HEURISTIC:
        return state, heuristic_move_nb(opts, p, hand_lo, hand_hi, legal_lo, legal_hi, n, led, win_seat, win_card,
                                        trick, cutter, dealer, fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi,
                                        dd_lo, dd_hi)
    return random_card(state, legal_lo, legal_hi)


@njit(cache=True, error_model="numpy")
def setup_deal_nb(seed, deal, opts, policies, record, work, words, out, log, declared, combo_scratch):
    """Steps 1-6 of a deal (shuffle, draws, deal, exposed cards, Fola, discards, declarations), as
    :func:`play_deal_nb` plays them; the hands after the discards are left in ``words``.

    Returns ``(state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi, fola_lo, fola_hi)``: the deal's
    stream, Δ and the largest |Δ| so far, the cutter's and the dealer's discards and the Fola left."""
    for i in range(out.shape[0]):
        out[i] = 0
    if record:
        for i in range(log.shape[0]):
            log[i] = -1
    perm = work[0:N_CARDS]
    resti = work[N_CARDS:N_CARDS + 2]
    tricks = work[N_CARDS + 2:N_CARDS + 4]
    hand_lo = words[0:4]
    hand_hi = words[4:8]
    for i in range(12):
        words[i] = ZERO
    for t in range(2):
        resti[t] = 0
        tricks[t] = 0
    state = shuffle_pack_nb(deal_state(seed, deal), perm)
    dealer = deal % 4
    cutter = (dealer + 3) % 4
    steal = opts[OPT.STEAL_29] != 0
    if record:
        for i in range(N_CARDS):
            log[LOG_PERM + i] = perm[i]
    delta, max_delta = 0, 0
    src = out[COL.SOURCES:COL.SOURCES + 16]  # view: team t source s at 8 t + s

    # cutter's draw
    k = 0
    pts = 0
    while k < opts[OPT.CUTTER_CAP] and qualifies_nb(perm[k], steal):
        c = perm[k]
        hand_lo[cutter] |= lo_bit(c)
        hand_hi[cutter] |= hi_bit(c)
        pts += points_nb(opts, c)
        k += 1
    src[8 * (cutter % 2) + SRC_DRAWS] += pts
    delta += pts if cutter % 2 == 0 else -pts
    delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
    # the deal: 10 then 11, from D + 1 to D
    pos = k
    for size in (10, 11):
        for j in range(1, 5):
            p = (dealer + j) % 4
            for _ in range(size):
                c = perm[pos]
                hand_lo[p] |= lo_bit(c)
                hand_hi[p] |= hi_bit(c)
                pos += 1
    # exposed cards: the last of each second packet (the dealer's only, by default)
    for j in range(1, 5):
        if j < 4 and opts[OPT.EXPOSE_ALL] == 0:
            continue
        p = (dealer + j) % 4
        v = points_nb(opts, perm[k + 40 + 11 * j - 1])
        src[8 * (p % 2) + SRC_EXPOSED] += v
        delta += v if p % 2 == 0 else -v
        delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
    # the Fola and the dealer's draw
    taken = 0
    pts = 0
    while pos < N_CARDS and qualifies_nb(perm[pos], steal):
        c = perm[pos]
        hand_lo[dealer] |= lo_bit(c)
        hand_hi[dealer] |= hi_bit(c)
        pts += points_nb(opts, c)
        pos += 1
        taken += 1
    src[8 * (dealer % 2) + SRC_DRAWS] += pts
    delta += pts if dealer % 2 == 0 else -pts
    delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
    fola_lo, fola_hi = ZERO, ZERO
    for i in range(pos, N_CARDS):
        c = perm[i]
        if CARD_GROUP[c] >= 0 or c == TRUMP_29 or (opts[OPT.DEALER_TAKES] == 1 and 20 <= c < N_TRUMPS):
            hand_lo[dealer] |= lo_bit(c)
            hand_hi[dealer] |= hi_bit(c)
            taken += 1
        else:
            fola_lo |= lo_bit(c)
            fola_hi |= hi_bit(c)
    out[COL.DEALER] = dealer
    out[COL.CUTTER_CARDS] = k
    out[COL.DEALER_CARDS] = taken
    # discards
    state, cd_lo, cd_hi = _discard(state, policies[cutter], k, hand_lo[cutter], hand_hi[cutter], record,
                                   log, LOG_CUTTER_DISCARDS)
    hand_lo[cutter] &= ~cd_lo
    hand_hi[cutter] &= ~cd_hi
    state, dd_lo, dd_hi = _discard(state, policies[dealer], taken, hand_lo[dealer], hand_hi[dealer], record,
                                   log, LOG_DEALER_DISCARDS)
    hand_lo[dealer] &= ~dd_lo
    hand_hi[dealer] &= ~dd_hi
    # declarations (both policies declare every combination)
    for j in range(1, 5):
        p = (dealer + j) % 4
        v = combos_nb(hand_lo[p], hand_hi[p], opts, combo_scratch)
        if record:
            declared[p] = v
        for t in range(6):
            out[COL.DECL_COUNT + t] += combo_scratch[t]
            out[COL.DECL_VALUE + t] += combo_scratch[6 + t]
        src[8 * (p % 2) + SRC_DECLARATIONS] += v
        delta += v if p % 2 == 0 else -v
        delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
    return state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi, fola_lo, fola_hi


@njit(cache=True, error_model="numpy", _nrt=False)
def matto_payment_nb(opts, lo, hi):
    """The card a team pays for an owed Matto from its pile (lo, hi): its weakest blank other than 29, else its
    card of the fewest points (then the weakest, then the lowest id), never the Matto; -1 for an empty pile.
    Without reference counting (``_nrt=False``), as :func:`end_points_nb`."""
    for i in range(BLANK_PAY_ORDER.shape[0]):
        if has_card(lo, hi, BLANK_PAY_ORDER[i]):
            return BLANK_PAY_ORDER[i]
    best, best_points, best_strength = -1, 1 << 30, 1 << 30
    for c in range(N_CARDS):
        if c != MATTO and has_card(lo, hi, c):
            points = points_nb(opts, c)
            if points < best_points or (points == best_points and STRENGTH[c] < best_strength):
                best, best_points, best_strength = c, points, STRENGTH[c]
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def end_points_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, last_team, src, combo_scratch):
    """Step 8 before the rounding: pay the Matto debt (the piles change), then add each team's card points,
    pile combinations, cards beyond 42 and last trick to ``src``; returns their Δ (team 0 - team 1).

    Compiled without Numba's reference counting (``_nrt=False``: it allocates nothing): every rollout of the
    search ends here, and each array argument would cost an atomic increment and decrement per call (see
    ``search.play_worlds_nb``; with this and :func:`~cardlab.sim.minchiate.combos.combos_nb` the searched deals
    went from 67 to 73 a second, 1 thread)."""
    end_delta = 0
    # the end: Matto debt, then every team's pile
    if matto_owed:
        payer = matto_owner % 2
        c = MATTO if tricks[payer] == 0 else matto_payment_nb(opts, pile_lo[payer], pile_hi[payer])
        if c >= 0:
            pile_lo[payer] &= ~lo_bit(c)
            pile_hi[payer] &= ~hi_bit(c)
            pile_lo[1 - payer] |= lo_bit(c)
            pile_hi[1 - payer] |= hi_bit(c)
    for t in range(2):
        cp = pile_value(pile_lo[t], pile_hi[t], opts)
        pc = 0
        if opts[OPT.PILE_COMBOS] != 0:
            pc = combos_nb(pile_lo[t], pile_hi[t], opts, combo_scratch)
        size = popcount(pile_lo[t]) + popcount(pile_hi[t])
        b42 = max(0, size - PILE_PAR) * opts[OPT.BEYOND_42]
        lt = opts[OPT.LAST_TRICK] if t == last_team else 0
        src[8 * t + SRC_CARD_POINTS] += cp
        src[8 * t + SRC_PILE_COMBOS] += pc
        src[8 * t + SRC_BEYOND42] += b42
        src[8 * t + SRC_LAST_TRICK] += lt
        end = cp + pc + b42 + lt
        end_delta += end if t == 0 else -end
    return end_delta


@njit(cache=True, error_model="numpy")
def finish_deal_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, last_team, delta, max_delta, resti,
                   out, combo_scratch):
    """Step 8: the end points (:func:`end_points_nb`), the resti left rounded up, the cappotto, and ``out``'s
    totals."""
    src = out[COL.SOURCES:COL.SOURCES + 16]
    delta += end_points_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, last_team, src, combo_scratch)
    unit = opts[OPT.RESTO_UNIT]
    if delta > 0:
        resti[0] += (delta + unit - 1) // unit
    elif delta < 0:
        resti[1] += (-delta + unit - 1) // unit
    if opts[OPT.CAPPOTTO] != 0 and (tricks[0] == 0 or tricks[1] == 0):
        resti[0] *= 2
        resti[1] *= 2
    for t in range(2):
        total = 0
        for s in range(8):
            total += src[8 * t + s]
        out[COL.POINTS + t] = total
        out[COL.RESTI + t] = resti[t]
        out[COL.TRICKS + t] = tricks[t]
    out[COL.MAX_DELTA] = max_delta
    out[COL.MATTO_OWED] = 1 if matto_owed else 0


@njit(cache=True, error_model="numpy")
def play_deal_nb(seed, deal, opts, policies, record, work, words, out, log, declared, combo_scratch, user_fn, fault):
    """Play deal number ``deal`` (dealer ``deal % 4``); fill ``out`` (see :data:`COL`), and when ``record``
    the move ``log`` and ``declared``. ``work`` (int64, :data:`WORK_SIZE`) and ``words`` (uint64, 12) are
    scratch space reused from deal to deal; ``user_fn`` plays the seats of policy :data:`USER` (None without
    one), the first illegal card it returns going to ``fault``."""
    state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi, fola_lo, fola_hi = setup_deal_nb(
        seed, deal, opts, policies, record, work, words, out, log, declared, combo_scratch)
    resti = work[N_CARDS:N_CARDS + 2]
    tricks = work[N_CARDS + 2:N_CARDS + 4]
    cards = work[N_CARDS + 4:N_CARDS + 8]
    seats = work[N_CARDS + 8:N_CARDS + 12]
    hand_lo = words[0:4]
    hand_hi = words[4:8]
    pile_lo = words[8:10]
    pile_hi = words[10:12]
    dealer = deal % 4
    cutter = (dealer + 3) % 4
    src = out[COL.SOURCES:COL.SOURCES + 16]
    # the play
    played_lo, played_hi = ZERO, ZERO
    led_suits = 0  # bit s: plain suit s has been led
    matto_owner = -1
    matto_owed = False
    leader = (dealer + 1) % 4
    plays = LOG_PLAYS
    for trick in range(21):
        led = NO_SUIT
        trump_played = False
        win_seat, win_card = -1, -1
        for n in range(4):
            p = (leader + n) % 4
            state, c = card_step_nb(policies[p], opts, p, hand_lo[p], hand_hi[p], n, led, led_suits, trump_played,
                                    win_seat, win_card, trick, cutter, dealer, fola_lo, fola_hi, played_lo, played_hi,
                                    cd_lo, cd_hi, dd_lo, dd_hi, state, user_fn, fault)
            played_lo |= lo_bit(c)
            played_hi |= hi_bit(c)
            if c == MATTO:
                matto_owner = p
            led, trump_played, win_seat, win_card = put_card_nb(c, p, n, hand_lo, hand_hi, cards, seats, led,
                                                                trump_played, win_seat, win_card)
            if record:
                log[plays] = c
            plays += 1
        led_suits, pts, owed = end_trick_nb(opts, trick, led, led_suits, cards, seats, win_seat, pile_lo, pile_hi,
                                            tricks, cutter, dealer, cd_lo, cd_hi, dd_lo, dd_hi)
        matto_owed = matto_owed or owed
        src[8 * (win_seat % 2) + SRC_CAPTURES] += pts
        delta += pts if win_seat % 2 == 0 else -pts
        delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
        leader = win_seat
    last_team = leader % 2
    finish_deal_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, last_team, delta, max_delta, resti, out,
                   combo_scratch)
    return state



@njit(cache=True, error_model="numpy", parallel=True)
def play_deals_nb(seed, first, count, opts, policies, out, logs, declared, user_fn, faults):
    """Play deals ``first .. first+count-1`` in parallel blocks; ``logs``/``declared`` have 0 rows unless recording;
    ``faults`` (count x 2) gets each deal's first illegal card of the Numba seat ``user_fn``."""
    record = logs.shape[0] > 0
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        work = np.empty(WORK_SIZE, np.int64)
        words = np.empty(12, np.uint64)
        log = np.empty(LOG_WIDTH, np.int8)
        decl = np.empty(4, np.int16)
        scratch = np.empty(12, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            play_deal_nb(seed, first + j, opts, policies, record, work, words, out[j], log, decl, scratch, user_fn,
                         faults[j])
            if record:
                for i in range(LOG_WIDTH):
                    logs[j, i] = log[i]
                for i in range(4):
                    declared[j, i] = decl[i]


@njit(cache=True, error_model="numpy", parallel=True)
def play_games_nb(seed, first_game, count, n_deals, opts, policies, out, user_fn, faults):
    """Whole games: game ``g`` is deals ``g * n_deals .. g * n_deals + n_deals - 1`` (the deal passes to
    ``D + 1``); ``out`` rows are the sums of those deals' rows (dealer = the first dealer); ``faults`` as
    :func:`play_deals_nb`'s, per game."""
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        work = np.empty(WORK_SIZE, np.int64)
        words = np.empty(12, np.uint64)
        log = np.empty(LOG_WIDTH, np.int8)
        decl = np.empty(4, np.int16)
        scratch = np.empty(12, np.int64)
        row = np.empty(out.shape[1], out.dtype)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            for i in range(out.shape[1]):
                out[j, i] = 0
            g = first_game + j
            for d in range(n_deals):
                play_deal_nb(seed, g * n_deals + d, opts, policies, False, work, words, row, log, decl, scratch,
                             user_fn, faults[j])
                for i in range(out.shape[1]):
                    if i == COL.MAX_DELTA:
                        out[j, i] = max(out[j, i], row[i])
                    else:
                        out[j, i] += row[i]
            out[j, COL.DEALER] = (g * n_deals) % 4
