"""The PettingZoo environment's speed: episodes (deals) and steps per second in every game, each seat
moving at random among the masked legal actions, in one process.

    python benchmarks/bench_environment.py                 # every game, 3 repeats
    python benchmarks/bench_environment.py --episodes 200 --repeats 5 rami

Each step observes the seat (its card planes and mask, from the state's observation) and applies one
move through the state's rules, as an agent's loop does. Prints each game's median rate; results go to
benchmarks/results/environment.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from cardlab.sim.environment import env
from cardlab.sim.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def one_run(name: str, episodes: int) -> tuple[float, float]:
    e, rng, steps = env(name, seed=0), np.random.default_rng(0), 0
    e.reset(seed=0)
    start = time.perf_counter()
    for _ in range(episodes):
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        e.reset()
    took = time.perf_counter() - start
    return episodes / took, steps / took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    one_run(args.games[0], 2)  # imports and the first deal's kernel calls
    results = {}
    for name in args.games:
        runs = [one_run(name, args.episodes) for _ in range(args.repeats)]
        eps, sps = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        results[name] = {"episodes_per_s": round(eps, 1), "steps_per_s": round(sps)}
        print(f"{name:10s} {eps:8.1f} episodes/s {sps:9.0f} steps/s")
    out = ROOT / "benchmarks" / "results" / "environment.json"
    out.write_text(json.dumps({"machine": platform.processor() or platform.machine(),
                               "date": time.strftime("%Y-%m-%d"), "episodes": args.episodes,
                               "repeats": args.repeats, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
