"""Barbu's Numba seat in Domino (the ``domino`` decision of a Numba player, ``sim.barbu.interface.NUMBA_SEAT``):
the user's function makes the seat's Domino moves where it has a choice, in single deals, whole games and beside
search seats; the referee replays its deals; a function left out, or returning -1, leaves the moves to the
heuristic; an illegal move stops the run in one line; the rows do not depend on threads or chunks."""
from __future__ import annotations

import pytest

from cardlab.sim.games import game
from tests.user_policies import barbu_cards

HEURISTIC3 = ["heuristic"] * 3
LOWEST = {"card": barbu_cards.lowest, "domino": barbu_cards.domino_lowest}
NAME = "numba:tests.user_policies.barbu_cards.lowest+domino=tests.user_policies.barbu_cards.domino_lowest"
BARBU = game("barbu")


def test_the_domino_function_plays_the_seats_domino_and_the_referee_replays_its_deals():
    keywords = dict(seed=5, contract="domino", policy=[LOWEST] + HEURISTIC3)
    rows = BARBU.simulate(deals=300, **keywords)
    assert rows.attrs["cardlab"]["policies"][0] == NAME
    replay = BARBU.replay(deal="0:300", **keywords)
    assert [r["scores"] for r in replay.records] == rows.filter(like="score_").values.tolist()
    assert not rows.equals(BARBU.simulate(deals=300, seed=5, contract="domino"))  # its own moves, not the heuristic's
    named = BARBU.simulate(deals=300, seed=5, contract="domino", policy=",".join([NAME] + HEURISTIC3))
    assert named.equals(rows)  # the command line's spelling


@pytest.mark.parametrize("player", [barbu_cards.lowest, {"card": barbu_cards.lowest,
                                                         "domino": barbu_cards.domino_heuristic}],
                         ids=["left-out", "returns-minus-one"])
def test_domino_left_out_or_minus_one_is_the_heuristics(player):
    keywords = dict(deals=300, seed=6, contract="domino", ace_replay_optional=True)
    assert BARBU.simulate(policy=[player] + HEURISTIC3, **keywords).equals(BARBU.simulate(**keywords))


def test_the_domino_function_may_decline_an_aces_extra_turn():
    keywords = dict(seed=7, contract="domino", ace_replay_optional=True)
    player = {"card": barbu_cards.lowest, "domino": barbu_cards.domino_declines}
    replay = BARBU.replay(deal="0:120", policy=[player] + HEURISTIC3, **keywords)
    declined = [a for r in replay.records for a in r["actions"] if a["kind"] == "decline"]
    assert declined and {a["seat"] for a in declined} == {0}


def test_an_illegal_domino_move_stops_the_run_in_one_line_and_leaves_no_file(tmp_path):
    out = tmp_path / "run.parquet"
    player = {"card": barbu_cards.lowest, "domino": barbu_cards.domino_illegal_late}
    with pytest.raises(ValueError) as e:
        BARBU.simulate(deals=200, seed=1, contract="domino", policy=[player] + HEURISTIC3, out=out)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith("policy: seat 0 (numba:tests.user_policies.barbu_cards.lowest+domino=") \
        and " returned 63 in deal " in message and message.endswith("which is not one of its legal moves there")
    assert not any(tmp_path.iterdir())
    with pytest.raises(ValueError, match=r"^policy: seat 0 \(numba:.*\) returned 63 in game \d+, "):
        BARBU.simulate_games(games=4, seed=1, policy=[player] + HEURISTIC3)


def test_domino_rows_do_not_depend_on_threads_or_chunks():
    keywords = dict(deals=2000, seed=2, contract="domino,no-hearts", policy=[LOWEST, "heuristic", LOWEST, "random"])
    assert BARBU.simulate(threads=1, chunk_size=300, **keywords).equals(BARBU.simulate(threads=2, **keywords))


def test_whole_games_play_the_domino_function_in_their_domino_deals_alone():
    games = BARBU.simulate_games(games=12, seed=3, policy=[LOWEST] + HEURISTIC3)
    card_only = BARBU.simulate_games(games=12, seed=3, policy=[barbu_cards.lowest] + HEURISTIC3)
    domino = (games["contract"] == "domino").to_numpy()
    assert games[~domino].equals(card_only[~domino])  # a fixed schedule: the other deals are the same
    assert not games[domino].equals(card_only[domino])


def test_a_numba_domino_seat_plays_beside_search_seats():
    keywords = dict(seed=4, contract="domino", policy=[LOWEST, "search", "heuristic", "heuristic"], search_worlds=4)
    rows = BARBU.simulate(deals=8, **keywords)
    replay = BARBU.replay(deal="0:8", **keywords)
    assert [r["scores"] for r in replay.records] == rows.filter(like="score_").values.tolist()
