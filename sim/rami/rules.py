"""Rami (French rami 51, scored the Catalan way) as data: cards, values, options and round scoring.

The rules as coded (every choice is a named option of :class:`RamiOptions`, default first):

* 2 to 6 players, each for themselves. Two 52-card packs and four jokers, 108 cards
  (``n_jokers=2``: 106). Twin cards (same suit and rank) are interchangeable, so a hand is a
  vector of 52 counts (0, 1 or 2) plus a joker count.
* 13 cards each (``hand_size=14`` as a variant), dealt one at a time from the dealer's left;
  the next card starts the discard pile, the rest is the stock. The dealer's left plays first,
  play goes clockwise; the deal passes clockwise every round.
* Melds: a *set* is 3 or 4 cards of one rank, all suits different (never twins); a *run* is 3 to
  13 cards of one suit in the order A-2-…-10-J-Q-K-A, the ace at one end only (no K-A-2). At most
  one joker per meld (``max_jokers_per_meld=1``; ``2`` or ``None`` = any number, always fewer
  jokers than naturals). A joker counts as the card it stands for.
* Meld value (for the opening): pips, J Q K 10, ace 1 low in a run and 11 high or in a set.
  Hand value (what a loser pays): pips, J Q K 10, ace 11, joker 20 by default (the options ``pip_value``,
  ``face_value``, ``ace_value``, ``joker_value``); the whole deck holds 840 by default.
* A turn: draw (stock, or the top discard when it goes to the table this turn), table actions,
  discard. Opening needs new melds worth ``open_threshold`` (51) with a joker-free run
  (``open_needs_pure_run``). Once opened a player may lay new melds, lay off on any table meld,
  and take a joker back by putting the natural it stands for in its place; the freed joker must
  go into a new meld the same turn (``freed_joker_use='new_meld'``; ``'anywhere'``: it becomes
  an ordinary hand card). An empty hand wins the round (``go_out_requires_discard=False``).
* Rami sec: opening and going out in one turn while no opponent has opened; it keeps the
  opening conditions unless ``rami_sec_exempt_from_opening`` (then an unopened player may meld
  the whole hand in any valid melds while nobody has opened).
* A turn that starts with an empty stock blocks the round (``recycle_discards=True``: the first
  time, the discards under the top card are shuffled into a new stock). The lowest raw hand
  value wins a blocked round; ties all score 0 (``blocked_tie='all_zero'``) or go to the tied
  player first in turn order from the player to move (``'next_in_turn'``).
* Scoring (exact): winners 0; rami sec: every other player ``rami_sec_penalty`` (200); a loser
  who opened pays H, the hand value left (joker ``joker_value`` 20, ace ``ace_value`` 11, J Q K
  ``face_value`` 10, 2-10 ``pip_value``, by default their rank; the meld points that count toward the
  opening stay ace 11/1, faces 10, pips their rank); one who never opened pays min(H + 25, 100, T/2) with
  the target T = 100 per opponent. The 25 (``never_opened_surcharge``), the 100 (``never_opened_cap``)
  and the target per opponent (``target_per_opponent``) are options (issue 19). A game ends after the round in which some total reaches T
  and one player alone has the lowest total; otherwise everyone plays another round.
* ``discard_take_first_round`` (off): the top discard may be taken in the first n turns.
  ``discard_take_must_use`` (on): the taken discard must reach the table that turn.
  ``single_card_must_draw_stock`` (on): a player holding one card draws from the stock.

Choices where the sources are silent: the card taken from the discard may not be discarded the
same turn, but a twin of it may (twins are interchangeable: with two copies in hand, one is the
old one); ``max_jokers_per_meld`` above one needs
four jokers (a two-joker deck plays one joker per meld).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np

from cardlab.sim.options import check_options, option, parse_int

N_KINDS = 52  # natural cards: kind = suit * 13 + rank - 1 (rank 1 = ace .. 13 = king)
JOKER = 52  # index of the joker in a count vector
HAND_W = 53  # length of a hand's count vector: 52 naturals + jokers
SUITS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PLAYERS = (2, 3, 4, 5, 6)
JOKER_COUNTS = (4, 2)
HAND_SIZES = (13, 14)
MAX_JOKERS = (1, 2, None)
FREED_JOKER_USE = ("new_meld", "anywhere")
BLOCKED_TIE = ("all_zero", "next_in_turn")
NEVER_OPENED_SURCHARGE = 25
NEVER_OPENED_CAP = 100
TARGET_PER_OPPONENT = 100
JOKER_HAND_VALUE = 20
ACE_HAND_VALUE = 11
FACE_HAND_VALUE = 10


def parse_jokers(text: str):
    """The command line's ``--max-jokers-per-meld``: 1, 2 or ``none``."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"max_jokers_per_meld: {text!r} is not allowed; choose 1, 2 or none") from None


