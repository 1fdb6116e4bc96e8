"""Chunked, seeded, resumable-by-design runs shared by every game.

A game supplies ``play_chunk(first, count) -> dict[str, np.ndarray]`` (one row per deal, deals
``first .. first+count-1``). :func:`run` calls it chunk by chunk, shows a progress bar, and
either gathers a DataFrame or streams row groups into a Parquet file. Results never depend on
the chunk size or thread count because each deal's randomness comes from (seed, deal index).

Output files are written to a temporary name beside the target and renamed when complete, so
a failed run leaves nothing behind. An interrupted run (Ctrl-C) keeps every finished chunk:
the file is closed, renamed, and its metadata records how many deals it holds.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Callable

import numba
import numpy as np
import pandas as pd

DEFAULT_CHUNK = 1 << 20  # deals per chunk
DEFAULT_GAME_CHUNK = 1 << 15  # whole games per chunk: a chunk of games takes about as long as one of deals
METADATA_KEY = b"cardlab"
INDEX_MAX = 2**63 - 1  # the last deal (game) index: the ``deal`` column is a signed 64-bit integer


def check_positive_int(option: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Validate an integer option, naming it in the error."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        allowed = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
        raise ValueError(f"{option}: {value!r} is not allowed; use an integer {allowed}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{option}: {value!r} is not allowed; use an integer from {minimum} to {maximum}")
    return int(value)


def check_index(option: str, value) -> int:
    """A deal (or game) index: 0 to :data:`INDEX_MAX`."""
    return check_positive_int(option, value, minimum=0, maximum=INDEX_MAX)


def check_span(first, count, *, first_option: str = "first_deal", count_option: str = "deals") -> tuple[int, int]:
    """``(first, count)`` of a run whose indices ``first .. first+count-1`` all fit in 0 .. :data:`INDEX_MAX`."""
    first = check_index(first_option, first)
    count = check_positive_int(count_option, count)
    if first + count - 1 > INDEX_MAX:
        raise ValueError(f"{count_option}: {count} is not allowed from index {first}; the last index is "
                         f"{INDEX_MAX}, so use at most {INDEX_MAX - first + 1}")
    return first, count


def set_threads(threads) -> int:
    """Set numba's thread count (None = all cores); returns the count in force."""
    if threads is None:
        threads = numba.config.NUMBA_NUM_THREADS
    check_positive_int("threads", threads)
    if threads > numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads: {threads} is not allowed; this machine allows 1 to {numba.config.NUMBA_NUM_THREADS}")
    numba.set_num_threads(int(threads))
    return int(threads)


def progress_bar(total: int, unit: str, progress: bool):
    """A tqdm bar on stderr; a widget in Jupyter when ipywidgets is there. Nothing is imported for a run
    without progress, so a notebook never shows tqdm's "IProgress not found" warning."""
    if not progress:
        from tqdm.std import tqdm

        return tqdm(total=total, disable=True)
    import warnings

    from tqdm import TqdmWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", TqdmWarning)
        try:
            from tqdm.auto import tqdm
        except TqdmWarning:  # Jupyter without ipywidgets: the plain text bar
            from tqdm.std import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr)


def versions() -> dict:
    """Versions of cardlab and its engines, for run metadata."""
    out = {"python": platform.python_version()}
    for name in ("cardlab", "numba", "numpy", "pandas", "pyarrow"):
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = "unknown"
    return out


def check_output_path(out) -> Path:
    """Fail early, naming the option, when ``out`` cannot be written."""
    path = Path(out)
    parent = path.parent if str(path.parent) else Path(".")
    if path.suffix.lower() not in (".parquet", ".pq") and not path.is_dir():
        raise ValueError(f"out: {str(out)!r} is not allowed; cardlab writes Parquet, so give a name ending in "
                         ".parquet or .pq (such as runs/study.parquet)")
    if path.is_dir():
        raise ValueError(f"out: {str(out)!r} is a directory; give a file path such as runs/study.parquet")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".cardlab-probe-"):
            pass
    except OSError as err:
        raise ValueError(f"out: {str(out)!r} is not writable ({err.strerror or err})") from None
    return path


def to_frame(columns: dict) -> pd.DataFrame:
    """Chunk columns to a DataFrame; a ``(rows, n)`` array named ``score`` becomes score_0..score_{n-1}."""
    data = {}
    for name, value in columns.items():
        if isinstance(value, np.ndarray) and value.ndim == 2:
            for p in range(value.shape[1]):
                data[f"{name}_{p}"] = value[:, p]
        else:
            data[name] = value
    return pd.DataFrame(data)


def run(play_chunk: Callable[[int, int], dict], *, deals: int, first_deal: int = 0, chunk_size: int = DEFAULT_CHUNK,
        progress: bool = False, out=None, meta: dict | None = None, unit: str = "deal") -> pd.DataFrame | None:
    """Play ``deals`` units (deals, or games with ``unit='game'``) in chunks.

    Returns a DataFrame, or streams to Parquet ``out`` and returns None. The metadata records
    the count as ``deals`` (``games``) and the start as ``first_deal`` (``first_game``).
    """
    count_key, first_key = f"{unit}s", f"first_{unit}"
    first_deal, deals = check_span(first_deal, deals, first_option=first_key, count_option=count_key)
    chunk_size = check_positive_int("chunk_size", chunk_size)
    meta = dict(meta or {}, **{count_key: deals, first_key: first_deal}, versions=versions())
    path = check_output_path(out) if out is not None else None
    bar = progress_bar(deals, unit, progress)
    frames, writer, tmp, done = [], None, None, 0
    try:
        for start in range(first_deal, first_deal + deals, chunk_size):
            count = min(chunk_size, first_deal + deals - start)
            frame = to_frame(play_chunk(start, count))
            if path is None:
                frames.append(frame)
            else:
                writer, tmp = _write(frame, writer, tmp, path, meta)
            done += count
            bar.update(count)
    except KeyboardInterrupt:
        bar.close()
        if path is None or writer is None:
            raise
        print(f"interrupted: keeping the {done} {count_key} finished in {path}", file=sys.stderr)
        meta[count_key] = done
    except BaseException:
        bar.close()
        if writer is not None:
            writer.close()
            os.unlink(tmp)
        raise
    bar.close()
    if path is None:
        return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    writer.close()
    _finish(tmp, path, meta, count_key)
    return None


def _write(frame, writer, tmp, path, meta):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if writer is None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        os.close(fd)
        schema = table.schema.with_metadata({**(table.schema.metadata or {}), METADATA_KEY: json.dumps(meta).encode()})
        writer = pq.ParquetWriter(tmp, schema)
    writer.write_table(table.cast(writer.schema))
    return writer, tmp


def _finish(tmp, path, meta, count_key):
    """Rename the finished file into place, rewriting the metadata only if the run was cut short."""
    import pyarrow.parquet as pq

    if meta[count_key] != json.loads(pq.read_schema(tmp).metadata[METADATA_KEY])[count_key]:
        table = pq.read_table(tmp)
        table = table.replace_schema_metadata({**table.schema.metadata, METADATA_KEY: json.dumps(meta).encode()})
        pq.write_table(table, tmp)
    give_umask_mode(tmp)
    os.replace(tmp, path)


def give_umask_mode(path) -> None:
    """Give a file made by ``mkstemp`` (always 0600) the mode of an ordinary new file: 0666 less the umask."""
    umask = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)

