"""Hearts for three and five players (``players=3`` or ``5``, issue #20): the kernels agree with the plain-Python
referee move for move on thousands of seeded deals, every card of the reduced deck is dealt and played once and
the points add up, the pass rotation and the lead card are the rules', the search and the step API work at those
tables, and a bad table size is one line naming the option, the value and what is allowed. Four players are the
other test files' (and the fingerprints')."""
from __future__ import annotations

import numpy as np
import pytest

from cardlab.sim.cards import card_name, parse_card
from cardlab.sim.cli import main
from cardlab.sim.hearts import HEARTS
from cardlab.sim.hearts.interface import checked_states
from cardlab.sim.hearts.referee import RefereeError, check_log
from tests.user_policies import hearts_cards

SIZES = (3, 5)
REMOVED = {3: {"2♦"}, 5: {"2♦", "2♣"}}
RULES = [dict(), dict(jd_bonus=True, avoid_all_tricks_bonus=True), dict(no_pts_on_first_trick=False,
                                                                        can_lead_any_club=True),
         dict(must_break_hearts=False), dict(qs_breaks_hearts=False, can_lead_hearts_instead_of_qs=True),
         dict(pass_direction="left"), dict(pass_direction="right"), dict(pass_cards=False),
         dict(moon_scoring="shooter_subtracts")]


def _tables(n):
    return [["heuristic"] * n, ["random"] * n, (["random", "heuristic"] * 3)[:n]]


def _ids(rules):
    return "-".join(f"{k}={v}" for k, v in rules.items()) or "defaults"


def _checked(n, policy, deals, seed, **rules):
    study = HEARTS.build("deals", seed=seed, policy=policy, players=n, **rules)
    cols = study.play(0, deals, record=True)
    return cols, checked_states(study, cols, range(deals))


