"""Hearts throughput: whole deals/s (the pass and 52 cards) by policy, kernel only and through the command line.

    python benchmarks/bench_hearts.py                      # 1 thread and all cores, 1,000,000 deals, 5 repeats
    python benchmarks/bench_hearts.py --deals 4000000 --repeats 7

Warms up (compiles) first, checks the outputs (26 points a deal, 78 with a moon), then times ``repeats`` runs of
each policy (every seat heuristic, every seat random) and reports the median (and deals per CPU-second, a steadier
figure on a shared machine): the kernel alone (``Study.play``) and the rate a user gets from ``cardlab simulate
hearts --deals N --out F.parquet`` (a fresh process, Parquet written, interpreter start-up and imports included).
Results go to benchmarks/results/hearts.json so runs can be compared across commits.
"""
from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from cardlab.sim.hearts import Study

ROOT = Path(__file__).resolve().parents[1]


def bench_kernel(*, policy, deals, repeats, threads):
    study = Study.build(policy=policy, seed=1)
    numba.set_num_threads(threads)
    cols = study.play(0, 20_000)  # warm-up and output check
    total = sum(cols[f"points_{p}"].astype(np.int64) for p in range(4))
    assert set(np.unique(total)) <= {26, 78}
    times, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        study.play(r * deals, deals)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    median = statistics.median(times)
    return {"what": f"kernel (Study.play), {policy}", "policy": policy, "threads": threads, "deals": deals,
            "median_s": median, "deals_per_s": deals / median, "ns_per_card": median / (deals * 52) * 1e9,
            "deals_per_cpu_s": deals / statistics.median(cpu)}


def bench_cli(*, policy, deals, repeats, threads):
    cli = str(Path(sys.executable).parent / "cardlab")
    times, cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        argv = [cli, "simulate", "hearts", "--deals", str(deals), "--seed", "1", "--threads", str(threads),
                "--policy", policy, "--out", f"{tmp}/h.parquet", "--overwrite"]
        subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)  # warm the cache
        for _ in range(repeats):
            t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - t0)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
    median = statistics.median(times)
    return {"what": f"cardlab simulate hearts --out, {policy}", "policy": policy, "threads": threads, "deals": deals,
            "median_s": median, "deals_per_s": deals / median, "deals_per_cpu_s": deals / statistics.median(cpu)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rows = []
    print(f"{'what':<44} {'threads':>7} {'deals/s':>12} {'deals/CPU-s':>12}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for policy in ("heuristic", "random"):
            for bench in (bench_kernel, bench_cli):
                row = bench(policy=policy, deals=args.deals, repeats=args.repeats, threads=threads)
                rows.append(row)
                print(f"{row['what']:<44} {threads:>7} {row['deals_per_s']:>12,.0f} {row['deals_per_cpu_s']:>12,.0f}",
                      flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor()}, "rows": rows}
    out = Path(__file__).parent / "results" / "hearts.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