def _rank_hand_value(rank: int) -> int:
    return 11 if rank == 1 else min(rank, 10)


#: Hand value of each entry of a count vector by default (ace 11, J Q K 10, joker 20); a run's own table is
#: :attr:`RamiOptions.card_values` (the options ``joker_value``, ``ace_value``, ``face_value``, ``pip_value``).
#: As a natural's highest meld value it also bounds the opening count's search (meld points, not options).
HAND_VALUE = np.array([_rank_hand_value(k % 13 + 1) for k in range(N_KINDS)] + [JOKER_HAND_VALUE], np.int64)
#: Meld value of a set card by rank index 0..12 (ace 11).
SET_VALUE = np.array([_rank_hand_value(r + 1) for r in range(13)], np.int64)
#: Meld value of a run position 1..14 (1 = ace low, 14 = ace high); index 0 unused.
RUN_VALUE = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11], np.int64)
DECK_HAND_VALUE = 840


def target(players: int, per_opponent: int = TARGET_PER_OPPONENT) -> int:
    """The game's target: ``per_opponent`` (100) points per opponent."""
    return per_opponent * (players - 1)


def never_opened_cap(players: int, cap: int = NEVER_OPENED_CAP, per_opponent: int = TARGET_PER_OPPONENT) -> int:
    """The most a never-opened loser pays: min(``cap`` (100), half the target)."""
    return min(cap, target(players, per_opponent) // 2)


@dataclass(frozen=True)
class RamiOptions:
    """Every rule option of Rami, validated; kernels receive them as integers (:meth:`kernel_ints`)."""

    players: int = option(4, "players at the table", choices=PLAYERS)
    n_jokers: int = option(4, "jokers in the two packs (4: 108 cards, 2: 106)", choices=JOKER_COUNTS)
    hand_size: int = option(13, "cards dealt to each player", choices=HAND_SIZES)
    open_threshold: int = option(51, "meld points needed to open", between=(0, 10_000))
    open_needs_pure_run: bool = option(True, "opening needs a joker-free run")
    max_jokers_per_meld: int | None = option(1, "jokers a meld may hold (none: any number, fewer than the naturals)",
                                             choices=MAX_JOKERS, parse=parse_jokers)
    discard_take_first_round: bool = option(False, "the top discard may be taken in the first round of turns")
    discard_take_must_use: bool = option(True, "a taken discard must reach the table that turn")
    single_card_must_draw_stock: bool = option(True, "a player holding one card draws from the stock")
    freed_joker_use: str = option("new_meld", "where a joker taken back may go", choices=FREED_JOKER_USE)
    go_out_requires_discard: bool = option(False, "going out needs a final discard")
    rami_sec_exempt_from_opening: bool = option(False, "a rami sec need not meet the opening conditions")
    joker_value: int = option(JOKER_HAND_VALUE, "what a joker left in hand costs", between=(1, 100))
    ace_value: int = option(ACE_HAND_VALUE, "what an ace left in hand costs", between=(1, 100))
    face_value: int = option(FACE_HAND_VALUE, "what a J, Q or K left in hand costs", between=(1, 100))
    pip_value: int | None = option(None, "what a 2 to 10 left in hand costs (none: its rank)", between=(1, 100),
                                   parse=parse_int("pip_value", none=True))
    rami_sec_penalty: int = option(200, "what each opponent pays for a rami sec", between=(0, 10_000))
    never_opened_surcharge: int = option(NEVER_OPENED_SURCHARGE, "a loser who never opened pays its hand value plus "
                                         "this", between=(0, 1000))
    never_opened_cap: int = option(NEVER_OPENED_CAP, "the most a loser who never opened pays (and at most half the "
                                   "target)", between=(0, 10_000))
    target_per_opponent: int = option(TARGET_PER_OPPONENT, "the game's target per opponent (it also halves into "
                                      "the never-opened cap)", between=(1, 10_000))
    recycle_discards: bool = option(False, "reshuffle the discards once when the stock ends")
    blocked_tie: str = option("all_zero", "who wins a blocked round's tie for the lowest hand", choices=BLOCKED_TIE)

    def __post_init__(self):
        check_options(self)
        if self.n_jokers == 2 and self.max_jokers_per_meld != 1:
            raise ValueError(f"max_jokers_per_meld: {self.max_jokers_per_meld!r} is not allowed with n_jokers=2; "
                             "a two-joker deck plays one joker per meld (use 1)")
        if self.players * self.hand_size + 2 > 52 * 2 + self.n_jokers:
            raise ValueError(f"hand_size: {self.hand_size} is not allowed with {self.players} players; "
                             "the deck cannot deal it")

    @property
    def deck_size(self) -> int:
        return 104 + self.n_jokers

    @property
    def target(self) -> int:
        return target(self.players, self.target_per_opponent)

    @property
    def never_opened_limit(self) -> int:
        """The most a never-opened loser pays under these options: min(``never_opened_cap``, half the target)."""
        return never_opened_cap(self.players, self.never_opened_cap, self.target_per_opponent)

    @property
    def jokers_per_meld(self) -> int:
        """The kernel's joker limit per meld (99 = no limit beyond fewer jokers than naturals)."""
        return 99 if self.max_jokers_per_meld is None else int(self.max_jokers_per_meld)

    @property
    def card_values(self) -> np.ndarray:
        """What each entry of a count vector costs left in hand (H) under these options: 53 integers."""
        ranks = [self.ace_value] + [r if self.pip_value is None else self.pip_value for r in range(2, 11)]
        ranks += [self.face_value] * 3
        return np.array(ranks * 4 + [self.joker_value], np.int64)

    def kernel_ints(self) -> np.ndarray:
        """The options as the kernels read them (see :data:`OPT`); the card values left in hand are the last
        ``HAND_W`` entries, from ``OPT.card_values``."""
        o = np.zeros(OPT.card_values + HAND_W, np.int64)
        o[OPT.players] = self.players
        o[OPT.n_jokers] = self.n_jokers
        o[OPT.hand_size] = self.hand_size
        o[OPT.open_threshold] = self.open_threshold
        o[OPT.open_needs_pure_run] = self.open_needs_pure_run
        o[OPT.jokers_per_meld] = self.jokers_per_meld
        o[OPT.discard_take_first_round] = self.discard_take_first_round
        o[OPT.discard_take_must_use] = self.discard_take_must_use
        o[OPT.single_card_must_draw_stock] = self.single_card_must_draw_stock
        o[OPT.freed_joker_anywhere] = self.freed_joker_use == "anywhere"
        o[OPT.go_out_requires_discard] = self.go_out_requires_discard
        o[OPT.rami_sec_exempt] = self.rami_sec_exempt_from_opening
        o[OPT.rami_sec_penalty] = self.rami_sec_penalty
        o[OPT.recycle_discards] = self.recycle_discards
        o[OPT.blocked_tie_next] = self.blocked_tie == "next_in_turn"
        o[OPT.target] = self.target
        o[OPT.never_opened_cap] = self.never_opened_limit
        o[OPT.never_opened_surcharge] = self.never_opened_surcharge
        o[OPT.card_values:] = self.card_values
        return o

    def to_dict(self) -> dict:
        return asdict(self)


class OptIndex(NamedTuple):
    """Positions of the options in the kernels' integer vector."""

    players: int = 0
    n_jokers: int = 1
    hand_size: int = 2
    open_threshold: int = 3
    open_needs_pure_run: int = 4
    jokers_per_meld: int = 5
    discard_take_first_round: int = 6
    discard_take_must_use: int = 7
    single_card_must_draw_stock: int = 8
    freed_joker_anywhere: int = 9
    go_out_requires_discard: int = 10
    rami_sec_exempt: int = 11
    rami_sec_penalty: int = 12
    recycle_discards: int = 13
    blocked_tie_next: int = 14
    target: int = 15
    never_opened_cap: int = 16  # the limit in force: min(cap, half the target)
    never_opened_surcharge: int = 17
    card_values: int = 18  # the first of HAND_W entries: what each card of a count vector costs left in hand


OPT = OptIndex()


# ------------------------------------------------------------------------------- readable cards


def card_name(kind: int) -> str:
    """``'A♥'``, ``'10♠'`` or ``'JK'`` for an entry of a count vector."""
    if kind == JOKER:
        return "JK"
    return RANKS[kind % 13] + SUITS[kind // 13]


_CARD = re.compile(r"^(A|10|[2-9]|J|Q|K)([♣♦♥♠CDHS])$")


def parse_hand(text: str) -> np.ndarray:
    """A readable hand (``"A♥ 2♥ 3♥ K♠ JK 9♣"``; suits ♣♦♥♠ or C D H S; ``JK`` a joker) → count vector.

    A repeated card is its twin (at most two copies); anything else raises a one-line ``ValueError``.

    >>> h = parse_hand("A♥ AH JK")
    >>> int(h[26]), int(h[52])
    (2, 1)
    """
    if not isinstance(text, str):
        raise ValueError(f"hand: {text!r} is not allowed; give cards such as 'A♥ 2♥ 3♥ JK'")
    counts = np.zeros(HAND_W, np.int8)
    for token in text.replace(",", " ").split():
        up = token.upper()
        if up in ("JK", "JOKER"):
            kind = JOKER
        else:
            m = _CARD.match(up)
            if m is None:
                raise ValueError(f"hand: card {token!r} does not exist; use a rank A 2..10 J Q K then a suit "
                                 "♣ ♦ ♥ ♠ (or C D H S), or JK for a joker")
            rank, suit = m.groups()
            kind = (SUITS + SUIT_LETTERS).index(suit) % 4 * 13 + RANKS.index(rank)
        counts[kind] += 1
        if kind != JOKER and counts[kind] > 2:
            raise ValueError(f"hand: card {token!r} appears {counts[kind]} times; the deck holds two of each")
        if kind == JOKER and counts[kind] > 4:
            raise ValueError("hand: 'JK' appears more than 4 times; the deck holds at most four jokers")
    return counts


def hand_text(counts) -> str:
    """A count vector as readable cards, in suit then rank order, jokers last."""
    return " ".join(card_name(k) for k in range(HAND_W) for _ in range(int(counts[k])))


def hand_value(counts, values=HAND_VALUE) -> int:
    """H: the hand value of a count vector, by ``values`` (53 integers, :attr:`RamiOptions.card_values`; by
    default ace 11, J Q K 10, pips their rank, joker 20)."""
    return int(np.dot(np.asarray(counts, np.int64), np.asarray(values, np.int64)))


# ------------------------------------------------------------------------------- round scoring


def round_scores(options: RamiOptions, winners, opened, hand_values, rami_sec: bool) -> list[int]:
    """The seed's round scores (§7), in plain Python; kernels compute the same."""
    n = options.players
    out = []
    for p in range(n):
        if winners[p]:
            out.append(0)
        elif rami_sec:
            out.append(options.rami_sec_penalty)
        elif opened[p]:
            out.append(int(hand_values[p]))
        else:
            out.append(min(int(hand_values[p]) + options.never_opened_surcharge, options.never_opened_limit))
    return out


def game_over(totals, players: int, per_opponent: int = TARGET_PER_OPPONENT) -> bool:
    """§8: some total reached the target and one player alone holds the lowest total."""
    totals = list(totals)
    low = min(totals)
    return max(totals) >= target(players, per_opponent) and totals.count(low) == 1
