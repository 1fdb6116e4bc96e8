"""Minchiate's search inference: the likelihood of the other seats' past cards, the card-holder swaps that move a
world, and the inferring search (reproducible, different, reachable from Python and the command line).

* at a table of heuristic players the true deal explains every card: its likelihood is the product, over the other
  seats' moves with a choice, of ``1 - eps + eps / k`` (``k`` legal cards as the referee counts them); a sampled
  world's likelihood is the same product judged move by move on the world's hands then;
* the holder-swap proposal keeps every holder's size and every card with a holder allowed it, and the moved world's
  words and likelihood are those of its assignment;
* inference gives the same rows for any threads and chunks and changes some decisions; the flag is checked.
"""
import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.minchiate import Study, simulate, simulate_games
from cardlab.sim.minchiate.kernels import heuristic_move_nb, legal_cards, put_card_nb
from cardlab.sim.minchiate.records import check_record
from cardlab.sim.minchiate.referee import legal_plays
from cardlab.sim.minchiate.rules import N_CARDS, split
from cardlab.sim.minchiate.search import (CD_WORD, DD_WORD, H_WIDTH, INFERENCE_EPSILON, move_world_nb,
                                          play_likelihood_nb, propose_holder_swap_nb, unseen_cards_nb,
                                          world_words_nb)
from cardlab.sim.worlds import P_ASSIGN, draw_deal_nb, plan_deal_nb
from test_minchiate_search import _public, _words, walk

WORLDS = 4


def kernel_history(rec):
    """The search kernel's move history of a recorded deal (``H_*`` columns), each move with the hands before it,
    the cards played before it, its trick and position."""
    rows, steps = [], []
    w_lo, w_hi = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    cards, seats = np.zeros(4, np.int64), np.zeros(4, np.int64)
    win_seat = win_card = -1
    for t, n, p, hands, played, led, first, trump_played, c in walk(rec):
        if n == 0:
            win_seat = win_card = -1
        rows.append((p, c, led, int(first), int(trump_played), win_seat, win_card))
        steps.append((t, n, p, hands, played, led, first, trump_played, win_seat, win_card, c))
        w_lo[p], w_hi[p] = map(np.uint64, split({c}))
        *_, win_seat, win_card = put_card_nb(c, p, n, w_lo, w_hi, cards, seats, led, trump_played, win_seat, win_card)
    history = np.array(rows, np.int8)
    assert history.shape[1] == H_WIDTH
    return history, steps


def by_seat(steps, count):
    lo, hi = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    for *_, p, hands, played, led, first, trump, ws, wc, c in steps[:count]:
        a, b = split({c})
        lo[p] |= np.uint64(a)
        hi[p] |= np.uint64(b)
    return lo, hi


def world_of(hands, cd, dd):
    """Six word pairs: the four hands, the cutter's and the dealer's discards."""
    lo, hi = _words(list(hands) + [cd, dd])
    return lo, hi


def python_likelihood(study, rec, steps, count, s, hands_now, cd, dd, eps):
    """The likelihood move by move, on hands rebuilt from the world's hands now and the cards played since."""
    dealer, cutter = rec["dealer"], rec["cutter"]
    later = [set() for _ in range(4)]
    for *_, p, _, _, _, _, _, _, _, c in steps[:count]:
        later[p].add(c)
    hands = [set(hands_now[q]) | later[q] for q in range(4)]
    fola = split(rec["fola_after"])
    weight = 1.0
    for t, n, p, _, played, led, first, trump, ws, wc, c in steps[:count]:
        if p != s:
            k = len(legal_plays(hands[p], None if led == -1 else led, first, trump))
            if k > 1:
                lo, hi = split(hands[p])
                l_lo, l_hi = legal_cards(np.uint64(lo), np.uint64(hi), led, first, trump)
                best = heuristic_move_nb(study.rules, p, np.uint64(lo), np.uint64(hi), l_lo, l_hi, n, led, ws, wc, t,
                                         cutter, dealer, *map(np.uint64, fola), *map(np.uint64, split(played)),
                                         *map(np.uint64, split(cd)), *map(np.uint64, split(dd)))
                weight *= 1 - eps + eps / k if best == c else eps / k
        hands[p].remove(c)
    return weight


