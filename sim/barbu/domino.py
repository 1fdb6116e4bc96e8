"""Barbu Domino: the one contract that is not a trick game, as Numba kernels over uint64 hands.

Rules as coded: ``docs/rules/barbu.md`` §4 (Domino), §3 (place scores), §7 items 6-8, 15, 17. Three
rule sets, chosen by an integer ``variant`` (§7 item 6):

``DOMINO_UPWARD`` (0, seed rule, default)
    Each suit is built upward, one card at a time, from the lowest card of that suit present in
    the deck (2, or 7 with 32 cards; 3♦/3♣ or 8♦/8♣ when those lows were removed — §7 item 15,
    computed from the union of the hands) up to the Ace. A card is playable iff it is the next
    card of its suit. Any suit may be opened at any time by its lowest card.

``DOMINO_FAN_TAN`` (1, Wikipedia/"Fan Tan")
    The declarer names a start rank ``r``. A suit is opened only by its card of rank ``r`` (or,
    when that card was removed from the deck, by the lowest card of the suit above ``r`` — §7
    item 15); once open it is built one card at a time both upward to the Ace and downward to
    the lowest card of the suit present in the deck. A card is playable iff it is the opener of
    an unopened suit, or one rank above the highest or one rank below the lowest card already
    played in its suit. ``start_rank = -1`` lets the declarer choose inside the kernel: the
    heuristic names the rank scoring highest on ``16 × (cards of that rank held) + (held cards
    chained to them in suit, up and down)``, ties to the lower rank; the random policy names a
    uniformly random rank of the deck.

``DOMINO_BGA_ADJACENT`` (2, current BGA help: "same rank as a played card, or same suit and one
rank above or below a played card")
    The first card of the deal may be any card. Afterwards a card is playable iff its rank
    equals the rank of any card already played (in any suit), or it is of the same suit and one
    rank above or below a card already played (Ace high only: A is adjacent to K, never to 2).

Common to all three (§4, §7 items 7, 8):

* Turn order is clockwise from the starter: the declarer (``starter_offset = 0``, default) or
  the player on the declarer's left (``starter_offset = 1``). Players with empty hands are
  skipped.
* A player holding a playable card must play one (their choice); otherwise they pass.
* In ``upward`` only, playing an Ace gives the same player another turn at once with the same
  obligations; if they then hold nothing playable the turn is a pass; if their hand is empty it
  ends. The extra turn rewards closing a suit, and only ``upward`` closes a suit with its Ace: in
  ``fan_tan`` the suit still builds downward, in ``bga_adjacent`` the King and the other Aces
  stay playable, so an Ace there is an ordinary card. With ``ace_replay_optional`` (``upward``)
  the player may decline that extra turn (our reading of the seed's "may play again"): the
  heuristic always takes it when it holds a playable card, the random policy flips a fair coin.
  Declining is only offered (and logged) when a playable card is held.
* A player who empties their hand takes the next finishing place; when only one player still
  holds cards they take the last place and the deal ends (their cards are never played).
* Seat ``p`` scores ``places[k]`` for finishing place ``k`` (0 = first); the facade builds
  ``places`` (``rules.domino_places``: with 3 players the last scores the table's third value,
  or its last value with ``domino_three_last='last_place'``).

No variant can deadlock: while the deal runs, some card of the frontier (the playable set of
the table) is always in somebody's hand.

Move log (``int8``, length ``domino_log_length(n, hand_size)``, or 0 to skip logging):

* ``moves[0]`` is a header: the start rank in effect (0 = 2 … 12 = Ace) for fan_tan, -1 for the
  other variants;
* then one event per turn of a player holding cards, in turn order: a card id (0..63) for a
  play, ``MOVE_PASS`` (-2) for a pass, ``MOVE_DECLINE`` (-3) for declining an Ace's extra turn;
* ``MOVE_NONE`` (-1) fills the unused tail.

The kernels keep the table as one ``frontier`` mask: the cards that may be played next (for
upward one bit per unfinished suit). A player's playable cards are ``hand & frontier``.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from cardlab.sim.cards import ACE, LANE, ONE, SUIT_LANE_MASK, ZERO, below, bit, ctz, lowest_card, popcount
from cardlab.sim.rng import below_n
from cardlab.sim.barbu.policies import POLICY, SUIT, random_card

DOMINO_UPWARD = 0
DOMINO_FAN_TAN = 1
DOMINO_BGA_ADJACENT = 2
DOMINO_VARIANTS = ("upward", "fan_tan", "bga_adjacent")

MOVE_NONE = -1
MOVE_PASS = -2
MOVE_DECLINE = -3

# Heuristic weights (see domino_heuristic_card).
GIFT_COST = 64
UNLOCK_GAIN = 16
ACE_BONUS = 256

REPLICATE = np.uint64(0x0001000100010001)
U1 = np.uint64(1)
U16, U32, U48 = np.uint64(16), np.uint64(32), np.uint64(48)


def domino_variant(variant) -> int:
    """Variant id from a name (``'upward'``, ``'fan_tan'``, ``'bga_adjacent'``) or an id."""
    if isinstance(variant, str):
        if variant not in DOMINO_VARIANTS:
            allowed = ", ".join(repr(v) for v in DOMINO_VARIANTS)
            raise ValueError(f"domino_rules: {variant!r} is not allowed; choose {allowed}")
        return DOMINO_VARIANTS.index(variant)
    if isinstance(variant, bool) or int(variant) not in range(len(DOMINO_VARIANTS)):
        raise ValueError(f"domino_rules: {variant!r} is not allowed; choose 0, 1 or 2 "
                         f"({', '.join(DOMINO_VARIANTS)})")
    return int(variant)


def domino_log_length(n: int, hand_size: int) -> int:
    """A safe length for one deal's move log: header + at most ``n`` turns per card played, + ``n``.

    Between two plays every other player passes at most once, plus one pass (or decline) of the
    player whose Ace gave an extra turn; so ``1 + (n * hand_size + 1) * (n + 1)`` always suffices.
    """
    return 1 + (n * hand_size + 1) * (n + 1)


# ---------------------------------------------------------------- table state


@njit(cache=True, error_model="numpy", inline="always")
def rank_spread(m):
    """Every card, in every suit, whose rank is the rank of some card of ``m``."""
    r = (m | (m >> U16) | (m >> U32) | (m >> U48)) & SUIT_LANE_MASK
    return r * REPLICATE


@njit(cache=True, error_model="numpy", inline="always")
def frontier_after(frontier, played, c, variant, deck, openers):
    """The frontier once card ``c`` of the frontier has been played.

    ``played`` is the mask of cards played before ``c``, ``deck`` the union of the dealt hands,
    ``openers`` one bit per suit: the card that opened (fan_tan/upward) that suit.
    """
    b = bit(c)
    if variant == DOMINO_BGA_ADJACENT:
        p = played | b
        return (rank_spread(p) | (p << U1) | (p >> U1)) & deck & ~p
    f = frontier & ~b
    oc = ctz(openers & SUIT[c // LANE])
    if c >= oc and c % LANE < ACE:
        f |= b << U1
    if c <= oc:
        f |= (b >> U1) & deck
    return f


@njit(cache=True, error_model="numpy")
def choose_start_rank_nb(hand, deck, policy, state):
    """Fan_tan: the declarer's start rank (see the module docstring). Returns (state, rank)."""
    lo = 12
    for s in range(4):
        m = deck & SUIT[s]
        if m != ZERO:
            r = lowest_card(m) - LANE * s
            if r < lo:
                lo = r
    if policy == POLICY.RANDOM:
        state, k = below_n(state, 13 - lo)
        return state, lo + k
    best = lo
    best_key = -1
    for r in range(lo, 13):
        key = 0
        for s in range(4):
            c = LANE * s + r
            if hand & bit(c) == ZERO:
                continue
            key += 16
            k = c + 1
            while k % LANE <= ACE and hand & bit(k) != ZERO:
                key += 1
                k += 1
            k = c - 1
            while k >= LANE * s and hand & bit(k) != ZERO:
                key += 1
                k -= 1
        if key > best_key:
            best_key = key
            best = r
    return state, best


