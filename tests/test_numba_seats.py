"""Numba seats beyond Barbu's (cardlab.sim.user): a seat of Minchiate played by the user's @njit card function
inside the kernels, a Rami seat whose discards the user's function makes, and a Euchre-for-five seat whose cards and
bids the user's functions play. Its deals replay through the referee, it gives the rows of the same rule written in
Python and played through the step API, and it plays in whole games and beside search seats. (Barbu's Numba seat, and
the refusals of every game's: tests/test_numba_policy.py.)"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardlab.sim.games import game
from cardlab.sim.python_seats import play_columns
from cardlab.sim.runner import to_frame
from tests.user_policies import euchre_cards, minchiate_cards, rami_discards

HEURISTIC3 = ["heuristic"] * 3
HEURISTIC4 = ["heuristic"] * 4


def test_a_minchiate_numba_seat_plays_and_the_referee_replays_its_deals():
    minchiate = game("minchiate")
    df = minchiate.simulate(deals=200, seed=5, policy=[minchiate_cards.lowest] + HEURISTIC3)
    assert df.attrs["cardlab"]["policies"][0] == "numba:tests.user_policies.minchiate_cards.lowest"
    plain = minchiate.simulate(deals=200, seed=5)
    assert (df["points_0"] != plain["points_0"]).any()
    replay = minchiate.replay(deal="0:40", seed=5, policy=[minchiate_cards.lowest] + HEURISTIC3)
    assert len(replay.records) == 40  # each deal checked move by move and rescored by the referee


def test_the_numba_seat_gives_the_rows_of_the_same_rule_in_python():
    """Seat 0 plays the lowest legal card, in Numba in the kernels and in Python through the step API; on the deals
    where seat 0 neither cuts nor deals (deal % 4 in 2, 3) it makes no discard, so the two tables are the same."""
    minchiate = game("minchiate")
    numba = minchiate.build("deals", seed=8, policy=[minchiate_cards.lowest, "heuristic", "random", "heuristic"])
    python = minchiate.build("deals", seed=8,
                             policy=[minchiate_cards.lowest_in_python, "heuristic", "random", "heuristic"])
    for first in range(2, 120, 4):
        kernel = to_frame(numba.play(first, 2))
        state = to_frame(play_columns(python, first, 2))
        pd.testing.assert_frame_equal(state, kernel[list(state.columns)])


def test_rows_do_not_depend_on_threads_or_chunks_and_whole_games_take_it():
    minchiate = game("minchiate")
    keywords = dict(deals=600, seed=2, policy=[minchiate_cards.lowest, "heuristic", minchiate_cards.lowest, "random"])
    assert minchiate.simulate(threads=1, chunk_size=130, **keywords).equals(minchiate.simulate(threads=2, **keywords))
    games = minchiate.simulate_games(games=12, seed=1, n_deals=4, policy=[minchiate_cards.lowest] + HEURISTIC3)
    assert games.attrs["cardlab"]["policies"][0].startswith("numba:") and len(games) == 12


def test_search_seats_play_beside_it_and_the_search_kernels_play_it_as_the_plain_ones():
    minchiate = game("minchiate")
    study = minchiate.build("deals", seed=4, policy=[minchiate_cards.lowest] + HEURISTIC3)
    np.testing.assert_array_equal(study.raw(0, 60)[0], study.searched(np.arange(60))[0])
    searched = minchiate.simulate(deals=4, seed=1, policy=[minchiate_cards.lowest, "search", "heuristic", "heuristic"],
                                  search_worlds=2)
    assert len(searched) == 4


def test_the_minchiate_numba_seat_id_is_the_kernels():
    from cardlab.sim.minchiate.kernels import USER

    assert game("minchiate").numba_seat.kernel_id == USER


def test_a_rami_numba_seat_discards_by_its_rule_and_the_referee_replays_its_rounds():
    """Every discard of the Numba seat is the rule's choice among the legal discards the referee's state lists (the
    same rule in Python), and its rounds replay move by move."""
    rami = game("rami")
    policy = [rami_discards.highest] + HEURISTIC3
    values = rami.Options().card_values
    replay = rami.replay(deal="0:12", seed=3, policy=policy)
    checked = 0
    for deal, record in enumerate(replay.records):
        state = rami.state(seed=3, deal=deal, policy=policy)
        for entry in record["actions"]:
            if entry["seat"] == 0 and entry["kind"] == "discard":
                legal = [a.id - 100 for a in state.legal_actions() if 100 <= a.id < 153]
                assert state.action(entry).id - 100 == max(legal, key=lambda k: (values[k], -k))
                checked += 1
            state.apply(entry)
        assert state.scores() == record["scores"]
    assert checked > 50
    plain = rami.simulate(deals=100, seed=3)
    mine = rami.simulate(deals=100, seed=3, policy=policy)
    assert (plain["score_0"] != mine["score_0"]).any()


def test_rami_numba_seat_rows_do_not_depend_on_threads_and_it_plays_games_and_beside_search():
    rami = game("rami")
    keywords = dict(deals=300, seed=2, policy=[rami_discards.highest, "heuristic", rami_discards.highest, "random"])
    assert rami.simulate(threads=1, chunk_size=70, **keywords).equals(rami.simulate(threads=2, **keywords))
    games = rami.simulate_games(games=4, seed=1, policy=[rami_discards.highest] + HEURISTIC3)
    assert games.attrs["cardlab"]["policies"][0].startswith("numba:") and games["game"].nunique() == 4
    study = rami.build("deals", seed=4, policy=[rami_discards.highest] + HEURISTIC3)
    np.testing.assert_array_equal(study.searched(np.arange(30))[0], study.raw(0, 30)[0])  # the search kernel's rows
    searched = rami.simulate(deals=3, seed=1, policy=[rami_discards.highest, "search", "heuristic", "heuristic"],
                             search_worlds=2)
    assert len(searched) == 3


def test_a_rami_numba_player_draws_and_melds_by_its_functions_and_leaves_the_rest_to_the_heuristic():
    """A player whose draw and meld functions make the heuristic's choices (or leave them to it) plays the discard
    function's rounds exactly, in rounds, whole games and the searched loop; one that never takes the discard and
    never melds does neither, every round replayed by the referee; a draw that is not 0, 1 or -1 stops the run."""
    rami = game("rami")
    same = {"discard": rami_discards.highest, "draw": rami_discards.take_when_usable,
            "meld": rami_discards.heuristics_melds}
    for policy in ([same] + HEURISTIC3, [same, "heuristic", same, "random"]):
        plain = [rami_discards.highest if isinstance(p, dict) else p for p in policy]
        mine = rami.simulate(deals=200, seed=6, policy=policy)
        assert mine.attrs["cardlab"]["policies"][0].endswith("rami_costliest+draw=tests.user_policies.rami_discards."
                                                             "take_when_usable+meld=tests.user_policies.rami_discards."
                                                             "heuristics_melds")
        assert mine.filter(like="score_").equals(rami.simulate(deals=200, seed=6, policy=plain).filter(like="score_"))
    assert rami.simulate_games(games=3, seed=2, policy=[same] + HEURISTIC3).filter(like="score").equals(
        rami.simulate_games(games=3, seed=2, policy=[rami_discards.highest] + HEURISTIC3).filter(like="score"))

    hold = [{"discard": rami_discards.highest, "draw": rami_discards.never_take, "meld": rami_discards.never_meld}]
    hold += HEURISTIC3
    replay = rami.replay(deal="0:20", seed=3, policy=hold)
    chosen = [e for r in replay.records for e in r["actions"] if not e.get("exempt")]  # a rami sec is no choice
    kinds = [e["kind"] for e in chosen if e["seat"] == 0]
    others = [e["kind"] for e in chosen if e["seat"] != 0]
    assert "take" not in kinds and "take" in others
    assert "open" not in kinds and "open" in others
    study = rami.build("deals", seed=4, policy=hold)
    np.testing.assert_array_equal(study.searched(np.arange(30))[0], study.raw(0, 30)[0])  # the search kernel's rows

    with pytest.raises(ValueError, match=r"^policy: seat 0 \(numba:.*bad_draw\) returned 7 in round \d+, which is not"):
        rami.simulate(deals=50, seed=1, policy=[{"discard": rami_discards.highest, "draw": rami_discards.bad_draw}]
                      + HEURISTIC3)


def test_a_euchre_numba_seat_plays_and_the_referee_replays_its_hands():
    euchre = game("euchre5")
    df = euchre.simulate(deals=300, seed=5, policy=[euchre_cards.lowest] + HEURISTIC4)
    assert df.attrs["cardlab"]["policies"][0] == "numba:tests.user_policies.euchre_cards.lowest"
    plain = euchre.simulate(deals=300, seed=5)
    assert (df["score_0"] != plain["score_0"]).any()
    assert (df["maker"] == plain["maker"]).all()  # its bids are the heuristic's
    replay = euchre.replay(deal="0:40", seed=5, policy=[euchre_cards.lowest] + HEURISTIC4)
    assert len(replay.records) == 40  # each hand checked move by move and rescored by the referee


def test_the_euchre_numba_seat_gives_the_rows_of_the_same_rule_in_python():
    """Seat 0 passes (a stuck dealer names its lowest suit) and plays the lowest legal card, in Numba in the kernels
    and in Python through the step API; on the hands seat 0 does not deal (deal % 5 != 0) it never discards, and it
    never makes trump so never calls: the two tables are the same."""
    euchre = game("euchre5")
    others = ["heuristic", "random", "heuristic", "heuristic"]
    numba = euchre.build("deals", seed=8, policy=[{"card": euchre_cards.lowest, "bid": euchre_cards.always_pass}]
                         + others)
    assert numba.policies[0] == ("numba:tests.user_policies.euchre_cards.lowest"
                                 "+bid=tests.user_policies.euchre_cards.always_pass")
    python = euchre.build("deals", seed=8, policy=[euchre_cards.lowest_in_python] + others)
    for first in range(1, 400, 5):
        kernel = to_frame(numba.play(first, 4))
        state = to_frame(play_columns(python, first, 4))
        pd.testing.assert_frame_equal(state, kernel[list(state.columns)])
        assert (kernel["maker"] != 0).all()


def test_the_euchre_bid_function_bids_and_minus_one_leaves_the_bid_to_the_heuristic():
    euchre = game("euchre5")
    heuristic_bids = euchre.simulate(deals=400, seed=3, policy=[{"card": euchre_cards.lowest,
                                                                 "bid": euchre_cards.heuristic_bid}] + HEURISTIC4)
    assert heuristic_bids.equals(euchre.simulate(deals=400, seed=3,
                                                                  policy=[euchre_cards.lowest] + HEURISTIC4))
    accept = [{"card": euchre_cards.lowest, "bid": euchre_cards.always_accept}] + HEURISTIC4
    replay = euchre.replay(deal="0:30", seed=3, policy=accept)
    for record in replay.records:  # seat 0 accepts the upcard's suit whenever round one reaches it
        bids = [a for a in record["actions"] if a["kind"] in ("pass", "accept")][:5]
        assert [a["kind"] for a in bids if a["seat"] == 0] in ([], ["accept"])
        assert record["maker"] == 0 or all(a["seat"] != 0 for a in bids)


def test_euchre_numba_seat_rows_do_not_depend_on_threads_or_chunks_and_whole_games_take_it():
    euchre = game("euchre5")
    player = {"card": euchre_cards.lowest, "bid": euchre_cards.always_accept}
    keywords = dict(deals=3000, seed=2, policy=[player, "heuristic", euchre_cards.lowest, "random", "heuristic"])
    with pytest.raises(ValueError, match="two Numba functions"):
        euchre.simulate(**keywords)
    keywords["policy"] = [player, "heuristic", player, "random", "heuristic"]
    assert euchre.simulate(threads=1, chunk_size=700, **keywords).equals(euchre.simulate(threads=2, **keywords))
    games = euchre.simulate_games(games=30, seed=1, policy=[player] + HEURISTIC4)
    assert games.attrs["cardlab"]["policies"][0].startswith("numba:") and games["game"].nunique() == 30
    assert games.equals(euchre.simulate_games(games=30, seed=1, policy=[player] + HEURISTIC4, threads=1, chunk_size=7))


def test_search_seats_play_beside_the_euchre_seat_and_the_search_kernels_play_it_as_the_plain_ones():
    euchre = game("euchre5")
    player = {"card": euchre_cards.lowest, "bid": euchre_cards.always_accept}
    study = euchre.build("deals", seed=4, policy=[player, "heuristic", "random", "heuristic", "heuristic"])
    plain, (out, *logs) = study.play(0, 200, record=True), study.raw(0, 200, record=True, search=True)
    searched = {**study.game.row_columns(out), **study.logs_columns(logs)}
    for key in ("moves", "score_0", "maker"):
        np.testing.assert_array_equal(plain[key], searched[key])
    games = euchre.build("games", seed=4, policy=[player] + HEURISTIC4)
    np.testing.assert_array_equal(games.play_games(0, 5)["score_0"], games.play_games(0, 5, search=True)["score_0"])
    mixed = euchre.simulate(deals=4, seed=1, policy=[player, "search", "heuristic", "heuristic", "heuristic"],
                            search_worlds=2)
    assert len(mixed) == 4


def test_the_euchre_trump_study_and_the_ladder_take_its_numba_seat():
    from cardlab.sim.euchre5.trumps import trump_study
    from cardlab.sim.ladder import strength_study

    euchre = game("euchre5")
    study = trump_study(euchre, deals=30, seed=1, policy=[euchre_cards.lowest] + HEURISTIC4)
    assert len(study) == 600 and study.attrs["cardlab"]["policies"][0].startswith("numba:")
    ladder = strength_study(euchre, deals=5, seed=1, search_worlds=2, policies={"lowest": euchre_cards.lowest})
    assert "lone_lowest_in_heuristic" in ladder.columns and len(ladder) == 5
    whole = euchre.simulate(deals=5, seed=1, policy=euchre_cards.lowest)
    assert np.array_equal(ladder.filter(regex=r"^score_lowest_\d$").to_numpy(),
                          whole.filter(regex=r"^score_\d$").to_numpy())


def test_the_euchre_numba_seat_id_is_the_kernels_and_an_illegal_bid_stops_the_run():
    from cardlab.sim.euchre5.kernels import USER

    euchre = game("euchre5")
    assert euchre.numba_seat.kernel_id == USER
    with pytest.raises(ValueError) as e:
        euchre.simulate(deals=300, policy=[{"card": euchre_cards.lowest, "bid": euchre_cards.accept_in_round_two}]
                        + HEURISTIC4)
    assert str(e.value).startswith("policy: seat 0 (numba:tests.user_policies.euchre_cards.lowest+bid=tests."
                                   "user_policies.euchre_cards.accept_in_round_two) returned 197 in hand ")
    with pytest.raises(ValueError, match=r"\(bidding\): expected bid\(hand: uint64, upcard: int64"):
        euchre.simulate(deals=10, policy=[{"card": euchre_cards.lowest, "bid": euchre_cards.bid_of_two_arguments}]
                        + HEURISTIC4)
