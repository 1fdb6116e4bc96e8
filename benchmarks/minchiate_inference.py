"""Minchiate: what the search's inference gains, and how much of the honest-to-oracle gap it closes.

Deal ``i`` (dealt by seat ``i % 4`` from ``(seed, i)``) is played at these tables, the changed partnership
``(i // 4) % 2`` (seats t and t + 2) as in the strength ladder:

* among heuristic players (the main figure): the changed partnership searching without inference, searching with
  inference at each ``--eps``, and playing oracle (search over the true deal);
* with ``--searchers``, among searchers without inference: the same three.

Per kind of table (paired on the same deals, 95% CI), for the changed partnership's points difference (team minus
opponents, the finer figure) and net resti: the honest-to-oracle gap (oracle minus search without inference), what
inference gains at the same table, and the share of the gap it closes (a delta-method interval). The search
without inference races its candidates (Minchiate's default); a seat that infers does not race. Each table's time
is summed over chunks played in turns (every table on one chunk of deals, then the next chunk), so that a shared
machine's load falls alike on all of them. Prints one table and, with ``--json FILE``, writes it.

    python benchmarks/minchiate_inference.py --deals 400 --eps 0.1,0.2,0.4
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def tables(eps_values, searchers: bool) -> dict:
    """name -> (policy of the changed partnership, of the other, the changed partnership's eps)."""
    from cardlab.sim.policy import POLICY

    out = {}
    bases = [("heuristic", POLICY.HEURISTIC)] + ([("search", POLICY.SEARCH)] if searchers else [])
    for base, other in bases:
        out[f"search_in_{base}"] = (POLICY.SEARCH, other, 0.0)
        for e in eps_values:
            out[f"inference_{e:g}_in_{base}"] = (POLICY.SEARCH, other, e)
        out[f"oracle_in_{base}"] = (POLICY.ORACLE, other, 0.0)
    return out


def play(study, deals: np.ndarray, changed: int, other: int, eps: float) -> np.ndarray:
    """The changed partnership's (points difference, net resti) on ``deals`` at one table: the search kernel with
    each seat's eps given (0 for the other partnership, and for every seat of a table without inference)."""
    from cardlab.sim.minchiate.kernels import COL
    from cardlab.sim.minchiate.search import play_search_deals_nb

    team = (deals // 4) % 2
    out = np.zeros((len(deals), COL.WIDTH), np.int32)
    none = study.logs(0, searched=True)
    for t in (0, 1):  # one call per changed partnership: its seats' policies and eps
        rows = np.flatnonzero(team == t)
        if not len(rows):
            continue
        policies = np.array([changed if p % 2 == t else other for p in range(4)], np.int64)
        e = np.array([eps if p % 2 == t else 0.0 for p in range(4)])
        part = np.zeros((len(rows), COL.WIDTH), np.int32)
        play_search_deals_nb(study.seed, deals[rows], study.rules, policies, study.search_worlds, study.rollout_id,
                             study.racing_level, e, part, *none, study.user_callback(searched=True),
                             np.zeros((len(rows), 2), np.int64))
        out[rows] = part
    sign = np.where(team == 0, 1, -1)
    diff = (out[:, COL.POINTS] - out[:, COL.POINTS + 1]).astype(np.int64) * sign
    net = (out[:, COL.RESTI] - out[:, COL.RESTI + 1]).astype(np.int64) * sign
    return np.stack([diff, net], axis=1)


def summary(results: dict, eps_values, searchers: bool) -> dict:
    from cardlab.analysis.stats import mean_ci, ratio_ci

    rows = {}
    for base in ["heuristic"] + (["search"] if searchers else []):
        search, oracle = results[f"search_in_{base}"], results[f"oracle_in_{base}"]
        for e in eps_values:
            inf = results[f"inference_{e:g}_in_{base}"]
            for k, figure in enumerate(("points", "net_resti")):
                gain, gap = inf[:, k] - search[:, k], oracle[:, k] - search[:, k]
                row = {}
                for name, values in (("gain", gain), ("gap", gap)):
                    row[name], row[f"{name}_low"], row[f"{name}_high"] = map(float, mean_ci(values))
                row["share"], row["share_low"], row["share_high"] = map(float, ratio_ci(gain, gap))
                rows[f"{base} eps={e:g} {figure}"] = row
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--eps", default="0.2", help="comma-separated eps values to try")
    ap.add_argument("--searchers", action="store_true", help="also the tables among searchers (slow)")
    ap.add_argument("--chunk", type=int, default=40, help="deals per turn")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import numba

    from cardlab.sim.minchiate import Study

    if args.threads:
        numba.set_num_threads(args.threads)
    eps_values = [float(e) for e in args.eps.split(",")]
    study = Study.build(policy="search", seed=args.seed, search_worlds=args.worlds)
    named = tables(eps_values, args.searchers)
    results = {name: [] for name in named}
    seconds = dict.fromkeys(named, 0.0)
    deals = np.arange(args.first, args.first + args.deals, dtype=np.int64)
    for start in range(0, len(deals), args.chunk):
        chunk = deals[start:start + args.chunk]
        for name, (changed, other, e) in named.items():
            t0 = time.perf_counter()
            results[name].append(play(study, chunk, changed, other, e))
            seconds[name] += time.perf_counter() - t0
        print(f"{start + len(chunk)} deals", {k: round(v, 1) for k, v in seconds.items()}, flush=True)
    results = {k: np.concatenate(v) for k, v in results.items()}
    rows = summary(results, eps_values, args.searchers)
    print(f"Minchiate inference: {args.deals} deals from {args.first}, seed {args.seed}, W={args.worlds}, "
          f"threads {numba.get_num_threads()}, load {os.getloadavg()[0]:.2f}")
    for name, r in rows.items():
        print(f"{name:28s} gain {r['gain']:+7.3f} ({r['gain_low']:+.3f}, {r['gain_high']:+.3f})  "
              f"gap {r['gap']:+7.3f} ({r['gap_low']:+.3f}, {r['gap_high']:+.3f})  "
              f"share {r['share']:+.3f} ({r['share_low']:+.3f}, {r['share_high']:+.3f})")
    print("seconds per table:", {k: round(v, 1) for k, v in seconds.items()})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "rows": rows, "seconds": seconds,
                       "means": {k: v.mean(axis=0).tolist() for k, v in results.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
