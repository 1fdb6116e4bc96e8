"""The Euchre-for-five search policy: legal, reproducible, and blind to the cards it has not seen.

* every searched hand and game passes the plain-Python referee (every option set, policy mixes);
* without search seats the search kernels play exactly like the plain kernels (hands and games);
* results do not depend on threads, chunks or which hands run together;
* the chosen candidate is always a best-mean one;
* every sampled world is consistent with what the searcher knows: its own hand, hand sizes, no card
  already played, no card of an effective suit a seat showed out of, the dealer's discard known only
  to the dealer, the upcard with the dealer or in the kitty, the called card never with the maker
  (and sometimes in the kitty: the buried card); the worlds are not the true hands;
* the search's means are the same whatever the hidden cards (given what the searcher saw);
* the strength study's rows are the tables they name, its report's gains are hand computations;
* the command line (simulate, games, replay text and JSON, studies, one-line errors).
"""
import json

import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.cards import cards_of, mask_of
from cardlab.sim.euchre5 import Study, replay, simulate, simulate_games
from cardlab.sim.euchre5.kernels import DECK_BITS, N_RES, RES_SCORE
from cardlab.sim.euchre5.policies import POLICY, SUIT_MASKS
from cardlab.sim.euchre5.referee import check_game, suit_when
from cardlab.sim.euchre5.search import (HOLDERS, KITTY_HOLDER, card_search_nb, knowledge_nb,
                                        play_search_games_nb, sample_view_nb, search_state)
from cardlab.sim.euchre5.interface import check_rows

WORLDS = 4  # small: these tests are about rules and bookkeeping, not strength
MIX = "search,heuristic,random,search,heuristic"
# card_search_nb's inference arguments for a search without it: eps 0, no history, bids or upcard
NO_INFERENCE = (0.0, np.empty((0, 5), np.int64), np.empty((0, 4), np.uint64), 0, np.empty((0, 4), np.int64), 0, 0, -1, 0)


@pytest.mark.parametrize("rules", [
    dict(),
    dict(call_before_exchange=True, dealer_may_discard_upcard=False),
    dict(allow_call_own_card=True, call_rule="non_trump", stick_the_dealer=False),
    dict(call_rule="ace_of_suit", lone_march_points=5, forced_alone_march_points=4, defender_points="1,3"),
])
@pytest.mark.parametrize("policy", ["search", MIX])
def test_searched_hands_pass_the_referee(rules, policy):
    study = Study.build(policy=policy, seed=11, search_worlds=WORLDS, **rules)
    cols = study.play(0, 60, record=True)
    check_rows(study.options, cols)  # every action legal, the kernel's row equal to the referee's
    searched = ~np.isnan(cols["search_means"]).all(axis=2)
    assert searched.sum(axis=1).min() >= 1  # every hand had a searched decision (a bid at least)
    kinds = set(cols["moves"][:, :, 1][searched].tolist())
    assert 6 in kinds and kinds & {0, 1} and kinds & {4, 5}  # searched plays, bids and calls


def test_searched_games_pass_the_referee():
    study = Study.build(policy=MIX, seed=3, search_worlds=2, tie_rule="play_on")
    cols = study.play_games(0, 3, record=True)
    check_rows(study.options, cols)
    from cardlab.sim.euchre5.referee import check_hand, decode_log

    for g in range(3):
        rows = np.flatnonzero(cols["game"] == g)
        hands = [check_hand(study.options, int(cols["dealer"][j]), [int(h) for h in cols["hands"][j]],
                            cols["kitty"][j].tolist(), decode_log(cols["moves"][j])) for j in rows]
        check_game(study.options, hands[0].dealer, hands)


def test_chosen_candidate_has_the_best_mean():
    study = Study.build(policy="search", seed=2, search_worlds=WORLDS)
    cols = study.play(0, 30, record=True)
    from cardlab.sim.euchre5.records import _decisions

    count = 0
    for j in range(30):
        for _, _, _, cands, chosen in _decisions(cols["moves"][j], cols["search_means"][j]):
            assert dict(cands)[chosen] == cands[0][1]  # ranked best first
            count += 1
    assert count > 30 * 8


