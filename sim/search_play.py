"""What every game's ``replay`` shows of a search, written once: each searched decision's candidates ranked by their
mean over the sampled worlds, as text (the played one starred) and as JSON-ready records.

A game's ``search_play.py`` reads its kernels' means (one row per logged move, NaN where a card or move was no
candidate) and names its candidates; the ranking, the text lines and the records' shape are these.
"""
from __future__ import annotations

from typing import Callable

import numpy as np


def ranked(row: np.ndarray, *, lowest_first: bool = False) -> list[tuple[int, float]]:
    """The candidates of one searched decision, its means ``row`` (NaN: no candidate), best first: the highest
    mean (the lowest with ``lowest_first``, where fewer points are better), ties by candidate, as
    ``(candidate, mean)``."""
    candidates = np.flatnonzero(~np.isnan(row))
    sign = 1 if lowest_first else -1
    return [(int(c), float(row[c])) for c in sorted(candidates, key=lambda c: (sign * row[c], c))]


def candidates_text(ranked, played, name: Callable = str, fmt: Callable = "{:+.2f}".format) -> str:
    """One decision's ``ranked`` candidates as text, each its ``name`` and its mean (``fmt``), the ``played`` one
    starred."""
    return "  ".join(f"{name(c)} {fmt(m)}" + ("*" if c == played else "") for c, m in ranked)


def searched_text(what: str, lines: list) -> str:
    """The searched decisions' ``lines`` under a heading saying ``what`` they are and what their means are; ""
    when nothing was searched."""
    return f"\nsearched {what}:\n" + "\n".join(lines) if lines else ""


def search_parts(cols: dict, j: int, describe: Callable, records: Callable, *args) -> tuple[str, dict]:
    """Recorded deal ``j``'s searched decisions: the text ``describe(*args, means)`` gives and the record's
    ``searches`` (``records(*args, means)``), its means row of the run's ``search_means``; nothing in a run
    without them (no search seat)."""
    if "search_means" not in cols:
        return "", {}
    means = cols["search_means"][j]
    return describe(*args, means), {"searches": records(*args, means)}


def trick_searches_text(searched, what: str, name: Callable, fmt: Callable) -> str:
    """The searched cards of a trick-taking deal, ``searched`` yielding ``(trick, seat, played, ranked)`` per
    searched card: one line per card, ``trick t, seat s:`` and its candidates (:func:`candidates_text`)."""
    return searched_text(what, [f"trick {t + 1}, seat {seat}: " + candidates_text(ranked, played, name, fmt)
                                for t, seat, played, ranked in searched])


def trick_searches_records(searched, name: Callable, value: Callable = lambda m: round(m, 3)) -> list:
    """The searched cards of :func:`trick_searches_text` as JSON-ready records: trick (1-based), seat, played card,
    the candidates' means (``value``)."""
    return [{"trick": t + 1, "seat": seat, "played": name(played),
             "candidates": [[name(c), value(m)] for c, m in ranked]} for t, seat, played, ranked in searched]
