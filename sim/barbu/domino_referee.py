"""Plain-Python Domino referee: replays a Domino move log, checks every turn, rescores the deal.

Written from ``docs/rules/barbu.md`` (§4 Domino, §3 place scores, §7 items 6-8, 15, 17) with
sets, dicts and loops; it shares nothing with the kernels but the card numbering, the §3 place
table and the move-log encoding documented in :mod:`sim.barbu.domino`:

* ``moves[0]``: the start rank (0 = 2 … 12 = Ace) for fan_tan, -1 otherwise;
* then one event per turn: a card id, -2 for a pass, -3 for declining an Ace's extra turn;
* -1 for the unused tail.

Rules per variant, as the referee reads them:

* **upward**: every suit keeps ``next[s]``, first the lowest rank of the suit in the deck;
  a card is playable iff its rank is ``next[s]``; the Ace closes the suit.
* **fan_tan**: a suit is opened by its card of the start rank (or the lowest card of the suit
  above it when that card is not in the deck), then extends one rank at a time above its
  highest and below its lowest played card, within the deck.
* **bga_adjacent**: anything may be played first; afterwards a card of a rank already played
  (any suit), or a card next in rank (same suit, Ace high only) to a played card.
* All: the starter is the declarer (or the seat on their left with ``starter_offset=1``), then
  clockwise, empty hands skipped; a player able to play must play; an Ace gives the player an
  immediate extra turn in ``upward`` only, the one rule set where the Ace closes its suit
  (declinable only with ``ace_replay_optional``); emptying the hand takes
  the next place; the deal ends when one player holds cards (last place).
"""
from __future__ import annotations

from cardlab.sim.cards import ACE, RANK_NAMES, card_name, cards_of, rank_of, suit_of
from cardlab.sim.barbu.referee import RefereeError, hand_text
from cardlab.sim.barbu.rules import DOMINO_PLACES, BarbuOptions

VARIANTS = ("upward", "fan_tan", "bga_adjacent")
PASS, DECLINE, NONE = -2, -3, -1
PLACE_NAMES = ("1st", "2nd", "3rd", "4th", "5th")


def _variant(variant) -> str:
    if isinstance(variant, str):
        if variant not in VARIANTS:
            raise ValueError(f"variant: {variant!r} is not allowed; choose one of {', '.join(VARIANTS)}")
        return variant
    if int(variant) not in range(len(VARIANTS)):
        raise ValueError(f"variant: {variant!r} is not allowed; choose 0, 1, 2 or a name")
    return VARIANTS[int(variant)]


def place_table(options: BarbuOptions, n: int | None = None) -> list:
    """§3 points for finishing places 1..n (``n`` = ``options.players``; 4th and later all take the 4th value).

    An ``options.domino_table`` override (§7 item 1) wins when it has ``n`` values.
    """
    n = options.players if n is None else n
    override = getattr(options, "domino_table", None)
    if override is not None and len(override) == n:
        return [int(v) for v in override]
    table = DOMINO_PLACES[(options.scoring, options.deck)]
    places = [table[min(i, 3)] for i in range(n)]
    if n == 3 and getattr(options, "domino_three_last", "third_place") == "last_place":
        places[2] = table[3]  # the loser of three scores the table's last value (Wikipedia)
    return places


def _rules(options, variant, starter_offset, ace_replay_optional):
    """Explicit arguments, else the options' ``domino_rules``/``domino_starter``/``ace_replay_optional``."""
    if variant is None:
        variant = getattr(options, "domino_rules", "upward")
    if starter_offset is None:
        starter_offset = 1 if getattr(options, "domino_starter", "declarer") == "left" else 0
    if ace_replay_optional is None:
        ace_replay_optional = bool(getattr(options, "ace_replay_optional", False))
    return _variant(variant), starter_offset, ace_replay_optional


