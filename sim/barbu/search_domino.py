"""The search policy in Domino: determinized Monte Carlo search (PIMC) over the Domino kernel.

At each turn where a ``search`` seat has a choice (two or more playable cards, or, under
``ace_replay_optional``, whether to take an Ace's extra turn), it

1. samples ``worlds`` deals of the cards it has not seen, consistent with what the table has
   shown: every other seat gets as many cards as it holds, and a seat that passed gets none of
   the cards that were playable when it passed (a pass shows it held no playable card then);
   the sampler is the trick search's (``sim.worlds``: exactly uniform over those deals, no retries);
2. in every world makes each candidate move and plays the deal out with the rollout policy at
   every seat (the heuristic ``domino_heuristic_card`` by default, or random legal moves, the
   same random draws for every candidate of a world), through the deal kernel's own loop
   ``domino.domino_play_on_nb``;
3. makes the move with the best mean final score for itself (its place points). Ties go to the
   move the heuristic would make, then to the lowest card id (declining comes last).

A seat with no playable card passes (forced, not searched); a seat with one playable card plays
it. The fan_tan start rank of a ``search`` declarer is named by the heuristic rule. An Ace
declined under ``ace_replay_optional`` shows that the seat held a playable card; the sampler
does not use that (rare) fact.

The searcher's draws come from a stream keyed by (seed, deal, decision), the decision being the
move's position in the log; the deal's own stream (dealing, random seats) is used exactly as in
``domino.play_domino_nb``, so a deal without search seats plays identically.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.barbu.domino import (MOVE_DECLINE, MOVE_NONE, domino_heuristic_card, domino_play_on_nb,
                                      domino_start_nb, user_scratch)
from cardlab.sim.barbu.search import ORACLE, ROLLOUT_SALT, oracle_view_nb, search_state, world_count
from cardlab.sim.worlds import best_candidate_nb, draw_world_nb, plan_world_nb
from cardlab.sim.cards import ONE, ZERO, lowest_card
from cardlab.sim.rng import mix64

DECLINE_COLUMN = 63  # the column of ``means`` holding the mean of declining an Ace's extra turn (no card has id 63)


@njit(cache=True, error_model="numpy")
def search_domino_move_nb(state, s, hands, n, extra, frontier, played, deck, openers, active, place, variant,
                          ace_replay_optional, places, excluded, worlds, rollout, totals, oracle):
    """The move of searching seat ``s`` at its turn (see the module docstring): a card or ``MOVE_DECLINE``.

    ``totals[c]`` receives each candidate's summed final score for ``s`` (``DECLINE_COLUMN`` for declining)
    over ``worlds`` worlds; the ``oracle``'s are the true deal (``search.oracle_view_nb``).
    """
    legal = hands[s] & frontier
    may_decline = extra and ace_replay_optional
    fallback = domino_heuristic_card(hands[s], legal, frontier, played, variant, deck, openers)
    for c in range(64):
        totals[c] = 0
    world = np.empty(n, np.uint64)
    work = np.empty(n, np.uint64)
    work_scores = np.empty(n, np.int32)
    rollouts = np.full(n, rollout, np.int64)
    no_moves = np.empty(0, np.int8)
    no_excluded = np.empty(0, np.uint64)
    no_fault = np.zeros(2, np.int64)  # no seat of a rollout plays USER
    no_counts = np.empty(0, np.int64)
    plan = plan_world_nb(s, n, hands, oracle_view_nb(oracle, s, hands, excluded))
    rounds = world_count(oracle, worlds, rollout)
    for _ in range(rounds):
        state = draw_world_nb(state, plan, s, hands, world)
        roll = mix64(state ^ ROLLOUT_SALT)  # random rollouts: the same draws for every candidate of this world
        m = legal
        while True:
            if m != ZERO:
                c = lowest_card(m)
                m &= m - ONE
                move = c
            elif may_decline:
                c = DECLINE_COLUMN
                move = MOVE_DECLINE
            else:
                break
            for p in range(n):
                work[p] = world[p]
                work_scores[p] = 0
            domino_play_on_nb(work, n, s, extra, frontier, played, deck, openers, active, place, variant,
                              ace_replay_optional, places, rollouts, move, False, no_excluded, roll, no_moves, 0,
                              work_scores, None, no_fault, no_counts)
            totals[c] += work_scores[s]
            if move == MOVE_DECLINE:
                break
    if rounds < worlds:
        for c in range(64):
            totals[c] *= worlds
    choice = best_candidate_nb(legal, totals, fallback)
    if may_decline and totals[DECLINE_COLUMN] > totals[choice]:
        return MOVE_DECLINE
    return choice


@njit(cache=True, error_model="numpy")
def play_searched_domino_nb(seed, deal, hands, n, declarer, variant, start_rank, starter_offset, ace_replay_optional,
                            places, policies, worlds, rollout, state, moves, means, scores, domino_fn, fault):
    """Play one Domino deal as ``domino.play_domino_nb`` does, with ``search`` (and ``oracle``) seats searching.

    ``means`` (log length x 64, or 0 rows to skip) receives, at each searched move's log
    position, each candidate's mean final score for the searcher (NaN elsewhere). ``seed`` and
    ``deal`` key the searcher's streams. The seats of policy USER play ``domino_fn`` (its first illegal move
    going to ``fault``), as in ``domino.play_domino_nb``. Returns the deal stream.
    """
    keep_means = means.shape[0] > 0
    if keep_means:
        means[:] = np.nan
    state, deck, openers, frontier, p, active = domino_start_nb(hands, n, declarer, variant, start_rank,
                                                               starter_offset, policies, state, moves, scores)
    excluded = np.zeros(n, np.uint64)
    totals = np.empty(64, np.int64)
    counts = user_scratch(domino_fn, n)
    extra = False
    played = ZERO
    place = 0
    k = 1
    move = MOVE_NONE
    while True:
        state, p, extra, frontier, played, active, place, k, done = domino_play_on_nb(
            hands, n, p, extra, frontier, played, deck, openers, active, place, variant, ace_replay_optional, places,
            policies, move, True, excluded, state, moves, k, scores, domino_fn, fault, counts)
        if done:
            break
        move = search_domino_move_nb(search_state(seed, deal, k), p, hands, n, extra, frontier, played, deck, openers,
                                     active, place, variant, ace_replay_optional, places, excluded, worlds, rollout,
                                     totals, policies[p] == ORACLE)
        if keep_means and k < means.shape[0]:
            m = hands[p] & frontier
            while m != ZERO:
                c = lowest_card(m)
                m &= m - ONE
                means[k, c] = totals[c] / worlds
            if extra and ace_replay_optional:
                means[k, DECLINE_COLUMN] = totals[DECLINE_COLUMN] / worlds
    return state
