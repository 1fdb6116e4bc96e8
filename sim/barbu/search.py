"""Barbu's search policy: determinized Monte Carlo search (PIMC) over the trick-play kernels.

At each card decision with more than one legal card, a ``search`` seat

1. samples ``worlds`` deals of the cards it has not seen, consistent with everything the
   table has shown: each other seat gets as many cards as it holds, and no seat gets a card
   it cannot hold (see below);
2. in every sampled world plays each legal card and then the rest of the deal with the rollout
   policy at every seat: the heuristic (default; the same ``heuristic_card`` the heuristic seats
   play) or uniformly random legal cards (``rollout = POLICY.RANDOM``, the same random draws
   for every candidate in one world), through the deal kernel's own trick loop
   ``kernels.play_on_nb`` (the searched deal uses its step functions too: one trick loop);
3. plays the card with the best mean final score for itself (its own points for the whole
   deal: the least negative in negative contracts, the most in positive ones). Ties go to the
   card the heuristic would play, then to the lowest card id. Without inference the
   candidates race (``racing``, the level of :mod:`cardlab.sim.racing`; Barbu's, 2: after 12 worlds, and
   every 4 more, a card clearly worse than the leader is no longer rolled out; the shared rule's first
   check after 8 worlds cost 2% of search's gain over the heuristic).

Every candidate card is tried on the same worlds, so their comparison is paired.

**What the table has shown.** A card ``x`` is excluded from seat ``p``'s hand once ``p`` played
a card that would have been illegal had ``p`` held ``x`` (tested with ``legal_cards_nb`` on
the two-card hand ``{played, x}``). That single rule covers every duty of §4 and §7: failing
to follow the led suit (a void), not trumping or not overtrumping when bound to, not
discarding K♥ under ``kh_forced_discard``, leading a heart while hearts are restricted (then
the seat holds only hearts). Cards played, and the searcher's own hand, are never dealt.

**Sampling** is :mod:`cardlab.sim.worlds` (planned once per decision by ``plan_world_nb``, each
world drawn by ``draw_world_nb``): exactly uniform over the deals consistent with what the table
has shown, voids included; it never fails and needs no retries.

**Trump choice.** A ``search`` declarer in Trumps names the suit with the best mean score for
itself over ``worlds`` sampled deals of the other hands, each played out by the heuristic with
that suit as trump (the same worlds for every suit).

**Randomness.** The searcher's draws come from a stream keyed by (seed, deal, decision): the
``decision`` is the move number (0 .. tricks*n-1, or ``TRUMP_DECISION`` for the trump), so a
deal's search is reproducible on its own, whatever the threads, chunks or other deals. The
deal's own stream (dealing, random seats) is used exactly as in ``kernels.play_deals_nb``, so a
deal without search seats plays identically here and there.

**Inference** (``search_inference``, on or off per study; a seat's ``eps`` > 0 turns it on), as
:mod:`cardlab.sim.inference` draws it: a searching seat keeps ``worlds`` worlds resampled from a pool in
proportion to the likelihood of every card the other seats have played so far in this deal, were they the
heuristic softened by ``eps``, and moves each by card swaps. At a past move with ``k > 1`` legal cards, the
seat's hand in that world then (its sampled hand now plus the cards it has played since) gives the heuristic's
card (:func:`play_likelihood_nb`). The candidates' means are plain means over the moved worlds. (Weighting the
``worlds`` drawn worlds directly let a few of them outweigh all others: fewer effective worlds, noisier means,
and weaker play at every ``eps`` measured; resampling without the moves played a kept world once per copy, and
closed about a fifth of the honest-to-oracle gap against 30% with them.) The weights read only the sampled
world and the public history (cards, leads, winners, trick values). ``eps`` is :data:`INFERENCE_EPSILON`,
chosen by measurement (the docs' results pages). The trump choice (nothing played yet), Domino and the
Geronimo choice do not infer.

**The oracle.** An ``oracle`` seat is the same search over the true deal: its view excludes, for
every other seat, every card that seat does not hold (:func:`oracle_view_nb`), so the sampler's only
consistent world is the true one. It still rolls out every candidate with the rollout policy. Heuristic
rollouts from one world all play alike, so it plays that world once and counts it ``worlds`` times
(:func:`world_count`); random rollouts play ``worlds`` times, each with its own draws. It cheats by
design: a reference, the ceiling of the strength ladder (how much an honest searcher loses by not
seeing the cards), never a player. Domino, the Trumps suit and Geronimo's contract choice search it
the same way.

Domino is searched the same way in ``sim.barbu.search_domino``; ``sim.barbu.search_deals`` plays
whole runs of deals (any contract) with search seats.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.barbu.kernels import (close_trick_nb, legal_cards_nb, play_on_nb, policy_card_nb, put_card_nb,
                                       trick_start_nb)
from cardlab.sim.barbu.policies import POLICY, heuristic_card
from cardlab.sim.barbu.rules import FLAG_HEARTS_LEAD, FLAG_KH_DISCARD, FLAG_PLAY_OUT, FLAG_POSITIVE
from cardlab.sim.cards import ONE, ZERO, bit, lowest_card, nth_card, popcount
from cardlab.sim.inference import (MOVE_STEPS, POOL_FACTOR, accepted_nb, comb_pick_nb, move_stream_nb, propose_swap_nb,
                                   softened_nb, undo_swap_nb, uniform_nb)
from cardlab.sim.policy import ROLLOUT_POLICIES
from cardlab.sim.racing import race_best_nb, race_start_nb, race_sum_nb, race_world_nb
from cardlab.sim.rng import deal_state, mix64
from cardlab.sim.worlds import best_candidate_nb, draw_world_nb, plan_world_nb

SEARCH = POLICY.SEARCH
ORACLE = POLICY.ORACLE
HEURISTIC = POLICY.HEURISTIC
ROLLOUT_NAMES = ROLLOUT_POLICIES  # rollout policies, ids as in POLICY (sim.policy)
ROLLOUT_SALT = np.uint64(0x0B5E55ED7A11C0DE)
DEFAULT_WORLDS = 32
MAX_WORLDS = 4096
SEARCH_SALT = np.uint64(0x5EA2C4D1CE0F7A3B)
TRUMP_DECISION = 255
INFERENCE_EPSILON = 0.2  # the softened heuristic's chance of playing a random legal card (0.2 with the swap moves;
#                          0.6 was best without them, 0.4 to 0.8 alike)
H_SEAT, H_CARD, H_LED, H_BEST, H_MODE, H_LAST, H_BROKEN = range(7)  # the columns of a deal's move history
LEAD_ANYTIME = 0


@njit(cache=True, error_model="numpy", inline="always")
def search_state(seed, deal, decision):
    """The searcher's stream for one decision of one deal, keyed by (seed, deal, decision) alone."""
    return mix64(deal_state(seed, deal) ^ mix64(SEARCH_SALT + np.uint64(decision)))


