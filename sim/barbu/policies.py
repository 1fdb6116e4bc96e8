"""Barbu card-play policies, selected per seat by an integer id.

``SEARCH`` (determinized Monte Carlo search over heuristic rollouts) lives in ``sim.barbu.search``, and
``ORACLE``, the same search over the true deal (the ladder's ceiling).

``RANDOM`` plays a uniformly random legal card (tests and baselines).

``HEURISTIC`` sees only its own hand, the cards already played and the current trick. It first
decides what the current trick means to it:

* **take** in positive contracts (Anti-Salade, Trumps): win tricks with the cheapest winning
  card when last to play; earlier, win with the lowest card no unseen card of the suit can beat
  and, holding none, play the lowest card (keep high cards for tricks it is sure to win) [R4];
  lead a card no one can beat (a "boss") if it holds one, else the lowest card of its longest
  suit; when it cannot win, throw its lowest card.
* **shed** when the trick is worth nothing and the contract punishes no card (Last Two before
  its last two tricks): play the highest legal card, so high cards are gone before they hurt;
  when leading, the high card of a short suit (rank counts twice, each card of the suit costs
  three), so voids come early and later high cards can be thrown [R3].
* **avoid** otherwise: when following, duck under the current winner with the highest card
  that still loses; when it must win, play the highest card that carries no points (last to
  play) or the lowest card that others can still beat (earlier), except in a suit that holds
  no point card of a contract that has some (a club in No Hearts or No K♥): there the trick
  is won cheaply, so throw the highest point-free winner [R5]. When void, discard the card
  that costs most in this contract (K♥, queens, hearts), the highest of equal cost (A♥ before
  2♥: it would win a heart trick later) [R1], else the highest card, from the shortest suit on
  ties. When leading, choose the suit whose lowest card has the most unseen cards above it,
  avoid leading point cards unless at least three unseen cards of the suit lie above (a low
  heart is a safe lead) [R2], and keep dangerous cards covered (do not lead from a suit holding
  a point card it can still lose under).

The rules marked [R1]…[R5] were found where the search policy beat the heuristic, each kept
because one seat playing it among seats without it gains on the same deals (paired, 95% CI above zero; README "The heuristic's
rules from the search gap"). ``CLASSIC`` is the heuristic with all five switched off, as data:
its seats' trick ``mode`` carries the bits of the switched-off rules (:func:`seat_mode`), so the
same kernel plays both.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from cardlab.sim.cards import LANE, ONE, SUIT_LANE_MASK, ZERO, below, bit, highest_card, lowest_card, nth_card, popcount
from cardlab.sim.policy import POLICY as SHARED, SHARED_POLICIES
from cardlab.sim.rng import below_n


class Policy(NamedTuple):
    """The kernel ids of Barbu's policies: the shared ones of :mod:`cardlab.sim.policy`, then its own."""

    RANDOM: int = SHARED.RANDOM
    HEURISTIC: int = SHARED.HEURISTIC
    SEARCH: int = SHARED.SEARCH  # Monte Carlo search over heuristic rollouts: sim.barbu.search
    ORACLE: int = SHARED.ORACLE  # the same search over the true deal (it sees every hand): sim.barbu.search
    CLASSIC: int = len(SHARED_POLICIES)  # 4: the heuristic without the rules R1-R5 (MODE_CLASSIC)
    USER: int = len(SHARED_POLICIES) + 1  # 5: the run's own Numba card function (cardlab.sim.user)


POLICY = Policy()
POLICY_NAMES = SHARED_POLICIES + ("classic",)

SUIT = np.array([SUIT_LANE_MASK << np.uint64(LANE * s) for s in range(4)], np.uint64)

MODE_AVOID, MODE_SHED, MODE_TAKE = 0, 1, 2
# The rules R1-R5 (module docstring), one bit each. A trick's mode carries, times MODE_CLASSIC,
# the bits of the rules a seat plays without; a ``classic`` seat plays without all of them.
RULE_DISCARD_HIGH, RULE_POINT_LEAD, RULE_SHED_SHORT, RULE_TAKE_DUCK, RULE_WIN_HIGH = 1, 2, 4, 8, 16  # R1-R5
ALL_RULES = 31
MODE_CLASSIC = 4
SAFE_POINT_LEAD = 3  # R2: a point card with this many unseen cards of its suit above it may be led


