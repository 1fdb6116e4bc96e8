"""Card ids, deck masks and the bit tricks every game shares.

A French-suited card is the integer ``16 * suit + rank`` where ``rank`` runs from 0 (the 2)
to 12 (the Ace), so a hand of such cards is one ``uint64`` bitmask in which each suit owns a
16-bit lane: ``(hand >> (16 * suit)) & 0x1FFF`` is that suit, and within a suit a higher bit
is a higher card. Short decks (32 cards from the 7, 28 from the 9) are the same ids with the
low ranks absent. Decks with more than 64 distinct cards (Minchiate's 97) use two words;
decks with duplicates (Rami's 108) use per-card counts; both reuse the helpers below.

The ``popcount``/``ctz``/``clz`` helpers compile to single CPU instructions inside kernels.
"""
from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO, SEVEN, NINE, JACK, QUEEN, KING, ACE = 0, 5, 7, 9, 10, 11, 12
LANE = 16
SUIT_LANE_MASK = np.uint64(0x1FFF)
N_CARD_IDS = 64  # size of per-card lookup tables indexed by card id


def card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0 = 2 … 12 = Ace) in ``suit``: ``card(KING, HEARTS) == 43``."""
    return LANE * suit + rank


def suit_of(c: int) -> int:
    """Suit of card id ``c``."""
    return c // LANE


def rank_of(c: int) -> int:
    """Rank of card id ``c`` (0 = 2 … 12 = Ace)."""
    return c % LANE


def card_name(c: int) -> str:
    """Readable name of card id ``c``.

    >>> card_name(43), card_name(card(TWO, CLUBS))
    ('K♥', '2♣')
    """
    return RANK_NAMES[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]


def parse_card(text: str) -> int:
    """Card id from a name such as ``'K♥'``, ``'10s'`` or ``'QH'`` (suit symbol or letter).

    >>> parse_card("K♥") == parse_card("kh") == card(KING, HEARTS)
    True
    """
    text = text.strip()
    rank_text, suit_text = text[:-1].upper(), text[-1]
    suits = {s: i for i, s in enumerate(SUIT_SYMBOLS + SUIT_LETTERS)}
    suit = suits.get(suit_text.upper())
    suit = None if suit is None else suit % 4
    if rank_text == "T":
        rank_text = "10"
    if suit is None or rank_text not in RANK_NAMES:
        raise ValueError(f"card {text!r}: expected a rank 2-10, J, Q, K, A and a suit ♣♦♥♠ or CDHS")
    return card(RANK_NAMES.index(rank_text), suit)


def french_deck(lowest_rank: int, removed: tuple[int, ...] = ()) -> np.ndarray:
    """Card ids of a French deck with ranks ``lowest_rank``..Ace in every suit, minus ``removed``."""
    ids = [card(r, s) for s in range(4) for r in range(lowest_rank, ACE + 1)]
    return np.array([c for c in ids if c not in set(removed)], dtype=np.int8)


def mask_of(cards) -> int:
    """Bitmask (as Python int) of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids in ``mask``, lowest id first."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- kernel-side bit tricks


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (one ``popcnt``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))

    return sig, codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (one ``tzcnt``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@intrinsic
def clz(typingctx, x):
    """Number of leading zero bits of a non-zero uint64 (one ``lzcnt``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, error_model="numpy", inline="always")
def bit(i):
    """uint64 with bit ``i`` set."""
    return ONE << np.uint64(i)


@njit(cache=True, error_model="numpy", inline="always")
def lowest_card(mask):
    """Lowest card id in a non-empty mask."""
    return ctz(mask)


@njit(cache=True, error_model="numpy", inline="always")
def highest_card(mask):
    """Highest card id in a non-empty mask."""
    return 63 - clz(mask)


@njit(cache=True, error_model="numpy", inline="always")
def below(c):
    """Mask of every card id strictly below ``c``."""
    return (ONE << np.uint64(c)) - ONE


@intrinsic
def deposit(typingctx, x, mask):
    """BMI2's ``pdep``: the low bits of ``x`` placed, in order, at the set bits of ``mask`` (uint64s)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64"), args)

    return sig, codegen


def fast_deposit() -> bool:
    """Whether kernels compile for this machine's CPU (no ``NUMBA_CPU_NAME``) and it has a fast ``pdep``: BMI2,
    and not an AMD core before Zen 3, which runs ``pdep`` in microcode at tens of cycles a set bit."""
    if config.CPU_NAME:
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2", False)) and \
        llvm.get_host_cpu_name() not in ("bdver4", "znver1", "znver2")


@njit(cache=True, error_model="numpy", inline="always")
def nth_card_deposit(mask, k):
    """:func:`nth_card` in one ``pdep``: bit ``k`` deposited at the mask's cards lands on its ``k``-th."""
    return ctz(deposit(ONE << np.uint64(k), mask))


@njit(cache=True, error_model="numpy", inline="always")
def nth_card_loop(mask, k):
    """:func:`nth_card` by clearing the ``k`` lowest cards."""
    for _ in range(k):
        mask &= mask - ONE
    return ctz(mask)


#: The ``k``-th lowest card id of ``mask`` (0-based); ``mask`` must hold more than k cards. One ``pdep`` where the
#: CPU has a fast one (:func:`fast_deposit`), five to eight times faster on random cards from a hand than the loop
#: clearing ``k`` cards (whose exit the CPU mispredicts), which other CPUs run. Both give the same card.
nth_card = nth_card_deposit if fast_deposit() else nth_card_loop
