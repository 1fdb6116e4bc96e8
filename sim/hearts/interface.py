"""Hearts through the game interface: its study (deals, whole games, the ladder's tables) and its replay; the
facade, command line, ladder and options study are :mod:`cardlab.sim.game`'s.

Deal ``i`` is dealt from the stream ``(seed, i)`` and passes by ``i % 4`` (left, right, across, none; or one
direction, ``pass_direction``; with 3 or 5 players by ``i % players``, ``rules.CYCLES``). Columns of a deal: ``deal``,
``pass_direction`` (0 none, 1 left, 2 across, 3 right: the offset of the receiving seat), ``leader`` (the 2♣'s holder
after the pass), ``points_0`` … ``points_3`` (fewer is better; one per player), ``tricks_<seat>``,
``hearts_<seat>``, ``queen`` (the Q♠'s taker), ``jack`` (the J♦'s) and ``moon`` (the seat that shot it, -1).
Whole games (to ``target``) put ``game`` and ``deal`` (the deal within its game) first and add the running
``total_<seat>``; game ``g`` deals from the one stream ``(seed, g)``. The strength ladder changes one seat, seat
``(i // 4) % 4`` on deal ``i``; its rows give that seat's points (``lone_<X>_in_<Y>``).

>>> df = HEARTS.simulate(deals=400, seed=1)
>>> sorted(set((df[[f"points_{p}" for p in range(4)]].sum(axis=1)).tolist()))
[26, 78]
>>> games = HEARTS.simulate_games(games=20, seed=1)
>>> bool((games.groupby("game")[[f"total_{p}" for p in range(4)]].last().max(axis=1) >= 100).all())
True
>>> print(HEARTS.replay(deal=2, seed=7).text.splitlines()[0])
deal 2: passing across
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.sim.cards import card_name
from cardlab.sim.columns import Column, deal_schema, expand
from cardlab.sim.game import Figure, Game, Log, Replay, Study, StudyKind
from cardlab.sim.hearts.referee import HeartsState
from cardlab.sim.hearts.rules import (JACK_DIAMONDS, PLAYERS, QUEEN_SPADES, TRICKS, HeartsOptions, kernel_rules,
                                      pass_offset)
from cardlab.sim.ladder import LoneSeat
from cardlab.sim.signatures import numba_seat


@dataclass(frozen=True)
class HeartsStudy(LoneSeat, Study):
    """Hearts' rules, per-seat policies, seed and search settings; plays deals and whole games. On the strength
    ladder one seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its points (and each table's moons)."""

    ladder_score, ladder_extras = "points", {"moon": "moon"}
    logged = (Log("hands", ("players",), np.uint64), Log("moves", ("log_width",), np.int8),  # each searched card's
              Log("search_means", (PLAYERS * TRICKS, 64), np.float32, np.nan, searched=True))  # candidates' means

    def raw(self, first: int, count: int, *, record: bool = False):
        """Kernel rows of deals ``first .. first+count-1``, then their :meth:`logs` (rows only with ``record``)."""
        from cardlab.sim.hearts.kernels import N_COLS, play_deals_nb

        if self.searching:
            return self.searched(np.arange(first, first + count), record=record)
        out, logs = np.zeros((count, N_COLS), np.int16), self.logs(count if record else 0)
        self.call_kernel(play_deals_nb, self.seed, first, count, self.rules, self.policy_ids, out, *logs,
                         self.user_callback(), first=first, count=count)
        return (out, *logs)

    def searched(self, deals, *, record: bool = False, policies=None) -> tuple:
        """:meth:`raw` of the deal numbers ``deals`` by the search kernel (``sim.hearts.search``), which plays the
        seats without search as the plain kernels do; ``policies``: kernel ids per seat, one row for every deal or
        one per deal (the study's by default)."""
        from cardlab.sim.hearts.kernels import N_COLS
        from cardlab.sim.hearts.search import play_search_deals_nb

        deals = np.asarray(deals, np.int64)
        seats = np.asarray(self.policy_ids if policies is None else policies, np.int64)
        seats = np.ascontiguousarray(np.broadcast_to(seats, (len(deals), self.options.players)))
        out, logs = np.zeros((len(deals), N_COLS), np.int16), self.logs(len(deals) if record else 0, searched=True)
        self.call_kernel(play_search_deals_nb, self.seed, deals, self.rules, seats, self.inference_eps(seats),
                         self.search_worlds, self.rollout_id, out, *logs, self.user_callback(searched=True),
                         first=deals, count=len(deals))
        return (out, *logs)

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        """Whole games ``first .. first+count-1``: one row per deal, with the running totals (and the logs when
        ``record``). The kernels keep each game's first ``GAME_SLOT`` deals (all with ``record``): a longer game
        (rare) is played again alone (:func:`~cardlab.sim.whole_games.slot_rows`)."""
        from cardlab.sim.hearts.kernels import GAME_SLOT, N_COLS, play_games_nb
        from cardlab.sim.hearts.search import play_search_games_nb
        from cardlab.sim.whole_games import seat_totals, slot_rows

        m, n = self.options.max_deals, self.options.players

        def play(first, count, slot):
            out, totals = np.zeros((count, slot, N_COLS), np.int16), np.zeros((count, slot, n), np.int16)
            lengths, logs = np.zeros(count, np.int64), self.logs(count if record else 0, m, searched=self.searching)
            kernel, search = (play_search_games_nb, (self.inference_eps(self.policy_ids), self.search_worlds,
                                                     self.rollout_id)) if self.searching else \
                (play_games_nb, ())  # the search kernel takes the search's settings (inference too) after the policies
            self.call_kernel(kernel, self.seed, first, count, self.rules, self.policy_ids, *search, out, totals,
                             lengths, *logs, self.user_callback(self.searching), first=first, count=count, unit="game")
            return lengths, (out, totals, *logs) if record else (out, totals)

        game, deal, (out, totals, *logs) = slot_rows(play, first, count, m if record else min(m, GAME_SLOT), m)
        return {"game": game, "deal": deal, **self.game.row_columns(out), **seat_totals(totals),
                **self.logs_columns(logs)}

    # ---------------------------------------------------------------- the strength ladder's hooks

    def play_tables(self, deals, policies) -> dict:
        """Every (deal, seat policies) row in one call of the search kernel."""
        return self.game.row_columns(self.searched(deals, policies=policies)[0])

    def ladder_facts(self, deals) -> dict:
        return {"pass_direction": np.array([pass_offset(self.options, int(d)) for d in deals], np.int8)}


def state_rows(states: list) -> np.ndarray:
    """The kernels' deal rows (``kernels.C_*``) of finished :class:`HeartsState`\\ s, as the referee scores them."""
    from cardlab.sim.hearts import kernels as K

    out = np.zeros((len(states), K.N_COLS), np.int16)
    for row, s in zip(out, states):
        n = s.options.players
        row[K.C_PASS], row[K.C_LEADER], row[K.C_PLAYERS] = s.offset, s.tricks[0][0], n
        row[K.C_POINTS:K.C_POINTS + n] = s.scores()
        row[K.C_TRICKS:K.C_TRICKS + n] = [sum(w == p for *_, w in s.tricks) for p in range(n)]
        row[K.C_HEARTS:K.C_HEARTS + n] = [sum(c // 16 == 2 for c in t) for t in s.taken]
        row[K.C_QUEEN] = next(p for p in range(n) if QUEEN_SPADES in s.taken[p])
        row[K.C_JACK] = next(p for p in range(n) if JACK_DIAMONDS in s.taken[p])
        row[K.C_MOON] = s.moon()
    return out


def checked_states(study: HeartsStudy, cols: dict, indices) -> list:
    """The referee's states of recorded deals (``cols`` from ``play(record=True)`` or ``play_games``), each checked
    move by move and against the kernels' row (:meth:`~cardlab.sim.game.Game.check_state`)."""
    from cardlab.sim.hearts.referee import RefereeError, check_log

    states = []
    for j, i in enumerate(indices):
        state = check_log(study.options, i, cols["hands"][j], cols["moves"][j], offset=int(cols["pass_direction"][j]))
        HEARTS.check_state(state, cols, j, f"deal {i}", RefereeError)
        states.append(state)
    return states


_DEAL = (Column("pass_direction", "int8", "where the passes went, seat + this: 0 none, 1 left, 2 across, 3 right (3 "
                                           "players: 2 right; 5: 2 two left, 3 two right, 4 right)"),
         Column("leader", "int8", "the seat that led the 2♣ (the 3♣ with 5 players)"),
         Column("points_{seat}", "int8", "the seat's points on the deal, the moon and bonuses included (fewer is "
                                         "better)"),
         Column("tricks_{seat}", "int8", "tricks the seat took"),
         Column("hearts_{seat}", "int8", "hearts the seat took"),
         Column("queen", "int8", "the seat that took the Q♠"),
         Column("jack", "int8", "the seat that took the J♦"),
         Column("moon", "int8", "the seat that shot the moon (took every heart and the Q♠), -1 none"))
SCHEMA = deal_schema(Column("deal", "int64", "the deal's number (dealt from (seed, deal), passing by deal % players)"),
                     _DEAL,
                     totals="the seat's total after this deal")


#: A Hearts seat played by a Numba function: its cards (its passes are the heuristic's). Cards are ids 16 * suit + rank
#: (♣ 0, ♦ 1, ♥ 2, ♠ 3; rank 0 the 2 to 12 the Ace), a set of cards one uint64.
NUMBA_SEAT = numba_seat(
    "card play",
    "card(hand: uint64, legal: uint64, n: int64 (cards already in the trick), led: int64 (the led suit, -1 none yet), "
    "win_card: int64 (the card winning the trick, -1 none), trick: uint64 (the trick's cards), seen: uint64 (the cards "
    "of the finished tricks), broken: bool (hearts broken)) -> int64 (a card id in legal)")


class Hearts(Game):
    """Hearts for four (or three, or five), OpenSpiel's rules and options, games to 100."""

    name, title = "hearts", "Hearts"
    oracle = search_beside_python = True  # the search over the true deal; search seats beside a Python seat
    inference = True  # --search-inference: search seats weight their worlds by the others' past cards
    Options, Study, kernel_rules = HeartsOptions, HeartsStudy, staticmethod(kernel_rules)
    numba_seat = NUMBA_SEAT
    variant_figures = ("points_*", "moon")
    balance_figures = {"leader_edge": Figure("leader_edge", "the 2♣ leader's points minus the mean of the others'",
                                             sides="points")}
    columns = SCHEMA
    studies = {"passing": StudyKind.imported(
        "every way of choosing the three cards to pass, one seat at a time, on the same deals (paired)",
        "cardlab.sim.hearts.passing", "passing_study", "passing_metadata")}  # a module that imports the kernels
    study_deals = {"strength": 4_000}  # searched deals are slow
    state_rows = staticmethod(state_rows)  # with row_columns, a Python seat's rows (Game.state_columns)

    def row_columns(self, rows: np.ndarray) -> dict:
        """Named columns of the kernels' deal rows (``kernels.C_*``: the declared deal columns, one per seat of the
        rows' table, which the rows carry)."""
        from cardlab.sim.hearts.kernels import row_fields

        n, keep = row_fields(rows)
        named = expand(tuple(c for c in self.columns["deals"] if c.name != "deal"), {"seat": range(n)})
        return {name: rows[:, k].astype(dtype) for k, (name, dtype) in zip(keep, named.items())}

    def replay_deals(self, study, deals: range) -> Replay:
        """The deals, each checked by the referee, with each searched card's candidates ranked by their mean
        points for the searcher over the sampled worlds."""
        from cardlab.sim.hearts.referee import describe
        from cardlab.sim.search_play import TrickSearches, search_parts

        shown = TrickSearches("cards (mean points for the searcher over the sampled worlds; * = played)", card_name,
                              lambda m: f"{m + 0.0:.2f}", lambda m: round(m, 3) + 0.0, lowest_first=True)
        cols, parts = study.play(deals.start, len(deals), record=True), []
        for j, state in enumerate(checked_states(study, cols, deals)):
            text, searches = search_parts(cols, j, shown.text, shown.records, [t for _, t, _ in state.tricks])
            parts.append((describe(state) + text, {**state.record(), **searches}))
        return Replay.joined(parts)

    def replayed_game(self, study, game: int) -> tuple[str, list]:
        from cardlab.sim.hearts.referee import describe
        from cardlab.sim.replay import game_lines, winners_line

        cols = study.play_games(game, 1, record=True)
        states = checked_states(study, cols, [int(d) for d in cols["deal"]])
        lines, totals = game_lines(game, study, "deal", [(describe(s).split(": ", 1)[1], s.scores()) for s in states])
        lines.append(winners_line([f"seat {p}" for p, t in enumerate(totals[-1]) if t == min(totals[-1])],
                                  "lowest total"))
        return "\n".join(lines), [{**s.record(), "game": game, "totals": t} for s, t in zip(states, totals)]

    def new_state(self, study, deal: int):
        """Deal ``deal`` as the kernels deal it (from the stream ``(seed, deal)``), holding the stream after the deal
        for its random seats."""
        from cardlab.sim.rng import deal_state

        return dealt_state(study, deal_state(study.seed, deal), deal)

    def next_deal(self, study, index: int, finished: list):
        """A game's deals come from one stream, ``(seed, game)``, each carrying it on, deal ``k`` passing by ``k``,
        until a total reaches the target (or ``max_deals``)."""
        from cardlab.sim.rng import deal_state
        from cardlab.sim.whole_games import game_totals

        k = len(finished)
        if finished and (max(game_totals(finished)) >= study.options.target or k >= study.options.max_deals):
            return None
        state = dealt_state(study, finished[-1].stream if finished else deal_state(study.seed, index), k)
        state.search_key = (index, 64 * k)
        return state


def dealt_state(study, stream, deal: int) -> HeartsState:
    """The deal the kernels deal from ``stream`` as deal ``deal`` of a run or a game (its number, and its pass
    direction's), as a state holding the stream after the deal for its random seats."""
    from cardlab.sim.dealing import deal_hands_nb
    from cardlab.sim.state import as_stream

    o = study.options
    hands = np.zeros(o.players, np.uint64)
    stream = deal_hands_nb(np.uint64(stream), o.deck, np.empty(o.deck.shape[0], np.int8), o.players, hands)
    state = HeartsState(o, [int(h) for h in hands], deal=deal, offset=pass_offset(o, deal), study=study)
    state.stream = as_stream(stream)
    return state


HEARTS = Hearts()
HeartsStudy.game = HeartsState.game = HEARTS