@pytest.mark.parametrize("n", SIZES)
def test_the_referee_replays_thousands_of_kernel_deals(n):
    """2,000 seeded deals a table (heuristic, random, mixed), every move and score checked by the referee."""
    for table in _tables(n):
        _, states = _checked(n, table, 2000, seed=11)
        assert len(states) == 2000


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_every_card_of_the_reduced_deck_is_dealt_and_played_once_and_the_points_add_up(n, rules):
    """Three players hold 17 cards without the 2♦, five 10 without the 2♦ and 2♣; a deal's points are 26 (less
    the J♦'s 10, less 5 a trickless seat with those bonuses) or, with a moon, the moon's worth to every other seat
    (taken off the shooter when it subtracts); every heart and trick is taken."""
    cols, states = _checked(n, (["random", "heuristic"] * 3)[:n], 400, seed=5, **rules)
    deck = sorted(c for c in range(64) if c % 16 < 13 and card_name(c) not in REMOVED[n])
    for j, state in enumerate(states):
        assert [len(h) for h in state.dealt] == [len(deck) // n] * n
        assert sorted(state.deck_cards()) == deck
        assert sorted(c for _, t, _ in state.tricks for _, c in t) == deck
        assert all(len(t) == n for _, t, _ in state.tricks) and len(state.tricks) == len(deck) // n
        assert sum(len(p) for p in state.passed) == (3 * n if state.offset else 0)
        expected = 26 - (10 if rules.get("jd_bonus") else 0)
        if state.moon() >= 0:
            expected += -52 if rules.get("moon_scoring") == "shooter_subtracts" else 26 * (n - 2)
        elif rules.get("avoid_all_tricks_bonus"):
            expected -= 5 * sum(cols[f"tricks_{p}"][j] == 0 for p in range(n))
        assert sum(state.scores()) == expected
        assert sum(cols[f"hearts_{p}"][j] for p in range(n)) == 13
        assert sum(cols[f"tricks_{p}"][j] for p in range(n)) == len(deck) // n


@pytest.mark.parametrize("n,cycle,lead", [(3, [1, 2, 0], "2♣"), (5, [1, 4, 2, 3, 0], "3♣")])
def test_the_pass_rotation_has_one_entry_a_player_and_the_lowest_club_leads(n, cycle, lead):
    """Deal ``i`` passes by entry ``i % n`` of the rotation (3: left, right, none; 5: left, right, two left, two
    right, none: offsets, right is ``n - 1``); the first card is the lowest club dealt, from the seat the row
    names as leader; a moon costs every other seat 26."""
    df = HEARTS.simulate(deals=3000, seed=2, policy="random", players=n)
    assert df.pass_direction.tolist()[:2 * n] == cycle * 2
    assert sorted(set(df.leader.tolist())) == list(range(n))
    moon = df[df.moon >= 0]
    assert len(moon) > 0
    for row in moon.itertuples():
        points = [getattr(row, f"points_{p}") for p in range(n)]
        assert points[row.moon] == 0 and all(points[p] == 26 for p in range(n) if p != row.moon)
    replay = HEARTS.replay(deal="0:5", seed=2, policy="random", players=n)
    names = {0: "none", 1: "left", 2: "right"} if n == 3 else {0: "none", 1: "left", 2: "two left", 3: "two right",
                                                               4: "right"}
    for k, record in enumerate(replay.records):
        assert record["pass_direction"] == names[cycle[k % n]]
        plays = [a for a in record["actions"] if a["kind"] == "play"]
        assert plays[0]["card"] == lead and plays[0]["seat"] == int(df.leader[k])
    assert HEARTS.simulate(deals=n, seed=2, players=n, pass_direction="right").pass_direction.tolist() == [n - 1] * n


@pytest.mark.parametrize("n", SIZES)
def test_a_tampered_log_is_refused(n):
    study = HEARTS.build("deals", seed=1, players=n, pass_cards=False)
    cols = study.play(0, 1, record=True)
    log = cols["moves"][0].copy()
    first = 3 * n  # the plays start after the passes' room
    log[first], log[first + 1] = log[first + 1], log[first]  # the first card is no longer the lead card
    lead = "2♣" if n == 3 else "3♣"
    with pytest.raises(RefereeError, match=f"legal were {lead}"):
        check_log(study.options, 0, cols["hands"][0], log, offset=0)


@pytest.mark.parametrize("n", SIZES)
def test_whole_games_end_at_the_target_and_replay(n):
    games = HEARTS.simulate_games(games=40, seed=1, players=n)
    totals = games.groupby("game")[[f"total_{p}" for p in range(n)]].last()
    assert (totals.max(axis=1) >= 100).all() and f"total_{n}" not in games
    replay = HEARTS.replay_game(game="0:2", seed=1, players=n)
    assert {r["game"] for r in replay.records} == {0, 1} and all(len(r["totals"]) == n for r in replay.records)


@pytest.mark.parametrize("n", SIZES)
def test_the_passing_studys_heuristic_rule_is_the_plain_run(n):
    from cardlab.sim.hearts.passing import passing_study

    study = passing_study(HEARTS, deals=300, seed=6, pass_direction="left", players=n, threads=1, chunk_size=110)
    plain = HEARTS.simulate(deals=300, seed=6, pass_direction="left", players=n)
    seat = study.seat.to_numpy()
    assert (study.points_heuristic.to_numpy() == plain[[f"points_{p}" for p in range(n)]].to_numpy()[
        np.arange(300), seat]).all()
    assert sorted(set(seat.tolist())) == list(range(n))
    cycled = passing_study(HEARTS, deals=4 * n * (n - 1), seed=6, players=n)
    assert sorted(set(cycled.pass_direction.tolist())) == list(range(1, n))


@pytest.mark.parametrize("n", SIZES)
def test_the_numba_seat_plays_as_its_python_twin(n):
    table = [hearts_cards.lowest] + ["heuristic", "random", "heuristic", "random"][:n - 1]
    numba = HEARTS.simulate(deals=200, seed=8, policy=table, pass_cards=False, players=n)
    python = HEARTS.simulate(deals=200, seed=8, policy=[hearts_cards.lowest_in_python] + table[1:], pass_cards=False,
                             players=n)
    assert numba.equals(python[numba.columns])


@pytest.mark.parametrize("n", SIZES)
def test_search_seats_in_the_step_api_play_the_kernels_moves(n):
    """With search and oracle seats the state gives the search kernel's rows exactly; the search's rows do not
    depend on threads or chunks."""
    from cardlab.sim.python_seats import play_columns
    from cardlab.sim.runner import to_frame

    policy = ["search", "heuristic", "oracle", "random", "heuristic"][:n]
    study = HEARTS.build("deals", seed=9, policy=policy, search_worlds=6, players=n)
    kernel = to_frame(study.play(0, 2 * n))
    state = to_frame(play_columns(study, 0, 2 * n))
    assert state.equals(kernel[list(state.columns)])
    a = HEARTS.simulate(deals=6, seed=5, policy=policy, search_worlds=3, players=n, threads=1)
    assert a.equals(HEARTS.simulate(deals=6, seed=5, policy=policy, search_worlds=3, players=n, threads=2,
                                    chunk_size=4))


@pytest.mark.parametrize("n", SIZES)
def test_the_step_api_passes_then_plays_and_names_the_rules_broken(n):
    state = HEARTS.state(seed=3, deal=0, players=n)
    assert state.observation(0)["pass_direction"] == "left" and len(state.observation(0)["hand_sizes"]) == n
    while state.passing:
        state.apply(state.legal_actions()[0])
    lead = parse_card("2♣" if n == 3 else "3♣")
    assert [a.id for a in state.legal_actions()] == [lead] and lead in state.hands[state.current_player]
    other = next(c for c in sorted(state.hands[state.current_player]) if c != lead)
    assert "leads the first trick" in state.why_illegal(other) and card_name(lead) in state.why_illegal(other)


def _cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("argv,message", [
    (["--players", "6"], "--players: 6 is not allowed; use an integer from 3 to 5"),
    (["--players", "2"], "--players: 2 is not allowed; use an integer from 3 to 5"),
    (["--players", "3", "--pass-direction", "across"],
     "--pass-direction: 'across' is not allowed with 3 players; choose cycle, left or right"),
    (["--players", "5", "--policy", "heuristic,random,random,heuristic"], "policy"),
])
def test_a_bad_table_is_one_line_and_leaves_no_file(tmp_path, capsys, argv, message):
    out = tmp_path / "x.parquet"
    code, _, err = _cli(capsys, "simulate", "hearts", "--deals", 5, *argv, "--out", out)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError):
        HEARTS.make_options(players=6)


