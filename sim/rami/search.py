"""Rami's search policy: determinized Monte Carlo search (PIMC) over the round kernels.

A ``search`` seat plays its table actions (opening, melds, joker retrievals, lay-offs) as the
heuristic does (the exact meld search plus the rules of thumb of ``policies.py``) and searches
the two choices that shape a rummy hand:

* **the draw**, when the top discard is offered (it may be taken under the rules and, with
  ``discard_take_must_use``, it can reach the table this turn): two candidates, the stock or
  the discard;
* **the discard**: a shortlist of ``SHORTLIST`` (4) legal card kinds, the heuristic's choice and
  its next best discards by the heuristic's own score (twins are one candidate; a joker only when
  fewer other kinds are legal). Searching every legal kind with as many worlds costs three times
  as much and was no stronger in measurement: with one discard changing the whole rest of the
  round, rollouts are noisy, and the worlds are better spent on the plausible discards.

For each candidate the searcher

1. samples ``worlds`` worlds of the hidden information (see below), the same worlds for every
   candidate (paired comparison);
2. in each world plays the candidate, then the rest of the round with the rollout policy at
   every seat (the heuristic by default; ``rollout='random'``: uniformly random legal play,
   the same random draws for every candidate in one world), to its end: full rollouts, no
   horizon (measured: a rollout costs about as much as the rest of a heuristic round, tens of
   microseconds, so no static evaluation is needed);
3. scores the world by the searcher's *relative round score*: the mean round score of its
   opponents minus its own (round scores are penalties, so higher is better; a rami sec or a
   win counts in full), and plays the candidate with the best mean over the worlds. Ties go to
   the heuristic's choice, then to the lowest card kind.

**What the searcher knows.** Its own hand, the table, the discard pile, every player's hand
size and the stock size, and the cards each opponent is *known* to hold: a card taken from the
discard pile is known to be held until that player puts a card of that kind on the table or
the pile (twins are interchangeable, so any card of that kind leaving the hand cancels one
known card, a cautious count that is never above the truth); a joker taken back from the
table and kept is known the same way. The stock order and the rest of the opponents' hands
are unknown.

**Sampling.** The unseen cards (the two packs and the jokers, minus the searcher's hand, the
table, the discard pile and the known cards) are dealt uniformly: first the stock (its size is
known; a random order), then each opponent's unknown cards (its hand size minus its known
cards), on top of its known cards. Duplicates are counts, so no kind ever exceeds the deck.
After a recycle of the discards (``recycle_discards``) the stock can only hold recycled cards:
it is drawn from the unseen cards among them. Without inference, what an opponent's *choices*
reveal (a discard it did not take) is not used: worlds honour the rules, not a model of play.

**Inference** (``search_inference``, on or off per study; a seat's ``eps`` > 0 turns it on; off by
default). A searching seat weighs each sampled world by the likelihood of each other seat's *last*
turn, that seat modelled as the heuristic softened by ``eps`` (:mod:`cardlab.sim.inference`;
:func:`seat_factor_nb`): its discard, judged exactly (its hand then is its world hand now plus the
discard: nothing has entered it since), and its draw when the rules let it take the top discard (the
heuristic takes it exactly when it can reach the table this turn; its hand before the draw is its
hand now plus what it put on the table and the pile, less the taken card: exact after a take, one
unknown card too many after a stock draw). Earlier turns are not judged: their hands need the stock
cards drawn since, which a world does not fix. The search loop keeps each seat's last turn as the
table saw it (:func:`note_turn_nb`; the step API rebuilds it from the state's moves). The seat draws
a pool of ``POOL_FACTOR * worlds`` worlds (exactly uniform, as without inference), weighs each, keeps
``worlds`` by systematic resampling and moves each kept world by ``MOVE_STEPS`` Metropolis steps that
swap an unknown card of one other seat with one of another seat or of the stock
(:func:`propose_card_swap_nb`; never a known card, and never the stock after a recycle). The weights
read only the world and what the table saw, and every draw comes from the decision's own stream.
``eps`` is :data:`INFERENCE_EPSILON`, chosen by measurement (the docs' results page). The oracle never
infers.

**Randomness.** The searcher's draws come from a stream keyed by (seed, round, decision),
``decision = (round in game * 4096 + turn) * 2 + (0 draw, 1 discard)``; a single round is
round 0 of its own key. The round's own stream (the shuffle, a recycled stock, random seats)
is used exactly as in ``kernels.play_round_nb``, so a table without search seats plays
identically here and there, and results never depend on threads or chunks.

The round is played by the same steps as ``kernels.play_round_nb`` (split here into the
turn's phases so a rollout can start at a decision); the tests check that both give the same
rounds for heuristic and random tables. The plain kernel keeps its own loop for speed: run
through these phases (the turn's scalars in ``sc``, the seats' flags in ``seats``) it played
7-8% fewer rounds per second, with rows bit-identical, inlined or not.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.inference import MOVE_STEPS, POOL_FACTOR, accepted_nb, comb_pick_nb, move_stream_nb, softened_nb, \
    uniform_nb
from cardlab.sim.rami.kernels import (DECK_MAX, EV_BLOCKED, EV_DISCARD, EV_DRAW, EV_OPEN, EV_OUT, EV_RECYCLE,
                                      EV_TAKE, LOG_W, MAX_TURNS, PLAN_LAYOFF, PLAN_NONE, PLAN_OPEN, PLAN_RETRIEVE,
                                      R_HAND, R_OPENED, R_SCORE, R_WON, discard_offered, game_over_nb, lay_melds,
                                      layoff, log_event, melds_cards_nb, retrieve, round_scores, shuffle,
                                      store_round_nb, take_plan)
from cardlab.sim.rami.melds import (MAX_MELDS, MELD_W, MODE_HAND, best_melds_nb, in_natural_meld,
                                    isolated, layoff_slot, new_scratch_nb)
from cardlab.sim.rami.policies import (USER, builtin_of, cards_in, choose_discard, choose_draw, choose_layoff,
                                       choose_melds, choose_opening, choose_retrieval, neighbours, opening_melds,
                                       user_discard, user_draw, user_meld)
from cardlab.sim.policy import NO_STOP, POLICY, ROLLOUT_POLICIES
from cardlab.sim.rami.rules import HAND_W, JOKER, OPT
from cardlab.sim.rng import below_n, deal_state, mix64

SEARCH = POLICY.SEARCH  # the policy id of a search seat (cardlab.sim.policy's, shared)
ROLLOUT_NAMES = ROLLOUT_POLICIES  # rollout policies, ids as in cardlab.sim.policy
DEFAULT_WORLDS = 32
SHORTLIST = 4  # discard candidates searched: the heuristic's best few (see the module docstring)
MAX_WORLDS = 4096
SEARCH_SALT = np.uint64(0x5EA2C4D1CE0F7A3B)
ROLLOUT_SALT = np.uint64(0x0B5E55ED7A11C0DE)
TURN_KEY = 4096  # decisions of one round in the key: (round * TURN_KEY + turn) * 2 + phase
PHASE_DRAW, PHASE_DISCARD = 0, 1
MEAN_W = 5  # a searched candidate's row: turn, seat, phase, candidate (kind, or 0 stock / 1 discard), mean
MEAN_ROWS = 4096
INFERENCE_EPSILON = 0.2  # the softened heuristic's chance of a random choice: on 600 paired rounds among heuristic
#                          players (seed 1, W = 32), eps 0.1, 0.2, 0.4 gained -2.3, +0.3, -0.1 points a round, each CI
#                          about +-3.1 (the gap to the oracle +21.5): none clear, 0.2 the best point (before takes
#                          under discard_take_must_use stopped being judged)
# each seat's last finished turn, as the table saw it (the inference's history; ``hist`` rows, one per seat)
H_VALID, H_ELIGIBLE, H_TOP, H_TOOK, H_DK, H_TKU, H_CLOSE, H_OPENED = range(8)
HIST_W = 8

# the turn's scalars (one int64 vector, so a world copies them at once)
(S_SP, S_NPILE, S_NT, S_RECYCLED, S_SEAT, S_T, S_LI, S_WINNER, S_BLOCKED, S_OFFERED, S_PLAN, S_PLAN_MELD, S_PLAN_N,
 S_TK, S_TK_USED, S_DRAWN, S_SKIP, S_WAS_OPENED, S_NOBODY, S_CLOSE, S_FORBIDDEN, S_RETRIEVED, S_FRESH) = range(23)
SC_W = 23
# rows of the per-seat table ``seats``
OPENED, OPEN_TURN, MELD_FREE = range(3)


@njit(cache=True, inline="always")
def search_state(seed, key, decision):
    """The searcher's stream for one decision, keyed by (seed, round or game, decision) alone."""
    return mix64(deal_state(seed, key) ^ mix64(SEARCH_SALT + np.uint64(decision)))


