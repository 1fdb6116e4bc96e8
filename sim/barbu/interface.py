"""Barbu through the game interface: its studies of single deals and of whole games, the ladder's hooks, its run
keywords and where they apply; the facade, command line, ladder and options study are :mod:`cardlab.sim.game`'s,
the replays :mod:`~cardlab.sim.barbu.records`' and the step API's states :mod:`~cardlab.sim.barbu.states`'.

Single deals: with several contracts (``contract='all'``: every contract, each on its own deals) deal ``i`` plays
contract ``i % k`` and seat ``(i // k) % n`` declares (the columns: :data:`SCHEMA`).

>>> df = BARBU.simulate(deals=1000, seed=7, contract="no-queens", players=4, deck=52)
>>> int(df[[f"score_{p}" for p in range(4)]].sum(axis=1).iloc[0])
-12
>>> print(BARBU.replay(deal=5, seed=7).text.splitlines()[0])
contract salade, declarer seat 0

Whole games: one row per deal, and with doubling who doubled whom.

>>> df = BARBU.simulate_games(games=10, seed=1, geronimo=True, double=True)
>>> len(df), int(df.groupby("game")[[f"score_{p}" for p in range(4)]].sum().sum(axis=1).iloc[0]) <= 200
(280, True)
>>> r = BARBU.replay_game(game=3, seed=1, geronimo=True, double=True)
>>> len(r.totals), r.text.count("deal ") >= 28
(4, True)

The strength ladder (:mod:`cardlab.sim.ladder`) is per contract: ``'all'`` means the trick contracts (name Domino
to add it); the seat that changes policy on deal ``i`` is ``(i // (k * n)) % n``.

>>> from cardlab.sim.ladder import strength_study
>>> df = strength_study(BARBU, deals=16, seed=1, contract="no-queens", search_worlds=2)
>>> bool((df[[f"score_search_{p}" for p in range(4)]].sum(axis=1) == -12).all())
True
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from cardlab.sim.barbu.records import apply_deal_actions, checking_game, replay_deals, replay_one_game
from cardlab.sim.barbu.rules import ALL_CONTRACTS, TRICK_CONTRACTS, BarbuOptions, doubled, parse_contracts
from cardlab.sim.barbu.states import game_state_columns, new_deal_state, next_deal_state, state_columns
from cardlab.sim.columns import Column, deal_schema
from cardlab.sim.game import Figure, Game, RunKeyword, Study, StudyKind
from cardlab.sim.ladder import LoneSeat, by_table
from cardlab.sim.options import Scope
from cardlab.sim.policy import SHARED_POLICIES
from cardlab.sim.signatures import numba_decision, numba_seat

STUDIES = "cardlab.sim.barbu.studies"  # its paired studies' module (it imports the kernels): imported when they run
TRUMP_BY_POLICY = -1  # sim.barbu.kernels.TRUMP_BY_POLICY: the declarer's policy names the trump
USER_POLICY = len(SHARED_POLICIES) + 1  # sim.barbu.policies.POLICY.USER: a seat of the run's Numba function

#: A run's own keywords: their flags and where they apply (the options' places are their ``applies=`` metadata).
RUN_KEYWORDS = (
    RunKeyword("contract", ", ".join(ALL_CONTRACTS) + ", a comma list, or all (each contract on its own deals, "
               "declarer rotating; default)", "all",
               applies=Scope(lambda c: c["unit"] == "deals" and c["study"] != "trumps",
                             "only to single deals ({deals}) and to the contracts study ({contracts_study})")),
    RunKeyword("double_policy", "whole games: doubling policy, heuristic, random or maximum (or one per seat; own: a "
               "Python seat, or you in cardlab play --game-index, chooses its doubles itself); default: the card "
               "policy", commands=("simulate", "replay", "play"),
               applies=Scope(doubled, "only to whole games with {double}")),
    RunKeyword("compare_policies", "study contracts|trumps: play the study once per policy on the same deals, e.g. "
               "heuristic,search, and report which conclusions change", commands=("study",),
               applies=Scope(lambda c: False, "only to {contracts_study} and {trumps_study}")))


@dataclass(frozen=True)
class BarbuStudy(LoneSeat, Study):
    """Everything that decides a run of single deals: rules, contracts, policies, seed (and search settings). On the
    strength ladder one seat changes (:class:`~cardlab.sim.ladder.LoneSeat`), judged by its score."""

    search_worlds: int = 32  # worlds sampled per searched decision (policy "search")
    search_rollout: str = "heuristic"  # the policy of every seat in the search's rollouts
    contracts: tuple = ALL_CONTRACTS

    @classmethod
    def build(cls, *, contract="all", **keywords) -> "BarbuStudy":
        """A run of single deals of ``contract`` (``'all'``, a name, or names)."""
        return replace(super().build(**keywords), contracts=parse_contracts(contract))

    @cached_property
    def kernel_args(self) -> dict:
        from cardlab.sim.barbu.play import kernel_tables

        return kernel_tables(self.options, self.contracts, self.policies)

    def play(self, first: int, count: int, *, record: bool = False, trump_how: int = TRUMP_BY_POLICY,
             keep_hands: bool = False) -> dict:
        """Columns of deals ``first .. first+count-1`` (:func:`~cardlab.sim.barbu.play.deal_columns`)."""
        from cardlab.sim.barbu.play import deal_columns

        return deal_columns(self, first, count, record=record, trump_how=trump_how, keep_hands=keep_hands)

    def searched(self, deals, *, trump_how: int = TRUMP_BY_POLICY, policies=None, record: bool = False) -> tuple:
        """The search kernel on the deal numbers ``deals`` (:func:`~cardlab.sim.barbu.play.searched_columns`)."""
        from cardlab.sim.barbu.play import searched_columns

        return searched_columns(self, deals, trump_how=trump_how, policies=policies, record=record)

    def metadata(self, unit: str = "deal") -> dict:
        return {**super().metadata(unit), "contracts": list(self.contracts)}

    # ---------------------------------------------------------------- the strength ladder's hooks

    @property
    def ladder_block(self) -> int:
        """A seat's turn on the ladder lasts a round of the deal's contracts (every seat meets every declarer)."""
        return len(self.contracts)

    def play_tables(self, deals, policies) -> dict:
        """Every table through the search kernel (each deal's trump named by its declarer's policy)."""
        return by_table(deals, policies, lambda d, row: {"score": self.searched(d, policies=row)[1]})

    def state_tables(self, states) -> dict:
        """:meth:`play_tables`' columns of finished step-API states (the ladder's tables with a Python seat)."""
        return {"score": self.game.state_columns(states)["score"]}

    def ladder_facts(self, deals) -> dict:
        import pandas as pd

        from cardlab.sim.barbu.rules import CONTRACT_NAMES

        k, n = len(self.contracts), self.options.players
        return {"contract": pd.Categorical.from_codes(self.kernel_args["contracts"][deals % k],
                                                      categories=CONTRACT_NAMES),
                "declarer": ((deals // k) % n).astype(np.int8)}

    def ladder_scores(self, cols) -> np.ndarray:
        return cols["score"]


@dataclass(frozen=True)
class BarbuGameStudy(Study):
    """Everything that decides a run of whole games: rules, card and doubling policies, seed (and search settings)."""

    double_policies: tuple = ()

    @classmethod
    def build(cls, *, double_policy=None, person=None, **keywords) -> "BarbuGameStudy":
        """A run of whole games, each seat's doubling policy by ``sim.barbu.doubling.run_double_policies``."""
        from cardlab.sim.barbu.doubling import run_double_policies

        study = super().build(**keywords)
        return replace(study, double_policies=run_double_policies(study.policies, double_policy, person))

    @cached_property
    def kernel_args(self) -> dict:
        from cardlab.sim.barbu.play import game_tables

        return game_tables(self.options, self.policies, self.double_policies)

    def play_games(self, first: int, count: int, *, record: bool = False) -> dict:
        """Play games ``first .. first+count-1``; one row per deal (and the logs when ``record``)."""
        from cardlab.sim.barbu.play import play_game_columns

        return play_game_columns(self, first, count, record=record)

    def metadata(self, unit: str = "game") -> dict:
        return {**super().metadata("game"), "double_policies": list(self.double_policies),
                "contracts": list(self.options.game_contracts), "deals_per_game": self.options.game_length}


