"""Rami through the game interface: its study (rounds, whole games, the ladder's tables), its step API's rounds
and its own study; its replays are :mod:`cardlab.sim.rami.records`'. The facade, command line, ladder and options
study are :mod:`cardlab.sim.game`'s.

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

from cardlab.sim.columns import GAME, Column, kernel_columns
from cardlab.sim.game import Figure, Game, Log, Study, StudyKind
from cardlab.sim.ladder import LoneSeat, by_table
from cardlab.sim.rami.records import replay_game, replay_round
from cardlab.sim.rami.rules import RamiOptions
from cardlab.sim.rami.state import dealt_round
from cardlab.sim.signatures import numba_decision, numba_seat

GAME_BLOCK = 512  # whole games per kernel call (rows are allocated for MAX_ROUNDS rounds per game)


def kernel_rows(ints, seats) -> np.ndarray:
    """The round kernels' arrays (``ints``: dealer, turns, blocked, rami_sec; then ``seats``' won, opened, hand_value,
    score, a column per seat; :func:`~cardlab.sim.rami.kernels.round_buffers`) as one row per round, its columns the
    declared round columns in order (:meth:`Rami.row_columns`)."""
    return np.column_stack([*ints, *seats[:4]])


@dataclass(frozen=True)
class RamiStudy(LoneSeat, Study):
    """Rami's rules, policies, seed and search settings; plays rounds and whole games. On the strength ladder one
    seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its score (and each table's turns, rami sec and
    blocked rounds)."""

    ladder_extras = {"turns": "turns", "rami_sec": "rami_sec", "blocked": "blocked"}

    @property
    def logged(self) -> tuple:
        """A recorded round's event log, its length and its deck (and with search seats each searched candidate's
        mean, and their number), sized by the kernels (imported when a run needs them)."""
        from cardlab.sim.rami.kernels import DECK_MAX, LOG_ROWS, LOG_W
        from cardlab.sim.rami.search import MEAN_ROWS, MEAN_W

        return (Log("logs", (LOG_ROWS, LOG_W), np.int64), Log("log_rows", (), np.int64),
                Log("decks", (DECK_MAX,), np.int64),
                Log("search_means", (MEAN_ROWS, MEAN_W), np.float64, searched=True),
                Log("search_rows", (), np.int64, searched=True))

    def raw(self, first: int, count: int, *, record: bool = False) -> tuple:
        """Kernel rows (:func:`kernel_rows`) of rounds ``first .. first+count-1``, then their :meth:`logs` (rows only
        with ``record``)."""
        from cardlab.sim.rami.kernels import play_rounds_nb, round_buffers

        if self.searching:
            return self.searched(np.arange(first, first + count), record=record)
        (ints, seats, _), logs = round_buffers(count, self.options.players), self.logs(count if record else 0)
        self.call_kernel(play_rounds_nb, self.seed, first, count, self.rules, self.policy_ids, *ints, *seats, *logs,
                         self.user_callbacks(), first=first, count=count, unit="round")
        return (kernel_rows(ints, seats), *logs)

    def searched(self, deals, *, record: bool = False, policies=None) -> tuple:
        """:meth:`raw` of the round numbers ``deals`` by the search kernel (``sim.rami.search``), which plays the seats
        without search as the plain kernel does (the same rounds); ``policies``: kernel ids per seat (the study's by
        default)."""
        from cardlab.sim.rami.kernels import round_buffers
        from cardlab.sim.rami.search import SHORTLIST, play_search_rounds_nb

        deals = np.asarray(deals, np.int64)
        (ints, seats, _), logs = round_buffers(len(deals), self.options.players), \
            self.logs(len(deals) if record else 0, searched=True)
        pols = self.policy_ids if policies is None else np.asarray(policies, np.int64)
        self.call_kernel(play_search_rounds_nb, self.seed, deals, self.rules, pols, self.search_worlds,
                         self.rollout_id, SHORTLIST, self.inference_eps(pols), *ints, *seats, *logs,
                         self.user_callbacks(searched=True), first=deals, count=len(deals), unit="round")
        return (kernel_rows(ints, seats), *logs)

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        """Whole games ``first .. first+count-1``: one row per round (``game``, ``round``, the round's columns, then
        each seat's running ``total_i``; with ``record`` its logs as :meth:`raw`), :data:`GAME_BLOCK` games a kernel
        call, which keeps ``MAX_ROUNDS`` rounds a game (a longer game is an error)."""
        from cardlab.sim.rami.kernels import MAX_ROUNDS, play_games_nb, round_buffers
        from cardlab.sim.rami.search import SHORTLIST, play_search_games_nb
        from cardlab.sim.whole_games import seat_totals, slot_rows

        def play(first, count, slot):
            ints, seats, _ = round_buffers(count * slot, self.options.players, totals=True)
            rounds, logs = np.zeros(count, np.int64), self.logs(count * slot if record else 0, searched=self.searching)
            # the search kernel takes its settings (and each seat's inference) after the policies
            kernel, search = (play_search_games_nb, (self.search_worlds, self.rollout_id, SHORTLIST,
                                                     self.inference_eps(self.policy_ids))) \
                if self.searching else (play_games_nb, ())
            self.call_kernel(kernel, self.seed, first, count, self.rules, self.policy_ids, *search, slot, rounds, *ints,
                             *seats, *logs, self.user_callbacks(self.searching), first=first, count=count, unit="game")
            if (rounds > slot).any():
                raise RuntimeError(f"a game lasted more than {slot} rounds")
            return rounds, [a.reshape(count, slot, *a.shape[1:]) for a in (*ints, *seats, *(logs if record else ()))]

        parts = []
        for g in range(first, first + count, GAME_BLOCK):
            game, round_, rows = slot_rows(play, g, min(GAME_BLOCK, first + count - g), MAX_ROUNDS, MAX_ROUNDS)
            parts.append({"game": game, "round": round_.astype(np.int64),
                          **self.game.row_columns(kernel_rows(rows[:4], rows[4:8])), **seat_totals(rows[8]),
                          **self.logs_columns(rows[9:])})
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    # ---------------------------------------------------------------- the strength ladder's hooks

    def play_tables(self, deals, policies) -> dict:
        """Each table (row of seat policies) in one call of the search kernel (:func:`~cardlab.sim.ladder.by_table`)."""
        return by_table(deals, policies, lambda d, row: self.game.row_columns(self.searched(d, policies=row)[0]))


_ROUND = (Column("dealer", "int8", "the dealing seat (round i: seat i % players; in games the deal passes on)"),
          Column("turns", "int16", "turns played"),
          Column("blocked", "bool", "the round ended with nobody out (the stock ran out)"),
          Column("rami_sec", "bool", "the winner opened and went out in one turn while no opponent had opened (each "
                                     "opponent pays rami_sec_penalty)"),
          Column("won_{seat}", "bool", "the seat went out"),
          Column("opened_{seat}", "bool", "the seat opened"),
          Column("hand_value_{seat}", "int16", "H, the cards left in hand at their values (options: joker 20, ace 11 "
                                               "by default)"),
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
    inference = True  # --search-inference: search seats weight their worlds by the others' last draw and discard
    search_beside_python = True  # the state plays a search seat's turn by the searched kernel (state_policies)
    numba_seat = NUMBA_SEAT
    deal_chunk, game_chunk, ladder_chunk = 1 << 16, 1 << 13, 64
    study_deals = {"strength": 200}  # searched rounds are slow
    variant_figures = ("turns", "blocked", "rami_sec", "score_*")
    balance_figures = {"dealer_edge": Figure("dealer_edge", "the dealer's score minus the mean of the others' (lower "
                                                            "is better)")}  # study balance --target
    columns = SCHEMA
    #: Rami's opening-threshold study: the variants study (:mod:`cardlab.sim.variants`) with the threshold at 30, 40
    #: and 51, each on the same rounds (the run's own threshold is the baseline).
    studies = {"threshold": StudyKind.imported("every round played with the opening threshold at 30, 40 and 51 "
                                               "(paired)", "cardlab.sim.variants", "variants_study",
                                               "variants_metadata", vary={"open_threshold": [30, 40, 51]})}

    replayed_deal, replayed_game = staticmethod(replay_round), staticmethod(replay_game)

    def new_state(self, study, deal: int):
        """Round ``deal`` of ``study`` (a :class:`~cardlab.sim.rami.state.RamiState`), dealt by seat ``deal % players``
        from the stream ``(seed, deal)`` as the kernel deals it (:func:`~cardlab.sim.rami.state.dealt_round`)."""
        from cardlab.sim.rng import deal_state

        return dealt_round(study, deal_state(study.seed, deal), deal % study.options.players, deal)

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

    def row_columns(self, rows: np.ndarray) -> dict:
        """Named columns of the kernels' round rows (:func:`kernel_rows`): the declared round columns, one per seat of
        the rows' table (four, then four a seat)."""
        return kernel_columns(rows, _ROUND, {"seat": range((rows.shape[1] - 4) // 4)})

    def state_rows(self, states: list) -> np.ndarray:
        """The kernels' round rows (:func:`kernel_rows`) of finished states, as the referee scores them."""
        return np.array([[s.dealer, r["turns"], r["blocked"], r["rami_sec"], *r["won"], *r["opened"], *r["hand_value"],
                          *r["score"]] for s, r in ((s, s.result()) for s in states)], np.int64)


RAMI = Rami()
RamiStudy.game = RAMI
