"""Barbu's replays: their text, what they show of a search, their machine-readable records (``cardlab replay barbu
--json``; shape in ``sim.replay``) and the check of a saved whole game.

A deal's record: ``deal``, ``contract``, ``declarer``, ``trump`` (``♣ ♦ ♥ ♠`` or null), ``hands`` as
dealt, ``actions`` and ``scores``: the record of the deal's step-API state
(:meth:`~cardlab.sim.barbu.referee.BarbuState.record`) once the referee has run the log through it.
Trick contracts play one card per action in play order, after (Trumps) the declarer's naming of
the trump suit, ``{"seat": s, "kind": "trump", "suit": "♥"}``; Domino adds ``"pass"`` (nothing
playable), ``"decline"`` (an Ace's extra turn declined, where allowed) and (fan_tan) first the
declarer's start rank, ``{"seat": s, "kind": "start", "rank": "7"}``. A deal of a whole game also
has ``game``, ``played`` (false for a negative deal nobody doubled under
``skip_undoubled_negative``), ``raw`` (the deal's points before doubling) and its doubling actions
first: ``{"seat": s, "kind": "double" | "redouble" | "late-redouble", "target": t}``; its
``scores`` are the settled ones.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.barbu.doubling_referee import decode_log
from cardlab.sim.barbu.game_referee import played_state
from cardlab.sim.barbu.rules import BarbuOptions
from cardlab.sim.cards import card_name, cards_of
from cardlab.sim.game import Replay
from cardlab.sim.replay import action, hand_names, suit_name
from cardlab.sim.search_play import TrickSearches, candidates_text, ranked, searched_text

DOUBLE_KINDS = {1: "double", 2: "redouble", 3: "late-redouble"}


def double_actions(log) -> list:
    """A deal's doubling log as actions: who doubled (redoubled) whom, in order."""
    return [action(actor, DOUBLE_KINDS[kind], target=int(target)) for actor, target, kind in decode_log(log)]


def game_deal_record(options: BarbuOptions, game: int, number: int, deal: dict, played: bool) -> dict:
    """The record of deal ``number`` of whole game ``game`` (``deal`` as from ``game_referee.game_deals``)."""
    record = {"game": int(game), "deal": int(number), "contract": deal["contract"], "declarer": deal["declarer"],
              "trump": suit_name(deal["trump"]), "played": played,
              "hands": [hand_names(cards_of(h)) for h in deal["hands"]],
              "actions": double_actions(deal["doubling"]) if options.double else []}
    if played:
        record["actions"] += played_state(options, deal["contract"], deal["declarer"], deal["hands"], deal["moves"],
                                          deal["trump"]).actions()
    record.update(raw=list(deal["raw"]), scores=list(deal["score"]))
    return record


# ---------------------------------------------------------------- replays (cardlab replay barbu)


def replay_deal(study, deal: int) -> tuple[str, dict]:
    """Deal ``deal`` replayed alone: the referee runs the kernel's log through the deal's state, checking
    every move and the scores; its text and record (the state's)."""
    from cardlab.sim.barbu.game_referee import describe_deal
    from cardlab.sim.barbu.referee import RefereeError
    from cardlab.sim.barbu.states import dealt_deal

    cols = study.play(deal, 1, record=True)
    name, declarer, trump = str(cols["contract"][0]), int(cols["declarer"][0]), int(cols["trump"][0])
    hands, moves = cols["hands"][0], cols["moves"][0]
    contract, seat, dealt = dealt_deal(study, deal)
    if (name, declarer) != (contract, seat) or list(dealt) != list(hands):
        raise RefereeError(f"deal {deal}: the kernel's deal differs from the state's")
    state = played_state(study.options, name, declarer, hands, moves, trump, deal=deal, study=study)
    kernel_scores = [int(s) for s in cols["score"][0]]
    if state.scores() != kernel_scores:
        raise RefereeError(f"deal {deal}: kernel scored {kernel_scores}, the rules give {state.scores()}")
    text = describe_deal(study.options, name, declarer, hands, moves, trump)
    if "search_means" in cols:
        text += describe_searches(study.options, name, declarer, hands, moves, trump, cols["search_means"][0],
                                  cols["search_trump_means"][0])
    return text, state.record()


