"""Whole Barbu games (§2, §5): schedule, contract choice, trump, doubling, play and settlement.

``play_games_nb`` plays games ``first .. first+count-1`` in parallel. Deal ``d`` of game ``g``
draws all of its randomness (cards, contract choice, trump, doubles, play) from its own stream,
keyed by ``(seed, g, d)``: ``deal_state(deal_state(seed, g), d)``. So any game can be replayed
alone, and an option that changes how many draws one deal consumes (early stop, a policy at one
seat) leaves every other deal of the game as it was.

Schedule: the kernel receives ``schedule`` (``BarbuOptions.schedule`` as an int array of
``(declarer, slot)`` per deal, where the rules decide who declares what). A slot of -1 means the
declarer chooses (Geronimo): it picks a contract it has not yet declared. The heuristic declarer
picks the contract whose estimated score for its hand beats that contract's average declarer
score by the most (a good hand for No Queens is worth more now than later); the random declarer
picks uniformly; the search declarer estimates the same quantity by playing each open contract out
on sampled deals (``search_deals.search_contract_nb``).

Search seats (``play_games_any_nb`` with ``searching``): card play in every deal, the Trumps suit
and the Geronimo contract are searched (``sim.barbu.search_deals``), each decision on a stream
keyed by ``(seed, g, d, decision)``; doubling stays heuristic. Each game is then its own parallel
work item. ``play_game_nb`` is the one game body both paths run.

With doubling, every seat's own hand estimate feeds the doubling policy, whose heuristic
margin is a quarter of the contract's seat-score standard deviation. With
``skip_undoubled_negative``, a negative deal in which nobody doubled is not played: the
non-declarers share its total points (see ``split_points_nb``). Final deal scores are the
settled ones; raw scores are kept too.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.cards import ONE, ZERO, ctz, popcount, nth_card
from cardlab.sim.rng import below_n, deal_state
from cardlab.sim.barbu.doubling import doubling_round_nb, settle_nb, start_obligations
from cardlab.sim.barbu.estimate import (N_FEATURES, base_features_nb, best_trump_from_features_nb, clear_trump_features_nb,
                                dot_nb, trump_features_nb)
from cardlab.sim.dealing import deal_hands_nb
from cardlab.sim.barbu.kernels import TRUMP_BY_POLICY, name_trump_nb, play_contract_nb
from cardlab.sim.barbu.policies import POLICY
from cardlab.sim.barbu.search import ORACLE, search_state, searches_nb
from cardlab.sim.barbu.search_deals import (CONTRACT_DECISION, play_searched_contract_nb, search_contract_nb,
                                            searched_trump_nb)
from cardlab.sim.barbu.rules import CONTRACT, FLAG_POSITIVE

GAME_BLOCK = 16  # games per parallel work item


@njit(cache=True, error_model="numpy")
def choose_contract_nb(hand, open_slots, game_contracts, policy, weights, declarer_mean, features, state):
    """Geronimo: the slot (index into ``game_contracts``) the declarer picks from ``open_slots`` (bitmask).

    ``features`` holds the declarer's base features; its trump features are left at 0.
    """
    if policy == POLICY.RANDOM:
        state, k = below_n(state, popcount(np.uint64(open_slots)))
        return state, nth_card(np.uint64(open_slots), k)
    best = -1
    best_gain = -1e300
    trumps_slot = -1
    slots = np.uint64(open_slots)
    while slots != ZERO:
        s = ctz(slots)
        slots &= slots - ONE
        c = game_contracts[s]
        if c == CONTRACT.TRUMPS:
            trumps_slot = s  # last: its trump features overwrite the base ones
            continue
        gain = dot_nb(weights, c, features) - declarer_mean[c]
        if gain > best_gain:
            best_gain = gain
            best = s
    if trumps_slot >= 0:
        gain = best_trump_from_features_nb(hand, CONTRACT.TRUMPS, weights, features)[1] - declarer_mean[CONTRACT.TRUMPS]
        clear_trump_features_nb(features)
        if gain > best_gain:
            best = trumps_slot
    return state, best


@njit(cache=True, error_model="numpy", inline="always")
def any_double_nb(m, n):
    """Whether any pair of seats doubled in this deal."""
    for i in range(n):
        for j in range(n):
            if m[i, j] != 0:
                return True
    return False


@njit(cache=True, error_model="numpy")
def split_points_nb(total, n, declarer, remainder_to_declarer, out):
    """An undoubled negative deal not played: the non-declarers share the contract's total equally,
    rounded down, and the remainder (0 to n-2 points) goes to the declarer, or with
    ``remainder_to_declarer`` False one point each to the first non-declarers from the declarer's
    left (the declarer then scores 0)."""
    share = total // (n - 1)
    rest = total - share * (n - 1)
    for p in range(n):
        out[p] = share
    out[declarer] = rest if remainder_to_declarer else 0
    if not remainder_to_declarer:
        for k in range(1, rest + 1):
            out[(declarer + k) % n] += 1


@njit(cache=True, error_model="numpy")
def play_game_nb(seed, g, row0, deck, n, game_contracts, schedule,
                 double, late_redouble, obligation, skip_undoubled, remainder_to_declarer, deal_totals,
                 card_values, trick_values, last_two, flags, point_masks, policies, double_policies, duties,
                 lead_rule, early_stop, weights, seat_mean, declarer_mean, seat_std,
                 domino_variant, domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout,
                 searching, hands, scratch, trick, raw, final, features, seat_features, estimates, m, initiator,
                 open_slots, declared, totals, out_declarer, out_contract, out_trump, out_raw, out_final, out_doubles,
                 log_hands, log_moves, log_doubling, log_means, log_trump_means, log_contract_means, user_fn,
                 domino_fn, fault, eps, racing):
    """Play game ``g`` into output rows ``row0 ..`` (see the module docstring and ``play_games_nb``);
    ``user_fn`` and ``domino_fn`` play the seats of policy USER (their cards, their Domino moves), the first illegal
    move going to ``fault`` (``kernels.play_deals_nb``).

    With ``searching``, ``search`` seats search their card play, their Trumps suit and their
    Geronimo contract (``sim.barbu.search_deals``), each decision on a stream keyed by
    (seed, game, deal, decision); the ``log_*_means`` arrays (when they have rows) receive the
    candidates' means. The scratch arrays come from the caller.
    """
    k = game_contracts.shape[0]
    length = schedule.shape[0]
    record = log_moves.shape[0] > 0
    keep_means = log_means.shape[0] > 0
    no_moves = np.empty(0, np.int8)
    no_log = np.empty(0, np.int8)
    no_means = np.empty((0, 64), np.float32)
    no_trump_means = np.empty(0, np.float32)
    game_key = deal_state(seed, g)
    # the game's stream is the searched contracts' seed, its 64 bits passed as an int64 as the deals kernel passes
    # its seed: one compile of each searched contract serves deals and whole games
    search_seed = np.int64(game_key)
    for p in range(n):
        declared[p] = 0
    for d in range(length):
        declared[schedule[d, 0]] += 1
    required, done, remaining = start_obligations(declared, obligation)
    for p in range(n):
        open_slots[p] = (1 << k) - 1
    for d in range(length):
        row = row0 + d
        state = deal_state(game_key, d)  # deal d's own stream: (seed, game, deal)
        declarer = schedule[d, 0]
        slot = schedule[d, 1]
        choose = slot < 0
        state = deal_hands_nb(state, deck, scratch, n, hands)
        if record:
            log_hands[row, :] = hands
        if double:
            for p in range(n):
                base_features_nb(hands[p], p == declarer, seat_features[p])
        elif choose and policies[declarer] != POLICY.RANDOM:
            base_features_nb(hands[declarer], True, seat_features[declarer])
        if choose:
            state, slot = choose_contract_nb(hands[declarer], open_slots[declarer], game_contracts,
                                             policies[declarer], weights, declarer_mean,
                                             seat_features[declarer], state)
            if searching and searches_nb(policies[declarer]):
                slot = search_contract_nb(search_state(game_key, d, CONTRACT_DECISION), declarer, hands, n,
                                          open_slots[declarer], game_contracts, declarer_mean, slot, card_values,
                                          trick_values, last_two, flags, point_masks, duties, lead_rule, early_stop,
                                          domino_variant, domino_start_rank, domino_starter, ace_replay_optional,
                                          places, worlds, rollout, totals, policies[declarer] == ORACLE)
                if keep_means:
                    for s in range(k):
                        if open_slots[declarer] >> s & 1:
                            log_contract_means[row, s] = totals[s] / worlds
            open_slots[declarer] &= ~(1 << slot)
        contract = game_contracts[slot]
        trump = -1
        if contract == CONTRACT.TRUMPS:
            if searching:
                state, trump = searched_trump_nb(search_seed, d, hands, n, declarer, TRUMP_BY_POLICY, card_values,
                                                 trick_values, last_two, flags, point_masks, policies, duties,
                                                 weights, worlds, rollout, state,
                                                 log_trump_means[row] if keep_means else no_trump_means)
            else:
                state, trump = name_trump_nb(hands[declarer], TRUMP_BY_POLICY, policies[declarer], weights,
                                             features, state)
        if double:
            for p in range(n):
                if trump >= 0:
                    trump_features_nb(hands[p], trump, seat_features[p])
                estimates[p] = dot_nb(weights, contract, seat_features[p])
            dlog = log_doubling[row] if record else no_log
            state = doubling_round_nb(n, declarer, flags[contract] & FLAG_POSITIVE != 0, late_redouble,
                                      required, done, remaining, estimates, seat_mean[contract],
                                      declarer_mean[contract] - seat_mean[contract],
                                      0.25 * seat_std[contract], double_policies, state, m, initiator, dlog)
            remaining[declarer] -= 1
        moves = log_moves[row] if record else no_moves
        if skip_undoubled and flags[contract] & FLAG_POSITIVE == 0 and not any_double_nb(m, n):
            split_points_nb(deal_totals[contract], n, declarer, remainder_to_declarer, raw)
            for i in range(moves.shape[0]):
                moves[i] = -1
        elif searching:
            means = log_means[row] if keep_means else no_means  # (not inside the call: over 30 arguments)
            state = play_searched_contract_nb(search_seed, d, hands, n, declarer, contract, trump, card_values,
                                              trick_values, last_two, flags, point_masks, policies, duties, lead_rule,
                                              early_stop, domino_variant, domino_start_rank, domino_starter,
                                              ace_replay_optional, places, worlds, rollout, state, moves, means, raw,
                                              user_fn, domino_fn, fault, eps, racing)
        else:
            state = play_contract_nb(hands, n, declarer, contract, trump, card_values, trick_values,
                                     last_two, flags, point_masks, policies, duties, lead_rule, early_stop,
                                     domino_variant, domino_start_rank, domino_starter, ace_replay_optional,
                                     places, state, trick, moves, raw, user_fn, domino_fn, fault)
        if double:
            settle_nb(raw, m, n, final)
        out_declarer[row] = declarer
        out_contract[row] = contract
        out_trump[row] = trump
        for p in range(n):
            out_raw[row, p] = raw[p]
            out_final[row, p] = final[p] if double else raw[p]
            for q in range(n):
                out_doubles[row, p, q] = m[p, q] if double and initiator[p, q] == 1 else 0


@njit(cache=True, error_model="numpy")
def play_games_nb(seed, first, count, deck, n, game_contracts, schedule,
                  double, late_redouble, obligation, skip_undoubled, remainder_to_declarer, deal_totals,
                  card_values, trick_values, last_two, flags, point_masks, policies, double_policies, duties,
                  lead_rule, early_stop, weights, seat_mean, declarer_mean, seat_std,
                  domino_variant, domino_start_rank, domino_starter, ace_replay_optional, places,
                  out_declarer, out_contract, out_trump, out_raw, out_final, out_doubles,
                  log_hands, log_moves, log_doubling, user_fn, domino_fn, faults):
    """Play ``count`` whole games of ``length`` deals each (see the module docstring).

    Row ``j * length + d`` of the outputs is deal ``d`` of game ``first + j``. ``out_doubles``
    (rows, n, n) holds ``m[i, j]`` where ``i`` doubled ``j`` (2 when redoubled), else 0. The
    logs are filled when they have rows (zero-row arrays skip them). No seat searches here:
    ``play_searched_games_nb`` plays games with ``search`` seats. ``user_fn``, ``domino_fn`` and ``faults`` (one
    row per game) are ``kernels.play_deals_nb``'s.
    """
    play_games_any_nb(seed, first, count, GAME_BLOCK, deck, n, game_contracts, schedule, double, late_redouble,
                      obligation, skip_undoubled, remainder_to_declarer, deal_totals, card_values, trick_values,
                      last_two, flags, point_masks, policies, double_policies, duties, lead_rule, early_stop, weights,
                      seat_mean, declarer_mean, seat_std, domino_variant, domino_start_rank, domino_starter,
                      ace_replay_optional, places, 1, POLICY.HEURISTIC, False, out_declarer, out_contract, out_trump,
                      out_raw, out_final, out_doubles, log_hands, log_moves, log_doubling,
                      np.empty((0, 1, 64), np.float32), np.empty((0, 4), np.float32),
                      np.empty((0, game_contracts.shape[0]), np.float32), user_fn, domino_fn, faults, np.zeros(n), 0)


@njit(cache=True, error_model="numpy", parallel=True)
def play_games_any_nb(seed, first, count, block, deck, n, game_contracts, schedule,
                      double, late_redouble, obligation, skip_undoubled, remainder_to_declarer, deal_totals,
                      card_values, trick_values, last_two, flags, point_masks, policies, double_policies, duties,
                      lead_rule, early_stop, weights, seat_mean, declarer_mean, seat_std,
                      domino_variant, domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout,
                      searching, out_declarer, out_contract, out_trump, out_raw, out_final, out_doubles,
                      log_hands, log_moves, log_doubling, log_means, log_trump_means, log_contract_means, user_fn,
                      domino_fn, faults, eps, racing):
    """``play_games_nb`` with ``search`` seats allowed (``searching``), in parallel work items of ``block`` games.

    ``worlds``, ``rollout``, ``eps`` (each seat's inference, 0: off) and ``racing`` are the search's;
    ``log_means`` (rows, log length, 64), ``log_trump_means`` (rows, 4) and ``log_contract_means`` (rows,
    contracts) receive the searched decisions' candidate means when they have rows.
    """
    length = schedule.shape[0]
    n_blocks = (count + block - 1) // block
    for b in prange(n_blocks):
        hands = np.empty(n, np.uint64)
        scratch = np.empty(deck.shape[0], np.int8)
        trick = np.empty(n, np.int64)
        raw = np.empty(n, np.int32)
        final = np.empty(n, np.int32)
        features = np.empty(N_FEATURES, np.float64)
        seat_features = np.zeros((n, N_FEATURES), np.float64)
        estimates = np.zeros(n, np.float64)
        m = np.zeros((n, n), np.int8)
        initiator = np.zeros((n, n), np.int8)
        open_slots = np.empty(n, np.int64)
        declared = np.zeros(n, np.int64)
        totals = np.empty(game_contracts.shape[0], np.int64)
        for j in range(b * block, min(count, (b + 1) * block)):
            play_game_nb(seed, first + j, j * length, deck, n, game_contracts, schedule, double, late_redouble,
                         obligation, skip_undoubled, remainder_to_declarer, deal_totals, card_values, trick_values,
                         last_two, flags, point_masks, policies, double_policies, duties, lead_rule, early_stop,
                         weights, seat_mean, declarer_mean, seat_std, domino_variant, domino_start_rank,
                         domino_starter, ace_replay_optional, places, worlds, rollout, searching, hands, scratch,
                         trick, raw, final, features, seat_features, estimates, m, initiator, open_slots, declared,
                         totals, out_declarer, out_contract, out_trump, out_raw, out_final, out_doubles, log_hands,
                         log_moves, log_doubling, log_means, log_trump_means, log_contract_means, user_fn,
                         domino_fn, faults[j], eps, racing)


@njit(cache=True, error_model="numpy", parallel=True)
def heuristic_picks_nb(hands, game_contracts, weights, declarer_mean, out):
    """The slot the heuristic declarer picks for each hand with every contract still open."""
    open_slots = (1 << game_contracts.shape[0]) - 1
    for b in prange((hands.shape[0] + GAME_BLOCK - 1) // GAME_BLOCK):
        features = np.empty(N_FEATURES, np.float64)
        for j in range(b * GAME_BLOCK, min(hands.shape[0], (b + 1) * GAME_BLOCK)):
            base_features_nb(hands[j], True, features)
            out[j] = choose_contract_nb(hands[j], open_slots, game_contracts, POLICY.HEURISTIC, weights,
                                        declarer_mean, features, np.uint64(0))[1]
