"""Euchre for five: the card order and effective suits (§1), the options (§9), the scoring table (§6),
and scripted hands with known outcomes."""
import itertools

import numpy as np
import pytest

from cardlab.sim.cards import DIAMONDS, HEARTS, parse_card
from cardlab.sim.euchre5 import Euchre5Options
from cardlab.sim.euchre5.kernels import N_RES, RES_ALONE, RES_MAKER, RES_SCORE, RES_TRICKS, play_hand_nb
from cardlab.sim.euchre5.policies import KEY, SUIT_MASKS
from cardlab.sim.euchre5.referee import check_hand, decode_log, legal_cards, strength, suit_when, trick_winner
from cardlab.sim.euchre5.rules import (ALONE_BY_CHOICE, DECK, FORCED_ALONE, MAX_ACTIONS, PARTNERED, effective_suit,
                                       hand_points, kernel_rules, left_bower, right_bower)


def cards(text):
    return [parse_card(t) for t in text.split()]


def mask(text):
    return np.uint64(sum(1 << c for c in cards(text)))


def test_deck_has_28_distinct_cards_8_to_ace():
    assert len(set(DECK.tolist())) == 28
    assert {c % 16 for c in DECK} == set(range(6, 13))


@pytest.mark.parametrize("trump", range(4))
def test_bowers_and_effective_suits(trump):
    trumps = [c for c in DECK if effective_suit(int(c), trump) == trump]
    assert len(trumps) == 8 and left_bower(trump) in trumps
    mate = 3 - trump
    assert len([c for c in DECK if effective_suit(int(c), trump) == mate]) == 6
    # the masks the kernel follows with agree with the rules, and with the referee's own function
    for s in range(4):
        expected = {int(c) for c in DECK if suit_when(int(c), trump) == s}
        assert {c for c in range(64) if int(SUIT_MASKS[trump, s]) >> c & 1} == expected
    right, left = right_bower(trump), left_bower(trump)
    for c in DECK:
        c = int(c)
        if c != right:
            assert trick_winner([c, right], trump) == 1 and trick_winner([right, c], trump) == 0
        if c not in (right, left):
            assert trick_winner([c, left], trump) == 1 and trick_winner([left, c], trump) == 0


def test_kernel_trick_keys_order_like_the_referee():
    for trump, a, b in itertools.product(range(4), DECK, DECK):
        a, b = int(a), int(b)
        if effective_suit(a, trump) == effective_suit(b, trump) and a != b:
            assert (KEY[trump, a] > KEY[trump, b]) == (strength(a, trump) > strength(b, trump))


def test_left_bower_is_not_a_card_of_its_printed_suit():
    # diamonds trump, hearts led: a hand whose only "heart" is J♥ is void in hearts (§5)
    hand = set(cards("J♥ 8♣ 9♠"))
    assert legal_cards(hand, [parse_card("A♥")], DIAMONDS) == hand
    # trump led: the left bower is the only trump and must be played
    assert legal_cards(hand, [parse_card("9♦")], DIAMONDS) == {parse_card("J♥")}
    # the kernel's follow mask agrees
    assert int(mask("J♥ 8♣ 9♠") & SUIT_MASKS[DIAMONDS, HEARTS]) == 0
    assert int(mask("J♥ 8♣ 9♠") & SUIT_MASKS[DIAMONDS, DIAMONDS]) == 1 << parse_card("J♥")


def test_scoring_table_of_section_6():
    o = Euchre5Options()
    assert [hand_points(o, PARTNERED, t) for t in range(6)] == [(0, 4), (0, 2), (0, 2), (1, 0), (1, 0), (2, 0)]
    assert hand_points(o, ALONE_BY_CHOICE, 5) == (2, 0) and hand_points(o, FORCED_ALONE, 4) == (1, 0)
    o = Euchre5Options(lone_march_points=4, forced_alone_march_points=5, defender_points=(3, 6))
    assert hand_points(o, ALONE_BY_CHOICE, 5) == (4, 0) and hand_points(o, FORCED_ALONE, 5) == (5, 0)
    assert hand_points(o, PARTNERED, 5) == (2, 0) and hand_points(o, ALONE_BY_CHOICE, 0) == (0, 6)


