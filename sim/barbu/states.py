"""Barbu's step-API states dealt as the kernels deal them: deal ``i`` of a run of single deals, and the next deal of a
whole game (its schedule, a Geronimo declarer's choice of contract, the doubling round)."""
from __future__ import annotations

import numpy as np

from cardlab.sim.policy import POLICY


def dealt_hands(options, key) -> tuple:
    """``(stream, hands)``: the hands (uint64 masks) the kernels deal from stream ``key`` (their own dealing,
    ``sim.dealing.deal_hands_nb``, called from Python) and the stream after the deal."""
    from cardlab.sim.dealing import deal_hands_nb

    hands = np.empty(options.players, np.uint64)
    return deal_hands_nb(np.uint64(key), options.cards, np.empty(len(options.cards), np.int8), options.players,
                         hands), hands


def dealt_state(study, contract: str, declarer: int, hands, deal: int):
    """Deal ``deal`` of ``contract`` with the dealt ``hands`` (masks) as a step-API state before its first move (the
    trump, for Trumps, not yet named)."""
    from cardlab.sim.barbu.domino_referee import DominoState
    from cardlab.sim.barbu.referee import TrickState
    from cardlab.sim.cards import cards_of

    hands = [set(cards_of(int(h))) for h in hands]
    if contract == "domino":
        return DominoState(study.options, declarer, hands, deal=deal, study=study)
    return TrickState(study.options, contract, declarer, hands, deal=deal, study=study)


