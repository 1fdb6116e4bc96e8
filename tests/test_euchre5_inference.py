"""Inference in Euchre for five's search: worlds weighted by the likelihood of the other seats' bids, call and cards.

* the likelihood on small positions checked by hand (a lead, a follow, a pass, a name, a call; a forced card
  counts 1; the searcher's own actions and the dealer's accept are not judged);
* at a table of heuristic players the true deal explains every decision: its weight tends to 1 with ``eps``;
* inference is reproducible for any threads and chunks, changes the search's means and some decisions, and
  plays the same in the step API's state as in the kernels;
* ``search_inference`` from Python and the command line: taken with a search seat, refused without one, and
  the oracle ladder with and without it gives :func:`~cardlab.analysis.strength.inference_share`.
"""
import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.cards import mask_of
from cardlab.sim.euchre5 import Study, simulate, simulate_games
from cardlab.sim.euchre5.kernels import DECK_BITS, callable_nb
from cardlab.sim.euchre5.policies import BEATS, SUIT_MASKS
from cardlab.sim.euchre5.search import (B_KIND, B_PLACE, B_SEAT, B_VALUE, BID_CALL, BID_ROUND_ONE, BID_ROUND_TWO,
                                        H_CARD, H_PLACE, H_REVEALED, H_SEAT, H_WINNER, HM_BEAT, HM_REMAINING,
                                        HM_SUIT, HM_TRICK, HOLDERS, INFERENCE_EPSILON, likelihood_nb)
from cardlab.sim.euchre5.rules import Euchre5Options, kernel_rules

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(6, 13)
EPS = 0.25


def card(rank, suit):
    return 16 * suit + rank


def hands_of(*seats, kitty=()):
    """A world: five hands and the kitty as 64-bit masks (lists of cards)."""
    world = np.zeros(HOLDERS, np.uint64)
    for h, cards in enumerate(list(seats) + [list(kitty)]):
        world[h] = np.uint64(mask_of(cards))
    return world


def weight(world, s=0, *, cards=(), bids=(), maker=0, partner=-1, called=-1, revealed=False, trump=SPADES,
           dealer=4, upcard=card(NINE, DIAMONDS), rnd=2, rules=None, eps=EPS):
    """``likelihood_nb`` of ``world`` for searcher ``s``: ``cards`` as (seat, card, place, winner, suit mask, beat,
    cards in the trick, remaining) rows, ``bids`` as (seat, kind, place, value) rows."""
    history = np.zeros((max(len(cards), 1), 5), np.int64)
    masks = np.zeros((max(len(cards), 1), 4), np.uint64)
    for i, (p, c, k, win, suit, beat, trick, remaining) in enumerate(cards):
        history[i, [H_SEAT, H_CARD, H_PLACE, H_WINNER, H_REVEALED]] = p, c, k, win, int(revealed)
        masks[i, [HM_SUIT, HM_BEAT, HM_TRICK, HM_REMAINING]] = suit, beat, trick, remaining
    b = np.zeros((max(len(bids), 1), 4), np.int64)
    for i, row in enumerate(bids):
        b[i, [B_SEAT, B_KIND, B_PLACE, B_VALUE]] = row
    rules = kernel_rules(Euchre5Options()) if rules is None else rules
    return likelihood_nb(world, s, eps, maker, partner, called, revealed, trump, called < 0, history, masks,
                         len(cards), b, len(bids), dealer, upcard, rnd, rules, np.empty(5, np.uint64))


def test_a_card_lead_is_judged_on_the_hand_then():
    """Seat 1 (a defender: maker 0 alone) led the 8♥ from two cards. Holding the A♥ as well, the heuristic
    would have led the Ace, which nobody can beat: the 8♥ has probability eps / 2. Holding the 9♣ instead,
    nothing it holds is unbeatable and its lowest plain card is the 8♥: 1 - eps + eps / 2."""
    lead = [(1, card(EIGHT, HEARTS), 0, 1, 0, 0, 0, int(DECK_BITS))]
    with_ace = hands_of([], [card(ACE, HEARTS)], [], [], [])
    with_nine = hands_of([], [card(NINE, CLUBS)], [], [], [])
    assert weight(with_ace, cards=lead) == pytest.approx(EPS / 2)
    assert weight(with_nine, cards=lead) == pytest.approx(1 - EPS + EPS / 2)
    assert weight(with_ace, s=1, cards=lead) == 1.0  # the searcher's own cards: not judged
    # a forced card counts 1: seat 1 followed hearts with the 8♥, its only heart, beside a club
    follow = [(1, card(EIGHT, HEARTS), 1, 0, int(SUIT_MASKS[SPADES, HEARTS]), int(BEATS[SPADES, card(KING, HEARTS)]),
               1 << card(KING, HEARTS), int(DECK_BITS))]
    assert weight(with_nine, cards=follow) == 1.0


