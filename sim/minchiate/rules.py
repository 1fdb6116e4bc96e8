"""Minchiate rules as data: the 97 cards, their values and strengths, and the options.

Minchiate is the Florentine tarot for four players in two partnerships (seats 0 and 2 against
1 and 3), played counter-clockwise: the next player after seat ``p`` is ``p + 1``. The dealer
``D`` deals; ``D + 1`` receives first and leads; ``D + 3`` cuts (an opponent of the dealer).

Card ids (the public ids of every log, replay and test):

* trump ``n`` (1..40) is id ``n - 1`` (0..39); the Matto is id 40;
* suit ``s`` (0 coins, 1 cups, 2 swords, 3 batons), rank ``r`` (1..10 pips, 11 Fante, 12 Cavallo,
  13 Queen, 14 King) is id ``41 + 14 s + r - 1``.

Kernels hold a hand as two ``uint64`` words: ``lo`` has bit ``id`` for the 40 trumps and the
Matto (ids 0..40), ``hi`` has bit ``id - 41`` for the 56 suit cards, one 14-bit lane per suit.

Trick strength inside a suit: King > Queen > Cavallo > Fante > pips; in the round suits (coins,
cups) the ace is the highest pip and the 10 the lowest, in the long suits (swords, batons) the 10
is the highest and the ace the lowest. Any trump beats any suit card; trumps rank by number.

Card values: trumps 36-40 are worth 10; trumps 30-35, 28, 20, 13, 10, 1, the Matto and the four
Kings 5; trumps 2-5 3; every other card 0. Trump 29 is worth 0 alone and 5 inside a
combination. The 25 counting cards total 142. A *qualifying* card (for the cutter's and the
dealer's draws) is a counting card or a trump above 20 (21-27 only with ``steal_29=False``).

Options (:class:`MinchiateOptions`, default first; the kernels receive them as integers):

* ``n_deals`` 1: deals per whole game (the deal passes to the next seat); 1 to :data:`N_DEALS_MAX` (10,000).
* ``steal_29`` True: the draws may take trump 29; False: trumps 21-27 only.
* ``cutter_cap`` 13: most cards the cutter may take (13 is the physical limit); 0-12 allowed.
* ``expose_last_cards`` ``"dealer"``; ``"all_four"``: every player's 21st card is shown and scores.
* ``dealer_takes_from_fola`` ``"counting+29"``; ``"counting+trumps_above_20"``: every trump above 20 too.
* ``discards_to`` ``"fola"``; ``"own_team_pile"``: discards join the discarder's pile after trick 1.
* ``declarations`` ``"policy"``; ``"mandatory_all"``: every combination must be shown.
* ``c5_merge`` True: 10-20-30-40 is one combination; False: both triples score.
* ``combos_may_share`` True: a card may serve in combinations of different types; False: once.
* ``matto_bonus_on_c3`` False; True: the Matto bonus applies to 1-40-Matto too.
* ``score_pile_combos`` True: each team's pile combinations score at the end; False: not.
* ``card_bonus_rule`` ``"beyond_42"``: one point per pile card beyond 42 (the only rule).
* ``cappotto_double`` False; True: both teams' resti double when a team took no trick.

Scoring values (issue 19), each an integer option, default first: the points of each counting group,
``top_trumps`` 10 (trumps 36-40), ``mid_trumps`` 5 (trumps 1, 10, 13, 20, 28, 30-35), ``low_trumps`` 3
(trumps 2-5), ``matto_points`` 5, ``king_points`` 5 (each at least 1, so the counting cards, the
qualifying cards and the legal discards stay those above); ``combo_29`` 5 (trump 29 inside a
combination); ``matto_bonus`` 5; ``beyond_42`` 1 (per pile card beyond 42); ``last_trick`` 10;
``resto_unit`` 60 (points per resto). The kernels read them from :meth:`MinchiateOptions.kernel_flags`;
the discard fallback order (trumps 2-5, the fives, the tens, 29) is a fixed order of the groups.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np

from cardlab.sim.game import GAMES_ONLY
from cardlab.sim.options import check_options, option

N_CARDS = 97
N_TRUMPS = 40
MATTO = 40
SUIT_BASE = 41
SUIT_NAMES = ("Coins", "Cups", "Swords", "Batons")
ROUND_SUITS = (0, 1)
FANTE, CAVALLO, QUEEN, KING = 11, 12, 13, 14
COURT_NAMES = {11: "Fante", 12: "Cavallo", 13: "Queen", 14: "King"}
N_TRICKS = 21
PLAYERS = 4
PILE_PAR = 42  # cards beyond this many in a team pile score (one point each by default: ``beyond_42``)


def trump(n: int) -> int:
    """Card id of trump ``n`` (1..40)."""
    return n - 1


def suit_card(suit: int, rank: int) -> int:
    """Card id of rank ``rank`` (1..14) in suit ``suit`` (0..3)."""
    return SUIT_BASE + 14 * suit + rank - 1


KINGS = tuple(suit_card(s, KING) for s in range(4))


def is_trump(c: int) -> bool:
    return 0 <= c < N_TRUMPS


def suit_of(c: int) -> int:
    """0..3 for a suit card, 4 for a trump, -1 for the Matto (the 'suit' a card leads)."""
    if c < N_TRUMPS:
        return 4
    if c == MATTO:
        return -1
    return (c - SUIT_BASE) // 14


def rank_of(c: int) -> int:
    """Rank 1..14 of a suit card, trump number 1..40 of a trump, 0 for the Matto."""
    if c < N_TRUMPS:
        return c + 1
    if c == MATTO:
        return 0
    return (c - SUIT_BASE) % 14 + 1


def card_name(c: int) -> str:
    """Readable name: ``Trump 29``, ``Matto``, ``King of Cups``, ``Fante of Coins``, ``7 of Batons``."""
    c = int(c)
    if not 0 <= c < N_CARDS:
        raise ValueError(f"card: {c!r} is not allowed; card ids are 0..96")
    if c < N_TRUMPS:
        return f"Trump {c + 1}"
    if c == MATTO:
        return "Matto"
    s, r = divmod(c - SUIT_BASE, 14)
    return f"{COURT_NAMES.get(r + 1, str(r + 1))} of {SUIT_NAMES[s]}"


#: The groups of counting cards, each worth its own option's points (defaults 10, 5, 3, 5, 5): trumps 36-40;
#: trumps 1, 10, 13, 20, 28 and 30-35; trumps 2-5; the Matto; the four Kings.
POINT_GROUPS = ("top_trumps", "mid_trumps", "low_trumps", "matto_points", "king_points")
KING_GROUP = POINT_GROUPS.index("king_points")
GROUP_TRUMPS = {"top_trumps": range(36, 41), "mid_trumps": (1, 10, 13, 20, 28, 30, 31, 32, 33, 34, 35),
                "low_trumps": range(2, 6)}


def _group(c: int) -> int:
    """The index in :data:`POINT_GROUPS` of card ``c``'s group, -1 for a card that never scores (a blank)."""
    if c < N_TRUMPS:
        return next((g for g, name in enumerate(POINT_GROUPS[:3]) if c + 1 in GROUP_TRUMPS[name]), -1)
    if c == MATTO:
        return POINT_GROUPS.index("matto_points")
    return KING_GROUP if rank_of(c) == KING else -1


