"""Numba discard functions for Rami's Numba seat, used by the tests (an importable module, so that process
executors can import them by name)."""
from numba import njit

from cardlab.sim.example_players import rami_costliest

highest = rami_costliest  # the kind worth the most penalty points that may go (ties: the lowest kind)


@njit(cache=True)
def illegal_when_close(hand, forbidden, opened, opponent_close, values):
    """A kind it may discard, except kind 60 (no card) once it has opened."""
    if opened:
        return 60
    for k in range(53):
        if hand[k] > 0 and k != forbidden:
            return k
    return -1


@njit(cache=True)
def two_arguments(hand, forbidden):
    """The wrong signature."""
    return forbidden


@njit(cache=True)
def take_when_usable(hand, top, usable, opened, opponent_close, values):
    """The draw of the heuristic: the discard when it can go to the table this turn."""
    return 1 if usable else 0


@njit(cache=True)
def never_take(hand, top, usable, opened, opponent_close, values):
    """Always the stock."""
    return 0


@njit(cache=True)
def bad_draw(hand, top, usable, opened, opponent_close, values):
    """Not a draw: 7."""
    return 7


@njit(cache=True)
def heuristics_melds(hand, opening, nobody_opened, stock_left, opponent_close, values):
    """Every meld choice left to the heuristic."""
    return -1


@njit(cache=True)
def never_meld(hand, opening, nobody_opened, stock_left, opponent_close, values):
    """Hold every meld: never open by choice."""
    return 0
