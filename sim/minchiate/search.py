"""Minchiate's search policy: determinized Monte Carlo search (PIMC) over the deal kernels.

At each card decision with more than one legal card, a ``search`` seat ``s``

1. samples ``worlds`` deals of the cards it has not seen, consistent with everything it has seen
   (below): each other seat gets as many cards as it holds, and, during trick 1, the discards it
   has not seen are sampled too (they score under ``discards_to='own_team_pile'``);
2. in every sampled world plays each legal card and then the rest of the deal with the rollout
   policy at every seat: the heuristic (default; the same ``heuristic_card`` the heuristic seats
   play, each seat knowing what it would know) or uniformly random legal cards (the same random
   draws for every candidate of one world);
3. plays the card with the best mean outcome for its **side**: the partnership's final points for
   the whole deal minus the opponents' (draws, exposed cards, declarations, captures, card points,
   pile combinations, cards beyond 42, last trick). The net resti are that difference settled in
   resto units (60; within one resto of it), so the points difference is the resti's finer measure.
   Ties go to the card the heuristic would play, then to the lowest card id.

Every candidate card is tried on the same worlds, so their comparison is paired. With ``racing`` on
(the default) a card clearly worse than the leader is dropped after 8 worlds and every 4 more, and the
decision ends early when one is left or the survivors tie in every world (:mod:`cardlab.sim.racing`);
a card's mean is then over the worlds it was played on.

**What a seat has seen.** Its own hand; every card played and by whom; the Fola left face up; its
own discards (everybody's once trick 1 is complete: they are then shown); the cutter's draw and
every card the dealer took from the Fola (taken in view of the table: a choice where the rules are
silent); the exposed card(s); every card of a declared combination (declarations are shown; the
Matto too when a seat declaring a combination holds it, as its bonus shows it). A revealed card
stays with its holder until played, except that during trick 1 a drawn or exposed card that may be
discarded (zero value, not trump 29) may lie in that player's unseen discards. A card is ruled out
for a seat once that seat played a card that would have been illegal had it held it (tested with the
kernels' ``legal_cards`` on the two-card hand): a plain suit not followed (a void in it), a trump on
a plain lead, a plain card on a trump lead or on another suit (no trump either), another card played
when the King rule would have forced that suit's King (the King is elsewhere). The Matto, always
legal, shows nothing. The unseen discards hold only cards that may be discarded (when a player's
discards had to fall back on other cards, a deal that practically never occurs, any card may lie
there). A combination *not* declared is not used: under ``declarations='policy'`` a player may keep
one hidden.

**Sampling** never fails: every unseen card has the set of holders (other seats, unseen discard
piles) that may hold it (:func:`unseen_cards_nb`), and the worlds are the shared sampler's
(:func:`cardlab.sim.worlds.plan_deal_nb`, planned once per decision, and ``draw_deal_nb``): exactly
uniform over the deals consistent with those sets and the holders' sizes. The true deal satisfies
every constraint, so a consistent completion always exists.

**Inference** (``search_inference``, on or off per study; a seat's ``eps`` > 0 turns it on; off by default). What
the other seats played says something about what they hold and discarded. With inference a searching seat weighs
each sampled world by the likelihood of every card the other seats have played so far in this deal, each seat
modelled as the heuristic softened by ``eps`` (:mod:`cardlab.sim.inference`): a past move with ``k > 1`` legal
cards is judged at that seat's hand in the world then (its sampled hand now plus the cards it has played since)
with the heuristic's inputs as the seat knew them then (the trick so far, the King rule's state, the cards played
before, the Fola, the discards it had seen: its own during trick 1, in the world, both afterwards); the card played
has probability ``1 - eps + eps / k`` if it is the heuristic's, else ``eps / k``, a forced move 1
(:func:`play_likelihood_nb`). The seat draws a pool of ``POOL_FACTOR * worlds`` worlds (exactly uniform, as
without inference), weighs each, keeps ``worlds`` of them by systematic resampling and moves each kept world by
``MOVE_STEPS`` Metropolis steps that swap the holders of two unseen cards (:func:`propose_holder_swap_nb`:
symmetric, every holder keeps its size and every card its allowed holders, so the steps leave the posterior
invariant). The candidates' means are plain means over those worlds, and a seat that infers does not race. The
weights read only the sampled world and what the seat has seen, and every draw comes from the decision's own
stream. ``eps`` is :data:`INFERENCE_EPSILON`, chosen by measurement (the docs' results page). The oracle never
infers; discards and declarations do not.

**Other decisions stay heuristic**: a search seat discards (as cutter or dealer) and declares like
a heuristic seat (every combination). Only card play is searched.

**Randomness.** The searcher's draws come from a stream keyed by (seed, deal, decision), the
decision being the move number 0..83, so a searched deal is reproducible alone whatever the
threads, chunks or other deals. The deal's own stream (shuffle, random seats) is used exactly as
in ``kernels.play_deal_nb``: a table without search seats plays identically here and there.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from cardlab.sim.cards import ONE, ZERO, ctz, popcount
from cardlab.sim.inference import MOVE_STEPS, POOL_FACTOR, accepted_nb, comb_pick_nb, move_stream_nb, softened_nb, \
    uniform_nb
from cardlab.sim.minchiate.combos import (HIGH_RUN, HIGH_SHIFT, LOW_RUN, M_C3, M_C4, M_C5_ALL, M_C5_HIGH, M_C5_LOW,
                                          M_KINGS, M_MATTO)
from cardlab.sim.minchiate.kernels import (COL, DECK_HI, LOG_PLAYS, LOG_WIDTH, SRC_CAPTURES, WORK_SIZE, card_step_nb,
                                           end_points_nb, end_trick_nb, finish_deal_nb, heuristic_move_nb, hi_bit,
                                           legal_cards, lo_bit, put_card_nb, settle, setup_deal_nb, single_card)
from cardlab.sim.minchiate.policies import DISCARD_HI, DISCARD_LO, LO_MATTO, LO_TRUMPS, NO_SUIT, random_card
from cardlab.sim.minchiate.rules import MATTO, N_CARDS, OPT, SUIT_BASE
from cardlab.sim.policy import NO_STOP, POLICY
from cardlab.sim.racing import race_choice_nb, race_start_nb, race_world_nb
from cardlab.sim.rng import below_n, deal_state, mix64
from cardlab.sim.worlds import P_ASSIGN, draw_deal_nb, plan_deal_nb

SEARCH = POLICY.SEARCH  # the shared ids of cardlab.sim.policy: random 0, heuristic 1, search 2 (rollouts: 0 or 1)
N_MOVES = 84
SEARCH_SALT = np.uint64(0x3F1C_A5E9_77D2_40B1)
ROLLOUT_SALT = np.uint64(0x6A09_E667_F3BC_C909)
LO_ALL = LO_TRUMPS | LO_MATTO
MAX_HOLDERS = 5  # three other seats and at most two unseen discard piles
INFERENCE_EPSILON = 0.4  # the softened heuristic's chance of playing a random legal card: on 600 paired deals among
#                          heuristic players, eps 0.1, 0.2, 0.4 gained +0.23, +0.24, +0.33 net resti a deal (seed 1),
#                          eps 0.4, 0.6, 0.8 +0.21, +0.18, +0.17 (seed 2); each CI about +-0.11
H_SEAT, H_CARD, H_LED, H_FIRST, H_TRUMPED, H_WIN_SEAT, H_WIN_CARD = range(7)  # a deal's move history (int8 columns)
H_WIDTH = 7
CD_WORD, DD_WORD = 4, 5  # a world's words: the four seats' hands, then the cutter's and the dealer's discards


@njit(cache=True, error_model="numpy", inline="always")
def search_state(seed, deal, decision):
    """The searcher's stream for one decision of one deal, keyed by (seed, deal, decision) alone."""
    return mix64(deal_state(seed, deal) ^ mix64(SEARCH_SALT + np.uint64(decision)))


