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
    if name is None or name.group(1) in ("game", "path", "study"):
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
    t = p.add_argument_group("trumps and domino")
    t.add_argument("--no-overtrump-on-trump-lead", dest="overtrump_on_trump_lead", action="store_false",
                   help="drop the duty to overtrump when trumps are led")
    t.add_argument("--no-must-trump", dest="must_trump", action="store_false",
                   help="drop the duty to trump when void")
    t.add_argument("--no-overtrump-when-ruffing", dest="overtrump_when_ruffing", action="store_false",
                   help="drop the duty to overtrump a trump already played when void")
    t.add_argument("--domino-rules", default="upward", help="upward, fan_tan or bga_adjacent (default upward)")
    t.add_argument("--domino-starter", default="declarer", help="declarer or left (default declarer)")
    t.add_argument("--ace-replay-optional", action="store_true", help="the extra turn after an Ace may be declined")
    t.add_argument("--domino-table", help="points per finishing place, e.g. 45,25,10,0,-6")
    g = p.add_argument_group("whole games (with --games)")
    g.add_argument("--geronimo", action="store_true", help="each declarer chooses its contract (and trump)")
    g.add_argument("--double", action="store_true", help="play the doubling option")
    g.add_argument("--late-redouble", action="store_true", help="players who already acted get a redouble turn")
    g.add_argument("--double-obligation", type=int, default=2, help="doubles owed to each declarer (default 2)")
    g.add_argument("--skip-undoubled-negative", action="store_true",
                   help="a negative deal nobody doubles is not played; the others share its points")
    g.add_argument("--double-policy", help="doubling policy: heuristic, random or maximum (or one per seat); "
                                           "default: the card policy")
    g.add_argument("--salade", action="store_true", help="add Salade to the game")
    g.add_argument("--anti-salade", action="store_true", help="add Anti-Salade to the game")
    g.add_argument("--no-last-two", dest="last_two", action="store_false", help="leave Last Two out")
    g.add_argument("--no-domino", dest="domino", action="store_false", help="leave Domino out")
    g.add_argument("--trumps", dest="trumps", action="store_const", const=True, default=None,
                   help="include Trumps (default: exactly in Geronimo games)")
    g.add_argument("--no-trumps", dest="trumps", action="store_const", const=False,
                   help="leave Trumps out of a Geronimo game")
    g.add_argument("--trumps-in-regular", action="store_true", help="allow Trumps outside Geronimo")
    g.add_argument("--regular-cycle", default="per_player", help="per_player or per_contract (default per_player)")
    g.add_argument("--iterations", type=int, default=1, help="regular mode: 1, 2 or 3 (default 1)")
    g.add_argument("--declarer-blocks", action="store_true", help="geronimo: each player declares all in a row")


RULE_FLAGS = ("players", "deck", "scoring", "hearts_lead", "hearts_lead_salade", "kh_forced_discard", "early_stop",
              "overtrump_on_trump_lead", "must_trump", "overtrump_when_ruffing", "domino_rules", "domino_starter",
              "ace_replay_optional", "domino_table", "geronimo", "double", "late_redouble", "double_obligation",
              "salade", "anti_salade", "last_two", "domino", "trumps", "trumps_in_regular", "regular_cycle",
              "iterations", "declarer_blocks", "skip_undoubled_negative")


def _table(text):
    if text is None:
        return None
    try:
        return tuple(int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"domino_table: {text!r} is not allowed; give integers separated by commas") from None


def _rules(args) -> dict:
    """The rule options and seed/policy of a parsed command line."""
    rules = {name: getattr(args, name) for name in RULE_FLAGS}
    rules["domino_table"] = _table(args.domino_table)
    return dict(rules, policy=args.policy, seed=args.seed)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="cardlab", description="High-speed card-game simulation and analysis.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    sim = sub.add_parser("simulate", help="play many deals (or whole games) and write one row per deal")
    sim.add_argument("game", help="barbu")
    _barbu_rules(sim)
    sim.add_argument("--deals", type=int, default=None, help="number of deals (default 100000)")
    sim.add_argument("--games", type=int, default=None, help="play this many whole games instead of single deals")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores); results do not change")
    sim.add_argument("--first-deal", type=int, default=0, help="index of the first deal (default 0)")
    sim.add_argument("--chunk-size", type=int, default=1 << 20, help="deals per chunk (default 1048576)")
    sim.add_argument("--out", help="Parquet file to write; without it the report is printed")
    sim.add_argument("--plot", help="also draw the score distributions to this image (with or without --out)")

    rep = sub.add_parser("report", help="summarise a run file")
    rep.add_argument("path", help="Parquet file written by cardlab simulate")
    rep.add_argument("--plot", help="draw each contract's score distribution to this image file")

    st = sub.add_parser("study", help="paired studies: the same deals played several ways")
    st.add_argument("game", help="barbu")
    st.add_argument("study", help="trumps (each suit as trump) or contracts (every contract)")
    _barbu_rules(st)
    st.add_argument("--deals", type=int, default=100_000, help="number of deals (default 100000)")
    st.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    st.add_argument("--out", help="Parquet file to write; without it the report is printed")
    st.add_argument("--plot", help="draw the study's figure to this image file")

    rp = sub.add_parser("replay", help="replay one deal (or one whole game) of a run")
    rp.add_argument("game", help="barbu")
    _barbu_rules(rp)
    rp.add_argument("--deal", type=int, help="index of the deal to show")
    rp.add_argument("--game-index", dest="game_index", type=int, help="index of the whole game to show")
    return parser


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"game: {game!r} is not allowed; choose {', '.join(GAMES)}")