@njit(cache=True, error_model="numpy", inline="always")
def seat_mode(mode, policy):
    """The trick's ``mode`` for a seat playing ``policy``: a ``classic`` seat adds every rule's off bit."""
    return mode + MODE_CLASSIC * ALL_RULES if policy == POLICY.CLASSIC else mode


def user_card(user_fn, fault, p, hand, legal, led, best, trump, last, unseen, values, points):
    """The card of seat ``p`` played by the run's Numba function ``user_fn`` (signature in
    :mod:`cardlab.sim.user`). A card outside ``legal`` is written to the deal's ``fault`` slot
    (seat + 1, card) and replaced by the lowest legal card, so the deal ends and the run can report it.
    A run without a Numba seat passes ``None``: the kernels are then compiled with no call at all (the
    code of the built-in seats is the same as without Numba seats)."""
    raise NotImplementedError("called from kernels only")


@overload(user_card, inline="always")
def _user_card(user_fn, fault, p, hand, legal, led, best, trump, last, unseen, values, points):
    if isinstance(user_fn, types.NoneType):
        def no_seat(user_fn, fault, p, hand, legal, led, best, trump, last, unseen, values, points):
            return -1
        return no_seat

    def seat(user_fn, fault, p, hand, legal, led, best, trump, last, unseen, values, points):
        c = user_fn(hand, legal, led, best, trump, last, unseen, values, points)
        if c < 0 or c >= 64 or legal & bit(c) == ZERO:
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = c
            return lowest_card(legal)
        return c
    return seat


@njit(cache=True, error_model="numpy", inline="always")
def random_card(state, legal):
    """A uniformly random card of ``legal``: returns (state, card)."""
    state, k = below_n(state, popcount(legal))
    return state, nth_card(legal, k)


@njit(cache=True, error_model="numpy", _nrt=False)
def _lead_avoid(hand, legal, unseen, values, point_mask, r2_off):
    best_card = -1
    best_score = -(1 << 30)
    for s in range(4):
        mine = legal & SUIT[s]
        if mine == ZERO:
            continue
        c = lowest_card(mine)
        others = unseen & SUIT[s]
        above = popcount(others & ~below(c + 1))
        score = 4 * above - popcount(others & below(c))
        if values[c] < 0 and (r2_off != 0 or above < SAFE_POINT_LEAD):
            score -= 64 - values[c]
        held_points = hand & SUIT[s] & point_mask & ~bit(c)
        if held_points != ZERO and popcount(others & ~below(highest_card(held_points))) > 0:
            score -= 32
        if above == 0:
            score -= 128
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@njit(cache=True, error_model="numpy", _nrt=False)
def _lead_take(hand, legal, unseen):
    longest = -1
    longest_len = -1
    for s in range(4):
        mine = legal & SUIT[s]
        if mine == ZERO:
            continue
        top = highest_card(mine)
        if unseen & SUIT[s] & ~below(top + 1) == ZERO:
            return top
        n = popcount(mine)
        if n > longest_len:
            longest_len = n
            longest = lowest_card(mine)
    return longest


@njit(cache=True, error_model="numpy", _nrt=False)
def _discard_avoid(hand, legal, values, point_mask, r1_off):
    worst = -1
    worst_key = 0
    m = legal & point_mask
    while m != ZERO:
        c = lowest_card(m)
        m &= m - ONE
        key = values[c] * 16 if r1_off != 0 else values[c] * 16 - (c & (LANE - 1))  # R1: ties, the highest
        if key < worst_key:
            worst_key = key
            worst = c
    if worst >= 0:
        return worst
    best = -1
    best_key = -1
    for s in range(4):
        mine = legal & SUIT[s]
        if mine == ZERO:
            continue
        top = highest_card(mine)
        key = (top - LANE * s) * 16 + (15 - popcount(hand & SUIT[s]))
        if key > best_key:
            best_key = key
            best = top
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def _lead_shed(hand, legal):
    """R3: the lead that sheds a high card and shortens a short suit: the top card of the suit with the
    best ``2 * rank - 3 * length``."""
    best = -1
    best_key = -(1 << 30)
    for s in range(4):
        mine = legal & SUIT[s]
        if mine == ZERO:
            continue
        top = highest_card(mine)
        key = 2 * (top - LANE * s) - popcount(hand & SUIT[s]) * 3
        if key > best_key:
            best_key = key
            best = top
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def _lowest_rank(legal, point_mask):
    """The lowest-ranked card of ``legal``, preferring cards that carry no points."""
    plain = legal & ~point_mask
    if plain != ZERO:
        legal = plain
    best = -1
    best_rank = 99
    for s in range(4):
        mine = legal & SUIT[s]
        if mine != ZERO:
            c = lowest_card(mine)
            if c - LANE * s < best_rank:
                best_rank = c - LANE * s
                best = c
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def _highest_rank(legal):
    best = -1
    best_rank = -1
    for s in range(4):
        mine = legal & SUIT[s]
        if mine != ZERO:
            c = highest_card(mine)
            if c - LANE * s > best_rank:
                best_rank = c - LANE * s
                best = c
    return best


