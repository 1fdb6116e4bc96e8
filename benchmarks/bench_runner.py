"""Does output throttle the kernels? Kernel-only rate beside the rate users get with output, and summary memory.

    python benchmarks/bench_runner.py                         # deals (no-tricks) and whole games
    python benchmarks/bench_runner.py --deals 8388608 --games 262144 --repeats 5
    python benchmarks/bench_runner.py --memory 1000000,100000000   # peak RSS of --summary runs
    python benchmarks/bench_runner.py --big 1000000000             # one 10^9-deal --summary study
    python benchmarks/bench_runner.py --deals 0 --games 0 --startup   # start-up of every game's command

For Barbu no-tricks deals (and Geronimo + doubling whole games), on all cores and the default
chunk size, the same deals are played:

* ``kernel``: ``Study.play`` chunk after chunk, results thrown away (the kernel-only rate);
* ``rows file``, ``dataset dir``, ``summary``: through ``cardlab.sim.barbu.simulate`` with
  ``out=`` (the code path of ``cardlab simulate ... --out``), output included;
* ``cli``: ``cardlab simulate barbu ... --out`` in a subprocess, rate from the run's own
  ``elapsed_s`` metadata (output included; interpreter start and kernel loading, which the
  runner does first on one deal and records as ``warmup_s``, excluded);
* ``cli process``: the same, timed from outside: interpreter start, imports, kernel loading
  from the cache and the hand-model fit included (a fixed cost of a few seconds).

``--startup`` times ``cardlab simulate <game> --deals 1000 --out x.parquet`` as a whole process for
every registered game (median of 3 after one warm-up run that fills the kernel cache): interpreter,
imports, kernel loading and set-up such as Barbu's hand-model fit, with almost no play.

Repeats are interleaved (kernel, outputs, kernel, ...) and the median is reported, so a shared
machine's load affects all of them alike; CPU seconds per million deals are printed too.
Results go to benchmarks/results/runner.json.
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

from cardlab.analysis import load_run
from cardlab.sim import runner
from cardlab.sim.barbu import GameStudy, Study, simulate, simulate_games

ROOT = Path(__file__).resolve().parents[1]


def timed(fn):
    """(wall seconds, CPU seconds of this process) of ``fn()``."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def kernel_only(study, count, chunk, first=0):
    for start in range(first, first + count, chunk):
        study.play(start, min(chunk, first + count - start))


def cli_times(args, tmp, count_key):
    """(run seconds from the run's own metadata, whole-process wall seconds) of a ``cardlab simulate``."""
    out = Path(tmp) / "cli.parquet"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardlab.sim.cli", *args, "--out", str(out), "--overwrite"], check=True,
                   cwd=ROOT, capture_output=True)
    wall = time.perf_counter() - t0
    _, meta = load_run(out)
    return meta["elapsed_s"], wall


def bench(kind, count, repeats, tmp):
    if kind == "deals":
        study = Study.build(contract="no-tricks", seed=1)
        chunk = runner.DEFAULT_CHUNK
        run = lambda **kw: simulate(deals=count, contract="no-tricks", seed=1, **kw)  # noqa: E731
        cli = ["simulate", "barbu", "--contract", "no-tricks", "--seed", "1", "--deals", str(count)]
    else:
        study = GameStudy.build(seed=1, geronimo=True, double=True)
        chunk = runner.DEFAULT_GAME_CHUNK
        run = lambda **kw: simulate_games(games=count, seed=1, geronimo=True, double=True, **kw)  # noqa: E731
        cli = ["simulate", "barbu", "--games", str(count), "--geronimo", "--double", "--seed", "1"]
    study.play(0, 10)  # compile or load the kernels
    run_kw = {"rows file": dict(out=f"{tmp}/rows.parquet"), "dataset dir": None,
              "summary": dict(out=f"{tmp}/summary.parquet", summary=True)}
    walls = {name: [] for name in ("kernel", *run_kw, "cli", "cli process")}
    cpus = {name: [] for name in walls}
    for r in range(repeats):
        w, c = timed(lambda: kernel_only(study, count, chunk))
        walls["kernel"].append(w), cpus["kernel"].append(c)
        for name, kw in run_kw.items():
            kw = kw or dict(out=f"{tmp}/ds{kind}{r}/")
            w, c = timed(lambda: run(**kw))
            walls[name].append(w), cpus[name].append(c)
        run_s, wall = cli_times(cli, tmp, kind)
        walls["cli"].append(run_s), walls["cli process"].append(wall)
    rows = []
    base = statistics.median(walls["kernel"])
    for name in walls:
        median = statistics.median(walls[name])
        row = {"kind": kind, "path": name, "count": count, "median_s": median, "per_s": count / median,
               "vs_kernel": base / median}
        if cpus[name]:
            row["cpu_s_per_million"] = statistics.median(cpus[name]) / count * 1e6
        rows.append(row)
        cpu = f"{row['cpu_s_per_million']:8.2f}" if "cpu_s_per_million" in row else f"{'':>8}"
        print(f"{kind:<6} {name:<12} {row['per_s']:>12,.0f}/s {row['vs_kernel']:>7.0%} {cpu}", flush=True)
    return rows


