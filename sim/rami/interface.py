"""Rami through the game interface: its study (rounds, whole games, the ladder's tables), its replay
and its own study; the facade, command line, ladder and options study are :mod:`cardlab.sim.game`'s.

Round ``i`` is dealt by seat ``i % players`` from the stream ``(seed, i)``. Columns of a round:
``deal``, ``dealer``, ``turns``, ``blocked``, ``rami_sec`` and per seat ``won_i``, ``opened_i``,
``hand_value_i`` (H, the hand value left) and ``score_i`` (the round score). Whole games add
``game``, ``round`` and ``total_i`` (the running totals) and drop ``deal``.

>>> df = RAMI.simulate(deals=200, seed=1, players=3)
>>> won = df[["won_0", "won_1", "won_2"]].to_numpy()
>>> bool((df[["score_0", "score_1", "score_2"]].to_numpy()[won] == 0).all())
True
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.sim import runner
from cardlab.sim.columns import GAME, Column
from cardlab.sim.game import Figure, Game, Study, StudyKind
from cardlab.sim.ladder import LoneSeat, by_table
from cardlab.sim.options import Scope
from cardlab.sim.rami.rules import RamiOptions, card_name
from cardlab.sim.policy import POLICY
from cardlab.sim.signatures import numba_decision, numba_seat

GAME_BLOCK = 512  # whole games per kernel call (rows are allocated for MAX_ROUNDS rounds per game)


def round_columns(deal, *arrays) -> dict:
    """The documented columns of a round's kernel arrays (``dealer``, ``turns``, ``blocked``, ``rami_sec``, then per
    seat ``won``, ``opened``, ``hand_value``, ``score``): each under its declared name and type (``_ROUND``, in
    order), a seat column's array (rounds x seats) expanded to ``won_0`` … one column per seat."""
    cols = {"deal": deal}
    for col, arr in zip(_ROUND, arrays):
        seats = {col.name.format(seat=p): arr[:, p] for p in range(arr.shape[1])} if arr.ndim == 2 else {col.name: arr}
        cols.update({name: a.astype(col.dtype) for name, a in seats.items()})
    return cols


def _log_columns(logs, searches) -> dict:
    """A recorded run's extra columns: ``logs``, ``log_rows``, ``decks`` (and ``search_means``, ``search_rows``)."""
    cols = dict(zip(("logs", "log_rows", "decks"), logs))
    if searches is not None:
        cols.update(zip(("search_means", "search_rows"), searches))
    return cols