@njit(cache=True, error_model="numpy", inline="always")
def _in(lo, hi, c):
    if c <= MATTO:
        return (lo >> np.uint64(c)) & ONE != ZERO
    return (hi >> np.uint64(c - SUIT_BASE)) & ONE != ZERO


@njit(cache=True, error_model="numpy", inline="always")
def _run_bits(bits):
    """The bits of ``bits`` that lie in runs of three or more consecutive set bits."""
    out = ZERO
    b = bits
    while b:
        start = ctz(b)
        rest = ~(b >> np.uint64(start))
        length = ctz(rest) if rest else 64 - start
        run = ((ONE << np.uint64(length)) - ONE) << np.uint64(start)
        if length >= 3:
            out |= run
        b &= ~run
    return out


@njit(cache=True, error_model="numpy")
def combo_cards_nb(lo, hi, c5_merge, share):
    """Cards shown by declaring every combination of the hand (lo, hi): the union of the combinations'
    cards (as ``combos.combos_nb`` takes them), and the Matto when held and a combination is shown."""
    free = lo
    shown = ZERO
    r1 = _run_bits(free & LOW_RUN)
    shown |= r1
    if not share:
        free &= ~r1
    r2 = _run_bits((free >> HIGH_SHIFT) & HIGH_RUN) << HIGH_SHIFT
    shown |= r2
    if not share:
        free &= ~r2
    for m in (M_C3, M_C4):
        if free & m == m:
            shown |= m
            if not share:
                free &= ~m
    if c5_merge and free & M_C5_ALL == M_C5_ALL:
        shown |= M_C5_ALL
    else:
        if free & M_C5_HIGH == M_C5_HIGH:
            shown |= M_C5_HIGH
            if not share:
                free &= ~M_C5_HIGH
        if free & M_C5_LOW == M_C5_LOW:
            shown |= M_C5_LOW
    shown_hi = ZERO
    if popcount(hi & M_KINGS) >= 3:
        shown_hi = hi & M_KINGS
    if (shown != ZERO or shown_hi != ZERO) and lo & M_MATTO:
        shown |= M_MATTO
    return shown, shown_hi


@njit(cache=True, error_model="numpy")
def shown_absent_nb(c, cand_lo, cand_hi, led, first_of_suit, trump_played):
    """Cards of ``cand`` the seat that played ``c`` cannot hold: holding one would have made ``c`` illegal."""
    out_lo, out_hi = ZERO, ZERO
    if led == NO_SUIT:  # a lead (or a play after a led Matto): every card is legal
        return out_lo, out_hi
    c_lo, c_hi = lo_bit(c), hi_bit(c)
    for word in range(2):
        m = cand_lo if word == 0 else cand_hi
        while m:
            b = ctz(m)
            m &= m - ONE
            x_lo = (ONE << np.uint64(b)) if word == 0 else ZERO
            x_hi = (ONE << np.uint64(b)) if word == 1 else ZERO
            l_lo, l_hi = legal_cards(c_lo | x_lo, c_hi | x_hi, led, first_of_suit, trump_played)
            if l_lo & c_lo == ZERO and l_hi & c_hi == ZERO:
                out_lo |= x_lo
                out_hi |= x_hi
    return out_lo, out_hi


@njit(cache=True, error_model="numpy", _nrt=False)
def rollout_nb(opts, rollout, state, first_card, dealer, cutter, t, n, leader, led, trump_played, win_seat, win_card,
               led_suits, matto_owner, matto_owed, hand_lo, hand_hi, pile_lo, pile_hi, tricks, cards, seats,
               played_lo, played_hi, fola_lo, fola_hi, cd_lo, cd_hi, dd_lo, dd_hi, src, combo_scratch):
    """Play on from position ``n`` of trick ``t`` to the end of the deal (the arrays are consumed).

    The seat to play puts down ``first_card`` (-1: the rollout policy chooses), then every seat plays
    the ``rollout`` policy. Returns the points difference (team 0 - team 1) scored from here on,
    captures and the end of the deal, and the stream (random rollouts draw from it). Without reference counting
    (``_nrt=False``), as :func:`play_worlds_nb`, its caller: the heuristic, inlined, would take ``opts`` at every card.
    """
    diff = 0
    forced = first_card
    while t < 21:
        while n < 4:
            p = (leader + n) % 4
            if forced >= 0:
                c = forced
                forced = -1
            else:
                first_of_suit = led >= 0 and led < 4 and (led_suits >> led) & 1 == 0
                legal_lo, legal_hi = legal_cards(hand_lo[p], hand_hi[p], led, first_of_suit, trump_played)
                c = single_card(legal_lo, legal_hi)
                if c < 0:
                    if rollout == POLICY.HEURISTIC:
                        c = heuristic_move_nb(opts, p, hand_lo[p], hand_hi[p], legal_lo, legal_hi, n, led, win_seat,
                                              win_card, t, cutter, dealer, fola_lo, fola_hi, played_lo, played_hi,
                                              cd_lo, cd_hi, dd_lo, dd_hi)
                    else:
                        state, c = random_card(state, legal_lo, legal_hi)
            played_lo |= lo_bit(c)
            played_hi |= hi_bit(c)
            if c == MATTO:
                matto_owner = p
            led, trump_played, win_seat, win_card = put_card_nb(c, p, n, hand_lo, hand_hi, cards, seats, led,
                                                                trump_played, win_seat, win_card)
            n += 1
        led_suits, pts, owed = end_trick_nb(opts, t, led, led_suits, cards, seats, win_seat, pile_lo, pile_hi, tricks,
                                            cutter, dealer, cd_lo, cd_hi, dd_lo, dd_hi)
        matto_owed = matto_owed or owed
        diff += pts if win_seat % 2 == 0 else -pts
        leader = win_seat
        t += 1
        n = 0
        led = NO_SUIT
        trump_played = False
        win_seat, win_card = -1, -1
    for i in range(16):
        src[i] = 0
    diff += end_points_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, leader % 2, src, combo_scratch)
    return diff, state


