"""Search throughput of any game: searched decisions/s and whole searched deals (or games)/s, 1 thread and all cores.

    python benchmarks/bench_search.py <game>                       # the game's default sizes, W = 32
    python benchmarks/bench_search.py euchre5 --deals 400 --worlds 64 --repeats 5
    python benchmarks/bench_search.py rami --tables all,1,2        # every seat, seat 0, seats 0-1 searching
    python benchmarks/bench_search.py barbu --search-racing        # a racing game's search drops worse cards early

Every game through the game interface (:mod:`cardlab.sim.games`), default rules. A *table* is how many seats search,
seats ``0..k-1`` (``all``: every seat), the others playing the heuristic; a *row* is what is played: single deals of
the game's run keywords (Barbu: its trick contracts in rotation, and Domino) or, with ``--games``, whole games (Barbu:
Geronimo with doubling). For every row and table the script warms up (compiles) on a recorded run of deals from
10**6, counts its searched decisions (every decision whose candidates' means the search kernels logged: cards,
bids, calls, trumps, contracts, draws and discards), has the game's referee replay each of those deals (or games)
alone (``replay_deals``/``replay_games``: every move legal, the scores recomputed), then times ``--repeats`` runs of
fresh deals and reports the median wall-clock rate and the rate per CPU-second, on each of ``--threads``. Also times
the command line writing Parquet (``cardlab simulate <game> --policy ... --out``, output included) for the first
table's first row. Results go to ``benchmarks/results/search_<game>.json``.

This replaced four per-game copies (``bench_<game>_search.py``, 447 lines), whose decision counts it reproduces on the
same seed and sizes. They checked Barbu's and Euchre's deals against the score tables only; here the referee replays
every game's deals.
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cardlab.sim.barbu.rules import TRICK_CONTRACTS

#: Each game's defaults, the old per-game scripts' sizes: ``rows`` (name, run keywords, deals per run; default one
#: row of the game's units with ``deals``), ``games`` (whole games per run, 0: none) and their rule keywords, the
#: ``tables`` and the command line's deals.
DEFAULTS = {
    "barbu": dict(rows=(("tricks", {"contract": ",".join(TRICK_CONTRACTS)}, 112),
                        ("domino", {"contract": "domino"}, 200)),
                  games=4, game_rules={"geronimo": True, "double": True}, tables=("all",), cli_deals=200),
    "euchre5": dict(deals=300, tables=("all", "1"), cli_deals=2000),
    "hearts": dict(deals=100, tables=("all", "1"), cli_deals=200),
    "minchiate": dict(deals=24, tables=("all", "1"), cli_deals=48),
    "rami": dict(deals=32, tables=("1",), cli_deals=32),
}
FIRST = 10**6  # the recorded, referee-checked deals; the timed runs play deals from 0


def searched_decisions(cols: dict) -> int:
    """Searched decisions in a recorded run's columns: rows of every ``search_*means`` log with a candidate's mean (NaN
    elsewhere); in a log of candidate rows (Rami: ``search_rows`` of them per round, each ``(turn, seat, phase, ...)``)
    its distinct ``(turn, phase)``."""
    if "search_rows" in cols:
        return sum(len({(int(r[0]), int(r[2])) for r in means[:n]})
                   for means, n in zip(cols["search_means"], cols["search_rows"]))
    return sum(int((~np.isnan(v).all(axis=-1)).sum()) for k, v in cols.items()
               if k.startswith("search_") and k.endswith("means"))


def recorded(study, unit: str, count: int) -> dict:
    """The recorded columns of ``count`` deals (or games) from :data:`FIRST`, with the search's means (whole Minchiate
    games cannot be recorded: None)."""
    if unit == "games":
        if "record" not in inspect.signature(study.play_games).parameters:
            return None
        return study.play_games(FIRST, count, record=True)
    return study.play(FIRST, count, record=True)


def refereed(game, study, unit: str, count: int) -> int:
    """How many of the recorded deals (or games) the game's referee replayed alone and passed (it raises at the first
    that differs)."""
    indices = range(FIRST, FIRST + count)
    replay = game.replay_deals(study, indices) if unit == "deals" else game.replay_games(study, indices)
    return len(replay.records) if unit == "deals" else count


def bench(game, study, unit: str, count: int, repeats: int, threads: list) -> list:
    """One row and table: the decision count and the referee's check once, then the timed runs on each of
    ``threads``."""
    import numba

    cols = recorded(study, unit, count)  # warm-up (compiles), decision count
    decisions = None if cols is None else searched_decisions(cols)
    checked = refereed(game, study, unit, count)
    play = study.play_games if unit == "games" else study.play
    out = []
    for n in threads:
        numba.set_num_threads(n)
        wall, cpu = [], []
        for r in range(repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            play(r * count, count)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        median = statistics.median(wall)
        out.append({"threads": n, "count": count, "median_s": median, "per_s": count / median,
                    "per_cpu_s": count / statistics.median(cpu), "decisions": decisions,
                    "decisions_per_unit": None if decisions is None else decisions / count,
                    "decisions_per_s": None if decisions is None else decisions / median, "checked": checked})
    return out


def flags(keywords: dict) -> list:
    """Command-line flags of run keywords (``True``: the flag alone, ``False``: its ``--no-`` form, None: none)."""
    out = []
    for k, v in keywords.items():
        flag = k.replace("_", "-")
        out += [] if v is None else [f"--{flag}"] if v is True else [f"--no-{flag}"] if v is False else [f"--{flag}",
                                                                                                        str(v)]
    return out


def cli_rate(game: str, deals: int, policy: str, worlds: int, keywords: dict) -> float:
    """Deals/s of ``cardlab simulate <game> --policy <policy> --out`` (all cores), output included."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("cardlab")
        command = [str(exe) if exe.exists() else "cardlab", "simulate", game, "--policy", policy, "--search-worlds",
                   str(worlds), "--seed", "5", "--out", f"{tmp}/s.parquet", "--overwrite", *flags(keywords)]
        subprocess.run(command + ["--deals", "2"], check=True, capture_output=True)  # warm the cache
        t0 = time.perf_counter()
        subprocess.run(command + ["--deals", str(deals)], check=True, capture_output=True)
        return deals / (time.perf_counter() - t0)


