"""Barbu rules as data: contracts, options, removed cards and scoring tables.

Rules as coded, with every option and every choice where the sources differ: ``docs/rules/barbu.md``
(BGA rules, as in the project's seed, and the options other sources call for). Choices where the
sources leave room, each switchable by a named option of :class:`BarbuOptions`:

* Hearts may be led at any time (``hearts_lead='anytime'``); ``'broken'`` forbids leading a
  heart until a heart has been played to an earlier trick, ``'only_if_forced'`` until the
  leader holds nothing else. The restriction applies to No Hearts and No K♥, and to Salade
  only with ``hearts_lead_salade=True``.
* ``kh_forced_discard`` (off): in No K♥ and Salade a player void in the led suit who holds K♥
  must discard it.
* ``early_stop`` (on): a deal stops once no card left in the hands can score and no later
  trick carries points (No Queens after the 4th queen, No K♥ after the K♥, No Hearts after
  the last heart). Scores are unchanged; Last Two, Salade, Anti-Salade always play out.
* Wikipedia scoring uses the same values for every deck and player count (§7 item 1); with
  three players the Domino loser scores the table's third value, or its last value with
  ``domino_three_last='last_place'`` (§7 item 8).
* Every §3 value is an option (issue 19): ``trick``, ``heart``, ``ace_hearts``, ``queen``,
  ``king_hearts``, ``second_last``, ``last``, ``trumps_trick`` (points to the taker; ``None``, the
  default, reads :data:`VALUES` for the ``scoring`` and ``deck``), and ``salade_factor`` /
  ``anti_salade_factor`` (Salade's and Anti-Salade's sums of the items, times 1 by default). An item
  scores wherever its contract's items do: the queen in No Queens, Salade and Anti-Salade. Policies
  read the values from the kernel tables and the hand model is fitted per table, so play follows them.
* Trumps duties (``overtrump_on_trump_lead``, ``must_trump``, ``overtrump_when_ruffing``) are
  independent: a void player under must-trump who cannot or need not overtrump still trumps
  (§7 item 16).

Whole games (§2): the contract set ``C`` is the four base contracts plus ``last_two``,
``salade``, ``anti_salade``, ``domino`` and ``trumps`` when enabled. Defaults: Last Two and
Domino on, Salade and Anti-Salade off, Trumps on in Geronimo games and in Regular games with
``trumps_in_regular``, which gives the seven classic contracts in Geronimo. Geronimo rotates
the declarer every deal (``declarer_blocks`` gives each player its contracts in a row); Regular
mode deals each contract once by every player before the next (``regular_cycle='per_player'``)
or passes through the cycle once per iteration (``'per_contract'``, the declarer rotating so
that every seat declares every contract as evenly as the game length allows; see
:attr:`BarbuOptions.schedule`), ``iterations`` times. Doubling (§5) with ``double``;
``late_redouble`` gives players who already acted one redouble-only turn;
``double_obligation`` (2) is how many times each player must double each declarer, capped by
the deals that declarer declares. ``skip_undoubled_negative`` (off; §7 item 12, Wikipedia): a
negative deal nobody doubles is not played; its total is split equally among the
non-declarers, rounded down, and the remainder goes to the declarer (``skip_remainder=
'declarer'``: 0 or +1 with Wikipedia scoring and four players) or a point each to the others
(``'others'``). Which option applies to which run is each field's ``applies`` (checked by
:mod:`sim.barbu.interface`).

Kernels receive everything here as integer arrays (:class:`ScoringTables`), never as
Python objects.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cardlab.sim.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, N_CARD_IDS, QUEEN, SEVEN, TWO, card, french_deck
from cardlab.sim.game import GAMES_ONLY
from cardlab.sim.options import Scope, check_choice, check_options, option, parse_ints, per_seat_names, shown


class Contract(NamedTuple):
    """Integer ids of the contracts, in the regular-mode cycle order of §2."""

    NO_TRICKS: int = 0
    NO_HEARTS: int = 1
    NO_QUEENS: int = 2
    NO_BARBU: int = 3
    LAST_TWO: int = 4
    SALADE: int = 5
    ANTI_SALADE: int = 6
    TRUMPS: int = 7
    DOMINO: int = 8


CONTRACT = Contract()
CONTRACT_NAMES = ("no-tricks", "no-hearts", "no-queens", "no-barbu", "last-two", "salade", "anti-salade",
                  "trumps", "domino")
TRICK_CONTRACTS = CONTRACT_NAMES[:8]  # every contract played in tricks
ALL_CONTRACTS = CONTRACT_NAMES  # what contract='all' plays, each on its own deals
POSITIVE_CONTRACTS = ("anti-salade", "trumps", "domino")

# Per-contract flag bits handed to kernels.
FLAG_HEARTS_LEAD = 1   # the hearts-lead restriction applies
FLAG_KH_DISCARD = 2    # the forced K♥ discard applies
FLAG_POSITIVE = 4      # points are good: players try to take tricks
FLAG_PLAY_OUT = 8      # never stop early

SCHEMES = ("basic", "wiki")
REGULAR_CYCLES = ("per_player", "per_contract")
DOMINO_RULES = ("upward", "fan_tan", "bga_adjacent")
DOMINO_STARTERS = ("declarer", "left")
DOMINO_THREE_LAST = ("third_place", "last_place")
SKIP_REMAINDERS = ("declarer", "others")
HEARTS_LEAD = ("anytime", "broken", "only_if_forced")
PLAYERS = (3, 4, 5)
DECKS = (32, 52)
KH = card(KING, HEARTS)
AH = card(ACE, HEARTS)

# §1: cards removed so every hand is equal, keyed by (players, deck).
REMOVED = {
    (3, 32): (card(SEVEN, DIAMONDS), card(SEVEN, CLUBS)),
    (3, 52): (card(TWO, DIAMONDS),),
    (4, 32): (),
    (4, 52): (),
    (5, 32): (card(SEVEN, DIAMONDS), card(SEVEN, CLUBS)),
    (5, 52): (card(TWO, DIAMONDS), card(TWO, CLUBS)),
}

# §3: the value of each item to the player who takes it, per scheme and deck. Every item is an option
# of BarbuOptions (``None``, its default, reads this table); ``ace_hearts`` None: A♥ is a heart like any other.
VALUES = {
    ("basic", 32): dict(trick=-1, heart=-1, ace_hearts=None, queen=-2, king_hearts=-8, second_last=-3, last=-5,
                        trumps_trick=2),
    ("basic", 52): dict(trick=-1, heart=-1, ace_hearts=None, queen=-3, king_hearts=-12, second_last=-4, last=-8,
                        trumps_trick=3),
    ("wiki", 32): dict(trick=-2, heart=-2, ace_hearts=-6, queen=-6, king_hearts=-20, second_last=-10, last=-20,
                       trumps_trick=5),
    ("wiki", 52): dict(trick=-2, heart=-2, ace_hearts=-6, queen=-6, king_hearts=-20, second_last=-10, last=-20,
                       trumps_trick=5),
}
DOMINO_PLACES = {("basic", 32): (20, 10, 0, 0), ("basic", 52): (25, 15, 5, 0),
                 ("wiki", 32): (45, 20, 5, -5), ("wiki", 52): (45, 20, 5, -5)}


def contract_id(name: str) -> int:
    """Contract id from its name (``'no-queens'`` → 2)."""
    check_choice("contract", name, CONTRACT_NAMES)
    return CONTRACT_NAMES.index(name)


def parse_contracts(contract) -> tuple[str, ...]:
    """``'all'``, one contract name, or a sequence of names → tuple of contract names."""
    if isinstance(contract, str) and contract == "all":
        return ALL_CONTRACTS
    names = per_seat_names(contract)
    if not names:
        raise ValueError("contract: no contract given; choose 'all' or one or more of " + ", ".join(ALL_CONTRACTS))
    for name in names:
        check_choice("contract", name, ALL_CONTRACTS + ("all",))
        if name == "all":
            raise ValueError("contract: 'all' cannot be combined with other contracts")
    return names


def _plays(*contracts):
    return lambda c: bool(c["played"] & set(contracts))


def _games(c):
    return c["unit"] == "games"


def _regular(c):
    return _games(c) and not c["geronimo"]


def doubled(c) -> bool:
    """Whether a run (a context of :func:`cardlab.sim.options.check_scope`) is of whole games with doubling."""
    return _games(c) and c["double"]


# Where options apply (a run's context: its unit, study, the contracts it ``played`` and its options).
TRUMPS_ONLY = Scope(_plays("trumps"), "only to Trumps")
LAST_TWO_ONLY = Scope(_plays("last-two"), "only to Last Two")
DOMINO_ONLY = Scope(_plays("domino"), "only to Domino")
REGULAR_ONLY = Scope(_regular, "only to whole games in Regular mode (without {geronimo})")
DOUBLED_ONLY = Scope(doubled, "only to whole games with {double}")
GAMES = "whole games (with --games)"
TRUMPS_AND_DOMINO = "trumps and domino"
SCORING_VALUES = "scoring values (§3; none: the scoring table's for the pack)"


def _points(help_text: str, between: tuple[int, int], scope: Scope):
    """One §3 item's points to the player who takes it: ``None`` (the default) reads :data:`VALUES` for the
    run's ``scoring`` and ``deck``; an integer from ``between`` replaces it wherever the item scores."""
    return option(None, help_text, between=between, applies=scope, group=SCORING_VALUES)


