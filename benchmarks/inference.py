"""What the search's inference gains, and how much of the honest-to-oracle gap it closes, in any game.

    python benchmarks/inference.py <game> --deals 400 --eps 0.1,0.2,0.4 [--searchers]

Deal ``i`` (dealt from ``(seed, i)`` as in every run of the game) is played at the strength ladder's tables
(:mod:`cardlab.sim.ladder`), its changed side the ladder's (the game's ``ladder_sides``: a seat, or Minchiate's
partnership), on the ladder's study (``ladder_study``: Barbu's trick contracts), each table through the game's
``play_tables``:

* among heuristic players: every seat heuristic; the changed side searching without inference, searching with
  inference at each ``--eps``, and playing oracle (search over the true deal);
* with ``--searchers``, among searchers without inference: every seat searching; the changed side searching with
  inference at each ``--eps``, and playing oracle.

Only the changed side infers (:attr:`~cardlab.sim.game.Study.search_epsilon`), so the searchers around it are the
honest ones. Racing is the game's default (Minchiate races; a seat that infers never does).

The changed side's figure per deal, read through the ladder's hooks: a partnership's ``ladder_figures`` (its team's
minus the other's), else the seat's ``ladder_scores`` column, or in :data:`EDGE`'s games its score minus the mean of
the others' (a hand's or round's points swing with the cards far more than with one seat's play). Where the game's
report says lower is better (``cardlab.analysis.<game>.STRENGTH``: Hearts, Rami) a gain is the result saved. Per
table kind, ``eps`` and figure (and per group of the report's ``by`` column, Barbu's contract), paired on the same
deals with a 95% CI: ``gain``, inference's gain over the same search without it; ``gap``, the honest-to-oracle gap
(oracle minus search); ``share`` of the gap that the gain closes (a delta-method interval); ``changed``, the part of
deals whose figure inference changed; ``cost``, the inferring table's CPU time over the search table's. The tables
are played in turns, a ``--chunk`` of deals at a time, so that a shared machine's load falls alike on all of them;
CPU time (every thread) is the cost figure. The search's gain over the heuristic is printed too.

This replaced five per-game copies (``<game>_inference.py``, 641 lines), whose figures it reproduces exactly on the
same seed, deals, worlds and ``eps``; their defaults differed (seed 1 in Minchiate and Rami: give ``--seed 1``; the
searchers' tables were always played in Barbu and Hearts: give ``--searchers``).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from dataclasses import replace

import numpy as np

#: Games whose lone seat is judged by its score minus the mean of the others' (Euchre's hand points go to the makers'
#: side, a Rami round's scores swing with the cards), the figure their own benchmarks read; elsewhere by its score.
EDGE = ("euchre5", "rami")


def table_kinds(epsilons, searchers: bool, oracle: bool) -> dict:
    """name -> (the changed side's policy, the others', the changed side's eps) of every table played."""
    out = {"heuristic": ("heuristic", "heuristic", 0.0)}
    for among in ("heuristic", "search") if searchers else ("heuristic",):
        out[f"search_in_{among}"] = ("search", among, 0.0)
        out.update({f"inference_{e:g}_in_{among}": ("search", among, e) for e in epsilons})
        if oracle:
            out[f"oracle_in_{among}"] = ("oracle", among, 0.0)
    return out


def side_figures(study, cols: dict, side: int) -> dict:
    """The changed side ``side``'s figures (name -> value per deal) of a table's columns ``cols``."""
    from cardlab.sim.ladder import Partnerships

    if isinstance(study, Partnerships):
        sign = 1.0 if side == 0 else -1.0  # the ladder's figures are team 0's minus team 1's
        got = study.ladder_columns(cols, "x", "y", None)
        return {name: sign * got[f"{name}_x_vs_y"].astype(np.float64) for name in study.ladder_figures}
    scores = study.ladder_scores(cols).astype(np.float64)
    own = scores[:, side]
    if study.game.name in EDGE:
        return {"edge": own - (scores.sum(axis=1) - own) / (scores.shape[1] - 1)}
    return {study.ladder_score: own}


def play(study, deals: np.ndarray, changed: str, others: str, eps: float) -> dict:
    """The changed side's figures on ``deals`` at one table: one call of the ladder's ``play_tables`` per changed
    side (each deal's result does not depend on the deals played beside it)."""
    from cardlab.sim.ladder import play_tables

    ids = study.game.policies
    sides, mask = study.ladder_sides(deals)
    out = {}
    for side in np.unique(sides):
        rows = np.flatnonzero(sides == side)
        seats = mask[rows[0]]
        policies = np.where(seats, ids.index(changed), ids.index(others)).astype(np.int64)
        table = replace(study, search_epsilon=tuple(np.where(seats, eps, 0.0).tolist()))
        cols = play_tables(table, deals[rows], np.tile(policies, (len(rows), 1)))
        for name, values in side_figures(study, cols, int(side)).items():
            out.setdefault(name, np.zeros(len(deals)))[rows] = values
    return out


def summary(results: dict, groups: np.ndarray | None, epsilons, cpu: dict, lower: bool) -> tuple[dict, dict]:
    """``(rows, search over heuristic)``: the table's rows, keyed ``among eps figure group``, and the search's gain
    over the heuristic among heuristic players per ``figure group``."""
    from cardlab.analysis.stats import mean_ci, ratio_ci

    def diff(a, b):  # a's gain over b: the result saved where lower is better
        return b - a if lower else a - b

    def ci(row, name, values):
        row[name], row[f"{name}_low"], row[f"{name}_high"] = map(float, mean_ci(values))

    masks = {"all": slice(None), **({} if groups is None else {g: groups == g for g in dict.fromkeys(groups)})}
    figures = list(results["heuristic"])
    rows, versus = {}, {}
    for among in ("heuristic", "search"):
        base = results.get(f"search_in_{among}")
        if base is None:
            continue
        oracle = results.get(f"oracle_in_{among}")
        for e in epsilons:
            inferred = results[f"inference_{e:g}_in_{among}"]
            for fig in figures:
                for group, m in masks.items():
                    gain = diff(inferred[fig][m], base[fig][m])
                    row = {"deals": int(len(gain))}
                    ci(row, "gain", gain)
                    if oracle is not None:
                        gap = diff(oracle[fig][m], base[fig][m])
                        ci(row, "gap", gap)
                        row["share"], row["share_low"], row["share_high"] = map(float, ratio_ci(gain, gap))
                    row["changed"] = float(np.mean(gain != 0))
                    row["cost"] = cpu[f"inference_{e:g}_in_{among}"] / cpu[f"search_in_{among}"]
                    rows[f"{among} {e:g} {fig} {group}"] = row
    for fig in figures:
        for group, m in masks.items():
            versus[f"{fig} {group}"] = tuple(map(float, mean_ci(diff(results["search_in_heuristic"][fig][m],
                                                                     results["heuristic"][fig][m]))))
    return rows, versus


def main(argv=None) -> int:
    from cardlab.sim.games import GAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--deals", type=int, default=400, help="deals (Euchre's hands, Rami's rounds) to play")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--eps", default=None, help="comma-separated; default: the game's search.INFERENCE_EPSILON")
    p.add_argument("--searchers", action="store_true", help="also the tables among searchers (much dearer)")
    p.add_argument("--no-oracle", action="store_true", help="skip the oracle's tables (no gap or share)")
    p.add_argument("--chunk", type=int, default=40, help="deals per turn of the tables")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--json", help="write the table here")
    args = p.parse_args(argv)
    import numba
    import pandas as pd

    from cardlab.analysis.strength import ladder_of
    from cardlab.sim.games import game
    from cardlab.sim.ladder import ladder_study

    if args.threads:
        numba.set_num_threads(args.threads)
    g = game(args.game)
    report = ladder_of({"game": g.name})
    default = importlib.import_module(f"cardlab.sim.{g.name}.search").INFERENCE_EPSILON
    epsilons = [default] if args.eps is None else [float(e) for e in args.eps.split(",")]
    study, _ = ladder_study(g, seed=args.seed, search_worlds=args.worlds)
    kinds = table_kinds(epsilons, args.searchers, not args.no_oracle)
    deals = np.arange(args.first, args.first + args.deals, dtype=np.int64)
    parts = {name: [] for name in kinds}
    seconds, cpu = dict.fromkeys(kinds, 0.0), dict.fromkeys(kinds, 0.0)
    for lo in range(0, len(deals), args.chunk):  # the tables in turns, a chunk of deals at a time
        chunk = deals[lo:lo + args.chunk]
        for name, (changed, others, e) in kinds.items():
            t0, c0 = time.perf_counter(), time.process_time()
            parts[name].append(play(study, chunk, changed, others, e))
            seconds[name] += time.perf_counter() - t0
            cpu[name] += time.process_time() - c0
    results = {name: {fig: np.concatenate([part[fig] for part in got]) for fig in got[0]}
               for name, got in parts.items()}
    groups = None
    if report.by:
        head = study.ladder_head(deals, study.ladder_sides(deals)[0])
        groups = np.asarray(head[report.by]).astype(str)
    rows, versus = summary(results, groups, epsilons, cpu, report.lower_is_better)
    unit, saved = g.unit, " (lower is better: a gain is a result saved)" if report.lower_is_better else ""
    print(f"{g.title} inference: {unit}s {args.first}..{args.first + args.deals - 1}, seed {args.seed}, worlds "
          f"{args.worlds}, threads {numba.get_num_threads()}, load {os.getloadavg()[0]:.2f}; the changed side's "
          f"{', '.join(results['heuristic'])} per {unit}{saved}")
    for key, (mean, low, high) in versus.items():
        print(f"search (no inference) vs heuristic among heuristic players, {key}: {mean:+.4f} ({low:+.4f}, "
              f"{high:+.4f})")
    table = pd.DataFrame.from_dict(rows, orient="index")
    with pd.option_context("display.width", 250, "display.max_columns", 40, "display.max_rows", 500):
        print(table.round(4).to_string())
        if groups is not None:
            shares = table.loc[[k for k in rows if not k.endswith(" all")]]
            stem = shares.index.str.rsplit(" ", n=1).str[0]
            for key, mean in shares.groupby(stem, sort=False)["share"].mean().items():
                print(f"mean over {report.by}s of the share, {key}: {mean:.4f}")
    print("means per table:", {name: {fig: round(float(v.mean()), 4) for fig, v in r.items()}
                               for name, r in results.items()})
    print("CPU seconds per table:", {k: round(v, 1) for k, v in cpu.items()})
    print("wall seconds per table:", {k: round(v, 1) for k, v in seconds.items()})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "eps": epsilons, "rows": rows,
                       "search_vs_heuristic": versus, "seconds": seconds, "cpu": cpu,
                       "means": {name: {fig: float(v.mean()) for fig, v in r.items()} for name, r in results.items()}},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
