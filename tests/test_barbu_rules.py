"""Tiers 1, 2 and 4 for Barbu: scoring tables, totals, invariants, heuristic sanity."""
import pytest

from cardlab.sim.barbu import BARBU, TRICK_CONTRACTS, BarbuOptions, simulate
from cardlab.sim.barbu.rules import ALL_CONTRACTS, CONTRACT_NAMES, contract_total, scoring_tables
from cardlab.sim.cards import card_name, parse_card

SCORES = [f"score_{p}" for p in range(5)]


@pytest.mark.parametrize("scoring,deck,card,value", [
    ("basic", 52, "Q♥", -4), ("basic", 52, "K♥", -13), ("basic", 32, "Q♥", -3), ("basic", 32, "K♥", -9),
    ("wiki", 52, "Q♥", -8), ("wiki", 52, "K♥", -22), ("wiki", 52, "A♥", -6), ("wiki", 52, "5♥", -2),
    ("basic", 52, "Q♠", -3), ("wiki", 32, "Q♣", -6), ("basic", 52, "J♠", 0),
])
def test_salade_card_values_stack(scoring, deck, card, value):
    """§3: Salade values are the sums of the four base contracts' values for the card."""
    t = scoring_tables(BarbuOptions(scoring=scoring, deck=deck))
    salade = CONTRACT_NAMES.index("salade")
    assert t.card_values[salade, parse_card(card)] == value
    assert t.card_values[CONTRACT_NAMES.index("anti-salade"), parse_card(card)] == -value


# §3 per-deal totals for 4 players: basic-32, basic-52, wiki-52.
TOTALS = {
    "no-tricks": (-8, -13, -26), "no-hearts": (-8, -13, -30), "no-queens": (-8, -12, -24),
    "no-barbu": (-8, -12, -20), "last-two": (-8, -12, -30), "salade": (-32, -50, -100),
    "anti-salade": (32, 50, 100), "trumps": (16, 39, 65),
}


@pytest.mark.parametrize("contract", TRICK_CONTRACTS)
def test_contract_totals_match_spec_table(contract):
    for (scoring, deck), expected in zip([("basic", 32), ("basic", 52), ("wiki", 52)], TOTALS[contract]):
        assert contract_total(BarbuOptions(scoring=scoring, deck=deck), contract) == expected


def test_wiki_four_players_is_zero_sum_over_the_seven_classic_contracts():
    """§3: the five negative contracts, Trumps (13 x +5) and Domino (45+20+5-5) sum to 0."""
    o = BarbuOptions(scoring="wiki", deck=52, players=4)
    negatives = ("no-tricks", "no-hearts", "no-queens", "no-barbu", "last-two")
    trumps = contract_total(o, "trumps")
    domino = int(scoring_tables(o).domino_places.sum())
    assert (trumps, domino) == (65, 65)
    assert sum(contract_total(o, c) for c in negatives) + trumps + domino == 0
    assert contract_total(o, "salade") + contract_total(o, "anti-salade") == 0


@pytest.mark.parametrize("players,deck", [(3, 32), (3, 52), (4, 32), (4, 52), (5, 32), (5, 52)])
@pytest.mark.parametrize("scoring", ["basic", "wiki"])
def test_every_played_deal_hits_the_contract_total(players, deck, scoring):
    """Points per deal equal the contract's total, with or without early stopping."""
    df = simulate(deals=len(ALL_CONTRACTS) * 500, seed=3, contract="all", players=players, deck=deck, scoring=scoring,
                  policy="random")
    totals = df[SCORES[:players]].sum(axis=1)
    o = BarbuOptions(players=players, deck=deck, scoring=scoring)
    expected = df["contract"].map({c: contract_total(o, c) for c in ALL_CONTRACTS}).astype(int)
    assert (totals == expected).all()


