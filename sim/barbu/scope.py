"""Which Barbu option applies where: one table, used by the Python facade and the command line alike.

An option the user sets (one that differs from its default) in a run where it has no effect is an
error naming the option and where it applies, never silently ignored. A run is described by a
context: its ``unit`` (``"deals"``: single deals, ``simulate``/``replay``/the studies;
``"games"``: whole games, ``simulate_games``/``replay_game``), its ``study`` (``None``,
``"trumps"`` or ``"contracts"``), the contracts it ``played`` and the options that decide other
options' reach (``geronimo``, ``double``, ``players`` …). Light on purpose: plain Python, no kernel.

>>> from cardlab.sim.barbu.rules import BarbuOptions
>>> check_barbu_scope(BarbuOptions(late_redouble=True), unit="games")
Traceback (most recent call last):
ValueError: late_redouble: True does not apply here; it applies only to whole games with double
"""
from __future__ import annotations

from dataclasses import fields

from cardlab.sim.options import Scope, check_scope


def _plays(*contracts):
    return lambda c: bool(c["played"] & set(contracts))


def _games(c):
    return c["unit"] == "games"


def _regular(c):
    return _games(c) and not c["geronimo"]


def _doubled(c):
    return _games(c) and c["double"]


TRUMP_DUTY = Scope(_plays("trumps"), "only to Trumps")
GAMES_ONLY = Scope(_games, "only to whole games ({games})")

#: option -> where it applies. Options not listed (players, deck, scoring, policy, seed) apply everywhere.
BARBU_SCOPE = {
    "contract": Scope(lambda c: c["unit"] == "deals" and c["study"] != "trumps",
                      "only to single deals ({deals}) and to the contracts study ({contracts_study})"),
    "hearts_lead": Scope(lambda c: _plays("no-hearts", "no-barbu")(c)
                         or ("salade" in c["played"] and c["hearts_lead_salade"]),
                         "only to No Hearts and No K♥ (and to Salade with {hearts_lead_salade})"),
    "hearts_lead_salade": Scope(lambda c: "salade" in c["played"] and c["hearts_lead"] != "anytime",
                                "only to Salade, with a {hearts_lead} other than 'anytime'"),
    "kh_forced_discard": Scope(_plays("no-barbu", "salade"), "only to No K♥ and Salade"),
    "early_stop": Scope(_plays("no-hearts", "no-queens", "no-barbu"),
                        "only to No Hearts, No Queens and No K♥ (the contracts that may stop early)"),
    "overtrump_on_trump_lead": TRUMP_DUTY,
    "must_trump": TRUMP_DUTY,
    "overtrump_when_ruffing": TRUMP_DUTY,
    "domino_rules": Scope(_plays("domino"), "only to Domino"),
    "domino_starter": Scope(_plays("domino"), "only to Domino"),
    "domino_table": Scope(_plays("domino"), "only to Domino"),
    "ace_replay_optional": Scope(lambda c: "domino" in c["played"] and c["domino_rules"] == "upward",
                                 "only to Domino with {domino_rules} 'upward', the rules where an Ace gives an "
                                 "extra turn"),
    "domino_three_last": Scope(lambda c: "domino" in c["played"] and c["players"] == 3 and c["domino_table"] is None,
                               "only to Domino with three players and no {domino_table}"),
    "geronimo": GAMES_ONLY,
    "double": GAMES_ONLY,
    "last_two": GAMES_ONLY,
    "salade": GAMES_ONLY,
    "anti_salade": GAMES_ONLY,
    "domino": GAMES_ONLY,
    "trumps": Scope(lambda c: _games(c) and (c["geronimo"] or c["trumps_in_regular"]),
                    "only to Geronimo games ({geronimo}; Regular games take Trumps with {trumps_in_regular})"),
    "trumps_in_regular": Scope(lambda c: _regular(c) and c["trumps"] is not False,
                               "only to whole games in Regular mode (without {geronimo}) that keep Trumps"),
    "regular_cycle": Scope(_regular, "only to whole games in Regular mode (without {geronimo})"),
    "iterations": Scope(_regular, "only to whole games in Regular mode (without {geronimo})"),
    "declarer_blocks": Scope(lambda c: _games(c) and c["geronimo"], "only to Geronimo games ({geronimo})"),
    "double_policy": Scope(_doubled, "only to whole games with {double}"),
    "late_redouble": Scope(_doubled, "only to whole games with {double}"),
    "double_obligation": Scope(_doubled, "only to whole games with {double}"),
    "skip_undoubled_negative": Scope(_doubled, "only to whole games with {double}"),
    "skip_remainder": Scope(lambda c: _doubled(c) and c["skip_undoubled_negative"],
                            "only to whole games with {double} and {skip_undoubled_negative}"),
}


def given_options(options) -> dict:
    """The options of a :class:`BarbuOptions` that differ from their defaults (what the user set)."""
    return {f.name: getattr(options, f.name) for f in fields(options) if getattr(options, f.name) != f.default}


def run_context(options, *, unit: str, played=None, study: str | None = None) -> dict:
    """The facts of a run the table reads; ``played`` defaults to the game's contracts."""
    context = {f.name: getattr(options, f.name) for f in fields(options)}
    played = options.game_contracts if played is None else played
    return dict(context, unit=unit, study=study, played=frozenset(played))


def python_spelling(name: str) -> str:
    """How the facade names a unit or option in a message."""
    return {"deals": "simulate, replay", "games": "simulate_games, replay_game",
            "contracts_study": "contract_value_study"}.get(name, name)


def refuse(name: str, value, spell=python_spelling):
    """The error for ``name`` given to a call that has no use for it (``contract`` to whole games,
    ``double_policy`` to single deals): it names the option and where it applies."""
    where = BARBU_SCOPE[name].where.format_map({k: spell(k) for k in ("deals", "games", "contracts_study", "double")})
    return ValueError(f"{name}: {value!r} does not apply here; it applies {where}")


def check_barbu_scope(options, *, unit: str, played=None, study: str | None = None, extra: dict | None = None,
                      spell=python_spelling, label=None) -> None:
    """Refuse every option set in ``options`` (or given in ``extra``: ``contract``, ``double_policy``)
    that does not apply to this run (see the module docstring and :data:`BARBU_SCOPE`)."""
    given = {**(extra or {}), **given_options(options)}
    check_scope(given, BARBU_SCOPE, run_context(options, unit=unit, played=played, study=study), spell=spell,
                label=label)
