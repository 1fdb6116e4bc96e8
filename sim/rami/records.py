"""Rami's replays (``cardlab replay rami``): a round, or a whole game round by round, replayed alone through the
referee, as text and as records (``--json``; the shape is ``record.schema.json``'s, field by field in
``docs/records.md``), with what a search seat weighed.

A recorded round is checked move by move by :func:`~cardlab.sim.rami.referee.play_log` and its result against the
kernel's row (:meth:`~cardlab.sim.game.Game.check_state`); a whole game's running totals and its end are checked
by the rules too. The search kernels (``search.py``: ``play_search_rounds_nb``, ``play_search_games_nb``) play
any table with a ``search`` seat (:meth:`~cardlab.sim.rami.interface.RamiStudy.searched`); a recorded round keeps
each searched candidate's mean, one row each (``search_means``: turn, seat, phase, candidate, mean;
``search_rows`` of them), which the replay shows ranked and records under ``searches``.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.rami.referee import RefereeError, dealt_state, play_log
from cardlab.sim.rami.rules import card_name
from cardlab.sim.search_play import candidates_text, searched_text

__all__ = ["checked_round", "describe_searches", "replay_game", "replay_round", "search_records"]


def replay_round(study, deal: int) -> tuple[str, dict]:
    """Round ``deal`` replayed alone and checked by the referee: its text and JSON record."""
    return checked_round(study, study.play(deal, 1, record=True), 0, f"round {deal}",
                         {"game": "rami", "seed": study.seed, "deal": deal})


def replay_game(study, game: int) -> tuple[str, list[dict]]:
    """Whole game ``game`` replayed round by round, each round checked by the referee, and the running totals
    and the end of the game checked by the rules (a game ends once a seat reaches the target with one seat
    alone lowest): its text and one record per round (``game``, ``round``, the round's keys, ``totals``)."""
    from cardlab.sim.rami.kernels import game_over_nb

    cols = study.play_games(game, 1, record=True)
    n, texts, records = study.options.players, [], []
    totals = np.zeros(n, np.int64)
    for r in range(len(cols["round"])):
        text, record = checked_round(study, cols, r, f"game {game}, round {r}", {"game": game, "round": r})
        totals += record["result"]["score"]
        if [int(cols[f"total_{p}"][r]) for p in range(n)] != totals.tolist():
            raise RefereeError(f"game {game}, round {r}: the kernel's totals differ from the rounds' scores")
        over = bool(game_over_nb(totals, study.options.target))
        if over != (r == len(cols["round"]) - 1):
            raise RefereeError(f"game {game}, round {r}: the game {'ends' if over else 'goes on'} by the rules")
        record["totals"] = totals.tolist()
        texts.append(f"{text}\ntotals after round {r}: {', '.join(str(t) for t in totals)}")
        records.append(record)
    head = f"game {game}: {len(records)} rounds, {n} players, final totals {', '.join(str(t) for t in totals)}"
    return "\n\n".join([head] + texts), records


def checked_round(study, cols: dict, i: int, title: str, keys: dict) -> tuple[str, dict]:
    """Recorded round ``i`` of ``cols`` played through the state by the referee (every move checked, then the
    result against the kernel's, :meth:`~cardlab.sim.game.Game.check_state`): its text headed ``title`` and the
    state's record, which begins with ``keys``."""
    log = cols["logs"][i][: cols["log_rows"][i]]
    dealer = int(cols["dealer"][i])
    state = dealt_state(study.options, dealer, cols["decks"][i], log, study=study, deal=keys.get("deal", 0), keys=keys)
    lines = play_log(state, log, describe=True)
    study.game.check_state(state, cols, i, title, RefereeError)
    head = f"{title}: dealer seat {dealer}, {study.options.players} players"
    record = state.record()
    text = "\n".join([head] + lines)
    if "search_means" in cols:  # searched decisions: each candidate's mean (the record's search settings: metadata)
        record["searches"] = search_records(cols["search_means"][i][: cols["search_rows"][i]])
        text += describe_searches(record["searches"], log)
    return text, record


# ---------------------------------------------------------------- what a replay shows of a search


def search_records(means: np.ndarray) -> list[dict]:
    """A round's searched decisions (its ``search_means`` rows) as JSON-ready records, in play order."""
    from cardlab.sim.rami.search import PHASE_DRAW

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
