"""A Python seat beside search seats: deals/s of the table [own seat, search, heuristic, search, ...] with the own
seat a Python function (the legal move of lowest id; through the step API, each search decision the searched kernel
given the deal so far) beside the same table with the own seat the heuristic (all in the kernels), and, with
``--ladder``, the strength ladder with the Python function as its own rung.

    python benchmarks/bench_python_beside_search.py [--game barbu ...] --deals 200 --repeats 3 [--ladder 64]

Barbu plays its trick contracts but Trumps (a Python declarer names its own trump). Warms up (compiles) first, then
times the tables in turns and prints the medians.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numba

from cardlab.sim.games import GAMES, game
from cardlab.sim.ladder import strength_study


def lowest_in_python(observation, legal):
    """The legal move of lowest id."""
    return min(legal, key=lambda a: a.id)


def keywords_of(name: str, worlds: int) -> dict:
    if name == "barbu":
        from cardlab.sim.barbu.rules import TRICK_CONTRACTS

        return dict(seed=1, search_worlds=worlds, contract=",".join(c for c in TRICK_CONTRACTS if c != "trumps"))
    return dict(seed=1, search_worlds=worlds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--ladder", type=int, default=0, help="also time the ladder on this many deals")
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, numba {numba.__version__}, "
          f"W={args.worlds}, {args.deals} deals, medians of {args.repeats}")
    for name in args.game:
        g = game(name)
        n = g.players(g.Options())
        others = (["search", "heuristic"] * n)[:n - 1]
        keywords = keywords_of(name, args.worlds)
        seats = {"python": lowest_in_python, "heuristic": "heuristic"}
        for own in seats.values():  # warm: compile
            g.simulate(deals=2, policy=[own] + others, **keywords)
        times = {seat: [] for seat in seats}
        for _ in range(args.repeats):
            for seat, own in seats.items():
                t0 = time.perf_counter()
                g.simulate(deals=args.deals, policy=[own] + others, **keywords)
                times[seat].append(time.perf_counter() - t0)
        table = ", ".join(others)
        rates = {seat: args.deals / statistics.median(values) for seat, values in times.items()}
        print(f"{name} (load {os.getloadavg()[0]:.1f}): own seat, {table}: python {rates['python']:,.1f} "
              f"{g.unit}s/s, heuristic {rates['heuristic']:,.1f} {g.unit}s/s", flush=True)
        if args.ladder:
            t0 = time.perf_counter()
            strength_study(g, deals=args.ladder, policies={"lowest": lowest_in_python}, **keywords)
            print(f"{name}: ladder with the Python rung, {args.ladder} {g.unit}s: {time.perf_counter() - t0:.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
