"""Results of slow, deterministic set-up steps kept on disk beside the compiled kernels.

Barbu's hand-value model is fitted on about 100,000 seeded deals before any heuristic run (half
a second to two seconds of every command's start-up). The fit is deterministic, so
:func:`cached_on_disk` stores its arrays under ``numba.config.CACHE_DIR`` (the folder holding
the kernel folders, see :mod:`cardlab.sim.kernel_cache`), in a file named after the call's key and
the digest of the code unit the fit belongs to: the game of the fit's module (Barbu's for the
hand model), which covers that game's folder and the shared Numba modules it uses. Any change to
that code gives a fresh file and a fresh fit, and a run loads exactly the arrays the fit would
give; an edit elsewhere (another game, ``cli.py``) keeps the file. Files are written under a
temporary name and renamed, so processes filling the cache at once never read half a file.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
from pathlib import Path

import numba
import numpy as np

from cardlab.sim.kernel_cache import unit_digest, unit_of_module


def _path(name: str, key, unit: str) -> Path:
    text = json.dumps([key, unit, unit_digest(unit, whole_folders=True)], sort_keys=True, default=str)
    return Path(numba.config.CACHE_DIR) / name / f"{hashlib.sha1(text.encode()).hexdigest()[:20]}.npz"


def cached_on_disk(name: str, result_type, key):
    """Decorate ``fit(*args) -> result_type`` (a NamedTuple of arrays): the result is read from the
    cache folder ``name`` when there, else computed and stored. ``key(*args)`` (JSON-able) and the
    digest of the unit of ``fit``'s module name the file."""
    def decorate(fit):
        unit = unit_of_module(fit.__module__)

        @functools.wraps(fit)
        def wrapper(*args):
            path = _path(name, key(*args), unit)
            with contextlib.suppress(Exception):  # missing or unreadable: fit again
                with np.load(path) as data:
                    return result_type(**{field: data[field] for field in result_type._fields})
            result = fit(*args)
            with contextlib.suppress(OSError):  # a read-only cache folder: the run goes on without it
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.parent / f".{path.name}.{os.getpid()}.part"
                buffer = io.BytesIO()
                np.savez(buffer, **result._asdict())
                tmp.write_bytes(buffer.getvalue())
                os.replace(tmp, path)
            return result
        return wrapper
    return decorate
