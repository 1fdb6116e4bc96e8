"""The search policy in the facade: runs with ``search`` seats, and what ``replay`` shows of a search.

``play_columns`` hands any run with a ``search`` seat to :func:`search_columns`: the deal kernel
plays every deal first with the heuristic in place of search (this gives the dealt hands and the
columns), then the search kernel (``sim.barbu.search_deals``) replays every deal, trick contracts
and Domino, with the search seats searching and overwrites their rows. Both kernels deal deal
``i`` from ``(seed, i)``, so the hands are the same.
"""
from __future__ import annotations

import numpy as np

from cardlab.sim.barbu.policies import POLICY
from cardlab.sim.barbu.search import DEFAULT_WORLDS, INFERENCE_EPSILON, ROLLOUT_NAMES
from cardlab.sim.barbu.search_deals import play_search_deals_nb
from cardlab.sim.barbu.search_domino import DECLINE_COLUMN
from cardlab.sim.cards import card_name
from cardlab.sim.game import INFERENCE
from cardlab.sim.search_play import candidates_text, ranked, searched_text
from cardlab.sim.user import raise_fault

__all__ = ["DEFAULT_INFERENCE", "DEFAULT_WORLDS", "INFERENCE", "ROLLOUT_NAMES", "describe_contract_search",
           "describe_searches", "inference_eps", "kernel_search", "run_search_kernel",
           "search_columns", "uses_search"]


def uses_search(policies) -> bool:
    """Whether any seat of a kernel ``policies`` array (or a tuple of names) searches (``search`` or ``oracle``)."""
    return any(p in (POLICY.SEARCH, POLICY.ORACLE, "search", "oracle") for p in policies)


DEFAULT_INFERENCE = "off"  # search_inference's default (its values: cardlab.sim.game.INFERENCE)


def inference_eps(policies, inference: str) -> np.ndarray:
    """Each seat's inference ``eps`` as the kernels read it: :data:`INFERENCE_EPSILON` for a ``search`` seat when
    ``inference`` is ``"on"``, else 0 (off; the oracle never infers)."""
    on = np.asarray(policies) == POLICY.SEARCH
    return np.where(on, INFERENCE_EPSILON if inference == "on" else 0.0, 0.0).astype(np.float64)


def kernel_search(a: dict, policies) -> tuple:
    """The search settings of kernel tables ``a`` (a study's, :func:`~cardlab.sim.barbu.interface.search_settings`)
    as the search kernels take them: ``(worlds, rollout id, inference eps per seat of policies, racing)``, the
    defaults where the tables carry none."""
    return (a.get("search_worlds", DEFAULT_WORLDS), ROLLOUT_NAMES.index(a.get("search_rollout", "heuristic")),
            inference_eps(policies, a.get("search_inference", DEFAULT_INFERENCE)), a["search_racing"])


def run_search_kernel(a: dict, seed: int, deals: np.ndarray, *, trump_how: int, policies=None, record: bool = False):
    """The search kernel on the deal numbers ``deals``: returns ``(trump, score, moves, means, trump_means)``.

    ``policies`` (kernel ids per seat) overrides ``a["policies"]``.
    ``moves``, ``means`` and ``trump_means`` have no rows unless ``record``.
    """
    from cardlab.sim.barbu.play import domino_callback, user_callback

    n = a["n"]
    count = len(deals)
    trump = np.full(count, -1, np.int8)
    score = np.zeros((count, n), np.int16)
    rows = count if record else 0
    moves = np.full((rows, a["log_width"]), -1, np.int8)
    means = np.full((rows, a["log_width"], 64), np.nan, np.float32)
    trump_means = np.full((rows, 4), np.nan, np.float32)
    faults = np.zeros((count, 2), np.int64)
    policies = a["policies"] if policies is None else policies
    worlds, rollout, eps, racing = kernel_search(a, policies)
    play_search_deals_nb(seed, np.asarray(deals, np.int64), a["deck"], n, a["contracts"], a["card_values"],
                         a["trick_values"], a["last_two"], a["flags"], a["point_masks"],
                         policies, a["duties"], a["lead_rule"],
                         a["early_stop"], trump_how, a["weights"], a["domino_variant"], a["domino_start_rank"],
                         a["domino_starter"], a["ace_replay_optional"], a["places"], worlds, rollout,
                         trump, score, moves, means, trump_means, user_callback(a["user_name"], True),
                         domino_callback(a["user_name"], True), faults, eps, racing)
    raise_fault(faults, np.asarray(deals), a["user_name"], "deal")
    return trump, score, moves, means, trump_means


def search_columns(a: dict, seed: int, first: int, count: int, *, record: bool, trump_how: int,
                   keep_hands: bool) -> dict:
    """``play_columns`` for a run with search seats (see the module docstring); ``record`` adds ``search_means``."""
    from cardlab.sim.barbu.play import play_columns

    searching = np.isin(a["policies"], (POLICY.SEARCH, POLICY.ORACLE))
    plain = {**a, "policies": np.where(searching, POLICY.HEURISTIC, a["policies"])}
    cols = play_columns(plain, seed, first, count, record=record, trump_how=trump_how, keep_hands=keep_hands)
    trump, score, moves, means, trump_means = run_search_kernel(a, seed, cols["deal"], trump_how=trump_how,
                                                                record=record)
    cols["trump"][:] = trump
    cols["score"][:] = score
    if record:
        cols["moves"][:] = moves
        cols["search_means"] = means
        cols["search_trump_means"] = trump_means
    return cols


def describe_searches(options, contract: str, declarer: int, hands, moves, trump: int, means: np.ndarray,
                      trump_means: np.ndarray) -> str:
    """The searched decisions of one deal: each candidate card's mean final score for the searcher.

    ``means`` is the deal's ``search_means`` (log positions x 64) and ``trump_means`` its
    ``search_trump_means``; the referee gives who led each trick (who moved, in Domino). Empty
    when nothing was searched.
    """
    from cardlab.sim.barbu.domino_referee import replay_domino
    from cardlab.sim.barbu.referee import check_deal

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
    n = options.players
    tricks = check_deal(options, contract, declarer, hands, moves, trump=trump if trump >= 0 else None).tricks
    suits = "♣♦♥♠"
    lines = []
    if not np.isnan(trump_means).all():
        by_mean = sorted(range(4), key=lambda s: -trump_means[s])
        lines.append("searched trump: " + "  ".join(f"{suits[s]} {trump_means[s]:+.2f}" for s in by_mean))
    for move in range(min(means.shape[0], n * options.hand_size)):
        candidates = ranked(means[move])
        if candidates:
            t, k = divmod(move, n)
            text = candidates_text(candidates, int(moves[move]), card_name)
            lines.append(f"trick {t + 1}, seat {(tricks[t].leader + k) % n}: {text}")
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
