"""Barbu: what the search's inference gains, and how much of the honest-to-oracle gap it closes.

Deal ``i`` of the trick contracts (contract ``i % 8``, declarer ``(i // 8) % 4``, as in every Barbu run)
is played at these tables, the changed seat ``(i // 32) % 4`` as in the strength ladder:

* every seat searching without inference (the honest searchers' table);
* the changed seat searching with inference (``eps``) among searchers without it;
* the changed seat playing oracle (search over the true deal) among searchers without inference;
* every seat heuristic, and the changed seat searching without, then with, inference, then playing oracle,
  among heuristic players.

Per contract (paired on the same deals, 95% CI), at each kind of table (among searchers without inference,
among heuristic players): the honest-to-oracle gap (oracle minus the searcher without inference), what
inference gains at the same table, and the share of the gap it closes (a delta-method interval).
Every table plays the search without racing (a search that infers does not race). Prints one table and, with
``--json FILE``, writes it. Time per table is printed too (not compared: the
machine is shared).

    python benchmarks/barbu_inference.py --deals 800 --worlds 32 --eps 0.1
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def tables(n: int, lone: int, eps: float) -> dict:
    """name -> (policies, eps per seat) of the tables above, for changed seat ``lone``."""
    from cardlab.sim.barbu.policies import POLICY

    def row(base, changed=None, lone_eps=0.0):
        policies = np.full(n, base, np.int64)
        if changed is not None:
            policies[lone] = changed
        e = np.zeros(n)
        e[lone] = lone_eps
        return policies, e

    return {"search": row(POLICY.SEARCH), "inference_in_search": row(POLICY.SEARCH, POLICY.SEARCH, eps),
            "oracle_in_search": row(POLICY.SEARCH, POLICY.ORACLE),
            "heuristic": row(POLICY.HEURISTIC), "search_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH),
            "oracle_in_heuristic": row(POLICY.HEURISTIC, POLICY.ORACLE),
            "inference_in_heuristic": row(POLICY.HEURISTIC, POLICY.SEARCH, eps)}


def play(a: dict, seed: int, deals: np.ndarray, policies: np.ndarray, eps: np.ndarray, worlds: int) -> np.ndarray:
    """The scores of ``deals`` at one table (the search kernel, trump named by the declarer's policy)."""
    from cardlab.sim.barbu.play import domino_callback, user_callback
    from cardlab.sim.barbu.search_deals import play_search_deals_nb

    count, n = len(deals), a["n"]
    score = np.zeros((count, n), np.int16)
    play_search_deals_nb(seed, deals, a["deck"], n, a["contracts"], a["card_values"], a["trick_values"],
                         a["last_two"], a["flags"], a["point_masks"], policies, a["duties"], a["lead_rule"],
                         a["early_stop"], -1, a["weights"], a["domino_variant"], a["domino_start_rank"],
                         a["domino_starter"], a["ace_replay_optional"], a["places"], worlds, 1,
                         np.full(count, -1, np.int8), score, np.zeros((0, a["log_width"]), np.int8),
                         np.zeros((0, a["log_width"], 64), np.float32), np.zeros((0, 4), np.float32),
                         user_callback("", True), domino_callback("", True), np.zeros((count, 2), np.int64), eps,
                         0)  # no racing: inference does not race, so neither does the search it is compared with
    return score


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=800)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--eps", type=float, default=None, help="default: sim.barbu.search.INFERENCE_EPSILON")
    p.add_argument("--json", help="write the table here")
    args = p.parse_args(argv)
    import pandas as pd

    from cardlab.analysis.stats import mean_ci, ratio_ci
    from cardlab.sim.barbu import Study
    from cardlab.sim.barbu.rules import TRICK_CONTRACTS
    from cardlab.sim.barbu.search import INFERENCE_EPSILON

    eps = INFERENCE_EPSILON if args.eps is None else args.eps
    a = Study.build(contract=",".join(TRICK_CONTRACTS), policy="search", seed=args.seed,
                    search_worlds=args.worlds).kernel_args
    n, k = a["n"], len(TRICK_CONTRACTS)
    deals = np.arange(args.first, args.first + args.deals, dtype=np.int64)
    lone = (deals // (k * n)) % n
    lone_score = {}
    seconds = {}
    for s in range(n):
        rows = deals[lone == s]
        for name, (policies, e) in tables(n, s, eps).items():
            start = time.perf_counter()
            lone_score.setdefault(name, np.zeros(len(deals)))[lone == s] = play(a, args.seed, rows, policies, e,
                                                                                 args.worlds)[:, s]
            seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - start
    contract = np.array(TRICK_CONTRACTS)[deals % k]
    out = {}
    for c in list(TRICK_CONTRACTS) + ["all"]:
        m = contract == c if c != "all" else np.ones(len(deals), bool)
        s = {name: v[m] for name, v in lone_score.items()}
        gap, gain = s["oracle_in_search"] - s["search"], s["inference_in_search"] - s["search"]
        row = {"deals": int(m.sum())}
        for name, values in (("gap", gap), ("gain", gain), ("search_vs_heuristic", s["search_in_heuristic"]
                                                             - s["heuristic"]),
                             ("inference_vs_heuristic", s["inference_in_heuristic"] - s["heuristic"]),
                             ("inference_vs_search_in_heuristic", s["inference_in_heuristic"]
                              - s["search_in_heuristic"])):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(values)
        row["share"], row["share_low"], row["share_high"] = ratio_ci(gain, gap)
        gain_h = s["inference_in_heuristic"] - s["search_in_heuristic"]
        gap_h = s["oracle_in_heuristic"] - s["search_in_heuristic"]
        row["gap_h"], row["gap_h_low"], row["gap_h_high"] = mean_ci(gap_h)
        row["share_h"], row["share_h_low"], row["share_h_high"] = ratio_ci(gain_h, gap_h)
        out[c] = row
    table = pd.DataFrame.from_dict(out, orient="index")
    with pd.option_context("display.width", 250, "display.max_columns", 40):
        print(f"eps {eps}, worlds {args.worlds}, deals {args.first}..{args.first + args.deals - 1}, seed {args.seed}")
        print("among searchers without inference: the gap (oracle - search), inference's gain, its share")
        print(table[["deals", "gap", "gap_low", "gap_high", "gain", "gain_low", "gain_high", "share", "share_low",
                     "share_high"]].round(3).to_string())
        print("among heuristic players: the gap (oracle - search), inference's gain over search, its share")
        print(table[["deals", "gap_h", "gap_h_low", "gap_h_high", "inference_vs_search_in_heuristic",
                     "inference_vs_search_in_heuristic_low", "inference_vs_search_in_heuristic_high", "share_h",
                     "share_h_low", "share_h_high"]].round(3).to_string())
        for name in ("share", "share_h"):
            print(f"mean of the trick contracts' {name}: {table.loc[list(TRICK_CONTRACTS), name].mean():.3f}")
        print("seconds per table:", {k_: round(v, 1) for k_, v in seconds.items()}, "load", os.getloadavg())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"eps": eps, "worlds": args.worlds, "seed": args.seed, "first": args.first,
                       "deals": args.deals, "seconds": seconds, "table": out}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
