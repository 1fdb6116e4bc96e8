"""Rami policies: every decision of a turn, as ``@njit`` functions selected by an integer id.

The kernel (``kernels.py``) runs the turn and asks the policy at each decision; it checks and
executes what the policy returns. Two policies:

``heuristic`` (id 1, the shared id of :mod:`cardlab.sim.policy`), rules of thumb:

* Draw: take the top discard whenever it can go to the table at once (it is then free progress);
  otherwise draw from the stock.
* Open with the melds of highest meld value (exact search) as soon as they reach the threshold
  with a joker-free run, *except* hold back while no opponent has opened, the opening would leave
  exactly two cards (one discard away from a rami sec next turn) and the stock still holds two
  rounds of turns.
* Once opened: take a joker back whenever the freed joker can go into a new meld at once (with
  ``freed_joker_use='anywhere'``: whenever possible); lay down every meld of the hand (the melds
  that leave the lowest hand value, exact search); lay off every natural that fits a table meld;
  lay off a joker only when it leaves at most one card in hand or an opponent is close to going
  out (a joker in hand is worth melds later but costs 20).
* Discard the card of highest ``value x weight - keep``: ``keep`` protects cards in the hand's
  best melds (100), then cards close to melds (6 per other suit of the same rank held, 5 per
  same-suit neighbour, 3 per same-suit card two away, 8 if it would lay off on the table once
  opened; "in the best melds" is checked cheaply: part of a joker-free set or run of three held); ``weight`` is 1, or 3 when an opponent who opened holds three cards or fewer (shed
  high cards before being caught). Never a joker while another card is legal.

``random`` (id 0), a legal baseline: draws from the discard with probability 1/2 when it may;
opens, lays each meld and each lay-off with probability 1/2; never takes a joker back unless
it has to; discards a uniformly random legal card.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from cardlab.sim.cards import ctz
from cardlab.sim.policy import POLICY, ROLLOUT_POLICIES as POLICY_NAMES, SHARED_POLICIES  # random 0, heuristic 1

from cardlab.sim.rami.melds import (M_A, M_B, M_C, M_D, M_TYPE, MODE_HAND, MODE_MELD, SET, SUIT_BITS, best_melds_nb,
                                    bits, hand_bits, kind_at, layoff_slot, meld_jokers, meld_size, near_bits,
                                    rank_others)
from cardlab.sim.rami.rules import JOKER, OPT
from cardlab.sim.rng import below_n




@njit(cache=True, _nrt=False)
def cards_in(hand):
    n = 0
    for k in range(53):
        n += hand[k]
    return n


@njit(cache=True, _nrt=False)
def coin(state):
    state, r = below_n(state, 2)
    return state, r == 1


@njit(cache=True, _nrt=False)
def choose_draw(pol, state, usable, offered):
    """Take the top discard? ``offered``: the rules allow it; ``usable``: it can reach the table this turn."""
    if not offered:
        return state, False
    if pol == POLICY.HEURISTIC:
        return state, usable
    return coin(state)


@njit(cache=True, _nrt=False)
def opening_melds(hand, o, min_left, out, scratch, fresh=-1):
    """The best opening of ``hand`` (its melds written to ``out``): (its meld value, -1 for none; its count).

    ``fresh`` (-1 none): a card whose arrival made the hand, which held no opening before (the kernels'
    ``meld_free``); every opening then uses it, so the search asks for it (``best_melds_nb``'s ``force``) and
    prunes the choices that leave it in hand: the same opening, found with less search.
    """
    value, n, _ = best_melds_nb(hand, MODE_MELD, o[OPT.open_needs_pure_run], o[OPT.open_threshold], fresh, 0,
                                min_left, o[OPT.jokers_per_meld], o[OPT.card_values:], out, scratch)
    return value, n


@njit(cache=True, _nrt=False)
def choose_opening(pol, state, hand, o, nobody_opened, stock_left, min_left, out, scratch, fresh=-1):
    """Melds to open with (written to ``out``): (state, their count (0 to hold), whether an opening exists).
    ``fresh``: as :func:`opening_melds`'s."""
    value, n = opening_melds(hand, o, min_left, out, scratch, fresh)
    if value < 0:
        return state, 0, False
    if pol == POLICY.HEURISTIC:
        used = 0
        for i in range(n):
            used += meld_size(out[i])
        if nobody_opened and cards_in(hand) - used == 2 and stock_left >= 2 * o[OPT.players]:
            return state, 0, True  # hold back: a rami sec is one card away
        return state, n, True
    state, yes = coin(state)
    return state, (n if yes else 0), True


@njit(cache=True, _nrt=False)
def choose_melds(pol, state, hand, o, min_left, out, scratch, fresh=-1):
    """New melds for an opened player (written to ``out``; their count).

    ``fresh`` (-1 none): a card whose arrival made the hand, which held no meld before (``meld_free``); every
    meld then uses it, so the search asks for it: the same melds (the only choice it drops is laying none,
    worth 0, which lays nothing either way), found with less search.
    """
    value, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, fresh, 0, min_left, o[OPT.jokers_per_meld],
                                o[OPT.card_values:], out, scratch)
    if value <= 0:
        return state, 0
    if pol == POLICY.HEURISTIC:
        return state, n
    kept = 0
    for i in range(n):
        state, yes = coin(state)
        if yes:
            for w in range(out.shape[1]):  # an element at a time: a slice copy may need a temporary array
                out[kept, w] = out[i, w]
            kept += 1
    return state, kept


