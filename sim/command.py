"""Every game's command line, built from its :class:`~cardlab.sim.game.Game`: flags, simulate, study, replay.

The rule flags come from the options' declarations (``--name-with-dashes``; ``--name``/``--no-name``
for a switch), beside ``--policy``, ``--seed``, ``--search-worlds`` and ``--search-rollout``; a game
may add flags of its own (:meth:`Game.add_flags`). An option given where it does not apply is
refused in one line naming the flag and where it applies. Light on purpose: building the parser
imports a game's interface and options, never its kernels.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardlab.sim.game import spelling
from cardlab.sim.options import add_option_flags, options_from_args


def spell(name: str) -> str:
    """How the command line names a unit, a study or an option in a message."""
    if name in ("deals", "games"):
        return {"deals": "--deals, replay --deal", "games": "--games, replay --game-index"}[name]
    if name.endswith("_study"):
        return "study " + name[: -len("_study")]
    return "--" + name.replace("_", "-")


def label(name: str, value) -> str:
    """An option as the user typed it: ``--geronimo``, ``--no-early-stop``, ``--iterations 2``."""
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    if value is None:
        return f"--{flag} none"
    return f"--{flag} " + (",".join(str(v) for v in value) if isinstance(value, tuple) else str(value))


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
        names = ", ".join(game.policies)
        own = ", your own numba:<module>.<function>" if game.numba_seat is not None else ""
        p.add_argument("--policy", default="heuristic", help=f"{names}{own}, or one per seat separated by commas "
                                                             "(default heuristic)")
        p.add_argument("--search-worlds", type=int, default=None,
                       help=f"worlds sampled per searched decision (default {game.default_worlds}; with a search "
                            "seat or study strength)")
        p.add_argument("--search-rollout", default=None,
                       help=f"policy of every seat in the search's rollouts: {', '.join(game.rollouts)} "
                            "(default heuristic)")
        p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
        if command == "study":
            p.add_argument("--vary", action="append", default=None, metavar="NAME=V1,V2",
                           help="study variants: an option and the values to play it at (repeat for more options: "
                                "every combination is played)")
        game.add_flags(p, command)
        add_option_flags(p, game.Options)

    def keywords(self, args) -> dict:
        """The rule options given, policy, seed, the search's settings when given and the game's own keywords."""
        out = dict(options_from_args(args, self.game.Options), policy=args.policy, seed=args.seed)
        for name in ("search_worlds", "search_rollout"):
            if getattr(args, name, None) is not None:
                out[name] = getattr(args, name)
        return {**out, **self.game.flag_keywords(args)}

    def simulate(self, args, *, threads, chunk_size, progress, out):
        """``cardlab simulate <game>``: single deals (``--deals``) or whole games (``--games``)."""
        unit = "games" if args.games is not None else "deals"
        count = args.games if unit == "games" else args.deals
        with spelling(spell, label):
            study = self.game.build(unit, **self.keywords(args))
        summary = bool(getattr(args, "summary", False))
        df = self.game.run(study, unit, count, first=args.first_deal, chunk_size=args.chunk_size, threads=threads,
                           progress=progress, out=out, summary=summary or None)
        return df, {**study.metadata("game" if unit == "games" else "deal"), unit: count}

    def study(self, args, *, threads, progress, out):
        """``cardlab study <game> <name>``: the same deals played every way the study asks."""
        kind = self.game.all_studies()[args.study]
        keywords = self.keywords(args)
        if args.study == "variants":
            keywords["vary"] = args.vary
        elif args.vary:
            raise ValueError(f"--vary: {args.vary[0]} does not apply here; it applies only to study variants")
        with spelling(spell, label):
            meta = {**kind.metadata(self.game, **keywords), "deals": args.deals}
            df = kind.run(self.game, deals=args.deals, threads=threads, progress=progress, out=out, **keywords)
        return df, meta

    def play(self, args) -> int:
        """``cardlab play <game>``: you play deal ``--deal`` in seat ``--seat`` against the ``--policy`` seats."""
        from cardlab.sim.play import play

        keywords = self.keywords(args)
        save = args.save or f"runs/play-{self.game.name}-{args.seed}-{args.deal}.json"
        with spelling(spell, label):
            try:
                play(self.game, seat=args.seat, deal=args.deal, save=save, **keywords)
            except EOFError:  # the input ended (Ctrl-D) before the deal did
                print("\nstopped; nothing saved", file=sys.stderr)
                return 130
        return 0

    def check_record(self, path) -> str:
        """``cardlab replay <game> --record FILE``: a saved deal checked move by move by the rules."""
        import json

        from cardlab.sim.play import check_record

        record = json.loads(Path(path).read_text())
        if record.get("game") != self.game.name:
            raise ValueError(f"record: {path} is a record of {record.get('game')!r}, not of {self.game.name}")
        state = check_record(self.game, record)
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
        with spelling(spell, label):
            study = self.game.build("deals" if deals is not None else "games", **keywords)
        result = self.game.replayed(study, "deals" if deals is not None else "games",
                                    deals if deals is not None else games)
        if args.json:
            yield from result.records
        else:
            yield result.text
