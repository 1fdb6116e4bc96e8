"""Python facade for Barbu: validate, call the kernels in chunks, return DataFrames."""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.barbu.domino import domino_log_length
from cardlab.sim.barbu.estimate import N_FEATURES, features_matrix_nb, normal_equations_nb
from cardlab.sim.barbu.kernels import (DUTY_MUST_TRUMP, DUTY_OVERTRUMP_LED, DUTY_OVERTRUMP_RUFF, TRUMP_AT_RANDOM,
                               TRUMP_BY_POLICY, play_deals_nb)
from cardlab.sim.barbu.policies import POLICY_NAMES
from cardlab.sim.barbu.search_play import (DEFAULT_WORLDS, check_search_options, describe_contract_search,
                                           describe_searches, search_columns, uses_search)
from cardlab.sim.barbu.rules import (ALL_CONTRACTS, CONTRACT, CONTRACT_NAMES, DOMINO_RULES, DOMINO_STARTERS, HEARTS_LEAD,
                             BarbuOptions, check_choice, contract_total, scoring_tables)
from cardlab.sim.barbu.scope import BARBU_SCOPE, check_barbu_scope, refuse
from cardlab.sim.diskcache import cached_on_disk
from cardlab.sim.options import parse_per_seat, with_rules
from cardlab.sim.rng import check_seed


def make_options(options: BarbuOptions | None = None, **rules) -> BarbuOptions:
    """``options`` updated with keyword rule options; unknown names raise a clear ``ValueError``."""
    not_rules = sorted(set(rules) - {f.name for f in fields(BarbuOptions)})
    for name in not_rules:
        if name in BARBU_SCOPE:  # a run option this call does not take (contract, double_policy)
            raise refuse(name, rules[name])
    return with_rules(options or BarbuOptions(), "Barbu", rules)


def parse_contracts(contract) -> tuple[str, ...]:
    """``'all'``, one contract name, or a sequence of names → tuple of trick-contract names."""
    if isinstance(contract, str):
        if contract == "all":
            return ALL_CONTRACTS
        contract = [c.strip() for c in contract.split(",")]
    names = tuple(contract)
    if not names:
        raise ValueError("contract: no contract given; choose 'all' or one or more of " + ", ".join(ALL_CONTRACTS))
    for name in names:
        check_choice("contract", name, ALL_CONTRACTS + ("all",))
        if name == "all":
            raise ValueError("contract: 'all' cannot be combined with other contracts")
    return names


def parse_policies(policy, players: int) -> tuple[str, ...]:
    """One card policy for every seat, or one per seat."""
    return parse_per_seat("policy", policy, players, POLICY_NAMES)


def trump_duties(options: BarbuOptions) -> int:
    """The §4 trump duties in force, as the kernel's bit set."""
    return (DUTY_OVERTRUMP_LED * options.overtrump_on_trump_lead + DUTY_MUST_TRUMP * options.must_trump
            + DUTY_OVERTRUMP_RUFF * options.overtrump_when_ruffing)


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
        policies=np.array([POLICY_NAMES.index(p) for p in policies], np.int64),
        duties=trump_duties(options), lead_rule=HEARTS_LEAD.index(options.hearts_lead), early_stop=options.early_stop,
        weights=hand_model(options).weights if weights is None else weights,
        domino_variant=DOMINO_RULES.index(options.domino_rules), domino_start_rank=-1,
        domino_starter=DOMINO_STARTERS.index(options.domino_starter), ace_replay_optional=options.ace_replay_optional,
        places=t.domino_places, log_width=max(len(options.cards), domino_log_length(options.players, options.hand_size)),
    )


