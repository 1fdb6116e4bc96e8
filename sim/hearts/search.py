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

**Inference** (``search_inference``, on or off per study; a ``search`` seat's ``eps`` > 0 turns it on; the oracle
never infers). The cards the other seats played say something about what they hold: the heuristic follows with
its highest card under the winning one, so a seat that played the 3♣ under a winning K♣ probably held no club
between them. With inference the searcher models every other seat as the heuristic
softened by ``eps`` (:mod:`cardlab.sim.inference`): at a past move with ``k > 1`` legal cards that seat's hand in a
world then is its sampled hand now plus every card it has played since; the rules' :func:`legal_nb` and the
heuristic's :func:`~cardlab.sim.hearts.policies.heuristic_card_nb` (on the trick's cards, its winning card, the cards
seen before it and hearts broken or not, all public, kept in the deal's move history ``history``) give the card the
heuristic would have played there, and the card played has probability ``1 - eps + eps / k`` if it is that card,
else ``eps / k`` (:func:`~cardlab.sim.inference.softened_nb`); a forced move counts 1. A world's likelihood is the
product over the other seats' past cards (:func:`play_likelihood_nb`, a product of per-seat factors,
:func:`seat_likelihood_nb`). The searcher draws a pool of ``POOL_FACTOR * worlds`` worlds (exactly uniform, as
without inference), weighs each, keeps ``worlds`` of them by the systematic comb and moves each kept copy by
``MOVE_STEPS`` Metropolis card swaps between two other seats (refused when a seat may not hold its new card, the
view above: voids, the cards the searcher passed, the lead card), accepted with probability min(1, likelihood
after / before): only the two seats' factors change, so only theirs are computed again. The candidates' means
are then plain means over the ``worlds`` moved worlds. ``eps`` is :data:`INFERENCE_EPSILON`, chosen by
measurement (``docs/results/hearts.md``).

*Passes are not inferred from.* The searcher already keeps the cards it passed with their receiver. The cards it
received do say something (the heuristic passes its three most dangerous cards, so the passer's kept cards were
less dangerous), but the passer's dealt hand also held the three cards a third seat passed it, unknown to the
searcher (except four players passing across, where that third seat is the searcher itself), and what the other
seats passed among themselves is unknown altogether: a pass likelihood would have to sum over which of a seat's
cards it received, for one case in four. The plays alone are modelled.

Its passes are the heuristic's. The searcher's draws come from a stream keyed by (seed, deal, decision) alone, so a
deal's search is reproducible on its own; the deal's own stream (dealing, random seats) is used exactly as in the
plain kernels. The ``oracle`` is the same search over the true deal: every other seat is excluded from every card
it does not hold, so its only world is the true one (played once with heuristic rollouts, counted ``worlds``
times; ``worlds`` times with random rollouts).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.cards import ONE, ZERO, bit, lowest_card, popcount
from cardlab.sim.hearts.kernels import (BY_POLICY_RULES, C_JACK, C_LEADER, C_PASS, C_POINTS, C_QUEEN, N_CARDS_ROWS,
                                        N_COLS, N_ST, S_BROKEN, S_COUNT, S_LEADER, S_LED, S_N, S_WIN_CARD, SEEN, TRICK,
                                        deal_nb,
                                        deal_offset_nb, game_over_nb, legal_now, move_nb, pass_nb, play_out_nb,
                                        put_card_nb, score_nb, start_nb, to_move)
from cardlab.sim.hearts.policies import heuristic_card_nb, legal_nb
from cardlab.sim.hearts.rules import DECK, MAX_PLAYERS, PASS, PLAYERS, R_LEAD, R_MOVES, R_PLAYERS, TRICKS
from cardlab.sim.policy import NO_STOP, POLICY
from cardlab.sim.rng import deal_state, mix64
from cardlab.sim.inference import (MOVE_STEPS, POOL_FACTOR, accepted_nb, comb_pick_nb, move_stream_nb,
                                   propose_swap_nb, softened_nb, undo_swap_nb, uniform_nb)
from cardlab.sim.worlds import best_candidate_nb, draw_world_nb, plan_world_nb

