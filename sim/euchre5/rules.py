"""Euchre for five as data: the 28-card deck, the bowers, the options and the §6 scoring table.

Five players, seats 0-4, play passes clockwise (seat + 1). Each keeps an individual score;
partnerships last one hand. The deck is 8 to Ace in four suits (28 cards); each player gets
five cards and three form the kitty, whose top card (the upcard) is shown.

Once a trump suit ``t`` is made, the Jack of ``t`` (right bower) is the highest card and the
Jack of the same-colour suit (left bower) the second; the left bower belongs to the trump
suit for every purpose. Trumps rank J(t) > J(same colour) > A > K > Q > 10 > 9 > 8; other
suits A > K > Q > J > 10 > 9 > 8. Same-colour suits are ♣/♠ and ♦/♥: with the suit numbering
of :mod:`cardlab.sim.cards` (♣ 0, ♦ 1, ♥ 2, ♠ 3) the same-colour suit of ``s`` is ``3 - s``.

Choices where the sources leave room, each a named option of :class:`Euchre5Options`:

* The §6 table, every value an option: ``maker_points`` (1) to each attacker for 3 or 4 tricks
  partnered, ``march_points`` (2) for all five; ``alone_points`` (1) to a lone maker for 3 or 4
  tricks; ``lone_march_points`` (2; 4 or 5) to a lone maker who takes all five tricks by choice,
  ``forced_alone_march_points`` (2; 4 or 5) when alone because the called card was buried.
* ``defender_points`` ((2, 4)): each defender's points when the attackers take 1-2 or 0 tricks.
* ``call_rule`` (``'any'``): ``'any'`` card, a ``'non_trump'`` card (by effective suit), or
  ``'ace_of_suit'`` (the maker names a suit; its Ace is the called card). Never the upcard,
  never a card of the maker's own hand unless ``allow_call_own_card`` (then the maker plays
  alone, scored as alone by choice, but the table does not know it).
* ``call_before_exchange`` (off): the maker calls before the dealer's discard, so a dealer
  holding the called card could bury it.
* ``dealer_may_discard_upcard`` (on): after round one the dealer picks up the upcard and
  discards any of six cards, the upcard included (declining the exchange); off: one of the
  five cards it was dealt.
* ``stick_the_dealer`` (on): in round two the dealer may not pass; off: five passes void the
  hand (nobody scores) and the deal passes on.
* ``tie_rule`` (``'shared'``): when the game ends with several seats on the highest score,
  ``'shared'`` splits the win (1/k each), ``'play_on'`` plays more hands until one seat leads
  alone, ``'maker_side_first'`` gives the win to the tied seats that were attackers in the last
  hand (shared among them; shared among all tied seats if none attacked).
* ``target`` (10): the game ends after the first hand in which a seat reaches it.

Kernels receive the options as one small integer array (:func:`kernel_rules`), never as objects.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np

from cardlab.sim.cards import JACK, LANE, N_CARD_IDS, card, french_deck
from cardlab.sim.game import GAMES_ONLY
from cardlab.sim.options import check_options, option, shown

PLAYERS = 5
HAND = 5
TRICKS = 5
KITTY = 3
EIGHT = 6  # rank index of the 8 in cardlab.sim.cards (2 = 0 … A = 12)
DECK = french_deck(EIGHT)  # 28 card ids, 8..A of ♣ ♦ ♥ ♠
DECK_MASK = sum(1 << int(c) for c in DECK)

CALL_RULES = ("any", "non_trump", "ace_of_suit")
TIE_RULES = ("shared", "play_on", "maker_side_first")
MARCH_POINTS = (2, 4, 5)
MAX_TARGET = 100

# Alone column: how the maker plays.
PARTNERED, ALONE_BY_CHOICE, FORCED_ALONE = 0, 1, 2
ALONE_NAMES = ("partnered", "alone", "forced alone")

# Kinds of action in a move log and in ``replay --json``.
PASS, ACCEPT, DISCARD, NAME, CALL, ALONE, PLAY = range(7)
ACTION_KINDS = ("pass", "accept", "discard", "name", "call", "alone", "play")
#: Stable action ids, the same in every hand (the step API's, and what a Numba seat's bid returns): a card played is
#: its card id (0-63); the dealer's discard is 64 + the card, a called card 128 + the card, a suit named in round two
#: 192 + the suit (0-3 = ♣♦♥♠); pass 196, accept 197, alone 198.
ID_BASE = {"play": 0, "discard": 64, "call": 128, "name": 192}
FIXED_IDS = {"pass": 196, "accept": 197, "alone": 198}
NAME_ID, PASS_ID, ACCEPT_ID = ID_BASE["name"], FIXED_IDS["pass"], FIXED_IDS["accept"]
MAX_ACTIONS = 5 + 1 + 5 + 1 + PLAYERS * TRICKS  # round one, discard, round two, call, play


def same_colour(suit: int) -> int:
    """The other suit of the same colour: ♣↔♠, ♦↔♥."""
    return 3 - suit


def right_bower(trump: int) -> int:
    return card(JACK, trump)


def left_bower(trump: int) -> int:
    return card(JACK, same_colour(trump))


def effective_suit(c: int, trump: int) -> int:
    """The suit card ``c`` belongs to when ``trump`` is trump (the left bower is a trump)."""
    return trump if c == left_bower(trump) else c // LANE


def power(c: int, trump: int) -> int:
    """Rank of ``c`` within its effective suit: 0 (the 8) … 6 (the Ace), then the bowers 7 and 8.

    Only cards of the same effective suit are compared, so the numbers of plain suits and
    trumps never meet (see :func:`trick_key`).
    """
    if c == right_bower(trump):
        return 8
    if c == left_bower(trump):
        return 7
    return c % LANE - EIGHT


class Tables(NamedTuple):
    """Per-trump lookup tables a kernel plays with (row ``t`` = trump suit ``t``)."""

    suit_masks: np.ndarray  # uint64 (4, 4): cards of effective suit s when t is trump
    eff: np.ndarray  # int8 (4, 64): effective suit of each card id
    key: np.ndarray  # int8 (4, 64): trick strength; trumps 10 + power, plain cards power
    higher: np.ndarray  # uint64 (4, 64): cards of the same effective suit that rank above the card
    beats: np.ndarray  # uint64 (4, 64): cards that beat the card when it is winning a trick


def tables() -> Tables:
    """The per-trump tables: built once from :func:`effective_suit` and :func:`power`."""
    suit_masks = np.zeros((4, 4), np.uint64)
    eff = np.full((4, N_CARD_IDS), -1, np.int8)
    key = np.full((4, N_CARD_IDS), -1, np.int8)
    for t in range(4):
        for c in DECK:
            c = int(c)
            s = effective_suit(c, t)
            suit_masks[t, s] |= np.uint64(1 << c)
            eff[t, c] = s
            key[t, c] = power(c, t) + (10 if s == t else 0)
    higher = np.zeros((4, N_CARD_IDS), np.uint64)
    beats = np.zeros((4, N_CARD_IDS), np.uint64)
    for t in range(4):
        for c in DECK:
            for d in DECK:
                if eff[t, d] == eff[t, c] and key[t, d] > key[t, c]:
                    higher[t, c] |= np.uint64(1 << int(d))
            beats[t, c] = higher[t, c] | (suit_masks[t, t] if eff[t, c] != t else np.uint64(0))
    return Tables(suit_masks, eff, key, higher, beats)


def parse_defender_points(text: str) -> tuple:
    """The command line's ``--defender-points``: two integers separated by a comma (``2,4``)."""
    try:
        points = tuple(int(v) for v in text.split(","))
    except ValueError:
        points = ()
    if len(points) != 2:
        raise ValueError(f"defender_points: {text!r} is not allowed; give two integers 1-20 "
                         "(points for 3-4 and for 5 defender tricks), e.g. 2,4")
    return points