def play_columns(a: dict, seed: int, first: int, count: int, *, record: bool = False,
                 trump_how: int = TRUMP_BY_POLICY, keep_hands: bool = False) -> dict:
    """Call the deal kernel on deals ``first .. first+count-1`` and return named columns.

    ``record`` adds the dealt ``hands`` and the ``moves`` log; ``keep_hands`` the hands alone.
    """
    if uses_search(a["policies"]):  # search seats: sim.barbu.search_play
        return search_columns(a, seed, first, count, record=record, trump_how=trump_how, keep_hands=keep_hands)
    n = a["n"]
    contract = np.empty(count, np.int8)
    declarer = np.empty(count, np.int8)
    trump = np.empty(count, np.int8)
    score = np.empty((count, n), np.int16)
    rows = count if record else 0
    hands = np.zeros((count if record or keep_hands else 0, n), np.uint64)
    moves = np.zeros((rows, a["log_width"]), np.int8)
    play_deals_nb(seed, first, count, a["deck"], n, a["contracts"], a["card_values"], a["trick_values"],
                  a["last_two"], a["flags"], a["point_masks"], a["policies"], a["duties"], a["lead_rule"],
                  a["early_stop"], trump_how, a["weights"], a["domino_variant"], a["domino_start_rank"],
                  a["domino_starter"], a["ace_replay_optional"], a["places"], contract, declarer, trump, score, hands,
                  moves)
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


@dataclass(frozen=True)
class Study:
    """Everything that decides a run's results: rules, contracts, policies and seed."""

    options: BarbuOptions
    contracts: tuple[str, ...]
    policies: tuple[str, ...]
    seed: int
    search_worlds: int = DEFAULT_WORLDS  # worlds sampled per searched decision (policy "search")
    search_rollout: str = "heuristic"  # the policy of every seat in the search's rollouts

    @classmethod
    def build(cls, *, options=None, contract="all", policy="heuristic", seed=0, search_worlds=None,
              search_rollout=None, **rules) -> "Study":
        """Validate a run of single deals; an option that has no effect on these contracts is an error."""
        options = make_options(options, **rules)
        contracts = parse_contracts(contract)
        check_barbu_scope(options, unit="deals", played=contracts)
        policies = parse_policies(policy, options.players)
        return cls(options, contracts, policies, check_seed(seed),
                   *check_search_options(policies, search_worlds, search_rollout))

    @cached_property
    def kernel_args(self) -> dict:
        return {**kernel_tables(self.options, self.contracts, self.policies), "search_worlds": self.search_worlds,
                "search_rollout": self.search_rollout}

    def play(self, first: int, count: int, *, record: bool = False, trump_how: int = TRUMP_BY_POLICY) -> dict:
        """Play deals ``first .. first+count-1``; returns columns (and the move log when ``record``)."""
        return play_columns(self.kernel_args, self.seed, first, count, record=record, trump_how=trump_how)
    def metadata(self) -> dict:
        meta = {"game": "barbu", "options": self.options.to_dict(), "contracts": list(self.contracts),
                "policies": list(self.policies), "seed": self.seed}
        search = {"search_worlds": self.search_worlds, "search_rollout": self.search_rollout}
        return {**meta, **search} if uses_search(self.policies) else meta


def simulate(*, deals: int, seed: int = 0, contract="all", policy="heuristic", options: BarbuOptions | None = None,
             threads: int | None = None, first_deal: int = 0, chunk_size: int = runner.DEFAULT_CHUNK,
             progress: bool = False, out=None, summary: bool | None = None, executor=None,
             **rules) -> pd.DataFrame | None:
    """Play ``deals`` Barbu deals and return one row per deal (or write them to Parquet ``out``).

    Columns: ``deal``, ``contract``, ``declarer``, ``score_0`` … ``score_{n-1}``. With several
    contracts (``contract='all'``), deal ``i`` plays contract ``i % k`` and seat ``(i // k) % n``
    declares. ``policy`` is one name for all seats or one per seat. Rule options
    (``players``, ``deck``, ``scoring``, ``hearts_lead`` …) are keywords or a
    :class:`BarbuOptions`. Identical for any ``threads`` and ``chunk_size``. ``summary``,
    ``executor`` and ``out`` (a file, or a directory for a resumable dataset) work as in
    :func:`cardlab.sim.runner.run`.

    >>> df = simulate(deals=1000, seed=7, contract="no-queens", players=4, deck=52)
    >>> int(df[[f"score_{p}" for p in range(4)]].sum(axis=1).iloc[0])
    -12
    """
    study = Study.build(options=options, contract=contract, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata(), summary=summary, executor=executor)


