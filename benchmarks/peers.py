"""cardlab beside OpenSpiel: Hearts under the same rules in both engines, uniformly random play and (``--bots``)
each engine's strongest bot, games/s and card plays/s (and Euchre, a similar game on each side, with ``--euchre``).

    pip install 'cardlab[peers]'          # open-spiel
    python benchmarks/peers.py --repeats 3 [--processes 2] [--bots] [--euchre]

Both engines play one deal of Hearts with OpenSpiel's default rules (cardlab's ``HeartsOptions()``): the three-card
pass, no points on the first trick, hearts broken by a heart or the Q♠, the moon. Every move is uniformly random
among the legal ones, passes included. One game is one deal: 52 cards played (the 12 passed cards are work both
sides do but are not counted as plays). OpenSpiel draws each deal's pass direction at random, cardlab's runs cycle
left, right, across, none by deal index: no pass in a quarter of the deals on both sides.

Engines (each timed after a warm-up run, the median of ``--repeats``):

* ``openspiel python loop``: OpenSpiel's C++ state driven from Python, ``state.legal_actions()`` then
  ``state.apply_action(random choice)`` at every node, the 53 chance nodes (pass direction, deal) included. The
  figure includes the Python loop's own overhead (a few pybind11 calls and a random draw per node): it is what a
  Python program that steps OpenSpiel's game gets, not the speed of OpenSpiel's C++.
* ``openspiel evaluate_bots``: OpenSpiel's own C++ rollout, ``pyspiel.evaluate_bots`` with four uniform random
  bots (``pyspiel.make_uniform_random_bot``): chance, bots and state all in C++, one Python call per game.
  (``RandomRolloutEvaluator`` is bound in Python only as an MCTS ingredient, with no ``evaluate`` method, and
  ``random_sim_test`` runs OpenSpiel's consistency checks besides playing, so neither is timed.)
* ``cardlab kernel``: the Numba kernel ``cardlab.sim.hearts.kernels.play_deals_nb`` called directly with the
  random policy at every seat, writing each deal's result row (no move log): one thread (``numba.set_num_threads``)
  for the per-core figure, then every core (numba's threads over deals).

With ``--processes N`` each engine also runs in N processes at once (spawned, one engine to a process, cardlab's on
one thread each), started together; the rate is all the games they play over the wall time of the slowest.

With ``--bots`` a table sets each engine's strongest player at every seat: OpenSpiel's ``pyspiel.ISMCTSBot``
(``--simulations`` a card, random rollouts, UCT c = 2, the most-visited card) stepped from Python, and cardlab's
``search`` policy (``--worlds`` a card, heuristic rollouts) through ``cardlab.sim.hearts.simulate``. The defaults,
32 worlds against 8 simulations, spend about the same time on a card decision (benchmarks/hearts_vs_ismcts.py, which
plays the two against each other in paired deals: the strength at equal time). OpenSpiel's IS-MCTS cannot pass (it
crashes on a pass in OpenSpiel 2.0.2), so its passes are uniformly random; cardlab's search seats pass as its
heuristic does.

With ``--euchre`` a second table sets OpenSpiel's ``euchre`` (four-handed partnership Euchre, 24 cards, bidding in
two rounds, going alone allowed) beside cardlab's Euchre for five with the random policy, one deal a game on both
sides. The games differ, so that ratio compares engines on similar work (dealing, legal moves, tricks, scoring), and
card plays are counted per full deal (20 in OpenSpiel's, 25 in cardlab's).

Besides the speeds the table shows each engine's mean points of a seat and how often a seat shot the moon: under
uniformly random play both engines play the same game, so these agree to within sampling noise (about 6.6 points
and 1.1 % of deals), a quick check that the engines are timed on the same work.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import time

import numpy as np

PLAYS = 52  # cards played in a deal
SEED = 7


# ----------------------------------------------------------------- the engines: (games, seed, first) -> result


def openspiel_loop(games: int, seed: int, first: int):
    """``games`` OpenSpiel deals stepped from Python with a uniformly random legal action at every node (chance
    nodes included). Returns the points of every seat of every game (``games`` x 4)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed * 1_000_003 + first)
    points = np.zeros((games, 4))
    for j in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        points[j] = [26 - r for r in state.returns()]
    return points


def openspiel_bots(games: int, seed: int, first: int, name: str = "hearts"):
    """``games`` deals of OpenSpiel's game ``name`` played in C++ by ``pyspiel.evaluate_bots`` with uniform random
    bots (a fresh initial state each time: ``evaluate_bots`` plays the state it is given to its end). Returns each
    game's points (Hearts: 26 minus the returns) or returns (any other game), a row per game."""
    import pyspiel

    game = pyspiel.load_game(name)
    n = game.num_players()
    bots = [pyspiel.make_uniform_random_bot(p, seed * 1_000_003 + first + p) for p in range(n)]
    points = np.zeros((games, n))
    for j in range(games):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 1_000_003 + first + j)
        points[j] = [26 - r for r in returns] if name == "hearts" else returns
    return points


