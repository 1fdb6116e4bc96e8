"""Issue 19 (Rami): the never-opened surcharge, its cap, the target per opponent and the card values left in
hand (joker, ace, faces, pips) are options, and each changes exactly the scores it names.

The kernels score a round with the integer options (the card values are their last 53 entries); the referee
replaying each round's log rescores it with ``rules.round_scores`` and ``rules.hand_value`` from the options.
The card values also steer the play: which melds the meld search lays (the most hand value), the heuristic's
discards and the search's shortlist; the opening count (meld points) does not read them.
"""
import numpy as np
import pytest

from cardlab.sim.rami.interface import RamiStudy as Study
from cardlab.sim.rami.melds import MODE_HAND, MODE_MELD
from cardlab.sim.rami.referee import dealt_state, play_log
from cardlab.sim.rami.rules import HAND_VALUE, JOKER, OPT, RamiOptions, game_over, hand_value, round_scores
from test_rami_melds import brute, random_hand, search
from test_rami_referee import check

ROUNDS = 120


def seat_scores(cols, players):
    return np.stack([cols[f"score_{p}"] for p in range(players)], 1).astype(int)


def test_the_defaults_are_the_seeds_values():
    o = RamiOptions(players=2)
    assert (o.never_opened_surcharge, o.never_opened_cap, o.target_per_opponent) == (25, 100, 100)
    assert o.target == 100 and o.never_opened_limit == 50  # min(100, half the target)
    assert RamiOptions(players=4).target == 300 and RamiOptions(players=4).never_opened_limit == 100


def test_round_scores_read_the_options():
    o = RamiOptions(players=3, never_opened_surcharge=10, never_opened_cap=60)
    assert round_scores(o, [True, False, False], [True, True, False], [0, 40, 45], False) == [0, 40, 55]
    assert round_scores(o, [True, False, False], [True, True, False], [0, 40, 80], False) == [0, 40, 60]
    low_target = RamiOptions(players=3, target_per_opponent=40)  # the cap: half of 80
    assert round_scores(low_target, [True, False, False], [True, False, False], [0, 70, 5], False) == [0, 40, 30]
    assert game_over([80, 10, 20], 3, 40) and not game_over([79, 10, 20], 3, 40)


@pytest.mark.parametrize("rules", [dict(never_opened_surcharge=40),
                                   pytest.param(dict(never_opened_cap=60), marks=pytest.mark.slow),
                                   pytest.param(dict(target_per_opponent=60, players=2), marks=pytest.mark.slow)],
                         ids=["surcharge", "cap", "target"])
def test_a_changed_value_rescores_only_never_opened_losers(rules):
    """Random play (the same moves whatever the values): the referee agrees, and only the scores of losers who
    never opened change."""
    players = rules.get("players", 4)
    base = Study.build(policy="random", seed=61, players=players).play(0, ROUNDS, record=True)
    study = Study.build(policy="random", seed=61, **rules)
    cols = check(study, ROUNDS)
    for name in ("logs", "decks"):
        assert (cols[name] == base[name]).all()
    won = np.stack([cols[f"won_{p}"] for p in range(players)], 1)
    opened = np.stack([cols[f"opened_{p}"] for p in range(players)], 1)
    never_opened = ~won & ~opened & ~cols["rami_sec"][:, None]
    changed = seat_scores(cols, players) != seat_scores(base, players)
    assert changed.any() and not changed[~never_opened].any()


def test_whole_games_end_at_the_target_in_force():
    study = Study.build(seed=67, players=3, target_per_opponent=60, never_opened_surcharge=5)
    cols = study.play_games(0, 12)
    totals = cols["total_0"], cols["total_1"], cols["total_2"]
    last = np.r_[cols["game"][1:] != cols["game"][:-1], True]
    ends = np.stack([t[last] for t in totals], 1)
    assert all(game_over(row, 3, 60) for row in ends)


@pytest.mark.parametrize("rules,message", [
    (dict(never_opened_surcharge=-1), "never_opened_surcharge: -1 is not allowed; use an integer from 0 to 1000"),
    (dict(target_per_opponent=0), "target_per_opponent: 0 is not allowed; use an integer from 1 to 10000"),
])
def test_bad_values_are_refused(rules, message):
    with pytest.raises(ValueError) as error:
        Study.build(**rules)
    assert message in str(error.value) and "\n" not in str(error.value)


# ------------------------------------------------------------------ the card values left in hand

CARD_VALUES = {"joker_value": 50, "ace_value": 1, "face_value": 5, "pip_value": 3}


def test_the_card_values_default_to_the_seeds_table():
    o = RamiOptions()
    assert (o.joker_value, o.ace_value, o.face_value, o.pip_value) == (20, 11, 10, None)
    assert (o.card_values == HAND_VALUE).all() and (o.kernel_ints()[OPT.card_values:] == HAND_VALUE).all()
    changed = RamiOptions(**CARD_VALUES).card_values
    assert list(changed[:13]) == [1] + [3] * 9 + [5] * 3 and (changed[:52].reshape(4, 13) == changed[:13]).all()
    assert changed[JOKER] == 50
    assert list(RamiOptions(pip_value=None, ace_value=2).card_values[:13]) == [2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10,
                                                                                10]


