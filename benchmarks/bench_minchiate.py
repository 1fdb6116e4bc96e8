"""Minchiate throughput: whole deals/s with heuristic policies, kernel only and through the command line.

    python benchmarks/bench_minchiate.py                      # 1 thread and all cores, 400,000 deals, 5 repeats
    python benchmarks/bench_minchiate.py --deals 2000000 --repeats 7

Warms up (compiles) first, checks the outputs (142 card points per deal, |Δ| < 60 during play),
then times ``repeats`` runs and reports the median (and, for the kernel, deals per CPU-second,
a steadier figure on a shared machine): the kernel alone (``Study.play``) and the
rate a user gets from ``cardlab simulate minchiate --deals N --out F.parquet`` (a fresh process,
Parquet written, interpreter start-up and imports included). Results go to
benchmarks/results/minchiate.json so runs can be compared across commits.
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

from cardlab.sim.minchiate import Study

ROOT = Path(__file__).resolve().parents[1]


def bench_kernel(*, deals, repeats, threads):
    study = Study.build(policy="heuristic", seed=1)
    numba.set_num_threads(threads)
    cols = study.play(0, 20_000)  # warm-up and output check
    assert ((cols["card_points_0"].astype(np.int64) + cols["card_points_1"]) == 142).all()
    assert (cols["max_delta"] < 60).all()
    times, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        study.play(r * deals, deals)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    median = statistics.median(times)
    return {"what": "kernel (Study.play)", "threads": threads, "deals": deals, "median_s": median,
            "deals_per_s": deals / median, "ns_per_card": median / (deals * 84) * 1e9,
            "deals_per_cpu_s": deals / statistics.median(cpu)}


def bench_cli(*, deals, repeats, threads):
    cli = str(Path(sys.executable).parent / "cardlab")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        argv = [cli, "simulate", "minchiate", "--deals", str(deals), "--seed", "1", "--threads", str(threads),
                "--out", f"{tmp}/m.parquet", "--overwrite"]
        subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)  # warm the cache
        cpu = []
        for _ in range(repeats):
            t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - t0)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
    median = statistics.median(times)
    return {"what": "cardlab simulate minchiate --out", "threads": threads, "deals": deals, "median_s": median,
            "deals_per_s": deals / median, "deals_per_cpu_s": deals / statistics.median(cpu)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rows = []
    print(f"{'what':<34} {'threads':>7} {'deals/s':>12} {'deals/CPU-s':>12}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for bench in (bench_kernel, bench_cli):
            row = bench(deals=args.deals, repeats=args.repeats, threads=threads)
            rows.append(row)
            per_cpu = f"{row['deals_per_cpu_s']:>12,.0f}" if "deals_per_cpu_s" in row else ""
            print(f"{row['what']:<34} {threads:>7} {row['deals_per_s']:>12,.0f} {per_cpu}", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor()}, "rows": rows}
    out = Path(__file__).parent / "results" / "minchiate.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
