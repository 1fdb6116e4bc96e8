"""Euchre-for-five search policy: determinized Monte Carlo search (PIMC) for bids, calls and cards.

A ``search`` seat decides by sampling: at each decision with more than one choice it

1. samples ``worlds`` deals of the cards it has not seen, consistent with what it knows (below);
2. in every world tries each choice and plays the rest of the hand with the rollout policy at
   every seat (the heuristic by default; ``rollout = POLICY.RANDOM`` plays uniformly random legal
   actions, the same random draws for every choice of one world);
3. takes the choice with the best mean **edge**: its points for the hand minus the mean points of
   the other four seats. The edge is the same for every member of a side up to a positive scale
   and orders the hand's outcomes as the side's points difference does (a march over three or
   four tricks, a euchre with no trick over one or two), so the searcher plays for its side, as
   its side is in that world. Ties go to what the heuristic would do, then to the lowest card.

Every choice is tried on the same worlds, so their comparison is paired. With ``racing`` on (the
default) a choice clearly worse than the leader is dropped after 8 worlds and every 4 more, and the
decision ends early when one is left or the survivors tie in every world (:mod:`cardlab.sim.racing`);
a choice's mean is then over the worlds it was played on.

**Decisions searched.** Round one (pass or accept; the dealer's exchange that follows is the
heuristic's), round two (pass, unless stuck, or name each other suit), the call (each callable
card, or alone) and every card with more than one legal choice. The dealer's discard is the
heuristic's. In a bidding search the later bidders, the exchange, the call and the play of the
world's completion follow the rollout policy, and the passes already made are read as the
heuristic would make them: a world in which an earlier passer would have accepted (or named a
suit) with its sampled hand is drawn again, up to ``PASS_TRIES`` times (then the last draw
stands). The call and the card searches do not read the bids, only the facts below (but the card
search with inference, below, weighs its worlds by them).

**What a seat knows.** Its own hand; the upcard (in the kitty in round two; in round one with the
dealer, or in the kitty when the dealer discarded it, which only the dealer knows; always with the
dealer when ``dealer_may_discard_upcard`` is off); its own discard when it is the dealer; every
card played; every void shown (a seat that did not follow the led effective suit holds none of
it, the left bower counting as a trump); the called card, which until it is played lies with a
seat other than the maker (the maker too when ``allow_call_own_card``) or in the kitty, so in a
world the partner is whoever holds it and a called card sampled into the kitty leaves the maker
forced alone (the "buried card"); its holder knows it is the partner. The kitty's other cards
stay unseen.

**Tricks already won.** Their winners are public, but until the called card is played not whether
a winner was the partner: in each world the attackers' tricks so far are those won by the maker or
by that world's partner (never the true count, which would tell the searcher who its partner is).

**Sampling** (:mod:`cardlab.sim.worlds`, the game-agnostic sampler Barbu's search uses too,
planned once per decision by :func:`plan_view_nb`): the holders are the five seats and the kitty
(holder 5). A world is exactly uniform over the deals the seat cannot tell apart (the known cards
where they are known to be, every exclusion respected); it never fails and needs no retries.

**Inference** (``search_inference`` on; a seat's ``eps`` > 0, :data:`INFERENCE_EPSILON`; never the oracle).
What the other seats bid and played says something about what they hold: a seat that passed the upcard
probably lacked trumps, a maker that called the left bower holds the right, a seat that threw a low card
on a trick the heuristic would have won probably could not win it. With inference a seat's card search
draws its worlds in proportion to their likelihood: every other seat is modelled as the heuristic softened
by ``eps`` (:mod:`cardlab.sim.inference`: the heuristic's action with probability ``1 - eps``, else a
uniformly random legal one), and each of its past decisions, judged on its hand in the world at the time,
contributes the probability of what it did (:func:`likelihood_nb`): every card it chose among two or
more (its hand then: its sampled hand now plus the cards it played since; its side as the table knew it,
with the world's partner, the world's holder of the called card until that is played), its bids in both
rounds and the maker's call (its hand before the play). The dealer's accept in round one (and its call
before the exchange) is not judged: its hand changed at the exchange, and its discard is unseen. The
worlds are reached by the shared steps: a pool of ``POOL_FACTOR * worlds`` worlds drawn as without
inference, ``worlds`` kept by a systematic comb over their likelihoods, each then moved by ``MOVE_STEPS``
Metropolis swaps of two cards between two other holders (seats or the kitty; a kitty takes no action, so it
adds no factor), refused when a holder may not hold its new card or when a card whose place the seat knows
(the upcard, its own discard) would move. The likelihood reads only each world and the public actions,
so the search still uses nothing its seat has not seen. The bid and call searches, and the oracle, do
not infer; a card search that infers does not race.

**Randomness.** Decision ``n`` (the action number in the hand's log) of hand ``unit`` draws its
worlds from a stream keyed by ``(seed, unit, n)`` (whole games: ``(seed, game, hand * 64 + n)``),
never from a shared generator: results are the same for any thread count or chunk size. The
hand's own stream (dealing, random seats) is used exactly as in ``kernels.play_hand_nb``, so a
table without search seats plays here move for move as there.

The rollouts (``kernels.play_hand_nb``, ``kernels.play_tricks_nb``, :func:`finish_call_nb`) and what a world loop calls
once a world or a rollout (:func:`hand_edge4`, :func:`world_kitty`, :func:`draw_view_nb`, :func:`passes_fit_nb`)
are compiled without reference counting (``_nrt=False``; none allocates): counting each array they are handed cost
about a third of a searched hand's time.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.inference import (MOVE_STEPS, POOL_FACTOR, accepted_nb, comb_pick_nb, move_stream_nb,
                                   propose_swap_nb, softened_nb, undo_swap_nb, uniform_nb)
from cardlab.sim.worlds import draw_world_nb, plan_world_nb
from cardlab.sim.cards import LANE, ONE, ZERO, bit, lowest_card, popcount
from cardlab.sim.racing import race_choice_nb, race_start_nb, race_world_nb
from cardlab.sim.rng import below_n, deal_state, mix64
from cardlab.sim.euchre5.kernels import (DECK_BITS, N_RES, RES_SCORE, WON_BITS, bid_nb, bid_step_nb, callable_nb,
                                         deal_nb, decide_call_nb, discard_step_nb, follow_step_nb, game_over_nb,
                                         knows_ally, lead_step_nb, legal_nb, log_action, partner_nb, play_hand_nb,
                                         play_tricks_nb, points_nb, put_follow_nb, put_lead_nb, score_hand_nb,
                                         start_hand_nb, user_card, user_seat)
from cardlab.sim.euchre5.policies import (BOWERS, POLICY, SUIT_MASKS, accept_nb, bid_strength_nb, call_nb,
                                          follow_beat_nb, lead_nb, name_nb)
from cardlab.sim.policy import ROLLOUT_POLICIES, SHARED_POLICIES
from cardlab.sim.euchre5.rules import (ACCEPT, ALONE, CALL, DECK, DISCARD, KITTY, NAME, PASS, PLAY, PLAYERS, RULE,
                                       TIE_PLAY_ON, TRICKS)

SEARCH = POLICY.SEARCH  # policy id of a search seat, the shared ids of cardlab.sim.policy


@njit(cache=True, error_model="numpy", inline="always")
def searches_nb(policy):
    """Whether a seat of ``policy`` searches: ``search``, or the ``oracle`` (search over the true deal)."""
    return policy == SEARCH or policy == POLICY.ORACLE
POLICY_NAMES = SHARED_POLICIES
ROLLOUT_NAMES = ROLLOUT_POLICIES  # rollout policies, ids as in POLICY
DEFAULT_WORLDS = 32
MAX_WORLDS = 4096
HOLDERS = PLAYERS + 1  # the five seats and the kitty
KITTY_HOLDER = PLAYERS
SEARCH_SALT = np.uint64(0x3E2C4B5A69788796)
ROLLOUT_SALT = np.uint64(0x0E0C4EE5EA5C40DE)
GAME_DECISIONS = 64  # decision keys per hand of a whole game
PASS_TRIES = 32  # worlds drawn at most to find one where the earlier passes fit the heuristic's bidding
INFERENCE_EPSILON = 0.2  # the softened heuristic's chance of a uniformly random legal action (measured: docs)
# The public history the likelihood reads (:func:`likelihood_nb`): a card's row of ``history`` (int64) and of
# ``history_masks`` (uint64), a bid's row of ``bids``.
H_SEAT, H_CARD, H_PLACE, H_WINNER, H_REVEALED = range(5)
HM_SUIT, HM_BEAT, HM_TRICK, HM_REMAINING = range(4)
B_SEAT, B_KIND, B_PLACE, B_VALUE = range(4)
BID_ROUND_ONE, BID_ROUND_TWO, BID_CALL = 1, 2, 3  # a bid's kind; its value: 1 accept / 0 pass, a suit / -1, a card / -1
MAX_BIDS = 2 * PLAYERS + 1
# Typed constants for arguments, not literals: Numba compiles a function called with a literal argument again
# for that literal, so one caller passing 0 where the others pass a variable compiles the callee twice.
ZERO_I = np.int64(0)
ROUND_ONE = np.int64(1)
ROUND_TWO = np.int64(2)
NO = np.bool_(False)
NONE_I = np.int64(-1)  # no forced maker or trump; no stop
# Columns of a bidding decision's candidate means (card decisions use the card id; round two a suit 0-3).
PASS_COL, ACCEPT_COL, ALONE_COL = 62, 63, 63


@njit(cache=True, error_model="numpy", inline="always")
def search_state(seed, unit, decision):
    """The searcher's stream for one decision, keyed by (seed, unit, decision) alone."""
    return mix64(deal_state(seed, unit) ^ mix64(SEARCH_SALT + np.uint64(decision)))


