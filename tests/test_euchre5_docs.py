"""Every docstring example of the Euchre-for-five modules runs and prints what it says."""
import doctest
import importlib

import pytest

MODULES = ["cardlab.sim.euchre5.rules", "cardlab.sim.euchre5.interface", "cardlab.sim.euchre5.trumps",
           "cardlab.analysis.euchre5", "cardlab.analysis.common"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no example"
