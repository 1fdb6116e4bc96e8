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
import gc
import os
import re
import sys
from pathlib import Path

from cardlab.sim import games as games_registry
from cardlab.sim.games import GAMES
from cardlab.sim import runner
from cardlab.sim.runner import (DEFAULT_CHUNK, DEFAULT_GAME_CHUNK, INDEX_MAX, SEARCH_CHUNK, SEARCH_GAME_CHUNK,
                                SUMMARY_CHUNK)


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
    name = re.match(r"^([a-z_][a-z0-9_]*):", message)  # names may hold digits: steal_29, beyond_42
    if name is None or name.group(1) in ("game", "path", "study"):
        return message
    return "--" + name.group(1).replace("_", "-") + message[len(name.group(1)):]


def _game_parsers(sub, command: str, help: str, common, only=None) -> None:
    """``cardlab <command> <game>``: one sub-parser per registered game, with that game's flags.

    With ``only`` (the ``(command, game)`` the command line names) the other games get a bare
    parser: importing a game's command module imports its package (kernels, pandas), which a run
    of another game never needs.
    """
    p = sub.add_parser(command, help=help)
    games = p.add_subparsers(dest="game", required=True, parser_class=OneLineParser, metavar="game")
    for name, title in GAMES.items():
        g = games.add_parser(name, help=title)
        if only is not None and only != (command, name):
            continue
        if command == "study":
            studies = games_registry.command(name).STUDIES
            g.add_argument("study", help="; ".join(f"{k}: {v}" for k, v in studies.items()) or "none yet")
        games_registry.command(name).add_arguments(g, command)
        common(g)
        if command == "replay":
            _replay_flags(g)


def _simulate_flags(p) -> None:
    p.add_argument("--deals", type=int, default=None, help="number of deals (default 100000)")
    p.add_argument("--games", type=int, default=None, help="play this many whole games instead of single deals")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores); results do not change")
    p.add_argument("--first-deal", type=int, default=0,
                   help=f"index of the first deal (game), 0 to {INDEX_MAX} (default 0)")
    p.add_argument("--chunk-size", type=int, default=None,
                   help=f"deals (games) per chunk (default {DEFAULT_CHUNK} deals, {SUMMARY_CHUNK} with --summary, "
                        f"{DEFAULT_GAME_CHUNK} games; {SEARCH_CHUNK} deals, {SEARCH_GAME_CHUNK} games with a "
                        "search seat)")
    p.add_argument("--out", help="Parquet file to write, or a directory (ending in /) for a resumable dataset of "
                                 "one file per chunk; without it the report is printed")
    p.add_argument("--plot", help="also draw the score distributions to this image (with or without --out)")
    _overwrite_flag(p)
    _scale_flags(p)


def _replay_flags(p) -> None:
    """``--deal``, ``--game-index`` (an index or a range a:b) and ``--json`` for every game's replay.

    A game that declares one of these flags itself keeps its own; those added here are recorded in
    ``args.replay_flags`` and parsed (ranges) before the game's ``replay(args)`` is called.
    """
    from cardlab.sim.replay import REPLAY_MAX

    added = []
    flags = (("--deal", dict(dest="deal", help=f"deal to show: an index, or a range a:b (deals a … b-1, "
                                                f"at most {REPLAY_MAX:,})")),
             ("--game-index", dict(dest="game_index", help="whole game to show: an index, or a range a:b")),
             ("--json", dict(dest="json", action="store_true",
                             help="write one JSON object per deal (JSON lines) instead of text")),
             ("--record", dict(dest="record", help="check a deal saved by cardlab play (its JSON record), move by "
                                                   "move")))
    for flag, spec in flags:
        if flag not in p._option_string_actions:
            p.add_argument(flag, **spec)
            added.append(spec["dest"])
    p.set_defaults(replay_flags=tuple(added))


