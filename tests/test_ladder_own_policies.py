"""Your own policy on the strength ladder (cardlab.sim.ladder): it joins random, heuristic and search as one
more rung, its tables are the plain runs' deals played by the same seats, the report and the plot carry it,
and what cannot join is refused in one line before any deal is played."""
from __future__ import annotations

import re

import numpy as np
import pytest

from cardlab import analysis
from cardlab.sim.barbu.rules import TRICK_CONTRACTS
from cardlab.sim.games import game
from cardlab.sim.ladder import LADDER, ladder_study, own_policies, strength_study, tables
from tests.user_policies import barbu_cards

DEALS, SEED = 64, 3  # 64 deals: every seat changes policy against every declarer of the 8 trick contracts


def lowest_in_python(observation, legal):
    """``barbu_cards.lowest`` in Python: the legal move of lowest id."""
    return min(legal, key=lambda a: a.id)


@pytest.fixture(scope="module")
def ladder():
    return strength_study(game("barbu"), deals=DEALS, seed=SEED, search_worlds=2,
                          policies={"lowest": barbu_cards.lowest})


def test_the_own_policy_is_one_more_rung(ladder):
    meta = ladder.attrs["cardlab"]
    assert meta["policies"] == [*LADDER, "lowest"]
    assert meta["own_policies"] == {"lowest": "numba:tests.user_policies.barbu_cards.lowest"}
    assert len(tables(meta["policies"])) == 16
    for x, y in [("lowest", "heuristic"), ("search", "lowest"), ("lowest", "random")]:
        assert f"lone_{x}_in_{y}" in ladder.columns
    assert [f"score_lowest_{p}" for p in range(4)] == [c for c in ladder.columns if c.startswith("score_lowest")]


def test_its_tables_are_the_plain_runs_deals_played_by_the_same_seats(ladder):
    barbu = game("barbu")
    tricks = ",".join(TRICK_CONTRACTS)  # the ladder's "all": the contracts played in tricks
    whole = barbu.simulate(deals=DEALS, seed=SEED, policy=barbu_cards.lowest, contract=tricks)
    assert np.array_equal(ladder.filter(regex=r"^score_lowest_\d$").to_numpy(),
                          whole.filter(regex=r"^score_\d$").to_numpy())
    # the lone seat plays lowest among heuristic seats: deals where seat 1 is the lone seat
    lone = ladder["lone"].to_numpy()
    rows = np.flatnonzero(lone == 1)
    mixed = barbu.simulate(deals=DEALS, seed=SEED, policy=["heuristic", barbu_cards.lowest, "heuristic", "heuristic"],
                           contract=tricks)
    assert len(rows) and np.array_equal(ladder["lone_lowest_in_heuristic"].to_numpy()[rows],
                                        mixed["score_1"].to_numpy()[rows])


def test_the_report_and_the_plot_carry_it(ladder):
    gains = analysis.strength_gains(ladder)
    assert {("lowest", "heuristic"), ("heuristic", "lowest"), ("lowest", "search")} <= {
        (p, q) for _, p, q in gains.index}
    figures = analysis.table_figures(ladder)
    assert {"lowest", "lowest_shift", "lowest_low", "lowest_high"} <= set(figures.columns)
    text = analysis.format_strength_study(ladder)
    assert "random, heuristic, search, lowest (numba:tests.user_policies.barbu_cards.lowest)" in text
    assert re.search(r"\n\s+lowest\s+random\s+8\s", text), text
    labels = [t.get_text() for t in analysis.plot_strength_study(ladder).axes[0].get_legend().get_texts()]
    assert "lowest against heuristic" in labels and "lowest against search" in labels


def test_what_cannot_join_is_refused_in_one_line():
    barbu, euchre = game("barbu"), game("euchre5")
    with pytest.raises(ValueError, match="policies: 'my_bot' is not allowed as a name"):
        own_policies(barbu, policies={"my_bot": barbu_cards.lowest})
    with pytest.raises(ValueError, match="policies: 'search' is not allowed as a name"):
        own_policies(barbu, policies={"search": barbu_cards.lowest})
    with pytest.raises(ValueError, match=r"does not fit euchre5's Numba seat \(card play\): expected card\(hand"):
        ladder_study(euchre, policies={"mine": barbu_cards.lowest})  # a Barbu function, Euchre's signature
    with pytest.raises(ValueError, match="the ladder takes one own policy at a time"):
        own_policies(barbu, policies={"low": barbu_cards.lowest, "high": barbu_cards.highest})
    with pytest.raises(ValueError, match="policy: 'random' is not allowed here"):
        own_policies(barbu, policy="random")
    assert own_policies(barbu, policy=barbu_cards.lowest) == {"lowest": barbu_cards.lowest}


def test_the_command_line_adds_the_policy_given(tmp_path, capsys):
    from cardlab.sim.cli import main
    from cardlab.analysis.io import load_run

    out = tmp_path / "ladder.parquet"
    code = main(["study", "barbu", "strength", "--policy", "numba:tests.user_policies.barbu_cards.lowest",
                 "--contract", "no-queens", "--deals", "8", "--search-worlds", "2", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    df, meta = load_run(out)
    assert meta["policies"] == [*LADDER, "lowest"] and "lone_lowest_in_search" in df.columns


def test_a_python_policy_joins_the_ladder_and_plays_as_its_numba_twin():
    """Its tables are played through the step API, search seats included; beside heuristic and search seats the
    Python and the Numba lowest card give the same results (random seats at a Python seat's table draw from
    another stream in Barbu, and a Python Trumps declarer names its own trump, so those are left out)."""
    barbu = game("barbu")
    keywords = dict(deals=8, seed=SEED, search_worlds=2, contract="no-queens,no-hearts")
    in_python = strength_study(barbu, policies={"lowest": lowest_in_python}, **keywords)
    in_numba = strength_study(barbu, policies={"lowest": barbu_cards.lowest}, **keywords)
    assert in_python.attrs["cardlab"]["own_policies"] == {"lowest": f"python:{__name__}.lowest_in_python"}
    same = [c for c in in_numba.columns if not ("lowest" in c and "random" in c)]
    assert "lone_lowest_in_search" in same and "lone_search_in_lowest" in same
    assert in_python[same].equals(in_numba[same])
