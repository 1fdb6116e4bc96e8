"""Your own seat's cost: deals/s with one seat played by a user's Numba function, or by a Python function,
among heuristic seats, beside every seat heuristic, timed in turns in one process (the same load for each).

    python benchmarks/bench_numba_seat.py                    # Barbu's trick contracts, 1 thread and all cores
    python benchmarks/bench_numba_seat.py --deals 400000 --repeats 7

Seats (``benchmarks/numba_seats.py``): ``heuristic_like`` calls the built-in heuristic's card function
(the same cost, through the Numba seat), ``lowest`` plays the lowest legal card. Reports each table's
median rate and its ratio to the heuristic table (the goal: a seat of the heuristic's cost within
1.3x of it). A Python seat (``numba_seats.lowest_in_python``) plays through the step API: timed in this
process and over a process pool of every core. Also times the rate a user gets, ``cardlab simulate barbu
--policy numba:... --out``, beside the same command with heuristic seats. Results go to
benchmarks/results/numba_seat.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba

from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.games import game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import numba_seats  # noqa: E402

CONTRACTS = ",".join(TRICK_CONTRACTS)  # a Python seat plays these (not Domino): every table plays the same
TABLES = {
    "heuristic": ["heuristic"] * 4,
    "numba heuristic_like + 3 heuristic": [numba_seats.heuristic_like] + ["heuristic"] * 3,
    "numba lowest + 3 heuristic": [numba_seats.lowest] + ["heuristic"] * 3,
}


def kernel_rates(deals: int, repeats: int, threads: int) -> dict:
    """Median deals/s of each table's ``Study.play``, the tables timed in turns."""
    barbu = game("barbu")
    studies = {name: barbu.build("deals", policy=policy, seed=1, contract=CONTRACTS) for name, policy in TABLES.items()}
    numba.set_num_threads(threads)
    for study in studies.values():
        study.play(0, 2000)  # compile (or load) and warm
    times = {name: [] for name in studies}
    for r in range(repeats):
        for name, study in studies.items():
            t0 = time.perf_counter()
            study.play(r * deals, deals)
            times[name].append(time.perf_counter() - t0)
    return {name: deals / statistics.median(t) for name, t in times.items()}


def python_rates(deals: int, repeats: int) -> dict:
    """Median deals/s of one Python seat among heuristic seats: in this process, and over a pool of processes."""
    from concurrent.futures import ProcessPoolExecutor

    barbu = game("barbu")
    policy = [numba_seats.lowest_in_python] + ["heuristic"] * 3
    barbu.simulate(deals=200, policy=policy, seed=1, contract=CONTRACTS)  # warm
    rates = {}
    workers = numba.config.NUMBA_NUM_THREADS
    with ProcessPoolExecutor(workers) as pool:
        for label, executor, count in (("python lowest + 3 heuristic", None, deals),
                                       (f"python lowest + 3 heuristic, {workers} processes", pool, deals * workers)):
            barbu.simulate(deals=workers * 50, policy=policy, seed=2, contract=CONTRACTS, executor=executor,
                           chunk_size=50)  # warm the workers too
            times = []
            for r in range(repeats):
                t0 = time.perf_counter()
                barbu.simulate(deals=count, first_deal=r * count, policy=policy, seed=1, contract=CONTRACTS,
                               executor=executor, chunk_size=max(100, count // (4 * workers)))
                times.append(time.perf_counter() - t0)
            rates[label] = count / statistics.median(times)
    return rates


def command_rate(policy: str, deals: int, repeats: int) -> float:
    """Median deals/s of ``cardlab simulate barbu --policy <policy> --out`` (wall time of the command)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cardlab.sim.cli", "simulate", "barbu", "--deals", str(deals),
                            "--policy", policy, "--contract", CONTRACTS, "--out", f"{tmp}/run.parquet",
                            "--overwrite"],
                           check=True, capture_output=True, cwd=ROOT / "benchmarks")
            times.append(time.perf_counter() - t0)
    return deals / statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--command-deals", type=int, default=1_000_000)
    ap.add_argument("--python-deals", type=int, default=2_000)
    args = ap.parse_args()
    results = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        rates = kernel_rates(args.deals, args.repeats, threads)
        base = rates["heuristic"]
        for name, rate in rates.items():
            results.append({"table": name, "threads": threads, "deals_per_s": round(rate), "vs_heuristic":
                            round(base / rate, 3)})
            print(f"{threads} thread(s)  {name:36s} {rate:12,.0f} deals/s   {base / rate:5.2f}x the heuristic's time")
    for name, rate in python_rates(args.python_deals, 3).items():
        results.append({"table": name, "deals_per_s": round(rate)})
        print(f"step API               {name:36s} {rate:12,.0f} deals/s")
    seat = "numba:numba_seats.heuristic_like," + ",".join(["heuristic"] * 3)
    for label, policy in (("command, heuristic", "heuristic"), ("command, numba heuristic_like + 3", seat)):
        rate = command_rate(policy, args.command_deals, 3)
        results.append({"table": label, "threads": numba.config.NUMBA_NUM_THREADS, "deals_per_s": round(rate)})
        print(f"cardlab simulate --out  {label:36s} {rate:12,.0f} deals/s (wall, {args.command_deals:,} deals)")
    out = ROOT / "benchmarks" / "results" / "numba_seat.json"
    out.write_text(json.dumps({"machine": platform.processor() or platform.machine(), "numba": numba.__version__,
                               "date": time.strftime("%Y-%m-%d %H:%M"), "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
