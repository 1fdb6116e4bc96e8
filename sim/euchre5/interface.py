"""Euchre for five through the game interface: its study (hands, whole games, the ladder's tables) and its replay
(its trump study: :mod:`cardlab.sim.euchre5.trumps`); the facade, command line, ladder and options study are
:mod:`cardlab.sim.game`'s.

Hand ``i`` is dealt by seat ``i % 5`` from the stream (seed, i). Columns of a hand: ``deal``, ``dealer``,
``maker`` (-1: nobody made trump), ``trump`` (0-3 = ♣♦♥♠, -1), ``round`` (1, 2; 0 none), ``alone`` (0
partnered, 1 by choice, 2 forced), ``partner`` (seat or -1), ``maker_tricks``, ``called`` (card id or -1),
``score_0`` … ``score_4``. Whole games (to ``target``, ties by ``tie_rule``: options of whole games only)
put ``game`` and ``deal`` (the hand within its game) first; game ``g`` comes from the stream (seed, g).
The ladder's row adds ``others_<X>_in_<Y>`` (the other four seats' points) to ``lone_<X>_in_<Y>``.

>>> df = EUCHRE5.simulate(deals=1000, seed=7)
>>> sorted(df.alone.unique().tolist()), int(df.maker_tricks.max())
([0, 1, 2], 5)
>>> games = EUCHRE5.simulate_games(games=200, seed=1)
>>> bool((games.groupby("game")[[f"score_{p}" for p in range(5)]].sum().max(axis=1) >= 10).all())
True
>>> EUCHRE5.replay(deal=3, seed=7).text.startswith("deal 3: dealer seat 3"), EUCHRE5.replay_game(game="0:2").json[:8]
(True, '{"game":')
>>> from cardlab.sim.ladder import strength_study
>>> df = strength_study(EUCHRE5, deals=10, seed=1, search_worlds=2)
>>> len(df), bool((df["lone"] == (df["deal"] // 5) % 5).all())
(10, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.sim.euchre5.referee import (Euchre5State, RefereeError, check_game, check_hand, decode_log, dealt_state,
                                         describe_hand, hand_record, next_hand)
from cardlab.sim.euchre5.rules import KITTY, MAX_ACTIONS, PLAYERS, Euchre5Options, kernel_rules
from cardlab.sim.columns import Column, deal_schema
from cardlab.sim.game import Figure, Game, Log, Study, StudyKind
from cardlab.sim.ladder import LoneSeat
from cardlab.sim.replay import game_lines, winners_line
from cardlab.sim.signatures import numba_decision, numba_seat

GAME_SLOT = 32  # hands kept per game in the games kernel's buffer; longer games are replayed alone


@dataclass(frozen=True)
class Euchre5Study(LoneSeat, Study):
    """Euchre's rules, per-seat policies, seed and search settings; plays hands and whole games. On the strength
    ladder one seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its points and the other four seats'
    (and each table's maker, round, alone and tricks)."""

    ladder_others = True
    ladder_extras = {"maker": "maker", "round": "round", "alone": "alone", "tricks": "maker_tricks"}
    logged = (Log("hands", (PLAYERS,), np.uint64), Log("kitty", (KITTY,), np.int8),
              Log("moves", (MAX_ACTIONS, 3), np.int8),  # and each searched candidate's mean edge, NaN elsewhere:
              Log("search_means", (MAX_ACTIONS, 64), np.float32, np.nan, searched=True))

    def callbacks(self, searched: bool = False) -> tuple:
        """What the kernels take for the seats of the run's Numba functions: ``(bid_fn, card_fn)``, the bid's
        callback (the heuristic's -1 when the user gave none) and the card's; without one ``(None, None)``, or for
        the ``searched`` kernels callbacks never called (:func:`cardlab.sim.user.run_callback`)."""
        return self.extra_callback("bid", searched), self.user_callback(searched)

    def raw(self, first: int, count: int, *, record: bool = False, search: bool | None = None) -> tuple:
        """Kernel rows of hands ``first .. first+count-1``, then their :meth:`logs` (rows only with ``record``): by the
        search kernel when a seat searches (or with ``search``: ``search.play_search_deals_nb``, the same dealing and
        streams, the seats without search played as the plain kernels play them; its logs end with ``search_means``)."""
        from cardlab.sim.euchre5.kernels import N_RES, play_deals_nb

        search = self.searching if search is None else search
        kernel, settings = play_deals_nb, ()
        if search:  # the search kernel takes the search's settings after the policies
            from cardlab.sim.euchre5.search import play_search_deals_nb as kernel
            settings = (*self.racing_search_args, self.inference_eps(self.policy_ids))
        out, logs = np.empty((N_RES, count), np.int8), self.logs(count if record else 0, searched=search)
        self.call_kernel(kernel, self.seed, first, count, self.rules, self.policy_ids, *settings, out, *logs,
                         *self.callbacks(search), first=first, count=count, unit=self.game.unit)
        return (out.T, *logs)

    def play_games(self, first: int, count: int, *, record: bool = False, search: bool | None = None) -> dict:
        """Whole games ``first .. first+count-1``; one row per hand (and the logs when ``record``), by the search
        kernel when a seat searches (or with ``search``). The plain kernel keeps each game's first ``GAME_SLOT`` hands
        (all with ``record``; the search kernel keeps all), ``compact_game_rows_nb`` lays them out a column per hand
        in parallel (numpy's masks, ``whole_games.slot_rows``, took a quarter more time for the whole call), and a
        longer game (rare) is played again alone."""
        from cardlab.sim.euchre5.kernels import N_RES, compact_game_rows_nb, play_games_nb

        search = self.searching if search is None else search
        kernel, settings, m = play_games_nb, (), self.options.max_hands
        if search:  # the search kernel takes the search's settings after the policies
            from cardlab.sim.euchre5.search import play_search_games_nb as kernel
            settings = (*self.racing_search_args, self.inference_eps(self.policy_ids))
        slot = m if record or search else min(m, GAME_SLOT)
        slots, lengths = np.empty((count, slot, N_RES), np.int8), np.empty(count, np.int64)
        logs = self.logs(count if record else 0, m, searched=search)
        self.call_kernel(kernel, self.seed, first, count, self.rules, self.policy_ids, *settings, slots, lengths,
                         *logs, *self.callbacks(search), first=first, count=count, unit="game")
        offsets = np.zeros(count, np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        n_rows = int(lengths.sum())
        out, game, deal = np.empty((N_RES, n_rows), np.int8), np.empty(n_rows, np.int64), np.empty(n_rows, np.int16)
        compact_game_rows_nb(slots, lengths, offsets, first, out, game, deal)
        for j in np.flatnonzero(lengths > slot):  # rare long games: replayed alone from (seed, game)
            one = np.empty((1, m, N_RES), np.int8)
            play_games_nb(self.seed, first + j, 1, self.rules, self.policy_ids, one, lengths[j:j + 1],
                          *self.logs(0, m), *self.callbacks(), self.faults(1))
            out[:, offsets[j]:offsets[j] + lengths[j]] = one[0, :lengths[j]].T
        columns = {"game": game, "deal": deal, **self.game.row_columns(out.T)}
        if record:  # every hand kept: the slots are the logs' max_hands
            keep = np.arange(m)[None, :] < lengths[:, None]
            columns.update(self.logs_columns(a[keep] for a in logs))
        return columns

    # ---------------------------------------------------------------- the strength ladder's hooks

    def play_tables(self, deals, policies) -> dict:
        """Every (hand, seat policies) row in one call of the search kernel."""
        from cardlab.sim.euchre5.kernels import N_RES
        from cardlab.sim.euchre5.search import play_search_tables_nb

        out = np.empty((N_RES, len(deals)), np.int8)
        self.call_kernel(play_search_tables_nb, self.seed, deals, self.rules, policies, *self.racing_search_args,
                         self.inference_eps(policies), out,
                         *self.callbacks(searched=True), first=deals, count=len(deals), unit=self.game.unit)
        return self.game.row_columns(out.T)


# ---------------------------------------------------------------- replay and checks


def check_rows(options: Euchre5Options, columns: dict) -> list:
    """Referee every recorded hand of ``columns`` (from ``play(record=True)``) and compare with the
    kernel's row; returns the referee's :class:`~cardlab.sim.euchre5.referee.Hand` list."""
    out = []
    for j in range(len(columns["dealer"])):
        hand = check_hand(options, int(columns["dealer"][j]), [int(h) for h in columns["hands"][j]],
                          columns["kitty"][j].tolist(), decode_log(columns["moves"][j]))
        kernel = {k: int(columns[k][j]) for k in hand.row()}
        if hand.row() != kernel:
            where = f"game {columns['game'][j]} hand {columns['deal'][j]}" if "game" in columns else \
                f"deal {columns['deal'][j]}"
            raise RefereeError(f"{where}: kernel gave {kernel}, the rules give {hand.row()}")
        out.append(hand)
    return out


_HAND = (Column("dealer", "int8", "the dealing seat"),
         Column("maker", "int8", "the seat that made trump (-1: nobody did)"),
         Column("trump", "int8", "the trump suit, 0-3 = ♣♦♥♠ (-1: none)"),
         Column("round", "int8", "the bidding round trump was made in (1 the upcard's, 2 named; 0 none)"),
         Column("alone", "int8", "0 partnered, 1 alone by choice, 2 alone by force"),
         Column("partner", "int8", "the partner's seat (-1: alone or none)"),
         Column("maker_tricks", "int8", "tricks taken by the maker's side"),
         Column("called", "int8", "the called card's id (-1: none)"),
         Column("score_{seat}", "int8", "the points the seat scores on the hand"))
SCHEMA = deal_schema(Column("deal", "int64", "the hand's number (dealt by seat deal % 5 from (seed, deal))"), _HAND,
                     unit="hand")


#: A Euchre seat's bids by a Numba function (the extra decision ``bid``): pass, accept or name a suit, as action ids
#: (``rules.FIXED_IDS``, ``rules.ID_BASE``), or -1 for the heuristic's bid.
BID_DECISION = numba_decision(
    "bid", "bidding",
    "bid(hand: uint64, upcard: int64, round: int64 (1 or 2), place: int64 (1-5 after the dealer, 5 the dealer), "
    "allowed: int64 (bit a - 192 for each action id a it may return: 192-195 name a suit, 196 pass, 197 accept)) "
    "-> int64 (an id of allowed, or -1: the heuristic's bid)")

#: A Euchre-for-five seat played by Numba functions: its cards (a forced card without asking), and its bids when the
#: extra decision ``bid`` is given; its exchange as dealer and its call as maker are the heuristic's. Cards are ids
#: 16 * suit + rank (rank 6 the 8 to 12 the Ace), a set of cards one uint64; seats are counted from the seat itself
#: (i: the seat i places after it in the order of play). The kernels' side: ``kernels.user_card``, ``kernels.user_bid``.
NUMBA_SEAT = numba_seat(
    "card play",
    "card(hand: uint64, legal: uint64, k: int64 (cards already in the trick), led: int64 (the led effective suit, -1 "
    "none yet), win_card: int64 (-1 none), ally_wins: bool, trump: int64, maker: int64 (places after it, 0 itself), "
    "partner: int64 (places after it once known, -1 not known or none), called: int64 (-1 alone), dealer: int64 "
    "(places after it), upcard: int64, unseen: uint64, won: int64 (3 bits a seat from it)) -> int64 (a card id in "
    "legal)", key="card", extras=(BID_DECISION,))


class Euchre5(Game):
    """Euchre for five: called-partner Euchre on 28 cards, five seats, individual scores."""

    name, title, unit = "euchre5", "Euchre for five", "hand"
    races = True  # its search races the candidates of its bids, calls and cards (sim.racing)
    races_by_default = False  # racing cost about 4% of search's gain over the heuristic (docs/search.md): opt in
    oracle = True  # the search over the true deal (search.world_nb)
    inference = True  # --search-inference: search seats weigh their worlds by the others' bids and cards
    search_beside_python = True  # state_policies.searched_move: the searched hand given the hand so far
    Options, Study, kernel_rules = Euchre5Options, Euchre5Study, staticmethod(kernel_rules)
    numba_seat = NUMBA_SEAT
    ladder_chunk = 512
    study_deals = {"strength": 10_000}  # searched hands are slow
    variant_figures = ("maker_tricks", "score_*")
    balance_figures = {"dealer_edge": Figure("dealer_edge", "the dealer's edge: its points minus the mean of the "
                                                            "others'")}  # study balance --target
    columns = SCHEMA
    studies = {"trumps": StudyKind.imported("every hand played with each seat as maker and each trump suit (paired)",
                                            "cardlab.sim.euchre5.trumps", "trump_study", "trump_metadata")}

    def replayed_deal(self, study, deal: int) -> tuple[str, dict]:
        """Hand ``deal`` replayed alone, checked by the referee: its text and record (with its searched decisions)."""
        from cardlab.sim.euchre5.records import hand_searches

        cols = study.play(deal, 1, record=True)
        (hand,), (text, searches) = check_rows(study.options, cols), hand_searches(cols, 0)
        return f"deal {deal}: " + describe_hand(hand) + text, {**hand_record(hand, deal), **searches}

    def replayed_game(self, study, game: int) -> tuple[str, list]:
        """Whole game ``game`` replayed alone: every hand checked, then the game's end and winners under the tie rule."""
        from cardlab.sim.euchre5.records import hand_searches

        cols = study.play_games(game, 1, record=True)
        hands = check_rows(study.options, cols)
        verdict = check_game(study.options, hands[0].dealer, hands)
        searches = [hand_searches(cols, h) for h in range(len(hands))]  # hands numbered from 0, as the rows and records
        lines, _ = game_lines(game, study, "hand", [(describe_hand(hand) + text, hand.scores)
                                                     for hand, (text, _) in zip(hands, searches)])
        winners = [f"seat {p}" + (f" ({c:.2f})" if c < 1 else "") for p, c in enumerate(verdict["credit"]) if c > 0]
        lines.append(winners_line(winners, f"{study.options.tie_rule} ties"))
        return "\n".join(lines), [{**hand_record(hand, h), "game": game, **record}
                                  for h, (hand, (_, record)) in enumerate(zip(hands, searches))]

    def new_state(self, study, deal: int):
        """Hand ``deal`` as the kernel deals it: dealer ``deal % 5``, from the stream ``(seed, deal)``
        (:func:`~cardlab.sim.euchre5.referee.dealt_state`)."""
        from cardlab.sim.rng import deal_state

        return dealt_state(study, deal_state(study.seed, deal), deal % PLAYERS, deal)

    next_deal = staticmethod(next_hand)  # a whole game's hands, dealt from one stream (seed, game)

    def state_rows(self, states: list) -> np.ndarray:
        """The kernel's hand rows of finished states (``Hand.row``, the declared columns in order): with
        :meth:`row_columns`, a Python seat's rows."""
        from cardlab.sim.euchre5.kernels import N_RES

        return np.array([list(s.hand.row().values()) for s in states], np.int8).reshape(len(states), N_RES)


EUCHRE5 = Euchre5()
Euchre5Study.game = Euchre5State.game = EUCHRE5