@njit(cache=True, error_model="numpy", inline="always")
def searches_nb(policy):
    """Whether a seat of kernel id ``policy`` searches its decisions: ``search``, or ``oracle``."""
    return policy == SEARCH or policy == ORACLE


@njit(cache=True, error_model="numpy")
def oracle_view_nb(oracle, s, hands, excluded):
    """The cards each seat is known not to hold, as searcher ``s`` plans its worlds: ``excluded`` (what the
    table has shown), or for the ``oracle`` every card a seat does not hold (its only world is the true deal)."""
    if not oracle:
        return excluded
    view = np.empty(hands.shape[0], np.uint64)
    for p in range(hands.shape[0]):
        view[p] = ~hands[p] if p != s else ZERO
    return view


@njit(cache=True, error_model="numpy", inline="always")
def world_count(oracle, worlds, rollout):
    """How many worlds a search plays out: ``worlds``, or one for the oracle with heuristic rollouts (every
    world is the true deal, played alike; its totals then count it ``worlds`` times)."""
    return 1 if oracle and rollout == HEURISTIC else worlds


@njit(cache=True, error_model="numpy")
def shown_absent_nb(c, candidates, led, best, trump, duties, rule, hearts_broken, kh_discard):
    """Cards of ``candidates`` the seat that played ``c`` cannot hold: holding one would have made ``c`` illegal."""
    out = ZERO
    m = candidates
    while m != ZERO:
        x = lowest_card(m)
        m &= m - ONE
        if legal_cards_nb(bit(c) | bit(x), led, best, trump, duties, rule, hearts_broken, kh_discard) & bit(c) == ZERO:
            out |= bit(x)
    return out


