"""Hearts' search inference (``search_inference="on"``): the likelihood of the other seats' past cards under the
softened heuristic, checked on a position worked out by hand and on recorded heuristic deals; inference is
reproducible for any threads and chunks, changes decisions, plays alike through the kernels and the step API, and
is taken from the command line and Python only with a search seat. (Hidden cards never change a search that
infers: ``tests/test_search_leakage.py`` and ``tests/test_hearts.py``.)"""
from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.cards import parse_card
from cardlab.sim.hearts import HEARTS
from cardlab.sim.hearts.kernels import N_CARDS_ROWS, N_ST, put_card_nb, start_nb, to_move
from cardlab.sim.hearts.search import (INFERENCE_EPSILON, MOVES, N_H, play_likelihood_nb, record_move_nb,
                                       seat_likelihood_nb)


def _mask(*names):
    m = 0
    for name in names:
        m |= 1 << parse_card(name)
    return np.uint64(m)


def _played(rules, hands, cards_played):
    """The position after ``cards_played`` from the hands ``hands`` (no pass), and its move history."""
    n = len(hands)
    cards, st = np.zeros(N_CARDS_ROWS, np.uint64), np.zeros(N_ST, np.int64)
    cards[:n] = hands
    start_nb(rules, cards, st)
    history = np.zeros((MOVES, N_H), np.int64)
    for i, c in enumerate(cards_played):
        record_move_nb(history, i, to_move(st), c, cards, st)
        put_card_nb(rules, cards, st, c)
    return cards, st, history


def test_the_likelihood_of_a_position_worked_out_by_hand():
    """Seat 0 leads the 2♣ (forced: it counts 1) and seat 1 follows with the K♣. The heuristic follows a trick it
    cannot win under with its lowest card, so a seat that held the 5♣ too played the K♣ with probability eps / 2
    (two legal cards), and with the 5♣ and 7♣ eps / 3; a seat with no other club had no choice (1). Seat 2, the
    searcher, has played nothing; seat 3 has not played."""
    study = HEARTS.build("deals", seed=1, policy="heuristic", pass_cards=False)
    rules = study.rules
    suits = {0: "♣", 1: "♦", 2: "♥", 3: "♠"}
    ranks = "23456789TJQKA"
    deck = [f"{r}{s}" for s in suits.values() for r in ranks]
    hands = np.zeros(4, np.uint64)
    # seat 0: the 2♣ and twelve diamonds; seat 1: K♣, 5♣ and the rest; built so every card is dealt once
    own = {0: ["2♣"] + [f"{r}♦" for r in "3456789TJQKA"], 1: ["K♣", "5♣", "7♣"] + [f"{r}♥" for r in "23456789TJ"],
           2: ["2♦"] + [f"{r}♠" for r in "23456789TJQK"]}
    own[3] = [c for c in deck if not any(c in h for h in own.values())]
    for p in range(4):
        hands[p] = _mask(*own[p])
        assert bin(int(hands[p])).count("1") == 13
    cards, st, history = _played(rules, hands, [parse_card("2♣"), parse_card("K♣")])
    factors = np.empty(4)
    for eps in (0.1, INFERENCE_EPSILON, 0.5):
        world = cards[:4].copy()  # the true hands now: seat 1 kept the 5♣ and 7♣
        assert play_likelihood_nb(rules, world, 2, 2, history, eps, factors) == pytest.approx(eps / 3)
        assert list(factors) == pytest.approx([1.0, eps / 3, 1.0, 1.0])
        h1 = world[1] & ~_mask("7♣")  # the 7♣ with seat 3, a heart of seat 3's with seat 1: only the 5♣ beside
        assert seat_likelihood_nb(rules, h1 | _mask("Q♥"), 1, 2, history, eps) == pytest.approx(eps / 2)
        no_club = world[1] & ~_mask("5♣", "7♣") | _mask("Q♥", "K♥")
        assert seat_likelihood_nb(rules, no_club, 1, 2, history, eps) == 1.0
        # had seat 1 played the 5♣ (the heuristic's card) from the K♣ and 5♣: 1 - eps + eps / 2
        _, _, low = _played(rules, hands, [parse_card("2♣"), parse_card("5♣")])
        kept = world[1] & ~_mask("5♣", "7♣") | _mask("K♣", "Q♥")  # its hand now: the K♣ kept, the 7♣ elsewhere
        assert seat_likelihood_nb(rules, kept, 1, 2, low, eps) == pytest.approx(1 - eps + eps / 2)
        # the searcher's own cards are never judged, and nothing played yet weighs 1
        assert play_likelihood_nb(rules, world, 1, 2, history, eps, factors) == 1.0
        assert play_likelihood_nb(rules, world, 2, 0, history, eps, factors) == 1.0


