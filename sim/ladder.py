"""The strength ladder of every game: random, heuristic and search seats in paired matches on the same deals.

Deal ``i`` keeps the cards and dealer of a plain run and is played nine times:

* **whole tables**: every seat random, every seat heuristic, every seat search;
* **one side changed**: the side that changes on deal ``i`` (a seat, or a partnership; the game
  rotates it so that every side meets every dealer equally often) plays policy X while the others
  play Y, for each ordered pair X != Y.

The gain of X against Y on a deal is the changed side's result at the mixed table minus its result
at the whole-Y table (same cards, same opponents' policy): what a player gains by playing X
instead of Y at a table of Y players. Gains are paired, so their intervals are narrow.

A game's :class:`~cardlab.sim.game.Study` provides four hooks (:class:`LoneSeat` gives three of them to a game
whose changed side is one seat, :class:`Partnerships` to one whose changed side is a partnership):
``ladder_sides(deals)`` (the changed side of each deal and a ``(deals, seats)`` mask of its seats), ``play_tables(deals,
policies)`` (each deal with its own row of seat policies, search included), ``ladder_head(deals,
sides)`` (the row's first columns) and ``ladder_columns(columns, x, y, sides)`` (what a table adds
to the row: the whole table's figures for ``y=None``, the changed side's result otherwise).
``cardlab.analysis.<game>_strength`` reports it.

**The oracle** (``oracle=True``, ``--oracle``; every game plays it) is the ceiling: search
that sees the true deal (:mod:`cardlab.sim.policy`). It adds three tables, not a whole rung: every seat
oracle, and the changed side playing oracle among search players and among heuristic players. The gain of
oracle against search is the honest searcher's loss from not seeing the cards (the honest-to-oracle gap);
against heuristic it is the yardstick that two ladders on the same deals (inference on and off) share, so
the report can say how much of the gap inference closes. Without ``oracle`` the ladder and its rows are
exactly as before; with it, with heuristic rollouts, an oracle seat costs about one world of a search seat,
so the three tables add about a quarter to the ladder's time (the search players of the oracle-in-search
table).

The ladder also takes your own policies (``policies={"mine": my_card_function}``, or on the command line
``--policy numba:mybots.lowest``): each joins random, heuristic and search as one more rung, in every
whole table and every pair, so its gains against the others come out paired on the same deals. An own
policy is a Numba player of the game's Numba seat (a function, or a dict of them by decision:
:mod:`cardlab.sim.user`), or a Python function ``(observation, legal_actions) -> move`` in a game whose step
API plays search seats beside a Python seat (Barbu's trick contracts): the tables where it sits are then
played move by move through the step API (:mod:`cardlab.sim.python_seats`, its search seats the kernels'
own decisions), the others in the kernels.
"""
from __future__ import annotations

import re
from functools import partial

import numpy as np

from cardlab.sim import runner
from cardlab.sim.game import StudyKind
from cardlab.sim.policy import POLICY, SHARED_POLICIES

LADDER = SHARED_POLICIES[:POLICY.ORACLE]  # random, heuristic, search (the oracle is the ceiling, on request)
PAIRS = tuple((x, y) for x in LADDER for y in LADDER if x != y)
#: The nine tables, in column order: the whole tables, then the pairs (changed side X, others Y).
TABLES = tuple((x, None) for x in LADDER) + PAIRS
#: The oracle's tables, after the others when the ladder has the ceiling: its whole table, then the changed side
#: playing oracle among search and among heuristic players.
ORACLE_TABLES = (("oracle", None), ("oracle", "search"), ("oracle", "heuristic"))
DEFAULT_STUDY_CHUNK = 256
_NAME = re.compile(r"[a-z][a-z0-9]*")


def tables(names, oracle: bool = False) -> tuple:
    """The tables of a ladder of policies ``names``, in column order: each whole table, then each pair
    (changed side X, others Y), then with ``oracle`` the oracle's :data:`ORACLE_TABLES`."""
    return (tuple((x, None) for x in names) + tuple((x, y) for x in names for y in names if x != y)
            + (ORACLE_TABLES if oracle else ()))


