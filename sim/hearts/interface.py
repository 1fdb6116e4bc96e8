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
from functools import cached_property

import numpy as np

from cardlab.sim.columns import Column, expand
from cardlab.sim.game import Figure, Game, Replay, Study, StudyKind, imported_when_called
from cardlab.sim.hearts.referee import HeartsState
from cardlab.sim.hearts.rules import HeartsOptions, kernel_rules, pass_offset
from cardlab.sim.ladder import LoneSeat
from cardlab.sim.replay import totals_line, winners_line
from cardlab.sim.search_play import search_parts
from cardlab.sim.signatures import numba_seat


def columns(out: np.ndarray) -> dict:
    """Named columns of the kernels' deal rows (``kernels.C_*``: the declared deal columns, one per seat of the rows'
    table)."""
    from cardlab.sim.hearts.kernels import row_fields

    n, keep = row_fields(out)
    return {name: out[:, k].astype(dtype) for k, (name, dtype) in zip(keep, expand(_DEAL, {"seat": range(n)}).items())}


@dataclass(frozen=True)
class HeartsStudy(LoneSeat, Study):
    """Hearts' rules, per-seat policies, seed and search settings; plays deals and whole games. On the strength
    ladder one seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its points (and each table's moons)."""

    ladder_score, ladder_extras = "points", {"moon": "moon"}
    recorded = ("hands", "moves")  # a recorded deal's dealt hands and its moves (Study.play)

    @cached_property
    def rules(self) -> np.ndarray:
        return kernel_rules(self.options)

    def raw(self, first: int, count: int, *, record: bool = False):
        """Kernel rows, dealt hands and logs of deals ``first .. first+count-1`` (hands and logs only with
        ``record``)."""
        from cardlab.sim.hearts.kernels import N_COLS, play_deals_nb
        from cardlab.sim.hearts.search_play import search_raw

        if self.searching:  # search seats: sim.hearts.search_play
            return search_raw(self, np.arange(first, first + count), record=record)[:3]
        out = np.zeros((count, N_COLS), np.int16)
        rows = count if record else 0
        o = self.options
        hands, logs = np.zeros((rows, o.players), np.uint64), np.zeros((rows, o.log_width), np.int8)
        self.call_kernel(play_deals_nb, self.seed, first, count, self.rules, self.policy_ids, out, hands, logs,
                         self.user_callback(), first=first, count=count)
        return out, hands, logs

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        """Whole games ``first .. first+count-1``: one row per deal, with the running totals (and the logs when
        ``record``)."""
        from cardlab.sim.hearts.kernels import play_games_nb
        from cardlab.sim.hearts.search_play import search_games

        if self.searching:
            return search_games(self, first, count, record=record)

        def kernel(out, totals, lengths, hands, logs):
            self.call_kernel(play_games_nb, self.seed, first, count, self.rules, self.policy_ids, out, totals, lengths,
                             hands, logs, self.user_callback(), first=first, count=count, unit="game")

        return game_columns(first, *game_buffers(self, count, record, kernel), record)

    # ---------------------------------------------------------------- the strength ladder's hooks

    def play_tables(self, deals, policies) -> dict:
        """Every (deal, seat policies) row in one call of the search kernel."""
        from cardlab.sim.hearts.search_play import search_raw

        return columns(search_raw(self, deals, policies=policies)[0])

    def ladder_facts(self, deals) -> dict:
        return {"pass_direction": np.array([pass_offset(self.options, int(d)) for d in deals], np.int8)}


PASSING = "cardlab.sim.hearts.passing"  # the passing study's module (it imports the kernels)


def game_buffers(study, count: int, record: bool, kernel) -> tuple:
    """``(out, totals, lengths, hands, logs)`` of ``count`` whole games filled by ``kernel(out, totals, lengths, hands,
    logs)`` (the plain or the searched games kernel): each game's first ``GAME_SLOT`` deals are kept, all of them when
    ``record``; should a game be longer (rare), every game is played again with room for ``max_deals``."""
    from cardlab.sim.hearts.kernels import GAME_SLOT, N_COLS

    o = study.options
    m = o.max_deals
    rows = count if record else 0
    hands, logs = np.zeros((rows, m, o.players), np.uint64), np.zeros((rows, m, o.log_width), np.int8)
    slot = m if record else min(m, GAME_SLOT)
    while True:
        out, totals = np.zeros((count, slot, N_COLS), np.int16), np.zeros((count, slot, o.players), np.int16)
        lengths = np.zeros(count, np.int64)
        kernel(out, totals, lengths, hands, logs)
        if (lengths <= slot).all():
            return out, totals, lengths, hands, logs
        slot = m


def game_columns(first: int, out, totals, lengths, hands, logs, record: bool) -> dict:
    """One row per deal of each game (numbered within it, ``deal``) from the games kernel's buffers."""
    from cardlab.sim.whole_games import game_slots

    keep, game, deal = game_slots(first, lengths, out.shape[1])
    cols = {"game": game, "deal": deal, **columns(out[keep])}
    flat = totals[keep]
    for p in range(flat.shape[1]):
        cols[f"total_{p}"] = flat[:, p].astype(np.int16)
    if record:  # every deal kept: the slots are the logs' max_deals
        cols.update(hands=hands[keep], moves=logs[keep])
    return cols


def state_rows(states: list) -> np.ndarray:
    """The kernels' deal rows (``kernels.C_*``) of finished :class:`HeartsState`\\ s, as the referee scores them."""
    from cardlab.sim.hearts import kernels as K
    from cardlab.sim.hearts.rules import JACK_DIAMONDS, QUEEN_SPADES

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


# ---------------------------------------------------------------- replay