@pytest.mark.slow
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_the_referee_replays_thousands_of_deals_under_every_option(n, rules):
    for table in _tables(n):
        _checked(n, table, 2000, seed=13, **rules)


@pytest.mark.parametrize("n", SIZES)
def test_records_of_three_and_five_validate_against_the_schema(n):
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(HEARTS.record_schema())
    policy = ["search"] + ["heuristic"] * (n - 1)
    records = HEARTS.replay(deal="0:3", seed=3, players=n, policy=policy, search_worlds=2).records
    records += HEARTS.replay_game(game="0:1", seed=3, players=n).records
    for record in records:
        validator.validate(record)
        assert len(record["hands"]) == n and len(record["scores"]) == n


@pytest.mark.parametrize("n,names", [(3, ["none", "left", "right"]),
                                     (5, ["none", "left", "two left", "two right", "right"])])
def test_the_reports_read_the_table_size_from_the_columns(n, names):
    from cardlab import analysis

    df = HEARTS.simulate(deals=500, seed=7, players=n)
    assert analysis.hearts.by_position(df)["position"].tolist() == list(range(1, n + 1))
    assert analysis.hearts.by_pass_direction(df).index.tolist() == names
    games = HEARTS.simulate_games(games=10, seed=7, players=n)
    assert analysis.hearts.seat_results(games).index.tolist() == list(range(n))
    assert "by pass direction" in analysis.hearts.format_deal_report(df)