# ---------------------------------------------------------------- policies


@njit(cache=True, error_model="numpy")
def domino_heuristic_card(hand, legal, frontier, played, variant, deck, openers):
    """The heuristic's card among ``legal`` (non-empty) playable cards.

    For each candidate ``c`` it looks at the cards that playing ``c`` newly makes playable
    (``opened``): those held by opponents are *gifts*, those in its own hand are *unlocks*.
    It plays the card with the highest ``ACE_BONUS·[c is an Ace that earns an extra turn] −
    GIFT_COST·gifts + UNLOCK_GAIN·unlocks + (own cards above c in its suit)``, ties to the lowest
    card id. So in ``upward`` it plays an Ace at once (an extra turn, and nothing opens above
    it), then a card whose
    successor it holds itself (a run: helps no one), and when it must open something for the
    others, the suit where it has the most cards still waiting above (progress it needs).
    Cost: a few bit operations per playable card.
    """
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    best = -1
    best_key = -(1 << 30)
    m = legal
    while m != ZERO:
        c = ctz(m)
        m &= m - ONE
        opened = frontier_after(frontier, played, c, variant, deck, openers) & ~frontier
        key = UNLOCK_GAIN * popcount(opened & hand) - GIFT_COST * popcount(opened & ~hand)
        key += popcount(hand & SUIT[c // LANE] & ~below(c + 1))
        if c % LANE == ACE and variant == DOMINO_UPWARD:
            key += ACE_BONUS
        if key > best_key:
            best_key = key
            best = c
    return best


def user_domino(domino_fn, fault, p, hands, n, legal, frontier, played, deck, may_decline, counts):
    """The move of seat ``p`` (a Numba seat) asked of the run's Domino function ``domino_fn`` (signature in
    :mod:`cardlab.sim.barbu.interface`): a card of ``legal``, ``MOVE_DECLINE`` (only when ``may_decline``: an Ace's
    optional extra turn), or -1: the heuristic makes the move. It is asked only when it has a choice (two playable
    cards, or a card and the decline). Its arguments: its hand, ``legal``, the table's ``frontier`` (every card that
    may be laid next), the cards laid, the cards unseen (the deck less the laid cards and its hand), each seat's card
    count clockwise from it (into ``counts``, scratch of length ``n``) and ``may_decline``. Any other answer is
    written to the deal's ``fault`` slot (seat + 1, move) and the heuristic moves instead, so the deal ends and the
    run can report it. A run without a Numba seat passes ``None``: no call is compiled at all."""
    raise NotImplementedError("called from kernels only")


@overload(user_domino, inline="always")
def _user_domino(domino_fn, fault, p, hands, n, legal, frontier, played, deck, may_decline, counts):
    if isinstance(domino_fn, types.NoneType):
        def no_seat(domino_fn, fault, p, hands, n, legal, frontier, played, deck, may_decline, counts):
            return MOVE_NONE
        return no_seat

    def seat(domino_fn, fault, p, hands, n, legal, frontier, played, deck, may_decline, counts):
        q = p
        for k in range(n):
            counts[k] = popcount(hands[q])
            q = q + 1 if q + 1 < n else 0
        hand = hands[p]
        c = domino_fn(hand, legal, frontier, played, deck & ~played & ~hand, counts, may_decline)
        if c == MOVE_NONE or (c == MOVE_DECLINE and may_decline):
            return c
        if c < 0 or c >= 64 or legal & bit(c) == ZERO:
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = c
            return MOVE_NONE
        return c
    return seat


def user_scratch(domino_fn, n):
    """The ``counts`` scratch of :func:`user_domino`: ``n`` integers, none in a run without a Numba seat."""
    raise NotImplementedError("called from kernels only")


@overload(user_scratch, inline="always")
def _user_scratch(domino_fn, n):
    if isinstance(domino_fn, types.NoneType):
        return lambda domino_fn, n: np.empty(0, np.int64)
    return lambda domino_fn, n: np.empty(n, np.int64)


# ---------------------------------------------------------------- one deal


@njit(cache=True, error_model="numpy", inline="always")
def _next_holder(hands, n, p):
    q = p + 1
    if q == n:
        q = 0
    while hands[q] == ZERO:
        q += 1
        if q == n:
            q = 0
    return q


@njit(cache=True, error_model="numpy")
def domino_start_nb(hands, n, declarer, variant, start_rank, starter_offset, policies, state, moves, scores):
    """Set up one Domino deal: clear ``scores`` and the log (header written), name the fan_tan start rank.

    Returns ``(state, deck, openers, frontier, first seat to play, players holding cards)``.
    """
    deck = ZERO
    for p in range(n):
        deck |= hands[p]
        scores[p] = 0
    for k in range(moves.shape[0]):
        moves[k] = MOVE_NONE
    openers = ZERO
    header = -1
    if variant == DOMINO_BGA_ADJACENT:
        frontier = deck
    else:
        r = 0
        if variant == DOMINO_FAN_TAN:
            r = start_rank
            if r < 0:
                state, r = choose_start_rank_nb(hands[declarer], deck, policies[declarer], state)
            header = r
        for s in range(4):
            m = deck & SUIT[s]
            if variant == DOMINO_FAN_TAN:
                m &= ~below(LANE * s + r)
            if m != ZERO:
                openers |= bit(lowest_card(m))
        frontier = openers
    if moves.shape[0] > 0:
        moves[0] = header
    active = 0
    for p in range(n):
        if hands[p] != ZERO:
            active += 1
    p = declarer + starter_offset
    while p >= n:
        p -= n
    if hands[p] == ZERO:
        p = _next_holder(hands, n, p)
    return state, deck, openers, frontier, p, active


@njit(cache=True, error_model="numpy", inline="always")
def domino_play_on_nb(hands, n, p, extra, frontier, played, deck, openers, active, place, variant,
                      ace_replay_optional, places, policies, first_move, stop_at_search, excluded, state, moves, k,
                      scores, domino_fn, fault, counts):
    """Play a Domino deal on from seat ``p``'s turn (log position ``k``) to its end.

    The seat to play makes ``first_move`` (a card, ``MOVE_DECLINE``, or ``MOVE_NONE``: its policy
    chooses); then each seat plays its ``policies`` entry (random, heuristic, or USER: the run's Domino
    function ``domino_fn`` where it has a choice, :func:`user_domino`, its first illegal move written to
    ``fault``, ``counts`` its scratch; None and empty arrays where no seat plays USER). With
    ``stop_at_search``, returns before a ``search`` seat's turn with a choice (two playable cards,
    or an Ace's optional extra turn) so the caller can search it, and before every turn of a seat of
    policy -1 (a seat of the step API's caller, which makes each of its moves, passes included). Every
    pass adds the frontier to ``excluded[p]`` (when ``excluded`` has rows): the seat has shown it holds
    none of those cards.
    The deal kernel, the search's rollouts and the searched deal all play through this loop.
    Returns ``(state, p, extra, frontier, played, active, place, k, finished)``.
    """
    log_len = moves.shape[0]
    track = excluded.shape[0] > 0
    forced = first_move
    idle = 0
    while active > 1:
        if stop_at_search and forced == MOVE_NONE and policies[p] < 0:
            return state, p, extra, frontier, played, active, place, k, False
        hand = hands[p]
        legal = hand & frontier
        if legal == ZERO:
            if track:
                excluded[p] |= frontier
            if k < log_len:
                moves[k] = MOVE_PASS
            k += 1
            idle += 1
            if idle > 2 * n:  # impossible: some frontier card is always held
                break
            extra = False
            p = _next_holder(hands, n, p)
            continue
        idle = 0
        if (stop_at_search and forced == MOVE_NONE and (policies[p] == POLICY.SEARCH or policies[p] == POLICY.ORACLE)
                and (legal & (legal - ONE) != ZERO or (extra and ace_replay_optional))):
            return state, p, extra, frontier, played, active, place, k, False
        if (forced == MOVE_NONE and policies[p] == POLICY.USER
                and (legal & (legal - ONE) != ZERO or (extra and ace_replay_optional))):
            forced = user_domino(domino_fn, fault, p, hands, n, legal, frontier, played, deck,
                                 extra and ace_replay_optional, counts)  # -1: the heuristic's move
        if extra and ace_replay_optional:
            decline = forced == MOVE_DECLINE
            if forced == MOVE_NONE and policies[p] == POLICY.RANDOM:
                state, coin = below_n(state, 2)
                decline = coin == 1
            if decline:
                if k < log_len:
                    moves[k] = MOVE_DECLINE
                k += 1
                extra = False
                forced = MOVE_NONE
                p = _next_holder(hands, n, p)
                continue
        if forced >= 0:
            c = forced
        elif policies[p] == POLICY.RANDOM:
            state, c = random_card(state, legal)
        else:
            c = domino_heuristic_card(hand, legal, frontier, played, variant, deck, openers)
        forced = MOVE_NONE
        frontier = frontier_after(frontier, played, c, variant, deck, openers)
        played |= bit(c)
        hand &= ~bit(c)
        hands[p] = hand
        if k < log_len:
            moves[k] = c
        k += 1
        if hand == ZERO:
            scores[p] = places[place]
            place += 1
            active -= 1
            extra = False
            if active == 1:
                q = _next_holder(hands, n, p)
                scores[q] = places[place]
                place += 1
                active -= 1
                break
            p = _next_holder(hands, n, p)
        elif c % LANE == ACE and variant == DOMINO_UPWARD:
            extra = True
        else:
            extra = False
            p = _next_holder(hands, n, p)
    return state, p, extra, frontier, played, active, place, k, True


@njit(cache=True, error_model="numpy")
def play_domino_nb(hands, n, declarer, variant, start_rank, starter_offset, ace_replay_optional, places,
                   policies, state, moves, scores, domino_fn, fault):
    """Play one Domino deal from ``hands`` (uint64[n], emptied in place as cards are played).

    Writes each seat's points (``places[k]`` for finishing place ``k``) into ``scores`` and,
    when ``moves.shape[0] > 0``, the move log described in the module docstring. ``domino_fn`` (a
    compiled callback, or None in a run without one) plays the USER seats' choices, its first illegal move
    going to ``fault`` (seat + 1, move). Returns the advanced random stream.
    """
    state, deck, openers, frontier, p, active = domino_start_nb(hands, n, declarer, variant, start_rank,
                                                               starter_offset, policies, state, moves, scores)
    no_excluded = np.empty(0, np.uint64)
    return domino_play_on_nb(hands, n, p, False, frontier, ZERO, deck, openers, active, 0, variant,
                             ace_replay_optional, places, policies, MOVE_NONE, False, no_excluded, state, moves, 1,
                             scores, domino_fn, fault, user_scratch(domino_fn, n))[0]


@njit(cache=True, error_model="numpy")
def domino_table_nb(dealt, n, variant, start_rank, laid):
    """The kernel's table of a Domino deal after the cards ``laid`` (in play order): ``domino_start_nb`` on the
    ``dealt`` hands (the deck, the suits' openers from the start rank, the first frontier), then each card through
    ``frontier_after``. Returns ``(deck, openers, frontier, played)``."""
    scores = np.zeros(n, np.int32)
    policies = np.zeros(n, np.int64)
    _, deck, openers, frontier, _, _ = domino_start_nb(dealt, n, 0, variant, start_rank, 0, policies,
                                                         np.uint64(0), np.empty(0, np.int8), scores)
    played = ZERO
    for c in laid:
        frontier = frontier_after(frontier, played, c, variant, deck, openers)
        played |= bit(c)
    return deck, openers, frontier, played


# ---------------------------------------------------------------- many deals
