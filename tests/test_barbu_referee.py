"""Tier 3: the kernel and the plain-Python referee agree on thousands of seeded deals.

For every deck x player count x policy, 2,000 deals of every trick contract: the referee
replays the kernel's move log, checks each move is legal and recomputes the scores.
"""
import itertools

import numpy as np
import pytest

from cardlab.sim.barbu import BarbuOptions, Study, replay
from cardlab.sim.barbu.rules import ALL_CONTRACTS
from cardlab.sim.barbu.game_referee import check_any_deal
from cardlab.sim.barbu.referee import RefereeError, check_deal, legal_cards

DEALS_PER_CONTRACT = 2000


def referee_run(study: Study, deals: int, first: int = 0):
    cols = study.play(first, deals, record=True)
    for j in range(deals):
        scores = check_any_deal(study.options, str(cols["contract"][j]), int(cols["declarer"][j]), cols["hands"][j],
                                cols["moves"][j], int(cols["trump"][j]))
        assert scores == [int(s) for s in cols["score"][j]], f"deal {first + j}"
    return cols


@pytest.mark.slow
@pytest.mark.parametrize("deck,players,policy", list(itertools.product((32, 52), (3, 4, 5), ("heuristic", "random"))))
def test_kernel_matches_referee(deck, players, policy):
    study = Study.build(options=BarbuOptions(players=players, deck=deck), contract="all", policy=policy,
                        seed=1000 * deck + players)
    cols = referee_run(study, DEALS_PER_CONTRACT * len(ALL_CONTRACTS))
    counts = cols["contract"].value_counts()
    assert (counts[list(ALL_CONTRACTS)] == DEALS_PER_CONTRACT).all()


@pytest.mark.slow
@pytest.mark.parametrize("rules", [
    dict(hearts_lead="broken"),
    dict(hearts_lead="only_if_forced", hearts_lead_salade=True),
    dict(kh_forced_discard=True),
    dict(early_stop=False, scoring="wiki"),
    dict(scoring="wiki", players=5, deck=32, kh_forced_discard=True, hearts_lead="broken"),
])
@pytest.mark.parametrize("policy", ["heuristic", "random", "heuristic,random,random,random"])
def test_rule_options_match_referee(rules, policy):
    players = rules.get("players", 4)
    policy = policy if "," not in policy else ",".join((["heuristic"] + ["random"] * (players - 1)))
    study = Study.build(contract="all", policy=policy, seed=99, **rules)
    referee_run(study, 700 * len(ALL_CONTRACTS))


def test_referee_rejects_an_illegal_move():
    study = Study.build(contract="no-tricks", seed=5)
    cols = study.play(0, 1, record=True)
    hands, moves = cols["hands"][0], cols["moves"][0].copy()
    opts = study.options
    leader_card = int(moves[0])
    # Seat 1 plays a card of another suit while it could follow: find such a card in its hand.
    seat1 = [c for c in range(64) if int(hands[1]) >> c & 1]
    follow = [c for c in seat1 if c // 16 == leader_card // 16]
    other = [c for c in seat1 if c // 16 != leader_card // 16]
    if not follow or not other:
        pytest.skip("seat 1 cannot revoke in this deal")
    moves[1] = other[0]
    with pytest.raises(RefereeError, match="trick 1: seat 1"):
        check_deal(opts, "no-tricks", 0, hands, moves)


def test_referee_rejects_a_wrong_early_stop():
    study = Study.build(contract="last-two", seed=5)
    cols = study.play(0, 1, record=True)
    moves = cols["moves"][0].copy()
    played = study.options.players * study.options.hand_size
    moves[played - 4:played] = -1
    with pytest.raises(RefereeError, match="must be played out"):
        check_deal(study.options, "last-two", 0, cols["hands"][0], moves)


@pytest.mark.slow
@pytest.mark.parametrize("duties", [
    dict(overtrump_on_trump_lead=False), dict(must_trump=False), dict(overtrump_when_ruffing=False),
    dict(overtrump_on_trump_lead=False, must_trump=False, overtrump_when_ruffing=False)])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_trump_duty_options_match_referee(duties, policy):
    study = Study.build(contract="trumps", policy=policy, seed=5, **duties)
    referee_run(study, 2000)


def _legal(hand, trick, trump, **duties):
    """The referee's and the kernel's legal cards for one position of a Trumps trick, as card names."""
    from cardlab.sim.barbu.kernels import legal_cards_nb
    from cardlab.sim.barbu.play import trump_duties
    from cardlab.sim.cards import card_name, mask_of, parse_card

    options = BarbuOptions(**duties)
    hand_ids, trick_ids = [parse_card(c) for c in hand.split()], [parse_card(c) for c in trick.split()]
    referee = legal_cards(set(hand_ids), trick_ids, contract="trumps", options=options, hearts_played=True, trump=trump)
    best = trick_ids[0]
    for c in trick_ids[1:]:
        if (c // 16 == best // 16 and c > best) or (c // 16 == trump and best // 16 != trump):
            best = c
    mask = legal_cards_nb(np.uint64(mask_of(hand_ids)), trick_ids[0] // 16, best, trump, trump_duties(options), 0,
                          True, False)
    kernel = {c for c in hand_ids if int(mask) >> c & 1}
    assert kernel == referee
    return sorted(card_name(c) for c in referee)


@pytest.mark.parametrize("duties,low,high", [
    (dict(), ["5♣", "9♣"], ["A♣"]),  # cannot overtrump K♣: still a trump; can: must overtrump
    (dict(overtrump_when_ruffing=False), ["5♣", "9♣"], ["5♣", "A♣"]),  # need not overtrump: any trump
    (dict(must_trump=False), ["5♣", "7♠", "9♣", "J♦"], ["A♣"]),  # no duty to trump: anything, or overtrump
])
def test_trump_duties_are_independent(duties, low, high):
    """Issue 6.1: switching one duty off leaves the others as they are (♣ trump, ♥ led, K♣ ruffed)."""
    assert _legal("9♣ 5♣ 7♠ J♦", "7♥ K♣", 0, **duties) == low
    assert _legal("A♣ 5♣ 7♠", "7♥ K♣", 0, **duties) == high


def test_void_player_under_must_trump_ruffs_even_without_overtrump_duty():
    """Issue 6.1, its example: seed 7, deal 4, trick 10: S2 holds 9♣ 5♣ (♣ trump), void in ♥."""
    text = replay(deal=4, seed=7, contract="trumps", policy="random", overtrump_when_ruffing=False).text
    trick10 = next(line for line in text.splitlines() if line.startswith("trick 10:"))
    seat2 = trick10.split("S2")[1].split()[0]
    assert seat2.endswith("♣"), trick10