# ------------------------------------------------------------------------------ the turn in phases


@njit(cache=True)
def deal_round_nb(state, dealer, o, hands, deck, pile, table, seats, sc, deck_log):
    """Shuffle and deal as ``play_round_nb`` does; sets up ``seats`` and ``sc``; returns the stream."""
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    i = 0
    for k in range(52):
        deck[i] = k
        deck[i + 1] = k
        i += 2
    for j in range(o[OPT.n_jokers]):
        deck[i] = JOKER
        i += 1
    state = shuffle(state, deck, 0, n_cards)
    if deck_log.shape[0] > 0:
        deck_log[:n_cards] = deck[:n_cards]
    hands[:, :] = 0
    table[:, :] = 0
    seats[OPENED, :] = 0
    seats[OPEN_TURN, :] = -1
    seats[MELD_FREE, :] = 0
    i = 0
    for r in range(o[OPT.hand_size]):
        for k in range(P):
            hands[(dealer + 1 + k) % P, deck[i]] += 1
            i += 1
    pile[0] = deck[i]
    sc[:] = 0
    sc[S_NPILE] = 1
    sc[S_SP] = i + 1
    sc[S_SEAT] = (dealer + 1) % P
    sc[S_WINNER] = -1
    return state


@njit(cache=True, _nrt=False)
def begin_turn_nb(state, sc, o, hands, deck, pile, table, seats, out, scratch, log):
    """The turn's start: the empty-stock rule, then whether the top discard is offered and how it would reach
    the table (its melds left in ``out``). Returns (stream, False when the round is blocked)."""
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    seat = sc[S_SEAT]
    if sc[S_SP] == n_cards:
        npile = sc[S_NPILE]
        if o[OPT.recycle_discards] and sc[S_RECYCLED] == 0 and npile > 1:
            m = npile - 1
            for j in range(m):
                deck[n_cards - m + j] = pile[j]
            state = shuffle(state, deck, n_cards - m, n_cards)
            pile[0] = pile[npile - 1]
            sc[S_NPILE] = 1
            sc[S_SP] = n_cards - m
            sc[S_RECYCLED] = 1
            sc[S_LI] = log_event(log, sc[S_LI], EV_RECYCLE, seat, m, 0, 0, 0, 0)
        else:
            sc[S_BLOCKED] = 1
            sc[S_LI] = log_event(log, sc[S_LI], EV_BLOCKED, seat, 0, 0, 0, 0, 0)
            return state, False
    if sc[S_T] >= MAX_TURNS:
        sc[S_BLOCKED] = 1
        sc[S_LI] = log_event(log, sc[S_LI], EV_BLOCKED, seat, 0, 0, 0, 0, 0)
        return state, False
    hand = hands[seat]
    nobody = True
    close = False
    for p in range(P):
        if p != seat and seats[OPENED, p]:
            nobody = False
            if cards_in(hands[p]) <= 3:
                close = True
    npile = sc[S_NPILE]
    top = pile[npile - 1] if npile > 0 else -1
    offered = discard_offered(top, sc[S_T], hand, o)
    plan = PLAN_NONE
    plan_meld = -1
    plan_n = 0
    if offered:
        hand[top] += 1
        plan, plan_meld, plan_n = take_plan(hand, top, seats[OPENED, seat], seats[MELD_FREE, seat] != 0, table,
                                            sc[S_NT], o, out, scratch)
        hand[top] -= 1
        if o[OPT.discard_take_must_use] and plan == PLAN_NONE:
            offered = False
    sc[S_OFFERED] = offered
    sc[S_PLAN] = plan
    sc[S_PLAN_MELD] = plan_meld
    sc[S_PLAN_N] = plan_n
    sc[S_NOBODY] = nobody
    sc[S_CLOSE] = close
    return state, True


@njit(cache=True, _nrt=False)
def draw_nb(sc, take, o, hands, deck, pile, seats, log):
    """Draw from the stock or take the top discard."""
    seat = sc[S_SEAT]
    hand = hands[seat]
    tk = -1
    drawn = -1
    if take:
        tk = pile[sc[S_NPILE] - 1]
        hand[tk] += 1
        sc[S_NPILE] -= 1
        sc[S_LI] = log_event(log, sc[S_LI], EV_TAKE, seat, tk, 0, 0, 0, 0)
    else:
        drawn = deck[sc[S_SP]]
        sc[S_SP] += 1
        hand[drawn] += 1
        sc[S_LI] = log_event(log, sc[S_LI], EV_DRAW, seat, drawn, 0, 0, 0, 0)
    sc[S_SKIP] = seats[MELD_FREE, seat] != 0 and drawn >= 0 and isolated(hand, drawn, o[OPT.jokers_per_meld])
    # as kernels.play_turn_nb's ``fresh``: the hand held no opening (no meld), so new ones use the card drawn
    sc[S_FRESH] = drawn if seats[MELD_FREE, seat] != 0 and 0 <= drawn < JOKER and not o[OPT.go_out_requires_discard] \
        else -1
    sc[S_TK] = tk
    sc[S_DRAWN] = drawn
    sc[S_TK_USED] = 0
    sc[S_RETRIEVED] = 0
    sc[S_WAS_OPENED] = seats[OPENED, seat]
    seats[MELD_FREE, seat] = 0