def _in_salades(contract: str, title: str) -> Scope:
    """Where an item of ``contract`` scores: that contract, and Salade and Anti-Salade, which sum the items."""
    return Scope(_plays(contract, "salade", "anti-salade"), f"only to {title}, Salade and Anti-Salade")


@lru_cache(maxsize=None)
def _deck(lowest_rank: int, removed: tuple) -> np.ndarray:
    """:func:`~cardlab.sim.cards.french_deck`, made once per deck (the step API deals a state at every deal)."""
    return french_deck(lowest_rank, removed)


@dataclass(frozen=True)
class BarbuOptions:
    """Table rules of one Barbu game; each value validated on creation (see the module docstring). Each
    field says where it applies (``applies``): an option set where it has no effect is refused.

    >>> BarbuOptions(players=3, deck=32).hand_size
    10
    """

    players: int = option(4, "players at the table", choices=PLAYERS)
    deck: int = option(52, "cards in the pack", choices=DECKS)
    scoring: str = option("basic", "scoring table (wiki: Wikipedia's)", choices=SCHEMES)
    # §3's values, each its own option; the default None reads the scoring table for the pack (VALUES).
    trick: int | None = _points("points for each trick taken (No Tricks; Salade; reversed in Anti-Salade)", (-20, 0),
                                _in_salades("no-tricks", "No Tricks"))
    heart: int | None = _points("points for each heart taken (No Hearts; Salade; reversed in Anti-Salade)", (-20, 0),
                                _in_salades("no-hearts", "No Hearts"))
    ace_hearts: int | None = _points("points for the A♥ in place of a heart's (none: basic scoring counts it as a "
                                     "heart, wiki -6)", (-50, 0), _in_salades("no-hearts", "No Hearts"))
    queen: int | None = _points("points for each queen taken (No Queens; Salade; reversed in Anti-Salade)", (-50, 0),
                                _in_salades("no-queens", "No Queens"))
    king_hearts: int | None = _points("points for taking the K♥ (No K♥; Salade; reversed in Anti-Salade)", (-100, 0),
                                      _in_salades("no-barbu", "No K♥"))
    second_last: int | None = _points("Last Two: points for taking the second-last trick", (-100, 0), LAST_TWO_ONLY)
    last: int | None = _points("Last Two: points for taking the last trick", (-100, 0), LAST_TWO_ONLY)
    trumps_trick: int | None = _points("Trumps: points for each trick taken", (0, 20), TRUMPS_ONLY)
    salade_factor: int = option(1, "Salade scores the sum of its items' points times this", between=(1, 5),
                                applies=Scope(_plays("salade"), "only to Salade"), group=SCORING_VALUES)
    anti_salade_factor: int = option(1, "Anti-Salade scores the sum of Salade's items' points reversed, times this",
                                     between=(1, 5), applies=Scope(_plays("anti-salade"), "only to Anti-Salade"),
                                     group=SCORING_VALUES)
    hearts_lead: str = option("anytime", "when a heart may be led in No Hearts and No K♥", choices=HEARTS_LEAD,
                              applies=Scope(lambda c: _plays("no-hearts", "no-barbu")(c)
                                            or ("salade" in c["played"] and c["hearts_lead_salade"]),
                                            "only to No Hearts and No K♥ (and to Salade with {hearts_lead_salade})"))
    hearts_lead_salade: bool = option(False, "apply the hearts-lead rule to Salade too",
                                      applies=Scope(lambda c: "salade" in c["played"] and c["hearts_lead"] != "anytime",
                                                    "only to Salade, with a {hearts_lead} other than 'anytime'"))
    kh_forced_discard: bool = option(False, "a void K♥ holder must discard it",
                                     applies=Scope(_plays("no-barbu", "salade"), "only to No K♥ and Salade"))
    early_stop: bool = option(True, "stop a deal once no card left can score",
                              applies=Scope(_plays("no-hearts", "no-queens", "no-barbu"),
                                            "only to No Hearts, No Queens and No K♥ (the contracts that may stop "
                                            "early)"))
    # Trumps duties of §4, each switchable.
    overtrump_on_trump_lead: bool = option(True, "overtrump when trumps are led", applies=TRUMPS_ONLY,
                                           group=TRUMPS_AND_DOMINO)
    must_trump: bool = option(True, "trump when void in the suit led", applies=TRUMPS_ONLY, group=TRUMPS_AND_DOMINO)
    overtrump_when_ruffing: bool = option(True, "overtrump a trump already played when void", applies=TRUMPS_ONLY,
                                          group=TRUMPS_AND_DOMINO)
    # Domino (§4, §7 items 6-8).
    domino_rules: str = option("upward", "Domino's layout rules", choices=DOMINO_RULES, applies=DOMINO_ONLY,
                               group=TRUMPS_AND_DOMINO)
    domino_starter: str = option("declarer", "who starts Domino", choices=DOMINO_STARTERS, applies=DOMINO_ONLY,
                                 group=TRUMPS_AND_DOMINO)
    ace_replay_optional: bool = option(False, "the extra turn after an Ace may be declined", group=TRUMPS_AND_DOMINO,
                                       applies=Scope(lambda c: _plays("domino")(c) and c["domino_rules"] == "upward",
                                                     "only to Domino with {domino_rules} 'upward', the rules where an "
                                                     "Ace gives an extra turn"))
    domino_table: tuple | None = option(None, "Domino points per finishing place, e.g. 45,25,10,0,-6",
                                        parse=parse_ints("domino_table", none=True), applies=DOMINO_ONLY,
                                        group=TRUMPS_AND_DOMINO)
    domino_three_last: str = option("third_place", "3 players: the Domino loser scores the table's third_place or "
                                    "last_place value", choices=DOMINO_THREE_LAST, group=TRUMPS_AND_DOMINO,
                                    applies=Scope(lambda c: "domino" in c["played"] and c["players"] == 3
                                                  and c["domino_table"] is None,
                                                  "only to Domino with three players and no {domino_table}"))
    # Whole games (§2, §5).
    geronimo: bool = option(False, "each declarer chooses its contract (and trump)", applies=GAMES_ONLY, group=GAMES)
    last_two: bool = option(True, "Last Two in the game", applies=GAMES_ONLY, group=GAMES)
    salade: bool = option(False, "Salade in the game", applies=GAMES_ONLY, group=GAMES)
    anti_salade: bool = option(False, "Anti-Salade in the game", applies=GAMES_ONLY, group=GAMES)
    domino: bool = option(True, "Domino in the game", applies=GAMES_ONLY, group=GAMES)
    trumps: bool | None = option(None, "Trumps in the game (when not given: in Geronimo games and with "
                                       "--trumps-in-regular)", group=GAMES,
                                 applies=Scope(lambda c: _games(c) and (c["geronimo"] or c["trumps_in_regular"]),
                                               "only to Geronimo games ({geronimo}; Regular games take Trumps with "
                                               "{trumps_in_regular})"))
    trumps_in_regular: bool = option(False, "add Trumps to a Regular game", group=GAMES,
                                     applies=Scope(lambda c: _regular(c) and c["trumps"] is not False,
                                                   "only to whole games in Regular mode (without {geronimo}) that "
                                                   "keep Trumps"))
    regular_cycle: str = option("per_player", "Regular mode: each contract dealt by every player in turn, or the "
                                "cycle once per iteration", choices=REGULAR_CYCLES, applies=REGULAR_ONLY, group=GAMES)
    iterations: int = option(1, "Regular mode: times through the cycle", choices=(1, 2, 3), applies=REGULAR_ONLY,
                             group=GAMES)
    declarer_blocks: bool = option(False, "Geronimo: each player declares all its contracts in a row", group=GAMES,
                                   applies=Scope(lambda c: _games(c) and c["geronimo"],
                                                 "only to Geronimo games ({geronimo})"))
    double: bool = option(False, "play the doubling option", applies=GAMES_ONLY, group=GAMES)
    late_redouble: bool = option(False, "players who already acted get a redouble turn", applies=DOUBLED_ONLY,
                                 group=GAMES)
    double_obligation: int = option(2, "doubles each player owes each declarer", applies=DOUBLED_ONLY, group=GAMES)
    skip_undoubled_negative: bool = option(False, "a negative deal nobody doubles is not played; the others share "
                                           "its points", applies=DOUBLED_ONLY, group=GAMES)
    skip_remainder: str = option("declarer", "who takes the rounding remainder of a skipped deal",
                                 choices=SKIP_REMAINDERS, group=GAMES,
                                 applies=Scope(lambda c: doubled(c) and c["skip_undoubled_negative"],
                                               "only to whole games with {double} and {skip_undoubled_negative}"))

    def __post_init__(self):
        check_options(self)
        if self.domino_table is not None:
            table = tuple(self.domino_table)
            if len(table) != self.players or not all(isinstance(v, int) and not isinstance(v, bool) for v in table):
                raise ValueError(f"domino_table: {shown(self.domino_table)} is not allowed; give {self.players} integers, "
                                 "the points for 1st, 2nd … place")
            object.__setattr__(self, "domino_table", table)
        if isinstance(self.double_obligation, bool) or not isinstance(self.double_obligation, int) \
                or self.double_obligation < 0:
            raise ValueError(f"double_obligation: {self.double_obligation!r} is not allowed; use an integer >= 0")
        if self.double and self.double_obligation > max(2, self.deals_per_declarer_max):  # up to 2: capped
            raise ValueError(f"double_obligation: {self.double_obligation} is impossible; a declarer declares at most "
                             f"{self.deals_per_declarer_max} deals in this game, so use 0 to "
                             f"{self.deals_per_declarer_max}")

    @property
    def game_contracts(self) -> tuple[str, ...]:
        """The contract set C of a whole game, in the regular cycle order."""
        trumps = self.trumps if self.trumps is not None else (self.geronimo or self.trumps_in_regular)
        enabled = dict(last_two=self.last_two, salade=self.salade, anti_salade=self.anti_salade,
                       domino=self.domino, trumps=trumps)
        base = ("no-tricks", "no-hearts", "no-queens", "no-barbu")
        extra = ("last-two", "salade", "anti-salade", "domino", "trumps")
        return base + tuple(c for c in extra if enabled[c.replace("-", "_")])

    @property
    def game_length(self) -> int:
        """Deals in a whole game: n x |C| in Geronimo and per-player Regular mode, times the iterations."""
        k = len(self.game_contracts)
        if self.geronimo:
            return self.players * k
        per_iteration = self.players * k if self.regular_cycle == "per_player" else k
        return per_iteration * self.iterations

    @property
    def schedule(self) -> tuple[tuple[int, int], ...]:
        """``(declarer, slot)`` of every deal of a whole game; ``slot`` indexes :attr:`game_contracts`,
        -1 when the declarer chooses (Geronimo).

        Geronimo: the declarer is ``d % n`` (``declarer_blocks``: ``(d // |C|) % n``). Regular
        ``per_player``: contract ``C[(d // n) % |C|]``, declarer ``d % n``, so each contract is
        dealt once by every seat in turn. Regular ``per_contract``: iteration ``i = d // |C|``
        plays ``C[d % |C|]`` and the deal rotates every deal, passing one seat further at the
        start of every ``n / gcd(n, |C|)``-th iteration: otherwise, when ``n`` and ``|C|`` share a
        factor, the same seat would declare a contract in every iteration. With it, no seat
        declares a contract twice before every seat has declared it once, and the seats' deal
        counts differ by at most one.

        >>> BarbuOptions(players=3, salade=True, domino=False, regular_cycle="per_contract", iterations=3).schedule[:7]
        ((0, 0), (1, 1), (2, 2), (0, 3), (1, 4), (2, 5), (1, 0))
        """
        n, k = self.players, len(self.game_contracts)
        out = []
        for d in range(self.game_length):
            if self.geronimo:
                out.append(((d // k) % n if self.declarer_blocks else d % n, -1))
            elif self.regular_cycle == "per_player":
                out.append((d % n, (d // n) % k))
            else:
                skips = (d // k) // (n // math.gcd(n, k))
                out.append(((d + skips) % n, d % k))
        return tuple(out)

    @property
    def deals_per_declarer_max(self) -> int:
        return -(-self.game_length // self.players)

    @property
    def removed(self) -> tuple[int, ...]:
        return REMOVED[(self.players, self.deck)]

    @property
    def cards(self) -> np.ndarray:
        """Card ids of the reduced deck (a new array each time, made once per deck)."""
        return _deck(TWO if self.deck == 52 else SEVEN, self.removed).copy()

    @property
    def hand_size(self) -> int:
        return len(self.cards) // self.players

    def to_dict(self) -> dict:
        return asdict(self)


class ScoringTables(NamedTuple):
    """Integer tables a kernel scores with; row ``c`` belongs to contract id ``c``."""

    card_values: np.ndarray  # int32 (contracts, 64): points for taking each card
    trick_values: np.ndarray  # int32 (contracts,): points for taking any trick
    last_two: np.ndarray  # int32 (contracts, 2): extra points for the 2nd-last and last trick
    flags: np.ndarray  # int32 (contracts,): FLAG_* bits
    domino_places: np.ndarray  # int32 (players,): points per finishing place


#: The §3 items that are options of :class:`BarbuOptions`, named as the options are.
ITEMS = tuple(VALUES[("basic", 52)])


@lru_cache(maxsize=256)
def item_values(options: BarbuOptions) -> dict[str, int]:
    """Each §3 item's points to its taker under ``options``: the option where given, else the ``scoring``
    table's for the pack; an A♥ left unset in a table without its own value counts as a heart.

    >>> item_values(BarbuOptions(queen=-4))["queen"], item_values(BarbuOptions(heart=-2))["ace_hearts"]
    (-4, -2)
    """
    table = VALUES[(options.scoring, options.deck)]
    values = {name: table[name] if getattr(options, name) is None else getattr(options, name) for name in ITEMS}
    if values["ace_hearts"] is None:
        values["ace_hearts"] = values["heart"]
    return values


def scoring_tables(options: BarbuOptions) -> ScoringTables:
    """Build the §3 tables for ``options``: the items' values (:func:`item_values`) placed per contract,
    Salade summing the four contracts' items times ``salade_factor``, Anti-Salade the same sum reversed times
    ``anti_salade_factor``."""
    v = item_values(options)
    n_contracts = len(CONTRACT_NAMES)
    cards = options.cards
    card_values = np.zeros((n_contracts, N_CARD_IDS), np.int32)
    trick_values = np.zeros(n_contracts, np.int32)
    last_two = np.zeros((n_contracts, 2), np.int32)
    flags = np.zeros(n_contracts, np.int32)

    hearts = np.zeros(N_CARD_IDS, np.int32)
    queens = np.zeros(N_CARD_IDS, np.int32)
    barbu = np.zeros(N_CARD_IDS, np.int32)
    for c in cards:
        if c // 16 == HEARTS:
            hearts[c] = v["ace_hearts"] if c == AH else v["heart"]
        if c % 16 == QUEEN:
            queens[c] = v["queen"]
    barbu[KH] = v["king_hearts"]

    C = CONTRACT
    trick_values[C.NO_TRICKS] = v["trick"]
    card_values[C.NO_HEARTS] = hearts
    card_values[C.NO_QUEENS] = queens
    card_values[C.NO_BARBU] = barbu
    last_two[C.LAST_TWO] = v["second_last"], v["last"]
    card_values[C.SALADE] = (hearts + queens + barbu) * options.salade_factor
    trick_values[C.SALADE] = v["trick"] * options.salade_factor
    card_values[C.ANTI_SALADE] = -(hearts + queens + barbu) * options.anti_salade_factor
    trick_values[C.ANTI_SALADE] = -v["trick"] * options.anti_salade_factor
    trick_values[C.TRUMPS] = v["trumps_trick"]

    flags[C.NO_HEARTS] |= FLAG_HEARTS_LEAD
    flags[C.NO_BARBU] |= FLAG_HEARTS_LEAD
    if options.hearts_lead_salade:
        flags[C.SALADE] |= FLAG_HEARTS_LEAD
    if options.kh_forced_discard:  # off by default: a void K♥ holder may then throw any card
        flags[C.NO_BARBU] |= FLAG_KH_DISCARD
        flags[C.SALADE] |= FLAG_KH_DISCARD
    for name in POSITIVE_CONTRACTS:
        flags[CONTRACT_NAMES.index(name)] |= FLAG_POSITIVE
    for c in (C.LAST_TWO, C.SALADE, C.ANTI_SALADE):
        flags[c] |= FLAG_PLAY_OUT

    return ScoringTables(card_values, trick_values, last_two, flags, np.array(domino_places(options), np.int32))


def domino_places(options: BarbuOptions) -> tuple[int, ...]:
    """Domino points for finishing places 1..n: the §3 table (4th and later take its 4th value), the
    last of three players its 3rd or (``domino_three_last='last_place'``) its last value, or
    ``domino_table``.

    >>> domino_places(BarbuOptions(players=3, scoring="wiki")), domino_places(BarbuOptions(players=3,
    ...     scoring="wiki", domino_three_last="last_place"))
    ((45, 20, 5), (45, 20, -5))
    """
    if options.domino_table is not None:
        return options.domino_table
    table = DOMINO_PLACES[(options.scoring, options.deck)]
    places = [table[min(i, 3)] for i in range(options.players)]
    if options.players == 3 and options.domino_three_last == "last_place":
        places[2] = table[3]
    return tuple(places)


def contract_total(options: BarbuOptions, contract: str) -> int:
    """Sum of all seats' points in one fully played deal (§3 totals; Domino: the place table)."""
    t = scoring_tables(options)
    c = contract_id(contract)
    if c == CONTRACT.DOMINO:
        return int(t.domino_places.sum())
    n_tricks = options.hand_size
    return int(t.card_values[c].sum() + n_tricks * t.trick_values[c] + t.last_two[c].sum())