def check_oracle(game, oracle) -> bool:
    """``oracle`` as a bool (None: False), refused in one line for a game that does not play the oracle yet."""
    if oracle is None:
        return False
    if not isinstance(oracle, bool):
        raise ValueError(f"oracle: {oracle!r} is not allowed; use True or False")
    if oracle and not game.oracle:
        raise ValueError(f"oracle: {game.title} does not play the oracle yet; drop oracle (--oracle)")
    return oracle


def own_policies(game, policy="heuristic", policies=None) -> dict:
    """``{rung name: numba: policy name}`` of the own policies joining the ladder: ``policies`` (name ->
    a Numba function or ``numba:<module>.<function>``) and a ``policy`` other than the default (one own
    policy, named after its function). One-line errors for what cannot join."""
    from cardlab.sim.python_seats import is_python_name, is_python_policy
    from cardlab.sim.user import is_numba_name, is_numba_player, name_of

    own = dict(policies or {})
    if policy != "heuristic":
        if not (is_numba_player(policy) or is_numba_name(policy) or is_python_policy(policy)
                or is_python_name(policy)):
            raise ValueError(f"policy: {policy!r} is not allowed here; the strength study sets every seat's policy "
                             "itself (give your own Numba function to add it to the ladder)")
        text = (name_of(policy) if is_numba_player(policy) else str(policy)).split("+")[0]  # its main function
        own[re.sub(r"[^a-z0-9]", "", text.rpartition(".")[2].lower()) or "own"] = policy
    for name, p in own.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name in game.policies:
            raise ValueError(f"policies: {name!r} is not allowed as a name; use lowercase letters and digits, not "
                             f"{', '.join(game.policies)} (it names columns such as lone_{{name}}_in_heuristic)")
        if is_python_policy(p) or is_python_name(p):
            continue  # checked with the ladder's study (ladder_study)
        if game.numba_seat is None:
            raise ValueError(f"policies: {name}: {game.name} has no Numba seats yet; own policies join the ladder in "
                             "the games that have them (docs/your-player.md)")
        if not (is_numba_player(p) or is_numba_name(p)):
            raise ValueError(f"policies: {name}: {p!r} is not a Numba function, a dict of them by decision, or a "
                             "numba:<module>.<function> name")
    if len(own) > 1:
        raise ValueError(f"policies: {', '.join(own)}: a run plays one own function, so the ladder takes one own "
                         "policy at a time")
    return own


def ladder_study(game, *, policy="heuristic", policies=None, **keywords):
    """The study every table of the ladder starts from (its search settings are the search seats'; an own
    policy sits in seat 0, so the kernels get its function) and the ladder's policy names."""
    from cardlab.sim.python_seats import is_python_name

    own = own_policies(game, policy, policies)
    study = game.build("deals", study_name="strength", policy="search", **keywords)
    if own:
        seats = list(own.values()) + ["search"] * (len(study.policies) - 1)
        study = game.build("deals", study_name="strength", policy=seats, **keywords)
        if is_python_name(study.policies[0]):
            try:
                game.check_search_beside_python(study, "deals")
            except ValueError as e:
                raise ValueError(f"policies: {next(iter(own))}: a Python policy cannot join {game.title}'s ladder yet "
                                 f"({str(e).removeprefix('policy: ')}); write it as a Numba function "
                                 "(docs/your-player.md)") from None
    return study, LADDER + tuple(own)


def table_policies(study, deals: np.ndarray, mask: np.ndarray, names=LADDER, oracle: bool = False) -> np.ndarray:
    """The seat policies of every table of ladder ``names`` (and the oracle's), ``(len(tables) * len(deals),
    seats)``: table-major rows."""
    game = study.game
    ladder = tables(names, oracle)
    own = study.policy_ids[0]  # an own policy sits in seat 0: a Numba seat's kernel id, or -1 for a Python seat
    ids = {name: game.policies.index(name) if name in game.policies else own for name in {x for x, _ in ladder}}
    policies = np.empty((len(ladder), len(deals), mask.shape[1]), np.int64)
    for k, (x, y) in enumerate(ladder):
        policies[k] = ids[x if y is None else y]
        if y is not None:
            policies[k][mask] = ids[x]
    return policies.reshape(-1, mask.shape[1])