def _check_plot_path(plot) -> None:
    if plot is not None:
        from pathlib import Path

        from sim.runner import check_output_path

        if Path(plot).suffix.lower() not in (".png", ".pdf", ".svg", ".jpg", ".jpeg"):
            raise ValueError(f"plot: {plot!r} has no image extension; use .png, .pdf, .svg or .jpg")
        check_output_path(plot)


def _report(df, meta, plot) -> None:
    """Print the report that fits the run (deals, whole games or a study) and draw its figure."""
    import analysis

    kind = meta.get("study") or meta.get("unit", "deal")
    text, figure = {
        "deal": (analysis.format_report, analysis.plot_score_distributions),
        "game": (analysis.format_game_report, analysis.plot_game_report),
        "trumps": (analysis.format_trump_study, analysis.plot_trump_study),
        "contracts": (analysis.format_contract_study, analysis.plot_contract_values),
    }[kind]
    print(text(df, meta))
    if plot:
        fig = figure(df)
        analysis.save_figure(getattr(fig, "figure", fig), plot)
        print(f"plot written to {plot}")


def _simulate(args) -> None:
    from sim import barbu

    rules = _rules(args)
    common = dict(threads=args.threads, chunk_size=args.chunk_size, progress=sys.stderr.isatty(), out=args.out)
    if args.games is not None:
        if args.deals is not None:
            raise ValueError("games: give --games (whole games) or --deals (single deals), not both")
        if args.contract != "all":
            raise ValueError("contract: whole games play the contracts their options enable; drop --contract")
        study = barbu.GameStudy.build(double_policy=args.double_policy, **rules)
        df = barbu.simulate_games(games=args.games, first_game=args.first_deal, double_policy=args.double_policy,
                                  **common, **rules)
        count, unit = args.games, "games"
    else:
        deals = 100_000 if args.deals is None else args.deals
        study = barbu.Study.build(contract=args.contract, **rules)
        df = barbu.simulate(deals=deals, contract=args.contract, first_deal=args.first_deal, **common, **rules)
        count, unit = deals, "deals"
    if args.out:
        print(f"wrote {count} {unit} to {args.out}")
        if args.plot:
            import analysis

            _report(*analysis.load_run(args.out), args.plot)
    else:
        _report(df, {**study.metadata(), unit: count}, args.plot)


def _study(args) -> None:
    from sim.barbu import studies

    kinds = {"trumps": studies.trump_study, "contracts": studies.contract_value_study}
    if args.study not in kinds:
        raise ValueError(f"study: {args.study!r} is not allowed; choose trumps or contracts")
    rules = _rules(args)
    if args.study == "contracts":
        rules["contract"] = args.contract
    df = kinds[args.study](deals=args.deals, threads=args.threads, progress=sys.stderr.isatty(), out=args.out,
                           **rules)
    if args.out:
        print(f"wrote {args.deals} deals to {args.out}")
        if args.plot:
            import analysis

            _report(*analysis.load_run(args.out), args.plot)
    else:
        from sim.barbu.simulate import Study

        study = Study.build(contract="trumps" if args.study == "trumps" else args.contract, **_rules(args))
        _report(df, {**study.metadata(), "study": args.study, "deals": args.deals}, args.plot)


def _replay(args) -> None:
    from sim import barbu

    if (args.deal is None) == (args.game_index is None):
        raise ValueError("deal: give --deal (one deal) or --game-index (one whole game)")
    if args.deal is not None:
        print(barbu.replay(deal=args.deal, contract=args.contract, **_rules(args)).text)
    else:
        print(barbu.replay_game(game=args.game_index, double_policy=args.double_policy, **_rules(args)).text)


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a one-line usage error already printed
        return stop.code
    try:
        if args.command in ("simulate", "study", "replay"):
            _check_game(args.game)
        if args.command in ("simulate", "study"):
            _check_plot_path(args.plot)
        if args.command == "simulate":
            _simulate(args)
        elif args.command == "study":
            _study(args)
        elif args.command == "report":
            import analysis
            from pathlib import Path

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