def dealt_deal(study, deal: int) -> tuple:
    """Deal ``i``'s contract (``i % k`` of the study's ``k``), declarer (seat ``(i // k) % n``) and hands (masks, dealt
    from the stream ``(seed, i)``)."""
    from cardlab.sim.rng import deal_state

    k = len(study.contracts)
    return (study.contracts[deal % k], (deal // k) % study.options.players,
            dealt_hands(study.options, deal_state(study.seed, deal))[1])


def searched_contract(study, game_key: np.uint64, d: int, hands: np.ndarray, open_slots: int,
                      fallback: int) -> int:
    """The Geronimo contract a ``search`` (or ``oracle``) declarer chooses for deal ``d`` of the game whose stream
    is ``game_key``: ``search_deals.search_contract_nb`` on the stream the game kernel keys it by (``fallback``: the
    heuristic's)."""
    from cardlab.sim.barbu.search import search_state
    from cardlab.sim.barbu.search_deals import CONTRACT_DECISION, search_contract_nb

    a, o = study.kernel_args, study.options
    declarer = o.schedule[d][0]
    key = np.uint64(search_state(game_key, np.uint64(d), CONTRACT_DECISION))
    return int(search_contract_nb(key, declarer, hands,
                                  o.players, open_slots, a["game_contracts"], a["declarer_mean"], fallback,
                                  a["card_values"], a["trick_values"], a["last_two"], a["flags"], a["point_masks"],
                                  a["duties"], a["lead_rule"], a["early_stop"], a["domino_variant"],
                                  a["domino_start_rank"], a["domino_starter"], a["ace_replay_optional"], a["places"],
                                  study.search_worlds, study.rollout_id,
                                  np.zeros(len(a["game_contracts"]), np.int64),
                                  int(a["policies"][declarer]) == POLICY.ORACLE))


def next_deal_state(study, index: int, finished: list):
    """Deal ``d = len(finished)`` of whole game ``index`` as a step-API state before its first move, as
    ``game.play_game_nb`` deals and declares it: the hands from the stream ``(seed, game, deal)``, the declarer and
    contract from the schedule; in Geronimo the declarer's choice among the contracts it has not yet declared by
    ``game.choose_contract_nb`` on that stream (a Numba or Python declarer chooses as the heuristic does). None
    after the game's last deal. With ``double`` every seat doubles by its doubling policy as play starts (after the
    Trumps declarer names the trump), from the game's obligations so far and the deal's stream
    (:func:`~cardlab.sim.barbu.state_policies.double_round`); a seat of doubling policy ``own`` is asked its
    choices first, as moves of the state."""
    from cardlab.sim.barbu.doubling import start_obligations
    from cardlab.sim.barbu.estimate import N_FEATURES, base_features_nb
    from cardlab.sim.barbu.game import choose_contract_nb
    from cardlab.sim.barbu.state_policies import Doubling
    from cardlab.sim.rng import deal_state

    o, a = study.options, study.kernel_args
    d = len(finished)
    if d == o.game_length:
        return None
    declarer, slot = o.schedule[d]
    game_key = np.uint64(deal_state(study.seed, index))  # the game's stream, (seed, game)
    stream, hands = dealt_hands(o, deal_state(game_key, d))
    if slot < 0:
        taken = [o.game_contracts.index(s.contract) for j, s in enumerate(finished)
                 if o.schedule[j] == (declarer, -1)]
        policy = int(a["policies"][declarer])
        features = np.zeros(N_FEATURES, np.float64)
        if policy != POLICY.RANDOM:
            base_features_nb(hands[declarer], True, features)
        open_slots = (1 << len(o.game_contracts)) - 1 - sum(1 << s for s in taken)
        stream, slot = choose_contract_nb(hands[declarer], open_slots, a["game_contracts"], policy, a["weights"],
                                          a["declarer_mean"], features, np.uint64(stream))
        if policy in (POLICY.SEARCH, POLICY.ORACLE):  # the search declarer's choice, as the kernel searches it
            slot = searched_contract(study, game_key, d, hands, open_slots, slot)
    contract = o.game_contracts[slot]
    state = dealt_state(study, contract, declarer, hands, d)
    key = int(game_key)  # as the int64 of the same bits, the seed's type in the search kernels
    state.search_key = (key - (1 << 64) if key >= 1 << 63 else key, d)
    if o.double:
        if finished:
            state.doubling = finished[-1].doubling.next(int(stream))
        else:
            declared = np.bincount([p for p, _ in o.schedule], minlength=o.players).astype(np.int64)
            state.doubling = Doubling(*start_obligations(declared, a["obligation"]), int(stream))
        if contract == "domino" or not state.naming:
            state._double()
    return state


def new_deal_state(study, deal: int):
    """Deal ``deal`` of ``study`` (:func:`dealt_deal`) as a step-API state before its first move."""
    return dealt_state(study, *dealt_deal(study, deal), deal)


def state_columns(states: list) -> dict:
    """The deal rows (the kernels' columns) of finished states: a run with a Python seat."""
    import pandas as pd

    from cardlab.sim.barbu.rules import CONTRACT_NAMES

    n = states[0].n if states else 0
    return {"deal": np.array([s.deal for s in states], np.int64),
            "contract": pd.Categorical.from_codes(np.array([CONTRACT_NAMES.index(s.contract) for s in states],
                                                           np.int8), categories=CONTRACT_NAMES),
            "declarer": np.array([s.declarer for s in states], np.int8),
            "trump": np.array([-1 if s.trump is None else s.trump for s in states], np.int8),
            "score": np.array([s.scores() for s in states], np.int16).reshape(len(states), n)}


def game_state_columns(out: dict, games: list) -> dict:
    """The game rows (the kernels' columns) of finished whole games, from the shared ones ``out``
    (:meth:`~cardlab.sim.game.Game.game_state_columns`): each deal's raw and settled scores and, with ``double``,
    who doubled whom (``double_i_j``)."""
    deals = [s for g in games for s in g.finished]
    score = out.pop("score")
    n = score.shape[1]
    out.update(raw=np.array([s.raw_scores() for s in deals], np.int16).reshape(len(deals), n), score=score)
    if deals and deals[0].doubled is not None:
        doubles = np.array([s.doubled.row() for s in deals], np.int8).reshape(len(deals), n, n)
        out.update({f"double_{i}_{j}": doubles[:, i, j] for i in range(n) for j in range(n) if i != j})
    return out
