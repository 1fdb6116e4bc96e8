"""Minchiate's step API on a shuffled pack: the decisions, what each seat sees, the record (no kernel)."""
import numpy as np
import pytest

from cardlab.sim.minchiate.referee import MinchiateState, json_record, referee_deal
from cardlab.sim.minchiate.rules import MinchiateOptions, card_name
from cardlab.sim.state import IllegalAction


def shuffled(deal=0, **rules):
    """A state whose cutter draws at least one card (so there are discards to make)."""
    rng = np.random.default_rng(deal)
    while True:
        state = MinchiateState(MinchiateOptions(**rules), deal, rng.permutation(97))
        if state.cutter_draw:
            return state


def test_the_discards_then_the_declarations_then_the_play():
    s = shuffled()
    assert s.current_player == s.cutter and {a.entry["kind"] for a in s.legal_actions()} == {"discard"}
    assert all(a.name == f"discard {card_name(a.id - 100)}" == f"discard {a.entry['card']}" for a in s.legal_actions())
    while s.phase == "discards":
        s.apply(s.legal_actions()[0])
    assert all(len(h) == 21 for h in s.hands)
    for j in range(1, 5):
        assert s.current_player == (s.dealer + j) % 4
        declare = s.legal_actions()
        assert [a.name for a in declare][0] == "declare 0" and all(a.id == 200 + a.entry["value"] for a in declare)
        s.apply(declare[-1])
    assert s.current_player == (s.dealer + 1) % 4 and all(a.id < 97 for a in s.legal_actions())


def test_discards_are_face_down_until_trick_one_is_over():
    s = shuffled(1)
    cutter, other = s.cutter, (s.cutter + 1) % 4
    while s.phase != "play":
        s.apply(s.legal_actions()[0])
    hidden = s.discards[cutter]
    assert s.observation(other)["discards"][str(cutter)] == len(hidden)
    assert s.observation(cutter)["discards"][str(cutter)] == [card_name(c) for c in sorted(hidden)]
    assert set(hidden) <= set(s.hidden_cards(other)) and not set(hidden) & set(s.hidden_cards(cutter))
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert not set(hidden) & set(s.hidden_cards(other))


def test_a_world_keeps_the_seat_s_view_and_its_record_is_the_referee_s():
    s = shuffled(2, declarations="mandatory_all", expose_last_cards="all_four")
    rng = np.random.default_rng(0)
    while s.phase != "play":
        s.apply(s.legal_actions()[0])
    seat = (s.cutter + 1) % 4
    worlds = [s.resample(seat, rng) for _ in range(10)]
    assert all(w.observation(seat) == s.observation(seat) for w in worlds)
    assert len({str(w.record()["hands"]) for w in worlds}) > 1
    w = worlds[0].play_out(["random"] * 4, rng)
    decided = {kind: [(p, v) for p, k, v in w.actions if k == kind] for kind in ("discard", "declare", "play")}
    declared = [dict((p, v) for p, v in decided["declare"])[p] for p in range(4)]
    rec = referee_deal(w.options, w.deal, w.perm, [c for p, c in decided["discard"] if p == w.cutter],
                       [c for p, c in decided["discard"] if p == w.dealer], declared, [c for _, c in decided["play"]])
    assert json_record(rec) == w.record() and w.scores() == w.record()["scores"]


def test_a_declaration_no_combination_is_worth_is_refused():
    s = shuffled(3)
    while s.phase == "discards":
        s.apply(s.legal_actions()[0])
    values = {a.entry["value"] for a in s.legal_actions()}
    bad = next(v for v in range(1, 500) if v not in values)
    with pytest.raises(IllegalAction, match=f"declared {bad}, which no subset"):
        s.apply({"kind": "declare", "value": bad})