# ---------------------------------------------------------------- what the searcher knows, and the worlds


@njit(cache=True, error_model="numpy")
def unseen_cards_nb(s, t, cutter, dealer, hand_lo, hand_hi, played_lo, played_hi, fola_lo, fola_hi, cd_lo, cd_hi,
                    dd_lo, dd_hi, drawn_lo, drawn_hi, declared_lo, declared_hi, excluded_lo, excluded_hi,
                    cd_fallback, dd_fallback, holder_seat, need, cards_out, allowed_out):
    """The cards seat ``s`` has not seen and, for each, the holders that may hold it (see the module docstring).

    Holders ``0 .. nh-1`` are the other seats in order (``holder_seat[h]`` = seat), then the cutter's
    and the dealer's discards when ``s`` has not seen them (``holder_seat[h]`` = 4 + 0 / 1). Fills
    ``need`` (cards each holder takes), ``cards_out[:m]`` and ``allowed_out[:m]`` (a holder bit set);
    returns ``(m, nh)``.
    """
    knows_cd = t > 0 or s == cutter
    knows_dd = t > 0 or s == dealer
    seat_h = np.full(4, -1, np.int64)
    nh = 0
    for q in range(4):
        if q != s:
            seat_h[q] = nh
            holder_seat[nh] = q
            need[nh] = popcount(hand_lo[q]) + popcount(hand_hi[q])
            nh += 1
    cp = -1
    if not knows_cd and (cd_lo | cd_hi) != ZERO:
        cp = nh
        holder_seat[nh] = 4
        need[nh] = popcount(cd_lo) + popcount(cd_hi)
        nh += 1
    dp = -1
    if not knows_dd and (dd_lo | dd_hi) != ZERO:
        dp = nh
        holder_seat[nh] = 5
        need[nh] = popcount(dd_lo) + popcount(dd_hi)
        nh += 1
    seen_lo = hand_lo[s] | played_lo | fola_lo
    seen_hi = hand_hi[s] | played_hi | fola_hi
    if knows_cd:
        seen_lo |= cd_lo
        seen_hi |= cd_hi
    if knows_dd:
        seen_lo |= dd_lo
        seen_hi |= dd_hi
    m = 0
    for word in range(2):
        u = (~seen_lo & LO_ALL) if word == 0 else (~seen_hi & DECK_HI)
        while u:
            b = ctz(u)
            u &= u - ONE
            x = b if word == 0 else b + SUIT_BASE
            blank = (DISCARD_LO >> np.uint64(b)) & ONE != ZERO if word == 0 else \
                (DISCARD_HI >> np.uint64(b)) & ONE != ZERO
            allowed = 0
            owner = -1
            certain = False
            for q in range(4):
                if q == s:
                    continue
                if _in(declared_lo[q], declared_hi[q], x):
                    owner = q
                    certain = True
                elif _in(drawn_lo[q], drawn_hi[q], x):
                    owner = q
            for q in range(4):
                if q != s and (owner < 0 or q == owner) and not _in(excluded_lo[q], excluded_hi[q], x):
                    allowed |= 1 << seat_h[q]
            if not certain:
                if cp >= 0 and (owner < 0 or owner == cutter) and (blank or cd_fallback):
                    allowed |= 1 << cp
                if dp >= 0 and (owner < 0 or owner == dealer) and (blank or dd_fallback):
                    allowed |= 1 << dp
            cards_out[m] = x
            allowed_out[m] = allowed
            m += 1
    return m, nh


# ---------------------------------------------------------------- inference: worlds weighted by the others' past cards


@njit(cache=True, error_model="numpy", inline="always")
def _toggle(w_lo, w_hi, q, x):
    """Flip card ``x`` in word pair ``q`` of a world (a seat's hand, or a discard pile: ``CD_WORD``, ``DD_WORD``)."""
    w_lo[q] ^= lo_bit(x)
    w_hi[q] ^= hi_bit(x)


@njit(cache=True, error_model="numpy", _nrt=False)
def world_words_nb(s, hand_lo, hand_hi, cd_lo, cd_hi, dd_lo, dd_hi, u_cards, assign, m, holder_seat, nh, w_lo, w_hi):
    """The world in which unseen card ``u_cards[i]`` lies with holder ``assign[i]`` (:func:`unseen_cards_nb`'s
    holders), as six word pairs ``w_lo``, ``w_hi``: the seats' hands (``s``'s its own), then the cutter's and the
    dealer's discards (as they are when ``s`` has seen them)."""
    for q in range(4):
        w_lo[q] = hand_lo[q] if q == s else ZERO
        w_hi[q] = hand_hi[q] if q == s else ZERO
    w_lo[CD_WORD], w_hi[CD_WORD], w_lo[DD_WORD], w_hi[DD_WORD] = cd_lo, cd_hi, dd_lo, dd_hi
    for h in range(nh):
        if holder_seat[h] >= 4:
            w_lo[holder_seat[h]] = ZERO
            w_hi[holder_seat[h]] = ZERO
    for i in range(m):
        _toggle(w_lo, w_hi, holder_seat[assign[i]], u_cards[i])


