"""Hearts' search policy: determinized Monte Carlo search (PIMC) over the deal kernel's own steps.

At each card decision with more than one legal card, a ``search`` seat

1. samples ``worlds`` deals of the cards it cannot place, exactly uniformly among those consistent with what it
   has seen (:mod:`cardlab.sim.worlds`): each other seat keeps its number of cards; the cards the searcher passed
   stay with their receiver until played; the 2♣ (the 3♣ with five players) stays with the seat that led the first
   trick; and no seat gets a
   card it has shown it cannot hold. A card ``x`` is excluded from seat ``p`` once ``p`` played a card that
   would have been illegal had ``p`` held ``x`` (the rules' own :func:`~cardlab.sim.hearts.policies.legal_nb` on
   the two-card hand): a void in the led suit, a heart or the Q♠ on the first trick (then it held nothing else),
   a heart led before hearts broke (then it held only hearts);
2. in every world plays each legal card and then the rest of the deal with the rollout policy at every seat (the
   heuristic, or random cards drawn alike for every candidate of a world), through
   :func:`~cardlab.sim.hearts.kernels.play_out_nb`, and scores the deal (:func:`~cardlab.sim.hearts.kernels.score_nb`:
   the moon and bonuses included);
3. plays the card with the fewest mean points for itself; ties go to the heuristic's card, then the lowest id.

Its passes are the heuristic's. The searcher's draws come from a stream keyed by (seed, deal, decision) alone, so a
deal's search is reproducible on its own; the deal's own stream (dealing, random seats) is used exactly as in the
plain kernels. The ``oracle`` is the same search over the true deal: every other seat is excluded from every card
it does not hold, so its only world is the true one (played once with heuristic rollouts, counted ``worlds``
times; ``worlds`` times with random rollouts).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.cards import ONE, ZERO, bit, lowest_card
from cardlab.sim.hearts.kernels import (BY_POLICY_RULES, C_JACK, C_LEADER, C_PASS, C_POINTS, C_QUEEN, N_CARDS_ROWS,
                                        N_COLS, N_ST, S_BROKEN, S_COUNT, S_LEADER, S_LED, S_N, deal_nb,
                                        deal_offset_nb, game_over_nb, legal_now, move_nb, pass_nb, play_out_nb,
                                        put_card_nb, score_nb, start_nb, to_move)
from cardlab.sim.hearts.policies import legal_nb
from cardlab.sim.hearts.rules import DECK, MAX_PLAYERS, PASS, PLAYERS, R_LEAD, R_MOVES, R_PLAYERS, TRICKS
from cardlab.sim.policy import POLICY
from cardlab.sim.rng import deal_state, mix64
from cardlab.sim.worlds import best_candidate_nb, draw_world_nb, plan_world_nb

SEARCH, ORACLE, HEURISTIC = POLICY.SEARCH, POLICY.ORACLE, POLICY.HEURISTIC
SEARCH_SALT = np.uint64(0x4EA27C0DE5EA2C11)
ROLLOUT_SALT = np.uint64(0x0B5E55ED7A11C0DE)
MOVES = PLAYERS * TRICKS  # the most cards a deal plays (52, four players; 51 with three, 50 with five)


@njit(cache=True, error_model="numpy", inline="always")
def search_state(seed, key, decision):
    """The searcher's stream for one decision, keyed by (seed, deal or game, decision) alone."""
    return mix64(deal_state(seed, key) ^ mix64(SEARCH_SALT + np.uint64(decision)))


@njit(cache=True, error_model="numpy", inline="always")
def searches_nb(policy):
    """Whether a seat of kernel id ``policy`` searches its cards: ``search`` or ``oracle``."""
    return policy == SEARCH or policy == ORACLE


@njit(cache=True, error_model="numpy")
def shown_absent_nb(rules, c, candidates, n, led, count, broken):
    """Cards of ``candidates`` the seat that played ``c`` (the ``n``-th card of the trick, ``led`` its suit, the
    deal's ``count``-th) cannot hold: holding one would have made ``c`` illegal."""
    out = ZERO
    m = candidates
    while m != ZERO:
        x = lowest_card(m)
        m &= m - ONE
        if legal_nb(rules, bit(c) | bit(x), n, led, count, broken, rules[R_PLAYERS]) & bit(c) == ZERO:
            out |= bit(x)
    return out


@njit(cache=True, error_model="numpy")
def view_nb(rules, s, cards, excluded, passed, offset, first_leader, oracle, view):
    """The cards each seat may not hold in searcher ``s``'s worlds (``view``): what the table has shown
    (``excluded``), the cards ``s`` passed (each with its receiver while unplayed), the unplayed 2♣ (the lead card:
    the 3♣ with five players) with the seat that led the first trick; for the ``oracle``, every card a seat does
    not hold."""
    n = rules[R_PLAYERS]
    receiver = (s + offset) % n
    for p in range(n):
        if oracle:
            view[p] = ~cards[p] if p != s else ZERO
            continue
        view[p] = excluded[p]
        if offset != 0 and p != receiver:
            view[p] |= passed[s]
        if p != first_leader:
            view[p] |= bit(rules[R_LEAD])
    return view


