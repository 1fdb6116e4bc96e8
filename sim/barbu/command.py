"""Barbu on the command line: its flags and the calls behind ``cardlab simulate|study|replay barbu``.

Light on purpose: the parser imports this module for every ``cardlab`` command, so the facade
(and with it the kernels) is imported only inside the functions that run a game.
"""
from __future__ import annotations

import argparse

from cardlab.sim.options import command_options

STUDIES = {
    "trumps": "each Trumps deal played once with each suit as trump",
    "contracts": "every deal played under every contract",
    "strength": "random, heuristic and search seats in paired matches on the same deals, per contract",
}
STUDY_DEALS = {"strength": 8_000}  # default --deals of a study when not 100,000: search is slow

RULE_FLAGS = ("players", "deck", "scoring", "hearts_lead", "hearts_lead_salade", "kh_forced_discard", "early_stop",
              "overtrump_on_trump_lead", "must_trump", "overtrump_when_ruffing", "domino_rules", "domino_starter",
              "ace_replay_optional", "domino_table", "geronimo", "double", "late_redouble", "double_obligation",
              "salade", "anti_salade", "last_two", "domino", "trumps", "trumps_in_regular", "regular_cycle",
              "iterations", "declarer_blocks", "skip_undoubled_negative", "domino_three_last", "skip_remainder")


def add_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """Barbu's rule flags (every option of its rules), policy and seed."""
    p.add_argument("--contract", default="all",
                   help="no-tricks, no-hearts, no-queens, no-barbu, last-two, salade, anti-salade, a comma list, "
                        "or all (each contract on its own deals, declarer rotating; default)")
    p.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4)")
    p.add_argument("--deck", type=int, default=52, help="32 or 52 (default 52)")
    p.add_argument("--scoring", default="basic", help="basic or wiki (default basic)")
    p.add_argument("--policy", default="heuristic",
                   help="heuristic, random or search, or one per seat: search,heuristic,random,heuristic")
    p.add_argument("--search-worlds", type=int, default=None,
                   help="worlds sampled per searched decision (default 32; with --policy search or study strength)")
    p.add_argument("--search-rollout", default=None,
                   help="policy of every seat in the search's rollouts: heuristic (default) or random")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    if command == "study":
        p.add_argument("--compare-policies", default=None,
                       help="study contracts|trumps: play the study once per policy on the same deals, e.g. "
                            "heuristic,search, and report which conclusions change")
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
    t.add_argument("--domino-three-last", default="third_place",
                   help="3 players: the last scores the table's third_place (default) or last_place value")
    g = p.add_argument_group("whole games (with --games)")
    g.add_argument("--geronimo", action="store_true", help="each declarer chooses its contract (and trump)")
    g.add_argument("--double", action="store_true", help="play the doubling option")
    g.add_argument("--late-redouble", action="store_true", help="players who already acted get a redouble turn")
    g.add_argument("--double-obligation", type=int, default=2, help="doubles owed to each declarer (default 2)")
    g.add_argument("--skip-undoubled-negative", action="store_true",
                   help="a negative deal nobody doubles is not played; the others share its points")
    g.add_argument("--skip-remainder", default="declarer",
                   help="who takes the rounding remainder of a skipped deal: declarer (default) or others")
    g.add_argument("--double-policy", help="doubling policy: heuristic, random or maximum (or one per seat); "
                                           "default: the card policy")
    g.add_argument("--salade", action="store_true", help="add Salade to the game")
    g.add_argument("--anti-salade", action="store_true", help="add Anti-Salade to the game")
    g.add_argument("--no-last-two", dest="last_two", action="store_false", help="leave Last Two out")
    g.add_argument("--no-domino", dest="domino", action="store_false", help="leave Domino out")
    trumps = g.add_mutually_exclusive_group()
    trumps.add_argument("--trumps", dest="trumps", action="store_const", const=True, default=None,
                        help="include Trumps (default: in Geronimo games, and with --trumps-in-regular)")
    trumps.add_argument("--no-trumps", dest="trumps", action="store_const", const=False,
                        help="leave Trumps out of a Geronimo game")
    g.add_argument("--trumps-in-regular", action="store_true", help="add Trumps to a Regular game")
    g.add_argument("--regular-cycle", default="per_player", help="per_player or per_contract (default per_player)")
    g.add_argument("--iterations", type=int, default=1, help="regular mode: 1, 2 or 3 (default 1)")
    g.add_argument("--declarer-blocks", action="store_true", help="geronimo: each player declares all in a row")


def _table(text):
    if text is None:
        return None
    try:
        return tuple(int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"domino_table: {text!r} is not allowed; give integers separated by commas") from None


def rules(args) -> dict:
    """The rule options and seed/policy of a parsed command line."""
    return command_options(args, RULE_FLAGS, domino_table=_table(args.domino_table))


def _spell(name: str) -> str:
    """How the command line names a unit or an option in a message."""
    return {"deals": "--deals, replay --deal", "games": "--games, replay --game-index",
            "contracts_study": "study contracts"}.get(
        name, "--" + name.replace("_", "-"))


