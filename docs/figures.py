"""``make figures``: every figure the documentation shows, drawn afresh from small runs so none goes stale.

For each registered game (:data:`cardlab.sim.games.GAMES`) it plays a run of single deals and a run of
whole games with the default rules and the heuristic at every seat, seed 7, and saves each run's report
figure (:func:`cardlab.analysis.plot_report`, the figure ``cardlab report --plot`` draws) as
``docs/figures/<game>-deals.png`` and ``docs/figures/<game>-games.png``. The game pages show them. The
sizes are small (a minute or two in all, once the kernels are compiled): the figures show what a report
looks like and how to read it; the results pages hold the large runs.

    python docs/figures.py            # or: make figures
    python docs/figures.py rami       # one game
"""
from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from cardlab import analysis  # noqa: E402
from cardlab.sim import games  # noqa: E402

OUT = Path(__file__).resolve().parent / "figures"
SEED = 7
#: Deals (whole games) per run: enough for smooth histograms, small enough for a docs build.
DEALS, GAMES = 20_000, 300


def figure_paths(name: str) -> dict[str, Path]:
    """The figures of game ``name``: unit (``deals``, ``games``) -> the PNG the game page shows."""
    return {unit: OUT / f"{name}-{unit}.png" for unit in ("deals", "games")}


def draw(name: str) -> list[Path]:
    """Play the game's two small runs and save their report figures; returns the paths written."""
    game, paths = games.game(name), figure_paths(name)
    runs = {"deals": lambda: game.simulate(deals=DEALS, seed=SEED),
            "games": lambda: game.simulate_games(games=GAMES, seed=SEED)}
    for unit, run in runs.items():
        fig = analysis.plot_report(run())
        analysis.save_figure(fig, paths[unit])
    return list(paths.values())


def main(argv: list[str]) -> int:
    for name in argv or list(games.GAMES):
        for path in draw(games.check_game(name)):
            print(path.relative_to(OUT.parent.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
