"""A PettingZoo AEC environment for every game: agents learn or play through the step API.

``cardlab.sim.environment.env("barbu", seed=0)`` is an :class:`pettingzoo.AECEnv` over the game's
:class:`~cardlab.sim.state.State` (``pip install 'cardlab[rl]'``). An episode is one deal: episode
``k`` after ``reset(seed=s)`` is deal ``k`` of ``simulate(seed=s, ...)`` with the same options, so an
episode replays alone from its (seed, deal), and ``reset(options={"deal": i})`` starts deal ``i``.

* **Agents** are ``player_0`` ... ``player_{n-1}``, seat for seat; the seat to move is
  ``agent_selection`` (a deal's order of play, not a fixed rotation: a Rami seat may move many
  times in a row).
* **Actions** are ``Discrete(n)`` indices over the game's stable action ids (``docs/rules/<game>.md``,
  "Step API"): the id itself in Barbu, Euchre, Hearts and Minchiate; in Rami, whose ids are sparse (a meld's
  id packs its cards), the index into a fixed table of every move the rules can name
  (:func:`action_ids`). ``action_mask`` marks the legal ones.
* **Observations** are ``{"observation": planes, "action_mask": mask}``. ``planes`` is an ``int8``
  array, one row per card set and one column per card kind of the deck (:attr:`CardGameEnv.kinds`;
  a count where the deck holds copies, as Rami's two packs): row 0 the seat's hand, rows 1..n the
  cards named in the moves of each seat, the observer's first and the others in order of play, then
  one row per public field of the game's observation (:data:`PUBLIC_FIELDS`: Euchre's upcard and
  trick, Minchiate's exposed cards, Rami's discard pile and table). Everything is read from the
  seat's own ``observation(seat)``, so no hidden card reaches it. The rest of that view (contract,
  trump, declarations, running scores) is :meth:`CardGameEnv.view`.
* **Rewards** come at the end of the deal: each seat's score, as in the run's rows
  (``state.scores()``); every step before that rewards 0.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector
except ImportError as e:  # pragma: no cover - the extra is part of make setup
    raise ImportError("cardlab.sim.environment needs PettingZoo: pip install 'cardlab[rl]'") from e

from cardlab.sim.games import game as game_of
from cardlab.sim.state import names_in

#: The fields of each game's ``observation(seat)`` besides the hand and the moves that hold cards
#: every seat sees: one plane each (every card named anywhere inside the field).
PUBLIC_FIELDS = {
    "barbu": (),
    "euchre5": ("upcard", "trick"),
    "hearts": ("passed", "received"),  # the seat's own pass: the cards it gave and the cards it got
    "minchiate": ("exposed", "fola", "cutter_draw", "dealer_draw", "declarations"),
    "rami": ("pile", "table", "known"),
}

#: Dense games: their action ids are small integers, used as they are (the space is 0..n-1).
#: Minchiate's declarations are 200 + the value shown; no hand's combinations reach 800.
DENSE_ACTIONS = {"barbu": 93, "euchre5": 199, "minchiate": 1000, "hearts": 128}  # Hearts: 64 + card, a pass


@lru_cache(maxsize=None)
def action_ids(name: str) -> tuple[int, ...]:
    """Every action id of game ``name``, in the order of the environment's ``Discrete`` space."""
    if name in DENSE_ACTIONS:
        return tuple(range(DENSE_ACTIONS[name]))
    if name != "rami":
        raise ValueError(f"game: {name} has no action table for the environment yet")
    return _rami_ids()


def _rami_ids() -> tuple[int, ...]:
    """Rami's moves (``docs/rules/rami.md``, "Step API"): draw, take and discard a kind, open, lay off
    on or retrieve from any of 36 table melds (108 cards make at most 36), and every meld the rules
    allow with up to two jokers: sets of 3-4 cards of one rank, runs of 3-14 positions of one suit,
    more naturals than jokers."""
    from cardlab.sim.rami.state import LAYOFF, MELD, RETRIEVE

    kinds, table = 53, 36
    ids = [0] + [1 + k for k in range(kinds)] + [100 + k for k in range(kinds)] + [200, 201]
    ids += [LAYOFF + (m * kinds + k) * 3 + end for m in range(table) for k in range(kinds) for end in range(3)]
    ids += [RETRIEVE + m * kinds + k for m in range(table) for k in range(kinds)]

    def meld(typ, a, b, c, d):
        return MELD + (((((typ * 16 + a) * 16 + b) * 16 + c) << 15) | d)

    for rank in range(1, 14):
        for suits in range(1, 16):
            naturals = bin(suits).count("1")
            ids += [meld(0, rank, suits, j, 0) for j in range(3) if naturals > j and 3 <= naturals + j <= 4]
    for suit in range(4):
        for low in range(1, 15):
            for high in range(low + 2, 15):
                span = list(range(low, high + 1))
                masks = [0] + [1 << p for p in span] + [(1 << p) | (1 << q) for i, p in enumerate(span)
                                                        for q in span[i + 1:]]
                ids += [meld(1, suit, low, high, d) for d in masks
                        if len(span) - bin(d).count("1") > bin(d).count("1")]
    return tuple(ids)


