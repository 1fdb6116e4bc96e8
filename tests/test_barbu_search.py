"""The search policy: legal, reproducible, and blind to the cards it has not seen.

* every searched move passes the plain-Python referee (every table size, rule option and mix of
  policies), and the scores match;
* without search seats the search kernel plays exactly like the deal kernel;
* results do not depend on threads, chunks or which deals run together;
* every sampled world is consistent with what the table has shown: hand sizes, no card already
  seen, no card of a suit a seat has shown out of, and every earlier move of every seat still
  legal with the sampled hand; the worlds are not the true hands;
* the search's decision is the same whatever the hidden hands (given what the searcher saw);
* the search seat scores more than the heuristic at the same seat on the same deals.
"""
import itertools

import numba
import numpy as np
import pandas as pd
import pytest

from cardlab.sim.barbu import BarbuOptions, Study, replay, simulate
from cardlab.sim.barbu.game_referee import check_any_deal
from cardlab.sim.barbu.policies import POLICY
from cardlab.sim.barbu.referee import legal_cards
from cardlab.sim.barbu.rules import CONTRACT_NAMES, TRICK_CONTRACTS
from cardlab.sim.barbu.search import search_card_nb, search_state, shown_absent_nb
from cardlab.sim.worlds import sample_world_nb
from cardlab.sim.barbu.play import trump_duties
from cardlab.sim.cards import HEARTS, cards_of, mask_of, suit_of
from cardlab.sim.barbu.rules import FLAG_POSITIVE, HEARTS_LEAD

WORLDS = 4  # small: these tests are about rules and bookkeeping, not strength


def refereed(study: Study, deals: int, first: int = 0) -> dict:
    cols = study.play(first, deals, record=True)
    for j in range(deals):
        scores = check_any_deal(study.options, str(cols["contract"][j]), int(cols["declarer"][j]), cols["hands"][j],
                                cols["moves"][j], int(cols["trump"][j]))
        assert scores == [int(s) for s in cols["score"][j]], f"deal {first + j}"
    return cols


@pytest.mark.parametrize("deck,players", list(itertools.product((32, 52), (3, 4, 5))))
def test_searched_deals_pass_the_referee(deck, players):
    policy = ",".join(["search", "heuristic", "random", "search", "heuristic"][:players])
    study = Study.build(options=BarbuOptions(players=players, deck=deck), contract="all", policy=policy,
                        seed=31 * deck + players, search_worlds=WORLDS)
    cols = refereed(study, 12 * len(CONTRACT_NAMES))
    searched = ~np.isnan(cols["search_means"]).all(axis=(1, 2))
    domino = np.asarray(cols["contract"]) == "domino"
    assert searched[~domino].all()  # every trick deal had a searched move
    assert searched[domino].sum() >= domino.sum() // 2  # Domino is searched too (tests/test_barbu_search_games.py)


@pytest.mark.parametrize("rules", [
    dict(hearts_lead="broken", kh_forced_discard=True),
    dict(hearts_lead="only_if_forced", hearts_lead_salade=True, scoring="wiki"),
    dict(must_trump=False, overtrump_when_ruffing=False),
    dict(overtrump_on_trump_lead=False, early_stop=False),
])
def test_searched_deals_pass_the_referee_under_rule_options(rules):
    study = Study.build(contract=",".join(TRICK_CONTRACTS), policy="search", seed=5, search_worlds=WORLDS, **rules)
    refereed(study, 6 * len(TRICK_CONTRACTS))


def test_searched_move_is_the_best_candidate():
    cols = Study.build(contract="salade", policy="search", seed=2, search_worlds=WORLDS).play(0, 4, record=True)
    for j in range(4):
        for move, row in enumerate(cols["search_means"][j]):
            if not np.isnan(row).all():
                played = int(cols["moves"][j][move])
                assert row[played] == np.nanmax(row)


@pytest.mark.parametrize("policy", ["heuristic", "random", "heuristic,random,random,heuristic"])
def test_without_search_seats_the_search_kernel_plays_like_the_deal_kernel(policy):
    study = Study.build(contract="all", policy=policy, seed=17)
    cols = study.play(0, 400, record=True)
    tricks = np.asarray(cols["contract"]) != "domino"
    trump, score, moves, _, _ = study.searched(cols["deal"][tricks], trump_how=-1, record=True)
    np.testing.assert_array_equal(score, cols["score"][tricks])
    np.testing.assert_array_equal(trump, cols["trump"][tricks])
    np.testing.assert_array_equal(moves, cols["moves"][tricks])


