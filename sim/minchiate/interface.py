"""Minchiate through the game interface: its study (deals, whole games, the ladder's tables) and its replay's hooks
(a deal's replay is :mod:`~cardlab.sim.minchiate.records`); the facade, command line, ladder and options study are
:mod:`cardlab.sim.game`'s.

Deal ``i`` is dealt by seat ``i % 4`` from the stream ``(seed, i)``; team 0 is seats 0 and 2.
Columns of a deal: ``deal``, ``dealer``, ``cutter_cards``, ``points_t``, ``resti_t``, ``net_resti``,
the points by source ``draws_t`` … ``last_trick_t``, ``dealer_cards``, the declared combinations
``declared_<kind>`` and ``declared_<kind>_value``, ``tricks_t``, ``max_delta`` and ``matto_owed``
(see the README). A whole game is deals ``g·n .. g·n + n - 1`` (``n_deals``, an option of whole games
only), the deal passing to the next seat: one row per game, ``game``, ``n_deals`` and the deals' rows
summed (``int32``), ``first_dealer`` last. The strength ladder changes a partnership: team
``(i // 4) % 2`` (seats t and t + 2) on deal ``i``.

>>> df = MINCHIATE.simulate(deals=200, seed=1)
>>> int((df.card_points_0 + df.card_points_1).iloc[0])
142
>>> sorted(set(MINCHIATE.simulate_games(games=20, seed=1, n_deals=4).n_deals.tolist()))
[4]
>>> print(MINCHIATE.replay(deal=3, seed=7).text.splitlines()[0])
deal 3: dealer seat 3, cutter seat 2 (team 0 = seats 0 and 2)
>>> from cardlab.sim.ladder import strength_study
>>> ladder = strength_study(MINCHIATE, deals=4, seed=1, search_worlds=2)
>>> bool((ladder.team == 0).all()), sorted(ladder.dealer.tolist())
(True, [0, 1, 2, 3])
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.sim.columns import Column
from cardlab.sim.game import Figure, Game, Log, Study
from cardlab.sim.ladder import Partnerships, by_table
from cardlab.sim.minchiate.records import replay_deal
from cardlab.sim.minchiate.referee import MinchiateState
from cardlab.sim.minchiate.rules import COMBO_TYPES, N_CARDS, N_TRICKS, PLAYERS, SOURCES, MinchiateOptions
from cardlab.sim.signatures import numba_seat


def row_columns(out: np.ndarray, wide: bool = False) -> dict:
    """Named columns of the kernels' deal rows (:data:`~cardlab.sim.minchiate.kernels.COL`): ``dealer`` ``int8``, the
    others ``int16``, or ``int32`` with ``wide`` (whole games)."""
    from cardlab.sim.minchiate.kernels import COL

    def teams(name: str, at: int) -> dict:
        return {f"{name}_{t}": out[:, at + t] for t in range(2)}

    c = {"dealer": out[:, COL.DEALER], "cutter_cards": out[:, COL.CUTTER_CARDS], **teams("points", COL.POINTS),
         **teams("resti", COL.RESTI), "net_resti": out[:, COL.RESTI] - out[:, COL.RESTI + 1]}
    c.update((f"{name}_{t}", out[:, COL.SOURCES + 8 * t + s]) for t in range(2) for s, name in enumerate(SOURCES))
    c["dealer_cards"] = out[:, COL.DEALER_CARDS]
    for i, kind in enumerate(COMBO_TYPES):
        c[f"declared_{kind}"], c[f"declared_{kind}_value"] = out[:, COL.DECL_COUNT + i], out[:, COL.DECL_VALUE + i]
    c.update(teams("tricks", COL.TRICKS), max_delta=out[:, COL.MAX_DELTA], matto_owed=out[:, COL.MATTO_OWED])
    return {k: v.astype(np.int8 if k == "dealer" else np.int32 if wide else np.int16) for k, v in c.items()}


def game_columns(games: np.ndarray, n_deals: int, out: np.ndarray) -> dict:
    """Named columns of whole games ``games`` from their summed kernel rows ``out`` (``int32``; ``dealer``: the
    first dealer, named ``first_dealer`` and put last)."""
    cols = row_columns(out, wide=True)
    cols["first_dealer"] = cols.pop("dealer")
    return dict(game=games, n_deals=np.full(len(games), n_deals, np.int32), **cols)


@dataclass(frozen=True)
class MinchiateStudy(Partnerships, Study):
    """Minchiate's rules, policies, seed and search settings; plays deals and whole games. On the strength ladder a
    partnership changes (:class:`~cardlab.sim.ladder.Partnerships`), judged by ``net_<table>`` and ``diff_<table>``:
    net resti and points, team 0 minus team 1."""

    ladder_figures = {"net": "net_resti", "diff": "points_{team}"}

    @property
    def logged(self) -> tuple:
        """A recorded deal's kernel log and its declarations, and the search kernels' means (each searched card's
        candidates', a row per card played)."""
        from cardlab.sim.minchiate.kernels import LOG_WIDTH

        return (Log("logs", (LOG_WIDTH,), np.int8), Log("declared", (4,), np.int16),
                Log("search_means", (N_TRICKS * PLAYERS, N_CARDS), np.float32, searched=True))

    def raw(self, first: int, count: int, *, record: bool = False):
        """Kernel rows of deals ``first .. first+count-1``, then their :meth:`logs` (rows only with ``record``; with a
        search seat by :meth:`searched`, its means last)."""
        from cardlab.sim.minchiate.kernels import COL, play_deals_nb

        if self.searching:
            return self.searched(np.arange(first, first + count), record=record)
        out, logs = np.zeros((count, COL.WIDTH), np.int32), self.logs(count if record else 0)
        self.call_kernel(play_deals_nb, self.seed, first, count, self.rules, self.policy_ids, out, *logs,
                         self.user_callback(), first=first, count=count)
        return (out, *logs)

    def searched(self, deals, *, record: bool = False, policies=None) -> tuple:
        """:meth:`raw` of the deal numbers ``deals`` by the search kernel (``search.play_search_deals_nb``), which
        deals deal ``i`` from ``(seed, i)`` and plays the seats without search as the plain kernels do; ``policies``:
        kernel ids per seat (the study's by default). The logs end with the search's means (deals x 84 moves x 97
        cards: each searched candidate's, NaN elsewhere)."""
        from cardlab.sim.minchiate.kernels import COL
        from cardlab.sim.minchiate.search import play_search_deals_nb

        deals = np.asarray(deals, np.int64)
        policies = self.policy_ids if policies is None else policies
        out, logs = np.zeros((len(deals), COL.WIDTH), np.int32), self.logs(len(deals) if record else 0, searched=True)
        self.call_kernel(play_search_deals_nb, self.seed, deals, self.rules, policies, *self.racing_search_args,
                         self.inference_eps(policies), out, *logs, self.user_callback(searched=True), first=deals,
                         count=len(deals))
        return (out, *logs)

    def play_games(self, first: int, count: int) -> dict:
        """Columns of whole games ``first .. first+count-1`` (each the sum of its ``n_deals`` deals; with a search seat
        by ``search.play_search_games_nb``, which plays the seats without search as the plain kernels do)."""
        from cardlab.sim.minchiate.kernels import COL, play_games_nb
        from cardlab.sim.minchiate.search import play_search_games_nb

        # the search kernel takes the search's settings (and each seat's inference) after the policies
        kernel, search = (play_search_games_nb, (*self.racing_search_args, self.inference_eps(self.policy_ids))) \
            if self.searching else (play_games_nb, ())
        out = np.zeros((count, COL.WIDTH), np.int32)
        self.call_kernel(kernel, self.seed, first, count, self.options.n_deals, self.rules, self.policy_ids, *search,
                         out, self.user_callback(self.searching), first=first, count=count, unit="game")
        return game_columns(np.arange(first, first + count, dtype=np.int64), self.options.n_deals, out)

    def game_deals(self, game: int) -> range:
        """Whole game ``g`` is deals ``g·n .. g·n + n - 1`` (``n_deals``), each dealt from its own stream."""
        return range(game * self.options.n_deals, (game + 1) * self.options.n_deals)

    def play_tables(self, deals, policies) -> dict:
        """The strength ladder's tables, each (a row of seat policies) in one call of the search kernel."""
        return by_table(deals, policies, lambda d, row: row_columns(self.searched(d, policies=row)[0]))


def _deal_columns(dtype: str) -> tuple:
    """A deal's figures (summed over a game's deals in whole games, as ``dtype``); ``{team}`` is 0 or 1."""
    return (Column("cutter_cards", dtype, "cards the cutter took (0-13)"),
            Column("points_{team}", dtype, "the team's points from every source"),
            Column("resti_{team}", dtype, "resti won, final rounding included"),
            Column("net_resti", dtype, "resti_0 - resti_1"),
            Column("{source}_{team}", dtype, "the team's points by source: draws, exposed, declarations, captures, "
                                             "card_points, pile_combos, beyond42, last_trick"),
            Column("dealer_cards", dtype, "cards the dealer took from the Fola, scored or not"),
            Column("declared_{kind}", dtype, "pieces of combination type kind declared by the four players"),
            Column("declared_{kind}_value", dtype, "their total worth"),
            Column("tricks_{team}", dtype, "tricks the team took"),
            Column("max_delta", dtype, "the largest |Δ| left after a settlement during the deal (below the resto "
                                       "unit, 60)"),
            Column("matto_owed", dtype, "1 when the Matto excused a play in a trick the opponents won"))


SCHEMA = {"deals": (Column("deal", "int64", "the deal's number (dealt by seat deal % 4 from (seed, deal))"),
                    Column("dealer", "int8", "the dealing seat")) + _deal_columns("int16"),
          "games": (Column("game", "int64", "the game's number: deals game·n_deals .. of the same seed"),
                    Column("n_deals", "int32", "deals in the game")) + _deal_columns("int32")
          + (Column("first_dealer", "int8", "the seat that dealt the game's first deal"),)}


#: A Minchiate seat played by a Numba function: its cards in the tricks (its discards and declarations are the
#: heuristic's). Cards are ids 0-96 (trumps 1-40 as 0-39, the Matto 40, then the four suits); a hand is two words,
#: card c < 41 at bit c of ``lo``, the others at bit c - 41 of ``hi``.
NUMBA_SEAT = numba_seat(
    "card play",
    "card(hand_lo: uint64, hand_hi: uint64, legal_lo: uint64, legal_hi: uint64, n: int64 (cards already in the "
    "trick), led: int64 (the led suit 0-3, 4 trumps, -1 none yet), win_card: int64 (-1 none), partner_wins: bool, "
    "unseen_lo: uint64, unseen_hi: uint64) -> int64 (a card id in legal)")


class Minchiate(Game):
    """Minchiate, the Florentine 97-card tarot for two partnerships."""

    name, title = "minchiate", "Minchiate"
    races = True  # its search races the candidates of its card play (sim.racing), without inference
    inference = True  # --search-inference: search seats weight their worlds by the others' past cards
    oracle = True  # the search over the true hands and discards (search.search_card_nb)
    search_beside_python = True  # the state plays search seats by the search kernel given the deal so far
    Options, Study, kernel_rules = MinchiateOptions, MinchiateStudy, staticmethod(MinchiateOptions.kernel_flags)
    variant_figures = ("net_resti", "resti_*", "tricks_*")  # the options study's headline figures
    balance_figures = {"dealer_edge": Figure("dealer_edge", "the dealer's team's resti minus the cutter's team's",
                                             sides="resti")}  # study balance --target
    columns, numba_seat = SCHEMA, NUMBA_SEAT

    def column_keys(self, options) -> dict:
        return {"team": range(2), "source": SOURCES, "kind": COMBO_TYPES}

    replayed_deal = staticmethod(replay_deal)
    row_columns = staticmethod(row_columns)  # the deal columns of the kernels' rows (with state_rows, a Python seat's)

    def new_state(self, study, deal: int):
        """Deal ``deal`` from the pack as the kernel shuffles it (:func:`~cardlab.sim.minchiate.kernels.shuffle_pack_nb`
        on the stream ``(seed, deal)``) as a :class:`~cardlab.sim.minchiate.referee.MinchiateState`, holding the
        stream after the shuffle for its random seats."""
        from cardlab.sim.minchiate.kernels import shuffle_pack_nb
        from cardlab.sim.rng import deal_state
        from cardlab.sim.state import as_stream

        perm = np.empty(N_CARDS, np.int64)
        stream = shuffle_pack_nb(np.uint64(deal_state(study.seed, deal)), perm)
        state = MinchiateState(study.options, deal, perm.tolist(), study=study)
        state.stream = as_stream(stream)
        return state

    def next_deal(self, study, index: int, finished: list):
        """The next of game ``index``'s deals (:meth:`MinchiateStudy.game_deals`); None once all are played."""
        deals = study.game_deals(index)
        return None if len(finished) == len(deals) else self.new_state(study, deals[len(finished)])

    def game_state_columns(self, games: list) -> dict:
        """A game's row is its deals' rows summed, as the kernels sum them (``max_delta``: their largest)."""
        from cardlab.sim.minchiate.kernels import COL

        out = np.zeros((len(games), COL.WIDTH), np.int32)
        for row, g in zip(out, games):
            deals = self.state_rows(g.finished)
            row[:] = deals.sum(axis=0)
            row[COL.MAX_DELTA], row[COL.DEALER] = deals[:, COL.MAX_DELTA].max(), deals[0, COL.DEALER]
        return game_columns(np.array([g.index for g in games], np.int64), games[0].study.options.n_deals, out)

    def state_rows(self, states: list) -> np.ndarray:
        """The kernel's output rows (:data:`~cardlab.sim.minchiate.kernels.COL`) of finished deal states."""
        from cardlab.sim.minchiate.kernels import COL

        out = np.zeros((len(states), COL.WIDTH), np.int32)
        for row, s in zip(out, states):
            led, resti = s.ledger, s.end["resti"]
            row[COL.DEALER] = s.dealer
            row[COL.CUTTER_CARDS], row[COL.DEALER_CARDS] = len(s.cutter_draw), len(s.dealer_draw)
            for t in range(2):
                row[COL.POINTS + t] = sum(led.sources[t].values())
                row[COL.RESTI + t] = resti[t]
                row[COL.TRICKS + t] = s.tricks_won[t]
                row[COL.SOURCES + 8 * t:COL.SOURCES + 8 * t + 8] = [led.sources[t][name] for name in SOURCES]
            for cb in (cb for shown in s.shown.values() for cb in shown):  # every seat's declared combinations
                row[COL.DECL_COUNT + COMBO_TYPES.index(cb.kind)] += 1
                row[COL.DECL_VALUE + COMBO_TYPES.index(cb.kind)] += cb.value
            row[COL.MAX_DELTA], row[COL.MATTO_OWED] = led.max_delta, s.matto_owed
        return out

    def replayed_game(self, study, game: int) -> tuple[str, list]:
        """Its deals (:meth:`MinchiateStudy.game_deals`) replayed as deals (numbers kept), each record with ``game``."""
        deals = study.game_deals(game)
        replay = self.replay_deals(study, deals)
        net = sum(r["net_resti"] for r in replay.records)
        return (f"game {game}: deals {deals[0]} to {deals[-1]}, net resti (team 0 - team 1) {net:+d}\n\n"
                + replay.text, [{"game": game, **r} for r in replay.records])


MINCHIATE = Minchiate()
MinchiateStudy.game = MinchiateState.game = MINCHIATE
