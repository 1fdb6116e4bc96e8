"""The trump-choice strength study: the same hands played with every maker seat and every trump.

For each sampled deal (dealer ``i % 5``, stream (seed, i)) the bidding is skipped and each of
the five seats in turn makes each of the four suits: the upcard's suit in round one (with the
dealer's exchange), any other suit in round two. The call and the play follow the policies.
All twenty variants share the cards and the random stream, so differences between trumps are
paired and free of deal-to-deal noise. ``cardlab.analysis.euchre5`` turns the rows into the
maker's expected points and euchre rate by trump relative to the upcard, by bowers and trumps
held, by seat, and against the heuristic's bidding thresholds.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.euchre5.kernels import (N_RES, N_STUDY, RES_ALONE, RES_CALLED, RES_ROUND, RES_SCORE, RES_TRICKS,
                                         trump_study_nb)
from cardlab.sim.euchre5.policies import ACCEPT_AT, ALONE_AT, NAME_AT
from cardlab.sim.euchre5.rules import PLAYERS
from cardlab.sim.euchre5.simulate import Study

RELATIONS = ("upcard suit", "same colour", "other colour")
THRESHOLDS = {"accept": ACCEPT_AT, "name": NAME_AT, "alone": ALONE_AT}


def study_columns(study: Study, first: int, count: int) -> dict:
    """Rows of deals ``first .. first+count-1``: one per (deal, maker seat, trump)."""
    out = np.empty((count, PLAYERS, 4, N_STUDY), np.int8)
    if study.searching:  # search seats search the call and the play: sim.euchre5.search
        from cardlab.sim.euchre5.search import ROLLOUT_NAMES, search_trump_study_nb

        search_trump_study_nb(study.seed, first, count, study.rules, study.policy_ids, study.search_worlds,
                              ROLLOUT_NAMES.index(study.search_rollout), out)
    else:
        trump_study_nb(study.seed, first, count, study.rules, study.policy_ids, out)
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


def trump_study(*, deals: int, seed: int = 0, policy="heuristic", options=None, threads: int | None = None,
                chunk_size: int = 1 << 16, progress: bool = False, out=None, search_worlds=None, search_rollout=None,
                **rules) -> pd.DataFrame | None:
    """Play every deal with each seat as maker and each trump; one row per (deal, maker, trump).

    Columns: ``deal``, ``dealer``, ``maker``, ``seat`` (places after the dealer, 5 = the dealer),
    ``trump``, ``relation`` (0 upcard suit, 1 same colour, 2 other colour), ``round``,
    ``strength`` (the heuristic's bid strength for that seat and trump), ``bowers`` and
    ``trumps`` held as dealt, ``alone``, ``called``, ``maker_tricks``, ``maker_points`` and
    ``edge`` (maker points minus the mean of the other four seats). With ``policy`` naming
    ``search`` seats (``search_worlds``, ``search_rollout``), they search the call and the play.

    >>> df = trump_study(deals=50, seed=3)
    >>> len(df), sorted(df.relation.unique().tolist())
    (1000, [0, 1, 2])
    """
    study = Study.build(options=options, policy=policy, seed=seed, search_worlds=search_worlds,
                        search_rollout=search_rollout, **rules)
    runner.set_threads(threads)
    if study.searching:
        chunk_size = min(chunk_size, 256)
    return runner.run(partial(study_columns, study), deals=deals,
                      first_deal=0, chunk_size=chunk_size, progress=progress, out=out,
                      meta={**study.metadata(), "study": "trumps", "thresholds": THRESHOLDS})