@njit(cache=True, error_model="numpy", inline="always")
def heuristic_card(hand, legal, led, best, trump, is_last, unseen, values, point_mask, mode):
    """The heuristic's card (see the module docstring).

    ``led`` is the led suit (-1 when leading), ``best`` the card now winning the trick,
    ``trump`` the trump suit (-1 for none), ``unseen`` the cards neither played nor in ``hand``,
    ``values`` the contract's per-card points, ``point_mask`` the cards worth points, ``mode``
    the trick's MODE_* plus MODE_CLASSIC times the bits of the rules played without.

    The helpers it calls (``_lead_avoid`` ...) are compiled without reference counting (``_nrt=False``; they
    allocate nothing), so that no call counts a reference to ``values`` whichever kernel compiles them first.
    """
    if popcount(legal) == 1:
        return lowest_card(legal)
    off = mode // MODE_CLASSIC
    mode &= MODE_CLASSIC - 1
    if mode == MODE_SHED:
        if led < 0 and off & RULE_SHED_SHORT == 0:
            return _lead_shed(hand, legal)
        return _highest_rank(legal)
    if led < 0:
        if mode == MODE_TAKE:
            return _lead_take(hand, legal, unseen)
        return _lead_avoid(hand, legal, unseen, values, point_mask, off & RULE_POINT_LEAD)

    best_suit = best // LANE
    # Cards of legal that would now win the trick.
    if best_suit == trump:
        winners = legal & SUIT[trump] & ~below(best + 1)
    else:
        winners = legal & SUIT[best_suit] & ~below(best + 1)
        if trump >= 0:
            winners |= legal & SUIT[trump]
    losers = legal & ~winners

    if mode == MODE_TAKE:
        if winners == ZERO:
            return _lowest_rank(losers, point_mask)
        in_suit = winners & SUIT[led]
        if in_suit != ZERO:
            if is_last:
                return lowest_card(in_suit)
            if off & RULE_TAKE_DUCK:
                return highest_card(in_suit)
            # R4: not last, the lowest sure winner, else duck with the lowest card
            sure = in_suit & ~below(highest_card(unseen & SUIT[led]) + 1) if unseen & SUIT[led] != ZERO else in_suit
            if sure != ZERO:
                return lowest_card(sure)
            return lowest_card(legal)
        return lowest_card(winners)  # the cheapest trump that wins

    following = (legal & SUIT[led]) != ZERO
    if losers != ZERO:
        if following:
            return highest_card(losers & SUIT[led]) if (losers & SUIT[led]) != ZERO else _discard_avoid(hand, losers, values, point_mask, off & RULE_DISCARD_HIGH)
        return _discard_avoid(hand, losers, values, point_mask, off & RULE_DISCARD_HIGH)
    # Every legal card wins for now.
    if is_last:
        plain = winners & ~point_mask
        return _highest_rank(plain) if plain != ZERO else _discard_avoid(hand, winners, values, point_mask, off & RULE_DISCARD_HIGH)
    c = lowest_card(winners)
    free = off & RULE_WIN_HIGH == 0 and point_mask != ZERO and point_mask & SUIT[led] == ZERO
    if following and (free or popcount(unseen & SUIT[led] & ~below(c + 1)) == 0):
        plain = winners & ~point_mask
        return _highest_rank(plain) if plain != ZERO else c
    return c
