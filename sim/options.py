"""Validation shared by every game's options: one-line errors that name the option, the value and
what is allowed. Plain Python, imported by rules modules and facades alike (never by kernels).

>>> check_choice("players", 6, (3, 4, 5))
Traceback (most recent call last):
ValueError: players: 6 is not allowed; choose 3, 4 or 5
>>> parse_per_seat("policy", "heuristic,random", 2, ("heuristic", "random"))
('heuristic', 'random')
"""
from __future__ import annotations

import numbers
from dataclasses import fields
from typing import Callable, Mapping, NamedTuple


def allowed_text(values) -> str:
    """``'a', 'b' or 'c'``: the allowed values as a user reads them."""
    values = [repr(v) if isinstance(v, str) else str(v) for v in values]
    return ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]


def check_choice(option: str, value, allowed) -> None:
    """Raise ``ValueError`` naming the option, the value and what is allowed."""
    if value not in allowed or isinstance(value, bool) != isinstance(next(iter(allowed)), bool):
        raise ValueError(f"{option}: {value!r} is not allowed; choose {allowed_text(allowed)}")


def with_rules(base, game: str, rules: Mapping):
    """``base`` (a game's frozen options) with ``rules`` replacing its fields, checked again by the
    options class; a name that is not one of its fields raises ``ValueError`` listing the game's options."""
    names = [f.name for f in fields(base)]
    unknown = sorted(set(rules) - set(names))
    if unknown:
        raise ValueError(f"option {unknown[0]!r} is unknown; {game} options are {', '.join(names)}")
    return type(base)(**{**base.to_dict(), **rules})


def command_options(args, rule_flags, **converted) -> dict:
    """A parsed command line's rule options (``rule_flags``, with ``converted`` values replacing the parsed
    ones), policy and seed, and the search settings when given (they need a search seat)."""
    out = dict({name: getattr(args, name) for name in rule_flags}, **converted, policy=args.policy, seed=args.seed)
    for name in ("search_worlds", "search_rollout"):
        if getattr(args, name, None) is not None:
            out[name] = getattr(args, name)
    return out


def search_settings(searching: bool, worlds, rollout, *, default_worlds: int, max_worlds: int,
                    rollouts) -> tuple[int, str]:
    """``(search_worlds, search_rollout)`` with their defaults: the worlds an integer from 1 to ``max_worlds``,
    the rollout policy one of ``rollouts``; either given when no seat searches is an error."""
    for name, value in (("search_worlds", worlds), ("search_rollout", rollout)):
        if value is not None and not searching:
            raise ValueError(f"{name}: {value!r} needs a search seat (policy 'search')")
    worlds = default_worlds if worlds is None else worlds
    if isinstance(worlds, bool) or not isinstance(worlds, numbers.Integral) or not 1 <= worlds <= max_worlds:
        raise ValueError(f"search_worlds: {worlds!r} is not allowed; use an integer from 1 to {max_worlds}")
    rollout = "heuristic" if rollout is None else rollout
    check_choice("search_rollout", rollout, rollouts)
    return int(worlds), rollout


def parse_per_seat(option: str, value, players: int, allowed) -> tuple[str, ...]:
    """One name for every seat, or one per seat (sequence or comma-separated string), each in ``allowed``."""
    if isinstance(value, str):
        value = [p.strip() for p in value.split(",")]
    names = tuple(value)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"{option}: {','.join(names)!r} names {len(names)} seats; give one policy or one per seat "
                         f"({players})")
    for name in names:
        check_choice(option, name, allowed)
    return names


class Scope(NamedTuple):
    """Where one option applies: ``applies(context)`` says whether it does in a run described by
    ``context`` (a mapping of facts: unit, mode, other options …); ``where`` says where it applies,
    in words, naming other options as ``{name}`` placeholders."""

    applies: Callable[[Mapping], bool]
    where: str


class _Spelled(dict):
    def __init__(self, spell):
        super().__init__()
        self.spell = spell

    def __missing__(self, key):
        return self.spell(key)


def check_scope(given: Mapping, table: Mapping[str, Scope], context: Mapping, *, spell=str, label=None) -> None:
    """Refuse the first option of ``given`` that does not apply in ``context``, by the ``table``.

    ``given`` maps option names to the values the user set (options left at their default are not
    given); options missing from ``table`` apply everywhere. ``spell`` renders the ``{name}``
    placeholders of ``where`` (``--name`` on a command line) and ``label(name, value)`` the option
    as given (default ``name: value``). One line names the option, the value and where it applies:

    >>> table = {"late_redouble": Scope(lambda c: c["double"], "only with {double}")}
    >>> check_scope({"late_redouble": True}, table, {"double": True})
    >>> check_scope({"late_redouble": True}, table, {"double": False})
    Traceback (most recent call last):
    ValueError: late_redouble: True does not apply here; it applies only with double
    """
    for name, value in given.items():
        scope = table.get(name)
        if scope is not None and not scope.applies(context):
            where = scope.where.format_map(_Spelled(spell))
            head = label(name, value) if label else f"{name}: {value!r}"
            raise ValueError(f"{head} does not apply here; it applies {where}")