def openspiel_euchre(games: int, seed: int, first: int):
    """OpenSpiel's four-handed ``euchre`` under :func:`openspiel_bots`."""
    return openspiel_bots(games, seed, first, "euchre")


def cardlab_euchre5(games: int, seed: int, first: int):
    """Deals ``first .. first + games - 1`` of cardlab's Euchre for five, random policy at every seat, through its
    facade (the rows as a data frame)."""
    import numba

    from cardlab.sim import euchre5

    return euchre5.simulate(deals=games, first_deal=first, seed=seed, policy="random",
                            threads=numba.get_num_threads())


def cardlab_kernel(games: int, seed: int, first: int):
    """Deals ``first .. first + games - 1`` of cardlab's kernel, random policy at every seat. Returns the result
    rows (``games`` x ``N_COLS``)."""
    from cardlab.sim.hearts import kernels as K
    from cardlab.sim.hearts.rules import HeartsOptions, kernel_rules

    rules = kernel_rules(HeartsOptions())
    out = np.zeros((games, K.N_COLS), np.int16)
    K.play_deals_nb(seed, first, games, rules, np.zeros(4, np.int64), out, np.zeros((0, 4), np.uint64),
                    np.zeros((0, 64), np.int8), None, np.zeros((games, 2), np.int64))
    return out


def cardlab_points(out) -> np.ndarray:
    from cardlab.sim.hearts import kernels as K

    return out[:, K.C_POINTS:K.C_POINTS + 4].astype(np.float64)


ENGINES = {  # the first is the table's yardstick (its "vs C++" column)
    "openspiel evaluate_bots": openspiel_bots,
    "openspiel python loop": openspiel_loop,
    "cardlab kernel": cardlab_kernel,
}


def openspiel_ismcts(games: int, seed: int, first: int):
    """``games`` OpenSpiel deals with an IS-MCTS bot at every seat for the cards (``pyspiel.ISMCTSBot``, random
    rollouts, ``ISMCTS_SIMULATIONS`` simulations, UCT c = 2, the most-visited card; a fresh bot per seat and game), the
    passes uniformly random (OpenSpiel 2.0.2's IS-MCTS crashes on a pass), stepped from Python. Returns the points of
    every seat of every game."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed * 1_000_003 + first)
    points = np.zeros((games, 4))
    for j in range(games):
        base = (seed * 1_000_003 + 8 * (first + j)) % 2 ** 31
        bots = [pyspiel.ISMCTSBot(base + p, pyspiel.RandomRolloutEvaluator(1, base + p), 2.0, ISMCTS_SIMULATIONS, -1,
                                  pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT) for p in range(4)]
        state = game.new_initial_state()
        while not state.is_terminal():
            history = state.history()  # the pass direction (0: none), the 52 cards dealt, then 12 passes unless none
            if state.is_chance_node() or (history[0] != 0 and len(history) < DEALT + 12):
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        points[j] = [26 - r for r in state.returns()]
    return points


def cardlab_search(games: int, seed: int, first: int):
    """Deals ``first .. first + games - 1`` of cardlab's Hearts with a search seat at every seat (``SEARCH_WORLDS``
    worlds, heuristic rollouts; the seats pass as the heuristic does), through its facade on numba's threads."""
    import numba

    from cardlab.sim import hearts

    return hearts.simulate(deals=games, first_deal=first, seed=seed, policy="search", search_worlds=SEARCH_WORLDS,
                           threads=numba.get_num_threads())


#: The bots' settings: the pairing that spends the same time per card decision on the development machine
#: (docs/results/hearts.md, measured by benchmarks/hearts_vs_ismcts.py), set by --worlds and --simulations.
SEARCH_WORLDS, ISMCTS_SIMULATIONS = 32, 8
DEALT = 53  # OpenSpiel's chance actions before the first pass or card: the pass direction and 52 cards

BOTS = {  # --bots: each engine's strongest player at every seat (see the module docstring)
    "openspiel IS-MCTS": openspiel_ismcts,
    "cardlab search": cardlab_search,
}


EUCHRE = {  # --euchre: similar games, not the same (see the module docstring)
    "openspiel euchre evaluate_bots": openspiel_euchre,
    "cardlab euchre5 simulate": cardlab_euchre5,
}
PLAYS_OF = {"openspiel euchre evaluate_bots": 20, "cardlab euchre5 simulate": 25}  # cards in a full deal