SEARCH, ORACLE, HEURISTIC = POLICY.SEARCH, POLICY.ORACLE, POLICY.HEURISTIC
SEARCH_SALT = np.uint64(0x4EA27C0DE5EA2C11)
ROLLOUT_SALT = np.uint64(0x0B5E55ED7A11C0DE)
MOVES = PLAYERS * TRICKS  # the most cards a deal plays (52, four players; 51 with three, 50 with five)
INFERENCE_EPSILON = 0.4  # the softened heuristic's chance of a random legal card (search_inference "on"): 0.1, 0.2
#                          and 0.4 gained alike among heuristic players; 0.4, the softer model, is the safer beside
#                          players that are not the heuristic
H_SEAT, H_CARD, H_N, H_LED, H_WIN, H_BROKEN, H_TRICK, H_SEEN, N_H = range(9)  # a deal's move history's columns
FIRST_DECISION = np.int64(0)  # typed, as sim.policy.NO_STOP


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


@njit(cache=True, error_model="numpy", inline="always")
def record_move_nb(history, i, p, c, cards, st):
    """Row ``i`` of the deal's move history: seat ``p`` plays ``c`` from the position in ``cards`` and ``st``
    (before the card is put down): what :func:`seat_likelihood_nb` needs to judge it again, all public."""
    history[i, H_SEAT], history[i, H_CARD], history[i, H_N], history[i, H_LED] = p, c, st[S_N], st[S_LED]
    history[i, H_WIN], history[i, H_BROKEN] = st[S_WIN_CARD], st[S_BROKEN]
    history[i, H_TRICK], history[i, H_SEEN] = np.int64(cards[TRICK]), np.int64(cards[SEEN])  # cards < 61: no sign


@njit(cache=True, error_model="numpy", _nrt=False)
def seat_likelihood_nb(rules, hand, p, count, history, eps):
    """Seat ``p``'s factor of the likelihood (module docstring): the probability of the cards it played at the
    deal's first ``count`` moves (``history``), were it the heuristic softened by ``eps`` and held ``hand`` now
    (its hand at move ``i``: ``hand`` plus the cards it played from move ``i`` on)."""
    n = rules[R_PLAYERS]
    weight = 1.0
    for i in range(count - 1, -1, -1):
        if history[i, H_SEAT] != p:
            continue
        c = history[i, H_CARD]
        hand |= bit(c)
        legal = legal_nb(rules, hand, history[i, H_N], history[i, H_LED], i, history[i, H_BROKEN] != 0, n)
        k = popcount(legal)
        if k < 2:
            continue
        heuristic = heuristic_card_nb(hand, legal, history[i, H_N], history[i, H_WIN], np.uint64(history[i, H_TRICK]),
                                      np.uint64(history[i, H_SEEN]), n)
        weight *= softened_nb(eps, k, heuristic == c)
    return weight


@njit(cache=True, error_model="numpy", _nrt=False)
def play_likelihood_nb(rules, world, s, count, history, eps, factors):
    """The likelihood, in ``world`` (each seat's hand now), of the cards the seats other than ``s`` played at the
    deal's first ``count`` moves: the product of their :func:`seat_likelihood_nb` factors, each written to
    ``factors[p]`` (``factors[s]`` is 1)."""
    weight = 1.0
    for p in range(rules[R_PLAYERS]):
        factors[p] = 1.0 if p == s else seat_likelihood_nb(rules, world[p], p, count, history, eps)
        weight *= factors[p]
    return weight


@njit(cache=True, error_model="numpy", _nrt=False)
def move_world_nb(state, rules, world, likelihood, s, view, count, history, eps, factors):
    """``MOVE_STEPS`` Metropolis card swaps on ``world`` (of ``likelihood``, its seats' factors in ``factors``),
    whose stationary law is the inference's posterior (:mod:`cardlab.sim.inference`): only the two seats that swap
    have their factors computed again. Returns the stream."""
    n = rules[R_PLAYERS]
    for _ in range(MOVE_STEPS):
        state, a, b, ca, cb, u = propose_swap_nb(state, world, s, n, view)
        if ca < 0:
            continue
        fa = seat_likelihood_nb(rules, world[a], a, count, history, eps)
        fb = seat_likelihood_nb(rules, world[b], b, count, history, eps)
        moved = fa * fb
        for p in range(n):
            if p != a and p != b:
                moved *= factors[p]
        if accepted_nb(u, likelihood, moved):
            likelihood, factors[a], factors[b] = moved, fa, fb
        else:
            undo_swap_nb(world, a, b, ca, cb)
    return state


