"""Euchre-for-five kernels: one hand from the deal to the score, batches of hands, whole games.

A hand (:func:`play_hand_nb`) runs the state machine of the rules: round one from the seat
left of the dealer to the dealer (pass or accept the upcard's suit); the dealer's exchange
(pick up the upcard, discard one card face down); round two (pass or name another suit, the
dealer stuck when ``stick_the_dealer``); the maker's call (a card, or alone) before or after
the exchange; five tricks led first by the seat left of the dealer, following by effective
suit; the §6 score. Effective suits are bit masks: ``SUIT_MASKS[t, s]`` holds the cards of
effective suit ``s`` under trump ``t``, so the left bower moves into the trump mask and out of
its printed suit, and following is ``hand & SUIT_MASKS[t, led]``.

Each rule is one inline step (:func:`bid_nb` and its :func:`accept_step_nb`, :func:`name_step_nb`;
:func:`discard_step_nb`; :func:`decide_call_nb`; :func:`partner_nb`; :func:`lead_step_nb`,
:func:`follow_step_nb`, :func:`put_lead_nb`, :func:`put_follow_nb` in :func:`play_tricks_inline`;
:func:`score_hand_nb`), and every hand is played with them: the plain hand here, the search's
rollouts (:func:`bid_nb` and :func:`play_tricks_inline` themselves) and the searched hand of
``search.py``, where a search seat is another decision at the same step.

A seat of policy :data:`USER` is played by the run's own Numba functions (:mod:`cardlab.sim.user`): its cards
with a choice (:func:`user_card`) and its bids (:func:`user_bid`, -1 leaving a bid to the heuristic); its
exchange and call are the heuristic's. A run without one passes None for them, and the kernels are then
compiled without the branch (:func:`user_seat`).

Batches: :func:`play_deals_nb` plays hands ``first .. first+count-1`` in parallel, hand ``i``
dealt by seat ``i % 5`` from the stream of ``(seed, i)``; :func:`play_games_nb` plays whole
games, game ``g`` drawing its first dealer and every deal from the stream of ``(seed, g)``;
:func:`trump_study_nb` plays every deal once per (maker, trump) pair, paired on the same cards.

The batch kernels release the GIL, so a writer thread can save one chunk while the next plays.
Each hand writes one result row (``RES_*`` positions) and, when recording, a move log of
``(seat, kind, value)`` rows (kinds as in :data:`rules.ACTION_KINDS`, -1 rows after the end).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from cardlab.sim.cards import LANE, ONE, ZERO, bit, ctz, lowest_card, nth_card, popcount
from cardlab.sim.dealing import BLOCK
from cardlab.sim.policy import SHARED_POLICIES
from cardlab.sim.rng import U32, below_n, deal_state, next_u64
from cardlab.sim.euchre5.policies import (ACES, BEATS, EFF, POLICY, SUIT_MASKS, accept_nb, bid_strength_nb, call_nb,
                                          discard_nb, follow_beat_nb, lead_nb, name_nb, random_of)
from cardlab.sim.euchre5.rules import (ACCEPT, ACCEPT_ID, ALONE, ALONE_BY_CHOICE, CALL, CALL_ANY, CALL_NON_TRUMP, DECK,
                                       DECK_MASK, DISCARD, FORCED_ALONE, HAND, KITTY, NAME, NAME_ID, PARTNERED,
                                       PASS, PASS_ID, PLAY, PLAYERS, RULE, TIE_PLAY_ON, TRICKS)

DECK_BITS = np.uint64(DECK_MASK)
LOW32 = np.uint64(0xFFFFFFFF)
DEALT = PLAYERS * HAND  # 25 cards in hands; scratch[25] is the upcard, then the rest of the kitty
# Result row of one hand.
RES_DEALER, RES_MAKER, RES_TRUMP, RES_ROUND, RES_ALONE, RES_PARTNER, RES_TRICKS, RES_CALLED, RES_SCORE = range(9)
N_RES = RES_SCORE + PLAYERS
N_STUDY = N_RES + 3  # study rows add the maker's bid strength, bowers and trumps held
GAME_BLOCK = 64  # games per parallel work item


@njit(cache=True, error_model="numpy", inline="always")
def log_action(log, n, seat, kind, value):
    """Write action ``n`` of a hand's log (a zero-row log records nothing); returns ``n + 1``."""
    if log.shape[0] > 0:
        log[n, 0] = seat
        log[n, 1] = kind
        log[n, 2] = value
    return n + 1


@njit(cache=True, error_model="numpy", inline="always")
def callable_nb(hand, trump, upcard, rules):
    """Cards the maker holding ``hand`` may call under the call rule (§4, §9 item 3)."""
    rule = rules[RULE.CALL_RULE]
    if rule == CALL_ANY:
        cards = DECK_BITS
    elif rule == CALL_NON_TRUMP:
        cards = DECK_BITS & ~SUIT_MASKS[trump, trump]
    else:
        cards = ACES
    if rules[RULE.CALL_OWN] == 0:
        cards &= ~hand
    return cards & ~bit(upcard)


