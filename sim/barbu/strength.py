"""The strength ladder: random, heuristic and search seats in paired matches on the same deals.

Every deal ``i`` keeps the hands, contract and declarer of a plain run (``contract = i % k``,
declarer ``(i // k) % n``) and is played several times with different seats:

* **whole tables**: every seat random, every seat heuristic, every seat search; the contract's
  score distribution under each policy;
* **one seat changed**: seat ``lone = (i // (k * n)) % n`` (every seat equally often, against
  every declarer) plays policy X while the others play Y, for each ordered pair X != Y.

The gain of X against Y on a deal is the lone seat's score minus that seat's score at the
whole-Y table (same hands, same opponents' policy): what a player gains by playing X instead of Y
at a table of Y players. Gains are paired, so their intervals are narrow. The search seats use
``search_worlds`` worlds per decision (and search the trump when they declare Trumps). ``'all'``
means the trick contracts; Domino joins when named (``contract='domino'`` or in a list).

One row per deal: ``deal``, ``contract``, ``declarer``, ``lone``; ``score_<policy>_<seat>`` for
the whole tables; ``lone_<X>_in_<Y>`` (the lone seat's score) for the six pairs.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.barbu.policies import POLICY_NAMES
from cardlab.sim.barbu.rules import CONTRACT_NAMES, TRICK_CONTRACTS
from cardlab.sim.barbu.search_play import DEFAULT_WORLDS, run_search_kernel
from cardlab.sim.barbu.simulate import Study, parse_contracts

LADDER = ("random", "heuristic", "search")
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
DEFAULT_STUDY_CHUNK = 256


def lone_seats(deals: np.ndarray, k: int, n: int) -> np.ndarray:
    """The seat that changes policy on each deal: ``(i // (k * n)) % n``."""
    return (deals // (k * n)) % n


def _ladder(*, contract, policy, seed, options, search_worlds, rules) -> Study:
    if policy != "heuristic":
        raise ValueError(f"policy: {policy!r} is not allowed here; the strength study sets every seat's policy itself")
    names = TRICK_CONTRACTS if contract == "all" else parse_contracts(contract)
    return Study.build(options=options, contract=names, policy="search", seed=seed, search_worlds=search_worlds,
                       **rules)


def strength_metadata(*, contract="all", policy="heuristic", seed: int = 0, options=None,
                      search_worlds: int = DEFAULT_WORLDS, **rules) -> dict:
    """The metadata a strength study records (its ``study`` is ``"strength"``)."""
    study = _ladder(contract=contract, policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    rules=rules)
    return {**study.metadata(), "policies": list(LADDER), "study": "strength"}


def strength_study(*, deals: int, seed: int = 0, contract="all", policy="heuristic", options=None,
                   search_worlds: int = DEFAULT_WORLDS, threads=None, first_deal: int = 0,
                   chunk_size: int = DEFAULT_STUDY_CHUNK, progress: bool = False, out=None,
                   **rules) -> pd.DataFrame | None:
    """Play the ladder (see the module docstring) on ``deals`` deals; one row per deal.

    ``contract='all'`` means every trick contract (name Domino to add it). ``policy`` must stay
    the default: the study sets every seat itself. ``analysis.strength`` summarises it.

    >>> df = strength_study(deals=16, seed=1, contract="no-queens", search_worlds=2)
    >>> bool((df[[f"score_search_{p}" for p in range(4)]].sum(axis=1) == -12).all())
    True
    """
    study = _ladder(contract=contract, policy=policy, seed=seed, options=options, search_worlds=search_worlds,
                    rules=rules)
    names = study.contracts
    n, k = study.options.players, len(names)
    ids = {name: POLICY_NAMES.index(name) for name in LADDER}

    def play_chunk(first, count):
        a = study.kernel_args
        deal = np.arange(first, first + count, dtype=np.int64)
        lone = lone_seats(deal, k, n)
        columns = {"deal": deal,
                   "contract": pd.Categorical.from_codes(a["contracts"][deal % k], categories=CONTRACT_NAMES),
                   "declarer": ((deal // k) % n).astype(np.int8), "lone": lone.astype(np.int8)}
        whole = {}
        for name in LADDER:
            _, score, *_ = run_search_kernel(a, study.seed, deal, trump_how=-1,
                                             policies=np.full(n, ids[name], np.int64))
            whole[name] = score
            for p in range(n):
                columns[f"score_{name}_{p}"] = score[:, p]
        for x, y in PAIRS:
            lone_score = np.empty(count, np.int16)
            for p in range(n):
                rows = np.flatnonzero(lone == p)
                if len(rows):
                    policies = np.full(n, ids[y], np.int64)
                    policies[p] = ids[x]
                    _, score, *_ = run_search_kernel(a, study.seed, deal[rows], trump_how=-1, policies=policies)
                    lone_score[rows] = score[:, p]
            columns[f"lone_{x}_in_{y}"] = lone_score
        return columns

    runner.set_threads(threads)
    meta = {**study.metadata(), "policies": list(LADDER), "study": "strength"}
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=meta)


def lone_gain_study(*, deals: int, seed: int = 0, contract="all", policy="heuristic", against="classic",
                    options=None, threads=None, **rules) -> pd.DataFrame:
    """What one seat gains by playing ``policy`` at a table of ``against`` players, every seat in turn.

    Each deal is played by a whole table of ``against`` and once per seat ``p`` with ``p``
    alone playing ``policy`` (same hands, contract and declarer: deal ``i`` of a plain run). One
    row per deal: ``deal``, ``contract``, ``declarer``, ``gain_<p>`` (seat ``p``'s score alone
    minus its score at the whole table) and ``gain`` (their mean: one paired gain per deal, so a
    plain CI over deals is valid). Fast policies only (``heuristic``, ``classic``, ``random``):
    the measure of a heuristic change (``classic`` is the heuristic without its issue-12 rules).

    >>> df = lone_gain_study(deals=200, seed=1, contract="no-hearts")
    >>> bool(df["gain"].mean() > 0)
    True
    """
    from cardlab.sim.barbu.simulate import simulate

    kw = dict(deals=deals, seed=seed, contract=contract, options=options, threads=threads, **rules)
    base = simulate(policy=against, **kw)
    n = sum(1 for c in base.columns if c.startswith("score_"))
    out = base[["deal", "contract", "declarer"]].copy()
    for p in range(n):
        policies = [against] * n
        policies[p] = policy
        alone = simulate(policy=",".join(policies), **kw)
        out[f"gain_{p}"] = alone[f"score_{p}"].to_numpy(np.float64) - base[f"score_{p}"].to_numpy(np.float64)
    out["gain"] = out[[f"gain_{p}" for p in range(n)]].mean(axis=1)
    return out


__all__ = ["LADDER", "PAIRS", "lone_gain_study", "lone_seats", "strength_metadata", "strength_study"]
