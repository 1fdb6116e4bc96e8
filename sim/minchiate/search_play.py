"""What Minchiate's ``replay`` shows of a search: each searched card's candidates, ranked by the mean final points
difference of the searcher's side over the sampled worlds (the search kernels' calls are
:class:`~cardlab.sim.minchiate.interface.MinchiateStudy`'s: ``searched`` and ``play_games``).
"""
from __future__ import annotations

from cardlab.sim.minchiate.rules import card_name
from cardlab.sim.search_play import TrickSearches

#: What ``replay`` shows of a deal's searched cards (their tricks: the referee record's ``tricks``).
SEARCHES = TrickSearches("decisions (mean final points difference of the searcher's side over the sampled worlds; "
                         "* = played)", card_name, "{:+.1f}".format)
