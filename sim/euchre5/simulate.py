"""Python facade for Euchre for five: validate, call the kernels in chunks, return DataFrames."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from cardlab.sim import runner
from cardlab.sim.euchre5.kernels import (N_RES, RES_ALONE, RES_CALLED, RES_DEALER, RES_MAKER, RES_PARTNER, RES_ROUND,
                                         RES_SCORE, RES_TRICKS, RES_TRUMP, compact_game_rows_nb, play_deals_nb,
                                         play_games_nb)
from cardlab.sim.euchre5.rules import KITTY, MAX_ACTIONS, PLAYERS, Euchre5Options, kernel_rules
from cardlab.sim.euchre5 import search_play
from cardlab.sim.options import parse_per_seat, with_rules
from cardlab.sim.rng import check_seed

if TYPE_CHECKING:
    import pandas as pd  # the facades return frames, but a command writing a file never loads pandas

GAME_SLOT = 32  # hands kept per game in the games kernel's buffer; longer games are replayed alone
COLUMNS = ("dealer", "maker", "trump", "round", "alone", "partner", "maker_tricks", "called")
_RES = dict(dealer=RES_DEALER, maker=RES_MAKER, trump=RES_TRUMP, round=RES_ROUND, alone=RES_ALONE,
            partner=RES_PARTNER, maker_tricks=RES_TRICKS, called=RES_CALLED)


def make_options(options: Euchre5Options | None = None, **rules) -> Euchre5Options:
    """``options`` updated with keyword rule options; unknown names raise a clear ``ValueError``."""
    return with_rules(options or Euchre5Options(), "Euchre for five", rules)


def result_columns(results: np.ndarray) -> dict:
    """Kernel results (N_RES, rows) as named columns: ``score_0`` … ``score_4`` for the scores."""
    columns = {name: results[i] for name, i in _RES.items()}
    columns.update({f"score_{p}": results[RES_SCORE + p] for p in range(PLAYERS)})
    return columns


def scores_of(columns: dict) -> np.ndarray:
    """The (rows, 5) score array of a column dict."""
    return np.stack([columns[f"score_{p}"] for p in range(PLAYERS)], axis=1)


@dataclass(frozen=True)
class Study:
    """Everything that decides a run's results: rules, per-seat policies and seed."""

    options: Euchre5Options
    policies: tuple[str, ...]
    seed: int
    search_worlds: int = search_play.DEFAULT_WORLDS  # worlds per searched decision (policy "search")
    search_rollout: str = "heuristic"  # every seat's policy in the search's rollouts

    @classmethod
    def build(cls, *, options=None, policy="heuristic", seed=0, search_worlds=None, search_rollout=None,
              **rules) -> "Study":
        options = make_options(options, **rules)
        policies = parse_per_seat("policy", policy, PLAYERS, search_play.POLICY_NAMES)
        return cls(options, policies, check_seed(seed),
                   *search_play.check_search_options(policies, search_worlds, search_rollout))

    @cached_property
    def rules(self) -> np.ndarray:
        return kernel_rules(self.options)

    @cached_property
    def policy_ids(self) -> np.ndarray:
        return np.array([search_play.POLICY_NAMES.index(p) for p in self.policies], np.int64)

    @property
    def searching(self) -> bool:
        return search_play.uses_search(self.policies)

    def play(self, first: int, count: int, *, record: bool = False) -> dict:
        """Play hands ``first .. first+count-1``; returns columns (and the dealt cards and logs when ``record``)."""
        if self.searching:  # search seats: sim.euchre5.search_play
            return search_play.search_columns(self, first, count, record=record)
        out = np.empty((N_RES, count), np.int8)
        rows = count if record else 0
        hands = np.zeros((rows, PLAYERS), np.uint64)
        kitty = np.zeros((rows, KITTY), np.int8)
        moves = np.zeros((rows, MAX_ACTIONS, 3), np.int8)
        play_deals_nb(self.seed, first, count, self.rules, self.policy_ids, out, hands, kitty, moves)
        columns = {"deal": np.arange(first, first + count, dtype=np.int64), **result_columns(out)}
        if record:
            columns.update(hands=hands, kitty=kitty, moves=moves)
        return columns

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        """Play whole games ``first .. first+count-1``; one row per hand (and the logs when ``record``)."""
        if self.searching:
            return search_play.search_game_columns(self, first, count, record=record)
        m = self.options.max_hands
        slot = m if record else min(m, GAME_SLOT)
        slots = np.empty((count, slot, N_RES), np.int8)
        lengths = np.empty(count, np.int64)
        rows = count if record else 0
        hands = np.zeros((rows, m, PLAYERS), np.uint64)
        kitty = np.zeros((rows, m, KITTY), np.int8)
        moves = np.zeros((rows, m, MAX_ACTIONS, 3), np.int8)
        play_games_nb(self.seed, first, count, self.rules, self.policy_ids, slots, lengths, hands, kitty, moves)
        offsets = np.zeros(count, np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        n_rows = int(lengths.sum())
        out = np.empty((N_RES, n_rows), np.int8)
        game = np.empty(n_rows, np.int64)
        deal = np.empty(n_rows, np.int16)
        compact_game_rows_nb(slots, lengths, offsets, first, out, game, deal)
        for j in np.flatnonzero(lengths > slot):  # rare long games: replayed alone from (seed, game)
            one = np.empty((1, m, N_RES), np.int8)
            play_games_nb(self.seed, first + j, 1, self.rules, self.policy_ids, one, lengths[j:j + 1], hands[:0],
                          kitty[:0], moves[:0])
            out[:, offsets[j]:offsets[j] + lengths[j]] = one[0, :lengths[j]].T
        columns = {"game": game, "deal": deal, **result_columns(out)}
        if record:
            keep = np.arange(m)[None, :] < lengths[:, None]
            columns.update(hands=hands[keep], kitty=kitty[keep], moves=moves[keep])
        return columns

    def metadata(self, unit: str = "deal") -> dict:
        meta = {"game": "euchre5", "options": self.options.to_dict(), "policies": list(self.policies),
                "seed": self.seed}
        if self.searching:
            meta.update(search_worlds=self.search_worlds, search_rollout=self.search_rollout)
        return {**meta, "unit": unit} if unit != "deal" else meta


def simulate(*, deals: int, seed: int = 0, policy="heuristic", options: Euchre5Options | None = None,
             threads: int | None = None, first_deal: int = 0, chunk_size: int = runner.DEFAULT_CHUNK,
             progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play ``deals`` independent hands of Euchre for five; one row per hand (or Parquet ``out``).

    Hand ``i`` is dealt by seat ``i % 5`` from the stream of (seed, i). Columns: ``deal``,
    ``dealer``, ``maker`` (-1 when nobody made trump), ``trump`` (0-3 = ♣♦♥♠, -1), ``round``
    (1, 2; 0 none), ``alone`` (0 partnered, 1 by choice, 2 forced), ``partner`` (seat or -1),
    ``maker_tricks``, ``called`` (card id or -1) and ``score_0`` … ``score_4`` (points each seat
    gains). ``policy`` is one name or one per seat; rule options are keywords (``call_rule``,
    ``lone_march_points`` …) or a :class:`Euchre5Options`. Identical for any threads and chunks.

    >>> df = simulate(deals=1000, seed=7)
    >>> sorted(df.alone.unique().tolist()), int(df.maker_tricks.max())
    ([0, 1, 2], 5)
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata())


def simulate_games(*, games: int, seed: int = 0, policy="heuristic", options: Euchre5Options | None = None,
                   threads: int | None = None, first_game: int = 0, chunk_size: int = runner.DEFAULT_GAME_CHUNK,
                   progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play ``games`` whole games to the target; one row per hand with ``game`` and ``deal`` (the hand's
    index within its game) before the columns of :func:`simulate`. Game ``g``'s first dealer and
    every deal come from the stream of (seed, g). ``cardlab.analysis.euchre5`` reports the winners.

    >>> df = simulate_games(games=200, seed=1)
    >>> bool((df.groupby("game")[[f"score_{p}" for p in range(5)]].sum().max(axis=1) >= 10).all())
    True
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play_games, deals=games, first_deal=first_game,
                      chunk_size=chunk_size, progress=progress, out=out, meta=study.metadata("game"), unit="game")


# ---------------------------------------------------------------- replay and checks


def check_rows(options: Euchre5Options, columns: dict) -> list:
    """Referee every recorded hand of ``columns`` (from ``play(record=True)``) and compare with the
    kernel's row; returns the referee's :class:`~cardlab.sim.euchre5.referee.Hand` list."""
    from cardlab.sim.euchre5.referee import RefereeError, check_hand, decode_log

    out = []
    for j in range(len(columns["dealer"])):
        hand = check_hand(options, int(columns["dealer"][j]), [int(h) for h in columns["hands"][j]],
                          columns["kitty"][j].tolist(), decode_log(columns["moves"][j]))
        mine = hand.row()
        kernel = {k: int(columns[k][j]) for k in COLUMNS}
        kernel.update({f"score_{p}": int(columns[f"score_{p}"][j]) for p in range(PLAYERS)})
        if mine != kernel:
            where = f"game {columns['game'][j]} hand {columns['deal'][j]}" if "game" in columns else \
                f"deal {columns['deal'][j]}"
            raise RefereeError(f"{where}: kernel gave {kernel}, the rules give {mine}")
        out.append(hand)
    return out


def parse_range(deal, option: str = "deal") -> range:
    """``5``, ``'5'`` or ``'a:b'`` (a to b-1) as a range of indices."""
    text = str(deal)
    try:
        if ":" in text:
            a, b = (int(v) for v in text.split(":"))
        else:
            a = int(text)
            b = a + 1
    except ValueError:
        raise ValueError(f"{option}: {deal!r} is not allowed; give an index such as 12 or a range a:b") from None
    if a < 0:
        raise ValueError(f"{option}: {deal!r} is not allowed; give an index >= 0 or a range a:b with a < b")
    if b <= a:
        raise ValueError(f"{option}: {deal!r} is an empty range; give a:b with a < b (b is not included)")
    return range(a, b)


class Replay(NamedTuple):
    """Hands replayed alone and checked by the referee."""

    hands: list  # referee Hand objects
    records: list  # one JSON-ready dict per hand
    text: str  # the bidding, the exchange, the call and every trick, readable cards

    @property
    def json(self) -> str:
        """One JSON object per hand (JSON lines)."""
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in self.records)