@dataclass(frozen=True)
class Euchre5Options:
    """Table rules of one game of Euchre for five; validated on creation (see the module docstring).

    >>> Euchre5Options(lone_march_points=4).lone_march_points
    4
    >>> Euchre5Options(lone_march_points=3)
    Traceback (most recent call last):
    ValueError: lone_march_points: 3 is not allowed; choose 2, 4 or 5
    """

    players: int = option(PLAYERS, "always 5 (the game is for five)")
    maker_points: int = option(1, "each attacker's points for 3 or 4 tricks, partnered", between=(1, 20))
    march_points: int = option(2, "each attacker's points for all five tricks, partnered (a march)", between=(1, 20))
    alone_points: int = option(1, "a lone maker's points for 3 or 4 tricks (alone by choice or forced)",
                               between=(1, 20))
    lone_march_points: int = option(2, "a lone maker's march", choices=MARCH_POINTS)
    forced_alone_march_points: int = option(2, "march of a maker alone because the called card was buried",
                                            choices=MARCH_POINTS)
    defender_points: tuple = option((2, 4), "each defender's points when the attackers take 1-2 tricks, and none",
                                    parse=parse_defender_points)
    call_rule: str = option("any", "which card the maker may call", choices=CALL_RULES)
    allow_call_own_card: bool = option(False, "the maker may call its own card (alone)")
    call_before_exchange: bool = option(False, "the call comes before the dealer's discard")
    dealer_may_discard_upcard: bool = option(True, "the dealer may discard the upcard it picked up")
    stick_the_dealer: bool = option(True, "the dealer may not pass in round two (off: five passes void the hand)")
    tie_rule: str = option("shared", "who wins a game ending in a tie at the top", choices=TIE_RULES,
                           applies=GAMES_ONLY)
    target: int = option(10, "points that end a game", between=(1, MAX_TARGET), applies=GAMES_ONLY)

    def __post_init__(self):
        check_options(self)
        if self.players != PLAYERS:
            raise ValueError(f"players: {self.players!r} is not allowed; Euchre for five is played by exactly 5")
        points = self.defender_points
        if isinstance(points, str):
            try:
                points = tuple(int(v) for v in points.split(","))
            except ValueError:
                points = (points,)
        points = tuple(points) if isinstance(points, (tuple, list)) else (points,)
        if len(points) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 1 <= v <= 20
                                       for v in points):
            raise ValueError(f"defender_points: {shown(self.defender_points)} is not allowed; give two integers 1-20 "
                             "(points for 3-4 and for 5 defender tricks), e.g. 2,4")
        object.__setattr__(self, "defender_points", tuple(int(v) for v in points))

    @property
    def max_hands(self) -> int:
        """Hands after which a game stops whatever the scores (never reached under the default rules).

        Every scored hand gives a seat at least one point, so ``5 * (target - 1) + 1`` scored hands
        always end a game; the margin covers void hands (``stick_the_dealer`` off) and ``play_on``.
        """
        return 5 * self.target + 40

    def to_dict(self) -> dict:
        out = asdict(self)
        out["defender_points"] = list(self.defender_points)
        return out