def run(**kw):
    base = dict(deals=48, seed=42, contract="all", policy="search,random,heuristic,search", search_worlds=WORLDS)
    return simulate(**{**base, **kw})


def test_same_results_for_any_thread_count_chunk_and_slice():
    reference = run(threads=1, chunk_size=48)
    pd.testing.assert_frame_equal(reference, run(threads=numba.config.NUMBA_NUM_THREADS, chunk_size=7))
    part = run(first_deal=20, deals=9).reset_index(drop=True)
    pd.testing.assert_frame_equal(reference.iloc[20:29].reset_index(drop=True), part)


def test_replay_shows_each_candidate_and_matches_the_run():
    row = run(deals=12).iloc[7]  # deal 7 is Trumps with seat 0 declaring: a searched trump choice
    r = replay(deal=7, seed=42, contract="all", policy="search,random,heuristic,search", search_worlds=WORLDS)
    assert r.record["contract"] == row["contract"] == "trumps"
    assert r.scores == [int(row[f"score_{p}"]) for p in range(4)]
    assert "searched trump:" in r.text and "searched decisions" in r.text
    assert "*" in r.text.split("searched decisions")[1]


def test_search_declarer_names_the_trump_with_the_best_mean():
    study = Study.build(contract="trumps", policy="search", seed=3, search_worlds=WORLDS)
    cols = study.play(0, 8, record=True)
    means = cols["search_trump_means"]
    assert (np.argmax(means, axis=1) == cols["trump"]).all()


def test_world_count_and_rollout_are_checked():
    with pytest.raises(ValueError, match="search_worlds: 0 is not allowed"):
        Study.build(policy="search", search_worlds=0)
    with pytest.raises(ValueError, match="search_rollout: 'random' needs a search seat"):
        Study.build(policy="heuristic,random,random,random", search_rollout="random")
    assert Study.build(policy="search").search_worlds == 32


# ---------------------------------------------------------------- sampled worlds


def walk_deal(options, declarer, hands, moves, trump):
    """Yield the state before each move: (seat, history, hands left).

    ``history`` holds, for every earlier move, (seat, card, trick before it, hearts broken, led
    suit, card winning before it, cards still in hands after it).
    """
    n = options.players
    left = [set(cards_of(h)) for h in hands]
    history = []
    leader, broken = declarer, False
    for t in range(options.hand_size):
        row = [int(m) for m in moves[t * n:(t + 1) * n]]
        if row[0] < 0:
            return
        trick, led, best, winner = [], -1, -1, leader
        for k, c in enumerate(row):
            seat = (leader + k) % n
            yield seat, list(history), [set(h) for h in left]
            left[seat].remove(c)
            history.append((seat, c, list(trick), broken, led, best, mask_of(set().union(*left))))
            trick.append(c)
            if led < 0:
                led, best = suit_of(c), c
            elif (suit_of(c) == suit_of(best) and c > best) or (suit_of(c) == trump and suit_of(best) != trump):
                best, winner = c, seat
        leader = winner
        broken = broken or any(suit_of(c) == HEARTS for c in trick)


def kernel_exclusions(options, contract, history, trump):
    """What each seat cannot hold, rebuilt move by move with the kernel's ``shown_absent_nb``."""
    from cardlab.sim.barbu.rules import FLAG_HEARTS_LEAD, FLAG_KH_DISCARD, scoring_tables

    f = scoring_tables(options).flags[CONTRACT_NAMES.index(contract)]
    rule = HEARTS_LEAD.index(options.hearts_lead) if f & FLAG_HEARTS_LEAD else 0
    excluded = np.zeros(options.players, np.uint64)
    for seat, c, _, broken, led, best, in_hands in history:
        excluded[seat] |= shown_absent_nb(c, np.uint64(in_hands), led, best, trump, trump_duties(options), rule,
                                          broken, bool(f & FLAG_KH_DISCARD))
    return excluded