@pytest.mark.parametrize("players,deck,removed,size", [
    (3, 32, {"7♦", "7♣"}, 10), (3, 52, {"2♦"}, 17), (4, 32, set(), 8), (4, 52, set(), 13),
    (5, 32, {"7♦", "7♣"}, 6), (5, 52, {"2♦", "2♣"}, 10)])
def test_removed_cards_and_hand_sizes(players, deck, removed, size):
    o = BarbuOptions(players=players, deck=deck)
    assert {card_name(c) for c in o.removed} == removed
    assert o.hand_size == size and len(o.cards) == size * players
    assert not any(c // 16 == 2 for c in o.removed), "never a heart"


def test_each_contract_is_dealt_by_every_seat_equally():
    k = len(ALL_CONTRACTS)
    df = simulate(deals=k * 4 * 10, seed=1, contract="all")
    counts = df.groupby(["contract", "declarer"], observed=True).size()
    assert len(counts) == k * 4 and (counts == 10).all()


@pytest.mark.parametrize("bad,match", [
    (dict(players=6), "players: 6 is not allowed; choose 3, 4 or 5"),
    (dict(deck=36), "deck: 36 is not allowed; choose 32 or 52"),
    (dict(scoring="bridge"), "scoring: 'bridge' is not allowed"),
    (dict(hearts_lead="never"), "hearts_lead: 'never' is not allowed"),
    (dict(early_stop="yes"), "early_stop: 'yes' is not allowed; choose True or False"),
    (dict(contract="bridge"), "contract: 'bridge' is not allowed"),
    (dict(policy="smart"), "policy: 'smart' is not allowed; choose 'random', 'heuristic', 'search', 'oracle' or 'classic'"),
    (dict(surrender=True), "option 'surrender' is unknown"),
    (dict(trumps=True), "trumps: True does not apply here; it applies only to Geronimo games"),
    (dict(geronimo=True, double=True, double_obligation=8), "double_obligation: 8 is impossible; a declarer declares at most 7"),
    (dict(double_obligation=-1), "double_obligation: -1 is not allowed"),
    (dict(domino_rules="klondike"), "domino_rules: 'klondike' is not allowed; choose 'upward', 'fan_tan' or 'bga_adjacent'"),
    (dict(domino_table=(30, 10)), "domino_table: 30,10 is not allowed; give 4 integers"),
    (dict(iterations=5), "iterations: 5 is not allowed; choose 1, 2 or 3"),
    (dict(regular_cycle="random"), "regular_cycle: 'random' is not allowed"),
    (dict(seed=-1), "seed: -1 is not allowed"),
])
def test_bad_options_name_option_value_and_allowed(bad, match):
    with pytest.raises(ValueError, match=match):
        BARBU.build("deals", **bad)


@pytest.mark.parametrize("contract", ALL_CONTRACTS)
def test_heuristic_beats_random(contract):
    """One heuristic seat among random players scores better than a random seat does."""
    mixed = simulate(deals=20_000, seed=11, contract=contract, policy="heuristic,random,random,random")
    base = simulate(deals=20_000, seed=11, contract=contract, policy="random")
    assert mixed["score_0"].mean() > base["score_0"].mean() + 0.2


def test_rules_as_coded_live_in_the_project():
    """Issue 7.11: the README and the Barbu modules point to docs/rules/barbu.md, never to a shared/ folder."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    doc = root / "docs" / "rules" / "barbu.md"
    assert doc.is_file() and "## 7. Choices where the sources differ" in doc.read_text(encoding="utf-8")
    files = [root / "README.md", *sorted((root / "sim").rglob("*.py")), *sorted((root / "docs").rglob("*.md")),
             *sorted((root / "notebooks").glob("*.ipynb"))]
    for path in files:
        assert "shared/" not in path.read_text(encoding="utf-8"), path
    assert "docs/rules/barbu.md" in (root / "README.md").read_text(encoding="utf-8")
    assert "docs/rules/barbu.md" in (root / "sim" / "barbu" / "rules.py").read_text(encoding="utf-8")
