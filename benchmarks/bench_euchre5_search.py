"""Euchre-for-five search throughput: searched decisions/s and searched hands/s, 1 thread and all cores.

    python benchmarks/bench_euchre5_search.py                 # W = 32, about a minute
    python benchmarks/bench_euchre5_search.py --hands 400 --worlds 64 --repeats 5

Two tables, default rules: every seat searching (``--policy search``) and one search seat among
four heuristic seats. Warms up (compiles) first, checks every hand's points against the §6 table
and counts the searched decisions (bids, calls and cards with more than one choice) from a
recorded run, then times ``repeats`` runs of fresh hands and reports the median wall-clock rate and
the rate per CPU-second (what one core does, whatever else shares the machine). Also times the
whole command ``cardlab simulate euchre5 --policy search ... --out`` (output included). Results go
to benchmarks/results/euchre5_search.json.
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

from cardlab.sim.euchre5 import Study

TABLES = {"every seat searching": "search", "one search seat": "search,heuristic,heuristic,heuristic,heuristic"}


def check_points(cols) -> None:
    """Every hand scores as §6 says: attackers 1, 2 (or the lone march) with 3+ tricks, defenders otherwise."""
    scores = np.stack([cols[f"score_{p}"] for p in range(5)], axis=1).astype(int)
    made = cols["maker"] >= 0
    maker_points = scores[np.flatnonzero(made), cols["maker"][made]]
    tricks = cols["maker_tricks"][made]
    assert ((maker_points > 0) == (tricks >= 3)).all(), "maker points do not follow the tricks"
    assert (scores[~made] == 0).all(), "a void hand scored"


def bench(policy, *, hands, repeats, threads, worlds):
    study = Study.build(policy=policy, seed=1, search_worlds=worlds)
    numba.set_num_threads(threads)
    cols = study.play(10**6, hands, record=True)  # warm-up, output check, decision count
    check_points(cols)
    decisions = int((~np.isnan(cols["search_means"]).all(axis=2)).sum())
    times, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        study.play(r * hands, hands)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    median = statistics.median(times)
    per_hand = decisions / hands
    return {"policy": policy, "threads": threads, "worlds": worlds, "hands": hands, "median_s": median,
            "hands_per_s": hands / median, "decisions_per_hand": per_hand, "decisions_per_s": per_hand * hands / median,
            "hands_per_cpu_s": hands / statistics.median(cpu)}


def cli_rate(hands, worlds):
    """Hands/s of ``cardlab simulate euchre5 --policy search --out`` (every seat searching), output included."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "cardlab"
        command = [str(exe) if exe.exists() else "cardlab", "simulate", "euchre5", "--policy", "search",
                   "--search-worlds", str(worlds), "--seed", "5", "--out", f"{tmp}/s.parquet", "--overwrite"]
        subprocess.run(command + ["--deals", "8"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command + ["--deals", str(hands)], check=True, capture_output=True)
        return hands / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--cli-hands", type=int, default=2000)
    args = ap.parse_args()
    rows = []
    print(f"{'table':<22} {'threads':>7} {'hands/s':>9} {'decisions/s':>12} {'decisions/hand':>15} "
          f"{'hands/CPU-s':>12}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for name, policy in TABLES.items():
            row = bench(policy, hands=args.hands, repeats=args.repeats, threads=threads, worlds=args.worlds)
            rows.append({"table": name, **row})
            print(f"{name:<22} {threads:>7} {row['hands_per_s']:>9,.1f} {row['decisions_per_s']:>12,.0f} "
                  f"{row['decisions_per_hand']:>15.1f} {row['hands_per_cpu_s']:>12,.1f}", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "note": "shared machine: indicative figures"},
              "rows": rows}
    if args.cli_hands:
        result["cli_hands_per_s"] = cli_rate(args.cli_hands, args.worlds)
        print(f"cardlab simulate euchre5 --policy search --out (all cores, W={args.worlds}): "
              f"{result['cli_hands_per_s']:,.1f} hands/s")
    out = Path(__file__).parent / "results" / "euchre5_search.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