@njit(cache=True, error_model="numpy", inline="always")
def edge4(scores, s):
    """4 × (seat ``s``'s points minus the mean points of the other four) from five scores."""
    total = 0
    for q in range(PLAYERS):
        total += scores[q]
    return 5 * scores[s] - total


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_edge4(rules, maker, partner, alone, maker_tricks, s):
    """:func:`edge4` of seat ``s`` for a played hand."""
    attack, defend = points_nb(rules, alone, maker_tricks)
    attackers = 1 if partner < 0 else 2
    own = attack if (s == maker or s == partner) else defend
    return 5 * own - attack * attackers - defend * (PLAYERS - attackers)


@njit(cache=True, error_model="numpy", _nrt=False)
def world_kitty(world, upcard, kitty):
    """The world's kitty as three card ids, the upcard first (``world[5]`` holds the other two)."""
    kitty[0] = upcard
    m = world[KITTY_HOLDER] & ~bit(upcard)
    for j in range(1, KITTY):
        kitty[j] = lowest_card(m)
        m &= m - ONE


@njit(cache=True, error_model="numpy")
def plan_view_nb(s, holders, known, excluded, view):
    """The plan of seat ``s``'s worlds (``worlds.plan_world_nb``): the cards of ``holders`` (five hands and
    the kitty) that ``s`` does not know (``known[h]``: cards ``s`` knows holder ``h`` has) to be dealt
    anew, ``excluded[h]`` respected; ``view`` receives what is dealt (the unknown part of each holder)."""
    for h in range(HOLDERS):
        view[h] = holders[h] if h == s else holders[h] & ~known[h]
    return plan_world_nb(s, HOLDERS, view, excluded)


@njit(cache=True, error_model="numpy", _nrt=False)
def draw_view_nb(state, plan, s, view, known, world):
    """One world of seat ``s`` from :func:`plan_view_nb`'s ``plan``: ``world`` receives the six holders
    (the dealt cards and the known ones). Returns the stream."""
    state = draw_world_nb(state, plan, s, view, world)
    for h in range(HOLDERS):
        if h != s:
            world[h] |= known[h]
    return state


@njit(cache=True, error_model="numpy", inline="always")
def world_nb(state, plan, s, view, known, world, oracle, holders):
    """The next world of a search: drawn from seat ``s``'s view (:func:`draw_view_nb`), or for the ``oracle``
    (search that sees the true deal) the true ``holders`` themselves. Returns the stream."""
    if oracle:
        for h in range(HOLDERS):
            world[h] = holders[h]
        return mix64(state)
    return draw_view_nb(state, plan, s, view, known, world)


@njit(cache=True, error_model="numpy", inline="always")
def candidates_nb(mask, fallback, totals, out):
    """The columns of ``mask`` (cards, and ``ALONE_COL``), lowest first, into ``out``, each one's ``totals`` zeroed:
    returns (how many, the index of ``fallback`` among them or -1)."""
    n_c, fall = 0, -1
    while mask != ZERO:
        c = lowest_card(mask)
        mask &= mask - ONE
        totals[c] = 0
        if c == fallback:
            fall = n_c
        out[n_c] = c
        n_c += 1
    return n_c, fall


@njit(cache=True, error_model="numpy", inline="always")
def world_count(worlds, rollout, oracle):
    """The worlds a search plays: ``worlds``, but one for the oracle with heuristic rollouts, which play the true
    deal alike each time."""
    return 1 if oracle and rollout == POLICY.HEURISTIC else worlds