def test_a_follow_is_judged_with_the_world_s_partner():
    """Maker 0 called the A♥ (not yet out). Seat 1 follows a trick that maker 0 is winning with the K♣ (the A♣
    still out), holding the Q♣ and the 10♣. In a world where seat 1 holds the called A♥ it is the partner, knows
    its ally is winning but not safely, and tries to win: the Q♣ is not enough (the K♣ wins), so it throws its
    lowest card, the 10♣. Where another seat holds the A♥, seat 1 is a defender and does the same: both judge
    a 10♣ as the heuristic's. A Q♣ would be eps / 2 in both."""
    spades = SPADES
    k_clubs = card(KING, CLUBS)
    for played, expect in ((card(TEN, CLUBS), 1 - EPS + EPS / 2), (card(QUEEN, CLUBS), EPS / 2)):
        kept = card(QUEEN, CLUBS) if played == card(TEN, CLUBS) else card(TEN, CLUBS)
        row = [(1, played, 1, 0, int(SUIT_MASKS[spades, CLUBS]), int(BEATS[spades, k_clubs]), 1 << k_clubs,
                int(DECK_BITS))]
        partner_world = hands_of([], [kept, card(ACE, HEARTS)], [card(ACE, CLUBS)], [], [])
        defender_world = hands_of([], [kept, card(NINE, HEARTS)], [card(ACE, CLUBS)], [card(ACE, HEARTS)], [])
        for world in (partner_world, defender_world):
            assert weight(world, cards=row, called=card(ACE, HEARTS), partner=2) == pytest.approx(expect)
    # maker 0 leads the A♣ with every trump gone but seat 1's 9♠; seat 1, void in clubs, holds the 8♥ too. As the
    # partner (holding the called A♥) it knows its ally's Ace is safe and throws its lowest card, the 8♥; as a
    # defender it trumps with the 9♠. Its 8♥ is likely only in the worlds where it is the partner.
    ace = card(ACE, CLUBS)
    remaining = (DECK_BITS & ~SUIT_MASKS[spades, spades]) | np.uint64(1 << card(NINE, SPADES))
    row = [(1, card(EIGHT, HEARTS), 1, 0, int(SUIT_MASKS[spades, CLUBS]), int(BEATS[spades, ace]), 1 << ace,
            int(remaining))]
    partner = hands_of([], [card(NINE, SPADES), card(ACE, HEARTS)], [], [card(NINE, HEARTS)], [])
    defender = hands_of([], [card(NINE, SPADES), card(NINE, HEARTS)], [], [card(ACE, HEARTS)], [])
    assert weight(partner, cards=row, called=card(ACE, HEARTS), partner=3) == pytest.approx(1 - EPS + EPS / 3)
    assert weight(defender, cards=row, called=card(ACE, HEARTS), partner=3) == pytest.approx(EPS / 3)


def test_bids_and_the_call_are_judged_on_the_hand_before_the_play():
    """Seat 1 (left of dealer 4) passed a 9♦ upcard with five diamonds and both red Jacks: the heuristic accepts
    (eps / 2); with five black plain cards it passes (1 - eps + eps / 2). In round two a name of spades on such a
    hand is eps / 4; its pass, the heuristic's name of diamonds being the upcard's suit so barred, is judged
    against its best other suit. The maker's call of the left bower says it holds the right bower."""
    strong = [card(JACK, DIAMONDS), card(JACK, HEARTS), card(ACE, DIAMONDS), card(KING, DIAMONDS),
              card(QUEEN, DIAMONDS)]
    weak = [card(EIGHT, CLUBS), card(NINE, CLUBS), card(TEN, SPADES), card(EIGHT, SPADES), card(NINE, SPADES)]
    passed = [(1, BID_ROUND_ONE, 1, 0)]
    assert weight(hands_of([], strong, [], [], []), bids=passed, rnd=2) == pytest.approx(EPS / 2)
    assert weight(hands_of([], weak, [], [], []), bids=passed, rnd=2) == pytest.approx(1 - EPS + EPS / 2)
    # the dealer's accept is not judged in round one (its hand changed at the exchange)
    assert weight(hands_of([], [], [], [], weak), bids=[(4, BID_ROUND_ONE, 5, 1)], rnd=1, maker=4) == 1.0
    # round two: with the weak hand (clubs and spades, no Jack) the heuristic passes; naming spades is eps / 4
    assert weight(hands_of([], weak, [], [], []), bids=[(1, BID_ROUND_TWO, 1, SPADES)]) == pytest.approx(EPS / 4)
    assert weight(hands_of([], weak, [], [], []), bids=[(1, BID_ROUND_TWO, 1, -1)]) == pytest.approx(
        1 - EPS + EPS / 4)
    # the call: maker 2 called the J♣ (the left bower of spades): the heuristic calls it only holding the J♠
    rules = kernel_rules(Euchre5Options())
    right, left = card(JACK, SPADES), card(JACK, CLUBS)
    holds = [right, card(ACE, SPADES), card(KING, SPADES), card(ACE, HEARTS), card(EIGHT, DIAMONDS)]
    lacks = [card(TEN, SPADES), card(ACE, SPADES), card(KING, SPADES), card(ACE, HEARTS), card(EIGHT, DIAMONDS)]
    k = int(bin(int(callable_nb(np.uint64(mask_of(holds)), SPADES, card(NINE, DIAMONDS), rules))).count("1")) + 1
    call = [(2, BID_CALL, 0, left)]
    assert weight(hands_of([], [], holds, [], []), bids=call, maker=2) == pytest.approx(1 - EPS + EPS / k)
    assert weight(hands_of([], [], lacks, [], []), bids=call, maker=2) == pytest.approx(EPS / k)
    assert weight(hands_of([], [], lacks, [], []), s=2, bids=call, maker=2) == 1.0  # its own call: not judged
    # the product: a pass and a card
    both = weight(hands_of([], strong, [], [], []), bids=passed,
                  cards=[(1, card(QUEEN, DIAMONDS), 0, 1, 0, 0, 0, int(DECK_BITS))])
    assert both == pytest.approx(weight(hands_of([], strong, [], [], []), bids=passed) * weight(
        hands_of([], strong, [], [], []), cards=[(1, card(QUEEN, DIAMONDS), 0, 1, 0, 0, 0, int(DECK_BITS))]))


