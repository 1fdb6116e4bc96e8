"""Every game's command line, built from its :class:`~cardlab.sim.game.Game`: flags, simulate, study, replay.

The rule flags come from the options' declarations (``--name-with-dashes``; ``--name``/``--no-name``
for a switch), beside ``--policy``, ``--seed``, ``--search-worlds`` and ``--search-rollout``; a game
may add flags of its own (:meth:`Game.add_flags`). An option given where it does not apply is
refused in one line naming the flag and where it applies. Light on purpose: building the parser
imports a game's interface and options, never its kernels.
"""
from __future__ import annotations

import argparse
import contextlib
import contextvars
import sys
from pathlib import Path

from cardlab.sim.balance import figures_text, numeric_options
from cardlab.sim.game import spelling
from cardlab.sim.options import add_option_flags, flag_text, options_from_args, toml_value

#: The variant file of the command being run and the rule flags given beside it: an option set by the file
#: (not by a flag) is named in messages as the file sets it (:func:`label`).
_VARIANT: contextvars.ContextVar = contextvars.ContextVar("cardlab_variant_file", default=None)


def spell(name: str) -> str:
    """How the command line names a unit, a study or an option in a message."""
    if name in ("deals", "games"):
        return {"deals": "--deals, replay --deal", "games": "--games, replay --game-index"}[name]
    if name.endswith("_study"):
        return "study " + name[: -len("_study")]
    return "--" + name.replace("_", "-")


def label(name: str, value) -> str:
    """An option as the user typed it: ``--geronimo``, ``--no-early-stop``, ``--iterations 2``; an option the
    variant file set reads as the file writes it: ``geronimo = true (in my_barbu.toml)``."""
    variant = _VARIANT.get()
    if variant is not None and name in variant[1] and value is not None:
        return f"{name} = {toml_value(value)} (in {variant[0]})"
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    return f"--{flag} {flag_text(value)}"


#: Flags of one study: flag -> (the study it applies to, the keyword it gives); given to another study, it is
#: refused. A rule option spelled like one of them (Euchre's ``--target``, a whole game's) has no flag in
#: ``cardlab study``, where it could not apply anyway: a variant file or ``--vary`` still sets it.
STUDY_FLAGS = {"vary": ("variants", "vary"), "tune": ("balance", "tune"), "target": ("balance", "target"),
               "range": ("balance", "range"), "oracle": ("strength", "oracle")}


def _dest(flag: str) -> str:
    return f"study_{flag}"