@njit(cache=True, error_model="numpy")
def sample_view_nb(state, s, holders, known, excluded, view, world, slack):
    """One world from seat ``s``'s view at once (:func:`plan_view_nb` then :func:`draw_view_nb`; ``slack``
    is not read). Returns the stream."""
    plan = plan_view_nb(s, holders, known, excluded, view)
    return draw_view_nb(state, plan, s, view, known, world)


@njit(cache=True, error_model="numpy", _nrt=False)
def passes_fit_nb(world, upcard, dealer, rules, rnd, k, s):
    """Whether every seat that passed before place ``k`` of round ``rnd`` (all five in round one when
    ``rnd`` is 2) would have passed with its hand in ``world`` as the heuristic bids."""
    first = k if rnd == 1 else PLAYERS + 1
    for j in range(1, first):
        p = (dealer + j) % PLAYERS
        if p != s and accept_nb(world[p], upcard, j, rules[RULE.DISCARD_UPCARD] != 0):
            return False
    if rnd == 2:
        for j in range(1, k):
            p = (dealer + j) % PLAYERS
            if p != s and name_nb(world[p], upcard, j, False) >= 0:
                return False
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def world_partner_nb(world, maker, partner, alone, called, revealed):
    """The partner and alone status of ``world``: the true ``partner`` and ``alone`` once the called card is out
    (``revealed``) or with no card called, else the world's holder of the called card (``kernels.partner_nb``: in
    the kitty, forced alone; with the maker itself, alone by choice)."""
    if called >= 0 and not revealed:
        return partner_nb(world, world[KITTY_HOLDER], called, world[maker] & bit(called) != ZERO)
    return partner, alone


@njit(cache=True, error_model="numpy")
def likelihood_nb(world, s, eps, maker, partner, called, revealed, trump, alone_public, history, history_masks, count,
                  bids, n_bids, dealer, upcard, rnd, rules, later):
    """The likelihood, in ``world``, of what the seats other than ``s`` did in this hand so far, each modelled as
    the heuristic softened by ``eps`` (:func:`cardlab.sim.inference.softened_nb`; a decision with one legal
    action counts 1). ``later`` (five words) is scratch.

    * **Cards**: the hand's first ``count`` cards (``history``, ``history_masks``: seat, card, place in the trick,
      the trick's winner so far, whether the called card was out; the led suit, the cards that beat the winner,
      the cards in the trick, the cards not in a finished trick). A seat's hand when it played card ``i`` is its
      hand in ``world`` plus every card it played from ``i`` on; its heuristic card there is the kernels' lead
      (an attacker pulls trumps) or follow (it knows its ally as the table did then: ``kernels.knows_ally``),
      with the world's partner (:func:`world_partner_nb`: its holder of the called card until that is played).
    * **Bids** (``bids[:n_bids]``: seat, kind, place after the dealer, value), each on the seat's hand before
      the play (its hand in ``world`` plus every card it played): round one (accept or pass, out of 2), round
      two (a suit or pass, out of 4; a stuck dealer's suit out of 3) and the maker's call (a card or alone,
      out of its callable cards and alone). The dealer's hand changed at its exchange, and its discard is
      unseen: the dealer's accept in round one and, when the call comes before the exchange, a dealer maker's
      call in round one are not judged (nothing else it did before the exchange is a decision here)."""
    w_partner, _ = world_partner_nb(world, maker, partner, 0, called, revealed)
    for p in range(PLAYERS):
        later[p] = ZERO
    weight = 1.0
    for i in range(count - 1, -1, -1):
        p = history[i, H_SEAT]
        c = history[i, H_CARD]
        later[p] |= bit(c)
        if p == s:
            continue
        hand = world[p] | later[p]
        k = history[i, H_PLACE]
        legal = legal_nb(hand, k, history_masks[i, HM_SUIT])
        n_legal = popcount(legal)
        if n_legal < 2:
            continue
        remaining = history_masks[i, HM_REMAINING]
        if k == 0:
            heur = lead_nb(hand, trump, remaining, p == maker or p == w_partner)
        else:
            ally = knows_ally(p, history[i, H_WINNER], maker, w_partner, history[i, H_REVEALED] != 0, alone_public)
            heur = follow_beat_nb(legal, trump, history_masks[i, HM_BEAT], ally, k == PLAYERS - 1,
                                  remaining & ~hand & ~history_masks[i, HM_TRICK])
        weight *= softened_nb(eps, n_legal, heur == c)
    may_discard_upcard = rules[RULE.DISCARD_UPCARD] != 0
    for i in range(n_bids):
        p = bids[i, B_SEAT]
        if p == s:
            continue
        hand = world[p] | later[p]
        kind = bids[i, B_KIND]
        place = bids[i, B_PLACE]
        value = bids[i, B_VALUE]
        if kind == BID_ROUND_ONE:
            if p == dealer and rnd == 1:
                continue  # the dealer accepted, then exchanged: its hand then is not this one
            weight *= softened_nb(eps, 2, accept_nb(hand, upcard, place, may_discard_upcard) == (value == 1))
        elif kind == BID_ROUND_TWO:
            stuck = place == PLAYERS and rules[RULE.STICK] != 0
            weight *= softened_nb(eps, 3 if stuck else 4, name_nb(hand, upcard, place, stuck) == value)
        else:
            if p == dealer and rnd == 1 and rules[RULE.CALL_FIRST] != 0:
                continue  # called before its exchange: its hand then is not this one
            cards = callable_nb(hand, trump, upcard, rules)
            weight *= softened_nb(eps, popcount(cards) + 1, call_nb(hand, trump, cards) == value)
    return weight


