"""Worlds for the search policies: the cards a player has not seen, dealt to the other holders
exactly uniformly among the deals consistent with what the table has shown, and the pick of the
best searched candidate.

Shared by every game's search (Barbu and Euchre for five over one 64-bit mask per seat through
:func:`plan_world_nb` / :func:`draw_world_nb`; Minchiate's 97 cards, two words a hand, and its
hidden discard piles through the card-list core :func:`plan_deal_nb` / :func:`draw_deal_nb`). It
knows no rules: a game passes, for every unseen card, the holders that may hold it, and how many
cards each holder takes.

**Exactly uniform.** The unseen cards are grouped by their *holder set* (the holders that may hold
them); cards of one type are interchangeable for the constraints. A deal is then, for each type
``T``, how many of its ``n_T`` cards each holder ``h`` takes (``k[T, h]``, every holder's counts
adding up to its hand size), and which cards: ``prod_T n_T! / prod_h k[T, h]!`` deals share the
same counts. :func:`plan_deal_nb` counts, once per decision, the completions of every partial
assignment of counts (a small dynamic programme over the types, the state being what each holder
still takes, the type that every holder may hold last and in closed form), and
:func:`draw_deal_nb` draws a world by choosing each type's counts with probability proportional
to the completions they leave, then dealing the cards within each type by a uniform shuffle. Every
consistent deal is therefore equally likely, whatever the voids and forced cards; the only
departures are the streams' own (``rng.below_n``'s bias of at most ``n / 2**32``, and weights held
as float64, rounding of order ``1e-15`` relative). Sampling never fails and needs no retries; a
view that admits no deal at all (never the case for the true deal's) raises ``ValueError``.

Worlds are drawn from the plan alone (its scratch arrays are rewritten at every draw: one plan per
thread), each from its own stretch of the stream, so they are reproducible from (seed, decision).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import ONE, ZERO, bit, lowest_card, popcount
from cardlab.sim.rng import below_n, next_u64

MAX_HOLDERS = 8  # holder sets are bit sets over at most 8 holders (seats, a kitty, discard piles)


@njit(cache=True, error_model="numpy", inline="always")
def best_candidate_nb(legal, totals, fallback):
    """The card of ``legal`` with the highest ``totals``; ties go to ``fallback`` (the rollout
    policy's own card), then to the lowest card id."""
    choice = fallback
    m = legal
    while m != ZERO:
        c = lowest_card(m)
        m &= m - ONE
        if totals[c] > totals[choice]:
            choice = c
    return choice


def _inverse_factorials(n):
    """``1 / k!`` for ``k = 0 .. n-1`` as float64 (the weight of ``k`` interchangeable cards to one holder)."""
    out = np.empty(n, np.float64)
    f = 1.0
    for k in range(n):
        if k > 0:
            f *= k
        out[k] = 1.0 / f
    return out


INV_FACT = _inverse_factorials(171)  # 1 / k! for k = 0 .. 170 (the float64 range)
# the plan's parts (a tuple of arrays; see plan_deal_nb)
P_HDR, P_CARDS, P_ORDER, P_TSTART, P_COMP, P_CODE, P_ESTART, P_ECUM, P_ECOMP, P_ENEXT, P_STRIDE, P_RADIX, P_WORK, \
    P_ASSIGN = range(14)


@njit(cache=True, error_model="numpy")
def _grow(a, size):
    """``a`` itself when it holds ``size`` items, else a copy with room for at least ``size``."""
    if size <= a.shape[0]:
        return a
    b = np.empty(max(size, 2 * a.shape[0]), a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True, error_model="numpy")
def _compositions(T, n, need, nh):
    """Every way to split ``n`` cards among the holders of ``T`` (each ``h`` at most ``need[h]``): rows of ``nh``."""
    hs = np.empty(nh, np.int64)
    a = 0
    for h in range(nh):
        if T >> h & 1:
            hs[a] = h
            a += 1
    k = np.zeros(nh, np.int64)
    out = np.empty((16, nh), np.int64)
    count = 0
    last = hs[a - 1]
    while True:
        used = 0
        for i in range(a - 1):
            used += k[hs[i]]
        rest = n - used
        if 0 <= rest <= need[last]:
            if count == out.shape[0]:
                bigger = np.empty((2 * count, nh), np.int64)
                bigger[:count] = out
                out = bigger
            for h in range(nh):
                out[count, h] = k[h]
            out[count, last] = rest
            count += 1
        i = 0  # next split of the first a - 1 holders (an odometer)
        while i < a - 1:
            h = hs[i]
            if k[h] < min(need[h], n):
                k[h] += 1
                break
            k[h] = 0
            i += 1
        if i == a - 1:
            break
    return out[:count]


@njit(cache=True, error_model="numpy")
def plan_deal_nb(cards, allowed, m, need, nh):
    """Plan exactly uniform deals of the unseen cards ``cards[:m]`` (see the module docstring).

    ``allowed[i]`` is the bit set of the holders (``0 .. nh-1``, ``nh <= MAX_HOLDERS``) that may hold
    ``cards[i]``; holder ``h`` takes ``need[h]`` cards (their sum is ``m``). Holders that take no card
    are dropped from every set. Returns the plan that :func:`draw_deal_nb` draws from, a tuple:
    ``hdr`` (m, nh, number of constrained types), ``cards``, the card indices grouped by type
    (``order``, type ``t`` at ``tstart[t]:tstart[t+1]``, the type every holder with room may hold
    last), the types' splits (``comp``, one row per split), the dynamic programme's states (what each
    holder still takes, coded in mixed radix ``stride``) with, for each, its choices (``estart``
    ranges of cumulative completion weights ``ecum``, the split ``ecomp`` and the next state
    ``enext``), and scratch for the draws (``work``, ``assign``: the holder dealt each card).
    """
    total = 0
    pos = 0
    for h in range(nh):
        total += need[h]
        if need[h] > 0:
            pos |= 1 << h
    if total != m:
        raise ValueError("the holders' hand sizes do not add up to the unseen cards")
    n_sets = 1 << nh
    count = np.zeros(n_sets, np.int64)
    for i in range(m):
        T = allowed[i] & pos
        if T == 0:
            raise ValueError("an unseen card no holder may take")
        count[T] += 1
    # the constrained types (every holder set but pos), fewest splits first; pos last
    types = np.empty(n_sets, np.int64)
    nc = 0
    for T in range(1, n_sets):
        if count[T] > 0 and T != pos:
            types[nc] = T
            nc += 1
    if nc == 0:  # no constraint: one uniform shuffle, nothing to count
        stride = np.empty(nh, np.int64)
        size = 1
        start_code = 0
        for h in range(nh):
            stride[h] = size
            start_code += need[h] * size
            size *= need[h] + 1
        order = np.arange(m)
        return (np.array([m, nh, 0], np.int64), cards[:m].copy(), order, np.array([0, m], np.int64),
                np.empty((0, nh), np.int64), np.array([start_code], np.int64), np.zeros(2, np.int64),
                np.empty(0, np.float64), np.empty(0, np.int64), np.empty(0, np.int64), stride, need[:nh] + 1,
                np.empty(m + nh, np.int64), np.empty(m, np.int64))
    n_splits = np.empty(nc, np.int64)
    for t in range(nc):
        n_splits[t] = _compositions(types[t], count[types[t]], need, nh).shape[0]
        if n_splits[t] == 0:
            raise ValueError("a holder set has more unseen cards than room")
    rank = np.argsort(n_splits * n_sets + types[:nc], kind="mergesort") if nc > 1 else np.zeros(nc, np.int64)
    stage_type = np.empty(nc + 1, np.int64)
    for t in range(nc):
        stage_type[t] = types[rank[t]]
    stage_type[nc] = pos
    stage_of = np.full(n_sets, nc, np.int64)
    for t in range(nc):
        stage_of[stage_type[t]] = t
    tstart = np.zeros(nc + 2, np.int64)
    for T in range(1, n_sets):
        if count[T] > 0:
            tstart[stage_of[T] + 1] += count[T]
    for t in range(nc + 1):
        tstart[t + 1] += tstart[t]
    order = np.empty(m, np.int64)
    fill = tstart[:nc + 1].copy()
    for i in range(m):
        t = stage_of[allowed[i] & pos]
        order[fill[t]] = i
        fill[t] += 1
    cstart = np.zeros(nc + 1, np.int64)
    for t in range(nc):
        cstart[t + 1] = cstart[t] + n_splits[rank[t]]
    comp = np.empty((cstart[nc], nh), np.int64)
    wcomp = np.empty(cstart[nc], np.float64)
    for t in range(nc):
        c = _compositions(stage_type[t], count[stage_type[t]], need, nh)
        for j in range(c.shape[0]):
            w = 1.0
            for h in range(nh):
                comp[cstart[t] + j, h] = c[j, h]
                w *= INV_FACT[c[j, h]]
            wcomp[cstart[t] + j] = w
    stride = np.empty(nh, np.int64)
    size = 1
    for h in range(nh):
        stride[h] = size
        size *= need[h] + 1
    # forward: the states each stage can reach, and every (state, split) choice
    code = np.empty(16, np.int64)
    sstart = np.zeros(nc + 2, np.int64)
    start_code = 0
    for h in range(nh):
        start_code += need[h] * stride[h]
    code[0] = start_code
    sstart[1] = 1
    estart = np.zeros(2, np.int64)
    ecomp = np.empty(16, np.int64)
    enext = np.empty(16, np.int64)
    room = np.empty(nh, np.int64)
    n_e = 0
    for t in range(nc):
        a, b = sstart[t], sstart[t + 1]
        estart = _grow(estart, b + 1)
        first_e = n_e
        for j in range(a, b):
            estart[j] = n_e
            x = code[j]
            for h in range(nh):
                room[h] = x // stride[h] % (need[h] + 1)
            for q in range(cstart[t], cstart[t + 1]):
                fits = True
                step = 0
                for h in range(nh):
                    if comp[q, h] > room[h]:
                        fits = False
                        break
                    step += comp[q, h] * stride[h]
                if fits:
                    ecomp = _grow(ecomp, n_e + 1)
                    enext = _grow(enext, n_e + 1)
                    ecomp[n_e] = q
                    enext[n_e] = x - step
                    n_e += 1
        nxt = np.unique(enext[first_e:n_e])
        code = _grow(code, b + nxt.shape[0])
        code[b:b + nxt.shape[0]] = nxt
        sstart[t + 2] = b + nxt.shape[0]
        for e in range(first_e, n_e):
            enext[e] = b + np.searchsorted(nxt, enext[e])
    n_states = sstart[nc + 1]
    estart = _grow(estart, n_states + 1)
    for j in range(sstart[nc], n_states + 1):
        estart[j] = n_e
    # backward: completions (weights) of every state, the last type in closed form
    f = np.empty(n_states, np.float64)
    for j in range(sstart[nc], n_states):
        w = 1.0
        for h in range(nh):
            w *= INV_FACT[code[j] // stride[h] % (need[h] + 1)]
        f[j] = w
    ecum = np.empty(max(n_e, 1), np.float64)
    for t in range(nc - 1, -1, -1):
        for j in range(sstart[t], sstart[t + 1]):
            acc = 0.0
            for e in range(estart[j], estart[j + 1]):
                acc += wcomp[ecomp[e]] * f[enext[e]]
                ecum[e] = acc
            f[j] = acc
    if not f[0] > 0.0:
        raise ValueError("no deal fits what the table has shown")
    hdr = np.array([m, nh, nc], np.int64)
    return (hdr, cards[:m].copy(), order, tstart, comp, code[:n_states].copy(), estart[:n_states + 1].copy(),
            ecum[:n_e].copy(), ecomp[:n_e].copy(), enext[:n_e].copy(), stride, need[:nh] + 1,
            np.empty(m + nh, np.int64), np.empty(m, np.int64))


@njit(cache=True, error_model="numpy", inline="always")
def _deal_type(state, work, a, b, counts, nh, cards, assign, world, to_masks):
    """Deal the cards ``work[a:b]`` (indices of cards) to the holders, ``counts[h]`` to holder ``h``, every
    arrangement equally likely (a partial Fisher-Yates shuffle; the last holder takes the rest). Each card
    goes into ``assign`` (its holder) or, ``to_masks``, into its holder's mask ``world[h]``."""
    i = a
    for h in range(nh):
        k = counts[h]
        if k == 0:
            continue
        if i + k == b:
            for j in range(i, b):
                if to_masks:
                    world[h] |= bit(cards[work[j]])
                else:
                    assign[work[j]] = h
            return state
        for _ in range(k):
            state, r = below_n(state, b - i)
            j = i + r
            x = work[j]
            work[j] = work[i]
            work[i] = x
            if to_masks:
                world[h] |= bit(cards[x])
            else:
                assign[x] = h
            i += 1
    return state


@njit(cache=True, error_model="numpy", inline="always")
def _draw_nb(state, plan, world, to_masks):
    """:func:`draw_deal_nb` into ``assign``, or (``to_masks``) into the holders' masks ``world``."""
    hdr, cards, order, tstart, comp, code, estart, ecum, ecomp, enext, stride, radix, work, assign = plan
    m, nh, nc = hdr[0], hdr[1], hdr[2]
    for i in range(m):
        work[i] = order[i]
    j = 0
    for t in range(nc):
        lo = estart[j]
        hi = estart[j + 1] - 1
        first = lo
        state, r = next_u64(state)
        u = np.float64(r >> np.uint64(11)) * (1.0 / 9007199254740992.0) * ecum[hi]
        while lo < hi:  # the first choice whose cumulative weight passes u
            mid = (lo + hi) >> 1
            if ecum[mid] > u:
                hi = mid
            else:
                lo = mid + 1
        while lo > first and ecum[lo] == ecum[lo - 1]:  # never a choice without completions
            lo -= 1
        state = _deal_type(state, work, tstart[t], tstart[t + 1], comp[ecomp[lo]], nh, cards, assign, world,
                           to_masks)
        j = enext[lo]
    counts = work[m:]  # what each holder takes of the last type: the final state
    for h in range(nh):
        counts[h] = code[j] // stride[h] % radix[h]
    return _deal_type(state, work, tstart[nc], tstart[nc + 1], counts, nh, cards, assign, world, to_masks)


@njit(cache=True, error_model="numpy")
def draw_deal_nb(state, plan):
    """One exactly uniform deal from ``plan`` (:func:`plan_deal_nb`): the plan's ``assign[i]`` receives the
    holder of ``cards[i]``. Returns the stream. It allocates nothing (an empty view of the plan stands for the
    masks it does not write), so a search compiled without reference counting (``_nrt=False``) may call it."""
    return _draw_nb(state, plan, plan[P_HDR][:0].view(np.uint64), False)


@njit(cache=True, error_model="numpy")
def plan_world_nb(s, n, hands, excluded):
    """:func:`plan_deal_nb` for 64-bit hands: the cards of ``hands[p]`` (``p != s``; only their sizes and
    their union are read) dealt anew to the seats ``p != s``, each taking as many as it holds and none of
    ``excluded[p]`` (the cards it has shown it cannot hold)."""
    unseen = ZERO
    need = np.zeros(n, np.int64)
    for p in range(n):
        if p != s:
            unseen |= hands[p]
            need[p] = popcount(hands[p])
    m = popcount(unseen)
    cards = np.empty(m, np.int64)
    allowed = np.empty(m, np.int64)
    mask = unseen
    i = 0
    while mask != ZERO:
        x = lowest_card(mask)
        mask &= mask - ONE
        T = 0
        for p in range(n):
            if p != s and need[p] > 0 and excluded[p] & bit(x) == ZERO:
                T |= 1 << p
        cards[i] = x
        allowed[i] = T
        i += 1
    return plan_deal_nb(cards, allowed, m, need, n)


@njit(cache=True, error_model="numpy")
def draw_world_nb(state, plan, s, hands, world):
    """One exactly uniform world from ``plan`` (:func:`plan_world_nb`): ``world[p]`` receives seat ``p``'s
    sampled hand, ``world[s] = hands[s]``. Returns the stream."""
    for p in range(plan[P_HDR][1]):
        world[p] = ZERO
    state = _draw_nb(state, plan, world, True)
    world[s] = hands[s]
    return state


@njit(cache=True, error_model="numpy")
def sample_world_nb(state, s, n, hands, excluded, world, slack):
    """One world at once: :func:`plan_world_nb` then :func:`draw_world_nb` (``slack`` is not read). A
    search drawing many worlds from one view plans once and draws each."""
    return draw_world_nb(state, plan_world_nb(s, n, hands, excluded), s, hands, world)
