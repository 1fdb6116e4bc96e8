"""Kernels compiled without Numba's reference counting (``_nrt=False``) allocate nothing, nor does anything
they call (an array built, a reflected list, an array copied into a slice).

A function compiled with ``_nrt=False`` compiles each callee it meets first under the same flag, so a callee
that allocates (``np.empty``...) compiles or fails depending on which kernel a process happened to compile
first: a warm cache hides the failure, a fresh clone meets it. This test reads the source of every such
function and, through the Numba functions it calls (inlined or not), of its whole call tree, and refuses any
array allocation or reflected container anywhere in it, whatever the compile order.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core.registry import CPUDispatcher

SIM = Path(__file__).resolve().parents[1] / "sim"

SCALARS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
           "bool_", "intp", "uintp",  # numpy names that make a scalar, not an array
           "sqrt", "exp", "log", "floor", "ceil"}  # and math these kernels apply to scalars only
ALLOCATING_METHODS = {"copy", "astype", "tolist", "append"}


def _module_name(path: Path) -> str:
    return "cardlab.sim." + ".".join(path.relative_to(SIM).with_suffix("").parts)


def without_reference_counting() -> list[CPUDispatcher]:
    """Every Numba function in ``sim/`` declared with ``_nrt=False``."""
    found = []
    for path in sorted(SIM.rglob("*.py")):
        if "_nrt=False" not in path.read_text():
            continue
        module = importlib.import_module(_module_name(path))
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.targetoptions.get("_nrt") is False \
                    and value.py_func.__module__ == module.__name__:
                found.append(value)
    return found


def _resolve(node: ast.expr, scope: dict):
    """The object a call's function expression names in ``scope`` (a module's globals), or None."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, scope)
        if isinstance(base, types.ModuleType):
            return getattr(base, node.attr, None)
    return None


def _sliced(target: ast.expr) -> bool:
    """Whether an assignment's target is a slice of an array (``a[:] =``, ``a[i, :] =``)."""
    if not isinstance(target, ast.Subscript):
        return False
    index = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
    return any(isinstance(i, ast.Slice) for i in index)


def _constant(value: ast.expr) -> bool:
    """A constant (``0``, ``-1``): filling a slice with one allocates nothing."""
    return isinstance(value, ast.Constant) or (isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant))


def allocations(dispatcher: CPUDispatcher, seen: set | None = None) -> list[str]:
    """``module.function: line: what`` for each allocation in ``dispatcher``'s source or its callees'."""
    seen = set() if seen is None else seen
    func = dispatcher.py_func
    if func in seen:
        return []
    seen.add(func)
    where = f"{func.__module__}.{func.__qualname__}"
    lines, first = inspect.getsourcelines(func)
    tree = ast.increment_lineno(ast.parse(textwrap.dedent("".join(lines))), first - 1)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)):
            found.append(f"{where}: line {node.lineno}: a reflected {type(node).__name__}")
        if isinstance(node, ast.Assign) and any(_sliced(t) for t in node.targets) and not _constant(node.value):
            found.append(f"{where}: line {node.lineno}: an array copied into a slice (Numba may copy through a "
                         f"temporary; copy element by element)")
        if not isinstance(node, ast.Call):
            continue
        target = _resolve(node.func, func.__globals__)
        if isinstance(target, CPUDispatcher):
            found += allocations(target, seen)
        elif isinstance(node.func, ast.Attribute):
            base = node.func.value
            if isinstance(base, ast.Name) and base.id in ("np", "numpy"):
                if node.func.attr not in SCALARS:
                    found.append(f"{where}: line {node.lineno}: np.{node.func.attr}")
            elif node.func.attr in ALLOCATING_METHODS:
                found.append(f"{where}: line {node.lineno}: .{node.func.attr}()")
    return found


FUNCTIONS = without_reference_counting()


def test_some_kernels_go_without_reference_counting():
    names = {f.py_func.__qualname__ for f in FUNCTIONS}
    assert {"rollout_nb", "play_tricks_nb", "play_worlds_nb", "play_on_nb"} <= names


@pytest.mark.parametrize("dispatcher", FUNCTIONS, ids=lambda f: f"{f.py_func.__module__}.{f.py_func.__qualname__}")
def test_nothing_allocates_under_no_reference_counting(dispatcher):
    assert allocations(dispatcher) == []


@njit
def _allocating_leaf(n):
    return np.empty(n, np.int64)


@njit
def _middle(n):
    return _allocating_leaf(n).shape[0] + np.int64(1)


@njit(_nrt=False)
def _top(n):
    return _middle(n)


def test_the_check_finds_an_allocation_in_a_callee():
    """The check itself (never compiled): an allocation two calls down is found, as ``worlds.draw_deal_nb``'s
    ``np.empty(0)`` was under Minchiate's search."""
    line = inspect.getsourcelines(_allocating_leaf.py_func)[1] + 2
    assert allocations(_top) == [f"{__name__}._allocating_leaf: line {line}: np.empty"]
