"""The options study's report, for every game: each variant's figures and their paired shifts from ``default``.

Input: an options study (``cardlab study <game> options``; :mod:`cardlab.sim.variants`), one row per
deal with every column of the game's plain run as ``<column>@<variant>``. A *figure* is a column
(its mean over deals; a yes/no column as a share in %), or ``name_*``, the mean over seats of
``name_0``, ``name_1`` …; the game names its headline figures (:attr:`Game.variant_figures`),
and any others can be asked for. Every variant played the same deals, so the shift of a figure
from ``default`` is the mean of the per-deal differences, with a normal interval over deals.

>>> import pandas as pd
>>> df = pd.DataFrame({"deal": [0, 1, 2, 3], "score_0@default": [1, 2, 3, 4], "score_1@default": [3, 2, 1, 0],
...                    "score_0@x=1": [2, 3, 4, 5], "score_1@x=1": [3, 2, 1, 0]})
>>> t = variant_table(df, figures=["score_*"])
>>> t[["variant", "figure", "value", "shift"]].to_dict("records")[1]
{'variant': 'x=1', 'figure': 'score_*', 'value': 2.5, 'shift': 0.5}
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .common import run_header, run_meta, unit_word
from .stats import interval, mean_ci


def variants_of(df: pd.DataFrame) -> list[str]:
    """The variants of an options study, ``default`` first, in column order."""
    seen = []
    for column in df.columns:
        if "@" in column:
            name = column.split("@", 1)[1]
            if name not in seen:
                seen.append(name)
    if "default" not in seen:
        raise ValueError("missing columns <column>@default: expected an options study (cardlab study <game> options)")
    return ["default"] + [v for v in seen if v != "default"]


def figure_values(df: pd.DataFrame, figure: str, variant: str | None, *, sides: str = "score") -> np.ndarray:
    """Per-deal values of ``figure`` under ``variant`` (None: a plain run's rows, whose columns carry no
    ``@variant``). A ``name_*`` figure is the mean over seats (sides); ``<role>_edge`` the ``sides``
    column (``score_<side>``) of the side of the seat in column ``<role>`` minus the mean of the other
    sides', e.g. ``declarer_edge``; with two sides of two seats each (Minchiate's teams), seat ``s``
    is on side ``s % 2``."""
    at = "" if variant is None else f"@{variant}"
    if figure.endswith("_edge") and f"{figure[:-5]}{at}" in df.columns:
        names = sorted((c[: len(c) - len(at)] for c in df.columns if c.startswith(f"{sides}_") and c.endswith(at)
                        and c[len(sides) + 1: len(c) - len(at)].isdigit()), key=lambda c: int(c[len(sides) + 1:]))
        if not names:
            raise ValueError(f"figure {figure!r}: no column {sides}_<side>{at}")
        scores = np.stack([df[c + at].to_numpy(float) for c in names], axis=1)
        seat = df[f"{figure[:-5]}{at}"].to_numpy().astype(int) % scores.shape[1]
        own = scores[np.arange(len(df)), seat]
        return own - (scores.sum(axis=1) - own) / (scores.shape[1] - 1)
    if figure.endswith("_*"):
        stem = figure[:-1]
        names = [c for c in df.columns if c.endswith(at) and c.startswith(stem)
                 and c[len(stem): len(c) - len(at)].isdigit()]
        if not names:
            raise ValueError(f"figure {figure!r}: no column {stem}<seat>{at}")
        return np.mean([df[c].to_numpy(float) for c in names], axis=0)
    column = f"{figure}{at}"
    if column not in df.columns:
        raise ValueError(f"figure {figure!r}: no column {column!r}")
    values = df[column].to_numpy()
    return values.astype(float) * (100.0 if values.dtype == bool else 1.0)


def default_figures(df: pd.DataFrame) -> list[str]:
    """Every numeric or yes/no column of the study under ``default`` (seat columns as one ``name_*`` figure)."""
    out = []
    for column in df.columns:
        if column.endswith("@default") and (pd.api.types.is_numeric_dtype(df[column])
                                            or pd.api.types.is_bool_dtype(df[column])):
            name = column[: -len("@default")]
            stem, _, seat = name.rpartition("_")
            figure = f"{stem}_*" if seat.isdigit() and stem else name
            if figure not in out and figure != "dealer":
                out.append(figure)
    return out


def variant_table(df: pd.DataFrame, meta: dict | None = None, *, figures=None, level: float = 0.95) -> pd.DataFrame:
    """One row per (variant, figure): ``value`` (mean; % for a yes/no column), ``shift`` from ``default``
    and its interval ``low`` … ``high`` (paired over deals)."""
    if not isinstance(df, pd.DataFrame) or len(df) == 0:
        raise ValueError("expected an options study with at least one deal")
    figures = list(figures or _game_figures(run_meta(df, meta)) or default_figures(df))
    variants = variants_of(df)
    rows = []
    for figure in figures:
        base = figure_values(df, figure, "default")
        for variant in variants:
            values = figure_values(df, figure, variant)
            shift, low, high = mean_ci(values - base, level=level) if variant != "default" else (0.0, np.nan, np.nan)
            rows.append(dict(variant=variant, figure=figure, value=float(values.mean()), shift=shift, low=low,
                             high=high, share=figure_is_share(df, figure)))
    return pd.DataFrame(rows)


def figure_is_share(df: pd.DataFrame, figure: str) -> bool:
    column = f"{figure}@default"
    return column in df.columns and df[column].dtype == bool


def _game_figures(meta: dict | None):
    if not meta or "game" not in meta:
        return None
    from cardlab.sim import games

    if not games.has_interface(meta["game"]):
        return None
    return getattr(games.game(meta["game"]), "variant_figures", None)


def format_variants(df: pd.DataFrame, meta: dict | None = None) -> str:
    """The options (or variants) study as text: per figure, each variant's value and its paired shift from
    ``default``."""
    meta = run_meta(df, meta)
    table = variant_table(df, meta)
    unit = unit_word(meta)
    study = (meta or {}).get("study") or "options"
    vary = (meta or {}).get("vary")
    lines = [*run_header(meta, f"{study} study (every {unit} played under every variant)", count=len(df)),
             *([f"varied: " + "; ".join(f"{k} = {', '.join(v)}" for k, v in vary.items())] if vary else []),
             f"shifts from default with 95% intervals (paired on the same {unit}s)"]
    for figure, part in table.groupby("figure", sort=False):
        share = bool(part["share"].iloc[0])
        unit = " (%)" if share else ""
        lines.append(f"\n{figure}{unit}")
        width = max(len(v) for v in part["variant"])
        for r in part.itertuples():
            shift = "" if r.variant == "default" else f"{r.shift:+9.3f}  ({interval(r.low, r.high, '+.3f')})"
            lines.append(f"  {r.variant:<{width}}  {r.value:9.3f}  {shift}")
    skipped = (meta or {}).get("skipped") or {}
    if skipped:
        lines.append("\nleft out: " + "; ".join(f"{k} ({v})" for k, v in skipped.items()))
    return "\n".join(lines)


def _swept_option(meta: dict | None):
    """``(name, default value, {variant: value})`` when the run varied one numeric option, else None."""
    vary, variants = (meta or {}).get("vary"), (meta or {}).get("variants") or {}
    if not vary or len(vary) != 1:
        return None
    name = next(iter(vary))
    values = {v: change.get(name) for v, change in variants.items() if v != "default"}
    base = ((meta or {}).get("options") or {}).get(name)
    numbers = [*values.values(), base]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numbers):
        return None
    return name, base, values


def figure_label(figure: str) -> str:
    """A figure's name as a panel title: ``score_*`` (one column per seat or team) reads "score (mean over
    sides)", ``rami_sec`` "rami sec".

    >>> figure_label("score_*"), figure_label("declarer_edge"), figure_label("net_resti")
    ('score (mean over sides)', 'declarer edge', 'net resti')
    """
    if figure.endswith("_*"):
        return f"{figure[:-2].replace('_', ' ')} (mean over sides)"
    return figure.replace("_", " ")


def plot_variants(df: pd.DataFrame, meta: dict | None = None, *, fig=None, figures=None):
    """One panel per figure: each variant's paired shift from ``default`` with its 95% interval; when one
    numeric option was varied (``study variants --vary NAME=...``), each figure's shift against its value.
    A new constrained-layout Figure (no pyplot) unless ``fig``."""
    from .plots import new_figure

    meta = run_meta(df, meta)
    table = variant_table(df, meta, figures=figures)
    table = table[table["variant"] != "default"]
    names = list(dict.fromkeys(table["figure"]))
    rows, cols = (len(names) + 2) // 3, min(len(names), 3)
    fig = new_figure(fig, (4.5 * cols + 1.5, rows * max(3.0, 0.3 * table["variant"].nunique() + 1.5) + 0.4))
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    swept = _swept_option(meta)
    for ax, figure in zip(axes, names):
        part = table[table["figure"] == figure]
        if swept is not None:  # one numeric option varied: each figure against its value
            name, base, values = swept
            x = np.array([values[v] for v in part["variant"]], float)
            order = np.argsort(x)
            x, shift = np.append(x[order], base), np.append(part["shift"].to_numpy()[order], 0.0)
            low = np.append(part["low"].to_numpy()[order], 0.0)
            high = np.append(part["high"].to_numpy()[order], 0.0)
            order = np.argsort(x)
            ax.errorbar(x[order], shift[order], yerr=np.nan_to_num(np.vstack([shift - low, high - shift])[:, order]),
                        fmt="o-", capsize=3)
            ax.axhline(0, color="grey", lw=0.8)
            ax.set_xlabel(f"{name} (default {base:g})")
            ax.set_ylabel("shift from default (95% CI)")
            ax.set_title(figure_label(figure) + (" (% points)" if bool(part["share"].iloc[0]) else ""), fontsize=10)
            continue
        y = np.arange(len(part))
        err = np.vstack([part["shift"] - part["low"], part["high"] - part["shift"]])
        ax.errorbar(part["shift"], y, xerr=np.nan_to_num(err), fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(y, part["variant"])
        ax.invert_yaxis()
        ax.set_title(figure_label(figure) + (" (% points)" if bool(part["share"].iloc[0]) else ""), fontsize=10)
        ax.set_xlabel("shift from default (95% CI)")
        ax.set_ylabel("variant")
    for ax in axes[len(names):]:
        fig.delaxes(ax)
    return fig


__all__ = ["default_figures", "figure_values", "format_variants", "plot_variants", "variant_table", "variants_of"]
