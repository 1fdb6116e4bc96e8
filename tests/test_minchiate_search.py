"""The Minchiate search policy: legal, reproducible, and blind to the cards it has not seen.

* every searched move passes the plain-Python referee (rule options, mixed policies), scores match;
* without search seats the search kernels play exactly like the deal and game kernels;
* results do not depend on threads, chunks or which deals run together (deals and whole games);
* every sampled world is consistent with what the searcher has seen: hand sizes, no card already
  seen, revealed cards with their holder, unseen discards of legal discards only, every earlier
  move of every seat still legal with the sampled hand; the worlds are not the true hands;
* the search's means are the same whatever the hidden cards (given what the searcher saw);
* a searching partnership outscores heuristic partners on the same deals;
* the strength study's rows are the matches they name, its report's gains the hand computation.
"""
import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.minchiate import simulate, simulate_games
from cardlab.sim.minchiate.combos import find_combinations
from cardlab.sim.minchiate.kernels import play_games_nb
from cardlab.sim.minchiate.policies import DISCARD_HI, DISCARD_LO
from cardlab.sim.minchiate.referee import legal_plays
from cardlab.sim.minchiate.rules import MATTO, N_CARDS, TRUMP_29, CARD_VALUES, join, split, suit_of
from cardlab.sim.minchiate.search import (combo_cards_nb, play_search_games_nb, search_card_nb, search_state,
                                          shown_absent_nb, unseen_cards_nb)
from cardlab.sim.worlds import P_ASSIGN, draw_deal_nb, plan_deal_nb
from cardlab.sim.minchiate import MINCHIATE, Study
from cardlab.sim.minchiate.records import check_record
from cardlab.sim.policy import POLICY

WORLDS = 4  # small: these tests are about rules and bookkeeping, not strength
SWITCHED = dict(steal_29=False, expose_last_cards="all_four", dealer_takes_from_fola="counting+trumps_above_20",
                discards_to="own_team_pile", declarations="mandatory_all", c5_merge=False, combos_may_share=False,
                matto_bonus_on_c3=True, score_pile_combos=False, cappotto_double=True)


def kernel_record(study, deal: int) -> tuple[dict, dict]:
    """The referee's record of deal ``deal`` played alone and recorded, and its row, checked to agree
    (:func:`~cardlab.sim.minchiate.records.check_record`)."""
    return check_record(study, study.play(deal, 1, record=True), 0)


def test_declared_cards_are_the_combinations_the_referee_finds():
    for rules in ({}, dict(c5_merge=False, combos_may_share=False)):
        study = Study.build(policy="random", seed=3, **rules)
        merge, share = study.options.c5_merge, study.options.combos_may_share
        checked = 0
        for j in range(40):
            rec, _ = kernel_record(study, j)
            for p in range(4):
                hand = _hand_after_discards(rec, p)
                found = find_combinations(hand, c5_merge=merge, combos_may_share=share)
                want = set().union(*(cb.cards for cb in found)) if found else set()
                if found and MATTO in hand:
                    want.add(MATTO)
                lo, hi = split(hand)
                assert set(join(*combo_cards_nb(np.uint64(lo), np.uint64(hi), merge, share))) == want
                checked += bool(found)
        assert checked > 20


def _hand_after_discards(rec, p):
    hand = set(rec["hands"][p])
    if p == rec["dealer"]:
        hand |= set(rec["dealer_draw"])
    return hand - set(rec["discards"][p])


@pytest.mark.parametrize("rules,policy", [
    ({}, "search,heuristic,random,heuristic"),
    (SWITCHED, "search,search,heuristic,random"),
    (dict(cutter_cap=3, discards_to="own_team_pile"), "random,search,heuristic,search"),
])
def test_searched_deals_pass_the_referee(rules, policy):
    study = Study.build(policy=policy, seed=11, search_worlds=WORLDS, **rules)
    out, logs, declared, means = study.searched(np.arange(12), record=True)
    searchers = [p for p, name in enumerate(study.policies) if name == "search"]
    for j in range(12):
        rec, row = kernel_record(study, j)  # the referee replays every move and rescores the deal
        assert int(row["net_resti"]) == int(out[j, 5]) - int(out[j, 6])
        searched = [divmod(m, 4) for m in range(84) if not np.isnan(means[j, m]).all()]
        assert searched, f"deal {j}: no searched decision"
        for t, n in searched:
            seat, played = rec["tricks"][t][n]
            assert seat in searchers
            row_means = means[j, 4 * t + n]
            assert row_means[played] == np.nanmax(row_means)  # the played card is a best candidate
            assert np.count_nonzero(~np.isnan(row_means)) > 1


@pytest.mark.parametrize("policy,rules", [("heuristic", {}), ("random", {}),
                                          ("heuristic,random,random,heuristic", SWITCHED)])