def _play_flags(p) -> None:
    p.set_defaults(policy=None)  # the others: the heuristic where the game's state plays it, else random
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--deal", type=int, default=0, help="the deal to play: its index in a run of this seed (default 0)")
    p.add_argument("--game-index", type=int, default=None, dest="game_index",
                   help="play whole game N of simulate --games of this seed instead, deal after deal (Euchre, "
                        "Minchiate, Rami)")
    p.add_argument("--save", help="where the finished deal's (or game's) JSON record goes (default runs/play-<game>-"
                                  "<seed>-<deal>.json); cardlab replay <game> --record FILE checks it")


def _study_flags(p) -> None:
    p.add_argument("--deals", type=int, default=None,
                   help="number of deals (default 100000; searching studies such as strength: fewer, see the README)")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--out", help="Parquet file to write, or a directory (ending in /) for a resumable dataset; "
                                 "without it the report is printed")
    p.add_argument("--plot", help="draw the study's figure to this image file")
    _overwrite_flag(p)
    _scale_flags(p)


def _overwrite_flag(p) -> None:
    p.add_argument("--overwrite", action="store_true",
                   help="replace an --out that exists (without it such an --out is refused, unless it is this "
                        "same command's interrupted run, which is resumed)")


def _scale_flags(p) -> None:
    """Flags every simulate and study gets from the shared runner."""
    p.add_argument("--summary", action="store_true",
                   help="count each seat's score per contract and role instead of keeping one row per deal: "
                        "constant memory, same report")
    p.add_argument("--scheduler", help="run the chunks on dask: tcp://HOST:PORT (a running scheduler) or local:N "
                                       "(N local worker processes); needs pip install 'cardlab[dask]'")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("cardlab")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def _named_game(argv):
    """``(command, game)`` when ``argv`` starts with a game command and a registered game, else None."""
    argv = list(argv)
    if len(argv) >= 2 and argv[0] in ("simulate", "study", "replay", "play") and argv[1] in GAMES:
        return argv[0], argv[1]
    return None


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The ``cardlab`` parser; given the command line ``argv``, only the game it names gets its flags
    (and only that game's package is imported), so a run starts faster."""
    only = None if argv is None else _named_game(argv)
    parser = OneLineParser(prog="cardlab", description="High-speed card-game simulation and analysis.")
    parser.add_argument("--version", action="version", version=f"cardlab {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    _game_parsers(sub, "simulate", "play many deals (or whole games) and write one row per deal", _simulate_flags,
                  only)
    rep = sub.add_parser("report", help="summarise a run file")
    rep.add_argument("path", help="Parquet file written by cardlab simulate")
    rep.add_argument("--plot", help="draw each contract's score distribution to this image file")
    _game_parsers(sub, "study", "paired studies: the same deals played several ways", _study_flags, only)
    _game_parsers(sub, "replay", "replay one deal (or one whole game) of a run", lambda p: None, only)
    _game_parsers(sub, "play", "play a deal yourself against cardlab's seats", _play_flags, only)
    return parser


OUTPUT_SUFFIXES = {"out": (".parquet", ".pq"), "plot": (".png", ".pdf", ".svg", ".jpg", ".jpeg")}
_EXAMPLES = {"out": "runs/study.parquet", "plot": "runs/study.png"}
SMALL_CHUNK = 1_000  # fewer deals per chunk than this: warn, the fixed cost per chunk dominates
LONG_RUN = {"deals": 10**10, "games": 10**9}  # more than this: warn, the run takes hours
IN_MEMORY = {"deals": 5 * 10**7, "games": 2 * 10**6}  # more than this without --out: warn, gigabytes of memory
SEARCH_LONG_RUN = 50_000  # more than this with a search seat: warn, searched play is slow
SEARCH_LONG_GAME = 50  # deals per game (--n-deals) above this with a search seat: one game takes over a second


def _warn(message: str) -> None:
    print(f"cardlab: warning: {message}", file=sys.stderr)


def _check_output(option: str, path):
    """Refuse an output path that cannot be written, naming ``option``; return the directory it will
    create (the first missing parent) or None. Nothing is created here: a run that fails on another
    option leaves nothing behind.

    ``--out`` must end in .parquet (or .pq): cardlab writes Parquet only, with its metadata, and
    refuses ``runs/x.csv`` rather than write Parquet under a CSV name; or name a directory (ending in
    ``/`` or existing) for a dataset of one Parquet file per chunk.
    """
    if path is None:
        return None
    example = _EXAMPLES[option]
    if not str(path).strip():
        raise ValueError(f"{option}: {path!r} is empty; give a file path such as {example}")
    target = Path(path)
    if option == "out" and runner.is_dataset_path(path):
        if target.exists() and not target.is_dir():
            raise ValueError(f"out: {path!r} is a file; a dataset needs a directory")
        missing, parent = None, target
        while not parent.exists():
            missing, parent = parent, parent.parent
        _probe(option, path, parent)
        return missing
    if target.is_dir():
        raise ValueError(f"{option}: {path!r} is a directory; give a file path such as {example}")
    suffixes = OUTPUT_SUFFIXES[option]
    if target.suffix.lower() not in suffixes:
        what = "cardlab writes Parquet" if option == "out" else "the image format comes from the name"
        raise ValueError(f"{option}: {path!r} is not allowed; {what}, so give a name ending in "
                         f"{_names(suffixes)} (such as {example})")
    missing, parent = None, target.parent
    while not parent.exists():
        missing, parent = parent, parent.parent
    if not parent.is_dir():
        raise ValueError(f"{option}: {path!r} is not writable: {str(parent)!r} is a file, not a directory")
    _probe(option, path, parent)
    if option == "plot" and target.is_file():  # a figure is written over the file (--out replaces it whole):
        # it must open for writing (opened to append, nothing changes)
        try:
            open(target, "ab").close()
        except OSError as err:
            raise ValueError(f"{option}: {path!r} is not writable ({err.strerror or err})") from None
    return None if missing is None else target.parent


def _probe(option: str, path, folder: Path) -> None:
    """Create and remove a hidden file in ``folder`` (the directory the output goes in, or the nearest one
    that exists): ``os.access`` says yes to root anywhere, /proc included, so only trying tells."""
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cardlab-probe-"):
            pass
    except OSError as err:
        raise ValueError(f"{option}: {path!r} is not writable: no file can be created in {str(folder)!r} "
                         f"({err.strerror or err})") from None


def _note_created(option: str, missing) -> None:
    if missing is not None and Path(missing).is_dir():
        print(f"note: created the directory {missing} for --{option}", file=sys.stderr)


def _warn_size(args, unit: str, count: int) -> None:
    """Warn, without refusing, about runs that will be very slow or very large."""
    chunk = getattr(args, "chunk_size", None)
    if chunk is not None and 1 <= chunk < SMALL_CHUNK and count > chunk:
        _warn(f"--chunk-size {chunk} is very small: every chunk costs a kernel call (and a Parquet row group), "
              f"so this runs far slower than the default; use {SMALL_CHUNK:,} or more")
    per_game = getattr(args, "n_deals", None) if unit == "games" else None  # a game of n deals (Minchiate)
    per_game = per_game if isinstance(per_game, int) and per_game > 1 else None
    deals = count * per_game if per_game else None
    searching = "search" in str(getattr(args, "policy", None) or "")
    if count > LONG_RUN[unit]:
        _warn(f"--{unit} {count:,} takes hours or days even at millions of {unit} a second; "
              "Ctrl-C stops it (with --out the finished chunks are kept)")
    elif deals is not None and deals > LONG_RUN["deals"]:
        _warn(f"--games {count:,} of --n-deals {per_game:,} is {deals:,} deals: that takes hours or days even at "
              "millions of deals a second; Ctrl-C stops it (with --out the finished chunks are kept)")
    if searching and (deals or count) > SEARCH_LONG_RUN:
        what = f"--{unit} {count:,}" + (f" of --n-deals {per_game:,} ({deals:,} deals)" if deals else "")
        _warn(f"{what} with a search seat takes a long while: searched play runs at hundreds to "
              "thousands of deals a second, not millions (see the README's search speed figures)")
    if searching and per_game is not None and per_game > SEARCH_LONG_GAME:
        _warn(f"--n-deals {per_game:,} with a search seat: each game takes seconds or more (searched deals run at "
              "tens to hundreds a second on a core), and Ctrl-C waits for the games being played")
    if args.out is None and count > IN_MEMORY[unit]:
        _warn(f"--{unit} {count:,} without --out keeps every row in memory (gigabytes); "
              "give --out runs/<name>.parquet to stream them to a file")


def _report(df, meta, plot, *, show: bool = True) -> None:
    """Print the report that fits the run (its game, and deals, whole games or a study) and draw its figure;
    with ``show=False`` only draw the figure (a run written with ``--out``: its report is ``cardlab report``'s)."""
    from cardlab import analysis

    text, figure = games_registry.report_for(meta)
    kind = meta.get("study") or meta.get("unit", "deal")
    if meta.get("summary") and kind != "deal":
        if not analysis.report.is_seat_summary(df):
            raise ValueError(f"path: this {kind} run is a summary; its report needs one row per deal (run it "
                             "without --summary)")
        text, figure = games_registry.report_for({**meta, "unit": "deal", "study": None})
        if show:
            print(f"summary of a {kind} run: per-contract seat scores (placings and timing need the rows: run "
                  "without --summary)")
    if show:
        print(text(df, meta))  # every report's header says PARTIAL when the run is incomplete (analysis.common)
    if plot:
        fig = analysis.add_run_title(figure(df), meta, df)
        analysis.save_figure(fig, plot)
        print(f"plot written to {plot}")


def _run_scaled(args, call):
    """Call the game with the shared runner's --summary and --scheduler in force; returns its result."""
    from cardlab.sim import runner

    options = {"summary": bool(getattr(args, "summary", False)), "overwrite": bool(getattr(args, "overwrite", False))}
    client = None
    if getattr(args, "scheduler", None):
        from cardlab.sim.executors import connect

        client, threads = connect(args.scheduler)
        options.update(executor=client, threads_per_task=threads)
    try:
        with runner.run_options(**options):
            return call()
    finally:
        if client is not None:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def _count_text(game: str, count: int, unit: str) -> str:
    """``20,000 hands``: a run's size as its report's header says it, in the game's word for a deal (Euchre's
    hands, Rami's rounds) or in games."""
    word = "game" if unit == "games" else games_registry.game(game).unit
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _finish_run(df, meta, out, plot, count_text, args_of_run=None) -> None:
    """After a simulate or study: say what was written (and draw it), or print the report."""
    if df is not None and df.attrs.get("cardlab"):
        meta = {**meta, **df.attrs["cardlab"]}
    if getattr(args_of_run, "summary", False):
        meta = {**meta, "summary": True}
    if out:
        print(f"wrote {count_text}{' as a summary' if meta.get('summary') else ''} to {out}")
        if plot:
            from cardlab import analysis  # only here: importing it (matplotlib) costs ~0.8 s per run

            _report(*analysis.load_run(out), plot, show=False)  # the report prints only without --out
    else:
        _report(df, meta, plot)


def _simulate(args) -> None:
    game = games_registry.command(args.game)
    if args.games is not None and args.deals is not None:
        raise ValueError("games: give --games (whole games) or --deals (single deals), not both")
    if args.games is None and args.deals is None:
        args.deals = 100_000
    unit = "games" if args.games is not None else "deals"
    runner.check_span(args.first_deal, getattr(args, unit), first_option="first_deal", count_option=unit)
    _warn_size(args, unit, getattr(args, unit))
    chunk = args.chunk_size or (DEFAULT_GAME_CHUNK if unit == "games" else SUMMARY_CHUNK if args.summary
                                else DEFAULT_CHUNK)
    df, meta = _run_scaled(args, lambda: game.simulate(args, threads=args.threads, chunk_size=chunk,
                                                       progress=sys.stderr.isatty(), out=args.out))
    _finish_run(df, meta, args.out, args.plot, _count_text(args.game, getattr(args, unit), unit), args)


def _study(args) -> None:
    game = games_registry.command(args.game)
    if not game.STUDIES:
        raise ValueError(f"study: {args.game} has no study yet")
    if args.study not in game.STUDIES:
        raise ValueError(f"study: {args.study!r} is not allowed; choose {_names(game.STUDIES)}")
    if args.deals is None:
        args.deals = getattr(game, "STUDY_DEALS", {}).get(args.study, 100_000)
    runner.check_positive_int("deals", args.deals)
    _warn_size(args, "deals", args.deals)
    if args.summary and not args.out:
        raise ValueError("summary: a study's report needs one row per deal; add --out to keep the counts for "
                         "Python, or drop --summary")
    df, meta = _run_scaled(args, lambda: game.study(args, threads=args.threads, progress=sys.stderr.isatty(),
                                                    out=args.out))
    count = _count_text(args.game, args.deals, "deals")
    if args.study == "balance" and df is not None:  # one row per value tried, not per deal
        count = f"{len(df)} evaluations (at most {count} a value)"
    _finish_run(df, meta, args.out, args.plot, count, args)


COMPILE_TIME = "about 30 s to a minute"  # measured: 64 s for deals, 67 s for games on a shared 2-core machine


def _announce_compiling() -> None:
    """Say once, when Numba starts compiling a kernel (a first run: nothing cached yet for this machine
    and engine), that the kernels are being compiled and cached and how long that takes. Kernels loaded
    from the cache compile nothing, so later runs say nothing."""
    import numba
    from numba.core import event

    class Announce(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                print(f"cardlab: note: compiling the kernels for this machine ({COMPILE_TIME}, once: they are "
                      f"cached in {numba.config.CACHE_DIR}, so later runs start at once)", file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    if getattr(_announce_compiling, "listener", None) is None:
        _announce_compiling.listener = Announce()
        event.register("numba:compile", _announce_compiling.listener)


def _check_run_path(path) -> None:
    """A one-line error when ``path`` is not a file to report on."""
    target = Path(path)
    if target.is_dir() and not (target / runner.DATASET_METADATA).is_file():
        raise ValueError(f"path: {path!r} is a directory that holds no cardlab dataset; give a Parquet file or "
                         "dataset directory written by cardlab simulate")
    if not target.exists():
        raise ValueError(f"path: {path!r} does not exist; give a Parquet file written by cardlab simulate")


def _load(path):
    """``(frame, metadata)`` of a run file, or a one-line error that says what is wrong with ``path``."""
    import pyarrow as pa

    from cardlab import analysis

    target = Path(path)
    _check_run_path(path)

    try:
        return analysis.load_run(target)
    except pa.ArrowException:
        raise ValueError(f"path: {path!r} is not a Parquet file; give one written by cardlab simulate") from None
    except OSError as err:
        raise ValueError(f"path: {path!r} cannot be read ({err.strerror or err})") from None


def _replay(args) -> None:
    """Print what the game's ``replay(args)`` gives: one text, or items one per deal (game): texts
    separated by a blank line, or records (dicts) written as JSON lines."""
    from cardlab.sim.replay import json_line, parse_range

    for option in ("deal", "game_index"):
        value = getattr(args, option, None)
        if value is None:
            continue
        if option in args.replay_flags:
            setattr(args, option, parse_range(option, value))
        else:  # the game's own integer flag
            runner.check_index(option, value)
    result = games_registry.command(args.game).replay(args)
    if isinstance(result, str):
        if getattr(args, "json", False) and "json" in args.replay_flags and not result.lstrip().startswith("{"):
            raise ValueError(f"json: {args.game} has no JSON replay yet; drop --json")
        print(result)
        return
    for k, item in enumerate(result):
        if isinstance(item, dict):
            print(json_line(item), flush=True)
        elif getattr(args, "json", False):
            raise ValueError(f"json: {args.game} has no JSON replay yet; drop --json")
        else:
            print(("\n" if k else "") + item, flush=True)


def _interrupted(stop, args) -> int:
    """Ctrl-C or SIGTERM: exit 130. A run that kept chunks has said so (``interrupted: kept …``, from the
    runner) and, without --out, its partial report is printed; anything stopped before a chunk was kept
    (starting up, compiling or loading the kernels, the first chunk) says ``cardlab: interrupted``, the
    same in every game."""
    from cardlab.sim.runner import RunInterrupted

    if isinstance(stop, RunInterrupted) and (stop.done or stop.out is not None):
        if stop.out is None and stop.frame is not None and getattr(args, "out", None) is None:
            try:
                _report(stop.frame, stop.meta, None)
            except (ValueError, KeyboardInterrupt):
                pass
    else:
        print("cardlab: interrupted", file=sys.stderr)
    return 130


def _negative_values(argv: list) -> list:
    """``--flag -1,-2`` as ``--flag=-1,-2`` (and ``--range -5:10``): argparse reads a value that starts with a minus
    as an option and answers "expected one argument"; a negative number after a flag is always that flag's value
    here."""
    out = []
    for token in argv:
        if out and re.fullmatch(r"-\d[\d,.:\-]*", token) and out[-1].startswith("--") and "=" not in out[-1]:
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def main(argv=None) -> int:
    try:
        argv = _negative_values(sys.argv[1:] if argv is None else list(argv))
        args = build_parser(argv).parse_args(argv)  # imports the game named (pandas, numba, its kernels)
    except SystemExit as stop:  # --help, or a one-line usage error already printed
        return stop.code
    except KeyboardInterrupt as stop:  # Ctrl-C while starting: the same line as any run stopped before a chunk
        return _interrupted(stop, None)
    try:
        created = {}
        if args.command == "report":
            _check_run_path(args.path)
        if args.command in ("simulate", "study"):
            created["out"] = _check_output("out", args.out)
        if args.command in ("simulate", "study", "report"):
            created["plot"] = _check_output("plot", args.plot)
        if getattr(args, "chunk_size", None) is not None:  # 0 is no chunk size: refused like -3, not the default
            runner.check_positive_int("chunk_size", args.chunk_size)
        if args.command != "report":
            _announce_compiling()
        if args.command == "simulate":
            _simulate(args)
        elif args.command == "study":
            _study(args)
        elif args.command == "report":
            _report(*_load(args.path), args.plot)
        elif args.command == "replay":
            _replay(args)
        elif args.command == "play":
            return games_registry.command(args.game).play(args)
        for option, missing in created.items():
            _note_created(option, missing)
    except ValueError as err:
        return _fail(_flag(str(err)))
    except KeyboardInterrupt as stop:
        return _interrupted(stop, args)
    except RuntimeError as err:
        from cardlab.sim.runner import ChunksFailed

        if not isinstance(err, ChunksFailed):
            raise
        print(f"cardlab: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


def run() -> None:
    """The ``cardlab`` command: :func:`main`, then exit. Everything still alive then (numba's and pyarrow's
    modules, mostly) goes to the collector's permanent generation first (``gc.freeze``), so the
    interpreter's last collection passes over it instead of through it: 0.1 s off every command."""
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
