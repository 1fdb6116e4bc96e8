"""Every docstring example in the engine runs and prints what it says."""
import doctest
import importlib

import pytest

MODULES = ["sim.cards", "sim.barbu.rules", "sim.barbu.simulate", "sim.barbu.studies", "sim.barbu.doubling",
           "sim.barbu.domino_referee"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no example"