@njit(cache=True, _nrt=False)
def table_actions_nb(state, sc, o, pol, hands, table, seats, out, scratch, log, user, user_fn, fault):
    """Everything between the draw and the discard, as ``play_round_nb`` plays it (``user``: the seat of the
    Numba player ``user_fn``, which lays its melds down or holds them as ``kernels.play_turn_nb``'s). Returns
    (stream, gone out)."""
    n_cards = 104 + o[OPT.n_jokers]
    jmax = o[OPT.jokers_per_meld]
    min_left = 1 if o[OPT.go_out_requires_discard] else 0
    seat = sc[S_SEAT]
    hand = hands[seat]
    t = sc[S_T]
    tk = sc[S_TK]
    tk_used = False
    nt = sc[S_NT]
    li = sc[S_LI]
    plan = sc[S_PLAN]
    nobody = sc[S_NOBODY] != 0
    close = sc[S_CLOSE] != 0
    skip = sc[S_SKIP] != 0
    was_opened = sc[S_WAS_OPENED] != 0
    retrievals = 0
    if tk >= 0 and o[OPT.discard_take_must_use]:
        if plan == PLAN_OPEN:
            nt, li, tk_used = lay_melds(out, sc[S_PLAN_N], seat, hand, table, nt, log, li, tk)
            seats[OPENED, seat] = 1
            seats[OPEN_TURN, seat] = t
            li = log_event(log, li, EV_OPEN, seat, 0, 0, 0, 0, 0)
        elif plan == PLAN_LAYOFF:
            li = layoff(seat, hand, sc[S_PLAN_MELD], tk, table, o, log, li)
            tk_used = True
        elif plan == PLAN_RETRIEVE:
            nt, li, tk_used = retrieve(seat, hand, sc[S_PLAN_MELD], tk, table, nt, o, min_left, out, scratch, log, li,
                                       tk)
            retrievals += 1
        else:
            nt, li, tk_used = lay_melds(out, sc[S_PLAN_N], seat, hand, table, nt, log, li, tk)
    if not seats[OPENED, seat] and o[OPT.rami_sec_exempt] and nobody:
        v, n, _ = best_melds_nb(hand, MODE_HAND, False, 0, -1, 0, min_left, jmax, o[OPT.card_values:], out, scratch)
        if v >= 0 and n > 0:
            melded, holds_tk = melds_cards_nb(out, n, tk)
            if cards_in(hand) - melded <= 1 and (tk < 0 or tk_used or holds_tk):
                nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
                tk_used = tk_used or used
                seats[OPENED, seat] = 1
                seats[OPEN_TURN, seat] = t
                li = log_event(log, li, EV_OPEN, seat, 1, 0, 0, 0, 0)
    forbidden = tk if tk >= 0 and not tk_used else -1
    hidden = 0
    if forbidden >= 0:
        hidden = 1
        hand[forbidden] -= 1
    search_left = 1 if hidden > 0 else min_left
    if not seats[OPENED, seat] and skip and min_left == 0:
        seats[MELD_FREE, seat] = 1
    elif not seats[OPENED, seat]:
        state, n, exists = choose_opening(pol, state, hand, o, nobody, n_cards - sc[S_SP], search_left, out, scratch,
                                          sc[S_FRESH])
        seats[MELD_FREE, seat] = not exists and hidden == 0 and min_left == 0
        if user and exists:
            answer = user_meld(user_fn, fault, seat, hand, True, nobody, n_cards - sc[S_SP], close, o)
            if answer == 0:
                n = 0
            elif answer == 1 and n == 0:  # the heuristic held back: the opening found, laid
                _, n = opening_melds(hand, o, search_left, out, scratch, sc[S_FRESH])
        if n > 0:
            nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
            tk_used = tk_used or used
            seats[OPENED, seat] = 1
            seats[OPEN_TURN, seat] = t
            li = log_event(log, li, EV_OPEN, seat, 0, 0, 0, 0, 0)
    if seats[OPENED, seat]:
        retrieved = False
        while True:
            state, tt, k = choose_retrieval(pol, state, hand, table, nt, o, search_left, out, scratch)
            if tt < 0:
                break
            nt, li, used = retrieve(seat, hand, tt, k, table, nt, o, search_left, out, scratch, log, li, tk)
            tk_used = tk_used or used
            retrieved = True
            retrievals += 1
        held = False
        if not (was_opened and skip and not retrieved):
            state, n = choose_melds(pol, state, hand, o, search_left, out, scratch,
                                    sc[S_FRESH] if was_opened and not retrieved else -1)
            if user and n > 0:
                held = user_meld(user_fn, fault, seat, hand, False, nobody, n_cards - sc[S_SP], close, o) == 0
                if held:
                    n = 0
            nt, li, used = lay_melds(out, n, seat, hand, table, nt, log, li, tk)
            tk_used = tk_used or used
        seats[MELD_FREE, seat] = pol == POLICY.HEURISTIC and search_left == 0 and not held
    if hidden > 0:
        hand[forbidden] += hidden
    if seats[OPENED, seat]:
        while True:
            state, k, tt = choose_layoff(pol, state, hand, table, nt, o, close, tk if tk >= 0 and not tk_used else -1)
            if k < 0:
                break
            li = layoff(seat, hand, tt, k, table, o, log, li)
            tk_used = tk_used or k == tk
    sc[S_NT] = nt
    sc[S_TK_USED] = tk_used
    sc[S_RETRIEVED] = retrievals
    if cards_in(hand) == 0:
        sc[S_WINNER] = seat
        sc[S_LI] = log_event(log, li, EV_OUT, seat, 0, 0, 0, 0, 0)
        return state, True
    sc[S_LI] = li
    sc[S_FORBIDDEN] = tk if tk >= 0 and not tk_used and hand[tk] < 2 else -1  # a twin held may go
    return state, False


@njit(cache=True, _nrt=False)
def discard_nb(sc, k, o, hands, pile, log):
    """Discard ``k``; returns whether the hand is empty (the round is over), else passes the turn on."""
    seat = sc[S_SEAT]
    hand = hands[seat]
    hand[k] -= 1
    pile[sc[S_NPILE]] = k
    sc[S_NPILE] += 1
    sc[S_LI] = log_event(log, sc[S_LI], EV_DISCARD, seat, k, 0, 0, 0, 0)
    if cards_in(hand) == 0:
        sc[S_WINNER] = seat
        sc[S_LI] = log_event(log, sc[S_LI], EV_OUT, seat, 0, 0, 0, 0, 0)
        return True
    sc[S_T] += 1
    sc[S_SEAT] = (seat + 1) % o[OPT.players]
    return False


@njit(cache=True, _nrt=False)
def finish_round_nb(sc, o, hands, seats, res):
    """The round's results as ``play_round_nb`` computes them; returns (turns, blocked, rami sec)."""
    P = o[OPT.players]
    t = sc[S_T]
    blocked = sc[S_BLOCKED] != 0
    winner = sc[S_WINNER]
    turns = t if blocked else t + 1
    rami_sec = False
    if winner >= 0:
        rami_sec = seats[OPEN_TURN, winner] == t
        for p in range(P):
            if p != winner and seats[OPENED, p]:
                rami_sec = False
    for p in range(P):
        h = 0
        for k in range(HAND_W):
            h += hands[p, k] * o[OPT.card_values + k]
        res[R_HAND, p] = h
        res[R_OPENED, p] = seats[OPENED, p]
        res[R_WON, p] = 0
    if winner >= 0:
        res[R_WON, winner] = 1
    else:
        low = res[R_HAND, 0]
        for p in range(P):
            low = min(low, res[R_HAND, p])
        for j in range(P):
            p = (sc[S_SEAT] + j) % P
            if res[R_HAND, p] == low:
                res[R_WON, p] = 1
                if o[OPT.blocked_tie_next]:
                    break
    round_scores(o, res[R_WON], res[R_OPENED], res[R_HAND], rami_sec, res[R_SCORE])
    return turns, blocked, rami_sec


@njit(cache=True, _nrt=False)
def play_on_nb(state, sc, o, pols, hands, deck, pile, table, seats, out, scratch, log, phase, forced, stop):
    """Play the round on to its end with the policies ``pols`` (heuristic 0 or random 1 per seat), or until turn
    ``stop`` is to begin (-1: no stop; the round is over when ``sc`` has a winner or is blocked).

    ``phase`` is where the current turn stands: PHASE_DRAW (its start) or PHASE_DISCARD (table
    actions done, the discard to make); ``forced`` (-1 none) is the first decision's choice: at
    PHASE_DRAW 0 stock / 1 discard (when offered), at PHASE_DISCARD the card to discard.
    """
    while True:
        seat = sc[S_SEAT]
        pol = pols[seat]
        if phase == PHASE_DRAW:
            if sc[S_T] == stop:
                return state
            state, going = begin_turn_nb(state, sc, o, hands, deck, pile, table, seats, out, scratch, log)
            if not going:
                return state
            if forced >= 0:
                take = forced == 1 and sc[S_OFFERED] != 0
                forced = -1
            else:
                state, take = choose_draw(pol, state, sc[S_PLAN] != PLAN_NONE, sc[S_OFFERED] != 0)
            draw_nb(sc, take, o, hands, deck, pile, seats, log)
            state, gone = table_actions_nb(state, sc, o, pol, hands, table, seats, out, scratch, log, False, None,
                                           sc[:2])  # no Numba seat in a rollout: no fault is written
            if gone:
                return state
        if forced >= 0:
            k = forced
            forced = -1
        else:
            state, k = choose_discard(pol, state, hands[seat], sc[S_FORBIDDEN], table, sc[S_NT], seats[OPENED, seat],
                                      o, sc[S_CLOSE] != 0, out, scratch)
        if discard_nb(sc, k, o, hands, pile, log):
            return state
        phase = PHASE_DRAW


