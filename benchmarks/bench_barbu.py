"""Barbu throughput: deals/s and ns per card for each contract, and whole games/s, 1 thread and all cores.

    python benchmarks/bench_barbu.py                 # every contract, 52 cards, 4 players, heuristic
    python benchmarks/bench_barbu.py --deals 4000000 --repeats 7 --memory
    python benchmarks/bench_barbu.py --contract none --games 200000   # whole games only
    python benchmarks/bench_barbu.py --policies classic,heuristic --games 0 --deals 500000   # rule cost

Warms up (compiles) first, checks every deal's point total against the §3 table, then times
``repeats`` runs and reports the median. Results go to benchmarks/results/barbu.json so runs
can be compared across commits (``--policies`` other than ``heuristic``: barbu_policies.json;
``classic,heuristic`` times the heuristic without and with its rules R1-R5, interleaved in one
process, so the rules' cost is measured under the same load). ``--memory`` also streams a 10,000,000-deal run to Parquet and
reports its peak resident memory.
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
import numpy as np

from cardlab.sim.barbu import ALL_CONTRACTS, BarbuOptions, GameStudy, Study
from cardlab.sim.barbu.rules import contract_total


def median_time(play, count, repeats):
    """Median seconds of ``play`` (a study's ``play`` or ``play_games``) over ``repeats`` runs of ``count`` fresh deals
    (or games)."""
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        play(r * count, count)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_contract(contract, *, deals, repeats, threads, options, policy="heuristic"):
    study = Study.build(options=options, contract=contract, policy=policy, seed=1)
    numba.set_num_threads(threads)
    cols = study.play(0, 10_000)  # warm-up and output check
    totals = cols["score"].astype(np.int64).sum(axis=1)
    expected = contract_total(options, contract)
    assert (totals == expected).all(), f"{contract}: deal totals {np.unique(totals)} != {expected}"
    median = median_time(study.play, deals, repeats)
    return {"contract": contract, "policy": policy, "threads": threads, "deals": deals, "median_s": median,
            "deals_per_s": deals / median, "ns_per_card": median / (deals * len(options.cards)) * 1e9}


def bench_games(*, games, repeats, threads):
    study = GameStudy.build(seed=1, geronimo=True, double=True, policy="heuristic")
    numba.set_num_threads(threads)
    cols = study.play_games(0, 1000)  # warm-up and output check
    assert len(cols["game"]) == 1000 * study.options.game_length
    raw, final = cols["raw"].astype(np.int64).sum(axis=1), cols["score"].astype(np.int64).sum(axis=1)
    assert (raw == final).all(), "settlement must preserve every deal's total"
    median = median_time(study.play_games, games, repeats)
    return {"contract": "geronimo+double games", "threads": threads, "games": games, "median_s": median,
            "games_per_s": games / median, "deals_per_s": games * study.options.game_length / median}


def peak_memory_10m(options):
    """Peak RSS (MiB) of a child process streaming 10,000,000 deals to Parquet."""
    with tempfile.TemporaryDirectory() as tmp:
        code = ("import resource; from cardlab.sim.barbu import simulate; "
                f"simulate(deals=10_000_000, seed=3, contract='all', out='{tmp}/m.parquet'); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parents[1])
        return int(out.stdout.split()[-1]) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--contract", default="all")
    ap.add_argument("--memory", action="store_true")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--policies", default="heuristic", help="card policies to time, e.g. classic,heuristic")
    args = ap.parse_args()
    policies = args.policies.split(",")
    options = BarbuOptions(players=4, deck=52)
    named = {"all": ALL_CONTRACTS, "none": ()}  # "none": whole games only
    contracts = named[args.contract] if args.contract in named else tuple(args.contract.split(","))
    rows = []
    print(f"{'contract':<12} {'policy':>9} {'threads':>7} {'deals/s':>12} {'ns/card':>8}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for contract in contracts:
            for policy in policies:
                row = bench_contract(contract, deals=args.deals, repeats=args.repeats, threads=threads,
                                     options=options, policy=policy)
                rows.append(row)
                print(f"{contract:<12} {policy:>9} {threads:>7} {row['deals_per_s']:>12,.0f} "
                      f"{row['ns_per_card']:>8.1f}", flush=True)
    if args.games:
        print(f"{'whole games':<12} {'threads':>7} {'games/s':>12} {'deals/s':>12}")
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            row = bench_games(games=args.games, repeats=args.repeats, threads=threads)
            rows.append(row)
            print(f"{'geronimo+dbl':<12} {threads:>7} {row['games_per_s']:>12,.0f} {row['deals_per_s']:>12,.0f}",
                  flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor()},
              "rows": rows}
    if args.memory:
        result["peak_rss_mib_10m_deals"] = peak_memory_10m(options)
        print(f"10,000,000 deals streamed to Parquet: peak RSS {result['peak_rss_mib_10m_deals']:.0f} MiB")
    out = Path(__file__).parent / "results" / ("barbu.json" if policies == ["heuristic"] else "barbu_policies.json")
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