@njit(cache=True, error_model="numpy", inline="always")
def play_candidates_nb(roll, rules, s, n, cards, st, legal, world, rollouts, work, wst, row, no_log, no_fault,
                       totals):
    """Every candidate of ``legal`` rolled out in ``world`` from the deal in play (``cards``, ``st``), random
    rollouts drawing from ``roll``; seat ``s``'s points taken off ``totals``."""
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
        play_candidates_nb(roll, rules, s, n, cards, st, legal, world, rollouts, work, wst, row, no_log, no_fault,
                           totals)


@njit(cache=True, error_model="numpy", _nrt=False)
def infer_worlds_nb(stream, rules, s, n, cards, st, legal, plan, hands, view, worlds, eps, count, history, rollouts,
                    world, work, wst, row, no_log, no_fault, totals, pool_worlds, pool_states, cumulative,
                    likelihoods, factors):
    """The worlds of :func:`search_card_nb` with inference (module docstring): a pool of ``pool_worlds.shape[0]``
    uniform worlds from ``plan``, weighed by :func:`play_likelihood_nb` over the deal's first ``count`` moves, the
    systematic comb keeping ``worlds`` of them, each moved by :func:`move_world_nb` and its candidates rolled out."""
    pool = pool_worlds.shape[0]
    total = 0.0
    for j in range(pool):
        stream = draw_world_nb(stream, plan, s, hands, world)
        for p in range(n):
            pool_worlds[j, p] = world[p]
        pool_states[j] = stream
        likelihoods[j] = play_likelihood_nb(rules, world, s, count, history, eps, factors)
        total += likelihoods[j]
        cumulative[j] = total
    stream, start = uniform_nb(stream)
    pick = 0
    for r in range(worlds):
        pick = comb_pick_nb(cumulative, pick, r, start, total, worlds)
        for p in range(n):
            world[p] = pool_worlds[pick, p]
        likelihood = play_likelihood_nb(rules, world, s, count, history, eps, factors)
        moves = move_world_nb(move_stream_nb(pool_states[pick], r), rules, world, likelihood, s, view, count,
                              history, eps, factors)
        roll = mix64(moves ^ ROLLOUT_SALT)
        play_candidates_nb(roll, rules, s, n, cards, st, legal, world, rollouts, work, wst, row, no_log, no_fault,
                           totals)


@njit(cache=True, error_model="numpy")
def search_card_nb(stream, rules, s, cards, st, legal, fallback, view, worlds, rollout, oracle, totals, eps, count,
                   history):
    """The searched card of seat ``s`` (module docstring); ``totals[c]`` gets each candidate's summed points over
    ``worlds`` worlds (negated: higher is better). With ``eps > 0`` (not the ``oracle``) the worlds are inferred
    from the deal's first ``count`` moves, ``history`` (:func:`infer_worlds_nb`)."""
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
    if eps > 0.0 and not oracle:
        pool = POOL_FACTOR * worlds
        infer_worlds_nb(stream, rules, s, n, cards, st, legal, plan, hands, view, worlds, eps, count, history,
                        rollouts, world, work, wst, row, no_log, no_fault, totals, np.empty((pool, n), np.uint64),
                        np.empty(pool, np.uint64), np.empty(pool, np.float64), np.empty(pool, np.float64),
                        np.empty(n, np.float64))
        return best_candidate_nb(legal, totals, fallback)
    play_worlds_nb(stream, rules, s, n, cards, st, legal, plan, hands, rounds, rollouts, world, work, wst, row, no_log,
                   no_fault, totals)
    if rounds < worlds:
        for c in range(64):
            totals[c] *= worlds
    return best_candidate_nb(legal, totals, fallback)


