"""Rami kernels: whole rounds and whole games, ``@njit`` over count vectors, batched with ``prange``.

A round's randomness (the shuffle, a recycled stock, the random policy) comes from one stream:
``deal_state(seed, deal)`` for single rounds (round ``i`` dealt by seat ``i % n``), and
``deal_state(seed, game)`` carried through every round of a whole game (first dealer drawn from
it). Results never depend on threads or chunks.

The kernel runs the turn (draw, table actions, discard), asks the policy (``policies.py``) at
each decision and logs every move as a row of ``LOG_W`` integers ``(code, seat, x0..x5)``:

* ``EV_DRAW`` / ``EV_TAKE`` (card): from the stock / the top discard;
* ``EV_MELD`` (type, a, b, c, d): a new meld (the row layout of ``melds.py``);
* ``EV_OPEN`` (exempt): the player has opened with the melds laid so far this turn (exempt = 1
  when a rami sec exempt from the opening conditions);
* ``EV_LAYOFF`` / ``EV_RETRIEVE`` (meld index, card, slot): a lay-off / a joker taken back;
* ``EV_DISCARD`` (card); ``EV_OUT``; ``EV_RECYCLE`` (cards); ``EV_BLOCKED``.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.rami.melds import (M_A, M_B, M_C, M_D, M_TYPE, MAX_MELDS, MELD_W, MODE_HAND,
                                    MODE_MELD, SET, add_meld_cards, apply_layoff, apply_retrieve, best_melds_nb,
                                    isolated, kind_at, layoff_slot, meld_jokers, meld_size, new_scratch_nb,
                                    retrieve_slot)
from cardlab.sim.rami.policies import (USER, builtin_of, cards_in, choose_discard, choose_draw, choose_layoff,
                                       choose_melds, choose_opening, choose_retrieval, freed_joker_usable,
                                       opening_melds, user_discard, user_draw, user_meld)
from cardlab.sim.policy import POLICY
from cardlab.sim.rami.rules import HAND_W, JOKER, OPT
from cardlab.sim.rng import below_n, deal_state

EV_DRAW, EV_TAKE, EV_MELD, EV_OPEN, EV_LAYOFF, EV_RETRIEVE, EV_DISCARD, EV_OUT, EV_RECYCLE, EV_BLOCKED = range(1, 11)
EVENT_NAMES = ("", "draw", "take", "meld", "open", "layoff", "retrieve", "discard", "out", "recycle", "blocked")
LOG_W = 8
LOG_ROWS = 1024
MAX_TURNS = 2000  # a safety net; real rounds end far sooner (the stock runs out)
DECK_MAX = 108
PLAN_NONE, PLAN_LAYOFF, PLAN_RETRIEVE, PLAN_MELD, PLAN_OPEN = range(5)
R_WON, R_OPENED, R_HAND, R_SCORE = range(4)
MAX_ROUNDS = 200  # rounds kept per whole game (typical games last 3 to 20; a longer one is an error)


def round_buffers(rows: int, players: int, *, record: bool = False, totals: bool = False):
    """The output arrays of ``rows`` rounds as the round kernels fill them: ``ints`` (dealer, turns, blocked,
    rami_sec), ``seats`` (won, opened, hand_value, score, and with ``totals`` the running totals; per seat) and
    ``logs`` (the event logs, their lengths and the decks: one row per round when ``record``, else empty)."""
    ints = [np.zeros(rows, np.int64) for _ in range(4)]
    seats = [np.zeros((rows, players), np.int64) for _ in range(5 if totals else 4)]
    kept = rows if record else 0
    logs = [np.zeros((kept, LOG_ROWS, LOG_W), np.int64), np.zeros(kept, np.int64), np.zeros((kept, DECK_MAX), np.int64)]
    return ints, seats, logs


@njit(cache=True, _nrt=False)
def log_event(log, li, code, seat, x0, x1, x2, x3, x4):
    if li < log.shape[0]:
        log[li, 0] = code
        log[li, 1] = seat
        log[li, 2] = x0
        log[li, 3] = x1
        log[li, 4] = x2
        log[li, 5] = x3
        log[li, 6] = x4
    return li + 1


@njit(cache=True, _nrt=False)
def meld_holds(m, kind):
    """Does meld ``m`` hold natural ``kind``?"""
    if kind < 0 or kind == JOKER:
        return False
    if m[M_TYPE] == SET:
        return kind % 13 == m[M_A] - 1 and (m[M_B] >> (kind // 13) & 1) == 1
    if kind // 13 != m[M_A]:
        return False
    for p in range(m[M_B], m[M_C] + 1):
        if not (m[M_D] >> p & 1) and kind_at(m[M_A], p) == kind:
            return True
    return False


@njit(cache=True, inline="always")
def melds_cards_nb(out, n, kind):
    """How many cards the melds ``out[:n]`` hold, and whether one of them holds a card of ``kind`` (a joker for
    ``JOKER``; -1 asks for none): the counts ``add_meld_cards`` would give, without a count vector."""
    cards = 0
    holds = False
    for j in range(n):
        cards += meld_size(out[j])
        if kind == JOKER:
            holds = holds or meld_jokers(out[j]) > 0
        else:
            holds = holds or meld_holds(out[j], kind)
    return cards, holds


@njit(cache=True, _nrt=False)
def lay_melds(melds, n, seat, hand, table, nt, log, li, tk):
    """Put ``n`` melds from the hand on the table; returns (table size, log size, taken card among them)."""
    used_tk = False
    for i in range(n):
        for f in range(5):
            table[nt, f] = melds[i, f]
        table[nt, 5] = seat
        add_meld_cards(melds[i], hand, -1)
        li = log_event(log, li, EV_MELD, seat, melds[i, 0], melds[i, 1], melds[i, 2], melds[i, 3], melds[i, 4])
        used_tk = used_tk or meld_holds(melds[i], tk)
        nt += 1
    return nt, li, used_tk


@njit(cache=True, inline="always")
def discard_offered(top, t, hand, o):
    """The rule that lets the seat to move take the top discard ``top`` (-1: the pile is empty) at the start of
    the round's turn ``t``, holding ``hand`` before the draw: not in the first round of turns (unless
    ``discard_take_first_round``), nor holding a single card under ``single_card_must_draw_stock``.
    ``discard_take_must_use`` (the card must reach the table this turn) is tested apart, by :func:`take_plan`.
    The one statement of the rule for the kernels: :func:`play_turn_nb`, and ``search.begin_turn_nb`` and
    ``search.eligible_nb``."""
    return top >= 0 and (t >= o[OPT.players] or o[OPT.discard_take_first_round] == 1) and not (
        o[OPT.single_card_must_draw_stock] and cards_in(hand) == 1)


@njit(cache=True, _nrt=False)
def take_plan(hand, tk, opened, meld_free, table, nt, o, out, scratch):
    """How the top discard ``tk`` (already added to ``hand``) can reach the table this turn: (plan, meld index,
    melds in ``out``).

    For PLAN_OPEN and PLAN_MELD the melds to lay (through ``tk``) are left in ``out``, so the turn
    lays them without searching again. ``meld_free``: the hand without ``tk`` is known to hold no opening (not opened) or no meld
    (opened), so only melds through ``tk`` matter and an isolated ``tk`` needs no search.
    """
    min_left = 1 if o[OPT.go_out_requires_discard] else 0
    jmax = o[OPT.jokers_per_meld]
    lone = meld_free and isolated(hand, tk, jmax)
    if not opened:
        if lone:
            return PLAN_NONE, -1, 0
        v, n, _ = best_melds_nb(hand, MODE_MELD, o[OPT.open_needs_pure_run], o[OPT.open_threshold], tk, 0, min_left,
                                jmax, o[OPT.card_values:], out, scratch)
        return (PLAN_OPEN, -1, n) if v >= 0 else (PLAN_NONE, -1, 0)
    if cards_in(hand) - 1 >= min_left:
        for t in range(nt):
            if layoff_slot(table[t], tk, jmax) >= 0:
                return PLAN_LAYOFF, t, 0
        for t in range(nt):
            if retrieve_slot(table[t], tk) >= 0 and freed_joker_usable(hand, tk, o, min_left, out, scratch):
                return PLAN_RETRIEVE, t, 0
    if lone:
        return PLAN_NONE, -1, 0
    v, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, tk, 0, min_left, jmax, o[OPT.card_values:], out, scratch)
    return (PLAN_MELD, -1, n) if v >= 0 else (PLAN_NONE, -1, 0)


@njit(cache=True, _nrt=False)
def retrieve(seat, hand, t, kind, table, nt, o, min_left, out, scratch, log, li, tk):
    """Take back the joker of meld ``t`` with natural ``kind``; under 'new_meld' lay it at once in new melds."""
    slot = retrieve_slot(table[t], kind)
    apply_retrieve(table[t], slot)
    hand[kind] -= 1
    hand[JOKER] += 1
    li = log_event(log, li, EV_RETRIEVE, seat, t, kind, slot, 0, 0)
    used_tk = kind == tk
    if not o[OPT.freed_joker_anywhere]:
        _, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 1, min_left, o[OPT.jokers_per_meld],
                                o[OPT.card_values:], out, scratch)
        nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
        used_tk = used_tk or used
    return nt, li, used_tk


@njit(cache=True, _nrt=False)
def layoff(seat, hand, t, kind, table, o, log, li):
    slot = layoff_slot(table[t], kind, o[OPT.jokers_per_meld])
    apply_layoff(table[t], kind, slot)
    hand[kind] -= 1
    return log_event(log, li, EV_LAYOFF, seat, t, kind, slot, 0, 0)


@njit(cache=True, _nrt=False)
def shuffle(state, cards, lo, hi):
    """Fisher-Yates shuffle of ``cards[lo:hi]`` from the stream."""
    for i in range(hi - 1, lo, -1):
        state, j = below_n(state, i - lo + 1)
        j += lo
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    return state


@njit(cache=True, inline="always")
def shuffled_deck_nb(state, deck, n_cards):
    """The round's deck in ``deck[:n_cards]``: two packs (each kind twice, in kind order) then the jokers, shuffled
    (:func:`shuffle`) from the stream; returns the advanced stream."""
    i = 0
    for k in range(52):
        deck[i] = k
        deck[i + 1] = k
        i += 2
    while i < n_cards:
        deck[i] = JOKER
        i += 1
    return shuffle(state, deck, 0, n_cards)


@njit(cache=True, _nrt=False)
def round_scores(o, winners, opened, hv, rami_sec, score):
    """The seed's scores (§7): winners 0; rami sec the penalty; opened H; never opened min(H + surcharge (25),
    the cap in force (min(100, half the target)))."""
    for p in range(o[OPT.players]):
        if winners[p]:
            score[p] = 0
        elif rami_sec:
            score[p] = o[OPT.rami_sec_penalty]
        elif opened[p]:
            score[p] = hv[p]
        else:
            score[p] = min(hv[p] + o[OPT.never_opened_surcharge], o[OPT.never_opened_cap])


@njit(cache=True, inline="always")
def play_turn_nb(state, seat, t, o, pol, hands, deck, sp, n_cards, pile, npile, table, nt, opened, open_turn,
                 meld_free, out, scratch, log, li, user_fn, fault):
    """Seat ``seat``'s turn ``t`` of a round (its stock not empty), by its policy ``pol``: the draw (the top discard
    or ``deck[sp]``, the stock's next card, of the ``n_cards`` stock positions), the taken discard to the table
    when it must, the opening, jokers back, new melds, lay-offs, then the discard or going out. ``hands``, the
    ``pile`` (``npile`` cards), the ``table`` (``nt`` melds), ``opened``, ``open_turn`` and ``meld_free`` are
    updated in place, each move logged from row ``li``. Returns (state, sp, npile, nt, li, whether the seat
    went out). :func:`play_round_nb` plays every turn with it, and a step-API state a built-in seat's turn
    (:mod:`cardlab.sim.rami.state_policies`). A Numba seat (``pol`` USER) discards by its player ``user_fn``
    (:func:`~cardlab.sim.rami.policies.user_discard`, its first illegal answer to ``fault``), and draws and lays
    its melds down by it where the player makes those decisions (:func:`~cardlab.sim.rami.policies.user_draw`,
    :func:`~cardlab.sim.rami.policies.user_meld`); the rest as the heuristic."""
    user = pol == USER
    pol = builtin_of(pol)
    P = o[OPT.players]
    jmax = o[OPT.jokers_per_meld]
    min_left = 1 if o[OPT.go_out_requires_discard] else 0
    hand = hands[seat]
    nobody = True
    opponent_close = False
    for p in range(P):
        if p != seat and opened[p]:
            nobody = False
            if cards_in(hands[p]) <= 3:
                opponent_close = True
    # draw
    top = pile[npile - 1] if npile > 0 else -1
    offered = discard_offered(top, t, hand, o)
    plan = PLAN_NONE
    plan_meld = -1
    plan_n = 0
    if offered:
        hand[top] += 1
        plan, plan_meld, plan_n = take_plan(hand, top, opened[seat], meld_free[seat], table, nt, o, out, scratch)
        hand[top] -= 1
        if o[OPT.discard_take_must_use] and plan == PLAN_NONE:
            offered = False
    state, take = choose_draw(pol, state, plan != PLAN_NONE, offered)
    if user and offered:
        answer = user_draw(user_fn, fault, seat, hand, top, plan != PLAN_NONE, opened[seat] != 0, opponent_close, o)
        if answer >= 0:
            take = answer == 1
    tk = -1
    tk_used = False
    drawn = -1
    if take:
        tk = top
        hand[tk] += 1
        npile -= 1
        li = log_event(log, li, EV_TAKE, seat, tk, 0, 0, 0, 0)
    else:
        drawn = deck[sp]
        sp += 1
        hand[drawn] += 1
        li = log_event(log, li, EV_DRAW, seat, drawn, 0, 0, 0, 0)
    skip = meld_free[seat] and drawn >= 0 and isolated(hand, drawn, jmax)
    # the hand held no opening (no meld) and drew natural ``drawn``: any new one uses it (``choose_opening``'s
    # ``fresh``; a joker drawn is left out: the search never counts a joker as the card used)
    fresh = drawn if meld_free[seat] and 0 <= drawn < JOKER and min_left == 0 else -1
    was_opened = opened[seat] == 1
    meld_free[seat] = False
    # the taken discard goes to the table first when it must (``out`` still holds the plan's melds)
    if tk >= 0 and o[OPT.discard_take_must_use]:
        if plan == PLAN_OPEN:
            nt, li, tk_used = lay_melds(out, plan_n, seat, hand, table, nt, log, li, tk)
            opened[seat] = 1
            open_turn[seat] = t
            li = log_event(log, li, EV_OPEN, seat, 0, 0, 0, 0, 0)
        elif plan == PLAN_LAYOFF:
            li = layoff(seat, hand, plan_meld, tk, table, o, log, li)
            tk_used = True
        elif plan == PLAN_RETRIEVE:
            nt, li, tk_used = retrieve(seat, hand, plan_meld, tk, table, nt, o, min_left, out, scratch, log, li, tk)
        else:
            nt, li, tk_used = lay_melds(out, plan_n, seat, hand, table, nt, log, li, tk)
    # opening
    if not opened[seat] and o[OPT.rami_sec_exempt] and nobody:
        v, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 0, min_left, jmax, o[OPT.card_values:], out, scratch)
        if v >= 0 and n > 0:
            melded, holds_tk = melds_cards_nb(out, n, tk)
            if cards_in(hand) - melded <= 1 and (tk < 0 or tk_used or holds_tk):
                nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
                tk_used = tk_used or used
                opened[seat] = 1
                open_turn[seat] = t
                li = log_event(log, li, EV_OPEN, seat, 1, 0, 0, 0, 0)
    # a discard taken and kept must leave another card to discard: it sits out of the searches
    forbidden = tk if tk >= 0 and not tk_used else -1
    hidden = 0
    if forbidden >= 0:
        hidden = 1
        hand[forbidden] -= 1
    search_left = 1 if hidden > 0 else min_left
    if not opened[seat] and skip and min_left == 0:
        meld_free[seat] = True  # the card drawn fits no meld: still no opening
    elif not opened[seat]:
        state, n, exists = choose_opening(pol, state, hand, o, nobody, n_cards - sp, search_left, out, scratch,
                                          fresh)
        meld_free[seat] = not exists and hidden == 0 and min_left == 0
        if user and exists:
            answer = user_meld(user_fn, fault, seat, hand, True, nobody, n_cards - sp, opponent_close, o)
            if answer == 0:
                n = 0
            elif answer == 1 and n == 0:  # the heuristic held back: the opening found, laid
                _, n = opening_melds(hand, o, search_left, out, scratch, fresh)
        if n > 0:
            nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
            tk_used = tk_used or used
            opened[seat] = 1
            open_turn[seat] = t
            li = log_event(log, li, EV_OPEN, seat, 0, 0, 0, 0, 0)
    # once opened: jokers back, new melds, lay-offs
    if opened[seat]:
        retrieved = False
        while True:
            state, tt, k = choose_retrieval(pol, state, hand, table, nt, o, search_left, out, scratch)
            if tt < 0:
                break
            nt, li, used = retrieve(seat, hand, tt, k, table, nt, o, search_left, out, scratch, log, li, tk)
            tk_used = tk_used or used
            retrieved = True
        held = False
        if not (was_opened and skip and not retrieved):
            state, n = choose_melds(pol, state, hand, o, search_left, out, scratch,
                                    fresh if was_opened and not retrieved else -1)
            if user and n > 0:
                held = user_meld(user_fn, fault, seat, hand, False, nobody, n_cards - sp, opponent_close, o) == 0
                if held:
                    n = 0
            nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
            tk_used = tk_used or used
        meld_free[seat] = pol == POLICY.HEURISTIC and search_left == 0 and not held
    if hidden > 0:
        hand[forbidden] += hidden
    if opened[seat]:
        while True:
            state, k, tt = choose_layoff(pol, state, hand, table, nt, o, opponent_close,
                                         tk if tk >= 0 and not tk_used else -1)
            if k < 0:
                break
            li = layoff(seat, hand, tt, k, table, o, log, li)
            tk_used = tk_used or k == tk
    if cards_in(hand) == 0:
        li = log_event(log, li, EV_OUT, seat, 0, 0, 0, 0, 0)
        return state, sp, npile, nt, li, True
    forbidden = tk if tk >= 0 and not tk_used and hand[tk] < 2 else -1  # a twin held may go
    if user:
        k = user_discard(user_fn, fault, seat, hand, forbidden, opened[seat] != 0, opponent_close, o)
    else:
        state, k = choose_discard(pol, state, hand, forbidden, table, nt, opened[seat], o, opponent_close, out,
                                  scratch)
    hand[k] -= 1
    pile[npile] = k
    npile += 1
    li = log_event(log, li, EV_DISCARD, seat, k, 0, 0, 0, 0)
    if cards_in(hand) == 0:
        li = log_event(log, li, EV_OUT, seat, 0, 0, 0, 0, 0)
        return state, sp, npile, nt, li, True
    return state, sp, npile, nt, li, False


@njit(cache=True)
def play_round_nb(state, dealer, o, pols, hands, deck, pile, table, out, scratch, log, deck_log, res, user_fn, fault):
    """Play one round dealt by ``dealer``; returns (state, turns, blocked, rami_sec, log rows).

    ``res[R_WON|R_OPENED|R_HAND|R_SCORE, seat]`` receives the results; ``deck_log`` (if not empty)
    the shuffled deck.
    """
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    state = shuffled_deck_nb(state, deck, n_cards)
    if deck_log.shape[0] > 0:
        deck_log[:n_cards] = deck[:n_cards]
    hands[:, :] = 0
    opened = np.zeros(P, np.int64)
    open_turn = np.full(P, -1, np.int64)
    # meld_free[p]: p's hand at the end of its last turn held no opening (not opened) or no meld
    # (opened), so next turn only melds through the card drawn can appear: searches are skipped
    # when that card is isolated. A pure speed-up: the decisions are the same.
    meld_free = np.zeros(P, np.bool_)
    i = 0
    for r in range(o[OPT.hand_size]):
        for k in range(P):
            hands[(dealer + 1 + k) % P, deck[i]] += 1
            i += 1
    pile[0] = deck[i]
    npile = 1
    sp = i + 1
    nt = 0
    recycled = False
    seat = (dealer + 1) % P
    t = 0
    li = 0
    blocked = False
    winner = -1
    while True:
        if sp == n_cards:
            if o[OPT.recycle_discards] and not recycled and npile > 1:
                m = npile - 1
                for j in range(m):
                    deck[n_cards - m + j] = pile[j]
                state = shuffle(state, deck, n_cards - m, n_cards)
                pile[0] = pile[npile - 1]
                npile = 1
                sp = n_cards - m
                recycled = True
                li = log_event(log, li, EV_RECYCLE, seat, m, 0, 0, 0, 0)
            else:
                blocked = True
                li = log_event(log, li, EV_BLOCKED, seat, 0, 0, 0, 0, 0)
                break
        if t >= MAX_TURNS:
            blocked = True
            li = log_event(log, li, EV_BLOCKED, seat, 0, 0, 0, 0, 0)
            break
        state, sp, npile, nt, li, went_out = play_turn_nb(state, seat, t, o, pols[seat], hands, deck, sp, n_cards,
                                                          pile, npile, table, nt, opened, open_turn, meld_free, out,
                                                          scratch, log, li, user_fn, fault)
        if went_out:
            winner = seat
            break
        t += 1
        seat = (seat + 1) % P
    turns = t if blocked else t + 1
    # results
    rami_sec = False
    if winner >= 0:
        rami_sec = open_turn[winner] == t
        for p in range(P):
            if p != winner and opened[p]:
                rami_sec = False
    for p in range(P):
        h = 0
        for k in range(HAND_W):
            h += hands[p, k] * o[OPT.card_values + k]
        res[R_HAND, p] = h
        res[R_OPENED, p] = opened[p]
        res[R_WON, p] = 0
    if winner >= 0:
        res[R_WON, winner] = 1
    else:
        low = res[R_HAND, 0]
        for p in range(P):
            low = min(low, res[R_HAND, p])
        for j in range(P):
            p = (seat + j) % P
            if res[R_HAND, p] == low:
                res[R_WON, p] = 1
                if o[OPT.blocked_tie_next]:
                    break
    round_scores(o, res[R_WON], res[R_OPENED], res[R_HAND], rami_sec, res[R_SCORE])
    return state, turns, blocked, rami_sec, li


@njit(cache=True)
def _workspace(P):
    return (np.zeros((P, HAND_W), np.int64), np.zeros(DECK_MAX, np.int64), np.zeros(DECK_MAX, np.int64),
            np.zeros((MAX_MELDS, MELD_W), np.int64), np.zeros((MAX_MELDS, MELD_W), np.int64), new_scratch_nb(),
            np.zeros((4, P), np.int64))


@njit(cache=True, inline="always")
def store_round_nb(row, dl, tn, bl, rs, res, dealer, turns, blocked, rami_sec, won, opened, hand_value, score):
    """Row ``row`` of the round columns: its dealer, turns, blocked and rami-sec flags, and each seat's result."""
    dealer[row] = dl
    turns[row] = tn
    blocked[row] = bl
    rami_sec[row] = rs
    for p in range(res.shape[1]):
        won[row, p] = res[R_WON, p]
        opened[row, p] = res[R_OPENED, p]
        hand_value[row, p] = res[R_HAND, p]
        score[row, p] = res[R_SCORE, p]