class CardGameEnv(AECEnv):
    """One game as a PettingZoo AEC environment (module docstring). ``options`` are the game's own
    (``players=``, ``deck=``, ``contract=`` ...), as ``simulate`` takes them; ``seed`` the first reset's."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, *, seed: int = 0, render_mode: str | None = None, **options):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode: {render_mode!r} is not allowed; use one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        self.game = game_of(game)
        self.metadata = {**self.metadata, "name": f"cardlab_{self.game.name}_v0"}
        self.render_mode = render_mode
        self.options = options
        self._seed, self._deal = seed, 0
        self.game_state = self._new_state()
        deck = self.game_state.deck_cards()
        names = [self.game_state.card_name(c) for c in deck]
        #: Column names of the planes: every card kind of the deck, in deck order.
        self.kinds = tuple(dict.fromkeys(names))
        self._column = {k: i for i, k in enumerate(self.kinds)}
        self._copies = copies = max(names.count(k) for k in self.kinds)
        self.n_players = self.game.players(self.game_state.study.options)
        self.possible_agents = [f"player_{s}" for s in range(self.n_players)]
        self._public = PUBLIC_FIELDS.get(self.game.name, ())
        #: Row names of the planes.
        self.planes = ("hand", *(f"moves of seat +{k}" for k in range(self.n_players)), *self._public)
        self._ids = action_ids(self.game.name)
        self._index = {a: i for i, a in enumerate(self._ids)}
        shape = (len(self.planes), len(self.kinds))
        space = spaces.Dict({"observation": spaces.Box(0, copies, shape, np.int8),
                             "action_mask": spaces.Box(0, 1, (len(self._ids),), np.int8)})
        self._observation_spaces = {a: space for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(len(self._ids)) for a in self.possible_agents}
        self.agents = []

    # ---------------------------------------------------------------- PettingZoo's API

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start the next deal: deal 0 of ``seed`` when one is given, deal ``options["deal"]`` when
        given, else the deal after the last one (other keys of ``options`` are ignored)."""
        if seed is not None:
            self._seed, self._deal = int(seed), 0
        elif self.agents or self.game_state.is_over:
            self._deal += 1
        if options and "deal" in options:
            self._deal = int(options["deal"])
        self.game_state = self._new_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._selector = None
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def step(self, action):
        """Play ``action`` (an index of the action space) for ``agent_selection``; after the deal's last
        move every agent is terminated with its score as reward, then steps once with ``None``."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._ids):
            raise ValueError(f"action: {action!r} is not allowed; use an index from 0 to {len(self._ids) - 1} "
                             f"marked in the observation's action_mask")
        agent = self.agent_selection
        self.game_state.apply(self._ids[int(action)])
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self.game_state.is_over:
            scores = self.game_state.scores()
            self.rewards = {a: float(scores[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
            self._selector = AgentSelector(self.agents)
            self.agent_selection = self._selector.reset()
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(len(self._ids), np.int8)
        if not self.game_state.is_over and seat == self.game_state.current_player:
            for a in self.game_state.legal_actions():
                if a.id not in self._index:
                    raise RuntimeError(f"{self.game.name}: the legal move {a.name} (id {a.id}) has no index in "
                                       f"the environment's action table")
                mask[self._index[a.id]] = 1
        return {"observation": self._planes(seat), "action_mask": mask}

    def render(self):
        text = f"{self.game_state!r}\n{self.view(self.agent_selection)}"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass

    # ---------------------------------------------------------------- cardlab's part

    def view(self, agent) -> dict:
        """Everything ``agent`` knows, as the state's JSON-ready ``observation(seat)``."""
        return self.game_state.observation(self.possible_agents.index(agent))

    def action_index(self, move) -> int:
        """The action-space index of ``move`` (an Action, its id, name or record entry), legal now."""
        return self._index[self.game_state.action(move).id]

    def action_name(self, index: int) -> str:
        """The readable name of action ``index`` when it is legal now (``K♥``, ``meld 7♠ 8♠ 9♠``)."""
        return self.game_state.action(self._ids[int(index)]).name

    def _new_state(self):
        return self.game.state(seed=self._seed, deal=self._deal, **self.options)

    def _planes(self, seat: int) -> np.ndarray:
        obs = self.game_state.observation(seat)
        out = np.zeros((len(self.planes), len(self.kinds)), np.int8)
        col = self._column
        for name in obs["hand"]:
            out[0, col[name]] += 1
        for entry in obs["actions"]:
            row = 1 + (entry["seat"] - seat) % self.n_players
            for name in names_in([entry.get("card"), entry.get("cards")]):
                out[row, col[name]] += 1
        for i, field in enumerate(self._public):
            for name in names_in(obs.get(field)):
                if name in col:  # a combination's label (Minchiate's "C4") is not a card
                    out[1 + self.n_players + i, col[name]] += 1
        return np.minimum(out, self._copies, out=out)  # a card named twice (taken, then laid off) counts once


def env(game: str, **keywords) -> CardGameEnv:
    """The PettingZoo AEC environment of game ``game`` (``"barbu"``, ``"euchre5"``, ...); keywords as
    :class:`CardGameEnv`."""
    return CardGameEnv(game, **keywords)