@njit(cache=True, error_model="numpy")
def search_bid_nb(state, s, hands, kitty, dealer, rules, rnd, k, worlds, rollout, racing, oracle, fallback, totals,
                  counts):
    """A searched bid of seat ``s`` at place ``k`` of round ``rnd``, raced when ``racing``: returns
    (candidate columns, their number, the best one: ``PASS_COL``, ``ACCEPT_COL`` or a suit; ties to the
    column ``fallback``, then to the first candidate); ``totals`` gets each candidate's summed
    :func:`edge4`, ``counts`` the worlds it was played on. The upcard is known in the kitty; nothing
    else is (but to the ``oracle``, which plays the true deal: :func:`world_nb`)."""
    upcard = kitty[0]
    up_suit = upcard // LANE
    stuck = rnd == 2 and k == PLAYERS and rules[RULE.STICK] != 0
    holders = np.empty(HOLDERS, np.uint64)
    known = np.zeros(HOLDERS, np.uint64)
    excluded = np.zeros(HOLDERS, np.uint64)
    view = np.empty(HOLDERS, np.uint64)
    world = np.empty(HOLDERS, np.uint64)
    work = np.empty(PLAYERS, np.uint64)
    wk = np.empty(KITTY, np.int64)
    res = np.empty(N_RES, np.int64)
    no_log = np.empty((0, 3), np.int8)
    no_fault = np.zeros(2, np.int64)  # the rollouts seat no Numba player
    roll_policies = np.full(PLAYERS, rollout, np.int64)
    for p in range(PLAYERS):
        holders[p] = hands[p]
    holders[KITTY_HOLDER] = bit(kitty[0]) | bit(kitty[1]) | bit(kitty[2])
    known[KITTY_HOLDER] = bit(upcard)
    cands = np.empty(5, np.int64)
    n_c = 0
    if not stuck:
        cands[n_c] = PASS_COL
        n_c += 1
    if rnd == 1:
        cands[n_c] = ACCEPT_COL
        n_c += 1
    else:
        for t in range(4):
            if t != up_suit:
                cands[n_c] = t
                n_c += 1
    fall = -1
    for j in range(n_c):
        totals[cands[j]] = 0
        if cands[j] == fallback:
            fall = j
    n_worlds = world_count(worlds, rollout, oracle)
    values, alive, played = race_start_nb(n_worlds, n_c)
    plan = plan_view_nb(s, holders, known, excluded, view)
    for w in range(n_worlds):
        for _ in range(PASS_TRIES):  # a world where the earlier passes are what the heuristic would bid
            state = world_nb(state, plan, s, view, known, world, oracle, holders)
            if oracle or passes_fit_nb(world, upcard, dealer, rules, rnd, k, s):
                break
        roll = mix64(state ^ ROLLOUT_SALT)
        world_kitty(world, upcard, wk)
        for j in range(n_c):
            if not alive[j]:
                continue
            col = cands[j]
            values[w, j] = 0.0
            for p in range(PLAYERS):
                work[p] = world[p]
            r = roll
            if col == PASS_COL:
                r, maker, trump, _, _ = bid_nb(work, upcard, dealer, rules, roll_policies, rnd, k + 1, r, no_log, 0,
                                               None, None)
            else:
                maker = s
                trump = up_suit if col == ACCEPT_COL else col
            if maker < 0:
                continue  # a void hand: nobody scores, edge 0
            play_hand_nb(work, wk, dealer, rules, roll_policies, maker, trump, r, no_log, res, None, None, no_fault)
            v = edge4(res[RES_SCORE:RES_SCORE + PLAYERS], s)
            values[w, j] = v
            totals[col] += v
        if race_world_nb(values, w, alive, played, racing):
            break
    return cands, n_c, race_choice_nb(cands, values, alive, played, fall, counts)


@njit(cache=True, error_model="numpy", _nrt=False)
def finish_call_nb(hands, kitty_mask, upcard, dealer, rules, policies, maker, trump, rnd, called, exchange_pending,
                   state, log):
    """Play a hand on from the maker's call (``called`` card, -1 alone) with the plain hand's steps:
    the dealer's discard when still pending (the call came first), then five tricks, every seat by
    its ``policies`` entry (``log`` with no rows). Returns (partner, alone, attackers' tricks, state)."""
    if exchange_pending:
        state, d = discard_step_nb(hands, dealer, maker, upcard, trump, called, rules, policies[dealer], state)
        kitty_mask |= bit(d)
    partner, alone = partner_nb(hands, kitty_mask, called, called >= 0 and hands[maker] & bit(called) != ZERO)
    remaining = DECK_BITS
    if rnd == 2:
        remaining &= ~bit(upcard)
    leader = (dealer + 1) % PLAYERS
    tricks, state = play_tricks_nb(hands, trump, maker, partner, called, called < 0, NO, remaining, ZERO_I, ZERO_I,
                                   leader, ZERO, ZERO, leader, ZERO, 0, -1, policies, state, log)
    return partner, alone, tricks, state


@njit(cache=True, error_model="numpy")
def search_call_nb(state, s, holders, known, excluded, upcard, dealer, rules, trump, rnd, exchange_pending, worlds,
                   rollout, racing, oracle, fallback, totals, counts):
    """The searched call of maker ``s``: each callable card and going alone (``ALONE_COL``) tried on
    the same worlds, raced when ``racing``; returns (candidate mask of cards, best column: ties to the
    column ``fallback``, then to the lowest); ``totals`` gets summed edges, ``counts`` the worlds each
    candidate was played on."""
    cards = callable_nb(holders[s], trump, upcard, rules)
    cols = np.empty(popcount(cards) + 1, np.int64)  # the candidates in the order tried: cards, then alone
    view = np.empty(HOLDERS, np.uint64)
    world = np.empty(HOLDERS, np.uint64)
    work = np.empty(PLAYERS, np.uint64)
    roll_policies = np.full(PLAYERS, rollout, np.int64)
    no_log = np.empty((0, 3), np.int8)
    n_c, fall = candidates_nb(cards | bit(ALONE_COL), fallback, totals, cols)
    n_worlds = world_count(worlds, rollout, oracle)
    values, alive, played = race_start_nb(n_worlds, n_c)
    plan = plan_view_nb(s, holders, known, excluded, view)
    for w in range(n_worlds):
        state = world_nb(state, plan, s, view, known, world, oracle, holders)
        roll = mix64(state ^ ROLLOUT_SALT)
        for j in range(n_c):
            if not alive[j]:
                continue
            col = cols[j]
            for p in range(PLAYERS):
                work[p] = world[p]
            called = -1 if col == ALONE_COL else col
            partner, alone, tricks, _ = finish_call_nb(work, world[KITTY_HOLDER], upcard, dealer, rules, roll_policies,
                                                       s, trump, rnd, called, exchange_pending, roll, no_log)
            v = hand_edge4(rules, s, partner, alone, tricks, s)
            values[w, j] = v
            totals[col] += v
        if race_world_nb(values, w, alive, played, racing):
            break
    return cards, race_choice_nb(cols, values, alive, played, fall, counts)


