"""Minchiate cards, values, options and bad input (§2, §9, §11)."""
import numpy as np
import pytest

from cardlab.sim.minchiate.rules import (CARD_VALUES, COUNTING, KINGS, MATTO, N_CARDS, STRENGTH, TRUMP_29,
                                         MinchiateOptions, card_name, join, qualifies, split, suit_card, trump)
from cardlab.sim.minchiate import MINCHIATE

make_options = MINCHIATE.make_options


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
    (dict(trumps=1), "option 'trumps' is unknown; Minchiate options are"),
])
def test_bad_options_one_line(kw, text):
    with pytest.raises(ValueError) as err:
        make_options(**kw)
    assert text in str(err.value) and "\n" not in str(err.value)


def test_n_deals_applies_to_whole_games_only():
    for call in (MINCHIATE.simulate, MINCHIATE.replay):
        with pytest.raises(ValueError, match=r"^n_deals: 4 does not apply here; it applies only to whole games "
                                             r"\(simulate_games, replay_game\)$"):
            call(**{"deals" if call == MINCHIATE.simulate else "deal": 5}, n_deals=4)


@pytest.mark.parametrize("name", ["cardlab.sim.minchiate", "cardlab.sim.minchiate.interface"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------- rules of play, one by one

from cardlab.sim.minchiate.kernels import legal_cards  # noqa: E402
from cardlab.sim.minchiate.referee import Ledger, legal_plays, matto_payment_card, trick_winner  # noqa: E402

CUPS, SWORDS, COINS = 1, 2, 0


def test_king_rule_and_matto():
    king, three = suit_card(CUPS, 14), suit_card(CUPS, 3)
    hand = {king, three, MATTO, trump(5)}
    assert legal_plays(hand, CUPS, True, True) == {king}  # first Cups trick, a trump already played
    assert legal_plays(hand, CUPS, True, False) == {king, three, MATTO}
    assert legal_plays(hand, CUPS, False, True) == {king, three, MATTO}  # later rounds are free
    assert legal_plays({trump(5), trump(7), MATTO, suit_card(COINS, 2)}, CUPS, True, True) == {trump(5), trump(7), MATTO}
    void = {suit_card(COINS, 2), MATTO}
    assert legal_plays(void, CUPS, True, True) == void
    assert legal_plays(hand, None, True, False) == hand  # leading, or after a led Matto


def test_kernel_legality_equals_referee():
    rng = np.random.default_rng(4)
    for _ in range(3000):
        hand = {int(c) for c in rng.choice(97, size=rng.integers(1, 22), replace=False)}
        led = int(rng.integers(-1, 5))
        first, trumped = bool(rng.integers(2)), bool(rng.integers(2))
        lo, hi = split(hand)
        klo, khi = legal_cards(np.uint64(lo), np.uint64(hi), led, first, trumped)
        assert set(join(int(klo), int(khi))) == legal_plays(hand, None if led < 0 else led, first, trumped)


def test_trick_winner():
    ace, king, two = suit_card(COINS, 1), suit_card(COINS, 14), suit_card(COINS, 2)
    assert trick_winner([two, ace, king, MATTO], [0, 1, 2, 3], COINS) == 2  # King over the ace
    assert trick_winner([two, ace, MATTO, suit_card(CUPS, 1)], [0, 1, 2, 3], COINS) == 1  # ace high in coins
    assert trick_winner([suit_card(SWORDS, 9), suit_card(SWORDS, 10), suit_card(SWORDS, 1), two], [0, 1, 2, 3],
                        SWORDS) == 1  # ten high in swords
    assert trick_winner([king, trump(1), trump(2), MATTO], [3, 0, 1, 2], COINS) == 1  # the highest trump


def test_matto_payment_card():
    pile = {MATTO, trump(40), suit_card(COINS, 10), suit_card(SWORDS, 1), trump(6), trump(29)}
    assert matto_payment_card(pile) in (suit_card(COINS, 10), suit_card(SWORDS, 1))  # strength 1: the weakest
    assert matto_payment_card({MATTO, trump(29), trump(40), trump(2)}) == trump(29)  # no blank but 29


def test_resti_settlement_and_rounding():
    led = Ledger()
    led.score("a", 0, "captures", 61)
    assert led.resti == [1, 0] and led.delta == 1
    led.score("b", 1, "captures", 122)
    assert led.resti == [1, 2] and led.delta == -1
    led.score("end", 0, "card_points", 60, settle=False)  # Δ = 59 at the end: one more resto
    led.finish()
    assert led.resti == [2, 2]
    end = Ledger()
    end.score("end", 1, "card_points", 121, settle=False)  # 61-120 -> 2, 121 -> 3
    end.finish()
    assert end.resti == [0, 3]
    zero = Ledger()
    zero.finish()
    assert zero.resti == [0, 0]
