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


# ---------------------------------------------------------------- checking a saved whole game (cardlab replay --record)


def checking_game(study, index: int):
    """Whole game ``index`` of ``study`` as a saved record of it is checked on: with ``double``, every seat's doubling
    choices are asked (doubling policy ``own``), so that the record answers them whatever policy made its doubles."""
    from dataclasses import replace

    from cardlab.sim.whole_games import WholeGame

    if study.options.double:
        study = replace(study, double_policies=("own",) * study.options.players)
    return WholeGame(study, index)


def apply_deal_actions(state, actions: list, where: str) -> None:
    """Apply one deal's record ``actions`` to a whole game of :func:`checking_game`. Its doubles come first in a
    record: each doubling choice the round asks a seat is answered yes where the record has that double, and no
    otherwise (the doubles an obligation forces are made without a question); the other actions are moves, each
    checked for its seat and its legality. The doubles the round made must be the record's, in order."""
    from cardlab.sim.barbu.referee import double_actions_now
    from cardlab.sim.play import apply_action

    kinds = set(DOUBLE_KINDS.values())
    doubles = [entry for entry in actions if entry.get("kind") in kinds]
    wanted = {(entry.get("seat"), entry["kind"], entry.get("target")) for entry in doubles}
    deal = state.deal

    def answer():
        while not state.is_over and state.deal == deal and state.current.asking is not None:
            yes, no = double_actions_now(state.current)
            state.apply(yes if (state.current_player, yes.entry["kind"], yes.entry["target"]) in wanted else no)

    for k, entry in enumerate(actions):
        if entry.get("kind") not in kinds:
            answer()
            apply_action(state, k, entry, where)
    answer()
    if state.deal > deal:
        made = [entry for entry in state.finished[-1].record()["actions"] if entry.get("kind") in kinds]
        if made != doubles:
            raise ValueError(f"record: {where}its doubles are not the round's: it gives {_doubles_text(doubles)}, "
                             f"the rules and its choices make {_doubles_text(made)}")


def _doubles_text(entries: list) -> str:
    return ", ".join(f"seat {e.get('seat')} {e['kind']} seat {e.get('target')}" for e in entries) or "none"