@njit(cache=True, error_model="numpy")
def card_search_nb(state, s, holders, known, excluded, worlds, rollout, racing, oracle, rules, trump, maker, partner,
                   alone, called, alone_public, revealed, remaining, t, k, leader, suit, beat, winner, in_trick,
                   winners, legal, fallback, totals, counts, eps, history, history_masks, count, bids, n_bids, dealer,
                   upcard, rnd):
    """The searched card of seat ``s`` (see the module docstring), raced when ``racing``; ``totals[c]`` gets
    each legal card's summed :func:`edge4`, ``counts[c]`` the worlds it was played on. ``partner``/``alone``
    are the true ones, used once the called card is out (``revealed``) or when the maker is alone by
    choice; otherwise each world's holder of the called card is the partner (the kitty: forced alone;
    the maker itself: alone by choice).

    ``winners[:t]`` are the seats that won the tricks already played (public). The attackers'
    tricks so far are counted in each world with that world's partner: until the called card is
    played, whether an earlier trick went to the partner is what the world says, not the truth.
    The trick under way is ``leader``, its led ``suit`` (a mask), ``beat`` (the cards that beat the
    winning one), ``winner`` and its cards ``in_trick``, as ``kernels.play_tricks_inline`` keeps it.

    **Inference** (``eps`` > 0, never the oracle's): the worlds are drawn in proportion to
    :func:`likelihood_nb` of the hand's public history (its first ``count`` cards, ``history`` and
    ``history_masks``; its ``n_bids`` bids and call, ``bids``) by :mod:`cardlab.sim.inference`'s steps: a pool
    of ``POOL_FACTOR * worlds`` worlds drawn as without inference, ``worlds`` of them kept by the systematic
    comb, each moved by ``MOVE_STEPS`` Metropolis card swaps among the other seats and the kitty. A swap that
    would move a card the seat knows the place of (the upcard, its own discard) is refused like one that breaks
    an exclusion, so every world keeps what the seat knows. The candidates are not raced then."""
    view = np.empty(HOLDERS, np.uint64)
    world = np.empty(HOLDERS, np.uint64)
    work = np.empty(PLAYERS, np.uint64)
    roll_policies = np.full(PLAYERS, rollout, np.int64)
    no_log = np.empty((0, 3), np.int8)
    cards = np.empty(popcount(legal), np.int64)  # the candidates, lowest card first
    n_c, fall = candidates_nb(legal, fallback, totals, cards)
    n_worlds = world_count(worlds, rollout, oracle)
    values, alive, played = race_start_nb(n_worlds, n_c)
    plan = plan_view_nb(s, holders, known, excluded, view)
    inferring = eps > 0.0 and not oracle
    pool = POOL_FACTOR * n_worlds if inferring else 0
    pool_worlds = np.empty((pool, HOLDERS), np.uint64)
    pool_states = np.empty(pool, np.uint64)
    cumulative = np.empty(pool, np.float64)
    likelihoods = np.empty(pool, np.float64)
    later = np.empty(PLAYERS, np.uint64)
    swap_excluded = np.empty(HOLDERS, np.uint64)
    total = 0.0
    for j in range(pool):  # inference: a pool of worlds, each weighted by the others' past bids and cards
        state = draw_view_nb(state, plan, s, view, known, world)
        for h in range(HOLDERS):
            pool_worlds[j, h] = world[h]
        pool_states[j] = state
        likelihoods[j] = likelihood_nb(world, s, eps, maker, partner, called, revealed, trump, alone_public, history,
                                       history_masks, count, bids, n_bids, dealer, upcard, rnd, rules, later)
        total += likelihoods[j]
        cumulative[j] = total
    start = 0.0
    if inferring:
        state, start = uniform_nb(state)
        placed = ZERO  # the cards the seat knows the place of: no swap moves them
        for h in range(HOLDERS):
            if h != s:
                placed |= known[h]
        for h in range(HOLDERS):
            swap_excluded[h] = excluded[h] | (placed & ~known[h])
    race_on = racing if not inferring else 0
    pick = 0
    for w in range(n_worlds):
        if inferring:  # the pool world under the comb's tooth w, moved by card swaps from its own stream
            pick = comb_pick_nb(cumulative, pick, w, start, total, n_worlds)
            for h in range(HOLDERS):
                world[h] = pool_worlds[pick, h]
            moves = move_stream_nb(pool_states[pick], w)
            like = likelihoods[pick]
            for _ in range(MOVE_STEPS):
                moves, a, b, ca, cb, u = propose_swap_nb(moves, world, s, HOLDERS, swap_excluded)
                if ca < 0:
                    continue
                moved = likelihood_nb(world, s, eps, maker, partner, called, revealed, trump, alone_public, history,
                                      history_masks, count, bids, n_bids, dealer, upcard, rnd, rules, later)
                if accepted_nb(u, like, moved):
                    like = moved
                else:
                    undo_swap_nb(world, a, b, ca, cb)
            roll = mix64(moves ^ ROLLOUT_SALT)
        else:
            state = world_nb(state, plan, s, view, known, world, oracle, holders)
            roll = mix64(state ^ ROLLOUT_SALT)
        w_partner, w_alone = world_partner_nb(world, maker, partner, alone, called, revealed)
        w_tricks = 0
        for u in range(t):
            if winners[u] == maker or winners[u] == w_partner:
                w_tricks += 1
        for j in range(n_c):
            if not alive[j]:
                continue
            c = cards[j]
            for p in range(PLAYERS):
                work[p] = world[p]
            tricks, _ = play_tricks_nb(work, trump, maker, w_partner, called, alone_public, revealed, remaining, t, k,
                                       leader, suit, beat, winner, in_trick, w_tricks, c, roll_policies, roll, no_log)
            v = hand_edge4(rules, maker, w_partner, w_alone, tricks, s)
            values[w, j] = v
            totals[c] += v
        if race_world_nb(values, w, alive, played, race_on):
            break
    return race_choice_nb(cards, values, alive, played, fall, counts)


@njit(cache=True, error_model="numpy")
def knowledge_nb(s, hands, kitty_mask, upcard, dealer, rules, rnd, discard, exchange_pending, maker, called,
                 revealed, voids, holders, known, excluded):
    """Fill ``holders`` (the true six holders), ``known`` and ``excluded`` for seat ``s`` after the
    bidding (see "What a seat knows" in the module docstring)."""
    for p in range(PLAYERS):
        holders[p] = hands[p]
        known[p] = ZERO
        excluded[p] = voids[p]
    holders[KITTY_HOLDER] = kitty_mask
    known[KITTY_HOLDER] = ZERO
    excluded[KITTY_HOLDER] = ZERO
    up = bit(upcard)
    if rnd == 2:
        known[KITTY_HOLDER] = up
    elif s == dealer:
        if discard >= 0:
            known[KITTY_HOLDER] = bit(discard)
    elif exchange_pending or rules[RULE.DISCARD_UPCARD] == 0:
        known[dealer] = hands[dealer] & up  # with the dealer until played
    else:
        for p in range(PLAYERS):
            if p != dealer:
                excluded[p] |= up  # with the dealer, or its discard
    if called >= 0 and not revealed and rules[RULE.CALL_OWN] == 0 and s != maker:
        excluded[maker] |= bit(called)