@njit(cache=True, error_model="numpy", _nrt=False)
def play_likelihood_nb(world, s, n, count, history, history_remaining, trump, values, point_mask, duties, rule,
                       kh_discard, eps, later):
    """The likelihood, in ``world``, of the cards the seats other than ``s`` played at the deal's first ``count``
    moves, each seat modelled as the heuristic softened by ``eps`` (see the module docstring).

    ``history[i]`` holds move ``i``'s seat, card, led suit, winning card before it, the trick's heuristic mode,
    whether it was the trick's last card and whether hearts were broken (columns ``H_*``);
    ``history_remaining[i]`` the cards not yet in a finished trick then. A seat's hand at move ``i`` is its
    hand in ``world`` plus every card it played from move ``i`` on; ``later`` (``n``) is scratch.
    """
    for p in range(n):
        later[p] = ZERO
    weight = 1.0
    for i in range(count - 1, -1, -1):
        p = history[i, H_SEAT]
        c = history[i, H_CARD]
        later[p] |= bit(c)
        if p == s:
            continue
        hand = world[p] | later[p]
        led = history[i, H_LED]
        best = history[i, H_BEST]
        legal = legal_cards_nb(hand, led, best, trump, duties, rule, history[i, H_BROKEN] != 0, kh_discard)
        k = popcount(legal)
        if k < 2:
            continue
        weight *= softened_nb(eps, k, heuristic_card(hand, legal, led, best, trump, history[i, H_LAST] != 0,
                                                     history_remaining[i] & ~hand, values, point_mask,
                                                     history[i, H_MODE]) == c)
    return weight


@njit(cache=True, error_model="numpy", _nrt=False)
def move_world_nb(state, world, likelihood, s, n, excluded, count, history, history_remaining, trump, values,
                  point_mask, duties, rule, kh_discard, eps, later):
    """Move ``world`` (of likelihood ``likelihood``) by :data:`~cardlab.sim.inference.MOVE_STEPS` Metropolis card
    swaps whose stationary law is the inference's posterior (:mod:`cardlab.sim.inference`). Returns the stream."""
    for _ in range(MOVE_STEPS):
        state, a, b, ca, cb, u = propose_swap_nb(state, world, s, n, excluded)
        if ca < 0:
            continue
        moved = play_likelihood_nb(world, s, n, count, history, history_remaining, trump, values, point_mask,
                                   duties, rule, kh_discard, eps, later)
        if accepted_nb(u, likelihood, moved):
            likelihood = moved
        else:
            undo_swap_nb(world, a, b, ca, cb)
    return state


@njit(cache=True, error_model="numpy", _nrt=False)
def rollout_nb(hands, n, s, t, k, leader, led, best, winner, trick, remaining, hearts_broken, first_card, trump,
               values, trick_value, last_two, point_mask, positive, rule, kh_discard, may_stop, duties, rollouts,
               gains, no_moves, state, no_user_fn, no_fault):
    """Play on from position ``k`` of trick ``t`` (``hands`` and ``trick`` are consumed).

    The seat to play puts down ``first_card`` (-1: the rollout policy chooses), then every seat
    plays its ``rollouts`` policy to the end of the deal (or the early stop), through the deal
    kernel's own ``play_on_nb``. Returns seat ``s``'s points from trick ``t`` on and the stream
    (random rollouts draw from it); ``gains`` is scratch, ``no_moves`` an empty log.

    Compiled without Numba's reference counting (``_nrt=False``: it allocates nothing, and an allocation would not
    compile): with it, every array the rollout hands on (``values``, ``duties``, ``rollouts`` ... to the heuristic, at
    every card) costs an atomic increment and decrement. Without it, every seat searching (W = 32, trick contracts,
    1 thread, racing off) went from 162 to 207 deals a second (1.28x, the same rows; timed in turns on a loaded machine).
    """
    for p in range(n):
        gains[p] = 0
    state = play_on_nb(hands, n, t, k, leader, led, best, winner, trick, remaining, hearts_broken, first_card, trump,
                       values, trick_value, last_two, point_mask, positive, rule, kh_discard, may_stop, duties,
                       rollouts, state, no_moves, gains, no_user_fn, no_fault)
    return gains[s], state


