"""Deals of any contract with ``search`` seats: the searched counterparts of ``kernels.play_contract_nb``
and ``kernels.play_deals_nb``.

Trick contracts are searched by ``sim.barbu.search``, Domino by ``sim.barbu.search_domino``; a
``search`` declarer of Trumps names its trump by search. Each deal draws its cards and its random
seats' moves from the deal stream exactly as the deal kernel does, and each searched decision from
its own stream keyed by (seed, deal, decision), so results do not depend on threads or chunks.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.barbu.estimate import N_FEATURES
from cardlab.sim.barbu.kernels import TRUMP_BY_POLICY, name_trump_nb, play_contract_nb
from cardlab.sim.barbu.rules import CONTRACT
from cardlab.sim.barbu.search import (ORACLE, ROLLOUT_SALT, TRUMP_DECISION, oracle_view_nb,
                                      play_searched_tricks_nb, search_state, search_trump_nb, searches_nb,
                                      world_count)
from cardlab.sim.barbu.search_domino import play_searched_domino_nb
from cardlab.sim.dealing import deal_hands_nb
from cardlab.sim.policy import NO_STOP
from cardlab.sim.rng import deal_state, mix64
from cardlab.sim.worlds import draw_world_nb, plan_world_nb


@njit(cache=True, error_model="numpy")
def searched_trump_nb(seed, deal, hands, n, declarer, trump_how, card_values, trick_values, last_two, flags,
                      point_masks, policies, duties, weights, worlds, rollout, state, trump_means):
    """The trump of a Trumps deal: searched for a ``search`` (or ``oracle``) declarer naming by policy, else
    ``name_trump_nb``.

    ``trump_means`` (4, or empty) receives each suit's mean score for a searching declarer.
    Returns ``(state, trump)``; only the non-searched path draws from the deal stream ``state``.
    """
    if searches_nb(policies[declarer]) and trump_how == TRUMP_BY_POLICY:
        totals = np.empty(4, np.int64)
        trump = search_trump_nb(search_state(seed, deal, TRUMP_DECISION), declarer, hands, n, worlds,
                                CONTRACT.TRUMPS, card_values, trick_values, last_two, flags, point_masks, duties,
                                rollout, totals, policies[declarer] == ORACLE)
        if trump_means.shape[0] > 0:
            for suit in range(4):
                trump_means[suit] = totals[suit] / worlds
        return state, trump
    features = np.empty(N_FEATURES, np.float64)
    return name_trump_nb(hands[declarer], trump_how, policies[declarer], weights, features, state)


@njit(cache=True, error_model="numpy")
def play_searched_contract_nb(seed, deal, hands, n, declarer, contract, trump, card_values, trick_values, last_two,
                              flags, point_masks, policies, duties, lead_rule, early_stop, domino_variant,
                              domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout, state,
                              moves, means, scores, user_fn, domino_fn, fault, eps, racing):
    """Play one deal of any contract with ``search`` seats searching; returns the deal stream.

    ``means`` (log length x 64, or 0 rows) receives each searched move's candidate means; ``eps`` (per seat,
    0: off) is each search seat's inference in the trick contracts and ``racing`` their candidates' racing level
    (0: off; ``sim.barbu.search``). The Numba seats play
    ``user_fn`` (cards) and ``domino_fn`` (Domino), as in ``kernels.play_contract_nb``.
    """
    if contract == CONTRACT.DOMINO:
        return play_searched_domino_nb(seed, deal, hands, n, declarer, domino_variant, domino_start_rank,
                                       domino_starter, ace_replay_optional, places, policies, worlds, rollout, state,
                                       moves, means, scores, domino_fn, fault)
    return play_searched_tricks_nb(seed, deal, hands, n, declarer, contract, trump, card_values, trick_values,
                                   last_two, flags, point_masks, policies, duties, lead_rule, early_stop, worlds,
                                   rollout, state, moves, means, scores, user_fn, fault, eps, racing, NO_STOP)


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_deals_nb(seed, deals, deck, n, contracts, card_values, trick_values, last_two, flags, point_masks,
                         policies, duties, lead_rule, early_stop, trump_how, weights, domino_variant,
                         domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout,
                         out_trump, out_scores, log_moves, log_means, log_trump_means, user_fn, domino_fn, faults,
                         eps, racing):
    """Play the deals numbered ``deals`` (any order) with search seats; one output row per entry.

    Deal ``i`` has the hands, contract and declarer of ``kernels.play_deals_nb``; ``eps`` is each seat's
    inference (0: off) and ``racing`` the card searches' racing level (0: off; ``sim.barbu.search``). ``log_moves``,
    ``log_means`` (log length x 64 per deal) and ``log_trump_means`` (4 per deal) are filled
    when they have one row per deal. Parallel over deals: a searched deal is long enough to be
    a work item alone.
    """
    k_contracts = contracts.shape[0]
    for j in prange(deals.shape[0]):
        i = deals[j]
        contract = contracts[i % k_contracts]
        declarer = (i // k_contracts) % n
        hands = np.empty(n, np.uint64)
        scores = np.empty(n, np.int32)
        scratch = np.empty(deck.shape[0], np.int8)
        moves = log_moves[j] if log_moves.shape[0] > 0 else np.empty(0, np.int8)
        means = log_means[j] if log_means.shape[0] > 0 else np.empty((0, 64), np.float32)
        trump_means = log_trump_means[j] if log_trump_means.shape[0] > 0 else np.empty(0, np.float32)
        state = deal_state(seed, i)
        state = deal_hands_nb(state, deck, scratch, n, hands)
        trump = -1
        if contract == CONTRACT.TRUMPS:
            state, trump = searched_trump_nb(seed, i, hands, n, declarer, trump_how, card_values, trick_values,
                                             last_two, flags, point_masks, policies, duties, weights, worlds,
                                             rollout, state, trump_means)
        play_searched_contract_nb(seed, i, hands, n, declarer, contract, trump, card_values, trick_values, last_two,
                                  flags, point_masks, policies, duties, lead_rule, early_stop, domino_variant,
                                  domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout,
                                  state, moves, means, scores, user_fn, domino_fn, faults[j], eps, racing)
        out_trump[j] = trump
        for p in range(n):
            out_scores[j, p] = scores[p]


CONTRACT_DECISION = 1 << 16  # the stream of a Geronimo contract choice (no move has this number)


@njit(cache=True, error_model="numpy")
def search_contract_nb(state, s, hands, n, open_slots, game_contracts, declarer_mean, fallback, card_values,
                       trick_values, last_two, flags, point_masks, duties, lead_rule, early_stop, domino_variant,
                       domino_start_rank, domino_starter, ace_replay_optional, places, worlds, rollout, totals,
                       oracle):
    """Geronimo: the slot a searching declarer ``s`` picks from ``open_slots`` (bitmask of ``game_contracts``);
    the ``oracle`` plays the true deal (``search.oracle_view_nb``).

    Every open contract is played out on the same ``worlds`` sampled deals of the other hands
    (nothing is shown before a deal's first move) with the ``rollout`` policy at every seat; in
    Trumps each suit is tried and the contract is worth its best suit's total (what a searching
    declarer will then name). The declarer takes the contract whose mean score beats that
    contract's average declarer score (``declarer_mean``, the heuristic rule's yardstick) by the
    most; ties to ``fallback`` (the heuristic's pick), then the lowest slot. ``totals[slot]``
    receives each contract's summed score (its best suit's, for Trumps).
    """
    k = game_contracts.shape[0]
    world = np.empty(n, np.uint64)
    work = np.empty(n, np.uint64)
    gains = np.empty(n, np.int32)
    trick = np.empty(n, np.int64)
    excluded = np.zeros(n, np.uint64)
    rollouts = np.full(n, rollout, np.int64)
    no_moves = np.empty(0, np.int8)
    rollout_fault = np.zeros(2, np.int64)  # no seat of a rollout plays USER
    suits = np.zeros(4, np.int64)
    for slot in range(k):
        totals[slot] = 0
    plan = plan_world_nb(s, n, hands, oracle_view_nb(oracle, s, hands, excluded))
    rounds = world_count(oracle, worlds, rollout)
    for _ in range(rounds):
        state = draw_world_nb(state, plan, s, hands, world)
        roll = mix64(state ^ ROLLOUT_SALT)  # random rollouts: the same draws for every contract of this world
        for slot in range(k):
            if open_slots >> slot & 1 == 0:
                continue
            contract = game_contracts[slot]
            for trump in range(-1, 4 if contract == CONTRACT.TRUMPS else 0):
                if contract == CONTRACT.TRUMPS and trump < 0:
                    continue
                for p in range(n):
                    work[p] = world[p]
                play_contract_nb(work, n, s, contract, trump, card_values, trick_values, last_two, flags,
                                 point_masks, rollouts, duties, lead_rule, early_stop, domino_variant,
                                 domino_start_rank, domino_starter, ace_replay_optional, places, roll, trick,
                                 no_moves, gains, None, None, rollout_fault)
                if trump >= 0:
                    suits[trump] += gains[s]
                else:
                    totals[slot] += gains[s]
    if rounds < worlds:
        for slot in range(k):
            totals[slot] *= worlds
        for suit in range(4):
            suits[suit] *= worlds
    for slot in range(k):
        if open_slots >> slot & 1 and game_contracts[slot] == CONTRACT.TRUMPS:
            totals[slot] = max(max(suits[0], suits[1]), max(suits[2], suits[3]))
    choice = fallback
    best = totals[choice] / worlds - declarer_mean[game_contracts[choice]]
    for slot in range(k):
        if open_slots >> slot & 1:
            value = totals[slot] / worlds - declarer_mean[game_contracts[slot]]
            if value > best:
                best = value
                choice = slot
    return choice