@pytest.mark.parametrize("contract,players,rules", [
    ("no-hearts", 4, dict(hearts_lead="broken")),
    ("no-barbu", 4, dict(kh_forced_discard=True)),
    ("trumps", 4, {}),
    ("trumps", 3, dict(overtrump_when_ruffing=False)),
    ("salade", 5, dict(deck=32)),
])
def test_sampled_worlds_are_consistent_with_what_the_table_has_shown(contract, players, rules):
    options = BarbuOptions(players=players, **rules)
    study = Study(options=options, contracts=(contract,), policies=("random",) * players, seed=11)
    cols = study.play(0, 6, record=True)  # random play shows voids
    n, state = players, np.uint64(12345)
    world, slack = np.empty(n, np.uint64), np.empty(1 << n, np.int64)
    differs = checked = 0
    for j in range(6):
        trump = int(cols["trump"][j])
        steps = walk_deal(options, int(cols["declarer"][j]), cols["hands"][j], cols["moves"][j], trump)
        for number, (seat, history, left) in enumerate(steps):
            if number % 3:
                continue
            excluded = kernel_exclusions(options, contract, history, trump)
            hands_now = np.array([mask_of(h) for h in left], np.uint64)
            seen = set(int(c) for c in options.cards) - set().union(*(left[q] for q in range(n) if q != seat))
            for _ in range(4):
                state = np.uint64(sample_world_nb(state, seat, n, hands_now, excluded, world, slack))
                sampled = [set(cards_of(int(w))) for w in world]
                assert sampled[seat] == left[seat]
                for q in range(n):
                    assert len(sampled[q]) == len(left[q]), "hand sizes"
                    if q == seat:
                        continue
                    assert not sampled[q] & seen, "a card already seen"
                    for s_, c, trick, *_ in history:
                        if s_ == q and trick and suit_of(c) != suit_of(trick[0]):
                            assert not any(suit_of(x) == suit_of(trick[0]) for x in sampled[q]), "a shown void"
                # Every earlier move stays legal with the sampled hands.
                start = [sampled[q] | {c for s_, c, *_ in history if s_ == q} for q in range(n)]
                for s_, c, trick, broken, *_ in history:
                    allowed = legal_cards(start[s_], trick, contract=contract, options=options,
                                          hearts_played=broken, trump=trump if trump >= 0 else None)
                    assert c in allowed, f"seat {s_} could not have played {c} with the sampled hand"
                    start[s_].remove(c)
                differs += sampled != left
                checked += 1
    assert checked > 50 and differs > checked // 2  # the worlds are samples, not the true hands


def first_lead_search(oracle, order, worlds=16, racing=0, deal=0, contract="no-queens"):
    """Seat 0's first lead in ``contract`` (deal ``deal``, seed 8) with seats 1-3's hidden hands permuted by
    ``order``: ``(card, totals, hand)``, ``hand`` the searcher's; the ``oracle`` searches the true deal, ``racing``
    races the candidates."""
    study = Study(options=BarbuOptions(), contracts=(contract,), policies=("heuristic",) * 4, seed=8)
    hands = study.play(deal, 1, record=True)["hands"][0].copy()
    a = study.kernel_args
    c = CONTRACT_NAMES.index(contract)
    h = hands[list(order)].astype(np.uint64)
    out = np.zeros(64, np.float64)
    card = search_card_nb(np.uint64(search_state(8, deal, 0)), 0, h, 4, 13, 0, 0, 0, -1, -1, 0, np.zeros(4, np.int64),
                          np.bitwise_or.reduce(h), False, h[0], int(cards_of(int(h[0]))[0]), np.zeros(4, np.uint64),
                          worlds, -1, a["card_values"][c], int(a["trick_values"][c]), a["last_two"][c],
                          a["point_masks"][c], bool(a["flags"][c] & FLAG_POSITIVE), 0, False, True, a["duties"],
                          POLICY.HEURISTIC, racing, np.empty(4, np.uint64), np.empty(4, np.uint64),
                          np.empty(4, np.int64), np.empty(16, np.int64), out, oracle, 0.0, np.empty((0, 7), np.int64),
                          np.empty(0, np.uint64), 0)
    return card, out, int(h[0])


def first_lead_totals(oracle, order, worlds=16):
    """Seat 0's searched totals for its first lead in No Queens (deal 0, seed 8), as :func:`first_lead_search`."""
    return first_lead_search(oracle, order, worlds)[1]


def test_search_decision_depends_only_on_what_the_searcher_has_seen():
    same, swapped = first_lead_totals(False, (0, 1, 2, 3)), first_lead_totals(False, (0, 3, 1, 2))  # seats 1-3 swap
    np.testing.assert_array_equal(same, swapped)
    assert same.any()