@njit(cache=True, error_model="numpy", _nrt=False)
def play_likelihood_nb(opts, s, count, history, cutter, dealer, fola_lo, fola_hi, w_lo, w_hi, by_lo, by_hi, eps,
                       seats, factors, h_lo, h_hi):
    """The likelihood, in the world ``w_lo``, ``w_hi`` (:func:`world_words_nb`), of the cards each seat of the bit
    set ``seats`` (never ``s``) played at the deal's first ``count`` moves, that seat modelled as the heuristic
    softened by ``eps`` (:func:`cardlab.sim.inference.softened_nb`): ``factors[q]`` receives seat ``q``'s product.

    Move ``i`` (``history[i]``: seat, card, led suit, whether the King rule could bind, whether a trump was played,
    the seat and card winning the trick before it; columns ``H_*``) is judged as the seat saw it then: its hand in
    the world then (its hand now plus the cards it played from move ``i`` on: ``by_lo``, ``by_hi`` hold each seat's
    cards of the first ``count`` moves), the trick so far, trick ``i // 4``, the cards played before it, the Fola
    and the discards it had seen (the world's: its own during trick 1, both afterwards). A move with one legal
    card counts 1; otherwise the heuristic's card (:func:`kernels.heuristic_move_nb`, the same call as a heuristic
    seat's) has probability ``1 - eps + eps / k`` out of ``k`` legal cards, any other ``eps / k``.
    ``h_lo``, ``h_hi`` (4) are scratch."""
    for q in range(4):
        h_lo[q] = w_lo[q] | by_lo[q]
        h_hi[q] = w_hi[q] | by_hi[q]
        if (seats >> q) & 1:
            factors[q] = 1.0
    played_lo, played_hi = ZERO, ZERO
    for i in range(count):
        q = np.int64(history[i, H_SEAT])
        c = np.int64(history[i, H_CARD])
        if q != s and (seats >> q) & 1:
            led = np.int64(history[i, H_LED])
            legal_lo, legal_hi = legal_cards(h_lo[q], h_hi[q], led, history[i, H_FIRST] != 0,
                                             history[i, H_TRUMPED] != 0)
            if single_card(legal_lo, legal_hi) < 0:
                k = popcount(legal_lo) + popcount(legal_hi)
                best = heuristic_move_nb(opts, q, h_lo[q], h_hi[q], legal_lo, legal_hi, i % 4, led,
                                         np.int64(history[i, H_WIN_SEAT]), np.int64(history[i, H_WIN_CARD]), i // 4,
                                         cutter, dealer, fola_lo, fola_hi, played_lo, played_hi, w_lo[CD_WORD],
                                         w_hi[CD_WORD], w_lo[DD_WORD], w_hi[DD_WORD])
                factors[q] *= softened_nb(eps, k, best == c)
        h_lo[q] &= ~lo_bit(c)
        h_hi[q] &= ~hi_bit(c)
        played_lo |= lo_bit(c)
        played_hi |= hi_bit(c)


@njit(cache=True, error_model="numpy", inline="always")
def propose_holder_swap_nb(state, assign, allowed, m):
    """One Metropolis proposal on a world given by each unseen card's holder (``assign[i]``, holder of card ``i`` of
    :func:`unseen_cards_nb`): two unseen cards ``i`` and ``j``, each drawn uniformly, swap holders. It is refused
    (``i = -1``, nothing changed) when they have the same holder or either card may not lie with its new holder
    (``allowed``, a holder bit set per card). Returns ``(state, i, j, u)``, ``u`` the uniform that accepts or
    refuses it (:func:`cardlab.sim.inference.accepted_nb`).

    The proposal is symmetric (the swap back is the same pair, drawn with the same probability) and keeps every
    holder's size and every card within its allowed holders, so every world it reaches is consistent with what the
    searcher has seen, and Metropolis acceptance with probability min(1, new likelihood / old) leaves the posterior
    (uniform over the consistent worlds, times the likelihood) invariant."""
    state, i = below_n(state, m)
    state, j = below_n(state, m)
    state, u = uniform_nb(state)
    a = assign[i]
    b = assign[j]
    if a == b or (allowed[i] >> b) & 1 == 0 or (allowed[j] >> a) & 1 == 0:
        return state, -1, -1, u
    assign[i] = b
    assign[j] = a
    return state, i, j, u


@njit(cache=True, error_model="numpy", inline="always")
def _seats_of(h, s, cutter, dealer):
    """The seats whose likelihood factor depends on word pair ``h`` of a world: a seat's hand its own; a discard
    pile its owner's (what it had seen during trick 1). Never ``s``."""
    q = h if h < 4 else cutter if h == CD_WORD else dealer
    return 0 if q == s else 1 << q


@njit(cache=True, error_model="numpy", _nrt=False)
def move_world_nb(state, assign, allowed, u_cards, m, holder_seat, w_lo, w_hi, factors, saved, likelihood, opts, s,
                  count, history, cutter, dealer, fola_lo, fola_hi, by_lo, by_hi, eps, h_lo, h_hi):
    """Move a world (``assign`` and its words ``w_lo``, ``w_hi``, of ``likelihood``, the product of the seats'
    ``factors``) by :data:`cardlab.sim.inference.MOVE_STEPS` Metropolis steps (:func:`propose_holder_swap_nb`,
    accepted with probability min(1, new likelihood / old)): only the factors of the seats whose words changed are
    recomputed. ``saved`` (4) is scratch. Returns ``(state, likelihood)``."""
    if m < 2:
        return state, likelihood
    for _ in range(MOVE_STEPS):
        state, i, j, u = propose_holder_swap_nb(state, assign, allowed, m)
        if i < 0:
            continue
        a = holder_seat[assign[j]]  # card i's holder before, card j's now
        b = holder_seat[assign[i]]
        _toggle(w_lo, w_hi, a, u_cards[i])
        _toggle(w_lo, w_hi, b, u_cards[i])
        _toggle(w_lo, w_hi, b, u_cards[j])
        _toggle(w_lo, w_hi, a, u_cards[j])
        seats = _seats_of(a, s, cutter, dealer) | _seats_of(b, s, cutter, dealer)
        for q in range(4):
            saved[q] = factors[q]
        play_likelihood_nb(opts, s, count, history, cutter, dealer, fola_lo, fola_hi, w_lo, w_hi, by_lo, by_hi, eps,
                           seats, factors, h_lo, h_hi)
        moved = factors[0] * factors[1] * factors[2] * factors[3]
        if accepted_nb(u, likelihood, moved):
            likelihood = moved
        else:
            for q in range(4):
                factors[q] = saved[q]
            assign[i], assign[j] = assign[j], assign[i]
            _toggle(w_lo, w_hi, a, u_cards[i])
            _toggle(w_lo, w_hi, b, u_cards[i])
            _toggle(w_lo, w_hi, b, u_cards[j])
            _toggle(w_lo, w_hi, a, u_cards[j])
    return state, likelihood


