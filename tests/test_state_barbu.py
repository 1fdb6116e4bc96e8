"""Barbu's step API beyond the shared conformance tests (tests/test_state.py): the rules the default
table does not reach (fan_tan's start rank, a declinable Ace, the K♥ discard, no early stop, three and
five players, the short deck), the declarer's naming of the trump, and resampled worlds whose own
history is legal."""
from __future__ import annotations

import numpy as np
import pytest

from cardlab.sim.cards import mask_of
from cardlab.sim.games import game

BARBU = game("barbu")

RULES = [
    dict(contract="domino", domino_rules="fan_tan"),
    dict(contract="domino", ace_replay_optional=True),
    dict(contract="domino", domino_rules="bga_adjacent", domino_starter="left"),
    dict(contract="no-barbu,salade", kh_forced_discard=True),
    dict(contract="no-hearts,no-queens", early_stop=False),
    dict(contract="all", players=3),
    dict(contract="all", players=5, deck=32),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_the_kernels_moves_under_other_rules_replay_through_the_state(rules):
    study = BARBU.build("deals", seed=5, policy="random", **rules)
    deals = range(24)
    for deal, rec in zip(deals, BARBU.replay_deals(study, deals).records):
        state = BARBU.new_state(study, deal)
        for entry in rec["actions"]:
            assert state.current_player == entry["seat"], (deal, entry)
            state.apply(entry)
        assert state.is_over and state.record() == rec, deal


def test_fan_tan_starts_with_the_declarers_start_rank():
    state = BARBU.state(seed=1, deal=0, contract="domino", domino_rules="fan_tan")
    legal = state.legal_actions()
    assert state.current_player == state.declarer
    assert [a.name for a in legal] == [f"start {r}" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
    assert [a.id for a in legal] == list(range(80, 93))
    state.apply("start 7")
    assert state.record()["actions"] == [{"seat": state.declarer, "kind": "start", "rank": "7"}]
    assert all(a.name == "pass" or a.name.startswith("7") for a in state.legal_actions())


def test_the_trumps_declarer_names_the_trump_before_the_first_card():
    state = BARBU.state(seed=2, deal=1, contract="trumps")
    assert state.current_player == state.declarer == 1
    assert [(a.id, a.name) for a in state.legal_actions()] == [(70, "trump ♣"), (71, "trump ♦"), (72, "trump ♥"),
                                                              (73, "trump ♠")]
    state.apply({"kind": "trump", "suit": "♥"})
    assert state.observation(0)["trump"] == "♥" and state.current_player == 1
    assert state.record()["actions"] == [{"seat": 1, "kind": "trump", "suit": "♥"}]
    assert all(a.entry["kind"] == "play" for a in state.legal_actions())


@pytest.mark.parametrize("contract", ["no-hearts", "trumps", "domino"])
def test_a_resampled_world_is_a_deal_whose_moves_were_all_legal(contract):
    """Every world keeps the seat's hand and the hand sizes, and its dealt hands replay the moves so far
    under the rules: no seat gets a card it showed it could not hold."""
    rng = np.random.default_rng(3)
    for deal in range(3):
        state = BARBU.state(seed=4, deal=deal, contract=contract)
        while not state.is_over:
            seat = state.current_player
            world = state.resample(seat, rng)
            assert world.hands[seat] == state.hands[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            replay = world._restart()
            for _, action in world.moves:
                replay.apply(action.id)
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])


def test_the_state_deals_as_the_kernel_with_a_search_seat_too():
    """The state deals from (seed, deal) alone: a search seat (a different kernel) deals the same cards."""
    plain = BARBU.state(seed=9, deal=4, contract="no-queens")
    searched = BARBU.state(seed=9, deal=4, contract="no-queens", policy="search,heuristic,heuristic,heuristic")
    cols = BARBU.build("deals", seed=9, contract="no-queens").play(4, 1, record=True)
    assert [mask_of(h) for h in plain.dealt] == [mask_of(h) for h in searched.dealt] == [int(h) for h in
                                                                                      cols["hands"][0]]


@pytest.mark.parametrize("forced", [False, True])
def test_the_kernels_force_the_kh_discard_only_under_its_option(forced):
    """A random seat void in the led suit and holding K♥ keeps it sometimes, unless kh_forced_discard
    (the kernels once forced the discard whatever the option said: the referee, which only checks that a
    move is allowed, could not see a kernel allowing too little)."""
    from cardlab.sim.barbu.referee import KH
    from cardlab.sim.cards import suit_of

    barbu = game("barbu")
    keywords = dict(seed=7, policy="random", contract="salade,no-barbu", kh_forced_discard=forced)
    study = barbu.build("deals", **keywords)
    kept = 0
    for deal, record in enumerate(barbu.replay(deal="0:300", **keywords).records):
        state = barbu.new_state(study, deal)
        for entry in record["actions"]:
            seat = state.current_player
            hand = state.hands[seat]
            void = bool(state.trick) and not any(suit_of(c) == suit_of(state.trick[0]) for c in hand)
            holds_kh = KH in hand
            played = state.apply(entry)
            kept += void and holds_kh and played.id != KH
    assert (kept == 0) if forced else (kept > 0)


def test_a_refused_card_says_which_rule_it_breaks():
    from cardlab.sim.cards import card_name, suit_of
    from cardlab.sim.state import IllegalAction

    for deal in range(50):
        state = game("barbu").state(seed=0, deal=deal, contract="no-tricks")
        state.apply(state.legal_actions()[0])
        led, hand = suit_of(state.trick[0]), state.hands[state.current_player]
        other = [c for c in hand if suit_of(c) != led]
        if other and any(suit_of(c) == led for c in hand):
            break
    with pytest.raises(IllegalAction, match="must follow suit"):
        state.apply(card_name(other[0]))
    missing = next(c for c in range(64) if c not in hand and c in state.dealt[(state.current_player + 1) % 4])
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(card_name(missing))
