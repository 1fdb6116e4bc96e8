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

from numba import njit, types
from numba.extending import overload

from cardlab.sim.policy import POLICY, ROLLOUT_POLICIES as POLICY_NAMES, SHARED_POLICIES  # random 0, heuristic 1

from cardlab.sim.rami.melds import (MODE_HAND, MODE_MELD, best_melds_nb, in_natural_meld, kind_at, layoff_slot,
                                    meld_jokers, meld_size, retrieve_slot)
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
def opening_melds(hand, o, min_left, out, scratch):
    """The best opening of ``hand`` (its melds written to ``out``): (its meld value, -1 for none; its count)."""
    value, n, _ = best_melds_nb(hand, MODE_MELD, o[OPT.open_needs_pure_run], o[OPT.open_threshold], -1, 0, min_left,
                                o[OPT.jokers_per_meld], o[OPT.card_values:], out, scratch)
    return value, n


@njit(cache=True, _nrt=False)
def choose_opening(pol, state, hand, o, nobody_opened, stock_left, min_left, out, scratch):
    """Melds to open with (written to ``out``): (state, their count (0 to hold), whether an opening exists)."""
    value, n = opening_melds(hand, o, min_left, out, scratch)
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
def choose_melds(pol, state, hand, o, min_left, out, scratch):
    """New melds for an opened player (written to ``out``; their count)."""
    value, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 0, min_left, o[OPT.jokers_per_meld],
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
def freed_joker_usable(hand, kind, o, min_left, out, scratch):
    """After putting ``kind`` in place of a table joker, can the joker go into a new meld from this hand?"""
    if o[OPT.freed_joker_anywhere]:
        return True
    hand[kind] -= 1
    hand[JOKER] += 1
    value, _, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 1, min_left, o[OPT.jokers_per_meld],
                                o[OPT.card_values:], out, scratch)
    hand[kind] += 1
    hand[JOKER] -= 1
    return value >= 0


@njit(cache=True, _nrt=False)
def choose_retrieval(pol, state, hand, table, nt, o, min_left, out, scratch):
    """(meld index, natural) to take a joker back with, or (-1, -1)."""
    if pol != POLICY.HEURISTIC:
        return state, -1, -1
    for t in range(nt):
        if meld_jokers(table[t]) == 0:
            continue
        for k in range(52):
            if hand[k] > 0 and retrieve_slot(table[t], k) >= 0 and freed_joker_usable(hand, k, o, min_left, out, scratch):
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
        for k in range(52):
            if hand[k] > 0:
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
    for k in range(52):
        if hand[k] == 0 or k == forbidden:
            continue
        keep = 100 if in_natural_meld(hand, k) else 0
        keep += neighbours(hand, k)
        if not opened:
            for t in range(nt):
                if layoff_slot(table[t], k, o[OPT.jokers_per_meld]) >= 0:
                    keep += 8
                    break
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
