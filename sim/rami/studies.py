"""Paired Rami studies: the same rounds played under several rule variants.

Round ``i`` of a study is dealt from the stream ``(seed, i)`` by seat ``i % n`` under every
variant, so the shuffle is the same (except with ``n_jokers=2``, a different deck) and
differences come from the rule alone, far less noisy than independent runs.

* ``threshold``: the opening threshold at 30, 40 and 51.
* ``options``: the defaults, then each other §9 option switched on its own.

One row per round: ``deal``, ``dealer`` and for each variant ``v``: ``turns_v``, ``blocked_v``,
``rami_sec_v``, ``never_opened_v`` (losers who never opened), ``score_v_i`` per seat.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.rami.simulate import Study, make_options

THRESHOLD_VARIANTS = {"t30": dict(open_threshold=30), "t40": dict(open_threshold=40), "t51": dict(open_threshold=51)}
OPTION_VARIANTS = {
    "default": {},
    "jokers2": dict(n_jokers=2, max_jokers_per_meld=1),
    "hand14": dict(hand_size=14),
    "no_pure_run": dict(open_needs_pure_run=False),
    "jokers_free": dict(max_jokers_per_meld=None),
    "first_round_take": dict(discard_take_first_round=True),
    "keep_discard": dict(discard_take_must_use=False),
    "single_card_take": dict(single_card_must_draw_stock=False),
    "joker_anywhere": dict(freed_joker_use="anywhere"),
    "out_by_discard": dict(go_out_requires_discard=True),
    "rami_sec_exempt": dict(rami_sec_exempt_from_opening=True),
    "recycle": dict(recycle_discards=True),
    "tie_next": dict(blocked_tie="next_in_turn"),
}
STUDY_VARIANTS = {"threshold": THRESHOLD_VARIANTS, "options": OPTION_VARIANTS}


def variant_study(kind: str, *, deals: int, seed: int = 0, policy="heuristic", options=None, threads=None,
                  first_deal: int = 0, chunk_size: int = 1 << 14, progress: bool = False, out=None,
                  **rules) -> pd.DataFrame | None:
    """Play each round under every variant of study ``kind`` ('threshold' or 'options'); one row per round.

    >>> df = variant_study("threshold", deals=50, seed=1, players=3)
    >>> sorted(c for c in df.columns if c.startswith("turns_"))
    ['turns_t30', 'turns_t40', 'turns_t51']
    """
    if kind not in STUDY_VARIANTS:
        raise ValueError(f"study: {kind!r} is not allowed; choose 'threshold' or 'options'")
    base = Study.build(options=options, policy=policy, seed=seed, **rules)
    variants = {}
    for name, change in STUDY_VARIANTS[kind].items():
        if kind == "options" and base.options.n_jokers == 2 and name == "jokers_free":
            continue
        o = make_options(base.options, **change)
        variants[name] = Study(o, base.policies, base.seed, base.search_worlds, base.search_rollout)
    n = base.options.players

    def play_chunk(first, count):
        cols = {}
        for name, study in variants.items():
            c = study.play(first, count)
            if not cols:
                cols = {"deal": c["deal"], "dealer": c["dealer"]}
            cols[f"turns_{name}"] = c["turns"]
            cols[f"blocked_{name}"] = c["blocked"]
            cols[f"rami_sec_{name}"] = c["rami_sec"]
            never = np.zeros(count, np.int8)
            for p in range(n):
                never += (~c[f"opened_{p}"] & ~c[f"won_{p}"]).astype(np.int8)
            cols[f"never_opened_{name}"] = never
            for p in range(n):
                cols[f"score_{name}_{p}"] = c[f"score_{p}"]
        return cols

    runner.set_threads(threads)
    meta = {**base.metadata(), "study": kind, "variants": {k: STUDY_VARIANTS[kind][k] for k in variants}}
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=meta)
