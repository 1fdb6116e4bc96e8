"""Validation shared by every game's options: one-line errors that name the option, the value and
what is allowed. Plain Python, imported by rules modules and facades alike (never by kernels).

>>> check_choice("players", 6, (3, 4, 5))
Traceback (most recent call last):
ValueError: players: 6 is not allowed; choose 3, 4 or 5
>>> parse_per_seat("policy", "heuristic,random", 2, ("heuristic", "random"))
('heuristic', 'random')
"""
from __future__ import annotations

import functools
import numbers
import re
from dataclasses import fields
from typing import Callable, Mapping, NamedTuple


def shown(value) -> str:
    """A value as the user writes it on the command line: a list as ``1,2``, None as ``none``, else repr."""
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return "none" if value is None else repr(value)


def allowed_text(values) -> str:
    """``'a', 'b' or 'c'``: the allowed values as a user reads them."""
    values = [repr(v) if isinstance(v, str) else "none" if v is None else str(v) for v in values]
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


def per_seat_names(value) -> tuple:
    """The names of a per-seat value: a sequence, or a comma-separated string (each name stripped)."""
    return tuple(p.strip() for p in value.split(",")) if isinstance(value, str) else tuple(value)


def parse_per_seat(option: str, value, players: int, allowed) -> tuple[str, ...]:
    """One name for every seat, or one per seat (sequence or comma-separated string), each in ``allowed``."""
    names = per_seat_names(value)
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


# ------------------------------------------------------------------ options declared once, as field metadata

_NO_DEFAULT = object()


def option(default, help: str, *, choices=None, between=None, parse=None, applies: Scope | None = None,
           group: str = "rules"):
    """A field of a game's options dataclass, with what every other layer needs to know about it.

    ``help`` is the one line the command line and the docs show; ``choices`` the allowed values
    (checked by :func:`check_options`), or ``between=(low, high)`` for an integer range; ``parse``
    turns the command line's text into the value (default: by the type of ``default``); ``applies``
    says where the option applies (a :class:`Scope`; default everywhere); ``group`` the heading
    its flag is listed under. Flags, checks, "does not apply here" errors and the options tables of
    the docs all come from this one declaration.

    >>> from dataclasses import dataclass, fields
    >>> @dataclass(frozen=True)
    ... class Demo:
    ...     players: int = option(4, "seats at the table", choices=(3, 4, 5))
    >>> fields(Demo)[0].metadata["help"]
    'seats at the table'
    """
    from dataclasses import field

    meta = {"help": help, "choices": None if choices is None else tuple(choices), "between": between,
            "parse": parse, "applies": applies, "group": group}
    if isinstance(default, (list, dict, set)):
        raise TypeError("option defaults must be immutable (use a tuple)")
    return field(default=default, metadata=meta)


def declared(options_cls) -> list:
    """The fields of an options class that carry :func:`option` metadata, in declaration order."""
    return [f for f in fields(options_cls) if "help" in f.metadata]


def allowed_of(f) -> str:
    """What a field allows, in words (for errors, ``--help`` and the docs)."""
    meta = f.metadata
    if meta.get("choices") is not None:
        return allowed_text(meta["choices"])
    if meta.get("between") is not None:
        low, high = meta["between"]
        return f"an integer from {low} to {high}"
    if isinstance(f.default, bool) or f.type in ("bool", bool):
        return "True or False"
    return type(f.default).__name__


def is_switch(f) -> bool:
    """Whether a declared field is a yes/no switch (``--x``/``--no-x``), one that may also be left unset (None)."""
    return isinstance(f.default, bool) or (f.default is None and f.type in ("bool | None", "bool"))


def check_options(options) -> None:
    """Check every declared field of ``options`` against its metadata (:func:`check_value`)."""
    for f in declared(type(options)):
        check_value(f, getattr(options, f.name))


def check_value(f, value) -> None:
    """Check one value of the declared field ``f``: a bool is a bool (``None`` too where that is the default),
    a value is one of its ``choices``, an integer lies ``between`` its bounds. One ``ValueError`` naming the
    option, the value and what is allowed."""
    meta = f.metadata
    if meta["choices"] is not None:
        check_choice(f.name, value, meta["choices"])
    elif meta["between"] is not None:
        low, high = meta["between"]
        if value is None and f.default is None:  # not given: the rules' own value
            return
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
            raise ValueError(f"{f.name}: {value!r} is not allowed; use an integer from {low} to {high}")
    elif is_switch(f):
        allowed = (True, False) if f.default is not None else (None, True, False)
        if not (value is None and f.default is None) and not isinstance(value, bool):
            raise ValueError(f"{f.name}: {value!r} is not allowed; choose {allowed_text(allowed)}")


def given_options(options) -> dict:
    """The options that differ from their defaults: what the user set."""
    return {f.name: getattr(options, f.name) for f in fields(options) if getattr(options, f.name) != f.default}


def options_table(options_cls) -> list[dict]:
    """One row per declared option (name, flag, default, allowed, help): the docs' options table."""
    return [{"option": f.name, "flag": "--" + f.name.replace("_", "-"), "default": f.default,
             "allowed": allowed_of(f), "help": f.metadata["help"]} for f in declared(options_cls)]


