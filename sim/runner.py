"""Chunked, seeded, resumable runs shared by every game.

A game supplies ``play_chunk(first, count) -> dict[str, np.ndarray]`` (one row per deal, deals
``first .. first+count-1``). :func:`run` plays the chunks (fixed boundaries ``first_deal + k *
chunk_size``) in this process, on a ``concurrent.futures`` executor or on a dask cluster, shows a
progress bar, and hands each finished chunk to a writer thread, so output overlaps the next
chunk's play. Results never depend on the chunk size, thread count or executor because each
deal's randomness comes from (seed, deal index).

Where the rows go (``out``):

* nothing: a DataFrame is returned;
* a file (``runs/x.parquet``): one Parquet file, written to a hidden ``.x.parquet.<pid>.part``
  beside it and renamed when done;
* a directory (``runs/x/``, or an existing directory): a Parquet dataset, one file per finished
  chunk (``chunk-<first>-<count>.parquet``, written under a hidden name and renamed) and the
  run's metadata in ``_cardlab.json``; ``pandas.read_parquet`` reads it whole. The same command
  again resumes: chunks already there are skipped, so a killed run (Ctrl-C, SIGKILL, a dead
  worker) loses at most the chunks in flight and the final data equals an uninterrupted run.

With ``summary=True`` the rows are counted instead of kept (:mod:`cardlab.sim.summary`): the
output is the distinct per-seat rows (the deal's columns, ``seat``, its ``score`` and the other
seats' total ``score_others``) and their ``count``, in constant memory however many deals.

An interrupted run (Ctrl-C or SIGTERM) keeps every finished chunk, records ``requested`` and
``complete: false`` in the metadata, says how many it kept, and raises :class:`RunInterrupted`
(a ``KeyboardInterrupt``). A chunk that fails twice on an executor is reported with its seed,
first deal, count and options; the others go on, and :class:`ChunksFailed` says what is missing.
Hidden ``.part`` files left by a killed run are removed by the next run on the same output.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import os
import platform
import queue
import re
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK = 1 << 20  # deals per chunk
DEFAULT_GAME_CHUNK = 1 << 15  # whole games per chunk: a chunk of games takes about as long as one of deals
# deals (games) per chunk with a search seat: searched play runs hundreds to thousands of deals a second, so a chunk
# takes seconds, a long run shows its progress and an interrupted one keeps what it played
SEARCH_CHUNK, SEARCH_GAME_CHUNK = 1 << 10, 1 << 6
# deals per chunk of a --summary run: the chunks in flight are then a small part of the memory, so a
# 10^8-deal summary peaks where a 10^6-deal one does (about 285 MiB either way; 1 << 20 gave 302 vs 352)
SUMMARY_CHUNK = 1 << 18
METADATA_KEY = b"cardlab"
INDEX_MAX = 2**63 - 1  # the last deal (game) index: the ``deal`` column is a signed 64-bit integer
DATASET_METADATA = "_cardlab.json"  # pyarrow's dataset reader skips names starting with "_" or "."
CHECKPOINT_SECONDS = 60.0  # a summary run rewrites its file this often, so a kill loses little
# a chunk played in this process is played as kernel calls of about this long each (a kernel call cannot be
# interrupted: Ctrl-C is seen between calls), so Ctrl-C answers within about a second whatever the chunk size
PIECE_SECONDS = 0.3
_IDENTITY_SKIP = ("versions", "complete", "requested", "missing", "chunk_size", "elapsed_s", "warmup_s", "covered",
                  "deals", "games", "first_deal", "first_game")


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped a run; its finished chunks were kept (in ``out``, or in ``frame``)."""

    def __init__(self, done: int, requested: int, unit: str, out=None, frame=None, meta=None):
        super().__init__(f"interrupted: kept {done:,} of {requested:,} {unit}s")
        self.done, self.requested, self.unit, self.out, self.frame, self.meta = done, requested, unit, out, frame, meta


class ChunksFailed(RuntimeError):
    """Chunks failed twice; every other chunk was played and kept. ``missing`` lists the failed ones."""

    def __init__(self, missing: list, out=None, frame=None):
        lines = [f"{len(missing)} chunk(s) failed twice and are missing:"]
        lines += [f"  seed {m.get('seed')}, first {m['first']}, count {m['count']}, options {m.get('options')}: "
                  f"{m['error']}" for m in missing]
        if out is not None:
            lines.append(f"the rest is in {out}; run the same command again to retry the missing chunks"
                         if Path(out).is_dir() else f"the rest is in {out} (marked incomplete)")
        super().__init__("\n".join(lines))
        self.missing, self.out, self.frame = missing, out, frame


# ---------------------------------------------------------------- defaults a caller can set for every game

_RUN_OPTIONS: contextvars.ContextVar[dict] = contextvars.ContextVar("cardlab_run_options", default={})


