"""Barbu's built-in seats in a step-API state: the kernels' own decision functions, called from Python
on the state's view of the deal, so that at a table with a Python seat the heuristic (and classic)
seats play exactly the moves they play in the kernels.

* A card in a trick contract: ``policies.heuristic_card`` on the seat's hand, the legal cards, the
  trick so far (led suit, the card now winning), the trump, whether it plays last, the cards not yet
  gone (``kernels.trick_start_nb`` gives the trick's mode, as in ``kernels.play_on_nb``).
* The Trumps declarer's suit: ``estimate.best_trump_nb`` on its hand (the hand-value model of the table).

Domino and the search are not played here: a run with a Python seat plays the trick contracts
(Domino is refused with a message saying so) and no search seat.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.barbu.estimate import N_FEATURES, best_trump_nb
from cardlab.sim.barbu.kernels import trick_start_nb
from cardlab.sim.barbu.policies import POLICY_NAMES, heuristic_card, seat_mode
from cardlab.sim.barbu.referee import TRUMP_ID, TrickState, trick_winner
from cardlab.sim.barbu.rules import CONTRACT, CONTRACT_NAMES, FLAG_POSITIVE
from cardlab.sim.cards import mask_of, suit_of

def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move."""
    if not isinstance(state, TrickState):
        raise ValueError("contract: a Python seat plays the trick contracts, not domino; give contract= without "
                         "domino (a Numba seat plays every contract)")
    a = state.study.kernel_args
    if state.naming:
        hand = np.uint64(mask_of(state.hands[state.declarer]))
        suit = best_trump_nb(hand, CONTRACT.TRUMPS, a["weights"], np.empty(N_FEATURES, np.float64))
        return state.action(TRUMP_ID + int(suit))
    legal = state.legal_actions()
    card = int(trick_card(state, POLICY_NAMES.index(policy), a, legal))
    return next(x for x in legal if x.id == card)


def trick_card(state, policy_id: int, a: dict, legal: list) -> int:
    """The heuristic's card for the seat to move among the ``legal`` actions, from the kernels' tables ``a``
    (``play.kernel_tables``)."""
    c = CONTRACT_NAMES.index(state.contract)
    seat = state.current_player
    hand = mask_of(state.hands[seat])
    legal = mask_of(x.id for x in legal)
    trick = state.trick
    trump = -1 if state.trump is None else int(state.trump)
    led = suit_of(trick[0]) if trick else -1
    best = trick[trick_winner(trick, state.trump)] if trick else -1
    out = mask_of(x for h in state.hands for x in h) | mask_of(trick)  # the cards not in a finished trick
    positive = bool(a["flags"][c] & FLAG_POSITIVE)
    _, mode = trick_start_nb(len(state.tricks), state.size, a["trick_values"][c], a["last_two"][c], positive,
                             a["point_masks"][c])
    return heuristic_card(np.uint64(hand), np.uint64(legal), led, best, trump, len(trick) == state.n - 1,
                          np.uint64(out & ~hand), a["card_values"][c], a["point_masks"][c],
                          seat_mode(mode, policy_id))
