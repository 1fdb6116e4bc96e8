"""Where a game's cold compile goes: each Numba function's compile time, from an empty cache.

    python benchmarks/compile_times.py hearts                 # the 25 longest
    python benchmarks/compile_times.py euchre5 --top 40

Plays what ``python -m cardlab.sim.warm`` plays for one game (``cardlab.sim.warm.warm``) with the
Numba cache pointed at a fresh temporary folder, so every kernel it reaches compiles here, and records numba's own
compile events. Each function is listed with its exclusive time (its own typing, lowering and LLVM work) and its
inclusive time (with the functions compiled while it was: the callees it does not inline). The total is the
game's cold time on one core; ``make test`` warms the games two at a time.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a registered game (barbu, euchre5, hearts, minchiate, rami)")
    ap.add_argument("--top", type=int, default=25, help="functions listed, the longest first (default 25)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # before numba is imported: the cold compile is measured
        from numba.core import event

        from cardlab.sim import games
        from cardlab.sim.warm import warm

        try:
            games.check_game(args.game)
        except ValueError as e:
            ap.error(str(e))
        inclusive, exclusive, stack = defaultdict(float), defaultdict(float), []

        class Timer(event.Listener):
            def on_start(self, ev):
                fn = ev.data["dispatcher"].py_func
                stack.append([f"{fn.__module__.rpartition('.')[2]}.{fn.__qualname__}", time.perf_counter(), 0.0])

            def on_end(self, ev):
                name, start, inner = stack.pop()
                seconds = time.perf_counter() - start
                inclusive[name] += seconds
                exclusive[name] += seconds - inner
                if stack:
                    stack[-1][2] += seconds

        event.register("numba:compile", Timer())
        _, total = warm(args.game)
    print(f"{args.game}: {total:.0f} s cold on one core, {len(exclusive)} functions compiled; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'exclusive s':>12} {'inclusive s':>12}  function")
    for name, seconds in sorted(exclusive.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds:12.1f} {inclusive[name]:12.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
