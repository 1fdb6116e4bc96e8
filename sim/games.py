"""The registry of games: the command line, the reports and the Python side reach every game here.

A game named ``g`` is the package ``cardlab.sim.g`` (its facade: ``simulate``, ``simulate_games``,
``replay``), a light module ``cardlab.sim.g.command`` that plugs it into the command line, and a
module ``cardlab.analysis.g`` with its reports. Adding a game means adding those three and one
line to :data:`GAMES`; nothing else changes.

``cardlab.sim.g.command`` provides (imported when the parser is built, so it imports no kernel
at module level):

* ``add_arguments(parser, command)``: the game's flags for ``"simulate"``, ``"study"`` or
  ``"replay"`` (rule options named as in the game's rules, ``--policy``, ``--seed``);
* ``STUDIES``: ``{name: one-line help}`` of the game's paired studies (may be empty);
* ``STUDY_DEALS`` (optional): ``{name: default --deals}`` for studies whose default is not 100,000
  (the strength ladders, whose search plays hundreds of deals a second);
* ``simulate(args, *, threads, chunk_size, progress, out) -> (frame or None, metadata)``;
* ``study(args, *, threads, progress, out) -> (frame or None, metadata)``;
* ``replay(args)``: the deals or games asked, one item each (a generator is fine): a dict record
  with ``args.json`` (the CLI writes it as one JSON line; shape and helpers in ``cardlab.sim.replay``),
  text otherwise. The CLI adds ``--deal``, ``--game-index`` (an index or a range ``a:b``) and
  ``--json`` to every game's replay and passes ``args.deal``/``args.game_index`` as a ``range`` (or
  None): the game does not declare them. (Returning one ``str`` still works, without ``--json``.)

``cardlab.analysis.g`` provides ``REPORTS``: ``{kind: (format(df, meta) -> str, plot(df) -> Figure
or Axes)}`` where ``kind`` is the run's ``study`` name, or its ``unit`` (``"deal"``/``"game"``).
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: Registered games: name on the command line -> title.
GAMES = {
    "barbu": "Barbu",
    "euchre5": "Euchre for five",
    "minchiate": "Minchiate",
    "rami": "Rami",
}


#: Games that plug in through the game interface (:mod:`cardlab.sim.game`): name -> "module:object".
INTERFACES = {
    "barbu": "cardlab.sim.barbu.interface:BARBU",
    "euchre5": "cardlab.sim.euchre5.interface:EUCHRE5",
    "minchiate": "cardlab.sim.minchiate.interface:MINCHIATE",
    "rami": "cardlab.sim.rami.interface:RAMI",
}


def game(name: str):
    """The registered :class:`~cardlab.sim.game.Game` of ``name`` (imports only its light interface module)."""
    module, obj = INTERFACES[check_game(name)].split(":")
    return getattr(importlib.import_module(module), obj)


def has_interface(name: str) -> bool:
    return name in INTERFACES


def check_game(game: str) -> str:
    """The game's name, or a ``ValueError`` naming the registered games."""
    if game not in GAMES:
        names = list(GAMES)
        allowed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        raise ValueError(f"game: {game!r} is not allowed; choose {allowed}")
    return game


def command(name: str):
    """The game's command line: built from its :class:`~cardlab.sim.game.Game`, or (a game not yet on the
    interface) its module ``cardlab.sim.<game>.command``."""
    if has_interface(name):
        from cardlab.sim.command import GameCommand

        return GameCommand(game(name))
    return importlib.import_module(f"cardlab.sim.{check_game(name)}.command")


def reports(game: str) -> ModuleType:
    """The game's report module ``cardlab.analysis.<game>``."""
    return importlib.import_module(f"cardlab.analysis.{check_game(game)}")


def report_for(meta: dict):
    """``(format, plot)`` for a run, from its metadata (game, then study or unit)."""
    game = meta.get("game", "barbu")
    kind = meta.get("study") or meta.get("unit", "deal")
    table = reports(game).REPORTS
    if kind not in table:
        raise ValueError(f"path: a {game} run of kind {kind!r} has no report; known kinds: {', '.join(table)}")
    return table[kind]
