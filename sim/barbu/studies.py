"""Barbu's own paired studies: the same deal played several ways, so differences are the choice alone.

Deal ``i`` of a study has the hands of ``(seed, i)`` and declarer ``i % n`` whatever contract or
trump suit it is played with, and the heuristic plays deterministically, so comparing the
versions of one deal isolates the choice being studied. Each is a study of the game interface
(``cardlab study barbu trumps|contracts``, :func:`paired_study`):

* :func:`trump_study`: every Trumps deal played once with each suit as trump. For the suit the
  declarer's policy names, the declarer's score against the best suit for that deal, by the
  length and honours of the suit.
* :func:`contract_value_study`: every deal played under every contract. A contract's value for
  the hand is the declarer's score minus that contract's average declarer score (from the hand
  model's fit), i.e. what declaring it with this hand gains over declaring it with an average
  hand. The heuristic's pick (with every contract open, as at the start of a Geronimo game) is
  compared with the contract of highest value.
* either with ``compare_policies`` (``--compare-policies heuristic,search``):
  :func:`policy_comparison_study`, the study once per card policy on the same deals.

:func:`lone_gain_study` measures what one seat gains by a policy at a table of another.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.barbu.game import heuristic_picks_nb
from cardlab.sim.barbu.interface import BARBU
from cardlab.sim.barbu.play import hand_model
from cardlab.sim.barbu.policies import POLICY_NAMES
from cardlab.sim.barbu.rules import CONTRACT_NAMES, contract_total
from cardlab.sim.cards import LANE, SUIT_LANE_MASK
from cardlab.sim.options import check_choice

HONOUR_BITS = np.uint64(0b1111 << 9)  # J Q K A within a suit lane
STUDY_CHUNK = 1 << 18  # deals per chunk of the trumps and contracts studies
COMPARISON_CHUNK = 1 << 12  # of a policy comparison (search seats are slow)
COMPARED_STUDIES = ("contracts", "trumps")  # the studies --compare-policies plays once per policy


def _declarer_scores(cols: dict) -> np.ndarray:
    return cols["score"][np.arange(len(cols["declarer"])), cols["declarer"]]


def _declarer_hands(cols: dict) -> np.ndarray:
    return cols["hands"][np.arange(len(cols["declarer"])), cols["declarer"]]


def suit_lengths_and_honours(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cards, A-K-Q-J count) of each suit in each hand: two int arrays of shape (hands, 4)."""
    lanes = np.stack([(hands >> np.uint64(LANE * s)) & SUIT_LANE_MASK for s in range(4)], axis=1)
    return np.bitwise_count(lanes).astype(np.int8), np.bitwise_count(lanes & HONOUR_BITS).astype(np.int8)


def paired_study(game, name: str, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                 progress: bool = False, out=None, compare_policies=None, **keywords) -> pd.DataFrame | None:
    """The study ``name`` (``'trumps'`` or ``'contracts'``) of ``game`` on ``deals`` deals (with
    ``compare_policies``, once per policy: :func:`policy_comparison_study`); keywords as ``simulate``."""
    run = dict(deals=deals, threads=threads, first_deal=first_deal, progress=progress, out=out)
    if compare_policies is not None:
        return policy_comparison_study(game, study=name, policies=compare_policies, chunk_size=chunk_size, **run,
                                       **keywords)
    study = game.build("deals", study_name=name, **keywords)
    return runner.run_study(CHUNKS[name](study), {**study.metadata(), "study": name},
                            chunk_size=chunk_size or STUDY_CHUNK, **run)


def paired_metadata(game, name: str, *, compare_policies=None, **keywords) -> dict:
    """What :func:`paired_study` records."""
    if compare_policies is not None:
        return _comparison(game, name, compare_policies, keywords)[1]
    return {**game.build("deals", study_name=name, **keywords).metadata(), "study": name}


