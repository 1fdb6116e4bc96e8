"""Minchiate cards, values, options and bad input (§2, §9, §11)."""
import numpy as np
import pytest

from cardlab.sim.minchiate.rules import (CARD_VALUES, COUNTING, KINGS, MATTO, N_CARDS, STRENGTH, TRUMP_29,
                                         MinchiateOptions, card_name, join, qualifies, split, suit_card, trump)
from cardlab.sim.minchiate.simulate import make_options


def test_deck_and_values():
    assert N_CARDS == 97
    assert len(COUNTING) == 25 and int(CARD_VALUES.sum()) == 142
    assert CARD_VALUES[TRUMP_29] == 0 and CARD_VALUES[MATTO] == 5
    assert [int(CARD_VALUES[trump(n)]) for n in (1, 2, 5, 6, 10, 13, 20, 28, 30, 35, 36, 40)] == \
        [5, 3, 3, 0, 5, 5, 5, 5, 5, 5, 10, 10]
    assert all(CARD_VALUES[k] == 5 for k in KINGS)
    assert sum(CARD_VALUES[suit_card(s, r)] for s in range(4) for r in range(1, 14)) == 0


def test_names_and_ids():
    assert card_name(trump(29)) == "Trump 29" and card_name(MATTO) == "Matto"
    assert card_name(suit_card(1, 14)) == "King of Cups"
    assert card_name(suit_card(0, 11)) == "Fante of Coins"
    assert card_name(suit_card(2, 12)) == "Cavallo of Swords"
    assert card_name(suit_card(3, 7)) == "7 of Batons"
    assert suit_card(3, 14) == 96 and trump(1) == 0
    cards = [0, 28, 40, 41, 68, 96]
    assert join(*split(cards)) == cards


def test_strength_orders():
    coins = [suit_card(0, r) for r in range(1, 15)]
    swords = [suit_card(2, r) for r in range(1, 15)]
    # round suits: ace highest pip, 10 lowest; long suits: 10 highest pip
    assert STRENGTH[coins[0]] > STRENGTH[coins[9]] and STRENGTH[swords[9]] > STRENGTH[swords[0]]
    assert STRENGTH[coins[13]] > STRENGTH[coins[12]] > STRENGTH[coins[11]] > STRENGTH[coins[10]] > STRENGTH[coins[0]]
    assert min(STRENGTH[trump(n)] for n in range(1, 41)) > max(STRENGTH[c] for c in coins)


def test_qualifying_cards():
    assert qualifies(trump(21)) and qualifies(trump(29)) and not qualifies(trump(29), steal_29=False)
    assert qualifies(KINGS[0]) and qualifies(MATTO) and not qualifies(trump(19)) and not qualifies(suit_card(0, 13))


def test_defaults():
    o = MinchiateOptions()
    assert (o.n_deals, o.steal_29, o.cutter_cap, o.expose_last_cards, o.dealer_takes_from_fola, o.discards_to,
            o.declarations, o.c5_merge, o.combos_may_share, o.matto_bonus_on_c3, o.score_pile_combos,
            o.card_bonus_rule, o.cappotto_double) == (1, True, 13, "dealer", "counting+29", "fola", "policy", True,
                                                      True, False, True, "beyond_42", False)
    assert o.kernel_flags().dtype == np.int64


@pytest.mark.parametrize("kw, text", [
    (dict(players=3), "players: 3 is not allowed; choose 4"),
    (dict(n_deals=0), "n_deals: 0 is not allowed"),
    (dict(expose_last_cards="everyone"), "expose_last_cards: 'everyone' is not allowed; choose 'dealer' or 'all_four'"),
    (dict(discards_to="pile"), "discards_to: 'pile' is not allowed"),
    (dict(c5_merge="yes"), "c5_merge: 'yes' is not allowed"),
    (dict(cutter_cap=14), "cutter_cap: 14 is not allowed"),
    (dict(card_bonus_rule="packets"), "card_bonus_rule: 'packets' is not allowed"),
    (dict(trumps=1), "trumps: is not a Minchiate option"),
])
def test_bad_options_one_line(kw, text):
    with pytest.raises(ValueError) as err:
        make_options(**kw)
    assert text in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("name", ["cardlab.sim.minchiate", "cardlab.sim.minchiate.simulate",
                                  "cardlab.sim.minchiate.studies"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