@njit(cache=True, error_model="numpy")
def play_searched_nb(seed, key, base, rules, policies, cards, st, passed, offset, stream, worlds, rollout, log, means,
                     card_fn, fault, stop, eps):
    """Play a deal from its first card (the passes made: ``passed[p]`` the cards seat ``p`` passed to seat ``p +
    offset``) as :func:`~cardlab.sim.hearts.kernels.play_out_nb` does, ``search`` and ``oracle`` seats searching
    (decision ``base + move`` of the stream keyed ``(seed, key)``). ``means`` (52 x 64, or 0 rows) receives each
    searched move's candidates' mean points (NaN elsewhere). With ``stop >= 0`` the first ``stop`` cards are
    given (the log's plays, from entry ``3 * players``: a step-API state's) and the deal stops once card ``stop`` is chosen,
    into the log. A ``search`` seat ``p`` with ``eps[p] > 0`` infers (module docstring). Returns the deal stream."""
    n = rules[R_PLAYERS]
    plays_at = PASS * n  # the log's first play
    excluded = np.zeros(n, np.uint64)
    view = np.empty(n, np.uint64)
    totals = np.empty(64, np.float64)
    history = np.empty((MOVES, N_H), np.int64)
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
                                   rollout, policies[p] == ORACLE, totals, eps[p], i, history)
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
        record_move_nb(history, i, p, c, cards, st)
        in_hands &= ~bit(c)
        excluded[p] |= shown_absent_nb(rules, c, in_hands & ~cards[p], st[S_N], st[S_LED], st[S_COUNT],
                                       st[S_BROKEN] != 0)
        put_card_nb(rules, cards, st, c)
    return stream


@njit(cache=True, error_model="numpy", inline="always")
def searched_deal_nb(seed, key, base, rules, policies, stream, offset, cards, st, row, hands_log, log, means, worlds,
                     rollout, card_fn, fault, eps):
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
                              log, means, card_fn, fault, NO_STOP, eps)
    score_nb(rules, cards, st, row)
    return stream


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_deals_nb(seed, deals, rules, policies, eps, worlds, rollout, out, hands_log, logs, means, card_fn,
                         faults):
    """Deals ``deals`` (their numbers) with search seats, one per parallel item: ``policies[j]`` are deal ``j``'s
    seats (the ladder's tables differ by deal) and ``eps[j]`` their inference (0: none); ``hands_log``, ``logs`` and
    ``means`` when they have rows."""
    record = logs.shape[0] > 0
    for j in prange(deals.shape[0]):
        cards = np.zeros(N_CARDS_ROWS, np.uint64)
        st = np.zeros(N_ST, np.int64)
        i = deals[j]
        stream = deal_nb(rules, deal_state(np.uint64(seed), np.uint64(i)), np.empty(DECK.shape[0], np.int8), cards)
        searched_deal_nb(seed, i, FIRST_DECISION, rules, policies[j], stream, deal_offset_nb(rules, i), cards, st,
                         out[j], hands_log[j] if record else np.zeros(0, np.uint64),
                         logs[j] if record else np.zeros(0, np.int8),
                         means[j] if means.shape[0] > 0 else np.zeros((0, 64), np.float32), worlds, rollout, card_fn,
                         faults[j], eps[j])


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_games_nb(seed, first, count, rules, policies, eps, worlds, rollout, out, totals, lengths, hands_log,
                         logs, means, card_fn, faults):
    """Whole games with search seats, as ``kernels.play_games_nb`` (the same buffers; ``means`` count x max_deals x
    52 x 64 when it has rows); deal ``k`` of game ``g`` searches decisions ``64 * k + move`` keyed ``(seed, g)``;
    ``eps`` each seat's inference (0: none)."""
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
                                      rollout, card_fn, faults[j], eps)
            k += 1
            if game_over_nb(rules, row, sums, totals[j, min(k - 1, slot - 1)], k):
                break
        lengths[j] = k


