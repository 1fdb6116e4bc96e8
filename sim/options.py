"""Validation shared by every game's options: one-line errors that name the option, the value and
what is allowed. Plain Python, imported by rules modules and facades alike (never by kernels).

>>> check_choice("players", 6, (3, 4, 5))
Traceback (most recent call last):
ValueError: players: 6 is not allowed; choose 3, 4 or 5
>>> parse_per_seat("policy", "heuristic,random", 2, ("heuristic", "random"))
('heuristic', 'random')
"""
from __future__ import annotations


def allowed_text(values) -> str:
    """``'a', 'b' or 'c'``: the allowed values as a user reads them."""
    values = [repr(v) if isinstance(v, str) else str(v) for v in values]
    return ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]


def check_choice(option: str, value, allowed) -> None:
    """Raise ``ValueError`` naming the option, the value and what is allowed."""
    if value not in allowed or isinstance(value, bool) != isinstance(next(iter(allowed)), bool):
        raise ValueError(f"{option}: {value!r} is not allowed; choose {allowed_text(allowed)}")


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
