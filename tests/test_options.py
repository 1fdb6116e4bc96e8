"""The option checks every game shares: one-line errors naming the option, the value and what is allowed."""
import argparse
import doctest

import numpy as np
import pytest

from cardlab.sim import options
from cardlab.sim.euchre5.rules import Euchre5Options
from cardlab.sim.options import command_options, search_settings, with_rules


def test_the_module_examples_hold():
    assert doctest.testmod(options).failed == 0


def test_with_rules_replaces_fields_and_names_an_unknown_one():
    base = Euchre5Options()
    assert with_rules(base, "Euchre for five", {}) == base
    changed = with_rules(base, "Euchre for five", {"stick_the_dealer": not base.stick_the_dealer})
    assert changed.stick_the_dealer is not base.stick_the_dealer and changed.call_rule == base.call_rule
    with pytest.raises(ValueError, match="option 'trumps' is unknown; Euchre for five options are .*stick_the_dealer"):
        with_rules(base, "Euchre for five", {"trumps": 1, "zz": 2})


def test_command_options_keeps_search_settings_only_when_given():
    args = argparse.Namespace(a=1, b="x", policy="heuristic", seed=3, search_worlds=None, search_rollout="random")
    assert command_options(args, ("a", "b")) == {"a": 1, "b": "x", "policy": "heuristic", "seed": 3,
                                                 "search_rollout": "random"}
    assert command_options(args, ("a", "b"), b="converted")["b"] == "converted"


def test_search_settings():
    kw = dict(default_worlds=32, max_worlds=64, rollouts=("heuristic", "random"))
    assert search_settings(True, None, None, **kw) == (32, "heuristic")
    assert search_settings(True, np.int64(5), "random", **kw) == (5, "random")
    for worlds in (0, 65, 2.0, True):
        with pytest.raises(ValueError, match=f"search_worlds: {worlds!r} is not allowed; use an integer from 1 to 64"):
            search_settings(True, worlds, None, **kw)
    with pytest.raises(ValueError, match="search_rollout: 'greedy' is not allowed; choose 'heuristic' or 'random'"):
        search_settings(True, None, "greedy", **kw)
    with pytest.raises(ValueError, match=r"search_worlds: 4 needs a search seat \(policy 'search'\)"):
        search_settings(False, 4, None, **kw)
