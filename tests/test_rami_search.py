"""Rami's search policy: faithful to the plain kernel, legal (referee), reproducible, and its worlds honest."""
import json
from collections import Counter

import numpy as np
import pytest

from cardlab.sim import rami
from cardlab.sim.rami import search as S
from cardlab.sim.rami.kernels import DECK_MAX, LOG_W
from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, new_scratch
from cardlab.sim.rami.policies import choose_discard
from cardlab.sim.rami.referee import check_round
from cardlab.sim.rami.rules import HAND_W, JOKER
from cardlab.sim.rami.interface import RAMI
from tests.test_rami_referee import kernel_result
from cardlab.sim.rami.interface import RamiStudy as Study
from cardlab.sim.rng import deal_state

OPTION_SETS = [
    dict(),
    dict(recycle_discards=True, discard_take_must_use=False, freed_joker_use="anywhere", players=3),
    dict(go_out_requires_discard=True, rami_sec_exempt_from_opening=True, n_jokers=2, players=2, hand_size=14),
]


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_a_table_without_search_seats_plays_as_the_plain_kernel(opts):
    """The search kernel's turn phases replay ``play_round_nb`` exactly (logs and results) for plain tables."""
    rules = OPTION_SETS[opts]
    n = rules.get("players", 4)
    for policy in ("heuristic", "random"):
        study = Study.build(policy=policy, seed=40 + opts, **rules)
        plain = study.play(0, 60, record=True)
        rows, logs, log_rows, decks, *_ = study.searched(np.arange(60), record=True)
        assert (rows == study.raw(0, 60)[0]).all()  # every round column: dealer, turns, ... scores
        assert (log_rows == plain["log_rows"]).all() and (logs == plain["logs"]).all()
        assert (decks == plain["decks"]).all()
    mixed = Study.build(policy=",".join((["random", "heuristic"] * 3)[:n]), seed=9, **rules)
    cols = mixed.play(0, 60)
    searched = RAMI.row_columns(mixed.searched(np.arange(60))[0])
    assert all((searched[f"score_{p}"] == cols[f"score_{p}"]).all() for p in range(n))


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_referee_replays_searched_rounds(opts):
    """Every move of a searched round is legal and the referee's scores are the kernel's."""
    rules = OPTION_SETS[opts]
    n = rules.get("players", 4)
    policy = ",".join((["search", "heuristic", "random", "search"])[:n])
    study = Study.build(policy=policy, seed=7 + opts, search_worlds=2, **rules)
    cols = study.play(0, 6, record=True)
    searched = 0
    for i in range(6):
        log = cols["logs"][i][: cols["log_rows"][i]]
        result, _ = check_round(study.options, int(cols["dealer"][i]), cols["decks"][i], log)
        assert result == kernel_result(cols, i, n), f"round {i}"
        searched += int(cols["search_rows"][i])
    assert searched > 0


def test_search_is_reproducible_across_threads_and_chunks():
    kw = dict(deals=6, seed=3, policy="search,heuristic,random", players=3, search_worlds=2)
    a = rami.simulate(threads=1, **kw)
    b = rami.simulate(threads=2, chunk_size=4, **kw)
    assert a.equals(b)
    c = rami.simulate(threads=2, first_deal=3, **{**kw, "deals": 3})
    assert a.iloc[3:].reset_index(drop=True).equals(c)
    g1 = rami.simulate_games(games=2, seed=5, players=2, policy="search,random", search_worlds=2, threads=1)
    g2 = rami.simulate_games(games=2, seed=5, players=2, policy="search,random", search_worlds=2, threads=2)
    assert g1.equals(g2) and len(g1) >= 2


def test_search_changes_only_the_searched_seats_choices():
    """A search seat draws from the same deck: the shuffle (round 0's deck) does not depend on the policies."""
    plain = Study.build(seed=2).play(0, 2, record=True)
    searched = Study.build(seed=2, policy="search", search_worlds=2).play(0, 2, record=True)
    assert (plain["decks"] == searched["decks"]).all()


def test_search_options_are_checked():
    with pytest.raises(ValueError, match="search_worlds: 2 needs a search seat"):
        Study.build(search_worlds=2)
    with pytest.raises(ValueError, match="search_worlds"):
        Study.build(policy="search", search_worlds=0)
    with pytest.raises(ValueError, match="search_rollout"):
        Study.build(policy="search", search_rollout="greedy")
    assert Study.build(policy="search").search_worlds == S.DEFAULT_WORLDS == 32


# ------------------------------------------------------------------------------ the worlds


