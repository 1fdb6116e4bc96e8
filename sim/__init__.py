"""cardlab engines: Numba kernels on bit-packed hands, with their Python facades.

Numba caches compiled kernels per file and does not notice when a function inlined from another
module changes, so the cache lives in a folder named after a hash of every engine source file:
any edit gives a fresh cache. ``NUMBA_CACHE_DIR``, when set, is used as the parent folder.
"""
import hashlib
import os
from pathlib import Path

import numba


def source_digest(folder: Path) -> str:
    """A short hash of every ``.py`` file below ``folder`` (names and contents)."""
    h = hashlib.sha1()
    for path in sorted(folder.rglob("*.py")):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


_HERE = Path(__file__).resolve().parent
numba.config.CACHE_DIR = str(Path(os.environ.get("NUMBA_CACHE_DIR") or _HERE / "__pycache__")
                             / f"numba-{source_digest(_HERE)}")