@dataclass(frozen=True)
class RamiStudy(LoneSeat, Study):
    """Rami's rules, policies, seed and search settings; plays rounds and whole games. On the strength ladder one
    seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its score (and each table's turns, rami sec and
    blocked rounds)."""

    ladder_extras = {"turns": "turns", "rami_sec": "rami_sec", "blocked": "blocked"}

    def play(self, first: int, count: int, *, record: bool = False) -> dict:
        """Rounds ``first .. first+count-1`` as columns (with ``logs``, ``log_rows``, ``decks`` when ``record``;
        with search seats also ``search_means``, ``search_rows``)."""
        return self.play_rounds(np.arange(first, first + count, dtype=np.int64), record=record)

    def play_rounds(self, deals: np.ndarray, *, record: bool = False, policies=None, searched: bool = False) -> dict:
        """Rounds ``deals``, each seat's policy from ``policies`` (kernel ids) or the study's. The search kernel
        plays tables with a search seat, and any table with ``searched`` (any round numbers); the plain kernel
        (consecutive rounds) the others: both give the same rounds."""
        from cardlab.sim.rami.kernels import play_rounds_nb, round_buffers
        from cardlab.sim.rami.search_play import search_rounds

        pols = self.policy_ids if policies is None else np.asarray(policies, np.int64)
        if searched or np.isin(pols, (POLICY.SEARCH, POLICY.ORACLE)).any():
            ints, seats, logs, searches = search_rounds(self, deals, record=record, policies=pols)
        else:
            ints, seats, logs = round_buffers(len(deals), self.options.players, record=record)
            searches, first = None, int(deals[0]) if len(deals) else 0
            self.call_kernel(play_rounds_nb, self.seed, first, len(deals), self.rules, pols, *ints,
                             *seats, *logs, self.user_callbacks(), first=first, count=len(deals), unit="round")
        cols = round_columns(deals, *ints, *seats)
        if record:
            cols.update(_log_columns(logs, searches))
        return cols

    def play_games(self, first: int, count: int) -> dict:
        """Whole games ``first .. first+count-1``: one row per round (``game``, ``round``, ... ``total_i``)."""
        parts = [self._games_block(g, min(GAME_BLOCK, first + count - g))
                 for g in range(first, first + count, GAME_BLOCK)]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    def _games_block(self, first, count, *, record: bool = False):
        """Games ``first .. first+count-1`` in one kernel call; ``record`` adds each round's log, deck (and
        searched candidates) as :meth:`play_rounds` does."""
        from cardlab.sim.rami.kernels import MAX_ROUNDS, play_games_nb, round_buffers
        from cardlab.sim.rami.search_play import search_games
        from cardlab.sim.whole_games import game_slots, seat_totals

        n = self.options.players
        if self.searching:
            rounds, ints, seats, logs, searches = search_games(self, first, count, MAX_ROUNDS, record=record)
        else:
            ints, seats, logs = round_buffers(count * MAX_ROUNDS, n, record=record, totals=True)
            rounds, searches = np.zeros(count, np.int64), None
            self.call_kernel(play_games_nb, self.seed, first, count, self.rules, self.policy_ids,
                             MAX_ROUNDS, rounds, *ints, *seats, *logs, self.user_callbacks(), first=first, count=count,
                             unit="game")
        if (rounds > MAX_ROUNDS).any():
            raise RuntimeError(f"a game lasted more than {MAX_ROUNDS} rounds")
        keep, game, round_ = game_slots(first, rounds, MAX_ROUNDS, np.int64)
        keep = keep.ravel()  # the buffers hold a row per game and round slot
        cols = {"game": game, "round": round_}
        cols.update(round_columns(None, *(a[keep] for a in ints), *(a[keep] for a in seats[:4])))
        del cols["deal"]
        cols.update(seat_totals(seats[4][keep]))
        if record:
            cols.update(_log_columns([a[keep] for a in logs], searches and [a[keep] for a in searches]))
        return cols

    # ---------------------------------------------------------------- the strength ladder's hooks

    def play_tables(self, deals, policies) -> dict:
        return by_table(deals, policies, lambda d, row: self.play_rounds(d, policies=row, searched=True))

    def state_tables(self, states: list) -> dict:
        """:meth:`play_tables`' columns of finished step-API states (the ladder's tables with a Python seat)."""
        return self.game.state_columns(states)


# ---------------------------------------------------------------- replay


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


def replay_round(study: RamiStudy, deal: int) -> tuple[str, dict]:
    """Round ``deal`` replayed alone and checked by the referee: its text and JSON record."""
    return checked_round(study, study.play(deal, 1, record=True), 0, f"round {deal}",
                         {"game": "rami", "seed": study.seed, "deal": deal})