def test_a_raced_search_reports_each_cards_mean_over_its_own_worlds():
    """Raced, a card played on ``k`` worlds reports ``worlds`` times its mean over those ``k`` (the unraced
    search of ``k`` worlds: the worlds come in the same order); the card played is the best of those played on
    the most worlds (the survivors, when the race stops). Barbu's level checks at 12 worlds, 16, ... 32."""
    from cardlab.sim.barbu.interface import Barbu

    dropped = 0
    for deal in range(12):
        contract = TRICK_CONTRACTS[deal % len(TRICK_CONTRACTS)]
        if contract == "trumps":
            continue  # no trump named here
        card, raced, hand = first_lead_search(False, (0, 1, 2, 3), 32, Barbu.racing_level, deal, contract)
        unraced = {k: first_lead_search(False, (0, 1, 2, 3), k, 0, deal, contract)[1] for k in range(12, 33, 4)}
        cands = cards_of(hand)
        played = {x: {k for k, totals in unraced.items() if raced[x] == totals[x] * 32 / k} for x in cands}
        assert all(played.values())
        most = max(max(ks) for ks in played.values())
        survivors = [x for x in cands if most in played[x]]
        assert card in survivors and raced[card] == max(raced[x] for x in survivors)
        dropped += len(cands) - len(survivors)
    assert dropped >= 3


def test_the_oracle_sees_the_hidden_cards():
    """The oracle's totals change with the hidden hands (search's do not: the test above), and over the true deal
    with heuristic rollouts every world plays alike: its means do not depend on the number of worlds."""
    orders = ((0, 1, 2, 3), (0, 3, 1, 2), (0, 2, 3, 1))
    oracle = [first_lead_totals(True, order) for order in orders]
    assert any(not np.array_equal(oracle[0], other) for other in oracle[1:])
    np.testing.assert_array_equal(first_lead_totals(True, orders[0], worlds=3) * 16, oracle[0] * 3)
    assert not np.array_equal(oracle[0], first_lead_totals(False, orders[0]))  # the true deal is not the samples


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_oracle_deals_pass_the_referee_in_every_contract(rollout):
    study = Study.build(contract="all", policy="oracle,search,heuristic,random", seed=13, search_worlds=WORLDS,
                        search_rollout=rollout)
    cols = refereed(study, 3 * len(CONTRACT_NAMES))
    means = cols["search_means"]
    trumps = np.asarray(cols["contract"]) == "trumps"
    assert (~np.isnan(cols["search_trump_means"][trumps & (cols["declarer"] == 0)])).all()  # the oracle names trump
    assert (~np.isnan(means[np.asarray(cols["contract"]) == "domino"])).any()  # and searches Domino
    again = study.play(0, 3 * len(CONTRACT_NAMES), record=True)
    assert np.array_equal(means, again["search_means"], equal_nan=True)  # reproducible


def test_an_oracle_seat_takes_the_search_settings():
    study = Study.build(policy="oracle", search_worlds=2)
    assert study.searching and study.metadata()["search_worlds"] == 2
    with pytest.raises(ValueError, match="search_worlds: 4 needs a search seat"):
        Study.build(policy="heuristic", search_worlds=4)


def kernel_history(options, a, contract, history):
    """``walk_deal``'s history as ``search.play_likelihood_nb`` reads it: (history, history_remaining); ``a`` the
    study's kernel tables."""
    from cardlab.sim.barbu.kernels import trick_start_nb
    from cardlab.sim.barbu.rules import FLAG_POSITIVE

    c = CONTRACT_NAMES.index(contract)
    n, size = options.players, options.hand_size
    rows, remaining = [], []
    for i, (seat, card, trick, broken, led, best, in_hands) in enumerate(history):
        mode = trick_start_nb(i // n, size, a["trick_values"][c], a["last_two"][c],
                              bool(a["flags"][c] & FLAG_POSITIVE), a["point_masks"][c])[1]
        rows.append((seat, card, led, best, mode, len(trick) == n - 1, broken))
        remaining.append(int(in_hands) | (1 << card) | mask_of(trick))
    return np.array(rows, np.int64).reshape(-1, 7), np.array(remaining, np.uint64)


