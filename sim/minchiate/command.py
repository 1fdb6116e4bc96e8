"""Minchiate on the command line: its flags and the calls behind ``cardlab simulate|study|replay minchiate``.

Light on purpose: the parser imports this module for every ``cardlab`` command, so the facade
(and with it the kernels) is imported only inside the functions that run a game.
"""
from __future__ import annotations

import argparse

from cardlab.sim.options import command_options

STUDIES = {
    "options": "every rule option switched from its setting in turn, paired on the same deals",
    "strength": "random, heuristic and search partnerships in paired matches on the same deals",
}
STUDY_DEALS = {"strength": 1_000}  # default --deals of a study when not 100,000: search is slow

RULE_FLAGS = ("players", "n_deals", "steal_29", "cutter_cap", "expose_last_cards", "dealer_takes_from_fola",
              "discards_to", "declarations", "c5_merge", "combos_may_share", "matto_bonus_on_c3",
              "score_pile_combos", "card_bonus_rule", "cappotto_double")


def add_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """Minchiate's rule flags (every option of its rules, named as there), policy and seed."""
    yes_no = argparse.BooleanOptionalAction
    p.add_argument("--policy", default="heuristic",
                   help="heuristic, random or search, or one per seat: search,heuristic,random,heuristic")
    p.add_argument("--search-worlds", type=int, default=None,
                   help="worlds sampled per searched decision (default 32; with --policy search or study strength)")
    p.add_argument("--search-rollout", default=None,
                   help="policy of every seat in the search's rollouts: heuristic (default) or random")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--players", type=int, default=4, help="4 (two partnerships; the only table)")
    p.add_argument("--n-deals", type=int, default=1, help="deals per whole game with --games (default 1; 4 = "
                                                          "each player deals once)")
    p.add_argument("--steal-29", action=yes_no, default=True, help="the draws may take trump 29 (default yes)")
    p.add_argument("--cutter-cap", type=int, default=13, help="most cards the cutter may take (default 13)")
    p.add_argument("--expose-last-cards", default="dealer", help="dealer or all_four (default dealer)")
    p.add_argument("--dealer-takes-from-fola", default="counting+29",
                   help="counting+29 or counting+trumps>20 (default counting+29)")
    p.add_argument("--discards-to", default="fola", help="fola or own_team_pile (default fola)")
    p.add_argument("--declarations", default="policy", help="policy or mandatory_all (default policy)")
    p.add_argument("--c5-merge", action=yes_no, default=True, help="10-20-30-40 is one combination (default yes)")
    p.add_argument("--combos-may-share", action=yes_no, default=True,
                   help="a card may serve in combinations of different types (default yes)")
    p.add_argument("--matto-bonus-on-c3", action=yes_no, default=False, help="the Matto bonus on 1-40-Matto too")
    p.add_argument("--score-pile-combos", action=yes_no, default=True,
                   help="score the combinations of each team's pile at the end (default yes)")
    p.add_argument("--card-bonus-rule", default="beyond_42", help="beyond_42 (the only rule)")
    p.add_argument("--cappotto-double", action=yes_no, default=False,
                   help="double the resti of a deal in which a team took no trick")


def rules(args) -> dict:
    """The rule options and seed/policy of a parsed command line."""
    return command_options(args, RULE_FLAGS)


def simulate(args, *, threads, chunk_size, progress, out):
    """``cardlab simulate minchiate``: single deals (``--deals``) or whole games (``--games``)."""
    from cardlab.sim import minchiate
    from cardlab.sim.minchiate.simulate import Study

    kw = rules(args)
    meta = Study.build(**kw).metadata()
    common = dict(threads=threads, progress=progress, out=out, chunk_size=chunk_size)
    if args.games is not None:
        df = minchiate.simulate_games(games=args.games, first_game=args.first_deal, **common, **kw)
        return df, {**meta, "games": args.games, "unit": "game"}
    df = minchiate.simulate(deals=args.deals, first_deal=args.first_deal, **common, **kw)
    return df, {**meta, "deals": args.deals}


def study(args, *, threads, progress, out):
    """``cardlab study minchiate options|strength``: the same deals under every option switched in turn, or
    played by random, heuristic and search partnerships."""
    from cardlab.sim.minchiate import studies
    from cardlab.sim.minchiate.simulate import Study

    kw = rules(args)
    if args.study == "strength":
        from cardlab.sim.minchiate.strength import strength_metadata, strength_study

        df = strength_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
        return df, {**strength_metadata(**kw), "deals": args.deals}
    df = studies.option_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
    return df, {**Study.build(**kw).metadata(), "study": args.study, "deals": args.deals}


def replay(args) -> str:
    """``cardlab replay minchiate``: deals as text, or JSON lines with ``--json``."""
    if getattr(args, "game_index", None) is not None:
        raise ValueError("game_index: minchiate replays deals one by one; give --deal i or --deal a:b")
    from cardlab.sim.minchiate.simulate import Study, replay_study

    if args.deal is None:
        raise ValueError("deal: give --deal i or --deal a:b")
    deals = args.deal  # a range: the CLI's shared --deal flag parses and checks it
    study = Study.build(**rules(args))
    replays = [replay_study(study, d) for d in deals]
    if args.json:
        return "\n".join(r.json for r in replays)
    return "\n\n".join(r.text for r in replays)
