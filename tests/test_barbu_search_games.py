"""The search policy in Domino and in whole games: legal, reproducible, blind to what it has not seen.

* searched Domino deals (every rule variant, optional Ace replay) pass the Domino referee, and the
  played move is always a best-mean candidate;
* the kernel's Domino exclusions are exactly the cards that were playable when each seat passed,
  and sampled worlds never give a seat such a card, a card already played, or a wrong hand size;
* searched whole games (Geronimo with doubling, the fixed cycle) pass the game referee; the
  searched contract is the best-gain candidate; results are the same for 1 and 2 threads and any
  chunk size; ``replay_game`` shows the searched decisions;
* the same stream keys: a game with search seats plays a deal's random seats as without search.
"""
import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.barbu import BarbuOptions, Study, replay, simulate
from cardlab.sim.barbu.domino import MOVE_NONE, MOVE_PASS, domino_play_on_nb, domino_start_nb
from cardlab.sim.barbu.domino_referee import Table, replay_domino
from cardlab.sim.barbu.game_referee import check_any_deal, check_game, game_deals
from cardlab.sim.barbu.policies import POLICY
from cardlab.sim.barbu.rules import CONTRACT_NAMES
from cardlab.sim.worlds import sample_world_nb
from cardlab.sim.barbu.search_domino import DECLINE_COLUMN
from cardlab.sim.barbu import GameStudy, replay_game, simulate_games
from cardlab.sim.barbu.play import hand_model
from cardlab.sim.cards import cards_of

WORLDS = 3  # small: these tests are about rules and bookkeeping, not strength


# ---------------------------------------------------------------- Domino


@pytest.mark.parametrize("rules,players", [
    ({}, 4), (dict(domino_rules="fan_tan"), 3), (dict(domino_rules="bga_adjacent"), 5),
    (dict(ace_replay_optional=True, domino_starter="left"), 4),
])
def test_searched_domino_deals_pass_the_referee(rules, players):
    policy = ",".join(["search", "random", "heuristic", "search", "random"][:players])
    study = Study.build(options=BarbuOptions(players=players, **rules), contract="domino", policy=policy, seed=13,
                        search_worlds=WORLDS)
    deals = 16
    cols = study.play(0, deals, record=True)
    searched = 0
    for j in range(deals):
        scores = check_any_deal(study.options, "domino", int(cols["declarer"][j]), cols["hands"][j],
                                cols["moves"][j], -1)
        assert scores == [int(s) for s in cols["score"][j]], f"deal {j}"
        for k, row in enumerate(cols["search_means"][j]):
            if np.isnan(row).all():
                continue
            searched += 1
            move = int(cols["moves"][j][k])
            column = DECLINE_COLUMN if move == -3 else move
            assert row[column] == np.nanmax(row), f"deal {j} move {k}: not a best-mean candidate"
    assert searched > deals  # several searched turns per deal


def test_domino_search_is_reproducible_and_replayed():
    kw = dict(deals=12, seed=4, contract="domino,no-queens", policy="search,heuristic,random,search",
              search_worlds=WORLDS)
    reference = simulate(threads=1, chunk_size=12, **kw)
    pd.testing.assert_frame_equal(reference, simulate(threads=numba.config.NUMBA_NUM_THREADS, chunk_size=5, **kw))
    plain = simulate(**{**kw, "policy": "heuristic,heuristic,random,heuristic", "search_worlds": None})
    assert not reference.equals(plain)
    r = replay(deal=2, seed=4, contract="domino,no-queens", policy="search,heuristic,random,search",
               search_worlds=WORLDS)
    assert r.record["contract"] == "domino" and r.scores == [int(reference.iloc[2][f"score_{p}"]) for p in range(4)]
    assert "searched decisions" in r.text and "turn " in r.text.split("searched decisions")[1]


