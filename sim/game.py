"""The game interface: what a game provides, and everything built once on it.

A game is a :class:`Game` (one instance, registered in :mod:`cardlab.sim.games`) and a
:class:`Study` subclass. The game declares:

* ``Options``: a frozen dataclass whose fields are declared with :func:`~cardlab.sim.options.option`
  (help, allowed values, where the option applies): checks, command-line flags, "does not apply
  here" errors and the docs' options tables all come from it;
* ``policies``: the seat policies, ids in the shared order of :mod:`cardlab.sim.policy` (``random``,
  ``heuristic``, ``search``, ``oracle``, then the game's own), and the search's settings; ``oracle``
  (search that sees the true deal) is refused with a one-line error unless the game sets ``oracle = True``,
  and ``search_racing`` unless it sets ``races = True`` (its search races candidates, :mod:`cardlab.sim.racing`);
* its ``Study`` (options, policies, seed, search settings) with ``play(first, count, record=...)``
  for single deals and ``play_games(first, count)`` for whole games, each returning columns;
* ``replay_deals(study, deals)`` and ``replay_games(study, games)``: deals or games replayed alone,
  checked by the game's referee, as a :class:`Replay` (text and one record per deal);
* ``studies``: its paired studies beyond the ones every game gets (the strength ladder and the
  options study of :mod:`cardlab.sim.ladder` and :mod:`cardlab.sim.variants`);
* ``unit``: the word for one deal (Euchre ``hand``, Rami ``round``).

Built once here, on that: the facade (:meth:`Game.simulate`, :meth:`Game.simulate_games`,
:meth:`Game.replay`, :meth:`Game.replay_game`, the same keywords in every game) and the checks
of what applies where. The command line (:mod:`cardlab.sim.cli`) builds every game's flags and
commands from the same declarations.
"""
from __future__ import annotations

import contextlib
import contextvars
import importlib
import json
from dataclasses import dataclass, fields, replace
from functools import cached_property, partial
from typing import Callable, ClassVar, NamedTuple

import numpy as np

from cardlab.sim import runner
from cardlab.sim.options import (Scope, check_choice, check_scope, declared, given_options, parse_per_seat,
                                 per_seat_names, read_variant, search_settings, with_rules)
from cardlab.sim.policy import POLICY, ROLLOUT_POLICIES, SHARED_POLICIES
from cardlab.sim.rng import check_seed
from cardlab.sim.python_seats import is_python_name
from cardlab.sim.user import is_numba_name, raise_fault, run_callback, run_callbacks, run_function, seat_policies


def searches(policies) -> bool:
    """Whether any of the seat ``policies`` (names) searches: ``search``, or ``oracle`` (search over the true deal)."""
    return "search" in policies or "oracle" in policies


#: How messages spell options and units: ``(spell, label)``, the facade's by default; the command line
#: sets its own (``--flag``, ``--deals``) around a command, so every study's checks speak its language.
_SPELLING: contextvars.ContextVar = contextvars.ContextVar("cardlab_spelling", default=(None, None))


@contextlib.contextmanager
def spelling(spell, label):
    """Inside the block, scope errors name options and units with ``spell`` and ``label``."""
    token = _SPELLING.set((spell, label))
    try:
        yield
    finally:
        _SPELLING.reset(token)


class Replay(NamedTuple):
    """Deals (or whole games) replayed alone, every move and score checked by the game's referee."""

    text: str  # readable, move by move
    records: list  # one JSON-ready dict per deal, the shape of cardlab.sim.replay

    @property
    def record(self) -> dict:
        """The record of a one-deal replay."""
        return self.records[0]

    @property
    def scores(self) -> list:
        """The first deal's scores (a whole game's: its first deal's, settled)."""
        return self.records[0]["scores"]

    @property
    def totals(self) -> list:
        """A whole game's replay: each seat's total over the first game's deals."""
        deals = [r["scores"] for r in self.records if r.get("game") == self.records[0].get("game")]
        return [sum(s[p] for s in deals) for p in range(len(deals[0]))]

    @property
    def json(self) -> str:
        """One JSON object per deal (JSON lines)."""
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in self.records)

    @classmethod
    def joined(cls, parts, *, games: bool = False):
        """One replay of ``parts``, each ``(text, record)`` of a deal (with ``games``: ``(text, records)`` of a whole
        game, its deals' records), their texts a blank line apart."""
        parts = list(parts)
        records = [r for _, rs in parts for r in rs] if games else [r for _, r in parts]
        return cls("\n\n".join(text for text, _ in parts), records)


class Log(NamedTuple):
    """One of the kernels' logs of a recorded deal (:attr:`Study.logged`): its column's name, its shape for one deal
    (a length may name an option: ``("players",)``), its type, what it holds where the kernels write nothing, and
    whether only the search kernels write it."""

    name: str
    shape: tuple
    dtype: type
    fill: float = 0
    searched: bool = False