class Table:
    """The cards on the table of one Domino deal and which cards may be played next."""

    def __init__(self, variant: str, deck: set, start_rank: int | None):
        self.variant = variant
        self.deck = set(deck)
        self.played = set()
        self.start_rank = start_rank
        self.ranks_in_suit = {s: sorted(rank_of(c) for c in deck if suit_of(c) == s) for s in range(4)}
        self.next = {}  # upward: suit -> next rank (None once closed)
        self.low = {}  # fan_tan: suit -> lowest/highest rank played
        self.high = {}
        if variant == "upward":
            self.next = {s: r[0] for s, r in self.ranks_in_suit.items() if r}

    def opener(self, s: int) -> int | None:
        """Fan_tan: the rank that opens suit ``s`` (start rank, else the suit's lowest rank above it)."""
        above = [r for r in self.ranks_in_suit[s] if r >= self.start_rank]
        return above[0] if above else None

    def playable(self, c: int) -> bool:
        s, r = suit_of(c), rank_of(c)
        if c not in self.deck or c in self.played:
            return False
        if self.variant == "upward":
            return self.next.get(s) == r
        if self.variant == "fan_tan":
            if s not in self.low:
                return r == self.opener(s)
            return r == self.high[s] + 1 or r == self.low[s] - 1
        if not self.played:
            return True
        if r in {rank_of(x) for x in self.played}:
            return True
        return (r < ACE and (s * 16 + r + 1) in self.played) or (r > 0 and (s * 16 + r - 1) in self.played)

    def play(self, c: int) -> None:
        s, r = suit_of(c), rank_of(c)
        self.played.add(c)
        if self.variant == "upward":
            self.next[s] = None if r == ACE else r + 1
        elif self.variant == "fan_tan":
            self.low[s] = min(self.low.get(s, r), r)
            self.high[s] = max(self.high.get(s, r), r)


def replay_domino(options: BarbuOptions, declarer: int, hands, moves, *, variant=None, start_rank=None,
                  starter_offset=None, ace_replay_optional=None, places=None, deck=None):
    """Replay and check a Domino deal; returns ``(places, scores, events, start_rank)``.

    ``events`` lists ``(seat, move, note)`` per turn; see :func:`check_domino` for the rest.
    """
    variant, starter_offset, ace_replay_optional = _rules(options, variant, starter_offset, ace_replay_optional)
    n = options.players if deck is None else len(hands)
    places_pts = list(places) if places is not None else place_table(options, n)
    sets = [set(cards_of(int(h))) for h in hands]
    deck_cards = sorted(int(c) for c in (options.cards if deck is None else deck))
    if len(sets) != n:
        raise RefereeError(f"{len(sets)} hands given, expected {n}")
    if sorted(c for h in sets for c in h) != deck_cards:
        raise RefereeError("the hands do not hold every card of the deck exactly once")
    if len({len(h) for h in sets}) != 1:
        raise RefereeError(f"hands have sizes {[len(h) for h in sets]}, expected equal sizes")
    if starter_offset not in (0, 1):
        raise RefereeError(f"starter_offset {starter_offset} is not 0 or 1")
    moves = [int(m) for m in moves]
    if not moves:
        raise RefereeError("empty move log")
    header = moves[0]
    if variant == "fan_tan":
        lowest = min(rank_of(c) for c in deck_cards)
        if not lowest <= header <= ACE:
            raise RefereeError(f"fan_tan start rank {header} is not a rank of the deck")
        if start_rank is not None and start_rank >= 0 and header != start_rank:
            raise RefereeError(f"log names start rank {header}, the deal was played with {start_rank}")
        rank = header
    else:
        if header != NONE:
            raise RefereeError(f"{variant}: the log header must be -1, got {header}")
        rank = None
    table = Table(variant, set(deck_cards), rank)

    finish = []  # seats in finishing order
    events = []
    seat = (declarer + starter_offset) % n
    extra = False
    i = 1
    while sum(1 for h in sets if h) > 1:
        if i >= len(moves) or moves[i] == NONE:
            raise RefereeError(f"the log ends after {i - 1} turns but {sum(1 for h in sets if h)} players hold cards")
        move = moves[i]
        i += 1
        hand = sets[seat]
        options_now = {c for c in hand if table.playable(c)}
        turn = f"turn {i - 1}: seat {seat}"
        if move == PASS:
            if options_now:
                shown = ", ".join(card_name(c) for c in sorted(options_now))
                raise RefereeError(f"{turn} passed while holding playable {shown}")
            events.append((seat, PASS, "extra turn, nothing to play" if extra else ""))
            extra = False
        elif move == DECLINE:
            if not extra:
                raise RefereeError(f"{turn} declined an extra turn it did not have")
            if not ace_replay_optional:
                raise RefereeError(f"{turn} declined the Ace's extra turn, which is compulsory here")
            if not options_now:
                raise RefereeError(f"{turn} declined an extra turn while holding nothing playable (a pass)")
            events.append((seat, DECLINE, ""))
            extra = False
        elif move >= 0:
            if move not in hand:
                raise RefereeError(f"{turn} played {card_name(move)}, which it does not hold")
            if move not in options_now:
                shown = ", ".join(card_name(c) for c in sorted(options_now)) or "nothing"
                raise RefereeError(f"{turn} played {card_name(move)}; playable were {shown}")
            hand.remove(move)
            table.play(move)
            note = ""
            if not hand:
                finish.append(seat)
                note = f"out: {PLACE_NAMES[len(finish) - 1]} place ({places_pts[len(finish) - 1]:+d})"
                extra = False
            elif rank_of(move) == ACE and variant == "upward":
                note = "Ace: plays again"
                extra = True
                events.append((seat, move, note))
                continue  # same seat, extra turn
            else:
                extra = False
            events.append((seat, move, note))
        else:
            raise RefereeError(f"{turn}: unknown move code {move}")
        seat = (seat + 1) % n
        while not sets[seat]:
            seat = (seat + 1) % n
    rest = moves[i:]
    if any(m != NONE for m in rest):
        raise RefereeError(f"the deal ended after {i - 1} turns but the log goes on: {rest[:5]}")
    last = [p for p in range(n) if sets[p]]
    if len(last) != 1:
        raise RefereeError(f"the deal ended with {len(last)} players holding cards")
    finish.append(last[0])
    scores = [0] * n
    for k, p in enumerate(finish):
        scores[p] = places_pts[k]
    return finish, scores, events, rank


