"""The Minchiate strength ladder: random, heuristic and search partnerships in paired matches on the same deals.

Every deal ``i`` keeps the pack and dealer (``i % 4``) of a plain run and is played nine times:

* **whole tables**: every seat random, every seat heuristic, every seat search (the dealer's team
  edge under each policy);
* **one team changed**: team ``team = (i // 4) % 2`` (each team meets each dealer equally often)
  plays X while the other team plays Y, for each ordered pair X != Y.

The gain of X against Y on a deal is the changed team's net resti (its resti minus the opponents')
at the mixed table minus that team's net resti at the whole-Y table on the same deal: what a
partnership gains by playing X instead of Y against Y opponents; the same in points. Gains are
paired, so their intervals are narrow. Search seats sample ``search_worlds`` worlds per decision.

One row per deal: ``deal``, ``dealer``, ``team``; ``net_<policy>`` and ``diff_<policy>`` (team 0
minus team 1: net resti and points) for the whole tables; ``net_<X>_vs_<Y>`` and
``diff_<X>_vs_<Y>`` (team 0 minus team 1 at the table where ``team`` plays X and the other Y).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim import runner
from cardlab.sim.minchiate.kernels import COL
from cardlab.sim.minchiate.search_play import DEFAULT_WORLDS, POLICY_NAMES, search_raw
from cardlab.sim.minchiate.simulate import Study

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
DEFAULT_STUDY_CHUNK = 256


def changed_teams(deals: np.ndarray) -> np.ndarray:
    """The team that changes policy on each deal: ``(i // 4) % 2``."""
    return (np.asarray(deals) // 4) % 2


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


def _net_and_diff(out: np.ndarray):
    net = out[:, COL.RESTI].astype(np.int16) - out[:, COL.RESTI + 1].astype(np.int16)
    diff = out[:, COL.POINTS].astype(np.int16) - out[:, COL.POINTS + 1].astype(np.int16)
    return net, diff


def strength_study(*, deals: int, seed: int = 0, policy="heuristic", options=None, search_worlds: int = DEFAULT_WORLDS,
                   search_rollout: str = "heuristic", threads=None, first_deal: int = 0,
                   chunk_size: int = DEFAULT_STUDY_CHUNK, progress: bool = False, out=None, **rules):
    """Play the ladder (see the module docstring) on ``deals`` deals; one row per deal.

    ``policy`` must stay the default: the study sets every seat itself. ``analysis.minchiate_strength``
    summarises it.

    >>> df = strength_study(deals=4, seed=1, search_worlds=2)
    >>> bool((df.team == 0).all()), sorted(df.dealer.tolist())
    (True, [0, 1, 2, 3])
    """
    study = _ladder(policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    search_rollout=search_rollout, rules=rules)
    ids = {name: POLICY_NAMES.index(name) for name in LADDER}

    def play_chunk(first, count):
        deal = np.arange(first, first + count, dtype=np.int64)
        team = changed_teams(deal)
        columns = {"deal": deal, "dealer": (deal % 4).astype(np.int8), "team": team.astype(np.int8)}
        for name in LADDER:
            o, *_ = search_raw(study, deal, policies=np.full(4, ids[name], np.int64))
            columns[f"net_{name}"], columns[f"diff_{name}"] = _net_and_diff(o)
        for x, y in PAIRS:
            net = np.empty(count, np.int16)
            diff = np.empty(count, np.int16)
            for t in range(2):
                rows = np.flatnonzero(team == t)
                if len(rows):
                    policies = np.full(4, ids[y], np.int64)
                    policies[[t, t + 2]] = ids[x]
                    o, *_ = search_raw(study, deal[rows], policies=policies)
                    net[rows], diff[rows] = _net_and_diff(o)
            columns[f"net_{x}_vs_{y}"], columns[f"diff_{x}_vs_{y}"] = net, diff
        return columns

    runner.set_threads(threads)
    meta = {**study.metadata(), "policies": list(LADDER), "study": "strength"}
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=meta)


__all__ = ["LADDER", "PAIRS", "changed_teams", "strength_metadata", "strength_study"]
