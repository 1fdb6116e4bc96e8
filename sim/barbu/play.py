"""Barbu's deal kernel from Python: its tables, the columns it plays and the hand-value model.

:func:`kernel_tables` turns the options, contracts and seat policies into the integer and float
arrays the kernels read; :func:`play_columns` plays deals ``first .. first+count-1`` into named
columns (seats without search), :func:`searched_columns` the search kernel's (a study's search seats:
``BarbuStudy.play``); :func:`hand_model` fits, once per table and kept on disk, the hand-value model the
heuristic declarers and doublers use.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from cardlab.sim.barbu.domino import domino_log_length
from cardlab.sim.barbu.estimate import N_FEATURES, features_matrix_nb, normal_equations_nb
from cardlab.sim.barbu.kernels import (DUTY_MUST_TRUMP, DUTY_OVERTRUMP_LED, DUTY_OVERTRUMP_RUFF, TRUMP_AT_RANDOM,
                                       TRUMP_BY_POLICY, play_deals_nb)
from cardlab.sim.barbu.policies import POLICY, POLICY_NAMES
from cardlab.sim.barbu.rules import (ALL_CONTRACTS, CONTRACT, CONTRACT_NAMES, DOMINO_RULES, DOMINO_STARTERS,
                                     HEARTS_LEAD, BarbuOptions, scoring_tables)
from cardlab.sim.diskcache import cached_on_disk
from cardlab.sim.python_seats import is_python_name
from cardlab.sim.user import is_numba_name, raise_fault, run_callback, run_function


def trump_duties(options: BarbuOptions) -> int:
    """The §4 trump duties in force, as the kernel's bit set."""
    return (DUTY_OVERTRUMP_LED * options.overtrump_on_trump_lead + DUTY_MUST_TRUMP * options.must_trump
            + DUTY_OVERTRUMP_RUFF * options.overtrump_when_ruffing)


def policy_id(name: str) -> int:
    """A seat's kernel policy id: a built-in policy's, USER for a Numba seat, -1 for a Python seat (whose
    deals the kernels never play: :mod:`cardlab.sim.python_seats`)."""
    return POLICY.USER if is_numba_name(name) else -1 if is_python_name(name) else POLICY_NAMES.index(name)


def user_callback(name: str, searched: bool = False):
    """The callback the kernels call for the seats of the run's Numba function ``name`` (:func:`run_callback`)."""
    from cardlab.sim.barbu.interface import NUMBA_SEAT

    return run_callback(name, NUMBA_SEAT, searched=searched)


def domino_callback(name: str, searched: bool = False):
    """The callback the kernels call for the Domino moves of the seats of the run's Numba player ``name``: its
    ``domino`` function, or one always returning -1 (the heuristic's move) where it leaves Domino out; without a
    Numba seat as :func:`user_callback`."""
    from cardlab.sim.barbu.interface import NUMBA_SEAT

    return run_callback(name, NUMBA_SEAT, "domino", searched=searched)


def kernel_tables(options: BarbuOptions, contracts, policies, *, weights=None) -> dict:
    """Everything a deal kernel needs, as integer and float arrays."""
    t = scoring_tables(options)
    point_masks = np.array([int(sum(1 << int(c) for c in np.flatnonzero(row))) for row in t.card_values],
                           dtype=np.uint64)
    return dict(
        deck=options.cards, n=options.players,
        contracts=np.array([CONTRACT_NAMES.index(c) for c in contracts], np.int64),
        card_values=t.card_values, trick_values=t.trick_values, last_two=t.last_two, flags=t.flags,
        point_masks=point_masks,
        policies=np.array([policy_id(p) for p in policies], np.int64),
        user_name=run_function(policies, "Barbu"),
        duties=trump_duties(options), lead_rule=HEARTS_LEAD.index(options.hearts_lead), early_stop=options.early_stop,
        weights=hand_model(options).weights if weights is None else weights,
        domino_variant=DOMINO_RULES.index(options.domino_rules), domino_start_rank=-1,
        domino_starter=DOMINO_STARTERS.index(options.domino_starter), ace_replay_optional=options.ace_replay_optional,
        places=t.domino_places, log_width=max(len(options.cards), domino_log_length(options.players, options.hand_size)),
    )


