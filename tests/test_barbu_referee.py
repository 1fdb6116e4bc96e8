"""Tier 3: the kernel and the plain-Python referee agree on thousands of seeded deals.

For every deck x player count x policy, 2,000 deals of every trick contract: the referee
replays the kernel's move log, checks each move is legal and recomputes the scores.
"""
import itertools

import pytest

from cardlab.sim.barbu import BarbuOptions, Study
from cardlab.sim.barbu.rules import ALL_CONTRACTS
from cardlab.sim.barbu.game_referee import check_any_deal
from cardlab.sim.barbu.referee import RefereeError, check_deal

DEALS_PER_CONTRACT = 2000


def referee_run(study: Study, deals: int, first: int = 0):
    cols = study.play(first, deals, record=True)
    for j in range(deals):
        scores = check_any_deal(study.options, str(cols["contract"][j]), int(cols["declarer"][j]), cols["hands"][j],
                                cols["moves"][j], int(cols["trump"][j]))
        assert scores == [int(s) for s in cols["score"][j]], f"deal {first + j}"
    return cols


@pytest.mark.parametrize("deck,players,policy", list(itertools.product((32, 52), (3, 4, 5), ("heuristic", "random"))))
def test_kernel_matches_referee(deck, players, policy):
    study = Study.build(options=BarbuOptions(players=players, deck=deck), contract="all", policy=policy,
                        seed=1000 * deck + players)
    cols = referee_run(study, DEALS_PER_CONTRACT * len(ALL_CONTRACTS))
    counts = cols["contract"].value_counts()
    assert (counts[list(ALL_CONTRACTS)] == DEALS_PER_CONTRACT).all()


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


@pytest.mark.parametrize("duties", [
    dict(overtrump_on_trump_lead=False), dict(must_trump=False), dict(overtrump_when_ruffing=False),
    dict(overtrump_on_trump_lead=False, must_trump=False, overtrump_when_ruffing=False)])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_trump_duty_options_match_referee(duties, policy):
    study = Study.build(contract="trumps", policy=policy, seed=5, **duties)
    referee_run(study, 2000)