@njit(cache=True, error_model="numpy", inline="always")
def decide_call_nb(hand, trump, upcard, rules, policy, state):
    """The maker's call: returns (state, called card or -1 for alone)."""
    cards = callable_nb(hand, trump, upcard, rules)
    if policy == POLICY.RANDOM:
        state, r = below_n(state, 1 + popcount(cards))
        if r == 0:
            return state, -1
        return state, nth_card(cards, r - 1)
    return state, call_nb(hand, trump, cards)


@njit(cache=True, error_model="numpy", inline="always")
def knows_ally(p, q, maker, partner, revealed, alone_public):
    """Whether seat ``p`` knows that seat ``q`` is on its side (§4: the called card is secret)."""
    if p == q:
        return True
    if p == maker:
        return q == partner and revealed
    if p == partner:
        return q == maker
    if q == maker:
        return False
    return alone_public or (revealed and q != partner)


# ---------------------------------------------------------------- the run's own Numba seat (cardlab.sim.user)

#: The kernel id of a seat played by the run's own Numba functions: after the shared ids.
USER = len(SHARED_POLICIES)
WON_BITS = 3  # tricks taken by one seat, in a packed count (``won``): 3 bits a seat, seat q at bits 3q
WON_MASK = (1 << (WON_BITS * PLAYERS)) - 1


def user_seat(fn, policy):
    """Whether the seat of ``policy`` is played by the run's Numba function ``fn``: ``policy`` is :data:`USER`.
    In a run without one (``fn`` is None) it is the constant False, and the branch it guards is compiled away:
    the built-in seats' code is then the same as without Numba seats."""
    raise NotImplementedError("called from kernels only")


@overload(user_seat, inline="always")
def _user_seat(fn, policy):
    if isinstance(fn, types.NoneType):
        return lambda fn, policy: False
    return lambda fn, policy: policy == USER


