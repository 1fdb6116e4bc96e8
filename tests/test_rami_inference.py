"""Rami's search inference: the likelihood of each other seat's last draw and discard, the history it reads (the
kernel's and the step API's alike), the card swaps that move a world, and the inferring search (reproducible,
different, played alike by the kernels and the state).

* a discard is the heuristic's with probability ``1 - eps + eps / k`` (``k`` legal kinds), else ``eps / k``; a
  take or a declined offer ``1 - eps/2`` when it agrees with whether the card can reach the table, else ``eps/2``,
  and a declined offer the rules forbade (``discard_take_must_use``, no use) counts 1;
* the swaps keep every hand's size and known cards and the multiset of the unseen cards;
* inference gives the same rows for any threads and chunks, changes some decisions, and a search seat that infers
  plays through the state as in the kernels.
"""
import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.games import game
from cardlab.sim.python_seats import play_deals
from cardlab.sim.rami import search as S
from cardlab.sim.rami.kernels import LOG_W
from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, new_scratch_nb
from cardlab.sim.rami.rules import HAND_W
from cardlab.sim.rami.state_policies import kernel_history
from cardlab.sim.rng import deal_state
from cardlab.sim.runner import to_frame
from cardlab.sim.user import run_callbacks

RAMI = game("rami")
EPS = 0.3


def kind(suit, rank):
    return suit * 13 + rank - 1


def hand_of(*kinds):
    h = np.zeros(HAND_W, np.int64)
    for k in kinds:
        h[k] += 1
    return h


def factor(hand, hist_row, bdelta_row, opened, **rules):
    o = RAMI.build("deals", **rules).options.kernel_ints()
    hist = np.zeros((2, S.HIST_W), np.int64)
    hist[1] = hist_row
    bdelta = np.zeros((2, HAND_W), np.int64)
    bdelta[1] = bdelta_row
    table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    return S.seat_factor_nb(1, hand, hist, bdelta, EPS, o, table, 0, opened, np.zeros(HAND_W, np.int64),
                            np.zeros((MAX_MELDS, MELD_W), np.int64), new_scratch_nb())


def row(eligible=0, top=-1, took=0, dk=-1, tku=-1, close=0, opened=0):
    r = np.zeros(S.HIST_W, np.int64)
    r[[S.H_VALID, S.H_ELIGIBLE, S.H_TOP, S.H_TOOK, S.H_DK, S.H_TKU, S.H_CLOSE, S.H_OPENED]] = (
        1, eligible, top, took, dk, tku, close, opened)
    return r


TWO, FIVE, NINE, KING = kind(0, 2), kind(1, 5), kind(2, 9), kind(3, 13)
H5, H6, H7 = kind(1, 5), kind(1, 6), kind(1, 7)


def test_a_discard_is_judged_on_the_hand_then():
    """Four lone cards of four suits: the heuristic throws the king (the highest value), so a king discarded is
    its choice (``1 - eps + eps/4``) and a two discarded beside the king is not (``eps/4``)."""
    none = np.zeros(HAND_W, np.int64)
    assert factor(hand_of(TWO, FIVE, NINE), row(dk=KING), none, 0) == pytest.approx(1 - EPS + EPS / 4)
    assert factor(hand_of(FIVE, NINE, KING), row(dk=TWO), none, 0) == pytest.approx(EPS / 4)
    assert factor(hand_of(), row(dk=KING), none, 0) == 1.0  # one card: no choice
    assert factor(hand_of(TWO), np.zeros(S.HIST_W, np.int64), none, 0) == 1.0  # no turn finished yet
    # the taken card kept off the table may not go: three kinds legal, the king still the heuristic's
    assert factor(hand_of(TWO, FIVE, NINE), row(dk=KING, tku=TWO, took=1), none, 0) == \
        pytest.approx(1 - EPS + EPS / 3)


