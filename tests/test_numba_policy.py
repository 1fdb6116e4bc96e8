"""Your own player in Numba (cardlab.sim.user): a seat played by the user's @njit function inside the
kernels. The referee replays the deals a Numba seat played (every card legal, every score right),
a bad function is refused before any deal is played, an illegal card stops the run in one line,
and the kernels compiled for a function are found in the cache by the next process."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardlab.sim.games import GAMES, game
from cardlab.sim.user import check, name_of
from tests.user_policies import barbu_cards, euchre_cards, hearts_cards, minchiate_cards, rami_discards

ROOT = Path(__file__).resolve().parents[1]
HEURISTIC3 = ["heuristic"] * 3


def test_a_numba_seat_plays_and_the_referee_replays_its_deals():
    barbu = game("barbu")
    df = barbu.simulate(deals=400, seed=5, policy=[barbu_cards.lowest] + HEURISTIC3)
    assert df.attrs["cardlab"]["policies"][0] == "numba:tests.user_policies.barbu_cards.lowest"
    replay = barbu.replay(deal="0:400", seed=5, policy=[barbu_cards.lowest] + HEURISTIC3)
    assert [r["scores"] for r in replay.records] == df.filter(like="score_").values.tolist()


def test_a_numba_seat_changes_the_seat_and_keeps_the_other_seats_policies():
    barbu = game("barbu")
    plain = barbu.simulate(deals=2000, seed=9)
    mine = barbu.simulate(deals=2000, seed=9, policy=[barbu_cards.highest] + HEURISTIC3)
    assert (plain["score_0"] != mine["score_0"]).any()
    # playing its highest card, the seat takes more of the tricks and penalties than the heuristic
    assert mine["score_0"].mean() < plain["score_0"].mean()


def test_numba_seat_rows_do_not_depend_on_threads_or_chunks():
    barbu = game("barbu")
    keywords = dict(deals=3000, seed=2, policy=[barbu_cards.lowest, "heuristic", barbu_cards.lowest, "random"])
    a = barbu.simulate(threads=1, chunk_size=700, **keywords)
    b = barbu.simulate(threads=2, **keywords)
    assert a.equals(b)


def test_whole_games_and_search_tables_take_a_numba_seat():
    barbu = game("barbu")
    games = barbu.simulate_games(games=20, seed=1, policy=[barbu_cards.lowest] + HEURISTIC3)
    assert games.attrs["cardlab"]["policies"][0].startswith("numba:")
    searched = barbu.simulate(deals=6, seed=1, policy=[barbu_cards.lowest, "search", "heuristic", "heuristic"],
                              search_worlds=4)
    assert len(searched) == 6


def test_the_heuristic_played_through_the_numba_seat_gives_the_heuristics_rows(monkeypatch):
    """The seat's view (its ``values`` and the trick's ``points``) is all the built-in heuristic needs: the
    benchmark's copy of it plays the heuristic's cards in every contract, in plain and searched kernels."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import numba_seats

    barbu = game("barbu")
    for rest, keywords in ((HEURISTIC3, dict(deals=3000)), (HEURISTIC3[:2], dict(deals=3000, players=3, deck=32)),
                           (["search", "heuristic", "heuristic"], dict(deals=12, search_worlds=4))):
        plain = barbu.simulate(policy=["heuristic"] + rest, contract="all", seed=4, **keywords)
        mine = barbu.simulate(policy=[numba_seats.heuristic_like] + rest, contract="all", seed=4, **keywords)
        assert mine.equals(plain)


#: Per game with a Numba seat: a function of its test module that makes an illegal move, what the refusal says it
#: returned, and how the expected signature begins (the module's ``two_arguments`` has the wrong one).
SEATS = {"barbu": (barbu_cards.illegal_when_last, "63 in deal", "card(hand: uint64, legal: uint64, led: int64"),
         "euchre5": (euchre_cards.illegal_when_last, "63 in hand", "card(hand: uint64, legal: uint64, k: int64"),
         "minchiate": (minchiate_cards.illegal_when_last, "97 in deal",
                       "card(hand_lo: uint64, hand_hi: uint64, legal_lo: uint64"),
         "rami": (rami_discards.illegal_when_close, "60 in round", "discard(hand: int64[53] (counts by kind)"),
         "hearts": (hearts_cards.illegal_when_last, "63 in deal", "card(hand: uint64, legal: uint64, n: int64")}


@pytest.mark.parametrize("name", SEATS)
def test_an_illegal_card_stops_the_run_in_one_line_and_leaves_no_file(name, tmp_path):
    illegal, returned, _ = SEATS[name]
    out = tmp_path / "run.parquet"
    others = ["heuristic"] * (game(name).players(game(name).Options()) - 1)
    with pytest.raises(ValueError) as e:
        game(name).simulate(deals=200, policy=[illegal] + others, out=out)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"policy: seat 0 ({name_of(illegal)}) returned {returned} ")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", SEATS)
def test_a_function_of_the_wrong_signature_is_refused_before_play_with_the_expected_one(name):
    illegal, _, signature = SEATS[name]
    others = ["heuristic"] * (game(name).players(game(name).Options()) - 1)
    with pytest.raises(ValueError) as e:
        game(name).simulate(deals=10, policy=[getattr(sys.modules[illegal.py_func.__module__], "two_arguments")]
                            + others)
    message = str(e.value)
    assert "\n" not in message
    assert f"expected {signature}" in message and "seat 0" in message
    assert "compiling it failed" in message


def test_a_plain_python_function_or_two_numba_functions_are_refused():
    barbu = game("barbu")
    with pytest.raises(ValueError, match="two Numba functions"):
        barbu.simulate(deals=10, policy=[barbu_cards.lowest, barbu_cards.highest, "heuristic", "heuristic"])


def test_every_game_has_numba_seats_and_a_game_without_says_so():
    assert all(game(g).numba_seat is not None for g in GAMES)
    with pytest.raises(ValueError, match="policy: seat 1: newgame has no Numba seats yet; give a policy name"):
        check(barbu_cards.lowest, None, "newgame", 1)  # what a game added without a Numba seat answers


def test_the_name_of_a_numba_function():
    assert name_of(barbu_cards.lowest) == "numba:tests.user_policies.barbu_cards.lowest"


@pytest.mark.slow
def test_the_next_process_finds_the_kernels_compiled_for_a_function_in_the_cache():
    script = textwrap.dedent("""
        from cardlab.sim.games import game
        from cardlab.sim.barbu.kernels import play_deals_nb
        from tests.user_policies import barbu_cards, minchiate_cards, rami_discards
        game("barbu").simulate(deals=50, policy=[barbu_cards.highest, "heuristic", "heuristic", "heuristic"])
        print(sum(play_deals_nb.stats.cache_hits.values()), sum(play_deals_nb.stats.cache_misses.values()))
    """)
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
            for _ in range(2)]
    hits, misses = map(int, runs[1].stdout.split())
    assert hits >= 1 and misses == 0, runs[1].stdout + runs[1].stderr  # one hit per kernel call


def test_the_barbu_numba_seat_id_is_the_kernels():
    from cardlab.sim.barbu.interface import USER_POLICY
    from cardlab.sim.barbu.policies import POLICY

    assert USER_POLICY == POLICY.USER == game("barbu").numba_seat.kernel_id
