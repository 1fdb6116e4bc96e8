"""The search policy in the Minchiate study: the search kernels' calls, and what ``replay`` shows of a search.

A run with a ``search`` seat goes through ``search.play_search_deals_nb`` (single deals) or
``search.play_search_games_nb`` (whole games) in place of the plain kernels; both deal deal ``i``
from ``(seed, i)`` and play the seats without search exactly as the plain kernels do. The search's
settings are checked where every game's are (:meth:`cardlab.sim.game.Study.build`).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.minchiate.kernels import COL
from cardlab.sim.minchiate.rules import card_name
from cardlab.sim.minchiate.search import play_search_deals_nb, play_search_games_nb
from cardlab.sim.search_play import TrickSearches

__all__ = ["SEARCHES", "search_games", "search_raw"]


def search_raw(study, deals, *, record: bool = False, policies=None):
    """The search kernel on the deal numbers ``deals``: ``(out, logs, declared, means)``.

    ``policies`` (kernel ids per seat) overrides the study's; ``logs``, ``declared`` and ``means``
    (deals x 84 moves x 97 cards: each searched candidate's mean, NaN elsewhere) have no rows
    unless ``record``.
    """
    deals = np.asarray(deals, np.int64)
    count = len(deals)
    out, logs = np.zeros((count, COL.WIDTH), np.int32), study.logs(count if record else 0, searched=True)
    study.call_kernel(play_search_deals_nb, study.seed, deals, study.flags,
                      study.policy_ids if policies is None else policies, study.search_worlds, study.rollout_id,
                      int(study.racing), out, *logs, study.user_callback(searched=True), first=deals, count=count)
    return (out, *logs)


def search_games(study, first: int, count: int) -> np.ndarray:
    """Kernel rows of whole games ``first .. first+count-1`` with search seats."""
    out = np.zeros((count, COL.WIDTH), np.int32)
    study.call_kernel(play_search_games_nb, study.seed, first, count, study.options.n_deals, study.flags,
                      study.policy_ids, study.search_worlds, study.rollout_id, int(study.racing), out,
                      study.user_callback(searched=True), first=first, count=count, unit="game")
    return out


#: What ``replay`` shows of a deal's searched cards (their tricks: the referee record's ``tricks``).
SEARCHES = TrickSearches("decisions (mean final points difference of the searcher's side over the sampled worlds; "
                         "* = played)", card_name, "{:+.1f}".format)
