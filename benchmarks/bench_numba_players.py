"""Your own Numba player's cost in every game: deals/s with seat 0 played by a user's Numba functions among
heuristic seats, beside every seat heuristic, the tables timed in turns in one process (the same load for each).

    python benchmarks/bench_numba_players.py --game euchre5              # 2,000,000 hands a table, medians of 3
    python benchmarks/bench_numba_players.py --game rami --deals 60000 --repeats 5

Players: Euchre's ``euchre_heuristic_like`` (``benchmarks/numba_seats.py``) calls the built-in heuristic's lead
and follow functions from the seat's view (the heuristic's cost, through the Numba seat), ``euchre_lowest`` plays
the lowest legal card; Rami's and Barbu's are the test modules' (``tests/user_policies``): a Rami player making
its discard alone, and all three decisions (its draw and melds as the heuristic makes them); Barbu's Domino seat
laying its lowest playable card; Minchiate's seat playing its lowest card; Hearts' seat playing its lowest legal
card (``cardlab.sim.example_players.hearts_lowest``). Each run is
``game(name).simulate(deals=N, seed=1, policy=...)`` on a fresh slice of deals; the first call of each table
compiles or loads its kernels and is not timed. Also prints the one-time compile of a new user function (its C
callback, the kernels already compiled for the seat) and the load average. (Barbu's trick contracts, and a
Python seat: ``bench_numba_seat.py``.)
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT)]
import numba_seats  # noqa: E402

from cardlab.sim.example_players import hearts_lowest  # noqa: E402
from cardlab.sim.games import game  # noqa: E402
from tests.user_policies import barbu_cards, minchiate_cards, rami_discards  # noqa: E402


def tables(name: str) -> tuple[dict, dict]:
    """The tables timed for game ``name`` (seat 0's player, the others heuristic) and the run's keywords."""
    others = ["heuristic"] * (4 if name == "euchre5" else 3)
    players = {
        "euchre5": {"euchre_heuristic_like": numba_seats.euchre_heuristic_like, "euchre_lowest": numba_seats.euchre_lowest},
        "rami": {"discard (highest)": rami_discards.highest,
                 "discard, draw and meld": {"discard": rami_discards.highest, "draw": rami_discards.take_when_usable,
                                            "meld": rami_discards.heuristics_melds}},
        "barbu": {"domino (lowest)": {"card": barbu_cards.lowest, "domino": barbu_cards.domino_lowest}},
        "minchiate": {"lowest": minchiate_cards.lowest},
        "hearts": {"lowest": hearts_lowest},
    }[name]
    keywords = {"contract": "domino"} if name == "barbu" else {}
    return {"heuristic": ["heuristic"] + others, **{p: [f] + others for p, f in players.items()}}, keywords


def compile_cost(name: str) -> float:
    """Seconds to compile a function defined now (never seen by the cache) as the game's seat, its kernels warm."""
    from numba import njit

    from cardlab.sim.user import check

    seat = game(name).numba_seat
    arguments = ", ".join(f"a{i}" for i in range(len(seat.numba_signature().args)))
    scope = {}
    exec(f"def fresh_{time.time_ns()}({arguments}):\n    return -1\n", scope)  # noqa: S102 - our own text
    fn = njit(next(v for k, v in scope.items() if k.startswith("fresh_")))
    t0 = time.perf_counter()
    check(fn, seat, name, 0)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("euchre5", "rami", "barbu", "minchiate", "hearts"), default="euchre5")
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    g = game(args.game)
    table, keywords = tables(args.game)
    for policy in table.values():
        g.simulate(deals=2_000, seed=1, policy=policy, **keywords)  # compile (or load) and warm
    print(f"load {os.getloadavg()[0]:.2f}  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    times = {name: [] for name in table}
    for r in range(args.repeats):
        for name, policy in table.items():
            t0 = time.perf_counter()
            g.simulate(deals=args.deals, first_deal=(r + 1) * args.deals, seed=1, policy=policy, **keywords)
            times[name].append(time.perf_counter() - t0)
    base = args.deals / statistics.median(times["heuristic"])
    for name, t in times.items():
        rate = args.deals / statistics.median(t)
        print(f"{name:28s} {rate:12,.0f} {g.unit}s/s  {base / rate:5.2f}x the heuristic's time  "
              f"(runs: {', '.join(f'{x:.2f}' for x in t)} s)")
    print(f"load {os.getloadavg()[0]:.2f}  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"a new user function's compile: {compile_cost(args.game):.2f} s")


if __name__ == "__main__":
    main()
