"""A game's result columns, declared once: each column's name, type and meaning, per unit of a run.

A game lists the columns of its rows (``Game.columns``: ``"deals"`` and ``"games"``) as
:class:`Column` entries. A name may hold placeholders in braces, one column for each value:
``{seat}`` (every seat at the table), ``{team}`` (every partnership), ``{other}`` (every seat but
``{seat}``) or a game's own (``Game.column_keys``), so ``score_{seat}`` stands for ``score_0`` …
``score_{n-1}``. A column that only some runs write names in ``when`` the switch option that adds it. The conformance suite checks that every run writes exactly the declared columns and types;
the docs' column tables come from the same entries (:func:`columns_table`).

>>> cols = (Column("deal", "int64", "the deal's number"), Column("score_{seat}", "int16", "each seat's score"))
>>> expand(cols, {"seat": range(3)})
{'deal': 'int64', 'score_0': 'int16', 'score_1': 'int16', 'score_2': 'int16'}
"""
from __future__ import annotations

import re
from itertools import product
from typing import NamedTuple

_KEY = re.compile(r"{(\w+)}")


class Column(NamedTuple):
    """One declared column (or family of columns, when ``name`` holds placeholders)."""

    name: str
    dtype: str  # a numpy dtype name, or "category"
    help: str
    when: str | None = None  # written only when this switch option is on


def expand(columns, keys: dict, options=None) -> dict[str, str]:
    """Every column name the declared ``columns`` stand for, with its type, for the placeholder values
    ``keys`` (``{"seat": range(n), ...}``; ``other`` is every seat but ``seat``) and the run's ``options``."""
    out = {}
    for col in columns:
        if col.when is not None and not getattr(options, col.when):
            continue
        names = _KEY.findall(col.name)
        values = [keys["seat"] if n == "other" else keys[n] for n in names]
        for combo in product(*values):
            chosen = dict(zip(names, combo))
            if "other" in chosen and chosen["other"] == chosen.get("seat"):
                continue
            out[col.name.format(**chosen)] = col.dtype
    return out


def kernel_columns(rows, columns, keys: dict, options=None) -> dict:
    """The named columns of a kernel's ``rows`` (one row per deal) whose columns are the declared ``columns`` in
    order, placeholders expanded as :func:`expand` does: column ``k`` is the ``k``-th name, cast to its type.

    >>> import numpy as np
    >>> rows = np.array([[1, 5, 7], [2, 6, 8]])
    >>> kernel_columns(rows, (Column("dealer", "int8", ""), Column("score_{seat}", "int16", "")), {"seat": range(2)})
    {'dealer': array([1, 2], dtype=int8), 'score_0': array([5, 6], dtype=int16), 'score_1': array([7, 8], dtype=int16)}
    """
    return {name: rows[:, k].astype(dtype) for k, (name, dtype) in enumerate(expand(columns, keys, options).items())}


#: The first column of every game's rows of whole games.
GAME = Column("game", "int64", "the game's number (its stream is (seed, game))")


def deal_schema(deal: Column, columns: tuple, *, unit: str = "deal", deals: tuple = (), games: tuple = (),
                totals: str | None = None) -> dict:
    """The declared columns (``Game.columns``) of a game whose rows of deals are ``deal`` (its number), the deal's
    ``columns``, then ``deals``; and whose rows of whole games, one per deal, are :data:`GAME`, ``deal`` (int16: the
    ``unit``'s number within its game), the same ``columns``, then ``games`` and, with ``totals`` (its help), each
    seat's running total ``total_{seat}`` (int16).

    >>> [c.name for c in deal_schema(Column("deal", "int64", ""), (Column("score", "int8", ""),))["games"]]
    ['game', 'deal', 'score']
    """
    return {"deals": (deal,) + columns + deals,
            "games": (GAME, Column("deal", "int16", f"the {unit} within its game, from 0")) + columns + games
            + ((Column("total_{seat}", "int16", totals),) if totals else ())}


def columns_table(columns) -> str:
    """The declared columns as a Markdown table (name, type, meaning) for the docs."""
    rows = ["| column | type | meaning |", "|---|---|---|"]
    rows += [f"| `{c.name}` | {c.dtype} | {c.help.replace('|', chr(92) + '|')}{f' (with `{c.when}`)' if c.when else ''} |"
             for c in columns]  # a | in a meaning (|Δ|) is escaped, or it would end the cell
    return "\n".join(rows)