def _strength(c: int) -> int:
    """Trick strength: suit cards 1..14 inside their suit, trumps 15..54, the Matto 0."""
    if c < N_TRUMPS:
        return 14 + c + 1
    if c == MATTO:
        return 0
    s, r = suit_of(c), rank_of(c)
    if r > 10:
        return r
    return 11 - r if s in ROUND_SUITS else r


#: Point group of every id (:data:`POINT_GROUPS`; -1: a blank, trump 29 among them).
CARD_GROUP = np.array([_group(c) for c in range(N_CARDS)], dtype=np.int64)
#: Default points of each group, and the other scoring values' defaults (each an option of MinchiateOptions).
GROUP_POINTS = (10, 5, 3, 5, 5)
#: Card value of every id under the default points (trump 29 is 0 here; it is worth 5 only inside a combination).
CARD_VALUES = np.array([GROUP_POINTS[g] if g >= 0 else 0 for g in CARD_GROUP], dtype=np.int64)
#: Trick strength of every id (compare only inside one suit, or trumps against anything).
STRENGTH = np.array([_strength(c) for c in range(N_CARDS)], dtype=np.int64)
COUNTING = tuple(int(c) for c in np.flatnonzero(CARD_VALUES))
TRUMP_29 = trump(29)


def qualifies(c: int, steal_29: bool = True) -> bool:
    """A card the cutter's and dealer's draws may take: a counting card or a trump above 20."""
    if CARD_GROUP[c] >= 0:
        return True
    return is_trump(c) and c + 1 > 20 and (steal_29 or c != TRUMP_29)


