"""Paired Barbu studies: the same deal played several ways, so differences are the choice alone.

Deal ``i`` of a study has the hands of ``(seed, i)`` and declarer ``i % n`` whatever contract or
trump suit it is played with, and the heuristic plays deterministically, so comparing the
versions of one deal isolates the choice being studied.

* :func:`trump_study`: every Trumps deal played once with each suit as trump. For the suit the
  declarer's policy names, the declarer's score against the best suit for that deal, by the
  length and honours of the suit.
* :func:`contract_value_study`: every deal played under every contract. A contract's value for
  the hand is the declarer's score minus that contract's average declarer score (from the hand
  model's fit), i.e. what declaring it with this hand gains over declaring it with an average
  hand. The heuristic's pick (with every contract open, as at the start of a Geronimo game) is
  compared with the contract of highest value.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.barbu.game import heuristic_picks_nb
from cardlab.sim.barbu.policies import POLICY_NAMES
from cardlab.sim.barbu.rules import CONTRACT_NAMES, contract_total
from cardlab.sim.options import check_choice
from cardlab.sim.barbu.scope import refuse
from cardlab.sim.cards import LANE, SUIT_LANE_MASK
from cardlab.sim.barbu.simulate import Study, hand_model, play_columns, parse_contracts

HONOUR_BITS = np.uint64(0b1111 << 9)  # J Q K A within a suit lane


def _declarer_scores(cols: dict) -> np.ndarray:
    return cols["score"][np.arange(len(cols["declarer"])), cols["declarer"]]


def _declarer_hands(cols: dict) -> np.ndarray:
    return cols["hands"][np.arange(len(cols["declarer"])), cols["declarer"]]


def suit_lengths_and_honours(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cards, A-K-Q-J count) of each suit in each hand: two int arrays of shape (hands, 4)."""
    lanes = np.stack([(hands >> np.uint64(LANE * s)) & SUIT_LANE_MASK for s in range(4)], axis=1)
    return np.bitwise_count(lanes).astype(np.int8), np.bitwise_count(lanes & HONOUR_BITS).astype(np.int8)


def _run(study: Study, play_chunk, *, deals, threads, first_deal, chunk_size, progress, out, kind):
    runner.set_threads(threads)
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta={**study.metadata(), "study": kind})