@njit(cache=True, parallel=True)
def play_rounds_nb(seed, first, count, o, pols, dealer, turns, blocked, rami_sec, won, opened, hand_value, score,
                   logs, log_rows, decks, user_fn, faults):
    """Rounds ``first .. first+count-1``: round ``i`` from ``deal_state(seed, i)``, dealt by seat ``i % n``.

    ``logs`` (count, LOG_ROWS, LOG_W) and ``decks`` (count, 108) are filled when not empty; ``faults`` (count x 2)
    gets each round's first illegal discard of the Numba seat ``user_fn`` (None without one).
    """
    P = o[OPT.players]
    record = logs.shape[0] > 0
    blocks = min(count, 64)
    for b in prange(blocks):
        hands, deck, pile, table, out, scratch, res = _workspace(P)
        no_log = np.zeros((0, LOG_W), np.int64)
        no_deck = np.zeros(0, np.int64)
        for d in range(b * count // blocks, (b + 1) * count // blocks):
            deal = first + d
            dl = deal % P
            state = deal_state(seed, deal)
            table[:, :] = 0
            log = logs[d] if record else no_log
            deck_log = decks[d] if record else no_deck
            state, tn, bl, rs, li = play_round_nb(state, dl, o, pols, hands, deck, pile, table, out, scratch, log,
                                                  deck_log, res, user_fn, faults[d])
            store_round_nb(d, dl, tn, bl, rs, res, dealer, turns, blocked, rami_sec, won, opened, hand_value, score)
            if record:
                log_rows[d] = li


@njit(cache=True)
def game_over_nb(totals, target):
    low = totals[0]
    high = totals[0]
    for p in range(totals.shape[0]):
        low = min(low, totals[p])
        high = max(high, totals[p])
    if high < target:
        return False
    n_low = 0
    for p in range(totals.shape[0]):
        if totals[p] == low:
            n_low += 1
    return n_low == 1


@njit(cache=True, parallel=True)
def play_games_nb(seed, first, count, o, pols, max_rounds, rounds, dealer, turns, blocked, rami_sec, won, opened,
                  hand_value, score, total, logs, log_rows, decks, user_fn, faults):
    """Whole games ``first .. first+count-1``; game ``g`` from ``deal_state(seed, g)`` (first dealer from it).

    Row ``g * max_rounds + r`` holds round ``r`` of game ``g``; ``rounds[g]`` counts them
    (``max_rounds + 1`` when the game was cut unfinished). ``logs`` (rows, LOG_ROWS, LOG_W), ``log_rows``
    and ``decks`` (rows, 108) are filled by row when not empty (a replay records a game's rounds so); ``faults``
    (count x 2) gets each game's first illegal discard of the Numba seat ``user_fn``.
    """
    P = o[OPT.players]
    record = logs.shape[0] > 0
    blocks = min(count, 64)
    for b in prange(blocks):
        hands, deck, pile, table, out, scratch, res = _workspace(P)
        no_log = np.zeros((0, LOG_W), np.int64)
        no_deck = np.zeros(0, np.int64)
        totals = np.zeros(P, np.int64)
        for g in range(b * count // blocks, (b + 1) * count // blocks):
            state = deal_state(seed, first + g)
            state, dl = below_n(state, P)
            totals[:] = 0
            r = 0
            while True:
                if r == max_rounds:
                    rounds[g] = max_rounds + 1
                    break
                row = g * max_rounds + r
                table[:, :] = 0
                log = logs[row] if record else no_log
                deck_log = decks[row] if record else no_deck
                state, tn, bl, rs, li = play_round_nb(state, dl, o, pols, hands, deck, pile, table, out, scratch,
                                                      log, deck_log, res, user_fn, faults[g])
                store_round_nb(row, dl, tn, bl, rs, res, dealer, turns, blocked, rami_sec, won, opened, hand_value,
                               score)
                if record:
                    log_rows[row] = li
                for p in range(P):
                    totals[p] += res[R_SCORE, p]
                    total[row, p] = totals[p]
                r += 1
                dl = (dl + 1) % P
                if game_over_nb(totals, o[OPT.target]):
                    rounds[g] = r
                    break