def play_columns(a: dict, seed: int, first: int, count: int, *, record: bool = False,
                 trump_how: int = TRUMP_BY_POLICY, keep_hands: bool = False) -> dict:
    """Call the deal kernel on deals ``first .. first+count-1`` and return named columns.

    ``record`` adds the dealt ``hands`` and the ``moves`` log; ``keep_hands`` the hands alone. A search seat's
    deals are the study's (:meth:`~cardlab.sim.barbu.interface.BarbuStudy.play`).
    """
    n = a["n"]
    contract = np.empty(count, np.int8)
    declarer = np.empty(count, np.int8)
    trump = np.empty(count, np.int8)
    score = np.empty((count, n), np.int16)
    rows = count if record else 0
    hands = np.zeros((count if record or keep_hands else 0, n), np.uint64)
    moves = np.zeros((rows, a["log_width"]), np.int8)
    faults = np.zeros((count, 2), np.int64)
    play_deals_nb(seed, first, count, a["deck"], n, a["contracts"], a["card_values"], a["trick_values"],
                  a["last_two"], a["flags"], a["point_masks"], a["policies"], a["duties"], a["lead_rule"],
                  a["early_stop"], trump_how, a["weights"], a["domino_variant"], a["domino_start_rank"],
                  a["domino_starter"], a["ace_replay_optional"], a["places"], contract, declarer, trump, score, hands,
                  moves, user_callback(a["user_name"]), domino_callback(a["user_name"]), faults)
    raise_fault(faults, first, a["user_name"], "deal")
    columns = {
        "deal": np.arange(first, first + count, dtype=np.int64),
        "contract": pd.Categorical.from_codes(contract, categories=CONTRACT_NAMES),
        "declarer": declarer,
        "trump": trump,
        "score": score,
    }
    if record or keep_hands:
        columns["hands"] = hands
    if record:
        columns["moves"] = moves
    return columns


def deal_columns(study, first: int, count: int, *, record: bool = False, trump_how: int = TRUMP_BY_POLICY,
                 keep_hands: bool = False) -> dict:
    """Columns of deals ``first .. first+count-1`` (the move log and ``hands`` when ``record``, the hands alone
    with ``keep_hands``). With a search seat the deal kernel plays them with the heuristic in its place (the hands
    and columns), then :func:`searched_columns` plays them again (deal ``i`` dealt from ``(seed, i)`` in both) and its
    trump, scores (and log, and each searched decision's means) replace the rows'."""
    a = study.kernel_args
    if study.searching:  # the deal kernel plays the search seats' places as the heuristic
        a = {**a, "policies": np.where(np.isin(a["policies"], (POLICY.SEARCH, POLICY.ORACLE)), POLICY.HEURISTIC,
                                       a["policies"])}
    cols = play_columns(a, study.seed, first, count, record=record, trump_how=trump_how, keep_hands=keep_hands)
    if study.searching:
        cols["trump"][:], cols["score"][:], *logs = searched_columns(study, cols["deal"], trump_how=trump_how,
                                                                     record=record)
        if record:
            cols["moves"][:], cols["search_means"], cols["search_trump_means"] = logs
    return cols


