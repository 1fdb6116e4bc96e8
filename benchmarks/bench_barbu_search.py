"""Barbu search throughput: searched decisions/s and whole searched deals/s, 1 thread and all cores.

    python benchmarks/bench_barbu_search.py                    # every trick contract, W = 32
    python benchmarks/bench_barbu_search.py --deals 400 --worlds 64 --repeats 5

Every seat searches (``--policy search``), 4 players, 52 cards. Warms up (compiles) first,
checks every deal's point total against the §3 table and counts the searched decisions (moves
with more than one legal card) from a recorded run, then times ``repeats`` runs of fresh deals
and reports the median. Also times the command line writing Parquet (``cardlab simulate ...
--out``). Results go to benchmarks/results/barbu_search.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from cardlab.sim.barbu import TRICK_CONTRACTS, BarbuOptions, Study
from cardlab.sim.barbu.rules import contract_total


def bench(contract, *, deals, repeats, threads, worlds, options):
    study = Study.build(options=options, contract=contract, policy="search", seed=1, search_worlds=worlds)
    numba.set_num_threads(threads)
    cols = study.play(10**6, deals, record=True)  # warm-up, output check, decision count
    totals = cols["score"].astype(np.int64).sum(axis=1)
    expected = contract_total(options, contract)
    assert (totals == expected).all(), f"{contract}: deal totals {np.unique(totals)} != {expected}"
    decisions = int((~np.isnan(cols["search_means"]).all(axis=2)).sum())
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        study.play(r * deals, deals)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    # Decisions per deal from the recorded deals (same distribution as the timed ones).
    per_deal = decisions / deals
    return {"contract": contract, "threads": threads, "worlds": worlds, "deals": deals, "median_s": median,
            "deals_per_s": deals / median, "decisions_per_deal": per_deal, "decisions_per_s": per_deal * deals / median}


def cli_rate(deals, worlds):
    """Deals/s of ``cardlab simulate barbu --policy search --out`` (every trick contract), output included."""
    with tempfile.TemporaryDirectory() as tmp:
        command = ["cardlab", "simulate", "barbu", "--contract", ",".join(TRICK_CONTRACTS), "--policy", "search",
                   "--search-worlds", str(worlds), "--deals", str(deals), "--seed", "5", "--out", f"{tmp}/s.parquet"]
        exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "cardlab"
        command[0] = str(exe) if exe.exists() else "cardlab"
        subprocess.run(command[:-2] + ["--deals", "8"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return deals / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--contract", default="all")
    ap.add_argument("--cli-deals", type=int, default=400)
    args = ap.parse_args()
    options = BarbuOptions(players=4, deck=52)
    contracts = TRICK_CONTRACTS if args.contract == "all" else tuple(args.contract.split(","))
    rows = []
    print(f"{'contract':<12} {'threads':>7} {'deals/s':>9} {'decisions/s':>12} {'decisions/deal':>15}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for contract in contracts:
            row = bench(contract, deals=args.deals, repeats=args.repeats, threads=threads, worlds=args.worlds,
                        options=options)
            rows.append(row)
            print(f"{contract:<12} {threads:>7} {row['deals_per_s']:>9,.1f} {row['decisions_per_s']:>12,.0f} "
                  f"{row['decisions_per_deal']:>15.1f}", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "note": "shared machine: indicative figures"},
              "rows": rows}
    if args.cli_deals:
        result["cli_deals_per_s"] = cli_rate(args.cli_deals, args.worlds)
        print(f"cardlab simulate barbu --policy search --out (trick contracts, all cores, W={args.worlds}): "
              f"{result['cli_deals_per_s']:,.1f} deals/s")
    out = Path(__file__).parent / "results" / "barbu_search.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
