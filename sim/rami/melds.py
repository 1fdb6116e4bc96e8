"""Melds: the exact meld search and the geometry of table melds, as ``@njit`` kernels.

A hand is a count vector: entries 0..51 count the copies (0, 1 or 2) of each natural card
(``kind = suit * 13 + rank - 1``), entry 52 counts jokers. A meld is one row of ``MELD_W``
integers:

* set: ``(SET, rank 1..13, mask of the natural suits, jokers 0/1, 0, owner)``;
* run: ``(RUN, suit, lo, hi, mask of joker positions, owner)`` over positions 1..14 where 1 is
  the ace low and 14 the ace high.

:func:`best_melds_nb` finds, exactly, the disjoint melds of a hand that maximise either their
meld value (``MODE_MELD``: the opening count) or the hand value they remove (``MODE_HAND``:
lowest hand left), under constraints (a joker-free run, a minimum meld value, one card that must
be used, a number of jokers that must be used, cards that must stay in hand). It is a branch
and bound over the lowest card left: that card either stays in hand (with its twin) or starts a
meld made of it and higher cards and jokers; every set and every run through it, with each
possible placement of the jokers, is tried, so nothing is missed. The bound is the value of
every undecided card that fits some meld of the hand (a card that fits none is never melded, so it
is passed over); a hand with no three consecutive naturals of a suit has no joker-free run.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardlab.sim.cards import ctz, popcount
from cardlab.sim.rami.rules import HAND_VALUE, HAND_W, JOKER, RUN_VALUE, SET_VALUE, card_name, parse_hand

SET, RUN = 0, 1
MELD_W = 6
M_TYPE, M_A, M_B, M_C, M_D, M_OWNER = 0, 1, 2, 3, 4, 5
MODE_MELD, MODE_HAND = 0, 1
MAX_MELDS = 40  # melds on a table, or in one search result (108 cards / 3 < 40)
NO_JOKER_LIMIT = 99

# search context slots
C_MODE, C_PURE, C_MINVAL, C_FORCE, C_MINJK, C_MINLEFT, C_JMAX, C_BEST, C_BESTN, C_BESTVAL, C_NODES, C_OVERFLOW = range(12)
CTX_W = 12
# candidate meld rows in the scratch buffer: the meld (5 fields), then its gain, value, weight, jokers, flags
K_GAIN, K_VALUE, K_WEIGHT, K_JOKERS, K_FORCE, K_PURE = 5, 6, 7, 8, 9, 10
CAND_W = 11
CAND_MAX = 1 << 15
# search frames
F_START, F_C, F_OBJ, F_MVAL, F_PURE, F_FUSED, F_JUSED, F_LEFT, F_REMW, F_DEPTH, F_CAND0, F_CAND1, F_NEXT, F_APPLIED, \
    F_SKIPN, F_STAGE = range(16)
FRAME_W = 16
MAX_LEVELS = 96  # frames: at most one per distinct card plus one per meld (52 + 36 < 96)
APPLIED_NONE, APPLIED_SKIP = -1, -2


# the work space, one flat buffer per thread carved into: candidate melds, search frames, the
# melds on the current path, the hand being searched, card weights, the search context
_CAND_END = CAND_MAX * CAND_W
_FRAMES_END = _CAND_END + MAX_LEVELS * FRAME_W
_CUR_END = _FRAMES_END + MAX_MELDS * MELD_W
_CNT_END = _CUR_END + HAND_W
_WTS_END = _CNT_END + 52
SCRATCH_SIZE = _WTS_END + CTX_W


def new_scratch() -> np.ndarray:
    """Work space of the meld search (one per thread, allocated once and reused by every search)."""
    return np.empty(SCRATCH_SIZE, np.int64)


@njit(cache=True)
def new_scratch_nb():
    return np.empty(SCRATCH_SIZE, np.int64)


@njit(cache=True, inline="always")
def _views(scratch):
    """The parts of the work space (views, no allocation): cand, frames, cur, cnt, wts, ctx."""
    return (scratch[:_CAND_END].reshape((CAND_MAX, CAND_W)),
            scratch[_CAND_END:_FRAMES_END].reshape((MAX_LEVELS, FRAME_W)),
            scratch[_FRAMES_END:_CUR_END].reshape((MAX_MELDS, MELD_W)),
            scratch[_CUR_END:_CNT_END], scratch[_CNT_END:_WTS_END], scratch[_WTS_END:])


@njit(cache=True, inline="always")
def bits(x):
    """Number of set bits of a non-negative integer (one ``popcnt``: the meld search counts jokers and gaps
    with it for every candidate run)."""
    return popcount(np.uint64(x))


@njit(cache=True, inline="always")
def kind_at(suit, pos):
    """The natural card at run position ``pos`` (1..14; 1 and 14 are both the ace) of ``suit``."""
    return suit * 13 + (pos - 1 if pos <= 13 else 0)


# ------------------------------------------------------------------------------ meld geometry


@njit(cache=True, _nrt=False)
def meld_jokers(m):
    return m[M_C] if m[M_TYPE] == SET else bits(m[M_D])


@njit(cache=True, _nrt=False)
def meld_size(m):
    if m[M_TYPE] == SET:
        return bits(m[M_B]) + m[M_C]
    return m[M_C] - m[M_B] + 1


@njit(cache=True)
def meld_value(m):
    """Meld value: a set counts its rank (ace 11) per card, a run each position (ace 1 low, 11 high)."""
    if m[M_TYPE] == SET:
        return SET_VALUE[m[M_A] - 1] * meld_size(m)
    v = 0
    for p in range(m[M_B], m[M_C] + 1):
        v += RUN_VALUE[p]
    return v


@njit(cache=True, _nrt=False)
def add_meld_cards(m, counts, sign):
    """Add (sign=+1) or remove (sign=-1) the meld's cards to/from a count vector."""
    if m[M_TYPE] == SET:
        for s in range(4):
            if m[M_B] >> s & 1:
                counts[s * 13 + m[M_A] - 1] += sign
        counts[JOKER] += sign * m[M_C]
    else:
        for p in range(m[M_B], m[M_C] + 1):
            if m[M_D] >> p & 1:
                counts[JOKER] += sign
            else:
                counts[kind_at(m[M_A], p)] += sign


