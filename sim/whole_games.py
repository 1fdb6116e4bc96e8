"""Whole games in the step API: a game's deals (hands, rounds) played move by move, one after another.

``game("euchre5").game_state(seed=0, game=3)`` gives a :class:`WholeGame` holding game 3 of
``simulate_games(seed=0)``: its first deal dealt as the kernels deal it, and each next one dealt when the
last is over, from where the kernels deal it (the game's stream carried on, the deal passing on), until
the game's end rule says it is over. It is a :class:`~cardlab.sim.state.State`: ``current_player``,
``legal_actions()``, ``apply(move)``, ``observation(seat)`` (the current deal's, with the game so far:
its deal number and the totals), ``scores()`` (the game's totals so far), ``clone()``, ``resample(seat,
rng)`` (the current deal's hidden cards) and ``record()`` (every deal's record). Played by the built-in
policies it gives the kernels' game rows exactly (``tests/test_whole_games.py``).

A game provides ``next_deal(study, index, finished)``: the state of the next deal of game ``index``
after the ``finished`` deal states (None: the game is over), and ``game_state_columns(games)``: the
game rows (the kernels' columns and types) of finished whole games. Barbu's declarers choose their
contracts between deals (Geronimo) as the kernels do, and with ``double`` every seat doubles by its doubling
policy as the kernels' round does.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.state import Action, State


class WholeGame(State):
    """Game ``index`` of ``study`` in progress: :attr:`finished` deals, then the :attr:`current` one."""

    def __init__(self, study, index: int):
        self.study, self.index = study, index
        self.finished: list[State] = []
        self.current: State | None = study.game.next_deal(study, index, self.finished)

    def _advance(self) -> None:
        """After a move: a finished deal joins :attr:`finished`, and the next one (if any) is dealt."""
        while self.current is not None and self.current.is_over:
            self.finished.append(self.current)
            self.current = self.study.game.next_deal(self.study, self.index, self.finished)

    # ---------------------------------------------------------------- the current deal's

    @property
    def deal(self) -> int:
        """The number of the deal under way within the game (from 0)."""
        return len(self.finished)

    @property
    def current_player(self) -> int:
        return -1 if self.current is None else self.current.current_player

    @property
    def is_over(self) -> bool:
        return self.current is None

    @property
    def stream(self):
        return None if self.current is None else self.current.stream

    @property
    def builtin_policies(self) -> tuple:
        return self.current.builtin_policies if self.current is not None else ()

    @property
    def notes(self) -> tuple:
        return self.current.notes if self.current is not None else ()

    def card_name(self, card: int) -> str:
        return (self.current or self.finished[-1]).card_name(card)

    def legal_actions(self) -> list[Action]:
        return [] if self.current is None else self.current.legal_actions()

    def _apply(self, action: Action) -> None:
        self.current._apply(action)
        self._advance()

    def _policy_action(self, policy: str) -> Action:
        return self.current.policy_action(policy)

    def play_builtin(self, policies) -> None:
        while self.current is not None and policies[self.current_player] in self.builtin_policies:
            self.current.play_builtin(policies)
            self._advance()

    def policy_ready(self) -> bool:
        return self.current is not None and self.current.policy_ready()

    def why_illegal(self, move) -> str:
        return "" if self.current is None else self.current.why_illegal(move)

    def observation(self, seat: int) -> dict:
        """The current deal's observation for ``seat`` (the last deal's once the game is over), with ``game``:
        the deal number within the game and the totals so far (public)."""
        view = (self.current or self.finished[-1]).observation(seat)
        return {**view, "game": {"deal": self.deal, "totals": self.scores()}}

    def hidden_cards(self, seat: int) -> list[int]:
        return [] if self.current is None else self.current.hidden_cards(seat)

    def resample(self, seat: int, rng) -> "WholeGame":
        """A copy whose current deal's hidden cards are redealt consistently with ``seat``'s view (the deals to
        come are dealt when they come)."""
        other = self.clone()
        if other.current is not None:
            other.current = other.current.resample(seat, rng)
        return other

    def deck_cards(self) -> list[int]:
        return (self.current or self.finished[-1]).deck_cards()

    # ---------------------------------------------------------------- the game's

    def scores(self) -> list:
        """The game's totals so far: each side's sum over the finished deals."""
        return game_totals(self.finished) if self.finished else [0] * len(self.current.scores())

    def record(self) -> dict:
        """The game's JSON record: the game, seed and options, and every finished deal's record in order."""
        return {"game": self.study.game.name, "seed": self.study.seed, "game_index": self.index,
                "options": self.study.options.to_dict(), "totals": self.scores(),
                "deals": [state.record() for state in self.finished]}

    def __repr__(self) -> str:
        turn = "over" if self.is_over else f"deal {self.deal}, seat {self.current_player} to move"
        return f"<{self.study.game.name} whole game {self.index}: {turn}>"


def play_game(study, index: int) -> WholeGame:
    """Game ``index`` of ``study`` played through the step API, every seat by its policy (as
    :func:`cardlab.sim.python_seats.play_deal` plays a deal)."""
    from cardlab.sim.python_seats import play_state

    state = WholeGame(study, index)
    return play_state(study, state, lambda: f"game {index}, deal {state.deal}", index)


def play_game_columns(study, first: int, count: int) -> dict:
    """The rows of whole games ``first .. first+count-1`` played through the step API (the game's
    ``game_state_columns``)."""
    return study.game.game_state_columns([play_game(study, g) for g in range(first, first + count)])


def total_columns(games: list) -> dict:
    """``total_<seat>`` (int16): each seat's running total over the deals of finished whole ``games``, deal by deal."""
    return seat_totals(np.concatenate([np.cumsum([s.scores() for s in g.finished], axis=0) for g in games]))