KW = dict(seed=42, policy="search,heuristic,random,search,heuristic", search_worlds=4)


def test_inference_is_reproducible_for_any_threads_and_chunks_and_changes_the_search():
    on = simulate(deals=24, threads=1, chunk_size=24, search_inference="on", **KW)
    pd.testing.assert_frame_equal(on, simulate(deals=24, threads=numba.config.NUMBA_NUM_THREADS, chunk_size=5,
                                               search_inference="on", **KW))
    assert on.attrs["cardlab"]["search_inference"] == "on"
    part = simulate(deals=6, first_deal=10, search_inference="on", **KW).reset_index(drop=True)
    pd.testing.assert_frame_equal(on.iloc[10:16].reset_index(drop=True), part)
    off = Study.build(search_inference="off", **KW).play(0, 24, record=True)
    inferred = Study.build(search_inference="on", **KW).play(0, 24, record=True)
    assert not np.array_equal(inferred["search_means"], off["search_means"], equal_nan=True)
    assert not np.array_equal(inferred["moves"], off["moves"])  # some decision changed
    games = simulate_games(games=2, threads=1, search_inference="on", **KW)
    pd.testing.assert_frame_equal(games, simulate_games(games=2, threads=2, chunk_size=1, search_inference="on",
                                                        **KW))


def test_the_state_plays_an_inferring_search_seat_as_the_kernels_do():
    from cardlab.sim.python_seats import play_columns
    from cardlab.sim.runner import to_frame

    study = Study.build(seed=17, policy="search,heuristic,oracle,random,heuristic", search_worlds=4,
                        search_inference="on")
    kernel = to_frame(study.play(0, 12))
    state = to_frame(play_columns(study, 0, 12))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def public_history(cols, j, cut):
    """Hand ``j`` of a recorded run (``cols``) walked to its ``cut``-th card: ``(holders now, likelihood_nb's
    keywords)``, the history rebuilt from the log as the searched hand keeps it."""
    from cardlab.sim.euchre5.policies import EFF
    from cardlab.sim.euchre5.rules import ACCEPT, ALONE, CALL, DISCARD, NAME, PASS, PLAY

    hands = [int(h) for h in cols["hands"][j]]
    kitty = [int(c) for c in cols["kitty"][j]]
    upcard, dealer = kitty[0], int(cols["dealer"][j])
    phase, rnd, maker, trump, called, revealed = 1, 0, -1, -1, -1, False
    bids, cards, trick, passes = [], [], [], 0
    remaining = winner = beat = suit = 0
    for seat, kind, value in (tuple(int(x) for x in row) for row in cols["moves"][j]):
        if seat < 0 or len(cards) == cut:
            break
        place = (seat - dealer - 1) % 5 + 1
        if kind in (PASS, ACCEPT) and phase == 1:
            bids.append((seat, BID_ROUND_ONE, place, int(kind == ACCEPT)))
            passes += kind == PASS
            if kind == ACCEPT:
                maker, trump, rnd = seat, upcard // 16, 1
                hands[dealer] |= 1 << upcard
                kitty.remove(upcard)
            elif passes == 5:
                phase = 2
        elif kind in (PASS, NAME):
            bids.append((seat, BID_ROUND_TWO, place, value if kind == NAME else -1))
            if kind == NAME:
                maker, trump, rnd = seat, value, 2
        elif kind == DISCARD:
            hands[dealer] &= ~(1 << value)
            kitty.append(value)
        elif kind in (CALL, ALONE):
            called = value if kind == CALL else -1
            bids.append((seat, BID_CALL, 0, called))
        elif kind == PLAY:
            if not cards:
                remaining = int(DECK_BITS) & ~((1 << upcard) if rnd == 2 else 0)
            k = len(trick)
            if k == 0:
                suit = beat = 0
                winner = seat
            cards.append((seat, value, k, winner, suit, beat, mask_of(trick), remaining, revealed))
            if k == 0:
                suit, beat = int(SUIT_MASKS[trump, EFF[trump, value]]), int(BEATS[trump, value])
            elif beat >> value & 1:
                beat, winner = int(BEATS[trump, value]), seat
            hands[seat] &= ~(1 << value)
            trick.append(value)
            revealed |= value == called
            if len(trick) == 5:
                remaining &= ~mask_of(trick)
                trick = []
    holders = hands_of(*[[c for c in range(64) if h >> c & 1] for h in hands], kitty=kitty)
    partner = int(cols["partner"][j])
    return holders, dict(cards=cards, bids=bids, maker=maker, partner=partner, called=called, revealed=revealed,
                         trump=trump, dealer=dealer, upcard=upcard, rnd=rnd)


