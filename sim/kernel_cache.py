"""Where Numba keeps each compiled kernel: one cache folder per game, named after the code it uses.

Numba checks a cached kernel only against the file that defines it, never against the functions
it calls from other files, which are compiled into it. An edit to ``sim/rami/melds.py`` would
leave the cached kernels of ``sim/rami/kernels.py`` calling the old meld code. So every kernel is
cached in a folder named after a digest of all the code it may have compiled in, the unit it
belongs to:

* a kernel in ``sim/<game>/`` belongs to that game. Its digest covers the game's files that compile
  something (its *Numba modules*: they import numba and hold ``@njit``, ``@overload``, ``vectorize(...)``...)
  and every file they import, transitively, module by module: the game's rules and tables, another
  game's modules (``cardlab.sim.<other>.<module>``) and every *shared Numba module*. A game's pure-Python
  files that no Numba module imports (its interface, referee, step API, replay) are left out: editing
  them recompiles nothing;
* a kernel in a shared module (``sim/cards.py``, ``sim/rng.py`` ...) belongs to ``shared``, over
  every shared Numba module and what they import;
* a kernel in any other file (a test, a benchmark) belongs to ``other``, over all of the above.

A shared module (a ``.py`` file directly in ``sim/``) is a Numba module when it compiles something. The
others (``cli.py``, ``runner.py``, ``options.py``...) run only in Python: editing one changes no digest
and recompiles nothing, and the scan does not follow their imports. So a constant that kernels read
as a global belongs in a game folder or in a Numba module, or in a module named in
:data:`KERNEL_CONSTANTS` (``policy.py``: the policy ids every game's kernels compare against).

Imports are read from the source text, lazy ones inside functions included: the rule errs on the
side of recompiling. Only ``import`` statements count: code reached through ``importlib`` or
through a pure-Python module is not seen, so a kernel must import what it compiles in. Editing
``sim/rami/kernels.py`` recompiles Rami alone, ``sim/rami/interface.py`` nothing; editing
``sim/cards.py`` recompiles every game that imports it; editing ``sim/cli.py`` recompiles nothing.
:mod:`cardlab.sim.diskcache` keys its fits, which run Python code, on a game's whole folder
(``whole_folders=True``).

The folders are ``<root>/numba-kernels/<unit>-<digest>/``, where ``<root>`` is
``$NUMBA_CACHE_DIR`` when set, else ``sim/__pycache__``. Inside one, Numba's own index still checks
each kernel against its file. Old folders are left behind (delete them at will; ``make clean``
removes those in ``sim/__pycache__``); a folder may be shared by two checkouts with the same code
for that game. Setting ``NUMBA_CACHE_LOCATOR_CLASSES`` bypasses this rule. :func:`install` puts
the locator first in Numba's list and points ``numba.config.CACHE_DIR`` at ``<root>/numba-kernels`` (where
:mod:`cardlab.sim.diskcache` keeps its files, keyed on a unit's digest too).
"""
from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
from pathlib import Path

SIM = Path(__file__).resolve().parent
PACKAGE = "cardlab.sim"
SHARED, OTHER = "shared", "other"
RULE = b"kernel-cache rule 2"  # bump when the rule changes, to leave every old folder behind

_LINE = r"(?:[^\n]*\\\n)*[^\n]*"  # one logical line, backslash continuations included
_IMPORT = re.compile(rf"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]+(?:\([^)]*\)|{_LINE})|import[ \t]+{_LINE})", re.M)
_USES_NUMBA = re.compile(r"^[ \t]*(?:import[ \t]+numba|from[ \t]+numba[.\w]*[ \t]+import)\b", re.M)
_COMPILERS = ("njit|jit|generated_jit|vectorize|guvectorize|cfunc|stencil|intrinsic|overload|overload_method|"
              "overload_attribute|register_jitable|jitclass")
# A decorator line (``@njit(cache=True)``, ``@numba.extending.intrinsic``) or an assignment of a
# compiled function (``f_nb = njit(f)``), so that prose mentioning ``@njit`` does not count.
_COMPILES = re.compile(rf"^[ \t]*@[ \t]*[\w.]*\b(?:{_COMPILERS})\b"
                       rf"|^[^#\n]*=[ \t]*[\w.]*\b(?:{_COMPILERS})[ \t]*\(", re.M)


