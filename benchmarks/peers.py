"""cardlab beside OpenSpiel: random play of the closest games, games/s and card plays/s, one core and all cores.

    pip install 'cardlab[peers]'          # open-spiel
    python benchmarks/peers.py --seconds 5

OpenSpiel's ``hearts`` and ``euchre`` are played by uniform random bots through its C++ loop
(``pyspiel.evaluate_bots``: chance, bots and state all in C++, one call per game). cardlab plays
Barbu no-hearts (the closest trick game to Hearts) and, when the game is registered, Euchre for
five, with its ``random`` policy. "All cores" means one OpenSpiel process per core (its loop is
single-threaded) and numba's threads over deals for cardlab. A card play is one card put on a
trick; bidding, passing and dealing are work both sides do but are not counted.

The rules are not the same, so the ratio compares engines on similar work, not identical games:

* hearts vs Barbu no-hearts: both 4 players, 52 cards, 13 tricks, follow suit. OpenSpiel's
  Hearts also passes three cards before play, scores the Q♠ (13) and a shoot-the-moon, must
  not lead hearts before they are broken and gives no points on the first trick; Barbu
  no-hearts only counts hearts taken (K♥ worth more in some scorings), passes nothing, and
  here plays all 13 tricks (``early_stop=False``) so both deal out every card.
* euchre vs cardlab Euchre for five: OpenSpiel plays four-handed partnership Euchre with a
  24-card deck (bidding two rounds, going alone allowed); cardlab's is the five-player variant
  of its rules file. A game here means one deal (one hand of five tricks) on both sides.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from pathlib import Path

import numba

from cardlab.sim.games import GAMES

PLAYS = {"hearts": 52, "euchre": 20}  # cards played in a full deal (a lone hand plays 15 in euchre)


def _spiel_worker(args):
    name, seconds, seed = args
    import pyspiel

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    played, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + played)
            played += 1
    return played, time.perf_counter() - t0


def openspiel_rate(name, seconds, processes):
    """Games/s of OpenSpiel's ``name`` with uniform random bots in ``processes`` processes."""
    _spiel_worker((name, 0.2, 1))  # load the library and the game once
    if processes == 1:
        played, elapsed = _spiel_worker((name, seconds, 1))
        return played / elapsed
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        results = pool.map(_spiel_worker, [(name, seconds, 1000 * (i + 1)) for i in range(processes)])
    return sum(p for p, _ in results) / max(e for _, e in results)


def _timed_rate(play, seconds):
    """Units/s of ``play(first, count)`` grown until one call takes about ``seconds``."""
    count, first = 1000, 0
    while True:
        t0 = time.perf_counter()
        play(first, count)
        elapsed = time.perf_counter() - t0
        first += count
        if elapsed >= seconds:
            return count / elapsed
        count = int(count * min(10.0, max(2.0, seconds / max(elapsed, 1e-3))))


def barbu_rate(seconds, threads):
    from cardlab.sim.barbu import Study

    study = Study.build(contract="no-hearts", policy="random", seed=1, early_stop=False)
    numba.set_num_threads(threads)
    study.play(0, 100)  # compile or load
    return _timed_rate(study.play, seconds)


def euchre5_rate(seconds, threads):
    """Deals/s of cardlab's Euchre for five with the random policy, or None when it is not registered."""
    if "euchre5" not in GAMES:
        return None
    import importlib

    module = importlib.import_module("cardlab.sim.euchre5")
    numba.set_num_threads(threads)
    play = lambda first, count: module.simulate(deals=count, first_deal=first, seed=1, policy="random",  # noqa: E731
                                                threads=threads)
    play(0, 100)
    return _timed_rate(play, seconds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    args = ap.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise SystemExit("peers.py needs OpenSpiel: pip install 'cardlab[peers]' (the open-spiel wheel)") from None
    cores = numba.config.NUMBA_NUM_THREADS
    rows = []
    print(f"{'engine':<10} {'game':<18} {'cores':>5} {'games/s':>12} {'plays/s':>14} {'cardlab / openspiel':>20}")
    for ours, theirs, plays, rate in (("Barbu no-hearts", "hearts", 52, barbu_rate),
                                      ("Euchre for five", "euchre", 25, euchre5_rate)):
        for n in sorted({1, cores}):
            spiel = openspiel_rate(theirs, args.seconds, n)
            mine = rate(args.seconds, n)
            rows.append({"engine": "openspiel", "game": theirs, "cores": n, "games_per_s": spiel,
                         "plays_per_s": spiel * PLAYS[theirs]})
            print(f"{'openspiel':<10} {theirs:<18} {n:>5} {spiel:>12,.0f} {spiel * PLAYS[theirs]:>14,.0f}", flush=True)
            if mine is None:
                print(f"{'cardlab':<10} {ours:<18} {n:>5} {'(not registered yet: skipped)':>34}")
                continue
            ratio = mine * plays / (spiel * PLAYS[theirs])
            rows.append({"engine": "cardlab", "game": ours, "cores": n, "games_per_s": mine,
                         "plays_per_s": mine * plays, "plays_ratio": ratio})
            print(f"{'cardlab':<10} {ours:<18} {n:>5} {mine:>12,.0f} {mine * plays:>14,.0f} {ratio:>19,.0f}x",
                  flush=True)
    out = Path(__file__).parent / "results" / "peers.json"
    out.write_text(json.dumps({"cpu_count": cores, "rows": rows}, indent=1))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