@njit(cache=True)
def valid_meld(m, jmax):
    """A legal meld: sets of 3-4 distinct suits, runs of 3-13 in 1..14, jokers <= limit and < naturals."""
    size = meld_size(m)
    jokers = meld_jokers(m)
    if jokers > jmax or jokers >= size - jokers:
        return False
    if m[M_TYPE] == SET:
        return 1 <= m[M_A] <= 13 and 3 <= size <= 4 and 0 <= m[M_C] <= 1 and 0 <= m[M_B] < 16
    if m[M_TYPE] != RUN or not 0 <= m[M_A] <= 3 or m[M_B] < 1 or m[M_C] > 14 or not 3 <= size <= 13:
        return False
    return (m[M_D] & ~(((1 << (m[M_C] + 1)) - 1) ^ ((1 << m[M_B]) - 1))) == 0


@njit(cache=True, _nrt=False)
def layoff_slot(m, kind, jmax):
    """Where card ``kind`` can be laid off on meld ``m``: run position, set suit (or 0 for a joker), -1 if nowhere.

    A natural extends a run at either end, or joins a set of 3 in a missing suit. A joker joins a
    joker-free set of 3 or a run (jokers stay within the limit and fewer than the naturals); on a
    run it goes to the end worth more (the high end when it is free).
    """
    size = meld_size(m)
    jokers = meld_jokers(m)
    if kind == JOKER:
        if jokers + 1 > jmax or jokers + 1 >= size - jokers:
            return -1
        if m[M_TYPE] == SET:
            return 0 if size < 4 and m[M_C] == 0 else -1
        if size >= 13:
            return -1
        if m[M_C] < 14:
            return m[M_C] + 1
        return m[M_B] - 1
    if m[M_TYPE] == SET:
        if size < 4 and kind % 13 == m[M_A] - 1 and not (m[M_B] >> (kind // 13) & 1):
            return kind // 13
        return -1
    if kind // 13 != m[M_A] or size >= 13:
        return -1
    if m[M_C] < 14 and kind_at(m[M_A], m[M_C] + 1) == kind:
        return m[M_C] + 1
    if m[M_B] > 1 and kind_at(m[M_A], m[M_B] - 1) == kind:
        return m[M_B] - 1
    return -1


@njit(cache=True, _nrt=False)
def apply_layoff(m, kind, slot):
    """Lay card ``kind`` on meld ``m`` at ``slot`` (from :func:`layoff_slot`)."""
    if m[M_TYPE] == SET:
        if kind == JOKER:
            m[M_C] += 1
        else:
            m[M_B] |= 1 << slot
        return
    if slot < m[M_B]:
        m[M_B] = slot
    else:
        m[M_C] = slot
    if kind == JOKER:
        m[M_D] |= 1 << slot


@njit(cache=True, _nrt=False)
def retrieve_slot(m, kind):
    """Where natural ``kind`` frees a joker of meld ``m``: the joker's run position or the set suit, else -1."""
    if kind == JOKER:
        return -1
    if m[M_TYPE] == SET:
        if m[M_C] == 1 and kind % 13 == m[M_A] - 1 and not (m[M_B] >> (kind // 13) & 1):
            return kind // 13
        return -1
    if kind // 13 != m[M_A]:
        return -1
    for p in range(m[M_B], m[M_C] + 1):
        if m[M_D] >> p & 1 and kind_at(m[M_A], p) == kind:
            return p
    return -1


@njit(cache=True, _nrt=False)
def apply_retrieve(m, slot):
    """Put the natural in place of the joker at ``slot``; the joker leaves the meld."""
    if m[M_TYPE] == SET:
        m[M_B] |= 1 << slot
        m[M_C] = 0
    else:
        m[M_D] &= ~(1 << slot)


# ------------------------------------------------------------------------------ the meld search


@njit(cache=True, _nrt=False)
def has_pure_run(hand):
    """Does the hand hold three consecutive naturals of one suit (A-2-3 up to Q-K-A)?"""
    for s in range(4):
        m = 0
        for p in range(1, 15):
            if hand[kind_at(s, p)] > 0:
                m |= 1 << p
        if m & (m >> 1) & (m >> 2):
            return True
    return False


#: the rank bit of every suit in :func:`hand_bits` (shifted by the run position)
SUIT_BITS = (1 << 0) | (1 << 16) | (1 << 32) | (1 << 48)
ACE_LOW_BITS = SUIT_BITS << 1


@njit(cache=True, _nrt=False)
def hand_bits(hand):
    """The naturals held, as one integer: bit ``16 * suit + position`` for run positions 1..14 (an ace sets 1 and 14).

    The tests of a card's neighbourhood (:func:`isolated_bits`, ``policies.neighbours_bits``) then read a few bits
    instead of a dozen entries of the count vector: computed once per hand, it serves every card of the hand.
    """
    b = 0
    for s in range(4):
        for r in range(13):
            if hand[s * 13 + r] > 0:
                b |= 1 << (16 * s + r + 1)
    return b | (b & ACE_LOW_BITS) << 13


@njit(cache=True, inline="always")
def rank_others(b, k):
    """How many other suits of natural ``k``'s rank the hand of :func:`hand_bits` ``b`` holds."""
    return bits((b >> (k % 13 + 1)) & SUIT_BITS & ~(1 << (16 * (k // 13))))


@njit(cache=True, inline="always")
def near_bits(b, s, q):
    """Same-suit positions around run position ``q`` of suit ``s`` held in ``b``: bits 0..3 for q-2, q-1, q+1, q+2."""
    pm = ((b >> (16 * s)) & 0xFFFF) << 2  # position p at bit p + 2 (positions -1..0 and 15..16 are never held)
    return ((pm >> q) & 3) | (((pm >> (q + 3)) & 3) << 2)


@njit(cache=True, _nrt=False)
def isolated_bits(b, jokers, k, jmax):
    """:func:`isolated` from the hand's :func:`hand_bits` ``b`` (``jokers``: it holds one): the same answer."""
    if k == JOKER or jmax > 1:
        return False
    others = rank_others(b, k)
    if others >= 2 or (others >= 1 and jokers):
        return False
    s = k // 13
    r = k % 13
    for qi in range(2 if r == 0 else 1):
        near = near_bits(b, s, 14 if qi == 1 else r + 1)
        if near & (near >> 1) or (jokers and near):
            return False
    return True


@njit(cache=True, _nrt=False)
def isolated(hand, k, jmax):
    """True when no meld of ``hand`` (which holds ``k``) can contain natural ``k``: a cheap exact test.

    A set needs two other suits of the rank, or one and a joker; a run needs the two cards on
    one side or both neighbours, or, with a joker, any same-suit card within two places. With
    more than one joker per meld the test gives up (returns False).
    """
    if k == JOKER or jmax > 1:
        return False
    s = k // 13
    r = k % 13
    jokers = hand[JOKER] > 0
    others = 0
    for s2 in range(4):
        if s2 != s and hand[s2 * 13 + r] > 0:
            others += 1
    if others >= 2 or (others >= 1 and jokers):
        return False
    for qi in range(2 if r == 0 else 1):
        q = 14 if qi == 1 else r + 1
        near = 0  # bits 0..3: positions q-2, q-1, q+1, q+2 held
        for i, d in enumerate((-2, -1, 1, 2)):
            p = q + d
            if 1 <= p <= 14 and hand[kind_at(s, p)] > 0:
                near |= 1 << i
        if near & (near >> 1):  # two neighbouring bits: q-2 q-1, q-1 q+1 or q+1 q+2 complete a run
            return False
        if jokers and near:
            return False
    return True


@njit(cache=True, _nrt=False)
def _put(cand, top, ctx, typ, a, b, c, d, gain, value, weight, nj, used_force, is_pure):
    if top >= CAND_MAX:
        ctx[C_OVERFLOW] = 1
        return top
    cand[top, M_TYPE] = typ
    cand[top, M_A] = a
    cand[top, M_B] = b
    cand[top, M_C] = c
    cand[top, M_D] = d
    cand[top, K_GAIN] = gain
    cand[top, K_VALUE] = value
    cand[top, K_WEIGHT] = weight
    cand[top, K_JOKERS] = nj
    cand[top, K_FORCE] = used_force
    cand[top, K_PURE] = is_pure
    return top + 1


@njit(cache=True, _nrt=False)
def _candidates(cnt, c, ctx, wts, values, cand, top):
    """Write every meld through card ``c`` (the lowest card left) to ``cand`` from ``top``; returns the new top.

    Sets: c and naturals of its rank in higher suits (lower suits are already decided), with or
    without a joker. Runs: every interval of c's suit through c's position (1 or 14 for an ace)
    where the positions without a natural take jokers, plus every choice of extra jokers standing in
    for naturals held (so those naturals can meld elsewhere), within the joker limit.
    """
    mode_hand = ctx[C_MODE] == MODE_HAND
    force = ctx[C_FORCE]
    jk = cnt[JOKER]
    jmax = min(ctx[C_JMAX], jk)
    s = c // 13
    r = c % 13
    cnt[c] -= 1
    avail = 0
    for s2 in range(s + 1, 4):
        if cnt[s2 * 13 + r] > 0:
            avail |= 1 << s2
    sub = avail
    while sub:
        nat = 1 + bits(sub)
        for j in range(2):
            size = nat + j
            if size < 3 or size > 4 or j > jmax or j >= nat:
                continue
            used_force = c == force
            for s2 in range(s + 1, 4):
                if sub >> s2 & 1 and s2 * 13 + r == force:
                    used_force = True
            value = SET_VALUE[r] * size
            gain = values[c] * nat + values[JOKER] * j if mode_hand else value
            top = _put(cand, top, ctx, SET, r + 1, (1 << s) | sub, j, 0, gain, value, wts[c] * nat, j, used_force,
                       False)
        sub = (sub - 1) & avail
    for qi in range(2 if r == 0 else 1):
        q = 14 if qi == 1 else r + 1
        for lo in range(q, max(1, q - 12) - 1, -1):
            # the naturals held at the positions of the interval other than q (``av``, with the sums of their
            # weights and values and where the card to use sits among them) and the positions without one
            # (``miss``), kept up to date as hi grows: a candidate's sums then cost a subtraction, not a loop
            av = 0
            miss = 0
            aw = 0
            ag = 0
            fpos = -1
            for p in range(lo, q):
                k = kind_at(s, p)
                if cnt[k] > 0:
                    av |= 1 << p
                    aw += wts[k]
                    ag += values[k]
                    if k == force:
                        fpos = p
                else:
                    miss |= 1 << p
            if bits(miss) > jmax:
                break
            value = 0
            for p in range(lo, q + 1):
                value += RUN_VALUE[p]
            for hi in range(q, min(14, lo + 12) + 1):
                if hi > q:
                    value += RUN_VALUE[hi]
                    k = kind_at(s, hi)
                    if cnt[k] > 0:
                        av |= 1 << hi
                        aw += wts[k]
                        ag += values[k]
                        if k == force:
                            fpos = hi
                    else:
                        miss |= 1 << hi
                nm = bits(miss)
                if nm > jmax:
                    break
                length = hi - lo + 1
                if length < 3:
                    continue
                lim = jmax - nm
                extra = 0
                e = av
                while True:
                    jmask = miss | extra
                    nj = bits(jmask)
                    if bits(extra) <= lim and nj < length - nj:
                        # the naturals are av without extra (the jokers standing in for naturals held)
                        weight = wts[c] + aw
                        gain = values[c] + values[JOKER] * nj + ag
                        x = extra
                        while x:
                            p = ctz(np.uint64(x))
                            x ^= 1 << p
                            k = kind_at(s, p)
                            weight -= wts[k]
                            gain -= values[k]
                        used_force = c == force or (fpos >= 0 and not (extra >> fpos & 1))
                        if not mode_hand:
                            gain = value
                        top = _put(cand, top, ctx, RUN, s, lo, hi, jmask, gain, value, weight, nj, used_force, nj == 0)
                    if lim <= 0 or e == 0:
                        break
                    if lim == 1:
                        extra = e & -e
                        e ^= extra
                    else:
                        extra = e
                        e = (e - 1) & av
    cnt[c] += 1
    return top


@njit(cache=True, _nrt=False)
def _leaf(f, L, cnt, ctx, cur, best):
    if ((ctx[C_PURE] == 0 or f[L, F_PURE]) and f[L, F_MVAL] >= ctx[C_MINVAL] and (ctx[C_FORCE] < 0 or f[L, F_FUSED])
            and f[L, F_JUSED] >= ctx[C_MINJK] and f[L, F_LEFT] + cnt[JOKER] >= ctx[C_MINLEFT]
            and f[L, F_OBJ] > ctx[C_BEST]):
        depth = f[L, F_DEPTH]
        ctx[C_BEST] = f[L, F_OBJ]
        ctx[C_BESTN] = depth
        ctx[C_BESTVAL] = f[L, F_MVAL]
        for i in range(depth):
            for k in range(MELD_W):
                best[i, k] = cur[i, k]


@njit(cache=True, _nrt=False)
def _search(cnt, ctx, cur, best, wts, jw, values, remw, cand, f):
    """Branch and bound over the lowest undecided card, with an explicit stack of ``f`` frames."""
    for k in range(FRAME_W):
        f[0, k] = 0
    f[0, F_REMW] = remw
    f[0, F_APPLIED] = APPLIED_NONE
    L = 0
    top = 0
    while L >= 0:
        if f[L, F_STAGE] == 0:  # entering a node
            ctx[C_NODES] += 1
            c = f[L, F_START]
            while c < 52 and (cnt[c] == 0 or wts[c] == 0):
                f[L, F_LEFT] += cnt[c]  # a card that fits no meld (weight 0) just stays in hand
                c += 1
            if c == 52:
                _leaf(f, L, cnt, ctx, cur, best)
                L -= 1
                continue
            if f[L, F_OBJ] + f[L, F_REMW] <= ctx[C_BEST] or (
                    ctx[C_MODE] == MODE_MELD and f[L, F_MVAL] + f[L, F_REMW] < ctx[C_MINVAL]) or (
                    0 <= ctx[C_FORCE] < c and f[L, F_FUSED] == 0):
                # no leaf below can win: the bound, or the card to use already left in hand (cards are decided
                # lowest first); pruned, these subtrees hold no leaf that meets the constraints, so the search
                # meets the same leaves in the same order and returns the same melds
                L -= 1
                continue
            f[L, F_C] = c
            f[L, F_CAND0] = top
            top = _candidates(cnt, c, ctx, wts, values, cand, top)
            f[L, F_CAND1] = top
            f[L, F_NEXT] = f[L, F_CAND0]
            f[L, F_APPLIED] = APPLIED_NONE
            f[L, F_STAGE] = 1
        c = f[L, F_C]
        applied = f[L, F_APPLIED]
        if applied >= 0:  # back from a child: take its meld back
            add_meld_cards(cand[applied], cnt, 1)
            f[L, F_APPLIED] = APPLIED_NONE
        elif applied == APPLIED_SKIP:  # back from the "stays in hand" child: the node is done
            cnt[c] = f[L, F_SKIPN]
            top = f[L, F_CAND0]
            L -= 1
            continue
        if L + 1 >= MAX_LEVELS:
            ctx[C_OVERFLOW] = 1
            top = f[L, F_CAND0]
            L -= 1
            continue
        g = L + 1
        for k in range(FRAME_W):
            f[g, k] = 0
        f[g, F_APPLIED] = APPLIED_NONE
        i = f[L, F_NEXT]
        if i < f[L, F_CAND1]:  # next meld through c
            f[L, F_NEXT] = i + 1
            add_meld_cards(cand[i], cnt, -1)
            f[L, F_APPLIED] = i
            d = f[L, F_DEPTH]
            for k in range(5):
                cur[d, k] = cand[i, k]
            f[g, F_START] = c
            f[g, F_OBJ] = f[L, F_OBJ] + cand[i, K_GAIN]
            f[g, F_MVAL] = f[L, F_MVAL] + cand[i, K_VALUE]
            f[g, F_PURE] = f[L, F_PURE] | cand[i, K_PURE]
            f[g, F_FUSED] = f[L, F_FUSED] | cand[i, K_FORCE]
            f[g, F_JUSED] = f[L, F_JUSED] + cand[i, K_JOKERS]
            f[g, F_LEFT] = f[L, F_LEFT]
            f[g, F_REMW] = f[L, F_REMW] - cand[i, K_WEIGHT] - jw * cand[i, K_JOKERS]
            f[g, F_DEPTH] = d + 1
        else:  # c and its twin stay in hand
            n = cnt[c]
            f[L, F_SKIPN] = n
            cnt[c] = 0
            f[L, F_APPLIED] = APPLIED_SKIP
            f[g, F_START] = c + 1
            f[g, F_OBJ] = f[L, F_OBJ]
            f[g, F_MVAL] = f[L, F_MVAL]
            f[g, F_PURE] = f[L, F_PURE]
            f[g, F_FUSED] = f[L, F_FUSED]
            f[g, F_JUSED] = f[L, F_JUSED]
            f[g, F_LEFT] = f[L, F_LEFT] + n
            f[g, F_REMW] = f[L, F_REMW] - n * wts[c]
            f[g, F_DEPTH] = f[L, F_DEPTH]
        L = g


@njit(cache=True, _nrt=False)
def best_melds_nb(hand, mode, need_pure, min_value, force, min_jokers, min_left, jmax, values, out, scratch):
    """Best disjoint melds of ``hand`` (count vector); returns (objective, melds written to ``out``, meld value).

    ``mode``: MODE_MELD maximises the meld value, MODE_HAND the hand value melded, by ``values`` (what each
    entry of a count vector costs left in hand, every one at least 1: :attr:`RamiOptions.card_values`, in the
    kernels ``o[OPT.card_values:]``). Constraints:
    ``need_pure`` a joker-free run; meld value >= ``min_value``; card ``force`` (or -1) used;
    at least ``min_jokers`` jokers used; at least ``min_left`` cards left in hand; ``jmax``
    jokers per meld. Objective -1 (and no melds) when no choice meets the constraints.
    ``scratch`` is the work space from :func:`new_scratch`.
    """
    if need_pure and not has_pure_run(hand):
        return -1, 0, 0
    cand, frames, cur, cnt, wts, ctx = _views(scratch)
    ctx[:] = 0
    ctx[C_MODE] = mode
    ctx[C_PURE] = need_pure
    ctx[C_MINVAL] = min_value
    ctx[C_FORCE] = force
    ctx[C_MINJK] = min_jokers
    ctx[C_MINLEFT] = min_left
    ctx[C_JMAX] = jmax
    ctx[C_BEST] = -1
    mode_hand = mode == MODE_HAND
    for k in range(HAND_W):
        cnt[k] = hand[k]
    remw = 0
    b = hand_bits(cnt)
    jokers = cnt[JOKER] > 0
    for k in range(52):
        # the most a natural adds (its hand value by ``values``, or its highest meld value, ace 11), or 0 when
        # it fits no meld of the hand at all: such a card is never melded, so the bound stays exact
        wts[k] = (values[k] if mode_hand else HAND_VALUE[k]) if cnt[k] > 0 and not isolated_bits(b, jokers, k, jmax) \
            else 0
        remw += cnt[k] * wts[k]
    if force >= 0 and (force == JOKER or wts[force] == 0) or cnt[JOKER] < min_jokers:
        return -1, 0, 0  # the card to use fits no meld (a joker never counts as used), or too few jokers
    jw = values[JOKER] if mode_hand else 11
    remw += cnt[JOKER] * jw
    for i in range(MAX_MELDS):
        cur[i, M_OWNER] = 0
    _search(cnt, ctx, cur, out, wts, jw, values, remw, cand, frames)
    if ctx[C_OVERFLOW]:
        raise ValueError("hand: too large for the meld search")
    if ctx[C_BEST] < 0:
        return -1, 0, 0
    return ctx[C_BEST], ctx[C_BESTN], ctx[C_BESTVAL]


@njit(cache=True, _nrt=False)
def in_natural_meld(hand, k):
    """Is natural ``k`` part of a joker-free set or run of three held in ``hand``?"""
    s = k // 13
    r = k % 13
    others = 0
    for s2 in range(4):
        if s2 != s and hand[s2 * 13 + r] > 0:
            others += 1
    if others >= 2:
        return True
    for qi in range(2 if r == 0 else 1):
        q = 14 if qi == 1 else r + 1
        for lo in range(q - 2, q + 1):
            if lo >= 1 and lo + 2 <= 14:
                ok = True
                for p in range(lo, lo + 3):
                    if p != q and hand[kind_at(s, p)] == 0:
                        ok = False
                if ok:
                    return True
    return False


# ------------------------------------------------------------------------------ readable melds


def meld_text(m) -> str:
    """A meld as readable cards: a run in order with ``JK`` where a joker stands, a set's naturals then ``JK``."""
    m = [int(v) for v in m]
    if m[M_TYPE] == SET:
        names = [card_name(s * 13 + m[M_A] - 1) for s in range(4) if m[M_B] >> s & 1]
        return " ".join(names + ["JK"] * m[M_C])
    return " ".join("JK" if m[M_D] >> p & 1 else card_name(kind_at(m[M_A], p)) for p in range(m[M_B], m[M_C] + 1))


_SCRATCH = []


def _scratch() -> np.ndarray:
    if not _SCRATCH:
        _SCRATCH.append(new_scratch())
    return _SCRATCH[0]


class Opening(NamedTuple):
    """The best opening of a hand: total meld value (0 when none) and its melds as readable text."""

    value: int
    melds: list


def best_opening(hand, *, open_needs_pure_run: bool = True, max_jokers_per_meld: int | None = 1) -> Opening:
    """The highest total meld value of disjoint melds from ``hand`` that include a joker-free run.

    ``hand`` is readable text (rank ``A 2 … 10 J Q K`` then ``♣ ♦ ♥ ♠`` or ``C D H S``; ``JK`` a
    joker; a repeated card is its twin) or a count vector. Returns 0 and no melds when the hand
    holds no joker-free run. Ace 1 low in a run, 11 high or in a set; a joker counts as its card.

    >>> best_opening("A♥ 2♥ 3♥ K♠ K♦ K♣ JK 9♣")
    Opening(value=46, melds=['K♣ K♦ K♠ JK', 'A♥ 2♥ 3♥'])
    """
    counts = parse_hand(hand) if isinstance(hand, str) else np.asarray(hand, np.int64)
    if counts.shape != (HAND_W,):
        raise ValueError(f"hand: a count vector has {HAND_W} entries, got shape {counts.shape}")
    jmax = NO_JOKER_LIMIT if max_jokers_per_meld is None else int(max_jokers_per_meld)
    out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    value, n, _ = best_melds_nb(counts.astype(np.int64), MODE_MELD, bool(open_needs_pure_run), 0, -1, 0, 0, jmax,
                                HAND_VALUE, out, _scratch())
    if value <= 0:
        return Opening(0, [])
    return Opening(int(value), [meld_text(out[i]) for i in range(n)])