def test_the_true_deal_explains_every_card_of_heuristic_players():
    """At a table of heuristic players the true hands give every past card its heuristic probability: as eps tends
    to 0 their likelihood tends to 1, the most any world gets, while hands that differ often leave a card
    unexplained (likelihood near 0). The history the search kernel records is what the kernels played."""
    from cardlab.sim.worlds import sample_world_nb

    study = HEARTS.build("deals", seed=3, policy="heuristic")
    cols = study.play(0, 6, record=True)
    rules, n = study.rules, 4
    world, slack, factors = np.empty(n, np.uint64), np.empty(1 << n, np.int64), np.empty(n)
    state, checked, unexplained = np.uint64(5), 0, 0
    for j in range(6):
        plays = cols["moves"][j][3 * n:].astype(np.int64)
        dealt = cols["hands"][j].astype(np.uint64)
        # the hands after the pass: dealt, less what each seat passed, plus what it got
        offset = int(cols["pass_direction"][j])
        hands = dealt.copy()
        if offset:
            moves = cols["moves"][j][:3 * n]
            passed = [np.uint64(sum(1 << int(c) for c in moves[3 * p:3 * p + 3])) for p in range(n)]
            for p in range(n):
                hands[p] &= ~passed[p]
            for p in range(n):
                hands[(p + offset) % n] |= passed[p]
        for count in (10, 23, 37):
            cards, st, history = _played(rules, hands, plays[:count])
            s = to_move(st)
            now = cards[:n].copy()
            assert play_likelihood_nb(rules, now, s, count, history, 1e-9, factors) == pytest.approx(1.0, abs=1e-6)
            excluded = np.zeros(n, np.uint64)
            for p in range(n):
                if p != s:  # a world that keeps only what is known: each seat's count (voids are not needed here)
                    excluded[p] = ~(now[p] | np.uint64(sum(int(now[q]) for q in range(n) if q not in (p, s))))
            for _ in range(5):
                state = np.uint64(sample_world_nb(state, s, n, now, excluded, world, slack))
                weight = play_likelihood_nb(rules, world, s, count, history, 1e-9, factors)
                assert 0 < play_likelihood_nb(rules, world, s, count, history, INFERENCE_EPSILON, factors) <= 1
                assert weight <= 1 + 1e-6
                unexplained += weight < 1e-6
                checked += 1
    assert checked == 90 and unexplained > checked // 4


def _run(**kw):
    return HEARTS.simulate(**kw)


def test_inference_is_reproducible_for_any_threads_and_chunks_and_changes_the_search():
    kw = dict(deals=12, seed=42, policy="search,heuristic,search,random", search_worlds=4)
    on = _run(threads=1, chunk_size=12, search_inference="on", **kw)
    pd.testing.assert_frame_equal(on, _run(threads=numba.config.NUMBA_NUM_THREADS, chunk_size=5,
                                           search_inference="on", **kw))
    assert on.attrs["cardlab"]["search_inference"] == "on"
    settings = {k: v for k, v in kw.items() if k != "deals"}
    means_on = HEARTS.build(search_inference="on", **settings).play(0, 12, record=True)["search_means"]
    means_off = HEARTS.build(search_inference="off", **settings).play(0, 12, record=True)["search_means"]
    assert (np.isnan(means_on) == np.isnan(means_off)).mean() > 0.5
    assert not np.array_equal(means_on, means_off, equal_nan=True)
    # the same means played alone, deal by deal: reproducible from (seed, deal, decision)
    alone = HEARTS.build(search_inference="on", **settings).play(7, 1, record=True)["search_means"]
    assert np.array_equal(alone[0], means_on[7], equal_nan=True)
    games = dict(games=2, seed=3, policy="search,heuristic,heuristic,heuristic", search_worlds=2)
    g_on = HEARTS.simulate_games(search_inference="on", threads=1, **games)
    pd.testing.assert_frame_equal(g_on, HEARTS.simulate_games(search_inference="on", threads=2, chunk_size=1, **games))
    with pytest.raises(ValueError, match="search_inference: 'on' needs a search seat"):
        HEARTS.build(policy="heuristic", search_inference="on")
    with pytest.raises(ValueError, match="search_inference: 'yes' is not allowed"):
        HEARTS.build(policy="search", search_inference="yes")


def test_a_search_seat_that_infers_plays_alike_in_the_kernels_and_the_step_api():
    """The step API's search seat infers from the same history, so a table played move by move gives the search
    kernel's rows; the oracle never infers (its rows are the same with inference on or off)."""
    from cardlab.sim.python_seats import play_columns
    from cardlab.sim.runner import to_frame

    study = HEARTS.build("deals", seed=9, policy=["search", "heuristic", "oracle", "random"], search_worlds=4,
                         search_inference="on")
    kernel = to_frame(study.play(0, 8))
    state = to_frame(play_columns(study, 0, 8))
    assert state.equals(kernel[list(state.columns)])

    assert list(study.inference_eps(study.policy_ids)) == [INFERENCE_EPSILON, 0.0, 0.0, 0.0]
    assert not HEARTS.build("deals", policy="search").inference_eps(study.policy_ids).any()  # off by default