@njit(cache=True, error_model="numpy")
def search_card_nb(state, s, hands, n, size, t, k, leader, led, best, winner, trick, remaining, hearts_broken,
                   legal, fallback, excluded, worlds, trump, values, trick_value, last_two, point_mask, positive,
                   rule, kh_discard, may_stop, duties, rollout, racing, world, work, work_trick, slack, totals, oracle,
                   eps, history, history_remaining, count):
    """The searched card of seat ``s`` (see the module docstring); ``totals[c]`` (float64) gets each candidate's
    summed points over ``worlds`` worlds (the true deal's for the ``oracle``), or with inference (``eps`` > 0)
    ``worlds`` times its mean over the resampled and moved worlds (:func:`play_likelihood_nb` over the deal's first
    ``count`` moves, ``history`` and ``history_remaining``; :func:`move_world_nb`). With ``racing`` (a level of
    :mod:`cardlab.sim.racing`, 0: off; no race with inference) the candidates race: a candidate's total is then ``worlds`` times its mean over the worlds it was played on.

    ``size`` (tricks per deal) and ``slack`` are no longer read: the rollout counts the tricks left from
    the hands, and the sampler keeps its own scratch.
    """
    for c in range(64):
        totals[c] = 0
    rollouts = np.full(n, rollout, np.int64)
    gains = np.empty(n, np.int32)
    no_moves = np.empty(0, np.int8)
    rollout_fault = np.zeros(2, np.int64)  # no seat of a rollout plays USER
    plan = plan_world_nb(s, n, hands, oracle_view_nb(oracle, s, hands, excluded))  # one view: plan it once
    rounds = world_count(oracle, worlds, rollout)
    inferring = eps > 0.0 and not oracle
    pool = POOL_FACTOR * worlds if inferring else 0
    pool_worlds = np.empty((pool, n), np.uint64)
    pool_states = np.empty(pool, np.uint64)
    cumulative = np.empty(pool, np.float64)
    likelihoods = np.empty(pool, np.float64)
    later = np.empty(n, np.uint64)
    total = 0.0
    for j in range(pool):  # inference: a pool of worlds, each weighted by the others' past cards
        state = draw_world_nb(state, plan, s, hands, world)
        for p in range(n):
            pool_worlds[j, p] = world[p]
        pool_states[j] = state
        likelihoods[j] = play_likelihood_nb(world, s, n, count, history, history_remaining, trump, values,
                                            point_mask, duties, rule, kh_discard, eps, later)
        total += likelihoods[j]
        cumulative[j] = total
    start = 0.0
    if inferring:
        state, start = uniform_nb(state)  # the systematic comb's start
    races = racing if not inferring and rounds == worlds else 0  # inference keeps worlds with weights: no race
    raced, alive, played = race_start_nb(rounds, popcount(legal))  # each candidate's gain in each world
    w = 0  # distinct worlds played
    pick = 0  # the pool world the next resampled one falls in
    r = 0  # resampled worlds so far
    while r < rounds:
        if inferring:  # the pool world hit by the systematic comb's next tooth, then moved by card swaps
            pick = comb_pick_nb(cumulative, pick, r, start, total, worlds)
            for p in range(n):
                world[p] = pool_worlds[pick, p]
            moves = move_stream_nb(pool_states[pick], r)  # each tooth its own chain
            moves = move_world_nb(moves, world, likelihoods[pick], s, n, excluded, count, history, history_remaining,
                                  trump, values, point_mask, duties, rule, kh_discard, eps, later)
            roll = mix64(moves ^ ROLLOUT_SALT)
        else:
            state = draw_world_nb(state, plan, s, hands, world)
            roll = mix64(state ^ ROLLOUT_SALT)  # random rollouts: the same draws for every candidate of this world
        r += 1
        m = legal
        j = -1
        while m != ZERO:
            c = lowest_card(m)
            m &= m - ONE
            j += 1
            if not alive[j]:
                continue
            for p in range(n):
                work[p] = world[p]
            for kk in range(k):
                work_trick[kk] = trick[kk]
            gain, _ = rollout_nb(work, n, s, t, k, leader, led, best, winner, work_trick, remaining,
                                 hearts_broken, c, trump, values, trick_value, last_two, point_mask, positive,
                                 rule, kh_discard, may_stop, duties, rollouts, gains, no_moves, roll, None,
                                 rollout_fault)
            totals[c] += gain
            raced[w, j] = gain
        if race_world_nb(raced, w, alive, played, races):
            break
        w += 1
    if races != 0:
        return raced_card_nb(legal, totals, worlds, raced, alive, played, fallback)
    if rounds < worlds:
        for c in range(64):
            totals[c] *= worlds
    return best_candidate_nb(legal, totals, fallback)


