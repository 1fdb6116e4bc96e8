"""The strength ladder of every game: random, heuristic and search seats in paired matches on the same deals.

Deal ``i`` keeps the cards and dealer of a plain run and is played nine times:

* **whole tables**: every seat random, every seat heuristic, every seat search;
* **one side changed**: the side that changes on deal ``i`` (a seat, or a partnership; the game
  rotates it so that every side meets every dealer equally often) plays policy X while the others
  play Y, for each ordered pair X != Y.

The gain of X against Y on a deal is the changed side's result at the mixed table minus its result
at the whole-Y table (same cards, same opponents' policy): what a player gains by playing X
instead of Y at a table of Y players. Gains are paired, so their intervals are narrow.

A game's :class:`~cardlab.sim.game.Study` provides four hooks: ``ladder_sides(deals)`` (the
changed side of each deal and a ``(deals, seats)`` mask of its seats), ``play_tables(deals,
policies)`` (each deal with its own row of seat policies, search included), ``ladder_head(deals,
sides)`` (the row's first columns) and ``ladder_columns(columns, x, y, sides)`` (what a table adds
to the row: the whole table's figures for ``y=None``, the changed side's result otherwise).
``cardlab.analysis.<game>_strength`` reports it.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from cardlab.sim import runner
from cardlab.sim.game import StudyKind
from cardlab.sim.policy import SHARED_POLICIES

LADDER = SHARED_POLICIES
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
#: The nine tables, in column order: the whole tables, then the pairs (changed side X, others Y).
TABLES = tuple((x, None) for x in LADDER) + PAIRS
DEFAULT_STUDY_CHUNK = 256


def ladder_study(game, *, policy="heuristic", **keywords):
    """The study every table of the ladder starts from (its search settings are the search seats')."""
    if policy != "heuristic":
        raise ValueError(f"policy: {policy!r} is not allowed here; the strength study sets every seat's policy itself")
    return game.build("deals", study_name="strength", policy="search", **keywords)


def table_policies(study, deals: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The seat policies of every table, ``(len(TABLES) * len(deals), seats)``: table-major rows."""
    ids = {name: study.game.policies.index(name) for name in LADDER}
    policies = np.empty((len(TABLES), len(deals), mask.shape[1]), np.int64)
    for k, (x, y) in enumerate(TABLES):
        policies[k] = ids[x if y is None else y]
        if y is not None:
            policies[k][mask] = ids[x]
    return policies.reshape(-1, mask.shape[1])


def ladder_columns(study, first: int, count: int) -> dict:
    """The ladder's row of deals ``first .. first+count-1`` (see the module docstring)."""
    deal = np.arange(first, first + count, dtype=np.int64)
    sides, mask = study.ladder_sides(deal)
    played = study.play_tables(np.tile(deal, len(TABLES)), table_policies(study, deal, mask))
    columns = study.ladder_head(deal, sides)
    for k, (x, y) in enumerate(TABLES):
        part = {name: values[k * count:(k + 1) * count] for name, values in played.items()}
        columns.update(study.ladder_columns(part, x, y, sides))
    return columns


def strength_metadata(game, **keywords) -> dict:
    """The metadata a strength study records (its ``study`` is ``"strength"``)."""
    return {**ladder_study(game, **keywords).metadata(), "policies": list(LADDER), "study": "strength"}


def strength_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                   progress: bool = False, out=None, **keywords):
    """Play the ladder on ``deals`` deals of ``game``; one row per deal (or written to ``out``).

    ``policy`` must stay the default: the study sets every seat itself. Keywords: ``seed``, rule
    options, ``search_worlds``, ``search_rollout``."""
    study = ladder_study(game, **keywords)
    runner.set_threads(threads)
    meta = {**study.metadata(), "policies": list(LADDER), "study": "strength"}
    return runner.run(partial(ladder_columns, study), deals=deals, first_deal=first_deal,
                      chunk_size=chunk_size or getattr(game, "ladder_chunk", DEFAULT_STUDY_CHUNK), progress=progress,
                      out=out, meta=meta)


STUDY = StudyKind("random, heuristic and search seats in paired matches on the same deals", strength_study,
                  strength_metadata, deals=1_000)
