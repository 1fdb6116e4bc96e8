"""The step API: one deal played move by move from Python, under the game's rules.

``cardlab.sim.games.game("barbu").state(seed=0, deal=7)`` gives a :class:`State` holding deal 7 of
``simulate(seed=0)``, dealt card for card as the kernels deal it. A caller (a person, a notebook, an
agent) then asks whose turn it is and what they may do, and applies one move at a time:

>>> from cardlab.sim.games import game
>>> s = game("barbu").state(seed=0, deal=3)          # doctest: +SKIP
>>> s.current_player, [a.name for a in s.legal_actions()][:3]   # doctest: +SKIP
(0, ['2♣', '3♣', '7♣'])
>>> s.apply("3♣")                                  # doctest: +SKIP

The rules are the game's referee's, in plain Python: the same code checks a kernel's move log in
``replay``, so the state and the kernels agree move for move (``tests/test_state.py`` plays the
kernels' logs through the state on thousands of deals per game).

Every move is an :class:`Action`: a stable integer ``id`` (the same move has the same id in every
deal of the game), a readable ``name`` (``K♥``, ``pass``, ``meld 7♠ 8♠ 9♠``) and its ``entry`` in
the JSON record (``{"kind": "play", "card": "K♥"}``, as in ``replay --json``). A game's state
implements the few methods marked below; the rest is shared here.
"""
from __future__ import annotations

import copy
from typing import Callable, NamedTuple


class Action(NamedTuple):
    """One move: ``id`` stable within the game, ``name`` readable, ``entry`` its JSON record (no seat)."""

    id: int
    name: str
    entry: dict

    def __str__(self) -> str:
        return self.name


class IllegalAction(ValueError):
    """A move that is not legal now: the message names the seat, the move and what the rules allow."""


