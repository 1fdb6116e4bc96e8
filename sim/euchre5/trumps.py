"""Euchre for five's own study: every hand played with each seat as maker and each trump suit, the bidding skipped
(paired on the same cards; :func:`trump_study`).

>>> from cardlab.sim.euchre5.interface import EUCHRE5
>>> len(trump_study(EUCHRE5, deals=50, seed=3))
1000
"""
from __future__ import annotations

from functools import partial

import numpy as np

from cardlab.sim import runner
from cardlab.sim.euchre5.rules import PLAYERS


def study_columns(study, first: int, count: int) -> dict:
    """Rows of deals ``first .. first+count-1``: one per (deal, maker seat, trump)."""
    from cardlab.sim.euchre5.kernels import (N_RES, N_STUDY, RES_ALONE, RES_CALLED, RES_ROUND, RES_SCORE, RES_TRICKS,
                                             trump_study_nb)
    from cardlab.sim.euchre5.search import search_trump_study_nb

    out = np.empty((count, PLAYERS, 4, N_STUDY), np.int8)
    if study.searching:  # search seats search the call and the play; a fault row per (deal, maker, trump)
        rows = np.repeat(np.arange(first, first + count), PLAYERS * 4)
        study.call_kernel(search_trump_study_nb, study.seed, first, count, study.rules, study.policy_ids,
                          *study.racing_search_args, study.inference_eps(study.policy_ids), out,
                          study.user_callback(searched=True), first=rows, count=len(rows), unit=study.game.unit)
    else:
        study.call_kernel(trump_study_nb, study.seed, first, count, study.rules, study.policy_ids, out,
                          study.user_callback(), first=first, count=count, unit=study.game.unit)
    rows = out.reshape(count * PLAYERS * 4, N_STUDY)
    deal = np.repeat(np.arange(first, first + count, dtype=np.int64), PLAYERS * 4)
    dealer = (deal % PLAYERS).astype(np.int8)
    maker = np.tile(np.repeat(np.arange(PLAYERS, dtype=np.int8), 4), count)
    trump = np.tile(np.arange(4, dtype=np.int8), count * PLAYERS)
    scores = rows[:, RES_SCORE:RES_SCORE + PLAYERS].astype(np.int16)
    maker_points = scores[np.arange(len(rows)), maker]
    others = (scores.sum(axis=1) - maker_points) / (PLAYERS - 1)
    round_ = rows[:, RES_ROUND]
    up = np.repeat(trump.reshape(count, -1)[round_.reshape(count, -1) == 1].reshape(count, -1)[:, 0], PLAYERS * 4)
    return {
        "deal": deal, "dealer": dealer, "maker": maker,
        "seat": ((maker - dealer + PLAYERS - 1) % PLAYERS + 1).astype(np.int8),  # places after the dealer; 5 = dealer
        "trump": trump, "relation": np.where(trump == up, 0, np.where(trump == 3 - up, 1, 2)).astype(np.int8),
        "round": round_,
        "strength": rows[:, N_RES], "bowers": rows[:, N_RES + 1], "trumps": rows[:, N_RES + 2],
        "alone": rows[:, RES_ALONE], "called": rows[:, RES_CALLED], "maker_tricks": rows[:, RES_TRICKS],
        "maker_points": maker_points.astype(np.int8), "edge": (maker_points - others).astype(np.float32),
    }


def trump_metadata(game, **keywords) -> dict:
    from cardlab.sim.euchre5.policies import THRESHOLDS

    return {**game.build("deals", study_name="trumps", **keywords).metadata(), "study": "trumps",
            "thresholds": THRESHOLDS}


def trump_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int = 1 << 16,
                progress: bool = False, out=None, **keywords):
    """Every deal played with each seat as maker and each trump, the bidding skipped (the upcard's suit in
    round one, with the dealer's exchange; any other suit in round two): one row per (deal, maker, trump),
    ``deal``, ``dealer``, ``maker``, ``seat`` (places after the dealer, 5 = the dealer), ``trump``,
    ``relation`` (0 upcard suit, 1 same colour, 2 other colour), ``round``, ``strength`` (the heuristic's
    bid strength), ``bowers`` and ``trumps`` as dealt, ``alone``, ``called``, ``maker_tricks``,
    ``maker_points``, ``edge`` (maker points minus the others' mean). Search seats search call and play."""
    study = game.build("deals", study_name="trumps", **keywords)
    return runner.run_study(partial(study_columns, study), trump_metadata(game, **keywords), deals=deals,
                            threads=threads, first_deal=first_deal,
                            chunk_size=min(chunk_size, 256) if study.searching else chunk_size, progress=progress,
                            out=out)
