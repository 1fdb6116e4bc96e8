"""Issue 19: every §3 scoring value of Barbu is an option, and each changes exactly the scores it names.

The kernels score with the tables of ``sim.barbu.rules.scoring_tables``; the plain-Python referee rescoring
each deal from its move log reads the same options. On seeded deals the two agree under every changed value,
the rows of the contracts an option does not name are identical to the default run's (same deals, same
play), and with random play a changed item scales its own contract's scores exactly.
"""
import numpy as np
import pytest

from cardlab.sim.barbu import BARBU, BarbuOptions, GameStudy, Study
from cardlab.sim.barbu.game_referee import check_any_deal, check_game, game_deals
from cardlab.sim.barbu.rules import ALL_CONTRACTS, VALUES, contract_total, item_values

SALADES = ("salade", "anti-salade")
#: option, a changed value, the contracts whose scores it names.
CHANGES = [
    ("trick", -3, ("no-tricks",) + SALADES),
    ("heart", -2, ("no-hearts",) + SALADES),
    ("ace_hearts", -9, ("no-hearts",) + SALADES),
    ("queen", -4, ("no-queens",) + SALADES),
    ("king_hearts", -15, ("no-barbu",) + SALADES),
    ("second_last", -1, ("last-two",)),
    ("last", -11, ("last-two",)),
    ("trumps_trick", 4, ("trumps",)),
    ("salade_factor", 2, ("salade",)),
    ("anti_salade_factor", 3, ("anti-salade",)),
]
DEALS_PER_CONTRACT = 40


def played(rules: dict, policy: str, deals_per_contract: int = DEALS_PER_CONTRACT, seed: int = 19):
    study = Study.build(contract="all", policy=policy, seed=seed, **rules)
    return study, study.play(0, deals_per_contract * len(ALL_CONTRACTS), record=True)


def refereed(study, cols) -> None:
    """The referee's rescoring of every deal of ``cols`` equals the kernel's scores."""
    for j in range(len(cols["deal"])):
        scores = check_any_deal(study.options, str(cols["contract"][j]), int(cols["declarer"][j]), cols["hands"][j],
                                cols["moves"][j], int(cols["trump"][j]))
        assert scores == [int(s) for s in cols["score"][j]], f"deal {j} ({cols['contract'][j]})"


def changed_contracts(base, other) -> set:
    differs = (base["score"] != other["score"]).any(axis=1) | (base["moves"] != other["moves"]).any(axis=1)
    return {str(c) for c in np.asarray(base["contract"])[differs]}


@pytest.mark.parametrize("scoring,deck", [("basic", 32), ("basic", 52), ("wiki", 32), ("wiki", 52)])
def test_defaults_are_the_spec_table(scoring, deck):
    """§3 as written in docs/rules/barbu.md: the options left unset read the table of their scheme and pack."""
    spec = {("basic", 32): (-1, -1, -1, -2, -8, -3, -5, 2), ("basic", 52): (-1, -1, -1, -3, -12, -4, -8, 3),
            ("wiki", 32): (-2, -2, -6, -6, -20, -10, -20, 5), ("wiki", 52): (-2, -2, -6, -6, -20, -10, -20, 5)}
    values = item_values(BarbuOptions(scoring=scoring, deck=deck))
    assert tuple(values.values()) == spec[(scoring, deck)]
    assert tuple(values) == tuple(VALUES[(scoring, deck)])


def test_an_item_set_replaces_the_table_wherever_it_scores():
    o = BarbuOptions(queen=-4, king_hearts=-20, salade_factor=2)
    assert contract_total(o, "no-queens") == -16 and contract_total(o, "no-barbu") == -20
    assert contract_total(o, "salade") == 2 * (-13 - 13 - 16 - 20)
    assert contract_total(o, "anti-salade") == 13 + 13 + 16 + 20
    assert item_values(BarbuOptions(heart=-2))["ace_hearts"] == -2  # basic: the A♥ is a heart like any other
    assert item_values(BarbuOptions(scoring="wiki", heart=-1))["ace_hearts"] == -6


