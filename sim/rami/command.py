"""Rami on the command line: its flags and the calls behind ``cardlab simulate|study|replay rami``.

Light on purpose: the parser imports this module for every ``cardlab`` command, so the facade
(and with it the kernels) is imported only inside the functions that run a game.
"""
from __future__ import annotations

import argparse

from cardlab.sim.options import command_options

STUDIES = {
    "threshold": "every round played with the opening threshold at 30, 40 and 51",
    "options": "every round played with the defaults and with each other rule option switched",
    "strength": "random, heuristic and search seats in paired matches on the same rounds",
}
STUDY_DEALS = {"strength": 200}  # default --deals of a study when not 100,000: search is slow

RULE_FLAGS = ("players", "n_jokers", "hand_size", "open_threshold", "open_needs_pure_run", "max_jokers_per_meld",
              "discard_take_first_round", "discard_take_must_use", "single_card_must_draw_stock", "freed_joker_use",
              "go_out_requires_discard", "rami_sec_exempt_from_opening", "rami_sec_penalty", "recycle_discards",
              "blocked_tie")


def _jokers_per_meld(text):
    if text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed; choose 1, 2 or none") from None


def add_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """Rami's rule flags (every option of its rules, named as there), policy and seed."""
    p.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    p.add_argument("--policy", default="heuristic",
                   help="heuristic, random or search, or one per seat: search,heuristic,random,heuristic")
    p.add_argument("--search-worlds", type=int, default=None,
                   help="worlds sampled per searched decision (default 32; with --policy search or study strength)")
    p.add_argument("--search-rollout", default=None,
                   help="policy of every seat in the search's rollouts: heuristic (default) or random")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    r = p.add_argument_group("rules")
    r.add_argument("--n-jokers", type=int, default=4, help="4 (108 cards, default) or 2 (106 cards)")
    r.add_argument("--hand-size", type=int, default=13, help="13 (default) or 14")
    r.add_argument("--open-threshold", type=int, default=51, help="meld points needed to open (default 51)")
    r.add_argument("--no-open-needs-pure-run", dest="open_needs_pure_run", action="store_false",
                   help="open without a joker-free run")
    r.add_argument("--max-jokers-per-meld", type=_jokers_per_meld, default=1,
                   help="1 (default), 2 or none (any number, fewer than the naturals)")
    r.add_argument("--discard-take-first-round", action="store_true",
                   help="the top discard may be taken in the first round of turns")
    r.add_argument("--no-discard-take-must-use", dest="discard_take_must_use", action="store_false",
                   help="a taken discard may be kept instead of melded at once")
    r.add_argument("--no-single-card-must-draw-stock", dest="single_card_must_draw_stock", action="store_false",
                   help="a player holding one card may take the discard")
    r.add_argument("--freed-joker-use", default="new_meld", help="new_meld (default) or anywhere")
    r.add_argument("--go-out-requires-discard", action="store_true", help="going out needs a final discard")
    r.add_argument("--rami-sec-exempt-from-opening", action="store_true",
                   help="a rami sec need not meet the opening conditions")
    r.add_argument("--rami-sec-penalty", type=int, default=200, help="what each opponent pays for a rami sec (200)")
    r.add_argument("--recycle-discards", action="store_true", help="reshuffle the discards once when the stock ends")
    r.add_argument("--blocked-tie", default="all_zero", help="all_zero (default) or next_in_turn")


def rules(args) -> dict:
    """The rule options and seed/policy of a parsed command line."""
    return command_options(args, RULE_FLAGS)


def simulate(args, *, threads, chunk_size, progress, out):
    """``cardlab simulate rami``: independent rounds (``--deals``) or whole games (``--games``)."""
    from cardlab.sim import rami

    kw = rules(args)
    study = rami.Study.build(**kw)
    common = dict(threads=threads, progress=progress, out=out)
    if args.games is not None:
        df = rami.simulate_games(games=args.games, first_game=args.first_deal, chunk_size=min(chunk_size, 1 << 13),
                                 **common, **kw)
        return df, {**study.metadata(), "games": args.games, "unit": "game"}
    df = rami.simulate(deals=args.deals, first_deal=args.first_deal, chunk_size=min(chunk_size, 1 << 16), **common,
                       **kw)
    return df, {**study.metadata(), "deals": args.deals}


def study(args, *, threads, progress, out):
    """``cardlab study rami threshold|options|strength``: the same rounds under every variant (or policy)."""
    if args.study == "strength":
        from cardlab.sim.rami.strength import strength_metadata, strength_study

        kw = rules(args)
        df = strength_study(deals=args.deals, threads=threads, progress=progress, out=out, **kw)
        return df, {**strength_metadata(**kw), "deals": args.deals}
    from cardlab.sim.rami.studies import STUDY_VARIANTS, variant_study

    df = variant_study(args.study, deals=args.deals, threads=threads, progress=progress, out=out, **rules(args))
    from cardlab.sim.rami import Study

    meta = {**Study.build(**rules(args)).metadata(), "study": args.study, "deals": args.deals,
            "variants": STUDY_VARIANTS[args.study]}
    return df, meta


def replay(args) -> str:
    """``cardlab replay rami``: rounds turn by turn (or JSON lines with ``--json``), checked by the referee."""
    if getattr(args, "game_index", None) is not None:
        raise ValueError("game_index: rami replays rounds one by one; give --deal i or --deal a:b")
    from cardlab.sim.rami.simulate import replay as replay_round
    from cardlab.sim.rami.simulate import replay_json

    if args.deal is None:
        raise ValueError("deal: give --deal i (one round) or --deal a:b (rounds a to b-1)")
    rounds = args.deal  # a range: the CLI's shared --deal flag parses and checks it
    kw = rules(args)
    texts = []
    for deal in rounds:
        r = replay_round(deal=deal, **kw)
        texts.append(replay_json(r.record) if args.json else r.text)
    return "\n".join(texts) if args.json else "\n\n".join(texts)
