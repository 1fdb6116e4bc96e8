"""Rami's built-in seats in a step-API state: the kernels' own turn, run on the state's view of the round, so
that a random, heuristic, search or oracle seat plays in the state exactly the moves it plays in the kernels (a
table of them played through the state gives the kernels' rows).

A random or heuristic seat's turn is one call of :func:`~cardlab.sim.rami.kernels.play_turn_nb`, the turn every
round kernel plays (the draw, the taken card to the table, the opening, jokers back, melds, lay-offs, the
discard), given the state's hands, discard pile, table, who has opened and the stock. A search or oracle seat's
turn is the searched round kernel's (:func:`~cardlab.sim.rami.search.play_search_turns_nb`) run from the turn's
start and stopped at the next turn: its draw and discard searched (each candidate's mean kept), its table moves
the heuristic's, its search drawing from the stream of that decision in a run (``state.search_key``: the round's,
or a whole game's and the round's number in it). The turn's log rows are its moves; the state plays them one at a
time (:func:`policy_action`), each read as the referee reads a kernel's log
(:func:`~cardlab.sim.rami.referee.log_entry`) and checked as one of the legal moves. So a built-in seat starts its
own turns: in the middle of a turn begun by another player it has no move (:meth:`RamiState.policy_ready`); a
search seat's turn in a state without its plan (a resampled world, mid-turn) is planned again from the turn's
start, replayed, the moves already made checked against it.

A random seat draws from the round's own stream (:attr:`RamiState.stream`: the stream ``(seed, round)`` after
the shuffle, advanced by each random decision and by a recycled stock's shuffle, in the kernel's order).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.policy import ROLLOUT_POLICIES as POLICY_NAMES
from cardlab.sim.rami.kernels import DECK_MAX, EV_DISCARD, EV_DRAW, EV_OUT, EV_TAKE, LOG_ROWS, LOG_W, play_turn_nb
from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, _scratch
from cardlab.sim.rami.referee import EV_NAMES, log_entry
from cardlab.sim.rami.rules import HAND_W, JOKER
from cardlab.sim.rami.state import DISCARD, DRAW, LAYOFF, MELD, OPEN, RETRIEVE, TAKE, meld_cards
from cardlab.sim.state import as_stream
from cardlab.sim.user import run_callbacks


def kernel_arrays(state):
    """The round as the kernels hold it: ``(hands, deck, sp, pile, table)``, the stock in ``deck[sp:deck_size]``
    (the next card first), the ``pile`` and ``table`` padded to the kernels' sizes."""
    o = state.o
    hands = np.array(state.hands, np.int64).reshape(state.P, HAND_W)
    deck = np.zeros(DECK_MAX, np.int64)
    sp = o.deck_size - len(state.stock)
    deck[sp:o.deck_size] = [state.kind(p) for p in reversed(state.stock)]
    pile = np.zeros(DECK_MAX, np.int64)
    pile[:len(state.pile)] = state.pile
    table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    for i, m in enumerate(state.table):
        table[i, :] = m[:MELD_W]
    return hands, deck, sp, pile, table


def turn_rows(state, policy_id: int) -> list:
    """The log rows of the turn the seat to move (at the start of its turn) plays by the built-in ``policy_id``,
    each with no means; advances the state's stream by the turn's random draws."""
    o = state.study.options
    hands, deck, sp, pile, table = kernel_arrays(state)
    log = np.zeros((LOG_ROWS, LOG_W), np.int64)
    stream, _, _, _, rows, _ = play_turn_nb(
        np.uint64(state.stream or 0), state.seat, state.t, o.kernel_ints(), policy_id, hands, deck, sp, o.deck_size,
        pile, len(state.pile), table, len(state.table), np.array(state.opened, np.int64),
        np.array(state.open_turn, np.int64), np.zeros(state.P, np.bool_), np.zeros((MAX_MELDS, MELD_W), np.int64),
        _scratch(), log, 0, None, np.zeros(2, np.int64))
    if state.stream is not None:
        state.stream = as_stream(stream)
    return [([int(v) for v in row], {}) for row in log[:rows] if row[0] != EV_OUT]