def python_exclusions(options, declarer, hands, moves, upto):
    """Per seat, the cards playable (in the whole deck, not yet played) whenever it passed before log position ``upto``."""
    _, _, events, rank = replay_domino(options, declarer, hands, moves)
    table = Table(options.domino_rules, set(int(c) for c in options.cards), rank)
    excluded = [set() for _ in range(options.players)]
    for k, (seat, move, _) in enumerate(events[:upto - 1], start=1):
        if move == MOVE_PASS:
            excluded[seat] |= {c for c in table.deck if table.playable(c)}
        elif move >= 0:
            table.play(move)
    return excluded


@pytest.mark.parametrize("variant", ["upward", "fan_tan", "bga_adjacent"])
def test_domino_worlds_respect_every_pass(variant):
    """Stop a random-play Domino deal at seat 0's turns; the kernel's exclusions equal the referee's, worlds obey them."""
    options = BarbuOptions(domino_rules=variant)
    n = options.players
    study = Study(options=options, contracts=("domino",), policies=("random",) * n, seed=21)
    a = study.kernel_args
    cols = study.play(0, 6, record=True)
    policies = np.full(n, POLICY.SEARCH, np.int64)  # the loop stops at every choice; the log says what was played
    world, slack = np.empty(n, np.uint64), np.empty(1 << n, np.int64)
    sample_state = np.uint64(99)
    checked = differs = 0
    for j in range(6):
        declarer = int(cols["declarer"][j])
        log = cols["moves"][j]
        hands0 = cols["hands"][j]
        for stop in range(3, 60, 6):  # replay the deal up to seat 0's first choice at or after ``stop``
            hands = hands0.copy()
            moves = np.full(log.shape[0], MOVE_NONE, np.int8)
            scores = np.zeros(n, np.int32)
            excluded = np.zeros(n, np.uint64)
            state, deck, openers, frontier, p, active = domino_start_nb(
                hands, n, declarer, a["domino_variant"], int(log[0]) if variant == "fan_tan" else -1,
                a["domino_starter"], policies, np.uint64(0), moves, scores)
            k, extra, played, place, move = 1, False, np.uint64(0), 0, MOVE_NONE
            while True:
                state, p, extra, frontier, played, active, place, k, done = domino_play_on_nb(
                    hands, n, p, extra, frontier, played, deck, openers, active, place, a["domino_variant"],
                    a["ace_replay_optional"], a["places"], policies, move, True, excluded, state, moves, k, scores,
                    None, np.zeros(2, np.int64), np.empty(0, np.int64))
                if done or (p == 0 and k >= stop):
                    break
                move = int(log[k])
            if done:
                continue
            np.testing.assert_array_equal(moves[:k], log[:k])
            expected = python_exclusions(options, declarer, hands0, log, k)
            for q in range(n):
                assert set(cards_of(int(excluded[q]))) & set(cards_of(int(hands[q]))) == set()
                assert set(cards_of(int(excluded[q]) & int(deck & ~played))) == expected[q] - set(
                    cards_of(int(played))), f"seat {q} at position {k}"
            for _ in range(3):
                sample_state = np.uint64(sample_world_nb(sample_state, 0, n, hands, excluded, world, slack))
                assert world[0] == hands[0]
                for q in range(1, n):
                    got = set(cards_of(int(world[q])))
                    assert len(got) == len(cards_of(int(hands[q])))
                    assert not got & set(cards_of(int(played))), "a card already played"
                    assert not got & expected[q], f"seat {q} got a card it showed it lacked by passing"
                differs += any(world[q] != hands[q] for q in range(n))
                checked += 1
    assert checked >= 12 and differs > checked // 2


# ---------------------------------------------------------------- whole games

GAME_KW = dict(seed=5, policy="search,heuristic,random,search", search_worlds=2)


@pytest.fixture(scope="module")
def searched_games():
    study = GameStudy.build(geronimo=True, double=True, **GAME_KW)
    return study, study.play_games(0, 2, record=True)


def test_searched_games_pass_the_game_referee(searched_games):
    study, cols = searched_games
    length = study.options.game_length
    for g in range(2):
        verdict = check_game(study.options, game_deals(cols, g, length))
        assert verdict.totals == cols["score"][g * length:(g + 1) * length].astype(int).sum(axis=0).tolist()
    searched = ~np.isnan(cols["search_means"]).all(axis=(1, 2))
    assert searched.sum() > length  # search seats searched card play in many deals
    assert (~np.isnan(cols["search_contract_means"]).all(axis=1)).sum() > 0


