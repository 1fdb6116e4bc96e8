"""Hearts: what the search's inference gains, and how much of the honest-to-oracle gap it closes.

Deal ``i`` (dealt and passing as in every Hearts run) is played at these tables, the changed seat
``(i // 4) % 4`` as in the strength ladder (four players):

* every seat searching without inference (the honest searchers' table);
* the changed seat searching with inference (``eps``) among searchers without it;
* the changed seat playing oracle (search over the true deal) among searchers without inference;
* every seat heuristic, and the changed seat searching without, then with, inference, then playing oracle,
  among heuristic players.

Points saved per deal by the changed seat (fewer points is better, so a gain is positive), paired on the same
deals, 95% CI, at each kind of table (among searchers without inference, among heuristic players): the
honest-to-oracle gap (the searcher's points minus the oracle's), what inference saves at the same table, and the
share of the gap it closes (a delta-method interval). Time per table is printed too; the cost of inference is
the time of the inference-among-heuristic table over the search-among-heuristic one (one searcher each; the
machine is shared, so time them in turns for a ratio).

    python benchmarks/hearts_inference.py --deals 800 --worlds 32 --eps 0.2
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

N = 4


def tables(lone: int, eps: float) -> dict:
    """name -> (policies, eps per seat) of the tables above, for changed seat ``lone``."""
    from cardlab.sim.policy import POLICY

    def row(base, changed=None, lone_eps=0.0):
        policies = np.full(N, base, np.int64)
        if changed is not None:
            policies[lone] = changed
        e = np.zeros(N)
        e[lone] = lone_eps
        return policies, e

    return {"search": row(POLICY.SEARCH), "inference_in_search": row(POLICY.SEARCH, POLICY.SEARCH, eps),
            "oracle_in_search": row(POLICY.SEARCH, POLICY.ORACLE),
            "heuristic": row(POLICY.HEURISTIC), "search_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH),
            "inference_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH, eps),
            "oracle_in_heuristic": row(POLICY.HEURISTIC, POLICY.ORACLE)}


def play(study, deals: np.ndarray, policies: np.ndarray, eps: np.ndarray, worlds: int) -> np.ndarray:
    """The points of ``deals`` at one table (the search kernel), one row per deal."""
    from cardlab.sim.hearts.kernels import C_POINTS, N_COLS
    from cardlab.sim.hearts.search import play_search_deals_nb
    from cardlab.sim.policy import POLICY

    count = len(deals)
    out = np.zeros((count, N_COLS), np.int16)
    play_search_deals_nb(study.seed, deals, study.rules, np.ascontiguousarray(np.broadcast_to(policies, (count, N))),
                         np.ascontiguousarray(np.broadcast_to(eps, (count, N))), worlds, POLICY.HEURISTIC, out,
                         *study.logs(0, searched=True), study.user_callback(searched=True),
                         np.zeros((count, 2), np.int64))
    return out[:, C_POINTS:C_POINTS + N]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=800)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--eps", type=float, default=None, help="default: sim.hearts.search.INFERENCE_EPSILON")
    p.add_argument("--tables", default=None, help="only these tables (comma-separated names)")
    p.add_argument("--json", help="write the table here")
    args = p.parse_args(argv)
    import pandas as pd

    from cardlab.analysis.stats import mean_ci, ratio_ci
    from cardlab.sim.hearts import HEARTS
    from cardlab.sim.hearts.search import INFERENCE_EPSILON

    eps = INFERENCE_EPSILON if args.eps is None else args.eps
    study = HEARTS.build(policy="search", seed=args.seed, search_worlds=args.worlds)
    deals = np.arange(args.first, args.first + args.deals, dtype=np.int64)
    lone = (deals // N) % N
    points, seconds = {}, {}
    names = list(tables(0, eps))
    for name in names:
        if args.tables and name not in args.tables.split(","):
            continue
        start = time.perf_counter()
        for s in range(N):
            policies, e = tables(s, eps)[name]
            rows = deals[lone == s]
            points.setdefault(name, np.zeros(len(deals)))[lone == s] = play(study, rows, policies, e,
                                                                            args.worlds)[:, s]
        seconds[name] = time.perf_counter() - start
    print(f"eps {eps}, worlds {args.worlds}, deals {args.first}..{args.first + args.deals - 1}, seed {args.seed}")
    row = {}
    s = points

    def put(name, values):
        row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(values)

    if {"search", "oracle_in_search", "inference_in_search"} <= s.keys():
        gap, gain = s["search"] - s["oracle_in_search"], s["search"] - s["inference_in_search"]
        put("gap_s", gap), put("gain_s", gain)
        row["share_s"], row["share_s_low"], row["share_s_high"] = ratio_ci(gain, gap)
    if {"search_in_heuristic", "oracle_in_heuristic", "inference_in_heuristic", "heuristic"} <= s.keys():
        gap, gain = (s["search_in_heuristic"] - s["oracle_in_heuristic"],
                     s["search_in_heuristic"] - s["inference_in_heuristic"])
        put("gap_h", gap), put("gain_h", gain)
        put("search_vs_heuristic", s["heuristic"] - s["search_in_heuristic"])
        row["share_h"], row["share_h_low"], row["share_h_high"] = ratio_ci(gain, gap)
    table = pd.Series(row)
    with pd.option_context("display.width", 250, "display.max_rows", 100):
        print(table.round(3).to_string())
        print("seconds per table:", {k: round(v, 1) for k, v in seconds.items()}, "load", os.getloadavg())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"eps": eps, "worlds": args.worlds, "seed": args.seed, "first": args.first,
                       "deals": args.deals, "seconds": seconds, "table": row}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