def _mid_round(seed, turns, rules):
    """Play ``turns`` heuristic turns with the search module's phases, tracking what the table knows."""
    study = Study.build(seed=seed, **rules)
    o = study.options.kernel_ints()
    P = study.options.players
    hands = np.zeros((P, HAND_W), np.int64)
    deck = np.zeros(DECK_MAX, np.int64)
    pile = np.zeros(DECK_MAX, np.int64)
    table = np.zeros((MAX_MELDS, MELD_W), np.int64)
    seats = np.zeros((3, P), np.int64)
    sc = np.zeros(S.SC_W, np.int64)
    out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    scratch = new_scratch()
    log = np.zeros((0, LOG_W), np.int64)
    known = np.zeros((P, HAND_W), np.int64)
    state = S.deal_round_nb(deal_state(seed, 0), 0, o, hands, deck, pile, table, seats, sc, np.zeros(0, np.int64))
    takes = 0
    for _ in range(turns):
        state, going = S.begin_turn_nb(state, sc, o, hands, deck, pile, table, seats, out, scratch, log)
        assert going
        seat = int(sc[S.S_SEAT])
        before = hands[seat].copy()
        take = bool(sc[S.S_OFFERED])
        takes += take
        S.draw_nb(sc, take, o, hands, deck, pile, seats, log)
        state, gone = S.table_actions_nb(state, sc, o, 0, hands, table, seats, out, scratch, log, False,
                                             study.user_callbacks(searched=True), sc[:2])
        assert not gone
        state, k = choose_discard(0, state, hands[seat], sc[S.S_FORBIDDEN], table, sc[S.S_NT], seats[0, seat], o,
                                  bool(sc[S.S_CLOSE]), out, scratch)
        S.discard_nb(sc, k, o, hands, pile, log)
        S.update_known(known, seat, before, hands[seat], sc[S.S_TK], sc[S.S_DRAWN], sc[S.S_RETRIEVED])
        assert (known <= hands).all()
    return study, o, hands, deck, pile, table, sc, known, takes


def _seen(o, s, hands, pile, table, sc):
    """Everything seat ``s`` has seen: its hand, the discard pile and the table (counts)."""
    from cardlab.sim.rami.referee import meld_cards

    seen = Counter({k: int(hands[s, k]) for k in range(HAND_W) if hands[s, k]})
    seen.update(int(pile[j]) for j in range(sc[S.S_NPILE]))
    for m in table[: sc[S.S_NT]]:
        seen.update(meld_cards(m))
    return seen


def test_sampled_worlds_are_consistent_with_what_the_searcher_saw():
    rules = dict(discard_take_must_use=False, players=4)
    study, o, hands, deck, pile, table, sc, known, takes = _mid_round(21, 24, rules)
    assert takes > 0 and known.sum() > 0  # some cards are known to be held
    P = 4
    n_cards = study.options.deck_size
    full = Counter({**{k: 2 for k in range(52)}, JOKER: study.options.n_jokers})
    pool = np.full(HAND_W, 2, np.int64)
    pool[JOKER] = study.options.n_jokers
    w_hands = np.zeros((P, HAND_W), np.int64)
    w_deck = np.zeros(DECK_MAX, np.int64)
    inst = np.zeros(DECK_MAX, np.int64)
    sp = int(sc[S.S_SP])
    s = int(sc[S.S_SEAT])
    seen = _seen(o, s, hands, pile, table, sc)
    unseen = full - seen
    for p in range(P):
        if p != s:
            unseen -= Counter({k: int(known[p, k]) for k in range(HAND_W) if known[p, k]})
    state = np.uint64(99)
    lands = np.zeros((P + 1, HAND_W))  # where each unseen card goes: opponents, or the stock (row P)
    for _ in range(300):
        state = np.uint64(S.sample_world_nb(state, s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst,
                                            np.empty(HAND_W, np.int64)))
        assert (w_hands[s] == hands[s]).all()
        dealt = Counter(int(k) for k in w_deck[sp:n_cards])
        for p in range(P):
            assert w_hands[p].sum() == hands[p].sum()  # hand sizes are known
            assert (w_hands[p] >= known[p]).all()  # known cards stay where they are known to be
            if p != s:
                dealt.update({k: int(w_hands[p, k] - known[p, k]) for k in range(HAND_W)})
                lands[p] += w_hands[p] - known[p]
        lands[P] += np.bincount(w_deck[sp:n_cards], minlength=HAND_W)
        assert +dealt == +unseen  # exactly the unseen cards: nothing seen is dealt, no kind over the deck
        everywhere = Counter(seen) + dealt
        for p in range(P):
            if p != s:
                everywhere.update({k: int(known[p, k]) for k in range(HAND_W) if known[p, k]})
        assert +everywhere == full
    # uniform: an unseen card is in a place in proportion to that place's unknown cards
    room = np.array([hands[p].sum() - known[p].sum() if p != s else 0 for p in range(P)] + [n_cards - sp], float)
    share = lands.sum(1) / lands.sum()
    assert np.allclose(share, room / room.sum(), atol=1e-9)
    k = max(unseen, key=lambda c: unseen[c])
    freq = lands[:, k] / lands[:, k].sum()
    assert np.abs(freq - room / room.sum()).max() < 0.1


