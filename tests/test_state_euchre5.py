"""Euchre for five's step API on a scripted hand: what each seat sees, the ids, the refusals (no kernel)."""
import numpy as np
import pytest

from cardlab.sim.cards import parse_card
from cardlab.sim.euchre5.referee import Euchre5State, check_hand
from cardlab.sim.euchre5.rules import Euchre5Options
from cardlab.sim.state import IllegalAction

HANDS = ["9♣ 10♣ Q♣ K♣ A♣", "J♥ J♦ A♥ K♥ Q♥", "8♣ 8♦ 9♦ 10♦ Q♦", "K♦ A♦ 9♠ 10♠ Q♠", "J♣ 8♠ K♠ A♠ J♠"]
KITTY = "8♥ 9♥ 10♥"


def scripted(**rules):
    return Euchre5State(Euchre5Options(**rules), 0, [{parse_card(c) for c in h.split()} for h in HANDS],
                        [parse_card(c) for c in KITTY.split()])


def test_the_bidding_exchange_and_call_are_actions_with_stable_ids():
    s = scripted()
    assert s.current_player == 1 and [(a.id, a.name) for a in s.legal_actions()] == [(196, "pass"), (197, "accept")]
    s.apply("accept")
    assert s.current_player == 0 and "discard 8♥" in [a.name for a in s.legal_actions()]  # the upcard, picked up
    s.apply("discard 9♣")
    assert s.current_player == 1 and s.legal_actions()[-1].name == "alone"
    called = s.apply("call K♦")
    assert called.id == 128 + parse_card("K♦") and called.entry == {"kind": "call", "card": "K♦"}
    assert s.current_player == 1 and all(a.id == parse_card(a.name) for a in s.legal_actions())


def test_a_discard_is_face_down_and_the_partner_shows_when_the_called_card_falls():
    s = scripted()
    for move in ("accept", "discard 9♣", "call K♦"):
        s.apply(move)
    assert {"seat": 0, "kind": "discard"} in s.observation(2)["actions"]
    assert {"seat": 0, "kind": "discard", "card": "9♣"} in s.observation(0)["actions"]
    assert parse_card("9♣") in s.hidden_cards(2) and parse_card("9♣") not in s.hidden_cards(0)
    assert s.observation(2)["partner"] is None and s.observation(3)["partner"] == 3  # seat 3 holds K♦
    while parse_card("K♦") not in s.played():
        legal = [a.name for a in s.legal_actions()]
        s.apply("K♦" if "K♦" in legal else legal[0])
    assert s.observation(2)["partner"] == 3


def test_an_illegal_card_names_the_rule():
    s = scripted()
    for move in ("accept", "discard 9♣", "alone", "J♥", "8♦", "9♠", "8♠"):
        s.apply(move)
    with pytest.raises(IllegalAction, match=r"seat 0: .*must follow the led effective suit\); legal: 8♥$"):
        s.apply({"kind": "play", "card": "A♣"})


def test_a_resampled_world_keeps_what_the_seat_knows_and_replays_under_the_rules():
    s = scripted(call_before_exchange=True)
    for move in ("accept", "call K♦", "discard 9♣", "J♥"):
        s.apply(move)
    rng = np.random.default_rng(1)
    worlds = [s.resample(2, rng) for _ in range(30)]
    assert all(w.observation(2) == s.observation(2) for w in worlds)
    assert len({str(w.record()["hands"]) for w in worlds}) > 1
    for w in worlds:  # nobody but seat 1 (the maker, who called it) may hold K♦, and seat 2's hand stays
        assert parse_card("K♦") not in w.held[1] and w.held[2] == s.held[2]
        w.play_out(["random"] * 5, rng)
        actions = [(a["seat"], a["kind"], parse_card(a["card"]) if "card" in a else -1) for a in w.record()["actions"]]
        assert check_hand(w.options, 0, w.hand.hands, w.hand.kitty, actions).scores == w.scores()
