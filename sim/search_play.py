"""What every game's ``replay`` shows of a search, written once: each searched decision's candidates ranked by their
mean over the sampled worlds, as text (the played one starred) and as JSON-ready records.

A game's records module (``sim/<game>/records.py``; Hearts': its interface) reads its kernels' means (one row per
logged move, NaN where a card or move was no candidate) and names its candidates; the ranking, the text lines and
the records' shape are these.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

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


def search_parts(cols: dict, j: int, describe: Callable, records: Callable, *args,
                 key: str = "searches") -> tuple[str, dict]:
    """Recorded deal ``j``'s searched decisions: the text ``describe(*args, means)`` gives and the record's
    ``searches`` (``records(*args, means)``; named ``key``: Minchiate's records say ``searched``), its means row of
    the run's ``search_means``; nothing in a run without them (no search seat)."""
    if "search_means" not in cols:
        return "", {}
    means = cols["search_means"][j]
    return describe(*args, means), {key: records(*args, means)}


class TrickSearches(NamedTuple):
    """What a trick-taking game's replay shows of a deal's searched cards: a line per card, ``trick t, seat s:`` and
    its candidates (:func:`candidates_text`) under a heading saying ``what`` they are, and as JSON-ready records
    (trick, 1-based; seat; the played card; the candidates' means). ``name`` names a card, ``fmt`` writes a mean in
    the text and ``value`` in a record; ``lowest_first`` where fewer points are better."""

    what: str
    name: Callable
    fmt: Callable = "{:+.2f}".format
    value: Callable = lambda m: round(m, 3)
    lowest_first: bool = False

    def searched(self, tricks, means: np.ndarray):
        """``(trick, seat, played, ranked)`` for every searched card of a deal: ``tricks`` its cards trick by trick,
        each ``(seat, card)``; ``means`` one row per card played, in order (:func:`ranked`)."""
        for t, cards in enumerate(tricks):
            for k, (seat, played) in enumerate(cards):
                candidates = ranked(means[len(cards) * t + k], lowest_first=self.lowest_first)
                if candidates:
                    yield t, int(seat), int(played), candidates

    def text(self, tricks, means: np.ndarray) -> str:
        """The searched cards as text, the played one starred ("" when none was searched)."""
        return searched_text(self.what, [f"trick {t + 1}, seat {seat}: " + candidates_text(ranked, played, self.name,
                                                                                          self.fmt)
                                         for t, seat, played, ranked in self.searched(tricks, means)])

    def records(self, tricks, means: np.ndarray) -> list:
        """The searched cards as JSON-ready records."""
        return [{"trick": t + 1, "seat": seat, "played": self.name(played),
                 "candidates": [[self.name(c), self.value(m)] for c, m in ranked]}
                for t, seat, played, ranked in self.searched(tricks, means)]
