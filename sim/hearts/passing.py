"""Hearts' passing study: which three cards to pass, every way of choosing them played on the same deals (paired).

On deal ``i`` seat ``i % 4`` (every seat equally often) passes by each rule of :data:`PASS_RULES` in turn, the
other seats passing as their policies do, and every seat then plays the deal by its policy (search seats search);
the deal passes left, right or across as ``(i // 4) % 3`` is 0, 1 or 2 under ``pass_direction="cycle"`` (a deal
without passing has nothing to study), or in the fixed direction. With ``n`` players (three or five), seat ``i % n``
passes, in the ``(i // n) % (n - 1)``-th direction of their rotation without its ``none``. The rules (``kernels.pass_choice_nb``):

* ``heuristic``: the heuristic's pass, the Q♠, then the A♠ and K♠, then the highest cards (a heart first);
* ``highest``: the three highest cards (the higher suit first among equal ranks);
* ``lowest``: the three lowest cards;
* ``shortest``: the highest card of the shortest suit, three times (towards a void);
* ``random``: three cards at random (drawn from the deal's stream).

One row per deal: ``deal``, ``pass_direction``, ``seat`` and, per rule, the seat's ``points_<rule>``, whether it
took the Q♠ (``queen_<rule>``) and whether it shot the moon (``moon_<rule>``).
"""
from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit, prange

from cardlab.sim import runner
from cardlab.sim.hearts.kernels import (C_JACK, C_MOON, C_POINTS, C_QUEEN, N_CARDS_ROWS, N_COLS, N_ST, deal_nb,
                                        pass_nb, play_out_nb, score_nb, start_nb)
from cardlab.sim.hearts.rules import (CYCLES, DECK, MAX_PLAYERS, PASS_RULES, R_CYCLE, R_FIXED_PASS, R_PLAYERS,
                                      TABLE_SIZES, fixed_offset)
from cardlab.sim.hearts.search import FIRST_DECISION, play_searched_nb, searches_nb
from cardlab.sim.policy import NO_STOP
from cardlab.sim.rng import deal_state

#: Row ``n - 3``: the directions ``n`` players pass in, their rotation without ``none`` (four: left, right, across).
STUDY_CYCLES = np.array([[d for d in CYCLES[n] if d != 0] + [0] * (MAX_PLAYERS - n) for n in TABLE_SIZES], np.int64)
N_DECK = len(DECK)


@njit(cache=True, error_model="numpy", parallel=True)
def passing_study_nb(seed, first, count, rules, policies, worlds, rollout, out, card_fn, faults, eps):
    """Deals ``first .. first+count-1`` of the passing study: ``out[j, r]`` the row (``kernels.C_*``) of deal ``j``
    with its studied seat passing by rule ``r`` (module docstring); ``eps`` each search seat's inference (0: none)."""
    n_rules = out.shape[1]
    n = rules[R_PLAYERS]
    searchers = 0
    for p in range(n):
        searchers += searches_nb(policies[p])
    for j in prange(count):
        i = first + j
        seat = i % n
        offset = STUDY_CYCLES[n - 3, (i // n) % (n - 1)] if rules[R_CYCLE] else rules[R_FIXED_PASS]
        cards = np.zeros(N_CARDS_ROWS, np.uint64)
        st = np.zeros(N_ST, np.int64)
        dealt = np.zeros(n, np.uint64)
        pass_rules = np.full(n, -1, np.int64)
        no_log = np.zeros(0, np.int8)
        no_means = np.zeros((0, 64), np.float32)
        scratch = np.empty(N_DECK, np.int8)
        for r in range(n_rules):
            stream = deal_nb(rules, deal_state(np.uint64(seed), np.uint64(i)), scratch, cards)
            dealt[:] = cards[:n]
            pass_rules[seat] = r
            stream = pass_nb(cards, n, offset, policies, stream, no_log, pass_rules)
            start_nb(rules, cards, st)
            row = out[j, r]
            row[C_QUEEN] = -1
            row[C_JACK] = -1
            if searchers > 0:
                passed = np.zeros(n, np.uint64)
                for p in range(n):
                    passed[p] = dealt[p] & ~cards[p]
                play_searched_nb(seed, i, FIRST_DECISION, rules, policies, cards, st, passed, offset, stream, worlds,
                                 rollout, no_log, no_means, card_fn, faults[j], NO_STOP, eps)
            else:
                play_out_nb(rules, policies, cards, st, stream, no_log, card_fn, faults[j])
            score_nb(rules, cards, st, row)


def study_columns(study, first: int, count: int) -> dict:
    """The passing study's rows of deals ``first .. first+count-1`` (module docstring)."""

    out = np.zeros((count, len(PASS_RULES), N_COLS), np.int16)
    faults = study.faults(count)
    passing_study_nb(study.seed, first, count, study.rules, study.policy_ids, study.search_worlds or 1,
                     study.rollout_id if study.searching else 1, out, study.user_callback(), faults,
                     study.inference_eps(study.policy_ids))
    study.check_faults(faults, first)
    deal = np.arange(first, first + count, dtype=np.int64)
    o = study.options
    n = o.players
    seat = (deal % n).astype(np.int8)
    offset = STUDY_CYCLES[n - 3][(deal // n) % (n - 1)] if o.pass_direction == "cycle" else \
        np.full(count, fixed_offset(o.pass_direction, n))
    cols = {"deal": deal, "pass_direction": offset.astype(np.int8), "seat": seat}
    rows = np.arange(count)
    for r, name in enumerate(PASS_RULES):
        cols[f"points_{name}"] = out[rows, r, C_POINTS + seat].astype(np.int8)
        cols[f"queen_{name}"] = (out[rows, r, C_QUEEN] == seat).astype(np.int8)
        cols[f"moon_{name}"] = (out[rows, r, C_MOON] == seat).astype(np.int8)
    return cols


def _study(game, keywords: dict):
    study = game.build("deals", study_name="passing", **keywords)
    if not study.options.pass_cards:
        raise ValueError("pass_cards: False leaves nothing to study; the passing study needs the pass (drop "
                         "--no-pass-cards)")
    return study


def passing_metadata(game, **keywords) -> dict:
    return {**_study(game, keywords).metadata(), "study": "passing", "pass_rules": list(PASS_RULES)}


def passing_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                  progress: bool = False, out=None, **keywords):
    """Play the passing study on ``deals`` deals of Hearts (module docstring); one row per deal (or written to
    ``out``). Keywords: ``seed``, ``policy`` (the seats' play; default heuristic), rule options, the search's
    settings."""
    study = _study(game, keywords)
    runner.set_threads(threads)
    chunk = chunk_size or (256 if study.searching else 1 << 16)
    return runner.run(partial(study_columns, study), deals=deals, first_deal=first_deal, chunk_size=chunk,
                      progress=progress, out=out, meta=passing_metadata(game, **keywords))
