"""Plain-Python referee of whole Barbu games: schedule, contract choice, play, doubling, settlement.

It replays one game's logs (as returned by ``GameStudy.play_games(..., record=True)``) deal by deal with
the deal referees' states (``referee.TrickState``, ``domino_referee.DominoState``) and the doubling
referee, and checks the §2 schedule: who declares each deal, that in Geronimo every player declares
every contract exactly once (choosing only among its own unplayed contracts), that in Regular mode
the contracts follow the cycle, and that the final scores are the settled raw scores.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from cardlab.sim.barbu.domino_referee import DominoState, format_domino
from cardlab.sim.barbu.doubling_referee import DoublingDeal, check_game as check_doubling_game, decode_log
from cardlab.sim.barbu.referee import BarbuState, RefereeError, TrickState, check_deal, format_deal
from cardlab.sim.barbu.rules import POSITIVE_CONTRACTS, BarbuOptions, contract_total
from cardlab.sim.cards import cards_of


@dataclass
class GameVerdict:
    raw: list = field(default_factory=list)  # per deal, raw scores
    final: list = field(default_factory=list)  # per deal, settled scores
    totals: list = field(default_factory=list)  # per seat, game total
    places: list = field(default_factory=list)  # per seat, 1 = first; equal totals share a place


def played_state(options: BarbuOptions, contract: str, declarer: int, hands, moves, trump: int = -1, *, deal: int = 0,
                 study=None) -> BarbuState:
    """One deal of any contract from its move log, checked move by move by the contract's state; the
    finished state (``trump``: the suit the Trumps declarer named, -1 outside Trumps)."""
    sets = [set(cards_of(int(h))) for h in hands]
    if contract == "domino":
        return DominoState(options, declarer, sets, deal=deal, study=study).run_log(moves)
    return TrickState(options, contract, declarer, sets, deal=deal, study=study).run_log(
        moves, trump if trump >= 0 else None)


def check_any_deal(options: BarbuOptions, contract: str, declarer: int, hands, moves, trump: int = -1) -> list:
    """Referee one deal of any contract from its move log; returns the recomputed scores."""
    return played_state(options, contract, declarer, hands, moves, trump).scores()


def describe_deal(options: BarbuOptions, contract: str, declarer: int, hands, moves, trump: int = -1) -> str:
    """The deal as readable text: trick by trick, or turn by turn for Domino."""
    if contract == "domino":
        return format_domino(options, declarer, hands, moves)
    return format_deal(check_deal(options, contract, declarer, hands, moves, trump=trump if trump >= 0 else None))


def is_skipped(options: BarbuOptions, deal: dict) -> bool:
    """Whether §7 item 12 leaves this deal unplayed: the option is on, the contract is negative
    and nobody doubled."""
    return (options.skip_undoubled_negative and deal["contract"] not in POSITIVE_CONTRACTS
            and not decode_log(deal["doubling"]))


def split_points(total: int, n: int, declarer: int, remainder: str = "declarer") -> list:
    """An unplayed deal: the non-declarers share its total equally, rounded down, and what is left
    (0 to n-2 points) goes to the declarer (``remainder='declarer'``) or, one point each, to the
    non-declarers in turn from the declarer's left (``'others'``; the declarer scores 0). The sum
    stays ``total``."""
    others = [(declarer + k) % n for k in range(1, n)]
    share = total // (n - 1)
    left = total - share * (n - 1)
    scores = [0] * n
    for k, p in enumerate(others):
        scores[p] = share + (1 if remainder == "others" and k < left else 0)
    if remainder == "declarer":
        scores[declarer] = left
    return scores


def expected_schedule(options: BarbuOptions) -> list:
    """(declarer, contract or None when the declarer chooses) for each deal of a game, per §2."""
    n, contracts, length = options.players, options.game_contracts, options.game_length
    k = len(contracts)
    out = []
    for d in range(length):
        if options.geronimo:
            out.append(((d // k) % n if options.declarer_blocks else d % n, None))
        elif options.regular_cycle == "per_player":
            out.append((d % n, contracts[(d // n) % k]))
        else:  # one pass per iteration; one seat further every n / gcd(n, k) iterations (fairness)
            iteration = d // k
            period = n // math.gcd(n, k)
            out.append(((d + iteration // period) % n, contracts[d % k]))
    return out


def placings(totals: list) -> list:
    """Place of each seat: 1 + the number of seats with a strictly higher total (ties share)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def check_game(options: BarbuOptions, deals: list) -> GameVerdict:
    """Check one game. ``deals`` holds one dict per deal with keys declarer, contract (name),
    trump (-1 or suit), hands (bitmasks), moves, doubling (log), raw and score (lists).
    """
    n = options.players
    schedule = expected_schedule(options)
    if len(deals) != len(schedule):
        raise RefereeError(f"the game has {len(deals)} deals; the rules give {len(schedule)}")
    declared = set()
    verdict = GameVerdict()
    for number, (deal, (declarer, contract)) in enumerate(zip(deals, schedule)):
        where = f"deal {number}"
        if deal["declarer"] != declarer:
            raise RefereeError(f"{where}: seat {deal['declarer']} declared; the schedule gives seat {declarer}")
        name = deal["contract"]
        if contract is not None and name != contract:
            raise RefereeError(f"{where}: {name} was played; the cycle gives {contract}")
        if name not in options.game_contracts:
            raise RefereeError(f"{where}: {name} is not in this game's contracts {options.game_contracts}")
        if (declarer, name) in declared and options.geronimo:
            raise RefereeError(f"{where}: seat {declarer} declares {name} a second time")
        declared.add((declarer, name))
        trump = deal["trump"]
        if (name == "trumps") != (trump in (0, 1, 2, 3)):
            raise RefereeError(f"{where}: trump {trump} does not fit contract {name}")
        if is_skipped(options, deal):
            if any(m != -1 for m in deal["moves"]):
                raise RefereeError(f"{where}: {name} was played although nobody doubled")
            raw = split_points(contract_total(options, name), n, declarer, options.skip_remainder)
        else:
            raw = check_any_deal(options, name, declarer, deal["hands"], deal["moves"], trump)
        if list(raw) != list(deal["raw"]):
            raise RefereeError(f"{where}: raw scores {list(deal['raw'])}, the rules give {list(raw)}")
        verdict.raw.append(list(raw))
        verdict.final.append(list(deal["score"]))
    if options.geronimo and len(declared) != n * len(options.game_contracts):
        raise RefereeError("not every player declared every contract once")
    if options.double:
        check_doubling_game(n, [DoublingDeal(d["declarer"], d["doubling"], d["contract"] in POSITIVE_CONTRACTS,
                                             d["raw"], d["score"]) for d in deals],
                            late_redouble=options.late_redouble, obligation=options.double_obligation)
    else:
        for number, deal in enumerate(deals):
            if list(deal["score"]) != list(deal["raw"]):
                raise RefereeError(f"deal {number}: final scores differ from raw scores without doubling")
    verdict.totals = [sum(f[p] for f in verdict.final) for p in range(n)]
    verdict.places = placings(verdict.totals)
    return verdict


def game_deals(columns: dict, game: int, length: int) -> list:
    """The deals of game number ``game`` (0-based within ``columns``) as referee input dicts."""
    out = []
    for row in range(game * length, (game + 1) * length):
        out.append(dict(
            declarer=int(columns["declarer"][row]), contract=str(columns["contract"][row]),
            trump=int(columns["trump"][row]), hands=[int(h) for h in columns["hands"][row]],
            moves=[int(m) for m in columns["moves"][row]], doubling=[int(x) for x in columns["doubling"][row]],
            raw=[int(s) for s in columns["raw"][row]], score=[int(s) for s in columns["score"][row]]))
    return out
