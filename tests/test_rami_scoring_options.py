"""Issue 19 (Rami, first part): the never-opened surcharge, its cap and the target per opponent are options,
and each changes exactly the scores it names.

The kernels score a round with the integer options; the referee replaying each round's log rescores it with
``rules.round_scores`` from the options. The card values left in hand are not options yet (see the report of
issue 19): the meld search and the policies read them from one table.
"""
import numpy as np
import pytest

from cardlab.sim.rami.interface import RamiStudy as Study
from cardlab.sim.rami.rules import RamiOptions, game_over, round_scores
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


@pytest.mark.parametrize("rules", [dict(never_opened_surcharge=40), dict(never_opened_cap=60),
                                   dict(target_per_opponent=60, players=2)],
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