def _label(name: str, value) -> str:
    """An option as the user typed it: ``--geronimo``, ``--no-early-stop``, ``--iterations 2``."""
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    return f"--{flag} " + (",".join(str(v) for v in value) if isinstance(value, tuple) else str(value))


def check_scope(args, *, unit: str, study: str | None = None) -> None:
    """Refuse any flag given that does not apply to this command (the table of ``sim.barbu.scope``)."""
    from cardlab.sim.barbu.scope import check_barbu_scope
    from cardlab.sim.barbu.simulate import make_options, parse_contracts

    kw = rules(args)
    options = make_options(**{k: v for k, v in kw.items()
                              if k not in ("policy", "seed", "search_worlds", "search_rollout")})
    extra = {}
    if args.contract != "all":
        extra["contract"] = args.contract
    if getattr(args, "double_policy", None) is not None:
        extra["double_policy"] = args.double_policy
    played = None  # whole games: the contracts their options enable
    if unit == "deals":
        played = ("trumps",) if study == "trumps" else parse_contracts(args.contract)
    check_barbu_scope(options, unit=unit, played=played, study=study, extra=extra, spell=_spell, label=_label)


def simulate(args, *, threads, chunk_size, progress, out):
    """``cardlab simulate barbu``: single deals (``--deals``) or whole games (``--games``)."""
    from cardlab.sim import barbu

    kw = rules(args)
    common = dict(threads=threads, progress=progress, out=out)
    check_scope(args, unit="games" if args.games is not None else "deals")
    if args.games is not None:
        study = barbu.GameStudy.build(double_policy=args.double_policy, **kw)
        df = barbu.simulate_games(games=args.games, first_game=args.first_deal, double_policy=args.double_policy,
                                  chunk_size=chunk_size, **common, **kw)
        return df, {**study.metadata(), "games": args.games}
    study = barbu.Study.build(contract=args.contract, **kw)
    df = barbu.simulate(deals=args.deals, contract=args.contract, first_deal=args.first_deal, chunk_size=chunk_size,
                        **common, **kw)
    return df, {**study.metadata(), "deals": args.deals}


def study(args, *, threads, progress, out):
    """``cardlab study barbu trumps|contracts``: the same deals played every way."""
    from cardlab.sim.barbu import studies
    from cardlab.sim.barbu.simulate import Study

    if args.study == "strength" and getattr(args, "compare_policies", None) is not None:
        raise ValueError("compare_policies: --compare-policies does not apply here; it applies only to study "
                         "contracts and study trumps")
    if args.study == "strength":
        from cardlab.sim.barbu.strength import strength_metadata, strength_study

        kw = dict(rules(args), contract=args.contract)
        df = strength_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
        return df, {**strength_metadata(**kw), "deals": args.deals}
    kinds = {"trumps": studies.trump_study, "contracts": studies.contract_value_study}
    check_scope(args, unit="deals", study=args.study)
    kw = rules(args)
    if getattr(args, "compare_policies", None) is not None:
        if args.policy != "heuristic":
            raise ValueError("policy: --compare-policies sets every seat's policy itself; leave --policy out")
        kw.pop("policy")
        if args.study == "contracts":
            kw["contract"] = args.contract
        df = studies.policy_comparison_study(study=args.study, deals=args.deals, policies=args.compare_policies,
                                             threads=threads, progress=progress, out=out, **kw)
        names = studies.parse_compared_policies(args.compare_policies)
        meta = Study.build(**dict(kw, contract="trumps" if args.study == "trumps" else args.contract,
                                  policy=names[-1])).metadata()
        return df, {**meta, "policies": list(names), "compared_policies": list(names), "compared_study": args.study,
                    "study": "policies", "deals": args.deals}
    if args.study == "contracts":
        kw["contract"] = args.contract
    df = kinds[args.study](deals=args.deals, threads=threads, progress=progress, out=out, **kw)
    meta = Study.build(contract="trumps" if args.study == "trumps" else args.contract, **rules(args)).metadata()
    return df, {**meta, "study": args.study, "deals": args.deals}


def replay(args):
    """``cardlab replay barbu``: deals (``--deal``) or whole games (``--game-index``), each an index or a
    range ``a:b`` (the CLI passes a ``range``); text, or one record per deal with ``--json``."""
    from cardlab.sim import barbu

    deals, games = args.deal, args.game_index
    if (deals is None) == (games is None):
        raise ValueError("deal: give --deal (deals) or --game-index (whole games), an index or a range a:b")
    check_scope(args, unit="deals" if deals is not None else "games")
    several = len(deals if deals is not None else games) > 1
    for i in deals if deals is not None else games:
        if deals is not None:
            r = barbu.replay(deal=i, contract=args.contract, **rules(args))
            if args.json:
                yield r.record
            else:
                yield (f"=== deal {i}\n" if several else "") + r.text
        else:
            r = barbu.replay_game(game=i, double_policy=args.double_policy, **rules(args))
            if args.json:
                yield from r.records
            else:
                yield r.text