def test_searched_contract_is_the_best_gain(searched_games):
    study, cols = searched_games
    declarer_mean = hand_model(study.options).declarer_mean
    ids = np.array([CONTRACT_NAMES.index(c) for c in study.options.game_contracts])
    rows = np.flatnonzero(~np.isnan(cols["search_contract_means"]).all(axis=1))
    assert len(rows) == 2 * 2 * len(ids)  # two search seats declare every contract, in each of 2 games
    for row in rows:
        means = cols["search_contract_means"][row]
        gain = means - declarer_mean[ids]
        chosen = study.options.game_contracts.index(str(cols["contract"][row]))
        assert gain[chosen] == pytest.approx(np.nanmax(gain), abs=1e-4)
        assert int(cols["declarer"][row]) in (0, 3)


def test_searched_regular_games_pass_the_referee_and_match_any_thread_count():
    kw = {**GAME_KW, "games": 2, "players": 3, "deck": 32, "policy": "search,random,heuristic"}
    study = GameStudy.build(**{k: v for k, v in kw.items() if k != "games"})
    cols = study.play_games(0, 2, record=True)
    for g in range(2):
        check_game(study.options, game_deals(cols, g, study.options.game_length))
    one = simulate_games(threads=1, chunk_size=2, **kw)
    pd.testing.assert_frame_equal(one, simulate_games(threads=numba.config.NUMBA_NUM_THREADS, chunk_size=1, **kw))
    part = simulate_games(**{**kw, "games": 1}, first_game=1).reset_index(drop=True)
    pd.testing.assert_frame_equal(one[one["game"] == 1].reset_index(drop=True), part)


def test_oracle_games_pass_the_game_referee():
    study = GameStudy.build(geronimo=True, seed=6, policy="oracle,heuristic,search,heuristic", search_worlds=2)
    cols = study.play_games(0, 1, record=True)
    verdict = check_game(study.options, game_deals(cols, 0, study.options.game_length))
    assert verdict.totals == cols["score"].astype(int).sum(axis=0).tolist()
    chose = ~np.isnan(cols["search_contract_means"]).all(axis=1)
    assert set(cols["declarer"][chose].tolist()) == {0, 2}  # the oracle chooses its contracts by search too
    assert study.double_policies == ("heuristic",) * 4


def test_replay_game_shows_searched_decisions():
    r = replay_game(game=0, geronimo=True, **GAME_KW)
    assert "searched contract" in r.text and "searched decisions" in r.text and "searched trump" in r.text
    df = simulate_games(games=1, geronimo=True, **GAME_KW)
    assert r.totals == df[[f"score_{p}" for p in range(4)]].sum().astype(int).tolist()


def test_game_search_options_are_checked(capsys):
    from cardlab.sim.cli import main

    with pytest.raises(ValueError, match="search_worlds: 4 needs a search seat"):
        simulate_games(games=1, search_worlds=4)
    with pytest.raises(ValueError, match="search_worlds: 0 is not allowed"):
        simulate_games(games=1, policy="search", search_worlds=0)
    assert GameStudy.build(policy="search").double_policies == ("heuristic",) * 4
    assert main(["simulate", "barbu", "--games", "1", "--policy", "search,heuristic,heuristic,heuristic",
                 "--search-worlds", "1"]) == 0
    assert "score" in capsys.readouterr().out


def test_strength_study_takes_domino_when_named():
    from cardlab.analysis.strength import strength_gains
    from cardlab.sim.barbu import strength_study

    df = strength_study(deals=8, seed=4, contract="domino", search_worlds=1)
    assert set(df["contract"]) == {"domino"}
    assert (df[[f"score_search_{p}" for p in range(4)]].sum(axis=1) == 45).all()  # 25 + 15 + 5 + 0
    assert strength_gains(df).loc[("domino", "search", "heuristic"), "deals"] == 8