def seat_totals(totals: np.ndarray) -> dict:
    """``total_<seat>`` (int16) of each seat's column of ``totals`` (one row per deal): a game's running totals."""
    return {f"total_{p}": totals[:, p].astype(np.int16) for p in range(totals.shape[1])}


def game_totals(finished: list) -> list:
    """Each seat's (or side's) total over the ``finished`` deals of a game: the sum of their scores."""
    return [sum(p) for p in zip(*(s.scores() for s in finished))]


def game_slots(first: int, lengths: np.ndarray, slots: int, dtype=np.int16) -> tuple:
    """Which rows of a whole-games kernel's buffers hold deals (games x ``slots`` rows, game ``first + i`` filling its
    first ``lengths[i]``): that mask, then each deal's ``game`` (int64) and its number within the game (``dtype``), in
    row order (every deal of a game longer than ``slots`` too, though the mask holds only its first ``slots``).

    >>> keep, game, deal = game_slots(7, np.array([2, 1]), 3)
    >>> int(keep.sum()), game.tolist(), deal.tolist()
    (3, [7, 7, 8], [0, 1, 0])
    """
    keep = np.arange(slots)[None, :] < lengths[:, None]
    game = np.repeat(np.arange(first, first + len(lengths), dtype=np.int64), lengths)
    deal = np.arange(len(game)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return keep, game, deal.astype(dtype)


def slot_rows(play, first: int, count: int, slot: int, longest: int) -> tuple:
    """The rows of whole games ``first .. first+count-1`` from a games kernel that keeps each game's first ``slot``
    deals: ``play(first, count, slot)`` plays the games into buffers of games x ``slot`` x ... and returns ``(lengths,
    buffers)`` (each game's length, whatever its slots kept). A game longer than ``slot`` (rare) is played again alone
    with room for ``longest`` deals. Returns each deal's game and its number within the game (:func:`game_slots`),
    then each buffer's rows of the deals, in order.

    >>> def play(first, count, slot):  # game g lasts g deals; each deal's row is 10 * g + its number
    ...     lengths = np.arange(first, first + count)
    ...     rows = 10 * lengths[:, None] + np.minimum(np.arange(slot), lengths[:, None] - 1)
    ...     return lengths, [rows]
    >>> game, deal, (rows,) = slot_rows(play, 1, 3, 2, 5)
    >>> game.tolist(), deal.tolist(), rows.tolist()
    ([1, 2, 2, 3, 3, 3], [0, 0, 1, 0, 1, 2], [10, 20, 21, 30, 31, 32])
    """
    lengths, buffers = play(first, count, slot)
    keep, game, deal = game_slots(first, lengths, slot)
    long = lengths > slot
    keep[long] = False  # a long game's rows come from playing it alone
    rows = [np.empty((len(game), *b.shape[2:]), b.dtype) for b in buffers]
    for r, b in zip(rows, buffers):
        r[~long[game - first]] = b[keep]
    for j in np.flatnonzero(long):
        for r, b in zip(rows, play(first + j, 1, longest)[1]):
            r[game == first + j] = b[0, :lengths[j]]
    return game, deal, rows
