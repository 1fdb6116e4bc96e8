"""Reading simulation runs (Parquet files with ``cardlab`` JSON metadata)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

#: Key of the run metadata (a JSON object) in the Arrow schema metadata.
METADATA_KEY = b"cardlab"


def load_run(path) -> tuple[pd.DataFrame, dict]:
    """Read a simulator Parquet file (or dataset directory) and return ``(deals, metadata)``.

    ``deals`` is the table as a pandas DataFrame (one row per deal) and
    ``metadata`` the JSON object the simulator stored in the Arrow schema
    metadata under ``b"cardlab"`` (keys such as "game", "options", "seed",
    "deals", "versions"); it is an empty dict when the file has none. The
    rows carry the same dict in ``deals.attrs["cardlab"]``, as the frames of
    ``simulate`` do, so a report given the rows alone knows its run. The
    file's own key-value metadata is read first: the runner writes it last,
    so it says how the run ended (``complete``, ``requested``).

    A directory is a dataset written by ``cardlab simulate --out DIR/``: one
    file per chunk, read whole, with the metadata of ``_cardlab.json``. A
    summary (``--summary``) reads the same way: its rows are distinct per-seat
    rows (``seat``, ``score``, ``score_others`` …) with a ``count`` column, and
    ``metadata["summary"]`` is true; ``format_report`` and ``summary`` accept it.

    >>> import json, os, tempfile
    >>> import pandas as pd, pyarrow as pa, pyarrow.parquet as pq
    >>> table = pa.Table.from_pandas(pd.DataFrame({"deal": [0, 1]}))
    >>> table = table.replace_schema_metadata({**table.schema.metadata, b"cardlab": json.dumps({"seed": 7})})
    >>> path = os.path.join(tempfile.mkdtemp(), "run.parquet")
    >>> pq.write_table(table, path)
    >>> df, meta = load_run(path)
    >>> len(df), meta
    (2, {'seed': 7})
    """
    path = Path(path)
    if path.is_dir():
        return _load_dataset(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such run file: {path}")
    table = pq.read_table(path)
    raw = (pq.read_metadata(path).metadata or {}).get(METADATA_KEY) or (table.schema.metadata or {}).get(METADATA_KEY)
    meta: dict = {}
    if raw is not None:
        try:
            meta = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: the {METADATA_KEY!r} schema metadata is not valid JSON: {exc}") from exc
        if not isinstance(meta, dict):
            raise ValueError(
                f"{path}: the {METADATA_KEY!r} schema metadata must be a JSON object, got {type(meta).__name__}"
            )
    return _with_meta(table.to_pandas(), meta), meta


def _with_meta(df: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """The rows with their run metadata in ``df.attrs["cardlab"]``, as ``simulate`` returns them."""
    if meta:
        df.attrs["cardlab"] = meta
    return df


#: The run metadata of a dataset directory (pyarrow's reader skips names starting with ``_``).
DATASET_METADATA = "_cardlab.json"


def _load_dataset(path: Path) -> tuple[pd.DataFrame, dict]:
    """A dataset directory: every ``chunk-*.parquet`` in deal order, and the metadata of ``_cardlab.json``."""
    meta_path = path / DATASET_METADATA
    if not meta_path.is_file():
        raise ValueError(f"{path}: a directory run needs {DATASET_METADATA}; this one holds no cardlab run")
    meta = json.loads(meta_path.read_text()).get("run", {})
    files = sorted(path.glob("chunk-*.parquet"))
    if not files:
        raise ValueError(f"{path}: the run has no finished chunk yet")
    return _with_meta(pd.read_parquet(path), meta), meta
