"""Barbu's built-in seats in a step-API state: the kernels' own decision functions, called from Python
on the state's view of the deal, so that at a table with a Python seat the heuristic (and classic)
seats play exactly the moves they play in the kernels.

* A card in a trick contract: ``policies.heuristic_card`` on the seat's hand, the legal cards, the
  trick so far (led suit, the card now winning), the trump, whether it plays last, the cards not yet
  gone (``kernels.trick_start_nb`` gives the trick's mode, as in ``kernels.play_on_nb``).
* The Trumps declarer's suit: ``estimate.best_trump_nb`` on its hand (the hand-value model of the table).
* Domino: the fan_tan declarer's start rank by ``domino.choose_start_rank_nb``, each card by
  ``domino.domino_heuristic_card`` on the table the kernel keeps (``frontier``, ``openers``: rebuilt by
  ``domino.domino_table_nb`` from the cards laid, in order, through the kernel's own ``domino_start_nb`` and
  ``frontier_after``), and a pass when it holds no playable card; the heuristic takes an Ace's optional
  extra turn whenever it holds a playable card. Between a Python seat's turns the kernel's own loop
  (``domino.domino_play_on_nb``) plays the built-in seats.

* A ``search`` (or ``oracle``) seat in a trick contract: the searched kernel's own decision
  (:func:`search_action`): ``search.play_searched_tricks_nb`` given the deal's moves so far, stopping once
  the seat's move is chosen; its search draws from the stream of a whole run (keyed by seed, deal and
  move), so a table of search and heuristic seats plays here exactly as in the kernels. A ``search``
  declarer of Trumps names its trump by ``search_deals.searched_trump_nb``.
* A ``search`` (or ``oracle``) seat in Domino with a choice (two playable cards, or an Ace's optional extra turn):
  the searched deal's own decision, ``search_domino.search_domino_move_nb`` on the kernel's table rebuilt from the
  moves so far (the cards each seat showed it lacks when it passed included), drawing from the stream of that move
  in a whole run (:func:`searched_domino_move`); otherwise it moves as the heuristic does, as in the kernel.
* The doubles of a whole game with ``double``: every seat by its doubling policy, as the kernel's round makes them
  (:func:`double_round`), once the play is to start; a Python seat of doubling policy ``own`` is asked each of its
  choices in the round's order, and a built-in seat asked there (``policy_action``) answers as the heuristic.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

import numpy as np

from cardlab.sim.barbu.domino import (DOMINO_VARIANTS, MOVE_DECLINE, MOVE_NONE, MOVE_PASS, choose_start_rank_nb,
                                      domino_heuristic_card, domino_log_length, domino_play_on_nb, domino_table_nb)
from cardlab.sim.barbu.domino_referee import DECLINE_ACTION, PASS_ACTION, DominoState, start_action
from cardlab.sim.barbu.estimate import N_FEATURES, best_trump_nb
from cardlab.sim.barbu.kernels import LEAD_ANYTIME, TRUMP_BY_POLICY, advance_nb, trick_start_nb
from cardlab.sim.barbu.play import user_callback
from cardlab.sim.barbu.policies import POLICY, POLICY_NAMES, heuristic_card, seat_mode
from cardlab.sim.barbu.search import play_searched_tricks_nb
from cardlab.sim.barbu.search_deals import searched_trump_nb
from cardlab.sim.barbu.referee import TRUMP_ID, card_action, trick_winner
from cardlab.sim.barbu.rules import (CONTRACT, CONTRACT_NAMES, FLAG_HEARTS_LEAD, FLAG_KH_DISCARD, FLAG_PLAY_OUT,
                                     FLAG_POSITIVE)
from cardlab.sim.cards import ZERO, mask_of, suit_of
from cardlab.sim.state import Action

SEARCHING = ("search", "oracle")


def policy_action(state, policy: str):
    """The :class:`~cardlab.sim.state.Action` the built-in ``policy`` takes in ``state`` for the seat to move."""
    if state.asking is not None:
        return doubling_choice(state)
    if isinstance(state, DominoState):
        if policy in SEARCHING and domino_choice(state):
            return searched_domino_move(state, policy)[0]
        return domino_action(state, POLICY_NAMES.index(policy))
    if policy in SEARCHING:
        return search_action(state)
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


_BITS = [1 << c for c in range(64)]


def bits(cards) -> int:
    """:func:`~cardlab.sim.cards.mask_of` of card ids 0-63, its loop in C (the Python seat's table calls it at every
    turn)."""
    return reduce(or_, map(_BITS.__getitem__, cards), 0)


def search_action(state):
    """The move of the ``search`` (or ``oracle``: the seat's study policy says which) seat to move in trick-contract
    ``state``: its searched trump as the Trumps declarer, else its searched card (the module docstring)."""
    return state.action(searched_move(state)[0])


def searched_move(state, worlds: int | None = None, hint: bool = False) -> tuple[int, dict]:
    """``(move id, {move id: mean})`` of the kernels' search for the seat to move in trick-contract ``state``: the
    move it makes and, with ``hint``, each candidate's mean final score for the seat over ``worlds`` sampled deals
    (default the study's ``search_worlds``), the seat then searching whatever its policy (``cardlab play``'s hint;
    no means where the seat has one legal card). Seats of other policies' moves are given, never chosen here."""
    a, study, n, seat = state.study.kernel_args, state.study, state.n, state.current_player
    ids = np.array([POLICY_NAMES.index(p) if p in POLICY_NAMES else POLICY.HEURISTIC for p in study.policies],
                   np.int64)
    if hint:
        ids[seat] = POLICY.SEARCH
    worlds, rollout = worlds or study.search_worlds, study.rollout_id
    hands = np.array([bits(h) for h in state.dealt], np.uint64)
    c = CONTRACT_NAMES.index(state.contract)
    seed, deal = state.search_key or (study.seed, state.deal)  # a whole game's deal: (the game's stream, the deal)
    if state.naming:
        suit_means = np.full(4 if hint else 0, np.nan, np.float32)
        _, suit = searched_trump_nb(seed, deal, hands, n, state.declarer, TRUMP_BY_POLICY,
                                    a["card_values"], a["trick_values"], a["last_two"], a["flags"], a["point_masks"],
                                    ids, a["duties"], a["weights"], worlds, rollout, np.uint64(0), suit_means)
        return TRUMP_ID + int(suit), {TRUMP_ID + s: float(m) for s, m in enumerate(suit_means)}
    played = [card for trick in state.tricks for _, card in trick.cards] + list(state.trick)
    moves = np.full(n * state.size, -1, np.int8)  # the kernels' types (int8 moves, int32 scores): their compile
    moves[:len(played)] = played
    means = np.full((n * state.size if hint else 0, 64), np.nan, np.float32)
    trump = -1 if state.trump is None else int(state.trump)
    play_searched_tricks_nb(seed, deal, hands, n, state.declarer, c, trump, a["card_values"],
                            a["trick_values"], a["last_two"], a["flags"], a["point_masks"], ids, a["duties"],
                            a["lead_rule"], a["early_stop"], worlds, rollout, np.uint64(0), moves, means,
                            np.zeros(n, np.int32), user_callback("", searched=True), np.zeros(2, np.int64),
                            study.inference_eps(ids), study.racing_level,
                            len(played))
    row = means[len(played)] if hint else means
    return int(moves[len(played)]), {x: float(row[x]) for x in range(64) if hint and not np.isnan(row[x])}


def play_builtin(state, policies) -> None:
    """The built-in seats' moves of ``state`` (a trick contract) until a seat of another policy (``policies``: one
    per seat) is to move or the deal ends: the Trumps declarer's naming and each search seat's move by
    :func:`policy_action`, the other built-in seats' cards in one call of ``kernels.advance_nb`` (the kernel's loop)
    up to the next seat of another policy, each card then played by the state's rules."""
    while not state.is_over and policies[state.current_player] in state.builtin_policies:
        if state.naming or state.asking is not None or policies[state.current_player] in SEARCHING:
            state._apply(policy_action(state, policies[state.current_player]))
        else:
            _advance(state, policies)


def _advance(state, policies) -> None:
    """:func:`play_builtin`'s cards of the built-in seats that do not search, up to any other seat."""
    ids = np.array([POLICY_NAMES.index(p) if p in state.builtin_policies and p not in SEARCHING else -1
                    for p in policies], np.int64)
    a, n, trick = state.study.kernel_args, state.n, state.trick
    c = CONTRACT_NAMES.index(state.contract)
    f = int(a["flags"][c])
    masks = [bits(h) for h in state.hands]
    hands = np.array(masks, np.uint64)
    cards = np.zeros(n, np.int64)
    cards[:len(trick)] = trick
    trump = -1 if state.trump is None else int(state.trump)
    best = trick_winner(trick, state.trump) if trick else -1
    remaining = np.uint64(reduce(or_, masks, bits(trick)))
    moves = np.full(n * state.size, -1, np.int64)
    start = len(state.tricks) * n + len(trick)
    advance_nb(hands, n, len(state.tricks), len(trick), state.leader, suit_of(trick[0]) if trick else -1,
               trick[best] if trick else -1, (state.leader + best) % n if trick else state.leader, cards,
               remaining, state.hearts_played, trump, a["card_values"][c], a["trick_values"][c],
               a["last_two"][c], a["point_masks"][c], f & FLAG_POSITIVE != 0,
               a["lead_rule"] if f & FLAG_HEARTS_LEAD else LEAD_ANYTIME, f & FLAG_KH_DISCARD != 0,
               a["early_stop"] and f & FLAG_PLAY_OUT == 0 and a["trick_values"][c] == 0, a["duties"], ids, moves)
    for card in moves[start:].tolist():
        if card < 0:
            break
        state._apply(card_action(card))


# ---------------------------------------------------------------- Domino


def domino_table(state):
    """``(deck, openers, frontier, played)`` of a Domino state (its start rank named) as the kernel holds them:
    ``domino.domino_table_nb`` on the dealt hands and the cards laid so far, in order."""
    laid = np.array([a.id for _, a in state.moves if a.entry["kind"] == "play"], np.int64)
    start_rank = -1 if state.start_rank is None else state.start_rank
    table = domino_table_nb(np.array([bits(h) for h in state.dealt], np.uint64), state.n,
                            DOMINO_VARIANTS.index(state.variant), start_rank, laid)
    return tuple(np.uint64(x) for x in table)  # the kernel's types (Numba hands back Python integers)


def domino_action(state, policy_id: int):
    """The built-in seat's Domino move (``domino.domino_play_on_nb``'s decision, random aside): the fan_tan start
    rank, else its heuristic card among the playable ones (an Ace's optional extra turn taken), else a pass."""
    if state.naming:
        deck = np.uint64(bits(state.deck))
        rank = choose_start_rank_nb(np.uint64(bits(state.hands[state.declarer])), deck, policy_id, np.uint64(0))[1]
        return start_action(int(rank))
    deck, openers, frontier, played = domino_table(state)
    hand = np.uint64(bits(state.hands[state.seat]))
    legal = hand & frontier
    if legal == ZERO:
        return PASS_ACTION
    variant = DOMINO_VARIANTS.index(state.variant)
    return card_action(int(domino_heuristic_card(hand, legal, frontier, played, variant, deck, openers)))


def domino_choice(state) -> bool:
    """Whether the Domino seat to move has a choice a search seat searches: two playable cards, or a playable card
    and an Ace's optional extra turn (``domino.domino_play_on_nb``'s stop)."""
    playable = 0 if state.naming else len(state.playable())
    return playable > 1 or (playable == 1 and state.extra and state.ace_replay_optional)


def searched_domino_move(state, policy: str = "search", worlds: int | None = None) -> tuple:
    """``(action, {action id: mean})``: the move a ``policy`` (``search`` or ``oracle``) seat with a choice
    (:func:`domino_choice`) makes in Domino ``state`` and each candidate's mean place points, as the searched deal
    (``search_domino.play_searched_domino_nb``) makes it at this move: its table rebuilt from the cards laid, each
    seat's passes showing the cards then playable absent from its hand, its draws keyed by (seed, deal, move)."""
    from cardlab.sim.barbu.search import search_state
    from cardlab.sim.barbu.search_domino import DECLINE_COLUMN, search_domino_move_nb

    study, n, seat = state.study, state.n, state.current_player
    dealt = np.array([bits(h) for h in state.dealt], np.uint64)
    variant = DOMINO_VARIANTS.index(state.variant)
    rank = -1 if state.start_rank is None else state.start_rank
    excluded, laid = np.zeros(n, np.uint64), []
    for p, move, _ in state.events:
        if move == MOVE_PASS:  # the frontier then
            excluded[p] |= domino_table_nb(dealt, n, variant, rank, np.array(laid, np.int64))[2]
        elif move >= 0:
            laid.append(move)
    deck, openers, frontier, played = domino_table(state)
    hands = np.array([bits(h) for h in state.hands], np.uint64)
    seed, deal = state.search_key or (study.seed, state.deal)
    totals = np.empty(64, np.int64)
    worlds = worlds or study.search_worlds
    stream = np.uint64(search_state(seed, deal, 1 + len(state.events)))  # of this move (a signed key as the kernels)
    move = search_domino_move_nb(stream, seat, hands,
                                 n, state.extra, frontier, played, deck, openers, sum(1 for h in state.hands if h),
                                 len(state.finish), variant, state.ace_replay_optional,
                                 np.array(state.places, np.int32), excluded, worlds,
                                 study.rollout_id, totals, policy == "oracle")
    means = {(DECLINE_ACTION.id if c == DECLINE_COLUMN else c): float(totals[c] / worlds)
             for c in state.playable() + ([DECLINE_COLUMN] if state.extra and state.ace_replay_optional else [])}
    return (DECLINE_ACTION if move == MOVE_DECLINE else card_action(int(move))), means


def play_builtin_domino(state, policies) -> None:
    """The built-in seats' Domino moves until a seat of another policy is to move (at any of its turns, a pass
    included) or the deal ends: the start rank by :func:`domino_action`, a search seat's choice by
    :func:`searched_domino_move`, the other moves by the kernel's own loop (``domino.domino_play_on_nb``, stopping
    before a seat of policy -1 and before a search seat's choice) from the state's table, each move then made by the
    state's rules."""
    ids = np.array([POLICY_NAMES.index(p) if p in state.builtin_policies else -1 for p in policies], np.int64)
    while not state.is_over and ids[state.current_player] >= 0:
        if state.naming or state.asking is not None or (policies[state.current_player] in SEARCHING
                                                         and domino_choice(state)):
            state._apply(policy_action(state, policies[state.current_player]))
        else:
            _domino_advance(state, ids)


def _domino_advance(state, ids) -> None:
    """:func:`play_builtin_domino`'s moves by the kernel's loop, up to a seat it does not play or a search choice."""
    deck, openers, frontier, played = domino_table(state)
    hands = np.array([bits(h) for h in state.hands], np.uint64)
    moves = np.empty(domino_log_length(state.n, len(state.dealt[0])), np.int8)
    active = sum(1 for h in state.hands if h)
    k = domino_play_on_nb(hands, state.n, state.seat, state.extra, frontier, played, deck, openers, active,
                          len(state.finish), DOMINO_VARIANTS.index(state.variant), state.ace_replay_optional,
                          np.array(state.places, np.int32), ids, MOVE_NONE, True, np.empty(0, np.uint64),
                          np.uint64(0), moves, 0, np.zeros(state.n, np.int32), None, np.zeros(2, np.int64),
                          np.empty(0, np.int64))[7]
    if k == 0:
        raise RuntimeError(f"Domino: the kernel's loop made no move for seat {state.seat} (policy {ids[state.seat]})")
    for move in moves[:k].tolist():
        state._apply(PASS_ACTION if move == MOVE_PASS else DECLINE_ACTION if move == MOVE_DECLINE else
                     card_action(move))


# ---------------------------------------------------------------- doubling (whole games with ``double``)


@dataclass
class Doubling:
    """What a deal of a whole game with ``double`` doubles from: the game's obligations before the deal
    (``doubling.start_obligations``' ``required``, ``done``, ``remaining``; the deal's round updates them, and the
    next deal starts from them) and the deal's stream where the kernel's round draws from it."""

    required: np.ndarray
    done: np.ndarray
    remaining: np.ndarray
    stream: int

    def next(self, stream: int) -> "Doubling":
        """The next deal's: these obligations (copied), that deal's stream."""
        return Doubling(self.required.copy(), self.done.copy(), self.remaining.copy(), stream)


@dataclass
class Doubled:
    """A deal's doubles: ``m`` (0 none, 1 doubled, 2 redoubled, per pair of seats), ``initiator`` (who doubled
    whom), the round's ``log`` and whether the deal is ``played`` (a negative deal nobody doubled is not, under
    ``skip_undoubled_negative``)."""

    m: np.ndarray
    initiator: np.ndarray
    log: np.ndarray
    played: bool

    def settle(self, raw: list) -> list:
        """The settled scores (§5): the doubling referee's :func:`~cardlab.sim.barbu.doubling_referee.settle`."""
        from cardlab.sim.barbu.doubling_referee import settle

        return settle(raw, self.m)

    def actions(self) -> list:
        """The doubles as record actions, in order (``records.double_actions``)."""
        from cardlab.sim.barbu.records import double_actions

        return double_actions(self.log)

    def row(self) -> np.ndarray:
        """The game row's ``double_i_j``: ``m[i, j]`` where ``i`` doubled ``j``, else 0."""
        return np.where(self.initiator == 1, self.m, 0).astype(np.int8)


def double_round(state) -> Doubled | None:
    """The deal's doubles as the whole-game kernel makes them (``game.play_game_nb``): every seat by its doubling
    policy (the kernel's round, ``doubling.doubling_round_given_nb``) on its estimated score (the hand-value model on
    its dealt hand, the trump known), from the game's obligations so far and the deal's stream (``state.doubling``,
    which the round updates once it is over). A seat of doubling policy ``own`` (a Python seat) chooses its own:
    the round runs from the deal's start with its choices so far (``state.given``) and stops at the next one, which
    ``state.asking`` then holds, ``(actor, target, kind, the heuristic's answer)``, with the doubles made so far in
    ``state.doubles_so_far`` (a log); None is returned until the round is over. A negative deal nobody doubled is
    not played under ``skip_undoubled_negative``: each seat takes its share of the contract's points
    (``game.split_points_nb``) and the deal is over."""
    from cardlab.sim.barbu.doubling import STOP_LENGTH, doubling_log_length, doubling_round_given_nb
    from cardlab.sim.barbu.estimate import base_features_nb, dot_nb, trump_features_nb
    from cardlab.sim.barbu.game import split_points_nb

    a, o, n, d = state.study.kernel_args, state.doubling, state.n, state.declarer
    c = CONTRACT_NAMES.index(state.contract)
    estimates, features = np.zeros(n, np.float64), np.zeros(N_FEATURES, np.float64)
    for p in range(n):
        hand = np.uint64(bits(state.dealt[p]))
        base_features_nb(hand, p == d, features)
        if state.trump is not None:
            trump_features_nb(hand, int(state.trump), features)
        estimates[p] = dot_nb(a["weights"], c, features)
    m, initiator = np.zeros((n, n), np.int8), np.zeros((n, n), np.int8)
    log = np.full(doubling_log_length(n), -1, np.int8)
    positive = int(a["flags"][c]) & FLAG_POSITIVE != 0
    seat_mean, declarer_mean, seat_std = a["seat_mean"][c], a["declarer_mean"][c], a["seat_std"][c]
    done, stop = o.done.copy(), np.full(STOP_LENGTH, -1, np.int64)  # from the deal's start at every choice
    doubling_round_given_nb(n, d, positive, a["late_redouble"], o.required, done, o.remaining, estimates, seat_mean,
                            declarer_mean - seat_mean, 0.25 * seat_std, a["double_policies"], np.uint64(o.stream),
                            m, initiator, log, np.array(state.given, np.int8), stop)
    if stop[0] >= 0:  # an own seat is asked
        state.asking = (int(stop[0]), int(stop[1]), int(stop[2]), bool(stop[3]))
        state.doubles_so_far = log
        return None
    state.asking, state.doubles_so_far = None, None
    o.done[:] = done
    o.remaining[d] -= 1
    played = not (a["skip_undoubled"] and not positive and not m.any())
    if not played:  # the deal ends before its first card
        raw = np.zeros(n, np.int64)
        split_points_nb(a["deal_totals"][c], n, d, a["remainder_to_declarer"], raw)
        state.points, state.stopped = [int(x) for x in raw], True
    return Doubled(m, initiator, log, played)


def doubling_choice(state) -> Action:
    """A built-in seat's answer where a deal's doubling asks the seat to move (``state.asking``): the heuristic's,
    as the kernel's round makes it (``doubling.doubling_round_given_nb`` gives it with the question; a search seat
    doubles as the heuristic does)."""
    from cardlab.sim.barbu.referee import double_actions_now

    yes, no = double_actions_now(state)
    return yes if state.asking[3] else no