@contextlib.contextmanager
def run_options(**options):
    """Defaults for :func:`run` (``summary``, ``executor``, ``threads_per_task``, ``overwrite``) inside the block.

    The command line sets ``--summary``, ``--scheduler`` and ``--overwrite`` this way, so every registered
    game gets them without passing them through its facade.
    """
    token = _RUN_OPTIONS.set({**_RUN_OPTIONS.get(), **options})
    try:
        yield
    finally:
        _RUN_OPTIONS.reset(token)


# ---------------------------------------------------------------- small helpers


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
    import numba  # here: importing this module (the command line does, first thing) stays quick, and a Ctrl-C
    # during numba's import then lands inside the command's handling of it, not in a traceback

    if threads is None:
        threads = numba.config.NUMBA_NUM_THREADS
    check_positive_int("threads", threads)
    if threads > numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads: {threads} is not allowed; this machine allows 1 to {numba.config.NUMBA_NUM_THREADS}")
    numba.set_num_threads(int(threads))
    return int(threads)


class _NoBar:
    """The bar of a run without progress: does nothing (and imports nothing, unlike a disabled tqdm)."""

    def update(self, n=1):
        pass

    def close(self):
        pass


def progress_bar(total: int, unit: str, progress: bool, *, initial: int = 0):
    """A tqdm bar on stderr; a widget in Jupyter when ipywidgets is there. Nothing is imported for a run
    without progress, so a notebook never shows tqdm's "IProgress not found" warning."""
    if not progress:
        return _NoBar()
    import warnings

    from tqdm import TqdmWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", TqdmWarning)
        try:
            from tqdm.auto import tqdm
        except TqdmWarning:  # Jupyter without ipywidgets: the plain text bar
            from tqdm.std import tqdm
    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, file=sys.stderr)


def versions() -> dict:
    """Versions of cardlab and its engines, for run metadata."""
    out = {"python": platform.python_version()}
    for name in ("cardlab", "numba", "numpy", "pandas", "pyarrow"):
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = "unknown"
    return out


def is_dataset_path(out) -> bool:
    """True when ``out`` names a Parquet dataset (a directory): it ends in ``/`` or is an existing directory."""
    text = str(out)
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


def check_output_path(out, *, directory: bool = False) -> Path:
    """Fail early, naming the option, when ``out`` cannot be written."""
    path = Path(out)
    if directory:
        if path.exists() and not path.is_dir():
            raise ValueError(f"out: {str(out)!r} is a file; a dataset needs a directory")
        parent = path
    else:
        parent = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            raise ValueError(f"out: {str(out)!r} is a directory; give a file path such as runs/study.parquet")
        if path.suffix.lower() not in (".parquet", ".pq"):
            raise ValueError(f"out: {str(out)!r} is not allowed; cardlab writes Parquet, so give a name ending in "
                             ".parquet or .pq (such as runs/study.parquet), or a directory ending in / for a dataset")
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
    import pandas as pd  # here, not at the top: a command writing a file never needs pandas (0.2 s of start-up)

    return pd.DataFrame(data, copy=False)