@njit(cache=True, error_model="numpy", _nrt=False)
def play_worlds_nb(stream, rules, s, n, cards, st, legal, plan, hands, rounds, rollouts, world, work, wst, row, no_log,
                   no_fault, totals):
    """The worlds of :func:`search_card_nb`: ``rounds`` worlds drawn from ``plan``, every candidate of ``legal`` rolled
    out in each from the deal in play (``cards``, ``st``), seat ``s``'s points taken off ``totals``.

    Compiled without reference counting (``_nrt=False``; it allocates nothing, copying an element at a time): with it,
    the inlined play-out counted a reference to the rules and the seats' arrays at every card."""
    for _ in range(rounds):
        stream = draw_world_nb(stream, plan, s, hands, world)
        roll = mix64(stream ^ ROLLOUT_SALT)  # random rollouts: the same draws for every candidate of this world
        m = legal
        while m != ZERO:
            c = lowest_card(m)
            m &= m - ONE
            for k in range(work.shape[0]):
                work[k] = world[k] if k < n else cards[k]
            for k in range(wst.shape[0]):
                wst[k] = st[k]
            put_card_nb(rules, work, wst, c)
            play_out_nb(rules, rollouts, work, wst, roll, no_log, None, no_fault)
            score_nb(rules, work, wst, row)
            totals[c] -= row[C_POINTS + s]


@njit(cache=True, error_model="numpy")
def search_card_nb(stream, rules, s, cards, st, legal, fallback, view, worlds, rollout, oracle, totals):
    """The searched card of seat ``s`` (module docstring); ``totals[c]`` gets each candidate's summed points over
    ``worlds`` worlds (negated: higher is better)."""
    for c in range(64):
        totals[c] = 0.0
    n = rules[R_PLAYERS]
    hands = cards[:n].copy()
    plan = plan_world_nb(s, n, hands, view)
    world = np.empty(n, np.uint64)
    work = np.empty(N_CARDS_ROWS, np.uint64)
    wst = np.empty(N_ST, np.int64)
    row = np.zeros(N_COLS, np.int64)
    rollouts = np.full(n, rollout, np.int64)
    no_log = np.zeros(0, np.int8)
    no_fault = np.zeros(2, np.int64)
    rounds = 1 if oracle and rollout == HEURISTIC else worlds
    play_worlds_nb(stream, rules, s, n, cards, st, legal, plan, hands, rounds, rollouts, world, work, wst, row, no_log,
                   no_fault, totals)
    if rounds < worlds:
        for c in range(64):
            totals[c] *= worlds
    return best_candidate_nb(legal, totals, fallback)


@njit(cache=True, error_model="numpy")
def play_searched_nb(seed, key, base, rules, policies, cards, st, passed, offset, stream, worlds, rollout, log, means,
                     card_fn, fault, stop):
    """Play a deal from its first card (the passes made: ``passed[p]`` the cards seat ``p`` passed to seat ``p +
    offset``) as :func:`~cardlab.sim.hearts.kernels.play_out_nb` does, ``search`` and ``oracle`` seats searching
    (decision ``base + move`` of the stream keyed ``(seed, key)``). ``means`` (52 x 64, or 0 rows) receives each
    searched move's candidates' mean points (NaN elsewhere). With ``stop >= 0`` the first ``stop`` cards are
    given (the log's plays, from entry ``3 * players``: a step-API state's) and the deal stops once card ``stop`` is chosen,
    into the log. Returns the deal stream."""
    n = rules[R_PLAYERS]
    plays_at = PASS * n  # the log's first play
    excluded = np.zeros(n, np.uint64)
    view = np.empty(n, np.uint64)
    totals = np.empty(64, np.float64)
    first_leader = st[S_LEADER]
    in_hands = ZERO
    for p in range(n):
        in_hands |= cards[p]
    record = log.shape[0] > 0
    while st[S_COUNT] < rules[R_MOVES]:
        i = st[S_COUNT]
        p = to_move(st)
        if i < stop:  # a card already played
            c = log[plays_at + i]
        else:
            stream, c = move_nb(rules, policies[p], cards, st, stream, card_fn, fault)
            legal = legal_now(rules, cards, st)
            if searches_nb(policies[p]) and legal & (legal - ONE) != ZERO:
                view_nb(rules, p, cards, excluded, passed, offset, first_leader, policies[p] == ORACLE, view)
                c = search_card_nb(search_state(seed, key, base + i), rules, p, cards, st, legal, c, view, worlds,
                                   rollout, policies[p] == ORACLE, totals)
                if means.shape[0] > 0:
                    m = legal
                    while m != ZERO:
                        x = lowest_card(m)
                        m &= m - ONE
                        means[i, x] = -totals[x] / worlds
            if record:
                log[plays_at + i] = c
            if i == stop:
                return stream
        in_hands &= ~bit(c)
        excluded[p] |= shown_absent_nb(rules, c, in_hands & ~cards[p], st[S_N], st[S_LED], st[S_COUNT],
                                       st[S_BROKEN] != 0)
        put_card_nb(rules, cards, st, c)
    return stream