class Variant(NamedTuple):
    """The variant file a study's options came from (:func:`~cardlab.sim.options.read_variant`): its path
    (None for a mapping given in Python) and the options it set, ``((name, value), ...)``."""

    file: str | None
    rules: tuple

    def to_dict(self) -> dict:
        """What a run file records: ``{"file": ..., "options": {name: value}}``."""
        return {"file": self.file, "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.rules}}


@dataclass(frozen=True)
class Study:
    """Everything that decides a run's results: the options, each seat's policy, the seed and the
    search's settings (and the variant file the options came from, if any, for the record).
    A game's subclass sets :attr:`game` and plays the deals."""

    options: object
    policies: tuple
    seed: int
    search_worlds: int
    search_rollout: str
    variant: Variant | None = None
    search_racing: bool | None = None  # a racing game's search drops clearly worse candidates early (sim.racing);
    #                                    None: the game's default (Game.races_by_default)
    search_inference: str = "off"  # "on": search seats weight their worlds by the others' play (Game.inference)
    #: Each seat's inference ``eps`` given directly, in place of :attr:`search_inference`'s (0: that seat does not
    #: infer; only ``search`` seats read it): one seat inferring among searchers that do not, as
    #: ``benchmarks/inference.py`` plays it. Not a run's setting (the facade never sets it; a run does not record it).
    search_epsilon: tuple | None = None

    game: ClassVar["Game"]
    #: :meth:`raw`'s logs after the kernels' rows (:class:`Log`), in a recorded run's columns (:meth:`play`).
    logged: ClassVar[tuple] = ()

    @classmethod
    def build(cls, *, options=None, policy="heuristic", seed=0, search_worlds=None, search_rollout=None,
              search_inference=None, **rules) -> "Study":
        """A study from keywords: rule options (or ``options``), ``policy`` (one name, or one per seat),
        ``seed`` and the search's settings (given only with a search seat; ``search_inference`` only where the
        game's search infers, :func:`inference_setting`)."""
        game = cls.game
        options = game.make_options(options, **rules)
        policy, numba_names = seat_policies(policy, game, game.players(options))
        if not game.oracle and "oracle" in per_seat_names(policy):
            raise ValueError(f"policy: oracle is not implemented for {game.title} yet; give one of "
                             f"{', '.join(game.played_policies)}")
        policies = parse_per_seat("policy", policy, game.players(options), game.played_policies + numba_names)
        run_function(policies, game.title)
        worlds, rollout = search_settings(searches(policies), search_worlds, search_rollout,
                                          default_worlds=game.default_worlds, max_worlds=game.max_worlds,
                                          rollouts=game.rollouts)
        return cls(options, policies, check_seed(seed), worlds, rollout,
                   search_inference=inference_setting(game, policies, search_inference))

    @property
    def searching(self) -> bool:
        """Whether a seat searches: plays ``search`` or ``oracle`` (the search's settings then apply)."""
        return searches(self.policies)

    def inference_eps(self, ids) -> np.ndarray:
        """Each seat's inference ``eps`` as the search kernels read it, for the seats' kernel policy ids ``ids`` (one
        row, or a row per table): the game's ``INFERENCE_EPSILON`` (in its search module, ``cardlab.sim.<game>.search``)
        for a ``search`` seat when ``search_inference`` is on, else 0 (no inference; the oracle never infers);
        with :attr:`search_epsilon`, a ``search`` seat's own ``eps`` from it."""
        if self.search_epsilon is not None:
            return np.where(np.asarray(ids) == POLICY.SEARCH, np.asarray(self.search_epsilon, np.float64), 0.0)
        on = (np.asarray(ids) == POLICY.SEARCH) & (self.search_inference == "on")
        if not on.any():
            return np.zeros(np.shape(ids))
        epsilon = importlib.import_module(f"cardlab.sim.{self.game.name}.search").INFERENCE_EPSILON
        return np.where(on, epsilon, 0.0)

    @property
    def policy_ids(self) -> np.ndarray:
        """Each seat's policy as the kernels read it (ids of :mod:`cardlab.sim.policy`)."""
        return np.array([self.game.numba_seat.kernel_id if is_numba_name(p) else
                         -1 if is_python_name(p) else self.game.policies.index(p) for p in self.policies], np.int64)

    @property
    def racing(self) -> bool:
        """Whether the search races its candidates (:mod:`cardlab.sim.racing`): :attr:`search_racing`, by default the
        game's :attr:`Game.races_by_default`; never in a game whose search does not race."""
        default = self.game.races_by_default if self.search_racing is None else self.search_racing
        return bool(self.game.races and default)

    @property
    def racing_level(self) -> int:
        """The ``racing`` int the search kernels take: the game's :attr:`Game.racing_level` (the rule it races by,
        :data:`cardlab.sim.racing.LEVELS`) when :attr:`racing`, else 0 (every candidate in every world)."""
        return self.game.racing_level if self.racing else 0

    @property
    def racing_search_args(self) -> tuple:
        """What the search kernels of a game that races take after the seats' policies: the worlds, the rollout
        policy's id and the racing level (:attr:`racing_level`)."""
        return int(self.search_worlds), self.rollout_id, self.racing_level

    @cached_property
    def rules(self) -> np.ndarray:
        """The options as the kernels take them: :attr:`Game.kernel_rules` of :attr:`options`."""
        return self.game.kernel_rules(self.options)

    @property
    def numba_function(self) -> str:
        """The ``numba:`` name of the run's Numba function (:mod:`cardlab.sim.user`), or ``""``."""
        return run_function(self.policies, self.game.title)

    def user_callback(self, searched: bool = False):
        """What the kernels take for the seats of the run's Numba function: its callback, or without one None (the
        plain kernels) or a callback never called (the ``searched`` kernels, :func:`run_callback`)."""
        return run_callback(self.numba_function, self.game.numba_seat, searched=searched)

    def user_callbacks(self, searched: bool = False):
        """What kernels that take all of the seat's decisions in one argument get: the callbacks of the seat's
        decisions in its order (the main one, then each extra's, :meth:`extra_callback`), or None (a plain kernel
        in a run without a Numba seat)."""
        return run_callbacks(self.numba_function, self.game.numba_seat, searched=searched)

    def extra_callback(self, key: str, searched: bool = False):
        """What the kernels take for extra decision ``key`` of the run's Numba player (:mod:`cardlab.sim.user`):
        the player's callback, or one always returning -1 (the heuristic's move) where it leaves the decision
        out; without a Numba seat as :meth:`user_callback`."""
        return run_callback(self.numba_function, self.game.numba_seat, key, searched=searched)

    def faults(self, count: int) -> np.ndarray:
        """Per deal or game, the first illegal move of the run's Numba function, as the kernels fill it."""
        return np.zeros((count, 2), np.int64)

    def check_faults(self, faults: np.ndarray, first, unit: str = "deal") -> None:
        """Stop the run in one line at the first illegal move of its Numba function (:func:`raise_fault`; ``first``:
        the first deal's number, or every deal's)."""
        raise_fault(faults, first, self.numba_function, unit)

    def call_kernel(self, kernel, *args, first, count: int, unit: str = "deal"):
        """``kernel(*args, faults)``, the kernels' last argument the :meth:`faults` of its ``count`` deals (or games),
        checked once it returns (:meth:`check_faults`; ``first``: the first deal's number, or every deal's)."""
        faults = self.faults(count)
        result = kernel(*args, faults)
        self.check_faults(faults, first, unit)
        return result

    @property
    def python_seats(self) -> bool:
        """Whether a seat is a Python function: the deals are then played through the step API."""
        return any(is_python_name(p) for p in self.policies)

    @property
    def rollout_id(self) -> int:
        return self.game.policies.index(self.search_rollout)

    def metadata(self, unit: str = "deal") -> dict:
        """What a run file records of the study: game, options, policies, seed (and the search's settings, and the
        variant file the options came from: its path and the options it set)."""
        meta = {"game": self.game.name, "options": self.options.to_dict(), "policies": list(self.policies),
                "seed": self.seed}
        if self.searching:
            meta.update(search_worlds=self.search_worlds, search_rollout=self.search_rollout)
            if self.racing != self.game.races_by_default and self.game.races:  # only when not the game's default
                meta["search_racing"] = self.racing
            if self.search_inference == "on":  # absent when off: a run records what it did before inference existed
                meta["search_inference"] = "on"
        if self.variant is not None:
            meta["variant"] = self.variant.to_dict()
        return {**meta, "unit": unit} if unit != "deal" else meta

    def with_options(self, **rules) -> "Study":
        """The same study under other rule options (the paired studies' variants); one policy for every
        seat follows a change of table size, one per seat cannot."""
        options = self.game.make_options(self.options, **rules)
        policies, n = self.policies, self.game.players(options)
        if len(policies) != n:
            if len(set(policies)) > 1:
                raise ValueError(f"players: {n} is not allowed here; the policies name {len(policies)} seats")
            policies = policies[:1] * n
        return replace(self, options=options, policies=policies)

    def play(self, first: int, count: int, *, record: bool = False) -> dict:
        """Columns of deals ``first .. first+count-1``: by default ``deal``, then the columns of the kernels' rows
        (:meth:`Game.row_columns`) of :meth:`raw`, and with ``record`` its logs (:meth:`logs_columns`)."""
        out, *logs = self.raw(first, count, record=record)
        cols = {"deal": np.arange(first, first + count, dtype=np.int64), **self.game.row_columns(out)}
        return {**cols, **self.logs_columns(logs)} if record else cols

    def logs(self, *shape: int, searched: bool = False) -> tuple:
        """The kernels' logs of ``shape`` deals (no rows: nothing recorded), as :attr:`logged` lays them out (with
        ``searched``, those of the search kernels too)."""
        o = self.options
        return tuple(np.full((*shape, *(getattr(o, d) if isinstance(d, str) else d for d in log.shape)), log.fill,
                             log.dtype) for log in self.logged if searched or not log.searched)

    def logs_columns(self, logs) -> dict:
        """A recorded run's columns of the kernels' ``logs`` (:meth:`logs`), each named as :attr:`logged` names it."""
        return dict(zip((log.name for log in self.logged), logs))

    def raw(self, first: int, count: int, *, record: bool = False) -> tuple:
        """The kernels' rows of deals ``first .. first+count-1``, then (rows only with ``record``) their logs."""
        raise NotImplementedError

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        raise NotImplementedError

    def state_tables(self, states: list) -> dict:
        """The strength ladder's hook beside ``play_tables`` (:mod:`cardlab.sim.ladder`): the columns of finished
        step-API states (its tables with a Python seat), by default the game's rows of them (``state_columns``) but
        ``deal``."""
        cols = self.game.state_columns(states)
        cols.pop("deal", None)
        return cols


#: ``search_inference``'s values: whether search seats weight their worlds by the others' past play.
INFERENCE = ("on", "off")


def inference_setting(game, policies, value) -> str:
    """``search_inference`` checked: ``"on"`` or ``"off"`` (None: off), given only to a game whose search infers
    (:attr:`Game.inference`) and with a search seat."""
    if value is None:
        return "off"
    if not game.inference:
        raise ValueError(f"search_inference: {value!r} does not apply to {game.title}; its search does not weigh its "
                         "worlds by the others' play")
    if "search" not in policies:
        raise ValueError(f"search_inference: {value!r} needs a search seat (policy 'search')")
    check_choice("search_inference", value, INFERENCE)
    return value


class StudyKind(NamedTuple):
    """A paired study a game offers: ``run(game, *, deals, threads, progress, out, **keywords)`` returns
    the rows (or None with ``out``), ``metadata(game, **keywords)`` what its file records. A study in a module
    that imports kernels names its functions with :func:`imported_when_called`, so that reading the registry
    (the command line's parser) imports no kernels."""

    help: str
    run: Callable
    metadata: Callable
    deals: int = 100_000  # the command line's default --deals

    @classmethod
    def imported(cls, help: str, module: str, run: str, metadata: str, **keywords) -> "StudyKind":
        """The study whose ``run`` and ``metadata`` are the functions of those names in ``module``, imported when
        called (:func:`imported_when_called`), each given ``keywords``."""
        return cls(help, partial(imported_when_called(module, run), **keywords),
                   partial(imported_when_called(module, metadata), **keywords))


def imported_when_called(module: str, name: str) -> Callable:
    """Function ``name`` of ``module``, imported at its first call."""
    def call(*args, **keywords):
        return getattr(importlib.import_module(module), name)(*args, **keywords)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}``, imported when called."
    return call