# ------------------------------------------------------------------------------ worlds and search


@njit(cache=True, _nrt=False)
def sample_world_nb(state, s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst, unseen):
    """Deal the cards seat ``s`` has not seen into a world (see the module docstring); returns the stream.

    Reads the true ``hands`` only for their sizes and the multiset of cards ``s`` has not seen
    (the same as the deck minus everything shown); ``known[p]`` are the cards ``p`` is known to
    hold, ``pool`` the cards the stock may hold (counts). Writes ``w_hands`` and the stock
    ``w_deck[sp:]``; ``inst`` (of length ``DECK_MAX``) and ``unseen`` (``HAND_W``) are scratch.
    """
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    sp = sc[S_SP]
    unseen[:] = 0
    for p in range(P):
        if p != s:
            for k in range(HAND_W):
                unseen[k] += hands[p, k] - known[p, k]
    for j in range(sp, n_cards):
        unseen[deck[j]] += 1
    n = 0
    for k in range(HAND_W):
        for c in range(min(unseen[k], pool[k])):
            inst[n] = k
            n += 1
    for i in range(n_cards - sp):  # the stock: a random ordered draw among the cards it may hold
        state, j = below_n(state, n - i)
        j += i
        x = inst[j]
        inst[j] = inst[i]
        inst[i] = x
        w_deck[sp + i] = x
        unseen[x] -= 1
    for j in range(sp):
        w_deck[j] = deck[j]
    n = 0
    for k in range(HAND_W):
        for c in range(unseen[k]):
            inst[n] = k
            n += 1
    i = 0
    for p in range(P):
        for k in range(HAND_W):
            w_hands[p, k] = hands[p, k] if p == s else known[p, k]
        if p == s:
            continue
        need = cards_in(hands[p]) - cards_in(known[p])
        for _ in range(need):
            state, j = below_n(state, n - i)
            j += i
            x = inst[j]
            inst[j] = inst[i]
            inst[i] = x
            w_hands[p, x] += 1
            i += 1
    return state


# ------------------------------------------------------------------------------ inference: the others' last turns


@njit(cache=True, _nrt=False)
def eligible_nb(sc, o, hand, pile):
    """Whether the rules let the seat to move take the top discard at its turn's start, from what the table sees
    (the turn, the hand's size): ``begin_turn_nb``'s ``offered`` without ``discard_take_must_use``'s test, which
    reads the hand."""
    return discard_offered(pile[sc[S_NPILE] - 1] if sc[S_NPILE] > 0 else -1, sc[S_T], hand, o)


@njit(cache=True, _nrt=False)
def note_turn_nb(hist, bdelta, seat, eligible, top, tk, tk_used, dk, close, was_opened, before, after, drawn):
    """Keep seat ``seat``'s finished turn as the table saw it (the inference's history): whether it could take the
    discard ``top``, whether it took it (``tk``, still held unused: ``H_TKU``), its discard ``dk``, whether an
    opponent was close and whether it had opened when it drew; ``bdelta[seat]`` = its hand before the draw less its
    hand now, plus the card it drew from the stock (``drawn``): the cards it put on the table and the pile less the
    taken discard and the jokers taken back, all public."""
    hist[seat, H_VALID] = 1
    hist[seat, H_ELIGIBLE] = eligible
    hist[seat, H_TOP] = top
    hist[seat, H_TOOK] = tk >= 0
    hist[seat, H_DK] = dk
    hist[seat, H_TKU] = tk if tk >= 0 and not tk_used else -1
    hist[seat, H_CLOSE] = close
    hist[seat, H_OPENED] = was_opened
    for k in range(HAND_W):
        bdelta[seat, k] = before[k] - after[k] + (1 if k == drawn else 0)


@njit(cache=True, _nrt=False)
def seat_factor_nb(p, hand, hist, bdelta, eps, o, table, nt, opened, tmp, out, scratch):
    """The likelihood of seat ``p``'s last turn (``hist[p]``, :func:`note_turn_nb`) if it holds ``hand`` now,
    modelled as the heuristic softened by ``eps`` (:func:`cardlab.sim.inference.softened_nb`); 1 before its first
    turn ends.

    * **Its discard** ``dk``, judged exactly: its hand then was ``hand + dk``; with ``k > 1`` legal kinds (not the
      unused taken card without a twin) it is the heuristic's (``policies.choose_discard``, ``opened`` now as then)
      with probability ``1 - eps + eps / k``, another ``eps / k``.
    * **Its draw**, when the rules let it take the top discard: the heuristic takes it exactly when the card can
      reach the table this turn (``kernels.take_plan``). Its hand before a take is ``hand + bdelta[p]``, exact; before
      a stock draw the same, which still holds the card it drew (unknown): an approximation, one card too many.
      A stock draw has probability ``1 - eps/2`` when the card had no use, ``eps/2`` when it had one, 1 when it had
      none and ``discard_take_must_use`` forbade the take. A take counts 1 under ``discard_take_must_use`` (the rules
      made it usable; judged on today's table, where the card now lies, it often looked unusable: 20 of about 1,000
      judged draws of true hands at a heuristic table), else ``1 - eps/2`` when usable, ``eps/2`` when not.

    The table is today's (later lay-offs on it are an approximation); ``tmp`` (``HAND_W``), ``out`` and ``scratch``
    are scratch."""
    if hist[p, H_VALID] == 0:
        return 1.0
    f = 1.0
    dk = hist[p, H_DK]
    for k in range(HAND_W):
        tmp[k] = hand[k]
    tmp[dk] += 1
    tku = hist[p, H_TKU]
    forbidden = tku if tku >= 0 and tmp[tku] < 2 else -1
    legal = 0
    for k in range(HAND_W):
        if tmp[k] > 0 and k != forbidden:
            legal += 1
    if legal > 1:
        _, best = choose_discard(POLICY.HEURISTIC, np.uint64(0), tmp, forbidden, table, nt, opened, o,
                                 hist[p, H_CLOSE] != 0, out, scratch)
        f *= softened_nb(eps, legal, best == dk)
    if hist[p, H_ELIGIBLE]:
        top = hist[p, H_TOP]
        for k in range(HAND_W):
            tmp[k] = max(0, hand[k] + bdelta[p, k])
        tmp[top] += 1
        plan, _, _ = take_plan(tmp, top, hist[p, H_OPENED] != 0, False, table, nt, o, out, scratch)
        usable = plan != PLAN_NONE
        if hist[p, H_TOOK]:
            if not o[OPT.discard_take_must_use]:  # else the rules made it usable: no choice to judge
                f *= softened_nb(eps, 2, usable)
        elif usable or not o[OPT.discard_take_must_use]:
            f *= softened_nb(eps, 2, not usable)
    return f


@njit(cache=True, _nrt=False)
def world_factors_nb(s, o, w_hands, hist, bdelta, eps, table, nt, seats, factors, tmp, out, scratch):
    """Each other seat's :func:`seat_factor_nb` in the world ``w_hands`` into ``factors`` (``s``'s: 1); returns their
    product, the world's likelihood."""
    total = 1.0
    for p in range(o[OPT.players]):
        factors[p] = 1.0 if p == s else seat_factor_nb(p, w_hands[p], hist, bdelta, eps, o, table, nt,
                                                       seats[OPENED, p], tmp, out, scratch)
        total *= factors[p]
    return total