@njit(cache=True, error_model="numpy", inline="always")
def allowed_bids_nb(upcard, rnd, k, rules):
    """The bids of place ``k`` of round ``rnd`` as bits ``id - NAME_ID`` of their action ids: pass and accept in
    round one; in round two each suit but the upcard's (bits 0-3), and pass unless the seat is a stuck dealer."""
    if rnd == 1:
        return (1 << (PASS_ID - NAME_ID)) | (1 << (ACCEPT_ID - NAME_ID))
    allowed = 15 & ~(1 << (upcard // LANE))
    if not stuck_nb(k, rules):
        allowed |= 1 << (PASS_ID - NAME_ID)
    return allowed


def user_bid(bid_fn, fault, p, hand, upcard, rnd, k, allowed):
    """The bid of seat ``p`` made by the run's Numba function ``bid_fn``, called as ``bid(hand, upcard, round,
    place, allowed)`` (the interface's ``BID_DECISION``): an action id of ``allowed`` (pass 196, accept 197, name
    192 + suit), or -1 to leave the bid to the heuristic. Any other value is written to the hand's ``fault`` slot
    (seat + 1, value) and the heuristic bids, so the hand ends and the run can report it. Without a Numba seat
    (``bid_fn`` None) it is -1, compiled to nothing."""
    raise NotImplementedError("called from kernels only")


@overload(user_bid, inline="always")
def _user_bid(bid_fn, fault, p, hand, upcard, rnd, k, allowed):
    if isinstance(bid_fn, types.NoneType):
        return lambda bid_fn, fault, p, hand, upcard, rnd, k, allowed: -1

    def seat(bid_fn, fault, p, hand, upcard, rnd, k, allowed):
        a = bid_fn(hand, upcard, rnd, k, allowed)
        if a == -1:
            return -1
        if a < NAME_ID or a > ACCEPT_ID or (allowed >> (a - NAME_ID)) & 1 == 0:
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = a
            return -1
        return a
    return seat


def user_card(card_fn, fault, p, hand, legal, k, suit, beat, winner, in_trick, trump, maker, partner, called,
              revealed, alone_public, remaining, upcard, dealer, discard, won):
    """The card of seat ``p`` played by the run's Numba function ``card_fn`` (the interface's ``NUMBA_SEAT``), from
    the trick under way as the trick loops keep it (``k`` cards in it, the led ``suit`` mask, ``beat``, ``winner``,
    ``in_trick``), the hand's public facts and what ``p`` alone knows; seats are given counted from ``p``
    (``(p + i) % 5`` is ``i``). It is called as ``card(hand, legal, k, led, win_card, ally_wins, trump, maker,
    partner, called, dealer, upcard, unseen, won)``:

    * ``led``: the led effective suit, -1 when ``p`` leads; ``win_card``: the card winning the trick, -1 then;
    * ``ally_wins``: the winner is on ``p``'s side as far as ``p`` knows (:func:`knows_ally`, the heuristic's view);
    * ``maker``, ``dealer``: their places after ``p``; ``partner``: the partner's place once ``p`` knows it (the
      partner itself, everyone once the called card is played), else -1 (also alone, or forced alone);
    * ``called``: the called card, -1 for a maker alone by choice; ``upcard``: the upcard;
    * ``unseen``: the cards ``p`` has not seen (not its hand, not played, not the upcard nor the called card, both
      named aloud, not its own discard): the referee's ``hidden_cards``;
    * ``won``: the tricks each seat has taken, 3 bits a seat from ``p`` (``(won >> 3 * i) & 7``).

    A card outside ``legal`` is written to the hand's ``fault`` slot (seat + 1, card) and replaced by the lowest
    legal card, so the hand ends and the run can report it. Without a Numba seat (``card_fn`` None) it is -1,
    compiled to nothing."""
    raise NotImplementedError("called from kernels only")


@overload(user_card, inline="always")
def _user_card(card_fn, fault, p, hand, legal, k, suit, beat, winner, in_trick, trump, maker, partner, called,
               revealed, alone_public, remaining, upcard, dealer, discard, won):
    if isinstance(card_fn, types.NoneType):
        def no_seat(card_fn, fault, p, hand, legal, k, suit, beat, winner, in_trick, trump, maker, partner, called,
                    revealed, alone_public, remaining, upcard, dealer, discard, won):
            return -1
        return no_seat

    def seat(card_fn, fault, p, hand, legal, k, suit, beat, winner, in_trick, trump, maker, partner, called,
             revealed, alone_public, remaining, upcard, dealer, discard, won):
        ally = knows_ally(p, winner, maker, partner, revealed, alone_public) & (k > 0)  # (inlined outside a branch)
        led, win_card = -1, -1
        if k > 0:
            led = np.int64(EFF[trump, ctz(suit)])
            m = in_trick
            while m != ZERO:  # the winning card: the one whose beaters are the trick's ``beat``
                x = ctz(m)
                m &= m - ONE
                if BEATS[trump, x] == beat:
                    win_card = x
        unseen = remaining & ~in_trick & ~hand & ~bit(upcard)
        if called >= 0:
            unseen &= ~bit(called)
        if p == dealer and discard >= 0:
            unseen &= ~bit(discard)
        known_partner = -1
        if partner >= 0 and (p == partner or revealed):
            known_partner = (partner - p + PLAYERS) % PLAYERS
        shift = WON_BITS * p
        mine = ((won >> shift) | (won << (WON_BITS * PLAYERS - shift))) & WON_MASK
        c = card_fn(hand, legal, k, led, win_card, ally, trump, (maker - p + PLAYERS) % PLAYERS, known_partner,
                    called, (dealer - p + PLAYERS) % PLAYERS, upcard, unseen, mine)
        if c < 0 or c >= 64 or legal & bit(c) == ZERO:
            if fault[0] == 0:
                fault[0] = p + 1
                fault[1] = c
            return lowest_card(legal)
        return c
    return seat


# ---------------------------------------------------------------- the steps of a hand
# Each rule of a hand is written once, in one of these steps, and inlined wherever a hand is played:
# the plain hand below, the search's rollouts and the searched hand (sim/euchre5/search.py), where a
# search seat is a different decision at the same step.


@njit(cache=True, error_model="numpy", inline="always")
def start_hand_nb(res, dealer, log):
    """A hand's start: the result row of a void hand (no maker) and a log of -1 rows."""
    if log.shape[0] > 0:
        log[:] = -1
    res[:] = 0
    res[RES_DEALER] = dealer
    res[RES_MAKER] = -1
    res[RES_TRUMP] = -1
    res[RES_PARTNER] = -1
    res[RES_CALLED] = -1


@njit(cache=True, error_model="numpy", inline="always")
def accept_step_nb(policy, hand, upcard, k, rules, state):
    """Round one, place ``k`` (1 = left of the dealer): whether a random or heuristic seat holding
    ``hand`` accepts the upcard's suit. Returns (state, accepted)."""
    if policy == POLICY.RANDOM:
        state, r = below_n(state, 2)
        return state, r == 1
    return state, accept_nb(hand, upcard, k, rules[RULE.DISCARD_UPCARD] != 0)


@njit(cache=True, error_model="numpy", inline="always")
def stuck_nb(k, rules):
    """Whether the seat at place ``k`` of round two must name a suit (the dealer, ``stick_the_dealer``)."""
    return k == PLAYERS and rules[RULE.STICK] != 0


@njit(cache=True, error_model="numpy", inline="always")
def name_step_nb(policy, hand, upcard, k, rules, state):
    """Round two, place ``k``: the suit a random or heuristic seat names, -1 to pass (never when
    stuck). Returns (state, suit)."""
    stuck = stuck_nb(k, rules)
    if policy == POLICY.RANDOM:
        if stuck:
            state, r = below_n(state, 3)
            r += 1
        else:
            state, r = below_n(state, 4)
        up_suit = upcard // LANE
        return state, -1 if r == 0 else (r - 1 if r - 1 < up_suit else r)
    return state, name_nb(hand, upcard, k, stuck)


@njit(cache=True, error_model="numpy", inline="always")
def bid_step_nb(policy, p, hand, upcard, rnd, k, rules, state, bid_fn, fault):
    """Seat ``p``'s bid at place ``k`` of round ``rnd`` by its ``policy``: round one's :func:`accept_step_nb`,
    round two's :func:`name_step_nb`, or for a Numba seat its bid function ``bid_fn`` (:func:`user_bid`; -1
    leaves the bid to the heuristic). Returns (state, the suit it makes trump, -1 to pass)."""
    if user_seat(bid_fn, policy):
        a = user_bid(bid_fn, fault, p, hand, upcard, rnd, k, allowed_bids_nb(upcard, rnd, k, rules))
        if a == PASS_ID:
            return state, -1
        if a == ACCEPT_ID:
            return state, upcard // LANE
        if a >= 0:
            return state, a - NAME_ID
        policy = POLICY.HEURISTIC
    if rnd == 1:
        state, yes = accept_step_nb(policy, hand, upcard, k, rules, state)
        return state, upcard // LANE if yes else -1
    return name_step_nb(policy, hand, upcard, k, rules, state)


@njit(cache=True, error_model="numpy", inline="always")
def bid_nb(hands, upcard, dealer, rules, policies, rnd, k, state, log, n, bid_fn, fault):
    """The bidding from place ``k`` of round ``rnd`` on (round one then round two), every seat by its
    ``policies`` entry (:func:`bid_step_nb`; ``bid_fn`` the run's Numba bid function, None without one);
    logs from action ``n``. Returns (state, maker, trump, round, next action number); maker -1 (round 0)
    when every seat passed twice: a void hand."""
    if rnd == 1:
        for kk in range(k, PLAYERS + 1):
            p = (dealer + kk) % PLAYERS
            state, made = bid_step_nb(policies[p], p, hands[p], upcard, 1, kk, rules, state, bid_fn, fault)
            n = log_action(log, n, p, ACCEPT if made >= 0 else PASS, -1)
            if made >= 0:
                return state, p, made, 1, n
        k = 1
    for kk in range(k, PLAYERS + 1):
        p = (dealer + kk) % PLAYERS
        state, named = bid_step_nb(policies[p], p, hands[p], upcard, 2, kk, rules, state, bid_fn, fault)
        if named >= 0:
            n = log_action(log, n, p, NAME, named)
            return state, p, named, 2, n
        n = log_action(log, n, p, PASS, -1)
    return state, -1, -1, 0, n


@njit(cache=True, error_model="numpy", inline="always")
def discard_step_nb(hands, dealer, maker, upcard, trump, called, rules, policy, state):
    """The dealer's discard after picking up the upcard (a random or heuristic dealer; a dealer that
    is the partner keeps the called card), taken out of its hand. Returns (state, card)."""
    choices = hands[dealer]
    if rules[RULE.DISCARD_UPCARD] == 0:
        choices &= ~bit(upcard)
    if policy == POLICY.RANDOM:
        state, d = random_of(state, choices)
    else:
        keep = ZERO
        if called >= 0 and dealer != maker and choices & bit(called) != ZERO:
            keep = bit(called)  # the dealer is the partner: it keeps the called card
        d = discard_nb(choices, trump, keep)
    hands[dealer] &= ~bit(d)
    return state, d


@njit(cache=True, error_model="numpy", inline="always")
def partner_nb(hands, kitty_mask, called, own):
    """Who is the partner once the called card (-1: alone) has found its place: returns (partner or -1,
    alone). ``own``: the maker held the called card (alone by choice); in the kitty: forced alone."""
    if called < 0 or own:
        return -1, ALONE_BY_CHOICE
    if kitty_mask & bit(called) != ZERO:
        return -1, FORCED_ALONE
    partner = -1
    for q in range(PLAYERS):
        if hands[q] & bit(called) != ZERO:
            partner = q
    return partner, PARTNERED


@njit(cache=True, error_model="numpy", inline="always")
def legal_nb(hand, k, suit):
    """The cards of ``hand`` that may be played as card ``k`` of a trick (0: the lead, any card;
    after it the led effective suit ``suit``, a mask, when the hand holds one)."""
    if k == 0:
        return hand
    legal = hand & suit
    if legal == ZERO:
        return hand
    return legal


@njit(cache=True, error_model="numpy", inline="always")
def lead_step_nb(policy, p, hand, trump, remaining, maker, partner, state):
    """The card a random or heuristic seat ``p`` leads (``remaining``: cards not seen played).
    Returns (state, card)."""
    if hand & (hand - ONE) == ZERO:  # the last trick: no decision
        return state, ctz(hand)
    if policy == POLICY.RANDOM:
        return random_of(state, hand)
    return state, lead_nb(hand, trump, remaining, p == maker or p == partner)


@njit(cache=True, error_model="numpy", inline="always")
def follow_step_nb(policy, p, hand, legal, k, trump, beat, remaining, in_trick, maker, partner, winner, revealed,
                   alone_public, state):
    """The card a random or heuristic seat ``p`` plays from ``legal`` as card ``k`` (1..4) of a trick;
    ``beat``: the cards that beat the winning one, ``in_trick``: the cards already in it. Returns
    (state, card)."""
    if legal & (legal - ONE) == ZERO:  # one legal card: no decision
        return state, ctz(legal)
    if policy == POLICY.RANDOM:
        return random_of(state, legal)
    ally = knows_ally(p, winner, maker, partner, revealed, alone_public)
    return state, follow_beat_nb(legal, trump, beat, ally, k == PLAYERS - 1, remaining & ~hand & ~in_trick)


@njit(cache=True, error_model="numpy", inline="always")
def put_lead_nb(c, p, hands, trump):
    """Seat ``p`` leads ``c``: returns the trick's (cards, led suit mask, cards that beat the winner, winner)."""
    hands[p] &= ~bit(c)
    return bit(c), SUIT_MASKS[trump, EFF[trump, c]], BEATS[trump, c], p


@njit(cache=True, error_model="numpy", inline="always")
def put_follow_nb(c, p, hands, trump, in_trick, beat, winner):
    """Seat ``p`` follows with ``c``: returns the trick's (cards, cards that beat the winner, winner)."""
    hands[p] &= ~bit(c)
    if bit(c) & beat != ZERO:
        return in_trick | bit(c), BEATS[trump, c], p
    return in_trick | bit(c), beat, winner


@njit(cache=True, error_model="numpy", inline="always")
def play_tricks_inline(hands, trump, maker, partner, called, alone_public, revealed, remaining, t, k, leader, suit,
                       beat, winner, in_trick, maker_tricks, first_card, policies, state, log, n, card_fn, fault, upcard,
                       dealer, discard, won):
    """Play on from card ``k`` of trick ``t`` to the end of the hand, each seat by its random, heuristic or
    Numba ``policies`` entry (``first_card >= 0``: the seat to move plays it first); a trick
    under way is given by its ``leader``, led ``suit``, ``beat``, ``winner`` and cards ``in_trick``.
    ``hands`` are consumed, plays logged from action ``n``. The plain hand plays its five tricks
    with it and the search its rollouts. A Numba seat's card with a choice is its function ``card_fn``'s
    (:func:`user_card`, None without one), which also reads the ``upcard``, the ``dealer`` and its ``discard``
    (-1: none) and ``won``, the tricks each seat has taken (3 bits a seat). Returns (state, the attackers'
    tricks, next action number)."""
    forced = first_card
    while t < TRICKS:
        if k == 0:  # the lead: any card of the hand
            hand = hands[leader]
            if forced >= 0:
                c = forced
                forced = -1
            elif user_seat(card_fn, policies[leader]) and hand & (hand - ONE) != ZERO:
                c = user_card(card_fn, fault, leader, hand, hand, 0, ZERO, ZERO, leader, ZERO, trump, maker, partner,
                              called, revealed, alone_public, remaining, upcard, dealer, discard, won)
            else:
                state, c = lead_step_nb(policies[leader], leader, hand, trump, remaining, maker, partner, state)
            in_trick, suit, beat, winner = put_lead_nb(c, leader, hands, trump)
            n = log_action(log, n, leader, PLAY, c)
            revealed |= c == called
            k = 1
        p = leader + k - 1
        if p >= PLAYERS:
            p -= PLAYERS
        for kk in range(k, PLAYERS):  # the others follow suit when they can
            p = p + 1 if p < PLAYERS - 1 else 0
            if forced >= 0:
                c = forced
                forced = -1
            else:
                hand = hands[p]
                legal = legal_nb(hand, kk, suit)
                if user_seat(card_fn, policies[p]) and legal & (legal - ONE) != ZERO:
                    c = user_card(card_fn, fault, p, hand, legal, kk, suit, beat, winner, in_trick, trump, maker,
                                  partner, called, revealed, alone_public, remaining, upcard, dealer, discard, won)
                else:
                    state, c = follow_step_nb(policies[p], p, hand, legal, kk, trump, beat, remaining, in_trick, maker,
                                              partner, winner, revealed, alone_public, state)
            in_trick, beat, winner = put_follow_nb(c, p, hands, trump, in_trick, beat, winner)
            n = log_action(log, n, p, PLAY, c)
            revealed |= c == called
        remaining &= ~in_trick
        if winner == maker or winner == partner:
            maker_tricks += 1
        won += 1 << (WON_BITS * winner)
        leader = winner
        t += 1
        k = 0
    return state, maker_tricks, n


@njit(cache=True, error_model="numpy", inline="always")
def points_nb(rules, alone, maker_tricks):
    """§6: (points to each attacker, points to each defender)."""
    if maker_tricks >= 3:
        if maker_tricks < TRICKS:
            return (rules[RULE.MAKER_POINTS] if alone == PARTNERED else rules[RULE.ALONE_POINTS]), 0
        if alone == ALONE_BY_CHOICE:
            return rules[RULE.LONE_MARCH], 0
        if alone == FORCED_ALONE:
            return rules[RULE.FORCED_MARCH], 0
        return rules[RULE.MARCH_POINTS], 0
    if maker_tricks > 0:
        return 0, rules[RULE.DEFEND_LOW]
    return 0, rules[RULE.DEFEND_HIGH]


@njit(cache=True, error_model="numpy", inline="always")
def score_hand_nb(res, rules, maker, trump, rnd, alone, partner, maker_tricks, called):
    """§6 score of a played hand into the result row ``res``."""
    attack, defend = points_nb(rules, alone, maker_tricks)
    for q in range(PLAYERS):
        res[RES_SCORE + q] = attack if (q == maker or q == partner) else defend
    res[RES_MAKER] = maker
    res[RES_TRUMP] = trump
    res[RES_ROUND] = rnd
    res[RES_ALONE] = alone
    res[RES_PARTNER] = partner
    res[RES_TRICKS] = maker_tricks
    res[RES_CALLED] = called


@njit(cache=True, error_model="numpy", _nrt=False)
def play_hand_nb(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res, bid_fn, card_fn,
                 fault):
    """Play one hand from the deal (``hands``: five uint64 masks, changed in place; ``kitty``: three
    card ids, the upcard first). ``force_maker >= 0`` skips the bidding: that seat makes
    ``force_trump`` (round one with the exchange when it is the upcard's suit, else round two).
    Writes the result row ``res`` and the log; returns the advanced random stream. ``bid_fn`` and ``card_fn``
    play the seats of policy :data:`USER` (None without one: :mod:`cardlab.sim.user`), the first illegal move
    going to ``fault`` (seat + 1, move); its exchange and call are the heuristic's.

    :func:`play_hand_inline` as one call, for the trump study and the search's rollouts: one compile of the hand
    for each kind of seat functions serves them all (60 to 75 s each on one core). Compiled without reference
    counting (``_nrt=False``; it allocates nothing)."""
    return play_hand_inline(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res, bid_fn,
                            card_fn, fault)


@njit(cache=True, error_model="numpy", inline="always")
def play_hand_inline(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res, bid_fn,
                     card_fn, fault):
    """:func:`play_hand_nb` inlined into the deals' and whole games' blocks, whose hands are the kernels' speed
    (called instead, they ran about 5% slower: 1 and 2 threads, in turns). The hand is its steps in
    order: :func:`bid_nb`, the exchange (:func:`discard_step_nb`) and the call (:func:`decide_call_nb`)
    in the order of the rules, :func:`partner_nb`, :func:`play_tricks_inline`, :func:`score_hand_nb`."""
    start_hand_nb(res, dealer, log)
    n = 0
    upcard = kitty[0]
    kitty_mask = bit(kitty[0]) | bit(kitty[1]) | bit(kitty[2])
    if force_maker >= 0:
        maker = force_maker
        trump = force_trump
        rnd = 1 if trump == upcard // LANE else 2
    else:
        state, maker, trump, rnd, n = bid_nb(hands, upcard, dealer, rules, policies, 1, 1, state, log, n, bid_fn,
                                             fault)
        if maker < 0:  # five passes twice, stick_the_dealer off: a void hand
            return state
    called = -2  # not called yet
    own = False
    discard = -1
    if rnd == 1:  # the dealer's exchange
        hands[dealer] |= bit(upcard)
        kitty_mask &= ~bit(upcard)
        if rules[RULE.CALL_FIRST] != 0:
            state, called = decide_call_nb(hands[maker], trump, upcard, rules, policies[maker], state)
            own = called >= 0 and hands[maker] & bit(called) != ZERO
            n = log_action(log, n, maker, CALL if called >= 0 else ALONE, called)
        state, d = discard_step_nb(hands, dealer, maker, upcard, trump, called, rules, policies[dealer], state)
        kitty_mask |= bit(d)
        discard = d
        n = log_action(log, n, dealer, DISCARD, d)
    if called == -2:
        state, called = decide_call_nb(hands[maker], trump, upcard, rules, policies[maker], state)
        own = called >= 0 and hands[maker] & bit(called) != ZERO
        n = log_action(log, n, maker, CALL if called >= 0 else ALONE, called)
    partner, alone = partner_nb(hands, kitty_mask, called, own)
    # play: five tricks, the seat left of the dealer leads first
    remaining = DECK_BITS  # cards not yet seen played (the kitty's cards stay unknown)
    if rnd == 2:
        remaining &= ~bit(upcard)  # turned down in front of everyone
    leader = (dealer + 1) % PLAYERS
    state, maker_tricks, n = play_tricks_inline(hands, trump, maker, partner, called, called < 0, False, remaining, 0,
                                                0, leader, ZERO, ZERO, leader, ZERO, 0, -1, policies, state, log, n,
                                                card_fn, fault, upcard, dealer, discard, 0)
    score_hand_nb(res, rules, maker, trump, rnd, alone, partner, maker_tricks, called)
    return state


@njit(cache=True, error_model="numpy", _nrt=False)
def play_tricks_nb(hands, trump, maker, partner, called, alone_public, revealed, remaining, t, k, leader, suit, beat,
                   winner, in_trick, maker_tricks, first_card, policies, state, log):
    """:func:`play_tricks_inline` as one call (the search's rollouts, ``log`` with no rows; no Numba seat).
    Returns (the attackers' tricks, state). Compiled without reference counting (``_nrt=False``; it allocates
    nothing)."""
    state, maker_tricks, _ = play_tricks_inline(hands, trump, maker, partner, called, alone_public, revealed,
                                                remaining, t, k, leader, suit, beat, winner, in_trick, maker_tricks,
                                                first_card, policies, state, log, 0, None, None, -1, -1, -1, 0)
    return maker_tricks, state


@njit(cache=True, error_model="numpy", inline="always")
def deal_nb(state, scratch, hands, kitty):
    """Shuffle the 28 cards (Fisher-Yates, two 32-bit draws per 64 random bits) into five hands of
    five, seat by seat, and the kitty (upcard first)."""
    m = DECK.shape[0]
    for i in range(m):
        scratch[i] = DECK[i]
    for i in range(m - 1, 0, -2):
        state, r = next_u64(state)
        j = np.int64(((r >> U32) * np.uint64(i + 1)) >> U32)
        t = scratch[i]
        scratch[i] = scratch[j]
        scratch[j] = t
        if i > 1:
            j = np.int64(((r & LOW32) * np.uint64(i)) >> U32)
            t = scratch[i - 1]
            scratch[i - 1] = scratch[j]
            scratch[j] = t
    k = 0
    for p in range(PLAYERS):
        hand = ZERO
        for _ in range(HAND):
            hand |= bit(scratch[k])
            k += 1
        hands[p] = hand
    for c in range(KITTY):
        kitty[c] = scratch[DEALT + c]
    return state


@njit(cache=True, error_model="numpy", inline="always")
def workspace_nb():
    """One thread's arrays for playing hands: hands, the shuffle's scratch, the kitty, a result row, an empty log."""
    return (np.empty(PLAYERS, np.uint64), np.empty(DECK.shape[0], np.int8), np.empty(KITTY, np.int64),
            np.empty(N_RES, np.int64), np.empty((0, 3), np.int8))


# The block's kind of run and a single hand's slot, typed (a literal would compile the block once for each value)
SINGLE_HANDS, WHOLE_GAMES, ONE_SLOT = np.bool_(False), np.bool_(True), np.int64(1)


@njit(cache=True, error_model="numpy", nogil=True, _nrt=False)
def play_block_nb(seed, first, lo, hi, rules, policies, out, slot, lengths, log_hands, log_kitty, log_moves, bid_fn,
                  card_fn, faults, work, totals, whole_games):
    """Hands, or with ``whole_games`` games, ``first + lo .. first + hi - 1`` of :func:`play_deals_nb` or
    :func:`play_games_nb` on one thread, in the thread's ``work`` arrays (:func:`workspace_nb`) and ``totals``.
    A hand's results go to column ``j`` of ``out`` (N_RES x count), a game's hand ``h`` to row ``j * slot + h``
    (``out`` count * slot x N_RES); the logs are the games' (a single hand's are viewed as a game of one hand).

    The hand is inlined here, once for both kernels (a block each compiled it twice); the block is compiled on
    its own without reference counting (``_nrt=False``: it allocates nothing), and the parallel kernels only call
    it. Inlined into a parallel kernel instead, the hand ran at the same speed but took Numba's parallel passes
    more than twice as long to compile (117.5 s against 51.6 s cold for the deals kernel)."""
    hands, scratch, kitty, res, no_log = work
    record = log_moves.shape[0] > 0
    target = rules[RULE.TARGET]
    max_hands = rules[RULE.MAX_HANDS]
    play_on = rules[RULE.TIE_RULE] == TIE_PLAY_ON
    for j in range(lo, hi):
        i = first + j
        if whole_games:
            state, dealer = below_n(deal_state(seed, i), PLAYERS)
            totals[:] = 0
        else:
            state, dealer = deal_state(seed, i), i % PLAYERS
        h = 0
        while True:
            state = deal_nb(state, scratch, hands, kitty)
            log = no_log
            if record:
                log = log_moves[j, h]
                for p in range(PLAYERS):
                    log_hands[j, h, p] = hands[p]
                for c in range(KITTY):
                    log_kitty[j, h, c] = kitty[c]
            state = play_hand_inline(hands, kitty, dealer, rules, policies, -1, -1, state, log, res, bid_fn, card_fn,
                                     faults[j])
            if not whole_games:
                for r in range(N_RES):
                    out[r, j] = res[r]
                break
            if h < slot:  # a longer game is replayed alone with a larger slot
                for r in range(N_RES):
                    out[j * slot + h, r] = res[r]
            h += 1
            if game_over_nb(totals, res, h, max_hands, target, play_on):
                break
            dealer = dealer + 1 if dealer < PLAYERS - 1 else 0
        if whole_games:
            lengths[j] = h


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_deals_nb(seed, first, count, rules, policies, out, log_hands, log_kitty, log_moves, bid_fn, card_fn, faults):
    """Play hands ``first .. first+count-1``: hand ``i`` dealt by seat ``i % 5`` from (seed, i).

    ``out`` (N_RES, count) receives the results, one column per hand; the logs are filled when they have rows.
    ``bid_fn`` and ``card_fn`` play the seats of policy :data:`USER` (None in a run without one); ``faults``
    (count x 2, zeros) receives each hand's first illegal move of theirs (seat + 1, move).
    """
    hands_log = log_hands.reshape(log_hands.shape[0], 1, PLAYERS)
    kitty_log = log_kitty.reshape(log_kitty.shape[0], 1, KITTY)
    moves_log = log_moves.reshape(log_moves.shape[0], 1, log_moves.shape[1], 3)
    no_lengths = np.empty(0, np.int64)
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        play_block_nb(seed, first, b * BLOCK, min(count, (b + 1) * BLOCK), rules, policies, out, ONE_SLOT,
                      no_lengths, hands_log, kitty_log, moves_log, bid_fn, card_fn, faults, workspace_nb(),
                      np.empty(PLAYERS, np.int64), SINGLE_HANDS)


@njit(cache=True, error_model="numpy", inline="always")
def game_over_nb(totals, res, played, max_hands, target, play_on):
    """Add a hand's points (result row ``res``) to the game's ``totals``; whether the game ends there (§7):
    ``max_hands`` hands played, or a seat at ``target`` (with ``play_on``, one seat alone in the lead)."""
    top = 0
    for q in range(PLAYERS):
        totals[q] += res[RES_SCORE + q]
        top = max(top, totals[q])
    if played >= max_hands:
        return True
    if top < target:
        return False
    leaders = 0
    for q in range(PLAYERS):
        leaders += totals[q] == top
    return not (play_on and leaders > 1)


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_games_nb(seed, first, count, rules, policies, out, lengths, log_hands, log_kitty, log_moves, bid_fn, card_fn,
                  faults):
    """Play whole games ``first .. first+count-1`` (§7): deal after deal, the deal passing clockwise
    from a random first dealer, until a seat reaches the target (with ``play_on``, until one seat
    leads alone), or ``max_hands`` hands. ``out`` (count, slot, N_RES) receives each game's first
    ``slot`` hands, ``lengths`` their number; the logs (count, max_hands, ...) when they have rows.
    ``bid_fn``, ``card_fn`` and ``faults`` as :func:`play_deals_nb`'s, a fault row per game."""
    slot = out.shape[1]
    rows = out.reshape(count * slot, N_RES)
    n_blocks = (count + GAME_BLOCK - 1) // GAME_BLOCK
    for b in prange(n_blocks):
        play_block_nb(seed, first, b * GAME_BLOCK, min(count, (b + 1) * GAME_BLOCK), rules, policies, rows, slot,
                      lengths, log_hands, log_kitty, log_moves, bid_fn, card_fn, faults, workspace_nb(),
                      np.empty(PLAYERS, np.int64), WHOLE_GAMES)


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def compact_games_nb(slots, lengths, offsets, out):
    """Copy each game's hands from its slot (``slots[j, :lengths[j]]``) to ``out[:, offsets[j]:]``,
    one column per hand (so every result is one contiguous row of ``out``); games longer than the
    slot are left for the caller."""
    for j in prange(slots.shape[0]):
        for h in range(min(lengths[j], slots.shape[1])):
            for r in range(N_RES):
                out[r, offsets[j] + h] = slots[j, h, r]


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def compact_game_rows_nb(slots, lengths, offsets, first, out, game, deal):
    """:func:`compact_games_nb` that also writes each hand's ``game`` (``first + j``) and ``deal`` (its
    index within the game), so the facade builds no index column row by row in numpy."""
    for j in prange(slots.shape[0]):
        for h in range(min(lengths[j], slots.shape[1])):
            o = offsets[j] + h
            for r in range(N_RES):
                out[r, o] = slots[j, h, r]
        for h in range(lengths[j]):
            game[offsets[j] + h] = first + j
            deal[offsets[j] + h] = h


@njit(cache=True, error_model="numpy", nogil=True, _nrt=False)
def trump_study_block_nb(seed, first, lo, hi, rules, policies, out, card_fn, faults, work, dealt):
    """Deals ``first + lo .. first + hi - 1`` of :func:`trump_study_nb` on one thread, in its ``work`` arrays and
    ``dealt`` (compiled as :func:`play_block_nb` is)."""
    hands, scratch, kitty, res, no_log = work
    for j in range(lo, hi):
        i = first + j
        dealer = i % PLAYERS
        state = deal_nb(deal_state(seed, i), scratch, dealt, kitty)
        for m in range(PLAYERS):
            seat = (m - dealer + PLAYERS - 1) % PLAYERS + 1  # places after the dealer, 5 = the dealer
            for t in range(4):
                for p in range(PLAYERS):
                    hands[p] = dealt[p]
                play_hand_nb(hands, kitty, dealer, rules, policies, m, t, state, no_log, res, None, card_fn, faults[j])
                for r in range(N_RES):
                    out[j, m, t, r] = res[r]
                h = dealt[m]
                out[j, m, t, N_RES] = bid_strength_nb(h, kitty[0], t, seat, rules[RULE.DISCARD_UPCARD] != 0)
                bowers = bit(LANE * t + 9) | bit(LANE * (3 - t) + 9)
                out[j, m, t, N_RES + 1] = popcount(h & bowers)
                out[j, m, t, N_RES + 2] = popcount(h & SUIT_MASKS[t, t])


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def trump_study_nb(seed, first, count, rules, policies, out, card_fn, faults):
    """The trump-choice study: deal ``i`` (dealer ``i % 5``, stream (seed, i)) played once for each
    maker seat and each trump suit, the bidding skipped; ``out`` (count, 5, 4, N_STUDY) receives
    the result row, then the maker's bid strength (as the heuristic counts it), bowers and trumps
    held as dealt. Every variant starts from the same cards and the same stream (paired). ``card_fn``
    plays the cards of the seats of policy :data:`USER` (None without one), ``faults`` a row per deal."""
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        trump_study_block_nb(seed, first, b * BLOCK, min(count, (b + 1) * BLOCK), rules, policies, out, card_fn,
                             faults, workspace_nb(), np.empty(PLAYERS, np.uint64))