@pytest.mark.parametrize("policy", ["heuristic", "random", "heuristic,random,random,heuristic,random"])
def test_without_search_seats_the_search_kernels_play_like_the_plain_kernels(policy):
    study = Study.build(policy=policy, seed=17, call_before_exchange=policy == "random")
    plain = study.play(0, 1500, record=True)
    out, *logs = study.raw(0, 1500, record=True, search=True)
    searched = {**study.game.row_columns(out), **study.logs_columns(logs)}
    for key in ("moves", "hands", "kitty", "score_0", "maker", "called", "alone"):
        np.testing.assert_array_equal(plain[key], searched[key])
    assert np.isnan(searched["search_means"]).all()
    games = study.play_games(0, 40)
    m = study.options.max_hands
    slots, lengths = np.empty((40, m, N_RES), np.int8), np.empty(40, np.int64)
    empty = (np.zeros((0, m, 5), np.uint64), np.zeros((0, m, 3), np.int8), np.zeros((0, m, 37, 3), np.int8),
             np.zeros((0, m, 37, 64), np.float32))
    play_search_games_nb(study.seed, 0, 40, study.rules, study.policy_ids, 2, 1, 1, np.zeros(5), slots, lengths,
                         *empty, *study.callbacks(searched=True), study.faults(40))
    keep = np.arange(m)[None, :] < lengths[:, None]
    np.testing.assert_array_equal(slots[keep][:, RES_SCORE], games["score_0"])


def test_same_results_for_any_thread_count_chunk_and_slice():
    kw = dict(seed=42, policy=MIX, search_worlds=WORLDS)
    reference = simulate(deals=40, threads=1, chunk_size=40, **kw)
    pd.testing.assert_frame_equal(reference, simulate(deals=40, threads=numba.config.NUMBA_NUM_THREADS,
                                                      chunk_size=7, **kw))
    part = simulate(deals=9, first_deal=20, **kw).reset_index(drop=True)
    pd.testing.assert_frame_equal(reference.iloc[20:29].reset_index(drop=True), part)
    games = simulate_games(games=3, threads=1, search_worlds=2, seed=5, policy=MIX)
    pd.testing.assert_frame_equal(games, simulate_games(games=3, threads=2, chunk_size=1, search_worlds=2, seed=5,
                                                        policy=MIX))
    assert not reference.equals(simulate(deals=40, **{**kw, "search_rollout": "random"}))


def test_replay_shows_each_candidate_and_matches_the_run():
    kw = dict(seed=4, policy=MIX, search_worlds=WORLDS)
    row = simulate(deals=8, **kw).iloc[6]
    r = replay(deal=6, **kw)
    assert r.records[0]["scores"] == [int(row[f"score_{p}"]) for p in range(5)]
    assert "searched decisions" in r.text and "*" in r.text.split("searched decisions")[1]
    searches = r.records[0]["searches"]
    assert searches and all(s["seat"] in (0, 3) for s in searches)
    assert {"bid", "call", "play"} >= {s["decision"] for s in searches}
    for s in searches:
        assert s["candidates"][s["chosen"]] == max(s["candidates"].values())
    assert "searched decisions" not in replay(deal=6, seed=4).text


def test_world_count_and_rollout_are_checked():
    with pytest.raises(ValueError, match="search_worlds: 0 is not allowed; use an integer from 1 to 4096"):
        Study.build(policy="search", search_worlds=0)
    with pytest.raises(ValueError, match="search_rollout: 'random' needs a search seat"):
        Study.build(policy="heuristic", search_rollout="random")
    with pytest.raises(ValueError, match="search_rollout: 'smart' is not allowed; choose 'random' or 'heuristic'"):
        Study.build(policy="search", search_rollout="smart")
    with pytest.raises(ValueError,
                       match="policy: 'clever' is not allowed; choose 'random', 'heuristic', 'search' or 'oracle'"):
        Study.build(policy="clever")
    assert Study.build(policy="search").search_worlds == 32
    meta = Study.build(policy=MIX, search_worlds=8).metadata()
    assert meta["search_worlds"] == 8 and meta["search_rollout"] == "heuristic"
    assert "search_worlds" not in Study.build().metadata()


# ---------------------------------------------------------------- sampled worlds


