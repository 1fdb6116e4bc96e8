"""Minchiate replays (``cardlab replay minchiate``, ``--json``): a deal replayed alone, its kernel log checked move by
move by the referee, as text and as a JSON record.

The record and the text are the referee's (:func:`~cardlab.sim.minchiate.referee.json_record`,
:func:`~cardlab.sim.minchiate.referee.describe`). With a search seat the replay also shows the searched cards
(``searched`` in the record): each one's candidates ranked by the mean final points difference of the searcher's side
over the sampled worlds (the search kernels' calls are :class:`~cardlab.sim.minchiate.interface.MinchiateStudy`'s:
``searched`` and ``play_games``).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.minchiate.referee import check_agreement, describe, json_record, referee_deal
from cardlab.sim.minchiate.rules import card_name
from cardlab.sim.search_play import TrickSearches, search_parts

#: What ``replay`` shows of a deal's searched cards (their tricks: the referee record's ``tricks``).
SEARCHES = TrickSearches("decisions (mean final points difference of the searcher's side over the sampled worlds; "
                         "* = played)", card_name, "{:+.1f}".format)


def check_record(study, cols: dict, j: int) -> tuple[dict, dict]:
    """The referee's record (card ids) of recorded deal ``j`` of ``cols`` (``play(record=True)``), its kernel log
    replayed move by move, and the deal's row of ``cols``, after checking that they agree."""
    from cardlab.sim.minchiate.kernels import LOG_CUTTER_DISCARDS, LOG_DEALER_DISCARDS, LOG_PERM, LOG_PLAYS

    row = {k: v[j] for k, v in cols.items()}
    deal, log = int(row["deal"]), row["logs"].astype(np.int64)
    rec = referee_deal(study.options, deal, log[LOG_PERM:LOG_PERM + 97], log[LOG_CUTTER_DISCARDS:LOG_DEALER_DISCARDS],
                       log[LOG_DEALER_DISCARDS:LOG_PLAYS], row["declared"], log[LOG_PLAYS:LOG_PLAYS + 84])
    check_agreement(rec, row, deal)
    return rec, row


def replay_deal(study, deal: int) -> tuple[str, dict]:
    """Deal ``deal`` of ``study`` replayed alone and checked by the referee: its text and JSON record (with the
    searched decisions, ``searched``, from the logged means when a seat searches)."""
    cols = study.play(deal, 1, record=True)
    rec, _ = check_record(study, cols, 0)
    text, searched = search_parts(cols, 0, SEARCHES.text, SEARCHES.records, rec["tricks"], key="searched")
    return describe(rec) + text, {**json_record(rec), **searched}
