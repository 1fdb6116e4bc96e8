"""Hearts as data: the 52-card deck, the passing rotation, the points of each card and the options.

Four players (OpenSpiel's game, the default), seats 0-3, play clockwise (seat + 1, which is also "to the left").
Each gets 13 cards. Before the play each seat passes three cards: to the left (seat + 1), across (seat + 2) or to
the right (seat + 3), or nobody passes; a seat sees the cards it receives only once every seat has
passed. The holder of the 2♣ leads it to the first trick; a seat must follow the led suit when
it can; the highest card of the led suit wins and its winner leads next. Every heart a seat takes
costs it 1 point and the Q♠ 13, so 26 points are shared out in a deal; fewer is better. A seat
that takes every heart and the Q♠ "shoots the moon": it scores nothing instead and every other
seat 26. A whole game ends after the deal in which a seat's total reaches ``target`` (100); the
lowest total wins (shared on a tie).

Three or five players (``players``) play the usual reduced decks (:data:`REMOVED`): three take out the 2♦ and get
17 cards each; five take out the 2♦ and the 2♣ and get 10 each, and the 3♣, the lowest club left, leads the first
trick in the 2♣'s place. The pass rotation has one entry a player (:data:`CYCLES`): three pass left, right, none;
five left, right, two to the left, two to the right, none; ``across`` is for four only. The trick has one card a
player and the first trick's rules (``no_pts_on_first_trick``) hold for that trick; the 13 hearts and the Q♠ are
all in every deck, so the points, the moon and the bonuses are the same.

The rules OpenSpiel's ``hearts`` names as parameters are options of the same names and defaults
(:class:`HeartsOptions`), so a run with the defaults plays OpenSpiel's game:

* ``pass_cards`` (on): the three-card pass; off, no deal passes.
* ``no_pts_on_first_trick`` (on): a seat void in clubs on the first trick may not discard a heart
  or the Q♠ unless it holds nothing else.
* ``can_lead_any_club`` (off): the 2♣ holder may lead any club to the first trick.
* ``jd_bonus`` (off): the J♦ is worth -10 to its taker (it does not count towards the moon).
* ``avoid_all_tricks_bonus`` (off): -5 to each seat that took no trick (not when the moon is shot).
* ``must_break_hearts`` (on): hearts may not be led until a heart has been played (or the Q♠,
  with ``qs_breaks_hearts``, on), unless the leader holds only hearts.
* ``can_lead_hearts_instead_of_qs`` (off): a leader holding only hearts and the Q♠ while hearts
  are unbroken may lead either (otherwise it must lead the Q♠).

Scoring OpenSpiel fixes is an option too, defaulting to its values: ``queen_points`` (13), ``jack_points`` (10, with
``jd_bonus``), and ``moon_scoring``: the moon is worth every heart and the Q♠ (26 by default), added to every other
seat's points (``others_add``, OpenSpiel's) or, as many tables play, taken off the shooter's (``shooter_subtracts``:
the shooter scores -26, the others what they took, nothing).

OpenSpiel draws a single deal's pass direction at random. cardlab's deals follow the rotation a
table plays, ``pass_direction="cycle"``: deal ``i`` of a run (and deal ``i`` of a whole game)
passes left, right, across or not at all as ``i % 4`` is 0, 1, 2 or 3 (with three or five players, the next
entry of their rotation, ``i % players``), so every direction comes equally often; ``left``, ``right`` or ``across``
fix one direction for every deal.

Kernels receive the options as one small integer array (:func:`kernel_rules`), never as objects.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from cardlab.sim.cards import CLUBS, DIAMONDS, JACK, QUEEN, SPADES, TWO, card, french_deck
from cardlab.sim.game import GAMES_ONLY
from cardlab.sim.options import Scope, check_options, option

PLAYERS = 4  # OpenSpiel's table, the default; HAND, TRICKS, LOG_PLAYS and LOG_WIDTH are four players'
TABLE_SIZES = (3, 4, 5)
MAX_PLAYERS = 5
HAND = 13
TRICKS = 13
PASS = 3  # cards each seat passes
DECK = french_deck(TWO)  # the 52 card ids
TWO_CLUBS, QUEEN_SPADES, JACK_DIAMONDS = card(TWO, CLUBS), card(QUEEN, SPADES), card(JACK, DIAMONDS)
#: The cards taken out so that the deck deals evenly, by the number of players: three the 2♦ (17 cards each), five
#: the 2♦ and the 2♣ (10 each; the 3♣ leads), as the common English rules (and cardlab's Barbu) have them.
REMOVED = {3: (card(TWO, DIAMONDS),), 4: (), 5: (card(TWO, DIAMONDS), TWO_CLUBS)}
HEART_POINTS, QUEEN_POINTS, JACK_POINTS = 1, 13, 10  # the J♦'s points come off its taker's (jd_bonus)
AVOID_ALL_TRICKS_POINTS = -5
MAX_TARGET = 1000

#: Where a deal's passes go, as offsets (a seat passes to seat + offset): OpenSpiel's numbering.
PASS_NAMES = ("none", "left", "across", "right")
NO_PASS = 0
#: The rotation a table plays: deal i passes CYCLE[i % 4].
CYCLE = (1, 3, 2, 0)  # left, right, across, none
#: The rotation by the number of players n, one entry a player (deal i passes CYCLES[n][i % n]): three pass left,
#: right, none; five left, right, two to the left, two to the right, none (offsets: right is n - 1).
CYCLES = {3: (1, 2, 0), 4: CYCLE, 5: (1, 4, 2, 3, 0)}
PASS_DIRECTIONS = ("cycle", "left", "right", "across")
#: Who a moon's worth goes to: every other seat adds it (OpenSpiel's), or the shooter takes it off its own points.
MOON_SCORINGS = ("others_add", "shooter_subtracts")

#: The ways a seat may choose its three cards in the passing study (sim.hearts.passing); otherwise a seat passes as
#: its policy does (the heuristic's, or random cards for a random seat).
PASS_RULES = ("heuristic", "highest", "lowest", "shortest", "random")
HEURISTIC_PASS, RANDOM_PASS, BY_POLICY = 0, 4, -1

#: A move log (kernels, records): the 12 passed cards (seat 0's three in the order chosen, then seat 1's ...;
#: -1 when nobody passes), then the 52 cards in play order. With n players: 3 n passes, then the deck's cards
#: (``HeartsOptions.log_plays`` and ``log_width``).
LOG_PASSES, LOG_PLAYS, LOG_WIDTH = 0, PLAYERS * PASS, PLAYERS * PASS + PLAYERS * TRICKS

#: Action ids of the step API: a card played is its card id (0-63), a card passed 64 + the card id.
PASS_ID = 64


@dataclass(frozen=True)
class HeartsOptions:
    """Table rules of Hearts; validated on creation (see the module docstring).

    >>> HeartsOptions(jd_bonus=True).jd_bonus
    True
    >>> HeartsOptions(pass_direction="up")
    Traceback (most recent call last):
    ValueError: pass_direction: 'up' is not allowed; choose cycle, left, right or across
    >>> HeartsOptions(players=6)
    Traceback (most recent call last):
    ValueError: players: 6 is not allowed; use an integer from 3 to 5
    >>> from cardlab.sim.cards import card_name
    >>> o = HeartsOptions(players=5)
    >>> o.hand_size, card_name(o.lead_card), pass_name(fixed_offset("right", 5), 5)
    (10, '3♣', 'right')
    """

    players: int = option(PLAYERS, "players at the table: 4 as OpenSpiel; 3 (the 2♦ out, 17 cards each) or 5 (the 2♦ "
                                   "and 2♣ out, 10 each, the 3♣ leads)", between=(TABLE_SIZES[0], TABLE_SIZES[-1]))
    pass_cards: bool = option(True, "each seat passes three cards before the play")
    pass_direction: str = option("cycle", "where the cards go: cycle = left, right, across, none by deal i % 4 "
                                 "(3 players: left, right, none; 5: left, right, two left, two right, none), or "
                                 "always one way (across: 4 players only)", choices=PASS_DIRECTIONS,
                                 applies=Scope(lambda c: c["pass_cards"], "only with {pass_cards}"))
    no_pts_on_first_trick: bool = option(True, "no heart or Q♠ on the first trick unless a seat holds nothing else")
    can_lead_any_club: bool = option(False, "the 2♣ holder may lead any club to the first trick")
    jd_bonus: bool = option(False, "the J♦ is worth -10 to its taker")
    avoid_all_tricks_bonus: bool = option(False, "-5 to each seat that takes no trick (not when the moon is shot)")
    must_break_hearts: bool = option(True, "hearts may not be led until one has been played (or the leader holds "
                                           "only hearts)")
    qs_breaks_hearts: bool = option(True, "playing the Q♠ breaks hearts too",
                                    applies=Scope(lambda c: c["must_break_hearts"], "only with {must_break_hearts}"))
    can_lead_hearts_instead_of_qs: bool = option(False, "with hearts unbroken, a leader holding only hearts and the Q♠ "
                                                        "may lead a heart",
                                                 applies=Scope(lambda c: c["must_break_hearts"],
                                                               "only with {must_break_hearts}"))
    queen_points: int = option(QUEEN_POINTS, "what the Q♠ costs its taker (OpenSpiel: 13)", between=(1, 50))
    jack_points: int = option(JACK_POINTS, "what the J♦ takes off its taker's points with jd_bonus (OpenSpiel: 10)",
                              between=(1, 50), applies=Scope(lambda c: c["jd_bonus"], "only with {jd_bonus}"))
    moon_scoring: str = option("others_add", "a moon's worth (26): added to every other seat (OpenSpiel's), or taken "
                               "off the shooter's points", choices=MOON_SCORINGS)
    target: int = option(100, "a total that ends a game (the lowest total wins)", between=(1, MAX_TARGET),
                         applies=GAMES_ONLY)

    def __post_init__(self):
        check_options(self)
        if self.players != PLAYERS and self.pass_direction == "across" and self.pass_cards:
            raise ValueError(f"pass_direction: 'across' is not allowed with {self.players} players; choose cycle, "
                             "left or right")

    @property
    def moon(self) -> int:
        """What a moon-shooter's opponents each score, and the shooter saves: every heart and the Q♠ (26)."""
        return 13 * HEART_POINTS + self.queen_points

    @property
    def max_deals(self) -> int:
        """Deals after which a game stops whatever the totals. A deal shares out at least ``least`` points (every
        heart and the Q♠, less the J♦'s ``jack_points`` and ``players - 1`` -5 bonuses where they apply), so some
        total reaches the target within ``players * target / least`` deals; where the bonuses could outweigh the
        penalties (``least`` < 1, as when a moon takes its worth off the shooter) the game stops after ``players *
        target`` deals."""
        least = self.moon - (self.jack_points if self.jd_bonus else 0) + (
            (self.players - 1) * AVOID_ALL_TRICKS_POINTS if self.avoid_all_tricks_bonus else 0)
        if self.moon_scoring == "shooter_subtracts":
            least = -self.moon
        return self.players * self.target // max(1, least) + 1

    @property
    def deck(self) -> np.ndarray:
        """The card ids dealt (:func:`deck_of`)."""
        return deck_of(self.players)

    @property
    def hand_size(self) -> int:
        """Cards each seat is dealt: 17, 13 or 10, also the tricks of a deal."""
        return len(self.deck) // self.players

    @property
    def moves(self) -> int:
        """Cards played in a deal: the deck's."""
        return len(self.deck)

    @property
    def lead_card(self) -> int:
        """The card that leads the first trick: the lowest club dealt (the 2♣; the 3♣ with five players)."""
        return lead_card_of(self.players)

    @property
    def log_plays(self) -> int:
        """Where a move log's plays start: after the ``3 * players`` passes."""
        return PASS * self.players

    @property
    def log_width(self) -> int:
        """Entries of a move log: the passes, then every card of the deck."""
        return self.log_plays + self.moves

    def to_dict(self) -> dict:
        return asdict(self)