@njit(cache=True, _nrt=False)
def jokers_pair(hand):
    """Do two naturals of ``hand`` make a meld with a joker: two suits of a rank, or two cards of a suit at most
    two run positions apart (an ace low or high)? (:func:`~cardlab.sim.rami.melds.isolated_bits` with a joker.)"""
    b = hand_bits(hand)
    for s in range(4):
        pm = b >> (16 * s) & 0xFFFF
        if pm & (pm >> 1) or pm & (pm >> 2):
            return True
    for r in range(13):
        if bits(b >> (r + 1) & SUIT_BITS) >= 2:
            return True
    return False


@njit(cache=True, _nrt=False)
def freed_joker_usable(hand, kind, o, min_left, out, scratch):
    """After putting ``kind`` in place of a table joker, can the joker go into a new meld from this hand?"""
    if o[OPT.freed_joker_anywhere]:
        return True
    hand[kind] -= 1
    hand[JOKER] += 1
    if o[OPT.jokers_per_meld] >= 1 and cards_in(hand) - 3 >= min_left:
        # a meld with a joker holds two naturals of one rank, or of one suit at most two places apart, and any
        # such pair makes one with the joker (3 cards): the search's answer, without the search
        usable = jokers_pair(hand)
        hand[kind] += 1
        hand[JOKER] -= 1
        return usable
    value, _, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 1, min_left, o[OPT.jokers_per_meld],
                                o[OPT.card_values:], out, scratch)
    hand[kind] += 1
    hand[JOKER] -= 1
    return value >= 0


@njit(cache=True, _nrt=False)
def held_mask(hand):
    """The naturals held, as a 52-bit mask (bit ``kind``)."""
    m = 0
    for k in range(52):
        if hand[k] > 0:
            m |= 1 << k
    return m


@njit(cache=True, _nrt=False)
def retrieve_mask(m):
    """The naturals that free a joker of meld ``m`` (bit ``kind``): exactly the kinds with ``retrieve_slot >= 0``."""
    mask = 0
    if m[M_TYPE] == SET:
        if m[M_C] == 1:
            for s in range(4):
                if not (m[M_B] >> s & 1):
                    mask |= 1 << (s * 13 + m[M_A] - 1)
        return mask
    for p in range(m[M_B], m[M_C] + 1):
        if m[M_D] >> p & 1:
            mask |= 1 << kind_at(m[M_A], p)
    return mask