def test_without_search_seats_the_search_kernels_play_like_the_deal_kernels(policy, rules):
    study = Study.build(policy=policy, seed=17, **rules)
    plain = study.raw(0, 300, record=True)
    searched = study.searched(np.arange(300), record=True)
    for a, b in zip(plain, searched):
        np.testing.assert_array_equal(a, b)
    study4 = Study.build(policy=policy, seed=17, n_deals=4, **rules)
    games = np.zeros((40, 39), np.int32)
    play_games_nb(17, 0, 40, 4, study4.rules, study4.policy_ids, games, None, np.zeros((40, 2), np.int64))
    searched = np.zeros((40, 39), np.int32)
    play_search_games_nb(17, 0, 40, 4, study4.rules, study4.policy_ids, study4.search_worlds, study4.rollout_id,
                         study4.racing_level, np.zeros(4), searched, study4.user_callback(searched=True),
                         np.zeros((40, 2), np.int64))  # the study's callback types: its compiled kernel
    np.testing.assert_array_equal(games, searched)


def test_same_results_for_any_thread_count_chunk_and_slice():
    kw = dict(seed=42, policy="search,random,heuristic,search", search_worlds=WORLDS)
    reference = simulate(deals=16, threads=1, chunk_size=16, **kw)
    pd.testing.assert_frame_equal(reference, simulate(deals=16, threads=numba.config.NUMBA_NUM_THREADS,
                                                      chunk_size=5, **kw))
    part = simulate(deals=5, first_deal=9, **kw).reset_index(drop=True)
    pd.testing.assert_frame_equal(reference.iloc[9:14].reset_index(drop=True), part)
    games = simulate_games(games=3, n_deals=2, threads=1, chunk_size=3, **kw)
    pd.testing.assert_frame_equal(games, simulate_games(games=3, n_deals=2, threads=2, chunk_size=1, **kw))
    assert (games["net_resti"].to_numpy() == reference["net_resti"].to_numpy()[:6].reshape(3, 2).sum(axis=1)).all()


# ---------------------------------------------------------------- the worlds: what the searcher has seen


def _public(rec, options):
    """Per seat: the cards drawn or exposed (in hand, or in the discards during trick 1) and the cards
    its declarations showed (in hand), from the referee's record."""
    drawn = [set() for _ in range(4)]
    drawn[rec["cutter"]] |= set(rec["cutter_draw"])
    drawn[rec["dealer"]] |= set(rec["dealer_draw"])
    for p, c in rec["exposed"].items():
        drawn[int(p)].add(c)
    declared = []
    for p in range(4):
        shown = set().union(*(cb["cards"] for cb in rec["declarations"][p])) if rec["declarations"][p] else set()
        if shown and MATTO in _hand_after_discards(rec, p):
            shown.add(MATTO)
        declared.append(shown)
    return drawn, declared


def _words(sets):
    lo, hi = zip(*(split(s) for s in sets))
    return np.array(lo, np.uint64), np.array(hi, np.uint64)


def walk(rec):
    """Every move of the deal: (trick, position, seat, hands before the move, played before, led, first_of_suit,
    trump_played, card)."""
    hands = [_hand_after_discards(rec, p) for p in range(4)]
    played = set()
    led_suits = set()
    for t, trick in enumerate(rec["tricks"]):
        led, trump_played = -1, False
        for n, (p, c) in enumerate(trick):
            first = 0 <= led < 4 and led not in led_suits
            yield t, n, p, [set(h) for h in hands], set(played), led, first, trump_played, c
            hands[p].remove(c)
            played.add(c)
            if c == MATTO:
                continue
            if led == -1:
                led = suit_of(c)
            trump_played = trump_played or c < 40
        if 0 <= led < 4:
            led_suits.add(led)