def ladder_columns(study, first: int, count: int, names=LADDER, oracle: bool = False) -> dict:
    """The ladder's row of deals ``first .. first+count-1`` (see the module docstring)."""
    deal = np.arange(first, first + count, dtype=np.int64)
    sides, mask = study.ladder_sides(deal)
    ladder = tables(names, oracle)
    played = play_tables(study, np.tile(deal, len(ladder)), table_policies(study, deal, mask, names, oracle))
    columns = study.ladder_head(deal, sides)
    for k, (x, y) in enumerate(ladder):
        part = {name: values[k * count:(k + 1) * count] for name, values in played.items()}
        columns.update(study.ladder_columns(part, x, y, sides))
    return columns


def play_tables(study, deals: np.ndarray, policies: np.ndarray) -> dict:
    """``study.play_tables(deals, policies)``, the rows with a Python seat (policy -1: the study's seat-0 policy)
    played through the step API and given by ``study.state_tables`` (same keys, same row order)."""
    from dataclasses import replace

    from cardlab.sim.python_seats import play_deal

    python = (policies < 0).any(axis=1)
    if not python.any():
        return study.play_tables(deals, policies)
    parts = [(np.flatnonzero(~python), study.play_tables(deals[~python], policies[~python]))] if (~python).any() else []
    for row in np.unique(policies[python], axis=0):
        rows = np.flatnonzero((policies == row).all(axis=1))
        seats = replace(study, policies=tuple(study.policies[0] if i < 0 else study.game.policies[i] for i in row))
        parts.append((rows, study.state_tables([play_deal(seats, int(d)) for d in deals[rows]])))
    return _gather(parts, len(deals))


def by_table(deals: np.ndarray, policies: np.ndarray, play) -> dict:
    """``play(deals, row)`` (columns) for each distinct row of seat ``policies``, one call a table (a game's
    ``play_tables`` where its search kernel takes one row of policies), the columns put back in the order of
    ``deals``."""
    parts = []
    for row in np.unique(policies, axis=0):
        rows = np.flatnonzero((policies == row).all(axis=1))
        parts.append((rows, play(deals[rows], row)))
    return _gather(parts, len(deals))


def _gather(parts: list, count: int) -> dict:
    """The columns of ``parts`` (``(rows, columns)`` pairs covering rows ``0 .. count-1``) as one set of columns."""
    out = {}
    for key in parts[0][1]:
        values = parts[0][1][key]
        out[key] = np.empty((count,) + values.shape[1:], values.dtype)
        for rows, part in parts:
            out[key][rows] = part[key]
    return out


