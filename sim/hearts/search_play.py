"""The search policy in Hearts' runs: the search kernels' calls, and what ``replay`` shows of a search.

A run with a ``search`` (or ``oracle``) seat goes through :func:`~cardlab.sim.hearts.search.play_search_deals_nb`
(single deals, and the ladder's tables, whose seats differ by deal) or
:func:`~cardlab.sim.hearts.search.play_search_games_nb` (whole games) in place of the plain kernels; both deal as the
plain kernels deal and play the seats without search exactly as they do.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.cards import card_name
from cardlab.sim.hearts.rules import PLAYERS, TRICKS
from cardlab.sim.search_play import ranked, trick_searches_records, trick_searches_text

MOVES = PLAYERS * TRICKS  # the most cards of a deal (52; 51 with three players, 50 with five)


def search_raw(study, deals, *, record: bool = False, policies=None):
    """The search kernel on the deal numbers ``deals``: ``(out, hands, logs, means)``. ``policies``: kernel ids per seat
    (one row for every deal, or one row per deal), the study's by default; ``hands``, ``logs`` and ``means`` (deals x
    52 moves x 64 cards: each searched candidate's mean points, NaN elsewhere) have no rows unless ``record``."""
    from cardlab.sim.hearts.kernels import N_COLS
    from cardlab.sim.hearts.search import play_search_deals_nb

    deals = np.asarray(deals, np.int64)
    count = len(deals)
    seats = np.asarray(study.policy_ids if policies is None else policies, np.int64)
    o = study.options
    seats = np.ascontiguousarray(np.broadcast_to(seats, (count, o.players)))
    rows = count if record else 0
    out = np.zeros((count, N_COLS), np.int16)
    hands, logs = np.zeros((rows, o.players), np.uint64), np.zeros((rows, o.log_width), np.int8)
    means = np.full((rows, MOVES, 64), np.nan, np.float32)
    study.call_kernel(play_search_deals_nb, study.seed, deals, study.rules, seats, study.search_worlds,
                      study.rollout_id, out, hands, logs, means, study.user_callback(searched=True), first=deals,
                      count=count)
    return out, hands, logs, means


def search_games(study, first: int, count: int, *, record: bool = False) -> dict:
    """Columns of whole games ``first .. first+count-1`` with search seats (as ``HeartsStudy.play_games``; with
    ``record``, also each searched card's candidate means, ``search_means``)."""
    from cardlab.sim.hearts.interface import game_buffers, game_columns
    from cardlab.sim.hearts.search import play_search_games_nb

    m = study.options.max_deals
    means = np.full((count if record else 0, m, MOVES, 64), np.nan, np.float32)

    def kernel(out, totals, lengths, hands, logs):
        study.call_kernel(play_search_games_nb, study.seed, first, count, study.rules, study.policy_ids,
                          study.search_worlds, study.rollout_id, out, totals, lengths, hands, logs, means,
                          study.user_callback(searched=True), first=first, count=count, unit="game")

    out, totals, lengths, hands, logs = game_buffers(study, count, record, kernel)
    cols = game_columns(first, out, totals, lengths, hands, logs, record)
    if record:
        cols["search_means"] = means[np.arange(m)[None, :] < lengths[:, None]]
    return cols


def _searched(state, means: np.ndarray):
    """``(trick, seat, played, [(card, mean), ...] best first: fewest points)`` for every searched card of a finished
    deal."""
    for t, (_, cards, _) in enumerate(state.tricks):
        for k, (seat, played) in enumerate(cards):
            candidates = ranked(means[state.options.players * t + k], lowest_first=True)
            if candidates:
                yield t, seat, played, candidates


def describe_searches(state, means: np.ndarray) -> str:
    """The searched cards of one deal: each candidate's mean points for the searcher over its worlds, the played card
    starred."""
    return trick_searches_text(_searched(state, means), "cards (mean points for the searcher over the sampled worlds; "
                               "* = played)", card_name, lambda m: f"{m + 0.0:.2f}")


def search_records(state, means: np.ndarray) -> list:
    """The searched cards as JSON-ready records: trick (1-based), seat, played card, the candidates' mean points."""
    return trick_searches_records(_searched(state, means), card_name, lambda m: round(m, 3) + 0.0)