@pytest.mark.parametrize("rules", [{}, SWITCHED])
def test_sampled_worlds_are_consistent_with_what_the_searcher_has_seen(rules):
    study = Study.build(policy="random", seed=23, **rules)  # random play shows many voids
    state = np.uint64(99)
    blank = set(join(int(DISCARD_LO), int(DISCARD_HI)))
    assert all(CARD_VALUES[c] == 0 and c != TRUMP_29 for c in blank)
    checked = differs = 0
    for deal in range(5):
        rec, _ = kernel_record(study, deal)
        dealer, cutter = rec["dealer"], rec["cutter"]
        drawn, declared = _public(rec, study.options)
        cd, dd = set(rec["discards"][cutter]), set(rec["discards"][dealer])
        excluded_lo, excluded_hi = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
        history = []
        for number, (t, n, s, hands, played, led, first, trump_played, card) in enumerate(walk(rec)):
            if number % 5 == 0:
                h_lo, h_hi = _words(hands)
                args = [s, t, cutter, dealer, h_lo, h_hi, *map(np.uint64, split(played)),
                        *map(np.uint64, split(rec["fola_after"])), *map(np.uint64, split(cd)),
                        *map(np.uint64, split(dd)), *_words(drawn), *_words(declared), excluded_lo, excluded_hi,
                        False, False]
                holder_seat, need = np.empty(5, np.int64), np.empty(5, np.int64)
                cards, allowed = np.empty(N_CARDS, np.int64), np.empty(N_CARDS, np.int64)
                m, nh = unseen_cards_nb(*args, holder_seat, need, cards, allowed)
                seen = hands[s] | played | set(rec["fola_after"]) | (cd if t > 0 or s == cutter else set()) | \
                    (dd if t > 0 or s == dealer else set())
                unseen = {int(c) for c in cards[:m]}
                assert unseen == set(range(N_CARDS)) - seen
                plan = plan_deal_nb(cards, allowed, m, need, nh)
                assign = plan[P_ASSIGN]
                for _ in range(3):
                    state = np.uint64(draw_deal_nb(state, plan))
                    assert all(allowed[i] >> assign[i] & 1 for i in range(m)), "every card to a holder allowed it"
                    got = {int(holder_seat[h]): set() for h in range(nh)}
                    for i in range(m):
                        got[int(holder_seat[assign[i]])].add(int(cards[i]))
                    for q, cs in got.items():
                        if q < 4:
                            assert len(cs) == len(hands[q]), "hand sizes"
                            assert declared[q] & unseen <= cs, "declared cards stay with their holder"
                        else:
                            pile = cd if q == 4 else dd
                            assert len(cs) == len(pile) and cs <= blank, "unseen discards: legal discards only"
                    for q in range(4):
                        owner_ok = got.get(q, set()) | got.get(4 if q == cutter else 5 if q == dealer else -1, set())
                        if q != s:
                            assert (drawn[q] & unseen) <= owner_ok, "drawn cards stay with the drawer"
                    # Every earlier move of every other seat stays legal with its sampled hand.
                    start = {q: got[q] | {c for (p, c, *_) in history if p == q} for q in got if q < 4}
                    for p, c, h_led, h_first, h_trump in history:
                        if p in start:
                            assert c in legal_plays(start[p], None if h_led == -1 else h_led, h_first, h_trump), \
                                f"seat {p} could not have played {c} with the sampled hand"
                            start[p].remove(c)
                    differs += any(got[q] != hands[q] for q in got if q < 4)
                    checked += 1
            a_lo, a_hi = shown_absent_nb(card, *map(np.uint64, split(set(range(N_CARDS)) - played - hands[s])),
                                         led, first, trump_played)
            excluded_lo[s] |= a_lo
            excluded_hi[s] |= a_hi
            history.append((s, card, led, first, trump_played))
    assert checked > 100 and differs > checked * 0.9  # the worlds are samples, not the true hands


