"""Your own player in Numba: a seat played by your ``@njit`` function inside the game's kernels.

Give the function where a policy name goes, and its seats play at the kernels' speed in
``simulate``, ``simulate_games`` and the studies, while the other seats keep their policies::

    from numba import njit
    from cardlab.sim.cards import lowest_card

    @njit(cache=True)
    def lowest(hand, legal, led, best, trump, last, unseen, values, points):
        return lowest_card(legal)

    barbu.simulate(deals=100_000, policy=[lowest, "heuristic", "heuristic", "heuristic"])

A game that offers Numba seats declares a :class:`NumbaSeat`: the decision the function makes,
its arguments (the seat's view: what it may know, as integers and arrays) and the kernel id of
its seats. The function is checked against that signature before any deal is played. In the
run's metadata and on its rows the seat's policy is named ``numba:<module>.<function>``; a
process that plays part of the run (``executor=``) imports the function from its module, so
define it in an importable module (a notebook's functions serve threads and the default runner).

A seat may make more than one kind of decision (Euchre's bids beside its cards, Barbu's Domino
beside its trick contracts). The game's main decision is the one a single function plays; give a
dict to play others too, ``{"card": lowest, "bid": never}``, written
``numba:mybots.lowest+bid=mybots.never`` on the rows. The main decision must be in it; a decision
left out is the heuristic's, and an extra decision's function may return -1 to leave that one move
to the heuristic.

Your function is compiled once more as a C callback (``numba.cfunc``) of the seat's signature and
handed to the kernels as a function pointer: the kernels are compiled for the signature, not for
your function, so a new function costs only its own compile (about a second), cached with
``cache=True`` in your module's ``__pycache__``. Numba does not see an edit to a function *yours
calls*: touch your function (or clear that cache) after one.
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import Callable, NamedTuple

PREFIX = "numba:"
_REGISTERED: dict[tuple, tuple] = {}  # (name, signature) -> (the function, its compiled callback)


class Decision(NamedTuple):
    """A decision of a game's Numba seat: its key in a player's dict, its name in words, the documented
    signature and the Numba signature. An extra decision's function (beside the seat's main one) may
    return -1 to leave the move to the heuristic."""

    key: str  # "bid"
    decision: str  # "the bids"
    signature: str
    numba_signature: Callable[[], object]


class NumbaSeat(NamedTuple):
    """What a game's Numba seat is: its main decision, the documented signature, the Numba signature (a
    function returning it, so that declaring a seat imports no Numba), the kernel id of its seats, the
    main decision's key in a player's dict, and the seat's extra :class:`Decision` s."""

    decision: str  # "card play in trick contracts"
    signature: str  # "card(hand: uint64, legal: uint64, ...) -> int64"
    numba_signature: Callable[[], object]  # () -> numba Signature, e.g. types.int64(types.uint64, ...)
    kernel_id: int
    key: str = "card"
    extras: tuple = ()

    def decisions(self) -> dict:
        """``{key: Decision}`` of every decision of the seat, the main one first."""
        return {self.key: Decision(self.key, self.decision, self.signature, self.numba_signature),
                **{d.key: d for d in self.extras}}


def is_numba_function(obj) -> bool:
    """Whether ``obj`` is a Numba-compiled function (a dispatcher of ``@njit``)."""
    try:
        from numba.core.registry import CPUDispatcher
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    return isinstance(obj, CPUDispatcher)


def is_numba_name(name) -> bool:
    return isinstance(name, str) and name.startswith(PREFIX)


def is_numba_player(obj) -> bool:
    """A Numba function, or a dict of them (a player of several decisions: ``{"card": f, "bid": g}``)."""
    return is_numba_function(obj) or (isinstance(obj, dict) and bool(obj)
                                      and all(is_numba_function(f) for f in obj.values()))


def name_of(fn) -> str:
    """``numba:<module>.<qualname>`` of a Numba function; of a player's dict, its main function's name
    followed by ``+<key>=<module>.<qualname>`` for each other decision (in the dict's order)."""
    if isinstance(fn, dict):
        main, *others = fn.items()
        return name_of(main[1]) + "".join(f"+{key}={name_of(f)[len(PREFIX):]}" for key, f in others)
    py = fn.py_func
    return f"{PREFIX}{py.__module__}.{py.__qualname__}"


def player_parts(name: str, seat_kind: NumbaSeat) -> dict:
    """``{key: numba:<module>.<function>}`` of a player's name (its main decision under the seat's key)."""
    main, *others = name.split("+")
    parts = {seat_kind.key: main}
    for other in others:
        key, _, function = other.partition("=")
        parts[key] = PREFIX + function
    return parts