def _is_pandas(value, kind: str) -> bool:
    """Whether ``value`` is a pandas ``kind`` (``DataFrame``, ``Categorical``), without importing pandas:
    nothing can be an instance of a class that was never loaded."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, getattr(pd, kind))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_parts(folder: Path, prefix: str) -> int:
    """Remove hidden ``<prefix>.<pid>.part`` files whose writing process is gone; returns how many."""
    removed = 0
    pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.part")
    if not folder.is_dir():
        return 0
    for entry in folder.iterdir():
        m = pattern.fullmatch(entry.name)
        if m and not _pid_alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                entry.unlink()
                removed += 1
    return removed


def _identity(meta: dict) -> dict:
    """What makes two runs the same study (everything but counts, versions and progress), JSON-normalised."""
    return json.loads(json.dumps({k: v for k, v in meta.items() if k not in _IDENTITY_SKIP}, default=str))


def _merge_intervals(intervals) -> list[list[int]]:
    merged: list[list[int]] = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def plan_chunks(first: int, count: int, chunk_size: int, covered=()) -> list[tuple[int, int]]:
    """The chunks ``(first, count)`` of ``first .. first+count-1`` on the fixed grid ``first + k * chunk_size``,
    less the ``covered`` intervals ``[a, b)`` (a resumed run plays only what is missing)."""
    end = first + count
    todo = []
    gaps, cursor = [], first
    for a, b in _merge_intervals(covered):
        if a > cursor:
            gaps.append((cursor, min(a, end)))
        cursor = max(cursor, b)
    if cursor < end:
        gaps.append((cursor, end))
    for a, b in gaps:
        start = a
        while start < b:
            grid_end = first + ((start - first) // chunk_size + 1) * chunk_size
            stop = min(grid_end, b)
            todo.append((start, stop - start))
            start = stop
    return todo


# ---------------------------------------------------------------- sinks: where finished chunks go


def _arrow_table(columns, meta: dict | None):
    """An Arrow table of a chunk's columns (or a DataFrame), straight from the arrays: no pandas round trip.
    ``meta`` (unless None) goes into the schema metadata under ``cardlab``.

    A ``(rows, n)`` array ``x`` becomes ``x_0`` … ``x_{n-1}``; a categorical becomes a dictionary
    column, which pandas reads back as a categorical. Columns without missing values are declared
    non-nullable, so Parquet writes no definition levels for them (a third less CPU on game rows;
    pandas reads the same frame back).
    """
    import pyarrow as pa

    own = {} if meta is None else {METADATA_KEY: json.dumps(meta).encode()}
    if _is_pandas(columns, "DataFrame"):
        table = pa.Table.from_pandas(columns, preserve_index=False)
        return table.replace_schema_metadata({**(table.schema.metadata or {}), **own})
    names, arrays = [], []
    for name, value in columns.items():
        if isinstance(value, np.ndarray) and value.ndim == 2:
            for p in range(value.shape[1]):
                names.append(f"{name}_{p}")
                arrays.append(_arrow_array(value[:, p]))
        elif _is_pandas(value, "Categorical"):
            names.append(name)
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(value.codes), pa.array(list(value.categories))))
        else:
            names.append(name)
            arrays.append(_arrow_array(value))
    schema = pa.schema([pa.field(name, array.type, nullable=array.null_count > 0)
                        for name, array in zip(names, arrays)], metadata=own or None)
    return pa.Table.from_arrays(arrays, schema=schema)


def _arrow_array(values):
    """An Arrow array over a numpy array's memory, not copied. ``pa.array`` would first look for pandas
    objects, importing pandas (0.2 s of a command's start-up); numbers need no such check. Booleans
    (bytes in numpy, bits in Arrow) and other kinds still go through ``pa.array``."""
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    if values.ndim == 1 and values.dtype.kind in "iuf":
        return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])
    return pa.array(values)


def parquet_options(table, index: str | None) -> dict:
    """Cheap, compact Parquet writing (about half the CPU of pyarrow's defaults on game rows): LZ4,
    dictionaries only for categorical columns, the ascending deal (game) index delta-encoded, and
    min/max statistics only for that index (the one column whose row groups a filter can skip).

    8-bit integer columns are stored (as Parquet stores them) in 32-bit values, three bytes of which
    are nearly always 0x00 or 0xFF; byte-stream split hands the compressor those bytes as streams of
    their own, which it packs almost for free: Euchre game rows take less CPU and 43% less room, Barbu
    game rows 13% less room (16-bit columns stay plain: split, they came out larger). Readers need
    Parquet 2.11's byte-stream split for integers: pyarrow 17 or later."""
    import pyarrow as pa

    dictionary = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    options = {"compression": "lz4", "use_dictionary": dictionary, "write_statistics": False,
               "column_encoding": {f.name: "BYTE_STREAM_SPLIT" for f in table.schema
                                   if pa.types.is_integer(f.type) and f.type.bit_width == 8 and f.name != index}}
    if index in table.schema.names and pa.types.is_integer(table.schema.field(index).type):
        options["column_encoding"][index] = "DELTA_BINARY_PACKED"
        options["write_statistics"] = [index]
    return options


def _write_atomic(path: Path, write) -> None:
    """``write(tmp)`` to a hidden ``.<name>.<pid>.part`` beside ``path``, then rename it into place."""
    tmp = path.parent / f".{path.name}.{os.getpid()}.part"
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _differences(old: dict, meta: dict) -> str:
    """What differs between the run ``old`` found in an output and the run ``meta`` asked: ``its seed differs``."""
    a, b = _identity(old), _identity(meta)
    names = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
    return f"its {', '.join(names)} {'differ' if len(names) > 1 else 'differs'}" if names else "other settings"


def _exists_message(path: Path, old: dict | None, meta: dict) -> str:
    """One line for an output file that exists and that this run would replace (``overwrite=False``)."""
    where = f"out: {str(path)!r}"
    if not old:
        return f"{where} already exists and holds no cardlab run; give --overwrite to replace it, or another --out"
    unit = old.get("unit", "deal")
    kept, asked = old.get(f"{unit}s"), old.get("requested", old.get(f"{unit}s"))
    size = (f"{kept:,} of {asked:,} {unit}s" if isinstance(kept, int) and isinstance(asked, int) and kept != asked
            else f"{kept:,} {unit}s" if isinstance(kept, int) else "a run")
    what = f"{old.get('game', 'cardlab')} run, seed {old.get('seed')}, {size}"
    if old.get("complete", True):
        return f"{where} already holds a complete {what}; give --overwrite to replace it, or another --out"
    if _identity(old) != _identity(meta):
        return (f"{where} holds an unfinished {what} ({_differences(old, meta)}); run its own command again to "
                "resume it, give --overwrite to replace it, or another --out")
    why = ("chunks of it failed" if old.get("missing") else "it starts at another index"
           if old.get(f"first_{unit}") != meta.get(f"first_{unit}") else "it holds more than this run asks")
    return (f"{where} holds an unfinished {what} that this command cannot resume ({why}); give --overwrite to "
            "replace it, or another --out")


class FrameSink:
    """Gathers the chunks into one DataFrame (in deal order whatever order they arrive in)."""

    covered: list = []

    def settle(self, done, interrupted):
        """How many units the output holds once the run stops (see FileSink)."""
        return done

    def __init__(self):
        self.frames = {}

    def add(self, start, count, result):
        self.frames[start] = to_frame(result)

    def result(self):
        if not self.frames:
            return None
        import pandas as pd

        frames = [self.frames[k] for k in sorted(self.frames)]
        return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]

    def close(self, meta):
        frame = self.result()
        if frame is not None:  # every game's rows carry their run's metadata, as a run file does
            frame.attrs["cardlab"] = meta
        return frame

    def abort(self):
        pass


def _final_metadata(schema, meta: dict) -> dict:
    """The footer entries that give a streamed file its run metadata once the run has ended: the ``cardlab``
    key, and the ``ARROW:schema`` entry (the Arrow schema with that key) that pyarrow builds its schema
    from, so ``pq.read_metadata``, ``pq.read_schema``, ``pq.read_table(...).schema`` and ``pyarrow.dataset``
    all say what the file holds (the writer put the schema of open time there: it replaces that one)."""
    import base64

    text = json.dumps(meta)
    final = schema.with_metadata({**(schema.metadata or {}), METADATA_KEY: text.encode()})
    return {METADATA_KEY.decode(): text, "ARROW:schema": base64.b64encode(final.serialize().to_pybytes()).decode()}


class FileSink:
    """Streams the chunks, in deal order, as row groups of one Parquet file; renamed into place at the end.

    A file left incomplete by Ctrl-C is reused by the same command: its rows are copied and the
    run goes on after them.
    """

    def __init__(self, path: Path, meta: dict, first: int, count_key: str, overwrite: bool | None = None):
        self.path, self.meta, self.writer, self.next, self.first = path, meta, None, first, first
        self.index = count_key[:-1]
        self.pending: dict[int, pd.DataFrame] = {}
        self.tmp = path.parent / f".{path.name}.{os.getpid()}.part"
        self.covered = []
        self.reuse = None
        if path.exists():
            old = read_file_metadata(path)
            resumable = (old and old.get("complete") is False and not old.get("missing")
                         and _identity(old) == _identity(meta) and old.get(f"first_{self.index}") == first
                         and int(old[count_key]) <= meta[count_key])
            if resumable and overwrite is not True:
                self.reuse = path
                self.covered = [[first, first + int(old[count_key])]]
                self.next = first + int(old[count_key])
            elif overwrite is False:
                raise ValueError(_exists_message(path, old, meta))
        remove_stale_parts(path.parent, f".{path.name}")

    def _open(self, table):
        import pyarrow.parquet as pq

        # no run metadata in the schema now: what the run holds is known at close (see close)
        schema = table.schema.with_metadata({k: v for k, v in (table.schema.metadata or {}).items()
                                             if k != METADATA_KEY})
        self.writer = pq.ParquetWriter(self.tmp, schema, **parquet_options(table, self.index))
        if self.reuse is not None:
            old = pq.ParquetFile(self.reuse)
            for i in range(old.num_row_groups):
                self.writer.write_table(old.read_row_group(i).cast(table.schema))

    def add(self, start, count, result):
        self.pending[start] = (count, result)
        while self.next in self.pending:
            n, frame = self.pending.pop(self.next)
            table = _arrow_table(frame, None)
            if self.writer is None:
                self._open(table)
            self.writer.write_table(table.cast(self.writer.schema))
            self.next += n

    def settle(self, done, interrupted):
        """Interrupted: keep the rows in deal order (a resumable prefix), dropping later chunks that finished
        early on an executor. Chunks failed: write the later chunks too (the file has gaps, listed as missing)."""
        if interrupted:
            self.pending.clear()
            return self.next - self.first
        for start in sorted(self.pending):
            n, frame = self.pending.pop(start)
            table = _arrow_table(frame, None)
            if self.writer is None:
                self._open(table)
            self.writer.write_table(table.cast(self.writer.schema))
        return done

    def close(self, meta):
        import pyarrow.parquet as pq

        if self.writer is None:
            if self.reuse is None:
                return None
            table = pq.read_table(self.reuse)
            self._open(table.slice(0, 0))
        self.writer.add_key_value_metadata(_final_metadata(self.writer.schema, meta))
        self.writer.close()
        self.writer = None
        os.chmod(self.tmp, 0o666 & ~_umask())
        os.replace(self.tmp, self.path)
        return None

    def abort(self):
        if self.writer is not None:
            self.writer.close()
        with contextlib.suppress(OSError):
            self.tmp.unlink()


class DatasetSink:
    """One Parquet file per finished chunk in a directory, plus ``_cardlab.json``; resumable."""

    def __init__(self, folder: Path, meta: dict, first: int, count: int, index: str = "deal",
                 overwrite: bool | None = None):
        self.folder, self.meta, self.index = folder, meta, index
        for entry in folder.glob(".*.part"):  # hidden parts whose writer is gone
            m = re.search(r"\.(\d+)\.part$", entry.name)
            if m and not _pid_alive(int(m.group(1))):
                with contextlib.suppress(OSError):
                    entry.unlink()
        self.covered = []
        old_path = folder / DATASET_METADATA
        names = sorted(folder.glob("chunk-*.parquet"))
        if old_path.is_file():
            old = json.loads(old_path.read_text()).get("run", {})
            if overwrite is True:  # replace the run: its chunk files and metadata, nothing else in the directory
                for name in names:
                    name.unlink()
                names = []
            elif _identity(old) != _identity(meta):
                raise ValueError(f"out: {str(folder)!r} holds a different run ({_differences(old, meta)}); run its "
                                 "own command to resume it, give --overwrite to replace it, or give a new directory")
        elif names or any(folder.iterdir()):
            raise ValueError(f"out: {str(folder)!r} is not empty and holds no cardlab run; give a new directory")
        for name in names:
            m = re.fullmatch(r"chunk-(\d+)-(\d+)\.parquet", name.name)
            if m:
                a, n = int(m.group(1)), int(m.group(2))
                if a < first or a + n > first + count:
                    raise ValueError(f"out: {str(folder)!r} already holds rows {a}..{a + n - 1}, outside the range "
                                     f"asked ({first}..{first + count - 1}); give --overwrite to replace that run, "
                                     "or a new directory")
                self.covered.append([a, a + n])
        self.fresh = not old_path.is_file()
        # while it runs the directory says what it holds: the units of its chunk files, not the count asked
        self.write_metadata(dict(meta, **{f"{index}s": sum(b - a for a, b in self.covered)}, complete=False))

    def chunk_metadata(self, start: int, count: int) -> dict:
        """A chunk file's own metadata: the run's settings and the units this file holds (``chunk``), not the
        run's counts, which only ``_cardlab.json`` knows at the end (a reader of the directory sees one
        chunk file's schema: it must not claim the whole run's size or completeness)."""
        run_only = ("requested", "complete", "missing", "covered", "elapsed_s", "warmup_s", "chunk_size",
                    f"{self.index}s", f"first_{self.index}")
        return {**{k: v for k, v in self.meta.items() if k not in run_only},
                "chunk": {f"first_{self.index}": start, f"{self.index}s": count}, "run_metadata": DATASET_METADATA}

    def write_metadata(self, meta):
        body = json.dumps({"run": meta}, indent=1)
        _write_atomic(self.folder / DATASET_METADATA, lambda tmp: Path(tmp).write_text(body))

    def add(self, start, count, result):
        import pyarrow.parquet as pq

        table = _arrow_table(result, self.chunk_metadata(start, count))
        _write_atomic(self.folder / f"chunk-{start:020d}-{count}.parquet",
                      lambda tmp: pq.write_table(table, tmp, **parquet_options(table, self.index)))

    def close(self, meta):
        self.write_metadata(meta)
        return None

    def abort(self):
        """The run stopped before its first chunk: a metadata file this run started alone is removed."""
        if self.fresh and not any(self.folder.glob("chunk-*.parquet")):
            with contextlib.suppress(OSError):
                (self.folder / DATASET_METADATA).unlink()


def refuse_existing(out, meta: dict, overwrite: bool | None = None) -> None:
    """Before a study that writes its one small file at the end (``study balance``): refuse a dataset
    directory, and an ``out`` that exists when ``overwrite`` is False (the command line's default
    without ``--overwrite``), in one line naming it and what it holds."""
    overwrite = _RUN_OPTIONS.get().get("overwrite") if overwrite is None else overwrite
    if is_dataset_path(out):
        raise ValueError(f"out: {str(out)!r} is a directory; this study writes one small file, e.g. "
                         "runs/study.parquet")
    path = Path(out)
    if path.exists() and overwrite is False:
        raise ValueError(_exists_message(path, read_file_metadata(path), meta))


def write_frame(frame, out, meta: dict) -> Path:
    """A study's table (not one row per deal) as one Parquet file carrying its run metadata, written whole to a
    hidden part and renamed into place (nothing is left behind when writing fails)."""
    import pyarrow.parquet as pq

    path = check_output_path(out)
    table = _arrow_table(frame, meta)
    _write_atomic(path, lambda tmp: pq.write_table(table, tmp))
    return path


class SummarySink:
    """Counts the rows (:class:`~cardlab.sim.summary.RowCounter`); the output is one small Parquet file.

    The file is rewritten every :data:`CHECKPOINT_SECONDS` with the deal ranges it covers, so the
    same command after a kill resumes from the last checkpoint.
    """

    def __init__(self, path: Path | None, meta: dict, drop: str, overwrite: bool | None = None):
        from cardlab.sim.summary import SeatCounter

        self.path, self.meta, self.drop = path, meta, drop
        self.counter = SeatCounter(drop)
        self.covered: list = []
        self.last = time.monotonic()
        if path is not None:
            if path.exists():
                old = read_file_metadata(path)
                resumable = (old and old.get("complete") is False and _identity(old) == _identity(meta)
                             and "covered" in old)
                if resumable and overwrite is not True:
                    import pyarrow.parquet as pq

                    self.counter = SeatCounter.from_frame(pq.read_table(path).to_pandas(), drop)
                    self.covered = [list(c) for c in old["covered"]]
                elif overwrite is False:
                    raise ValueError(_exists_message(path, old, meta))
            remove_stale_parts(path.parent, f".{path.name}")

    def add(self, start, count, result):
        if isinstance(result, dict):
            self.counter.add(result)
        else:
            self.counter.merge(result)
        self.covered = _merge_intervals(self.covered + [[start, start + count]])
        if self.path is not None and time.monotonic() - self.last > CHECKPOINT_SECONDS:
            self._write(dict(self.meta, complete=False, covered=self.covered))
            self.last = time.monotonic()

    def _write(self, meta):
        import pyarrow.parquet as pq

        table = _arrow_table(self.counter.to_frame(), meta)
        _write_atomic(self.path, lambda tmp: pq.write_table(table, tmp))

    def close(self, meta):
        meta = dict(meta, covered=self.covered)
        if self.path is None:
            frame = self.counter.to_frame()
            frame.attrs["cardlab"] = meta
            return frame
        self._write(meta)
        return None

    def abort(self):
        pass


def read_file_metadata(path) -> dict | None:
    """A run file's metadata: the file's ``cardlab`` key (written last, so it tells how the run ended)."""
    import pyarrow.parquet as pq

    try:
        raw = (pq.read_metadata(path).metadata or {}).get(METADATA_KEY)
        return json.loads(raw) if raw else None
    except Exception:  # not a Parquet file of ours: it will simply be replaced
        return None


# ---------------------------------------------------------------- the writer thread


class _Writer:
    """Hands finished chunks to a sink on a background thread through a bounded queue.

    The queue holds at most ``depth`` chunks, so a slow disk slows the run instead of filling memory.
    """

    def __init__(self, sink, depth: int = 2):
        self.sink, self.error, self.abandoned = sink, None, False
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._loop, name="cardlab-writer", daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is None and not self.abandoned:
                try:
                    self.sink.add(*item)
                except BaseException as err:  # noqa: BLE001 - re-raised in the main thread
                    self.error = err

    def put(self, start, count, result):
        if self.error is not None:
            raise self.error
        self.queue.put((start, count, result))

    def _stop(self):
        while True:
            try:
                self.queue.put(None)
                self.thread.join()
                return
            except KeyboardInterrupt:  # a second Ctrl-C while the last chunk is written: keep waiting
                continue

    def finish(self):
        """Write everything queued, stop the thread; re-raise a writing error."""
        self._stop()
        if self.error is not None:
            raise self.error

    def abandon(self):
        """The run failed: skip the chunks still queued and wait for the one being written, so the
        sink's clean-up runs after the thread's last write, never before it."""
        self.abandoned = True
        self._stop()


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """A SIGTERM stops the run like Ctrl-C does (finished chunks are kept)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# ---------------------------------------------------------------- a chunk in pieces: Ctrl-C between kernel calls


class _Pace:
    """How many units the next kernel call plays: about :data:`PIECE_SECONDS` of work at the rate the
    last call ran (at most 16 times the last call, and at least 2), measured as the run goes."""

    def __init__(self, seconds_per_unit: float):
        self.rate = 1.0 / max(seconds_per_unit, 1e-9)
        self.last = None
        self.split = True  # False once a chunk's rows could not be joined back in order: chunks whole from then on

    def size(self) -> int:
        n = int(self.rate * PIECE_SECONDS)
        if self.last is not None:
            n = min(n, 16 * self.last)
        return max(2, n)

    def record(self, count: int, seconds: float) -> None:
        self.rate, self.last = count / max(seconds, 1e-9), count


def _play_in_pieces(play_chunk, start: int, count: int, pace: _Pace, index: str):
    """``play_chunk(start, count)``, played as consecutive calls of about :data:`PIECE_SECONDS` each and
    joined (:func:`_join_pieces`), so a pending Ctrl-C is raised between calls; the rows are those of
    one call. Rows that cannot be joined in order make this chunk, and every later one, one call."""
    if not pace.split or count <= pace.size():
        began = time.perf_counter()
        result = play_chunk(start, count)
        pace.record(count, time.perf_counter() - began)
        return result
    pieces, at, end = [], start, start + count
    while at < end:
        n = min(pace.size(), end - at)
        if end - at - n == 1:  # no piece of a single unit: blocks of rows are told apart on two units or more
            n += 1
        began = time.perf_counter()
        pieces.append(play_chunk(at, n))
        pace.record(n, time.perf_counter() - began)
        at += n
    joined = _join_pieces(pieces, index)
    if joined is None:
        pace.split = False
        return play_chunk(start, count)
    return joined


def _index_values(result, index: str):
    """The ``index`` column (``deal``, ``game``) of a chunk's result as a 1-D array, or None."""
    if _is_pandas(result, "DataFrame"):
        return result[index].to_numpy() if index in result.columns else None
    value = result.get(index) if isinstance(result, dict) else None
    return value if isinstance(value, np.ndarray) and value.ndim == 1 else None


def _blocks(result, index: str):
    """Where the rows of a piece break into blocks, each in ascending ``index`` order (a study's variants
    one after the other): ``[0, b1, …, rows]``, or None without an index column."""
    values = _index_values(result, index)
    if values is None:
        return None
    return [0, *(np.flatnonzero(np.diff(values) < 0) + 1).tolist(), len(values)]


def _join_pieces(pieces, index: str):
    """The rows of one call over the pieces' units, from the pieces' rows, or None when that cannot be known.

    A chunk's rows are ``k`` blocks each covering its units in ascending ``index`` order (``k`` = 1 for
    one row, or rows, per unit; a study of ``k`` variants one after the other): block ``j`` of the whole
    is block ``j`` of every piece in turn. Pieces with different block counts, no index column, or
    columns that are not per-row arrays give None.
    """
    bounds = [_blocks(piece, index) for piece in pieces]
    if any(b is None for b in bounds) or len({len(b) for b in bounds}) != 1:
        return None
    rows = [slice(b[j], b[j + 1]) for j in range(len(bounds[0]) - 1) for b in bounds]
    owner = [i for _ in range(len(bounds[0]) - 1) for i in range(len(pieces))]
    if all(_is_pandas(piece, "DataFrame") for piece in pieces):
        import pandas as pd

        return pd.concat([pieces[i].iloc[r] for i, r in zip(owner, rows)], ignore_index=True)
    if not all(isinstance(piece, dict) and piece.keys() == pieces[0].keys() for piece in pieces):
        return None
    joined = {}
    for name in pieces[0]:
        values = [piece[name] for piece in pieces]
        if all(isinstance(v, np.ndarray) and v.ndim >= 1 for v in values):
            if any(len(v) != b[-1] for v, b in zip(values, bounds)):
                return None
            joined[name] = np.concatenate([values[i][r] for i, r in zip(owner, rows)])
        elif all(_is_pandas(v, "Categorical") for v in values):
            if any(len(v) != b[-1] for v, b in zip(values, bounds)):
                return None
            first = values[0]
            if not all(v.ordered == first.ordered and v.categories.equals(first.categories) for v in values):
                return None
            codes = np.concatenate([values[i].codes[r] for i, r in zip(owner, rows)])
            joined[name] = type(first).from_codes(codes, dtype=first.dtype)
        else:
            return None
    return joined


# ---------------------------------------------------------------- the run


def run_study(play_chunk: Callable[[int, int], dict], meta: dict, *, deals: int, threads=None, first_deal: int = 0,
              chunk_size: int, progress: bool = False, out=None) -> pd.DataFrame | None:
    """A paired study's rows: :func:`run` of ``play_chunk`` over ``deals`` deals with the study's ``meta``, the
    kernels on ``threads`` (:func:`set_threads`)."""
    set_threads(threads)
    return run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress, out=out,
               meta=meta)


