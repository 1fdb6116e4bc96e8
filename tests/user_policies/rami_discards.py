"""Numba discard functions for Rami's Numba seat, used by the tests (an importable module, so that process
executors can import them by name)."""
from numba import njit


@njit(cache=True)
def highest(hand, forbidden, opened, opponent_close, values):
    """The kind worth the most penalty points that may go (ties: the lowest kind)."""
    best = -1
    for k in range(53):
        if hand[k] > 0 and k != forbidden and (best < 0 or values[k] > values[best]):
            best = k
    return best


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