@njit(cache=True, error_model="numpy")
def raced_card_nb(legal, totals, worlds, values, alive, played, fallback):
    """The raced search's card (:func:`cardlab.sim.racing.race_best_nb`: ties to ``fallback``, then the lowest
    card), each candidate's ``totals`` set to ``worlds`` times its mean over the worlds it was played on."""
    fall = -1
    j = 0
    m = legal
    while m != ZERO:
        c = lowest_card(m)
        m &= m - ONE
        totals[c] = race_sum_nb(values, played, j) * worlds / played[j]
        if c == fallback:
            fall = j
        j += 1
    return nth_card(legal, race_best_nb(values, alive, played, fall))


@njit(cache=True, error_model="numpy")
def search_trump_nb(state, s, hands, n, worlds, contract, card_values, trick_values, last_two, flags, point_masks,
                    duties, rollout, totals, oracle):
    """The trump suit a searching declarer ``s`` names (see the module docstring); ``totals[suit]`` summed points
    (over the true deal for the ``oracle``)."""
    f = flags[contract]
    positive = f & FLAG_POSITIVE != 0
    kh_discard = f & FLAG_KH_DISCARD != 0
    excluded = np.zeros(n, np.uint64)  # nothing shown before the first lead
    world = np.empty(n, np.uint64)
    work = np.empty(n, np.uint64)
    work_trick = np.empty(n, np.int64)
    remaining = ZERO
    for p in range(n):
        remaining |= hands[p]
    for suit in range(4):
        totals[suit] = 0
    rollouts = np.full(n, rollout, np.int64)
    gains = np.empty(n, np.int32)
    no_moves = np.empty(0, np.int8)
    rollout_fault = np.zeros(2, np.int64)  # no seat of a rollout plays USER
    plan = plan_world_nb(s, n, hands, oracle_view_nb(oracle, s, hands, excluded))
    rounds = world_count(oracle, worlds, rollout)
    for _ in range(rounds):
        state = draw_world_nb(state, plan, s, hands, world)
        roll = mix64(state ^ ROLLOUT_SALT)
        for suit in range(4):
            for p in range(n):
                work[p] = world[p]
            gain, _ = rollout_nb(work, n, s, 0, 0, s, -1, -1, s, work_trick, remaining, False, -1, suit,
                                 card_values[contract], trick_values[contract], last_two[contract],
                                 point_masks[contract], positive, LEAD_ANYTIME, kh_discard, False, duties,
                                 rollouts, gains, no_moves, roll, None, rollout_fault)
            totals[suit] += gain
    if rounds < worlds:
        for suit in range(4):
            totals[suit] *= worlds
    choice = 0
    for suit in range(1, 4):
        if totals[suit] > totals[choice]:
            choice = suit
    return choice