@pytest.mark.parametrize("rules", [dict(), dict(call_before_exchange=True, dealer_may_discard_upcard=False),
                                   dict(call_rule="ace_of_suit", stick_the_dealer=False)])
def test_at_a_table_of_heuristic_players_the_true_deal_explains_every_decision(rules):
    """Every bid, call and card of a heuristic table is the heuristic's on the true hands: the true deal's
    likelihood tends to 1 as eps does (it is the most any world gets), at every point of the hand and for every
    searcher; hands with a hidden card moved between two other seats are often far less likely."""
    study = Study.build(policy="heuristic", seed=3, **rules)
    cols = study.play(0, 40, record=True)
    kr = study.rules
    rng = np.random.default_rng(1)
    checked = lower = 0
    for j in range(40):
        if cols["maker"][j] < 0:
            continue
        for cut in (0, 7, 14, 22):
            world, public = public_history(cols, j, cut)
            for s in range(5):
                true = weight_of(world, s, public, kr, 1e-9)
                assert true == pytest.approx(1.0, abs=1e-6), (j, cut, s)
                assert 0 < weight_of(world, s, public, kr, INFERENCE_EPSILON) <= 1
                others = [q for q in range(5) if q != s and int(world[q])]
                if len(others) < 2:
                    continue
                a, b = rng.choice(others, 2, replace=False)
                ca = int(rng.choice([c for c in range(64) if int(world[a]) >> c & 1]))
                cb = int(rng.choice([c for c in range(64) if int(world[b]) >> c & 1]))
                moved = world.copy()
                moved[a] = np.uint64((int(world[a]) & ~(1 << ca)) | 1 << cb)
                moved[b] = np.uint64((int(world[b]) & ~(1 << cb)) | 1 << ca)
                w = weight_of(moved, s, public, kr, 1e-9)
                assert w <= 1 + 1e-6
                lower += w < 1e-6
                checked += 1
    assert checked > 300 and lower > checked // 5


def weight_of(world, s, public, rules, eps):
    """``likelihood_nb`` of ``world`` for searcher ``s`` given :func:`public_history`'s keywords."""
    p = dict(public)
    cards = p.pop("cards")
    history = np.zeros((max(len(cards), 1), 5), np.int64)
    masks = np.zeros((max(len(cards), 1), 4), np.uint64)
    for i, (q, c, k, win, suit, beat, trick, remaining, rev) in enumerate(cards):
        history[i, [H_SEAT, H_CARD, H_PLACE, H_WINNER, H_REVEALED]] = q, c, k, win, int(rev)
        masks[i, [HM_SUIT, HM_BEAT, HM_TRICK, HM_REMAINING]] = suit, beat, trick, remaining
    bids = p.pop("bids")
    b = np.zeros((max(len(bids), 1), 4), np.int64)
    for i, row in enumerate(bids):
        b[i, [B_SEAT, B_KIND, B_PLACE, B_VALUE]] = row
    return likelihood_nb(world, s, eps, p["maker"], p["partner"], p["called"], p["revealed"], p["trump"],
                         p["called"] < 0, history, masks, len(cards), b, len(bids), p["dealer"], p["upcard"], p["rnd"],
                         rules, np.empty(5, np.uint64))