def trump_study(**keywords) -> pd.DataFrame | None:
    """Play each Trumps deal with every suit as trump; one row per deal.

    Columns: ``deal``, ``declarer``, ``chosen`` (the suit the declarer's policy names, 0-3 =
    ♣♦♥♠), ``score_t0`` … ``score_t3`` (declarer's score with that suit as trump),
    ``length_t0`` … and ``honours_t0`` … (the declarer's cards and A-K-Q-J in that suit).
    Keywords as :func:`paired_study` (not ``contract``). ``analysis.studies`` summarises it.

    >>> df = trump_study(deals=200, seed=1)
    >>> bool((df[[f"score_t{s}" for s in range(4)]].max(axis=1) >= 0).all())
    True
    """
    return paired_study(BARBU, "trumps", **keywords)


def _trump_chunks(study):
    """The trump study's ``play_chunk(first, count) -> columns`` for ``study``."""

    def play_chunk(first, count):
        named = study.play(first, count, keep_hands=True)
        lengths, honours = suit_lengths_and_honours(_declarer_hands(named))
        columns = {"deal": named["deal"], "declarer": named["declarer"], "chosen": named["trump"]}
        for s in range(4):
            columns[f"score_t{s}"] = _declarer_scores(study.play(first, count, trump_how=s))
        for s in range(4):
            columns[f"length_t{s}"] = lengths[:, s]
        for s in range(4):
            columns[f"honours_t{s}"] = honours[:, s]
        return columns

    return play_chunk


def contract_value_study(**keywords) -> pd.DataFrame | None:
    """Play each deal under every contract (``contract``: default all); one row per deal with each
    contract's value to the declarer.

    Columns: ``deal``, ``declarer``, ``pick`` (the contract the heuristic declares with every
    contract open), and per contract ``c`` (``-`` written ``_``): ``score_<c>`` (the declarer's
    score) and ``value_<c>`` (that score minus the contract's average declarer score).

    >>> df = contract_value_study(deals=100, seed=1)
    >>> sorted(df["pick"].unique()) == sorted(set(df["pick"]))
    True
    """
    return paired_study(BARBU, "contracts", **keywords)


def _contract_chunks(study, *, edges: bool = False):
    """The contract study's ``play_chunk`` for ``study`` (its contracts); ``edges`` adds ``edge_<c>``, the
    declarer's score minus the others' mean score in the deal, ``(n * score - total) / (n - 1)`` since every
    contract's total is fixed (§3)."""
    names = study.contracts
    model = hand_model(study.options)
    n = study.options.players
    totals = {name: contract_total(study.options, name) for name in names}
    ids = np.array([CONTRACT_NAMES.index(c) for c in names], np.int64)

    alone = {name: replace(study, contracts=(name,)) for name in names}  # each contract on every deal

    def play_chunk(first, count):
        columns = {}
        for name in names:
            cols = alone[name].play(first, count, keep_hands=not columns)
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


CHUNKS = {"trumps": _trump_chunks, "contracts": _contract_chunks}  # each study's play_chunk for a study


def parse_compared_policies(policies) -> tuple[str, ...]:
    """``'heuristic,search'`` → two different whole-table card policies (random, heuristic, search, classic)."""
    names = tuple(p.strip() for p in policies.split(",")) if isinstance(policies, str) else tuple(policies)
    for name in names:
        check_choice("compare_policies", name, POLICY_NAMES)
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"compare_policies: {','.join(names)!r} is not allowed; give two different policies, "
                         "e.g. heuristic,search")
    return names


def _comparison(game, study: str, policies, keywords: dict) -> tuple[dict, dict]:
    """``({policy: its study}, metadata)`` of a policy comparison; the search settings go to the search study."""
    check_choice("study", study, COMPARED_STUDIES)
    if keywords.get("policy", "heuristic") != "heuristic":
        raise ValueError("policy: --compare-policies sets every seat's policy itself; leave --policy out")
    keywords = {k: v for k, v in keywords.items() if k != "policy"}
    names = parse_compared_policies(policies)
    builds = {}
    for name in names:
        kw = keywords if name == "search" else {k: v for k, v in keywords.items() if not k.startswith("search_")}
        builds[name] = game.build("deals", study_name=study, policy=name, **kw)
    meta = {**builds[names[0]].metadata(), "policies": list(names), "compared_policies": list(names),
            "compared_study": study}
    if "search" in builds:
        meta.update({k: v for k, v in builds["search"].metadata().items() if k.startswith("search")})
    return builds, {**meta, "study": "policies"}