def deck_of(players: int) -> np.ndarray:
    """The card ids dealt to ``players`` players: :data:`DECK` in its order without the :data:`REMOVED` cards."""
    return np.array([c for c in DECK if c not in REMOVED[players]], DECK.dtype)


def lead_card_of(players: int) -> int:
    """The lowest club of ``players``' deck: the card that leads the first trick."""
    return min(int(c) for c in deck_of(players) if c // 16 == CLUBS)


def fixed_offset(direction: str, players: int) -> int:
    """The offset of a fixed ``direction`` (``left``, ``right``, ``across``) with ``players`` players: 1, ``players
    - 1``, 2."""
    return {"left": 1, "right": players - 1, "across": 2}[direction]


def pass_name(offset: int, players: int = PLAYERS) -> str:
    """The name of a pass ``offset`` (seat + ``offset`` receives) with ``players`` players: ``none``, ``left``,
    ``right`` (``players - 1``), ``across`` (2, with four), and with five ``two left`` (2) and ``two right`` (3).

    >>> [pass_name(k, 4) for k in range(4)], [pass_name(k, 5) for k in range(5)]
    (['none', 'left', 'across', 'right'], ['none', 'left', 'two left', 'two right', 'right'])
    """
    if players == PLAYERS or offset == 0:
        return PASS_NAMES[offset]
    if offset == 1:
        return "left"
    if offset == players - 1:
        return "right"
    return "two left" if offset == 2 else "two right"


def pass_offset(options: HeartsOptions, deal: int) -> int:
    """Where deal ``deal``'s passes go (an offset of :data:`PASS_NAMES`): deal ``deal`` of a run, or of a game."""
    if not options.pass_cards:
        return NO_PASS
    if options.pass_direction == "cycle":
        return CYCLES[options.players][deal % options.players]
    return fixed_offset(options.pass_direction, options.players)


# Entries of the kernels' rules array.
R_PASS_CARDS, R_CYCLE, R_FIXED_PASS, R_NO_PTS_FIRST, R_ANY_CLUB, R_JD, R_AVOID, R_MUST_BREAK, R_QS_BREAKS, \
    R_HEARTS_INSTEAD_OF_QS, R_TARGET, R_MAX_DEALS, R_QUEEN_POINTS, R_JACK_POINTS, R_SHOOTER_SUBTRACTS, \
    R_PLAYERS, R_MOVES, R_LEAD, N_RULES = range(19)


def kernel_rules(options: HeartsOptions) -> np.ndarray:
    """The options as the kernels read them (entries ``R_*``)."""
    o = options
    rules = np.zeros(N_RULES, np.int64)
    rules[R_PASS_CARDS] = o.pass_cards
    rules[R_CYCLE] = o.pass_direction == "cycle"
    rules[R_FIXED_PASS] = fixed_offset(o.pass_direction, o.players) if o.pass_direction != "cycle" else 0
    rules[R_NO_PTS_FIRST] = o.no_pts_on_first_trick
    rules[R_ANY_CLUB] = o.can_lead_any_club
    rules[R_JD] = o.jd_bonus
    rules[R_AVOID] = o.avoid_all_tricks_bonus
    rules[R_MUST_BREAK] = o.must_break_hearts
    rules[R_QS_BREAKS] = o.qs_breaks_hearts
    rules[R_HEARTS_INSTEAD_OF_QS] = o.can_lead_hearts_instead_of_qs
    rules[R_TARGET] = o.target
    rules[R_MAX_DEALS] = o.max_deals
    rules[R_QUEEN_POINTS] = o.queen_points
    rules[R_JACK_POINTS] = o.jack_points
    rules[R_SHOOTER_SUBTRACTS] = o.moon_scoring == "shooter_subtracts"
    rules[R_PLAYERS] = o.players
    rules[R_MOVES] = o.moves
    rules[R_LEAD] = o.lead_card
    return rules

