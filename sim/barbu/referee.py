"""Plain-Python Barbu referee: replays a kernel's move log, checks every move, rescores the deal.

Written from ``docs/rules/barbu.md`` alone with sets and plain loops, sharing nothing with the
kernels but the card numbering and the §3 value table, so agreement between the two is
evidence that both are right.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardlab.sim.cards import HEARTS, KING, ACE, QUEEN, card, card_name, cards_of, rank_of, suit_of, SUIT_SYMBOLS
from cardlab.sim.barbu.rules import VALUES, BarbuOptions

KH = card(KING, HEARTS)
AH = card(ACE, HEARTS)
EARLY_STOP_CONTRACTS = ("no-hearts", "no-queens", "no-barbu")


class RefereeError(AssertionError):
    """A move log that breaks the rules, or scores that do not match them."""


@dataclass
class Trick:
    leader: int
    cards: list  # (seat, card id) in play order
    winner: int
    points: int


@dataclass
class Verdict:
    contract: str
    declarer: int
    hands: list  # initial hands, sets of card ids
    tricks: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    trump: int | None = None


def legal_cards(hand: set, trick: list, *, contract: str, options: BarbuOptions, hearts_played: bool,
                trump: int | None = None) -> set:
    """The cards ``hand`` may play onto ``trick`` (list of card ids so far), per §2, §4 and §7."""
    if not trick:
        restricted = options.hearts_lead != "anytime" and (
            contract in ("no-hearts", "no-barbu") or (contract == "salade" and options.hearts_lead_salade))
        others = {c for c in hand if suit_of(c) != HEARTS}
        if restricted and others and (options.hearts_lead == "only_if_forced" or not hearts_played):
            return others
        return set(hand)
    led = suit_of(trick[0])
    same = {c for c in hand if suit_of(c) == led}
    if trump is None:
        if same:
            return same
        if options.kh_forced_discard and contract in ("no-barbu", "salade") and KH in hand:
            return {KH}
        return set(hand)
    trumps = {c for c in hand if suit_of(c) == trump}
    played_trumps = [c for c in trick if suit_of(c) == trump]
    top = max(played_trumps, key=rank_of) if played_trumps else None
    higher = {c for c in trumps if top is not None and rank_of(c) > rank_of(top)}
    if led == trump:
        return (options.overtrump_on_trump_lead and higher) or trumps or set(hand)
    if same:
        return same
    if not trumps:
        return set(hand)
    # Void in the led suit: each duty on its own. Overtrump a trump in the trick when able (and
    # asked to); otherwise any trump under must-trump, any card without it.
    if options.overtrump_when_ruffing and higher:
        return higher
    return trumps if options.must_trump else set(hand)


def trick_winner(cards: list, trump: int | None = None) -> int:
    """Index in ``cards`` of the winning card: highest trump if any, else highest of the led suit."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and suit_of(c) == trump]
    pool = trumps or [i for i, c in enumerate(cards) if suit_of(c) == suit_of(cards[0])]
    return max(pool, key=lambda i: rank_of(cards[i]))


def trick_points(contract: str, cards: list, index: int, n_tricks: int, options: BarbuOptions) -> int:
    """Points (§3) for taking ``cards`` as trick number ``index`` of ``n_tricks``."""
    v = VALUES[(options.scoring, options.deck)]
    hearts = sum(v["ace_hearts"] if c == AH else v["heart"] for c in cards if suit_of(c) == HEARTS)
    queens = v["queen"] * sum(1 for c in cards if rank_of(c) == QUEEN)
    barbu = v["kh"] if KH in cards else 0
    last = {n_tricks - 2: v["last2"][0], n_tricks - 1: v["last2"][1]}.get(index, 0)
    salade = v["trick"] + hearts + queens + barbu
    return {"no-tricks": v["trick"], "no-hearts": hearts, "no-queens": queens, "no-barbu": barbu,
            "last-two": last, "salade": salade, "anti-salade": -salade, "trumps": v["trump_trick"]}[contract]