@njit(cache=True, _nrt=False)
def unknown_card_nb(hand, known, i):
    """The kind of the ``i``-th card of ``hand`` not among its ``known`` cards (kinds in order, twins apart)."""
    for k in range(HAND_W):
        c = hand[k] - known[k]
        if i < c:
            return k
        i -= c
    return -1


@njit(cache=True, _nrt=False)
def propose_card_swap_nb(state, s, P, w_hands, known, w_deck, sp, n_cards, stock_ok):
    """One Metropolis proposal on a world (count-vector hands, twins apart): a uniformly drawn unknown card of
    another seat ``a`` (not one of its ``known`` cards) swapped with a uniformly drawn unknown card of holder ``b``,
    another seat than ``a`` and ``s`` or the stock (``b = -1``, a uniform stock position ``j``; never after a recycle,
    ``stock_ok`` false, whose stock may hold recycled cards only). Symmetric over worlds whose twins are told apart
    (the swap back is the same pair of places, as likely), and it keeps every hand's size and known cards, so
    Metropolis acceptance leaves the posterior invariant. Returns ``(state, a, b, ca, cb, j, u)``: ``ca = -1`` when
    nothing moved, ``u`` the uniform that accepts or refuses it."""
    holders = P - 2 + (1 if stock_ok else 0)  # the seats other than s and a, then the stock
    state, a = below_n(state, P - 1)
    state, b = below_n(state, max(holders, 1))
    state, ia = below_n(state, 1 << 30)
    state, ib = below_n(state, 1 << 30)
    state, u = uniform_nb(state)
    if a >= s:
        a += 1
    if holders == 0:
        return state, a, -1, -1, -1, -1, u
    if b == P - 2:
        b = -1
    else:
        q = 0  # the b-th seat other than s and a
        while True:
            if q != s and q != a:
                if b == 0:
                    break
                b -= 1
            q += 1
        b = q
    na = cards_in(w_hands[a]) - cards_in(known[a])
    if na <= 0:
        return state, a, b, -1, -1, -1, u
    ca = unknown_card_nb(w_hands[a], known[a], ia % na)
    j = -1
    if b < 0:
        if n_cards - sp <= 0:
            return state, a, b, -1, -1, -1, u
        j = sp + ib % (n_cards - sp)
        cb = w_deck[j]
        w_deck[j] = ca
    else:
        nb = cards_in(w_hands[b]) - cards_in(known[b])
        if nb <= 0:
            return state, a, b, -1, -1, -1, u
        cb = unknown_card_nb(w_hands[b], known[b], ib % nb)
        w_hands[b, cb] -= 1
        w_hands[b, ca] += 1
    w_hands[a, ca] -= 1
    w_hands[a, cb] += 1
    return state, a, b, ca, cb, j, u


@njit(cache=True, _nrt=False)
def undo_card_swap_nb(w_hands, w_deck, a, b, ca, cb, j):
    """Take back the swap :func:`propose_card_swap_nb` made."""
    w_hands[a, cb] -= 1
    w_hands[a, ca] += 1
    if b < 0:
        w_deck[j] = cb
    else:
        w_hands[b, ca] -= 1
        w_hands[b, cb] += 1


@njit(cache=True, _nrt=False)
def move_world_nb(state, s, o, sc, known, w_hands, w_deck, likelihood, hist, bdelta, eps, table, seats, factors,
                  tmp, out, scratch):
    """Move a world by :data:`~cardlab.sim.inference.MOVE_STEPS` Metropolis steps (:func:`propose_card_swap_nb`,
    accepted with probability min(1, new likelihood / old)); only the factors of the seats whose hands changed are
    recomputed. Returns ``(state, likelihood)``."""
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    nt = sc[S_NT]
    for _ in range(MOVE_STEPS):
        state, a, b, ca, cb, j, u = propose_card_swap_nb(state, s, P, w_hands, known, w_deck, sc[S_SP], n_cards,
                                                         sc[S_RECYCLED] == 0)
        if ca < 0:
            continue
        fa = seat_factor_nb(a, w_hands[a], hist, bdelta, eps, o, table, nt, seats[OPENED, a], tmp, out, scratch)
        fb = 1.0 if b < 0 else seat_factor_nb(b, w_hands[b], hist, bdelta, eps, o, table, nt, seats[OPENED, b], tmp,
                                              out, scratch)
        moved = likelihood / factors[a] * fa
        if b >= 0:
            moved = moved / factors[b] * fb
        if accepted_nb(u, likelihood, moved):
            likelihood = moved
            factors[a] = fa
            if b >= 0:
                factors[b] = fb
        else:
            undo_card_swap_nb(w_hands, w_deck, a, b, ca, cb, j)
    return state, likelihood


@njit(cache=True, _nrt=False)
def ended_nb(sc):
    """Is the round over (a seat went out, or it is blocked)?"""
    return sc[S_WINNER] >= 0 or sc[S_BLOCKED] != 0


@njit(cache=True, _nrt=False)
def next_takes_nb(c, sc, o, w_hands, seats, oracle, table, out, scratch):
    """Does the next seat, playing the heuristic, take the discard ``c`` the seat to move makes now
    (``begin_turn_nb``'s plan and ``choose_draw``'s heuristic: exactly when the rules offer it and it can reach the
    table this turn)? Its stock must not be empty (no recycle nor block before its draw); its ``meld_free`` in the
    rollouts is the true one for the ``oracle``'s true hands, else none."""
    q = (sc[S_SEAT] + 1) % o[OPT.players]
    hand = w_hands[q]
    if sc[S_T] + 1 >= MAX_TURNS or not discard_offered(c, sc[S_T] + 1, hand, o):
        return False
    hand[c] += 1
    plan, _, _ = take_plan(hand, c, seats[OPENED, q], oracle and seats[MELD_FREE, q] != 0, table, sc[S_NT], o,
                           out, scratch)
    hand[c] -= 1
    return plan != PLAN_NONE


@njit(cache=True, _nrt=False)
def relative_score(res, s, P):
    """The searcher's outcome: the opponents' mean round score minus its own (higher is better)."""
    other = 0.0
    for p in range(P):
        if p != s:
            other += res[R_SCORE, p]
    return other / (P - 1) - res[R_SCORE, s]


@njit(cache=True, inline="always")
def copy_nb(dst, src):
    """``dst[:] = src``, an element at a time: a slice copy may go through a temporary array, which a function
    compiled without reference counting cannot make."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_rows_nb(dst, src):
    """``dst[:, :] = src``, an element at a time (see :func:`copy_nb`)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, inline="always")
def copy_round_nb(hands, deck, pile, table, seats, sc, from_hands, from_deck, from_pile, from_table, from_seats,
                  from_sc):
    """A round's state (hands, deck, pile, table, seats' flags, turn scalars) copied into another's arrays, an
    element at a time (see :func:`copy_nb`)."""
    copy_rows_nb(hands, from_hands)
    copy_nb(deck, from_deck)
    copy_nb(pile, from_pile)
    copy_rows_nb(table, from_table)
    copy_rows_nb(seats, from_seats)
    copy_nb(sc, from_sc)