class GameCommand:
    """``cardlab simulate|study|replay <game>`` for a game of the interface."""

    def __init__(self, game):
        self.game = game

    @property
    def STUDIES(self) -> dict:  # noqa: N802 (the command-module attribute the CLI reads)
        return {name: kind.help for name, kind in self.game.all_studies().items()}

    @property
    def STUDY_DEALS(self) -> dict:  # noqa: N802
        return {name: self.game.study_deals.get(name, kind.deals) for name, kind in self.game.all_studies().items()}

    def add_arguments(self, p: argparse.ArgumentParser, command: str) -> None:
        """The game's flags: policy, seed, the search's settings, its own flags and every rule option."""
        game = self.game
        names = ", ".join(game.played_policies)
        own = ", your own numba:<module>.<function>" if game.numba_seat is not None else ""
        p.add_argument("--policy", default="heuristic", help=f"{names}{own}, or one per seat separated by commas "
                                                             "(default heuristic)")
        p.add_argument("--search-worlds", type=int, default=None,
                       help=f"worlds sampled per searched decision (default {game.default_worlds}; with a search "
                            "seat or study strength)")
        p.add_argument("--search-rollout", default=None,
                       help=f"policy of every seat in the search's rollouts: {', '.join(game.rollouts)} "
                            "(default heuristic)")
        if game.races:
            from cardlab.sim.racing import LEVELS

            first, every, _ = LEVELS[game.racing_level].astype(int)
            p.add_argument("--search-racing", default=None, action=argparse.BooleanOptionalAction,
                           help=f"search seats drop a candidate clearly worse than the leader after {first} worlds and "
                                f"every {every} more (default {'on' if game.races_by_default else 'off'}; "
                                "--no-search-racing rolls every candidate out in every world; with a search seat)")
        if game.inference:
            p.add_argument("--search-inference", default=None, choices=("on", "off"),
                           help="search seats weight their sampled worlds by how likely the others' past plays are "
                                "in them (default off; with a search seat)")
        p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
        p.add_argument("--variant", default=None, metavar="FILE",
                       help="a TOML file of house rules (name = value, one option a line); rule flags given beside "
                            "it override it")
        if command == "study":
            p.add_argument("--vary", action="append", default=None, metavar="NAME=V1,V2", dest=_dest("vary"),
                           help="study variants: an option and the values to play it at (repeat for more options: "
                                "every combination is played)")
            p.add_argument("--tune", default=None, metavar="NAME", dest=_dest("tune"),
                           help="study balance: the numeric option whose value is searched for")
            p.add_argument("--target", default=None, metavar="EXPR", dest=_dest("target"),
                           help="study balance: what the value must bring true, FIGURE = NUMBER or FIGURE = FIGURE, "
                                f"e.g. \"{next(iter(game.figures()))} = 0\"; figures: {figures_text(game)}")
            p.add_argument("--range", default=None, metavar="LO:HI", dest=_dest("range"),
                           help="study balance: the values to search (default: the option's declared bounds or "
                                "choices; needed when it has none)")
            if game.oracle:
                p.add_argument("--oracle", action="store_true", dest=_dest("oracle"),
                               help="study strength: add the ceiling, search that sees the true deal (its whole "
                                    "table, one oracle seat among search and among heuristic players)")
        game.add_flags(p, command)
        add_option_flags(p, game.Options, skip=STUDY_FLAGS if command == "study" else ())

    def keywords(self, args) -> dict:
        """The rule options given, policy, seed, the search's settings when given and the game's own keywords."""
        out = dict(options_from_args(args, self.game.Options), policy=args.policy, seed=args.seed)
        for name in ("search_worlds", "search_rollout", "search_racing", "search_inference"):
            if getattr(args, name, None) is not None:
                out[name] = getattr(args, name)
        if getattr(args, "variant", None) is not None:
            out["variant"] = args.variant
        return {**out, **self.game.flag_keywords(args)}

    @contextlib.contextmanager
    def spelling(self, args):
        """Messages inside the block name flags (``--players``), units and, for an option the variant file set,
        the file's line (:func:`label`)."""
        variant, from_file = getattr(args, "variant", None), set()
        if variant is not None:
            with contextlib.suppress(ValueError):  # a bad file is refused when the study is built
                from_file = set(self.game.read_variant(variant)[1]) - set(options_from_args(args, self.game.Options))
        token = _VARIANT.set(None if variant is None else (variant, from_file))
        try:
            with spelling(spell, label):
                yield
        finally:
            _VARIANT.reset(token)

    def simulate(self, args, *, threads, chunk_size, progress, out):
        """``cardlab simulate <game>``: single deals (``--deals``) or whole games (``--games``)."""
        unit = "games" if args.games is not None else "deals"
        count = args.games if unit == "games" else args.deals
        with self.spelling(args):
            study = self.game.build(unit, **self.keywords(args))
        summary = bool(getattr(args, "summary", False))
        df = self.game.run(study, unit, count, first=args.first_deal, chunk_size=args.chunk_size, threads=threads,
                           progress=progress, out=out, summary=summary or None)
        return df, {**study.metadata("game" if unit == "games" else "deal"), unit: count}

    def study(self, args, *, threads, progress, out):
        """``cardlab study <game> <name>``: the same deals played every way the study asks."""
        kind = self.game.all_studies()[args.study]
        keywords = self.keywords(args)
        for flag, (study, keyword) in STUDY_FLAGS.items():
            value = getattr(args, _dest(flag), None)
            if args.study == study:
                keywords[keyword] = value
            elif value:
                shown = value[0] if isinstance(value, list) else value
                raise ValueError(f"--{flag}: {shown} does not apply here; it applies only to study {study}")
        if args.study == "balance":
            for flag in ("tune", "target"):
                if keywords[flag] is None:
                    raise ValueError(f"--{flag}: study balance needs --tune NAME and --target EXPR, e.g. "
                                     f"--tune {(numeric_options(self.game) or ['NAME'])[0]} --target "
                                     f"\"{next(iter(self.game.figures()))} = 0\"")
            if getattr(args, "summary", False):
                raise ValueError("--summary: study balance keeps one row per value tried, not deal rows; drop "
                                 "--summary")
        with self.spelling(args):
            meta = {**kind.metadata(self.game, **keywords), "deals": args.deals}
            df = kind.run(self.game, deals=args.deals, threads=threads, progress=progress, out=out, **keywords)
        return df, meta

    def play(self, args) -> int:
        """``cardlab play <game>``: you play deal ``--deal`` (or whole game ``--game-index``) in seat ``--seat``
        against the ``--policy`` seats."""
        from cardlab.sim.play import play

        keywords = self.keywords(args)
        which = args.deal if args.game_index is None else f"game{args.game_index}"
        save = args.save or f"runs/play-{self.game.name}-{args.seed}-{which}.json"
        with self.spelling(args):
            try:
                play(self.game, seat=args.seat, deal=args.deal, game_index=args.game_index, save=save, **keywords)
            except EOFError:  # the input ended (Ctrl-D) before the deal did
                print("\nstopped; nothing saved", file=sys.stderr)
                return 130
        return 0

    def check_record(self, path) -> str:
        """``cardlab replay <game> --record FILE``: a saved deal (or whole game) checked move by move by the rules."""
        import json

        from cardlab.sim.play import check_record

        record = json.loads(Path(path).read_text())
        if record.get("game") != self.game.name:
            raise ValueError(f"record: {path} is a record of {record.get('game')!r}, not of {self.game.name}")
        state = check_record(self.game, record)
        if "deals" in record:
            moves = sum(len(d["actions"]) for d in record["deals"])
            return (f"{path}: game {record['game_index']} of seed {record['seed']}: {len(record['deals'])} deals, all "
                    f"{moves} moves legal; totals {state.scores()} as the rules give")
        return (f"{path}: deal {record['deal']} of seed {record['seed']}: all {len(record['actions'])} moves legal; "
                f"scores {state.scores()} as the rules give")

    def replay(self, args):
        """``cardlab replay <game>``: deals (``--deal``) or whole games (``--game-index``), each an index or a
        range ``a:b``; text, or one record per deal with ``--json``."""
        if getattr(args, "record", None):
            yield self.check_record(args.record)
            return
        deals, games = args.deal, args.game_index
        if (deals is None) == (games is None):
            raise ValueError("deal: give --deal (deals) or --game-index (whole games), an index or a range a:b")
        keywords = self.keywords(args)
        with self.spelling(args):
            study = self.game.build("deals" if deals is not None else "games", **keywords)
        result = self.game.replayed(study, "deals" if deals is not None else "games",
                                    deals if deals is not None else games)
        if args.json:
            yield from result.records
        else:
            yield result.text
