"""The step API (cardlab.sim.state), for every registered game.

The kernels' own move logs are played through the state, move by move: every logged move must be
legal for the seat the state says is to move, and the finished state's record must be the replay's
record, scores included. A seat's observation never holds a card hidden from it, and a resampled
deal leaves that observation unchanged while it redeals the hidden cards.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from cardlab.sim.games import GAMES, game
from cardlab.sim.state import Action, IllegalAction, names_in

NAMES = list(GAMES)
#: Deals per table. The thousands of deals the standard asks for are test_conformance's referee sweeps
#: (2,000 deals per policy and game), which play the kernels' moves through this same state.
DEALS = 100
#: Each game's policies for the agreement runs: heuristic everywhere, and random mixed in.
TABLES = ("heuristic", "mixed")


def _policies(name, table):
    n = game(name).players(game(name).Options())
    return "heuristic" if table == "heuristic" else ",".join(("random", "heuristic")[s % 2] for s in range(n))


def _played_through_state(name, table, deals):
    g = game(name)
    study = g.build("deals", seed=41, policy=_policies(name, table))
    replay = g.replay_deals(study, deals)
    for deal, rec in zip(deals, replay.records):
        state = g.new_state(study, deal)
        for k, entry in enumerate(rec["actions"]):
            assert state.current_player == entry["seat"], (name, deal, k, entry)
            played = state.apply(entry)
            assert isinstance(played, Action)
        assert state.is_over and state.current_player == -1, (name, deal)
        assert state.record() == rec, (name, deal)
        assert list(state.scores()) == list(rec["scores"]), (name, deal)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("name", NAMES)
def test_the_kernels_moves_replay_through_the_state(name, table):
    _played_through_state(name, table, range(DEALS))


def _random_walk(name, deal, check, *, seed=0):
    """Play deal ``deal`` with random moves, calling ``check(state)`` before every move."""
    g = game(name)
    state = g.state(seed=seed, deal=deal)
    rng = np.random.default_rng(deal)
    while not state.is_over:
        check(state, rng)
        legal = state.legal_actions()
        assert legal, (name, deal)
        state.apply(legal[int(rng.integers(len(legal)))])
    assert len(state.scores()) == g.players(state_options(state))
    return state


def state_options(state):
    return state.study.options


@pytest.mark.parametrize("name", NAMES)
def test_an_observation_never_holds_a_hidden_card(name):
    from cardlab.sim import cards

    def check(state, rng):
        # A name all of whose copies are hidden from the seat must not appear in its view (Rami's
        # two decks: the seat's own 7♠ may be named while the other 7♠ is hidden).
        for seat in range(game(name).players(state_options(state))):
            obs = state.observation(seat)
            json.dumps(obs)  # JSON-ready
            hidden = Counter(state.card_name(c) for c in state.hidden_cards(seat))
            unseen = {c for c, k in hidden.items() if k == copies[c]}
            shown = set(names_in(obs))
            assert not unseen & shown, (name, seat, sorted(unseen & shown))

    first = game(name).state(seed=0, deal=0)
    copies = Counter(first.card_name(c) for c in first.deck_cards())

    for deal in range(12):
        _random_walk(name, deal, check)


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_deal_keeps_the_observation_and_redeals_the_hidden_cards(name):
    changed = []

    def check(state, rng):
        seat = state.current_player
        world = state.resample(seat, rng)
        assert world.observation(seat) == state.observation(seat), (name, seat)
        assert sorted(world.hidden_cards(seat)) == sorted(state.hidden_cards(seat)), (name, seat)
        changed.append(world.record()["hands"] != state.record()["hands"])
        # the world is a deal in its own right: it plays to the end under the rules (checked at every fourth
        # move: a Rami round has a few hundred, and each play-out is a round)
        if len(changed) % 4 == 1:
            world.play_out(["random"] * game(name).players(state_options(state)), rng)

    for deal in range(4):
        _random_walk(name, deal, check)
    assert any(changed), f"{name}: resample never moved a hidden card"


@pytest.mark.parametrize("name", NAMES)
def test_a_clone_is_independent(name):
    state = game(name).state(seed=3, deal=5)
    before = json.dumps(state.record(), ensure_ascii=False)
    copy = state.clone()
    copy.apply(copy.legal_actions()[-1])
    assert json.dumps(state.record(), ensure_ascii=False) == before
    assert copy.record() != state.record()


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_move_is_refused_in_one_line_naming_the_seat(name):
    state = game(name).state(seed=3, deal=2)
    legal = {a.id for a in state.legal_actions()}
    bad = next(i for i in range(10_000) if i not in legal)
    with pytest.raises(IllegalAction) as e:
        state.apply(bad)
    message = str(e.value)
    assert "\n" not in message and f"seat {state.current_player}" in message and "legal:" in message
    with pytest.raises(IllegalAction):
        state.apply("not a move")


@pytest.mark.parametrize("name", NAMES)
def test_action_ids_are_stable_across_deals(name):
    by_id, by_name = {}, {}
    for deal in range(6):
        def check(state, rng):
            for a in state.legal_actions():
                assert by_id.setdefault(a.id, a.name) == a.name, (name, a)
                assert by_name.setdefault(a.name, a.id) == a.id, (name, a)
        _random_walk(name, deal, check, seed=deal)