@njit(cache=True, error_model="numpy")
def play_searched_tricks_nb(seed, deal, hands, n, declarer, contract, trump, card_values, trick_values, last_two,
                            flags, point_masks, policies, duties, lead_rule, early_stop, worlds, rollout, state, moves,
                            means, scores, user_fn, fault, eps, racing, stop=-1):
    """Play one trick deal as ``kernels.play_tricks_nb`` does, with ``search`` (and ``oracle``) seats searching;
    a search seat ``p`` with ``eps[p] > 0`` weights its worlds by inference (module docstring), and without
    inference its candidates race when ``racing`` (:mod:`cardlab.sim.racing`).

    ``means`` (tricks*n x 64, or 0 rows to skip) receives, for each searched move, each
    candidate card's mean final score for the searcher (NaN elsewhere). Returns the deal stream.

    With ``stop >= 0`` the deal's first ``stop`` moves are given, ``moves[:stop]`` (a step-API state's history:
    each is played as it stands, chosen by no policy), and the deal ends once move ``stop`` is chosen, into
    ``moves[stop]``: what the seat to move there plays, its search drawing from the same stream as in a whole
    run, so a search seat beside a Python seat plays as it does in the kernels.
    """
    size = popcount(hands[0])
    values = card_values[contract]
    point_mask = point_masks[contract]
    f = flags[contract]
    positive = f & FLAG_POSITIVE != 0
    kh_discard = f & FLAG_KH_DISCARD != 0
    rule = lead_rule if f & FLAG_HEARTS_LEAD else LEAD_ANYTIME
    may_stop = early_stop and f & FLAG_PLAY_OUT == 0 and trick_values[contract] == 0
    record = moves.shape[0] > 0
    keep_means = means.shape[0] > 0
    trick = np.empty(n, np.int64)
    excluded = np.zeros(n, np.uint64)
    world = np.empty(n, np.uint64)
    work = np.empty(n, np.uint64)
    work_trick = np.empty(n, np.int64)
    slack = np.empty(1 << n, np.int64)
    totals = np.empty(64, np.float64)
    history = np.empty((size * n, 7), np.int64)
    history_remaining = np.empty(size * n, np.uint64)
    for p in range(n):
        scores[p] = 0
    if record and stop < 0:
        moves[:] = -1
    if keep_means:
        means[:] = np.nan
    remaining = ZERO
    for p in range(n):
        remaining |= hands[p]
    in_hands = remaining  # cards not yet played (``remaining`` drops a trick's cards at its end)
    hearts_broken = False
    leader = declarer
    for t in range(size):
        points, mode = trick_start_nb(t, size, trick_values[contract], last_two[contract], positive, point_mask)
        led = -1
        best = -1
        winner = leader
        for k in range(n):
            p = leader + k
            if p >= n:
                p -= n
            i = t * n + k
            if i < stop:  # a move already made
                c = moves[i]
            else:
                hand = hands[p]
                legal = legal_cards_nb(hand, led, best, trump, duties, rule, hearts_broken, kh_discard)
                state, c = policy_card_nb(policies[p], state, hand, legal, led, best, trump, k == n - 1, remaining,
                                          values, points, point_mask, mode, p, user_fn, fault)
                if searches_nb(policies[p]) and popcount(legal) > 1:
                    c = search_card_nb(search_state(seed, deal, i), p, hands, n, size, t, k, leader, led, best,
                                       winner, trick, remaining, hearts_broken, legal, c, excluded, worlds, trump,
                                       values, trick_values[contract], last_two[contract], point_mask, positive, rule,
                                       kh_discard, may_stop, duties, rollout, racing, world, work, work_trick, slack,
                                       totals, policies[p] == ORACLE, eps[p], history, history_remaining, i)
                    if keep_means:
                        m = legal
                        while m != ZERO:
                            x = lowest_card(m)
                            m &= m - ONE
                            means[i, x] = scores[p] + totals[x] / worlds
                if i == stop:
                    moves[i] = c
                    return state
            in_hands &= ~bit(c)
            excluded[p] |= shown_absent_nb(c, in_hands & ~hands[p], led, best, trump, duties, rule, hearts_broken,
                                           kh_discard)
            if record:
                moves[i] = c
            history[i, H_SEAT], history[i, H_CARD], history[i, H_LED], history[i, H_BEST] = p, c, led, best
            history[i, H_MODE], history[i, H_LAST], history[i, H_BROKEN] = mode, k == n - 1, hearts_broken
            history_remaining[i] = remaining
            led, best, winner = put_card_nb(c, p, k, hands, trick, led, best, winner, trump)
        remaining, points, hearts_broken = close_trick_nb(trick, n, remaining, values, points, hearts_broken)
        scores[winner] += points
        leader = winner
        if may_stop and remaining & point_mask == ZERO:
            break
    return state
