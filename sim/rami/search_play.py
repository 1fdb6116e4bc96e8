"""The search policy in the facade: runs with ``search`` seats, and what ``replay`` shows of a search.

``Study.play`` and ``Study.play_games`` hand any table with a ``search`` seat to the search
kernels of ``search.py`` (rounds ``play_search_rounds_nb``, games ``play_search_games_nb``);
a table without one keeps the plain kernels. Both deal round ``i`` from ``(seed, i)``.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.rami.kernels import round_buffers
from cardlab.sim.rami.rules import card_name
from cardlab.sim.rami.search import (DEFAULT_WORLDS, MEAN_ROWS, MEAN_W, PHASE_DRAW, ROLLOUT_NAMES,
                                     SHORTLIST, play_search_games_nb, play_search_rounds_nb)
from cardlab.sim.search_play import candidates_text, searched_text

__all__ = ["DEFAULT_WORLDS", "ROLLOUT_NAMES", "describe_searches", "search_records", "search_rounds", "search_games"]


def search_rounds(study, deals: np.ndarray, *, record: bool = False, policies=None, shortlist: int = SHORTLIST):
    """The search kernel on the round numbers ``deals``: ``(ints, seats, logs, searches)`` as
    :func:`kernels.round_buffers` lays them out, ``searches`` the candidates' means and their row counts (empty
    unless ``record``). ``policies`` (kernel ids per seat) overrides the study's."""
    ints, seats, logs = round_buffers(len(deals), study.options.players, record=record)
    searches = search_buffers(len(logs[1]))
    pols = study.policy_ids if policies is None else np.asarray(policies, np.int64)
    deals = np.asarray(deals, np.int64)
    study.call_kernel(play_search_rounds_nb, study.seed, deals, study.rules, pols, study.search_worlds,
                      ROLLOUT_NAMES.index(study.search_rollout), shortlist, *ints, *seats, *logs, *searches,
                      study.user_callbacks(searched=True), first=deals, count=len(deals), unit="round")
    return ints, seats, logs, searches


def search_games(study, first: int, count: int, max_rounds: int, *, record: bool = False):
    """The search kernel on whole games: ``(rounds, ints, seats, logs, searches)`` as ``play_games_nb`` fills
    them (one row per game and round slot; ``logs`` and ``searches`` empty unless ``record``)."""
    ints, seats, logs = round_buffers(count * max_rounds, study.options.players, record=record, totals=True)
    searches = search_buffers(len(logs[1]))
    rounds = np.zeros(count, np.int64)
    study.call_kernel(play_search_games_nb, study.seed, first, count, study.rules, study.policy_ids,
                      study.search_worlds, ROLLOUT_NAMES.index(study.search_rollout), SHORTLIST, max_rounds, rounds,
                      *ints, *seats, *logs, *searches, study.user_callbacks(searched=True), first=first, count=count,
                      unit="game")
    return rounds, ints, seats, logs, searches


def search_buffers(rows: int) -> list:
    """Each recorded round's searched candidates (MEAN_ROWS x MEAN_W) and how many rows it filled."""
    return [np.zeros((rows, MEAN_ROWS, MEAN_W), np.float64), np.zeros(rows, np.int64)]


def search_records(means: np.ndarray) -> list[dict]:
    """A round's searched decisions (its ``search_means`` rows) as JSON-ready records, in play order."""
    out = []
    for row in means:
        t, seat, phase = int(row[0]), int(row[1]), int(row[2])
        if not out or (out[-1]["turn"], out[-1]["phase"]) != (t, "draw" if phase == PHASE_DRAW else "discard"):
            out.append({"turn": t, "seat": seat, "phase": "draw" if phase == PHASE_DRAW else "discard",
                        "candidates": {}})
        cand = int(row[3])
        name = ("stock", "discard pile")[cand] if phase == PHASE_DRAW else card_name(cand)
        out[-1]["candidates"][name] = round(float(row[4]), 3)
    return out


def describe_searches(records: list[dict], chosen: dict) -> str:
    """The searched decisions as text: each candidate's mean relative score, best first (* = played).

    ``chosen[(turn, phase)]`` is the move the round made (the candidate's name).
    """
    lines = [f"turn {r['turn'] + 1}, seat {r['seat']}, {r['phase']}: " + candidates_text(
        sorted(r["candidates"].items(), key=lambda kv: -kv[1]), chosen.get((r["turn"], r["phase"]))) for r in records]
    return searched_text("decisions (mean over the sampled worlds of the opponents' mean round score minus the "
                         "searcher's, for each candidate; * = played)", lines)