@njit(cache=True)
def search_nb(state, s, phase, cands, n_cands, fallback, o, rollout, worlds, oracle, hands, deck, pile, table, seats,
              sc, known, pool, w_hands, w_deck, inst, snap, x_hands, x_deck, x_pile, x_table, x_seats, x_sc, x_out,
              scratch, res, totals, eps, hist, bdelta, pool_states, cumulative, pool_factors, factors, tmp):
    """The searched choice among ``cands[:n_cands]`` (kinds to discard, or 0 stock / 1 discard pile).

    ``totals[c]`` receives each candidate's mean relative score over the worlds. The ``oracle`` (search that sees
    the true deal, the strength ladder's ceiling) plays every world on the true hands and stock: one world with
    heuristic rollouts, which play it the same way each time; ``worlds`` with random ones, each its own draws.
    ``eps`` > 0: the searcher infers (:func:`play_worlds_nb`; ``hist`` and ``bdelta`` the others' last turns, the
    arrays after them scratch of ``POOL_FACTOR * worlds`` rows).
    """
    pols = np.full(o[OPT.players], rollout, np.int64)
    no_log = np.zeros((0, LOG_W), np.int64)
    unseen = np.empty(HAND_W, np.int64)
    n_worlds = 1 if oracle and rollout == POLICY.HEURISTIC else worlds
    play_worlds_nb(state, s, phase, cands, n_cands, n_worlds, oracle, pols, o, hands, deck, pile, table, seats, sc,
                   known, pool, w_hands, w_deck, inst, unseen, snap, x_hands, x_deck, x_pile, x_table, x_seats, x_sc,
                   x_out, scratch, no_log, res, totals, eps, hist, bdelta, pool_states, cumulative, pool_factors,
                   factors, tmp)
    choice = fallback
    for i in range(n_cands):
        c = cands[i]
        if totals[c] > totals[choice]:
            choice = c
    for i in range(n_cands):
        totals[cands[i]] /= n_worlds
    return choice


@njit(cache=True, _nrt=False)
def play_worlds_nb(state, s, phase, cands, n_cands, n_worlds, oracle, pols, o, hands, deck, pile, table, seats, sc,
                   known, pool, w_hands, w_deck, inst, unseen, snap, x_hands, x_deck, x_pile, x_table, x_seats, x_sc,
                   x_out, scratch, no_log, res, totals, eps, hist, bdelta, pool_states, cumulative, pool_factors,
                   factors, tmp):
    """The worlds of :func:`search_nb`: draw each (the true deal for the ``oracle``), play every candidate on it to
    the end of the round with the seats' rollout policies ``pols``, and sum seat ``s``'s relative score into
    ``totals``. With ``eps`` > 0 (inference, never the oracle) the worlds are drawn as the module docstring's
    "Inference" says: a pool of ``POOL_FACTOR * n_worlds`` (``pool_states``: each one's stream before it was drawn,
    so a kept world is drawn again rather than stored), each weighed by :func:`world_factors_nb` over the others'
    last turns (``hist``, ``bdelta``), ``n_worlds`` kept by the systematic comb, each moved by :func:`move_world_nb`
    from its tooth's own stream (which then draws its rollouts). The other arrays are scratch space.

    **Shared turns** (a searched discard, heuristic rollouts): the other seats' turns between the searcher's discard
    and its next turn do not depend on which card it discarded, unless the next seat takes it (:func:`next_takes_nb`):
    they read no random numbers, the searcher's hand only for its size, and the pile below the top only at a recycle,
    which cannot come while the stock holds a card for each of them. So the first candidate the next seat leaves is
    played to the searcher's next turn and that state kept (``snap``); each later one it leaves starts from a copy,
    its own discard put back in the searcher's hand and the pile. The same rows (``benchmarks/fingerprint.py``); 6 to
    10% more searched rounds per CPU-second (2026-12-05, 600 rounds, the code before beside it). Computing each other
    seat's ``meld_free`` once per world, so that its first rollout turn searches only around its drawn card, was
    measured too and left out: no gain (300 rounds in turns, 40.5 to 44.7 rounds per CPU-second against 44.0 to 46.9).

    Compiled without Numba's reference counting (``_nrt=False``), as everything a rollout calls: it allocates
    nothing and its caller holds every array. With the counting, the atomic increments and decrements of the
    arrays handed from call to call took about half of a searched round's time (perf's samples, one search seat,
    1 thread).
    """
    P = o[OPT.players]
    for i in range(n_cands):
        totals[cands[i]] = 0.0
    inferring = eps > 0.0 and not oracle
    y_hands, y_deck, y_pile, y_table, y_seats, y_sc = snap
    # the others' turns between the searcher's discard and its next turn are the same for every discard the next
    # seat does not take (heuristic rollouts draw no random numbers; the stock lasts them: no recycle, no block)
    share = phase == PHASE_DISCARD and n_cands > 1 and 104 + o[OPT.n_jokers] - sc[S_SP] >= P - 1
    for p in range(P):
        share = share and pols[p] == POLICY.HEURISTIC
    start = 0.0
    total = 0.0
    n_pool = POOL_FACTOR * n_worlds if inferring else 0
    for j in range(n_pool):
        pool_states[j] = state
        state = sample_world_nb(state, s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst, unseen)
        total += world_factors_nb(s, o, w_hands, hist, bdelta, eps, table, sc[S_NT], seats, factors, tmp, x_out,
                                  scratch)
        cumulative[j] = total
        for p in range(P):
            pool_factors[j, p] = factors[p]
    if inferring:
        state, start = uniform_nb(state)  # one uniform: the systematic comb
    pick = 0
    for r in range(n_worlds):
        if oracle:
            state = mix64(state)
            copy_rows_nb(w_hands, hands)
            copy_nb(w_deck, deck)
        elif inferring:  # the comb's tooth r: its pool world drawn again, then moved from the tooth's stream
            pick = comb_pick_nb(cumulative, pick, r, start, total, n_worlds)
            drawn = sample_world_nb(pool_states[pick], s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst,
                                    unseen)
            likelihood = 1.0
            for p in range(P):
                factors[p] = pool_factors[pick, p]
                likelihood *= factors[p]
            state, _ = move_world_nb(move_stream_nb(drawn, r), s, o, sc, known, w_hands, w_deck, likelihood, hist,
                                     bdelta, eps, table, seats, factors, tmp, x_out, scratch)
        else:
            state = sample_world_nb(state, s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst, unseen)
        roll = mix64(state ^ ROLLOUT_SALT)  # random rollouts: the same draws for every candidate of this world
        based = -1  # the discard whose shared turns the snapshot holds (-1: none yet)
        y_state = roll
        for i in range(n_cands):
            c = cands[i]
            shared = share and not next_takes_nb(c, sc, o, w_hands, seats, oracle, table, x_out, scratch)
            if shared and based >= 0:  # the others' turns already played: the snapshot, this discard put back in
                copy_round_nb(x_hands, x_deck, x_pile, x_table, x_seats, x_sc, y_hands, y_deck, y_pile, y_table,
                              y_seats, y_sc)
                x_hands[s, based] += 1
                x_hands[s, c] -= 1
                x_pile[sc[S_NPILE]] = c
                if not ended_nb(x_sc):
                    play_on_nb(y_state, x_sc, o, pols, x_hands, x_deck, x_pile, x_table, x_seats, x_out, scratch,
                               no_log, PHASE_DRAW, -1, -1)
            else:
                copy_round_nb(x_hands, x_deck, x_pile, x_table, x_seats, x_sc, w_hands, w_deck, pile, table, seats, sc)
                for p in range(P):  # a speed-up that holds for the true hands only: the searcher's own, or all
                    if p != s and not oracle:
                        x_seats[MELD_FREE, p] = 0
                x_sc[S_LI] = 0
                if shared:  # the first such discard: play to the searcher's next turn and keep the state there
                    y_state = play_on_nb(roll, x_sc, o, pols, x_hands, x_deck, x_pile, x_table, x_seats, x_out,
                                         scratch, no_log, phase, c, sc[S_T] + P)
                    copy_round_nb(y_hands, y_deck, y_pile, y_table, y_seats, y_sc, x_hands, x_deck, x_pile, x_table,
                                  x_seats, x_sc)
                    based = c
                    if not ended_nb(x_sc):
                        play_on_nb(y_state, x_sc, o, pols, x_hands, x_deck, x_pile, x_table, x_seats, x_out, scratch,
                                   no_log, PHASE_DRAW, -1, -1)
                else:
                    play_on_nb(roll, x_sc, o, pols, x_hands, x_deck, x_pile, x_table, x_seats, x_out, scratch, no_log,
                               phase, c, -1)
            finish_round_nb(x_sc, o, x_hands, x_seats, res)
            totals[c] += relative_score(res, s, P)


