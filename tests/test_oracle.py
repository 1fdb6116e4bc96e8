"""The oracle (search that sees the true deal, the strength ladder's ceiling) in every game that plays it: it rolls
its candidates out on the true deal, so with heuristic rollouts it plays one world whatever ``search_worlds`` says
(its rows do not depend on it, search's do), and the ladder with ``oracle=True`` adds the ceiling's tables and
changes no other column. (Barbu's own oracle tests: tests/test_barbu_search.py.)"""
from __future__ import annotations

import pytest

from cardlab.sim.games import GAMES, game

ORACLES = [name for name in GAMES if game(name).oracle]
DEALS = {"barbu": 24, "euchre5": 60, "minchiate": 4, "rami": 4, "hearts": 24}
KEYWORDS = {"rami": dict(players=3)}


def test_every_game_plays_the_oracle():
    assert ORACLES == list(GAMES)


@pytest.mark.parametrize("name", ORACLES)
def test_the_oracle_plays_the_true_deal_once_with_heuristic_rollouts(name):
    g = game(name)
    n = g.players(g.Options(**KEYWORDS.get(name, {})))

    def rows(policy, worlds):
        df = g.simulate(deals=DEALS[name], seed=5, policy=[policy] + ["heuristic"] * (n - 1), search_worlds=worlds,
                        **KEYWORDS.get(name, {}))
        return df.drop(columns=[c for c in df.columns if c == "deal"])

    assert rows("oracle", 1).equals(rows("oracle", 3))
    assert not rows("search", 1).equals(rows("search", 3))


@pytest.mark.parametrize("name", [n for n in ORACLES if n != "barbu"])
def test_the_oracle_ladder_adds_the_ceiling_and_changes_no_other_column(name):
    from cardlab.analysis.strength import format_strength_study, oracle_gaps
    from cardlab.sim.ladder import strength_study

    kw = dict(deals=4 if name != "euchre5" else 40, seed=2, search_worlds=2, **KEYWORDS.get(name, {}))
    plain, ceiling = strength_study(game(name), **kw), strength_study(game(name), oracle=True, **kw)
    assert plain.equals(ceiling[plain.columns])
    added = [c for c in ceiling.columns if c not in plain.columns]
    assert added and all("oracle" in c for c in added)  # the oracle's whole table, and among search and heuristic
    assert any("search" in c for c in added) and any("heuristic" in c for c in added)
    assert ceiling.attrs["cardlab"]["oracle"] is True
    assert len(oracle_gaps(ceiling)) >= 1 and "The ceiling" in format_strength_study(ceiling)
