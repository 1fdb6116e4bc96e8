"""Python facade for Rami: validate, call the kernels in chunks, return DataFrames, replay rounds."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from cardlab.sim import runner
from cardlab.sim.options import parse_per_seat, with_rules
from cardlab.sim.rami.kernels import DECK_MAX, EVENT_NAMES, LOG_ROWS, LOG_W, MAX_ROUNDS, play_games_nb, play_rounds_nb
from cardlab.sim.rami.policies import POLICY_NAMES
from cardlab.sim.rami.rules import RamiOptions, card_name
from cardlab.sim.rami.search_play import (DEFAULT_WORLDS, check_search_options, describe_searches, search_games,
                                          search_records, search_rounds, uses_search)
from cardlab.sim.rng import check_seed

if TYPE_CHECKING:
    import pandas as pd  # the facades return frames, but a command writing a file never loads pandas

DEFAULT_CHUNK = 1 << 16  # rounds per chunk
GAME_BLOCK = 512  # whole games per kernel call (rows are allocated for MAX_ROUNDS rounds per game)
SEAT_POLICIES = POLICY_NAMES + ("search",)  # search: sim.rami.search (kernel id 2)


def make_options(options: RamiOptions | None = None, **rules) -> RamiOptions:
    """``options`` updated with keyword rule options; unknown names raise a clear ``ValueError``."""
    return with_rules(options or RamiOptions(), "Rami", rules)


@dataclass(frozen=True)
class Study:
    """Everything that decides a run's results: rules, policies, seed (and the search's settings)."""

    options: RamiOptions
    policies: tuple[str, ...]
    seed: int
    search_worlds: int = DEFAULT_WORLDS  # worlds sampled per searched decision (policy "search")
    search_rollout: str = "heuristic"  # the policy of every seat in the search's rollouts

    @classmethod
    def build(cls, *, options=None, policy="heuristic", seed=0, search_worlds=None, search_rollout=None,
              **rules) -> "Study":
        options = make_options(options, **rules)
        policies = parse_per_seat("policy", policy, options.players, SEAT_POLICIES)
        return cls(options, policies, check_seed(seed), *check_search_options(policies, search_worlds, search_rollout))

    @property
    def policy_ids(self) -> np.ndarray:
        return np.array([SEAT_POLICIES.index(p) for p in self.policies], np.int64)

    def play(self, first: int, count: int, *, record: bool = False) -> dict:
        """Rounds ``first .. first+count-1`` as columns (with ``logs``, ``log_rows``, ``decks`` when ``record``;
        with search seats also ``search_means``, ``search_rows``)."""
        if uses_search(self.policies):
            ints, seats, logs, log_rows, decks, means, mean_rows = search_rounds(
                self, np.arange(first, first + count, dtype=np.int64), record=record)
            cols = round_columns(np.arange(first, first + count, dtype=np.int64), *ints, *seats)
            if record:
                cols.update(logs=logs, log_rows=log_rows, decks=decks, search_means=means, search_rows=mean_rows)
            return cols
        n = self.options.players
        ints = [np.zeros(count, np.int64) for _ in range(4)]
        seats = [np.zeros((count, n), np.int64) for _ in range(4)]
        rows = count if record else 0
        logs = np.zeros((rows, LOG_ROWS, LOG_W), np.int64)
        log_rows = np.zeros(rows, np.int64)
        decks = np.zeros((rows, DECK_MAX), np.int64)
        play_rounds_nb(self.seed, first, count, self.options.kernel_ints(), self.policy_ids, *ints, *seats, logs,
                       log_rows, decks)
        cols = round_columns(np.arange(first, first + count, dtype=np.int64), *ints, *seats)
        if record:
            cols.update(logs=logs, log_rows=log_rows, decks=decks)
        return cols

    def play_games(self, first: int, count: int) -> dict:
        """Whole games ``first .. first+count-1``: one row per round (``game``, ``round``, ... ``total_i``)."""
        parts = [self._games_block(g, min(GAME_BLOCK, first + count - g)) for g in range(first, first + count,
                                                                                         GAME_BLOCK)]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    def _games_block(self, first, count):
        n = self.options.players
        if uses_search(self.policies):
            rounds, ints, seats = search_games(self, first, count, MAX_ROUNDS)
        else:
            rows = count * MAX_ROUNDS
            rounds = np.zeros(count, np.int64)
            ints = [np.zeros(rows, np.int64) for _ in range(4)]
            seats = [np.zeros((rows, n), np.int64) for _ in range(5)]
            play_games_nb(self.seed, first, count, self.options.kernel_ints(), self.policy_ids, MAX_ROUNDS, rounds,
                          *ints, *seats)
        if (rounds > MAX_ROUNDS).any():
            raise RuntimeError(f"a game lasted more than {MAX_ROUNDS} rounds")
        keep = (np.arange(MAX_ROUNDS)[None, :] < rounds[:, None]).ravel()
        game = np.repeat(np.arange(first, first + count, dtype=np.int64), MAX_ROUNDS)[keep]
        rnd = np.tile(np.arange(MAX_ROUNDS, dtype=np.int64), count)[keep]
        cols = {"game": game, "round": rnd}
        cols.update(round_columns(None, *(a[keep] for a in ints), *(a[keep] for a in seats[:4])))
        del cols["deal"]
        total = seats[4][keep]
        for p in range(n):
            cols[f"total_{p}"] = total[:, p].astype(np.int16)
        return cols

    def metadata(self) -> dict:
        meta = {"game": "rami", "options": self.options.to_dict(), "policies": list(self.policies), "seed": self.seed}
        if uses_search(self.policies):
            meta.update(search_worlds=self.search_worlds, search_rollout=self.search_rollout)
        return meta


def round_columns(deal, dealer, turns, blocked, rami_sec, won, opened, hand_value, score) -> dict:
    """The documented columns, seat columns expanded: won_i, opened_i, hand_value_i, score_i."""
    cols = {"deal": deal, "dealer": dealer.astype(np.int8), "turns": turns.astype(np.int16),
            "blocked": blocked.astype(bool), "rami_sec": rami_sec.astype(bool)}
    n = won.shape[1]
    for name, arr, dtype in (("won", won, bool), ("opened", opened, bool), ("hand_value", hand_value, np.int16),
                             ("score", score, np.int16)):
        for p in range(n):
            cols[f"{name}_{p}"] = arr[:, p].astype(dtype)
    return cols


def simulate(*, deals: int, seed: int = 0, policy="heuristic", options: RamiOptions | None = None,
             threads: int | None = None, first_deal: int = 0, chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
             out=None, **rules) -> pd.DataFrame | None:
    """Play ``deals`` independent Rami rounds; one row per round (or written to Parquet ``out``).

    Round ``i`` is dealt by seat ``i % players`` from the stream ``(seed, i)``. Columns: ``deal``,
    ``dealer``, ``turns``, ``blocked``, ``rami_sec`` and per seat ``won_i``, ``opened_i``,
    ``hand_value_i`` (H, the hand value left) and ``score_i`` (the round score). Rule options are
    keywords or a :class:`RamiOptions`. Identical for any ``threads`` and ``chunk_size``.

    >>> df = simulate(deals=200, seed=1, players=3)
    >>> won = df[["won_0", "won_1", "won_2"]].to_numpy()
    >>> bool((df[["score_0", "score_1", "score_2"]].to_numpy()[won] == 0).all())
    True
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata())