class State:
    """A deal in progress. A game's subclass provides (with the rule it codes in each docstring):

    * ``current_player`` (property): the seat to move, -1 once the deal is over;
    * ``legal_actions()``: the :class:`Action` list of the seat to move, in a fixed order;
    * ``_apply(action)``: play an action already known to be legal;
    * ``observation(seat)``: a JSON-ready dict of exactly what ``seat`` knows (its hand, the cards
      played, the public events), never a card hidden from it;
    * ``hidden_cards(seat)``: the card ids ``seat`` cannot see (for the tests and ``resample``);
    * ``resample(seat, rng)``: a copy whose hidden cards are redealt at random, consistently with
      ``observation(seat)`` (what it saw, such as a suit a seat showed out of);
    * ``is_over`` (property), ``scores()`` (one number per seat, as the run's rows) and ``record()``
      (the deal's JSON record, the shape of ``replay --json``);
    * ``deck_cards()``: every card id of the deal (a duplicate card once per copy) and
      ``card_name(card)`` its readable name (default: :func:`cardlab.sim.cards.card_name`);
    * ``why_illegal(action)`` optionally: the rule a move breaks, for the error message;
    * ``notes`` optionally: the keys its record adds to an action's entry (read past by :meth:`action`);
    * ``builtin_policies`` and ``_policy_action(policy)`` optionally: the policies whose moves the state
      gives itself (:meth:`policy_action`), the kernels' own decisions.

    A state keeps the :class:`~cardlab.sim.game.Study` it was made from as ``study`` (options,
    policies, seed) and its deal index as ``deal``.
    """

    study = None
    deal = 0
    #: Keys a record's action may carry that describe the move without choosing it (Rami: which copy of a
    #: twin card moved); :meth:`action` reads a record's entry without them.
    notes: tuple = ()
    #: The built-in policies :meth:`policy_action` plays here (the kernels' own decisions on the state's view).
    builtin_policies: tuple = ()
    #: The deal's random stream as the kernels hold it at this point (``(seed, deal)`` after the deal, advanced by
    #: each random decision of a built-in seat), where the game's random seats draw from it; None otherwise.
    stream = None

    @property
    def game(self):
        """The :class:`~cardlab.sim.game.Game` this state belongs to: its study's."""
        return self.study.game if self.study is not None else None

    @staticmethod
    def card_name(card: int) -> str:
        from cardlab.sim.cards import card_name

        return card_name(card)

    # ---------------------------------------------------------------- shared

    def action(self, move, legal=None) -> Action:
        """The legal :class:`Action` meant by ``move``: an Action, its integer id, its name, or its
        record entry; :class:`IllegalAction` (naming the seat, the move and the legal moves) otherwise.
        ``legal``: the seat's :meth:`legal_actions` when the caller has them already."""
        if self.is_over:
            raise IllegalAction(f"{move}: the deal is over; no move is legal")
        legal = self.legal_actions() if legal is None else legal
        if isinstance(move, Action):
            for a in legal:  # the very object listed (a policy's usual answer): no comparison of contents
                if a is move:
                    return a
        if isinstance(move, dict) and self.notes:
            move = {k: v for k, v in move.items() if k not in self.notes}
        for a in legal:
            if (move == a if isinstance(move, Action) else
                    move == a.id if isinstance(move, (int,)) and not isinstance(move, bool) else
                    move == a.entry or move == {**a.entry, "seat": self.current_player}
                    if isinstance(move, dict) else
                    isinstance(move, str) and _same_name(move, a.name)):
                return a
        shown = ", ".join(a.name for a in legal)
        why = self.why_illegal(move)
        raise IllegalAction(f"seat {self.current_player}: {_spell(move)} is not legal"
                            + (f" ({why})" if why else "") + f"; legal: {shown}")

    def apply(self, move, legal=None) -> Action:
        """Play ``move`` (see :meth:`action`) for the seat to move; returns the :class:`Action` played."""
        a = self.action(move, legal)
        self._apply(a)
        return a

    def clone(self) -> "State":
        """An independent copy: moves applied to it leave this state unchanged."""
        return copy.deepcopy(self)

    def play_out(self, policies, rng=None) -> "State":
        """Play to the end, each seat's move from ``policies[seat]``: a callable ``(observation,
        legal_actions) -> move`` or ``"random"`` (uniform over the legal moves, drawn from ``rng``)."""
        import numpy as np

        rng = rng if rng is not None else np.random.default_rng(0)
        while not self.is_over:
            seat = self.current_player
            legal = self.legal_actions()
            policy = policies[seat]
            if policy == "random":
                move = legal[int(rng.integers(len(legal)))]
            else:
                move = policy(self.observation(seat), legal)
            self.apply(move)
        return self

    def policy_action(self, policy: str) -> Action:
        """The move a built-in seat of ``policy`` (one of :attr:`builtin_policies`) makes here: the kernels' own
        decision, so a table with a Python seat plays as the kernels do (a random seat draws from
        :attr:`stream` and advances it)."""
        if policy not in self.builtin_policies:
            game = self.game.name if self.game else "this game"
            allowed = " or ".join(self.builtin_policies) or "none yet"
            raise ValueError(f"policy: {policy} seats do not play in {game}'s step API; give {allowed}")
        if policy == "random" and self.stream is None:
            raise ValueError("policy: a random seat draws from the deal's stream, which this state (not made by "
                             "game.state(...): a resampled or rebuilt deal) does not hold")
        return self._policy_action(policy)

    def _policy_action(self, policy: str) -> Action:
        raise NotImplementedError

    def play_builtin(self, policies) -> None:
        """Play the built-in seats' moves (a seat whose ``policies`` entry is one of :attr:`builtin_policies`) until a
        seat with another policy is to move, or the deal is over. One :meth:`policy_action` a move here; a game may
        play the moves in bulk (Barbu: the kernel's own loop between a Python seat's turns)."""
        while not self.is_over and policies[self.current_player] in self.builtin_policies:
            self._apply(self.policy_action(policies[self.current_player]))

    def search_means(self, worlds: int) -> dict | None:
        """``{action id: mean final score}`` of the seat to move's legal moves by the kernels' own search over
        ``worlds`` sampled deals (what ``cardlab play``'s hint shows), or None where the game's step API does not
        run its search here (the hint then searches in Python: :func:`cardlab.sim.play.hint_means`)."""
        return None

    def policy_ready(self) -> bool:
        """Whether a built-in seat can move now (Rami's play whole turns, so not within a turn another began)."""
        return True

    def why_illegal(self, move) -> str:
        """The rule ``move`` breaks now, in a few words; empty when the list of legal moves says enough."""
        return ""

    def __repr__(self) -> str:
        turn = "over" if self.is_over else f"seat {self.current_player} to move"
        return f"<{self.game.name if self.game else 'game'} state: {turn}>"

    # ---------------------------------------------------------------- the game's part

    @property
    def current_player(self) -> int:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def observation(self, seat: int) -> dict:
        raise NotImplementedError

    def hidden_cards(self, seat: int) -> list[int]:
        raise NotImplementedError

    def resample(self, seat: int, rng) -> "State":
        raise NotImplementedError

    def scores(self) -> list:
        raise NotImplementedError

    def deck_cards(self) -> list[int]:
        raise NotImplementedError

    def record(self) -> dict:
        raise NotImplementedError


