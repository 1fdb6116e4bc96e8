"""Python facade for Minchiate: validate, call the kernels in chunks, return DataFrames; replay one deal."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from cardlab.sim import runner
from cardlab.sim.minchiate.kernels import (COL, LOG_CUTTER_DISCARDS, LOG_DEALER_DISCARDS, LOG_PERM, LOG_PLAYS,
                                           LOG_WIDTH, play_deals_nb, play_games_nb)
from cardlab.sim.minchiate.referee import RefereeError, referee_deal
from cardlab.sim.minchiate.rules import COMBO_TYPES, PLAYERS, SOURCES, MinchiateOptions, card_name
from cardlab.sim.minchiate.search_play import (DEFAULT_WORLDS, POLICY_NAMES, check_search_options, describe_searches,
                                               json_searches, search_games, search_raw, uses_search)
from cardlab.sim.options import parse_per_seat, with_rules
from cardlab.sim.rng import check_seed

if TYPE_CHECKING:
    import pandas as pd  # the facades return frames, but a command writing a file never loads pandas


def make_options(options: MinchiateOptions | None = None, **rules) -> MinchiateOptions:
    """``options`` updated with keyword rule options; unknown names raise a clear ``ValueError``."""
    return with_rules(options or MinchiateOptions(), "Minchiate", rules)


@dataclass(frozen=True)
class Study:
    """Everything that decides a run's results: rules, policies, seed (and the search's worlds and rollouts)."""

    options: MinchiateOptions
    policies: tuple[str, ...]
    seed: int
    search_worlds: int = DEFAULT_WORLDS  # worlds sampled per searched decision (policy "search")
    search_rollout: str = "heuristic"  # the policy of every seat in the search's rollouts

    @classmethod
    def build(cls, *, options=None, policy="heuristic", seed=0, search_worlds=None, search_rollout=None,
              **rules) -> "Study":
        options = make_options(options, **rules)
        policies = parse_per_seat("policy", policy, PLAYERS, POLICY_NAMES)
        return cls(options, policies, check_seed(seed), *check_search_options(policies, search_worlds, search_rollout))

    @cached_property
    def flags(self) -> np.ndarray:
        return self.options.kernel_flags()

    @cached_property
    def policy_ids(self) -> np.ndarray:
        return np.array([POLICY_NAMES.index(p) for p in self.policies], np.int64)

    def raw(self, first: int, count: int, *, record: bool = False):
        """Kernel output ``(out, logs, declared)`` for deals ``first .. first+count-1``."""
        if uses_search(self.policies):  # search seats: sim.minchiate.search_play
            return search_raw(self, np.arange(first, first + count), record=record)[:3]
        out = np.zeros((count, COL.WIDTH), np.int32)
        logs = np.zeros((count if record else 0, LOG_WIDTH), np.int8)
        declared = np.zeros((count if record else 0, 4), np.int16)
        play_deals_nb(self.seed, first, count, self.flags, self.policy_ids, out, logs, declared)
        return out, logs, declared

    def play(self, first: int, count: int) -> dict:
        """Columns of deals ``first .. first+count-1``."""
        out, _, _ = self.raw(first, count)
        return dict(deal=np.arange(first, first + count, dtype=np.int64), **columns(out))

    def play_games(self, first: int, count: int) -> dict:
        """Columns of whole games ``first .. first+count-1`` (each the sum of its ``n_deals`` deals)."""
        if uses_search(self.policies):
            out = search_games(self, first, count)
        else:
            out = np.zeros((count, COL.WIDTH), np.int32)
            play_games_nb(self.seed, first, count, self.options.n_deals, self.flags, self.policy_ids, out)
        cols = columns(out, wide=True)
        cols["first_dealer"] = cols.pop("dealer")
        return dict(game=np.arange(first, first + count, dtype=np.int64), n_deals=np.full(count, self.options.n_deals,
                                                                                          np.int32), **cols)

    def metadata(self) -> dict:
        meta = {"game": "minchiate", "options": self.options.to_dict(), "policies": list(self.policies),
                "seed": self.seed}
        if uses_search(self.policies):
            meta.update(search_worlds=self.search_worlds, search_rollout=self.search_rollout)
        return meta


def columns(out: np.ndarray, wide: bool = False) -> dict:
    """Named columns of the kernel's per-deal output (see the README's column list).

    Deal columns are ``int16``; ``wide`` (whole games, sums of many deals) keeps ``int32``.
    """
    small = np.int32 if wide else np.int16
    c = {
        "dealer": out[:, COL.DEALER].astype(np.int8),
        "cutter_cards": out[:, COL.CUTTER_CARDS].astype(small),
    }
    for t in range(2):
        c[f"points_{t}"] = out[:, COL.POINTS + t].astype(small)
    for t in range(2):
        c[f"resti_{t}"] = out[:, COL.RESTI + t].astype(small)
    c["net_resti"] = (out[:, COL.RESTI] - out[:, COL.RESTI + 1]).astype(small)
    for t in range(2):
        for s, name in enumerate(SOURCES):
            c[f"{name}_{t}"] = out[:, COL.SOURCES + 8 * t + s].astype(small)
    c["dealer_cards"] = out[:, COL.DEALER_CARDS].astype(small)
    for i, kind in enumerate(COMBO_TYPES):
        c[f"declared_{kind}"] = out[:, COL.DECL_COUNT + i].astype(small)
        c[f"declared_{kind}_value"] = out[:, COL.DECL_VALUE + i].astype(small)
    for t in range(2):
        c[f"tricks_{t}"] = out[:, COL.TRICKS + t].astype(small)
    c["max_delta"] = out[:, COL.MAX_DELTA].astype(small)
    c["matto_owed"] = out[:, COL.MATTO_OWED].astype(small)
    return c


def simulate(*, deals: int, seed: int = 0, policy="heuristic", options: MinchiateOptions | None = None,
             threads: int | None = None, first_deal: int = 0, chunk_size: int = runner.DEFAULT_CHUNK,
             progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play ``deals`` independent Minchiate deals; one row per deal (or Parquet ``out``).

    Deal ``i`` is dealt by seat ``i % 4`` from the stream (seed, i); team 0 is seats 0 and 2.
    Columns: ``deal``, ``dealer``, ``cutter_cards``, ``points_t``, ``resti_t``, ``net_resti``
    and the points by source ``draws_t`` … ``last_trick_t`` (see the README). Rule options are
    keywords or a :class:`MinchiateOptions`. Identical for any ``threads`` and ``chunk_size``.

    >>> df = simulate(deals=200, seed=1)
    >>> int((df.card_points_0 + df.card_points_1).iloc[0])
    142
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play, deals=deals, first_deal=first_deal, chunk_size=chunk_size, progress=progress,
                      out=out, meta=study.metadata())


def simulate_games(*, games: int, seed: int = 0, policy="heuristic", options: MinchiateOptions | None = None,
                   threads: int | None = None, first_game: int = 0, chunk_size: int = runner.DEFAULT_GAME_CHUNK,
                   progress: bool = False, out=None, **rules) -> pd.DataFrame | None:
    """Play ``games`` whole games of ``n_deals`` deals each; one row per game, the deals' rows summed.

    Game ``g`` is deals ``g·n .. g·n + n - 1`` of the independent-deal run (same seed), so the deal
    passes to the next seat each deal; ``net_resti`` is the game's result.

    >>> df = simulate_games(games=20, seed=1, n_deals=4)
    >>> sorted(set(df.n_deals.tolist()))
    [4]
    """
    study = Study.build(options=options, policy=policy, seed=seed, **rules)
    runner.set_threads(threads)
    return runner.run(study.play_games, deals=games, first_deal=first_game, chunk_size=chunk_size,
                      progress=progress, out=out, meta={**study.metadata(), "unit": "game"}, unit="game")


def kernel_record(study: Study, deal: int) -> tuple[dict, dict]:
    """The referee's record of one deal and the kernel's row, after checking that they agree."""
    out, logs, declared = study.raw(deal, 1, record=True)
    return check_record(study, deal, out, logs, declared)


def check_record(study: Study, deal: int, out, logs, declared) -> tuple[dict, dict]:
    """:func:`kernel_record` from the kernel's recorded output of that one deal."""
    log = logs[0].astype(np.int64)
    rec = referee_deal(study.options, deal, log[LOG_PERM:LOG_PERM + 97], log[LOG_CUTTER_DISCARDS:LOG_DEALER_DISCARDS],
                       log[LOG_DEALER_DISCARDS:LOG_PLAYS], declared[0], log[LOG_PLAYS:LOG_PLAYS + 84])
    row = {k: v[0] for k, v in columns(out).items()}
    check_agreement(rec, row, deal)
    return rec, row