@njit(cache=True, error_model="numpy")
def infer_worlds_nb(state, s, opts, worlds, eps, plan, u_cards, allowed, m, holder_seat, nh, hand_lo, hand_hi, cd_lo,
                    cd_hi, dd_lo, dd_hi, count, history, cutter, dealer, fola_lo, fola_hi, kept_lo, kept_hi,
                    kept_state):
    """The ``worlds`` worlds of an inferring search (module docstring, "Inference"): a pool of
    :data:`~cardlab.sim.inference.POOL_FACTOR` ``* worlds`` exactly uniform worlds (``plan``), each weighted by
    :func:`play_likelihood_nb`; ``worlds`` of them kept by the systematic comb (one uniform); each kept one moved by
    :func:`move_world_nb` from its tooth's own stream. World ``r`` goes to ``kept_lo[r]``, ``kept_hi[r]`` (six word
    pairs, :func:`world_words_nb`) and ``kept_state[r]`` (its stream, whence its rollouts' draws). Returns the
    stream."""
    pool = POOL_FACTOR * worlds
    draw = plan[P_ASSIGN]
    pool_assign = np.empty((pool, max(m, 1)), np.int8)
    pool_states = np.empty(pool, np.uint64)
    pool_factors = np.empty((pool, 4), np.float64)
    cumulative = np.empty(pool, np.float64)
    by_lo = np.zeros(4, np.uint64)
    by_hi = np.zeros(4, np.uint64)
    for i in range(count):
        c = np.int64(history[i, H_CARD])
        by_lo[history[i, H_SEAT]] |= lo_bit(c)
        by_hi[history[i, H_SEAT]] |= hi_bit(c)
    w_lo = np.empty(6, np.uint64)
    w_hi = np.empty(6, np.uint64)
    h_lo = np.empty(4, np.uint64)
    h_hi = np.empty(4, np.uint64)
    factors = np.ones(4, np.float64)
    saved = np.empty(4, np.float64)
    assign = np.empty(max(m, 1), np.int64)
    others = 15 & ~(1 << s)
    total = 0.0
    for j in range(pool):
        state = draw_deal_nb(state, plan)
        for i in range(m):
            pool_assign[j, i] = draw[i]
        pool_states[j] = state
        world_words_nb(s, hand_lo, hand_hi, cd_lo, cd_hi, dd_lo, dd_hi, u_cards, draw, m, holder_seat, nh, w_lo, w_hi)
        play_likelihood_nb(opts, s, count, history, cutter, dealer, fola_lo, fola_hi, w_lo, w_hi, by_lo, by_hi, eps,
                           others, factors, h_lo, h_hi)
        for q in range(4):
            pool_factors[j, q] = factors[q]
        total += factors[0] * factors[1] * factors[2] * factors[3]
        cumulative[j] = total
    state, start = uniform_nb(state)  # one uniform: the systematic comb
    pick = 0
    for r in range(worlds):
        pick = comb_pick_nb(cumulative, pick, r, start, total, worlds)
        for i in range(m):
            assign[i] = pool_assign[pick, i]
        for q in range(4):
            factors[q] = pool_factors[pick, q]
        world_words_nb(s, hand_lo, hand_hi, cd_lo, cd_hi, dd_lo, dd_hi, u_cards, assign, m, holder_seat, nh, w_lo,
                       w_hi)
        moves, _ = move_world_nb(move_stream_nb(pool_states[pick], r), assign, allowed, u_cards, m, holder_seat, w_lo,
                                 w_hi, factors, saved, factors[0] * factors[1] * factors[2] * factors[3], opts, s,
                                 count, history, cutter, dealer, fola_lo, fola_hi, by_lo, by_hi, eps, h_lo, h_hi)
        for q in range(6):
            kept_lo[r, q] = w_lo[q]
            kept_hi[r, q] = w_hi[q]
        kept_state[r] = moves
    return state


@njit(cache=True, error_model="numpy", _nrt=False)
def play_worlds_nb(state, s, opts, n_worlds, rollout, racing, oracle, cands, n_c, plan, u_cards, m, holder_seat, nh,
                   dealer, cutter, t, n, leader, led, trump_played, win_seat, win_card, led_suits, matto_owner,
                   matto_owed, hand_lo, hand_hi, pile_lo, pile_hi, tricks, cards, seats, played_lo, played_hi, fola_lo,
                   fola_hi, cd_lo, cd_hi, dd_lo, dd_hi, values, alive, played, totals, w_lo, w_hi, k_lo, k_hi, p_lo,
                   p_hi, k_tricks, k_cards, k_seats, src, combo_scratch, given, kept_lo, kept_hi, kept_state):
    """The worlds of :func:`search_card_nb`: draw each from ``plan`` (the true deal for the ``oracle``; with
    ``given``, an inferring search's, world ``w`` is ``kept_lo[w]``, ``kept_hi[w]`` with stream ``kept_state[w]``:
    :func:`infer_worlds_nb`), play every alive candidate ``cands[:n_c]`` on it (:func:`rollout_nb`) into ``values``
    and ``totals``, and race (:func:`cardlab.sim.racing.race_world_nb`). The other arrays are scratch space.

    Compiled without Numba's reference counting (``_nrt=False``: it allocates nothing, an allocation would not
    compile, and the caller holds every array). With it, each array passed to a call or to an inlined function
    (``opts`` to the heuristic, at every card of every rollout) costs an atomic increment and decrement: 35% of a
    searched deal's time in perf's samples (every seat searching, W = 32, 1 thread); split off so, with
    :func:`rollout_nb`, 52 -> 67 deals a second.
    """
    sign = 1 if s % 2 == 0 else -1
    assign = plan[P_ASSIGN]
    for w in range(n_worlds):
        wcd_lo, wcd_hi, wdd_lo, wdd_hi = cd_lo, cd_hi, dd_lo, dd_hi
        if oracle:  # the true deal: every hand and discard as they are
            state = mix64(state)
            for q in range(4):
                w_lo[q] = hand_lo[q]
                w_hi[q] = hand_hi[q]
        elif given:  # a world of the inference, resampled and moved
            state = kept_state[w]
            for q in range(4):
                w_lo[q] = kept_lo[w, q]
                w_hi[q] = kept_hi[w, q]
            wcd_lo, wcd_hi = kept_lo[w, CD_WORD], kept_hi[w, CD_WORD]
            wdd_lo, wdd_hi = kept_lo[w, DD_WORD], kept_hi[w, DD_WORD]
        else:
            state = draw_deal_nb(state, plan)
            for q in range(4):
                w_lo[q] = hand_lo[q] if q == s else ZERO
                w_hi[q] = hand_hi[q] if q == s else ZERO
            for h in range(nh):
                if holder_seat[h] == 4:
                    wcd_lo, wcd_hi = ZERO, ZERO
                elif holder_seat[h] == 5:
                    wdd_lo, wdd_hi = ZERO, ZERO
            for i in range(m):
                x = u_cards[i]
                q = holder_seat[assign[i]]
                if q < 4:
                    w_lo[q] |= lo_bit(x)
                    w_hi[q] |= hi_bit(x)
                elif q == 4:
                    wcd_lo |= lo_bit(x)
                    wcd_hi |= hi_bit(x)
                else:
                    wdd_lo |= lo_bit(x)
                    wdd_hi |= hi_bit(x)
        roll = mix64(state ^ ROLLOUT_SALT)  # random rollouts: the same draws for every candidate of this world
        for j in range(n_c):
            if not alive[j]:
                continue
            c = cands[j]
            for q in range(4):
                k_lo[q] = w_lo[q]
                k_hi[q] = w_hi[q]
            for i in range(2):
                p_lo[i] = pile_lo[i]
                p_hi[i] = pile_hi[i]
                k_tricks[i] = tricks[i]
            for i in range(n):
                k_cards[i] = cards[i]
                k_seats[i] = seats[i]
            diff, _ = rollout_nb(opts, rollout, roll, c, dealer, cutter, t, n, leader, led, trump_played, win_seat,
                                 win_card, led_suits, matto_owner, matto_owed, k_lo, k_hi, p_lo, p_hi, k_tricks,
                                 k_cards, k_seats, played_lo, played_hi, fola_lo, fola_hi, wcd_lo, wcd_hi, wdd_lo,
                                 wdd_hi, src, combo_scratch)
            values[w, j] = sign * diff
            totals[c] += sign * diff
        if race_world_nb(values, w, alive, played, racing):
            break


