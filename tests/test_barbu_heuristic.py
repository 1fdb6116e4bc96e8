"""The heuristic's issue-12 rules (R1-R5), the ``classic`` policy that plays without them, and the
policy comparison of the contract and trump studies (which conclusions change with the policy)."""
import numpy as np
import pandas as pd
import pytest

from cardlab import analysis
from cardlab.analysis.stats import mean_ci
from cardlab.analysis.barbu import example_policy_comparison, policy_conclusions
from cardlab.sim import barbu
from cardlab.sim.barbu.policies import MODE_AVOID, MODE_CLASSIC, MODE_SHED, MODE_TAKE, ALL_RULES, heuristic_card
from cardlab.sim.barbu.rules import BarbuOptions, contract_id, scoring_tables
from cardlab.sim.barbu.studies import policy_comparison_study
from cardlab.sim.cards import mask_of, parse_card
from cardlab.sim.cli import main

OFF = MODE_CLASSIC * ALL_RULES


def _mask(*names):
    return np.uint64(mask_of(parse_card(n) for n in names))


def _play(contract, hand, legal, led, best, unseen, mode, *, is_last=False, trump=-1):
    t = scoring_tables(BarbuOptions())
    c = contract_id(contract)
    values = t.card_values[c]
    point_mask = np.uint64(mask_of(np.flatnonzero(values)))
    card = heuristic_card(_mask(*hand), _mask(*legal), led, parse_card(best) if best else -1, trump, is_last,
                          _mask(*unseen), values, point_mask, mode)
    classic = heuristic_card(_mask(*hand), _mask(*legal), led, parse_card(best) if best else -1, trump, is_last,
                             _mask(*unseen), values, point_mask, mode + OFF)
    return card, classic


def test_r1_void_discards_the_highest_of_equal_cost():
    # No Hearts, void in spades: the heuristic throws A♥ (it would win a heart trick later), classic the 2♥.
    hand = ("2♥", "A♥", "3♣")
    card, classic = _play("no-hearts", hand, hand, 3, "9♠", ("K♠", "2♠", "4♥", "K♥"), MODE_AVOID)
    assert (card, classic) == (parse_card("A♥"), parse_card("2♥"))


def test_r2_a_low_heart_with_many_hearts_above_is_a_safe_lead():
    hand = ("2♥", "K♣")
    unseen = ("5♥", "9♥", "J♥", "A♥", "A♣")
    card, classic = _play("no-hearts", hand, hand, -1, None, unseen, MODE_AVOID)
    assert (card, classic) == (parse_card("2♥"), parse_card("K♣"))


def test_r3_last_two_leads_the_high_card_of_a_short_suit():
    hand = ("J♠", "4♣", "5♣", "6♣", "Q♣")
    card, classic = _play("last-two", hand, hand, -1, None, ("A♠", "2♣"), MODE_SHED)
    assert (card, classic) == (parse_card("J♠"), parse_card("Q♣"))


def test_r4_take_keeps_high_cards_when_not_sure_to_win():
    # Anti-Salade, second to play on a 2♦ with A♦ unseen: duck with the 3♦; classic plays the K♦.
    hand = ("3♦", "K♦")
    card, classic = _play("anti-salade", hand, hand, 1, "2♦", ("A♦", "9♦"), MODE_TAKE)
    assert (card, classic) == (parse_card("3♦"), parse_card("K♦"))
    # holding the boss, it wins with the lowest sure winner
    card, _ = _play("anti-salade", ("3♦", "K♦", "A♦"), ("3♦", "K♦", "A♦"), 1, "2♦", ("Q♦",), MODE_TAKE)
    assert card == parse_card("K♦")


def test_r5_a_pointless_suit_is_won_with_the_highest_card():
    # No Hearts, clubs led, every club wins, not last: throw the A♣ rather than win cheaply with the 5♣.
    hand = ("5♣", "A♣", "2♥")
    card, classic = _play("no-hearts", hand, ("5♣", "A♣"), 0, "3♣", ("9♣", "K♣", "4♥"), MODE_AVOID)
    assert (card, classic) == (parse_card("A♣"), parse_card("5♣"))


def test_classic_changes_only_the_contracts_its_rules_touch_and_the_referee_accepts_it():
    for contract, same in (("no-queens", True), ("no-tricks", True), ("no-hearts", False), ("trumps", False)):
        new = barbu.simulate(deals=400, seed=2, contract=contract)
        old = barbu.simulate(deals=400, seed=2, contract=contract, policy="classic")
        assert (new[[f"score_{p}" for p in range(4)]].to_numpy() == old[[f"score_{p}" for p in range(4)]].to_numpy()
                ).all() == same, contract
    for deal in range(6):  # replay runs the referee on every move and score
        r = barbu.replay(deal=deal, seed=4, contract="all", policy="classic,heuristic,random,classic")
        assert r.record["scores"]


@pytest.mark.parametrize("contract", ["no-hearts", "salade", "anti-salade", "trumps"])
def test_one_heuristic_seat_gains_on_classic_seats(contract):
    deals = 1500
    base = barbu.simulate(deals=deals, seed=9, contract=contract, policy="classic")
    gains = []
    for p in range(4):
        policy = ["classic"] * 4
        policy[p] = "heuristic"
        df = barbu.simulate(deals=deals, seed=9, contract=contract, policy=",".join(policy))
        gains.append(df[f"score_{p}"].to_numpy(float) - base[f"score_{p}"].to_numpy(float))
    _, low, _ = mean_ci(np.mean(gains, axis=0))
    assert low > 0


