"""Hearts: the kernels agree with the plain-Python referee move for move and point for point under every option,
the deal's invariants hold, the search decides only from what its seat may know, and a Numba seat plays as its
Python twin. (OpenSpiel's engine checks the referee in tests/test_hearts_openspiel.py; the registry-wide suites
cover the facade, the command line, records, whole games and the step API.)"""
from __future__ import annotations

import numpy as np
import pytest

from cardlab.sim.hearts import HEARTS
from cardlab.sim.hearts.interface import checked_states
from cardlab.sim.hearts.referee import HeartsState, RefereeError, check_log
from cardlab.sim.cards import card_name
from cardlab.sim.hearts.state_policies import searched_move
from tests.search_checks import hidden_cards_checked
from tests.user_policies import hearts_cards

#: Option sets covering every rule option at a value other than its default.
RULES = [dict(), dict(jd_bonus=True, avoid_all_tricks_bonus=True), dict(no_pts_on_first_trick=False,
                                                                        can_lead_any_club=True),
         dict(must_break_hearts=False), dict(qs_breaks_hearts=False, can_lead_hearts_instead_of_qs=True),
         dict(pass_direction="left"), dict(pass_direction="right"), dict(pass_direction="across"),
         dict(pass_cards=False), dict(moon_scoring="shooter_subtracts")]
TABLES = [["heuristic"] * 4, ["random"] * 4, ["random", "heuristic", "random", "heuristic"]]


def _ids(rules):
    return "-".join(f"{k}={v}" for k, v in rules.items()) or "defaults"


def _referee_agrees(rules: dict, policy, deals: int, seed: int) -> list:
    study = HEARTS.build("deals", seed=seed, policy=policy, **rules)
    cols = study.play(0, deals, record=True)
    return checked_states(study, cols, range(deals))


@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_the_referee_replays_every_kernel_deal_and_rescores_it(rules):
    for table in TABLES:
        states = _referee_agrees(rules, table, 300, seed=3)
        assert len(states) == 300


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_the_referee_replays_thousands_of_kernel_deals(rules):
    for table in TABLES:
        _referee_agrees(rules, table, 2000, seed=11)


@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_every_card_is_dealt_and_played_once_and_the_points_add_up(rules):
    """Every card once in the hands and in the play; the points of a deal: 26 (less 10 with the J♦ bonus, less 5 a
    trickless seat with that bonus) or, with a moon, 52 more (52 less when the shooter subtracts)."""
    study = HEARTS.build("deals", seed=5, policy=["random", "heuristic", "random", "heuristic"], **rules)
    cols = study.play(0, 500, record=True)
    for j, state in enumerate(checked_states(study, cols, range(500))):
        assert sorted(c for _, t, _ in state.tricks for _, c in t) == sorted(state.deck_cards())
        assert sum(len(p) for p in state.passed) == (12 if state.offset else 0)
        expected = 26 - (10 if rules.get("jd_bonus") else 0)
        if state.moon() >= 0:
            expected += -52 if rules.get("moon_scoring") == "shooter_subtracts" else 52
        elif rules.get("avoid_all_tricks_bonus"):
            expected -= 5 * sum(cols[f"tricks_{p}"][j] == 0 for p in range(4))
        assert sum(state.scores()) == expected
        assert sum(cols[f"hearts_{p}"][j] for p in range(4)) == 13
        assert sum(cols[f"tricks_{p}"][j] for p in range(4)) == 13


def test_a_tampered_log_is_refused_with_the_seat_and_the_legal_cards():
    study = HEARTS.build("deals", seed=1)
    cols = study.play(0, 1, record=True)
    log = cols["moves"][0].copy()
    log[12], log[13] = log[13], log[12]  # the first card is no longer the 2♣
    with pytest.raises(RefereeError, match="legal were 2♣"):
        check_log(study.options, 0, cols["hands"][0], log, offset=int(cols["pass_direction"][0]))


def test_deals_cycle_the_pass_direction_and_the_moon_scores_as_openspiel():
    df = HEARTS.simulate(deals=4000, seed=2, policy="random")
    assert df.pass_direction.tolist()[:8] == [1, 3, 2, 0, 1, 3, 2, 0]
    moon = df[df.moon >= 0]
    assert len(moon) > 0
    for row in moon.itertuples():
        points = [getattr(row, f"points_{p}") for p in range(4)]
        assert points[row.moon] == 0 and all(points[p] == 26 for p in range(4) if p != row.moon)


def test_a_shooter_who_subtracts_scores_the_moon_off_its_own_points_and_nothing_else_changes():
    """The same deals under both moon scorings: the play is the same, and on a moon every seat's points differ by
    the moon's worth (the shooter -26 against 0, each other seat its cards' 0 against 26)."""
    add = HEARTS.simulate(deals=4000, seed=2, policy="random")
    subtract = HEARTS.simulate(deals=4000, seed=2, policy="random", moon_scoring="shooter_subtracts")
    points = [f"points_{p}" for p in range(4)]
    assert add.drop(columns=points).equals(subtract.drop(columns=points))
    moon = add.moon.to_numpy() >= 0
    assert moon.sum() > 0 and (add.loc[~moon, points].to_numpy() == subtract.loc[~moon, points].to_numpy()).all()
    assert ((add.loc[moon, points].to_numpy() - subtract.loc[moon, points].to_numpy()) == 26).all()
    assert (subtract.loc[moon, points].to_numpy().min(axis=1) == -26).all()


