"""Constant-memory summaries: a run's rows counted instead of kept.

:class:`SeatCounter` (what ``summary=True`` uses) counts one row per (deal, seat): the deal's
columns, the seat, its score and the other seats' total; see its docstring. It is built on
:class:`RowCounter`, which counts whole rows: every column except the deal (or game) index, plus
``count``, how many deals gave that exact row. Any statistic of the rows, paired differences
between columns of one row included, is the same with each distinct row weighted by its count;
but whole rows of many seats combine into many distinct rows (Salade's four scores: about 62,000
distinct rows in 110,000 deals, still growing), which is why summaries count per seat.

Counting is a Numba hash table over the rows' integer codes (categories by code, floats by
their bits): order-free, so chunks may arrive in any order from any number of workers, and
the result (sorted rows) is identical for every executor and chunk size.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
from numba import njit

EMPTY = np.int64(-1)  # count of an unused slot
_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, error_model="numpy", nogil=True)
def _slot(keys, row, mask):
    """Hash of ``row`` as a starting slot (multiply-xorshift over the row's words)."""
    h = np.uint64(0xCBF29CE484222325)
    for j in range(row.shape[0]):
        h = (h ^ np.uint64(row[j])) * _MIX
        h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit(cache=True, error_model="numpy", nogil=True)
def count_rows_nb(rows, weights, start, keys, counts, used):
    """Add ``rows[start:]`` (each with its weight) to the open-addressing table ``keys``/``counts``.

    Stops early when the table is half full and returns the first row not added, so the caller
    can grow the table and go on; returns ``len(rows)`` when every row is in. ``used[0]`` is the
    number of slots in use.
    """
    capacity = counts.shape[0]
    mask = capacity - 1
    k = rows.shape[1]
    for i in range(start, rows.shape[0]):
        if 2 * (used[0] + 1) > capacity:
            return i
        s = _slot(keys, rows[i], mask)
        while True:
            if counts[s] == EMPTY:
                for j in range(k):
                    keys[s, j] = rows[i, j]
                counts[s] = weights[i]
                used[0] += 1
                break
            same = True
            for j in range(k):
                if keys[s, j] != rows[i, j]:
                    same = False
                    break
            if same:
                counts[s] += weights[i]
                break
            s = (s + 1) & mask
    return rows.shape[0]


@njit(cache=True, error_model="numpy", nogil=True)
def count_seats_nb(plain, seats, start, keys, counts, used):
    """Add one row per (row, seat) to the table: ``plain[i]``, the seat, and for each seat array
    ``seats[i, a]`` that seat's value and the other seats' total. Stops when the table is half
    full and returns the next ``i * n + seat`` to add (``rows * n`` when done)."""
    m, p = plain.shape
    arrays, n = seats.shape[1], seats.shape[2]
    width = p + 1 + 2 * arrays
    capacity = counts.shape[0]
    mask = capacity - 1
    row = np.empty(width, np.int64)
    totals = np.empty(arrays, np.int64)
    for flat in range(start, m * n):
        i, seat = flat // n, flat % n
        if 2 * (used[0] + 1) > capacity:
            return flat
        for j in range(p):
            row[j] = plain[i, j]
        row[p] = seat
        for a in range(arrays):
            total = 0
            for q in range(n):
                total += seats[i, a, q]
            totals[a] = total
            row[p + 1 + 2 * a] = seats[i, a, seat]
            row[p + 2 + 2 * a] = total - seats[i, a, seat]
        slot = _slot(keys, row, mask)
        while True:
            if counts[slot] == EMPTY:
                for j in range(width):
                    keys[slot, j] = row[j]
                counts[slot] = 1
                used[0] += 1
                break
            same = True
            for j in range(width):
                if keys[slot, j] != row[j]:
                    same = False
                    break
            if same:
                counts[slot] += 1
                break
            slot = (slot + 1) & mask
    return m * n


@njit(cache=True, error_model="numpy", nogil=True)
def count_seats_packed_nb(plain, seats):
    """The per-seat rows of :func:`count_seats_nb`, counted with each row packed into one 64-bit word.

    A first pass finds each column's range in this chunk; a column of range ``r`` then takes
    ``bit_length(r)`` bits of the key. When the columns fit in 63 bits (game and deal rows do:
    about 50 bits), the rows are counted in a table of single words, far fewer memory touches
    than comparing whole rows, and the distinct rows are unpacked at the end. Returns
    ``(rows, counts, True)``, or empty arrays and False when the rows do not fit in one word (63 bits).
    """
    m, p = plain.shape
    arrays, n = seats.shape[1], seats.shape[2]
    width = p + 1 + 2 * arrays
    lo = np.full(width, np.iinfo(np.int64).max, np.int64)
    hi = np.full(width, np.iinfo(np.int64).min, np.int64)
    lo[p], hi[p] = 0, n - 1
    for i in range(m):
        for j in range(p):
            lo[j] = min(lo[j], plain[i, j])
            hi[j] = max(hi[j], plain[i, j])
        for a in range(arrays):
            total = np.int64(0)
            for q in range(n):
                total += np.int64(seats[i, a, q])
            for q in range(n):
                v = np.int64(seats[i, a, q])
                c = p + 1 + 2 * a
                lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
                lo[c + 1], hi[c + 1] = min(lo[c + 1], total - v), max(hi[c + 1], total - v)
    shift = np.zeros(width, np.int64)
    bits = np.zeros(width, np.int64)
    used_bits = 0
    for j in range(width):
        if m == 0:
            lo[j] = 0
            continue
        span = hi[j] - lo[j]
        if span < 0:  # more than 63 bits of range
            return np.zeros((0, width), np.int64), np.zeros(0, np.int64), False
        while span > 0:
            bits[j] += 1
            span >>= 1
        shift[j] = used_bits
        used_bits += bits[j]
    if used_bits > 63:  # keeps every shift below 64
        return np.zeros((0, width), np.int64), np.zeros(0, np.int64), False
    log = 12
    table = np.zeros((1 << log, 2), np.uint64)  # (key, count) side by side: one cache line per probe
    used = 0
    totals = np.empty(arrays, np.int64)
    for i in range(m):
        base = np.uint64(0)
        for j in range(p):
            base |= np.uint64(plain[i, j] - lo[j]) << np.uint64(shift[j])
        for a in range(arrays):
            total = np.int64(0)
            for q in range(n):
                total += np.int64(seats[i, a, q])
            totals[a] = total
        for seat in range(n):
            key = base | (np.uint64(seat) << np.uint64(shift[p]))
            for a in range(arrays):
                v = np.int64(seats[i, a, seat])
                c = p + 1 + 2 * a
                key |= np.uint64(v - lo[c]) << np.uint64(shift[c])
                key |= np.uint64(totals[a] - v - lo[c + 1]) << np.uint64(shift[c + 1])
            mask = np.uint64((1 << log) - 1)
            s = ((key * _MIX) >> np.uint64(64 - log)) & mask
            while table[s, 1] != 0 and table[s, 0] != key:
                s = (s + np.uint64(1)) & mask
            if table[s, 1] == 0:
                table[s, 0] = key
                used += 1
            table[s, 1] += np.uint64(1)
            if 2 * used > (1 << log):  # half full: double the table
                old = table
                log += 1
                table = np.zeros((1 << log, 2), np.uint64)
                mask = np.uint64((1 << log) - 1)
                for t in range(old.shape[0]):
                    if old[t, 1] != 0:
                        s = ((old[t, 0] * _MIX) >> np.uint64(64 - log)) & mask
                        while table[s, 1] != 0:
                            s = (s + np.uint64(1)) & mask
                        table[s, 0] = old[t, 0]
                        table[s, 1] = old[t, 1]
    rows = np.empty((used, width), np.int64)
    out = np.empty(used, np.int64)
    k = 0
    for t in range(table.shape[0]):
        if table[t, 1] != 0:
            for j in range(width):
                field = (table[t, 0] >> np.uint64(shift[j])) & np.uint64((1 << bits[j]) - 1)
                rows[k, j] = np.int64(field) + lo[j]
            out[k] = np.int64(table[t, 1])
            k += 1
    return rows, out, True


class RowCounter:
    """Distinct rows and their counts, fed chunk by chunk (``add``) or by other counters (``merge``).

    ``drop`` names the index column left out (``deal`` or ``game``). Columns are encoded as
    int64: integers as they are, booleans as 0/1, categoricals by code, floats by their bits; a
    ``(rows, n)`` array ``x`` becomes columns ``x_0`` … ``x_{n-1}`` as in the rows output.
    """

    def __init__(self, drop: str = "deal", capacity: int = 1024):
        self.drop, self.capacity = drop, capacity
        self.seat_arrays: dict = {}
        self.names: list[str] | None = None
        self.kinds: list = []  # per column: ("int", dtype) | ("bool",) | ("float", dtype) | ("category", categories)
        self.keys = np.zeros((0, 0), np.int64)
        self.counts = np.full(0, EMPTY, np.int64)
        self.used = np.zeros(1, np.int64)
        self.total = 0

    # ------------------------------------------------------------------ encoding
    def _encode(self, columns: dict) -> np.ndarray:
        names, kinds, parts = [], [], []
        self.seat_arrays = {}
        for name, value in columns.items():
            if name == self.drop:
                continue
            if isinstance(value, np.ndarray) and value.ndim == 2:
                self.seat_arrays[name] = list(range(len(names), len(names) + value.shape[1]))
                for p in range(value.shape[1]):
                    names.append(f"{name}_{p}")
                    kinds.append(("int", value.dtype.str) if value.dtype.kind in "iu" else ("float", value.dtype.str))
                    parts.append(value[:, p])
                continue
            names.append(name)
            if isinstance(value, (pd.Categorical, pd.Series)) and isinstance(getattr(value, "dtype", None),
                                                                              pd.CategoricalDtype):
                cat = pd.Categorical(value)
                kinds.append(("category", [str(c) for c in cat.categories]))
                parts.append(cat.codes)
            else:
                value = np.asarray(value)
                if value.dtype.kind == "b":
                    kinds.append(("bool",))
                elif value.dtype.kind in "iu":
                    kinds.append(("int", value.dtype.str))
                elif value.dtype.kind == "f":
                    kinds.append(("float", value.dtype.str))
                else:
                    raise TypeError(f"summary: column {name!r} of dtype {value.dtype} cannot be counted")
                parts.append(value)
        if self.names is None:
            self.names, self.kinds = names, kinds
            self.keys = np.zeros((self.capacity, len(names)), np.int64)
            self.counts = np.full(self.capacity, EMPTY, np.int64)
        elif names != self.names or kinds != self.kinds:
            raise ValueError(f"summary: chunk columns {names} differ from the first chunk's {self.names}")
        rows = np.empty((len(parts[0]) if parts else 0, len(parts)), np.int64)
        for j, (part, kind) in enumerate(zip(parts, kinds)):
            if kind[0] == "float":
                rows[:, j] = np.asarray(part, np.float64).view(np.int64)
            else:
                rows[:, j] = part
        return rows

    # ------------------------------------------------------------------ counting
    def _count(self, rows: np.ndarray, weights: np.ndarray) -> None:
        start = 0
        while start < len(rows):
            start = count_rows_nb(rows, weights, start, self.keys, self.counts, self.used)
            if start < len(rows):
                self._grow()

    def _grow(self) -> None:
        live = self.counts != EMPTY  # no need to sort: the rows are hashed again
        keys, counts = self.keys[live], self.counts[live]
        capacity = 2 * len(self.counts)
        self.keys = np.zeros((capacity, keys.shape[1]), np.int64)
        self.counts = np.full(capacity, EMPTY, np.int64)
        self.used[0] = 0
        count_rows_nb(keys, counts, 0, self.keys, self.counts, self.used)

    def add(self, columns: dict, block: int = 1 << 17) -> "RowCounter":
        """Count the rows of one chunk (the columns a game's ``play_chunk`` returns), ``block`` rows at a time
        so the int64 copy of the rows stays small."""
        size = len(next(iter(columns.values())))
        for start in range(0, size, block):
            part = {k: v[start:start + block] for k, v in columns.items()}
            rows = self._encode(part)
            self._count(rows, np.ones(len(rows), np.int64))
            self.total += len(rows)
        return self

    def merge(self, other: "RowCounter") -> "RowCounter":
        """Add another counter's rows (e.g. a worker's chunk) to this one."""
        if other.names is None:
            return self
        if self.names is None:
            self.names, self.kinds = other.names, other.kinds
            self.keys = np.zeros((1024, len(other.names)), np.int64)
            self.counts = np.full(1024, EMPTY, np.int64)
        elif other.names != self.names or other.kinds != self.kinds:
            raise ValueError(f"summary: columns {other.names} differ from {self.names}")
        keys, counts = other.distinct()
        self._count(keys, counts)
        self.total += other.total
        return self

    def distinct(self) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, counts)`` of the distinct rows, sorted (so the same for any order of arrival)."""
        live = self.counts != EMPTY
        keys, counts = self.keys[live], self.counts[live]
        if len(keys):
            order = np.lexsort(keys.T[::-1])
            keys, counts = keys[order], counts[order]
        return keys, counts

    def __getstate__(self):  # ship only the live rows between processes
        keys, counts = self.distinct()
        return {"drop": self.drop, "names": self.names, "kinds": self.kinds, "rows": keys, "weights": counts,
                "total": self.total, "seat_arrays": self.seat_arrays}

    def __setstate__(self, state):
        self.__init__(state["drop"])
        self.names, self.kinds, self.total = state["names"], state["kinds"], state["total"]
        self.seat_arrays = state.get("seat_arrays", {})
        if self.names is not None:
            capacity = 1024
            while capacity < 2 * (len(state["rows"]) + 1):
                capacity *= 2
            self.keys = np.zeros((capacity, len(self.names)), np.int64)
            self.counts = np.full(capacity, EMPTY, np.int64)
            self._count(state["rows"], state["weights"])

    # ------------------------------------------------------------------ output
    def to_frame(self) -> pd.DataFrame:
        """The distinct rows with their original dtypes, and a ``count`` column."""
        keys, counts = self.distinct()
        data = {}
        for j, (name, kind) in enumerate(zip(self.names or [], self.kinds)):
            column = keys[:, j]
            if kind[0] == "category":
                data[name] = pd.Categorical.from_codes(column.astype(np.int32), categories=kind[1])
            elif kind[0] == "bool":
                data[name] = column.astype(bool)
            elif kind[0] == "float":
                data[name] = column.view(np.float64).astype(np.dtype(kind[1]))
            else:
                data[name] = column.astype(np.dtype(kind[1]))
        data["count"] = counts
        return pd.DataFrame(data)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, drop: str = "deal") -> "RowCounter":
        """A counter holding a summary frame (distinct rows and ``count``), e.g. to resume a run."""
        counter = cls(drop)
        columns = {c: (frame[c].array if isinstance(frame[c].dtype, pd.CategoricalDtype) else frame[c].to_numpy())
                   for c in frame.columns if c != "count"}
        rows = counter._encode(columns)
        counter._count(rows, frame["count"].to_numpy(np.int64))
        counter.total = int(frame["count"].sum())
        if "seat" in frame.columns and len(frame):  # a per-seat summary: each deal is counted once per seat
            counter.total //= int(frame["seat"].max()) + 1
        return counter


PAIR_COLUMN = re.compile(r".+_\d+_\d+")  # a per-seat-pair column such as double_1_3


class SeatCounter(RowCounter):
    """Per-seat counts: one row per (deal, seat) instead of per deal, so memory stays bounded.

    A chunk's ``(rows, n)`` seat arrays (``score``, ``raw`` ...) become, for each seat, the columns
    ``seat``, ``score`` (that seat's) and ``score_others`` (the sum over the other seats); the
    deal's other columns (``contract``, ``declarer`` ...) are kept. This keeps exactly what
    seat-role reports use (each seat's score by contract and role; per deal the declarer's score
    against the others' total, hence their paired difference), while the number of distinct rows
    depends on the score range only, not on how the other seats' scores combine: 10^9 deals fit
    in the memory of 10^6. Chunks without a seat array are counted whole, as by RowCounter.
    Per-seat-pair columns (``double_1_3``: seat 1 doubled seat 3) are left out: paired with the
    scores they would make nearly every row distinct; reports on them need the rows.
    """

    def add(self, columns: dict, block: int = 1 << 20) -> "SeatCounter":
        columns = {k: v for k, v in columns.items() if not PAIR_COLUMN.fullmatch(k)}
        seat_names = [k for k, v in columns.items() if isinstance(v, np.ndarray) and v.ndim == 2]
        if not seat_names:
            return RowCounter.add(self, columns, block >> 3)
        plain_columns = {k: v for k, v in columns.items() if k not in seat_names}
        size = len(next(iter(columns.values())))
        for start in range(0, size, block):  # a block at a time: bounded copies
            plain = RowCounter(self.drop)
            rows = plain._encode({k: v[start:start + block] for k, v in plain_columns.items()})
            seats = np.stack([columns[k][start:start + block] for k in seat_names], axis=1)
            self._schema(plain, seat_names, seats.shape[2])
            distinct, counts, packed = count_seats_packed_nb(rows, seats)
            if packed:  # the chunk's distinct rows, counted in single words, join the table
                self._count(distinct, counts)
            else:
                self._count_wide(rows, seats.astype(np.int64))
            self.total += len(rows)
        return self

    def _count_wide(self, rows, seats):
        """Count per-seat rows whose columns do not fit in one 64-bit word, row by row in the wide table."""
        flat = 0
        while flat < len(rows) * seats.shape[2]:
            flat = count_seats_nb(rows, seats, flat, self.keys, self.counts, self.used)
            if flat < len(rows) * seats.shape[2]:
                self._grow()

    def _schema(self, plain: RowCounter, seat_names, n):
        names = plain.names + ["seat"]
        kinds = plain.kinds + [("int", "|i1")]
        for name in seat_names:
            names += [name, f"{name}_others"]
            kinds += [("int", "<i8")] * 2
        if self.names is None:
            self.names, self.kinds = names, kinds
            self.keys = np.zeros((self.capacity, len(names)), np.int64)
            self.counts = np.full(self.capacity, EMPTY, np.int64)
        elif names != self.names:
            raise ValueError(f"summary: chunk columns {names} differ from the first chunk's {self.names}")

    def merge_rows(self, chunk: RowCounter) -> "SeatCounter":
        if not chunk.seat_arrays:
            return RowCounter.merge(self, chunk)
        keys, counts = chunk.distinct()
        seat_cols = [j for cols in chunk.seat_arrays.values() for j in cols]
        plain = [j for j in range(len(chunk.names)) if j not in seat_cols]
        n = len(next(iter(chunk.seat_arrays.values())))
        if any(len(cols) != n for cols in chunk.seat_arrays.values()):
            raise ValueError("summary: seat arrays of different widths cannot be counted per seat")
        names = [chunk.names[j] for j in plain] + ["seat"]
        kinds = [chunk.kinds[j] for j in plain] + [("int", "|i1")]
        for name, cols in chunk.seat_arrays.items():
            names += [name, f"{name}_others"]
            kinds += [("int", "<i8")] * 2
        if self.names is None:
            self.names, self.kinds = names, kinds
            self.keys = np.zeros((1024, len(names)), np.int64)
            self.counts = np.full(1024, EMPTY, np.int64)
        elif names != self.names:
            raise ValueError(f"summary: chunk columns {names} differ from the first chunk's {self.names}")
        for seat in range(n):
            part = [keys[:, plain], np.full((len(keys), 1), seat, np.int64)]
            for cols in chunk.seat_arrays.values():
                block = keys[:, cols]
                part += [block[:, seat:seat + 1], block.sum(axis=1, keepdims=True) - block[:, seat:seat + 1]]
            self._count(np.ascontiguousarray(np.hstack(part)), counts)
        self.total += chunk.total
        return self

    def merge(self, other: RowCounter) -> "SeatCounter":
        if isinstance(other, SeatCounter) or not other.seat_arrays:
            return RowCounter.merge(self, other)
        return self.merge_rows(other)



def expand(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows a (small) summary stands for, each distinct row repeated ``count`` times (for tests)."""
    return summary.loc[summary.index.repeat(summary["count"])].drop(columns="count").reset_index(drop=True)