def trump_study(*, deals: int, seed: int = 0, policy="heuristic", options=None, threads=None, first_deal: int = 0,
                chunk_size: int = 1 << 18, progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play each Trumps deal with every suit as trump; one row per deal.

    Columns: ``deal``, ``declarer``, ``chosen`` (the suit the declarer's policy names, 0-3 =
    ♣♦♥♠), ``score_t0`` … ``score_t3`` (declarer's score with that suit as trump),
    ``length_t0`` … and ``honours_t0`` … (the declarer's cards and A-K-Q-J in that suit).
    ``analysis.studies`` summarises it.

    >>> df = trump_study(deals=200, seed=1)
    >>> bool((df[[f"score_t{s}" for s in range(4)]].max(axis=1) >= 0).all())
    True
    """
    if "contract" in rules:
        raise refuse("contract", rules["contract"])
    study = Study.build(options=options, contract="trumps", policy=policy, seed=seed, **rules)
    return _run(study, _trump_chunks(study), deals=deals, threads=threads, first_deal=first_deal,
                chunk_size=chunk_size, progress=progress, out=out, kind="trumps")


def _trump_chunks(study: Study):
    """The trump study's ``play_chunk(first, count) -> columns`` for ``study``."""

    def play_chunk(first, count):
        a = study.kernel_args
        named = play_columns(a, study.seed, first, count, keep_hands=True)
        lengths, honours = suit_lengths_and_honours(_declarer_hands(named))
        columns = {"deal": named["deal"], "declarer": named["declarer"], "chosen": named["trump"]}
        for s in range(4):
            columns[f"score_t{s}"] = _declarer_scores(play_columns(a, study.seed, first, count, trump_how=s))
        for s in range(4):
            columns[f"length_t{s}"] = lengths[:, s]
        for s in range(4):
            columns[f"honours_t{s}"] = honours[:, s]
        return columns

    return play_chunk


def contract_value_study(*, deals: int, seed: int = 0, contract="all", policy="heuristic", options=None,
                         threads=None, first_deal: int = 0, chunk_size: int = 1 << 18, progress: bool = False,
                         out=None, **rules) -> pd.DataFrame | None:
    """Play each deal under every contract; one row per deal with each contract's value to the declarer.

    Columns: ``deal``, ``declarer``, ``pick`` (the contract the heuristic declares with every
    contract open), and per contract ``c`` (``-`` written ``_``): ``score_<c>`` (the declarer's
    score) and ``value_<c>`` (that score minus the contract's average declarer score).

    >>> df = contract_value_study(deals=100, seed=1)
    >>> sorted(df["pick"].unique()) == sorted(set(df["pick"]))
    True
    """
    names = parse_contracts(contract)
    study = Study.build(options=options, contract=names, policy=policy, seed=seed, **rules)
    return _run(study, _contract_chunks(study, names), deals=deals, threads=threads, first_deal=first_deal,
                chunk_size=chunk_size, progress=progress, out=out, kind="contracts")


def _contract_chunks(study: Study, names, *, edges: bool = False):
    """The contract study's ``play_chunk`` for ``study``; ``edges`` adds ``edge_<c>``, the declarer's
    score minus the others' mean score in the deal, ``(n * score - total) / (n - 1)`` since every
    contract's total is fixed (§3)."""
    model = hand_model(study.options)
    n = study.options.players
    totals = {name: contract_total(study.options, name) for name in names}
    ids = np.array([CONTRACT_NAMES.index(c) for c in names], np.int64)

    def play_chunk(first, count):
        base = study.kernel_args
        columns = {}
        for name in names:
            a = {**base, "contracts": np.array([CONTRACT_NAMES.index(name)], np.int64)}
            cols = play_columns(a, study.seed, first, count, keep_hands=not columns)
            if not columns:
                picks = np.empty(count, np.int64)
                heuristic_picks_nb(_declarer_hands(cols), ids, model.weights, model.declarer_mean, picks)
                columns = {"deal": cols["deal"], "declarer": cols["declarer"],
                           "pick": pd.Categorical.from_codes(ids[picks], categories=CONTRACT_NAMES)}
            score = _declarer_scores(cols)
            key = name.replace("-", "_")
            columns[f"score_{key}"] = score
            columns[f"value_{key}"] = (score - model.declarer_mean[CONTRACT_NAMES.index(name)]).astype(np.float32)
            if edges:
                columns[f"edge_{key}"] = ((n * score.astype(np.float64) - totals[name]) / (n - 1)).astype(np.float32)
        return columns

    return play_chunk


COMPARED_STUDIES = ("contracts", "trumps")


def parse_compared_policies(policies) -> tuple[str, ...]:
    """``'heuristic,search'`` → two different whole-table card policies (random, heuristic, search, classic)."""
    names = tuple(p.strip() for p in policies.split(",")) if isinstance(policies, str) else tuple(policies)
    for name in names:
        check_choice("compare_policies", name, POLICY_NAMES)
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"compare_policies: {','.join(names)!r} is not allowed; give two different policies, "
                         "e.g. heuristic,search")
    return names


def policy_comparison_study(*, study: str, deals: int, policies="heuristic,search", seed: int = 0,
                            contract="all", options=None, threads=None, first_deal: int = 0,
                            chunk_size: int = 1 << 12, progress: bool = False, out=None,
                            **rules) -> pd.DataFrame | None:
    """Play the ``study`` (``'contracts'`` or ``'trumps'``) once per card policy on the same deals.

    Every seat plays the policy (a search declarer also searches its trump). One row per deal:
    ``deal``, ``declarer``, then each column of the study prefixed by the policy,
    ``<policy>_<column>`` (``heuristic_score_no_tricks``, ``search_chosen``); the contract study
    adds ``<policy>_edge_<c>`` (the declarer's score minus the others' mean). The same hands and
    declarers under every policy, so differences are paired. ``analysis.policy_conclusions``
    summarises it.

    >>> df = policy_comparison_study(study="trumps", deals=4, seed=1, policies="heuristic,random")
    >>> [c for c in df.columns if c.endswith("score_t0")]
    ['heuristic_score_t0', 'random_score_t0']
    """
    check_choice("study", study, COMPARED_STUDIES)
    names = parse_compared_policies(policies)
    if study == "trumps" and "contract" in rules:
        raise refuse("contract", rules["contract"])
    played = parse_contracts(contract) if study == "contracts" else None
    chunks = {}
    builds = {}
    for name in names:
        kw = rules if name == "search" else {k: v for k, v in rules.items() if not k.startswith("search_")}
        built = Study.build(options=options, contract=played or "trumps", policy=name, seed=seed, **kw)
        builds[name] = built
        chunks[name] = _contract_chunks(built, played, edges=True) if study == "contracts" else _trump_chunks(built)

    def play_chunk(first, count):
        columns = {}
        for name in names:
            part = chunks[name](first, count)
            if not columns:
                columns = {"deal": part["deal"], "declarer": part["declarer"]}
            for key, value in part.items():
                if key not in ("deal", "declarer"):
                    columns[f"{name}_{key}"] = value
        return columns

    first_study = builds[names[0]]
    meta = {**first_study.metadata(), "policies": list(names), "compared_policies": list(names),
            "compared_study": study}
    search = [builds[n].metadata() for n in names if n == "search"]
    if search:
        meta.update({k: v for k, v in search[0].items() if k.startswith("search")})
    runner.set_threads(threads)
    return runner.run(play_chunk, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta={**meta, "study": "policies"})


__all__ = ["COMPARED_STUDIES", "contract_value_study", "parse_compared_policies", "policy_comparison_study",
           "trump_study"]