def points_of(engine: str, result) -> np.ndarray:
    if engine == "cardlab euchre5 simulate":
        return np.zeros((len(result), 1))  # the Euchre table shows no points: the games differ
    if engine == "cardlab search":
        return result[[f"points_{p}" for p in range(4)]].to_numpy(np.float64)
    return cardlab_points(result) if engine == "cardlab kernel" else result


def set_threads(engine: str, threads: int) -> None:
    if engine.startswith("cardlab"):
        import numba

        numba.set_num_threads(threads)


# ----------------------------------------------------------------- timing


def timed(engine: str, games: int, repeats: int, threads: int = 1):
    """Median seconds of ``repeats`` runs of ``games`` games (after a small warm-up run: imports, the kernel's
    compile or cache load), and every run's points stacked (``repeats * games`` x 4)."""
    play = {**ENGINES, **EUCHRE, **BOTS}[engine]
    set_threads(engine, threads)
    play(min(games, 20 if engine in BOTS else 200), SEED, 10 ** 9)  # warm-up, on deals no timed run plays
    seconds, points = [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        result = play(games, SEED, r * games)
        seconds.append(time.perf_counter() - t0)
        points.append(points_of(engine, result))
    return statistics.median(seconds), np.concatenate(points)


def _worker(engine, games, repeats, index, barrier, queue, settings):
    """One process of a parallel run: warm up, then each repeat starts with every other process (``barrier``) and
    reports its wall-clock start and end. ``settings``: the bots' settings of the parent process."""
    globals().update(settings)
    play = {**ENGINES, **EUCHRE, **BOTS}[engine]
    set_threads(engine, 1)
    play(min(games, 20 if engine in BOTS else 200), SEED, 10 ** 9)
    for r in range(repeats):
        barrier.wait()
        t0 = time.time()
        result = play(games, SEED + 1 + index, r * games)
        queue.put((r, t0, time.time(), points_of(engine, result)))


def timed_processes(engine: str, games: int, repeats: int, processes: int):
    """Median over repeats of the wall time from the first process's start to the last one's end, ``processes``
    processes each playing ``games`` games, and every game's points."""
    ctx = multiprocessing.get_context("spawn")
    barrier, queue = ctx.Barrier(processes), ctx.Queue()
    settings = {"SEARCH_WORLDS": SEARCH_WORLDS, "ISMCTS_SIMULATIONS": ISMCTS_SIMULATIONS}
    workers = [ctx.Process(target=_worker, args=(engine, games, repeats, i, barrier, queue, settings))
               for i in range(processes)]
    for w in workers:
        w.start()
    reports = [queue.get() for _ in range(processes * repeats)]
    for w in workers:
        w.join()
    seconds = [max(t1 for q, _, t1, _ in reports if q == r) - min(t0 for q, t0, _, _ in reports if q == r)
               for r in range(repeats)]
    return statistics.median(seconds), np.concatenate([p for *_, p in reports])


# ----------------------------------------------------------------- the table


def row(engine: str, how: str, games: int, seconds: float, points: np.ndarray) -> dict:
    """One line of the table: ``games`` games in ``seconds``, with their points."""
    rate = games / seconds
    return {"engine": engine, "how": how, "games": games, "games_per_s": rate,
            "plays_per_s": rate * PLAYS_OF.get(engine, PLAYS),
            "mean_points": float(points.mean()), "moon_pct": 100 * moon_rate(points)}


def moon_rate(points: np.ndarray) -> float:
    """Share of deals in which a seat shot the moon: with the default rules exactly the deals scoring (0, 26, 26,
    26) in some order."""
    return float(((points == 26).sum(axis=1) == 3).mean())


def print_row(r: dict, base: float) -> None:
    print(f"{r['engine']:<30} {r['how']:<22} {r['games']:>10,} {r['games_per_s']:>12,.0f} {r['plays_per_s']:>14,.0f}"
          f" {r['games_per_s'] / base:>9.1f}x {r['mean_points']:>7.2f} {r['moon_pct']:>7.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000,
                    help="games per timed run of OpenSpiel's evaluate_bots (default 20,000)")
    ap.add_argument("--loop-games", type=int, default=2_000,
                    help="games per timed run of the Python loop over OpenSpiel's state (default 2,000)")
    ap.add_argument("--deals", type=int, default=1_000_000,
                    help="deals (games) per timed run of cardlab's kernel (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per figure; the median is shown (default 3)")
    ap.add_argument("--processes", type=int, default=1,
                    help="also run each engine in this many processes at once (default 1: no such rows)")
    ap.add_argument("--euchre", action="store_true",
                    help="also time OpenSpiel's Euchre beside cardlab's Euchre for five (similar games)")
    ap.add_argument("--bots", action="store_true",
                    help="also time each engine's strongest bot at every seat: OpenSpiel's IS-MCTS, cardlab's search")
    ap.add_argument("--bot-games", type=int, default=200, help="games per timed run of a bot (default 200)")
    ap.add_argument("--worlds", type=int, default=SEARCH_WORLDS,
                    help=f"cardlab's search: worlds per decision (default {SEARCH_WORLDS})")
    ap.add_argument("--simulations", type=int, default=ISMCTS_SIMULATIONS,
                    help=f"OpenSpiel's IS-MCTS: simulations per decision, 2 at least (default {ISMCTS_SIMULATIONS})")
    args = ap.parse_args()
    if args.simulations < 2:
        ap.error(f"--simulations: {args.simulations} is not allowed; IS-MCTS needs 2 at least")
    if args.worlds < 1:
        ap.error(f"--worlds: {args.worlds} is not allowed; use an integer from 1 up")
    globals().update(SEARCH_WORLDS=args.worlds, ISMCTS_SIMULATIONS=args.simulations)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise SystemExit("peers.py needs OpenSpiel: pip install 'cardlab[peers]' (the open-spiel wheel)") \
            from None
    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    sizes = {"openspiel python loop": args.loop_games, "openspiel evaluate_bots": args.games,
             "cardlab kernel": args.deals}
    print(f"Hearts, OpenSpiel's default rules, uniformly random play; median of {args.repeats} runs; "
          f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'engine':<30} {'how':<22} {'games/run':>10} {'games/s':>12} {'card plays/s':>14} {'vs C++':>10}"
          f" {'points':>7} {'moon %':>7}")
    rows = []
    for engine in ENGINES:
        seconds, points = timed(engine, sizes[engine], args.repeats, 1)
        rows.append(row(engine, "1 process, 1 thread", sizes[engine], seconds, points))
        print_row(rows[-1], rows[0]["games_per_s"])
        if engine == "cardlab kernel" and cores > 1:
            seconds, points = timed(engine, sizes[engine], args.repeats, cores)
            rows.append(row(engine, f"1 process, {cores} threads", sizes[engine], seconds, points))
            print_row(rows[-1], rows[0]["games_per_s"])
    if args.processes > 1:
        for engine in ENGINES:
            seconds, points = timed_processes(engine, sizes[engine], args.repeats, args.processes)
            rows.append(row(engine, f"{args.processes} processes", sizes[engine] * args.processes, seconds, points))
            print_row(rows[-1], rows[0]["games_per_s"])
    print("vs C++: games/s over OpenSpiel's evaluate_bots in one process; points: a seat's mean points per deal; "
          "moon %: deals in which a seat shot the moon")
    if args.bots:
        rows += bots_table(args, cores)
    if args.euchre:
        rows += euchre_table(args, cores)
    return rows