def replay_game(study: RamiStudy, game: int) -> tuple[str, list[dict]]:
    """Whole game ``game`` replayed round by round, each round checked by the referee, and the running totals
    and the end of the game checked by the rules (a game ends once a seat reaches the target with one seat
    alone lowest): its text and one record per round (``game``, ``round``, the round's keys, ``totals``)."""
    from cardlab.sim.rami.kernels import game_over_nb
    from cardlab.sim.rami.referee import RefereeError

    cols = study._games_block(game, 1, record=True)
    n, texts, records = study.options.players, [], []
    totals = np.zeros(n, np.int64)
    for r in range(len(cols["round"])):
        text, record = checked_round(study, cols, r, f"game {game}, round {r}", {"game": game, "round": r})
        totals += record["result"]["score"]
        if [int(cols[f"total_{p}"][r]) for p in range(n)] != totals.tolist():
            raise RefereeError(f"game {game}, round {r}: the kernel's totals differ from the rounds' scores")
        over = bool(game_over_nb(totals, study.options.target))
        if over != (r == len(cols["round"]) - 1):
            raise RefereeError(f"game {game}, round {r}: the game {'ends' if over else 'goes on'} by the rules")
        record["totals"] = totals.tolist()
        texts.append(f"{text}\ntotals after round {r}: {', '.join(str(t) for t in totals)}")
        records.append(record)
    head = f"game {game}: {len(records)} rounds, {n} players, final totals {', '.join(str(t) for t in totals)}"
    return "\n\n".join([head] + texts), records


def checked_round(study: RamiStudy, cols: dict, i: int, title: str, keys: dict) -> tuple[str, dict]:
    """Recorded round ``i`` of ``cols`` played through the state by the referee (every move checked, then the
    result against the kernel's, :meth:`~cardlab.sim.game.Game.check_state`): its text headed ``title`` and the
    state's record, which begins with ``keys``."""
    from cardlab.sim.rami.referee import RefereeError, dealt_state, play_log
    from cardlab.sim.rami.search_play import describe_searches, search_records

    log = cols["logs"][i][: cols["log_rows"][i]]
    dealer = int(cols["dealer"][i])
    state = dealt_state(study.options, dealer, cols["decks"][i], log, study=study, deal=keys.get("deal", 0), keys=keys)
    lines = play_log(state, log, describe=True)
    RAMI.check_state(state, cols, i, title, RefereeError)
    head = f"{title}: dealer seat {dealer}, {study.options.players} players"
    record = state.record()
    text = "\n".join([head] + lines)
    if "search_means" in cols:  # searched decisions: each candidate's mean (sim.rami.search_play)
        searches = search_records(cols["search_means"][i][: cols["search_rows"][i]])
        record.update(search_worlds=study.search_worlds, search_rollout=study.search_rollout, searches=searches)
        text += describe_searches(searches, _chosen(log))
    return text, record


def dealt_round(study: RamiStudy, stream, dealer: int, deal: int, keys: dict):
    """The round the kernel deals from ``stream`` (its deck shuffled by
    :func:`~cardlab.sim.rami.kernels.shuffled_deck_nb`), dealt by ``dealer``, as a state holding the stream after
    the shuffle; its record begins with ``keys``."""
    from cardlab.sim.rami.kernels import DECK_MAX, shuffled_deck_nb
    from cardlab.sim.rami.state import RamiState
    from cardlab.sim.state import as_stream

    o = study.options
    deck = np.zeros(DECK_MAX, np.int64)
    stream = shuffled_deck_nb(np.uint64(stream), deck, o.deck_size)
    state = RamiState(o, dealer, deck[:o.deck_size].tolist(), study=study, deal=deal, keys=keys)
    state.stream = as_stream(stream)
    return state


# ---------------------------------------------------------------- Rami's own study


THRESHOLD_VARIANTS = {"t30": dict(open_threshold=30), "t40": dict(open_threshold=40), "t51": dict(open_threshold=51)}