@njit(cache=True, error_model="numpy", inline="always")
def searched_deal_nb(seed, key, base, rules, policies, stream, offset, cards, st, row, hands_log, log, means, worlds,
                     rollout, card_fn, fault):
    """One deal from the dealt hands in ``cards`` with search seats, as ``kernels.play_deal_nb`` plays it without."""
    n = rules[R_PLAYERS]
    if hands_log.shape[0] > 0:
        for p in range(n):
            hands_log[p] = cards[p]
    if log.shape[0] > 0:
        log[:] = -1
    passed = np.zeros(n, np.uint64)
    for p in range(n):
        passed[p] = cards[p]
    stream = pass_nb(cards, n, offset, policies, stream, log, BY_POLICY_RULES)
    for p in range(n):  # what each seat passed: its dealt cards gone from its hand, less what it got
        passed[p] &= ~cards[p]
    start_nb(rules, cards, st)
    row[C_PASS] = offset
    row[C_LEADER] = st[S_LEADER]
    row[C_QUEEN] = -1
    row[C_JACK] = -1
    stream = play_searched_nb(seed, key, base, rules, policies, cards, st, passed, offset, stream, worlds, rollout,
                              log, means, card_fn, fault, -1)
    score_nb(rules, cards, st, row)
    return stream


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_deals_nb(seed, deals, rules, policies, worlds, rollout, out, hands_log, logs, means, card_fn,
                         faults):
    """Deals ``deals`` (their numbers) with search seats, one per parallel item: ``policies[j]`` are deal ``j``'s
    seats (the ladder's tables differ by deal); ``hands_log``, ``logs`` and ``means`` when they have rows."""
    record = logs.shape[0] > 0
    for j in prange(deals.shape[0]):
        cards = np.zeros(N_CARDS_ROWS, np.uint64)
        st = np.zeros(N_ST, np.int64)
        i = deals[j]
        stream = deal_nb(rules, deal_state(np.uint64(seed), np.uint64(i)), np.empty(DECK.shape[0], np.int8), cards)
        searched_deal_nb(seed, i, 0, rules, policies[j], stream, deal_offset_nb(rules, i), cards, st, out[j],
                         hands_log[j] if record else np.zeros(0, np.uint64),
                         logs[j] if record else np.zeros(0, np.int8),
                         means[j] if means.shape[0] > 0 else np.zeros((0, 64), np.float32), worlds, rollout, card_fn,
                         faults[j])


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_games_nb(seed, first, count, rules, policies, worlds, rollout, out, totals, lengths, hands_log, logs,
                         means, card_fn, faults):
    """Whole games with search seats, as ``kernels.play_games_nb`` (the same buffers; ``means`` count x max_deals x
    52 x 64 when it has rows); deal ``k`` of game ``g`` searches decisions ``64 * k + move`` keyed ``(seed, g)``."""
    record = logs.shape[0] > 0
    slot = out.shape[1]
    for j in prange(count):
        cards = np.zeros(N_CARDS_ROWS, np.uint64)
        st = np.zeros(N_ST, np.int64)
        scratch = np.empty(DECK.shape[0], np.int8)
        sums = np.zeros(MAX_PLAYERS, np.int64)
        g = first + j
        stream = deal_state(np.uint64(seed), np.uint64(g))
        k = 0
        while True:
            stream = deal_nb(rules, stream, scratch, cards)
            row = out[j, min(k, slot - 1)]
            stream = searched_deal_nb(seed, g, 64 * k, rules, policies, stream, deal_offset_nb(rules, k), cards, st,
                                      row, hands_log[j, k] if record else np.zeros(0, np.uint64),
                                      logs[j, k] if record else np.zeros(0, np.int8),
                                      means[j, k] if means.shape[0] > 0 else np.zeros((0, 64), np.float32), worlds,
                                      rollout, card_fn, faults[j])
            k += 1
            if game_over_nb(rules, row, sums, totals[j, min(k - 1, slot - 1)], k):
                break
        lengths[j] = k

