"""The ``cardlab`` command: simulate, report and replay.

    cardlab simulate barbu --contract no-tricks --players 4 --deck 52 --deals 1000000 --seed 7 --out runs/nt.parquet
    cardlab report runs/nt.parquet --plot scores.png
    cardlab replay barbu --seed 7 --deal 123456 --contract no-tricks

Bad input stops at once with one line naming the option, the value and what is allowed.
"""
from __future__ import annotations

import argparse
import re
import sys

GAMES = ("barbu",)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``cardlab: error: …``."""

    def error(self, message):
        raise SystemExit(_fail(message))


def _fail(message: str) -> int:
    print(f"cardlab: error: {message}", file=sys.stderr)
    return 2


def _flag(message: str) -> str:
    """Name the command-line flag in an API error: ``players: …`` → ``--players: …``."""
    name = re.match(r"^([a-z_]+):", message)
    if name is None or name.group(1) in ("game", "path"):
        return message
    return "--" + name.group(1).replace("_", "-") + message[len(name.group(1)):]


def _barbu_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--contract", default="all",
                   help="no-tricks, no-hearts, no-queens, no-barbu, last-two, salade, anti-salade, a comma list, "
                        "or all (each contract on its own deals, declarer rotating; default)")
    p.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4)")
    p.add_argument("--deck", type=int, default=52, help="32 or 52 (default 52)")
    p.add_argument("--scoring", default="basic", help="basic or wiki (default basic)")
    p.add_argument("--policy", default="heuristic",
                   help="heuristic or random, or one per seat: heuristic,random,random,random")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--hearts-lead", default="anytime", help="anytime, broken or only_if_forced (default anytime)")
    p.add_argument("--hearts-lead-salade", action="store_true", help="apply the hearts-lead rule to Salade too")
    p.add_argument("--kh-forced-discard", action="store_true", help="a void K♥ holder must discard it")
    p.add_argument("--no-early-stop", dest="early_stop", action="store_false",
                   help="play every trick even when no card left can score")


def _rules(args) -> dict:
    return dict(contract=args.contract, policy=args.policy, seed=args.seed, players=args.players, deck=args.deck,
                scoring=args.scoring, hearts_lead=args.hearts_lead, hearts_lead_salade=args.hearts_lead_salade,
                kh_forced_discard=args.kh_forced_discard, early_stop=args.early_stop)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="cardlab", description="High-speed card-game simulation and analysis.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    sim = sub.add_parser("simulate", help="play many deals and write one row per deal")
    sim.add_argument("game", help="barbu")
    _barbu_rules(sim)
    sim.add_argument("--deals", type=int, default=100_000, help="number of deals (default 100000)")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores); results do not change")
    sim.add_argument("--first-deal", type=int, default=0, help="index of the first deal (default 0)")
    sim.add_argument("--chunk-size", type=int, default=1 << 20, help="deals per chunk (default 1048576)")
    sim.add_argument("--out", help="Parquet file to write; without it the report is printed")
    sim.add_argument("--plot", help="also draw the score distributions to this image (with or without --out)")

    rep = sub.add_parser("report", help="summarise a run file")
    rep.add_argument("path", help="Parquet file written by cardlab simulate")
    rep.add_argument("--plot", help="draw each contract's score distribution to this image file")

    rp = sub.add_parser("replay", help="replay one deal of a run, trick by trick")
    rp.add_argument("game", help="barbu")
    _barbu_rules(rp)
    rp.add_argument("--deal", type=int, required=True, help="index of the deal to show")
    return parser


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"game: {game!r} is not allowed; choose {', '.join(GAMES)}")


def _report(df, meta, plot) -> None:
    import analysis

    print(analysis.format_report(df, meta))
    if plot:
        fig = analysis.plot_score_distributions(df)
        analysis.save_figure(fig, plot)
        print(f"plot written to {plot}")


def _check_plot_path(plot) -> None:
    if plot is not None:
        from pathlib import Path

        from sim.runner import check_output_path

        if Path(plot).suffix.lower() not in (".png", ".pdf", ".svg", ".jpg", ".jpeg"):
            raise ValueError(f"plot: {plot!r} has no image extension; use .png, .pdf, .svg or .jpg")
        check_output_path(plot)


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a one-line usage error already printed
        return stop.code
    try:
        if args.command == "simulate":
            _check_game(args.game)
            _check_plot_path(args.plot)
            from sim import barbu

            df = barbu.simulate(deals=args.deals, threads=args.threads, first_deal=args.first_deal,
                                chunk_size=args.chunk_size, progress=sys.stderr.isatty(), out=args.out, **_rules(args))
            if args.out:
                print(f"wrote {args.deals} deals to {args.out}")
                if args.plot:
                    import analysis

                    df, meta = analysis.load_run(args.out)
                    _report(df, meta, args.plot)
            else:
                study = barbu.Study.build(**_rules(args))
                _report(df, {**study.metadata(), "deals": args.deals}, args.plot)
        elif args.command == "report":
            import analysis
            from pathlib import Path

            if not Path(args.path).is_file():
                raise ValueError(f"path: {args.path!r} does not exist; give a Parquet file written by cardlab simulate")
            _check_plot_path(args.plot)
            df, meta = analysis.load_run(args.path)
            _report(df, meta, args.plot)
        elif args.command == "replay":
            _check_game(args.game)
            from sim import barbu

            print(barbu.replay(deal=args.deal, **_rules(args)).text)
    except ValueError as err:
        return _fail(_flag(str(err)))
    except KeyboardInterrupt:
        return _fail("interrupted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