@njit(cache=True, error_model="numpy")
def search_card_nb(sstate, s, opts, worlds, rollout, racing, oracle, legal_lo, legal_hi, fallback, dealer, cutter, t, n,
                   leader, led, trump_played, win_seat, win_card, led_suits, matto_owner, matto_owed, hand_lo, hand_hi,
                   pile_lo, pile_hi, tricks, cards, seats, played_lo, played_hi, fola_lo, fola_hi, cd_lo, cd_hi, dd_lo,
                   dd_hi, drawn_lo, drawn_hi, declared_lo, declared_hi, excluded_lo, excluded_hi, cd_fallback,
                   dd_fallback, totals, counts, combo_scratch, eps, history, count):
    """The searched card of seat ``s`` (see the module docstring), raced when ``racing`` and not inferring;
    ``totals[c]`` gets each candidate's summed points difference for ``s``'s side over the worlds it was played on
    (``counts[c]``, 0 for every other card), from this move to the end of the deal. The ``oracle`` (search that sees
    the true deal, the strength ladder's ceiling) plays every world on the true hands and discards: one world with
    heuristic rollouts, which play it alike each time; ``worlds`` with random ones, each its own draws. With ``eps``
    > 0 (never the oracle) the worlds are the inference's (:func:`infer_worlds_nb`, over the deal's first ``count``
    moves, ``history``) and the candidates do not race."""
    for c in range(N_CARDS):
        totals[c] = 0
        counts[c] = 0
    cands = np.empty(popcount(legal_lo) + popcount(legal_hi), np.int64)  # lowest card first
    n_c = 0
    fall = -1
    for word in range(2):
        lm = legal_lo if word == 0 else legal_hi
        while lm:
            b = ctz(lm)
            lm &= lm - ONE
            c = b if word == 0 else b + SUIT_BASE
            if c == fallback:
                fall = n_c
            cands[n_c] = c
            n_c += 1
    holder_seat = np.empty(MAX_HOLDERS, np.int64)
    need = np.empty(MAX_HOLDERS, np.int64)
    u_cards = np.empty(N_CARDS, np.int64)
    allowed = np.empty(N_CARDS, np.int64)
    m, nh = unseen_cards_nb(s, t, cutter, dealer, hand_lo, hand_hi, played_lo, played_hi, fola_lo, fola_hi, cd_lo,
                            cd_hi, dd_lo, dd_hi, drawn_lo, drawn_hi, declared_lo, declared_hi, excluded_lo,
                            excluded_hi, cd_fallback, dd_fallback, holder_seat, need, u_cards, allowed)
    w_lo = np.empty(4, np.uint64)
    w_hi = np.empty(4, np.uint64)
    k_lo = np.empty(4, np.uint64)
    k_hi = np.empty(4, np.uint64)
    p_lo = np.empty(2, np.uint64)
    p_hi = np.empty(2, np.uint64)
    k_tricks = np.empty(2, np.int64)
    k_cards = np.empty(4, np.int64)
    k_seats = np.empty(4, np.int64)
    src = np.empty(16, np.int64)
    plan = plan_deal_nb(u_cards, allowed, m, need, nh)  # the view is the same for every world: plan it once
    n_worlds = 1 if oracle and rollout == POLICY.HEURISTIC else worlds
    values, alive, played = race_start_nb(n_worlds, n_c)
    inferring = eps > 0.0 and not oracle
    kept = worlds if inferring else 0
    kept_lo = np.empty((kept, 6), np.uint64)
    kept_hi = np.empty((kept, 6), np.uint64)
    kept_state = np.empty(kept, np.uint64)
    if inferring:
        sstate = infer_worlds_nb(sstate, s, opts, worlds, eps, plan, u_cards, allowed, m, holder_seat, nh, hand_lo,
                                 hand_hi, cd_lo, cd_hi, dd_lo, dd_hi, count, history, cutter, dealer, fola_lo, fola_hi,
                                 kept_lo, kept_hi, kept_state)
    races = 0 if inferring else racing  # a seat that infers does not race
    play_worlds_nb(sstate, s, opts, n_worlds, rollout, races, oracle, cands, n_c, plan, u_cards, m,
                   holder_seat, nh, dealer, cutter, t, n, leader, led, trump_played, win_seat, win_card, led_suits,
                   matto_owner, matto_owed, hand_lo, hand_hi, pile_lo, pile_hi, tricks, cards, seats, played_lo,
                   played_hi, fola_lo, fola_hi, cd_lo, cd_hi, dd_lo, dd_hi, values, alive, played, totals, w_lo, w_hi,
                   k_lo, k_hi, p_lo, p_hi, k_tricks, k_cards, k_seats, src, combo_scratch, inferring, kept_lo, kept_hi,
                   kept_state)
    return race_choice_nb(cands, values, alive, played, fall, counts)


