"""Issue 19: the whole §6 table of Euchre for five is options, and each value changes exactly the hands it names.

The kernels score with the rule array; the referee rescoring every recorded hand reads the options. With
random play (the same cards whatever the table) a changed value rescores exactly the hands of its row of the
table and no other; with the heuristic and in whole games the referee still agrees.
"""
import numpy as np
import pytest

from cardlab.sim.euchre5 import Study
from cardlab.sim.euchre5.interface import check_rows
from cardlab.sim.euchre5.referee import check_game
from cardlab.sim.euchre5.rules import ALONE_BY_CHOICE, FORCED_ALONE, PARTNERED, Euchre5Options, hand_points

HANDS = 600
#: option, a changed value, which hands it scores: (alone kinds, the makers' tricks). Random makers seldom take five
#: tricks alone: those rows are played by the heuristic, whose bids and cards read hand strength, not the table.
CHANGES = [
    ("maker_points", 3, ((PARTNERED,), (3, 4))),
    ("march_points", 5, ((PARTNERED,), (5,))),
    ("alone_points", 2, ((ALONE_BY_CHOICE, FORCED_ALONE), (3, 4))),
    ("lone_march_points", 4, ((ALONE_BY_CHOICE,), (5,)), "heuristic"),
    ("forced_alone_march_points", 5, ((FORCED_ALONE,), (5,)), "heuristic"),
    ("defender_points", (3, 4), ((PARTNERED, ALONE_BY_CHOICE, FORCED_ALONE), (1, 2))),
    ("defender_points", (2, 7), ((PARTNERED, ALONE_BY_CHOICE, FORCED_ALONE), (0,))),
]


def test_the_defaults_are_the_table_of_section_6():
    o = Euchre5Options()
    table = {(alone, tricks): hand_points(o, alone, tricks) for alone in range(3) for tricks in range(6)}
    assert [table[(PARTNERED, t)] for t in range(6)] == [(0, 4), (0, 2), (0, 2), (1, 0), (1, 0), (2, 0)]
    assert [table[(ALONE_BY_CHOICE, t)] for t in (3, 5)] == [(1, 0), (2, 0)]
    assert [table[(FORCED_ALONE, t)] for t in (4, 5)] == [(1, 0), (2, 0)]
    assert o.target == 10


@pytest.mark.parametrize("name,value,where,policy", [c if len(c) == 4 else (*c, "random") for c in CHANGES],
                         ids=[f"{c[0]}={c[1]}" for c in CHANGES])
def test_a_changed_value_rescores_only_its_hands(name, value, where, policy):
    hands = HANDS if policy == "random" else 2000
    base = Study.build(policy=policy, seed=41).play(0, hands, record=True)
    study = Study.build(policy=policy, seed=41, **{name: value})
    cols = study.play(0, hands, record=True)
    check_rows(study.options, cols)  # the referee, rescoring from the options, agrees with the kernel
    assert (cols["moves"] == base["moves"]).all()
    kinds, tricks = where
    named = np.isin(cols["alone"], kinds) & np.isin(cols["maker_tricks"], tricks) & (cols["maker"] >= 0)
    changed = np.any([cols[f"score_{p}"] != base[f"score_{p}"] for p in range(5)], axis=0)
    assert named.any() and (changed == named).all()


@pytest.mark.parametrize("policy", ["heuristic", "heuristic,random,random,heuristic,random"])
def test_the_referee_agrees_under_another_table(policy):
    study = Study.build(policy=policy, seed=43, maker_points=2, march_points=4, alone_points=3, lone_march_points=5,
                        defender_points=(1, 3), call_before_exchange=True)
    check_rows(study.options, study.play(0, HANDS, record=True))


def test_whole_games_end_at_the_target_under_another_table():
    study = Study.build(seed=47, maker_points=2, march_points=6, alone_points=3, target=15)
    games = 30
    cols = study.play_games(0, games, record=True)
    hands = check_rows(study.options, cols)
    start = 0
    for g in range(games):
        n = int((cols["game"] == g).sum())
        verdict = check_game(study.options, hands[start].dealer, hands[start:start + n])
        assert max(verdict["totals"]) >= 15
        start += n


@pytest.mark.parametrize("rules,message", [
    (dict(maker_points=0), "maker_points: 0 is not allowed; use an integer from 1 to 20"),
    (dict(march_points=21), "march_points: 21 is not allowed; use an integer from 1 to 20"),
    (dict(alone_points=True), "alone_points: True is not allowed"),
])
def test_bad_values_are_refused(rules, message):
    with pytest.raises(ValueError) as error:
        Study.build(**rules)
    assert message in str(error.value) and "\n" not in str(error.value)