def test_after_a_recycle_the_stock_holds_recycled_cards_only():
    study, o, hands, deck, pile, table, sc, known, _ = _mid_round(4, 10, dict(players=2))
    P = 2
    s = int(sc[S.S_SEAT])
    sp = int(sc[S.S_SP])
    pool = np.zeros(HAND_W, np.int64)
    for j in range(sp, study.options.deck_size):
        pool[deck[j]] += 1  # the stock's true cards as the only ones allowed: every world must deal them there
    w_hands = np.zeros((P, HAND_W), np.int64)
    w_deck = np.zeros(DECK_MAX, np.int64)
    inst = np.zeros(DECK_MAX, np.int64)
    state = np.uint64(5)
    for _ in range(50):
        state = np.uint64(S.sample_world_nb(state, s, o, hands, deck, sc, known, pool, w_hands, w_deck, inst,
                                            np.empty(HAND_W, np.int64)))
        stock = np.bincount(w_deck[sp:study.options.deck_size], minlength=HAND_W)
        assert (stock <= pool).all()
        assert (w_hands[1 - s] == hands[1 - s]).all()  # then the opponent's hand is forced too


# ------------------------------------------------------------------------------ replay and study


def test_replay_shows_each_searched_decision():
    r = rami.replay(deal=1, seed=2, players=2, policy="search,heuristic", search_worlds=3)
    assert "searched decisions" in r.text and "*" in r.text.split("searched decisions")[1]
    searches = r.record["searches"]
    assert searches and all(d["seat"] == 0 for d in searches)
    assert any(d["phase"] == "discard" and len(d["candidates"]) > 1 for d in searches)
    json.dumps(r.record)
    plain = rami.replay(deal=1, seed=2, players=2)
    assert "searched" not in plain.text and "searches" not in plain.record


def test_strength_study_and_report():
    from cardlab.analysis.strength import format_strength_study, plot_strength_study, strength_gains, table_figures
    from cardlab.sim.ladder import LADDER, strength_metadata, strength_study

    df = strength_study(RAMI, deals=4, seed=1, players=2, search_worlds=2)
    heur = rami.simulate(deals=4, seed=1, players=2)
    rand = rami.simulate(deals=4, seed=1, players=2, policy="random")
    for p in range(2):
        assert (df[f"score_heuristic_{p}"] == heur[f"score_{p}"]).all()  # whole tables are plain runs
        assert (df[f"score_random_{p}"] == rand[f"score_{p}"]).all()
    gains = strength_gains(df)  # Rami's ladder (penalties: the points saved) read from the rows' own metadata
    assert len(gains) == 6 and (gains["deals"] == 4).all()
    base = df.apply(lambda r: r[f"score_heuristic_{r['lone']}"], axis=1)
    assert gains.loc[("search", "heuristic"), "points"] == pytest.approx((base - df["lone_search_in_heuristic"]).mean())
    figures = table_figures(df)
    assert set(figures.index) == {"score_*", "turns", "rami_sec", "blocked"} and set(LADDER) <= set(figures.columns)
    meta = strength_metadata(RAMI, players=2, search_worlds=2)
    text = format_strength_study(df, meta)
    assert "strength ladder" in text and "2 sampled worlds" in text and "options: players=2" in text
    assert len(plot_strength_study(df).axes) == 5
    with pytest.raises(ValueError, match="policy"):
        strength_study(RAMI, deals=2, policy="random")


def test_command_line_search_replay_and_strength(tmp_path, capsys):
    from cardlab.sim.cli import main

    out = tmp_path / "s.parquet"
    assert main(["simulate", "rami", "--players", "2", "--policy", "search,heuristic", "--search-worlds", "2",
                 "--deals", "3", "--out", str(out), "--threads", "1"]) == 0
    assert main(["replay", "rami", "--players", "2", "--policy", "search,random", "--search-worlds", "2",
                 "--search-rollout", "random", "--deal", "0", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["search_rollout"] == "random" and record["searches"]
    assert main(["simulate", "rami", "--deals", "2", "--search-worlds", "2"]) != 0
    assert "--search-worlds: 2 needs a search seat" in capsys.readouterr().err
    assert main(["study", "rami", "strength", "--players", "2", "--search-worlds", "2", "--deals", "2",
                 "--threads", "1"]) == 0
    assert "what one seat saves per round by searching" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["cardlab.sim.rami.interface", "cardlab.analysis.strength"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------------------ the oracle


def test_the_oracle_plays_the_true_deal():
    """The oracle rolls its candidates out on the true hands and stock: with heuristic rollouts every world plays
    alike, so its means do not depend on the number of worlds (search's do), and its rounds pass the referee."""
    def means(policy, worlds):
        replay = rami.replay(deal="0:3", seed=6, players=3, policy=f"{policy},heuristic,heuristic", search_worlds=worlds)
        return [(d["turn"], d["phase"], d["candidates"]) for r in replay.records for d in r["searches"]]

    assert means("oracle", 1) == means("oracle", 3) and means("oracle", 1)
    assert means("search", 1) != means("search", 3)