def searched_columns(study, deals, *, trump_how: int, policies=None, record: bool = False) -> tuple:
    """The search kernel (``search_deals.play_search_deals_nb``, which plays the seats without search as the deal
    kernel does) on the deal numbers ``deals``: ``(trump, score, moves, means, trump_means)``, the last three
    with no rows unless ``record``; ``policies``: kernel ids per seat (``study``'s by default)."""
    from cardlab.sim.barbu.search_deals import play_search_deals_nb

    a, deals = study.kernel_args, np.asarray(deals, np.int64)
    policies, count, rows = a["policies"] if policies is None else policies, len(deals), len(deals) * record
    out = (np.full(count, -1, np.int8), np.zeros((count, a["n"]), np.int16),
           np.full((rows, a["log_width"]), -1, np.int8), np.full((rows, a["log_width"], 64), np.nan, np.float32),
           np.full((rows, 4), np.nan, np.float32))
    faults = study.faults(count)
    play_search_deals_nb(study.seed, deals, a["deck"], a["n"], a["contracts"], a["card_values"], a["trick_values"],
                         a["last_two"], a["flags"], a["point_masks"], policies, a["duties"], a["lead_rule"],
                         a["early_stop"], trump_how, a["weights"], a["domino_variant"], a["domino_start_rank"],
                         a["domino_starter"], a["ace_replay_optional"], a["places"], study.search_worlds,
                         study.rollout_id, *out, study.user_callback(True), study.extra_callback("domino", True),
                         faults, study.inference_eps(policies), study.racing_level)
    study.check_faults(faults, deals)
    return out


FIT_DEALS = 12_000  # deals per contract for the hand-value model
FIT_SEED = 0x5EED


class HandModel(NamedTuple):
    """Hand-value model of one table: weights (contracts x features) and per-contract score statistics."""

    weights: np.ndarray
    seat_mean: np.ndarray  # average score of a seat
    declarer_mean: np.ndarray  # average score of the declarer
    seat_std: np.ndarray  # standard deviation of a seat's score


@lru_cache(maxsize=64)
@cached_on_disk("barbu-hand-model", HandModel, lambda options: options.to_dict())  # start-up: load, not refit
def hand_model(options: BarbuOptions) -> HandModel:
    """The hand-value model for ``options``, fitted on seeded heuristic play (see sim.barbu.estimate).

    Least squares (a small ridge keeps absent ranks at zero) of each seat's score on its hand
    features, per contract; Trumps deals use a random trump suit for the fit, and the declarer's
    named suit for the averages. Deterministic.
    """
    k = len(CONTRACT_NAMES)
    model = HandModel(np.zeros((k, N_FEATURES)), np.zeros(k), np.zeros(k), np.ones(k))
    n = options.players
    for name in ALL_CONTRACTS:
        c = CONTRACT_NAMES.index(name)
        a = kernel_tables(options, (name,), ("heuristic",) * n, weights=model.weights)
        cols = play_columns(a, FIT_SEED + c, 0, FIT_DEALS, record=True, trump_how=TRUMP_AT_RANDOM)
        x = np.empty((FIT_DEALS * n, N_FEATURES))
        features_matrix_nb(cols["hands"], cols["declarer"].astype(np.int64), cols["trump"].astype(np.int64), x)
        scores = cols["score"].astype(np.float64)
        y = scores.ravel()
        xtx, xty = normal_equations_nb(x, y)  # in a kernel: BLAS threads would keep spinning after
        model.weights[c] = np.linalg.solve(xtx + 1e-3 * len(y) * np.eye(N_FEATURES), xty)
        if c == CONTRACT.TRUMPS:  # the averages of Trumps as played: with the trump the declarer names
            a = kernel_tables(options, (name,), ("heuristic",) * n, weights=model.weights)
            cols = play_columns(a, FIT_SEED + c, 0, FIT_DEALS)
            scores = cols["score"].astype(np.float64)
        model.seat_mean[c] = scores.mean()
        model.seat_std[c] = scores.std()
        model.declarer_mean[c] = scores[np.arange(FIT_DEALS), cols["declarer"]].mean()
    return model


# ---------------------------------------------------------------- whole games


