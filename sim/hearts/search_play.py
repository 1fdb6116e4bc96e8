"""What Hearts' ``replay`` shows of a search: each searched card's candidates, ranked by their mean points for the
searcher over the sampled worlds (the search kernels' calls are :class:`~cardlab.sim.hearts.interface.HeartsStudy`'s:
``searched`` and ``play_games``).
"""
from __future__ import annotations

from cardlab.sim.cards import card_name
from cardlab.sim.search_play import TrickSearches

SEARCHES = TrickSearches("cards (mean points for the searcher over the sampled worlds; * = played)", card_name,
                         lambda m: f"{m + 0.0:.2f}", lambda m: round(m, 3) + 0.0, lowest_first=True)
