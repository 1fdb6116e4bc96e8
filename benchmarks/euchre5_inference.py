"""Euchre for five: what the search's inference gains, and how much of the honest-to-oracle gap it closes.

Hand ``i`` (dealt by seat ``i % 5`` from (seed, i), as in every Euchre run) is played at these tables, the
changed seat ``(i // 5) % 5`` as on the strength ladder:

* among heuristic players: every seat heuristic; the changed seat searching without inference, with inference
  (each ``eps`` asked for), and playing oracle (search over the true deal);
* with ``--searchers``, among searchers without inference: every seat searching; the changed seat searching with
  inference (each ``eps``), and playing oracle.

Per ``eps`` (paired on the same hands, 95% CI), at each kind of table: the honest-to-oracle gap (oracle minus
the searcher without inference, in the changed seat's edge: its points minus the mean of the other four), what
inference gains at the same table, and the share of the gap it closes (a delta-method interval). No table races (a search that infers does not race). The tables
are played in turns, a block of hands at a time, so that the seconds per table (printed) compare the search with
and without inference on the same load: their ratio is inference's cost.

    python benchmarks/euchre5_inference.py --hands 500 --worlds 32 --eps 0.1,0.2,0.4 --searchers
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def play(study, deals: np.ndarray, policies: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """The five scores of each of ``deals`` at its table (``policies``, ``eps``: a row per hand), without racing."""
    from cardlab.sim.euchre5.kernels import N_RES, RES_SCORE
    from cardlab.sim.euchre5.search import play_search_tables_nb

    rows = len(deals)
    out = np.empty((N_RES, rows), np.int8)
    play_search_tables_nb(study.seed, deals, study.rules, policies, study.search_worlds, study.rollout_id, 0, eps,
                          out, *study.callbacks(searched=True), study.faults(rows))
    return out[RES_SCORE:RES_SCORE + 5].T.astype(np.int64)


def tables(lone: np.ndarray, epsilons: list, searchers: bool) -> dict:
    """name -> (policies, eps) rows per hand, the changed seat ``lone[j]`` of hand j."""
    from cardlab.sim.policy import POLICY

    def row(base, changed=None, lone_eps=0.0):
        policies = np.full((len(lone), 5), base, np.int64)
        e = np.zeros((len(lone), 5))
        if changed is not None:
            policies[np.arange(len(lone)), lone] = changed
            e[np.arange(len(lone)), lone] = lone_eps
        return policies, e

    out = {"heuristic": row(POLICY.HEURISTIC), "search_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH),
           "oracle_in_heuristic": row(POLICY.HEURISTIC, POLICY.ORACLE)}
    out.update({f"inference_{e}_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH, e) for e in epsilons})
    if searchers:
        out.update({"search": row(POLICY.SEARCH), "oracle_in_search": row(POLICY.SEARCH, POLICY.ORACLE)})
        out.update({f"inference_{e}_in_search": row(POLICY.SEARCH, POLICY.SEARCH, e) for e in epsilons})
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=500)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--eps", default=None, help="comma-separated; default: sim.euchre5.search.INFERENCE_EPSILON")
    p.add_argument("--searchers", action="store_true", help="also the tables among searchers (5 times dearer)")
    p.add_argument("--block", type=int, default=50, help="hands per turn of the tables")
    p.add_argument("--json", help="write the table here")
    args = p.parse_args(argv)
    import pandas as pd

    from cardlab.analysis.stats import mean_ci, ratio_ci
    from cardlab.sim.euchre5 import Study
    from cardlab.sim.euchre5.search import INFERENCE_EPSILON

    epsilons = [INFERENCE_EPSILON] if args.eps is None else [float(x) for x in args.eps.split(",")]
    study = Study.build(policy="search", seed=args.seed, search_worlds=args.worlds)
    deals = np.arange(args.first, args.first + args.hands, dtype=np.int64)
    lone = (deals // 5) % 5
    rows = tables(lone, epsilons, args.searchers)
    points = {name: np.zeros(len(deals), np.int64) for name in rows}
    edge = {name: np.zeros(len(deals)) for name in rows}
    seconds = {name: 0.0 for name in rows}
    for lo in range(0, len(deals), args.block):  # the tables in turns, a block of hands at a time
        sl = slice(lo, lo + args.block)
        for name, (policies, eps) in rows.items():
            start = time.perf_counter()
            scores = play(study, deals[sl], policies[sl], eps[sl])
            seconds[name] += time.perf_counter() - start
            own = scores[np.arange(len(scores)), lone[sl]]
            points[name][sl] = own
            edge[name][sl] = (5 * own - scores.sum(axis=1)) / 4
    out = {}
    for e in epsilons:
        for where, base in (("heuristic", "search_in_heuristic"), ("search", "search")):
            if f"inference_{e}_in_{where}" not in points:
                continue
            gain = edge[f"inference_{e}_in_{where}"] - edge[base]
            gap = edge[f"oracle_in_{where}"] - edge[base]
            row = {"eps": e, "among": where, "hands": len(deals)}
            for name, values in (("gain", gain), ("gap", gap)):
                row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(values)
            row["share"], row["share_low"], row["share_high"] = ratio_ci(gain, gap)
            search_time = seconds[base]
            row["time_ratio"] = seconds[f"inference_{e}_in_{where}"] / search_time
            out[f"{e} {where}"] = row
    vs_heuristic = edge["search_in_heuristic"] - edge["heuristic"]
    table = pd.DataFrame.from_dict(out, orient="index")
    with pd.option_context("display.width", 250, "display.max_columns", 40):
        print(f"worlds {args.worlds}, hands {args.first}..{args.first + args.hands - 1}, seed {args.seed}; the changed "
              "seat's edge per hand")
        print("search (no inference) vs heuristic among heuristic players: %+.4f (%+.4f, %+.4f)"
              % mean_ci(vs_heuristic))
        print(table.drop(columns=["hands"]).round(4).to_string())
        print("seconds per table:", {k: round(v, 1) for k, v in seconds.items()}, "load", os.getloadavg())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"worlds": args.worlds, "seed": args.seed, "first": args.first, "hands": args.hands,
                       "seconds": seconds, "table": out}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
