"""What every game's paired studies share: the same deals played several ways, compared pair by pair.

A paired study plays every deal once per alternative (same hands, same policies), so two
alternatives are compared through their per-deal difference: its spread is far smaller than that
of either alone (``paired_comparison`` reports by how much). A game's studies (Barbu's in
``barbu_studies``) build on these helpers.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from .report import options_text




def _numeric(df: pd.DataFrame, names: list[str], what: str) -> np.ndarray:
    for name in names:
        if name not in df.columns:
            raise ValueError(f"missing column {name!r}: {what}")
        if not pd.api.types.is_numeric_dtype(df[name].dtype) or pd.api.types.is_bool_dtype(df[name].dtype):
            raise ValueError(f"column {name!r} must be numeric, got dtype {df[name].dtype}")
    values = df[names].to_numpy(dtype=float)
    if np.isnan(values).any():
        bad = names[int(np.flatnonzero(np.isnan(values).any(axis=0))[0])]
        raise ValueError(f"column {bad!r} contains missing values")
    return values


def _study_header(title: str, meta: dict | None, deals: int) -> list[str]:
    if meta is None or meta == {}:
        return [f"{title} (no run metadata) | deals: {deals:,}"]
    if not isinstance(meta, dict):
        raise TypeError(f"meta must be a dict (as returned by load_run) or None, got {type(meta).__name__}")
    lines = [f"{title} | game: {meta.get('game', '?')} | seed: {meta.get('seed', '?')} | deals: {deals:,}"]
    for key in ("contracts", "policies"):
        value = meta.get(key)
        if value:
            lines.append(f"{key}: " + (", ".join(map(str, value)) if isinstance(value, list) else str(value)))
    lines += textwrap.wrap(f"options: {options_text(meta)}", width=110, subsequent_indent="  ")
    return lines


def _rounded(table: pd.DataFrame) -> pd.DataFrame:
    """Float columns rounded to 3 decimals, with -0.0 shown as 0.0."""
    floats = table.select_dtypes("float").columns
    return table.assign(**{c: table[c].round(3) + 0.0 for c in floats})


