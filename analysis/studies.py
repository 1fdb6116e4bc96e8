"""What every game's paired studies share: the same deals played several ways, compared pair by pair.

A paired study plays every deal once per alternative (same hands, same policies), so two
alternatives are compared through their per-deal difference: its spread is far smaller than that
of either alone (``paired_comparison`` reports by how much). A game's studies (Barbu's in
``barbu_studies``) build on these helpers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import run_header




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
    """Every report's header (``common.run_header``), then the contracts a Barbu study plays."""
    lines = run_header(meta, title, count=deals)
    contracts = (meta or {}).get("contracts")
    if contracts:
        lines.append("contracts: " + (", ".join(map(str, contracts)) if isinstance(contracts, list) else str(contracts)))
    return lines