def replay(*, deal, seed: int = 0, policy="heuristic", options: Euchre5Options | None = None, **rules) -> Replay:
    """Replay hand ``deal`` (an index, or ``'a:b'`` for a range) of a run of :func:`simulate` alone;
    the referee checks every action and the score.

    >>> r = replay(deal=3, seed=7)
    >>> r.text.splitlines()[0].startswith("deal 3: dealer seat 3"), len(r.records)
    (True, 1)
    """
    from cardlab.sim.euchre5.referee import describe_hand, hand_record

    deals = parse_range(deal)
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    cols = study.play(deals.start, len(deals), record=True)
    hands = check_rows(study.options, cols)
    text = "\n\n".join(f"deal {i}: " + describe_hand(h) for i, h in zip(deals, hands))
    records = [hand_record(h, i) for i, h in zip(deals, hands)]
    if "search_means" in cols:  # searched decisions: each candidate's mean
        text = "\n\n".join(f"deal {i}: " + describe_hand(h) + search_play.describe_searches(m, s)
                           for i, h, m, s in zip(deals, hands, cols["moves"], cols["search_means"]))
        records = [dict(r, searches=search_play.search_records(m, s))
                   for r, m, s in zip(records, cols["moves"], cols["search_means"])]
    return Replay(hands, records, text)