class LoneSeat:
    """The ladder's hooks for a game whose changed side is one seat (a :class:`~cardlab.sim.game.Study` mixin).

    Seat ``(i // (b * n)) % n`` changes on deal ``i`` (``n`` seats, ``b`` = :attr:`ladder_block` deals per seat
    turn), so every seat changes equally often against every dealer. A row starts ``deal``, the game's
    :meth:`ladder_facts` (the dealer by default), ``lone``; a whole table ``X`` adds each seat's score
    (``<score>_<X>_<seat>``, ``score`` being :attr:`ladder_score`) and :attr:`ladder_extras` (``<name>_<X>``), a pair
    the lone seat's score (``lone_<X>_in_<Y>``) and, with :attr:`ladder_others`, the other seats' summed
    (``others_<X>_in_<Y>``)."""

    ladder_score = "score"  # the column a seat is judged by: <score>_<seat>
    ladder_extras: dict = {}  # whole tables' further columns: name in the row -> the run's column
    ladder_others = False  # pairs also give the other seats' summed score

    @property
    def ladder_block(self) -> int:
        """Deals per seat turn: one, or a game's cycle of deals (Barbu: its contracts)."""
        return 1

    def ladder_sides(self, deals):
        n = self.game.players(self.options)
        lone = (deals // (self.ladder_block * n)) % n
        return lone, np.arange(n)[None, :] == lone[:, None]

    def ladder_facts(self, deals) -> dict:
        """A row's columns between ``deal`` and ``lone``: the dealer (seat ``i % n``) by default."""
        return {"dealer": (deals % self.game.players(self.options)).astype(np.int8)}

    def ladder_head(self, deals, sides) -> dict:
        return {"deal": deals, **self.ladder_facts(deals), "lone": sides.astype(np.int8)}

    def ladder_scores(self, cols) -> np.ndarray:
        """Each seat's score, ``(rows, seats)`` ``int16``."""
        n = self.game.players(self.options)
        return np.stack([cols[f"{self.ladder_score}_{p}"] for p in range(n)], axis=1).astype(np.int16)

    def ladder_columns(self, cols, x, y, sides) -> dict:
        scores = self.ladder_scores(cols)
        if y is None:
            return {**{f"{self.ladder_score}_{x}_{p}": scores[:, p] for p in range(scores.shape[1])},
                    **{f"{name}_{x}": cols[column] for name, column in self.ladder_extras.items()}}
        mine = scores[np.arange(len(sides)), sides]
        others = {f"others_{x}_in_{y}": scores.sum(axis=1) - mine} if self.ladder_others else {}
        return {f"lone_{x}_in_{y}": mine, **others}


class Partnerships:
    """The ladder's hooks for a game of two partnerships, even seats against odd ones (a
    :class:`~cardlab.sim.game.Study` mixin).

    Partnership ``(i // n) % 2`` (seats ``t``, ``t + 2`` ...) changes on deal ``i`` (``n`` seats, dealer ``i % n``), so
    each partnership meets every dealer equally often. A row starts ``deal``, ``dealer``, ``team``; each table adds
    every figure of :attr:`ladder_figures`, ``<name>_<table>`` (the table ``X`` of a whole table, ``X_vs_Y`` of a pair:
    the changed partnership plays X, the other Y), a column of the run or, for one per team (``points_{team}``), team
    0's minus team 1's."""

    ladder_figures: dict = {}  # name in the row -> the run's column

    def ladder_sides(self, deals):
        n = self.game.players(self.options)
        team = (deals // n) % 2
        return team, np.arange(n)[None, :] % 2 == team[:, None]

    def ladder_head(self, deals, sides) -> dict:
        n = self.game.players(self.options)
        return {"deal": deals, "dealer": (deals % n).astype(np.int8), "team": sides.astype(np.int8)}

    def ladder_columns(self, cols, x, y, sides) -> dict:
        table = x if y is None else f"{x}_vs_{y}"
        return {f"{name}_{table}": cols[c.format(team=0)] - cols[c.format(team=1)] if "{team}" in c else cols[c]
                for name, c in self.ladder_figures.items()}


def _metadata(study, names, oracle: bool = False) -> dict:
    own = {n: p for n, p in zip(names[len(LADDER):], study.policies)}
    return {**study.metadata(), "policies": list(names), "study": "strength",
            **({"own_policies": own} if own else {}), **({"oracle": True} if oracle else {})}


def strength_metadata(game, *, oracle: bool = False, **keywords) -> dict:
    """The metadata a strength study records (its ``study`` is ``"strength"``; ``oracle: true`` with the ceiling)."""
    return _metadata(*ladder_study(game, **keywords), check_oracle(game, oracle))


def strength_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                   progress: bool = False, out=None, oracle: bool = False, **keywords):
    """Play the ladder on ``deals`` deals of ``game``; one row per deal (or written to ``out``).

    ``policies`` adds your own (``{"mine": my_numba_function}``); ``policy`` stays the default or is one
    own policy; ``oracle=True`` adds the ceiling's tables (module docstring). Keywords: ``seed``, rule
    options, ``search_worlds``, ``search_rollout``."""
    oracle = check_oracle(game, oracle)
    study, names = ladder_study(game, **keywords)
    # the chunk shrinks with the tables played, so a chunk takes as long as the built-in ladder's
    chunk = chunk_size or max(1, getattr(game, "ladder_chunk", DEFAULT_STUDY_CHUNK) * len(TABLES)
                              // len(tables(names, oracle)))
    return runner.run_study(partial(ladder_columns, study, names=names, oracle=oracle), _metadata(study, names, oracle),
                            deals=deals, threads=threads, first_deal=first_deal, chunk_size=chunk, progress=progress,
                            out=out)


STUDY = StudyKind("random, heuristic and search seats in paired matches on the same deals", strength_study,
                  strength_metadata, deals=1_000)