def test_a_draw_is_judged_by_whether_the_discard_had_a_use():
    """An opened seat offered the 7 of hearts: with the 5 and 6 of hearts its hand had a use for it."""
    discard = 1 - EPS + EPS / 3  # its king thrown from three lone kinds
    # it took the 7 and laid 5-6-7: its hand before the draw was its hand now, the meld and the king less the 7
    took = hand_of(H5, H6, KING)
    assert factor(hand_of(TWO, NINE), row(eligible=1, top=H7, took=1, dk=KING, opened=1), took, 1) == \
        pytest.approx(discard)  # the rules made a take usable (discard_take_must_use): not judged
    assert factor(hand_of(TWO, NINE), row(eligible=1, top=H7, took=1, dk=KING, opened=1), took, 1,
                  discard_take_must_use=False) == pytest.approx(discard * (1 - EPS / 2))
    # taken freely and kept, with no use (no 5 or 6): not the heuristic's take; the 7 may not go, the king does
    kept = row(eligible=1, top=H7, took=1, dk=KING, tku=H7, opened=1)
    assert factor(hand_of(TWO, NINE, H7), kept, hand_of(KING) - hand_of(H7), 1, discard_take_must_use=False) == \
        pytest.approx((1 - EPS + EPS / 3) * EPS / 2)
    # it drew from the stock holding the 5 and 6: it declined a card with a use
    assert factor(hand_of(TWO, H5, H6), row(eligible=1, top=H7, dk=KING, opened=1), hand_of(KING), 1) == \
        pytest.approx((1 - EPS + EPS / 4) * EPS / 2)
    # without them the card had no use: the rules forbade the take (factor 1), or allowed it (1 - eps/2)
    lone = hand_of(TWO, NINE, kind(0, 11))
    assert factor(lone, row(eligible=1, top=H7, dk=KING, opened=1), hand_of(KING), 1) == \
        pytest.approx(1 - EPS + EPS / 4)
    assert factor(lone, row(eligible=1, top=H7, dk=KING, opened=1), hand_of(KING), 1,
                  discard_take_must_use=False) == pytest.approx((1 - EPS + EPS / 4) * (1 - EPS / 2))
    # not eligible (the first round of turns): the draw is not judged
    assert factor(hand_of(TWO, H5, H6), row(top=H7, dk=KING, opened=1), hand_of(KING), 1) == \
        pytest.approx(1 - EPS + EPS / 4)


def test_card_swaps_keep_sizes_known_cards_and_the_unseen_cards():
    rng = np.random.default_rng(3)
    P, s, n_cards, sp = 4, 2, 108, 60
    w_hands = np.zeros((P, HAND_W), np.int64)
    deck = rng.permutation(np.r_[np.repeat(np.arange(52), 2), [52] * 4])
    known = np.zeros((P, HAND_W), np.int64)
    i = 0
    for p in range(P):
        for _ in range(13):
            w_hands[p, deck[i]] += 1
            i += 1
        known[p, deck[i - 1]] = 1  # its last card is known
    w_deck = np.zeros(S.DECK_MAX, np.int64)
    w_deck[sp:n_cards] = deck[sp:n_cards]
    before_hands, before_deck = w_hands.copy(), w_deck.copy()

    def unseen(h, d):
        u = np.bincount(d[sp:n_cards], minlength=HAND_W)
        for p in range(P):
            if p != s:
                u = u + h[p] - known[p]
        return u

    state = np.uint64(7)
    moved = stock = 0
    for _ in range(400):
        state, a, b, ca, cb, j, u = S.propose_card_swap_nb(state, s, P, w_hands, known, w_deck, sp, n_cards, True)
        state = np.uint64(state)  # returned to Python as an int
        assert a != s and b != s and a != b
        if ca >= 0:
            moved += 1
            stock += b < 0
        assert (w_hands.sum(axis=1) == before_hands.sum(axis=1)).all()
        assert (w_hands >= known).all() and (w_hands[s] == before_hands[s]).all()
        assert (unseen(w_hands, w_deck) == unseen(before_hands, before_deck)).all()
        assert (w_deck[:sp] == 0).all()
    assert moved > 300 and 50 < stock < moved
    state, a, b, ca, cb, j, u = S.propose_card_swap_nb(state, s, P, w_hands, known, w_deck, sp, n_cards, False)
    after = w_hands.copy(), w_deck.copy()
    if ca >= 0:
        assert b >= 0  # after a recycle the stock is never swapped
        S.undo_card_swap_nb(w_hands, w_deck, a, b, ca, cb, j)
        assert not np.array_equal(after[0], w_hands)