@pytest.mark.parametrize("jmax", [1, 2])
def test_the_meld_search_is_exact_under_other_card_values(jmax):
    """The hand mode maximises the value melded by the values given (brute force agrees); the meld mode (the
    opening count) does not read them."""
    rng = np.random.default_rng(90 + jmax)
    for trial in range(40):
        values = RamiOptions(joker_value=int(rng.integers(1, 101)), ace_value=int(rng.integers(1, 101)),
                             face_value=int(rng.integers(1, 101)), pip_value=int(rng.integers(1, 101))).card_values
        hand = random_hand(rng, int(rng.integers(6, 9)))
        for case in (dict(mode=MODE_HAND), dict(mode=MODE_HAND, min_left=1), dict(mode=MODE_HAND, min_jokers=1)):
            assert search(hand, jmax=jmax, values=values, **case) == brute(hand, jmax=jmax, values=values, **case)
        assert search(hand, MODE_MELD, jmax=jmax, values=values) == search(hand, MODE_MELD, jmax=jmax)


@pytest.mark.parametrize("policy,players", [("heuristic", 4), ("random", 3), ("heuristic,random,heuristic", 3)])
def test_the_referee_rescores_the_card_values_as_the_kernels_do(policy, players):
    """A few hundred seeded rounds under changed card values: the referee, replaying each log and scoring the
    hands left by the options' values, agrees with the kernels' H and scores."""
    study = Study.build(policy=policy, seed=71, players=players, **CARD_VALUES)
    cols = check(study, 100)
    assert (cols["hand_value_0"] > 0).any()


def hands_left(options, cols, i):
    log = cols["logs"][i][: cols["log_rows"][i]]
    state = dealt_state(options, int(cols["dealer"][i]), cols["decks"][i], log)
    play_log(state, log)
    return state.hands


@pytest.mark.parametrize("name,value", [("joker_value", 50)] + [pytest.param(*v, marks=pytest.mark.slow) for v in (
    ("ace_value", 1), ("face_value", 25), ("pip_value", 5))])
def test_a_changed_card_value_rescores_only_the_cards_it_names(name, value):
    """Random play: rounds whose moves are unchanged (the value steers only which melds the meld search picks,
    so most are) keep every column but H, the scores and a blocked round's winners, and H is the hand left by
    the new values, changing only where named cards are left. Rounds whose melds differ are still scored right (the referee agrees)."""
    players = 3
    base_study = Study.build(policy="random", seed=73, players=players)
    base = base_study.play(0, ROUNDS, record=True)
    study = Study.build(policy="random", seed=73, players=players, **{name: value})
    cols = check(study, ROUNDS)
    same = np.array([(cols["logs"][i] == base["logs"][i]).all() for i in range(ROUNDS)])
    assert same.mean() > 0.5
    changed_h = 0
    for i in np.flatnonzero(same):
        hands = hands_left(base_study.options, base, i)
        for p in range(players):
            assert cols[f"hand_value_{p}"][i] == hand_value(hands[p], study.options.card_values)
            assert base[f"hand_value_{p}"][i] == hand_value(hands[p])
            named = np.asarray(study.options.card_values != HAND_VALUE, np.int64) @ np.asarray(hands[p], np.int64)
            differs = cols[f"hand_value_{p}"][i] != base[f"hand_value_{p}"][i]
            assert named > 0 or not differs  # (pips changed both ways may also cancel out)
            changed_h += differs
        for column in ("turns", "blocked", "rami_sec") + tuple(f"opened_{p}" for p in range(players)):
            assert cols[column][i] == base[column][i]
        if not base["blocked"][i]:  # a blocked round goes to the lowest H, which the values may move
            assert all(cols[f"won_{p}"][i] == base[f"won_{p}"][i] for p in range(players))
    assert changed_h > 0


def test_the_heuristic_adapts_its_discards_to_the_card_values():
    """The heuristic discards its costliest loose card: with aces cheap and pips dear the play changes."""
    base = Study.build(seed=79).play(0, 40, record=True)
    cols = Study.build(seed=79, ace_value=1, pip_value=30).play(0, 40, record=True)
    assert any((cols["logs"][i] != base["logs"][i]).any() for i in range(40))


@pytest.mark.parametrize("rules,message", [
    (dict(joker_value=0), "joker_value: 0 is not allowed; use an integer from 1 to 100"),
    (dict(ace_value=101), "ace_value: 101 is not allowed; use an integer from 1 to 100"),
    (dict(face_value="10"), "face_value: '10' is not allowed; use an integer from 1 to 100"),
    (dict(pip_value=0), "pip_value: 0 is not allowed; use an integer from 1 to 100"),
    (dict(pip_value=2.5), "pip_value: 2.5 is not allowed; use an integer from 1 to 100"),
])
def test_bad_card_values_are_refused(rules, message):
    with pytest.raises(ValueError) as error:
        Study.build(**rules)
    assert message in str(error.value) and "\n" not in str(error.value)
