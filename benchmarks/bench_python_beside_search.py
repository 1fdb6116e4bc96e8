"""A Python seat beside search seats (Barbu's trick contracts): deals/s of the table [own seat, search, heuristic,
search] with the own seat a Python function (through the step API, each search move the searched kernel given the
deal so far) and the same rule as a Numba function (in the kernels), and, with ``--ladder``, the strength ladder
with each as its own rung.

    python benchmarks/bench_python_beside_search.py --deals 200 --repeats 3 [--ladder 64]

Warms up (compiles) first, then times the tables in turns and prints the medians.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numba

from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.example_players import barbu_lowest
from cardlab.sim.games import game
from cardlab.sim.ladder import strength_study

CONTRACTS = ",".join(c for c in TRICK_CONTRACTS if c != "trumps")  # a Python declarer names its own trump


def lowest_in_python(observation, legal):
    """``example_players.barbu_lowest`` in Python: the legal move of lowest id."""
    return min(legal, key=lambda a: a.id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--ladder", type=int, default=0, help="also time the ladder on this many deals")
    args = parser.parse_args()
    barbu = game("barbu")
    keywords = dict(seed=1, contract=CONTRACTS, search_worlds=args.worlds)
    seats = {"python": lowest_in_python, "numba": barbu_lowest}
    for own in seats.values():  # warm: compile
        barbu.simulate(deals=4, policy=[own, "search", "heuristic", "search"], **keywords)
    times = {name: [] for name in seats}
    for _ in range(args.repeats):
        for name, own in seats.items():
            t0 = time.perf_counter()
            barbu.simulate(deals=args.deals, policy=[own, "search", "heuristic", "search"], **keywords)
            times[name].append(time.perf_counter() - t0)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, numba {numba.__version__}, "
          f"load {os.getloadavg()[0]:.1f}, {args.deals} deals of {CONTRACTS}, W={args.worlds}, medians of "
          f"{args.repeats}")
    for name, values in times.items():
        print(f"{name} seat, search, heuristic, search: {args.deals / statistics.median(values):,.0f} deals/s")
    if args.ladder:
        for name, own in seats.items():
            t0 = time.perf_counter()
            strength_study(barbu, deals=args.ladder, policies={"lowest": own}, **keywords)
            print(f"ladder with the {name} rung, {args.ladder} deals: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