def test_inference_weights_the_worlds_by_the_heuristic_s_likelihood():
    """At a table of heuristic players the true deal explains every card: its weight tends to 1 as eps does, the
    most any world gets, while sampled worlds that leave a card unexplained tend to 0. The weight is a pure
    function of the world and the public history."""
    from cardlab.sim.barbu.rules import FLAG_KH_DISCARD
    from cardlab.sim.barbu.search import INFERENCE_EPSILON as eps, play_likelihood_nb

    options, contract, n = BarbuOptions(), "no-queens", 4
    study = Study(options=options, contracts=(contract,), policies=("heuristic",) * n, seed=3)
    cols = study.play(0, 4, record=True)
    a, c = study.kernel_args, CONTRACT_NAMES.index(contract)
    kh = bool(a["flags"][c] & FLAG_KH_DISCARD)
    lower = checked = 0
    state, world, slack = np.uint64(99), np.empty(n, np.uint64), np.empty(1 << n, np.int64)
    later = np.empty(n, np.uint64)
    for j in range(4):
        steps = walk_deal(options, int(cols["declarer"][j]), cols["hands"][j], cols["moves"][j], -1)
        for number, (seat, history, left) in enumerate(steps):
            if number < 8 or number % 5:
                continue
            hist, rem = kernel_history(options, a, contract, history)
            hands_now = np.array([mask_of(h) for h in left], np.uint64)

            def weight(w, e=eps):
                return play_likelihood_nb(w, seat, n, len(history), hist, rem, -1, a["card_values"][c],
                                          a["point_masks"][c], a["duties"], 0, kh, e, later)

            true = weight(hands_now)
            assert weight(hands_now, 1e-9) == pytest.approx(1.0, abs=1e-6)  # the heuristic explains every card
            assert true == weight(hands_now.copy())
            excluded = kernel_exclusions(options, contract, history, -1)
            for _ in range(6):
                state = np.uint64(sample_world_nb(state, seat, n, hands_now, excluded, world, slack))
                sampled = weight(world, 1e-9)  # nearly the heuristic itself: 1 if it explains every card, else ~0
                assert sampled <= 1 + 1e-6 and 0 < weight(world) <= 1
                lower += sampled < 1e-6
                checked += 1
    assert checked >= 60 and lower > checked // 4  # the weights tell worlds apart


def test_inference_is_reproducible_for_any_threads_and_chunks_and_changes_the_search():
    kw = dict(deals=24, seed=42, contract="no-hearts,salade,trumps", policy="search,heuristic,search,random",
              search_worlds=WORLDS)
    on = run(threads=1, chunk_size=24, search_inference="on", **kw)
    pd.testing.assert_frame_equal(on, run(threads=numba.config.NUMBA_NUM_THREADS, chunk_size=5,
                                          search_inference="on", **kw))
    assert on.attrs["cardlab"]["search_inference"] == "on"
    means_on = Study.build(search_inference="on", **{k: v for k, v in kw.items() if k != "deals"}).play(
        0, 24, record=True)["search_means"]
    means_off = Study.build(search_inference="off", **{k: v for k, v in kw.items() if k != "deals"}).play(
        0, 24, record=True)["search_means"]
    assert not np.array_equal(means_on, means_off, equal_nan=True)
    with pytest.raises(ValueError, match="search_inference: 'on' needs a search seat"):
        Study.build(policy="heuristic", search_inference="on")
    with pytest.raises(ValueError, match="search_inference: 'yes' is not allowed"):
        Study.build(policy="search", search_inference="yes")


def test_search_scores_more_than_the_heuristic_at_the_same_seat():
    # 600 deals: on 120 the gain (about 1.5 points a deal) is within two standard errors of zero by chance
    searched = simulate(deals=600, seed=9, contract="salade", policy="search,heuristic,heuristic,heuristic",
                        search_worlds=16)
    plain = simulate(deals=600, seed=9, contract="salade", policy="heuristic")
    gain = searched["score_0"] - plain["score_0"]
    assert gain.mean() > 2 * gain.std() / np.sqrt(len(gain))


# ---------------------------------------------------------------- strength study and command line


