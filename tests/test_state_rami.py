"""Rami's step API beyond the shared contract: option sets, a recycled stock, a scripted rami sec."""
import numpy as np
import pytest

from cardlab.sim.games import game
from cardlab.sim.rami.referee import dealt_state
from cardlab.sim.rami.rules import RamiOptions
from cardlab.sim.rami.state import RamiState
from cardlab.sim.state import IllegalAction

RAMI = game("rami")
OPTION_SETS = [
    dict(recycle_discards=True, blocked_tie="next_in_turn", hand_size=14, players=2),
    dict(freed_joker_use="anywhere", go_out_requires_discard=True, discard_take_must_use=False,
         discard_take_first_round=True, single_card_must_draw_stock=False),
    dict(rami_sec_exempt_from_opening=True, open_threshold=30, max_jokers_per_meld=None, players=2),
    dict(n_jokers=2, open_needs_pure_run=False, go_out_requires_discard=True, players=3),
]


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_the_kernels_moves_replay_through_the_state_under_every_option(opts):
    players = OPTION_SETS[opts].get("players", 4)
    policy = ",".join(("random", "heuristic")[s % 2] for s in range(players))
    study = RAMI.build("deals", seed=5, policy=policy, **OPTION_SETS[opts])
    replay = RAMI.replay_deals(study, range(20))
    for deal, rec in zip(range(20), replay.records):
        state = RAMI.new_state(study, deal)
        for entry in rec["actions"]:
            state.apply(entry)
        assert state.record() == rec


def test_a_recycled_stock_is_drawn_in_the_kernels_order():
    study = RAMI.build("deals", seed=1, players=4, policy="random", recycle_discards=True)
    deals = [d for d, r in enumerate(RAMI.replay_deals(study, range(40)).records) if "restock" in r]
    assert deals
    rec = RAMI.replay_deals(study, range(deals[0], deals[0] + 1)).records[0]
    state = RAMI.new_state(study, deals[0])  # the random seats draw from the round's stream, and so does the recycle
    while not state.is_over:
        state.apply(state.policy_action("random"))
    assert state.record() == rec and state.record()["restock"]
    rebuilt = RamiState(study.options, rec["dealer"], state.deck, restock=state.restock, study=study, deal=deals[0],
                        keys=state.keys)  # a state rebuilt from the record draws in the logged order
    for entry in rec["actions"]:
        rebuilt.apply(entry)
    assert rebuilt.record() == rec


def test_random_play_never_reaches_a_dead_end_under_every_option():
    for i, opts in enumerate(OPTION_SETS):
        for deal in range(3):
            state = RAMI.state(seed=i, deal=deal, **opts)
            state.play_out(["random"] * state.P, np.random.default_rng(deal))
            assert state.is_over and len(state.scores()) == state.P


def test_a_scripted_rami_sec_by_name():
    from test_rami_referee import scripted_rami_sec_deck

    o = RamiOptions(players=2, rami_sec_exempt_from_opening=True)
    state = dealt_state(o, 0, scripted_rami_sec_deck())
    for move in ("draw stock", "meld A♣ 2♣ 3♣", "meld A♦ 2♦ 3♦", "meld 4♣ 4♥ 4♠", "meld 5♣ 5♦ 5♥ 5♠"):
        state.apply(move)
    with pytest.raises(IllegalAction, match="not enough"):
        state.apply("open")
    state.apply("open exempt")
    assert [a.name for a in state.legal_actions()] == ["discard K♠"]
    state.apply("discard K♠")
    assert state.is_over and state.result()["rami_sec"] and state.scores() == [200, 0]
    assert state.record()["actions"][-1] == {"seat": 1, "kind": "discard", "card": "K♠", "copy": 1}


def test_an_opening_meld_is_refused_when_no_opening_can_follow():
    from test_rami_referee import scripted_rami_sec_deck

    state = dealt_state(RamiOptions(players=2), 0, scripted_rami_sec_deck())
    state.apply("draw stock")
    assert all(a.name.startswith("discard") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="at most 44 of the 51 points"):
        state.apply("meld A♣ 2♣ 3♣")