@pytest.mark.parametrize("kw,message", [
    (dict(players=4), "players: 4 is not allowed"),
    (dict(call_rule="partner"), "call_rule: 'partner' is not allowed; choose 'any', 'non_trump' or 'ace_of_suit'"),
    (dict(target=0), "target: 0 is not allowed; use an integer from 1 to 100"),
    (dict(lone_march_points=3), "lone_march_points: 3 is not allowed; choose 2, 4 or 5"),
    (dict(forced_alone_march_points=1), "forced_alone_march_points: 1 is not allowed"),
    (dict(defender_points=(2,)), "defender_points: 2 is not allowed"),
    (dict(tie_rule="coin"), "tie_rule: 'coin' is not allowed"),
    (dict(stick_the_dealer="yes"), "stick_the_dealer: 'yes' is not allowed; choose True or False"),
])
def test_bad_options_raise_one_line_errors(kw, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        Euchre5Options(**kw)
    assert "\n" not in str(err.value)


def test_defender_points_accept_text():
    assert Euchre5Options(defender_points="3,5").defender_points == (3, 5)


def play_scripted(hands_text, kitty_text, dealer=0, policy=1, **rules):
    """Play one scripted hand with the kernel; returns (result row, referee Hand)."""
    options = Euchre5Options(**rules)
    hands = np.array([mask(h) for h in hands_text], np.uint64)
    dealt = hands.copy()
    kitty = np.array(cards(kitty_text), np.int64)
    log = np.zeros((MAX_ACTIONS, 3), np.int8)
    res = np.zeros(N_RES, np.int64)
    play_hand_nb(hands, kitty, dealer, kernel_rules(options), np.full(5, policy, np.int64), -1, -1,
                 np.uint64(1), log, res, None, None, np.zeros(2, np.int64))
    hand = check_hand(options, dealer, [int(h) for h in dealt], kitty.tolist(), decode_log(log))
    assert hand.scores == res[RES_SCORE:].tolist()
    return res, hand


LONE_HAND = ["9♣ 10♣ Q♣ K♣ A♣", "J♥ J♦ A♥ K♥ Q♥", "8♣ 8♦ 9♦ 10♦ Q♦", "K♦ A♦ 9♠ 10♠ Q♠", "J♣ 8♠ K♠ A♠ J♠"]


@pytest.mark.parametrize("march", [2, 4, 5])
def test_scripted_lone_march(march):
    # seat 1 (left of the dealer) holds the five best hearts: it accepts, goes alone and takes every trick
    res, hand = play_scripted(LONE_HAND, "8♥ 9♥ 10♥", lone_march_points=march)
    assert res[RES_MAKER] == 1 and res[RES_ALONE] == ALONE_BY_CHOICE and res[RES_TRICKS] == 5
    assert res[RES_SCORE:].tolist() == [0, march, 0, 0, 0]
    assert [c for c in hand.tricks[0][1]][0] == parse_card("J♥")  # leads the right bower


def test_scripted_buried_card_forces_the_maker_alone():
    # seat 1 holds J♦ A♥ K♥ Q♥ 10♥ with hearts up: it accepts and calls the right bower J♥, which is in the kitty
    hands = ["9♣ 10♣ Q♣ K♣ A♣", "J♦ A♥ K♥ Q♥ 10♥", "8♣ 8♦ 9♦ 10♦ Q♦", "K♦ A♦ 9♠ 10♠ Q♠", "J♣ 8♠ K♠ A♠ J♠"]
    res, hand = play_scripted(hands, "8♥ 9♥ J♥")
    assert res[RES_MAKER] == 1 and hand.called == parse_card("J♥") and res[RES_ALONE] == FORCED_ALONE
    assert hand.partner == -1


def test_stick_the_dealer():
    # the hands that pass twice without the rule are the hands the stuck dealer makes with it
    from cardlab.sim.euchre5 import simulate

    free = simulate(deals=3000, seed=11, stick_the_dealer=False)
    void = free[free["round"] == 0]
    assert len(void) > 20 and (void[[f"score_{p}" for p in range(5)]] == 0).all().all()
    assert (void[["maker", "trump", "partner", "called"]] == -1).all().all()
    stuck = simulate(deals=3000, seed=11)
    assert (stuck["round"] > 0).all()
    again = stuck.loc[void.index]
    assert (again["maker"] == again["dealer"]).all() and (again["round"] == 2).all()


def test_referee_rejects_bad_logs():
    from cardlab.sim.euchre5.referee import RefereeError

    options = Euchre5Options()
    hands = [mask(h) for h in LONE_HAND]
    kitty = cards("8♥ 9♥ 10♥")
    good = [(1, "accept", -1), (0, "discard", parse_card("9♣")), (1, "alone", -1)]
    with pytest.raises(RefereeError, match="round one"):
        check_hand(options, 0, [int(h) for h in hands], kitty, [(2, "accept", -1)])
    with pytest.raises(RefereeError, match="exchange"):
        check_hand(options, 0, [int(h) for h in hands], kitty, good[:1] + [(0, "discard", parse_card("J♥"))])
    with pytest.raises(RefereeError, match="call rule"):
        check_hand(options, 0, [int(h) for h in hands], kitty, good[:2] + [(1, "call", parse_card("8♥"))])
    # hearts are trump; the dealer picked up 8♥ and must follow the J♥ lead with it
    plays = [(1, "play", parse_card("J♥")), (2, "play", parse_card("8♦")), (3, "play", parse_card("9♠")),
             (4, "play", parse_card("8♠"))]
    with pytest.raises(RefereeError, match="trick 1: seat 0 played A♣ but must follow"):
        check_hand(options, 0, [int(h) for h in hands], kitty, good + plays + [(0, "play", parse_card("A♣"))])
    with pytest.raises(RefereeError, match="trick 1: seat 0 played 9♣ but does not hold it"):
        check_hand(options, 0, [int(h) for h in hands], kitty, good + plays + [(0, "play", parse_card("9♣"))])
    with pytest.raises(RefereeError, match="stick the dealer"):
        check_hand(options, 0, [int(h) for h in hands], kitty, [(p, "pass", -1) for p in (1, 2, 3, 4, 0)] * 2)


def test_strength_counts_the_rule_of_thumb():
    """strength_nb (bit lanes, no loop) gives the documented count, card by card: right bower 6, left
    bower 5, trump Ace 4, trump King 3, any other trump 2, off-suit Ace 2, and 1 per empty plain
    suit with two trumps or more; name_nb names the strongest of the other three suits."""
    from cardlab.sim.euchre5.policies import NAME_AT, name_nb, strength_nb

    def by_hand(cards, t):
        mate = 3 - t
        right, left = 16 * t + 9, 16 * mate + 9
        trumps = [c for c in cards if c // 16 == t or c == left]
        total = 0
        for c in cards:
            if c == right:
                total += 6
            elif c == left:
                total += 5
            elif c in trumps:
                total += {12: 4, 11: 3}.get(c % 16, 2)
            elif c % 16 == 12:
                total += 2
        if len(trumps) >= 2:
            total += sum(1 for s in range(4) if s != t and not any(c // 16 == s and c != left for c in cards))
        return total

    rng = np.random.default_rng(1)
    for _ in range(3000):
        cards = [int(c) for c in rng.choice(DECK, 5, replace=False)]
        hand = np.uint64(sum(1 << c for c in cards))
        counts = [by_hand(cards, t) for t in range(4)]
        assert [strength_nb(hand, t) for t in range(4)] == counts
        upcard = int(rng.choice([c for c in DECK if c not in cards]))
        others = [t for t in range(4) if t != upcard // 16]
        best = max(others, key=lambda t: (counts[t], -t))
        assert name_nb(hand, upcard, 3, True) == best
        assert name_nb(hand, upcard, 3, False) == (best if counts[best] >= NAME_AT else -1)
