"""The search policy in the Euchre-for-five facade: runs with ``search`` seats, and what replay shows.

``Study.play`` and ``Study.play_games`` hand any table with a ``search`` seat to
:func:`search_columns` and :func:`search_game_columns`, which call the search kernels of
``sim.euchre5.search`` (same dealing, same streams, same columns as the plain kernels; a record
adds ``search_means``: for every logged action, each searched candidate's mean edge, NaN
elsewhere). :func:`describe_searches` and :func:`search_records` turn those means into replay text
and JSON.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.cards import SUIT_SYMBOLS, card_name
from cardlab.sim.euchre5.rules import ACTION_KINDS, PLAYERS
from cardlab.sim.euchre5.search import ALONE_COL, PASS_COL, play_search_deals_nb, play_search_games_nb
from cardlab.sim.search_play import candidates_text, searched_text
from cardlab.sim.whole_games import game_slots

__all__ = ["describe_searches", "search_columns", "search_game_columns", "search_records"]


def _search_args(study) -> tuple:
    return int(study.search_worlds), study.rollout_id, int(study.racing)


def search_columns(study, first: int, count: int, *, record: bool = False, policies=None) -> dict:
    """``Study.play`` for a table with search seats (``policies``: kernel ids overriding the study's)."""
    from cardlab.sim.euchre5.interface import result_columns
    from cardlab.sim.euchre5.kernels import N_RES

    out, logs = np.empty((N_RES, count), np.int8), study.logs(count if record else 0, searched=True)
    study.call_kernel(play_search_deals_nb, study.seed, first, count, study.rules,
                      study.policy_ids if policies is None else policies, *_search_args(study), out, *logs,
                      *study.callbacks(searched=True), first=first, count=count, unit=study.game.unit)
    columns = {"deal": np.arange(first, first + count, dtype=np.int64), **result_columns(out)}
    return {**columns, **study.logs_columns(logs)} if record else columns


def search_game_columns(study, first: int, count: int, *, record: bool = False) -> dict:
    """``Study.play_games`` for a table with search seats: every hand of each game kept (no slot)."""
    from cardlab.sim.euchre5.kernels import N_RES

    m = study.options.max_hands
    slots, lengths = np.empty((count, m, N_RES), np.int8), np.empty(count, np.int64)
    logs = study.logs(count if record else 0, m, searched=True)
    study.call_kernel(play_search_games_nb, study.seed, first, count, study.rules, study.policy_ids,
                      *_search_args(study), slots, lengths, *logs, *study.callbacks(searched=True), first=first,
                      count=count, unit="game")
    keep, game, deal = game_slots(first, lengths, m)
    columns = {"game": game, "deal": deal, **study.game.row_columns(slots[keep])}
    return {**columns, **study.logs_columns(a[keep] for a in logs)} if record else columns


def _decisions(moves: np.ndarray, means: np.ndarray):
    """Each searched decision of a hand: (action number, seat, kind, {candidate: mean}, chosen)."""
    bids = 0  # bidding actions so far: the first five are round one
    for n, (seat, kind_id, value) in enumerate(moves.tolist()):
        if kind_id < 0:
            break
        kind = ACTION_KINDS[kind_id]
        round_two = kind in ("pass", "accept", "name") and bids >= PLAYERS
        if kind in ("pass", "accept", "name"):
            bids += 1
        row = means[n]
        cols = [int(c) for c in np.flatnonzero(~np.isnan(row))]
        if not cols:
            continue
        if round_two:
            names = {c: "pass" if c == PASS_COL else f"name {SUIT_SYMBOLS[c]}" for c in cols}
            chosen = "pass" if kind == "pass" else f"name {SUIT_SYMBOLS[value]}"
        elif kind in ("pass", "accept"):
            names = {c: "pass" if c == PASS_COL else "accept" for c in cols}
            chosen = kind
        elif kind in ("call", "alone"):
            names = {c: "alone" if c == ALONE_COL else f"call {card_name(c)}" for c in cols}
            chosen = "alone" if kind == "alone" else f"call {card_name(value)}"
        else:
            names = {c: card_name(c) for c in cols}
            chosen = card_name(value)
        yield n, int(seat), kind, {names[c]: float(row[c]) for c in cols}, chosen


def search_records(moves: np.ndarray, means: np.ndarray) -> list:
    """The searched decisions of one hand as JSON-ready dicts: ``action`` (its number in the hand's
    actions), ``seat``, ``decision`` (bid, call or play), ``candidates`` ({candidate: mean edge}) and
    ``chosen``."""
    out = []
    for n, seat, kind, cands, chosen in _decisions(moves, means):
        what = "play" if kind == "play" else "call" if kind in ("call", "alone") else "bid"
        out.append({"action": n, "seat": seat, "decision": what,
                    "candidates": {k: round(v, 4) for k, v in sorted(cands.items(), key=lambda kv: -kv[1])},
                    "chosen": chosen})
    return out


def describe_searches(moves: np.ndarray, means: np.ndarray) -> str:
    """The searched decisions of one hand as text: each candidate's mean edge (points of the seat
    minus the mean of the other four, per hand) over the sampled worlds, the chosen one starred.
    Empty when nothing was searched."""
    lines = []
    for n, seat, kind, cands, chosen in _decisions(moves, means):
        text = candidates_text(sorted(cands.items(), key=lambda kv: -kv[1]), chosen)
        what = "play" if kind == "play" else "call" if kind in ("call", "alone") else "bid"
        lines.append(f"action {n + 1}, seat {seat} ({what}): {text}")
    return searched_text("decisions (mean edge of the searcher for each candidate over the sampled worlds: its points "
                         "minus the other four seats' mean; * = chosen)", lines)