@njit(cache=True)
def shortlist_nb(hand, forbidden, heuristic, table, nt, opened, o, close, cands, size):
    """The discard candidates: the heuristic's choice first, then the next best by its score, ``size`` in all."""
    weight = 3 if close else 1
    score = np.full(HAND_W, -(1 << 40), np.int64)
    for k in range(52):
        if hand[k] == 0 or k == forbidden or k == heuristic:
            continue
        keep = 100 if in_natural_meld(hand, k) else 0
        keep += neighbours(hand, k)
        if not opened:
            for t in range(nt):
                if layoff_slot(table[t], k, o[OPT.jokers_per_meld]) >= 0:
                    keep += 8
                    break
        score[k] = weight * o[OPT.card_values + k] - keep
    if heuristic != JOKER and hand[JOKER] > 0 and forbidden != JOKER:
        score[JOKER] = -(1 << 39)  # a joker: searched last, when the hand has room for it
    cands[0] = heuristic
    n = 1
    while n < size:
        best = -1
        for k in range(HAND_W):
            if score[k] > -(1 << 40) and (best < 0 or score[k] > score[best]):
                best = k
        if best < 0:
            break
        cands[n] = best
        score[best] = -(1 << 40)
        n += 1
    return n


@njit(cache=True)
def record_means(means, mi, t, seat, phase, cands, n_cands, totals):
    for i in range(n_cands):
        if mi < means.shape[0]:
            c = cands[i]
            means[mi, 0] = t
            means[mi, 1] = seat
            means[mi, 2] = phase
            means[mi, 3] = c
            means[mi, 4] = totals[c]
        mi += 1
    return mi


@njit(cache=True)
def update_known(known, seat, before, after, tk, drawn, retrieved):
    """What the table learns of ``seat``'s hand over its turn: a taken discard and kept jokers become known;
    each card put on the table or the pile cancels one known card of its kind (never below zero)."""
    for k in range(HAND_W):
        public = 0
        if k == tk:
            public += 1
        if k == JOKER:
            public += retrieved
        private = 1 if k == drawn else 0
        lost = before[k] + public + private - after[k]
        known[seat, k] = max(0, known[seat, k] + public - lost)


@njit(cache=True)
def play_search_round_nb(seed, key, round_key, state, dealer, o, pols, worlds, rollout, shortlist, eps, log, deck_log,
                         res, means, user_fn, fault):
    """Play one round as ``play_round_nb`` does, with ``search`` seats (policy id ``SEARCH``) searching.

    ``key`` and ``round_key`` key the searcher's streams (single rounds: the round, 0; whole
    games: the game, the round in it). ``means`` (rows x MEAN_W, or 0 rows) receives each searched
    candidate's mean relative score; ``user_fn`` makes a Numba seat's discards (``kernels.play_turn_nb``'s);
    ``eps`` (per seat, 0: off) each search seat's inference (module docstring).
    Returns (stream, turns, blocked, rami sec, log rows, mean rows).
    """
    P = o[OPT.players]
    hands = np.zeros((P, HAND_W), np.int64)
    deck = np.zeros(DECK_MAX, np.int64)
    pile = np.zeros(DECK_MAX, np.int64)
    table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    seats = np.zeros((3, P), np.int64)
    sc = np.zeros(SC_W, np.int64)
    state = deal_round_nb(state, dealer, o, hands, deck, pile, table, seats, sc, deck_log)
    return play_search_dealt_nb(seed, key, round_key, state, o, pols, worlds, rollout, shortlist, eps, log, res, means,
                                hands, deck, pile, table, seats, sc, user_fn, fault)


@njit(cache=True)
def play_search_dealt_nb(seed, key, round_key, state, o, pols, worlds, rollout, shortlist, eps, log, res, means, hands,
                         deck, pile, table, seats, sc, user_fn, fault):
    """The turns of :func:`play_search_round_nb` from a dealt round (``deal_round_nb``'s ``hands``, ``deck``,
    ``pile``, ``table``, ``seats`` and ``sc``): a test can change the hidden cards (the stock's order, the
    other hands) of a dealt round here and play it on. Returns as :func:`play_search_round_nb`."""
    known = np.zeros((o[OPT.players], HAND_W), np.int64)
    pool = np.full(HAND_W, 2, np.int64)
    pool[JOKER] = o[OPT.n_jokers]
    hist = np.zeros((o[OPT.players], HIST_W), np.int64)
    bdelta = np.zeros((o[OPT.players], HAND_W), np.int64)
    return play_search_turns_nb(seed, key, round_key, state, o, pols, worlds, rollout, shortlist, eps, log, res, means,
                                hands, deck, pile, table, seats, sc, known, pool, hist, bdelta, NO_STOP, user_fn,
                                fault)