def game_tables(options: BarbuOptions, policies, double_policies) -> dict:
    """Everything the whole-game kernel needs: the deal tables, the schedule, doubling and settlement."""
    from cardlab.sim.barbu.doubling import doubling_policy_ids
    from cardlab.sim.barbu.rules import contract_total

    o = options
    a = kernel_tables(o, o.game_contracts, policies)
    model = hand_model(o)
    a.update(
        game_contracts=a.pop("contracts"), schedule=np.array(o.schedule, np.int64).reshape(-1, 2),
        length=o.game_length, double=o.double,
        late_redouble=o.late_redouble, obligation=o.double_obligation if o.double else 0,
        skip_undoubled=o.skip_undoubled_negative, remainder_to_declarer=o.skip_remainder == "declarer",
        deal_totals=np.array([contract_total(o, c) for c in CONTRACT_NAMES], np.int64),
        double_policies=doubling_policy_ids(double_policies, o.players),
        seat_mean=model.seat_mean, declarer_mean=model.declarer_mean, seat_std=model.seat_std,
    )
    return a


def play_game_columns(study, first: int, count: int, *, record: bool = False) -> dict:
    """Play games ``first .. first+count-1`` of a whole games' ``study`` (its tables, :func:`game_tables`, and its
    search settings and Numba seat); one row per deal (and the logs when ``record``; with a search seat also the
    searched decisions' means)."""
    from cardlab.sim.barbu.doubling import doubling_log_length
    from cardlab.sim.barbu.game import GAME_BLOCK, play_games_any_nb

    a, searching = study.kernel_args, study.searching
    n, length = a["n"], a["length"]
    rows = count * length
    declarer = np.empty(rows, np.int8)
    contract = np.empty(rows, np.int8)
    trump = np.empty(rows, np.int8)
    raw = np.empty((rows, n), np.int16)
    final = np.empty((rows, n), np.int16)
    doubles = np.empty((rows, n, n), np.int8)
    log_rows = rows if record else 0
    hands = np.zeros((log_rows, n), np.uint64)
    moves = np.zeros((log_rows, a["log_width"]), np.int8)
    dlog = np.zeros((log_rows, doubling_log_length(n)), np.int8)
    mean_rows = log_rows if searching else 0
    means = np.full((mean_rows, a["log_width"], 64), np.nan, np.float32)
    trump_means = np.full((mean_rows, 4), np.nan, np.float32)
    contract_means = np.full((mean_rows, len(a["game_contracts"])), np.nan, np.float32)
    faults = study.faults(count)
    play_games_any_nb(study.seed, first, count, 1 if searching else GAME_BLOCK, a["deck"], n, a["game_contracts"],
                      a["schedule"], a["double"], a["late_redouble"], a["obligation"],
                      a["skip_undoubled"], a["remainder_to_declarer"], a["deal_totals"],
                      a["card_values"], a["trick_values"], a["last_two"], a["flags"], a["point_masks"], a["policies"],
                      a["double_policies"], a["duties"], a["lead_rule"], a["early_stop"], a["weights"],
                      a["seat_mean"], a["declarer_mean"], a["seat_std"], a["domino_variant"],
                      a["domino_start_rank"], a["domino_starter"], a["ace_replay_optional"], a["places"],
                      study.search_worlds, study.rollout_id, searching,
                      declarer, contract, trump, raw, final, doubles, hands, moves, dlog, means, trump_means,
                      contract_means, study.user_callback(searching), study.extra_callback("domino", searching),
                      faults, study.inference_eps(a["policies"]), study.racing_level)
    study.check_faults(faults, first, "game")
    columns = {
        "game": np.repeat(np.arange(first, first + count, dtype=np.int64), length),
        "deal": np.tile(np.arange(length, dtype=np.int16), count),
        "contract": pd.Categorical.from_codes(contract, categories=CONTRACT_NAMES),
        "declarer": declarer,
        "trump": trump,
        "raw": raw,
        "score": final,
    }
    if a["double"]:
        for i in range(n):
            for j in range(n):
                if i != j:
                    columns[f"double_{i}_{j}"] = doubles[:, i, j]
    if record:
        columns.update(hands=hands, moves=moves, doubling=dlog)
        if searching:
            columns.update(search_means=means, search_trump_means=trump_means, search_contract_means=contract_means)
    return columns