def run(play_chunk: Callable[[int, int], dict], *, deals: int, first_deal: int = 0, chunk_size: int = DEFAULT_CHUNK,
        progress: bool = False, out=None, meta: dict | None = None, unit: str = "deal", summary: bool | None = None,
        executor=None, threads_per_task: int | None = None, overwrite: bool | None = None) -> pd.DataFrame | None:
    """Play ``deals`` units (deals, or games with ``unit='game'``) in chunks.

    Returns a DataFrame, or writes ``out`` (a file, or a dataset directory when ``out`` ends in
    ``/`` or is a directory) and returns None. The metadata records the count as ``deals``
    (``games``), the start as ``first_deal`` (``first_game``), ``requested`` and ``complete``.

    ``summary=True`` counts per-seat rows instead of keeping the rows (a frame or file of
    distinct rows and their ``count``; see :class:`~cardlab.sim.summary.SeatCounter`). ``executor`` is a ``concurrent.futures.Executor`` or a dask
    ``distributed.Client`` (default: this process, the kernels on numba's threads);
    ``threads_per_task`` sets numba's threads inside each task there. ``overwrite`` says what to do with
    an ``out`` that exists and is not this run's to resume (an unfinished file or dataset of the same
    settings is resumed unless ``overwrite=True``): ``False`` refuses it in one line naming it (the
    command line's default, ``--overwrite`` sets True), ``True`` replaces it, None (Python's default)
    replaces a file as ``DataFrame.to_parquet`` would and refuses a dataset of another run. Unset keywords
    take the defaults of an enclosing :func:`run_options`.
    """
    defaults = _RUN_OPTIONS.get()
    summary = bool(defaults.get("summary", False) if summary is None else summary)
    executor = defaults.get("executor") if executor is None else executor
    threads_per_task = defaults.get("threads_per_task") if threads_per_task is None else threads_per_task
    overwrite = defaults.get("overwrite") if overwrite is None else overwrite
    count_key, first_key = f"{unit}s", f"first_{unit}"
    first_deal, deals = check_span(first_deal, deals, first_option=first_key, count_option=count_key)
    chunk_size = check_positive_int("chunk_size", chunk_size)
    base = dict(meta or {}, unit=(meta or {}).get("unit", unit), **({"summary": True} if summary else {}))
    meta = dict(base, **{count_key: deals, first_key: first_deal}, requested=deals, chunk_size=chunk_size,
                versions=versions())

    if out is None:
        sink = SummarySink(None, meta, unit) if summary else FrameSink()
    elif summary:
        if is_dataset_path(out):
            raise ValueError(f"out: {str(out)!r} is a directory; a summary is one small file, e.g. runs/study.parquet")
        sink = SummarySink(check_output_path(out), meta, unit, overwrite)
    elif is_dataset_path(out):
        sink = DatasetSink(check_output_path(out, directory=True), meta, first_deal, deals, unit, overwrite)
    else:
        sink = FileSink(check_output_path(out), meta, first_deal, count_key, overwrite)
    chunks = plan_chunks(first_deal, deals, chunk_size, sink.covered)
    done = deals - sum(c for _, c in chunks)
    if done and out is not None:
        print(f"resuming {out}: {done:,} {count_key} already there, {deals - done:,} to play", file=sys.stderr)

    bar = progress_bar(deals, unit, progress, initial=done)
    writer = _Writer(sink, depth=1 if summary else 2)  # counting keeps up with the kernels: one chunk is enough
    missing: list[dict] = []
    started = time.perf_counter()
    warmup = 0.0
    interrupted = False
    try:
        with _sigterm_as_interrupt():
            try:
                if executor is None:  # counting a summary happens on the writer thread, like writing
                    unit_cost = 1.0
                    if chunks:  # load (or compile) the kernels first, so elapsed_s is the run's own rate
                        wall, cpu = time.perf_counter(), time.process_time()
                        play_chunk(chunks[0][0], 1)
                        # the first piece's size comes from this unit's cost: its CPU time when less than its
                        # wall time (a busy machine stalls the clock, not the work; a fast chunk stays whole)
                        unit_cost = min(time.perf_counter() - wall, time.process_time() - cpu)
                        warmup, started = time.perf_counter() - started, time.perf_counter()
                    pace = _Pace(unit_cost)
                    for start, count in chunks:
                        writer.put(start, count, _play_in_pieces(play_chunk, start, count, pace, unit))
                        done += count
                        bar.update(count)
                else:
                    for start, count, result in _fan_out(executor, play_chunk, chunks, summary, unit,
                                                         threads_per_task, missing, meta):
                        writer.put(start, count, result)
                        done += count
                        bar.update(count)
            except KeyboardInterrupt:
                interrupted = True
            writer.finish()
    except BaseException:
        bar.close()
        writer.abandon()
        sink.abort()
        raise
    bar.close()
    done = getattr(sink, "settle", lambda d, i: d)(done, interrupted)
    final = dict(meta, **{count_key: done}, complete=not interrupted and not missing,
                 elapsed_s=round(time.perf_counter() - started, 3), warmup_s=round(warmup, 3))
    if missing:
        final["missing"] = missing
    if interrupted and done == 0 and not getattr(sink, "covered", None):  # nothing kept: nothing written or said
        sink.abort()  # (the command line says "cardlab: interrupted", as for a Ctrl-C before the run)
        raise RunInterrupted(0, deals, unit, None, None, final)
    result = sink.close(final)
    if interrupted:
        where = f" in {out}" if out is not None else ""
        print(f"interrupted: kept {done:,} of {deals:,} {count_key}{where}", file=sys.stderr)
        raise RunInterrupted(done, deals, unit, out, result, final)
    if missing:
        raise ChunksFailed(missing, out, result)
    return result