def parse_int(name: str, *, none: bool = False):
    """The command line's reader of an integer option: one line naming it when the text is not one; ``none``
    also allows the word ``none`` (the option's ``None``)."""
    def parse(text):
        if none and text.strip().lower() == "none":
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{name}: {text!r} is not allowed; give an integer") from None
    return parse


def parse_ints(name: str, *, none: bool = False):
    """The command line's reader of a comma list of integers (``45,25,10,0,-6``); ``none`` also allows
    the word ``none`` (the option's ``None``)."""
    def parse(text):
        if none and text.strip().lower() == "none":
            return None
        try:
            return tuple(int(v) for v in text.split(","))
        except ValueError:
            raise ValueError(f"{name}: {text!r} is not allowed; give integers separated by commas") from None
    return parse


def _parse_for(f):
    if f.metadata.get("parse") is not None:
        return f.metadata["parse"]
    if isinstance(f.default, int) or f.metadata.get("between") is not None:
        return parse_int(f.name, none=f.default is None)
    return str


def parse_text(f, text: str):
    """An option's value from its text as typed (``--vary``, a command line): a switch reads ``true``/``false``,
    the others as their flag does."""
    if is_switch(f):
        word = text.strip().lower()
        if word not in ("true", "false"):
            raise ValueError(f"{f.name}: {text!r} is not allowed; choose true or false")
        return word == "true"
    return _parse_for(f)(text)


def _deferred(parse):
    """Argparse calls a flag's type while parsing; a bad value is kept as an error and raised when the
    options are built, so the message reads like every other option error (and like Python's)."""
    def read(text):
        try:
            return parse(text)
        except ValueError as err:
            return _BadValue(err)
    return read


class _BadValue:
    def __init__(self, error: ValueError):
        self.error = error


def add_option_flags(parser, options_cls, *, skip=()) -> None:
    """One flag per declared option of ``options_cls``, in groups, spelled ``--name-with-dashes``; a
    bool gets ``--name`` and ``--no-name``. Flags not given leave no attribute (read them back with
    :func:`options_from_args`), so the options a user set are exactly those on the command line."""
    import argparse

    groups = {}
    for f in declared(options_cls):
        if f.name in skip:
            continue
        meta = f.metadata
        group = groups.get(meta["group"])
        if group is None:
            group = groups[meta["group"]] = parser.add_argument_group(meta["group"])
        flag = "--" + f.name.replace("_", "-")
        default = f.default
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else \
            ("none" if default is None else str(default).lower() if isinstance(default, bool) else str(default))
        text = f"{meta['help']} (default {shown})"
        if isinstance(default, bool) or (default is None and meta["parse"] is None and meta["choices"] is None
                                         and meta["between"] is None):
            group.add_argument(flag, dest=f.name, action=_switch_action(), default=argparse.SUPPRESS,
                               help=text.replace("%", "%%"))  # argparse formats help with %
        else:
            if meta["choices"] is not None:
                text = f"{meta['help']}: {', '.join('none' if c is None else str(c) for c in meta['choices'])} " \
                       f"(default {shown})"
            elif meta["between"] is not None:
                text = f"{meta['help']}: {meta['between'][0]} to {meta['between'][1]} (default {shown})"
            group.add_argument(flag, dest=f.name, type=_deferred(_parse_for(f)), default=argparse.SUPPRESS,
                               metavar=f.name.upper(), help=text.replace("%", "%%"))


@functools.cache
def _switch_action():
    """``--x``/``--no-x`` refusing both on one command line (``--trumps --no-trumps``), as argparse refuses two
    exclusive flags, where argparse's own lets the last one win silently."""
    import argparse

    class Switch(argparse.BooleanOptionalAction):
        def __call__(self, parser, namespace, values, option_string=None):
            value = not option_string.startswith("--no-")
            if getattr(namespace, self.dest, value) is not value:
                other = "--" + option_string[5:] if not value else "--no-" + option_string[2:]
                raise argparse.ArgumentError(self, f"not allowed with argument {other}")
            setattr(namespace, self.dest, value)

    return Switch


def options_from_args(args, options_cls) -> dict:
    """The rule options given on a parsed command line (see :func:`add_option_flags`), as keywords."""
    out = {}
    for f in declared(options_cls):
        if hasattr(args, f.name):
            value = getattr(args, f.name)
            if isinstance(value, _BadValue):
                raise value.error
            out[f.name] = value
    return out


# ------------------------------------------------------------------ a variant file: house rules in TOML

#: The one key of a variant file that is not an option: the game it is for (optional).
VARIANT_GAME_KEY = "game"


