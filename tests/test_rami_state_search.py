"""Rami's search and oracle seats in the step API (issue #18): a search seat's turn through the state is the
searched round kernel's own turn, given the round so far, so it plays beside a Python seat."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardlab.sim.games import game
from cardlab.sim.ladder import strength_study
from cardlab.sim.python_seats import play_deals
from cardlab.sim.rami.search import PHASE_DISCARD, PHASE_DRAW
from cardlab.sim.rami.state import DISCARD
from cardlab.sim.rami.state_policies import searched_move
from cardlab.sim.runner import to_frame
from cardlab.sim.whole_games import play_game_columns

RAMI = game("rami")
TABLE = ["search", "heuristic", "oracle", "random"]


def lowest(observation, legal):
    """A Python seat: the legal move of lowest id (it draws from the stock and discards, never melds)."""
    return min(legal, key=lambda a: a.id)


def test_whole_games_with_search_seats_through_the_state_give_the_search_kernels_rows():
    study = RAMI.build("games", seed=5, policy=TABLE, search_worlds=4)
    kernel = to_frame(study.play_games(0, 2))
    state = to_frame(play_game_columns(study, 0, 2))
    pd.testing.assert_frame_equal(state, kernel)


RULES = [dict(players=6, recycle_discards=True), dict(players=2, n_jokers=2, hand_size=14, freed_joker_use="anywhere"),
         dict(players=3, discard_take_must_use=False, recycle_discards=True, open_threshold=30)]


@pytest.mark.parametrize("rules", RULES, ids=["recycle", "two-jokers", "take-freely"])
def test_search_seats_through_the_state_give_the_search_kernels_rows_under_other_rules(rules):
    """A recycled stock (the search then samples it from the recycled cards), other packs and a discard taken
    freely: the state's search seats still play the kernel's rounds."""
    n = rules["players"]
    study = RAMI.build("deals", seed=7, policy=(TABLE + ["search", "oracle"])[:n], search_worlds=3, **rules)
    states = play_deals(study, 0, 12)
    if rules.get("recycle_discards") and n == 6:
        assert any(s.recycled_at is not None for s in states)
    kernel = to_frame(study.play(0, 12))
    state = to_frame(RAMI.state_columns(states))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def test_searched_moves_through_the_state_carry_the_kernels_candidate_means():
    """Each searched decision through the state has the candidates and means the kernel records for it."""
    study = RAMI.build("deals", seed=17, policy=TABLE, search_worlds=4)
    cols = study.play(3, 1, record=True)
    recorded = cols["search_means"][0][:cols["search_rows"][0]].tolist()
    state, seen = RAMI.new_state(study, 3), []
    while not state.is_over:
        policy = study.policies[state.current_player]
        move, means = searched_move(state, policy) if policy in ("search", "oracle") else \
            (state.policy_action(policy), {})
        for i, mean in means.items():  # a draw's candidates: 0 the stock, 1 the discard pile; a discard's: its card
            phase, cand = (PHASE_DRAW, min(i, 1)) if i < DISCARD else (PHASE_DISCARD, i - DISCARD)
            seen.append([state.t, state.current_player, phase, cand, mean])
        state.apply(move)
    assert len(recorded) > 8 and seen == recorded


def _searched_decisions(study, deals, seat: int = 0):
    """States at each of ``seat``'s searched decisions (a draw with the discard on offer, every discard) in the
    rounds ``deals`` played by the study's seats through the state."""
    for deal in deals:
        state = RAMI.new_state(study, deal)
        while not state.is_over:
            policy = study.policies[state.current_player]
            move, means = searched_move(state, policy) if state.current_player == seat else \
                (state.policy_action(policy), {})
            if means:
                yield state.clone()
            state.apply(move)


def test_hidden_cards_never_change_the_search_decision():
    """At every searched draw and discard, a round redealt consistently with the seat's view (the others' unseen
    cards and the stock moved) gives the same move and the same candidate means; the oracle, which sees the
    round, does not (its draws compared)."""
    study = RAMI.build("deals", seed=2, policy=["search", "heuristic", "heuristic", "heuristic"], search_worlds=4)
    rng = np.random.default_rng(0)
    checked = differ = 0
    for state in _searched_decisions(study, range(5)):
        move, means = searched_move(state.clone())
        other = state.resample(0, rng)
        assert other.observation(0) == state.observation(0)
        assert searched_move(other) == (move, means)
        checked += 1
        if not state.drawn:  # an oracle's turn differs from the search's: compared where the turn starts
            differ += searched_move(other, "oracle") != searched_move(state.clone(), "oracle")
    assert checked >= 20 and differ > 0


def test_a_python_seat_plays_beside_search_seats_and_on_the_ladder():
    df = RAMI.simulate(deals=2, seed=4, policy=[lowest, "search", "oracle", "heuristic"], search_worlds=4)
    assert len(df) == 2 and (df[[f"score_{p}" for p in range(4)]].to_numpy() >= 0).all()
    ladder = strength_study(RAMI, deals=8, seed=1, search_worlds=2, policies={"mine": lowest})
    assert len(ladder) == 8 and any(c.startswith("lone_mine") for c in ladder.columns)


def test_a_search_seat_does_not_finish_a_turn_another_player_began():
    """A search seat plays whole turns: once its turn began with another move than its search's, it has none."""
    study = RAMI.build("deals", seed=2, policy=["search", "heuristic", "heuristic", "heuristic"], search_worlds=4)
    state = RAMI.new_state(study, 1)
    while state.current_player != 0 or len(state.legal_actions()) < 2 or state.drawn:  # a draw with a choice
        state.apply(state.policy_action(study.policies[state.current_player]))
    planned = state.policy_action("search")
    state.apply(next(a for a in state.legal_actions() if a.id != planned.id))
    with pytest.raises(ValueError, match="begun by another player"):
        state.policy_action("search")
