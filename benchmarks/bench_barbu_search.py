"""Barbu search throughput: searched decisions/s and whole searched deals/s (trick contracts and Domino) and
whole searched games/s, on 1 thread and on all cores.

    python benchmarks/bench_barbu_search.py                      # W = 32, the default sizes (about a minute)
    python benchmarks/bench_barbu_search.py --contract no-tricks,salade --deals 200 --repeats 5
    python benchmarks/bench_barbu_search.py --worlds 64 --games 0 --cli-deals 0
    python benchmarks/bench_barbu_search.py --search-racing        # drop clearly worse cards early

Every seat searches (``--policy search``), 4 players, 52 cards. Rows:

* ``tricks``: the seven trick contracts in rotation (or each contract of ``--contract`` alone);
* ``domino``: Domino deals (upward rules);
* ``game``: whole Geronimo games with doubling, every seat searching its contracts, trumps and
  cards (doubling stays heuristic); a game is 28 deals.

Each row warms up (compiles) first, checks the point totals against the §3 table (every deal's,
and every game's raw total) and counts the searched decisions (moves with a choice, contract and
trump choices) from a recorded run, then times ``repeats`` runs of fresh deals or games and reports
the median. Also times the command line writing Parquet (``cardlab simulate barbu --policy search
--out``, output included). Results go to benchmarks/results/barbu_search.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np

from cardlab.sim.barbu import TRICK_CONTRACTS, BarbuOptions, GameStudy, Study
from cardlab.sim.barbu.rules import contract_total


def searched_decisions(cols) -> int:
    """Searched moves, trump and contract choices in recorded columns."""
    count = int((~np.isnan(cols["search_means"]).all(axis=2)).sum())
    count += int((~np.isnan(cols["search_trump_means"]).all(axis=1)).sum())
    if "search_contract_means" in cols:
        count += int((~np.isnan(cols["search_contract_means"]).all(axis=1)).sum())
    return count


def timed(play, count, repeats, start):
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        play(start + r * count, count)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_deals(label, contracts, *, deals, repeats, threads, worlds, options, inference="off", racing=None):
    study = Study.build(options=options, contract=",".join(contracts), policy="search", seed=1, search_worlds=worlds,
                        search_inference=inference)
    study = replace(study, search_racing=racing)  # None: the game's default (no racing)
    numba.set_num_threads(threads)
    cols = study.play(10**6, deals, record=True)  # warm-up, output check, decision count
    totals = cols["score"].astype(np.int64).sum(axis=1)
    expected = np.array([contract_total(options, str(c)) for c in cols["contract"]])
    assert (totals == expected).all(), f"{label}: deal totals differ from the §3 table"
    per_deal = searched_decisions(cols) / deals
    median = timed(study.play, deals, repeats, 0)
    return {"row": label, "unit": "deal", "threads": threads, "worlds": worlds, "count": deals, "median_s": median,
            "per_s": deals / median, "decisions_per_unit": per_deal, "decisions_per_s": per_deal * deals / median}


def bench_games(*, games, repeats, threads, worlds, inference="off", racing=None):
    study = GameStudy.build(seed=1, geronimo=True, double=True, policy="search", search_worlds=worlds,
                            search_inference=inference)
    study = replace(study, search_racing=racing)
    numba.set_num_threads(threads)
    cols = study.play_games(10**6, games, record=True)
    length = study.options.game_length
    raw = cols["raw"].astype(np.int64).sum(axis=1)
    expected = np.array([contract_total(study.options, str(c)) for c in cols["contract"]])
    assert (raw == expected).all(), "game: deal totals differ from the §3 table"
    assert len(cols["game"]) == games * length
    per_game = searched_decisions(cols) / games
    median = timed(study.play_games, games, repeats, 0)
    return {"row": "game", "unit": "game", "threads": threads, "worlds": worlds, "count": games, "median_s": median,
            "per_s": games / median, "decisions_per_unit": per_game, "decisions_per_s": per_game * games / median}


def cli_rate(deals, worlds, inference="off", racing=None):
    """Deals/s of ``cardlab simulate barbu --policy search --out`` (every trick contract), output included."""
    with tempfile.TemporaryDirectory() as tmp:
        command = ["cardlab", "simulate", "barbu", "--contract", ",".join(TRICK_CONTRACTS), "--policy", "search",
                   "--search-worlds", str(worlds), "--deals", str(deals), "--seed", "5", "--out", f"{tmp}/s.parquet",
                   "--overwrite", "--search-inference", inference]
        if racing is not None:
            command.append("--search-racing" if racing else "--no-search-racing")
        exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "cardlab"
        command[0] = str(exe) if exe.exists() else "cardlab"
        subprocess.run(command + ["--deals", "8"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return deals / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=112, help="trick deals per timed run (16 per contract)")
    ap.add_argument("--domino-deals", type=int, default=200)
    ap.add_argument("--games", type=int, default=4, help="whole games per timed run (0: skip)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--contract", default="all", help="'all' (the trick contracts in rotation) or a list, each alone")
    ap.add_argument("--cli-deals", type=int, default=200, help="deals of the timed command line (0: skip)")
    ap.add_argument("--search-inference", default="off", choices=("on", "off"),
                    help="search seats weight their worlds by the others' past cards (default off)")
    ap.add_argument("--search-racing", default=None, action=argparse.BooleanOptionalAction,
                    help="race the card searches' candidates (default: off, the game's default)")
    args = ap.parse_args()
    search = dict(inference=args.search_inference, racing=args.search_racing)
    options = BarbuOptions(players=4, deck=52)
    groups = [("tricks", TRICK_CONTRACTS)] if args.contract == "all" else \
        [(c, (c,)) for c in args.contract.split(",")]
    rows = []
    print(f"{'row':<12} {'threads':>7} {'units/s':>9} {'decisions/s':>12} {'decisions/unit':>15}")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        jobs = [lambda g=g: bench_deals(g[0], g[1], deals=args.deals, repeats=args.repeats, threads=threads,
                                        worlds=args.worlds, options=options, **search)
                for g in groups]
        if args.domino_deals:
            jobs.append(lambda: bench_deals("domino", ("domino",), deals=args.domino_deals, repeats=args.repeats,
                                            threads=threads, worlds=args.worlds, options=options, **search))
        if args.games:
            jobs.append(lambda: bench_games(games=args.games, repeats=args.repeats, threads=threads,
                                            worlds=args.worlds, **search))
        for job in jobs:
            row = job()
            rows.append(row)
            print(f"{row['row']:<12} {threads:>7} {row['per_s']:>9,.2f} {row['decisions_per_s']:>12,.0f} "
                  f"{row['decisions_per_unit']:>15.1f}   ({row['unit']}s, W={row['worlds']})", flush=True)
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "note": "shared machine: indicative figures"},
              "command": "python benchmarks/bench_barbu_search.py " + " ".join(
                  f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()),
              "rows": rows}
    if args.cli_deals:
        result["cli_deals_per_s"] = cli_rate(args.cli_deals, args.worlds, **search)
        print(f"cardlab simulate barbu --policy search --out (trick contracts, all cores, W={args.worlds}): "
              f"{result['cli_deals_per_s']:,.1f} deals/s")
    out = Path(__file__).parent / "results" / "barbu_search.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