@pytest.mark.parametrize("name,value,named", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_value_changes_only_the_scores_it_names(name, value, named):
    """Random play (the same moves whatever the values): the referee agrees with the kernels, the named
    contracts' rows are rescored, every other row is identical."""
    base_study, base = played({}, "random")
    study, cols = played({name: value}, "random")
    refereed(study, cols)
    assert (cols["moves"] == base["moves"]).all()
    assert changed_contracts(base, cols) == set(named)


@pytest.mark.parametrize("scoring,deck", [("basic", 52), ("basic", 32), ("wiki", 52)])
def test_queens_scale_no_queens_exactly(scoring, deck):
    """The issue's example: with queens at -4 every No Queens score is the default's times 4 / |default|."""
    default = VALUES[(scoring, deck)]["queen"]
    _, base = played(dict(scoring=scoring, deck=deck), "random")
    _, cols = played(dict(scoring=scoring, deck=deck, queen=-4), "random")
    rows = np.asarray(base["contract"]) == "no-queens"
    assert rows.any()
    assert (cols["score"][rows].astype(int) * default == base["score"][rows].astype(int) * -4).all()


@pytest.mark.parametrize("name,value,named", [CHANGES[3], CHANGES[6], CHANGES[7], CHANGES[8]],
                         ids=["queen", "last", "trumps_trick", "salade_factor"])
def test_the_heuristic_follows_the_values_and_other_contracts_keep_their_rows(name, value, named):
    """Heuristic seats read the values (and the hand model is refitted for them): the referee still agrees,
    and only the named contracts' rows may change."""
    _, base = played({}, "heuristic")
    study, cols = played({name: value}, "heuristic")
    refereed(study, cols)
    assert changed_contracts(base, cols) <= set(named)


@pytest.mark.parametrize("rules", [dict(scoring="wiki", deck=32, players=3, trick=-1, queen=-10),
                                   dict(players=5, heart=-3, ace_hearts=-7, last=-12, trumps_trick=1)])
def test_other_tables_agree_with_the_referee(rules):
    study, cols = played(rules, "heuristic,random,random" if rules.get("players") == 3 else "random",
                         deals_per_contract=20)
    refereed(study, cols)


def test_whole_games_score_the_changed_values():
    """A doubled Geronimo game with Salade: the game referee (doubles, settlement) agrees under changed values."""
    study = GameStudy.build(seed=23, geronimo=True, double=True, salade=True, anti_salade=True, queen=-5,
                            salade_factor=2, anti_salade_factor=2, trumps_trick=4)
    cols = study.play_games(0, 8, record=True)
    length = study.options.game_length
    for g in range(8):
        verdict = check_game(study.options, game_deals(cols, g, length))
        rows = slice(g * length, (g + 1) * length)
        assert verdict.totals == cols["score"][rows].astype(int).sum(axis=0).tolist()


@pytest.mark.parametrize("rules,message", [
    (dict(contract="no-tricks", queen=-4), "queen: -4 does not apply here; it applies only to No Queens, Salade"),
    (dict(contract="no-queens", last=-4), "last: -4 does not apply here; it applies only to Last Two"),
    (dict(contract="salade", anti_salade_factor=2), "only to Anti-Salade"),
    (dict(contract="no-queens", queen=3), "queen: 3 is not allowed; use an integer from -50 to 0"),
    (dict(contract="trumps", trumps_trick=-1), "trumps_trick: -1 is not allowed; use an integer from 0 to 20"),
    (dict(contract="salade", salade_factor=True), "salade_factor: True is not allowed"),
])
def test_values_that_cannot_matter_or_are_out_of_range_are_refused(rules, message):
    with pytest.raises(ValueError) as error:
        BARBU.build("deals", **rules)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_game_without_salade_refuses_its_factor():
    with pytest.raises(ValueError, match="salade_factor: 2 does not apply here"):
        BARBU.build("games", salade_factor=2)