class Rule(NamedTuple):
    """Positions in the integer rule array a kernel reads (:func:`kernel_rules`)."""

    LONE_MARCH: int = 0
    FORCED_MARCH: int = 1
    DEFEND_LOW: int = 2  # each defender when the attackers take 1-2 tricks
    DEFEND_HIGH: int = 3  # each defender when the attackers take none
    CALL_RULE: int = 4
    CALL_OWN: int = 5
    CALL_FIRST: int = 6  # call before the dealer's exchange
    DISCARD_UPCARD: int = 7
    STICK: int = 8
    TIE_RULE: int = 9
    TARGET: int = 10
    MAX_HANDS: int = 11
    MAKER_POINTS: int = 12  # each attacker, 3-4 tricks, partnered
    MARCH_POINTS: int = 13  # each attacker, 5 tricks, partnered
    ALONE_POINTS: int = 14  # a lone maker, 3-4 tricks


RULE = Rule()
CALL_ANY, CALL_NON_TRUMP, CALL_ACE = 0, 1, 2
TIE_SHARED, TIE_PLAY_ON, TIE_MAKER_SIDE = 0, 1, 2


def kernel_rules(o: Euchre5Options) -> np.ndarray:
    """The options as the int64 array a kernel reads, indexed by :data:`RULE`."""
    return np.array([o.lone_march_points, o.forced_alone_march_points, o.defender_points[0], o.defender_points[1],
                     CALL_RULES.index(o.call_rule), o.allow_call_own_card, o.call_before_exchange,
                     o.dealer_may_discard_upcard, o.stick_the_dealer, TIE_RULES.index(o.tie_rule), o.target,
                     o.max_hands, o.maker_points, o.march_points, o.alone_points], np.int64)


def hand_points(o: Euchre5Options, alone: int, maker_tricks: int) -> tuple[int, int]:
    """§6: ``(points to each attacker, points to each defender)`` for one hand.

    >>> hand_points(Euchre5Options(), PARTNERED, 5), hand_points(Euchre5Options(), PARTNERED, 0)
    ((2, 0), (0, 4))
    """
    if maker_tricks >= 3:
        if maker_tricks < 5:
            return (o.maker_points if alone == PARTNERED else o.alone_points), 0
        march = {PARTNERED: o.march_points, ALONE_BY_CHOICE: o.lone_march_points,
                 FORCED_ALONE: o.forced_alone_march_points}
        return march[alone], 0
    return 0, o.defender_points[0] if maker_tricks > 0 else o.defender_points[1]

