"""The search policy in the Minchiate study: the search kernels' calls, and what ``replay`` shows of a search.

A run with a ``search`` seat goes through ``search.play_search_deals_nb`` (single deals) or
``search.play_search_games_nb`` (whole games) in place of the plain kernels; both deal deal ``i``
from ``(seed, i)`` and play the seats without search exactly as the plain kernels do. The search's
settings are checked where every game's are (:meth:`cardlab.sim.game.Study.build`).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.minchiate.kernels import COL, LOG_PLAYS, LOG_WIDTH
from cardlab.sim.minchiate.rules import N_CARDS, card_name
from cardlab.sim.minchiate.search import N_MOVES, play_search_deals_nb, play_search_games_nb
from cardlab.sim.search_play import ranked, trick_searches_records, trick_searches_text

__all__ = ["describe_searches", "json_searches", "search_games", "search_raw"]


def search_raw(study, deals, *, record: bool = False, policies=None):
    """The search kernel on the deal numbers ``deals``: ``(out, logs, declared, means)``.

    ``policies`` (kernel ids per seat) overrides the study's; ``logs``, ``declared`` and ``means``
    (deals x 84 moves x 97 cards: each searched candidate's mean, NaN elsewhere) have no rows
    unless ``record``.
    """
    deals = np.asarray(deals, np.int64)
    count = len(deals)
    rows = count if record else 0
    out = np.zeros((count, COL.WIDTH), np.int32)
    logs = np.zeros((rows, LOG_WIDTH), np.int8)
    declared = np.zeros((rows, 4), np.int16)
    means = np.zeros((rows, N_MOVES, N_CARDS), np.float32)
    study.call_kernel(play_search_deals_nb, study.seed, deals, study.flags,
                      study.policy_ids if policies is None else policies, study.search_worlds, study.rollout_id,
                      int(study.racing), out, logs, declared, means, study.user_callback(searched=True), first=deals,
                      count=count)
    return out, logs, declared, means


def search_games(study, first: int, count: int) -> np.ndarray:
    """Kernel rows of whole games ``first .. first+count-1`` with search seats."""
    out = np.zeros((count, COL.WIDTH), np.int32)
    study.call_kernel(play_search_games_nb, study.seed, first, count, study.options.n_deals, study.flags,
                      study.policy_ids, study.search_worlds, study.rollout_id, int(study.racing), out,
                      study.user_callback(searched=True), first=first, count=count, unit="game")
    return out


def _searched(rec: dict, means: np.ndarray):
    """``(trick, seat, played, [(card, mean), ...] best first)`` for every searched move of a deal."""
    for move in range(means.shape[0]):
        candidates = ranked(means[move])
        if candidates:
            t, n = divmod(move, 4)
            seat, played = rec["tricks"][t][n]
            yield t, int(seat), int(played), candidates


def describe_searches(rec: dict, means: np.ndarray) -> str:
    """The searched decisions of one deal: each candidate card's mean final points difference for the
    searcher's side (its team's points minus the opponents' for the whole deal), the played card starred."""
    return trick_searches_text(_searched(rec, means), "decisions (mean final points difference of the searcher's side "
                               "over the sampled worlds; * = played)", card_name, "{:+.1f}".format)


def json_searches(rec: dict, means: np.ndarray) -> list:
    """The searched decisions as JSON-ready records: trick (1-based), seat, played card, candidate means."""
    return trick_searches_records(_searched(rec, means), card_name)


def moves_of(logs: np.ndarray) -> np.ndarray:
    """The 84 cards in play order of each recorded deal."""
    return logs[:, LOG_PLAYS:LOG_PLAYS + N_MOVES]