def threshold_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int = 1 << 14,
                    progress: bool = False, out=None, **keywords):
    """Every round played with the opening threshold at 30, 40 and 51 (the same shuffle each time); one row
    per round: ``deal``, ``dealer`` and per variant ``v``: ``turns_v``, ``blocked_v``, ``rami_sec_v``,
    ``never_opened_v`` (losers who never opened), ``score_v_i`` per seat."""
    base = game.build("deals", study_name="threshold", **keywords)
    variants = {name: base.with_options(**change) for name, change in THRESHOLD_VARIANTS.items()}
    n = base.options.players

    def play_chunk(first, count):
        cols = {}
        for name, study in variants.items():
            c = study.play(first, count)
            if not cols:
                cols = {"deal": c["deal"], "dealer": c["dealer"]}
            cols[f"turns_{name}"] = c["turns"]
            cols[f"blocked_{name}"] = c["blocked"]
            cols[f"rami_sec_{name}"] = c["rami_sec"]
            cols[f"never_opened_{name}"] = sum((~c[f"opened_{p}"] & ~c[f"won_{p}"]).astype(np.int8)
                                               for p in range(n)).astype(np.int8)
            for p in range(n):
                cols[f"score_{name}_{p}"] = c[f"score_{p}"]
        return cols

    return runner.run_study(play_chunk, {**base.metadata(), "study": "threshold", "variants": THRESHOLD_VARIANTS},
                            deals=deals, threads=threads, first_deal=first_deal, chunk_size=chunk_size,
                            progress=progress, out=out)


def threshold_metadata(game, **keywords) -> dict:
    return {**game.build("deals", study_name="threshold", **keywords).metadata(), "study": "threshold",
            "variants": THRESHOLD_VARIANTS}


_ROUND = (Column("dealer", "int8", "the dealing seat (round i: seat i % players; in games the deal passes on)"),
          Column("turns", "int16", "turns played"),
          Column("blocked", "bool", "the round ended with nobody out (the stock ran out)"),
          Column("rami_sec", "bool", "the winner opened and went out in one turn while no opponent had opened (each opponent pays rami_sec_penalty)"),
          Column("won_{seat}", "bool", "the seat went out"),
          Column("opened_{seat}", "bool", "the seat opened"),
          Column("hand_value_{seat}", "int16", "H, the cards left in hand at their values (options: joker 20, ace 11 by default)"),
          Column("score_{seat}", "int16", "the round's score (lower is better)"))
SCHEMA = {"deals": (Column("deal", "int64", "the round's number (its stream is (seed, deal))"),) + _ROUND,
          "games": (GAME, Column("round", "int64", "the round within the game, from 0")) + _ROUND
          + (Column("total_{seat}", "int16", "the seat's running total after the round"),)}


#: A Rami seat played by a Numba player: its discards, and its draws and melds where the player makes them (its
#: lay-offs and joker retrievals are the heuristic's). A card kind is ``13 * suit + rank - 1`` (rank 1 ace .. 13
#: king; suits ♣ ♦ ♥ ♠), the joker 52; a hand is its 53 counts (twins: 2).
NUMBA_SEAT = numba_seat(
    "the discard",
    "discard(hand: int64[53] (counts by kind), forbidden: int64 (the discard taken this turn, which may not go "
    "back; -1 none), opened: bool, opponent_close: bool (an opened opponent holds 3 cards or fewer), values: "
    "int64[53] (each kind's penalty points)) -> int64 (a kind held, not forbidden)",
    key="discard", extras=(
        numba_decision("draw", "the draw", "draw(hand: int64[53], top: int64 (the discard on offer), usable: bool "
                       "(it can go to the table this turn), opened: bool, opponent_close: bool, values: int64[53]) -> "
                       "int64 (1 take the discard, 0 draw from the stock, -1 the heuristic's draw)"),
        numba_decision("meld", "the melds", "meld(hand: int64[53], opening: bool (the melds found would open: all or "
                       "none), nobody_opened: bool (no opponent has opened), stock_left: int64, opponent_close: bool, "
                       "values: int64[53]) -> int64 (1 lay the melds found down, 0 hold them, -1 the heuristic's "
                       "choice)")))


