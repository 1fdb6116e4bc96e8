"""cardlab engines: Numba kernels on bit-packed hands, with their Python facades.

Numba caches compiled kernels per file and does not notice when a function compiled in from
another module changes, so :mod:`cardlab.sim.kernel_cache` keeps each game's kernels in a folder
named after a digest of that game's folder, of the other games it imports and of the shared
Numba modules it uses (``cards.py``, ``rng.py``...): editing a Rami file recompiles Rami alone,
editing ``cards.py`` every game that uses it, editing a pure-Python module (``cli.py``,
``runner.py``, ``options.py``...) nothing. The folders live in ``sim/__pycache__/numba-kernels``,
or in ``$NUMBA_CACHE_DIR/numba-kernels`` when ``NUMBA_CACHE_DIR`` is set.
"""
import hashlib
import warnings
from pathlib import Path

from cardlab.sim import kernel_cache


def source_digest(folder: Path) -> str:
    """A short hash of every ``.py`` file below ``folder`` (names and contents)."""
    h = hashlib.sha1()
    for path in sorted(folder.rglob("*.py")):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


kernel_cache.install()
# Searched runs hand the kernels the Numba seat's callbacks as first-class functions (cardlab.sim.user.run_callback),
# a feature Numba flags as experimental each time it compiles a kernel that takes one.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