def toml_value(value) -> str:
    """An option value as a variant file writes it: ``true``, ``3``, ``"broken"``, ``[45, 25, 10, 0]``.

    >>> toml_value(True), toml_value("broken"), toml_value((45, 25, -6))
    ('true', '"broken"', '[45, 25, -6]')
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def flag_text(value):
    """A value as its flag takes it and a variant's name shows it: ``true``, ``3``, ``broken``, ``45,25,10,0``,
    ``none``; None for a table or a list of lists, which no option takes (a variant file may hold them).

    >>> flag_text(True), flag_text((45, 25, -6)), flag_text(None), flag_text([[1]])
    ('true', '45,25,-6', 'none', None)
    """
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (list, tuple, dict)) for v in value):
            return None
        return ",".join(flag_text(v) for v in value)
    if isinstance(value, dict):
        return None
    return str(value)


def _toml_error(where: str, message: str, text: str) -> str:
    """A TOML syntax error in one line that leads with its line: ``variant: f.toml line 2: not valid TOML: ...``;
    a bare word where a value goes is most often text that needs quotes, so that error says so."""
    found = re.match(r"(.*) \(at line (\d+), column (\d+)\)$", message)
    if found is None:
        return f"{where} is not valid TOML: {message}"
    what, line, column = found.groups()
    lines = text.splitlines()
    where_line = lines[int(line) - 1] if int(line) <= len(lines) else ""
    bare = re.fullmatch(r"\s*([\w-]+)\s*=\s*([A-Za-z_][\w-]*)\s*", where_line)
    hint = f' (text goes in quotes: {bare.group(1)} = "{bare.group(2)}")' if bare else ""
    return f"{where} line {line}: not valid TOML: {what.lower()} at column {column}{hint}"


def read_variant(source, options_cls, *, game: str, title: str) -> tuple[str | None, dict]:
    """``(file, rules)``: the rule options a variant file sets, read and checked as their flags are.

    ``source`` is a TOML file (a path) of ``name = value`` lines, one per option, spelled as the
    option (``hearts_lead``) or as its flag (``hearts-lead``), valued as TOML writes it (``3``,
    ``true``, ``"broken"``, ``[45, 25, 10, 0, -6]``) or as text the flag would take; the key
    ``game`` may name the game the file is for, and a file for another game is refused. A mapping
    (Python) is read the same way, and its ``file`` is None. Each value is parsed and checked
    alone as its flag is: a combination of options is checked when the study is built, with
    the flags and keywords given beside the file, which override it.

    Every error is one ``ValueError`` starting ``variant:``, naming the file (and the key's line)::

        variant: my_barbu.toml line 3: players: 6 is not allowed; choose 3, 4 or 5
    """
    import difflib
    import os

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the same parser, as a package
        import tomli as tomllib

    if isinstance(source, Mapping):
        where, text, data = "variant:", "", dict(source)
    else:
        if not isinstance(source, (str, os.PathLike)) or not str(source).strip():
            raise ValueError(f"variant: {source!r} is not allowed; give the path of a TOML file of house rules, "
                             "e.g. my_rules.toml")
        path = os.fspath(source)
        where = f"variant: {path}"
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            raise ValueError(f"{where} does not exist; give a TOML file of house rules (see 'Your own "
                             "variant' in the docs)") from None
        except IsADirectoryError:
            raise ValueError(f"{where} is a directory; give a TOML file of house rules") from None
        except OSError as err:
            raise ValueError(f"{where} cannot be read ({err.strerror or err})") from None
        try:
            text = raw.decode("utf-8")
            data = tomllib.loads(text)
        except UnicodeDecodeError:
            raise ValueError(f"{where} is not UTF-8 text; a variant file is TOML") from None
        except tomllib.TOMLDecodeError as err:
            raise ValueError(_toml_error(where, str(err), text)) from None

    def at(key) -> str:
        """``variant: FILE line N:``, the line of ``key`` when it can be found."""
        for number, line in enumerate(text.splitlines(), 1):
            if re.match(rf"""\s*(\[+\s*)?["']?{re.escape(str(key))}["']?\s*[=\].]""", line):
                return f"{where} line {number}:"
        return where + ":" if not where.endswith(":") else where

    if VARIANT_GAME_KEY in data:
        named = data.pop(VARIANT_GAME_KEY)
        if named != game:
            raise ValueError(f"{at(VARIANT_GAME_KEY)} game: {named!r} is not allowed; this file is read for {game} "
                             f"(give game = {toml_value(game)}, or leave the key out)")
    known = {f.name: f for f in declared(options_cls)}
    rules = {}
    for key, value in data.items():
        name = str(key).strip().lstrip("-").replace("-", "_")
        if isinstance(value, dict):
            raise ValueError(f"{at(key)} [{key}] is a table; a variant file holds one name = value line per option "
                             f"of {title}, and no tables")
        if name not in known:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"{title} options are {', '.join(known)}"
            raise ValueError(f"{at(key)} {key!r} is not an option of {title}; {hint}")
        if name in rules:
            raise ValueError(f"{at(key)} {name!r} is set twice; set it once")
        f = known[name]
        flag = flag_text(value)
        try:
            if flag is None:
                raise ValueError(f"{name}: {value!r} is not allowed; give a number, true or false, a string or a "
                                 "list of numbers")
            parsed = parse_text(f, flag)
            check_value(f, parsed)
        except ValueError as err:
            raise ValueError(f"{at(key)} {err}") from None
        rules[name] = parsed
    return (None if isinstance(source, Mapping) else os.fspath(source)), rules
