"""A Numba player of several decisions (cardlab.sim.user): a dict of functions by decision, its name on
the rows, the callback of a decision it leaves out (always -1: the heuristic's move), and one-line
refusals of a dict that cannot play the seat. Checked on a seat declared here, so no game's kernels
are compiled."""
from __future__ import annotations

import ctypes

import pytest
from numba import njit, types

from cardlab.sim.user import (Decision, NumbaSeat, check, is_numba_player, kernel_function, name_of, player_parts,
                              resolve, run_callback)


@njit(cache=True)
def play_low(hand, legal):
    return legal & -legal


@njit(cache=True)
def always_pass(hand, round_):
    return 0


def _card_signature():
    return types.int64(types.int64, types.int64)


SEAT = NumbaSeat("card play", "card(hand: int64, legal: int64) -> int64", _card_signature, 9, key="card",
                 extras=(Decision("bid", "the bids", "bid(hand: int64, round: int64) -> int64", _card_signature),
                         Decision("discard", "the discard", "discard(hand: int64, kitty: int64) -> int64",
                                  _card_signature)))


def _call(callback, *args):
    return ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(callback.address)(*args)


def test_a_dict_of_functions_is_one_player_named_by_its_main_function_then_each_other_decision():
    player = {"bid": always_pass, "card": play_low}
    assert is_numba_player(player) and is_numba_player(play_low) and not is_numba_player({"card": print})
    name = check(player, SEAT, "test", 0)
    assert name == f"numba:{__name__}.play_low+bid={__name__}.always_pass"
    assert player_parts(name, SEAT) == {"card": f"numba:{__name__}.play_low", "bid": f"numba:{__name__}.always_pass"}
    assert resolve(name, SEAT) == {"card": play_low, "bid": always_pass}
    assert name_of(play_low) == check(play_low, SEAT, "test", 0) == f"numba:{__name__}.play_low"


def test_each_decision_calls_its_function_and_a_decision_left_out_is_the_heuristics():
    name = check({"card": play_low, "bid": always_pass}, SEAT, "test", 0)
    assert _call(kernel_function(name, SEAT), 0, 0b1100) == 0b100  # the main decision: play_low
    assert _call(run_callback(name, SEAT, "bid"), 5, 1) == 0
    assert _call(run_callback(name, SEAT, "discard"), 5, 1) == -1  # left out: the heuristic decides
    for key in ("card", "bid", "discard"):  # a run without a Numba seat: None for the plain kernels (no call compiled),
        assert run_callback("", SEAT, key) is None  # for the searched ones a callback of the decision's types
        assert _call(run_callback("", SEAT, key, searched=True), 5, 1) == -1


@pytest.mark.parametrize("player, message", [
    ({"bid": always_pass}, "needs its main decision 'card'"),
    ({"card": play_low, "lead": always_pass}, "'lead' is not a decision of test's Numba seat; give card, bid, discard"),
])
def test_a_dict_that_cannot_play_the_seat_is_refused_in_one_line(player, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as e:
        check(player, SEAT, "test", 2)
    assert "\n" not in str(e.value) and "seat 2" in str(e.value)


def test_a_decision_function_of_the_wrong_signature_is_refused_with_that_decisions_signature():
    @njit
    def three(a, b, c):
        return a

    with pytest.raises(ValueError, match=r"\(the bids\): expected bid\(hand: int64, round: int64\)"):
        check({"card": play_low, "bid": three}, SEAT, "test", 1)


def test_a_function_checked_for_one_game_is_checked_again_for_another_games_signature():
    """Decision keys repeat across games ("card"): a function that fits one game's card signature is still refused
    by another's."""
    def three_ints():
        return types.int64(types.int64, types.int64, types.int64)

    other = NumbaSeat("card play", "card(hand: int64, legal: int64, led: int64) -> int64", three_ints, 3)
    check(play_low, SEAT, "test", 0)
    with pytest.raises(ValueError, match=r"does not fit other's Numba seat \(card play\): expected card\(hand"):
        check(play_low, other, "other", 0)
