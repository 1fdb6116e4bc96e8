"""The Numba cache folders: which edits move which game's kernels to a fresh folder (no compiling)."""
import shutil
from pathlib import Path

import pytest

from cardlab.sim import kernel_cache
from cardlab.sim.kernel_cache import OTHER, SHARED, cache_key, games, numba_modules, unit_files

UNITS = [*games(), SHARED, OTHER]


@pytest.fixture
def tree(tmp_path):
    """A copy of the engine sources to edit."""
    root = tmp_path / "sim"
    shutil.copytree(kernel_cache.SIM, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nb?"))
    return root


def keys(root):
    return {unit: cache_key(unit, root) for unit in UNITS}


def edit(path: Path, text="\n# an edit\n"):
    path.write_text(path.read_text() + text)


def changed(root, path, text="\n# an edit\n"):
    before = keys(root)
    edit(root / path, text)
    after = keys(root)
    return {unit for unit in UNITS if before[unit] != after[unit]}


def uses(root, unit, module):
    return (root / module) in unit_files(unit, root)


def test_the_games_and_the_shared_numba_modules_are_found():
    assert set(games()) >= {"barbu", "euchre5", "minchiate", "rami"}
    found = set(numba_modules())
    assert found >= {"cards", "dealing", "rng", "summary", "worlds", "policy"}  # policy: ids kernels compile in
    assert not found & {"cli", "runner", "options", "executors", "diskcache", "kernel_cache", "replay", "games"}


@pytest.mark.parametrize("game", games())
def test_a_game_edit_recompiles_that_game_alone(tree, game):
    assert changed(tree, f"{game}/kernels.py") == {game, OTHER}
    assert changed(tree, f"{game}/rules.py") == {game, OTHER}  # pure Python that a kernel imports counts


GLUE = [(g, m) for g in games() for m in ("interface.py", "records.py", "states.py", "__init__.py")
        if (kernel_cache.SIM / g / m).exists()]  # a game's modules no kernel imports (where it has them)


@pytest.mark.parametrize("game,module", GLUE)
def test_a_game_edit_no_kernel_imports_recompiles_nothing(tree, game, module):
    assert changed(tree, f"{game}/{module}") == set()
    before = cache_key(game, tree, whole_folders=True)  # the disk cache's key (fits run Python) sees it
    edit(tree / game / module)
    assert cache_key(game, tree, whole_folders=True) != before


def test_a_file_a_kernel_imports_lazily_counts(tree):
    edit(tree / "hearts/kernels.py", "\n\ndef _lazy():\n    from cardlab.sim.hearts import interface\n    return interface\n")
    assert changed(tree, "hearts/interface.py") == {"hearts", OTHER}


@pytest.mark.parametrize("module", ["cards.py", "rng.py", "worlds.py", "dealing.py", "summary.py", "policy.py"])
def test_a_shared_numba_module_edit_recompiles_the_games_that_use_it(tree, module):
    users = {g for g in games(tree) if uses(tree, g, module)}
    assert changed(tree, module) == users | {SHARED, OTHER}
    if module == "rng.py":
        assert users == set(games(tree))  # every game draws from it


@pytest.mark.parametrize("module", ["cli.py", "runner.py", "options.py", "diskcache.py", "__init__.py"])
def test_a_pure_python_module_edit_recompiles_nothing(tree, module):
    assert changed(tree, module) == set()


def test_a_new_numba_module_counts_once_it_compiles_something(tree):
    (tree / "tables.py").write_text("import numpy as np\nTABLE = np.arange(4)\n")
    edit(tree / "rami/kernels.py", "\nfrom cardlab.sim.tables import TABLE\n")
    assert changed(tree, "tables.py") == set()
    assert changed(tree, "tables.py", "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x\n") \
        == {"rami", SHARED, OTHER}
    assert changed(tree, "tables.py") == {"rami", SHARED, OTHER}


def test_a_game_that_imports_another_game_recompiles_with_it_transitively(tree):
    assert changed(tree, "barbu/policies.py") == {"barbu", OTHER}
    # Rami borrows from Barbu inside a function, Euchre from Rami by a relative import.
    edit(tree / "rami/search.py", "\n\ndef _borrow():\n    from cardlab.sim.barbu.policies import POLICY\n"
                                  "    return POLICY\n")
    edit(tree / "euchre5/search.py", "\nfrom ..rami import (\n    melds,\n)\n")
    assert changed(tree, "barbu/policies.py") == {"barbu", "rami", OTHER}  # Euchre uses melds.py alone of Rami
    assert changed(tree, "rami/melds.py") == {"rami", "euchre5", OTHER}
    assert changed(tree, "rami/interface.py") == set()
    assert changed(tree, "euchre5/rules.py") == {"euchre5", OTHER}


def test_kernels_are_cached_in_their_unit_folder(monkeypatch, tmp_path):
    import numba
    from numba.core import caching

    from cardlab.sim.rami.kernels import play_rounds_nb

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    assert impl._locator_classes[0].__name__ == "UnitCacheLocator"
    rami = kernel_cache.kernels_folder() / f"rami-{cache_key('rami')}"
    assert Path(play_rounds_nb._cache._cache_path) == rami
    assert Path(numba.config.CACHE_DIR) == kernel_cache.kernels_folder()
    assert kernel_cache.cache_folder(kernel_cache.SIM / "cards.py").name == f"{SHARED}-{cache_key(SHARED)}"
    assert kernel_cache.unit_of_module("cardlab.sim.barbu.simulate") == "barbu"  # the hand model's file key
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.cache_folder(kernel_cache.SIM / "rami" / "kernels.py").parent.parent == tmp_path
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert kernel_cache.cache_root() == kernel_cache.SIM / "__pycache__"
