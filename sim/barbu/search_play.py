"""What ``replay`` shows of Barbu's searches: each searched decision's candidates (trick contracts, Domino, the
Trumps declarer's suit and a Geronimo declarer's contract) with their mean scores for the searcher. The search
kernels' calls are the studies' (:meth:`~cardlab.sim.barbu.interface.BarbuStudy.searched`).
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.barbu.search_domino import DECLINE_COLUMN
from cardlab.sim.cards import card_name
from cardlab.sim.search_play import TrickSearches, candidates_text, ranked, searched_text


def describe_searches(options, contract: str, declarer: int, hands, moves, trump: int, means: np.ndarray,
                      trump_means: np.ndarray) -> str:
    """The searched decisions of one deal: each candidate card's mean final score for the searcher.

    ``means`` is the deal's ``search_means`` (log positions x 64) and ``trump_means`` its
    ``search_trump_means``; the referee gives who led each trick (who moved, in Domino). Empty
    when nothing was searched.
    """
    from cardlab.sim.barbu.domino_referee import replay_domino
    from cardlab.sim.barbu.referee import check_deal

    if contract == "domino":
        events = replay_domino(options, declarer, hands, moves)[2]
        lines = []
        for move in range(1, min(means.shape[0], len(events) + 1)):
            candidates = ranked(means[move])
            if candidates:
                played = int(moves[move])  # below -2: an Ace's extra turn declined, the decline column
                text = candidates_text(candidates, DECLINE_COLUMN if played < -2 else played,
                                       lambda c: "decline" if c == DECLINE_COLUMN else card_name(c))
                lines.append(f"turn {move}, seat {events[move - 1][0]}: {text}")
        return searched_text("decisions (mean final score of the searcher for each candidate move over the sampled "
                             "worlds; * = played)", lines)
    tricks = check_deal(options, contract, declarer, hands, moves, trump=trump if trump >= 0 else None).tricks
    lines = []
    if not np.isnan(trump_means).all():
        by_mean = sorted(range(4), key=lambda s: -trump_means[s])
        lines.append("searched trump: " + "  ".join(f"{'♣♦♥♠'[s]} {trump_means[s]:+.2f}" for s in by_mean))
    cards = TrickSearches("", card_name).searched([trick.cards for trick in tricks], means)  # its ranked candidates
    lines += [f"trick {t + 1}, seat {seat}: " + candidates_text(c, played, card_name) for t, seat, played, c in cards]
    return searched_text("decisions (mean final score of the searcher for each candidate card over the sampled "
                         "worlds; * = played)", lines)


def describe_contract_search(options, contract_means: np.ndarray) -> str:
    """A searched Geronimo choice: each open contract's mean score for the declarer over the sampled worlds,
    and its gain over that contract's average declarer score (what the choice maximises), best first."""
    from cardlab.sim.barbu.play import hand_model
    from cardlab.sim.barbu.rules import CONTRACT_NAMES

    declarer_mean = hand_model(options).declarer_mean

    rows = []
    for slot in np.flatnonzero(~np.isnan(contract_means)):
        name = options.game_contracts[slot]
        mean = float(contract_means[slot])
        rows.append((mean - declarer_mean[CONTRACT_NAMES.index(name)], name, mean))
    rows.sort(key=lambda r: -r[0])
    return "searched contract (mean score, gain over the contract's average declarer score): " + "  ".join(
        f"{name} {mean:+.2f} ({gain:+.2f})" for gain, name, mean in rows)