def checked_states(study: HeartsStudy, cols: dict, indices) -> list:
    """The referee's states of recorded deals (``cols`` from ``play(record=True)`` or ``play_games``), each checked
    move by move and against the kernels' row."""
    from cardlab.sim.hearts.referee import RefereeError, check_log

    states = []
    for j, i in enumerate(indices):
        offset = int(cols["pass_direction"][j])
        state = check_log(study.options, i, cols["hands"][j], cols["moves"][j], offset=offset)
        kernel = {k: int(v[j]) for k, v in cols.items() if k not in ("hands", "moves", "game", "deal", "search_means")
                  and not k.startswith("total_")}
        rules = {k: int(v[0]) for k, v in columns(state_rows([state])).items()}
        if kernel != rules:
            raise RefereeError(f"deal {i}: the kernels gave {kernel}, the rules give {rules}")
        states.append(state)
    return states


def replay_deals(study: HeartsStudy, deals: range) -> Replay:
    from cardlab.sim.hearts.referee import describe
    from cardlab.sim.hearts.search_play import describe_searches, search_records

    cols = study.play(deals.start, len(deals), record=True)
    if study.searching:
        from cardlab.sim.hearts.search_play import search_raw

        cols["search_means"] = search_raw(study, np.arange(deals.start, deals.stop), record=True)[3]
    parts = []
    for j, state in enumerate(checked_states(study, cols, deals)):
        text, searches = search_parts(cols, j, describe_searches, search_records, state)
        parts.append((describe(state) + text, {**state.record(), **searches}))
    return Replay.joined(parts)


def replay_games(study: HeartsStudy, games: range) -> Replay:
    from cardlab.sim.hearts.referee import describe

    texts, records = [], []
    for g in games:
        cols = study.play_games(g, 1, record=True)
        states = checked_states(study, cols, [int(d) for d in cols["deal"]])
        n = study.options.players
        totals = [0] * n
        lines = [f"game {g} (seed {study.seed}), {len(states)} deals, target {study.options.target}"]
        for k, state in enumerate(states):
            totals = [a + b for a, b in zip(totals, state.scores())]
            lines.append(f"\n=== deal {k}: " + describe(state).split(": ", 1)[1])
            lines.append(totals_line(totals))
            records.append({**state.record(), "game": g, "totals": list(totals)})
        lines.append(winners_line([f"seat {p}" for p in range(n) if totals[p] == min(totals)], "lowest total"))
        texts.append("\n".join(lines))
    return Replay("\n\n".join(texts), records)


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
SCHEMA = {"deals": (Column("deal", "int64", "the deal's number (dealt from (seed, deal), passing by deal % players)"),)
          + _DEAL,
          "games": (Column("game", "int64", "the game's number (its stream is (seed, game))"),
                    Column("deal", "int16", "the deal within its game, from 0")) + _DEAL
          + (Column("total_{seat}", "int16", "the seat's total after this deal"),)}


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
    Options, Study = HeartsOptions, HeartsStudy
    numba_seat = NUMBA_SEAT
    variant_figures = ("points_*", "moon")
    balance_figures = {"leader_edge": Figure("leader_edge", "the 2♣ leader's points minus the mean of the others'",
                                             sides="points")}
    columns = SCHEMA
    studies = {"passing": StudyKind("every way of choosing the three cards to pass, one seat at a time, on the same "
                                    "deals (paired)", imported_when_called(PASSING, "passing_study"),
                                    imported_when_called(PASSING, "passing_metadata"))}
    study_deals = {"strength": 4_000}  # searched deals are slow
    state_rows = staticmethod(state_rows)  # with row_columns, a Python seat's rows (Game.state_columns)

    def row_columns(self, rows: np.ndarray) -> dict:
        return columns(rows)

    def replay_deals(self, study, deals: range) -> Replay:
        return replay_deals(study, deals)

    def replay_games(self, study, games: range) -> Replay:
        return replay_games(study, games)

    def new_state(self, study, deal: int):
        """Deal ``deal`` as the kernels deal it (from the stream ``(seed, deal)``), holding the stream after the deal
        for its random seats."""
        from cardlab.sim.rng import deal_state

        return dealt_state(study, deal_state(study.seed, deal), deal, deal)

    def next_deal(self, study, index: int, finished: list):
        """A game's deals come from one stream, ``(seed, game)``, each carrying it on, deal ``k`` passing by ``k``,
        until a total reaches the target (or ``max_deals``)."""
        from cardlab.sim.rng import deal_state
        from cardlab.sim.whole_games import game_totals

        if not finished:
            state = dealt_state(study, deal_state(study.seed, index), 0, 0)
        else:
            k = len(finished)
            if max(game_totals(finished)) >= study.options.target or k >= study.options.max_deals:
                return None
            state = dealt_state(study, finished[-1].stream, k, k)
        state.search_key = (index, 64 * state.deal)
        return state


def dealt_state(study, stream, deal: int, k: int) -> HeartsState:
    """The deal the kernels deal from ``stream`` (deal ``k`` of a run or a game, for its pass direction), numbered
    ``deal``, as a state holding the stream after the deal for its random seats."""
    from cardlab.sim.dealing import deal_hands_nb
    from cardlab.sim.hearts.rules import pass_offset
    from cardlab.sim.state import as_stream

    o = study.options
    hands = np.zeros(o.players, np.uint64)
    stream = deal_hands_nb(np.uint64(stream), o.deck, np.empty(o.deck.shape[0], np.int8), o.players, hands)
    state = HeartsState(study.options, [int(h) for h in hands], deal=deal, offset=pass_offset(study.options, k),
                        study=study)
    state.stream = as_stream(stream)
    return state


HEARTS = Hearts()
HeartsStudy.game = HeartsState.game = HEARTS