@njit(cache=True, error_model="numpy", inline="always")
def put_bid(bids, n_bids, seat, kind, place, value):
    """Keep a bid (or the call) for :func:`likelihood_nb`; returns the bids kept."""
    bids[n_bids, B_SEAT] = seat
    bids[n_bids, B_KIND] = kind
    bids[n_bids, B_PLACE] = place
    bids[n_bids, B_VALUE] = value
    return n_bids + 1


@njit(cache=True, error_model="numpy", inline="always")
def put_card(history, history_masks, count, p, c, k, winner, revealed, suit, beat, in_trick, remaining):
    """Keep card ``c`` of seat ``p``, played ``k``-th in its trick, and the trick and hand as they stood before it,
    for :func:`likelihood_nb`; returns the cards kept."""
    history[count, H_SEAT] = p
    history[count, H_CARD] = c
    history[count, H_PLACE] = k
    history[count, H_WINNER] = winner
    history[count, H_REVEALED] = 1 if revealed else 0
    history_masks[count, HM_SUIT] = suit
    history_masks[count, HM_BEAT] = beat
    history_masks[count, HM_TRICK] = in_trick
    history_masks[count, HM_REMAINING] = remaining
    return count + 1


@njit(cache=True, error_model="numpy")
def play_search_hand_nb(seed, unit, base, hands, kitty, dealer, rules, policies, force_maker, force_trump, worlds,
                        rollout, racing, eps, state, log, means, res, bid_fn, card_fn, fault, stop):
    """Play one hand as ``kernels.play_hand_nb`` does (same arguments, same use of ``state``), with
    ``SEARCH`` seats searching their bids, call and cards, and the seats of a Numba function (``bid_fn``,
    ``card_fn``: ``kernels.play_hand_inline``'s) playing as in the plain kernels. Decision ``n`` (the action number)
    searches from the stream ``(seed, unit, base + n)``, raced when ``racing`` (:mod:`cardlab.sim.racing`).
    ``means`` (MAX_ACTIONS x 64, or no rows) receives each searched decision's candidate means (edge per
    hand, over the worlds each candidate was played on; NaN elsewhere). With ``stop >= 0`` the first ``stop``
    actions are given (``log[:stop]``, a step-API state's: no policy step, no search) and the hand stops once action
    ``stop`` is chosen, into the log. ``eps[p]`` > 0: search seat ``p``'s card search infers
    (:func:`card_search_nb`) from the hand's bids, call and cards so far, which the hand keeps as it goes.

    The rules are the plain hand's steps (``kernels.bid_nb``'s, ``discard_step_nb``,
    ``decide_call_nb``, ``partner_nb``, ``play_tricks_inline``'s, ``score_hand_nb``) in the same
    order; at each step a search seat takes the heuristic's choice as its tie-break and then
    searches. Only the order of the steps is written again here: the search's rollouts play with the
    plain loops, so a searched loop that called the search would call itself through them."""
    keep = means.shape[0] > 0
    if stop < 0:
        start_hand_nb(res, dealer, log)
    else:  # the given actions stay in the log
        start_hand_nb(res, dealer, log[:0])
    if keep:
        means[:] = np.nan
    totals = np.zeros(64, np.int64)
    counts = np.zeros(64, np.int64)
    bids = np.empty((MAX_BIDS, 4), np.int64)  # the public history for inference (likelihood_nb)
    n_bids = 0
    n = ZERO_I
    upcard = kitty[0]
    up_suit = upcard // LANE
    kitty_mask = bit(kitty[0]) | bit(kitty[1]) | bit(kitty[2])
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
            policy = policies[p]
            if n < stop:  # given
                yes = log[n, 1] == ACCEPT
            else:
                state, made = bid_step_nb(POLICY.HEURISTIC if searches_nb(policy) else policy, p, hands[p], upcard,
                                          1, k, rules, state, bid_fn, fault)
                yes = made >= 0
                if searches_nb(policy):
                    yes = _bid(seed, unit, base, n, p, hands, kitty, dealer, rules, ROUND_ONE, k, worlds, rollout,
                               racing, policy == POLICY.ORACLE, ACCEPT_COL if yes else PASS_COL, totals, counts,
                               means) == ACCEPT_COL
            n = log_action(log, n, p, ACCEPT if yes else PASS, -1)
            n_bids = put_bid(bids, n_bids, p, BID_ROUND_ONE, k, 1 if yes else 0)
            if n == stop + 1:
                return state
            if yes:
                maker = p
                trump = up_suit
                rnd = 1
                break
        if maker < 0:
            for k in range(1, PLAYERS + 1):  # round two
                p = (dealer + k) % PLAYERS
                policy = policies[p]
                if n < stop:  # given
                    named = np.int64(log[n, 2])
                else:
                    state, named = bid_step_nb(POLICY.HEURISTIC if searches_nb(policy) else policy, p, hands[p],
                                               upcard, 2, k, rules, state, bid_fn, fault)
                    if searches_nb(policy):
                        col = _bid(seed, unit, base, n, p, hands, kitty, dealer, rules, ROUND_TWO, k, worlds, rollout,
                                   racing, policy == POLICY.ORACLE, PASS_COL if named < 0 else named, totals, counts,
                                   means)
                        named = -1 if col == PASS_COL else col
                n_bids = put_bid(bids, n_bids, p, BID_ROUND_TWO, k, named)
                if named < 0:
                    n = log_action(log, n, p, PASS, -1)
                else:
                    n = log_action(log, n, p, NAME, named)
                    maker = p
                    trump = named
                    rnd = 2
                if n == stop + 1:
                    return state
                if named >= 0:
                    break
            if maker < 0:
                return state
    holders = np.empty(HOLDERS, np.uint64)
    known = np.empty(HOLDERS, np.uint64)
    excluded = np.empty(HOLDERS, np.uint64)
    voids = np.zeros(PLAYERS, np.uint64)
    called = -2
    discard = -1
    if rnd == 1:  # the dealer's exchange
        hands[dealer] |= bit(upcard)
        kitty_mask &= ~bit(upcard)
        if rules[RULE.CALL_FIRST] != 0:
            if n < stop:  # given
                called = np.int64(log[n, 2])
                n += 1
            else:
                state, called, n = _call(seed, unit, base, n, hands, kitty_mask, upcard, dealer, rules, policies,
                                         maker, trump, rnd, -1, True, voids, worlds, rollout, racing, state, log,
                                         means, totals, counts, holders, known, excluded)
            n_bids = put_bid(bids, n_bids, maker, BID_CALL, 0, called)
            if n == stop + 1:
                return state
        if n < stop:  # given
            d = np.int64(log[n, 2])
            hands[dealer] &= ~bit(d)
        else:
            state, d = discard_step_nb(hands, dealer, maker, upcard, trump, called, rules, policies[dealer], state)
        kitty_mask |= bit(d)
        discard = d
        n = log_action(log, n, dealer, DISCARD, d)
        if n == stop + 1:
            return state
    if called == -2:
        if n < stop:  # given
            called = np.int64(log[n, 2])
            n += 1
        else:
            state, called, n = _call(seed, unit, base, n, hands, kitty_mask, upcard, dealer, rules, policies, maker,
                                     trump, rnd, discard, False, voids, worlds, rollout, racing, state, log, means,
                                     totals, counts, holders, known, excluded)
        n_bids = put_bid(bids, n_bids, maker, BID_CALL, 0, called)
        if n == stop + 1:
            return state
    # ``own`` is read after the exchange here (the plain hand reads it at the call): kept as it was
    partner, alone = partner_nb(hands, kitty_mask, called, called >= 0 and hands[maker] & bit(called) != ZERO)

    alone_public = called < 0
    revealed = False
    remaining = DECK_BITS
    if rnd == 2:
        remaining &= ~bit(upcard)
    leader = (dealer + 1) % PLAYERS
    maker_tricks = 0
    won = 0  # tricks taken by each seat, 3 bits a seat (a Numba seat's view)
    winners = np.full(TRICKS, -1, np.int64)  # who won each trick played: the search counts tricks per world
    history = np.empty((TRICKS * PLAYERS, 5), np.int64)  # each card played, as likelihood_nb reads it
    history_masks = np.empty((TRICKS * PLAYERS, 4), np.uint64)
    count = 0
    for t in range(TRICKS):
        suit = ZERO
        beat = ZERO
        winner = leader
        in_trick = ZERO
        for k in range(PLAYERS):
            p = leader + k
            if p >= PLAYERS:
                p -= PLAYERS
            hand = hands[p]
            legal = legal_nb(hand, k, suit)
            policy = policies[p]
            step = POLICY.HEURISTIC if searches_nb(policy) else policy
            if n < stop:  # given
                c = np.int64(log[n, 2])
            elif user_seat(card_fn, policy) and legal & (legal - ONE) != ZERO:
                c = user_card(card_fn, fault, p, hand, legal, k, suit, beat, winner, in_trick, trump, maker, partner,
                              called, revealed, alone_public, remaining, upcard, dealer, discard, won)
            elif k == 0:
                state, c = lead_step_nb(step, p, hand, trump, remaining, maker, partner, state)
            else:
                state, c = follow_step_nb(step, p, hand, legal, k, trump, beat, remaining, in_trick, maker, partner,
                                          winner, revealed, alone_public, state)
            if n >= stop and searches_nb(policy) and legal & (legal - ONE) != ZERO:
                knowledge_nb(p, hands, kitty_mask, upcard, dealer, rules, rnd, discard, False, maker, called,
                             revealed, voids, holders, known, excluded)
                c = card_search_nb(search_state(seed, unit, base + n), p, holders, known, excluded, worlds, rollout,
                                   racing, policy == POLICY.ORACLE, rules, trump, maker, partner, alone, called,
                                   alone_public, revealed, remaining, t, k, leader, suit, beat, winner, in_trick,
                                   winners, legal, c, totals, counts, eps[p], history, history_masks, count, bids,
                                   n_bids, dealer, upcard, rnd)
                if keep:
                    m = legal
                    while m != ZERO:
                        x = lowest_card(m)
                        m &= m - ONE
                        means[n, x] = totals[x] / (4.0 * counts[x])
            count = put_card(history, history_masks, count, p, c, k, winner, revealed, suit, beat, in_trick, remaining)
            if k == 0:
                in_trick, suit, beat, winner = put_lead_nb(c, p, hands, trump)
            else:
                if hand & suit == ZERO:  # a void shown
                    voids[p] |= suit
                in_trick, beat, winner = put_follow_nb(c, p, hands, trump, in_trick, beat, winner)
            n = log_action(log, n, p, PLAY, c)
            if n == stop + 1:
                return state
            revealed |= c == called
        remaining &= ~in_trick
        if winner == maker or winner == partner:
            maker_tricks += 1
        winners[t] = winner
        won += 1 << (WON_BITS * winner)
        leader = winner
    score_hand_nb(res, rules, maker, trump, rnd, alone, partner, maker_tricks, called)
    return state