def replay_deals(study, deals: range):
    """Deals ``deals`` each replayed alone (:func:`replay_deal`), each headed by its number when there are several."""
    parts = (replay_deal(study, d) for d in deals)
    return Replay.joined((text if len(deals) == 1 else f"=== deal {d}\n{text}", record)
                         for d, (text, record) in zip(deals, parts))


def replay_one_game(study, game: int) -> tuple[str, list]:
    """Whole game ``game`` replayed alone: the referee checks every deal, double and score; its text and records."""
    from cardlab.sim.barbu.doubling_referee import decode_log, format_action
    from cardlab.sim.barbu.game_referee import check_game, describe_deal, game_deals, is_skipped

    o = study.options
    cols = study.play_games(game, 1, record=True)
    deals = game_deals(cols, 0, o.game_length)
    verdict = check_game(o, deals)
    lines = [f"game {game} (seed {study.seed}): {o.game_length} deals, contracts {', '.join(o.game_contracts)}"]
    for number, d in enumerate(deals):
        lines.append(f"\n=== deal {number}: seat {d['declarer']} declares {d['contract']}")  # 0-based, as in the rows
        if "search_contract_means" in cols and not np.isnan(cols["search_contract_means"][number]).all():
            lines.append(describe_contract_search(o, cols["search_contract_means"][number]))
        if o.double:
            actions = decode_log(d["doubling"])
            lines.append("doubles: " + ("; ".join(format_action(a) for a in actions) if actions else "none"))
        if is_skipped(o, d):
            lines.append("not played: nobody doubled; the others share the points: "
                         + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(d["raw"])))
        else:
            lines.append(describe_deal(o, d["contract"], d["declarer"], d["hands"], d["moves"], d["trump"]))
            if "search_means" in cols:
                lines.append(describe_searches(o, d["contract"], d["declarer"], d["hands"], d["moves"], d["trump"],
                                               cols["search_means"][number], cols["search_trump_means"][number]
                                               ).lstrip("\n"))
        if d["score"] != d["raw"]:
            lines.append("after doubles: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(d["score"])))
    lines.append("\nfinal totals: " + "  ".join(f"seat {p}: {t:+d} (place {pl})"
                                                for p, (t, pl) in enumerate(zip(verdict.totals, verdict.places))))
    records = [game_deal_record(o, game, number, d, not is_skipped(o, d)) for number, d in enumerate(deals)]
    return "\n".join(lines), records


# ---------------------------------------------------------------- what a replay shows of a search


def describe_searches(options, contract: str, declarer: int, hands, moves, trump: int, means: np.ndarray,
                      trump_means: np.ndarray) -> str:
    """The searched decisions of one deal: each candidate card's mean final score for the searcher.

    ``means`` is the deal's ``search_means`` (log positions x 64) and ``trump_means`` its
    ``search_trump_means``; the referee gives who led each trick (who moved, in Domino). Empty
    when nothing was searched.
    """
    from cardlab.sim.barbu.domino_referee import replay_domino
    from cardlab.sim.barbu.referee import check_deal
    from cardlab.sim.barbu.search_domino import DECLINE_COLUMN

    if contract == "domino":
        events = replay_domino(options, declarer, hands, moves)[2]
        lines = []
        for move in range(1, min(means.shape[0], len(events) + 1)):
            candidates = ranked(means[move])
            if candidates:
                played = int(moves[move])  # below -2: an Ace's extra turn declined, the decline column
                text = candidates_text(candidates, DECLINE_COLUMN if played < -2 else played,
                                       lambda c: "decline" if c == DECLINE_COLUMN else card_name(c))
                lines.append(f"turn {move}, seat {events[move - 1][0]}: {text}")
        return searched_text("decisions (mean final score of the searcher for each candidate move over the sampled "
                             "worlds; * = played)", lines)
    tricks = check_deal(options, contract, declarer, hands, moves, trump=trump if trump >= 0 else None).tricks
    lines = []
    if not np.isnan(trump_means).all():
        by_mean = sorted(range(4), key=lambda s: -trump_means[s])
        lines.append("searched trump: " + "  ".join(f"{'♣♦♥♠'[s]} {trump_means[s]:+.2f}" for s in by_mean))
    cards = TrickSearches("", card_name).searched([trick.cards for trick in tricks], means)  # its ranked candidates
    lines += [f"trick {t + 1}, seat {seat}: " + candidates_text(c, played, card_name) for t, seat, played, c in cards]
    return searched_text("decisions (mean final score of the searcher for each candidate card over the sampled "
                         "worlds; * = played)", lines)


def describe_contract_search(options, contract_means: np.ndarray) -> str:
    """A searched Geronimo choice: each open contract's mean score for the declarer over the sampled worlds,
    and its gain over that contract's average declarer score (what the choice maximises), best first."""
    from cardlab.sim.barbu.play import hand_model
    from cardlab.sim.barbu.rules import CONTRACT_NAMES

    declarer_mean = hand_model(options).declarer_mean

    rows = []
    for slot in np.flatnonzero(~np.isnan(contract_means)):
        name = options.game_contracts[slot]
        mean = float(contract_means[slot])
        rows.append((mean - declarer_mean[CONTRACT_NAMES.index(name)], name, mean))
    rows.sort(key=lambda r: -r[0])
    return "searched contract (mean score, gain over the contract's average declarer score): " + "  ".join(
        f"{name} {mean:+.2f} ({gain:+.2f})" for gain, name, mean in rows)


# ---------------------------------------------------------------- checking a saved whole game (cardlab replay --record)


def checking_game(study, index: int):
    """Whole game ``index`` of ``study`` as a saved record of it is checked on: with ``double``, every seat's doubling
    choices are asked (doubling policy ``own``), so that the record answers them whatever policy made its doubles."""
    from dataclasses import replace

    from cardlab.sim.whole_games import WholeGame

    if study.options.double:
        study = replace(study, double_policies=("own",) * study.options.players)
    return WholeGame(study, index)


def apply_deal_actions(state, actions: list, where: str) -> None:
    """Apply one deal's record ``actions`` to a whole game of :func:`checking_game`. Its doubles come first in a
    record: each doubling choice the round asks a seat is answered yes where the record has that double, and no
    otherwise (the doubles an obligation forces are made without a question); the other actions are moves, each
    checked for its seat and its legality. The doubles the round made must be the record's, in order."""
    from cardlab.sim.barbu.referee import double_actions_now
    from cardlab.sim.play import apply_action

    kinds = set(DOUBLE_KINDS.values())
    doubles = [entry for entry in actions if entry.get("kind") in kinds]
    wanted = {(entry.get("seat"), entry["kind"], entry.get("target")) for entry in doubles}
    deal = state.deal

    def answer():
        while not state.is_over and state.deal == deal and state.current.asking is not None:
            yes, no = double_actions_now(state.current)
            state.apply(yes if (state.current_player, yes.entry["kind"], yes.entry["target"]) in wanted else no)

    for k, entry in enumerate(actions):
        if entry.get("kind") not in kinds:
            answer()
            apply_action(state, k, entry, where)
    answer()
    if state.deal > deal:
        made = [entry for entry in state.finished[-1].record()["actions"] if entry.get("kind") in kinds]
        if made != doubles:
            raise ValueError(f"record: {where}its doubles are not the round's: it gives {_doubles_text(doubles)}, "
                             f"the rules and its choices make {_doubles_text(made)}")


def _doubles_text(entries: list) -> str:
    return ", ".join(f"seat {e.get('seat')} {e['kind']} seat {e.get('target')}" for e in entries) or "none"