# ---------------------------------------------------------------- whole deals with search seats


@njit(cache=True, error_model="numpy")
def play_searched_deal_nb(seed, deal, opts, policies, worlds, rollout, racing, eps, record, work, words, out, log,
                          declared, combo_scratch, means, user_fn, fault):
    """Play deal ``deal`` as ``kernels.play_deal_nb`` does, with ``search`` seats searching their card play.

    ``means`` (84 x 97, or 0 rows to skip) receives, for each searched move, each candidate card's mean
    final points difference for the searcher's side over the worlds it was played on (NaN elsewhere);
    ``racing``: the searches race their candidates (:mod:`cardlab.sim.racing`); ``eps`` (per seat, 0: off) each
    search seat's inference (module docstring; a seat that infers does not race). ``user_fn`` plays the seats of a
    Numba function (``kernels.play_deal_nb``'s). Returns the deal's stream.
    """
    plain = np.empty(4, np.int64)  # setup: a search seat discards and declares as the heuristic
    for p in range(4):
        plain[p] = POLICY.HEURISTIC if policies[p] == SEARCH or policies[p] == POLICY.ORACLE else policies[p]
    state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi, fola_lo, fola_hi = setup_deal_nb(
        seed, deal, opts, plain, record, work, words, out, log, declared, combo_scratch)
    # no cards shown: an array with no columns, as the step API passes its own (an omitted argument would compile
    # the whole searched play apart from the step API's)
    return play_searched_cards_nb(seed, deal, opts, policies, worlds, rollout, racing, eps, record, work, words, out,
                                  log, combo_scratch, means, state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi,
                                  fola_lo, fola_hi, user_fn, fault, NO_STOP, np.zeros((2, 0), np.uint64))


