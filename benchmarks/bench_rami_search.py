"""Rami search throughput: searched decisions/s and whole searched rounds/s, 1 thread and all cores.

    python benchmarks/bench_rami_search.py                     # 4 players, W = 32, one search seat
    python benchmarks/bench_rami_search.py --rounds 64 --worlds 16 --seats 4 --repeats 5

Seat 0 searches (``--seats k``: seats 0..k-1), the others play the heuristic; default rules.
Warms up (compiles) first, checks a recorded run with the referee (every move legal, scores
recomputed) and counts its searched decisions, then times ``repeats`` runs of fresh rounds and
reports the median. Also times the command line writing Parquet (``cardlab simulate rami
--policy search ... --out``), output included. Results go to benchmarks/results/rami_search.json
(``rami_search_<k>seats.json`` with ``--seats k``).
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

from cardlab.sim.rami.interface import RamiStudy as Study, checked_round


def bench(*, rounds, repeats, threads, worlds, policy):
    study = Study.build(policy=policy, seed=1, search_worlds=worlds)
    numba.set_num_threads(threads)
    cols = study.play(10**6, rounds, record=True)  # warm-up, output check, decision count
    for i in range(rounds):
        checked_round(study, cols, i, f"round {10**6 + i}", {})  # every move and the result, by the referee
    decisions = 0
    for i in range(rounds):
        rows = cols["search_means"][i][: cols["search_rows"][i]]
        decisions += len({(int(r[0]), int(r[2])) for r in rows})
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        study.play(r * rounds, rounds)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    per_round = decisions / rounds
    return {"threads": threads, "worlds": worlds, "policy": policy, "rounds": rounds, "median_s": median,
            "rounds_per_s": rounds / median, "decisions_per_round": per_round,
            "decisions_per_s": per_round * rounds / median}


def cli_rate(rounds, worlds, policy):
    """Rounds/s of ``cardlab simulate rami --policy ... --out``, output included (all cores)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "cardlab"
        command = [str(exe) if exe.exists() else "cardlab", "simulate", "rami", "--policy", policy,
                   "--search-worlds", str(worlds), "--seed", "5", "--out", f"{tmp}/s.parquet", "--overwrite"]
        subprocess.run(command + ["--deals", "2"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command + ["--deals", str(rounds)], check=True, capture_output=True)
        return rounds / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--seats", type=int, default=1, help="search seats (0..k-1), the rest heuristic (default 1)")
    ap.add_argument("--cli-rounds", type=int, default=32)
    args = ap.parse_args()
    policy = ",".join(["search"] * args.seats + ["heuristic"] * (4 - args.seats))
    rows = []
    print(f"policy {policy}, W={args.worlds}")
    print(f"{'threads':>7} {'rounds/s':>9} {'decisions/s':>12} {'decisions/round':>16}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        row = bench(rounds=args.rounds, repeats=args.repeats, threads=threads, worlds=args.worlds, policy=policy)
        rows.append(row)
        print(f"{threads:>7} {row['rounds_per_s']:>9,.2f} {row['decisions_per_s']:>12,.1f} "
              f"{row['decisions_per_round']:>16.1f}", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "note": "shared machine: indicative figures"},
              "rows": rows}
    if args.cli_rounds:
        result["cli_rounds_per_s"] = cli_rate(args.cli_rounds, args.worlds, policy)
        print(f"cardlab simulate rami --policy {policy} --out (all cores, W={args.worlds}): "
              f"{result['cli_rounds_per_s']:,.2f} rounds/s")
    name = "rami_search.json" if args.seats == 1 else f"rami_search_{args.seats}seats.json"
    out = Path(__file__).parent / "results" / name
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