class DealReplay(NamedTuple):
    """One deal replayed alone and checked by the referee."""

    contract: str
    declarer: int
    trump: int  # 0-3 = ♣♦♥♠, -1 none
    scores: list
    text: str  # trick by trick (turn by turn for Domino), readable cards
    record: dict | None = None  # the same deal as a JSON-ready record (sim.barbu.records)


def replay(*, deal: int, seed: int = 0, contract="all", policy="heuristic", options: BarbuOptions | None = None,
           **rules) -> DealReplay:
    """Replay deal number ``deal`` of a run alone; the referee checks every move and the scores.

    The kernel replays the deal from (seed, deal index); the referee recomputes the scores,
    which must equal the kernel's.

    >>> print(replay(deal=5, seed=7).text.splitlines()[0])
    contract salade, declarer seat 0
    """
    from cardlab.sim.barbu.game_referee import check_any_deal, describe_deal
    from cardlab.sim.barbu.referee import RefereeError

    deal = runner.check_index("deal", deal)
    study = Study.build(options=options, contract=contract, policy=policy, seed=seed, **rules)
    cols = study.play(deal, 1, record=True)
    name, declarer, trump = str(cols["contract"][0]), int(cols["declarer"][0]), int(cols["trump"][0])
    hands, moves = cols["hands"][0], cols["moves"][0]
    scores = check_any_deal(study.options, name, declarer, hands, moves, trump)
    kernel_scores = [int(s) for s in cols["score"][0]]
    if scores != kernel_scores:
        raise RefereeError(f"deal {deal}: kernel scored {kernel_scores}, the rules give {scores}")
    from cardlab.sim.barbu.records import deal_record

    text = describe_deal(study.options, name, declarer, hands, moves, trump)
    if "search_means" in cols:
        text += describe_searches(study.options, name, declarer, hands, moves, trump, cols["search_means"][0],
                                  cols["search_trump_means"][0])
    return DealReplay(name, declarer, trump, scores, text,
                      deal_record(study.options, deal, name, declarer, trump, hands, moves, scores))


# ---------------------------------------------------------------- whole games