def kernel_likelihood(study, rec, history, steps, count, s, w_lo, w_hi, eps):
    factors = np.ones(4)
    play_likelihood_nb(study.rules, s, count, history, rec["cutter"], rec["dealer"],
                       *map(np.uint64, split(rec["fola_after"])), w_lo, w_hi, *by_seat(steps, count), eps,
                       15 & ~(1 << s), factors, np.empty(4, np.uint64), np.empty(4, np.uint64))
    assert factors[s] == 1.0
    return float(np.prod(factors))


def view(study, rec, steps, count):
    """The searcher's view at move ``count`` (:func:`unseen_cards_nb`; no card ruled out by the play, so that the
    sampled worlds often contradict it)."""
    t, n, s, hands, played, *_ = steps[count]
    dealer, cutter = rec["dealer"], rec["cutter"]
    drawn, declared = _public(rec, study.options)
    cd, dd = set(rec["discards"][cutter]), set(rec["discards"][dealer])
    holder_seat, need = np.empty(5, np.int64), np.empty(5, np.int64)
    cards, allowed = np.empty(N_CARDS, np.int64), np.empty(N_CARDS, np.int64)
    h_lo, h_hi = _words(hands)
    m, nh = unseen_cards_nb(s, t, cutter, dealer, h_lo, h_hi, *map(np.uint64, split(played)),
                            *map(np.uint64, split(rec["fola_after"])), *map(np.uint64, split(cd)),
                            *map(np.uint64, split(dd)), *_words(drawn), *_words(declared), np.zeros(4, np.uint64),
                            np.zeros(4, np.uint64), False, False, holder_seat, need, cards, allowed)
    return s, hands, cd, dd, h_lo, h_hi, m, nh, holder_seat, need, cards, allowed


def sets_of(w_lo, w_hi):
    from cardlab.sim.minchiate.rules import join
    return [set(join(int(w_lo[q]), int(w_hi[q]))) for q in range(6)]


def test_likelihood_is_the_softened_heuristic_move_by_move():
    """The true deal at a heuristic table: every card the heuristic's, so the product of ``1 - eps + eps / k`` over
    the other seats' moves with a choice (``k`` counted by the referee's own legality). A sampled world: the same
    product judged on its hands then, the heuristic called move by move as a heuristic seat would have; many worlds
    leave a card unexplained and weigh far less than the true one."""
    study = Study.build(policy="heuristic", seed=5)
    eps = INFERENCE_EPSILON
    checked = lower = 0
    state = np.uint64(7)
    for deal in range(3):
        rec, _ = check_record(study, study.play(deal, 1, record=True), 0)
        history, steps = kernel_history(rec)
        cd, dd = set(rec["discards"][rec["cutter"]]), set(rec["discards"][rec["dealer"]])
        for count in (2, 9, 30, 61):
            s, hands, _, _, h_lo, h_hi, m, nh, holder_seat, need, cards, allowed = view(study, rec, steps, count)
            want = 1.0
            for t, n, p, before, played, led, first, trump, *_ in steps[:count]:
                k = len(legal_plays(before[p], None if led == -1 else led, first, trump))
                if p != s and k > 1:
                    want *= 1 - eps + eps / k
            w_lo, w_hi = world_of(hands, cd, dd)
            true = kernel_likelihood(study, rec, history, steps, count, s, w_lo, w_hi, eps)
            assert true == pytest.approx(want, rel=1e-12)
            assert kernel_likelihood(study, rec, history, steps, count, s, w_lo, w_hi, 1e-9) == pytest.approx(1.0)
            plan = plan_deal_nb(cards, allowed, m, need, nh)
            for _ in range(4):
                state = np.uint64(draw_deal_nb(state, plan))
                s_lo, s_hi = np.empty(6, np.uint64), np.empty(6, np.uint64)
                world_words_nb(s, h_lo, h_hi, *map(np.uint64, split(cd)), *map(np.uint64, split(dd)), cards,
                               plan[P_ASSIGN], m, holder_seat, nh, s_lo, s_hi)
                got = kernel_likelihood(study, rec, history, steps, count, s, s_lo, s_hi, eps)
                w = sets_of(s_lo, s_hi)
                assert got == pytest.approx(python_likelihood(study, rec, steps, count, s, w[:4], w[CD_WORD],
                                                              w[DD_WORD], eps), rel=1e-12)
                assert 0 < got <= 1  # (a world where a move was forced may weigh more than the true one)
                lower += got < want * 0.5
                checked += 1
    assert checked >= 40 and lower > checked // 4