def test_policy_conclusions_flags_come_from_the_data():
    table = policy_conclusions(example_policy_comparison())
    assert table.loc[("declarer's edge", "no-tricks"), "changes"] == "sign, shift, rank"
    assert table.loc[("declarer's edge", "trumps"), "changes"] == "shift, rank"
    assert table.loc[("pick is the best contract", "all"), "changes"] == ""
    # the same data with search equal to the heuristic: nothing changes
    df = example_policy_comparison()
    for c in [c for c in df.columns if c.startswith("search_")]:
        df[c] = df["heuristic_" + c[len("search_"):]]
    same = policy_conclusions(df)
    assert (same["changes"] == "").all() and (same["shift"] == 0).all()
    # swapping the policies flips every shift and keeps the flags
    df = example_policy_comparison()
    swapped = df.rename(columns=lambda c: c.replace("heuristic_", "X_").replace("search_", "heuristic_")
                        .replace("X_", "search_"))
    swapped = swapped[["deal", "declarer", *[c for c in swapped.columns if c.startswith("heuristic_")],
                       *[c for c in swapped.columns if c.startswith("search_")]]]
    back = policy_conclusions(swapped)
    assert np.allclose(back["shift"], -table["shift"])
    assert (back["changes"] == table["changes"]).all()


def test_policy_comparison_study_matches_the_single_studies_and_its_flags_match_hand_computations():
    cmp = policy_comparison_study(study="trumps", deals=120, seed=5, policies="heuristic,classic")
    for policy in ("heuristic", "classic"):
        alone = barbu.trump_study(deals=120, seed=5, policy=policy)
        for col in ("chosen", "score_t0", "score_t3", "length_t2"):
            assert (cmp[f"{policy}_{col}"].to_numpy() == alone[col].to_numpy()).all()
    table = policy_conclusions(cmp)
    score = {p: cmp[[f"{p}_score_t{t}" for t in range(4)]].to_numpy(float) for p in ("heuristic", "classic")}
    named = {p: score[p][np.arange(120), cmp[f"{p}_chosen"].to_numpy()] for p in score}
    mean, low, high = mean_ci(named["classic"] - named["heuristic"])
    row = table.loc[("declarer's score", "named trump")]
    assert np.isclose(row["shift"], mean) and np.isclose(row["shift_low"], low)
    assert row["ci_shift"] == (low > 0 or high < 0)

    contracts = policy_comparison_study(study="contracts", deals=40, seed=5, policies="heuristic,classic",
                                        contract="no-hearts,no-queens,trumps")
    edge = contracts["heuristic_edge_no_queens"].to_numpy()
    assert np.allclose(edge, (4 * contracts["heuristic_score_no_queens"] - (-12)) / 3)
    t = policy_conclusions(contracts)
    ranks = t.xs("declarer's edge", level="measure")
    assert sorted(ranks["rank_heuristic"]) == [1, 2, 3]
    names = ["no_hearts", "no_queens", "trumps"]
    expected = dict.fromkeys(names, False)  # an order reversed while CI-clear under one policy
    for i, c in enumerate(names):
        for d in names[i + 1:]:
            stats = [mean_ci((contracts[f"{p}_edge_{c}"] - contracts[f"{p}_edge_{d}"]).to_numpy(float))
                     for p in ("heuristic", "classic")]
            clear = any(low > 0 or high < 0 for _, low, high in stats)
            if stats[0][0] * stats[1][0] < 0 and clear:
                expected[c] = expected[d] = True
    assert [bool(ranks.loc[c.replace("_", "-"), "rank_change"]) for c in names] == [expected[c] for c in names]


def test_compare_policies_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "cmp.parquet"
    assert main(["study", "barbu", "trumps", "--compare-policies", "heuristic,classic", "--deals", "60",
                 "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Policy comparison of the trump study" in text and "conclusions change with the policy" in text
    assert main(["study", "barbu", "contracts", "--contract", "no-queens,trumps", "--compare-policies",
                 "classic,heuristic", "--deals", "30"]) == 0
    text = capsys.readouterr().out
    assert "Policy comparison of the contract-value study" in text and "declarer's edge" in text
    assert main(["study", "barbu", "trumps", "--compare-policies", "heuristic,heuristic", "--deals", "10"]) != 0
    err = capsys.readouterr().err
    assert "compare" in err and "heuristic,heuristic" in err and len(err.strip().splitlines()) == 1
    assert main(["study", "barbu", "strength", "--compare-policies", "heuristic,search", "--deals", "10"]) != 0
    assert "applies only to study contracts" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.tmp"))
    df, meta = analysis.load_run(out)
    assert meta["compared_policies"] == ["heuristic", "classic"] and len(df) == 60
    assert isinstance(df, pd.DataFrame)


def test_lone_gain_study_is_the_paired_gain_of_each_seat():
    from cardlab.sim.barbu import lone_gain_study

    df = lone_gain_study(deals=80, seed=3, contract="salade", policy="heuristic", against="classic")
    base = barbu.simulate(deals=80, seed=3, contract="salade", policy="classic")
    alone = barbu.simulate(deals=80, seed=3, contract="salade", policy="classic,classic,heuristic,classic")
    assert (df["gain_2"].to_numpy() == (alone["score_2"] - base["score_2"]).to_numpy()).all()
    assert np.allclose(df["gain"], df[[f"gain_{p}" for p in range(4)]].mean(axis=1))


@pytest.mark.parametrize("module", ["cardlab.analysis.barbu_policies", "cardlab.sim.barbu.studies"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
