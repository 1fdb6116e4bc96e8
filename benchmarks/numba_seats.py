"""Numba seats the benchmarks time (an importable module, as a run over processes needs).

``heuristic_like`` costs what the built-in heuristic costs because it is the built-in heuristic: it calls the
heuristic's own card function with the trick's mode worked out from the seat's view as the kernels work it out
(take in a contract that pays, shed while neither the trick nor any card is worth points, avoid otherwise). Its
cards are the heuristic's (``tests/test_numba_policy.py`` checks the rows), so its table plays the same
deals as the heuristic's and the benchmark measures only what a seat pays for going through the Numba seat."""
from numba import njit

from cardlab.sim.barbu.policies import MODE_AVOID, MODE_SHED, MODE_TAKE, heuristic_card
from cardlab.sim.cards import ZERO, bit, lowest_card
from cardlab.sim.euchre5.policies import BEATS, follow_beat_nb, lead_nb


@njit(cache=True)
def lowest(hand, legal, led, best, trump, last, unseen, values, points):
    """The lowest legal card: the cheapest possible seat."""
    return lowest_card(legal)


@njit(cache=True)
def heuristic_like(hand, legal, led, best, trump, last, unseen, values, points):
    """The built-in heuristic's card (see the module docstring)."""
    point_mask = ZERO
    paid = points > 0
    for c in range(64):
        if values[c] != 0:
            point_mask |= bit(c)
            paid |= values[c] > 0
    mode = MODE_TAKE if paid else (MODE_SHED if points == 0 and point_mask == ZERO else MODE_AVOID)
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
