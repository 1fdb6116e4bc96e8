"""The Euchre-for-five strength ladder: random, heuristic and search seats in paired matches on the same hands.

Every hand ``i`` keeps the cards and dealer of a plain run (dealer ``i % 5``, stream (seed, i))
and is played nine times:

* **whole tables**: every seat random, every seat heuristic, every seat search; the score
  distribution and how trump is made under each policy;
* **one seat changed**: seat ``lone = (i // 5) % 5`` (every seat equally often at every place
  after the dealer) plays policy X while the other four play Y, for each ordered pair X != Y.

The gain of X against Y on a hand is the lone seat's result minus that seat's result at the
whole-Y table (same cards, same opponents' policy): what a player gains by playing X instead of Y
at a table of Y players. Results are counted two ways: **points** (the seat's points for the
hand) and **edge** (its points minus the mean points of the other four seats, what decides a race
to the target; the search maximises it). Gains are paired, so their intervals are narrow.

One row per hand: ``deal``, ``dealer``, ``lone``; for each policy P the whole table's
``score_<P>_<seat>``, ``maker_<P>``, ``round_<P>``, ``alone_<P>``, ``tricks_<P>``; for each pair
``lone_<X>_in_<Y>`` (the lone seat's points) and ``others_<X>_in_<Y>`` (the other four seats'
points, summed).
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.euchre5.kernels import N_RES, RES_ALONE, RES_MAKER, RES_ROUND, RES_SCORE, RES_TRICKS
from cardlab.sim.euchre5.rules import PLAYERS
from cardlab.sim.euchre5.search import DEFAULT_WORLDS, POLICY_NAMES, ROLLOUT_NAMES, play_search_tables_nb
from cardlab.sim.euchre5.simulate import Study

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
DEFAULT_STUDY_CHUNK = 512


def lone_seats(deals: np.ndarray) -> np.ndarray:
    """The seat that changes policy on each hand: ``(i // 5) % 5``."""
    return (deals // PLAYERS) % PLAYERS


def _ladder(*, policy, seed, options, search_worlds, search_rollout, rules) -> Study:
    if policy != "heuristic":
        raise ValueError(f"policy: {policy!r} is not allowed here; the strength study sets every seat's policy itself")
    return Study.build(options=options, policy="search", seed=seed, search_worlds=search_worlds,
                       search_rollout=search_rollout, **rules)


def strength_metadata(*, policy="heuristic", seed: int = 0, options=None, search_worlds: int = DEFAULT_WORLDS,
                      search_rollout: str = "heuristic", **rules) -> dict:
    """The metadata a strength study records (its ``study`` is ``"strength"``)."""
    study = _ladder(policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    search_rollout=search_rollout, rules=rules)
    return {**study.metadata(), "policies": list(LADDER), "study": "strength"}


def ladder_columns(study: Study, first: int, count: int) -> dict:
    """The nine tables of hands ``first .. first+count-1`` (see the module docstring), one kernel call."""
    deal = np.arange(first, first + count, dtype=np.int64)
    lone = lone_seats(deal)
    ids = {name: POLICY_NAMES.index(name) for name in LADDER}
    tables = [(name, None) for name in LADDER] + list(PAIRS)
    policies = np.empty((len(tables), count, PLAYERS), np.int64)
    for k, (x, y) in enumerate(tables):
        if y is None:
            policies[k] = ids[x]
        else:
            policies[k] = ids[y]
            policies[k, np.arange(count), lone] = ids[x]
    out = np.empty((N_RES, len(tables) * count), np.int8)
    play_search_tables_nb(study.seed, np.tile(deal, len(tables)), study.rules, policies.reshape(-1, PLAYERS),
                          int(study.search_worlds), ROLLOUT_NAMES.index(study.search_rollout), out)
    out = out.reshape(N_RES, len(tables), count)
    columns = {"deal": deal, "dealer": (deal % PLAYERS).astype(np.int8), "lone": lone.astype(np.int8)}
    for k, (x, y) in enumerate(tables):
        res = out[:, k]
        scores = res[RES_SCORE:RES_SCORE + PLAYERS].astype(np.int16)
        if y is None:
            for p in range(PLAYERS):
                columns[f"score_{x}_{p}"] = scores[p]
            for name, r in (("maker", RES_MAKER), ("round", RES_ROUND), ("alone", RES_ALONE), ("tricks", RES_TRICKS)):
                columns[f"{name}_{x}"] = res[r]
        else:
            mine = scores[lone, np.arange(count)]
            columns[f"lone_{x}_in_{y}"] = mine
            columns[f"others_{x}_in_{y}"] = scores.sum(axis=0) - mine
    return columns


def strength_study(*, deals: int, seed: int = 0, policy="heuristic", options=None,
                   search_worlds: int = DEFAULT_WORLDS, search_rollout: str = "heuristic", threads=None,
                   first_deal: int = 0, chunk_size: int = DEFAULT_STUDY_CHUNK, progress: bool = False, out=None,
                   **rules) -> pd.DataFrame | None:
    """Play the ladder (see the module docstring) on ``deals`` hands; one row per hand.

    ``policy`` must stay the default: the study sets every seat itself. ``cardlab.analysis.euchre5``
    summarises it (``strength_gains``, ``strength_distributions``).

    >>> df = strength_study(deals=10, seed=1, search_worlds=2)
    >>> len(df), bool((df["lone"] == (df["deal"] // 5) % 5).all())
    (10, True)
    """
    study = _ladder(policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    search_rollout=search_rollout, rules=rules)
    runner.set_threads(threads)
    meta = {**study.metadata(), "policies": list(LADDER), "study": "strength"}
    return runner.run(partial(ladder_columns, study), deals=deals, first_deal=first_deal,
                      chunk_size=chunk_size, progress=progress, out=out, meta=meta)


__all__ = ["LADDER", "PAIRS", "ladder_columns", "lone_seats", "strength_metadata", "strength_study"]
