"""Euchre-for-five kernels: one hand from the deal to the score, batches of hands, whole games.

A hand (:func:`play_hand_nb`) runs the state machine of the rules: round one from the seat
left of the dealer to the dealer (pass or accept the upcard's suit); the dealer's exchange
(pick up the upcard, discard one card face down); round two (pass or name another suit, the
dealer stuck when ``stick_the_dealer``); the maker's call (a card, or alone) before or after
the exchange; five tricks led first by the seat left of the dealer, following by effective
suit; the §6 score. Effective suits are bit masks: ``SUIT_MASKS[t, s]`` holds the cards of
effective suit ``s`` under trump ``t``, so the left bower moves into the trump mask and out of
its printed suit, and following is ``hand & SUIT_MASKS[t, led]``.

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
from numba import njit, prange

from cardlab.sim.cards import LANE, ONE, ZERO, bit, ctz, nth_card, popcount
from cardlab.sim.dealing import BLOCK
from cardlab.sim.rng import U32, below_n, deal_state, next_u64
from cardlab.sim.euchre5.policies import (ACES, BEATS, EFF, POLICY, SUIT_MASKS, accept_nb, bid_strength_nb, call_nb,
                                          discard_nb, follow_beat_nb, lead_nb, name_nb, random_of)
from cardlab.sim.euchre5.rules import (ACCEPT, ALONE, ALONE_BY_CHOICE, CALL, CALL_ANY, CALL_NON_TRUMP, DECK,
                                       DECK_MASK, DISCARD, FORCED_ALONE, HAND, KITTY, NAME, PARTNERED,
                                       PASS, PLAY, PLAYERS, RULE, TIE_PLAY_ON, TRICKS)

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


@njit(cache=True, error_model="numpy")
def play_hand_nb(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res):
    """Play one hand from the deal (``hands``: five uint64 masks, changed in place; ``kitty``: three
    card ids, the upcard first). ``force_maker >= 0`` skips the bidding: that seat makes
    ``force_trump`` (round one with the exchange when it is the upcard's suit, else round two).
    Writes the result row ``res`` and the log; returns the advanced random stream."""
    return play_hand_inline(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res)


@njit(cache=True, error_model="numpy", inline="always")
def play_hand_inline(hands, kitty, dealer, rules, policies, force_maker, force_trump, state, log, res):
    """:func:`play_hand_nb` inlined into the batch kernels: no call, and no reference counting of the
    arrays it is passed (a measurable share of a hand when it was a call)."""
    if log.shape[0] > 0:
        log[:] = -1
    n = 0
    upcard = kitty[0]
    up_suit = upcard // LANE
    kitty_mask = bit(kitty[0]) | bit(kitty[1]) | bit(kitty[2])
    res[:] = 0
    res[RES_DEALER] = dealer
    res[RES_MAKER] = -1
    res[RES_TRUMP] = -1
    res[RES_PARTNER] = -1
    res[RES_CALLED] = -1
    maker = -1
    trump = -1
    rnd = 0
    if force_maker >= 0:
        maker = force_maker
        trump = force_trump
        rnd = 1 if trump == up_suit else 2
    else:
        for k in range(1, PLAYERS + 1):  # round one
            p = (dealer + k) % PLAYERS
            if policies[p] == POLICY.RANDOM:
                state, r = below_n(state, 2)
                yes = r == 1
            else:
                yes = accept_nb(hands[p], upcard, k, rules[RULE.DISCARD_UPCARD] != 0)
            n = log_action(log, n, p, ACCEPT if yes else PASS, -1)
            if yes:
                maker = p
                trump = up_suit
                rnd = 1
                break
        if maker < 0:
            for k in range(1, PLAYERS + 1):  # round two
                p = (dealer + k) % PLAYERS
                stuck = k == PLAYERS and rules[RULE.STICK] != 0
                if policies[p] == POLICY.RANDOM:
                    if stuck:
                        state, r = below_n(state, 3)
                        r += 1
                    else:
                        state, r = below_n(state, 4)
                    named = -1 if r == 0 else (r - 1 if r - 1 < up_suit else r)
                else:
                    named = name_nb(hands[p], upcard, k, stuck)
                if named < 0:
                    n = log_action(log, n, p, PASS, -1)
                else:
                    n = log_action(log, n, p, NAME, named)
                    maker = p
                    trump = named
                    rnd = 2
                    break
            if maker < 0:  # five passes twice, stick_the_dealer off: a void hand
                return state
    called = -2  # not called yet
    own = False
    if rnd == 1:  # the dealer's exchange
        hands[dealer] |= bit(upcard)
        kitty_mask &= ~bit(upcard)
        if rules[RULE.CALL_FIRST] != 0:
            state, called = decide_call_nb(hands[maker], trump, upcard, rules, policies[maker], state)
            own = called >= 0 and hands[maker] & bit(called) != ZERO
            n = log_action(log, n, maker, CALL if called >= 0 else ALONE, called)
        choices = hands[dealer]
        if rules[RULE.DISCARD_UPCARD] == 0:
            choices &= ~bit(upcard)
        if policies[dealer] == POLICY.RANDOM:
            state, d = random_of(state, choices)
        else:
            keep = ZERO
            if called >= 0 and dealer != maker and choices & bit(called) != ZERO:
                keep = bit(called)  # the dealer is the partner: it keeps the called card
            d = discard_nb(choices, trump, keep)
        hands[dealer] &= ~bit(d)
        kitty_mask |= bit(d)
        n = log_action(log, n, dealer, DISCARD, d)
    if called == -2:
        state, called = decide_call_nb(hands[maker], trump, upcard, rules, policies[maker], state)
        own = called >= 0 and hands[maker] & bit(called) != ZERO
        n = log_action(log, n, maker, CALL if called >= 0 else ALONE, called)
    partner = -1
    if called < 0 or own:
        alone = ALONE_BY_CHOICE
    elif kitty_mask & bit(called) != ZERO:
        alone = FORCED_ALONE
    else:
        alone = PARTNERED
        for q in range(PLAYERS):
            if hands[q] & bit(called) != ZERO:
                partner = q

    # play: five tricks, the seat left of the dealer leads first
    alone_public = called < 0
    revealed = False
    remaining = DECK_BITS  # cards not yet seen played (the kitty's cards stay unknown)
    if rnd == 2:
        remaining &= ~bit(upcard)  # turned down in front of everyone
    leader = (dealer + 1) % PLAYERS
    maker_tricks = 0
    for _ in range(TRICKS):
        # the lead: any card of the hand
        hand = hands[leader]
        if hand & (hand - ONE) == ZERO:  # the last trick: no decision
            c = ctz(hand)
        elif policies[leader] == POLICY.RANDOM:
            state, c = random_of(state, hand)
        else:
            c = lead_nb(hand, trump, remaining, leader == maker or leader == partner)
        hands[leader] = hand & ~bit(c)
        in_trick = bit(c)
        n = log_action(log, n, leader, PLAY, c)
        revealed |= c == called
        suit = SUIT_MASKS[trump, EFF[trump, c]]  # the led effective suit
        beat = BEATS[trump, c]  # cards that beat the winning card
        winner = leader
        p = leader
        for k in range(1, PLAYERS):  # the others follow suit when they can
            p = p + 1 if p < PLAYERS - 1 else 0
            hand = hands[p]
            legal = hand & suit
            if legal == ZERO:
                legal = hand
            if legal & (legal - ONE) == ZERO:  # one legal card: no decision
                c = ctz(legal)
            elif policies[p] == POLICY.RANDOM:
                state, c = random_of(state, legal)
            else:
                ally = knows_ally(p, winner, maker, partner, revealed, alone_public)
                c = follow_beat_nb(legal, trump, beat, ally, k == PLAYERS - 1, remaining & ~hand & ~in_trick)
            hands[p] = hand & ~bit(c)
            in_trick |= bit(c)
            n = log_action(log, n, p, PLAY, c)
            revealed |= c == called
            if bit(c) & beat != ZERO:
                beat = BEATS[trump, c]
                winner = p
        remaining &= ~in_trick
        if winner == maker or winner == partner:
            maker_tricks += 1
        leader = winner

    # §6 score
    attack = 0
    defend = 0
    if maker_tricks >= 3:
        attack = 1
        if maker_tricks == TRICKS:
            attack = 2
            if alone == ALONE_BY_CHOICE:
                attack = rules[RULE.LONE_MARCH]
            elif alone == FORCED_ALONE:
                attack = rules[RULE.FORCED_MARCH]
    elif maker_tricks > 0:
        defend = rules[RULE.DEFEND_LOW]
    else:
        defend = rules[RULE.DEFEND_HIGH]
    for q in range(PLAYERS):
        res[RES_SCORE + q] = attack if (q == maker or q == partner) else defend
    res[RES_MAKER] = maker
    res[RES_TRUMP] = trump
    res[RES_ROUND] = rnd
    res[RES_ALONE] = alone
    res[RES_PARTNER] = partner
    res[RES_TRICKS] = maker_tricks
    res[RES_CALLED] = called
    return state


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


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def play_deal_block_nb(seed, first, lo, hi, rules, policies, out, log_hands, log_kitty, log_moves):
    """Hands ``first + lo .. first + hi - 1`` of :func:`play_deals_nb` on one thread (columns ``lo .. hi - 1``).

    The hand is inlined here, and this block into the parallel kernel: no call and no reference
    counting per hand (measured: 17% faster than calling a block function from the ``prange``)."""
    record = log_moves.shape[0] > 0
    hands = np.empty(PLAYERS, np.uint64)
    scratch = np.empty(DECK.shape[0], np.int8)
    kitty = np.empty(KITTY, np.int64)
    res = np.empty(N_RES, np.int64)
    no_log = np.empty((0, 3), np.int8)
    for j in range(lo, hi):
        i = first + j
        state = deal_nb(deal_state(seed, i), scratch, hands, kitty)
        log = no_log
        if record:
            log = log_moves[j]
            log_hands[j, :] = hands
            log_kitty[j, :] = kitty
        play_hand_inline(hands, kitty, i % PLAYERS, rules, policies, -1, -1, state, log, res)
        for r in range(N_RES):
            out[r, j] = res[r]


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_deals_nb(seed, first, count, rules, policies, out, log_hands, log_kitty, log_moves):
    """Play hands ``first .. first+count-1``: hand ``i`` dealt by seat ``i % 5`` from (seed, i).

    ``out`` (N_RES, count) receives the results, one column per hand; the logs are filled when they have rows.
    """
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        play_deal_block_nb(seed, first, b * BLOCK, min(count, (b + 1) * BLOCK), rules, policies, out, log_hands,
                           log_kitty, log_moves)


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


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def play_game_block_nb(seed, first, lo, hi, rules, policies, out, lengths, log_hands, log_kitty, log_moves):
    """Games ``first + lo .. first + hi - 1`` of :func:`play_games_nb` on one thread (rows ``lo .. hi - 1``)."""
    record = log_moves.shape[0] > 0
    target = rules[RULE.TARGET]
    max_hands = rules[RULE.MAX_HANDS]
    play_on = rules[RULE.TIE_RULE] == TIE_PLAY_ON
    hands = np.empty(PLAYERS, np.uint64)
    scratch = np.empty(DECK.shape[0], np.int8)
    kitty = np.empty(KITTY, np.int64)
    res = np.empty(N_RES, np.int64)
    totals = np.empty(PLAYERS, np.int64)
    no_log = np.empty((0, 3), np.int8)
    for j in range(lo, hi):
        state, dealer = below_n(deal_state(seed, first + j), PLAYERS)
        totals[:] = 0
        h = 0
        while True:
            state = deal_nb(state, scratch, hands, kitty)
            log = no_log
            if record:
                log = log_moves[j, h]
                log_hands[j, h, :] = hands
                log_kitty[j, h, :] = kitty
            state = play_hand_inline(hands, kitty, dealer, rules, policies, -1, -1, state, log, res)
            if h < out.shape[1]:  # a longer game is replayed alone with a larger slot
                for r in range(N_RES):
                    out[j, h, r] = res[r]
            h += 1
            if game_over_nb(totals, res, h, max_hands, target, play_on):
                break
            dealer = dealer + 1 if dealer < PLAYERS - 1 else 0
        lengths[j] = h


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_games_nb(seed, first, count, rules, policies, out, lengths, log_hands, log_kitty, log_moves):
    """Play whole games ``first .. first+count-1`` (§7): deal after deal, the deal passing clockwise
    from a random first dealer, until a seat reaches the target (with ``play_on``, until one seat
    leads alone), or ``max_hands`` hands. ``out`` (count, slot, N_RES) receives each game's first
    ``slot`` hands, ``lengths`` their number; the logs (count, max_hands, ...) when they have rows."""
    n_blocks = (count + GAME_BLOCK - 1) // GAME_BLOCK
    for b in prange(n_blocks):
        play_game_block_nb(seed, first, b * GAME_BLOCK, min(count, (b + 1) * GAME_BLOCK), rules, policies, out,
                           lengths, log_hands, log_kitty, log_moves)


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


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def trump_study_nb(seed, first, count, rules, policies, out):
    """The trump-choice study: deal ``i`` (dealer ``i % 5``, stream (seed, i)) played once for each
    maker seat and each trump suit, the bidding skipped; ``out`` (count, 5, 4, N_STUDY) receives
    the result row, then the maker's bid strength (as the heuristic counts it), bowers and trumps
    held as dealt. Every variant starts from the same cards and the same stream (paired)."""
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        dealt = np.empty(PLAYERS, np.uint64)
        hands = np.empty(PLAYERS, np.uint64)
        scratch = np.empty(DECK.shape[0], np.int8)
        kitty = np.empty(KITTY, np.int64)
        res = np.empty(N_RES, np.int64)
        no_log = np.empty((0, 3), np.int8)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            i = first + j
            dealer = i % PLAYERS
            state = deal_nb(deal_state(seed, i), scratch, dealt, kitty)
            for m in range(PLAYERS):
                seat = (m - dealer + PLAYERS - 1) % PLAYERS + 1  # places after the dealer, 5 = the dealer
                for t in range(4):
                    hands[:] = dealt
                    play_hand_nb(hands, kitty, dealer, rules, policies, m, t, state, no_log, res)
                    for r in range(N_RES):
                        out[j, m, t, r] = res[r]
                    h = dealt[m]
                    out[j, m, t, N_RES] = bid_strength_nb(h, kitty[0], t, seat, rules[RULE.DISCARD_UPCARD] != 0)
                    bowers = bit(LANE * t + 9) | bit(LANE * (3 - t) + 9)
                    out[j, m, t, N_RES + 1] = popcount(h & bowers)
                    out[j, m, t, N_RES + 2] = popcount(h & SUIT_MASKS[t, t])