_DEAL = (Column("contract", "category", "the contract played"),
         Column("declarer", "int8", "the seat that chose the contract"),
         Column("trump", "int8", "the trump suit in Trumps, 0-3 = ♣♦♥♠ (-1: none)"))
SCHEMA = deal_schema(Column("deal", "int64", "the deal's number (its stream is (seed, deal))"), _DEAL,
                     deals=(Column("score_{seat}", "int16", "the seat's score on the deal"),),
                     games=(Column("raw_{seat}", "int16", "the seat's deal score before doubling"),
                            Column("score_{seat}", "int16", "the seat's deal score after doubles are settled"),
                            Column("double_{seat}_{other}", "int8", "1 when seat doubled other, 2 when other redoubled",
                                   when="double")))


#: A Barbu seat played by a Numba player: its cards in the trick contracts and Trumps (``"card"``, the main
#: decision) and its Domino moves where it has a choice (``"domino"``, heuristic's when left out); its Trumps
#: suit, fan_tan start rank and, in whole games, its contract choice and doubling are the heuristic's.
NUMBA_SEAT = numba_seat(
    "card play in the trick contracts",
    "card(hand: uint64, legal: uint64, led: int64, best: int64, trump: int64, last: bool, unseen: uint64, "
    "values: int32[:], points: int64) -> int64 (a card id whose bit is in legal)",
    USER_POLICY, key="card",
    extras=(numba_decision("domino", "the Domino moves where it has a choice",
                     "domino(hand: uint64, legal: uint64, table: uint64, laid: uint64, unseen: uint64, "
                     "counts: int64[:], may_decline: bool) -> int64 (a card id whose bit is in legal; -3 to decline "
                     "an Ace's extra turn when may_decline; -1: the heuristic's move)"),))


