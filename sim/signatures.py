"""A Numba seat's signature, read from the text that documents it: one statement of each decision's types.

A game documents each decision of its Numba seat as ``name(arg: type, ...) -> type``, a word in parentheses
after a type being a comment, e.g. ``card(hand: uint64, n: int64 (cards already in the trick)) -> int64 (a card
id)``. The types are ``uint64``, ``int64``, ``int32`` and ``bool``, or an array of one, ``int64[53]`` or
``int32[:]`` (its length, if given, is documentation): the user's function is compiled to exactly those types,
arrays C-contiguous. A game declares its seat with :func:`numba_seat` and :func:`numba_decision`, which
read the types from the text when a function is compiled (declaring a seat imports no Numba).

>>> from numba import types
>>> sig = numba_signature("card(hand: uint64, values: int32[:] (points per card), last: bool) -> int64 (a card)")
>>> sig == types.int64(types.uint64, types.int32[::1], types.boolean)
True
"""
from __future__ import annotations

from functools import partial

from cardlab.sim.policy import SHARED_POLICIES
from cardlab.sim.user import Decision, NumbaSeat

SCALARS = {"uint64": "uint64", "int64": "int64", "int32": "int32", "bool": "boolean"}


def _without_comments(text: str) -> str:
    """``text`` with every parenthesised comment removed (none nest)."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")"
    return "".join(out)


def _type(name: str, where: str):
    from numba import types

    base, array = (name.split("[", 1)[0], True) if name.endswith("]") else (name, False)
    if base not in SCALARS:
        raise ValueError(f"{where}: type {name!r} is not one of {', '.join(SCALARS)} or an array of one")
    t = getattr(types, SCALARS[base])
    return t[::1] if array else t


def numba_signature(text: str):
    """The Numba signature (``types.int64(types.uint64, ...)``) documented by ``text`` (the module's form)."""
    head, arrow, returned = text.partition("->")
    head = head.strip()
    opening = head.find("(")
    if not arrow or opening < 0 or not head.endswith(")"):
        raise ValueError(f"{text!r} is not of the form name(arg: type, ...) -> type")
    arguments = _without_comments(head[opening + 1:-1])
    types_ = [_type(a.partition(":")[2].strip(), text) for a in arguments.split(",") if a.strip()]
    return _type(_without_comments(returned).strip(), text)(*types_)


def numba_decision(key: str, decision: str, signature: str) -> Decision:
    """An extra decision of a Numba seat (:class:`~cardlab.sim.user.Decision`), its types read from ``signature``."""
    return Decision(key, decision, signature, partial(numba_signature, signature))


def numba_seat(decision: str, signature: str, kernel_id: int = len(SHARED_POLICIES), *, key: str = "card",
               extras: tuple = ()) -> NumbaSeat:
    """A game's Numba seat (:class:`~cardlab.sim.user.NumbaSeat`): its main decision's types read from
    ``signature``, then ``extras`` (:func:`numba_decision`); its kernels know its seats by ``kernel_id``, by
    default the first id after the shared policies (:mod:`cardlab.sim.policy`)."""
    return NumbaSeat(decision, signature, partial(numba_signature, signature), kernel_id, key, extras)
