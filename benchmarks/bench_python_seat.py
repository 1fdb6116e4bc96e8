"""A Python seat's cost in every game: deals/s with one seat played by a Python function (``lowest_in_python``:
the legal move of lowest id) among heuristic seats, through the step API, in one process and over a pool of
processes, beside the heuristic table in the kernels (every seat heuristic, the same deals).

    python benchmarks/bench_python_seat.py                        # every game
    python benchmarks/bench_python_seat.py --only barbu --deals 4000 --repeats 5

Barbu plays its trick contracts (a Python seat does not play Domino). Warms up (compiles) first, then times
each table ``--repeats`` times in turns and reports the medians. Then the command a user runs, ``cardlab
simulate barbu --policy python:bench_python_seat.lowest_in_python,heuristic,heuristic,heuristic --out F.parquet``
(one process: the command line spreads over processes only on dask), beside the same command with heuristic
seats. Results go to benchmarks/results/python_seat.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numba

from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.games import GAMES, game

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"barbu": dict(contract=",".join(TRICK_CONTRACTS))}
DEALS = {"barbu": 3000, "euchre5": 3000, "hearts": 3000, "minchiate": 600, "rami": 60}  # per process and repeat


def lowest_in_python(observation, legal):
    """The legal move of lowest id (in Barbu: the lowest card)."""
    return min(legal, key=lambda a: a.id)


def rates(name: str, deals: int, repeats: int, workers: int) -> dict:
    """Median deals/s of the tables of ``name``: the heuristic in the kernels, one Python seat in this process and
    over ``workers`` processes."""
    g = game(name)
    n = g.players(g.Options())
    python = [lowest_in_python] + ["heuristic"] * (n - 1)
    keywords = KEYWORDS.get(name, {})
    times = {"heuristic (kernels)": [], "python + heuristic, 1 process": [],
             f"python + heuristic, {workers} processes": []}
    with ProcessPoolExecutor(workers) as pool:
        g.simulate(deals=100, seed=1, policy="heuristic", **keywords)  # warm: compile
        g.simulate(deals=workers * 20, seed=1, policy=python, executor=pool, chunk_size=20, **keywords)
        for r in range(repeats):
            for label, policy, executor, count in (("heuristic (kernels)", "heuristic", None, deals * 20),
                                                   ("python + heuristic, 1 process", python, None, deals),
                                                   (f"python + heuristic, {workers} processes", python, pool,
                                                    deals * workers)):
                t0 = time.perf_counter()
                g.simulate(deals=count, first_deal=r * count, seed=1, policy=policy, executor=executor,
                           chunk_size=max(50, count // (4 * workers)), **keywords)
                times[label].append(count / (time.perf_counter() - t0))
    return {label: statistics.median(v) for label, v in times.items()}


def command_rate(policy: str, deals: int, repeats: int) -> float:
    """Median deals/s of ``cardlab simulate barbu --policy <policy> --out`` over its trick contracts (wall time of
    the command, from the benchmarks folder, where ``python:bench_python_seat.lowest_in_python`` imports)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cardlab.sim.cli", "simulate", "barbu", "--deals", str(deals),
                            "--policy", policy, "--contract", KEYWORDS["barbu"]["contract"], "--out",
                            f"{tmp}/run.parquet", "--overwrite"], check=True, capture_output=True,
                           cwd=ROOT / "benchmarks")
            times.append(time.perf_counter() - t0)
    return deals / statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=list(GAMES), help="one game")
    ap.add_argument("--deals", type=int, default=None, help="deals per process and repeat (default: per game)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=numba.config.NUMBA_NUM_THREADS)
    ap.add_argument("--command-deals", type=int, default=3000, help="deals of the command line's run (0: skip it)")
    args = ap.parse_args()
    results = []
    load = os.getloadavg()[0]
    for name in [args.only] if args.only else list(GAMES):
        for label, rate in rates(name, args.deals or DEALS[name], args.repeats, args.workers).items():
            results.append({"game": name, "table": label, "deals_per_s": round(rate, 1)})
            print(f"{name:10s} {label:36s} {rate:12,.1f} deals/s", flush=True)
    if args.command_deals and args.only in (None, "barbu"):
        python = "python:bench_python_seat.lowest_in_python," + ",".join(["heuristic"] * 3)
        for label, policy, deals in (("command, heuristic", "heuristic", args.command_deals * 20),
                                     ("command, python + heuristic", python, args.command_deals)):
            rate = command_rate(policy, deals, args.repeats)
            results.append({"game": "barbu", "table": label, "deals_per_s": round(rate, 1)})
            print(f"barbu      {label:36s} {rate:12,.1f} deals/s (wall, {deals:,} deals, --out)", flush=True)
    out = ROOT / "benchmarks" / "results" / "python_seat.json"
    runs = json.loads(out.read_text()).get("runs", []) if out.exists() else []  # one entry per game run (--only)
    run = {"machine": platform.processor() or platform.machine(), "numba": numba.__version__,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_average": round(load, 2),
           "results": results}
    games = {r["game"] for r in results}
    runs = [r for r in runs if not games & {x["game"] for x in r["results"]}] + [run]
    out.write_text(json.dumps({"runs": runs}, indent=1) + "\n")


if __name__ == "__main__":
    main()
