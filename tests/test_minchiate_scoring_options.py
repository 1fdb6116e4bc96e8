"""Issue 19: every Minchiate scoring value is an option, and each changes exactly the scores it names.

The kernels read the values from the options array; the plain-Python referee replaying each deal's log
rescores it from the options. On seeded deals the two agree under every changed value; with random play
(the same cards whatever the values) a changed value moves only the point sources it names, and the resti
that follow from the points.
"""
import numpy as np
import pytest

from cardlab.sim.minchiate import Study
from cardlab.sim.minchiate.kernels import LOG_PLAYS
from cardlab.sim.minchiate.rules import CARD_VALUES, SOURCES, MinchiateOptions, trump
from test_minchiate_referee import referee_rows

DEALS = 200
CARD_SOURCES = {"draws", "exposed", "declarations", "captures", "card_points", "pile_combos"}
COMBO_SOURCES = {"declarations", "pile_combos"}
#: option, a changed value, the point sources it names.
CHANGES = [
    ("top_trumps", 12, CARD_SOURCES),
    ("mid_trumps", 4, CARD_SOURCES),
    ("low_trumps", 1, CARD_SOURCES),
    ("matto_points", 8, CARD_SOURCES),
    ("king_points", 7, CARD_SOURCES),
    ("combo_29", 9, COMBO_SOURCES),
    ("matto_bonus", 2, COMBO_SOURCES),
    ("beyond_42", 3, {"beyond42"}),
    ("last_trick", 25, {"last_trick"}),
    ("resto_unit", 45, set()),
]
#: Columns that follow from the points whatever moved them.
TOTALS = {"points_0", "points_1", "resti_0", "resti_1", "net_resti", "max_delta"}
DECLARED_VALUES = {"declared"} | {f"declared_{kind}_value" for kind in ("R1", "R2", "C3", "C4", "C5", "C6")}


def changed_columns(base: dict, other: dict) -> set:
    return {name for name in base if name != "logs" and not np.array_equal(base[name], other[name])}


def test_the_defaults_are_the_seeds_values():
    o = MinchiateOptions()
    assert (o.card_points() == CARD_VALUES).all() and int(o.card_points().sum()) == 142
    assert o.combo_points()[trump(29)] == 5 and o.card_points()[trump(29)] == 0
    assert (o.last_trick, o.beyond_42, o.resto_unit, o.matto_bonus) == (10, 1, 60, 5)
    assert [int(o.card_points()[trump(n)]) for n in (40, 36, 35, 28, 20, 13, 10, 1, 5, 2, 29, 21)] == \
        [10, 10, 5, 5, 5, 5, 5, 5, 3, 3, 0, 0]


@pytest.mark.parametrize("name,value,sources", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_value_moves_only_the_points_it_names(name, value, sources):
    base_study = Study.build(policy="random", seed=31)
    study = Study.build(policy="random", seed=31, **{name: value})
    base = base_study.play(0, DEALS, record=True)
    cols = study.play(0, DEALS, record=True)
    assert (base["logs"] == cols["logs"]).all()  # random play: the same cards
    named = {f"{s}_{t}" for s in sources for t in range(2)}
    allowed = named | TOTALS | (DECLARED_VALUES if sources & COMBO_SOURCES else set())
    changed = changed_columns(base, cols)
    assert changed <= allowed and changed & (named or TOTALS), sorted(changed)
    referee_rows(study, 0, DEALS)


def test_bonuses_scale_exactly():
    base = Study.build(policy="random", seed=5).play(0, DEALS)
    cols = Study.build(policy="random", seed=5, last_trick=25, beyond_42=3).play(0, DEALS)
    for t in range(2):
        assert (cols[f"last_trick_{t}"] * 10 == base[f"last_trick_{t}"] * 25).all()
        assert (cols[f"beyond42_{t}"] == 3 * base[f"beyond42_{t}"]).all()


def test_the_resto_unit_divides_the_same_points():
    """Only the resti change with the unit: the net resti stay within one of the points difference over it."""
    cols = Study.build(seed=8, resto_unit=20).play(0, DEALS)
    base = Study.build(seed=8).play(0, DEALS)
    for s in SOURCES:
        assert (cols[f"{s}_0"] == base[f"{s}_0"]).all()
    diff = cols["points_0"].astype(int) - cols["points_1"].astype(int)
    assert (np.abs(cols["net_resti"] - diff / 20) < 1).all() and (cols["max_delta"] < 20).all()


@pytest.mark.parametrize("rules", [dict(king_points=20, top_trumps=2, combo_29=0, last_trick=0),
                                   dict(mid_trumps=9, matto_bonus=12, resto_unit=100, c5_merge=False,
                                        combos_may_share=False, discards_to="own_team_pile"),
                                   dict(low_trumps=8, matto_points=1, beyond_42=0, expose_last_cards="all_four",
                                        matto_bonus_on_c3=True)])
def test_the_heuristic_follows_the_values_and_the_referee_agrees(rules):
    base = Study.build(seed=13).play(0, DEALS, record=True)
    study = Study.build(seed=13, **rules)
    cols = study.play(0, DEALS, record=True)
    referee_rows(study, 0, DEALS)
    if "king_points" in rules:  # Kings worth 20: the heuristic smears and saves other cards
        assert (base["logs"][:, LOG_PLAYS:] != cols["logs"][:, LOG_PLAYS:]).any(axis=1).sum() > DEALS // 10


@pytest.mark.parametrize("rules,message", [
    (dict(top_trumps=0), "top_trumps: 0 is not allowed; use an integer from 1 to 30"),
    (dict(resto_unit=0), "resto_unit: 0 is not allowed; use an integer from 1 to 600"),
    (dict(last_trick="10"), "last_trick: '10' is not allowed"),
])
def test_bad_values_are_refused(rules, message):
    with pytest.raises(ValueError) as error:
        Study.build(**rules)
    assert message in str(error.value) and "\n" not in str(error.value)
