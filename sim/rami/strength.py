"""Rami's strength ladder: random, heuristic and search seats in paired matches on the same rounds.

Round ``i`` keeps the deal of a plain run (shuffled from ``(seed, i)``, dealt by seat ``i % n``)
and is played several times with different seats:

* **whole tables**: every seat random, every seat heuristic, every seat search: the round
  scores, the rami sec rate, the round length (turns) and the blocked rate under each policy;
* **one seat changed**: seat ``lone = (i // n) % n`` (every seat equally often against every
  dealer) plays policy X while the others play Y, for each ordered pair X != Y.

The gain of X against Y on a round is the lone seat's round score at the whole-Y table minus
its score as the lone X (same deal, same opponents' policy; scores are penalties, so a positive
gain means X loses fewer points): what a player saves by playing X instead of Y at a table of Y
players. Gains are paired, so their intervals are far narrower than independent runs give.

One row per round: ``deal``, ``dealer``, ``lone``; per policy ``p`` of the whole tables
``score_<p>_<seat>``, ``turns_<p>``, ``rami_sec_<p>``, ``blocked_<p>``; per pair
``lone_<X>_in_<Y>`` (the lone seat's score).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.rami.search_play import search_rounds
from cardlab.sim.rami.simulate import SEAT_POLICIES, Study

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
DEFAULT_STUDY_CHUNK = 64


def lone_seats(deals: np.ndarray, n: int) -> np.ndarray:
    """The seat that changes policy on each round: ``(i // n) % n``."""
    return (deals // n) % n


def _ladder(*, policy, seed, options, search_worlds, search_rollout, rules) -> Study:
    if policy != "heuristic":
        raise ValueError(f"policy: {policy!r} is not allowed here; the strength study sets every seat's policy itself")
    return Study.build(options=options, policy="search", seed=seed, search_worlds=search_worlds,
                       search_rollout=search_rollout, **rules)


def strength_metadata(*, policy="heuristic", seed: int = 0, options=None, search_worlds=None, search_rollout=None,
                      **rules) -> dict:
    """The metadata a strength study records (its ``study`` is ``"strength"``)."""
    study = _ladder(policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    search_rollout=search_rollout, rules=rules)
    return {**study.metadata(), "policies": list(LADDER), "study": "strength"}


def strength_study(*, deals: int, seed: int = 0, policy="heuristic", options=None, search_worlds=None,
                   search_rollout=None, threads=None, first_deal: int = 0, chunk_size: int = DEFAULT_STUDY_CHUNK,
                   progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play the ladder (see the module docstring) on ``deals`` rounds; one row per round.

    ``policy`` must stay the default: the study sets every seat itself. ``analysis.rami_strength``
    summarises it (``cardlab report``).

    >>> df = strength_study(deals=4, seed=1, players=2, search_worlds=2)
    >>> sorted(c for c in df.columns if c.startswith("lone_"))[:2]
    ['lone_heuristic_in_random', 'lone_heuristic_in_search']
    """
    study = _ladder(policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    search_rollout=search_rollout, rules=rules)
    n = study.options.players
    ids = {name: SEAT_POLICIES.index(name) for name in LADDER}

    def play_chunk(first, count):
        deal = np.arange(first, first + count, dtype=np.int64)
        lone = lone_seats(deal, n)
        columns = {"deal": deal, "dealer": (deal % n).astype(np.int8), "lone": lone.astype(np.int8)}
        for name in LADDER:
            ints, seats, *_ = search_rounds(study, deal, policies=np.full(n, ids[name], np.int64))
            _, turns, blocked, rami_sec = ints
            for p in range(n):
                columns[f"score_{name}_{p}"] = seats[3][:, p].astype(np.int16)
            columns[f"turns_{name}"] = turns.astype(np.int16)
            columns[f"rami_sec_{name}"] = rami_sec.astype(bool)
            columns[f"blocked_{name}"] = blocked.astype(bool)
        for x, y in PAIRS:
            lone_score = np.empty(count, np.int16)
            for p in range(n):
                rows = np.flatnonzero(lone == p)
                if len(rows):
                    policies = np.full(n, ids[y], np.int64)
                    policies[p] = ids[x]
                    _, seats, *_ = search_rounds(study, deal[rows], policies=policies)
                    lone_score[rows] = seats[3][:, p]
            columns[f"lone_{x}_in_{y}"] = lone_score
        return columns

    runner.set_threads(threads)
    meta = {**study.metadata(), "policies": list(LADDER), "study": "strength"}
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=meta)


__all__ = ["LADDER", "PAIRS", "lone_seats", "strength_metadata", "strength_study"]