class Rami(Game):
    """Rami (French rami 51, scored the Catalan way): 2 to 6 players, two packs and jokers."""

    name, title, unit = "rami", "Rami", "round"
    Options, Study, kernel_rules = RamiOptions, RamiStudy, staticmethod(RamiOptions.kernel_ints)
    oracle = True  # the search over the true hands and stock (search.search_nb)
    search_beside_python = True  # the state plays a search seat's turn by the searched kernel (state_policies)
    numba_seat = NUMBA_SEAT
    deal_chunk, game_chunk, ladder_chunk = 1 << 16, 1 << 13, 64
    study_deals = {"strength": 200}  # searched rounds are slow
    variant_figures = ("turns", "blocked", "rami_sec", "score_*")
    balance_figures = {"dealer_edge": Figure("dealer_edge", "the dealer's score minus the mean of the others' (lower "
                                                            "is better)")}  # study balance --target
    columns = SCHEMA
    studies = {"threshold": StudyKind("every round played with the opening threshold at 30, 40 and 51",
                                      threshold_study, threshold_metadata)}

    def scope(self) -> dict:
        return {**super().scope(),
                "open_threshold": Scope(lambda c: c["study"] != "threshold", "everywhere but the threshold study, "
                                                                              "which sets it itself")}

    replayed_deal, replayed_game = staticmethod(replay_round), staticmethod(replay_game)

    def new_state(self, study, deal: int):
        """Round ``deal`` of ``study`` as a :class:`~cardlab.sim.rami.state.RamiState`: dealt by seat ``deal %
        players`` from the deck as the kernel shuffles it (:func:`~cardlab.sim.rami.kernels.shuffled_deck_nb` on the
        stream ``(seed, deal)``), holding the stream after the shuffle (a recycled stock and the random seats draw
        from it)."""
        from cardlab.sim.rng import deal_state

        return dealt_round(study, deal_state(study.seed, deal), deal % study.options.players, deal,
                           {"game": "rami", "seed": study.seed, "deal": deal})

    def next_deal(self, study, index: int, finished: list):
        """A game's rounds are dealt from one stream, ``(seed, game)``: its first draw picks the first dealer, then
        each round carries the stream on, the deal passing on, until a seat reaches the target with one seat alone
        lowest (:func:`~cardlab.sim.rami.kernels.game_over_nb`, as the kernels and ``replay_game`` end it). A
        search seat's streams are keyed by the game and the round's number in it, as ``play_search_games_nb``
        keys them."""
        from cardlab.sim.rami.kernels import MAX_ROUNDS, game_over_nb
        from cardlab.sim.rng import below_n, deal_state
        from cardlab.sim.whole_games import game_totals

        n, r = study.options.players, len(finished)
        if not finished:
            stream, dealer = below_n(np.uint64(deal_state(study.seed, index)), n)
        elif game_over_nb(np.array(game_totals(finished), np.int64), study.options.target):
            return None
        elif r == MAX_ROUNDS:
            raise RuntimeError(f"a game lasted more than {MAX_ROUNDS} rounds")
        else:
            stream, dealer = finished[-1].stream, (finished[-1].dealer + 1) % n
        state = dealt_round(study, stream, int(dealer), r, {"game": index, "round": r})
        state.search_key = (index, r)
        return state

    def game_state_columns(self, games: list) -> dict:
        """One row per round (``game``, ``round``, the round's columns, then each seat's running ``total_i``)."""
        cols = super().game_state_columns(games)  # a round's number within its game is its deal's
        return {"game": cols.pop("game"), "round": cols.pop("deal").astype(np.int64), **cols}

    def state_columns(self, states: list) -> dict:
        """The round rows (the kernel's columns and types) of finished states: a run with a Python seat."""
        results = [s.result() for s in states]
        ints = [np.array([r[k] for r in results], np.int64) for k in ("turns", "blocked", "rami_sec")]
        seats = [np.array([r[k] for r in results], np.int64).reshape(len(states), -1)
                 for k in ("won", "opened", "hand_value", "score")]
        return round_columns(np.array([s.deal for s in states], np.int64), np.array([s.dealer for s in states]),
                             *ints, *seats)


RAMI = Rami()
RamiStudy.game = RAMI