def test_holder_swaps_keep_sizes_and_constraints_and_the_likelihood_in_step():
    """Every accepted swap keeps each holder's size and each card with a holder allowed it (the unseen discards
    included, during trick 1); a refused one changes nothing; a swap drawn twice is undone (the proposal is its own
    reverse). After the Metropolis steps the world's words are its assignment's and its likelihood a fresh one."""
    study = Study.build(policy="heuristic", seed=5, discards_to="own_team_pile")
    eps = INFERENCE_EPSILON
    proposals = accepted = moved = 0
    for deal in range(4):
        rec, _ = check_record(study, study.play(deal, 1, record=True), 0)
        history, steps = kernel_history(rec)
        for count in (1, 3, 22, 50):
            s, hands, cd, dd, h_lo, h_hi, m, nh, holder_seat, need, cards, allowed = view(study, rec, steps, count)
            if count < 4:
                assert nh > 3 or s in (rec["cutter"], rec["dealer"])  # an unseen pile is a holder in trick 1
            plan = plan_deal_nb(cards, allowed, m, need, nh)
            state = np.uint64(draw_deal_nb(np.uint64(deal * 100 + count), plan))
            assign = plan[P_ASSIGN][:m].copy()
            sizes = np.bincount(assign, minlength=nh)
            for _ in range(200):
                before = assign.copy()
                state, i, j, u = propose_holder_swap_nb(np.uint64(state), assign, allowed, m)
                assert 0 <= u < 1
                proposals += 1
                if i < 0:
                    np.testing.assert_array_equal(assign, before)
                    continue
                accepted += 1
                assert before[i] != before[j] and assign[i] == before[j] and assign[j] == before[i]
                np.testing.assert_array_equal(np.bincount(assign, minlength=nh), sizes)
                assert all(allowed[x] >> assign[x] & 1 for x in range(m))
                back = assign.copy()  # the same pair swapped again gives the world back
                back[i], back[j] = back[j], back[i]
                np.testing.assert_array_equal(back, before)
            w_lo, w_hi = np.empty(6, np.uint64), np.empty(6, np.uint64)
            cd_w, dd_w = list(map(np.uint64, split(cd))), list(map(np.uint64, split(dd)))
            world_words_nb(s, h_lo, h_hi, *cd_w, *dd_w, cards, assign, m, holder_seat, nh, w_lo, w_hi)
            by_lo, by_hi = by_seat(steps, count)
            factors = np.ones(4)
            play_likelihood_nb(study.rules, s, count, history, rec["cutter"], rec["dealer"],
                               *map(np.uint64, split(rec["fola_after"])), w_lo, w_hi, by_lo, by_hi, eps,
                               15 & ~(1 << s), factors, np.empty(4, np.uint64), np.empty(4, np.uint64))
            start = assign.copy()
            _, likelihood = move_world_nb(np.uint64(count + 1), assign, allowed, cards, m, holder_seat, w_lo, w_hi,
                                          factors, np.empty(4), float(np.prod(factors)), study.rules, s, count,
                                          history, rec["cutter"], rec["dealer"],
                                          *map(np.uint64, split(rec["fola_after"])), by_lo, by_hi, eps,
                                          np.empty(4, np.uint64), np.empty(4, np.uint64))
            moved += not np.array_equal(start, assign)
            np.testing.assert_array_equal(np.bincount(assign, minlength=nh), sizes)
            f_lo, f_hi = np.empty(6, np.uint64), np.empty(6, np.uint64)
            world_words_nb(s, h_lo, h_hi, *cd_w, *dd_w, cards, assign, m, holder_seat, nh, f_lo, f_hi)
            np.testing.assert_array_equal(w_lo, f_lo)
            np.testing.assert_array_equal(w_hi, f_hi)
            assert likelihood == pytest.approx(kernel_likelihood(study, rec, history, steps, count, s, f_lo, f_hi,
                                                                 eps), rel=1e-9)
    assert proposals > 3000 and accepted > proposals // 4 and moved >= 8