@njit(cache=True, error_model="numpy")
def play_searched_cards_nb(seed, deal, opts, policies, worlds, rollout, racing, eps, record, work, words, out, log,
                           combo_scratch, means, state, delta, max_delta, cd_lo, cd_hi, dd_lo, dd_hi, fola_lo, fola_hi,
                           user_fn, fault, stop, shown):
    """The card play of :func:`play_searched_deal_nb` from the set-up deal (``kernels.setup_deal_nb``'s
    outputs: the hands after the discards in ``words``, the shuffle in ``work``, the returned scalars).

    A test can change the hidden cards of a set-up deal here (hands, unseen discards) and play it on.
    With ``stop >= 0`` (a step-API state's search) the first ``stop`` cards are given (``log[LOG_PLAYS:LOG_PLAYS +
    stop]``: read, no policy step, no search) and the play stops once card ``stop`` is chosen, into the log (the
    row is then unfinished; -1: no stop); ``shown`` (2 x 4: lo, hi words) holds the cards each seat's declarations
    showed, or has no columns for every combination of its hand (the built-in seats declare them all)."""
    any_search = False
    for p in range(4):
        any_search = any_search or policies[p] == SEARCH or policies[p] == POLICY.ORACLE
    keep_means = means.shape[0] > 0
    if keep_means:
        means[:] = np.nan
    perm = work[0:N_CARDS]
    resti = work[N_CARDS:N_CARDS + 2]
    tricks = work[N_CARDS + 2:N_CARDS + 4]
    cards = work[N_CARDS + 4:N_CARDS + 8]
    seats = work[N_CARDS + 8:N_CARDS + 12]
    hand_lo = words[0:4]
    hand_hi = words[4:8]
    pile_lo = words[8:10]
    pile_hi = words[10:12]
    dealer = deal % 4
    cutter = (dealer + 3) % 4
    src = out[COL.SOURCES:COL.SOURCES + 16]
    # what the table has shown before the first lead
    drawn_lo = np.zeros(4, np.uint64)
    drawn_hi = np.zeros(4, np.uint64)
    declared_lo = np.zeros(4, np.uint64)
    declared_hi = np.zeros(4, np.uint64)
    excluded_lo = np.zeros(4, np.uint64)
    excluded_hi = np.zeros(4, np.uint64)
    cd_fallback = (cd_lo & ~DISCARD_LO) != ZERO or (cd_hi & ~DISCARD_HI) != ZERO
    dd_fallback = (dd_lo & ~DISCARD_LO) != ZERO or (dd_hi & ~DISCARD_HI) != ZERO
    totals = np.zeros(N_CARDS if any_search else 0, np.int64)
    counts = np.zeros(N_CARDS if any_search else 0, np.int64)
    history = np.zeros((N_MOVES if any_search else 0, H_WIDTH), np.int8)  # the moves so far, for the inference
    if any_search:
        k = out[COL.CUTTER_CARDS]
        for i in range(k):
            drawn_lo[cutter] |= lo_bit(perm[i])
            drawn_hi[cutter] |= hi_bit(perm[i])
        for i in range(k + 84, N_CARDS):  # the Fola as dealt, less what stays in it: the dealer's take
            c = perm[i]
            if not _in(fola_lo, fola_hi, c):
                drawn_lo[dealer] |= lo_bit(c)
                drawn_hi[dealer] |= hi_bit(c)
        for j in range(1, 5):
            if j < 4 and opts[OPT.EXPOSE_ALL] == 0:
                continue
            p = (dealer + j) % 4
            c = perm[k + 40 + 11 * j - 1]
            drawn_lo[p] |= lo_bit(c)
            drawn_hi[p] |= hi_bit(c)
        for p in range(4):
            if shown.shape[1] == 0:
                declared_lo[p], declared_hi[p] = combo_cards_nb(hand_lo[p], hand_hi[p], opts[OPT.C5_MERGE] != 0,
                                                                opts[OPT.MAY_SHARE] != 0)
            else:
                declared_lo[p], declared_hi[p] = shown[0, p], shown[1, p]
    # the play (as kernels.play_deal_nb, with the search hook)
    played_lo, played_hi = ZERO, ZERO
    led_suits = 0
    matto_owner = -1
    matto_owed = False
    leader = (dealer + 1) % 4
    plays = LOG_PLAYS
    for trick in range(21):
        led = NO_SUIT
        trump_played = False
        win_seat, win_card = -1, -1
        for n in range(4):
            p = (leader + n) % 4
            first_of_suit = led >= 0 and led < 4 and (led_suits >> led) & 1 == 0
            searching = policies[p] == SEARCH or policies[p] == POLICY.ORACLE
            move = 4 * trick + n
            if move < stop:  # a card already played (the state's)
                c = np.int64(log[LOG_PLAYS + move])
                searching = False
            else:  # the kernel's card step (a search seat: the heuristic's card, its tie-break), then the search
                state, c = card_step_nb(POLICY.HEURISTIC if searching else policies[p], opts, p, hand_lo[p],
                                        hand_hi[p], n, led, led_suits, trump_played, win_seat, win_card, trick, cutter,
                                        dealer, fola_lo, fola_hi, played_lo, played_hi, cd_lo, cd_hi, dd_lo, dd_hi,
                                        state, user_fn, fault)
            if searching:
                legal_lo, legal_hi = legal_cards(hand_lo[p], hand_hi[p], led, first_of_suit, trump_played)
                if single_card(legal_lo, legal_hi) < 0:
                    c = search_card_nb(search_state(seed, deal, move), p, opts, worlds, rollout, racing,
                                       policies[p] == POLICY.ORACLE, legal_lo, legal_hi, c, dealer, cutter, trick, n,
                                       leader, led, trump_played, win_seat, win_card, led_suits, matto_owner,
                                       matto_owed, hand_lo, hand_hi, pile_lo, pile_hi, tricks, cards, seats, played_lo,
                                       played_hi, fola_lo, fola_hi, cd_lo, cd_hi, dd_lo, dd_hi, drawn_lo, drawn_hi,
                                       declared_lo, declared_hi, excluded_lo, excluded_hi, cd_fallback, dd_fallback,
                                       totals, counts, combo_scratch, eps[p], history, move)
                    if keep_means:
                        so_far = 0
                        for i in range(8):
                            so_far += src[i] - src[8 + i]
                        if p % 2 == 1:
                            so_far = -so_far
                        for x in range(N_CARDS):  # the candidates: the cards played in a world
                            if counts[x] > 0:
                                means[move, x] = so_far + totals[x] / counts[x]
            if any_search:
                history[move, H_SEAT], history[move, H_CARD], history[move, H_LED] = p, c, led
                history[move, H_FIRST], history[move, H_TRUMPED] = 1 if first_of_suit else 0, 1 if trump_played else 0
                history[move, H_WIN_SEAT], history[move, H_WIN_CARD] = win_seat, win_card
                a_lo, a_hi = shown_absent_nb(c, ~(played_lo | hand_lo[p]) & LO_ALL, ~(played_hi | hand_hi[p]) & DECK_HI,
                                             led, first_of_suit, trump_played)
                excluded_lo[p] |= a_lo
                excluded_hi[p] |= a_hi
            played_lo |= lo_bit(c)
            played_hi |= hi_bit(c)
            if c == MATTO:
                matto_owner = p
            led, trump_played, win_seat, win_card = put_card_nb(c, p, n, hand_lo, hand_hi, cards, seats, led,
                                                                trump_played, win_seat, win_card)
            if record:
                log[plays] = c
            plays += 1
            if move == stop:
                return state
        led_suits, pts, owed = end_trick_nb(opts, trick, led, led_suits, cards, seats, win_seat, pile_lo, pile_hi,
                                            tricks, cutter, dealer, cd_lo, cd_hi, dd_lo, dd_hi)
        matto_owed = matto_owed or owed
        src[8 * (win_seat % 2) + SRC_CAPTURES] += pts
        delta += pts if win_seat % 2 == 0 else -pts
        delta, max_delta = settle(delta, resti, max_delta, opts[OPT.RESTO_UNIT])
        leader = win_seat
    finish_deal_nb(opts, pile_lo, pile_hi, tricks, matto_owner, matto_owed, leader % 2, delta, max_delta, resti, out,
                   combo_scratch)
    return state


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_deals_nb(seed, deals, opts, policies, worlds, rollout, racing, eps, out, logs, declared, means, user_fn,
                         faults):
    """Play the deals numbered ``deals`` (any order) with search seats; row ``j`` of ``out`` (and of ``logs``,
    ``declared``, ``means`` when they have rows, and of ``faults``: a Numba seat's first illegal card) is deal
    ``deals[j]``; ``eps`` is each seat's inference (0: off). Parallel over deals: a searched deal is long enough to be
    a work item alone."""
    record = logs.shape[0] > 0
    keep_means = means.shape[0] > 0
    for j in prange(deals.shape[0]):
        work = np.empty(WORK_SIZE, np.int64)
        words = np.empty(12, np.uint64)
        log = np.empty(LOG_WIDTH, np.int8)
        decl = np.empty(4, np.int16)
        scratch = np.empty(12, np.int64)
        mean = means[j] if keep_means else np.empty((0, N_CARDS), np.float32)
        play_searched_deal_nb(seed, deals[j], opts, policies, worlds, rollout, racing, eps, record, work, words, out[j],
                              log, decl, scratch, mean, user_fn, faults[j])
        if record:
            for i in range(LOG_WIDTH):
                logs[j, i] = log[i]
            for i in range(4):
                declared[j, i] = decl[i]


@njit(cache=True, error_model="numpy", parallel=True)
def play_search_games_nb(seed, first_game, count, n_deals, opts, policies, worlds, rollout, racing, eps, out, user_fn,
                         faults):
    """Whole games with search seats, as ``kernels.play_games_nb``: row ``j`` sums the deals of game
    ``first_game + j`` (``max_delta`` is their largest, ``dealer`` the first dealer; ``faults`` per game)."""
    for j in prange(count):
        work = np.empty(WORK_SIZE, np.int64)
        words = np.empty(12, np.uint64)
        log = np.empty(LOG_WIDTH, np.int8)
        decl = np.empty(4, np.int16)
        scratch = np.empty(12, np.int64)
        row = np.empty(out.shape[1], out.dtype)
        none = np.empty((0, N_CARDS), np.float32)
        for i in range(out.shape[1]):
            out[j, i] = 0
        g = first_game + j
        for d in range(n_deals):
            play_searched_deal_nb(seed, g * n_deals + d, opts, policies, worlds, rollout, racing, eps, False, work,
                                  words, row, log, decl, scratch, none, user_fn, faults[j])
            for i in range(out.shape[1]):
                if i == COL.MAX_DELTA:
                    out[j, i] = max(out[j, i], row[i])
                else:
                    out[j, i] += row[i]
        out[j, COL.DEALER] = (g * n_deals) % 4
