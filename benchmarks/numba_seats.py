"""Numba seats the benchmarks time (an importable module, as a run over processes needs).

``heuristic_like`` costs what the built-in heuristic costs: it calls the heuristic's own card
function, with the trick's mode read from the contract's card values (avoid points when some card
carries them, shed otherwise, take in a contract that pays for cards), so the benchmark measures
what a user's seat of that cost pays for going through the Numba seat."""
from numba import njit

from cardlab.sim.barbu.policies import MODE_AVOID, MODE_SHED, MODE_TAKE, heuristic_card
from cardlab.sim.cards import ZERO, bit, lowest_card


@njit(cache=True)
def lowest(hand, legal, led, best, trump, last, unseen, values):
    """The lowest legal card: the cheapest possible seat."""
    return lowest_card(legal)


@njit(cache=True)
def heuristic_like(hand, legal, led, best, trump, last, unseen, values):
    """The built-in heuristic's card, its mode guessed from ``values`` (see the module docstring)."""
    point_mask = ZERO
    paid = False
    for c in range(64):
        if values[c] != 0:
            point_mask |= bit(c)
            paid |= values[c] > 0
    mode = MODE_TAKE if paid else (MODE_AVOID if point_mask != ZERO else MODE_SHED)
    return heuristic_card(hand, legal, led, best, trump, last, unseen, values, point_mask, mode)


def lowest_in_python(observation, legal):
    """``lowest`` as a Python seat: the legal action of the lowest card id."""
    return min(legal, key=lambda a: a.id)