@njit(cache=True, error_model="numpy")
def _bid(seed, unit, base, n, s, hands, kitty, dealer, rules, rnd, k, worlds, rollout, racing, oracle, heur_col, totals,
         counts, means):
    """The searched bid of seat ``s`` (:func:`search_bid_nb`) at place ``k`` of round ``rnd``, the
    heuristic's column ``heur_col`` winning ties; records the candidates' means at action ``n``.
    Returns the column chosen (``PASS_COL``, ``ACCEPT_COL`` or a suit)."""
    cands, n_c, best_col = search_bid_nb(search_state(seed, unit, base + n), s, hands, kitty, dealer, rules, rnd, k,
                                         worlds, rollout, racing, oracle, heur_col, totals, counts)
    if means.shape[0] > 0:
        for j in range(n_c):
            means[n, cands[j]] = totals[cands[j]] / (4.0 * counts[cands[j]])
    return best_col


@njit(cache=True, error_model="numpy")
def _call(seed, unit, base, n, hands, kitty_mask, upcard, dealer, rules, policies, maker, trump, rnd, discard,
          exchange_pending, voids, worlds, rollout, racing, state, log, means, totals, counts, holders, known,
          excluded):
    """The maker's call (``kernels.decide_call_nb``, searched for a ``SEARCH`` maker); logs it.
    Returns (state, called card or -1 for alone, next action number)."""
    policy = policies[maker]
    state, called = decide_call_nb(hands[maker], trump, upcard, rules,
                                   POLICY.HEURISTIC if searches_nb(policy) else policy, state)
    if searches_nb(policy):
        cards = callable_nb(hands[maker], trump, upcard, rules)
        if cards != ZERO:
            knowledge_nb(maker, hands, kitty_mask, upcard, dealer, rules, rnd, discard, exchange_pending, maker, -1,
                         False, voids, holders, known, excluded)
            cards, best_col = search_call_nb(search_state(seed, unit, base + n), maker, holders, known, excluded,
                                             upcard, dealer, rules, trump, rnd, exchange_pending, worlds, rollout,
                                             racing, policy == POLICY.ORACLE, ALONE_COL if called < 0 else called,
                                             totals, counts)
            called = -1 if best_col == ALONE_COL else best_col
            if means.shape[0] > 0:
                m = cards | bit(ALONE_COL)
                while m != ZERO:
                    col = lowest_card(m)
                    m &= m - ONE
                    means[n, col] = totals[col] / (4.0 * counts[col])
    n = log_action(log, n, maker, CALL if called >= 0 else ALONE, called)
    return state, called, n


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_search_deals_nb(seed, first, count, rules, policies, worlds, rollout, racing, eps, out, log_hands, log_kitty,
                         log_moves, log_means, bid_fn, card_fn, faults):
    """``kernels.play_deals_nb`` with search seats: hand ``i`` dealt by seat ``i % 5`` from (seed, i),
    one hand per parallel work item (a searched hand is long). ``log_means`` (count, MAX_ACTIONS,
    64) is filled when it has rows; ``bid_fn``, ``card_fn`` and ``faults`` as ``kernels.play_deals_nb``'s."""
    record = log_moves.shape[0] > 0
    for j in prange(count):
        hands = np.empty(PLAYERS, np.uint64)
        scratch = np.empty(DECK.shape[0], np.int8)
        kitty = np.empty(KITTY, np.int64)
        res = np.empty(N_RES, np.int64)
        i = first + j
        state = deal_nb(deal_state(seed, i), scratch, hands, kitty)
        log = np.empty((0, 3), np.int8)
        means = np.empty((0, 64), np.float32)
        if record:
            log = log_moves[j]
            log_hands[j, :] = hands
            log_kitty[j, :] = kitty
        if log_means.shape[0] > 0:
            means = log_means[j]
        play_search_hand_nb(seed, i, ZERO_I, hands, kitty, i % PLAYERS, rules, policies, NONE_I, NONE_I, worlds,
                            rollout, racing, eps, state, log, means, res, bid_fn, card_fn, faults[j], NONE_I)
        for r in range(N_RES):
            out[r, j] = res[r]


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_search_games_nb(seed, first, count, rules, policies, worlds, rollout, racing, eps, out, lengths, log_hands,
                         log_kitty, log_moves, log_means, bid_fn, card_fn, faults):
    """``kernels.play_games_nb`` with search seats (same streams, same end of game); one game per
    parallel work item. Hand ``h`` of game ``g`` searches from ``(seed, g, h * 64 + n)``. ``faults``: a row
    per game."""
    record = log_moves.shape[0] > 0
    target = rules[RULE.TARGET]
    max_hands = rules[RULE.MAX_HANDS]
    play_on = rules[RULE.TIE_RULE] == TIE_PLAY_ON
    for j in prange(count):
        hands = np.empty(PLAYERS, np.uint64)
        scratch = np.empty(DECK.shape[0], np.int8)
        kitty = np.empty(KITTY, np.int64)
        res = np.empty(N_RES, np.int64)
        totals = np.empty(PLAYERS, np.int64)
        g = first + j
        state, dealer = below_n(deal_state(seed, g), PLAYERS)
        totals[:] = 0
        h = 0
        while True:
            state = deal_nb(state, scratch, hands, kitty)
            log = np.empty((0, 3), np.int8)
            means = np.empty((0, 64), np.float32)
            if record:
                log = log_moves[j, h]
                log_hands[j, h, :] = hands
                log_kitty[j, h, :] = kitty
            if log_means.shape[0] > 0:
                means = log_means[j, h]
            state = play_search_hand_nb(seed, g, h * GAME_DECISIONS, hands, kitty, dealer, rules, policies, NONE_I,
                                        NONE_I, worlds, rollout, racing, eps, state, log, means, res, bid_fn,
                                        card_fn, faults[j], NONE_I)
            if h < out.shape[1]:
                for r in range(N_RES):
                    out[j, h, r] = res[r]
            h += 1
            if game_over_nb(totals, res, h, max_hands, target, play_on):
                break
            dealer = dealer + 1 if dealer < PLAYERS - 1 else 0
        lengths[j] = h


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def play_search_tables_nb(seed, deals, rules, policies, worlds, rollout, racing, eps, out, bid_fn, card_fn, faults):
    """Hand ``deals[j]`` (dealt as in :func:`play_search_deals_nb`) played with the per-seat
    ``policies[j]`` and inference ``eps[j]``: the strength ladder's tables, any mix in one parallel call. ``out``
    (N_RES, rows);
    ``faults`` a row per table row."""
    for j in prange(deals.shape[0]):
        hands = np.empty(PLAYERS, np.uint64)
        scratch = np.empty(DECK.shape[0], np.int8)
        kitty = np.empty(KITTY, np.int64)
        res = np.empty(N_RES, np.int64)
        i = deals[j]
        state = deal_nb(deal_state(seed, i), scratch, hands, kitty)
        play_search_hand_nb(seed, i, ZERO_I, hands, kitty, i % PLAYERS, rules, policies[j], NONE_I, NONE_I, worlds,
                            rollout, racing, eps[j], state, np.empty((0, 3), np.int8), np.empty((0, 64), np.float32),
                            res, bid_fn, card_fn, faults[j], NONE_I)
        for r in range(N_RES):
            out[r, j] = res[r]