def test_strength_study_rows_are_the_paired_matches_they_name():
    from cardlab.sim.barbu import strength_study
    from cardlab.sim.ladder import PAIRS

    df = strength_study(deals=40, seed=4, contract="no-queens,trumps", search_worlds=2)
    totals = {"no-queens": contract_total_of("no-queens"), "trumps": contract_total_of("trumps")}
    for policy in ("random", "heuristic", "search"):
        sums = df[[f"score_{policy}_{p}" for p in range(4)]].sum(axis=1)
        assert (sums == df["contract"].map(totals).astype(int)).all()
    assert (df["lone"] == (df["deal"] // 8) % 4).all()  # 2 contracts x 4 seats: deals 0-7 change seat 0, ...
    for j in (3, 13, 38):  # a deal played alone through the public API gives the same lone score
        row = df.iloc[j]
        for x, y in PAIRS:
            seats = [y] * 4
            seats[row["lone"]] = x
            worlds = {"search_worlds": 2} if "search" in seats else {}
            alone = simulate(deals=1, first_deal=j, seed=4, contract="no-queens,trumps", policy=",".join(seats),
                             **worlds)
            assert alone[f"score_{row['lone']}"].iloc[0] == row[f"lone_{x}_in_{y}"]


def contract_total_of(name):
    from cardlab.sim.barbu.rules import contract_total

    return contract_total(BarbuOptions(), name)


def test_strength_report_gains_are_lone_minus_whole_table():
    from cardlab.analysis.strength import format_strength_study, plot_strength_study, strength_gains
    from cardlab.sim.barbu import strength_study

    df = strength_study(deals=24, seed=6, contract="salade", search_worlds=2)
    gains = strength_gains(df)  # Barbu's ladder (per contract) read from the rows' own metadata
    manual = df["lone_search_in_heuristic"] - df.apply(lambda r: r[f"score_heuristic_{r['lone']}"], axis=1)
    assert gains.loc[("salade", "search", "heuristic"), "points"] == pytest.approx(manual.mean())
    assert gains.loc[("salade", "search", "heuristic"), "deals"] == 24
    text = format_strength_study(df)
    assert "How far the heuristic is from search" in text and "salade" in text and "2 sampled worlds" in text
    assert len(plot_strength_study(df).axes) == 4  # the gains, then declarer's score, a seat's score, scores of 0


def test_command_line_search_and_strength(tmp_path, capsys):
    from cardlab.sim.cli import main

    assert main(["simulate", "barbu", "--contract", "no-hearts", "--deals", "8", "--policy", "search,heuristic,"
                 "heuristic,random", "--search-worlds", "2"]) == 0
    assert "no-hearts" in capsys.readouterr().out
    out = tmp_path / "strength.parquet"
    assert main(["study", "barbu", "strength", "--deals", "16", "--contract", "no-tricks", "--search-worlds", "2",
                 "--out", str(out), "--plot", str(tmp_path / "s.png")]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "How far the heuristic is from search" in capsys.readouterr().out
    assert main(["replay", "barbu", "--deal", "2", "--contract", "no-barbu", "--policy", "search",
                 "--search-worlds", "2"]) == 0
    assert "searched decisions" in capsys.readouterr().out
    assert main(["simulate", "barbu", "--deals", "8", "--search-worlds", "4"]) == 2
    assert "--search-worlds: 4 needs a search seat (policy 'search')" in capsys.readouterr().err


def test_the_inference_share_is_per_contract_and_the_report_shows_the_ceiling(tmp_path, capsys):
    """Barbu's part of tests/test_inference.py: its ladders group by contract, and the report reads them."""
    from cardlab.analysis.io import load_run
    from cardlab.analysis.strength import inference_share
    from cardlab.sim.cli import main

    paths = {}
    for inference in ("on", "off"):
        paths[inference] = tmp_path / f"ladder-{inference}.parquet"
        assert main(["study", "barbu", "strength", "--deals", "16", "--contract", "salade,trumps", "--search-worlds",
                     "2", "--oracle", "--search-inference", inference, "--out", str(paths[inference])]) == 0
    capsys.readouterr()
    assert main(["report", str(paths["on"])]) == 0
    assert "The ceiling" in capsys.readouterr().out
    (on, _), (off, _) = (load_run(paths[k]) for k in ("on", "off"))
    share = inference_share(on, off)
    assert list(share.index) == ["salade", "trumps"] and (share["deals"] == 8).all()


def test_the_oracle_ladder_adds_its_tables_and_changes_no_other_column():
    from cardlab.analysis.strength import format_strength_study, oracle_gaps
    from cardlab.sim.barbu import strength_study

    kw = dict(deals=16, seed=4, contract="no-queens,trumps", search_worlds=2)
    plain, ceiling = strength_study(**kw), strength_study(oracle=True, **kw)
    pd.testing.assert_frame_equal(plain, ceiling[plain.columns], check_like=False)
    added = [c for c in ceiling.columns if c not in plain.columns]
    assert added == [f"score_oracle_{p}" for p in range(4)] + ["lone_oracle_in_search", "lone_oracle_in_heuristic"]
    assert ceiling.attrs["cardlab"]["oracle"] is True and "oracle" not in plain.attrs["cardlab"]
    for j in (2, 11):  # a deal played alone through the public API gives the same lone score
        row = ceiling.iloc[j]
        for y in ("search", "heuristic"):
            seats = [y] * 4
            seats[row["lone"]] = "oracle"
            alone = simulate(deals=1, first_deal=j, seed=4, contract="no-queens,trumps", policy=",".join(seats),
                             search_worlds=2)
            assert alone[f"score_{row['lone']}"].iloc[0] == row[f"lone_oracle_in_{y}"]
    gaps = oracle_gaps(ceiling)
    assert list(gaps.index) == ["no-queens", "trumps"] and (gaps["deals"] == 8).all()
    assert "The ceiling" in format_strength_study(ceiling) and "The ceiling" not in format_strength_study(plain)


def test_the_oracle_beats_the_heuristic_by_more_than_search_does():
    from cardlab.analysis.strength import oracle_gaps
    from cardlab.sim.barbu import strength_study

    gaps = oracle_gaps(strength_study(deals=64, seed=21, contract="salade", search_worlds=4, oracle=True))
    assert gaps.loc["salade", "oracle_low"] > max(0, gaps.loc["salade", "search_high"])


@pytest.mark.slow
def test_the_oracle_beats_search_on_the_ladder():
    from cardlab.analysis.stats import mean_ci
    from cardlab.sim.barbu import strength_study

    df = strength_study(deals=336, seed=21, search_worlds=4, oracle=True)  # 42 deals of each trick contract
    honest = df[[f"score_search_{p}" for p in range(4)]].to_numpy()[np.arange(len(df)), df["lone"].to_numpy()]
    gap, low, high = mean_ci(df["lone_oracle_in_search"] - honest)
    assert low > 0  # seeing the cards is worth points over honest search, among search players (+1.25, CI 0.58-1.92)


def test_the_oracle_ladder_is_refused_where_it_does_not_apply(capsys):
    from types import SimpleNamespace

    from cardlab.sim.cli import main
    from cardlab.sim.ladder import check_oracle

    with pytest.raises(ValueError, match="^oracle: Hearts does not play the oracle yet"):  # a game without one
        check_oracle(SimpleNamespace(oracle=False, title="Hearts"), True)
    assert main(["study", "barbu", "contracts", "--deals", "4", "--oracle"]) == 2
    assert "--oracle: True does not apply here; it applies only to study strength" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cardlab.sim.barbu.interface", "cardlab.analysis.strength"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_trump_and_contract_studies_accept_search():
    from cardlab.sim.barbu import contract_value_study, trump_study

    trumps = trump_study(deals=6, seed=2, policy="search", search_worlds=2)
    plain = trump_study(deals=6, seed=2)
    assert (trumps[[f"length_t{s}" for s in range(4)]] == plain[[f"length_t{s}" for s in range(4)]]).all().all()
    assert not trumps[[f"score_t{s}" for s in range(4)]].equals(plain[[f"score_t{s}" for s in range(4)]])
    values = contract_value_study(deals=4, seed=2, contract="no-queens,salade", policy="search", search_worlds=2)
    assert len(values) == 4 and values["score_salade"].le(0).all()


def test_random_rollouts_are_legal_reproducible_and_an_option():
    study = Study.build(contract=",".join(TRICK_CONTRACTS), policy="search,random,heuristic,search", seed=8,
                        search_worlds=WORLDS, search_rollout="random")
    cols = refereed(study, 3 * len(TRICK_CONTRACTS))
    kw = dict(deals=16, seed=8, contract="salade", policy="search", search_worlds=WORLDS)
    by_random = simulate(search_rollout="random", threads=1, **kw)
    pd.testing.assert_frame_equal(by_random, simulate(search_rollout="random", chunk_size=5, **kw))
    assert not by_random.equals(simulate(**kw))
    assert cols["moves"].shape[0] == 24
    with pytest.raises(ValueError, match="search_rollout: 'smart' is not allowed; choose 'random' or 'heuristic'"):
        Study.build(policy="search", search_rollout="smart")