def test_the_numba_seat_plays_as_its_python_twin_on_deals_without_passing():
    table = [hearts_cards.lowest, "heuristic", "random", "heuristic"]
    numba = HEARTS.simulate(deals=300, seed=8, policy=table, pass_cards=False)
    python = HEARTS.simulate(deals=300, seed=8, policy=[hearts_cards.lowest_in_python] + table[1:], pass_cards=False)
    assert numba.equals(python[numba.columns])


def _decisions(policy, deals=range(6), players=4, **rules):
    """Every card decision with a choice of seat 0 playing ``policy`` among heuristic seats: the state."""
    worlds = {"search_worlds": 8} if policy == "search" else {}
    study = HEARTS.build("deals", seed=4, policy=[policy] + ["heuristic"] * (players - 1), players=players, **worlds,
                         **rules)
    for deal in deals:
        state = HEARTS.new_state(study, deal)
        while not state.is_over:
            if state.current_player == 0 and not state.passing and len(state.legal_actions()) > 1:
                yield state
            state.apply(state.policy_action(study.policies[state.current_player]))


def test_search_seats_in_the_step_api_play_the_kernels_moves():
    """A deal played through the state with search seats gives the search kernel's rows exactly."""
    from cardlab.sim.python_seats import play_columns
    from cardlab.sim.runner import to_frame

    study = HEARTS.build("deals", seed=9, policy=["search", "heuristic", "oracle", "random"], search_worlds=6)
    kernel = to_frame(study.play(0, 40))
    state = to_frame(play_columns(study, 0, 40))
    assert state.equals(kernel[list(state.columns)])


@pytest.mark.parametrize("players,deals,least", [(4, range(6), 30), (3, range(3), 15), (5, range(3), 15)])
def test_hidden_cards_never_change_the_search_decision(players, deals, least):
    """At every searched card, a deal redealt consistently with the seat's view (its hidden cards moved: voids, the
    cards it passed and the lead card with the first leader respected) gives the same card and the same candidate
    means; the oracle, which sees the deal, does not."""
    checked, differ = hidden_cards_checked(_decisions("search", deals, players), searched_move)
    assert checked > least and differ > 0


@pytest.mark.parametrize("players,deals", [(4, range(3)), (3, range(2)), (5, range(2))])
def test_resampled_deals_keep_the_observation_and_every_rule(players, deals):
    """A resample keeps the seat's view, moves only cards hidden from it, and replays legally from its deal."""
    rng = np.random.default_rng(1)
    for state in _decisions("heuristic", deals, players, can_lead_any_club=True):
        for seat in range(players):
            other = state.resample(seat, rng)
            assert other.observation(seat) == state.observation(seat)
            replay = HeartsState(state.options, other.dealt, deal=state.deal, offset=state.offset)
            for entry in other.entries:
                replay.apply(entry)
            assert replay.hands == other.hands
            known = set(state.passed[seat]) | set(state.hands[seat])
            moved = {c for p in range(players) for c in state.hands[p] ^ other.hands[p]}
            assert not moved & known


def test_search_beats_the_heuristic_and_the_hint_names_the_candidates():
    df = HEARTS.simulate(deals=400, seed=3, policy=["search", "heuristic", "heuristic", "heuristic"], search_worlds=16)
    base = HEARTS.simulate(deals=400, seed=3, policy="heuristic")
    assert df.points_0.mean() < base.points_0.mean() - 1
    state = next(_decisions("search"))
    hint = state.search_means(8)
    assert set(hint) == {a.id for a in state.legal_actions()}
    assert all(card_name(c)[-1] in "♣♦♥♠" for c in hint)


def test_the_passing_studys_heuristic_rule_is_the_plain_run_and_every_rule_is_paired():
    """With one pass direction, the studied seat's heuristic pass gives the plain run's points on the same deal;
    the rows do not depend on threads or chunks; the study refuses a table without passing."""
    from cardlab.sim.hearts.passing import passing_study

    study = passing_study(HEARTS, deals=400, seed=6, pass_direction="left", threads=1, chunk_size=150)
    plain = HEARTS.simulate(deals=400, seed=6, pass_direction="left")
    seat = study.seat.to_numpy()
    assert (study.points_heuristic.to_numpy() == plain[[f"points_{p}" for p in range(4)]].to_numpy()[
        np.arange(400), seat]).all()
    assert study.equals(passing_study(HEARTS, deals=400, seed=6, pass_direction="left", threads=2))
    assert (study.pass_direction == 1).all() and sorted(set(seat.tolist())) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="^pass_cards: False leaves nothing to study"):
        passing_study(HEARTS, deals=10, pass_cards=False)


def test_each_pass_rule_passes_the_cards_it_names():
    from cardlab.sim.cards import mask_of, parse_card
    from cardlab.sim.hearts.kernels import pass_choice_nb
    from cardlab.sim.hearts.rules import PASS_RULES

    hand = np.uint64(mask_of(parse_card(c) for c in "2♣ 3♣ 9♣ K♦ A♦ 4♥ Q♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠".split()))

    def passed(rule):
        chosen, out = np.uint64(0), []
        for k in range(3):
            _, c = pass_choice_nb(PASS_RULES.index(rule), hand, chosen, k, np.uint64(1))
            chosen |= np.uint64(1) << np.uint64(c)
            out.append(card_name(c))
        return out

    assert passed("heuristic") == ["Q♠", "A♦", "K♦"]
    assert passed("highest") == ["A♦", "K♦", "Q♠"]
    assert passed("lowest") == ["2♣", "3♣", "4♥"]
    assert passed("shortest") == ["4♥", "A♦", "K♦"]