class Figure(NamedTuple):
    """A balance figure a target of ``study balance`` may name (:mod:`cardlab.sim.balance`): ``of`` is a figure of
    :func:`cardlab.analysis.variants.figure_values` (a column's mean, ``name_*`` the mean over sides,
    ``<role>_edge`` the edge of the side of the seat in column ``<role>``, read from the ``sides`` columns);
    with ``by`` (a column) the figure takes an argument and is read on the deals whose ``by`` is that
    argument, one of ``args``: ``edge(no-queens)``."""

    of: str
    help: str
    by: str | None = None
    args: tuple = ()
    sides: str = "score"


def _games_only(context) -> bool:
    return context["unit"] == "games"


#: Where an option of whole games only applies.
GAMES_ONLY = Scope(_games_only, "only to whole games ({games})")


class RunKeyword(NamedTuple):
    """A keyword of a game's runs beyond its rule options (Barbu's ``contract``): the flag ``--name`` it has on the
    ``commands`` named, its default (a flag left at it gives no keyword) and where it applies (a
    :class:`~cardlab.sim.options.Scope`, checked with the options; None: everywhere)."""

    name: str
    help: str
    default: object = None
    commands: tuple = ("simulate", "replay", "play", "study")
    applies: Scope | None = None


class Game:
    """One game, as the rest of cardlab sees it (see the module docstring). Subclass attributes:"""

    name: str  # on the command line and in run files
    title: str  # as people write it
    Options: type  # frozen dataclass of rule options, fields declared with options.option()
    Study: type  # its Study subclass
    GameStudy: type | None = None  # a whole game's study when it differs (Barbu); default Study
    unit: str = "deal"  # the word for one deal
    policies: tuple = SHARED_POLICIES
    oracle: bool = False  # whether the game plays ``oracle`` (search that sees the true deal); else it refuses it
    races: bool = False  # whether its search races candidates (``search_racing``, sim.racing); else it refuses it
    races_by_default: bool = True  # whether it races unless told not to (a game that races)
    racing_level: int = 1  # the rule it races by: a row of sim.racing.LEVELS (1: the shared rule)
    inference: bool = False  # whether its search takes ``search_inference`` (worlds weighted by the others' play)
    rollouts: tuple = ROLLOUT_POLICIES
    default_worlds: int = 32
    max_worlds: int = 4096
    deal_chunk: int = runner.DEFAULT_CHUNK
    game_chunk: int = runner.DEFAULT_GAME_CHUNK
    search_chunk: int = runner.SEARCH_CHUNK  # deals per chunk with a search seat
    search_game_chunk: int = runner.SEARCH_GAME_CHUNK  # whole games per chunk with a search seat
    studies: dict = {}  # name -> StudyKind, beyond the shared ones
    study_deals: dict = {}  # study name -> the command line's default --deals, where not the study's own
    variant_figures: tuple | None = None  # the options study's headline figures (analysis.variants); None: all
    balance_figures: dict = {}  # name -> Figure: what a balance target may name beyond the variant figures
    columns: dict = {}  # unit ("deals", "games") -> the declared result columns (sim.columns.Column)
    run_keywords: tuple = ()  # its RunKeyword's: run settings beyond the options, each with its flag and scope
    numba_seat = None  # a sim.user.NumbaSeat when a seat may be played by the user's own Numba function
    kernel_rules: Callable  # options -> the integer array the kernels take them as (Study.rules), a staticmethod
    #: whether search (and oracle) seats play beside a Python seat: the state's ``policy_action("search")`` is the
    #: kernels' own search, given the deal so far
    search_beside_python: bool = False

    @property
    def played_policies(self) -> tuple:
        """The policies this game plays: :attr:`policies` without ``oracle`` unless it sets :attr:`oracle`."""
        return tuple(p for p in self.policies if p != "oracle" or self.oracle)

    # ---------------------------------------------------------------- what the game may override

    def players(self, options) -> int:
        return options.players

    def column_keys(self, options) -> dict:
        """The values of the placeholders in the declared column names: ``seat`` (every seat) by default."""
        return {"seat": range(self.players(options))}

    def schema(self, options, unit: str = "deals") -> dict[str, str]:
        """The columns (name -> type) a run of ``unit`` under ``options`` writes, from :attr:`columns`."""
        from cardlab.sim.columns import expand

        return expand(self.columns[unit], self.column_keys(options), options)

    def make_options(self, options=None, **rules):
        """``options`` (default: the rules as coded) with keyword rule options replacing its fields."""
        return with_rules(options if options is not None else self.Options(), self.title, rules)

    def scope(self) -> dict:
        """Option (or run keyword) name -> :class:`~cardlab.sim.options.Scope`, from the options' metadata and
        :attr:`run_keywords`."""
        return {**{f.name: f.metadata["applies"] for f in declared(self.Options) if f.metadata.get("applies")},
                **{k.name: k.applies for k in self.run_keywords if k.applies}}

    def run_context(self, study, *, unit: str, study_name: str | None = None) -> dict:
        """The facts the scope table reads: the options' values, the unit (deals or games) and the study."""
        return dict({f.name: getattr(study.options, f.name) for f in fields(study.options)}, unit=unit,
                    study=study_name)

    def check_scope(self, study, *, unit: str, study_name: str | None = None, extra: dict | None = None) -> None:
        """Refuse an option set (different from its default), or a run keyword given in ``extra`` (Barbu's
        ``contract``), where it does not apply, named as :func:`spelling` says (the facade's by default)."""
        spell, label = _SPELLING.get()
        check_scope({**(extra or {}), **given_options(study.options)}, self.scope(),
                    self.run_context(study, unit=unit, study_name=study_name), spell=spell or self.spell, label=label)

    @staticmethod
    def spell(name: str) -> str:
        """How the facade names a unit or option in a message."""
        return {"deals": "simulate, replay", "games": "simulate_games, replay_game"}.get(name, name)

    def add_flags(self, parser, command: str) -> None:
        """The flags of the game's :attr:`run_keywords` that are for ``command`` (Barbu: ``--contract``)."""
        for k in self.run_keywords:
            if command in k.commands:
                parser.add_argument("--" + k.name.replace("_", "-"), default=k.default, help=k.help)

    def flag_keywords(self, args) -> dict:
        """The keywords those flags give the facade: each one not left at its default."""
        return {k.name: getattr(args, k.name) for k in self.run_keywords
                if getattr(args, k.name, k.default) != k.default}

    def replay_deals(self, study, deals: range) -> Replay:
        """Deals ``deals`` of ``study`` replayed, checked by the referee: by default each alone
        (:meth:`replayed_deal`)."""
        return Replay.joined(self.replayed_deal(study, d) for d in deals)

    def replayed_deal(self, study, deal: int) -> tuple[str, dict]:
        """Deal ``deal`` of ``study`` replayed alone, checked by the referee: its text and record."""
        raise NotImplementedError

    def record_keywords(self, record: dict) -> dict:
        """The study's keywords beyond ``seed`` and ``options`` that a single deal's record rebuilds its deal
        with (Barbu: ``contract``, from the record's ``contracts``); none by default."""
        return {}

    def record_game_state(self, record: dict):
        """The whole game a saved game's record is checked on (:func:`cardlab.sim.play.check_record`): game
        ``game_index`` of the record's seed and options, before its first move."""
        return self.game_state(seed=record["seed"], game=record["game_index"], **record.get("options", {}))

    def apply_record_deal(self, state, actions: list, where: str) -> None:
        """Apply the ``actions`` of one deal of a saved game's record to the game's ``state`` (of
        :meth:`record_game_state`), each checked for its seat and its legality."""
        from cardlab.sim.play import apply_action

        for k, entry in enumerate(actions):
            apply_action(state, k, entry, where)

    def new_state(self, study, deal: int):
        """The :class:`~cardlab.sim.state.State` of deal ``deal`` of ``study``, before its first move."""
        raise NotImplementedError(f"{self.name} has no step API")

    def state_columns(self, states: list) -> dict:
        """The columns of a run's rows from its finished states (runs with a Python seat): by default ``deal`` (int64),
        then the columns (:meth:`row_columns`) of the kernels' rows the referee gives (:meth:`state_rows`)."""
        return {"deal": np.array([s.deal for s in states], np.int64), **self.row_columns(self.state_rows(states))}

    def state_rows(self, states: list) -> np.ndarray:
        """The kernels' deal rows of finished states, as the referee scores them (see :meth:`state_columns`)."""
        raise NotImplementedError(f"{self.name} cannot write rows from its step API")

    def row_columns(self, rows: np.ndarray) -> dict:
        """The named columns of the kernels' deal rows (see :meth:`state_columns`): by default the rows' columns are
        the declared deal columns but ``deal``, in order (:func:`~cardlab.sim.columns.kernel_columns`), for the seats
        of the default options (a game whose seats vary names its rows itself)."""
        from cardlab.sim.columns import kernel_columns

        deal = tuple(c for c in self.columns["deals"] if c.name != "deal")
        return kernel_columns(rows, deal, self.column_keys(self.Options()))

    def check_state(self, state, cols: dict, j: int, where: str, error: type = AssertionError) -> None:
        """Refuse, in one line naming ``where`` (``error``, the game's referee error), a finished ``state`` (the
        referee's replay of recorded deal ``j`` of ``cols``) whose columns (:meth:`state_columns` but ``deal``)
        differ from the kernels' row ``j`` of ``cols``."""
        rules = {k: int(v[0]) for k, v in self.state_columns([state]).items() if k != "deal"}
        kernel = {k: int(cols[k][j]) for k in rules}
        if kernel != rules:
            raise error(f"{where}: the kernels gave {kernel}, the rules give {rules}")

    def next_deal(self, study, index: int, finished: list):
        """The state of the next deal of whole game ``index`` of ``study`` after its ``finished`` deal states (the
        first deal when there are none), dealt where the kernels deal it; None once the game's end rule says it is
        over (:mod:`cardlab.sim.whole_games`)."""
        raise ValueError(f"game_index: {self.title}'s step API plays single {self.unit}s so far, not whole games")

    def game_state_columns(self, games: list) -> dict:
        """The game rows (the kernels' columns and types) of finished :class:`~cardlab.sim.whole_games.WholeGame`
        states: here one row per deal, ``game`` (int64), ``deal`` (its number within the game, int16), then the
        deal's columns (:meth:`state_columns`) and, where the game's rows declare them (``total_{seat}``), each
        seat's running total (:func:`~cardlab.sim.whole_games.total_columns`)."""
        from cardlab.sim.whole_games import total_columns

        cols = self.state_columns([s for g in games for s in g.finished])
        cols["deal"] = np.array([k for g in games for k in range(len(g.finished))], np.int16)
        totals = total_columns(games) if any(c.name == "total_{seat}" for c in self.columns.get("games", ())) else {}
        return {"game": np.repeat([g.index for g in games], [len(g.finished) for g in games]).astype(np.int64),
                **cols, **totals}

    def python_play(self, study, unit: str):
        """``play(first, count)`` of a run with a Python seat: its deals (or whole games) through the step API (a
        module-level partial, so a process executor can ship it)."""
        from functools import partial

        from cardlab.sim.python_seats import play_columns
        from cardlab.sim.whole_games import play_game_columns

        self.check_search_beside_python(study, unit)
        if unit == "games":
            self.next_deal(study, 0, [])  # refused in one line where the step API has no whole games
            return partial(play_game_columns, study)
        return partial(play_columns, study)

    def check_search_beside_python(self, study, unit: str) -> None:
        """Refuse, in one line, a run of ``unit`` where a Python seat would share a table with a search seat the
        game's step API does not play (its state's ``policy_action("search")``: :attr:`search_beside_python`)."""
        if study.searching and not self.search_beside_python:
            raise ValueError("policy: a Python seat and a search seat cannot share a table yet")

    def replay_games(self, study, games: range) -> Replay:
        """Whole games ``games`` of ``study`` replayed, checked by the referee: by default each alone
        (:meth:`replayed_game`)."""
        return Replay.joined((self.replayed_game(study, g) for g in games), games=True)

    def replayed_game(self, study, game: int) -> tuple[str, list]:
        """Whole game ``game`` of ``study`` replayed alone, checked by the referee: its text and its deals' records."""
        raise ValueError(f"game_index: {self.name} replays {self.unit}s one by one; give deal=i or deal='a:b'")

    # ---------------------------------------------------------------- built once for every game

    def build(self, unit: str = "deals", *, study_name: str | None = None, variant=None, **keywords):
        """The study of a run of ``unit`` (``"deals"`` or ``"games"``), its options checked for where they apply.

        ``variant`` is a variant file (a TOML path, or a mapping): the options it sets, each read and checked
        as its flag is (:func:`~cardlab.sim.options.read_variant`); rule keywords given beside it override it.
        The study records it (:attr:`Study.variant`), so the run's metadata holds it. ``search_racing`` (a game
        that races, with a search seat) is checked by :meth:`racing_setting`."""
        racing = keywords.pop("search_racing", None)
        if variant is None:
            study = self.build_study(unit, study_name=study_name, **keywords)
        else:
            file, rules = self.read_variant(variant)
            study = replace(self.build_study(unit, study_name=study_name, **{**rules, **keywords}),
                            variant=Variant(file, tuple(rules.items())))
        return replace(study, search_racing=self.racing_setting(study, racing))

    def racing_setting(self, study, value) -> bool | None:
        """``search_racing`` checked: True or False (None: the game's default, :attr:`races_by_default`), given only
        to a game that races (:attr:`races`) and with a search seat; True not with ``search_inference`` on."""
        if value is None:
            return None
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"search_racing: {value!r} is not allowed; use True or False")
        if not self.races:
            from cardlab.sim.games import GAMES, game

            racing = ", ".join(game(name).title for name in GAMES if game(name).races)
            raise ValueError(f"search_racing: {bool(value)} does not apply to {self.title}; its search does not race "
                             f"candidates ({racing} do)")
        if not study.searching:
            raise ValueError(f"search_racing: {bool(value)} needs a search seat (policy 'search')")
        if value and study.search_inference == "on":
            raise ValueError("search_racing: True does not apply with search_inference 'on' (a seat that infers "
                             "weighs its worlds and does not race); use one or the other")
        return bool(value)

    def read_variant(self, variant) -> tuple:
        """``(file, rules)`` of a variant file (or mapping) for this game (see :meth:`build`)."""
        return read_variant(variant, self.Options, game=self.name, title=self.title)

    def build_study(self, unit: str = "deals", *, study_name: str | None = None, **keywords):
        """The game's study of a run (what :meth:`build` calls once the variant file is read), its options and the
        run keywords given (:attr:`run_keywords`) checked for where they apply; the study's ``build`` takes the run
        keywords :meth:`study_keywords` gives it."""
        given = {k.name: keywords.pop(k.name) for k in self.run_keywords if k.name in keywords}
        cls = self.GameStudy if unit == "games" and self.GameStudy is not None else self.Study
        study = cls.build(**keywords, **self.study_keywords(unit, study_name, given))
        self.check_scope(study, unit=unit, study_name=study_name, extra=given)
        return study

    def study_keywords(self, unit: str, study_name: str | None, given: dict) -> dict:
        """The keywords a study of ``unit`` (and ``study_name``) is built with from the run keywords ``given``: none
        by default (a game whose studies take some says which)."""
        return {}

    def run(self, study, unit: str, count: int, *, first: int = 0, chunk_size=None, threads=None,
            progress: bool = False, out=None, summary: bool = False, executor=None):
        """Play ``count`` deals (or games) of ``study`` through the shared runner. The rows come back with
        their run's metadata in ``DataFrame.attrs["cardlab"]`` (what a run file records), for every game. Chunks are
        the game's (:attr:`deal_chunk`, :attr:`game_chunk`), small with a search seat (:attr:`search_chunk`,
        :attr:`search_game_chunk`: seconds each) and a summary's of single deals ``runner.SUMMARY_CHUNK`` (as the
        command line's), unless ``chunk_size`` says."""
        games = unit == "games"
        runner.set_threads(threads)
        play = study.play_games if games else study.play
        if study.python_seats:
            play = self.python_play(study, unit)
        if chunk_size is None:
            chunk_size = (self.search_game_chunk if games else self.search_chunk) if study.searching else \
                self.game_chunk if games else runner.SUMMARY_CHUNK if summary else self.deal_chunk
        return runner.run(play, deals=count, first_deal=first, chunk_size=chunk_size, progress=progress,
                          out=out, meta=study.metadata("game" if games else "deal"), unit="game" if games else "deal",
                          summary=summary or None, executor=executor)

    def simulate(self, *, deals: int, first_deal: int = 0, chunk_size: int | None = None, threads=None,
                 progress: bool = False, out=None, summary: bool = False, executor=None, **keywords):
        """Play ``deals`` independent deals; one row per deal (or written to Parquet ``out``).

        Deal ``i`` comes from the stream ``(seed, i)`` alone, so the rows are the same for any
        ``threads``, ``chunk_size`` and ``executor``. Keywords: ``seed``, ``policy`` (one name or one
        per seat), ``options`` or rule options by name, ``search_worlds``/``search_rollout`` (and
        ``search_racing=False`` where the search races: every candidate in every world)."""
        study = self.build("deals", **keywords)
        return self.run(study, "deals", deals, first=first_deal, chunk_size=chunk_size, threads=threads,
                        progress=progress, out=out, summary=summary, executor=executor)

    def simulate_games(self, *, games: int, first_game: int = 0, chunk_size: int | None = None, threads=None,
                       progress: bool = False, out=None, summary: bool = False, executor=None, **keywords):
        """Play ``games`` whole games; game ``g`` comes from the stream ``(seed, g)``. Keywords as
        :meth:`simulate`."""
        study = self.build("games", **keywords)
        return self.run(study, "games", games, first=first_game, chunk_size=chunk_size, threads=threads,
                        progress=progress, out=out, summary=summary, executor=executor)

    def record_schema(self) -> dict:
        """The JSON Schema of the game's records, ``record.schema.json`` in the game's package (shipped with
        it): every record of ``replay --json``, single deals and whole games, validates against it."""
        from importlib.resources import files

        package = type(self).__module__.rpartition(".")[0]
        return json.loads((files(package) / "record.schema.json").read_text(encoding="utf-8"))

    def replayed(self, study, unit: str, indices: range) -> Replay:
        """Deals (``unit="deals"``) or whole games (``"games"``) of ``study`` replayed and checked, each record
        opened by what reproduces it: the study's :meth:`~Study.metadata` (``game``, ``options``,
        ``policies``, ``seed``, and the search's settings with a search seat). In a record of a whole game
        ``game`` is the game's index, as in the run's rows; the game's name is the schema's."""
        replay = self.replay_deals(study, indices) if unit == "deals" else self.replay_games(study, indices)
        keys = study.metadata()
        return replay._replace(records=[{**keys, **record} for record in replay.records])  # keeps a game's subclass

    def replay(self, *, deal, **keywords) -> Replay:
        """Replay deal ``deal`` (an index, ``'a:b'`` or a range) of a :meth:`simulate` run alone; the
        referee checks every move and the scores. Keywords as :meth:`simulate`."""
        from cardlab.sim.replay import parse_range

        deals = deal if isinstance(deal, range) else parse_range("deal", deal)
        return self.replayed(self.build("deals", **keywords), "deals", deals)

    def replay_game(self, *, game, **keywords) -> Replay:
        """Replay whole game ``game`` (an index, ``'a:b'`` or a range) of a :meth:`simulate_games` run."""
        from cardlab.sim.replay import parse_range

        games = game if isinstance(game, range) else parse_range("game_index", game)
        return self.replayed(self.build("games", **keywords), "games", games)

    def state(self, *, deal: int = 0, **keywords):
        """Deal ``deal`` of :meth:`simulate` (same keywords: ``seed``, rule options ...) as a
        :class:`~cardlab.sim.state.State`, to be played move by move (see :mod:`cardlab.sim.state`)."""
        from cardlab.sim.replay import parse_range

        deals = parse_range("deal", deal, limit=1)
        return self.new_state(self.build("deals", **keywords), deals.start)

    def game_state(self, *, game: int = 0, **keywords):
        """Whole game ``game`` of :meth:`simulate_games` (same keywords) as a
        :class:`~cardlab.sim.whole_games.WholeGame`, to be played move by move, deal after deal."""
        from cardlab.sim.replay import parse_range
        from cardlab.sim.whole_games import WholeGame

        games = parse_range("game", game, limit=1)
        return WholeGame(self.build("games", **keywords), games.start)

    def figures(self) -> dict:
        """The figures a balance target may name (:class:`Figure` by name): each of :attr:`variant_figures`
        (``score_*`` named ``score``), then the game's :attr:`balance_figures`."""
        helps = {c.name.replace("{seat}", "*").replace("{team}", "*"): c.help for c in self.columns.get("deals", ())}
        out = {}
        for figure in self.variant_figures or ():
            if figure.endswith("_*"):
                out[figure[:-2]] = Figure(figure, f"the mean over sides of {figure[:-1]}<side>: {helps.get(figure)}")
            elif figure.endswith("_edge"):
                role = figure[:-5]
                out[figure] = Figure(figure, f"the {role}'s edge: its score minus the mean of the others'")
            else:
                out[figure] = Figure(figure, helps.get(figure, figure))
        return {**out, **self.balance_figures}

    def all_studies(self) -> dict:
        """Every study of the game: its own, then the strength ladder, the options, variants and balance studies."""
        from cardlab.sim import balance, ladder, variants

        shared = {"strength": ladder.STUDY, "options": variants.STUDY, "variants": variants.VARIANTS,
                  "balance": balance.STUDY}
        return {**shared, **self.studies} if not self.studies else {**self.studies,
                                                                     **{k: v for k, v in shared.items()
                                                                        if k not in self.studies}}

    def __repr__(self) -> str:
        return f"<game {self.name}: {self.title}>"
