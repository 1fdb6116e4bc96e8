"""Euchre for five on the command line: its flags and the calls behind ``cardlab simulate|study|replay euchre5``.

Light on purpose: the parser imports this module for every ``cardlab`` command, so the facade
(and with it the kernels) is imported only inside the functions that run a game.
"""
from __future__ import annotations

import argparse

from cardlab.sim.options import command_options

STUDIES = {
    "trumps": "every hand played with each seat as maker and each trump suit (paired)",
    "strength": "random, heuristic and search seats in paired matches on the same hands",
}
STUDY_DEALS = {"strength": 10_000}  # default --deals of a study when not 100,000: search is slow

RULE_FLAGS = ("players", "lone_march_points", "forced_alone_march_points", "defender_points", "call_rule",
              "allow_call_own_card", "call_before_exchange", "dealer_may_discard_upcard", "stick_the_dealer",
              "tie_rule", "target")


def add_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """Every option of the rules (§9), named as there with dashes, plus policy and seed."""
    p.add_argument("--policy", default="heuristic",
                   help="heuristic, random or search, or one per seat: search,heuristic,heuristic,random,heuristic")
    p.add_argument("--search-worlds", type=int, default=None,
                   help="worlds sampled per searched decision (default 32; with --policy search or study strength)")
    p.add_argument("--search-rollout", default=None,
                   help="policy of every seat in the search's rollouts: heuristic (default) or random")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    r = p.add_argument_group("rules")
    r.add_argument("--players", type=int, default=5, help="always 5 (the game is for five)")
    r.add_argument("--lone-march-points", type=int, default=2, help="a lone maker's march: 2, 4 or 5 (default 2)")
    r.add_argument("--forced-alone-march-points", type=int, default=2,
                   help="march of a maker alone because the called card was buried: 2, 4 or 5 (default 2)")
    r.add_argument("--defender-points", default="2,4",
                   help="each defender's points when the attackers take 1-2 tricks, and none (default 2,4)")
    r.add_argument("--call-rule", default="any", help="any, non_trump or ace_of_suit (default any)")
    r.add_argument("--allow-call-own-card", action="store_true", help="the maker may call its own card (alone)")
    r.add_argument("--call-before-exchange", action="store_true", help="the call comes before the dealer's discard")
    r.add_argument("--no-dealer-may-discard-upcard", dest="dealer_may_discard_upcard", action="store_false",
                   help="the dealer must keep the upcard it picked up")
    r.add_argument("--no-stick-the-dealer", dest="stick_the_dealer", action="store_false",
                   help="the dealer may pass in round two (five passes void the hand)")
    r.add_argument("--tie-rule", default="shared", help="shared, play_on or maker_side_first (default shared)")
    r.add_argument("--target", type=int, default=10, help="points that end a game (default 10)")
    if command == "replay" and not _shared_replay_flags():
        p.add_argument("--deal", help="the hand to show: an index, or a range a:b")
        p.add_argument("--game-index", dest="game_index", help="the whole game to show: an index, or a range a:b")
        p.add_argument("--json", action="store_true", help="JSON lines (one object per hand) instead of text")


def _shared_replay_flags() -> bool:
    """Whether the command line itself gives every game ``--deal``, ``--game-index`` and ``--json`` (it
    does once ``cardlab.sim.replay`` exists); until then this game declares them."""
    import importlib.util

    return importlib.util.find_spec("cardlab.sim.replay") is not None


def _span(value) -> str:
    """An index, ``'a:b'`` or a ``range`` (as the shared replay flags pass it) as the facade's ``'a:b'``."""
    if isinstance(value, range):
        return f"{value.start}:{value.stop}"
    return str(value)


def rules(args) -> dict:
    """The rule options and seed/policy of a parsed command line."""
    return command_options(args, RULE_FLAGS)


def simulate(args, *, threads, chunk_size, progress, out):
    """``cardlab simulate euchre5``: independent hands (``--deals``) or whole games (``--games``)."""
    from cardlab.sim import euchre5

    kw = rules(args)
    study = euchre5.Study.build(**kw)  # validates before any file is opened
    common = dict(threads=threads, progress=progress, out=out, chunk_size=chunk_size)
    if args.games is not None:
        df = euchre5.simulate_games(games=args.games, first_game=args.first_deal, **common, **kw)
        return df, {**study.metadata("game"), "games": args.games}
    df = euchre5.simulate(deals=args.deals, first_deal=args.first_deal, **common, **kw)
    return df, {**study.metadata(), "deals": args.deals}


def study(args, *, threads, progress, out):
    """``cardlab study euchre5 trumps|strength``: the same hands played with every maker and trump, or
    by random, heuristic and search seats."""
    from cardlab.sim.euchre5 import studies
    from cardlab.sim.euchre5.simulate import Study

    kw = rules(args)
    if args.study == "strength":
        from cardlab.sim.euchre5.strength import strength_metadata, strength_study

        meta = strength_metadata(**kw)
        df = strength_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
        return df, {**meta, "deals": args.deals}
    meta = Study.build(**kw).metadata()
    df = studies.trump_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
    return df, {**meta, "study": args.study, "deals": args.deals, "thresholds": studies.THRESHOLDS}


def replay(args) -> str:
    """``cardlab replay euchre5``: hands (``--deal i`` or ``a:b``) or whole games (``--game-index``), as
    text or, with ``--json``, JSON lines (one object per hand)."""
    from cardlab.sim import euchre5
    from cardlab.sim.euchre5.simulate import parse_range

    if (args.deal is None) == (args.game_index is None):
        raise ValueError("deal: give --deal (a hand or a range a:b) or --game-index (whole games)")
    if args.deal is not None:
        r = euchre5.replay(deal=_span(args.deal), **rules(args))
        return r.json if args.json else r.text
    games = [euchre5.replay_game(game=g, **rules(args)) for g in parse_range(_span(args.game_index), "game_index")]
    return "\n".join(r.json for r in games) if args.json else "\n\n".join(r.text for r in games)