def replay_game(*, game: int, seed: int = 0, policy="heuristic", options: Euchre5Options | None = None,
                **rules) -> Replay:
    """Replay whole game ``game`` of a run of :func:`simulate_games`: every hand checked, then the
    game's end and winners under the tie rule.

    >>> r = replay_game(game=0, seed=1)
    >>> "winner" in r.text.splitlines()[-1]
    True
    """
    from cardlab.sim.euchre5.referee import check_game, describe_hand, hand_record

    game = runner.check_positive_int("game", game, minimum=0)
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    cols = study.play_games(game, 1, record=True)
    hands = check_rows(study.options, cols)
    verdict = check_game(study.options, hands[0].dealer, hands)
    lines = [f"game {game} (seed {seed}), {len(hands)} hands, target {study.options.target}"]
    totals = [0] * PLAYERS
    for h, hand in enumerate(hands):
        totals = [a + b for a, b in zip(totals, hand.scores)]
        lines.append(f"\n=== hand {h + 1}: " + describe_hand(hand)
                     + (search_play.describe_searches(cols["moves"][h], cols["search_means"][h])
                        if "search_means" in cols else ""))
        lines.append("totals: " + "  ".join(f"seat {p}: {t}" for p, t in enumerate(totals)))
    winners = [f"seat {p}" + (f" ({c:.2f})" if c < 1 else "") for p, c in enumerate(verdict["credit"]) if c > 0]
    lines.append(f"\nwinner{'s' if len(winners) > 1 else ''}: {', '.join(winners)} ({study.options.tie_rule} ties)")
    records = [dict(hand_record(hand, h), game=game) for h, hand in enumerate(hands)]
    if "search_means" in cols:
        records = [dict(r, searches=search_play.search_records(cols["moves"][h], cols["search_means"][h]))
                   for h, r in enumerate(records)]
    return Replay(hands, records, "\n".join(lines))
