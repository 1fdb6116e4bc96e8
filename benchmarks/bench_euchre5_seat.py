"""Euchre for five's Numba seat: hands/s with seat 0 played by a user's Numba card function among four heuristic
seats, beside every seat heuristic, the tables timed in turns in one process (the same load for each).

    python benchmarks/bench_euchre5_seat.py                   # 2,000,000 hands a table, medians of 3
    python benchmarks/bench_euchre5_seat.py --deals 4000000 --repeats 5

Seats (``benchmarks/numba_seats.py``): ``euchre_lowest`` plays the lowest legal card (the cheapest seat),
``euchre_heuristic_like`` calls the built-in heuristic's lead and follow functions from the seat's view (the
heuristic's cost, through the Numba seat). Each run is ``game("euchre5").simulate(deals=N, seed=1, policy=...)``
on a fresh slice of hands; the first call of each table compiles or loads its kernels and is not timed. Also
prints the one-time compile of a new user function (its C callback) and the load average.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import numba_seats  # noqa: E402

from cardlab.sim.games import game  # noqa: E402

TABLES = {
    "heuristic": ["heuristic"] * 5,
    "numba euchre_heuristic_like + 4 heuristic": [numba_seats.euchre_heuristic_like] + ["heuristic"] * 4,
    "numba euchre_lowest + 4 heuristic": [numba_seats.euchre_lowest] + ["heuristic"] * 4,
}


def compile_cost() -> float:
    """Seconds to compile a function defined now (never seen by the cache) as Euchre's seat, its kernels warm."""
    from numba import njit

    from cardlab.sim.cards import lowest_card
    from cardlab.sim.user import check

    source = f"def fresh_{time.time_ns()}(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, " \
             "dealer, upcard, unseen, won):\n    return lowest_card(legal)\n"
    scope = {"lowest_card": lowest_card}
    exec(source, scope)  # noqa: S102 - our own text
    fn = njit(next(v for k, v in scope.items() if k.startswith("fresh_")))
    t0 = time.perf_counter()
    check(fn, game("euchre5").numba_seat, "euchre5", 0)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    euchre = game("euchre5")
    for policy in TABLES.values():
        euchre.simulate(deals=20_000, seed=1, policy=policy)  # compile (or load) and warm
    print(f"load {os.getloadavg()[0]:.2f}  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    times = {name: [] for name in TABLES}
    for r in range(args.repeats):
        for name, policy in TABLES.items():
            t0 = time.perf_counter()
            euchre.simulate(deals=args.deals, first_deal=(r + 1) * args.deals, seed=1, policy=policy)
            times[name].append(time.perf_counter() - t0)
    base = args.deals / statistics.median(times["heuristic"])
    for name, t in times.items():
        rate = args.deals / statistics.median(t)
        print(f"{name:44s} {rate:12,.0f} hands/s  {base / rate:5.2f}x the heuristic's time  "
              f"(runs: {', '.join(f'{x:.2f}' for x in t)} s)")
    print(f"load {os.getloadavg()[0]:.2f}  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"a new user function's compile: {compile_cost():.2f} s")


if __name__ == "__main__":
    main()