def import_named(name: str, prefix: str):
    """The function a ``<prefix><module>.<function>`` policy name names, imported (a module beside the
    user is found, as for ``python -m``); a one-line ``ValueError`` when there is none."""
    module, _, attr = name[len(prefix):].rpartition(".")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError, ValueError):
        raise ValueError(f"policy: {name} cannot be found in this process; define the function in an importable "
                         f"module (not __main__) to play it in other processes") from None


def resolve(name: str, seat_kind: NumbaSeat | None = None):
    """The function behind a ``numba:`` policy name: the one given in this process, else imported; a
    player's name of several decisions (``+``) gives its dict of functions."""
    if "+" in name and seat_kind is not None:
        return {key: resolve(function) for key, function in player_parts(name, seat_kind).items()}
    known = next((entry[0] for (function, _), entry in _REGISTERED.items() if function == name), None)
    if known is not None:
        return known
    fn = import_named(name, PREFIX)
    if not is_numba_function(fn):
        raise ValueError(f"policy: {name} is not a Numba function (decorate it with @njit)")
    return fn


def _player(player, seat_kind: NumbaSeat, game_name: str, seat: int) -> dict:
    """``{key: function}`` of a player (one function: the main decision), its keys checked in one line."""
    if not isinstance(player, dict):
        return {seat_kind.key: player}
    allowed = seat_kind.decisions()
    for key in player:
        if key not in allowed:
            raise ValueError(f"policy: seat {seat}: {key!r} is not a decision of {game_name}'s Numba seat; give "
                             f"{', '.join(allowed)}")
    if seat_kind.key not in player:
        raise ValueError(f"policy: seat {seat}: a player's dict needs its main decision {seat_kind.key!r} "
                         f"({seat_kind.decision}); the others ({', '.join(list(allowed)[1:])}) may be left out")
    return {seat_kind.key: player[seat_kind.key], **{k: f for k, f in player.items() if k != seat_kind.key}}


def check(player, seat_kind: NumbaSeat | None, game_name: str, seat: int) -> str:
    """Compile ``player`` (a function, or a dict of them by decision) for the game's Numba seat and
    register it; returns its policy name.

    Refused before any deal is played, in one line with the expected signature: a game without
    Numba seats, a decision the seat does not make, a function that does not compile for its
    decision's arguments and result."""
    if seat_kind is None:
        raise ValueError(f"policy: seat {seat}: {game_name} has no Numba seats yet; give a policy name")
    functions = _player(player, seat_kind, game_name, seat)
    decisions = seat_kind.decisions()
    for key, fn in functions.items():  # a callback per function and signature (games share decision keys)
        entry = (name_of(fn), decisions[key].signature)
        if entry not in _REGISTERED or _REGISTERED[entry][0] is not fn:
            _REGISTERED[entry] = (fn, _callback(fn, decisions[key], game_name, seat))
    return name_of(functions)


def kernel_function(name: str, seat_kind: NumbaSeat, key: str | None = None):
    """The compiled callback the kernels call for decision ``key`` (the main one by default) of the seats of
    player ``name`` (see the module docstring); for an extra decision the player leaves out, one that
    always returns -1 (the heuristic's move)."""
    key = key or seat_kind.key
    function = player_parts(name, seat_kind).get(key)
    decision = seat_kind.decisions()[key]
    if function is None:
        return _heuristic_callback(decision)
    entry = (function, decision.signature)
    if entry not in _REGISTERED:
        fn = resolve(function)
        _REGISTERED[entry] = (fn, _callback(fn, decision, name, -1))
    return _REGISTERED[entry][1]


_HEURISTIC: dict = {}


def _heuristic_callback(decision: Decision):
    """A callback of ``decision``'s signature that always returns -1: the heuristic makes every such move."""
    if decision.signature not in _HEURISTIC:
        from numba import cfunc

        signature = decision.numba_signature()
        arguments = ", ".join(f"a{i}" for i in range(len(signature.args)))
        _HEURISTIC[decision.signature] = cfunc(signature)(eval(f"lambda {arguments}: -1"))  # noqa: S307 - our text
    return _HEURISTIC[decision.signature]


def run_function(policies, title: str) -> str:
    """The run's Numba player (its ``numba:`` policy name), or ``""``: a run plays one Numba player, in as
    many seats as it names (the kernels take one callback per decision)."""
    names = sorted({p for p in policies if is_numba_name(p)})
    if len(names) > 1:
        raise ValueError(f"policy: {', '.join(names)} are two Numba functions; a {title} run plays one "
                         f"(in any number of seats)")
    return names[0] if names else ""


