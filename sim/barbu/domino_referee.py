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

The rules are :class:`DominoState`'s, the step API's state of a Domino deal
(:mod:`cardlab.sim.state`): :func:`replay_domino` runs a log through it, turn by turn.
"""
from __future__ import annotations

from cardlab.sim.cards import ACE, RANK_NAMES, card_name, cards_of, rank_of, suit_of
from cardlab.sim.barbu.referee import (DECLINE_ID, PASS_ID, START_ID, BarbuState, RefereeError, card_action,
                                       double_actions_now, hand_text)
from cardlab.sim.state import Action
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


PASS_ACTION = Action(PASS_ID, "pass", {"kind": "pass"})
DECLINE_ACTION = Action(DECLINE_ID, "decline", {"kind": "decline"})


def start_action(rank: int) -> Action:
    """Fan_tan: the declarer names start rank ``rank`` (0 = 2 … 12 = Ace): id ``80 + rank``, ``start 7``."""
    return Action(START_ID + rank, f"start {RANK_NAMES[rank]}", {"kind": "start", "rank": RANK_NAMES[rank]})


class DominoState(BarbuState):
    """A Domino deal (``docs/rules/barbu.md`` §4 Domino, §3 places, §7 items 6-8, 15, 17), turn by turn.

    * Fan_tan only: the declarer first names the start rank (any rank of the deck; action ``start 7``,
      id ``80 + rank``, 0 = 2 … 12 = Ace, record ``{"kind": "start", "rank": "7"}``).
    * The starter (the declarer, or the seat on its left with ``domino_starter='left'``) plays first,
      then clockwise, seats with empty hands skipped. A seat holding a card :meth:`Table.playable`
      must play one (id: the card id, ``K♥``); otherwise it passes (``pass``, id 64, its only move).
    * Upward only: an Ace gives the same seat another turn at once; with ``ace_replay_optional`` it may
      decline it while holding a playable card (``decline``, id 65).
    * Emptying the hand takes the next place; when one seat still holds cards it takes the last place
      and the deal ends. Seat scores: the §3 place points (:func:`place_table`).

    ``variant``, ``starter_offset``, ``ace_replay_optional``, ``places`` and ``deck`` override the
    options as in :func:`check_domino`.
    """

    def __init__(self, options: BarbuOptions, declarer: int, hands, *, variant=None, starter_offset=None,
                 ace_replay_optional=None, places=None, deck=None, deal: int = 0, study=None):
        super().__init__(options, "domino", declarer, hands, deal=deal, study=study)
        self.variant, self.starter_offset, self.ace_replay_optional = _rules(options, variant, starter_offset,
                                                                             ace_replay_optional)
        self.places = list(places) if places is not None else place_table(options, self.n)
        self.deck = sorted(int(c) for c in (options.cards if deck is None else deck))
        n = options.players if deck is None else self.n
        if self.n != n:
            raise RefereeError(f"{self.n} hands given, expected {n}")
        if self.deck_cards() != self.deck:
            raise RefereeError("the hands do not hold every card of the deck exactly once")
        if len({len(h) for h in self.dealt}) != 1:
            raise RefereeError(f"hands have sizes {[len(h) for h in self.dealt]}, expected equal sizes")
        if self.starter_offset not in (0, 1):
            raise RefereeError(f"starter_offset {self.starter_offset} is not 0 or 1")
        self.naming = self.variant == "fan_tan"  # the declarer names the start rank first
        self.start_rank = None
        self.table = None if self.naming else Table(self.variant, set(self.deck), None)
        self.seat = (self.declarer + self.starter_offset) % self.n
        self.extra = False  # the seat to move plays again after an Ace
        self.finish = []  # seats in finishing order
        self.events = []  # (seat, move code, note) per turn, for the text replay

    def _restart(self) -> "DominoState":
        return DominoState(self.options, self.declarer, self.dealt, variant=self.variant,
                           starter_offset=self.starter_offset, ace_replay_optional=self.ace_replay_optional,
                           places=self.places, deck=self.deck, deal=self.deal, study=self.study)

    @property
    def is_over(self) -> bool:
        return len(self.finish) == self.n

    @property
    def current_player(self) -> int:
        if self.asking is not None:  # the doubling round asks a seat (a whole game with double)
            return self.asking[0]
        if self.is_over:
            return -1
        return self.declarer if self.naming else self.seat

    def search_means(self, worlds: int) -> dict | None:
        """The kernels' search at this move (:func:`cardlab.sim.barbu.state_policies.searched_domino_move`); None
        where the seat has no choice."""
        from cardlab.sim.barbu.state_policies import domino_choice, searched_domino_move

        if self.is_over or self.asking is not None or not domino_choice(self):
            return None
        return searched_domino_move(self, "search", worlds)[1]

    def playable(self) -> list[int]:
        """The cards the seat to move may play."""
        return sorted(c for c in self.hands[self.seat] if self.table.playable(c))

    def legal_actions(self) -> list[Action]:
        if self.asking is not None:
            return list(double_actions_now(self))
        if self.is_over:
            return []
        if self.naming:
            return [start_action(r) for r in range(min(rank_of(c) for c in self.deck), ACE + 1)]
        cards = [card_action(c) for c in self.playable()]
        if not cards:
            return [PASS_ACTION]
        return cards + ([DECLINE_ACTION] if self.extra and self.ace_replay_optional else [])

    def _play(self, action: Action) -> None:
        if self.naming:
            self.start_rank, self.naming = action.id - START_ID, False
            self.table = Table(self.variant, set(self.deck), self.start_rank)
            return
        seat, again = self.seat, False
        if action.id == PASS_ID:
            self.events.append((seat, PASS, "extra turn, nothing to play" if self.extra else ""))
        elif action.id == DECLINE_ID:
            self.events.append((seat, DECLINE, ""))
        else:
            c = action.id
            self.hands[seat].remove(c)
            self.table.play(c)
            note = ""
            if not self.hands[seat]:
                self.finish.append(seat)
                note = f"out: {PLACE_NAMES[len(self.finish) - 1]} place ({self.places[len(self.finish) - 1]:+d})"
            elif rank_of(c) == ACE and self.variant == "upward":
                note, again = "Ace: plays again", True
            self.events.append((seat, c, note))
        self.extra = again
        holders = [p for p in range(self.n) if self.hands[p]]
        if len(holders) == 1:
            self.finish.append(holders[0])
        elif not again:
            self.seat = next(p % self.n for p in range(seat + 1, seat + self.n + 1) if self.hands[p % self.n])

    def raw_scores(self) -> list:
        scores = [0] * self.n
        for k, p in enumerate(self.finish):
            scores[p] = self.places[k]
        return scores

    def why(self, move: int) -> str:
        """Why log code ``move`` is not legal for the seat to move (a referee message)."""
        shown = ", ".join(card_name(c) for c in self.playable())
        if move == PASS:
            return f"passed while holding playable {shown}"
        if move == DECLINE:
            if not self.extra:
                return "declined an extra turn it did not have"
            if not self.ace_replay_optional:
                return "declined the Ace's extra turn, which is compulsory here"
            return "declined an extra turn while holding nothing playable (a pass)"
        if move < 0:
            return f"unknown move code {move}"
        if move not in self.hands[self.seat]:
            return f"played {card_name(move)}, which it does not hold"
        return f"played {card_name(move)}; playable were {shown or 'nothing'}"

    def run_log(self, moves, start_rank=None) -> "DominoState":
        """Check a kernel's log on this state (encoding in the module docstring; ``start_rank``: fan_tan's
        rank the deal was played with, None or -1 for the header's). Raises :class:`RefereeError`."""
        moves = [int(m) for m in moves]
        if not moves:
            raise RefereeError("empty move log")
        header = moves[0]
        if self.naming:
            if not min(rank_of(c) for c in self.deck) <= header <= ACE:
                raise RefereeError(f"fan_tan start rank {header} is not a rank of the deck")
            if start_rank is not None and start_rank >= 0 and header != start_rank:
                raise RefereeError(f"log names start rank {header}, the deal was played with {start_rank}")
            self._apply(start_action(header))
        elif header != NONE:
            raise RefereeError(f"{self.variant}: the log header must be -1, got {header}")
        i = 1
        while not self.is_over:
            holding = sum(1 for h in self.hands if h)
            if i >= len(moves) or moves[i] == NONE:
                raise RefereeError(f"the log ends after {i - 1} turns but {holding} players hold cards")
            move = moves[i]
            i += 1
            legal = {a.id: a for a in self.legal_actions()}
            code = {PASS: PASS_ID, DECLINE: DECLINE_ID}.get(move, move)
            if code not in legal:
                raise RefereeError(f"turn {i - 1}: seat {self.seat} {self.why(move)}")
            self._apply(legal[code])
        rest = moves[i:]
        if any(m != NONE for m in rest):
            raise RefereeError(f"the deal ended after {i - 1} turns but the log goes on: {rest[:5]}")
        return self


def replay_domino(options: BarbuOptions, declarer: int, hands, moves, *, variant=None, start_rank=None,
                  starter_offset=None, ace_replay_optional=None, places=None, deck=None):
    """Replay and check a Domino deal through a :class:`DominoState`; returns ``(places, scores, events,
    start_rank)``.

    ``events`` lists ``(seat, move, note)`` per turn; see :func:`check_domino` for the rest.
    """
    state = DominoState(options, declarer, [set(cards_of(int(h))) for h in hands], variant=variant,
                        starter_offset=starter_offset, ace_replay_optional=ace_replay_optional, places=places,
                        deck=deck).run_log(moves, start_rank)
    return state.finish, state.scores(), state.events, state.start_rank


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


__all__ = ["VARIANTS", "DominoState", "RefereeError", "check_domino", "format_domino", "place_table", "replay_domino"]
