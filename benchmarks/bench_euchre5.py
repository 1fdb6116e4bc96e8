"""Euchre-for-five throughput: hands/s and games/s, kernel only and through ``cardlab simulate ... --out``.

    python benchmarks/bench_euchre5.py                       # heuristic seats, default rules
    python benchmarks/bench_euchre5.py --deals 4000000 --games 400000 --repeats 7
    python benchmarks/bench_euchre5.py --cli-deals 0 --cli-games 0   # kernels only (about 20 s)

About 45 s on two free cores once the JIT cache is filled. Warms up (compiles) first, checks the
outputs (§6 point totals per hand, every game reaching the target), then times ``repeats`` runs
and reports the median, with 1 thread and with all cores. Whole hands include the bidding, the
exchange, the call and the 25 cards; ns per card played is the median time over the cards played
(void hands play none). Beside wall-clock rates it reports CPU-time rates (CPU seconds over all
threads): on a machine shared with other jobs the wall clock measures the share the job got, CPU
time what one core does. The command-line rate times the whole ``cardlab simulate euchre5 --deals
N --out F`` process (start-up, cached JIT load, Parquet writing): the median of ``repeats // 2``
runs after a small run that fills the cache if it is empty. Results go to
benchmarks/results/euchre5.json.
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
from pathlib import Path

import numba
import numpy as np

from cardlab.sim.euchre5 import Study

HAND_TOTALS = {(0, 3): 2, (0, 4): 2, (0, 5): 4, (0, 1): 6, (0, 2): 6, (0, 0): 12}


def check_hands(cols) -> int:
    """§6 totals per hand; returns the number of cards played."""
    scores = np.stack([cols[f"score_{p}"] for p in range(5)], axis=1).astype(np.int64)
    tricks, alone = cols["maker_tricks"], cols["alone"]
    partnered = alone == 0
    total = scores.sum(axis=1)
    expected = np.select([tricks == 5, tricks >= 3, tricks >= 1], [4, 2, 6], 12)
    assert (total[partnered] == expected[partnered]).all(), "partnered hand totals off the §6 table"
    lone = ~partnered
    assert np.isin(total[lone], (1, 2, 8, 16)).all(), "lone hand totals off the §6 table"
    return int((cols["round"] > 0).sum()) * 25


def timed(fn, repeats):
    """Median wall and CPU seconds of ``fn(r)`` over ``repeats`` runs."""
    walls, cpus = [], []
    for r in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn(r)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def bench_hands(*, deals, repeats, threads):
    study = Study.build(seed=1)
    numba.set_num_threads(threads)
    cards = check_hands(study.play(0, 20_000)) / 20_000  # warm-up and output check
    wall, cpu = timed(lambda r: study.play(r * deals, deals), repeats)
    return {"what": "hands", "threads": threads, "count": deals, "median_s": wall, "per_s": deals / wall,
            "cpu_per_s_per_thread": deals / cpu, "ns_per_card": wall / (deals * cards) * 1e9}


def bench_games(*, games, repeats, threads):
    study = Study.build(seed=1)
    numba.set_num_threads(threads)
    cols = study.play_games(0, 2000)  # warm-up and output check
    totals = np.stack([np.bincount(cols["game"], weights=cols[f"score_{p}"]) for p in range(5)], axis=1)
    assert (totals.max(axis=1) >= study.options.target).all(), "a game ended below the target"
    hands = len(cols["game"]) / 2000
    wall, cpu = timed(lambda r: study.play_games(r * games, games), repeats)
    return {"what": "games", "threads": threads, "count": games, "median_s": wall, "per_s": games / wall,
            "cpu_per_s_per_thread": games / cpu, "hands_per_game": hands,
            "ns_per_card": wall / (games * hands * 25) * 1e9}


def bench_cli(*, count, unit, repeats):
    """Median wall time of the whole ``cardlab simulate euchre5 ... --out`` command."""
    exe = Path(sys.executable).with_name("cardlab")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats + 1):  # the first run, a small one, fills the JIT cache if it is empty
            out = Path(tmp) / f"run{r}.parquet"
            t0 = time.perf_counter()
            subprocess.run([str(exe), "simulate", "euchre5", f"--{unit}", str(count if r else 1000), "--seed",
                            str(r + 1), "--out", str(out), "--overwrite"], check=True, capture_output=True,
                           env={**os.environ})
            if r:
                times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    row = {"what": f"cli --{unit}", "threads": numba.config.NUMBA_NUM_THREADS, "count": count, "median_s": median,
           "per_s": count / median}
    if unit == "deals":  # every hand of the default rules is played out (stick the dealer): 25 cards
        row["ns_per_card"] = median / (count * 25) * 1e9
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cli-deals", type=int, default=10_000_000)
    ap.add_argument("--cli-games", type=int, default=1_000_000)
    args = ap.parse_args()
    rows = []
    print(f"{'what':<14} {'threads':>7} {'per s':>12} {'cpu/s/thread':>13} {'ns/card':>8}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for row in (bench_hands(deals=args.deals, repeats=args.repeats, threads=threads),
                    bench_games(games=args.games, repeats=args.repeats, threads=threads)):
            rows.append(row)
            print(f"{row['what']:<14} {threads:>7} {row['per_s']:>12,.0f} {row['cpu_per_s_per_thread']:>13,.0f} "
                  f"{row['ns_per_card']:>8.1f}", flush=True)
    for count, unit in ((args.cli_deals, "deals"), (args.cli_games, "games")):
        if count:
            row = bench_cli(count=count, unit=unit, repeats=max(1, args.repeats // 2))
            rows.append(row)
            ns = f"{row['ns_per_card']:>8.1f}" if "ns_per_card" in row else ""
            print(f"{row['what']:<14} {row['threads']:>7} {row['per_s']:>12,.0f} {'':>13} {ns}", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "load_average_1min": load}, "rows": rows}
    out = Path(__file__).parent / "results" / "euchre5.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out} (load average {load})")


if __name__ == "__main__":
    main()
