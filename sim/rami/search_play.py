"""The search policy in the facade: runs with ``search`` seats, and what ``replay`` shows of a search.

``Study.play`` and ``Study.play_games`` hand any table with a ``search`` seat to the search
kernels of ``search.py`` (rounds ``play_search_rounds_nb``, games ``play_search_games_nb``);
a table without one keeps the plain kernels. Both deal round ``i`` from ``(seed, i)``.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.rami.kernels import DECK_MAX, LOG_ROWS, LOG_W
from cardlab.sim.rami.rules import card_name
from cardlab.sim.rami.search import (DEFAULT_WORLDS, MEAN_ROWS, MEAN_W, PHASE_DRAW, ROLLOUT_NAMES,
                                     SHORTLIST, play_search_games_nb, play_search_rounds_nb)

__all__ = ["DEFAULT_WORLDS", "ROLLOUT_NAMES", "describe_searches", "search_records", "search_rounds", "search_games"]


def search_rounds(study, deals: np.ndarray, *, record: bool = False, policies=None, shortlist: int = SHORTLIST):
    """The search kernel on the round numbers ``deals``: ``(ints, seats, logs, log_rows, decks, means, mean_rows)``
    in the order ``Study.play`` expects (``ints``: dealer, turns, blocked, rami_sec; ``seats``: won, opened,
    hand_value, score). ``policies`` (kernel ids per seat) overrides the study's."""
    n = study.options.players
    count = len(deals)
    ints = [np.zeros(count, np.int64) for _ in range(4)]
    seats = [np.zeros((count, n), np.int64) for _ in range(4)]
    rows = count if record else 0
    logs = np.zeros((rows, LOG_ROWS, LOG_W), np.int64)
    log_rows = np.zeros(rows, np.int64)
    decks = np.zeros((rows, DECK_MAX), np.int64)
    means = np.zeros((rows, MEAN_ROWS, MEAN_W), np.float64)
    mean_rows = np.zeros(rows, np.int64)
    pols = study.policy_ids if policies is None else np.asarray(policies, np.int64)
    play_search_rounds_nb(study.seed, np.asarray(deals, np.int64), study.options.kernel_ints(), pols,
                          study.search_worlds, ROLLOUT_NAMES.index(study.search_rollout), shortlist, *ints, *seats,
                          logs, log_rows, decks, means, mean_rows)
    return ints, seats, logs, log_rows, decks, means, mean_rows


def search_games(study, first: int, count: int, max_rounds: int):
    """The search kernel on whole games: ``(rounds, ints, seats)`` as ``play_games_nb`` fills them."""
    n = study.options.players
    rows = count * max_rounds
    rounds = np.zeros(count, np.int64)
    ints = [np.zeros(rows, np.int64) for _ in range(4)]
    seats = [np.zeros((rows, n), np.int64) for _ in range(5)]
    play_search_games_nb(study.seed, first, count, study.options.kernel_ints(), study.policy_ids, study.search_worlds,
                         ROLLOUT_NAMES.index(study.search_rollout), SHORTLIST, max_rounds, rounds, *ints, *seats)
    return rounds, ints, seats


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
    if not records:
        return ""
    lines = []
    for r in records:
        ranked = sorted(r["candidates"].items(), key=lambda kv: -kv[1])
        played = chosen.get((r["turn"], r["phase"]))
        text = "  ".join(f"{name} {mean:+.2f}" + ("*" if name == played else "") for name, mean in ranked)
        lines.append(f"turn {r['turn'] + 1}, seat {r['seat']}, {r['phase']}: {text}")
    return ("\nsearched decisions (mean over the sampled worlds of the opponents' mean round score minus the "
            "searcher's, for each candidate; * = played):\n" + "\n".join(lines))