def split(cards) -> tuple[int, int]:
    """The two kernel words ``(lo, hi)`` of a set of card ids."""
    lo = hi = 0
    for c in cards:
        c = int(c)
        if c <= MATTO:
            lo |= 1 << c
        else:
            hi |= 1 << (c - SUIT_BASE)
    return lo, hi


def join(lo: int, hi: int) -> list[int]:
    """Card ids (ascending) of the two kernel words."""
    lo, hi = int(lo), int(hi)
    return [c for c in range(41) if lo >> c & 1] + [SUIT_BASE + c for c in range(56) if hi >> c & 1]


EXPOSE = ("dealer", "all_four")
DEALER_TAKES = ("counting+29", "counting+trumps_above_20")
DISCARDS_TO = ("fola", "own_team_pile")
DECLARATIONS = ("policy", "mandatory_all")
CARD_BONUS_RULES = ("beyond_42",)
#: Most deals in one whole game. A game is played whole in one kernel call, which Ctrl-C cannot stop: 10,000
#: heuristic deals take about 0.05 s on a core, so a run still answers Ctrl-C within a second.
N_DEALS_MAX = 10_000
SCORING_VALUES = "scoring values"


@dataclass(frozen=True)
class MinchiateOptions:
    """Every rule option of Minchiate, validated; defaults are the seed's rules (see the module docstring)."""

    players: int = option(4, "players at the table (two partnerships)", choices=(PLAYERS,))
    n_deals: int = option(1, "deals per whole game (1 = one deal, 4 = each player deals once; at most 10,000)",
                          applies=GAMES_ONLY)
    steal_29: bool = option(True, "the draws may take trump 29")
    cutter_cap: int = option(13, "most cards the cutter may take (13 is the physical limit)", between=(0, 13))
    expose_last_cards: str = option("dealer", "whose 21st card is shown and scores", choices=EXPOSE)
    dealer_takes_from_fola: str = option("counting+29", "what the dealer takes unscored from the Fola",
                                         choices=DEALER_TAKES)
    discards_to: str = option("fola", "where the discards go", choices=DISCARDS_TO)
    declarations: str = option("policy", "which combinations are shown", choices=DECLARATIONS)
    c5_merge: bool = option(True, "10-20-30-40 is one combination")
    combos_may_share: bool = option(True, "a card may serve in combinations of different types")
    matto_bonus_on_c3: bool = option(False, "the Matto bonus applies to 1-40-Matto too")
    score_pile_combos: bool = option(True, "score the combinations of each team's pile at the end")
    card_bonus_rule: str = option("beyond_42", "the pile card bonus (the only rule)", choices=CARD_BONUS_RULES)
    cappotto_double: bool = option(False, "double the resti of a deal in which a team took no trick")
    # The scoring values (§1 card values, §4 combinations, §10-11 end of deal), each an option; defaults the seed's.
    top_trumps: int = option(10, "points of each of trumps 36-40", between=(1, 30), group=SCORING_VALUES)
    mid_trumps: int = option(5, "points of each of trumps 1, 10, 13, 20, 28 and 30-35", between=(1, 30),
                             group=SCORING_VALUES)
    low_trumps: int = option(3, "points of each of trumps 2-5", between=(1, 30), group=SCORING_VALUES)
    matto_points: int = option(5, "points of the Matto", between=(1, 30), group=SCORING_VALUES)
    king_points: int = option(5, "points of each King", between=(1, 30), group=SCORING_VALUES)
    combo_29: int = option(5, "points of trump 29 inside a combination (alone it is a blank)", between=(0, 30),
                           group=SCORING_VALUES)
    matto_bonus: int = option(5, "points added to each combination of a set that holds the Matto", between=(0, 30),
                              group=SCORING_VALUES)
    beyond_42: int = option(1, "points for each card of a team's pile beyond 42", between=(0, 10),
                            group=SCORING_VALUES)
    last_trick: int = option(10, "points for taking the last trick", between=(0, 100), group=SCORING_VALUES)
    resto_unit: int = option(60, "points that make one resto", between=(1, 600), group=SCORING_VALUES)

    def __post_init__(self):
        check_options(self)
        n = self.n_deals  # checked by hand, for the message that says how to get more deals
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= N_DEALS_MAX:
            raise ValueError(f"n_deals: {n!r} is not allowed; use an integer from 1 to {N_DEALS_MAX:,} (deals per "
                             "whole game: 1 = one deal, 4 = each player deals once; for more deals in all, give "
                             "more --games, or --deals)")

    def to_dict(self) -> dict:
        return asdict(self)

    def kernel_flags(self) -> np.ndarray:
        """The options as the integer array the kernels read (indices :data:`OPT`): the rules, the scoring
        values, each card's points and the heuristic's card orders under them (precomputed: read per card)."""
        from cardlab.sim.minchiate.policies import heuristic_tables

        return np.array([int(self.steal_29), self.cutter_cap, EXPOSE.index(self.expose_last_cards),
                         DEALER_TAKES.index(self.dealer_takes_from_fola), DISCARDS_TO.index(self.discards_to),
                         DECLARATIONS.index(self.declarations), int(self.c5_merge), int(self.combos_may_share),
                         int(self.matto_bonus_on_c3), int(self.score_pile_combos), int(self.cappotto_double),
                         self.last_trick, self.beyond_42, self.resto_unit, self.matto_bonus, self.combo_29,
                         *self.group_points, *self.card_points(), *heuristic_tables(self.card_points())],
                        dtype=np.int64)

    @property
    def group_points(self) -> tuple[int, ...]:
        """The points of each group of :data:`POINT_GROUPS`, as the options set them."""
        return tuple(getattr(self, name) for name in POINT_GROUPS)

    def card_points(self) -> np.ndarray:
        """Points of every card id alone (trump 29 and the other blanks 0), as the options set them."""
        points = np.array(self.group_points + (0,), dtype=np.int64)
        return points[CARD_GROUP]

    def combination_keywords(self) -> dict:
        """The keywords of :func:`~cardlab.sim.minchiate.combos.find_combinations` for these options."""
        return dict(c5_merge=self.c5_merge, combos_may_share=self.combos_may_share,
                    matto_bonus_on_c3=self.matto_bonus_on_c3, combo_points=self.combo_points(),
                    matto_bonus=self.matto_bonus)

    def combo_points(self) -> np.ndarray:
        """Points of every card id inside a combination: its own, trump 29 ``combo_29``."""
        points = self.card_points()
        points[TRUMP_29] = self.combo_29
        return points


