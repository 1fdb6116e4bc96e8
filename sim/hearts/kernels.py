"""Hearts kernels: one deal from the pass to the score, batches of deals, whole games.

A deal in play is two small arrays, so that every loop (the plain deal here, the search's rollouts and
its searched deal) runs the same inline steps on them (:func:`play_out_nb`, which plays a deal to its end, holds
the trick's state in local variables meanwhile, for speed):

* ``cards`` (uint64): the hands (``0`` to ``players - 1``, room for five), the cards each seat has taken
  (``TAKEN + seat``), the cards played before the trick under way (``SEEN``) and those in it (``TRICK``);
* ``st`` (int64): the trick's leader, its cards so far, led suit, winning seat and card, the cards played in
  the deal, whether hearts are broken, the number of players and the tricks each seat has taken (``S_*``).

The number of players (3, 4 or 5) is the rules' ``R_PLAYERS``: its deck (``rules.deck_of``), the card that leads
(``R_LEAD``), the cards of a deal (``R_MOVES``) and the pass rotation follow from it; the loops run over it, with no
copy of any kernel per table size.

:func:`pass_nb` passes three cards a seat (after every seat has chosen), :func:`choose_nb` is a seat's
choice of card (random, heuristic or the run's Numba function), :func:`trick_step_nb` plays it into the trick
(:func:`move_nb` and :func:`put_card_nb` do both on the arrays, closing the trick), :func:`score_nb` scores the
deal (the moon, the J♦, the -5 for no trick). Deal ``i`` of a run is dealt from the stream ``(seed, i)`` and
passes by ``rules.pass_offset``; game ``g`` deals every deal from the one stream ``(seed, g)`` until a total reaches
the target. The stream also feeds the random seats' choices, in the order they are made: the passes seat by seat,
then the cards in play order.

Each deal writes one row (``C_*``: room for five seats, its number of players in ``C_PLAYERS``; :func:`row_fields`
picks a table's columns) and, when recording, the dealt hands and its move log (``HeartsOptions.log_width`` cards:
the passes, then the plays). A seat of policy :data:`USER` plays its
cards by the run's Numba function (``NUMBA_SEAT`` in the interface) and passes as the heuristic does.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from cardlab.sim.cards import LANE, ZERO, bit, ctz, popcount
from cardlab.sim.dealing import BLOCK, deal_hands_nb
from cardlab.sim.cards import highest_card
from cardlab.sim.hearts.policies import (HEART_CARDS, PENALTY_CARDS, QS_BIT, heuristic_card_nb, heuristic_pass_nb,
                                         legal_nb, random_card_nb, suit_cards)
from cardlab.sim.hearts.rules import (AVOID_ALL_TRICKS_POINTS, BY_POLICY, CYCLES, DECK, HEURISTIC_PASS,
                                      JACK_DIAMONDS, MAX_PLAYERS, PASS, PLAYERS, QUEEN_SPADES, R_AVOID, R_CYCLE,
                                      R_FIXED_PASS, R_JACK_POINTS, R_JD, R_LEAD, R_MAX_DEALS, R_MOVES, R_MUST_BREAK,
                                      R_PASS_CARDS, R_PLAYERS, R_QS_BREAKS, R_QUEEN_POINTS, R_SHOOTER_SUBTRACTS,
                                      R_TARGET, RANDOM_PASS, TABLE_SIZES, deck_of)
from cardlab.sim.policy import POLICY, SHARED_POLICIES
from cardlab.sim.rng import deal_state

#: The kernel id of a seat played by the run's own Numba function (:mod:`cardlab.sim.user`): after the shared ids.
USER = len(SHARED_POLICIES)
RANDOM, HEURISTIC = POLICY.RANDOM, POLICY.HEURISTIC

# cards[]: hands 0-4, then:
TAKEN, SEEN, TRICK, PASSED, N_CARDS_ROWS = 5, 10, 11, 12, 17  # PASSED + seat: scratch for the cards it passes
# st[]:
S_LEADER, S_N, S_LED, S_WIN_SEAT, S_WIN_CARD, S_COUNT, S_BROKEN, S_PLAYERS, S_TRICKS = range(9)
N_ST = S_TRICKS + MAX_PLAYERS
# A deal's row: five seats' room for each per-seat figure; C_PLAYERS the table's size (not a column).
C_PASS, C_LEADER, C_POINTS, C_TRICKS, C_HEARTS, C_QUEEN, C_JACK, C_MOON, C_PLAYERS, N_COLS = 0, 1, 2, 7, 12, 17, 18, \
    19, 20, 21
GAME_SLOT = 32  # deals kept per game in the games kernel's buffer; longer games are replayed alone


def user_seat(fn, policy):
    """Whether the seat of ``policy`` is played by the run's Numba function ``fn``: ``policy`` is :data:`USER`.
    In a run without one (``fn`` is None) it is the constant False, and the branch it guards is compiled away."""
    raise NotImplementedError("called from kernels only")


@overload(user_seat, inline="always")
def _user_seat(fn, policy):
    if isinstance(fn, types.NoneType):
        return lambda fn, policy: False
    return lambda fn, policy: policy == USER


def user_card(card_fn, fault, p, hand, legal, n, led, win_card, trick, seen, broken):
    """The card of seat ``p`` played by the run's Numba function ``card_fn``, called as ``card(hand, legal, n, led,
    win_card, trick, seen, broken)`` (the interface's ``NUMBA_SEAT``). A card outside ``legal`` is written to the
    deal's ``fault`` slot (seat + 1, card) and replaced by the lowest legal card, so the deal ends and the run can
    report it. Without a Numba seat (``card_fn`` None) it is -1, compiled to nothing."""
    raise NotImplementedError("called from kernels only")


@overload(user_card, inline="always")
def _user_card(card_fn, fault, p, hand, legal, n, led, win_card, trick, seen, broken):
    if isinstance(card_fn, types.NoneType):
        return lambda card_fn, fault, p, hand, legal, n, led, win_card, trick, seen, broken: -1

    def seat(card_fn, fault, p, hand, legal, n, led, win_card, trick, seen, broken):
        c = card_fn(hand, legal, n, led, win_card, trick, seen, broken)
        if c < 0 or c >= 64 or legal & bit(c) == ZERO:
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = c
            return ctz(legal)
        return c
    return seat


def row_fields(out: np.ndarray) -> tuple:
    """``(players, indices)``: the number of players of the kernels' rows ``out`` (4 without rows) and their columns
    in the declared order (pass, leader, each seat's points, tricks, hearts, then queen, jack, moon)."""
    n = int(out.reshape(-1, N_COLS)[0, C_PLAYERS]) if out.size else PLAYERS
    seats = list(range(n))
    return n, [C_PASS, C_LEADER] + [C_POINTS + p for p in seats] + [C_TRICKS + p for p in seats] + [
        C_HEARTS + p for p in seats] + [C_QUEEN, C_JACK, C_MOON]


#: Row ``n - 3``: the rotation of ``n`` players (``rules.CYCLES``), padded.
CYCLE_OFFSETS = np.array([list(CYCLES[n]) + [0] * (MAX_PLAYERS - n) for n in TABLE_SIZES], np.int64)
DECK3, DECK5 = deck_of(3), deck_of(5)  # DECK is four players'


@njit(cache=True, error_model="numpy", inline="always")
def deal_offset_nb(rules, k):
    """Where deal ``k`` (of a run, or of a game) passes: an offset of ``rules.PASS_NAMES`` (with ``n`` players, entry
    ``k % n`` of their rotation)."""
    if not rules[R_PASS_CARDS]:
        return 0
    if rules[R_CYCLE]:
        n = rules[R_PLAYERS]
        if n == 4:  # a division by a constant: no division instruction
            return CYCLE_OFFSETS[1, k % 4]
        return CYCLE_OFFSETS[n - 3, k % n]
    return rules[R_FIXED_PASS]


@njit(cache=True, error_model="numpy", inline="always")
def deal_nb(rules, stream, scratch, hands):
    """Deal the rules' deck (four players the 52 cards, three without the 2♦, five without the 2♦ and 2♣) to its
    players from ``stream`` into ``hands`` (``dealing.deal_hands_nb``). Returns the stream."""
    n = rules[R_PLAYERS]
    if n == 4:
        return deal_hands_nb(stream, DECK, scratch, 4, hands)
    return deal_hands_nb(stream, DECK3 if n == 3 else DECK5, scratch, n, hands)


@njit(cache=True, error_model="numpy", inline="always")
def start_nb(rules, cards, st):
    """Set up the play once the hands are final: nothing taken or played, the 2♣'s holder (the lead card's, the 3♣
    with five players) to lead."""
    start_at_nb(rules, cards, st, rules[R_PLAYERS])


@njit(cache=True, error_model="numpy", inline="always")
def start_at_nb(rules, cards, st, n):
    """:func:`start_nb` at a table of ``n``."""
    lead = bit(rules[R_LEAD])
    st[S_PLAYERS] = n
    for p in range(n):
        cards[TAKEN + p] = ZERO
        st[S_TRICKS + p] = 0
        if cards[p] & lead != ZERO:
            st[S_LEADER] = p
    cards[SEEN] = ZERO
    cards[TRICK] = ZERO
    st[S_N] = 0
    st[S_LED] = -1
    st[S_WIN_SEAT] = -1
    st[S_WIN_CARD] = -1
    st[S_COUNT] = 0
    st[S_BROKEN] = 0 if rules[R_MUST_BREAK] else 1


@njit(cache=True, error_model="numpy", inline="always")
def pass_choice_nb(rule, hand, chosen, k, stream):
    """The ``k``-th card (0-2) passed from the dealt ``hand`` under pass rule ``rule`` (``rules.PASS_RULES``), the
    cards ``chosen`` already gone: the heuristic's; the highest (the higher suit first among equal ranks); the
    lowest; the highest of the shortest suit (the higher suit on a tie); a random one from ``stream``.
    Returns ``(stream, card)``."""
    rest = hand & ~chosen
    if rule == HEURISTIC_PASS:
        return stream, heuristic_pass_nb(hand, k)
    if rule == RANDOM_PASS:
        return random_card_nb(stream, rest)
    if rule == 3:
        best, length = -1, 99
        for suit in range(3, -1, -1):
            m = popcount(rest & suit_cards(suit))
            if 0 < m < length:
                best, length = suit, m
        return stream, highest_card(rest & suit_cards(best))
    for i in range(13):
        rank = 12 - i if rule == 1 else i
        for j in range(4):
            c = LANE * (3 - j if rule == 1 else j) + rank
            if rest & bit(c) != ZERO:
                return stream, c
    return stream, -1


#: Every seat passes as its policy does (``pass_nb``'s ``pass_rules`` outside the passing study).
BY_POLICY_RULES = np.full(MAX_PLAYERS, BY_POLICY, np.int64)


@njit(cache=True, error_model="numpy", inline="always")
def pass_nb(cards, n, offset, policies, stream, log, pass_rules):
    """Every one of the ``n`` seats chooses three cards of its dealt hand, by its ``pass_rules`` entry
    (``rules.PASS_RULES``) or, at -1, as its policy does (the heuristic's most dangerous; a random seat random ones
    drawn from ``stream`` seat by seat; a Numba seat as the heuristic), then each seat's go to seat + ``offset`` (mod
    ``n``); the choices go to the log's first ``3 n`` entries (when it has any). Returns the stream."""
    if offset == 0:
        return stream
    for p in range(n):
        hand = cards[p]
        rule = pass_rules[p]
        if rule == BY_POLICY:
            rule = RANDOM_PASS if policies[p] == RANDOM else HEURISTIC_PASS
        cards[PASSED + p] = ZERO
        for k in range(PASS):
            stream, c = pass_choice_nb(rule, hand, cards[PASSED + p], k, stream)
            cards[PASSED + p] |= bit(c)
            if log.shape[0] > 0:
                log[PASS * p + k] = c
    for p in range(n):
        cards[p] &= ~cards[PASSED + p]
    for p in range(n):
        to = p + offset
        cards[to - n if to >= n else to] |= cards[PASSED + p]
    return stream


@njit(cache=True, error_model="numpy", inline="always")
def to_move(st):
    """The seat to play."""
    p = st[S_LEADER] + st[S_N]
    return p - st[S_PLAYERS] if p >= st[S_PLAYERS] else p


@njit(cache=True, error_model="numpy", inline="always")
def legal_now(rules, cards, st):
    """The cards the seat to move may play."""
    return legal_nb(rules, cards[to_move(st)], st[S_N], st[S_LED], st[S_COUNT], st[S_BROKEN] != 0, st[S_PLAYERS])


@njit(cache=True, error_model="numpy", inline="always")
def choose_nb(rules, policy, p, hand, legal, n, led, win_card, trick, seen, broken, stream, card_fn, fault, players):
    """The card seat ``p`` plays from ``legal`` under ``policy`` (random from ``stream``, the heuristic, or the
    run's Numba function), as the ``n``-th card of the trick of ``players``: ``(stream, card)``."""
    if policy == RANDOM:
        return random_card_nb(stream, legal)
    if user_seat(card_fn, policy):
        return stream, user_card(card_fn, fault, p, hand, legal, n, led, win_card, trick, seen, broken)
    return stream, heuristic_card_nb(hand, legal, n, win_card, trick, seen, players)


@njit(cache=True, error_model="numpy", inline="always")
def move_nb(rules, policy, cards, st, stream, card_fn, fault):
    """The card of the seat to move under ``policy`` (:func:`choose_nb`): ``(stream, card)``."""
    p = to_move(st)
    return choose_nb(rules, policy, p, cards[p], legal_now(rules, cards, st), st[S_N], st[S_LED], st[S_WIN_CARD],
                     cards[TRICK], cards[SEEN], st[S_BROKEN] != 0, stream, card_fn, fault, st[S_PLAYERS])


@njit(cache=True, error_model="numpy", inline="always")
def trick_step_nb(qs_breaks, c, p, n, led, win_seat, win_card, broken):
    """Seat ``p`` plays ``c`` as the ``n``-th card of the trick: it leads or follows, the highest card of the led
    suit wins, and a heart (or the Q♠ when it ``qs_breaks`` hearts) breaks hearts. Returns the new ``(led,
    win_seat, win_card, broken)``."""
    suit = c // LANE
    if n == 0:
        led, win_seat, win_card = suit, p, c
    elif suit == led and c > win_card:
        win_seat, win_card = p, c
    if suit == 2 or (qs_breaks and c == QUEEN_SPADES):
        broken = 1
    return led, win_seat, win_card, broken


@njit(cache=True, error_model="numpy", inline="always")
def put_card_nb(rules, cards, st, c):
    """The seat to move plays ``c`` (:func:`trick_step_nb`); the trick's last card (one a player) gives it to its
    winner, who leads next."""
    p = to_move(st)
    cards[p] &= ~bit(c)
    cards[TRICK] |= bit(c)
    st[S_LED], st[S_WIN_SEAT], st[S_WIN_CARD], st[S_BROKEN] = trick_step_nb(
        rules[R_QS_BREAKS] != 0, c, p, st[S_N], st[S_LED], st[S_WIN_SEAT], st[S_WIN_CARD], st[S_BROKEN])
    st[S_N] += 1
    st[S_COUNT] += 1
    if st[S_N] == st[S_PLAYERS]:
        w = st[S_WIN_SEAT]
        cards[TAKEN + w] |= cards[TRICK]
        cards[SEEN] |= cards[TRICK]
        cards[TRICK] = ZERO
        st[S_TRICKS + w] += 1
        st[S_LEADER] = w
        st[S_N] = 0
        st[S_LED] = -1
        st[S_WIN_SEAT] = -1
        st[S_WIN_CARD] = -1


@njit(cache=True, error_model="numpy", inline="always")
def play_out_nb(rules, policies, cards, st, stream, log, card_fn, fault):
    """Play the deal from where it stands to its last card, each seat by its policy; the cards go to the log's
    play part (when it has entries). Returns the stream.

    The moves are :func:`play_out_at_nb`'s, inlined twice: with the constant 4 (OpenSpiel's table, whose seat
    arithmetic then compiles as it did when 4 was the only table) and with the table's size read from ``st``. Measured
    (``benchmarks/bench_hearts.py``, one thread, kernel deals per CPU-second, medians of three runs, old and new in
    turns, load 2 to 4 on two cores): with the size read from ``st`` at every table four players' heuristic deals ran
    about 12% slower than the four-only kernel (726,000 against 824,000); with the constant 4 to 5% slower (heuristic
    778,000 against 814,000, random 783,000 against 828,000), a gap not traced further."""
    players = st[S_PLAYERS]
    if players == 4:
        return play_out_at_nb(rules, policies, cards, st, stream, log, card_fn, fault, 4, 52)
    return play_out_at_nb(rules, policies, cards, st, stream, log, card_fn, fault, players, rules[R_MOVES])


@njit(cache=True, error_model="numpy", inline="always")
def play_out_at_nb(rules, policies, cards, st, stream, log, card_fn, fault, players, moves):
    """:func:`play_out_nb` at a table of ``players``, whose deal plays ``moves`` cards.

    The moves are :func:`put_card_nb`'s (the same :func:`choose_nb` and :func:`trick_step_nb`), with the trick's
    state held in local variables from the first card to the last and written back to ``st`` at the end, and the
    ``qs_breaks_hearts`` rule read once: a store to one of the arrays obliges the compiled code to read every other
    array again, so when each card went through ``st`` and ``rules`` the memory traffic was the cost. Measured
    (``benchmarks/bench_hearts.py``, one thread, 2026-12-03, old and new in turns): random play 755,000 deals/s
    against 427,000, heuristic 722,000 against 427,000, the same rows."""
    leader, n, led, win_seat, win_card = st[S_LEADER], st[S_N], st[S_LED], st[S_WIN_SEAT], st[S_WIN_CARD]
    count, broken, trick, seen = st[S_COUNT], st[S_BROKEN], cards[TRICK], cards[SEEN]
    qs_breaks = rules[R_QS_BREAKS] != 0
    plays_at = PASS * players  # the log's first play
    while count < moves:
        p = (leader + n) % players
        hand = cards[p]
        legal = legal_nb(rules, hand, n, led, count, broken != 0, players)
        stream, c = choose_nb(rules, policies[p], p, hand, legal, n, led, win_card, trick, seen, broken != 0, stream,
                              card_fn, fault, players)
        if log.shape[0] > 0:
            log[plays_at + count] = c
        cards[p] = hand & ~bit(c)
        trick |= bit(c)
        led, win_seat, win_card, broken = trick_step_nb(qs_breaks, c, p, n, led, win_seat, win_card, broken)
        n += 1
        count += 1
        if n == players:
            cards[TAKEN + win_seat] |= trick
            st[S_TRICKS + win_seat] += 1
            seen |= trick
            trick = ZERO
            leader, n, led, win_seat, win_card = win_seat, 0, -1, -1, -1
    st[S_LEADER], st[S_N], st[S_LED], st[S_WIN_SEAT], st[S_WIN_CARD] = leader, n, led, win_seat, win_card
    st[S_COUNT], st[S_BROKEN], cards[TRICK], cards[SEEN] = count, broken, trick, seen
    return stream


@njit(cache=True, error_model="numpy", inline="always")
def seat_points_nb(rules, taken):
    """Points of the cards ``taken``: 1 a heart, ``queen_points`` the Q♠, minus ``jack_points`` the J♦ with
    ``jd_bonus``."""
    points = popcount(taken & HEART_CARDS)
    if taken & QS_BIT != ZERO:
        points += rules[R_QUEEN_POINTS]
    if rules[R_JD] and taken & bit(JACK_DIAMONDS) != ZERO:
        points -= rules[R_JACK_POINTS]
    return points


@njit(cache=True, error_model="numpy", inline="always")
def score_nb(rules, cards, st, row):
    """Score a finished deal into ``row`` (``C_POINTS`` ... ``C_MOON``): each seat's points, then the moon (a seat
    that took every heart and the Q♠ scores their worth, 13 + ``queen_points``, less, and every other seat that much
    more; or, with ``moon_scoring="shooter_subtracts"``, the shooter twice that less and the others nothing more)
    or, without a moon and with ``avoid_all_tricks_bonus``, -5 to each seat that took no trick."""
    score_at_nb(rules, cards, st, row, rules[R_PLAYERS])


@njit(cache=True, error_model="numpy", inline="always")
def score_at_nb(rules, cards, st, row, n):
    """:func:`score_nb` at a table of ``n``."""
    moon = -1
    worth = 13 + rules[R_QUEEN_POINTS]
    row[C_PLAYERS] = n
    for p in range(n):
        taken = cards[TAKEN + p]
        row[C_POINTS + p] = seat_points_nb(rules, taken)
        row[C_TRICKS + p] = st[S_TRICKS + p]
        row[C_HEARTS + p] = popcount(taken & HEART_CARDS)
        if taken & QS_BIT != ZERO:
            row[C_QUEEN] = p
        if taken & bit(JACK_DIAMONDS) != ZERO:
            row[C_JACK] = p
        if taken & PENALTY_CARDS == PENALTY_CARDS:
            moon = p
    row[C_MOON] = moon
    for p in range(n):
        if moon >= 0:
            if rules[R_SHOOTER_SUBTRACTS]:
                row[C_POINTS + p] -= 2 * worth if p == moon else 0
            else:
                row[C_POINTS + p] += -worth if p == moon else worth
        elif rules[R_AVOID] and st[S_TRICKS + p] == 0:
            row[C_POINTS + p] += AVOID_ALL_TRICKS_POINTS


@njit(cache=True, error_model="numpy", inline="always")
def play_deal_nb(rules, policies, stream, offset, cards, st, row, hands_log, log, card_fn, fault):
    """One deal from the dealt hands in ``cards`` (their copy goes to ``hands_log`` when it has entries): the
    pass to seat + ``offset``, every card, the score into ``row``. Returns the stream.

    Its steps are :func:`play_deal_at_nb`'s, inlined with the constant 4 (OpenSpiel's table: its seat arithmetic
    compiles without a division, as when four was the only table) and with the rules' table size, as
    :func:`play_out_nb`'s."""
    n = rules[R_PLAYERS]
    if n == 4:
        return play_deal_at_nb(rules, policies, stream, offset, cards, st, row, hands_log, log, card_fn, fault, 4,
                               52)
    return play_deal_at_nb(rules, policies, stream, offset, cards, st, row, hands_log, log, card_fn, fault, n,
                           rules[R_MOVES])


@njit(cache=True, error_model="numpy", inline="always")
def play_deal_at_nb(rules, policies, stream, offset, cards, st, row, hands_log, log, card_fn, fault, n, moves):
    """:func:`play_deal_nb` at a table of ``n``, whose deal plays ``moves`` cards."""
    if hands_log.shape[0] > 0:
        for p in range(n):
            hands_log[p] = cards[p]
    if log.shape[0] > 0:
        log[:] = -1
    stream = pass_nb(cards, n, offset, policies, stream, log, BY_POLICY_RULES)
    start_at_nb(rules, cards, st, n)
    row[C_PASS] = offset
    row[C_LEADER] = st[S_LEADER]
    stream = play_out_at_nb(rules, policies, cards, st, stream, log, card_fn, fault, n, moves)
    score_at_nb(rules, cards, st, row, n)
    return stream


# The block's kind of run, typed (a literal True or False would compile the block once for each)
SINGLE_DEALS, WHOLE_GAMES = np.bool_(False), np.bool_(True)


@njit(cache=True, error_model="numpy", nogil=True)
def play_block_nb(seed, first, lo, hi, rules, policies, out, totals, lengths, hands_log, logs, card_fn, faults,
                  whole_games):
    """Deals, or with ``whole_games`` games, ``first + lo .. first + hi - 1`` of :func:`play_deals_nb` or
    :func:`play_games_nb` on one thread, in the games' layout (a single deal is a game of one deal: ``out``
    count x 1 x N_COLS). One block serves both kernels, so the deal, inlined here, is compiled once, where a block
    each compiled it twice."""
    cards = np.zeros(N_CARDS_ROWS, np.uint64)
    st = np.zeros(N_ST, np.int64)
    scratch = np.empty(DECK.shape[0], np.int8)
    sums = np.zeros(MAX_PLAYERS, np.int64)
    record = logs.shape[0] > 0
    no_hands, no_log = np.zeros(0, np.uint64), np.zeros(0, np.int8)
    slot = out.shape[1]
    for j in range(lo, hi):
        i = first + j
        stream = deal_state(np.uint64(seed), np.uint64(i))
        sums[:] = 0
        k = 0
        while True:
            stream = deal_nb(rules, stream, scratch, cards)
            row = out[j, min(k, slot - 1)]
            row[C_QUEEN] = -1
            row[C_JACK] = -1
            stream = play_deal_nb(rules, policies, stream, deal_offset_nb(rules, k if whole_games else i), cards, st,
                                  row, hands_log[j, k] if record else no_hands, logs[j, k] if record else no_log,
                                  card_fn, faults[j])
            k += 1
            if not whole_games or game_over_nb(rules, row, sums, totals[j, min(k - 1, slot - 1)], k):
                break
        if whole_games:
            lengths[j] = k


@njit(cache=True, error_model="numpy", parallel=True)
def play_deals_nb(seed, first, count, rules, policies, out, hands_log, logs, card_fn, faults):
    """Play deals ``first .. first+count-1`` into ``out`` (count x N_COLS, int16, C-contiguous) in parallel;
    ``hands_log`` (count x players) and ``logs`` (count x log_width) are filled when they have rows; ``faults``
    (count x 2, zeros) receives each deal's first illegal card of the run's Numba function (seat + 1, card). The
    arrays are viewed as games of one deal (:func:`play_block_nb`)."""
    rows = out.reshape(count, 1, out.shape[1])
    hands = hands_log.reshape(hands_log.shape[0], 1, hands_log.shape[1])
    deal_logs = logs.reshape(logs.shape[0], 1, logs.shape[1])
    no_totals, no_lengths = np.zeros((0, 1, MAX_PLAYERS), np.int16), np.zeros(0, np.int64)  # as the games'
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        play_block_nb(seed, first, b * BLOCK, min(count, (b + 1) * BLOCK), rules, policies, rows, no_totals,
                      no_lengths, hands, deal_logs, card_fn, faults, SINGLE_DEALS)


GAME_BLOCK = 64  # games per parallel work item


@njit(cache=True, error_model="numpy", inline="always")
def game_over_nb(rules, row, sums, totals, k):
    """Add a finished deal's points (its ``row``) to the game's ``sums`` and record them in ``totals``; whether the
    game ends after its ``k``-th deal: a total at the target, or ``max_deals`` deals played."""
    top = -1_000_000
    for p in range(rules[R_PLAYERS]):
        sums[p] += row[C_POINTS + p]
        totals[p] = sums[p]
        top = max(top, sums[p])
    return top >= rules[R_TARGET] or k >= rules[R_MAX_DEALS]


@njit(cache=True, error_model="numpy", parallel=True)
def play_games_nb(seed, first, count, rules, policies, out, totals, lengths, hands_log, logs, card_fn, faults):
    """Play whole games ``first .. first+count-1``: game ``g`` deals from the stream ``(seed, g)``, deal ``k`` passing
    by ``k``, until a seat's total reaches the target. ``out`` (count x slot x N_COLS) and ``totals`` (count x slot x
    players, the running totals) keep each game's first ``slot`` deals, ``lengths`` its number of deals (a longer game is
    replayed alone with a larger slot); ``hands_log`` and ``logs`` (count x max_deals x ...) when they have rows."""
    n_blocks = (count + GAME_BLOCK - 1) // GAME_BLOCK
    for b in prange(n_blocks):
        play_block_nb(seed, first, b * GAME_BLOCK, min(count, (b + 1) * GAME_BLOCK), rules, policies, out, totals,
                      lengths, hands_log, logs, card_fn, faults, WHOLE_GAMES)
