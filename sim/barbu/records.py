"""Barbu replays as machine-readable records (``cardlab replay barbu --json``; shape in ``sim.replay``).

A deal's record: ``deal``, ``contract``, ``declarer``, ``trump`` (``♣ ♦ ♥ ♠`` or null), ``hands`` as
dealt, ``actions`` and ``scores``. Trick contracts play one card per action in play order; Domino
adds ``"pass"`` (nothing playable) and ``"decline"`` (an Ace's extra turn declined, where allowed).
A deal of a whole game also has ``game``, ``played`` (false for a negative deal nobody doubled under
``skip_undoubled_negative``), ``raw`` (the deal's points before doubling) and its doubling actions
first: ``{"seat": s, "kind": "double" | "redouble" | "late-redouble", "target": t}``; its
``scores`` are the settled ones.
"""
from __future__ import annotations

from cardlab.sim.barbu.doubling_referee import decode_log
from cardlab.sim.barbu.domino_referee import DECLINE, PASS, replay_domino
from cardlab.sim.barbu.referee import check_deal
from cardlab.sim.barbu.rules import BarbuOptions
from cardlab.sim.cards import card_name, cards_of
from cardlab.sim.replay import action, hand_names, suit_name

DOUBLE_KINDS = {1: "double", 2: "redouble", 3: "late-redouble"}


def play_actions(options: BarbuOptions, contract: str, declarer: int, hands, moves, trump: int = -1) -> list:
    """The play of one deal as actions, read from its move log by the referees."""
    if contract == "domino":
        _, _, events, _ = replay_domino(options, declarer, hands, moves)
        kinds = {PASS: "pass", DECLINE: "decline"}
        return [action(seat, kinds[move]) if move in kinds else action(seat, "play", card=card_name(move))
                for seat, move, _ in events]
    verdict = check_deal(options, contract, declarer, hands, moves, trump=trump if trump >= 0 else None)
    return [action(seat, "play", card=card_name(c)) for trick in verdict.tricks for seat, c in trick.cards]


def double_actions(log) -> list:
    """A deal's doubling log as actions: who doubled (redoubled) whom, in order."""
    return [action(actor, DOUBLE_KINDS[kind], target=int(target)) for actor, target, kind in decode_log(log)]


def deal_record(options: BarbuOptions, deal: int, contract: str, declarer: int, trump: int, hands, moves,
                scores) -> dict:
    """The record of one deal (see the module docstring)."""
    return {
        "deal": int(deal),
        "contract": contract,
        "declarer": int(declarer),
        "trump": suit_name(int(trump)),
        "hands": [hand_names(cards_of(int(h))) for h in hands],
        "actions": play_actions(options, contract, declarer, hands, moves, trump),
        "scores": [int(s) for s in scores],
    }


def game_deal_record(options: BarbuOptions, game: int, number: int, deal: dict, played: bool) -> dict:
    """The record of deal ``number`` of whole game ``game`` (``deal`` as from ``game_referee.game_deals``)."""
    record = {"game": int(game), "deal": int(number), "contract": deal["contract"], "declarer": deal["declarer"],
              "trump": suit_name(deal["trump"]), "played": played,
              "hands": [hand_names(cards_of(h)) for h in deal["hands"]],
              "actions": double_actions(deal["doubling"]) if options.double else []}
    if played:
        record["actions"] += play_actions(options, deal["contract"], deal["declarer"], deal["hands"], deal["moves"],
                                          deal["trump"])
    record.update(raw=list(deal["raw"]), scores=list(deal["score"]))
    return record