@dataclass(frozen=True)
class GameStudy:
    """Everything that decides a run of whole games: rules, policies and seed."""

    options: BarbuOptions
    policies: tuple[str, ...]
    double_policies: tuple[str, ...]
    seed: int
    search_worlds: int = DEFAULT_WORLDS  # worlds sampled per searched decision (policy "search")
    search_rollout: str = "heuristic"  # the policy of every seat in the search's rollouts

    @classmethod
    def build(cls, *, options=None, policy="heuristic", double_policy=None, seed=0, search_worlds=None,
              search_rollout=None, **rules) -> "GameStudy":
        """Validate a run of whole games; an option that has no effect on such games is an error."""
        from cardlab.sim.barbu.doubling import DOUBLING_POLICY_NAMES

        options = make_options(options, **rules)
        check_barbu_scope(options, unit="games", extra={} if double_policy is None else {"double_policy": double_policy})
        policies = parse_policies(policy, options.players)
        doubles = tuple("heuristic" if p == "search" else p for p in policies) if double_policy is None else \
            parse_per_seat("double_policy", double_policy, options.players, DOUBLING_POLICY_NAMES)
        return cls(options, policies, doubles, check_seed(seed),
                   *check_search_options(policies, search_worlds, search_rollout))

    @cached_property
    def kernel_args(self) -> dict:
        from cardlab.sim.barbu.doubling import doubling_policy_ids

        o = self.options
        a = kernel_tables(o, o.game_contracts, self.policies)
        model = hand_model(o)
        a.update(
            game_contracts=a.pop("contracts"), schedule=np.array(o.schedule, np.int64).reshape(-1, 2),
            length=o.game_length, double=o.double,
            late_redouble=o.late_redouble, obligation=o.double_obligation if o.double else 0,
            skip_undoubled=o.skip_undoubled_negative, remainder_to_declarer=o.skip_remainder == "declarer",
            deal_totals=np.array([contract_total(o, c) for c in CONTRACT_NAMES], np.int64),
            double_policies=doubling_policy_ids(self.double_policies, o.players),
            seat_mean=model.seat_mean, declarer_mean=model.declarer_mean, seat_std=model.seat_std,
        )
        return a

    def play(self, first: int, count: int, *, record: bool = False) -> dict:
        """Play games ``first .. first+count-1``; one row per deal (and the logs when ``record``)."""
        from cardlab.sim.barbu.doubling import doubling_log_length
        from cardlab.sim.barbu.game import GAME_BLOCK, play_games_any_nb
        from cardlab.sim.barbu.search import ROLLOUT_NAMES

        a = self.kernel_args
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
        searching = uses_search(self.policies)
        mean_rows = log_rows if searching else 0
        means = np.full((mean_rows, a["log_width"], 64), np.nan, np.float32)
        trump_means = np.full((mean_rows, 4), np.nan, np.float32)
        contract_means = np.full((mean_rows, len(a["game_contracts"])), np.nan, np.float32)
        play_games_any_nb(self.seed, first, count, 1 if searching else GAME_BLOCK, a["deck"], n, a["game_contracts"], a["schedule"], a["double"], a["late_redouble"], a["obligation"],
                      a["skip_undoubled"], a["remainder_to_declarer"], a["deal_totals"],
                      a["card_values"], a["trick_values"], a["last_two"], a["flags"], a["point_masks"], a["policies"],
                      a["double_policies"], a["duties"], a["lead_rule"], a["early_stop"], a["weights"],
                      a["seat_mean"], a["declarer_mean"], a["seat_std"], a["domino_variant"],
                      a["domino_start_rank"], a["domino_starter"], a["ace_replay_optional"], a["places"],
                      self.search_worlds, ROLLOUT_NAMES.index(self.search_rollout), searching,
                      declarer, contract, trump, raw, final, doubles, hands, moves, dlog, means, trump_means,
                      contract_means)
        columns = {
            "game": np.repeat(np.arange(first, first + count, dtype=np.int64), length),
            "deal": np.tile(np.arange(length, dtype=np.int16), count),
            "contract": pd.Categorical.from_codes(contract, categories=CONTRACT_NAMES),
            "declarer": declarer,
            "trump": trump,
            "raw": raw,
            "score": final,
        }
        if self.options.double:
            for i in range(n):
                for j in range(n):
                    if i != j:
                        columns[f"double_{i}_{j}"] = doubles[:, i, j]
        if record:
            columns.update(hands=hands, moves=moves, doubling=dlog)
            if searching:
                columns.update(search_means=means, search_trump_means=trump_means, search_contract_means=contract_means)
        return columns

    def metadata(self) -> dict:
        meta = {"game": "barbu", "unit": "game", "options": self.options.to_dict(), "policies": list(self.policies),
                "double_policies": list(self.double_policies), "seed": self.seed,
                "contracts": list(self.options.game_contracts), "deals_per_game": self.options.game_length}
        search = {"search_worlds": self.search_worlds, "search_rollout": self.search_rollout}
        return {**meta, **search} if uses_search(self.policies) else meta