def _points_left(contract: str, cards: set, options: BarbuOptions) -> bool:
    return any(trick_points(contract, [c], -1, 0, options) != 0 for c in cards)


def check_deal(options: BarbuOptions, contract: str, declarer: int, hands, moves, *, trump: int | None = None) -> Verdict:
    """Replay ``moves`` (card ids in play order, -1 after an early stop) from ``hands`` (bitmasks).

    Raises :class:`RefereeError` on a dealing error or an illegal move; returns the tricks and
    the recomputed scores.
    """
    n = options.players
    size = options.hand_size
    sets = [set(cards_of(h)) for h in hands]
    if len(sets) != n or any(len(h) != size for h in sets):
        raise RefereeError(f"hands have sizes {[len(h) for h in sets]}, expected {n} hands of {size}")
    dealt = [c for h in sets for c in h]
    if sorted(dealt) != sorted(int(c) for c in options.cards):
        raise RefereeError("the hands do not hold every card of the deck exactly once")
    verdict = Verdict(contract, declarer, [set(h) for h in sets], trump=trump)
    scores = [0] * n
    leader = declarer
    hearts_played = False
    moves = [int(m) for m in moves]
    for t in range(size):
        row = moves[t * n:(t + 1) * n]
        if all(m < 0 for m in row):
            left = set().union(*sets)
            if not (options.early_stop and contract in EARLY_STOP_CONTRACTS and trump is None):
                raise RefereeError(f"play stopped after trick {t} but {contract} must be played out")
            if _points_left(contract, left, options):
                raise RefereeError(f"play stopped after trick {t} with scoring cards still in hand")
            break
        trick = []
        for k, c in enumerate(row):
            seat = (leader + k) % n
            allowed = legal_cards(sets[seat], trick, contract=contract, options=options,
                                  hearts_played=hearts_played, trump=trump)
            if c not in allowed:
                shown = ", ".join(card_name(x) for x in sorted(allowed))
                raise RefereeError(f"trick {t + 1}: seat {seat} played {card_name(c) if c >= 0 else c}; "
                                   f"legal were {shown}")
            sets[seat].remove(c)
            trick.append(c)
        winner = (leader + trick_winner(trick, trump)) % n
        points = trick_points(contract, trick, t, size, options)
        scores[winner] += points
        verdict.tricks.append(Trick(leader, [((leader + k) % n, c) for k, c in enumerate(trick)], winner, points))
        hearts_played = hearts_played or any(suit_of(c) == HEARTS for c in trick)
        leader = winner
    verdict.scores = scores
    return verdict


def hand_text(hand: set) -> str:
    """A hand as readable cards grouped by suit: ``'♠ A K 7  ♥ Q 2  ...'``."""
    parts = []
    for s in (3, 2, 1, 0):
        ranks = sorted((c for c in hand if suit_of(c) == s), reverse=True)
        parts.append(SUIT_SYMBOLS[s] + " " + (" ".join(card_name(c)[:-1] for c in ranks) or "-"))
    return "  ".join(parts)


def format_deal(verdict: Verdict) -> str:
    """The deal trick by trick with readable cards, e.g. ``trick 1: S0 K♥ S1 2♥ ... -> S0 (-13)``."""
    lines = [f"contract {verdict.contract}, declarer seat {verdict.declarer}"
             + (f", trump {SUIT_SYMBOLS[verdict.trump]}" if verdict.trump is not None else "")]
    for seat, hand in enumerate(verdict.hands):
        lines.append(f"  seat {seat}: {hand_text(hand)}")
    for t, trick in enumerate(verdict.tricks, 1):
        played = "  ".join(f"S{seat} {card_name(c):>3}" for seat, c in trick.cards)
        lines.append(f"trick {t:2d}: {played}  -> seat {trick.winner} ({trick.points:+d})")
    if len(verdict.tricks) < len(next(iter(verdict.hands))):
        lines.append("(play stops early: no card left can score)")
    lines.append("scores: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(verdict.scores)))
    return "\n".join(lines)