def kernel_known(state) -> np.ndarray:
    """The cards each hand is known to hold as the search kernel counts them (``search.update_known`` at each
    turn's end): a taken discard and each joker taken back become known, less every card of their kind the turn
    put on the table or the pile (never below zero); the turn under way is not counted yet."""
    known = np.zeros((state.P, HAND_W), np.int64)
    change = np.zeros(HAND_W, np.int64)
    for seat, a in state.actions:
        i = a.id
        if TAKE <= i < DISCARD:
            change[i - TAKE] += 1
        elif DISCARD <= i < OPEN:
            change[i - DISCARD] -= 1
            known[seat] = np.maximum(0, known[seat] + change)
            change[:] = 0
        elif LAYOFF <= i < RETRIEVE:
            change[(i - LAYOFF) // 3 % 53] -= 1
        elif RETRIEVE <= i < MELD:
            change[(i - RETRIEVE) % 53] -= 1
            change[JOKER] += 1
        elif i >= MELD:
            for k, v in meld_cards(state._move(a)[1]).items():
                change[k] -= v
    return known


def kernel_history(state) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's last finished turn as the search kernel keeps it for its inference (``search.note_turn_nb``):
    ``(hist, bdelta)``, from the state's moves: whether the rules let the seat take the top discard then (the turn,
    its hand's size), that card, whether it took it and kept it off the table, its discard, whether an opponent who
    had opened held three cards or fewer, whether it had opened; and the cards it put on the table and the pile less
    the discard taken and the jokers taken back."""
    from cardlab.sim.rami import search as S

    o, P = state.o, state.P
    hist = np.zeros((P, S.HIST_W), np.int64)
    bdelta = np.zeros((P, HAND_W), np.int64)
    sizes, opened, pile = [o.hand_size] * P, [False] * P, [state.deck[P * o.hand_size]]
    turn, t = None, 0
    bd = np.zeros(HAND_W, np.int64)
    for seat, a in state.actions:
        i = a.id
        if i < DISCARD:  # the turn's draw: what the table saw at its start (eligible: kernels.discard_offered)
            turn = dict(eligible=int((t >= P or o.discard_take_first_round) and not (
                o.single_card_must_draw_stock and sizes[seat] == 1)), top=pile[-1], was_opened=int(opened[seat]),
                close=int(any(opened[p] and sizes[p] <= 3 for p in range(P) if p != seat)), tk=-1, used=False)
            bd[:] = 0
            sizes[seat] += 1
            if i >= TAKE:
                turn["tk"] = pile.pop()
                bd[turn["tk"]] -= 1
        elif i < OPEN:
            k = i - DISCARD
            bd[k] += 1
            sizes[seat] -= 1
            pile.append(k)
            h = hist[seat]
            h[S.H_VALID], h[S.H_ELIGIBLE], h[S.H_TOP], h[S.H_TOOK] = 1, turn["eligible"], turn["top"], turn["tk"] >= 0
            h[S.H_DK], h[S.H_TKU] = k, turn["tk"] if turn["tk"] >= 0 and not turn["used"] else -1
            h[S.H_CLOSE], h[S.H_OPENED] = turn["close"], turn["was_opened"]
            bdelta[seat] = bd
            t += 1
        elif i < LAYOFF:
            opened[seat] = True
        elif i < RETRIEVE:
            k = (i - LAYOFF) // 3 % 53
            bd[k] += 1
            sizes[seat] -= 1
            turn["used"] |= k == turn["tk"]
        elif i < MELD:
            k = (i - RETRIEVE) % 53
            bd[k] += 1
            bd[JOKER] -= 1
            turn["used"] |= k == turn["tk"]
        else:
            for k, v in meld_cards(state._move(a)[1]).items():
                bd[k] += v
                sizes[seat] -= v
                turn["used"] |= k == turn["tk"]
    return hist, bdelta


def searched_turn(state, policy: str, worlds: int | None = None, shortlist: int | None = None) -> list:
    """The log rows of the turn a ``policy`` (``search`` or ``oracle``) seat plays from the start of its turn,
    each with its candidates' means (``{action id: mean}``; none for the heuristic's table moves): the searched
    round kernel from the state's arrays, the seat's knowledge of the others' hands and the stock's possible
    cards as the kernel gathered them, stopped at the next turn. ``worlds`` and the discards searched
    (``shortlist``): the study's and the kernels' by default."""
    from cardlab.sim.state import search_settings
    from cardlab.sim.rami import search as S

    study, o, P = state.study, state.study.options, state.P
    hands, deck, sp, pile, table = kernel_arrays(state)
    seats = np.zeros((3, P), np.int64)
    seats[S.OPENED], seats[S.OPEN_TURN] = state.opened, state.open_turn
    sc = np.zeros(S.SC_W, np.int64)
    sc[S.S_SP], sc[S.S_NPILE], sc[S.S_NT] = sp, len(state.pile), len(state.table)
    sc[S.S_SEAT], sc[S.S_T], sc[S.S_WINNER] = state.seat, state.t, -1
    sc[S.S_RECYCLED] = state.recycled_at is not None
    pool = np.full(HAND_W, 2, np.int64)
    pool[JOKER] = o.n_jokers
    if state.recycled_at is not None:  # the stock holds recycled cards only
        pool = np.bincount(state.restock, minlength=HAND_W).astype(np.int64)
    pols, worlds, rollout = search_settings(state, policy, worlds)
    key, base = state.search_key
    log = np.zeros((LOG_ROWS, LOG_W), np.int64)
    shortlist = shortlist or S.SHORTLIST
    means = np.zeros((2 + shortlist, S.MEAN_W), np.float64)
    stream, *_, rows, mi = S.play_search_turns_nb(
        study.seed, key, base, np.uint64(state.stream or 0), o.kernel_ints(), pols,
        worlds, rollout, shortlist, study.inference_eps(pols), log, np.zeros((4, P), np.int64),
        means, hands, deck, pile, table, seats, sc, kernel_known(state), pool, *kernel_history(state), state.t + 1,
        run_callbacks("", state.study.game.numba_seat, searched=True), np.zeros(2, np.int64))
    if state.stream is not None:
        state.stream = as_stream(stream)
    draw, discard = {}, {}
    for _, _, phase, cand, mean in means[:mi]:
        if phase == S.PHASE_DRAW:
            draw[TAKE + state.pile[-1] if cand == 1 else DRAW] = float(mean)
        else:
            discard[DISCARD + int(cand)] = float(mean)
    means_of = {EV_DRAW: draw, EV_TAKE: draw, EV_DISCARD: discard}
    return [([int(v) for v in row], means_of.get(row[0], {})) for row in log[:rows] if row[0] != EV_OUT]


SEARCHED = ("search", "oracle")


def planned_move(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move and
    its candidates' means (``{action id: mean}``, empty where nothing was searched): the next move of the turn the
    kernel plays for the seat, planned at the start of its turn and kept on the state (``turn_plan``)."""
    key, start = (state.seat, state.t, policy), state.turn_began()
    plan = state.turn_plan
    if plan is not None and plan[:2] != (key, start):
        plan = None
    if plan is None and not state.drawn:
        plan = (key, start, searched_turn(state, policy) if policy in SEARCHED else
                turn_rows(state, POLICY_NAMES.index(policy)))
    elif plan is None and policy in SEARCHED:
        plan = (key, start, replanned(state, policy, start))
    done = len(state.actions) - start
    if plan is None or done >= len(plan[2]):
        raise ValueError(f"policy: Rami's {policy} seat plays whole turns; seat {state.seat}'s turn {state.t} was "
                         "begun by another player")
    row, means = plan[2][done]
    action = state.action(log_entry(state, EV_NAMES[row[0]], row[2:]))
    state.turn_plan = plan[:3] + (action.id,)  # the move it expects: another one played drops the plan
    return action, means