@njit(cache=True, _nrt=False)
def layoff_mask(m):
    """The naturals that lay off on meld ``m`` (bit ``kind``): exactly the kinds with ``layoff_slot >= 0``
    (a natural's lay-off does not depend on the joker limit)."""
    mask = 0
    size = meld_size(m)
    if m[M_TYPE] == SET:
        if size < 4:
            for s in range(4):
                if not (m[M_B] >> s & 1):
                    mask |= 1 << (s * 13 + m[M_A] - 1)
        return mask
    if size < 13:
        if m[M_C] < 14:
            mask |= 1 << kind_at(m[M_A], m[M_C] + 1)
        if m[M_B] > 1:
            mask |= 1 << kind_at(m[M_A], m[M_B] - 1)
    return mask


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` > 0 (one ``tzcnt``)."""
    return ctz(np.uint64(x))


@njit(cache=True, _nrt=False)
def choose_retrieval(pol, state, hand, table, nt, o, min_left, out, scratch):
    """(meld index, natural) to take a joker back with, or (-1, -1): the first meld, then the lowest natural held
    that frees its joker (:func:`retrieve_mask`, so the naturals that cannot are never tried)."""
    if pol != POLICY.HEURISTIC:
        return state, -1, -1
    held = -1
    for t in range(nt):
        if meld_jokers(table[t]) == 0:
            continue
        if held < 0:
            held = held_mask(hand)
        cand = retrieve_mask(table[t]) & held
        while cand:
            k = lowest_bit(cand)
            cand &= cand - 1
            if freed_joker_usable(hand, k, o, min_left, out, scratch):
                return state, t, k
    return state, -1, -1


@njit(cache=True, _nrt=False)
def choose_layoff(pol, state, hand, table, nt, o, opponent_close, forbidden):
    """(natural or joker, meld index) to lay off, or (-1, -1) to stop.

    Never leaves a hand that holds only ``forbidden`` (the discard taken this turn, not yet on the
    table), which could not be discarded, nor an empty hand when going out needs a discard.
    """
    n_cards = cards_in(hand)
    min_left = 1 if o[OPT.go_out_requires_discard] else 0
    stuck = forbidden >= 0 and n_cards == 2
    if n_cards - 1 < min_left or stuck:
        return state, -1, -1
    jmax = o[OPT.jokers_per_meld]
    if pol == POLICY.HEURISTIC:
        # the lowest natural held that lays off somewhere, on the first meld that takes it (the masks find it
        # without trying each card on each meld)
        fits = 0
        for t in range(nt):
            fits |= layoff_mask(table[t])
        fits &= held_mask(hand)
        if fits:
            k = lowest_bit(fits)
            for t in range(nt):
                if layoff_slot(table[t], k, jmax) >= 0:
                    return state, k, t
        if hand[JOKER] > 0 and (n_cards <= 2 or opponent_close):
            for t in range(nt):
                if layoff_slot(table[t], JOKER, jmax) >= 0:
                    return state, JOKER, t
        return state, -1, -1
    state, go = coin(state)
    if not go:
        return state, -1, -1
    count = 0
    for k in range(53):
        if hand[k] > 0:
            for t in range(nt):
                if layoff_slot(table[t], k, jmax) >= 0:
                    count += 1
    if count == 0:
        return state, -1, -1
    state, pick = below_n(state, count)
    for k in range(53):
        if hand[k] > 0:
            for t in range(nt):
                if layoff_slot(table[t], k, jmax) >= 0:
                    if pick == 0:
                        return state, k, t
                    pick -= 1
    return state, -1, -1


@njit(cache=True, _nrt=False)
def neighbours(hand, k):
    """How close natural ``k`` is to melds: other suits of its rank, same-suit cards one and two away."""
    s = k // 13
    r = k % 13
    score = 0
    for s2 in range(4):
        if s2 != s and hand[s2 * 13 + r] > 0:
            score += 6
    for qi in range(2 if r == 0 else 1):
        q = 14 if qi == 1 else r + 1
        for d in range(1, 3):
            for p in (q - d, q + d):
                if 1 <= p <= 14 and hand[kind_at(s, p)] > 0:
                    score += 5 if d == 1 else 3
    return score


@njit(cache=True, inline="always")
def neighbours_bits(b, k):
    """:func:`neighbours` from the hand's :func:`~cardlab.sim.rami.melds.hand_bits` ``b``: the same score."""
    r = k % 13
    score = 6 * rank_others(b, k)
    for qi in range(2 if r == 0 else 1):
        near = near_bits(b, k // 13, 14 if qi == 1 else r + 1)
        score += 5 * bits(near & 0b0110) + 3 * bits(near & 0b1001)
    return score


@njit(cache=True, inline="always")
def in_natural_meld_bits(b, k):
    """:func:`~cardlab.sim.rami.melds.in_natural_meld` from the hand's ``hand_bits`` ``b`` (which holds ``k``)."""
    if rank_others(b, k) >= 2:
        return True
    r = k % 13
    for qi in range(2 if r == 0 else 1):
        near = near_bits(b, k // 13, 14 if qi == 1 else r + 1)
        if near & (near >> 1):  # q-2 q-1, q-1 q+1 or q+1 q+2: a run of three through q
            return True
    return False


@njit(cache=True, _nrt=False)
def choose_discard(pol, state, hand, forbidden, table, nt, opened, o, opponent_close, out, scratch):
    """The card to discard (never ``forbidden``, the discard taken this turn while it is still in hand)."""
    legal = 0
    for k in range(53):
        if hand[k] > 0 and k != forbidden:
            legal += hand[k]
    if pol != POLICY.HEURISTIC:
        state, pick = below_n(state, legal)
        for k in range(53):
            if hand[k] > 0 and k != forbidden:
                if pick < hand[k]:
                    return state, k
                pick -= hand[k]
        return state, -1
    weight = 3 if opponent_close else 1
    best = -1
    best_score = -(1 << 40)
    # the hand's bits (hand_bits) and the naturals that lay off on the table (layoff_mask) once, then a few bit
    # operations per card: the same scores as in_natural_meld, neighbours and layoff_slot card by card
    b = hand_bits(hand)
    fits = 0
    if not opened:
        for t in range(nt):
            fits |= layoff_mask(table[t])
    for k in range(52):
        if hand[k] == 0 or k == forbidden:
            continue
        keep = 100 if in_natural_meld_bits(b, k) else 0
        keep += neighbours_bits(b, k)
        if fits >> k & 1:
            keep += 8
        score = weight * o[OPT.card_values + k] - keep
        if score >= best_score:
            best_score = score
            best = k
    if best < 0 and hand[JOKER] > 0 and forbidden != JOKER:
        best = JOKER
    return state, best


#: The kernel id of a seat played by the run's own Numba player (:mod:`cardlab.sim.user`): its discards, and its
#: draws and melds where the player makes them; its lay-offs and joker retrievals are the heuristic's.
USER = len(SHARED_POLICIES)


@njit(cache=True, inline="always")
def builtin_of(pol):
    """The built-in policy a seat plays its other decisions by: a Numba seat's are the heuristic's."""
    return POLICY.HEURISTIC if pol == USER else pol


def user_discard(user_fn, fault, seat, hand, forbidden, opened, opponent_close, o):
    """The kind seat ``seat`` discards by the run's Numba player ``user_fn`` (its callbacks: discard, draw,
    meld), called as ``discard(hand, forbidden, opened, opponent_close, values)`` (the interface's
    ``NUMBA_SEAT``). A kind it does not hold, or ``forbidden``, is written to the round's ``fault`` slot
    (seat + 1, kind) and replaced by the lowest legal kind, so the round ends and the run can report it.
    Without a Numba seat (``None``) the kernels are compiled with no call at all."""
    raise NotImplementedError("called from kernels only")


@overload(user_discard, inline="always")
def _user_discard(user_fn, fault, seat, hand, forbidden, opened, opponent_close, o):
    if isinstance(user_fn, types.NoneType):
        def no_seat(user_fn, fault, seat, hand, forbidden, opened, opponent_close, o):
            return -1
        return no_seat

    def discard(user_fn, fault, seat, hand, forbidden, opened, opponent_close, o):
        k = user_fn[0](hand, forbidden, opened, opponent_close, o[OPT.card_values:OPT.card_values + 53])
        if k < 0 or k >= 53 or hand[k] == 0 or k == forbidden:
            if fault[0] == 0:
                fault[0] = seat + 1
                fault[1] = k
            for j in range(53):
                if hand[j] > 0 and j != forbidden:
                    return j
            return -1
        return k
    return discard



def user_draw(user_fn, fault, seat, hand, top, usable, opened, opponent_close, o):
    """Whether seat ``seat`` takes the discard ``top`` (1) or draws from the stock (0), by the run's Numba player,
    called as ``draw(hand, top, usable, opened, opponent_close, values)`` only when the rules offer the discard
    (``usable``: it can go to the table this turn). -1 (also the answer of a player that leaves draws out) leaves
    the draw to the heuristic; another answer goes to ``fault`` (seat + 1, the answer) and the heuristic draws.
    A run without a Numba seat compiles no call and returns -1."""
    raise NotImplementedError("called from kernels only")


@overload(user_draw, inline="always")
def _user_draw(user_fn, fault, seat, hand, top, usable, opened, opponent_close, o):
    if isinstance(user_fn, types.NoneType):
        def no_seat(user_fn, fault, seat, hand, top, usable, opened, opponent_close, o):
            return -1
        return no_seat

    def draw(user_fn, fault, seat, hand, top, usable, opened, opponent_close, o):
        answer = user_fn[1](hand, top, usable, opened, opponent_close, o[OPT.card_values:OPT.card_values + 53])
        return yes_no(fault, seat, answer)
    return draw


def user_meld(user_fn, fault, seat, hand, opening, nobody_opened, stock_left, opponent_close, o):
    """Whether seat ``seat`` lays down the melds found (1) or holds them (0), by the run's Numba player, called as
    ``meld(hand, opening, nobody_opened, stock_left, opponent_close, values)`` when the hand has melds to lay
    (``opening``: they would open, all or none; else the new melds of an opened player). -1 leaves it to the
    heuristic; another answer goes to ``fault`` and the heuristic decides. Without a Numba seat: -1, no call."""
    raise NotImplementedError("called from kernels only")


@overload(user_meld)  # not inlined: inlining it at both of a turn's call sites trips a Numba IR check
def _user_meld(user_fn, fault, seat, hand, opening, nobody_opened, stock_left, opponent_close, o):
    if isinstance(user_fn, types.NoneType):
        def no_seat(user_fn, fault, seat, hand, opening, nobody_opened, stock_left, opponent_close, o):
            return -1
        return no_seat

    def meld(user_fn, fault, seat, hand, opening, nobody_opened, stock_left, opponent_close, o):
        answer = user_fn[2](hand, opening, nobody_opened, stock_left, opponent_close,
                            o[OPT.card_values:OPT.card_values + 53])
        return yes_no(fault, seat, answer)
    return meld


@njit(cache=True, inline="always")
def yes_no(fault, seat, answer):
    """A Numba player's yes (1), no (0) or the heuristic's (-1); any other answer is a fault, played as -1."""
    if answer < -1 or answer > 1:
        if fault[0] == 0:
            fault[0] = seat + 1
            fault[1] = answer
        return -1
    return answer