def test_inference_is_reproducible_for_any_threads_and_chunks_and_changes_the_search():
    kw = dict(seed=42, policy="search,heuristic,search,random", search_worlds=4)
    rami = RAMI.build("deals", **kw)
    on = RAMI.simulate(deals=8, threads=1, chunk_size=8, search_inference="on", **kw)
    pd.testing.assert_frame_equal(on, RAMI.simulate(deals=8, threads=numba.config.NUMBA_NUM_THREADS, chunk_size=3,
                                                    search_inference="on", **kw))
    assert on.attrs["cardlab"]["search_inference"] == "on"
    off = RAMI.simulate(deals=8, **kw)
    pd.testing.assert_frame_equal(off, RAMI.simulate(deals=8, search_inference="off", **kw))
    inferring = RAMI.build("deals", search_inference="on", **kw)
    means_on = inferring.searched(np.arange(8), record=True)[4]
    means_off = rami.searched(np.arange(8), record=True)[4]
    assert not np.array_equal(means_on, means_off)
    assert not on.equals(off)
    g1 = RAMI.simulate_games(games=2, seed=5, players=2, policy="search,heuristic", search_worlds=2, threads=1,
                             search_inference="on")
    g2 = RAMI.simulate_games(games=2, seed=5, players=2, policy="search,heuristic", search_worlds=2, threads=2,
                             chunk_size=1, search_inference="on")
    pd.testing.assert_frame_equal(g1, g2)


RULES = [dict(players=4), dict(players=6, recycle_discards=True),
         dict(players=3, discard_take_must_use=False, discard_take_first_round=True, open_threshold=30)]


@pytest.mark.parametrize("rules", RULES, ids=["four", "recycle", "take-freely"])
def test_an_inferring_search_seat_plays_through_the_state_as_in_the_kernels(rules):
    """The step API rebuilds each seat's last turn from the state's moves (``kernel_history``) as the kernel
    keeps it, so an inferring seat's turns through the state are the kernel's."""
    n = rules["players"]
    table = (["search", "heuristic", "random", "search", "heuristic", "heuristic"])[:n]
    study = RAMI.build("deals", seed=11, policy=table, search_worlds=3, search_inference="on", **rules)
    states = play_deals(study, 0, 6)
    kernel = to_frame(study.play(0, 6))
    state = to_frame(RAMI.state_columns(states))
    pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


@pytest.mark.parametrize("rules", RULES, ids=["four", "recycle", "take-freely"])
def test_the_state_rebuilds_the_kernels_history(rules):
    """Turn by turn, ``kernel_history`` of a state equals the history the search kernel kept over the same turns."""
    n = rules["players"]
    study = RAMI.build("deals", seed=13, policy="heuristic", **rules)
    o = study.options.kernel_ints()
    compared = 0
    for deal in range(3):
        state = RAMI.new_state(study, deal)
        stops = 0
        while not state.is_over and stops < 40:
            state.apply(state.policy_action("heuristic"))
            if state.drawn or state.is_over:
                continue
            hands = np.zeros((n, HAND_W), np.int64)
            deck = np.zeros(S.DECK_MAX, np.int64)
            pile = np.zeros(S.DECK_MAX, np.int64)
            table = np.zeros((MAX_MELDS, MELD_W), np.int64)
            seats = np.zeros((3, n), np.int64)
            sc = np.zeros(S.SC_W, np.int64)
            stream = np.uint64(S.deal_round_nb(np.uint64(deal_state(study.seed, deal)), state.dealer, o, hands, deck,
                                               pile, table, seats, sc, np.zeros(0, np.int64)))
            hist = np.zeros((n, S.HIST_W), np.int64)
            bdelta = np.zeros((n, HAND_W), np.int64)
            known = np.zeros((n, HAND_W), np.int64)
            pool = np.full(HAND_W, 2, np.int64)
            pool[52] = study.options.n_jokers
            S.play_search_turns_nb(0, deal, 0, stream, o, np.full(n, 1, np.int64), 2, 1, S.SHORTLIST, np.zeros(n),
                                   np.zeros((0, LOG_W), np.int64), np.zeros((4, n), np.int64),
                                   np.zeros((0, S.MEAN_W)), hands, deck, pile, table, seats, sc, known, pool, hist,
                                   bdelta, state.t, run_callbacks("", RAMI.numba_seat, searched=True),
                                   np.zeros(2, np.int64))
            if state.recycled_at is not None:
                break  # the recycle's shuffle comes from the kernel's stream, not the state's
            assert sc[S.S_T] == state.t and (hands == np.array(state.hands)).all()  # the same round so far
            h, b = kernel_history(state)
            np.testing.assert_array_equal(h, hist)
            np.testing.assert_array_equal(b, bdelta)
            stops += 1
        compared += stops
    assert compared > 15
