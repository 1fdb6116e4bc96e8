"""Your own player in Python: a seat played by any function ``(observation, legal_actions) -> move``.

Give the function where a policy name goes (``simulate(policy=[mine, "heuristic", ...])``); the
deals of such a run are played through the game's step API (:mod:`cardlab.sim.state`): your seat is
asked for each of its moves with exactly what it knows, the other seats play their policies (the
game's own built-in decisions, the same as in its kernels: ``State.policy_action``), and every move
is checked by the rules. The rows are the kernels' rows, column for column.

A seat's ``random`` policy draws from the deal's own stream as the kernels do (``State.stream``) in
Euchre, Minchiate and Rami; in Barbu from a generator seeded by ``(seed, deal)``, so there a random
seat at a table with a Python seat plays other moves than in a plain run. The heuristic seats play
the kernels' moves: a table of built-in seats only, played this way, gives the kernels' rows exactly
(``tests/test_python_seats.py``).

A function that raises, returns something that is not one of the legal moves, or returns nothing
stops the run with one line naming the seat, the deal and the move (or the exception); no rows are
kept and no file is left. In the run's metadata the seat is ``python:<module>.<function>``.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.state import IllegalAction

PREFIX = "python:"
_REGISTERED: dict[str, object] = {}


def is_python_policy(obj) -> bool:
    """A plain callable (not a Numba function, not a policy name)."""
    from cardlab.sim.user import is_numba_function

    return callable(obj) and not isinstance(obj, str) and not is_numba_function(obj)


def is_python_name(name) -> bool:
    return isinstance(name, str) and name.startswith(PREFIX)


def name_of(fn) -> str:
    return f"{PREFIX}{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', type(fn).__name__)}"


def register(fn, game, seat: int) -> str:
    """``fn``'s policy name, remembered for this process; refused where the game cannot run Python seats."""
    from cardlab.sim.game import Game

    if type(game).state_columns is Game.state_columns and type(game).state_rows is Game.state_rows:  # no rows
        raise ValueError(f"policy: seat {seat}: {game.name} runs no Python seat yet; play one deal with it through "
                         f"the step API (game('{game.name}').state(...).play_out([...]))")
    name = name_of(fn)
    _REGISTERED[name] = fn
    return name


def resolve(name: str):
    """The function behind a ``python:`` policy name: the one given in this process, else imported."""
    from cardlab.sim.user import import_named

    return _REGISTERED[name] if name in _REGISTERED else import_named(name, PREFIX)


def _spell(move) -> str:
    text = repr(move)
    return text if len(text) <= 60 else text[:57] + "..."


def play_deal(study, deal: int):
    """Deal ``deal`` of ``study`` played through the state, every seat by its policy; the finished state."""
    return play_state(study, study.game.new_state(study, deal), lambda: f"deal {deal}", deal)


def play_state(study, state, where, index: int = 0):
    """``state`` (a deal, or a whole game: :mod:`cardlab.sim.whole_games`) played to its end, every seat by its
    policy; an error names the seat and ``where()`` the move was asked (``deal 12``). Returns the state."""
    rng = np.random.default_rng([study.seed, index, 0x5EA7])
    seats = [resolve(p) if is_python_name(p) else p for p in study.policies]
    while not state.is_over:
        seat = state.current_player
        policy = seats[seat]
        if not callable(policy) and (policy != "random" or policy in state.builtin_policies):
            if policy not in state.builtin_policies:
                state.policy_action(policy)  # refused in one line: a policy the state does not play
            state.play_builtin(seats)  # the built-in seats, until a Python (or game-less random) seat is to move
            continue
        legal = state.legal_actions()
        if callable(policy):
            try:
                move = policy(state.observation(seat), legal)
            except Exception as e:  # noqa: BLE001 - the user's code: reported in one line, with the deal
                raise ValueError(f"policy: seat {seat} ({study.policies[seat]}) raised {type(e).__name__}: {e} "
                                 f"in {where()}") from e
            try:
                state.apply(move, legal)
            except IllegalAction:
                raise ValueError(f"policy: seat {seat} ({study.policies[seat]}) returned {_spell(move)} in {where()}, "
                                 f"which is not one of its legal moves there "
                                 f"({', '.join(a.name for a in legal)})") from None
        else:  # a random seat where the game's state has no random policy of its own (Barbu)
            state._apply(legal[int(rng.integers(len(legal)))])
    return state


def play_deals(study, first: int, count: int) -> list:
    """Deals ``first .. first+count-1`` played through the state (see the module docstring)."""
    return [play_deal(study, i) for i in range(first, first + count)]


def play_columns(study, first: int, count: int) -> dict:
    """The rows of deals ``first .. first+count-1`` (the game's ``state_columns`` of :func:`play_deals`)."""
    return study.game.state_columns(play_deals(study, first, count))