def run_callback(name: str, seat_kind: NumbaSeat | None, key: str | None = None, *, searched: bool = False):
    """The compiled callback the kernels call for decision ``key`` (the main one by default) of the seats of
    Numba player ``name`` (looked up when the kernel is called, so a process that plays part of the run
    compiles its own). A run without one (``name`` is ``""``) gets None for the plain kernels: they are then
    compiled with no call at all, and the built-in seats' code is the same as without Numba seats. The
    ``searched`` kernels get instead a callback of the same types that always returns -1 and is never called
    (no seat has the Numba seat's id), so that each is compiled once for built-in and Numba seats alike: a
    searched deal spends its time in rollouts, which never seat a Numba player (they pass None themselves)."""
    if name:
        return kernel_function(name, seat_kind, key)
    if not searched or seat_kind is None:
        return None
    return _heuristic_callback(seat_kind.decisions()[key or seat_kind.key])


def run_callbacks(name: str, seat_kind: NumbaSeat | None, *, searched: bool = False) -> tuple | None:
    """The callbacks of every decision of the seat (the main one, then each extra's), for kernels that take them in
    one argument: :func:`run_callback` of each; None for a plain kernel in a run without a Numba player."""
    if seat_kind is None or not (name or searched):
        return None
    return tuple(run_callback(name, seat_kind, key, searched=searched) for key in seat_kind.decisions())


def _callback(fn, decision: Decision, game_name: str, seat: int):
    """``fn`` compiled as a C callback of ``decision``'s signature."""
    import warnings

    from numba import cfunc
    from numba.core.errors import NumbaWarning

    name = name_of(fn)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaWarning)  # e.g. a notebook's function that cannot be cached
            try:
                return cfunc(decision.numba_signature(), cache=True)(fn.py_func)
            except RuntimeError as e:  # code with no file to cache beside (exec, some consoles): compile only
                if "cache" not in str(e):
                    raise
                return cfunc(decision.numba_signature())(fn.py_func)
    except Exception as e:  # a typing error: the function does not take or return the seat's types
        lines = [line for line in str(e).splitlines() if line.strip() and not line.startswith("\x1b")]
        first = next((line.strip() for line in lines if "Failed in" not in line), type(e).__name__)
        where = f"seat {seat}: " if seat >= 0 else ""
        raise ValueError(f"policy: {where}{name} does not fit {game_name}'s Numba seat ({decision.decision}): "
                         f"expected {decision.signature}; compiling it failed: {first[:200]}") from None


def raise_fault(faults, first, name: str, unit: str) -> None:
    """After a kernel call: the first illegal move a Numba seat returned (``faults`` rows ``(seat + 1,
    move)`` per deal or game, zeros where none), as one line naming the seat, the deal or game and the
    move. ``first`` is the first row's deal (or game) number, the rows counting on from it, or an array of
    each row's number (deals played in any order). The run stops there and writes no rows of it."""
    hit = faults[:, 0].nonzero()[0]
    if hit.size:
        j = int(hit[0])
        seat, move = int(faults[j, 0]) - 1, int(faults[j, 1])
        index = int(first[j]) if hasattr(first, "__len__") else int(first) + j
        raise ValueError(f"policy: seat {seat} ({name}) returned {move} in {unit} {index}, "
                         f"which is not one of its legal moves there")


def seat_policies(policy, game, players: int):
    """``policy`` (a name, a function, or one per seat; a ``numba:<module>.<function>`` name is
    imported) with each Numba function replaced by its checked ``numba:`` name and each Python function
    by its ``python:`` name (:mod:`cardlab.sim.python_seats`); returns ``(policy, names)``: the names
    to allow beside the game's policies."""
    if isinstance(policy, str):  # the command line's "numba:mybots.lowest,heuristic,..."
        policy = [p.strip() for p in policy.split(",")]
    from cardlab.sim import python_seats

    one = is_numba_player(policy) or python_seats.is_python_policy(policy)
    entries = [policy] * players if one else list(policy)
    if len(entries) == 1:
        entries = entries * players
    def own(p):
        return is_numba_player(p) or is_numba_name(p) or python_seats.is_python_policy(p) or \
            python_seats.is_python_name(p)

    if not any(own(p) for p in entries):
        return policy, ()

    def named(p, seat):
        if is_numba_player(p) or is_numba_name(p):
            return check(resolve(p, game.numba_seat) if is_numba_name(p) else p, game.numba_seat, game.name, seat)
        if python_seats.is_python_policy(p) or python_seats.is_python_name(p):
            return python_seats.register(python_seats.resolve(p) if python_seats.is_python_name(p) else p, game, seat)
        return p

    entries = [named(p, seat) for seat, p in enumerate(entries)]
    return entries, tuple(p for p in entries if is_numba_name(p) or python_seats.is_python_name(p))