def startup_times(repeats=3):
    """Median whole-process seconds of ``cardlab simulate <game> --deals 1000 --out`` per registered game."""
    from cardlab.sim.games import GAMES

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            times = []
            for r in range(repeats + 1):  # the first run may compile or fill caches: not counted
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "cardlab.sim.cli", "simulate", game, "--deals", "1000",
                                "--out", f"{tmp}/{game}.parquet", "--overwrite"], check=True, cwd=ROOT,
                               capture_output=True)
                if r:
                    times.append(time.perf_counter() - t0)
            rows.append({"game": game, "startup_s": statistics.median(times)})
            print(f"start-up {game:<10} {rows[-1]['startup_s']:6.2f} s  (cardlab simulate {game} --deals 1000 --out)",
                  flush=True)
    return rows


def peak_summary_run(deals, contract="all", extra=()):
    """Wall seconds and peak RSS (MiB) of ``cardlab simulate barbu --deals N --summary`` in a child."""
    with tempfile.TemporaryDirectory() as tmp:
        code = ("import resource, sys; from cardlab.sim.cli import main; "
                f"code = main(['simulate', 'barbu', '--contract', '{contract}', '--deals', '{deals}', '--seed', '1', "
                f"'--summary', '--out', '{tmp}/s.parquet', *{list(extra)!r}]); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)")
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - t0
        if done.returncode:
            raise RuntimeError(done.stderr)
        frame, meta = load_run(f"{tmp}/s.parquet")
        rows = len(frame)
        return {"deals": deals, "wall_s": wall, "run_s": meta["elapsed_s"],
                "peak_rss_mib": int(done.stdout.split()[-1]) / 1024, "distinct_rows": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4 << 20)
    ap.add_argument("--games", type=int, default=1 << 17)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--memory", help="comma list of deal counts for --summary peak-memory runs")
    ap.add_argument("--big", type=int, help="one --summary study of this many deals (wall time, peak memory)")
    ap.add_argument("--startup", action="store_true", help="whole-process start-up of every game's simulate command")
    args = ap.parse_args()
    result = {"machine": {"cpu_count": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform()},
              "rows": []}
    out = Path(__file__).parent / "results" / "runner.json"
    if out.exists():  # keep earlier sections (e.g. a long --big run) when only some are re-measured
        result.update({k: v for k, v in json.loads(out.read_text()).items() if k != "machine"})
        result["rows"] = []
    print(f"{'kind':<6} {'path':<12} {'rate':>14} {'vs kernel':>7} {'cpu s/M':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.deals:
            result["rows"] += bench("deals", args.deals, args.repeats, tmp)
        if args.games:
            result["rows"] += bench("games", args.games, args.repeats, tmp)
    if args.startup:
        result["startup"] = startup_times()
    if args.memory:
        result["summary_memory"] = []
        for deals in (int(v) for v in args.memory.split(",")):
            row = peak_summary_run(deals)
            result["summary_memory"].append(row)
            print(f"--summary {deals:>13,} deals: peak RSS {row['peak_rss_mib']:.0f} MiB, "
                  f"{row['distinct_rows']:,} distinct rows, run {row['run_s']:.0f} s", flush=True)
    if args.big:
        row = peak_summary_run(args.big)
        result["big_summary"] = row
        print(f"--summary {args.big:,} deals: wall {row['wall_s']:.0f} s, peak RSS {row['peak_rss_mib']:.0f} MiB, "
              f"{row['distinct_rows']:,} distinct rows", flush=True)
    out.write_text(json.dumps(result, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
