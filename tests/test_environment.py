"""The PettingZoo environment (cardlab.sim.environment): PettingZoo's own API test in every game, episodes
that are the runs' deals, masks that are the legal moves, and planes that hidden cards never change."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from cardlab.sim.environment import CardGameEnv, action_ids, env  # noqa: E402
from cardlab.sim.games import GAMES, game  # noqa: E402

NAMES = list(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoos_api_test_passes(name):
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation (the action-mask convention it asks for).
        warnings.filterwarnings("ignore", message="Observation")
        api_test(env(name, seed=3), num_cycles=1000)


def _play(e, rng, prefer=None):
    """One episode with random legal moves (or, when ``prefer`` picks some, one of those): the moves'
    names and the final rewards."""
    names = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.game_state.current_player == e.possible_agents.index(agent)
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(e.action_index(a) for a in e.game_state.legal_actions()) == legal.tolist()
        chosen = [i for i in legal if prefer and prefer(e.action_name(i))] or legal
        index = int(chosen[int(rng.integers(len(chosen)))])
        names.append(e.action_name(index))
        e.step(index)
    return names, dict(e.rewards)


@pytest.mark.parametrize("name", NAMES)
def test_an_episode_is_the_runs_deal_and_pays_its_scores(name):
    e = env(name, seed=9)
    e.reset(seed=9)
    e.reset()  # the second episode of seed 9: deal 1
    names, _ = _play(e, np.random.default_rng(0))
    again = game(name).state(seed=9, deal=1)
    for n in names:
        again.apply(n)
    assert again.is_over and e.game_state.record() == again.record()
    e.reset(options={"deal": 1})
    assert e.game_state.record() == game(name).state(seed=9, deal=1).record()


@pytest.mark.parametrize("name", NAMES)
def test_the_rewards_are_the_scores(name):
    e = env(name, seed=4)
    e.reset(seed=4)
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated:
            rewards[agent] = reward
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert [rewards[a] for a in e.possible_agents] == [float(s) for s in e.game_state.scores()]


@pytest.mark.parametrize("name", NAMES)
def test_hidden_cards_never_change_a_seats_planes(name):
    """A resampled deal (the hidden cards redealt, the seat's view kept) gives the seat the same planes."""
    e = env(name, seed=2)
    e.reset(seed=2)
    rng = np.random.default_rng(5)
    for step in range(40):
        if e.game_state.is_over:
            break
        seat = e.game_state.current_player
        mine = e._planes(seat)
        assert mine[0].sum() == len(e.view(e.agent_selection)["hand"]) > 0
        real = e.game_state
        e.game_state = real.resample(seat, rng)
        assert np.array_equal(e._planes(seat), mine), (name, step)
        e.game_state = real
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[int(rng.integers(len(legal)))]))


def test_every_rami_move_the_rules_name_has_an_index():
    """Rami's ids are sparse (a meld packs its cards): rounds played by a seat that melds and lays off
    whenever it can reach melds of every shape, each legal one indexed in the table."""
    e = env("rami", seed=1)
    rng = np.random.default_rng(1)
    shapes = set()
    for deal in range(8):
        e.reset(options={"deal": deal})
        names, _ = _play(e, rng, prefer=lambda n: n.startswith(("meld", "lay off", "open", "retrieve")))
        shapes.update(n.split()[0] for n in names)
    assert {"meld", "lay", "open", "discard", "draw"} <= shapes
    ids = action_ids("rami")
    assert len(set(ids)) == len(ids)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="render_mode: 'nope' is not allowed"):
        CardGameEnv("barbu", render_mode="nope")
    e = env("barbu")
    e.reset(seed=0)
    with pytest.raises(ValueError, match="action: 93 is not allowed; use an index from 0 to 92"):
        e.step(93)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal"):
        e.step(illegal)