def bots_table(args, cores: int) -> list:
    """Each engine's strongest bot at every seat, the same Hearts rules: games/s and card plays/s side by side."""
    print(f"\nHearts, each engine's strongest bot at every seat: OpenSpiel's IS-MCTS ({ISMCTS_SIMULATIONS} simulations "
          f"a card, passes at random), cardlab's search ({SEARCH_WORLDS} worlds a card, heuristic passes); median of "
          f"{args.repeats} runs of {args.bot_games} games (vs IS-MCTS: games/s over IS-MCTS in one process)")
    rows = []
    for engine in BOTS:
        seconds, points = timed(engine, args.bot_games, args.repeats, 1)
        rows.append(row(engine, "1 process, 1 thread", args.bot_games, seconds, points))
        print_row(rows[-1], rows[0]["games_per_s"])
    if args.processes > 1:
        for engine in BOTS:
            seconds, points = timed_processes(engine, args.bot_games, args.repeats, args.processes)
            rows.append(row(engine, f"{args.processes} processes", args.bot_games * args.processes, seconds, points))
            print_row(rows[-1], rows[0]["games_per_s"])
    return rows


def euchre_table(args, cores: int) -> list:
    """OpenSpiel's Euchre beside cardlab's Euchre for five, random play: similar work, not the same game."""
    print("\nEuchre, similar games: OpenSpiel's four-handed beside cardlab's for five, uniformly random play "
          "(vs C++ compares card plays/s)")
    rows = []
    for engine in EUCHRE:
        threads = [1] + ([cores] if engine.startswith("cardlab") and cores > 1 else [])
        games = args.games if engine.startswith("openspiel") else args.deals
        for n in threads:
            seconds, points = timed(engine, games, args.repeats, n)
            r = row(engine, f"1 process, {n} thread{'s' if n > 1 else ''}", games, seconds, points)
            rows.append(r)
            print(f"{r['engine']:<30} {r['how']:<22} {games:>10,} {r['games_per_s']:>12,.0f} {r['plays_per_s']:>14,.0f}"
                  f" {r['plays_per_s'] / rows[0]['plays_per_s']:>9.1f}x", flush=True)
    return rows


if __name__ == "__main__":
    main()