def replanned(state, policy: str, start: int, worlds: int | None = None, shortlist: int | None = None) -> list:
    """The plan of the turn under way, made again from its start (the round replayed to it: :meth:`RamiState.rewound`),
    checked against the moves already made this turn (none when another plan made them: not the seat's own turn)."""
    begun = state.rewound(start)
    rows = searched_turn(begun, policy, worlds, shortlist)
    for (row, _), (_, played) in zip(rows, state.actions[start:]):
        if begun.apply(log_entry(begun, EV_NAMES[row[0]], row[2:])).id != played.id:
            return []
    return rows


def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move
    (:func:`planned_move`)."""
    return planned_move(state, policy)[0]


def searched_move(state, policy: str = "search") -> tuple:
    """The move a ``policy`` (``search`` or ``oracle``) seat makes here and its candidates' means, ``(action,
    {action id: mean})`` (empty for the heuristic's table moves and a draw with no discard on offer)."""
    return planned_move(state, policy)


def search_means(state, worlds: int) -> dict | None:
    """``{action id: mean}`` for every legal move at a decision the search makes (a draw with the discard on offer,
    or the discard), by the kernel's search over ``worlds`` worlds with every legal discard a candidate, each
    mean the seat's round score less its opponents' mean (lower is better, as Rami's scores), the plan left as
    it was. None elsewhere: a table move, or a turn whose moves so far are not the search seat's own (the hint
    then searches in Python)."""
    start = state.turn_began()
    rows = (replanned(state, "search", start, worlds, HAND_W) if state.drawn else
            searched_turn(state, "search", worlds, HAND_W))
    done = len(state.actions) - start
    means = rows[done][1] if done < len(rows) else {}
    if set(means) != {a.id for a in state.legal_actions()}:
        return None
    return {i: -m for i, m in means.items()}