def walk(cols, j, options):
    """Yield, before every card played in hand ``j``, the state a searcher at that seat faces."""
    from cardlab.sim.euchre5.referee import check_hand, decode_log

    hand = check_hand(options, int(cols["dealer"][j]), [int(h) for h in cols["hands"][j]], cols["kitty"][j].tolist(),
                      decode_log(cols["moves"][j]))
    held = [set(h) for h in hand.hands]
    kitty = set(hand.kitty)
    upcard = hand.kitty[0]
    if hand.round == 1:
        held[hand.dealer].add(upcard)
        kitty.discard(upcard)
        held[hand.dealer].discard(hand.discard)
        kitty.add(hand.discard)
    voids = np.zeros(5, np.uint64)
    played = set()
    revealed = False
    for leader, cards, _ in hand.tricks:
        led = None
        for k, c in enumerate(cards):
            seat = (leader + k) % 5
            yield dict(seat=seat, held=[set(h) for h in held], kitty=set(kitty), voids=voids.copy(),
                       played=set(played), revealed=revealed, hand=hand, upcard=upcard)
            if led is None:
                led = suit_when(c, hand.trump)
            elif suit_when(c, hand.trump) != led:
                voids[seat] |= np.uint64(int(SUIT_MASKS[hand.trump, led]))
            held[seat].remove(c)
            played.add(c)
            revealed = revealed or c == hand.called


@pytest.mark.parametrize("rules", [dict(), dict(allow_call_own_card=True, dealer_may_discard_upcard=False)])
def test_sampled_worlds_are_consistent_with_what_the_searcher_knows(rules):
    study = Study.build(policy="random", seed=8, **rules)  # random play shows many voids
    cols = study.play(0, 40, record=True)
    r = study.rules
    state = np.uint64(99)
    holders, known, excluded = (np.empty(HOLDERS, np.uint64) for _ in range(3))
    view, world, slack = np.empty(HOLDERS, np.uint64), np.empty(HOLDERS, np.uint64), np.empty(64, np.int64)
    checked = differs = buried = 0
    called_holders = set()
    for j in range(40):
        if cols["maker"][j] < 0:
            continue
        for number, st in enumerate(walk(cols, j, study.options)):
            if number % 2:
                continue
            hand, s = st["hand"], st["seat"]
            hands = np.array([mask_of(h) for h in st["held"]], np.uint64)
            knowledge_nb(s, hands, np.uint64(mask_of(st["kitty"])), hand.kitty[0], hand.dealer, r, hand.round,
                         hand.discard if hand.round == 1 else -1, False, hand.maker, hand.called, st["revealed"],
                         st["voids"], holders, known, excluded)
            for _ in range(3):
                state = np.uint64(sample_view_nb(state, s, holders, known, excluded, view, world, slack))
                sampled = [set(cards_of(int(w))) for w in world]
                assert sampled[s] == st["held"][s]
                assert [len(x) for x in sampled] == [len(x) for x in st["held"]] + [3]
                assert set().union(*sampled) == set().union(*st["held"], st["kitty"])  # no card already played
                for q in range(5):
                    if q != s:
                        shown = {c for c in sampled[q] if int(st["voids"][q]) >> c & 1}
                        assert not shown, f"seat {q} got {shown} of a suit it showed out of"
                if hand.round == 2:
                    assert hand.kitty[0] in sampled[KITTY_HOLDER]  # the turned-down upcard
                elif s == hand.dealer:
                    assert hand.discard in sampled[KITTY_HOLDER]  # the dealer knows its discard
                elif hand.kitty[0] not in st["played"]:
                    where = [h for h in range(HOLDERS) if hand.kitty[0] in sampled[h]]
                    assert where[0] in (hand.dealer, KITTY_HOLDER)  # picked up, maybe discarded
                    if not study.options.dealer_may_discard_upcard:
                        assert where == [hand.dealer]
                c = hand.called
                if c >= 0 and not st["revealed"] and c not in st["held"][s]:
                    where = [h for h in range(HOLDERS) if c in sampled[h]][0]
                    if not study.options.allow_call_own_card and s != hand.maker:
                        assert where != hand.maker
                    buried += where == KITTY_HOLDER
                    called_holders.add(where)
                differs += sampled[:5] != st["held"]
                checked += 1
    assert checked > 300 and differs > checked // 2  # samples, not the true hands
    assert buried > 0 and len(called_holders) >= 4  # the called card moves between seats and the kitty


