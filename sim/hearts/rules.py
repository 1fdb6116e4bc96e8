"""Hearts as data: the 52-card deck, the passing rotation, the points of each card and the options.

Four players, seats 0-3, play clockwise (seat + 1, which is also "to the left"). Each gets 13 cards.
Before the play each seat passes three cards: to the left (seat + 1), across (seat + 2) or to the
right (seat + 3), or nobody passes; a seat sees the cards it receives only once every seat has
passed. The holder of the 2♣ leads it to the first trick; a seat must follow the led suit when
it can; the highest card of the led suit wins and its winner leads next. Every heart a seat takes
costs it 1 point and the Q♠ 13, so 26 points are shared out in a deal; fewer is better. A seat
that takes every heart and the Q♠ "shoots the moon": it scores nothing instead and every other
seat 26. A whole game ends after the deal in which a seat's total reaches ``target`` (100); the
lowest total wins (shared on a tie).

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
passes left, right, across or not at all as ``i % 4`` is 0, 1, 2 or 3, so every direction comes
equally often; ``left``, ``right`` or ``across`` fix one direction for every deal.

Kernels receive the options as one small integer array (:func:`kernel_rules`), never as objects.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from cardlab.sim.cards import CLUBS, DIAMONDS, JACK, QUEEN, SPADES, TWO, card, french_deck
from cardlab.sim.game import GAMES_ONLY
from cardlab.sim.options import Scope, check_options, option

PLAYERS = 4
HAND = 13
TRICKS = 13
PASS = 3  # cards each seat passes
DECK = french_deck(TWO)  # the 52 card ids
TWO_CLUBS, QUEEN_SPADES, JACK_DIAMONDS = card(TWO, CLUBS), card(QUEEN, SPADES), card(JACK, DIAMONDS)
HEART_POINTS, QUEEN_POINTS, JACK_POINTS = 1, 13, 10  # the J♦'s points come off its taker's (jd_bonus)
AVOID_ALL_TRICKS_POINTS = -5
MAX_TARGET = 1000

#: Where a deal's passes go, as offsets (a seat passes to seat + offset): OpenSpiel's numbering.
PASS_NAMES = ("none", "left", "across", "right")
NO_PASS = 0
#: The rotation a table plays: deal i passes CYCLE[i % 4].
CYCLE = (1, 3, 2, 0)  # left, right, across, none
PASS_DIRECTIONS = ("cycle", "left", "right", "across")
#: Who a moon's worth goes to: every other seat adds it (OpenSpiel's), or the shooter takes it off its own points.
MOON_SCORINGS = ("others_add", "shooter_subtracts")

#: The ways a seat may choose its three cards in the passing study (sim.hearts.passing); otherwise a seat passes as
#: its policy does (the heuristic's, or random cards for a random seat).
PASS_RULES = ("heuristic", "highest", "lowest", "shortest", "random")
HEURISTIC_PASS, RANDOM_PASS, BY_POLICY = 0, 4, -1

#: A move log (kernels, records): the 12 passed cards (seat 0's three in the order chosen, then seat 1's ...;
#: -1 when nobody passes), then the 52 cards in play order.
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
    """

    players: int = option(PLAYERS, "always 4 (the game is for four)")
    pass_cards: bool = option(True, "each seat passes three cards before the play")
    pass_direction: str = option("cycle", "where the cards go: cycle = left, right, across, none by deal i % 4, "
                                 "or always one way", choices=PASS_DIRECTIONS,
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
        if self.players != PLAYERS:
            raise ValueError(f"players: {self.players!r} is not allowed; Hearts is played here by exactly 4")

    @property
    def moon(self) -> int:
        """What a moon-shooter's opponents each score, and the shooter saves: every heart and the Q♠ (26)."""
        return 13 * HEART_POINTS + self.queen_points

    @property
    def max_deals(self) -> int:
        """Deals after which a game stops whatever the totals. A deal shares out at least ``least`` points (every
        heart and the Q♠, less the J♦'s ``jack_points`` and three -5 bonuses where they apply), so some total
        reaches the target within ``4 * target / least`` deals; where the bonuses could outweigh the penalties
        (``least`` < 1, as when a moon takes its worth off the shooter) the game stops after ``4 * target`` deals."""
        least = self.moon - (self.jack_points if self.jd_bonus else 0) + (
            3 * AVOID_ALL_TRICKS_POINTS if self.avoid_all_tricks_bonus else 0)
        if self.moon_scoring == "shooter_subtracts":
            least = -self.moon
        return PLAYERS * self.target // max(1, least) + 1

    def to_dict(self) -> dict:
        return asdict(self)


def pass_offset(options: HeartsOptions, deal: int) -> int:
    """Where deal ``deal``'s passes go (an offset of :data:`PASS_NAMES`): deal ``deal`` of a run, or of a game."""
    if not options.pass_cards:
        return NO_PASS
    if options.pass_direction == "cycle":
        return CYCLE[deal % 4]
    return PASS_NAMES.index(options.pass_direction)


# Entries of the kernels' rules array.
R_PASS_CARDS, R_CYCLE, R_FIXED_PASS, R_NO_PTS_FIRST, R_ANY_CLUB, R_JD, R_AVOID, R_MUST_BREAK, R_QS_BREAKS, \
    R_HEARTS_INSTEAD_OF_QS, R_TARGET, R_MAX_DEALS, R_QUEEN_POINTS, R_JACK_POINTS, R_SHOOTER_SUBTRACTS, \
    N_RULES = range(16)


def kernel_rules(options: HeartsOptions) -> np.ndarray:
    """The options as the kernels read them (entries ``R_*``)."""
    o = options
    rules = np.zeros(N_RULES, np.int64)
    rules[R_PASS_CARDS] = o.pass_cards
    rules[R_CYCLE] = o.pass_direction == "cycle"
    rules[R_FIXED_PASS] = PASS_NAMES.index(o.pass_direction) if o.pass_direction != "cycle" else 0
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
    return rules