def cache_root() -> Path:
    """The parent of every cache folder: ``$NUMBA_CACHE_DIR`` when set, else ``sim/__pycache__``."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or SIM / "__pycache__")


def games(root: Path = SIM) -> list[str]:
    """The game packages: the folders of ``root`` that hold an ``__init__.py``."""
    return sorted(p.parent.name for p in root.glob("*/__init__.py"))


@functools.lru_cache(maxsize=1024)
def _imports_in(text: str) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    """``(level, module, names)`` of every import statement of a source text (level 0: absolute;
    ``import a.b`` gives ``(0, "", ("a.b",))``)."""
    found = []
    for statement in _IMPORT.findall(text):
        try:
            node = ast.parse(statement.strip()).body[0]
        except (SyntaxError, IndexError):  # prose in a docstring that happens to start with "from"
            continue
        if isinstance(node, ast.Import):
            found.append((0, "", tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
    return tuple(found)


def _module_file(name: str, root: Path) -> Path | None:
    """The file of a dotted ``cardlab.sim`` module name (a package's ``__init__.py``), None if none."""
    parts = name.split(".")[2:]
    if not parts or name.split(".")[:2] != PACKAGE.split("."):
        return None
    base = root.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported_files(path: Path, root: Path) -> set[Path]:
    """The ``cardlab.sim`` files ``path`` imports anywhere, module by module: ``from a.b import c`` counts ``a/b/c.py``
    when ``c`` is a module, else the file ``c`` is taken from (``a/b.py`` or ``a/b/__init__.py``)."""
    rel = path.relative_to(root).with_suffix("").parts
    package = [PACKAGE, *rel[:-1]]
    files = set()
    for level, module, aliases in _imports_in(path.read_text(encoding="utf-8", errors="replace")):
        if not module and not level:  # import a.b.c
            found = [_module_file(alias, root) for alias in aliases]
        else:
            base = ".".join((package[:len(package) - level + 1] if level else []) + ([module] if module else []))
            found = [_module_file(f"{base}.{alias}", root) or _module_file(base, root) for alias in aliases]
        files.update(f for f in found if f is not None)
    return files


def _target(name: str, root: Path) -> tuple[str, str] | None:
    """``("game", g)`` or ``("shared", module)`` for a dotted name under ``cardlab.sim``, else None."""
    parts = name.split(".")[2:]
    if not parts:
        return None  # the package itself: sim/__init__.py, pure Python
    if (root / parts[0] / "__init__.py").is_file():
        return "game", parts[0]
    if len(parts) == 1 and (root / f"{parts[0]}.py").is_file():
        return "shared", parts[0]
    return None  # a name imported from a module, not a module


#: Pure-Python shared modules whose constants kernels read as globals: they count as Numba modules.
KERNEL_CONSTANTS = ("policy",)


def is_numba_module(path: Path) -> bool:
    """Whether a shared module compiles code with Numba, or holds constants kernels compile in (see the
    module docstring)."""
    return path.stem in KERNEL_CONSTANTS or _compiles(path.read_text(encoding="utf-8", errors="replace"))


@functools.lru_cache(maxsize=1024)
def _compiles(text: str) -> bool:
    return bool(_USES_NUMBA.search(text) and _COMPILES.search(text))


def numba_modules(root: Path = SIM) -> list[str]:
    """The shared Numba modules of ``root``: the ``.py`` files directly in it that compile kernels."""
    return sorted(p.stem for p in root.glob("*.py") if p.name != "__init__.py" and is_numba_module(p))


def _game_files(root: Path, game: str) -> list[Path]:
    return sorted((root / game).rglob("*.py"))


def unit_files(unit: str, root: Path = SIM, *, whole_folders: bool = False) -> list[Path]:
    """Every file whose code a kernel of ``unit`` (a game, ``"shared"`` or ``"other"``) may compile in: the unit's files
    that compile something and, transitively, every file they import (module by module; shared modules only when
    they are Numba modules). With ``whole_folders``, a game counts with every file of its folder, pure Python too
    (the key of :mod:`cardlab.sim.diskcache`, whose fits run Python code)."""
    if unit == OTHER:
        start_games, start_shared = set(games(root)), set(numba_modules(root))
    elif unit == SHARED:
        start_games, start_shared = set(), set(numba_modules(root))
    elif (root / unit / "__init__.py").is_file():
        start_games, start_shared = {unit}, set()
    else:
        raise ValueError(f"no game {unit!r} under {root}")
    todo = [f for g in start_games for f in _game_files(root, g)
            if whole_folders or _compiles(f.read_text(encoding="utf-8", errors="replace"))]
    todo += [root / f"{m}.py" for m in start_shared]
    files = set(todo)
    while todo:
        for path in _imported_files(todo.pop(), root):
            shared = path.parent == root
            if shared and (path.name == "__init__.py" or not is_numba_module(path)):
                continue
            reached = _game_files(root, path.relative_to(root).parts[0]) if whole_folders and not shared else [path]
            new = [f for f in reached if f not in files]
            files.update(new)
            todo.extend(new)
    return sorted(files)


def cache_key(unit: str, root: Path = SIM, *, whole_folders: bool = False) -> str:
    """A short digest of the names and contents of :func:`unit_files`: it names the unit's cache folder."""
    h = hashlib.sha1(RULE)
    for path in unit_files(unit, root, whole_folders=whole_folders):
        h.update(b"\0" + str(path.relative_to(root).as_posix()).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _key(unit: str, whole_folders: bool = False) -> str:  # once per process, as Numba reads a module's source once
    return cache_key(unit, whole_folders=whole_folders)


def unit_of(py_file: str | os.PathLike) -> tuple[str, tuple[str, ...]]:
    """The unit of a source file and the folders between its unit folder and the file."""
    path = Path(py_file).resolve()
    try:
        parts = path.relative_to(SIM).parts
    except ValueError:
        return OTHER, ()
    if len(parts) == 1:
        return SHARED, ()
    return parts[0], parts[1:-1]


def unit_of_module(module: str) -> str:
    """The unit of a dotted module name, e.g. ``cardlab.sim.barbu.simulate`` -> ``"barbu"``."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return OTHER
    target = _target(module, SIM)
    return target[1] if target is not None and target[0] == "game" else SHARED


def unit_digest(unit: str, *, whole_folders: bool = False) -> str:
    """This checkout's digest for ``unit``, computed once per process."""
    return _key(unit, whole_folders)


def kernels_folder() -> Path:
    """``<root>/numba-kernels``: the folder holding every unit's folder."""
    return cache_root() / "numba-kernels"


def cache_folder(py_file: str | os.PathLike) -> Path:
    """The folder Numba caches the kernels of ``py_file`` in."""
    unit, inner = unit_of(py_file)
    folder = kernels_folder() / f"{unit}-{_key(unit)}"
    if unit == OTHER:  # files from anywhere: keep one folder per source folder, as Numba does
        folder /= hashlib.sha1(str(Path(py_file).resolve().parent).encode()).hexdigest()[:16]
    return folder.joinpath(*inner)


def _locator_class():
    from numba.core import caching

    base = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator

    class UnitCacheLocator(base):
        """Numba's locator for a user cache folder, with the folder chosen by :func:`cache_folder`."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(cache_folder(py_file))

        @classmethod
        def from_function(cls, py_func, py_file):
            # The source-file mixin's checks: a real file, and a folder we can write to.
            return super(base, cls).from_function(py_func, py_file)

    return UnitCacheLocator


def install() -> None:
    """Put the unit locator first in Numba's list (once) and point ``numba.config.CACHE_DIR`` at
    :func:`kernels_folder`."""
    import numba
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if not any(getattr(c, "__name__", "") == "UnitCacheLocator" and c.__module__ == __name__
               for c in impl._locator_classes):
        impl._locator_classes.insert(0, _locator_class())
    numba.config.CACHE_DIR = str(kernels_folder())
