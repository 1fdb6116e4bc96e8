"""No Barbu option is silently ignored (issues 6.5, 7.4): one table says where each option applies."""
from dataclasses import fields

import pytest

from cardlab.sim import barbu
from cardlab.sim.barbu.rules import BarbuOptions
from cardlab.sim.barbu.interface import BARBU

BARBU_SCOPE = BARBU.scope()  # every option's applies= and the run keywords' table

EVERYWHERE = {"players", "deck", "scoring"}


def test_every_option_has_its_place_in_the_table():
    """A new option must say where it applies (or be one of the options that apply everywhere)."""
    names = {f.name for f in fields(BarbuOptions)}
    assert names - EVERYWHERE <= set(BARBU_SCOPE), sorted(names - EVERYWHERE - set(BARBU_SCOPE))
    assert set(BARBU_SCOPE) - names == {"contract", "double_policy", "compare_policies"}
    for name, scope in BARBU_SCOPE.items():
        assert scope.where.startswith("only ") and scope.where.format_map({k: k for k in BARBU_SCOPE} | {
            "games": "g", "deals": "d", "contracts_study": "c", "trumps_study": "t"})


@pytest.mark.parametrize("call,message", [
    (lambda: BARBU.build("games", geronimo=True, iterations=2), "iterations: 2 does not apply here"),
    (lambda: BARBU.build("games", geronimo=True, regular_cycle="per_contract"), "regular_cycle: 'per_contract'"),
    (lambda: BARBU.build("games", declarer_blocks=True), "declarer_blocks: True does not apply here"),
    (lambda: BARBU.build("games", late_redouble=True), "only to whole games with double"),
    (lambda: BARBU.build("games", geronimo=True, double_policy="random"), "double_policy: 'random'"),
    (lambda: barbu.simulate(deals=10, compare_policies="heuristic,search"),
     "compare_policies: 'heuristic,search' does not apply here; it applies only to contract_value_study and trump_study"),
    (lambda: BARBU.build("games", skip_undoubled_negative=True), "skip_undoubled_negative: True"),
    (lambda: BARBU.build("games", double=True, skip_remainder="others"), "skip_remainder: 'others'"),
    (lambda: BARBU.build("games", trumps=True), "trumps: True does not apply here"),
    (lambda: BARBU.build("games", geronimo=True, domino=False, domino_starter="left"), "only to Domino"),
    (lambda: BARBU.build("games", must_trump=False), "must_trump: False does not apply here; it applies only to Trumps"),
    (lambda: barbu.simulate(deals=10, geronimo=True), "geronimo: True does not apply here"),
    (lambda: barbu.simulate(deals=10, options=BarbuOptions(double=True)), "double: True does not apply here"),
    (lambda: barbu.simulate(deals=10, contract="no-tricks", kh_forced_discard=True), "only to No K♥ and Salade"),
    (lambda: barbu.simulate(deals=10, contract="domino", domino_rules="fan_tan", ace_replay_optional=True),
     "ace_replay_optional: True"),
    (lambda: barbu.replay(deal=1, double=True), "double: True does not apply here"),
    (lambda: barbu.replay_game(game=1, contract_is_not_an_option=1), "option 'contract_is_not_an_option' is unknown"),
    (lambda: barbu.replay_game(game=1, contract="no-tricks"), "contract: 'no-tricks' does not apply here"),
    (lambda: barbu.simulate_games(games=1, contract="no-tricks"), "only to single deals (simulate, replay)"),
    (lambda: barbu.simulate(deals=1, double_policy="random"), "double_policy: 'random' does not apply here"),
    (lambda: barbu.replay(deal=1, double_policy="random"), "only to whole games with double"),
    (lambda: barbu.trump_study(deals=1, contract="no-tricks"), "contract: 'no-tricks' does not apply here"),
    (lambda: barbu.trump_study(deals=10, domino_rules="fan_tan"), "domino_rules: 'fan_tan' does not apply here"),
    (lambda: barbu.trump_study(deals=10, hearts_lead="broken"), "hearts_lead: 'broken'"),
    (lambda: barbu.contract_value_study(deals=10, contract="no-tricks,domino", early_stop=False), "early_stop: False"),
])
def test_python_facade_refuses_options_that_do_not_apply(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value) and "\n" not in str(error.value)


def test_trumps_in_regular_takes_effect_alone():
    """Issue 6.5: trumps_in_regular=True adds Trumps to a Regular game; it needs no trumps=True."""
    options = BarbuOptions(trumps_in_regular=True)
    assert "trumps" in options.game_contracts
    BARBU.build("games", options=options)
    with pytest.raises(ValueError, match="trumps_in_regular: True does not apply here"):
        BARBU.build("games", options=BarbuOptions(trumps_in_regular=True, trumps=False))
    df = barbu.simulate_games(games=2, seed=1, trumps_in_regular=True)
    assert (df["contract"] == "trumps").sum() == 2 * 4


def test_options_that_apply_pass():
    BARBU.build("games", options=BarbuOptions(geronimo=True, double=True, late_redouble=True,
                                               skip_undoubled_negative=True, skip_remainder="others",
                                               declarer_blocks=True, trumps=False))
    barbu.Study.build(options=BarbuOptions(players=3, domino_three_last="last_place", hearts_lead="broken",
                                           hearts_lead_salade=True, must_trump=False), contract="domino,salade,trumps")


@pytest.mark.parametrize("name", ["cardlab.sim.options", "cardlab.sim.barbu.interface"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