class Opt(NamedTuple):
    """Indices into :meth:`MinchiateOptions.kernel_flags`."""

    STEAL_29: int = 0
    CUTTER_CAP: int = 1
    EXPOSE_ALL: int = 2
    DEALER_TAKES: int = 3
    DISCARDS_OWN: int = 4
    DECLARE_MANDATORY: int = 5
    C5_MERGE: int = 6
    MAY_SHARE: int = 7
    MATTO_C3: int = 8
    PILE_COMBOS: int = 9
    CAPPOTTO: int = 10
    LAST_TRICK: int = 11
    BEYOND_42: int = 12
    RESTO_UNIT: int = 13
    MATTO_BONUS: int = 14
    COMBO_29: int = 15
    GROUP_POINTS: int = 16  # one entry per group of POINT_GROUPS
    CARD_POINTS: int = 21  # one entry per card id: MinchiateOptions.card_points(), read by the hot loops
    DUMP_COST: int = 21 + N_CARDS  # one per card id: the heuristic's dumping cost (policies.heuristic_tables)
    SMEAR_WORTH: int = 21 + 2 * N_CARDS  # one per card id: the heuristic's smearing worth


OPT = Opt()

#: Points by source, in column order (``draws_t`` ... ``last_trick_t``).
SOURCES = ("draws", "exposed", "declarations", "captures", "card_points", "pile_combos", "beyond42", "last_trick")
#: Combination types of §4, in kernel order.
COMBO_TYPES = ("R1", "R2", "C3", "C4", "C5", "C6")