def test_search_means_depend_only_on_what_the_searcher_has_seen():
    study = Study.build(policy="heuristic", seed=5)
    cols = study.play(0, 30, record=True)
    j = next(j for j in range(30) if cols["partner"][j] >= 0 and cols["round"][j] == 2)
    hand = [int(h) for h in cols["hands"][j]]
    dealer, maker, trump, called = (int(cols[k][j]) for k in ("dealer", "maker", "trump", "called"))
    s = (dealer + 1) % 5  # leads the first trick
    others = [q for q in range(5) if q not in (s, maker)]
    kitty = np.uint64(mask_of(cols["kitty"][j].tolist()))
    totals = []
    for swap in (False, True):
        h = list(hand)
        if swap:  # two seats that are neither the searcher nor the maker exchange their hidden hands
            h[others[0]], h[others[1]] = h[others[1]], h[others[0]]
        h = np.array(h, np.uint64)
        holders, known, excluded = (np.empty(HOLDERS, np.uint64) for _ in range(3))
        knowledge_nb(s, h, kitty, int(cols["kitty"][j][0]), dealer, study.rules, 2, -1, False, maker, called, False,
                     np.zeros(5, np.uint64), holders, known, excluded)
        out = np.zeros(64, np.int64)
        partner = [q for q in range(5) if int(h[q]) >> called & 1]
        card_search_nb(np.uint64(search_state(5, j, 20)), s, holders, known, excluded, 16, POLICY.HEURISTIC, 1,
                       False, study.rules, trump, maker, partner[0] if partner else -1, 0, called, False, False,
                       DECK_BITS & ~np.uint64(1 << int(cols["kitty"][j][0])), 0, 0, s, np.uint64(0), np.uint64(0), s,
                       np.uint64(0), np.full(5, -1, np.int64), h[s], int(cards_of(int(h[s]))[0]), out,
                       np.zeros(64, np.int64), *NO_INFERENCE)
        totals.append(out)
    np.testing.assert_array_equal(totals[0], totals[1])
    assert totals[0].any()


def test_search_gains_against_random_players():
    kw = dict(deals=400, seed=9)
    searched = simulate(policy="search,random,random,random,random", search_worlds=8, **kw)
    plain = simulate(policy="random", **kw)
    edge = lambda d: d["score_0"] - d[[f"score_{p}" for p in range(1, 5)]].mean(axis=1)  # noqa: E731
    gain = edge(searched) - edge(plain)
    assert gain.mean() > 3 * gain.std() / np.sqrt(len(gain))


# ---------------------------------------------------------------- strength study, trump study, command line


