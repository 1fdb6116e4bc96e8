"""Rami throughput: 4-player rounds/s (kernel only, 1 thread and all cores), through the command line
with Parquet output, and ``best_opening`` in µs per hand.

    python benchmarks/bench_rami.py                      # 20,000 rounds, 3 repeats
    python benchmarks/bench_rami.py --rounds 100000 --repeats 5

Warms up (compiles) first and checks the rounds (winners score 0, never-opened losers within the
cap), then times ``repeats`` runs and reports the median. Results go to
benchmarks/results/rami.json. On a machine shared with other work the figures are indicative.
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

from cardlab.sim.rami import Study, best_opening
from cardlab.sim.rami.rules import never_opened_cap


def check(cols, n):
    won = np.stack([cols[f"won_{p}"] for p in range(n)], 1)
    score = np.stack([cols[f"score_{p}"] for p in range(n)], 1)
    opened = np.stack([cols[f"opened_{p}"] for p in range(n)], 1)
    assert (score[won] == 0).all() and won.any(1).all()
    normal = ~won & ~cols["rami_sec"][:, None]
    assert (score[normal & ~opened] <= never_opened_cap(n)).all()


def median_time(fn, repeats):
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        fn(r)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--hands", type=int, default=20_000, help="hands for the best_opening timing")
    args = p.parse_args(argv)
    study = Study.build(players=4, seed=1)
    check(study.play(0, 2000), 4)  # warm up and check
    out = {"machine": platform.processor() or platform.machine(), "cores": numba.config.NUMBA_NUM_THREADS,
           "rounds": args.rounds, "repeats": args.repeats}
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        t = median_time(lambda r: study.play(r * args.rounds, args.rounds), args.repeats)
        out[f"kernel_rounds_per_s_{threads}_threads"] = round(args.rounds / t)
        print(f"kernel, {threads} thread(s): {args.rounds / t:,.0f} rounds/s")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(Path(sys.executable).with_name("cardlab")), "simulate", "rami", "--players", "4", "--deals",
               str(args.rounds), "--seed", "1", "--out", str(Path(tmp) / "r.parquet"), "--overwrite"]
        subprocess.run(cmd, check=True, capture_output=True)  # load the cache once
        t = median_time(lambda r: subprocess.run(cmd, check=True, capture_output=True), args.repeats)
    out["cli_rounds_per_s"] = round(args.rounds / t)
    print(f"cardlab simulate rami --players 4 --deals {args.rounds} --out F.parquet: {args.rounds / t:,.0f} rounds/s "
          f"({t:.2f} s, start-up included)")
    rng = np.random.default_rng(0)
    deck = np.repeat(np.arange(53), [2] * 52 + [4])
    hands = []
    for _ in range(args.hands):
        h = np.zeros(53, np.int64)
        np.add.at(h, rng.choice(deck, 13, replace=False), 1)
        hands.append(h)
    best_opening(hands[0])
    t = median_time(lambda r: [best_opening(h) for h in hands], args.repeats)
    out["best_opening_us_per_hand"] = round(1e6 * t / args.hands, 2)
    print(f"best_opening: {1e6 * t / args.hands:.2f} µs per 13-card hand (Python call included)")
    Path(__file__).with_name("results").mkdir(exist_ok=True)
    (Path(__file__).with_name("results") / "rami.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