class Barbu(Game):
    """Barbu: the trick-taking compendium (rules as coded in ``docs/rules/barbu.md``), 3 to 5 players."""

    name, title = "barbu", "Barbu"
    Options, Study, GameStudy = BarbuOptions, BarbuStudy, BarbuGameStudy
    policies = SHARED_POLICIES + ("classic",)  # sim.barbu.policies.POLICY_NAMES
    oracle = True  # sim.barbu.search: every contract's card play, Trumps' suit and Geronimo's contract choice
    search_beside_python = True  # state_policies: the searched kernels given the deal so far
    inference = True  # --search-inference: search seats weight their worlds by the others' past cards
    races = True  # by default, its card search in the trick contracts without inference (sim.racing, docs/search.md)
    racing_level = 2  # sim.racing.LEVELS: the first check after 12 worlds (the shared rule's 8 lost 2% of the gain)
    study_deals = {"strength": 8_000}  # search is slow
    variant_figures = ("declarer_edge", "score_*")  # the options study's headline: the declarer's edge
    balance_figures = {"edge": Figure("declarer_edge", "the declarer's edge on the deals of one contract",
                                      by="contract", args=ALL_CONTRACTS)}  # study balance --target "edge(...)"
    columns = SCHEMA
    run_keywords = RUN_KEYWORDS
    numba_seat = NUMBA_SEAT
    new_state = staticmethod(new_deal_state)  # the step API's states: sim.barbu.states
    next_deal = staticmethod(next_deal_state)
    state_columns = staticmethod(state_columns)
    replay_deals, replayed_game = staticmethod(replay_deals), staticmethod(replay_one_game)  # sim.barbu.records
    apply_record_deal = staticmethod(apply_deal_actions)
    studies = {name: StudyKind.imported(text, STUDIES, "paired_study", "paired_metadata", name=name) for name, text in (
        ("trumps", "each Trumps deal played once with each suit as trump"),
        ("contracts", "every deal played under every contract"))}

    def run_context(self, study, *, unit: str, study_name: str | None = None) -> dict:
        """The shared facts, and the contracts ``played``: a run of deals' own, else a whole game's."""
        played = study.contracts if unit == "deals" else study.options.game_contracts
        return {**super().run_context(study, unit=unit, study_name=study_name), "played": frozenset(played)}

    @staticmethod
    def spell(name: str) -> str:
        return {"contracts_study": "contract_value_study", "trumps_study": "trump_study"}.get(name) or Game.spell(name)

    def study_keywords(self, unit: str, study_name: str | None, given: dict) -> dict:
        """Whole games take ``double_policy``; single deals their ``contract``: Trumps alone in the trumps study (one
        given there is refused), the trick contracts for the strength ladder's ``'all'``."""
        if unit == "games":
            return {k: v for k, v in given.items() if k == "double_policy"}
        contract = "trumps" if study_name == "trumps" else given.get("contract", "all")
        return {"contract": TRICK_CONTRACTS if study_name == "strength" and contract == "all" else contract}

    def record_keywords(self, record: dict) -> dict:
        """A deal's contract comes from the run's contracts (deal ``i`` plays contract ``i % k``)."""
        return {"contract": list(record["contracts"])} if "contracts" in record else {}

    def record_game_state(self, record: dict):
        return checking_game(self.build("games", seed=record["seed"], **record.get("options", {})), record["game_index"])

    def flag_keywords(self, args) -> dict:
        out = super().flag_keywords(args)
        if "double_policy" in out and getattr(args, "game_index", None) is not None and hasattr(args, "seat"):
            out["person"] = args.seat  # cardlab play: you may choose your own doubles
        return out

    def game_state_columns(self, games: list) -> dict:
        return game_state_columns(super().game_state_columns(games), games)


BARBU = Barbu()
BarbuStudy.game = BarbuGameStudy.game = BARBU
