"""What Euchre for five's ``replay`` shows of a search: each searched decision's candidates and their mean edges,
as text and as the records' ``searches``.

A recorded hand's ``search_means`` (the search kernels' log, :class:`~cardlab.sim.euchre5.interface.Euchre5Study`)
hold, for every logged action, each searched candidate's mean edge, NaN elsewhere. :func:`describe_searches` and
:func:`search_records` turn them into replay text and JSON; :func:`hand_searches` gives both for a recorded hand.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.cards import SUIT_SYMBOLS, card_name
from cardlab.sim.euchre5.rules import ACTION_KINDS, PLAYERS
from cardlab.sim.euchre5.search import ALONE_COL, PASS_COL
from cardlab.sim.search_play import candidates_text, ranked, search_parts, searched_text

__all__ = ["describe_searches", "hand_searches", "search_records"]


def _decisions(moves: np.ndarray, means: np.ndarray):
    """Each searched decision of a hand: (action number, seat, decision (bid, call or play), its candidates best first
    as ``(name, mean)`` (:func:`~cardlab.sim.search_play.ranked`), the chosen one's name)."""
    bids = 0  # bidding actions so far: the first five are round one
    for n, (seat, kind_id, value) in enumerate(moves.tolist()):
        if kind_id < 0:
            break
        kind = ACTION_KINDS[kind_id]
        round_two = kind in ("pass", "accept", "name") and bids >= PLAYERS
        bids += kind in ("pass", "accept", "name")
        if not (candidates := ranked(means[n])):
            continue
        if round_two:
            name = lambda c: "pass" if c == PASS_COL else f"name {SUIT_SYMBOLS[c]}"  # noqa: E731
        elif kind in ("pass", "accept"):
            name = lambda c: "pass" if c == PASS_COL else "accept"  # noqa: E731
        elif kind in ("call", "alone"):
            name = lambda c: "alone" if c == ALONE_COL else f"call {card_name(c)}"  # noqa: E731
        else:
            name = card_name
        chosen = kind if kind in ("pass", "accept", "alone") else name(value)
        what = "play" if kind == "play" else "call" if kind in ("call", "alone") else "bid"
        yield n, int(seat), what, [(name(c), m) for c, m in candidates], chosen


def search_records(moves: np.ndarray, means: np.ndarray) -> list:
    """The searched decisions of one hand as JSON-ready dicts: ``action`` (its number in the hand's
    actions), ``seat``, ``decision`` (bid, call or play), ``candidates`` ({candidate: mean edge}) and
    ``chosen``."""
    return [{"action": n, "seat": seat, "decision": what, "candidates": {k: round(v, 4) for k, v in cands},
             "chosen": chosen} for n, seat, what, cands, chosen in _decisions(moves, means)]


def describe_searches(moves: np.ndarray, means: np.ndarray) -> str:
    """The searched decisions of one hand as text: each candidate's mean edge (points of the seat
    minus the mean of the other four, per hand) over the sampled worlds, the chosen one starred.
    Empty when nothing was searched."""
    lines = [f"action {n + 1}, seat {seat} ({what}): {candidates_text(cands, chosen)}"
             for n, seat, what, cands, chosen in _decisions(moves, means)]
    return searched_text("decisions (mean edge of the searcher for each candidate over the sampled worlds: its points "
                         "minus the other four seats' mean; * = chosen)", lines)


def hand_searches(cols: dict, j: int) -> tuple[str, dict]:
    """Recorded hand ``j``'s searched decisions: their text and the record's ``searches`` (nothing without search
    seats, :func:`~cardlab.sim.search_play.search_parts`)."""
    return search_parts(cols, j, describe_searches, search_records, cols["moves"][j])
