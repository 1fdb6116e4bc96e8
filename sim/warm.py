"""Compile every game's kernels into the cache before a test run, two games at a time.

A cold test run spends most of its time compiling kernels. Under ``pytest -n 2`` both test processes
soon need the same game's kernels, and Numba does not share a compile in progress: each process
compiles them in full and the slower one's work is thrown away. Warming first compiles each kernel
once, two games at a time, so the test processes find them cached (``make test`` does this).

A game's searched kernels are compiled once for built-in and Numba seats alike (a run without a Numba
seat hands them callbacks that are never called, :func:`cardlab.sim.user.run_callback`); its plain
kernels twice, with no call for built-in seats (their speed) and with the call for a Numba seat. One
process warms both kinds of run of a game, so each kernel compiles once. Each game is warmed by what most
tests reach: a few deals under random, heuristic and search seats, whole games under heuristic and search
seats, a replay through the referee, its own paired studies, and, where the game has Numba seats, its example
player beside heuristic and search seats, in whole games, on the strength ladder and in a replay. Kernels that
only particular tests reach (other option sets, other rollouts) still compile where they are first used. On a
warm cache this takes a few seconds a game.

    python -m cardlab.sim.warm [--processes 2] [game ...]
"""
from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

#: The games handed out first, the longest compile first, so that two processes finish close together
#: (the cold make test of 2026-12-06 04:04 UTC: Euchre 303 s, Minchiate 210, Hearts 209, Barbu 184, Rami 163: Euchre
#: then Minchiate in one process, 513 s; Barbu, Hearts and Rami in the other, 556 s); any other game follows.
ORDER = ("euchre5", "barbu", "hearts", "minchiate", "rami")


def warm(name: str) -> tuple[str, float]:
    """Play what compiles game ``name``'s common kernels; ``(name, seconds)``."""
    from cardlab.sim import games

    start = time.perf_counter()
    game = games.game(name)
    others = ["heuristic"] * (game.players(game.Options()) - 1)
    searcher = ["search"] + others
    for policy in ("random", "heuristic"):
        game.simulate(deals=64, seed=1, policy=policy)
    game.simulate(deals=2, seed=1, policy=searcher, search_worlds=2)
    game.simulate_games(games=2, seed=1)
    game.simulate_games(games=1, seed=1, policy=searcher, search_worlds=2)
    game.replay(deal="0:2", seed=1)
    for kind in game.studies.values():  # its own paired studies, which the command line and several test files run
        kind.run(game, deals=8, seed=1)
    if game.numba_seat is not None:
        from cardlab.sim.example_players import BY_GAME
        from cardlab.sim.ladder import strength_study

        first = BY_GAME[name]
        game.simulate(deals=64, seed=1, policy=[first] + others)
        game.simulate(deals=2, seed=1, policy=[first, "search"] + others[1:], search_worlds=2)
        game.simulate_games(games=2, seed=1, policy=[first] + others)
        game.replay(deal="0:2", seed=1, policy=[first] + others)
        strength_study(game, deals=2, seed=1, search_worlds=2, policies={"example": first})
    return name, time.perf_counter() - start


def main(argv=None) -> int:
    from cardlab.sim import games

    parser = argparse.ArgumentParser(prog="python -m cardlab.sim.warm", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="game", help="games to warm (default: every game)")
    parser.add_argument("--processes", type=int, default=2, help="games compiled at once (default: 2)")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error(f"--processes: {args.processes} is not allowed; use an integer from 1 up")
    for name in args.games:
        try:
            games.check_game(name)
        except ValueError as e:
            parser.error(str(e))
    names = args.games or sorted(games.GAMES, key=lambda g: ORDER.index(g) if g in ORDER else len(ORDER))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        for name, seconds in pool.map(warm, names):
            print(f"warm: {name} compiled or loaded in {seconds:.0f} s", flush=True)
    print(f"warm: every kernel ready in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
