"""Every docstring example in the engine runs and prints what it says."""
import doctest
import importlib

import pytest

MODULES = ["cardlab.sim.cards", "cardlab.sim.barbu.rules", "cardlab.sim.barbu.interface", "cardlab.sim.barbu.studies", "cardlab.sim.barbu.doubling",
           "cardlab.sim.barbu.domino_referee", "cardlab.sim.racing", "cardlab.sim.signatures"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no example"
