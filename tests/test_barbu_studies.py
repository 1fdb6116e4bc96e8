"""Paired studies: each version of a deal is the deal the plain simulation plays."""
import numpy as np
import pytest

from cardlab.sim.barbu import contract_value_study, simulate, trump_study
from cardlab.sim.barbu.rules import ALL_CONTRACTS, CONTRACT_NAMES
from cardlab.sim.barbu import Study
from cardlab.sim.barbu.play import hand_model
from cardlab.sim.barbu.studies import suit_lengths_and_honours
from cardlab.sim.cards import mask_of, parse_card


def test_trump_study_rows_are_the_deals_played_with_each_suit():
    df = trump_study(deals=3000, seed=4)
    study = Study.build(contract="trumps", seed=4)
    for s in range(4):
        cols = study.play(0, 3000, trump_how=s)
        declarer_scores = cols["score"][np.arange(3000), cols["declarer"]]
        assert (df[f"score_t{s}"].to_numpy() == declarer_scores).all()
    named = study.play(0, 3000)
    assert (df["chosen"].to_numpy() == named["trump"]).all()
    chosen = df[[f"score_t{s}" for s in range(4)]].to_numpy()[np.arange(3000), df["chosen"]]
    assert (chosen == named["score"][np.arange(3000), named["declarer"]]).all()
    assert (df[[f"length_t{s}" for s in range(4)]].sum(axis=1) == 13).all()


def test_the_named_trump_beats_a_random_suit():
    df = trump_study(deals=20_000, seed=5)
    scores = df[[f"score_t{s}" for s in range(4)]].to_numpy()
    chosen = scores[np.arange(len(df)), df["chosen"]]
    assert chosen.mean() > scores.mean() + 2  # basic-52: 3 points a trick


def test_suit_lengths_and_honours():
    hand = mask_of(parse_card(c) for c in "A♠ K♠ 2♠ J♥ 10♥ 3♦".split())
    lengths, honours = suit_lengths_and_honours(np.array([hand], np.uint64))
    assert lengths.tolist() == [[0, 1, 2, 3]] and honours.tolist() == [[0, 0, 1, 2]]


def test_contract_value_study_scores_are_the_single_contract_runs():
    df = contract_value_study(deals=1000, seed=6, players=3, deck=32)
    model = hand_model(Study.build(players=3, deck=32).options)
    for name in ALL_CONTRACTS:
        key = name.replace("-", "_")
        ref = simulate(deals=1000, seed=6, contract=name, players=3, deck=32)
        declarer = ref["declarer"].to_numpy()
        expected = ref[[f"score_{p}" for p in range(3)]].to_numpy()[np.arange(1000), declarer]
        assert (df[f"score_{key}"].to_numpy() == expected).all()
        mean = model.declarer_mean[CONTRACT_NAMES.index(name)]
        assert np.allclose(df[f"value_{key}"], expected - mean, atol=1e-4)
    assert set(df["pick"].astype(str)) <= set(ALL_CONTRACTS)


def test_the_heuristic_pick_beats_a_random_pick():
    df = contract_value_study(deals=20_000, seed=7)
    values = df[[f"value_{c.replace('-', '_')}" for c in ALL_CONTRACTS]].to_numpy()
    picked = values[np.arange(len(df)), [ALL_CONTRACTS.index(p) for p in df["pick"].astype(str)]]
    assert picked.mean() > values.mean() + 1


def test_study_contracts_subset_and_bad_input():
    df = contract_value_study(deals=100, seed=1, contract="no-tricks,no-queens")
    assert {c for c in df.columns if c.startswith("score_")} == {"score_no_tricks", "score_no_queens"}
    with pytest.raises(ValueError, match="deals: 0 is not allowed"):
        trump_study(deals=0)


def test_options_study_plays_each_variant_on_the_same_deals():
    """The shared options study on Barbu: variant ``default`` is the plain run, a variant the run with that option
    changed; options of contracts not played (Domino's, the Trumps duties) and of whole games are left out."""
    from cardlab.sim.barbu import BARBU
    from cardlab.sim.variants import options_study

    df = options_study(BARBU, deals=60, seed=3, contract="no-hearts")
    variants = {c.split("@")[1] for c in df.columns if c.startswith("score_0@")}
    assert variants == {"default", "players=3", "players=5", "deck=32", "scoring=wiki", "hearts_lead=broken",
                        "hearts_lead=only_if_forced", "early_stop=false"}
    plain = simulate(deals=60, seed=3, contract="no-hearts")
    broken = simulate(deals=60, seed=3, contract="no-hearts", hearts_lead="broken")
    for p in range(4):  # the run writes Barbu's (deals, seats) score array as score_<seat>@<variant>
        assert (df[f"score_{p}@default"].to_numpy() == plain[f"score_{p}"].to_numpy()).all()
        assert (df[f"score_{p}@hearts_lead=broken"].to_numpy() == broken[f"score_{p}"].to_numpy()).all()
