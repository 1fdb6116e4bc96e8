"""What ``replay`` shows of Rami's search: each searched decision's candidates and their means.

The search kernels (``search.py``: ``play_search_rounds_nb``, ``play_search_games_nb``) play any table with a
``search`` seat (:meth:`~cardlab.sim.rami.interface.RamiStudy.searched`); a recorded round keeps each searched
candidate's mean, one row each (``search_means``: turn, seat, phase, candidate, mean; ``search_rows`` of them).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.rami.rules import card_name
from cardlab.sim.rami.search import PHASE_DRAW
from cardlab.sim.search_play import candidates_text, searched_text

__all__ = ["describe_searches", "search_records"]


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


def describe_searches(records: list[dict], log) -> str:
    """The searched decisions as text: each candidate's mean relative score, best first (* = played: the move the
    round's event ``log`` made, :func:`chosen`)."""
    made = chosen(log)
    lines = [f"turn {r['turn'] + 1}, seat {r['seat']}, {r['phase']}: " + candidates_text(
        sorted(r["candidates"].items(), key=lambda kv: -kv[1]), made.get((r["turn"], r["phase"]))) for r in records]
    return searched_text("decisions (mean over the sampled worlds of the opponents' mean round score minus the "
                         "searcher's, for each candidate; * = played)", lines)


def chosen(log) -> dict:
    """Each turn's draw ('stock' or 'discard pile') and discard (card name), keyed by (turn, phase)."""
    from cardlab.sim.rami.kernels import EV_DISCARD, EV_DRAW, EV_TAKE

    out, turn = {}, 0
    for r in log:
        code = int(r[0])
        if code in (EV_DRAW, EV_TAKE):
            out[(turn, "draw")] = "stock" if code == EV_DRAW else "discard pile"
        elif code == EV_DISCARD:
            out[(turn, "discard")] = card_name(int(r[2]))
            turn += 1
    return out
