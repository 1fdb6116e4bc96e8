"""Numba seats the benchmarks time (an importable module, as a run over processes needs).

``heuristic_like`` costs what the built-in heuristic costs: it calls the heuristic's own card
function, with the trick's mode read from the contract's card values (avoid points when some card
carries them, shed otherwise, take in a contract that pays for cards), so the benchmark measures
what a user's seat of that cost pays for going through the Numba seat."""
from numba import njit

from cardlab.sim.barbu.policies import MODE_AVOID, MODE_SHED, MODE_TAKE, heuristic_card
from cardlab.sim.cards import ZERO, bit, lowest_card
from cardlab.sim.euchre5.policies import BEATS, follow_beat_nb, lead_nb


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


# ---------------------------------------------------------------- Euchre for five's seat (its card play)


@njit(cache=True)
def euchre_lowest(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, dealer, upcard, unseen,
                  won):
    """Euchre: the lowest legal card, the cheapest possible seat."""
    return lowest_card(legal)


@njit(cache=True)
def euchre_heuristic_like(hand, legal, k, led, win_card, ally_wins, trump, maker, partner, called, dealer, upcard,
                          unseen, won):
    """Euchre: the built-in heuristic's lead or follow from the seat's view (the cards not yet played read as the
    unseen ones and its hand: the same cost, nearly the same cards)."""
    if k == 0:
        return lead_nb(hand, trump, unseen | hand, maker == 0 or partner == 0)
    return follow_beat_nb(legal, trump, BEATS[trump, win_card], ally_wins, k == 4, unseen)