@njit(cache=True, error_model="numpy", parallel=True, nogil=True)
def search_trump_study_nb(seed, first, count, rules, policies, worlds, rollout, racing, eps, out, card_fn, faults):
    """``kernels.trump_study_nb`` with search seats: deal ``i`` played once per (maker seat, trump),
    the bidding skipped, the call and the play searched; one (deal, maker, trump) per work item.
    Every variant starts from the same cards, the same hand stream and the same search streams.
    ``faults`` has a row per variant (``count * 20``: deal-major), as the variants play in parallel."""
    for v in prange(count * PLAYERS * 4):
        j = v // (PLAYERS * 4)
        m = (v // 4) % PLAYERS
        t = v % 4
        i = first + j
        dealer = i % PLAYERS
        hands = np.empty(PLAYERS, np.uint64)
        scratch = np.empty(DECK.shape[0], np.int8)
        kitty = np.empty(KITTY, np.int64)
        res = np.empty(N_RES, np.int64)
        state = deal_nb(deal_state(seed, i), scratch, hands, kitty)
        h = hands[m]
        play_search_hand_nb(seed, i, ZERO_I, hands, kitty, dealer, rules, policies, m, t, worlds, rollout, racing, eps,
                            state, np.empty((0, 3), np.int8), np.empty((0, 64), np.float32), res, None, card_fn,
                            faults[v], NONE_I)
        for r in range(N_RES):
            out[j, m, t, r] = res[r]
        seat = (m - dealer + PLAYERS - 1) % PLAYERS + 1
        out[j, m, t, N_RES] = bid_strength_nb(h, kitty[0], t, seat, rules[RULE.DISCARD_UPCARD] != 0)
        out[j, m, t, N_RES + 1] = popcount(h & BOWERS[t])
        out[j, m, t, N_RES + 2] = popcount(h & SUIT_MASKS[t, t])