def check_agreement(rec: dict, row: dict, deal: int) -> None:
    """Raise :class:`RefereeError` when the kernel's row differs from the referee's record."""
    expect = {"dealer": rec["dealer"], "cutter_cards": len(rec["cutter_draw"]), "dealer_cards": len(rec["dealer_draw"]),
              "net_resti": rec["net_resti"], "tricks_0": rec["tricks_won"][0], "tricks_1": rec["tricks_won"][1]}
    for t in range(2):
        expect[f"points_{t}"] = rec["points"][t]
        expect[f"resti_{t}"] = rec["resti"][t]
        for s in SOURCES:
            expect[f"{s}_{t}"] = rec["sources"][t][s]
    for name, want in expect.items():
        if int(row[name]) != int(want):
            raise RefereeError(f"deal {deal}: kernel {name} = {int(row[name])}, the rules give {want}")


class DealReplay(NamedTuple):
    """One deal replayed alone and checked by the referee."""

    record: dict  # the referee's record (card ids)
    text: str  # readable, step by step
    json: str  # one JSON object (one line), card names


def replay(*, deal: int, seed: int = 0, policy="heuristic", options: MinchiateOptions | None = None,
           **rules) -> DealReplay:
    """Replay deal ``deal`` of a run alone; the referee checks every step and the scores.

    >>> print(replay(deal=3, seed=7).text.splitlines()[0])
    deal 3: dealer seat 3, cutter seat 2 (team 0 = seats 0 and 2)
    """
    deal = runner.check_positive_int("deal", deal, minimum=0)
    return replay_study(Study.build(options=options, policy=policy, seed=seed, **rules), deal)