@njit(cache=True)
def play_search_turns_nb(seed, key, round_key, state, o, pols, worlds, rollout, shortlist, eps, log, res, means, hands,
                         deck, pile, table, seats, sc, known, pool, hist, bdelta, stop, user_fn, fault):
    """The turns of :func:`play_search_dealt_nb` from any turn's start (its arrays as ``begin_turn_nb`` takes
    them, ``known`` the cards each hand is known to hold and ``pool`` the cards the stock may hold, as
    :func:`sample_world_nb` reads them; ``hist`` and ``bdelta`` each seat's last finished turn, as
    :func:`note_turn_nb` keeps them), until the round ends or turn ``stop`` is to begin (-1: no stop): the
    step API plays a search seat's turn here, stopped at the next turn (``state_policies.searched_turn``)."""
    P = o[OPT.players]
    n_cards = 104 + o[OPT.n_jokers]
    out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    scratch = new_scratch_nb()
    w_hands = np.zeros((P, HAND_W), np.int64)
    w_deck = np.zeros(DECK_MAX, np.int64)
    inst = np.zeros(DECK_MAX, np.int64)
    x_hands = np.zeros((P, HAND_W), np.int64)
    x_deck = np.zeros(DECK_MAX, np.int64)
    x_pile = np.zeros(DECK_MAX, np.int64)
    x_table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    x_seats = np.zeros((3, P), np.int64)
    snap = (np.zeros((P, HAND_W), np.int64), np.zeros(DECK_MAX, np.int64), np.zeros(DECK_MAX, np.int64),
            np.zeros((MAX_MELDS, MELD_W), np.int64), np.zeros((3, P), np.int64), np.zeros(SC_W, np.int64))
    x_sc = np.zeros(SC_W, np.int64)
    x_out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    before = np.zeros(HAND_W, np.int64)
    cands = np.zeros(HAND_W, np.int64)
    totals = np.zeros(HAND_W, np.float64)
    wres = np.zeros((4, P), np.int64)
    n_pool = POOL_FACTOR * worlds if eps.max() > 0.0 else 0  # the inference's scratch, held for the whole round
    pool_states = np.zeros(n_pool, np.uint64)
    cumulative = np.zeros(n_pool, np.float64)
    pool_factors = np.zeros((n_pool, P), np.float64)
    factors = np.zeros(P, np.float64)
    tmp = np.zeros(HAND_W, np.int64)
    mi = 0
    while sc[S_T] != stop:
        recycled = sc[S_RECYCLED]
        state, going = begin_turn_nb(state, sc, o, hands, deck, pile, table, seats, out, scratch, log)
        if not going:
            break
        if sc[S_RECYCLED] != recycled:  # the stock now holds only the recycled cards
            pool[:] = 0
            for j in range(sc[S_SP], n_cards):
                pool[deck[j]] += 1
        seat = sc[S_SEAT]
        t = sc[S_T]
        pol = pols[seat]
        searching, oracle = pol == SEARCH or pol == POLICY.ORACLE, pol == POLICY.ORACLE
        play = POLICY.HEURISTIC if searching else builtin_of(pol)
        before[:] = hands[seat]
        eligible = eligible_nb(sc, o, hands[seat], pile)
        top = pile[sc[S_NPILE] - 1] if sc[S_NPILE] > 0 else -1
        was_opened = seats[OPENED, seat]
        usable = sc[S_PLAN] != PLAN_NONE
        offered = sc[S_OFFERED] != 0
        state, take = choose_draw(play, state, usable, offered)
        if pol == USER and offered:
            answer = user_draw(user_fn, fault, seat, hands[seat], pile[sc[S_NPILE] - 1], usable,
                               seats[OPENED, seat] != 0, sc[S_CLOSE] != 0, o)
            if answer >= 0:
                take = answer == 1
        if searching and offered:
            cands[0] = 0
            cands[1] = 1
            fallback = 1 if take else 0  # not inline in the call: Numba refuses branches in a call this long
            take = search_nb(search_state(seed, key, (round_key * TURN_KEY + t) * 2 + PHASE_DRAW), seat, PHASE_DRAW,
                             cands, 2, fallback, o, rollout, worlds, oracle, hands, deck, pile, table, seats,
                             sc, known, pool, w_hands, w_deck, inst, snap, x_hands, x_deck, x_pile, x_table, x_seats,
                             x_sc, x_out, scratch, wres, totals, eps[seat], hist, bdelta, pool_states, cumulative,
                             pool_factors, factors, tmp) == 1
            if means.shape[0] > 0:
                mi = record_means(means, mi, t, seat, PHASE_DRAW, cands, 2, totals)
        draw_nb(sc, take, o, hands, deck, pile, seats, log)
        tk = sc[S_TK]
        drawn = sc[S_DRAWN]
        state, gone = table_actions_nb(state, sc, o, play, hands, table, seats, out, scratch, log, pol == USER,
                                       user_fn, fault)
        if gone:
            update_known(known, seat, before, hands[seat], tk, drawn, sc[S_RETRIEVED])
            break
        hand = hands[seat]
        state, k = choose_discard(play, state, hand, sc[S_FORBIDDEN], table, sc[S_NT], seats[OPENED, seat], o,
                                  sc[S_CLOSE] != 0, out, scratch)
        if pol == USER:
            k = user_discard(user_fn, fault, seat, hand, sc[S_FORBIDDEN], seats[OPENED, seat] != 0, sc[S_CLOSE] != 0, o)
        if searching:
            n = shortlist_nb(hand, sc[S_FORBIDDEN], k, table, sc[S_NT], seats[OPENED, seat], o, sc[S_CLOSE] != 0,
                             cands, shortlist)
            if n > 1:
                k = search_nb(search_state(seed, key, (round_key * TURN_KEY + t) * 2 + PHASE_DISCARD), seat,
                              PHASE_DISCARD, cands, n, k, o, rollout, worlds, oracle, hands, deck, pile, table,
                              seats, sc, known, pool, w_hands, w_deck, inst, snap, x_hands, x_deck, x_pile, x_table,
                              x_seats, x_sc, x_out, scratch, wres, totals, eps[seat], hist, bdelta, pool_states,
                              cumulative, pool_factors, factors, tmp)
                if means.shape[0] > 0:
                    mi = record_means(means, mi, t, seat, PHASE_DISCARD, cands, n, totals)
        close = sc[S_CLOSE]
        ended = discard_nb(sc, k, o, hands, pile, log)
        update_known(known, seat, before, hands[seat], tk, drawn, sc[S_RETRIEVED])
        note_turn_nb(hist, bdelta, seat, eligible, top, tk, sc[S_TK_USED], k, close, was_opened, before, hands[seat],
                     drawn)
        if ended:
            break
    turns, blocked, rami_sec = finish_round_nb(sc, o, hands, seats, res)
    return state, turns, blocked, rami_sec, sc[S_LI], mi


@njit(cache=True, parallel=True)
def play_search_rounds_nb(seed, deals, o, pols, worlds, rollout, shortlist, eps, dealer, turns, blocked, rami_sec, won,
                          opened, hand_value, score, logs, log_rows, decks, means, mean_rows, user_fn, faults):
    """The rounds numbered ``deals`` (round ``i`` from ``deal_state(seed, i)``, dealt by seat ``i % n``).

    ``logs``, ``decks`` and ``means`` (MEAN_ROWS x MEAN_W per round) are filled when they have
    one row per round. Parallel over rounds: a searched round is long enough to be a work item.
    """
    P = o[OPT.players]
    record = logs.shape[0] > 0
    for d in prange(deals.shape[0]):
        deal = deals[d]
        dl = deal % P
        res = np.zeros((4, P), np.int64)
        log = logs[d] if record else np.zeros((0, LOG_W), np.int64)
        deck_log = decks[d] if record else np.zeros(0, np.int64)
        mlog = means[d] if record else np.zeros((0, MEAN_W), np.float64)
        _, tn, bl, rs, li, mi = play_search_round_nb(seed, deal, 0, deal_state(seed, deal), dl, o, pols, worlds,
                                                     rollout, shortlist, eps, log, deck_log, res, mlog, user_fn,
                                                     faults[d])
        store_round_nb(d, dl, tn, bl, rs, res, dealer, turns, blocked, rami_sec, won, opened, hand_value, score)
        if record:
            log_rows[d] = li
            mean_rows[d] = mi


@njit(cache=True, parallel=True)
def play_search_games_nb(seed, first, count, o, pols, worlds, rollout, shortlist, eps, max_rounds, rounds, dealer,
                         turns, blocked, rami_sec, won, opened, hand_value, score, total, logs, log_rows, decks, means,
                         mean_rows, user_fn, faults):
    """Whole games as ``play_games_nb`` plays them, with search seats (same rows and streams); ``logs``,
    ``decks`` and ``means`` are filled by row when not empty, as ``play_search_rounds_nb`` fills them."""
    P = o[OPT.players]
    record = logs.shape[0] > 0
    for g in prange(count):
        res = np.zeros((4, P), np.int64)
        no_log = np.zeros((0, LOG_W), np.int64)
        no_deck = np.zeros(0, np.int64)
        no_means = np.zeros((0, MEAN_W), np.float64)
        totals = np.zeros(P, np.int64)
        state = deal_state(seed, first + g)
        state, dl = below_n(state, P)
        r = 0
        while True:
            if r == max_rounds:
                rounds[g] = max_rounds + 1
                break
            row = g * max_rounds + r
            log = logs[row] if record else no_log
            deck_log = decks[row] if record else no_deck
            mlog = means[row] if record else no_means
            state, tn, bl, rs, li, mi = play_search_round_nb(seed, first + g, r, state, dl, o, pols, worlds, rollout,
                                                             shortlist, eps, log, deck_log, res, mlog, user_fn,
                                                             faults[g])
            store_round_nb(row, dl, tn, bl, rs, res, dealer, turns, blocked, rami_sec, won, opened, hand_value, score)
            if record:
                log_rows[row] = li
                mean_rows[row] = mi
            for p in range(P):
                totals[p] += res[R_SCORE, p]
                total[row, p] = totals[p]
            r += 1
            dl = (dl + 1) % P
            if game_over_nb(totals, o[OPT.target]):
                rounds[g] = r
                break