def test_strength_study_rows_are_the_tables_they_name():
    from cardlab.analysis.strength import format_strength_study, plot_strength_study, strength_gains
    from cardlab.sim.euchre5 import strength_study
    from cardlab.sim.ladder import PAIRS

    df = strength_study(deals=15, seed=4, search_worlds=2)
    assert (df["lone"] == (df["deal"] // 5) % 5).all()
    whole = simulate(deals=15, seed=4, policy="search", search_worlds=2)
    assert (df[[f"score_search_{p}" for p in range(5)]].to_numpy() == whole[[f"score_{p}" for p in range(5)]]
            .to_numpy()).all()
    for j in (3, 12):
        row = df.iloc[j]
        for x, y in PAIRS:
            seats = [y] * 5
            seats[row["lone"]] = x
            worlds = {"search_worlds": 2} if "search" in seats else {}
            alone = simulate(deals=1, first_deal=j, seed=4, policy=",".join(seats), **worlds)
            scores = [int(alone[f"score_{p}"].iloc[0]) for p in range(5)]
            assert scores[row["lone"]] == row[f"lone_{x}_in_{y}"]
            assert sum(scores) - scores[row["lone"]] == row[f"others_{x}_in_{y}"]
    gains = strength_gains(df)  # Euchre's ladder (edge and points) read from the rows' own metadata
    base = df.apply(lambda r: r[f"score_heuristic_{r['lone']}"], axis=1)
    assert gains.loc[("search", "heuristic"), "points"] == pytest.approx((df["lone_search_in_heuristic"] - base).mean())
    others = df.apply(lambda r: sum(r[f"score_heuristic_{p}"] for p in range(5)) - r[f"score_heuristic_{r['lone']}"],
                      axis=1)
    edge = (df["lone_search_in_heuristic"] - df["others_search_in_heuristic"] / 4) - (base - others / 4)
    assert gains.loc[("search", "heuristic"), "edge"] == pytest.approx(edge.mean())
    text = format_strength_study(df)
    assert "How far the heuristic is from search" in text and "hands" in text and "maker's points" in text
    assert len(plot_strength_study(df).axes) == 9  # the gains, then eight whole-table figures


def test_trump_study_accepts_search():
    from cardlab.analysis.euchre5 import compare_trump_studies
    from cardlab.sim.euchre5 import trump_study

    plain = trump_study(deals=6, seed=2)
    searched = trump_study(deals=6, seed=2, policy="search", search_worlds=2)
    for key in ("deal", "maker", "trump", "strength", "bowers", "trumps", "round"):
        np.testing.assert_array_equal(plain[key], searched[key])
    assert not plain["called"].equals(searched["called"])
    table = compare_trump_studies({"heuristic": plain, "search": searched})
    assert list(table.columns) == ["heuristic", "search"]
    assert (table.loc["regret (best - strongest suit)"] >= 0).all()
    assert table.loc["edge of the best suit", "search"] >= table.loc["edge of the strongest suit", "search"]


def test_command_line_search(tmp_path, capsys):
    from cardlab.sim.cli import main

    assert main(["simulate", "euchre5", "--deals", "10", "--policy", "search,heuristic,heuristic,random,heuristic",
                 "--search-worlds", "2"]) == 0
    assert "search" in capsys.readouterr().out
    assert main(["simulate", "euchre5", "--games", "2", "--policy", "search", "--search-worlds", "2",
                 "--search-rollout", "random"]) == 0
    capsys.readouterr()
    out = tmp_path / "strength.parquet"
    assert main(["study", "euchre5", "strength", "--deals", "10", "--search-worlds", "2", "--out", str(out),
                 "--plot", str(tmp_path / "s.png")]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "How far the heuristic is from search" in capsys.readouterr().out
    assert main(["study", "euchre5", "trumps", "--deals", "3", "--policy", "search", "--search-worlds", "2"]) == 0
    assert "trump-choice study" in capsys.readouterr().out
    assert main(["replay", "euchre5", "--deal", "2", "--policy", "search", "--search-worlds", "2"]) == 0
    assert "searched decisions" in capsys.readouterr().out
    assert main(["replay", "euchre5", "--deal", "2:4", "--policy", "search", "--search-worlds", "2", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert len(records) == 2 and all(r["searches"] for r in records)
    assert main(["simulate", "euchre5", "--deals", "8", "--search-worlds", "4"]) == 2
    assert "--search-worlds: 4 needs a search seat (policy 'search')" in capsys.readouterr().err
    assert main(["study", "euchre5", "strength", "--deals", "8", "--policy", "random"]) == 2
    assert "the strength study sets every seat's policy itself" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cardlab.sim.euchre5.interface", "cardlab.analysis.strength"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_bid_search_depends_only_on_the_searchers_hand_and_the_upcard():
    from cardlab.sim.euchre5.search import ACCEPT_COL, PASS_COL, search_bid_nb

    study = Study.build(policy="heuristic", seed=6)
    cols = study.play(0, 1, record=True)
    hands = cols["hands"][0].astype(np.uint64)
    kitty = cols["kitty"][0].astype(np.int64)
    dealer = int(cols["dealer"][0])
    s = (dealer + 2) % 5
    results = []
    for order in ((0, 1, 2, 3, 4), (4, 3, 2, 1, 0)):  # every other seat's hidden cards moved around
        h = hands.copy()
        others = [q for q in order if q != s]
        h[[q for q in range(5) if q != s]] = hands[others]
        for rnd in (1, 2):
            totals = np.zeros(64, np.int64)
            cands, n, _ = search_bid_nb(np.uint64(search_state(6, 0, rnd)), s, h, kitty, dealer, study.rules, rnd, 2,
                                        12, POLICY.HEURISTIC, 1, False, PASS_COL, totals, np.zeros(64, np.int64))
            results.append((rnd, sorted(cands[:n].tolist()), totals.copy()))
    for a, b in zip(results[:2], results[2:]):
        assert a[0] == b[0] and a[1] == b[1]
        np.testing.assert_array_equal(a[2], b[2])
    assert results[0][1] == [PASS_COL, ACCEPT_COL] and len(results[1][1]) == 4  # pass and the three other suits
