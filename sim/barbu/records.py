"""Barbu replays as machine-readable records (``cardlab replay barbu --json``; shape in ``sim.replay``).

A deal's record: ``deal``, ``contract``, ``declarer``, ``trump`` (``♣ ♦ ♥ ♠`` or null), ``hands`` as
dealt, ``actions`` and ``scores``: the record of the deal's step-API state
(:meth:`~cardlab.sim.barbu.referee.BarbuState.record`) once the referee has run the log through it.
Trick contracts play one card per action in play order, after (Trumps) the declarer's naming of
the trump suit, ``{"seat": s, "kind": "trump", "suit": "♥"}``; Domino adds ``"pass"`` (nothing
playable), ``"decline"`` (an Ace's extra turn declined, where allowed) and (fan_tan) first the
declarer's start rank, ``{"seat": s, "kind": "start", "rank": "7"}``. A deal of a whole game also
has ``game``, ``played`` (false for a negative deal nobody doubled under
``skip_undoubled_negative``), ``raw`` (the deal's points before doubling) and its doubling actions
first: ``{"seat": s, "kind": "double" | "redouble" | "late-redouble", "target": t}``; its
``scores`` are the settled ones.
"""
from __future__ import annotations

from cardlab.sim.barbu.doubling_referee import decode_log
from cardlab.sim.barbu.game_referee import played_state
from cardlab.sim.barbu.rules import BarbuOptions
from cardlab.sim.cards import cards_of
from cardlab.sim.replay import action, hand_names, suit_name

DOUBLE_KINDS = {1: "double", 2: "redouble", 3: "late-redouble"}


def double_actions(log) -> list:
    """A deal's doubling log as actions: who doubled (redoubled) whom, in order."""
    return [action(actor, DOUBLE_KINDS[kind], target=int(target)) for actor, target, kind in decode_log(log)]


def game_deal_record(options: BarbuOptions, game: int, number: int, deal: dict, played: bool) -> dict:
    """The record of deal ``number`` of whole game ``game`` (``deal`` as from ``game_referee.game_deals``)."""
    record = {"game": int(game), "deal": int(number), "contract": deal["contract"], "declarer": deal["declarer"],
              "trump": suit_name(deal["trump"]), "played": played,
              "hands": [hand_names(cards_of(h)) for h in deal["hands"]],
              "actions": double_actions(deal["doubling"]) if options.double else []}
    if played:
        record["actions"] += played_state(options, deal["contract"], deal["declarer"], deal["hands"], deal["moves"],
                                          deal["trump"]).actions()
    record.update(raw=list(deal["raw"]), scores=list(deal["score"]))
    return record
