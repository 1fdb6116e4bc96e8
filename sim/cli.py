"""The ``cardlab`` command: simulate, report and replay.

    cardlab simulate barbu --contract no-tricks --players 4 --deck 52 --deals 1000000 --seed 7 --out runs/nt.parquet
    cardlab report runs/nt.parquet --plot scores.png
    cardlab replay barbu --seed 7 --deal 123456 --contract no-tricks
    cardlab simulate barbu --games 100000 --geronimo --double --out runs/games.parquet
    cardlab study barbu trumps --deals 200000 --plot trumps.png

Bad input stops at once with one line naming the option, the value and what is allowed.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from cardlab.sim import games as games_registry
from cardlab.sim.games import GAMES
from cardlab.sim.runner import DEFAULT_CHUNK, DEFAULT_GAME_CHUNK


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``cardlab: error: …``."""

    def error(self, message):
        choice = re.match(r"argument (\w+): invalid choice: (.*) \(choose from (.*)\)$", message)
        if choice:  # argparse's wording for an unknown game, in cardlab's own
            name, value, allowed = choice.groups()
            message = f"{name}: {value} is not allowed; choose {_names(allowed.replace(chr(39), '').split(', '))}"
        raise SystemExit(_fail(message))


def _names(names) -> str:
    """``a, b or c``: names as a user reads them."""
    names = list(names)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def _fail(message: str) -> int:
    print(f"cardlab: error: {message}", file=sys.stderr)
    return 2


def _flag(message: str) -> str:
    """Name the command-line flag in an API error: ``players: …`` → ``--players: …``."""
    name = re.match(r"^([a-z_]+):", message)
    if name is None or name.group(1) in ("game", "path", "study"):
        return message
    return "--" + name.group(1).replace("_", "-") + message[len(name.group(1)):]


def _game_parsers(sub, command: str, help: str, common) -> None:
    """``cardlab <command> <game>``: one sub-parser per registered game, with that game's flags."""
    p = sub.add_parser(command, help=help)
    games = p.add_subparsers(dest="game", required=True, parser_class=OneLineParser, metavar="game")
    for name, title in GAMES.items():
        g = games.add_parser(name, help=title)
        if command == "study":
            studies = games_registry.command(name).STUDIES
            g.add_argument("study", help="; ".join(f"{k}: {v}" for k, v in studies.items()) or "none yet")
        games_registry.command(name).add_arguments(g, command)
        common(g)


def _simulate_flags(p) -> None:
    p.add_argument("--deals", type=int, default=None, help="number of deals (default 100000)")
    p.add_argument("--games", type=int, default=None, help="play this many whole games instead of single deals")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores); results do not change")
    p.add_argument("--first-deal", type=int, default=0, help="index of the first deal (default 0)")
    p.add_argument("--chunk-size", type=int, default=None,
                   help=f"deals (games) per chunk (default {DEFAULT_CHUNK} deals, {DEFAULT_GAME_CHUNK} games)")
    p.add_argument("--out", help="Parquet file to write; without it the report is printed")
    p.add_argument("--plot", help="also draw the score distributions to this image (with or without --out)")


def _study_flags(p) -> None:
    p.add_argument("--deals", type=int, default=100_000, help="number of deals (default 100000)")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--out", help="Parquet file to write; without it the report is printed")
    p.add_argument("--plot", help="draw the study's figure to this image file")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="cardlab", description="High-speed card-game simulation and analysis.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    _game_parsers(sub, "simulate", "play many deals (or whole games) and write one row per deal", _simulate_flags)
    rep = sub.add_parser("report", help="summarise a run file")
    rep.add_argument("path", help="Parquet file written by cardlab simulate")
    rep.add_argument("--plot", help="draw each contract's score distribution to this image file")
    _game_parsers(sub, "study", "paired studies: the same deals played several ways", _study_flags)
    _game_parsers(sub, "replay", "replay one deal (or one whole game) of a run", lambda p: None)
    return parser


def _check_plot_path(plot) -> None:
    if plot is not None:
        from pathlib import Path

        from cardlab.sim.runner import check_output_path

        if Path(plot).suffix.lower() not in (".png", ".pdf", ".svg", ".jpg", ".jpeg"):
            raise ValueError(f"plot: {plot!r} has no image extension; use .png, .pdf, .svg or .jpg")
        check_output_path(plot)


def _report(df, meta, plot) -> None:
    """Print the report that fits the run (its game, and deals, whole games or a study) and draw its figure."""
    from cardlab import analysis

    text, figure = games_registry.report_for(meta)
    print(text(df, meta))
    if plot:
        fig = figure(df)
        analysis.save_figure(getattr(fig, "figure", fig), plot)
        print(f"plot written to {plot}")


def _finish_run(df, meta, out, plot, count_text) -> None:
    """After a simulate or study: say what was written (and draw it), or print the report."""
    if out:
        print(f"wrote {count_text} to {out}")
        if plot:
            from cardlab import analysis  # only here: importing it (matplotlib) costs ~0.8 s per run

            _report(*analysis.load_run(out), plot)
    else:
        _report(df, meta, plot)


def _simulate(args) -> None:
    game = games_registry.command(args.game)
    if args.games is not None and args.deals is not None:
        raise ValueError("games: give --games (whole games) or --deals (single deals), not both")
    if args.games is None and args.deals is None:
        args.deals = 100_000
    unit = "games" if args.games is not None else "deals"
    chunk = args.chunk_size or (DEFAULT_GAME_CHUNK if unit == "games" else DEFAULT_CHUNK)
    df, meta = game.simulate(args, threads=args.threads, chunk_size=chunk, progress=sys.stderr.isatty(),
                             out=args.out)
    _finish_run(df, meta, args.out, args.plot, f"{getattr(args, unit)} {unit}")


def _study(args) -> None:
    game = games_registry.command(args.game)
    if args.study not in game.STUDIES:
        if not game.STUDIES:
            raise ValueError(f"study: {args.game} has no study yet")
        if args.study not in game.STUDIES:
            raise ValueError(f"study: {args.study!r} is not allowed; choose {_names(game.STUDIES)}")
    df, meta = game.study(args, threads=args.threads, progress=sys.stderr.isatty(), out=args.out)
    _finish_run(df, meta, args.out, args.plot, f"{args.deals} deals")


def _replay(args) -> None:
    print(games_registry.command(args.game).replay(args))


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a one-line usage error already printed
        return stop.code
    try:
        if args.command in ("simulate", "study"):
            _check_plot_path(args.plot)
        if args.command == "simulate":
            _simulate(args)
        elif args.command == "study":
            _study(args)
        elif args.command == "report":
            from pathlib import Path

            from cardlab import analysis

            if not Path(args.path).is_file():
                raise ValueError(f"path: {args.path!r} does not exist; give a Parquet file written by cardlab simulate")
            _check_plot_path(args.plot)
            df, meta = analysis.load_run(args.path)
            _report(df, meta, args.plot)
        elif args.command == "replay":
            _replay(args)
    except ValueError as err:
        return _fail(_flag(str(err)))
    except KeyboardInterrupt:
        return _fail("interrupted")
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
