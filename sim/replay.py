"""Replays shared by every game: ``--deal a:b`` ranges and machine-readable records (JSON lines).

``cardlab replay <game> --deal 7`` shows one deal, ``--deal 0:100`` deals 0 … 99 (``a:b`` reads as a
Python slice: ``b`` is not included), ``--game-index`` the same for whole games. With ``--json`` every
deal (hand) is written as one JSON object on one line, the same shape in every game:

* ``deal``: its index (with ``game``: the index of the deal within that game, as in the run's rows);
* the game's own keys (Barbu: ``contract``, ``declarer``, ``trump``);
* ``hands``: one list of card names per seat, as dealt;
* ``actions``: in order, each ``{"seat": s, "kind": k}`` plus ``"card"``, ``"suit"``, ``"rank"`` or
  ``"target"`` where one applies (``{"seat": 2, "kind": "play", "card": "K♥"}``, ``{"seat": 1, "kind":
  "pass"}``, ``{"seat": 3, "kind": "double", "target": 0}``; a game's own kinds, such as Rami's melds,
  carry their own fields, listed on its rules page under "Step API"); every action is a move of the
  game's step API (:mod:`cardlab.sim.state`), so a record replays through it;
* ``scores``: the points of each seat.

Cards are written as in the text replay (``K♥``, ``10♠``), suits as ``♣ ♦ ♥ ♠``.

>>> parse_range("deal", "3:6")
range(3, 6)
>>> action(2, "play", card="K♥")
{'seat': 2, 'kind': 'play', 'card': 'K♥'}
>>> json_line({"deal": 0, "hands": [["A♠", "10♥"]]})
'{"deal": 0, "hands": [["A♠", "10♥"]]}'
"""
from __future__ import annotations

import json
from typing import Callable, Iterable

from cardlab.sim.cards import LANE, SUIT_SYMBOLS, card_name
from cardlab.sim.runner import INDEX_MAX

#: The most deals (games) one replay command shows: each is replayed and checked in plain Python.
REPLAY_MAX = 100_000


def parse_range(option: str, value, *, limit: int = REPLAY_MAX) -> range:
    """``7`` or ``"7"`` → ``range(7, 8)``; ``"a:b"`` → ``range(a, b)`` (``b`` excluded, as a Python slice).

    Indices run from 0 to :data:`~cardlab.sim.runner.INDEX_MAX`; a range holds 1 to ``limit``
    indices. Anything else is a one-line ``ValueError`` naming ``option``.

    >>> parse_range("deal", 12), parse_range("game_index", "0:3")
    (range(12, 13), range(0, 3))
    >>> parse_range("deal", "5:5")
    Traceback (most recent call last):
    ValueError: deal: '5:5' is an empty range; give a:b with a < b (b is not included)
    """
    allowed = f"give an index (0 to {INDEX_MAX}) or a range a:b (deals a … b-1, at most {limit:,})"
    if isinstance(value, bool):
        raise ValueError(f"{option}: {value!r} is not allowed; {allowed}")
    if isinstance(value, int):
        first, stop = value, value + 1
    else:
        parts = str(value).strip().split(":")
        try:
            if len(parts) == 1:
                first = int(parts[0])
                stop = first + 1
            elif len(parts) == 2:
                first, stop = int(parts[0]), int(parts[1])
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"{option}: {value!r} is not allowed; {allowed}") from None
        if len(parts) == 2 and stop <= first:
            raise ValueError(f"{option}: {value!r} is an empty range; give a:b with a < b (b is not included)")
    if not 0 <= first <= INDEX_MAX or stop - 1 > INDEX_MAX:
        raise ValueError(f"{option}: {value!r} is not allowed; indices run from 0 to {INDEX_MAX}")
    if stop - first > limit:
        raise ValueError(f"{option}: {value!r} holds {stop - first:,} indices; one replay shows at most {limit:,}")
    return range(first, stop)


def action(seat: int, kind: str, **fields) -> dict:
    """One action of a replay record: ``{"seat": s, "kind": k, ...}``."""
    return {"seat": int(seat), "kind": kind, **fields}


def suit_name(suit: int) -> str | None:
    """``♣ ♦ ♥ ♠`` for suits 0-3; None for no suit (-1)."""
    return SUIT_SYMBOLS[suit] if 0 <= suit < len(SUIT_SYMBOLS) else None


def hand_names(cards: Iterable[int], name: Callable[[int], str] = card_name) -> list[str]:
    """A hand's card names, by suit (♠ ♥ ♦ ♣) and from the highest rank down, as a player holds them.

    >>> from cardlab.sim.cards import parse_card
    >>> hand_names(parse_card(c) for c in ("2C", "KH", "10H", "AS"))
    ['A♠', 'K♥', '10♥', '2♣']
    """
    ordered = sorted(map(int, cards), reverse=True)  # suit, then rank, down: a card id is LANE * suit + rank
    if name is card_name:
        try:
            return [_NAMES[c] for c in ordered]
        except KeyError:
            pass
    return [name(c) for c in ordered]


_NAMES = {LANE * s + r: card_name(LANE * s + r) for s in range(4) for r in range(13)}  # named at every move


def json_line(record: dict) -> str:
    """A record as one line of JSON, card symbols kept readable (UTF-8, not ``\\u2665``)."""
    return json.dumps(record, ensure_ascii=False)


def totals_line(totals) -> str:
    """A whole game's running totals after one of its deals, as its replay shows them.

    >>> totals_line([3, 0, 26])
    'totals: seat 0: 3  seat 1: 0  seat 2: 26'
    """
    return "totals: " + "  ".join(f"seat {p}: {t}" for p, t in enumerate(totals))


def game_lines(game: int, study, unit: str, deals: list) -> tuple[list, list]:
    """The lines of whole game ``game`` of ``study`` replayed, but its winners (:func:`winners_line`): its head
    (``game g (seed s), n <unit>s, target t``), then each deal's text (``deals``: ``(text, scores)``) headed ``=== <unit>
    k:`` and followed by the running totals (:func:`totals_line`); and the running totals after each deal."""
    head = f"game {game} (seed {study.seed}), {len(deals)} {unit}s, target {study.options.target}"
    lines, running, totals = [head], [], [0] * len(deals[0][1])
    for k, (text, scores) in enumerate(deals):
        totals = [a + b for a, b in zip(totals, scores)]
        running.append(totals)
        lines += [f"\n=== {unit} {k}: {text}", totals_line(totals)]
    return lines, running


def winners_line(winners: list, why: str) -> str:
    """The last line of a whole game's replay: its ``winners`` (texts) and ``why`` they won.

    >>> winners_line(["seat 1", "seat 3"], "lowest total")
    '\\nwinners: seat 1, seat 3 (lowest total)'
    """
    return f"\nwinner{'s' if len(winners) > 1 else ''}: {', '.join(winners)} ({why})"