def test_search_means_do_not_depend_on_the_hidden_cards():
    study = Study.build(policy="heuristic", seed=8)
    rec, _ = kernel_record(study, 1)
    dealer, cutter = rec["dealer"], rec["cutter"]
    s = (dealer + 1) % 4  # the first leader
    drawn, declared = _public(rec, study.options)
    hands = [_hand_after_discards(rec, p) for p in range(4)]
    a, b = [q for q in range(4) if q != s][:2]
    hidden_a = sorted(hands[a] - drawn[a] - declared[a])
    hidden_b = sorted(hands[b] - drawn[b] - declared[b])
    swapped = [set(h) for h in hands]
    swapped[a] = (hands[a] - set(hidden_a[:3])) | set(hidden_b[:3])
    swapped[b] = (hands[b] - set(hidden_b[:3])) | set(hidden_a[:3])
    cd, dd = split(rec["discards"][cutter]), split(rec["discards"][dealer])
    totals = []
    for world in (hands, swapped):
        h_lo, h_hi = _words(world)
        legal_lo, legal_hi = h_lo[s], h_hi[s]
        out = np.zeros(N_CARDS, np.int64)
        search_card_nb(search_state(8, 1, 0), s, study.rules, 6, POLICY.HEURISTIC, 1, False, legal_lo, legal_hi,
                       min(hands[s]), dealer, cutter,
                       0, 0, s, -1, False, -1, -1, 0, -1, False, h_lo, h_hi, np.zeros(2, np.uint64),
                       np.zeros(2, np.uint64), np.zeros(2, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
                       np.uint64(0), np.uint64(0), *map(np.uint64, split(rec["fola_after"])), *map(np.uint64, cd),
                       *map(np.uint64, dd), *_words(drawn), *_words(declared), np.zeros(4, np.uint64),
                       np.zeros(4, np.uint64), False, False, out, np.zeros(N_CARDS, np.int64), np.empty(12, np.int64),
                       0.0, np.zeros((0, 7), np.int8), 0)
        totals.append(out)
    np.testing.assert_array_equal(totals[0], totals[1])
    assert np.count_nonzero(totals[0]) > 5


def test_a_searching_partnership_outscores_heuristic_partners():
    kw = dict(deals=24, seed=9, first_deal=400)
    searched = simulate(policy="search,heuristic,search,heuristic", search_worlds=8, **kw)
    plain = simulate(policy="heuristic", **kw)
    gain = (searched["points_0"] - searched["points_1"]) - (plain["points_0"] - plain["points_1"])
    assert gain.mean() > 0


# ---------------------------------------------------------------- strength study, replay and command line


def test_strength_study_rows_are_the_matches_they_name():
    from cardlab.sim.ladder import PAIRS, strength_study

    df = strength_study(MINCHIATE, deals=8, seed=4, search_worlds=2)
    assert (df["team"] == (df["deal"] // 4) % 2).all() and (df["dealer"] == df["deal"] % 4).all()
    plain = simulate(deals=8, seed=4)
    assert (df["net_heuristic"].to_numpy() == plain["net_resti"].to_numpy()).all()
    for j in (2, 5):
        row = df.iloc[j]
        for x, y in PAIRS[:4]:
            seats = [y] * 4
            seats[row["team"]] = seats[row["team"] + 2] = x
            worlds = {"search_worlds": 2} if "search" in seats else {}
            alone = simulate(deals=1, first_deal=j, seed=4, policy=",".join(seats), **worlds)
            assert alone["net_resti"].iloc[0] == row[f"net_{x}_vs_{y}"]
            assert alone["points_0"].iloc[0] - alone["points_1"].iloc[0] == row[f"diff_{x}_vs_{y}"]


def test_strength_report_gains_are_the_paired_differences():
    from cardlab.analysis.strength import format_strength_study, plot_strength_study, strength_gains, table_figures
    from cardlab.sim.ladder import strength_study

    df = strength_study(MINCHIATE, deals=8, seed=6, search_worlds=2)
    sign = np.where(df["team"] == 0, 1, -1)
    manual = (df["net_search_vs_heuristic"] - df["net_heuristic"]) * sign
    gains = strength_gains(df)  # Minchiate's ladder (a partnership changes) read from the rows' own metadata
    assert gains.loc[("search", "heuristic"), "net_resti"] == pytest.approx(manual.mean())
    edge = df["net_search"] * np.where(df["dealer"] % 2 == 0, 1, -1)
    assert table_figures(df).loc["dealer's team net resti", "search"] == pytest.approx(edge.mean())
    assert "dealer's team" in format_strength_study(df)
    assert len(plot_strength_study(df).axes) == 5  # the gains, then four whole-table figures


def test_replay_shows_each_searched_candidate():
    import json

    from cardlab.sim.minchiate import replay

    r = replay(deal=2, seed=5, policy="search,heuristic,heuristic,heuristic", search_worlds=2)
    assert "searched decisions" in r.text and "*" in r.text
    record = json.loads(r.json)
    assert record["searched"] and all(d["seat"] == 0 for d in record["searched"])
    best = record["searched"][0]["candidates"][0]
    assert best[1] == max(m for _, m in record["searched"][0]["candidates"])


def test_command_line_search_and_strength(tmp_path, capsys):
    from cardlab.sim.cli import main

    assert main(["simulate", "minchiate", "--deals", "4", "--policy", "search,heuristic,random,heuristic",
                 "--search-worlds", "2"]) == 0
    assert "net resti" in capsys.readouterr().out
    assert main(["simulate", "minchiate", "--games", "2", "--n-deals", "2", "--policy", "search",
                 "--search-worlds", "2", "--search-rollout", "random"]) == 0
    capsys.readouterr()
    out = tmp_path / "strength.parquet"
    assert main(["study", "minchiate", "strength", "--deals", "4", "--search-worlds", "2", "--out", str(out),
                 "--plot", str(tmp_path / "s.png")]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "dealer's team" in capsys.readouterr().out and (tmp_path / "s.png").exists()
    assert main(["replay", "minchiate", "--deal", "1", "--policy", "search", "--search-worlds", "2", "--json"]) == 0
    assert '"searched"' in capsys.readouterr().out
    assert main(["simulate", "minchiate", "--deals", "4", "--search-worlds", "4"]) == 2
    assert "--search-worlds: 4 needs a search seat (policy 'search')" in capsys.readouterr().err
    assert main(["simulate", "minchiate", "--deals", "4", "--policy", "search", "--search-rollout", "smart"]) == 2
    assert "--search-rollout: 'smart' is not allowed" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cardlab.sim.minchiate.interface", "cardlab.analysis.strength"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