def as_stream(value) -> int:
    """A kernel's random stream (a uint64, which Numba may hand back as an int64) as the non-negative Python int
    :attr:`State.stream` keeps."""
    return int(value) & 0xFFFF_FFFF_FFFF_FFFF


def shown_absent(replay: State, actions, seat: int, hidden: set, counts=None) -> list[set]:
    """Per seat, the cards of ``hidden`` (hidden from ``seat``) that its moves showed it cannot hold: ``replay``, the
    deal before its first move, makes ``actions`` again (each taken as the replay stands when it is drawn from the
    iterable), and before each move of another seat (one that ``counts(action)``, every one by default) each hidden
    card is tried in that seat's hand: a card with which the move it made would have been illegal (a suit it showed
    out of, a trump it did not play, a pass while holding a playable card) is one it cannot hold."""
    out = [set() for _ in replay.hands]
    for action in actions:
        p = replay.current_player
        if p != seat and (counts is None or counts(action)):
            for x in hidden - replay.hands[p] - out[p]:
                replay.hands[p].add(x)
                if all(a.id != action.id for a in replay.legal_actions()):
                    out[p].add(x)
                replay.hands[p].discard(x)
        replay._apply(action)
    return out


def search_settings(state, policy: str, worlds: int | None = None) -> tuple:
    """``(seat policies, worlds, rollout policy id)`` a step-API state hands its game's searched kernel for the seat
    to move deciding as a ``policy`` (``search`` or ``oracle``) seat: every other seat the heuristic (the searched
    kernel is given their moves), ``worlds`` (else the study's, else the game's default), the study's rollout when
    it searches (else the heuristic)."""
    import numpy as np

    from cardlab.sim.policy import POLICY

    study = state.study
    policies = np.full(study.game.players(study.options), POLICY.HEURISTIC, np.int64)
    policies[state.current_player] = POLICY.ORACLE if policy == "oracle" else POLICY.SEARCH
    return (policies, worlds or study.search_worlds or study.game.default_worlds,
            study.rollout_id if study.searching else POLICY.HEURISTIC)


#: A Python policy: ``(observation, legal_actions) -> move`` (an Action, its id, name or entry).
PythonPolicy = Callable[[dict, list], object]


def names_in(value):
    """Every string inside an observation or one of its fields, at any depth (dict values and list items,
    not dict keys): the cards a seat is shown are written one per string."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from names_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from names_in(v)


def _same_name(text: str, name: str) -> bool:
    """Names match ignoring case and runs of spaces: ``'k♥'`` is ``'K♥'``, ``'meld  7♠ 8♠ 9♠'``
    is ``'meld 7♠ 8♠ 9♠'``."""
    return " ".join(text.split()).casefold() == " ".join(name.split()).casefold()


def _spell(move) -> str:
    if isinstance(move, Action):
        return move.name
    return repr(move) if not isinstance(move, str) else move
