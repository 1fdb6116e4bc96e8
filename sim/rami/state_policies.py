"""Rami's built-in seats in a step-API state: the kernels' own turn, run on the state's view of the round, so
that a random or heuristic seat plays in the state exactly the moves it plays in the kernels (a table of them
played through the state gives the kernels' rows).

A built-in seat's turn is one call of :func:`~cardlab.sim.rami.kernels.play_turn_nb`, the turn every round
kernel plays (the draw, the taken card to the table, the opening, jokers back, melds, lay-offs, the discard),
given the state's hands, discard pile, table, who has opened and the stock's next card. Its log rows are the
turn's moves; the state plays them one at a time (:func:`policy_action`), each read as the referee reads a
kernel's log (:func:`~cardlab.sim.rami.referee.log_entry`) and checked as one of the legal moves. So a built-in
seat starts its own turns: in the middle of a turn begun by another player it has no move
(:meth:`RamiState.policy_ready`).

A random seat draws from the round's own stream (:attr:`RamiState.stream`: the stream ``(seed, round)`` after
the shuffle, advanced by each random decision and by a recycled stock's shuffle, in the kernel's order).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.policy import ROLLOUT_POLICIES as POLICY_NAMES
from cardlab.sim.rami.kernels import EV_OUT, LOG_ROWS, LOG_W, play_turn_nb
from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, _scratch
from cardlab.sim.rami.referee import EV_NAMES, log_entry
from cardlab.sim.rami.rules import HAND_W
from cardlab.sim.state import as_stream


def turn_rows(state, policy_id: int) -> list:
    """The log rows of the turn the seat to move (at the start of its turn) plays by the built-in ``policy_id``,
    its going out left aside (not a move); advances the state's stream by the turn's random draws."""
    o = state.study.options.kernel_ints()
    P = state.P
    hands = np.array(state.hands, np.int64).reshape(P, HAND_W)
    stock = [state.kind(p) for p in reversed(state.stock)]  # the next card first
    deck = np.array(stock + [0], np.int64)
    pile = np.zeros(len(state.pile) + 1, np.int64)
    pile[:len(state.pile)] = state.pile
    table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    for i, m in enumerate(state.table):
        table[i, :] = m[:MELD_W]
    log = np.zeros((LOG_ROWS, LOG_W), np.int64)
    stream, _, _, _, rows, _ = play_turn_nb(
        np.uint64(state.stream or 0), state.seat, state.t, o, policy_id, hands, deck, 0, len(stock), pile,
        len(state.pile), table, len(state.table), np.array(state.opened, np.int64), np.array(state.open_turn, np.int64),
        np.zeros(P, np.bool_), np.zeros((MAX_MELDS, MELD_W), np.int64), _scratch(), log, 0, None,
        np.zeros(2, np.int64))
    if state.stream is not None:
        state.stream = as_stream(stream)
    return [[int(v) for v in row] for row in log[:rows] if row[0] != EV_OUT]


def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move: the
    next move of the turn the kernel plays for it (computed when its turn starts)."""
    key = (state.seat, state.t)
    if not state.drawn:
        state.turn_plan = (key, turn_rows(state, POLICY_NAMES.index(policy)))
    if state.turn_plan is None or state.turn_plan[0] != key or not state.turn_plan[1]:
        raise ValueError(f"policy: Rami's {policy} seat plays whole turns; seat {state.seat}'s turn {state.t} was "
                         "begun by another player")
    row = state.turn_plan[1].pop(0)
    return state.action(log_entry(state, EV_NAMES[row[0]], row[2:]))