def policy_comparison_study(game=BARBU, *, study: str, deals: int, policies="heuristic,search", threads=None,
                            first_deal: int = 0, chunk_size: int | None = None, progress: bool = False, out=None,
                            **keywords) -> pd.DataFrame | None:
    """Play the ``study`` (``'contracts'`` or ``'trumps'``) once per card policy on the same deals.

    Every seat plays the policy (a search declarer also searches its trump). One row per deal:
    ``deal``, ``declarer``, then each column of the study prefixed by the policy,
    ``<policy>_<column>`` (``heuristic_score_no_tricks``, ``search_chosen``); the contract study
    adds ``<policy>_edge_<c>`` (the declarer's score minus the others' mean). The same hands and
    declarers under every policy, so differences are paired. ``analysis.barbu.policy_conclusions``
    summarises it.

    >>> df = policy_comparison_study(study="trumps", deals=4, seed=1, policies="heuristic,random")
    >>> [c for c in df.columns if c.endswith("score_t0")]
    ['heuristic_score_t0', 'random_score_t0']
    """
    builds, meta = _comparison(game, study, policies, keywords)
    chunks = {name: _contract_chunks(built, edges=True) if study == "contracts" else _trump_chunks(built)
              for name, built in builds.items()}

    def play_chunk(first, count):
        columns = {}
        for name, chunk in chunks.items():
            part = chunk(first, count)
            if not columns:
                columns = {"deal": part["deal"], "declarer": part["declarer"]}
            for key, value in part.items():
                if key not in ("deal", "declarer"):
                    columns[f"{name}_{key}"] = value
        return columns

    return runner.run_study(play_chunk, meta, deals=deals, threads=threads, first_deal=first_deal,
                            chunk_size=chunk_size or COMPARISON_CHUNK, progress=progress, out=out)


def lone_gain_study(*, deals: int, seed: int = 0, contract="all", policy="heuristic", against="classic",
                    options=None, threads=None, **rules) -> pd.DataFrame:
    """What one seat gains by playing ``policy`` at a table of ``against`` players, every seat in turn.

    Each deal is played by a whole table of ``against`` and once per seat ``p`` with ``p``
    alone playing ``policy`` (same hands, contract and declarer: deal ``i`` of a plain run). One
    row per deal: ``deal``, ``contract``, ``declarer``, ``gain_<p>`` (seat ``p``'s score alone
    minus its score at the whole table) and ``gain`` (their mean: one paired gain per deal, so a
    plain CI over deals is valid). Fast policies only (``heuristic``, ``classic``, ``random``):
    the measure of a heuristic change (``classic`` is the heuristic without its issue-12 rules).

    >>> df = lone_gain_study(deals=200, seed=1, contract="no-hearts")
    >>> bool(df["gain"].mean() > 0)
    True
    """
    kw = dict(deals=deals, seed=seed, contract=contract, options=options, threads=threads, **rules)
    base = BARBU.simulate(policy=against, **kw)
    n = sum(1 for c in base.columns if c.startswith("score_"))
    out = base[["deal", "contract", "declarer"]].copy()
    for p in range(n):
        policies = [against] * n
        policies[p] = policy
        alone = BARBU.simulate(policy=",".join(policies), **kw)
        out[f"gain_{p}"] = alone[f"score_{p}"].to_numpy(np.float64) - base[f"score_{p}"].to_numpy(np.float64)
    out["gain"] = out[[f"gain_{p}" for p in range(n)]].mean(axis=1)
    return out


__all__ = ["COMPARED_STUDIES", "contract_value_study", "lone_gain_study", "paired_metadata", "paired_study",
           "parse_compared_policies", "policy_comparison_study", "suit_lengths_and_honours", "trump_study"]