def main(argv=None) -> int:
    from cardlab.sim.games import GAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--deals", type=int, help="deals (hands, rounds) per timed run of every row; default: the game's")
    p.add_argument("--games", type=int, help="whole games per timed run (0: none); default: the game's")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--tables", help="search seats per table, 'all' or k (seats 0..k-1), comma-separated; default: "
                                    "the game's")
    p.add_argument("--threads", default="1,all", help="thread counts, comma-separated ('all': every core)")
    p.add_argument("--cli-deals", type=int, help="deals of the timed command line (0: skip); default: the game's")
    p.add_argument("--search-inference", default="off", choices=("on", "off"),
                   help="search seats weight their worlds by the others' past play (games whose search infers)")
    p.add_argument("--search-racing", default=None, action=argparse.BooleanOptionalAction,
                   help="race the search's candidates (games whose search races); default: the game's")
    p.add_argument("--rows", help="the rows to play, comma-separated (Barbu: tricks, domino, games); default: all")
    p.add_argument("--out", help="the results file; default benchmarks/results/search_<game>.json")
    from cardlab.sim.games import game as registered

    g = registered(p.parse_known_args(argv)[0].game)
    g.add_flags(p, "simulate")  # the game's own run flags (Barbu's --contract: one row of those contracts)
    args = p.parse_args(argv)
    import numba

    d = DEFAULTS[g.name]
    search = {"search_worlds": args.worlds, "search_racing": args.search_racing,
              **({"search_inference": "on"} if args.search_inference == "on" else {})}
    rows = d["rows"] if "rows" in d else ((f"{g.unit}s", {}, d["deals"]),)
    if g.flag_keywords(args):
        rows = ((f"{g.unit}s", g.flag_keywords(args), rows[0][2]),)
    rows = [(name, keywords, args.deals or n) for name, keywords, n in rows]
    games = d.get("games", 0) if args.games is None else args.games
    if games:
        rows.append(("games", d.get("game_rules", {}), games))
    if args.rows:
        rows = [row for row in rows if row[0] in args.rows.split(",")]
    threads = sorted({numba.config.NUMBA_NUM_THREADS if t == "all" else int(t) for t in args.threads.split(",")})
    tables = args.tables.split(",") if args.tables else d["tables"]
    seats = g.players(g.make_options())
    policies = {t: "search" if t == "all" or int(t) >= seats else
                ",".join(["search"] * int(t) + ["heuristic"] * (seats - int(t))) for t in tables}
    load = os.getloadavg()[0]
    print(f"{g.title} search, W={args.worlds}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {load:.2f}")
    print(f"{'row':<8} {'table':<22} {'threads':>7} {'units/s':>9} {'per CPU-s':>10} {'decisions/s':>12} "
          f"{'decisions/unit':>15} {'checked':>8}")
    results = []
    for name, keywords, count in rows:
        unit = "games" if name == "games" else "deals"
        for table, policy in policies.items():
            study = g.build(unit, policy=policy, seed=1, **keywords, **search)
            label = "every seat searching" if policy == "search" else "one search seat" if table == "1" else \
                f"{table} search seats"
            for row in bench(g, study, unit, count, args.repeats, threads):
                row = {"row": name, "table": label, "policy": policy, "unit": "game" if name == "games" else g.unit,
                       "worlds": args.worlds, **row}
                results.append(row)
                per = row["decisions_per_unit"]
                print(f"{name:<8} {label:<22} {row['threads']:>7} {row['per_s']:>9,.2f} {row['per_cpu_s']:>10,.2f} "
                      f"{'-' if per is None else format(row['decisions_per_s'], ',.0f'):>12} "
                      f"{'-' if per is None else format(per, '.2f'):>15} {row['checked'] or '-':>8}", flush=True)
    result = {"game": g.name, "command": "python benchmarks/bench_search.py " + " ".join(argv or sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                          "processor": platform.processor(), "load": load,
                          "note": "shared machine: indicative figures"},
              "rows": results}
    cli_deals = d["cli_deals"] if args.cli_deals is None else args.cli_deals
    deal_rows = [row for row in rows if row[0] != "games"]
    if cli_deals and deal_rows:
        name, keywords, _ = deal_rows[0]
        policy = next(iter(policies.values()))
        rate = cli_rate(g.name, cli_deals, policy, args.worlds, {**keywords, **{k: v for k, v in search.items()
                                                                                  if k != "search_worlds"}})
        result["cli"] = {"row": name, "policy": policy, "deals": cli_deals, "per_s": rate}
        print(f"cardlab simulate {g.name} --policy {policy} --out ({name}, all cores): {rate:,.2f} {g.unit}s/s")
    out = Path(args.out) if args.out else Path(__file__).parent / "results" / f"search_{g.name}.json"
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