def simulate_games(*, games: int, seed: int = 0, policy="heuristic", options: RamiOptions | None = None,
                   threads: int | None = None, first_game: int = 0, chunk_size: int = 1 << 13,
                   progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play ``games`` whole games to the target (100 per opponent); one row per round.

    Columns: ``game``, ``round`` and the round columns of :func:`simulate` (without ``deal``),
    plus ``total_i`` (cumulative scores). Game ``g`` uses the stream ``(seed, g)``; its first
    dealer is drawn from it, then the deal passes clockwise. A game ends after the round where a
    total reaches the target and one player alone has the lowest total.

    >>> df = simulate_games(games=20, seed=3, players=2)
    >>> int(df.groupby("game")["round"].max().min()) >= 0
    True
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play_games, deals=games, first_deal=first_game, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata(), unit="game")


class RoundReplay(NamedTuple):
    """One round replayed alone and checked by the referee."""

    result: dict
    text: str
    record: dict  # JSON-ready: options, seed, deal, dealer, deck, events, result


def replay(*, deal: int, seed: int = 0, policy="heuristic", options: RamiOptions | None = None, **rules) -> RoundReplay:
    """Replay round ``deal`` of a run alone; the referee checks every move and the scores.

    With ``search`` seats (``search_worlds``, ``search_rollout`` as keywords) the text ends with
    each searched decision's candidates and their means, and the record has ``searches``.

    >>> print(replay(deal=0, seed=7).text.splitlines()[0])
    round 0: dealer seat 0, 4 players
    """
    from cardlab.sim.rami.referee import RefereeError, check_round

    deal = runner.check_positive_int("deal", deal, minimum=0)
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    cols = study.play(deal, 1, record=True)
    log = cols["logs"][0][: cols["log_rows"][0]]
    dealer = int(cols["dealer"][0])
    result, lines = check_round(study.options, dealer, cols["decks"][0], log, describe=True)
    kernel = kernel_result(cols, 0, study.options.players)
    if result != kernel:
        raise RefereeError(f"round {deal}: the kernel gives {kernel}, the rules give {result}")
    head = f"round {deal}: dealer seat {dealer}, {study.options.players} players"
    events = [{"event": EVENT_NAMES[int(r[0])], "seat": int(r[1]), "args": [int(v) for v in r[2:7]]} for r in log]
    for e, r in zip(events, log):
        if e["event"] in ("draw", "take", "discard"):
            e["card"] = card_name(int(r[2]))
    record = {"game": "rami", "seed": study.seed, "deal": deal, "dealer": dealer, "policies": list(study.policies),
              "options": study.options.to_dict(),
              "deck": [card_name(int(k)) for k in cols["decks"][0][: study.options.deck_size]],
              "events": events, "result": result}
    text = "\n".join([head] + lines)
    if "search_means" in cols:  # searched decisions: each candidate's mean (sim.rami.search_play)
        searches = search_records(cols["search_means"][0][: cols["search_rows"][0]])
        record.update(search_worlds=study.search_worlds, search_rollout=study.search_rollout, searches=searches)
        text += describe_searches(searches, _chosen(log))
    return RoundReplay(result, text, record)


def _chosen(log) -> dict:
    """Each turn's draw ('stock' or 'discard pile') and discard (card name), keyed by (turn, phase)."""
    from cardlab.sim.rami.kernels import EV_DISCARD, EV_DRAW, EV_TAKE

    out, turn = {}, 0
    for r in log:
        code = int(r[0])
        if code in (EV_DRAW, EV_TAKE):
            out[(turn, "draw")] = "stock" if code == EV_DRAW else "discard pile"
        elif code == EV_DISCARD:
            out[(turn, "discard")] = card_name(int(r[2]))
            turn += 1
    return out


def replay_json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def kernel_result(cols: dict, i: int, n: int) -> dict:
    """One round's kernel results in the referee's form."""
    return dict(turns=int(cols["turns"][i]), blocked=bool(cols["blocked"][i]), rami_sec=bool(cols["rami_sec"][i]),
                won=[bool(cols[f"won_{p}"][i]) for p in range(n)], opened=[bool(cols[f"opened_{p}"][i]) for p in range(n)],
                hand_value=[int(cols[f"hand_value_{p}"][i]) for p in range(n)],
                score=[int(cols[f"score_{p}"][i]) for p in range(n)])
