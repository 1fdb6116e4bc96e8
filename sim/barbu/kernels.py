"""Barbu deal and trick-play kernels over uint64 hands (Domino's own play is in ``domino.py``).

``play_deals_nb`` plays deals ``first .. first+count-1`` of a run, in parallel over blocks of
deals. Deal ``i`` uses the random stream of ``(seed, i)`` alone, its contract is
``contracts[i % k]`` and its declarer ``(i // k) % n``, so every contract is dealt by every
seat equally often and any deal can be replayed on its own.

Trick play (§2, §4): the declarer leads the first trick; players follow the led suit when
able; the highest card of the led suit wins, or the highest trump when a trump suit is set;
the winner leads next. Each trick is scored from the contract's tables (points per card
taken, per trick, and for the last two tricks).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.cards import HEARTS, KING, LANE, ZERO, below, bit, popcount
from cardlab.sim.rng import below_n, deal_state
from cardlab.sim.dealing import BLOCK, deal_hands_nb
from cardlab.sim.barbu.domino import play_domino_nb
from cardlab.sim.barbu.policies import (MODE_AVOID, MODE_SHED, MODE_TAKE, POLICY, SUIT, heuristic_card, random_card,
                                        seat_mode, user_card)
from cardlab.sim.barbu.rules import CONTRACT, FLAG_HEARTS_LEAD, FLAG_KH_DISCARD, FLAG_PLAY_OUT, FLAG_POSITIVE
from cardlab.sim.barbu.estimate import N_FEATURES, best_trump_nb

KH_BIT = np.uint64(1) << np.uint64(LANE * HEARTS + KING)
HEARTS_MASK = SUIT[HEARTS]
LEAD_ANYTIME, LEAD_BROKEN, LEAD_ONLY_IF_FORCED = 0, 1, 2
# Trump duties, each switchable and independent of the others: overtrump when trumps are led;
# trump when void in the led suit (whatever the trick holds); overtrump a trump already in the
# trick when void (when able). A void player under must-trump who cannot or need not overtrump
# still plays a trump.
DUTY_OVERTRUMP_LED, DUTY_MUST_TRUMP, DUTY_OVERTRUMP_RUFF = 1, 2, 4
# How the trump suit of a Trumps deal is named: 0-3 a fixed suit (paired studies).
TRUMP_BY_POLICY, TRUMP_AT_RANDOM = -1, 4


@njit(cache=True, error_model="numpy", inline="always")
def legal_cards_nb(hand, led, best, trump, duties, lead_rule, hearts_broken, kh_discard):
    """Mask of the cards ``hand`` may play (§4), ``led`` = -1 when leading, ``best`` = card now winning."""
    if led < 0:
        if lead_rule != LEAD_ANYTIME:
            others = hand & ~HEARTS_MASK
            if others != ZERO and (lead_rule == LEAD_ONLY_IF_FORCED or not hearts_broken):
                return others
        return hand
    follow = hand & SUIT[led]
    if trump < 0:
        if follow != ZERO:
            return follow
        if kh_discard and hand & KH_BIT != ZERO:
            return KH_BIT
        return hand
    trumps = hand & SUIT[trump]
    top_is_trump = best // LANE == trump
    if led == trump:
        if duties & DUTY_OVERTRUMP_LED:
            up = trumps & ~below(best + 1)
            if up != ZERO:
                return up
        return trumps if trumps != ZERO else hand
    if follow != ZERO:
        return follow
    if trumps == ZERO:
        return hand
    if top_is_trump and duties & DUTY_OVERTRUMP_RUFF:
        up = trumps & ~below(best + 1)
        if up != ZERO:
            return up
    return trumps if duties & DUTY_MUST_TRUMP else hand


@njit(cache=True, error_model="numpy", inline="always")
def beats_nb(c, best, trump):
    """Whether card ``c`` beats the card ``best`` now winning the trick."""
    cs = c // LANE
    bs = best // LANE
    if cs == bs:
        return c > best
    return cs == trump


@njit(cache=True, error_model="numpy", inline="always")
def trick_start_nb(t, size, trick_value, last_two, positive, point_mask):
    """What trick ``t`` (of ``size``) is worth before its cards, and what it means to the heuristic."""
    bonus = 0
    if t == size - 2:
        bonus = last_two[0]
    elif t == size - 1:
        bonus = last_two[1]
    points = trick_value + bonus
    if positive:
        mode = MODE_TAKE
    elif points == 0 and point_mask == ZERO:
        mode = MODE_SHED
    else:
        mode = MODE_AVOID
    return points, mode


@njit(cache=True, error_model="numpy", inline="always")
def policy_card_nb(policy, state, hand, legal, led, best, trump, last, remaining, values, points, point_mask, mode, p,
                   user_fn, fault):
    """The card seat ``p`` plays from ``legal`` by its random, heuristic or Numba policy (``user_fn``; an
    illegal card goes to ``fault``), ``points`` what the trick is worth before its cards: returns (state, card)."""
    if policy == POLICY.RANDOM:
        return random_card(state, legal)
    if policy == POLICY.USER:
        return state, user_card(user_fn, fault, p, hand, legal, led, best, trump, last, remaining & ~hand, values,
                                points)
    return state, heuristic_card(hand, legal, led, best, trump, last, remaining & ~hand, values, point_mask,
                               seat_mode(mode, policy))


@njit(cache=True, error_model="numpy", inline="always")
def put_card_nb(c, p, k, hands, trick, led, best, winner, trump):
    """Seat ``p`` plays card ``c`` as the ``k``-th card of the trick: returns the new (led, best, winner)."""
    hands[p] &= ~bit(c)
    trick[k] = c
    if led < 0:
        return c // LANE, c, winner
    if beats_nb(c, best, trump):
        return led, c, p
    return led, best, winner


@njit(cache=True, error_model="numpy", inline="always")
def close_trick_nb(trick, n, remaining, values, points, hearts_broken):
    """A full trick leaves play: returns (cards still out, the trick's points, hearts broken)."""
    for k in range(n):
        c = trick[k]
        remaining &= ~bit(c)
        points += values[c]
        if c // LANE == HEARTS:
            hearts_broken = True
    return remaining, points, hearts_broken


@njit(cache=True, error_model="numpy", inline="always")
def play_on_nb(hands, n, t, k, leader, led, best, winner, trick, remaining, hearts_broken, first_card, trump,
               values, trick_value, last_two, point_mask, positive, rule, kh_discard, may_stop, duties, policies,
               state, moves, scores, user_fn, fault):
    """Play a trick deal on from position ``k`` of trick ``t`` to its end (or the early stop).

    The seat to play puts down ``first_card`` (-1: its policy chooses), then each seat plays its
    ``policies`` entry (random, heuristic, or USER: the Numba seat ``user_fn``, its first illegal card
    written to ``fault``), until a seat of entry -1 (played outside the kernel: the step API's) is to play.
    Adds each trick's points to its winner's ``scores``; ``moves`` (or an empty array) logs card ``k`` of
    trick ``t`` at ``t * n + k``. The deal kernel plays whole deals with it, the search its rollouts and
    the step API its built-in seats (:func:`advance_nb`). Returns the advanced stream.
    """
    size = t + popcount(hands[leader + k - n if leader + k >= n else leader + k])
    record = moves.shape[0] > 0
    forced = first_card
    while t < size:
        points, mode = trick_start_nb(t, size, trick_value, last_two, positive, point_mask)
        for kk in range(k, n):
            p = leader + kk
            if p >= n:
                p -= n
            if forced >= 0:
                c = forced
                forced = -1
            else:
                if policies[p] < 0:
                    return state
                hand = hands[p]
                legal = legal_cards_nb(hand, led, best, trump, duties, rule, hearts_broken, kh_discard)
                state, c = policy_card_nb(policies[p], state, hand, legal, led, best, trump, kk == n - 1, remaining,
                                          values, points, point_mask, mode, p, user_fn, fault)
            if record:
                moves[t * n + kk] = c
            led, best, winner = put_card_nb(c, p, kk, hands, trick, led, best, winner, trump)
        remaining, points, hearts_broken = close_trick_nb(trick, n, remaining, values, points, hearts_broken)
        scores[winner] += points
        leader = winner
        t += 1
        k = 0
        led = -1
        best = -1
        if may_stop and remaining & point_mask == ZERO:
            break
    return state


@njit(cache=True, error_model="numpy", _nrt=False)
def play_tricks_nb(hands, n, declarer, contract, trump, card_values, trick_values, last_two, flags,
                   point_masks, policies, duties, lead_rule, early_stop, state, trick, moves, scores, user_fn,
                   fault):
    """Play one trick-taking deal from ``hands``; write points per seat into ``scores``.

    ``moves`` (length tricks * n, or 0 to skip logging) receives the cards in play order,
    -1 after an early stop. Returns the advanced random stream.

    Compiled without Numba's reference counting (``_nrt=False``: it allocates nothing, and an allocation would not
    compile): with it, each array handed to the policies at every card costs an atomic increment and decrement.
    Without it the heuristic tables ran about 15% faster (1 thread, no-tricks 534k to 615k deals a second, salade
    509k to 580k, trumps 522k to 590k; timed in turns on a loaded machine), the same rows.
    """
    f = flags[contract]
    rule = lead_rule if f & FLAG_HEARTS_LEAD else LEAD_ANYTIME
    may_stop = early_stop and f & FLAG_PLAY_OUT == 0 and trick_values[contract] == 0
    for p in range(n):
        scores[p] = 0
    if moves.shape[0] > 0:
        moves[:] = -1
    remaining = ZERO
    for p in range(n):
        remaining |= hands[p]
    return play_on_nb(hands, n, 0, 0, declarer, -1, -1, declarer, trick, remaining, False, -1, trump,
                      card_values[contract], trick_values[contract], last_two[contract], point_masks[contract],
                      f & FLAG_POSITIVE != 0, rule, f & FLAG_KH_DISCARD != 0, may_stop, duties, policies, state,
                      moves, scores, user_fn, fault)


@njit(cache=True, error_model="numpy")
def advance_nb(hands, n, t, k, leader, led, best, winner, trick, remaining, hearts_broken, trump, values, trick_value,
               last_two, point_mask, positive, rule, kh_discard, may_stop, duties, policies, moves):
    """The step API's built-in seats: :func:`play_on_nb` from card ``k`` of trick ``t`` until a seat whose
    ``policies`` entry is -1 (a Python seat) is to play or the deal ends, logging each card at ``t * n + k`` of
    ``moves`` (-1 where none was played). ``hands`` and ``trick`` are changed in place."""
    play_on_nb(hands, n, t, k, leader, led, best, winner, trick, remaining, hearts_broken, -1, trump, values,
               trick_value, last_two, point_mask, positive, rule, kh_discard, may_stop, duties, policies, np.uint64(0),
               moves, np.zeros(n, np.int64), None, np.zeros(2, np.int64))


@njit(cache=True, error_model="numpy")
def name_trump_nb(hand, how, policy, weights, features, state):
    """The Trumps declarer's suit: by its policy (random suit, or the best estimated), at random, or fixed."""
    if how == TRUMP_AT_RANDOM or (how == TRUMP_BY_POLICY and policy == POLICY.RANDOM):
        return below_n(state, 4)
    if how == TRUMP_BY_POLICY:
        return state, best_trump_nb(hand, CONTRACT.TRUMPS, weights, features)
    return state, how


@njit(cache=True, error_model="numpy", inline="always")
def play_contract_nb(hands, n, declarer, contract, trump, card_values, trick_values, last_two, flags, point_masks,
                     policies, duties, lead_rule, early_stop, domino_variant, domino_start_rank, domino_starter,
                     ace_replay_optional, places, state, trick, moves, scores, user_fn, domino_fn, fault):
    """Play one deal of any contract: Domino by its own kernel, every other contract in tricks. The seats of policy
    USER play the run's card function ``user_fn`` in tricks and its Domino function ``domino_fn`` in Domino (each
    None in a run without a Numba seat), their first illegal move going to ``fault``."""
    if contract == CONTRACT.DOMINO:
        return play_domino_nb(hands, n, declarer, domino_variant, domino_start_rank, domino_starter,
                              ace_replay_optional, places, policies, state, moves, scores, domino_fn, fault)
    if trump < 0:  # a literal no-trump lets the compiler drop every trump branch from the hot loop
        return play_tricks_nb(hands, n, declarer, contract, -1, card_values, trick_values, last_two, flags,
                              point_masks, policies, duties, lead_rule, early_stop, state, trick, moves, scores,
                              user_fn, fault)
    return play_tricks_nb(hands, n, declarer, contract, trump, card_values, trick_values, last_two, flags,
                          point_masks, policies, duties, lead_rule, early_stop, state, trick, moves, scores, user_fn,
                          fault)


@njit(cache=True, error_model="numpy", parallel=True)
def play_deals_nb(seed, first, count, deck, n, contracts, card_values, trick_values, last_two, flags,
                  point_masks, policies, duties, lead_rule, early_stop, trump_how, weights,
                  domino_variant, domino_start_rank, domino_starter, ace_replay_optional, places,
                  out_contract, out_declarer, out_trump, out_scores, log_hands, log_moves, user_fn, domino_fn, faults):
    """Play ``count`` deals starting at deal index ``first`` (see module docstring).

    Outputs one row per deal (``out_trump`` is -1 outside Trumps); ``log_hands`` and
    ``log_moves`` are each filled when they have ``count`` rows (zero-row arrays skip them).
    ``user_fn`` and ``domino_fn`` (compiled callbacks, or None in a run without a Numba seat) play the seats of
    policy USER, their cards and their Domino moves; ``faults`` (``count`` x 2, zeros) receives, per deal, the
    first illegal move they returned (seat + 1, move).
    """
    record = log_moves.shape[0] > 0
    keep_hands = log_hands.shape[0] > 0
    k_contracts = contracts.shape[0]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        hands = np.empty(n, np.uint64)
        scratch = np.empty(deck.shape[0], np.int8)
        trick = np.empty(n, np.int64)
        scores = np.empty(n, np.int32)
        no_moves = np.empty(0, np.int8)
        features = np.empty(N_FEATURES, np.float64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            i = first + j
            contract = contracts[i % k_contracts]
            declarer = (i // k_contracts) % n
            state = deal_state(seed, i)
            state = deal_hands_nb(state, deck, scratch, n, hands)
            if keep_hands:
                for p in range(n):
                    log_hands[j, p] = hands[p]
            moves = log_moves[j] if record else no_moves
            trump = -1
            if contract == CONTRACT.TRUMPS:
                state, trump = name_trump_nb(hands[declarer], trump_how, policies[declarer], weights, features, state)
            play_contract_nb(hands, n, declarer, contract, trump, card_values, trick_values, last_two, flags,
                             point_masks, policies, duties, lead_rule, early_stop, domino_variant, domino_start_rank,
                             domino_starter, ace_replay_optional, places, state, trick, moves, scores,
                             user_fn, domino_fn, faults[j])
            out_contract[j] = contract
            out_declarer[j] = declarer
            out_trump[j] = trump
            for p in range(n):
                out_scores[j, p] = scores[p]