def _fan_out(executor, play_chunk, chunks, summary, unit, threads, missing, meta):
    """Yield ``(start, count, result)`` as the executor finishes chunks; at most two per slot in flight.

    A chunk that raises (or whose worker dies) is tried once more; a second failure is recorded
    in ``missing`` with the seed, first deal, count and options, and the run goes on.
    """
    from cardlab.sim import executors

    if chunks:  # compile or load the kernels here once, then on every worker before the fan-out
        executors.warm(play_chunk, chunks[0][0])
        executors.warm_workers(executor, play_chunk, chunks[0][0], threads)
    task_fn = executors.scatter(executor, play_chunk)
    summarize = unit if summary else None
    window = 2 * executors.slots(executor)
    todo = deque((start, count, 0) for start, count in chunks)
    pending = {}
    try:
        while todo or pending:
            while todo and len(pending) < window:
                start, count, attempt = todo.popleft()
                future = executors.submit(executor, executors.play_task, task_fn, start, count, summarize, threads)
                pending[future] = (start, count, attempt)
            for future in executors.wait_first(pending):
                start, count, attempt = pending.pop(future)
                try:
                    result = future.result()
                except Exception as err:  # noqa: BLE001 - a failed chunk is retried, then reported
                    if attempt == 0:
                        todo.appendleft((start, count, 1))
                    else:
                        missing.append({"seed": meta.get("seed"), "first": start, "count": count,
                                        "options": meta.get("options"), "error": f"{type(err).__name__}: {err}"})
                    continue
                yield start, count, result
    finally:
        executors.cancel(pending)