def check_domino(options: BarbuOptions, declarer: int, hands, moves, *, variant=None, start_rank=None,
                 starter_offset=None, ace_replay_optional=None, places=None, deck=None):
    """Replay a Domino move log from ``hands`` (bitmasks); return ``(finishing order, scores)``.

    ``variant`` is a name of ``VARIANTS`` or its id, ``starter_offset`` 0 (declarer starts) or 1
    (the seat on the declarer's left), ``ace_replay_optional`` a bool; each left as None is read
    from ``options`` (``domino_rules``, ``domino_starter``, ``ace_replay_optional``; defaults
    upward, 0, False). ``start_rank`` (fan_tan) the rank the deal
    was played with (None/-1: whatever the log header names); ``places`` overrides the §3 place
    table; ``deck`` overrides ``options.cards`` for scripted deals (then the number of seats is
    ``len(hands)``). The finishing order lists seats from 1st to last place. Raises :class:`RefereeError`
    when a card is not playable, a pass or decline is not allowed, turns are out of order, or
    the deal does not end when exactly one player still holds cards.

    >>> from cardlab.sim.cards import parse_card, mask_of
    >>> hands = [mask_of([parse_card(x) for x in h.split()]) for h in ("7C 8C", "9C AC")]
    >>> check_domino(BarbuOptions(), 0, hands, [-1, 5, -2, 6], places=[10, 0],
    ...              deck=[5, 6, 7, 12])[1]
    [10, 0]
    """
    finish, scores, _, _ = replay_domino(options, declarer, hands, moves, variant=variant, start_rank=start_rank,
                                         starter_offset=starter_offset, ace_replay_optional=ace_replay_optional,
                                         places=places, deck=deck)
    return finish, scores


def format_domino(options: BarbuOptions, declarer: int, hands, moves, **rules) -> str:
    """The deal turn by turn with readable cards, e.g. ``S1 plays 2♥`` … ``S1 out: 1st place (+25)``."""
    finish, scores, events, rank = replay_domino(options, declarer, hands, moves, **rules)
    variant = _rules(options, rules.get("variant"), 0, False)[0]
    head = f"domino ({variant}), declarer seat {declarer}"
    if rank is not None:
        head += f", start rank {RANK_NAMES[rank]}"
    lines = [head]
    for seat, hand in enumerate(hands):
        lines.append(f"  seat {seat}: {hand_text(set(cards_of(int(hand))))}")
    for t, (seat, move, note) in enumerate(events, 1):
        if move == PASS:
            what = "passes"
        elif move == DECLINE:
            what = "declines the extra turn"
        else:
            what = f"plays {card_name(move)}"
        lines.append(f"{t:3d}. S{seat} {what}" + (f"  ({note})" if note else ""))
    last = finish[-1]
    lines.append(f"seat {last} still holds cards: {PLACE_NAMES[len(finish) - 1]} place ({scores[last]:+d})")
    lines.append("places: " + "  ".join(f"{PLACE_NAMES[k]} seat {p}" for k, p in enumerate(finish)))
    lines.append("scores: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(scores)))
    return "\n".join(lines)


__all__ = ["VARIANTS", "RefereeError", "check_domino", "format_domino", "place_table", "replay_domino"]
