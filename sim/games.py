"""The registry of games: the command line, the reports and the Python side reach every game here.

A game named ``g`` is a :class:`~cardlab.sim.game.Game` in ``cardlab.sim.g.interface`` (its rules,
kernels, policies, referee and search stay in ``cardlab.sim.g``) and a module ``cardlab.analysis.g``
with its reports. Adding a game means adding those and one line to :data:`GAMES` and one to
:data:`INTERFACES`; the facade, the command line, the strength ladder, the options study and the
conformance tests (``tests/test_conformance.py``) then serve it as they serve every game.

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
    "hearts": "Hearts",
    "minchiate": "Minchiate",
    "rami": "Rami",
}


#: Games that plug in through the game interface (:mod:`cardlab.sim.game`): name -> "module:object".
INTERFACES = {
    "barbu": "cardlab.sim.barbu.interface:BARBU",
    "euchre5": "cardlab.sim.euchre5.interface:EUCHRE5",
    "hearts": "cardlab.sim.hearts.interface:HEARTS",
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
    """The game's command line, built from its :class:`~cardlab.sim.game.Game` (:mod:`cardlab.sim.command`)."""
    from cardlab.sim.command import GameCommand

    return GameCommand(game(name))


def reports(game: str) -> ModuleType:
    """The game's report module ``cardlab.analysis.<game>``."""
    return importlib.import_module(f"cardlab.analysis.{check_game(game)}")


def report_for(meta: dict):
    """``(format, plot)`` for a run, from its metadata (game, then study or unit)."""
    game = meta.get("game", "barbu")
    kind = meta.get("study") or meta.get("unit", "deal")
    kind = {"variants": "options"}.get(kind, kind)  # the variants study reads as the options study does
    if kind == "balance":  # every game's balance study has the one report of cardlab.analysis.balance
        return importlib.import_module("cardlab.analysis.balance").REPORT
    table = reports(game).REPORTS
    if kind not in table:
        raise ValueError(f"path: a {game} run of kind {kind!r} has no report; known kinds: {', '.join(table)}")
    return table[kind]