def simulate_games(*, games: int, seed: int = 0, policy="heuristic", double_policy=None,
                   options: BarbuOptions | None = None, threads: int | None = None, first_game: int = 0,
                   chunk_size: int = runner.DEFAULT_GAME_CHUNK, progress: bool = False, out=None,
                   summary: bool | None = None, executor=None, search_worlds=None, search_rollout=None,
                   **rules) -> pd.DataFrame | None:
    """Play ``games`` whole Barbu games; one row per deal (``game``, ``deal`` within the game, ...).

    Columns: ``game``, ``deal``, ``contract``, ``declarer``, ``trump`` (suit 0-3 = ♣♦♥♠, -1 none),
    ``raw_0`` … (deal scores before doubling), ``score_0`` … (after settlement) and, with
    doubling, ``double_i_j`` (1 when seat i doubled seat j, 2 when j redoubled). Rule options
    as keywords (``geronimo=True``, ``double=True`` …). ``analysis.games`` summarises it.

    >>> df = simulate_games(games=10, seed=1, geronimo=True, double=True)
    >>> len(df), int(df.groupby("game")[[f"score_{p}" for p in range(4)]].sum().sum(axis=1).iloc[0]) <= 200
    (280, True)
    """
    study = GameStudy.build(options=options, policy=policy, double_policy=double_policy, seed=seed,
                            search_worlds=search_worlds, search_rollout=search_rollout, **rules)
    runner.set_threads(threads)
    return runner.run(study.play, deals=games, first_deal=first_game, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata(), unit="game", summary=summary, executor=executor)


class GameReplay(NamedTuple):
    """One whole game replayed alone and checked by the referee."""

    totals: list
    places: list
    text: str  # every deal: contract, trump, doubles, play, raw and settled scores
    records: list | None = None  # one JSON-ready record per deal (sim.barbu.records)


def replay_game(*, game: int, seed: int = 0, policy="heuristic", double_policy=None,
                options: BarbuOptions | None = None, search_worlds=None, search_rollout=None, **rules) -> GameReplay:
    """Replay game number ``game`` of a run alone: the referee checks every deal, double and score.

    >>> r = replay_game(game=3, seed=1, geronimo=True, double=True)
    >>> len(r.places), r.text.count("deal ") >= 28
    (4, True)
    """
    from cardlab.sim.barbu.doubling_referee import decode_log, format_action
    from cardlab.sim.barbu.game_referee import check_game, describe_deal, game_deals, is_skipped

    game = runner.check_index("game", game)
    study = GameStudy.build(options=options, policy=policy, double_policy=double_policy, seed=seed,
                            search_worlds=search_worlds, search_rollout=search_rollout, **rules)
    cols = study.play(game, 1, record=True)
    deals = game_deals(cols, 0, study.options.game_length)
    verdict = check_game(study.options, deals)
    lines = [f"game {game} (seed {seed}): {study.options.game_length} deals, contracts "
             f"{', '.join(study.options.game_contracts)}"]
    for number, d in enumerate(deals):
        lines.append(f"\n=== deal {number + 1}: seat {d['declarer']} declares {d['contract']}")
        if "search_contract_means" in cols and not np.isnan(cols["search_contract_means"][number]).all():
            lines.append(describe_contract_search(study.options, cols["search_contract_means"][number]))
        if study.options.double:
            actions = decode_log(d["doubling"])
            lines.append("doubles: " + ("; ".join(format_action(a) for a in actions) if actions else "none"))
        if is_skipped(study.options, d):
            lines.append("not played: nobody doubled; the others share the points: "
                         + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(d["raw"])))
        else:
            lines.append(describe_deal(study.options, d["contract"], d["declarer"], d["hands"], d["moves"],
                                       d["trump"]))
            if "search_means" in cols:
                row = number
                lines.append(describe_searches(study.options, d["contract"], d["declarer"], d["hands"], d["moves"],
                                               d["trump"], cols["search_means"][row], cols["search_trump_means"][row]
                                               ).lstrip("\n"))
        if d["score"] != d["raw"]:
            lines.append("after doubles: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(d["score"])))
    lines.append("\nfinal totals: " + "  ".join(f"seat {p}: {t:+d} (place {pl})"
                                                for p, (t, pl) in enumerate(zip(verdict.totals, verdict.places))))
    from cardlab.sim.barbu.records import game_deal_record

    records = [game_deal_record(study.options, game, number, d, not is_skipped(study.options, d))
               for number, d in enumerate(deals)]
    return GameReplay(verdict.totals, verdict.places, "\n".join(lines), records)
