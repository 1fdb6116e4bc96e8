"""Minchiate search throughput: searched decisions/s and whole searched deals/s, 1 thread and all cores.

    python benchmarks/bench_minchiate_search.py                  # W = 32, every seat searching
    python benchmarks/bench_minchiate_search.py --deals 64 --worlds 64 --repeats 5

Default rules. Warms up (compiles) first, then on a recorded run checks every deal with the referee
(every move legal, the scores recomputed) and counts the searched decisions (moves with more than
one legal card at a search seat); then times ``repeats`` runs of fresh deals and reports the
median, for every seat searching and for one searching seat among heuristic players. Also times the
command line writing Parquet (``cardlab simulate minchiate --policy search ... --out``). Results go
to benchmarks/results/minchiate_search.json. Takes about a minute on an idle 2-core machine.
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

from cardlab.sim.minchiate import Study
from cardlab.sim.minchiate.interface import check_record, row_columns

TABLES = {"every seat searching": "search", "one search seat": "search,heuristic,heuristic,heuristic"}


def bench(policy, *, deals, repeats, threads, worlds):
    study = Study.build(policy=policy, seed=1, search_worlds=worlds)
    numba.set_num_threads(threads)
    first = 10**6
    out, *logs = study.searched(np.arange(first, first + deals), record=True)  # warm-up
    cols = {"deal": np.arange(first, first + deals), **row_columns(out), **study.logs_columns(logs)}
    for j in range(deals):  # the referee replays every searched deal
        check_record(study, cols, j)
    per_deal = int((~np.isnan(cols["search_means"]).all(axis=2)).sum()) / deals
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        study.play(r * deals, deals)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    return {"policy": policy, "threads": threads, "worlds": worlds, "deals": deals, "median_s": median,
            "deals_per_s": deals / median, "decisions_per_deal": per_deal, "decisions_per_s": per_deal * deals / median}


def cli_rate(deals, worlds):
    """Deals/s of ``cardlab simulate minchiate --policy search --out`` (all cores), output included."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "cardlab"
        command = [str(exe) if exe.exists() else "cardlab", "simulate", "minchiate", "--policy", "search",
                   "--search-worlds", str(worlds), "--seed", "5", "--deals", str(deals), "--out", f"{tmp}/s.parquet",
                   "--overwrite"]
        subprocess.run(command[:-4] + ["--deals", "2"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return deals / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--cli-deals", type=int, default=48)
    args = ap.parse_args()
    rows = []
    print(f"{'table':<22} {'threads':>7} {'deals/s':>9} {'decisions/s':>12} {'decisions/deal':>15}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for name, policy in TABLES.items():
            row = bench(policy, deals=args.deals, repeats=args.repeats, threads=threads, worlds=args.worlds)
            rows.append({"table": name, **row})
            print(f"{name:<22} {threads:>7} {row['deals_per_s']:>9,.2f} {row['decisions_per_s']:>12,.0f} "
                  f"{row['decisions_per_deal']:>15.1f}", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "note": "shared machine: indicative figures"},
              "rows": rows}
    if args.cli_deals:
        result["cli_deals_per_s"] = cli_rate(args.cli_deals, args.worlds)
        print(f"cardlab simulate minchiate --policy search --out (all cores, W={args.worlds}): "
              f"{result['cli_deals_per_s']:,.2f} deals/s")
    out = Path(__file__).parent / "results" / "minchiate_search.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