def replay_study(study: Study, deal: int) -> DealReplay:
    """:func:`replay` for a built :class:`Study`."""
    if not uses_search(study.policies):
        rec, _ = kernel_record(study, deal)
        return DealReplay(rec, describe(rec), json.dumps(json_record(rec), ensure_ascii=False))
    out, logs, declared, means = search_raw(study, [deal], record=True)
    rec, _ = check_record(study, deal, out, logs, declared)
    record = dict(json_record(rec), searched=json_searches(rec, means[0]))
    return DealReplay(rec, describe(rec) + describe_searches(rec, means[0]), json.dumps(record, ensure_ascii=False))


def _names(cards) -> list[str]:
    return [card_name(c) for c in cards]


def json_record(rec: dict) -> dict:
    """The machine-readable record of a deal (card names as in the text replay)."""
    return {
        "deal": rec["deal"], "dealer": rec["dealer"], "cutter": rec["cutter"],
        "cutter_draw": _names(rec["cutter_draw"]), "hands": [_names(h) for h in rec["hands"]],
        "exposed": {p: card_name(c) for p, c in rec["exposed"].items()}, "fola": _names(rec["fola"]),
        "dealer_draw": _names(rec["dealer_draw"]), "discards": [_names(d) for d in rec["discards"]],
        "declarations": [[{"kind": cb["kind"], "cards": _names(cb["cards"]), "value": cb["value"]} for cb in seat]
                         for seat in rec["declarations"]],
        "tricks": [[[p, card_name(c)] for p, c in trick] for trick in rec["tricks"]],
        "matto_paid": None if rec["matto_paid"] is None else card_name(rec["matto_paid"]),
        "pile_combinations": [[{"kind": cb["kind"], "cards": _names(cb["cards"]), "value": cb["value"]} for cb in t]
                              for t in rec["pile_combinations"]],
        "points_by_source": rec["sources"], "points": rec["points"], "resti": rec["resti"],
        "net_resti": rec["net_resti"], "events": rec["events"],
    }


def describe(rec: dict) -> str:
    """The deal as text: draws, Fola, discards, declarations, 21 tricks, every scoring event with Δ and resti."""
    events = iter(rec["events"])

    def ev():
        e = next(events)
        return f"  [{e['event']}: team {e['team']} +{e['points']}; Δ {e['delta']:+d}, resti {e['resti'][0]}-{e['resti'][1]}]"

    lines = [f"deal {rec['deal']}: dealer seat {rec['dealer']}, cutter seat {rec['cutter']} (team 0 = seats 0 and 2)"]
    lines.append(f"cutter's draw ({len(rec['cutter_draw'])}): {', '.join(_names(rec['cutter_draw'])) or 'nothing'}")
    lines.append(ev())
    for p in range(4):
        lines.append(f"seat {p} dealt: {', '.join(_names(rec['hands'][p]))}")
    for p, c in rec["exposed"].items():
        lines.append(f"exposed (seat {p}): {card_name(c)}")
        lines.append(ev())
    lines.append(f"Fola: {', '.join(_names(rec['fola'])) or 'empty'}")
    lines.append(f"dealer's draw: scored {', '.join(_names(rec['dealer_scored'])) or 'nothing'}; "
                 f"taken unscored {', '.join(_names(rec['dealer_draw'][len(rec['dealer_scored']):])) or 'nothing'}")
    lines.append(ev())
    for p in range(4):
        if rec["discards"][p]:
            lines.append(f"seat {p} discards: {', '.join(_names(rec['discards'][p]))}")
    for j in range(1, 5):
        p = (rec["dealer"] + j) % 4
        shown = rec["declarations"][p]
        text = "; ".join(f"{cb['kind']} {'-'.join(_names(cb['cards']))} = {cb['value']}" for cb in shown)
        lines.append(f"seat {p} declares: {text or 'nothing'}")
        lines.append(ev())
    for t, trick in enumerate(rec["tricks"]):
        lines.append(f"trick {t + 1:2d}: " + ", ".join(f"{p}:{card_name(c)}" for p, c in trick))
        lines.append(ev())
    if rec["matto_paid"] is not None:
        lines.append(f"Matto debt paid with {card_name(rec['matto_paid'])}")
    for t in range(2):
        combos = "; ".join(f"{cb['kind']} = {cb['value']}" for cb in rec["pile_combinations"][t])
        lines.append(f"team {t} pile: {rec['pile_sizes'][t]} cards; combinations: {combos or 'none'}")
    for e in events:
        lines.append(f"  [{e['event']}: +{e['points']}; Δ {e['delta']:+d}]")
    for t in range(2):
        src = ", ".join(f"{k} {v}" for k, v in rec["sources"][t].items())
        lines.append(f"team {t}: {rec['points'][t]} points ({src}); resti {rec['resti'][t]}")
    lines.append(f"net resti (team 0 - team 1): {rec['net_resti']:+d}")
    return "\n".join(lines)