def test_inference_is_reproducible_for_any_threads_and_chunks_and_changes_the_search():
    kw = dict(seed=42, policy="search,heuristic,search,random", search_worlds=WORLDS)
    on = simulate(deals=12, threads=1, chunk_size=12, search_inference="on", **kw)
    pd.testing.assert_frame_equal(on, simulate(deals=12, threads=numba.config.NUMBA_NUM_THREADS, chunk_size=5,
                                               search_inference="on", **kw))
    assert on.attrs["cardlab"]["search_inference"] == "on"
    off = simulate(deals=12, **kw)
    assert "search_inference" not in off.attrs["cardlab"]
    pd.testing.assert_frame_equal(off, simulate(deals=12, search_inference="off", **kw))
    means_on = Study.build(search_inference="on", **kw).searched(np.arange(12), record=True)[3]
    means_off = Study.build(**kw).searched(np.arange(12), record=True)[3]
    assert not np.array_equal(means_on, means_off, equal_nan=True)
    games = simulate_games(games=2, n_deals=2, threads=1, chunk_size=2, search_inference="on", **kw)
    pd.testing.assert_frame_equal(games, simulate_games(games=2, n_deals=2, threads=2, chunk_size=1,
                                                        search_inference="on", **kw))
    assert (games["net_resti"].to_numpy() == on["net_resti"].to_numpy()[:4].reshape(2, 2).sum(axis=1)).all()
    with pytest.raises(ValueError, match="search_inference: 'on' needs a search seat"):
        Study.build(policy="heuristic", search_inference="on")
    with pytest.raises(ValueError, match="search_inference: 'on' needs a search seat"):
        Study.build(policy="oracle,heuristic,heuristic,heuristic", search_inference="on")
    with pytest.raises(ValueError, match="search_racing: True does not apply with search_inference 'on'"):
        simulate(deals=1, search_racing=True, search_inference="on", **kw)


def test_an_inferring_seat_beside_a_python_seat_plays_as_beside_its_numba_twin():
    """Through the step API an inferring search seat searches from the deal so far (the same history, the same
    stream) as in the search kernel's own run: beside a Python seat and beside its Numba twin, the same rows."""
    from cardlab.sim.example_players import minchiate_lowest
    from cardlab.sim.games import game
    from cardlab.sim.minchiate.interface import row_columns
    from cardlab.sim.python_seats import play_deal
    from cardlab.sim.runner import to_frame
    from test_minchiate_state_search import lowest_declaring_all

    minchiate = game("minchiate")
    deals = np.array([2, 3, 6])
    table = ["search", "heuristic", "heuristic"]
    kw = dict(seed=3, search_worlds=WORLDS, search_inference="on")
    numba_twin = minchiate.build("deals", policy=[minchiate_lowest, *table], **kw)
    python = minchiate.build("deals", policy=[lowest_declaring_all, *table], **kw)
    kernel = to_frame(row_columns(numba_twin.searched(deals)[0]))
    state = to_frame(row_columns(minchiate.state_rows([play_deal(python, int(d)) for d in deals])))
    pd.testing.assert_frame_equal(state, kernel)
    plain = minchiate.build("deals", policy=[minchiate_lowest, *table], seed=3, search_worlds=WORLDS)
    assert not np.array_equal(numba_twin.searched(deals, record=True)[3], plain.searched(deals, record=True)[3],
                              equal_nan=True)
