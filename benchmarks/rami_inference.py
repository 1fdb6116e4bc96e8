"""Rami: what the search's inference gains, and how much of the honest-to-oracle gap it closes.

Round ``i`` (dealt by seat ``i % n`` from ``(seed, i)``) is played with one changed seat, ``(i // n) % n`` as on
the strength ladder, among heuristic players: searching without inference, searching with inference at each
``--eps``, and playing oracle (search over the true deal). The figure is the changed seat's relative round score
(the others' mean score minus its own: higher is better), paired on the same rounds with a 95% CI: the
honest-to-oracle gap (oracle minus search without inference), what inference gains over the same search, and the
share of the gap it closes (a delta-method interval). Each table's time is summed over chunks played in turns
(every table on one chunk of rounds, then the next), so that a shared machine's load falls alike on all of them;
the CPU time (all threads) is the cost figure. Prints one table and, with ``--json FILE``, writes it.

    python benchmarks/rami_inference.py --deals 400 --eps 0.1,0.2,0.4
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def play(study, deals: np.ndarray, changed: str, eps: float) -> np.ndarray:
    """The changed seat's relative round score on ``deals``, its policy ``changed``, its inference ``eps`` (0: off)."""
    from cardlab.sim.rami import search as S

    P = study.options.players
    lone = (deals // P) % P
    out = np.zeros(len(deals))
    S.INFERENCE_EPSILON = eps  # Study.inference_eps reads the module's value at each call
    for s in range(P):
        rows = np.flatnonzero(lone == s)
        if not len(rows):
            continue
        policies = ["heuristic"] * P
        policies[s] = changed
        inference = {"search_inference": "on" if eps > 0 else "off"} if changed == "search" else {}
        table = study.game.build("deals", policy=",".join(policies), seed=study.seed,
                                 search_worlds=study.search_worlds, **inference)
        cols = study.game.row_columns(table.searched(deals[rows])[0])
        scores = np.stack([cols[f"score_{p}"] for p in range(P)], axis=1).astype(np.float64)
        out[rows] = (scores.sum(axis=1) - scores[:, s]) / (P - 1) - scores[:, s]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--eps", default="0.4", help="comma-separated eps values to try")
    ap.add_argument("--no-oracle", action="store_true", help="skip the oracle table (no gap or share)")
    ap.add_argument("--chunk", type=int, default=40, help="rounds per turn")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import numba

    from cardlab.analysis.stats import mean_ci, ratio_ci
    from cardlab.sim.games import game

    if args.threads:
        numba.set_num_threads(args.threads)
    eps_values = [float(e) for e in args.eps.split(",")]
    study = game("rami").build("deals", policy="search", seed=args.seed, search_worlds=args.worlds)
    named = {"search": ("search", 0.0), **{f"inference_{e:g}": ("search", e) for e in eps_values}}
    if not args.no_oracle:
        named["oracle"] = ("oracle", 0.0)
    results = {name: [] for name in named}
    seconds = dict.fromkeys(named, 0.0)
    cpu = dict.fromkeys(named, 0.0)
    deals = np.arange(args.first, args.first + args.deals, dtype=np.int64)
    for start in range(0, len(deals), args.chunk):
        chunk = deals[start:start + args.chunk]
        for name, (changed, e) in named.items():
            t0, c0 = time.perf_counter(), time.process_time()
            results[name].append(play(study, chunk, changed, e))
            seconds[name] += time.perf_counter() - t0
            cpu[name] += time.process_time() - c0
        print(f"{start + len(chunk)} rounds", {k: round(v, 1) for k, v in cpu.items()}, flush=True)
    results = {k: np.concatenate(v) for k, v in results.items()}
    base = results["search"]
    rows = {}
    for e in eps_values:
        gain = results[f"inference_{e:g}"] - base
        row = dict(zip(("gain", "gain_low", "gain_high"), map(float, mean_ci(gain))))
        if "oracle" in results:
            gap = results["oracle"] - base
            row.update(zip(("gap", "gap_low", "gap_high"), map(float, mean_ci(gap))))
            row.update(zip(("share", "share_low", "share_high"), map(float, ratio_ci(gain, gap))))
        row["changed"] = float(np.mean(gain != 0))
        rows[f"eps={e:g}"] = row
    print(f"Rami inference: {args.deals} rounds from {args.first}, seed {args.seed}, W={args.worlds}, "
          f"threads {numba.get_num_threads()}, load {os.getloadavg()[0]:.2f}")
    for name, r in rows.items():
        text = f"{name:10s} gain {r['gain']:+7.3f} ({r['gain_low']:+.3f}, {r['gain_high']:+.3f})"
        if "gap" in r:
            text += (f"  gap {r['gap']:+7.3f} ({r['gap_low']:+.3f}, {r['gap_high']:+.3f})"
                     f"  share {r['share']:+.3f} ({r['share_low']:+.3f}, {r['share_high']:+.3f})")
        print(text + f"  rounds changed {r['changed']:.2f}")
    print("means:", {k: round(float(v.mean()), 3) for k, v in results.items()})
    print("CPU seconds per table:", {k: round(v, 1) for k, v in cpu.items()})
    print("wall seconds per table:", {k: round(v, 1) for k, v in seconds.items()})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "rows": rows, "seconds": seconds, "cpu": cpu,
                       "means": {k: float(v.mean()) for k, v in results.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
