"""Plain-Python Euchre-for-five referee: replays a hand's action log, checks every action, rescores it.

Written from the rules with sets and plain loops: its own effective suits and card order,
nothing shared with the kernels but the card numbering and the options object, so agreement
between the two is evidence that both are right. It checks the deal (28 distinct cards, five
hands of five, a kitty of three), the order of the bidding, round one (pass or accept), the
dealer's discard, round two (another suit; a stuck dealer may not pass), the call (the call
rule, never the upcard, the maker's own card only when allowed), every card played (held, and
of the led effective suit when the player has one), and the §6 score. Whole games: the dealer
rotation, the end at the target and the tie rule (:func:`check_game`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardlab.sim.cards import SUIT_SYMBOLS, card_name, cards_of
from cardlab.sim.euchre5.rules import ACTION_KINDS, ALONE_NAMES, Euchre5Options

N = 5
JACK_RANK, ACE_RANK = 9, 12
DECK = {16 * s + r for s in range(4) for r in range(6, 13)}


class RefereeError(AssertionError):
    """An action log that breaks the rules, or a result that does not match them."""


def colour_mate(suit: int) -> int:
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def suit_when(c: int, trump: int) -> int:
    """Effective suit: the Jack of the same colour as trump is a trump."""
    if c % 16 == JACK_RANK and c // 16 == colour_mate(trump):
        return trump
    return c // 16


def strength(c: int, trump: int) -> int:
    """Order of ``c`` in a trick: right bower, left bower, other trumps by rank, then plain cards by rank."""
    if c == 16 * trump + JACK_RANK:
        return 300
    if c == 16 * colour_mate(trump) + JACK_RANK:
        return 299
    return (200 if c // 16 == trump else 100) + c % 16


def trick_winner(cards: list, trump: int) -> int:
    """Index of the winning card: the best trump, else the best card of the led effective suit."""
    led = suit_when(cards[0], trump)
    pool = [i for i, c in enumerate(cards) if suit_when(c, trump) == trump] or \
        [i for i, c in enumerate(cards) if suit_when(c, trump) == led]
    return max(pool, key=lambda i: strength(cards[i], trump))


def legal_cards(hand: set, trick: list, trump: int) -> set:
    """Cards ``hand`` may play onto ``trick``: the led effective suit if held, else anything."""
    if not trick:
        return set(hand)
    led = suit_when(trick[0], trump)
    same = {c for c in hand if suit_when(c, trump) == led}
    return same or set(hand)


def callable_cards(options: Euchre5Options, hand: set, trump: int, upcard: int) -> set:
    """Cards the maker may call (§4, §9 item 3)."""
    if options.call_rule == "any":
        cards = set(DECK)
    elif options.call_rule == "non_trump":
        cards = {c for c in DECK if suit_when(c, trump) != trump}
    else:
        cards = {16 * s + ACE_RANK for s in range(4)}
    if not options.allow_call_own_card:
        cards -= hand
    return cards - {upcard}


def points(options: Euchre5Options, alone: int, tricks: int) -> tuple[int, int]:
    """§6: points to each attacker and to each defender."""
    if tricks == 5:
        return (2, options.lone_march_points, options.forced_alone_march_points)[alone], 0
    if tricks >= 3:
        return 1, 0
    return 0, options.defender_points[1] if tricks == 0 else options.defender_points[0]


@dataclass
class Hand:
    """What the referee found in one hand."""

    dealer: int
    hands: list  # as dealt: five sets of card ids
    kitty: list  # three card ids, the upcard first
    maker: int = -1
    trump: int = -1
    round: int = 0
    alone: int = 0
    partner: int = -1
    called: int = -1
    maker_tricks: int = 0
    discard: int = -1
    scores: list = field(default_factory=lambda: [0] * N)
    tricks: list = field(default_factory=list)  # (leader, [cards in play order], winner)
    bids: list = field(default_factory=list)  # (seat, kind, value) of the bidding, exchange and call

    def row(self) -> dict:
        """The kernel's columns for this hand."""
        return dict(dealer=self.dealer, maker=self.maker, trump=self.trump, round=self.round, alone=self.alone,
                    partner=self.partner, maker_tricks=self.maker_tricks, called=self.called,
                    **{f"score_{p}": s for p, s in enumerate(self.scores)})


def _take(actions, i, seat, kinds, what):
    if i >= len(actions):
        raise RefereeError(f"{what}: the log ends where seat {seat} should act")
    s, kind, value = actions[i]
    if s != seat or kind not in kinds:
        raise RefereeError(f"{what}: expected seat {seat} to {' or '.join(kinds)}, the log has seat {s} {kind}")
    return kind, value


def check_hand(options: Euchre5Options, dealer: int, hands, kitty, actions, *, forced=None) -> Hand:
    """Replay one hand: ``hands`` five masks or card sets as dealt, ``kitty`` three cards (upcard
    first), ``actions`` a list of ``(seat, kind name, value)``. ``forced=(maker, trump)`` skips the
    bidding (the trump study). Returns the :class:`Hand`; raises :class:`RefereeError`."""
    held = [set(cards_of(h)) if isinstance(h, (int,)) or hasattr(h, "dtype") else set(h) for h in hands]
    kitty = [int(c) for c in kitty]
    seen = [c for h in held for c in h] + kitty
    if len(held) != N or any(len(h) != 5 for h in held) or len(kitty) != 3 or sorted(seen) != sorted(DECK):
        raise RefereeError("deal: expected five hands of five and a kitty of three, every one of the 28 cards once")
    out = Hand(dealer, [set(h) for h in held], kitty)
    upcard, up_suit = kitty[0], kitty[0] // 16
    kitty_now = set(kitty)
    order = [(dealer + k) % N for k in range(1, N + 1)]
    i = 0
    if forced is None:
        for p in order:
            kind, _ = _take(actions, i, p, ("pass", "accept"), "round one")
            out.bids.append(actions[i])
            i += 1
            if kind == "accept":
                out.maker, out.trump, out.round = p, up_suit, 1
                break
        if out.maker < 0:
            for p in order:
                stuck = p == dealer and options.stick_the_dealer
                kind, value = _take(actions, i, p, ("name",) if stuck else ("pass", "name"),
                                    "round two (stick the dealer)" if stuck else "round two")
                out.bids.append(actions[i])
                i += 1
                if kind == "name":
                    if value not in range(4) or value == up_suit:
                        raise RefereeError(f"round two: seat {p} named suit {value}; the upcard's suit "
                                           f"{SUIT_SYMBOLS[up_suit]} is barred")
                    out.maker, out.trump, out.round = p, value, 2
                    break
            if out.maker < 0:
                if i != len(actions):
                    raise RefereeError("void hand: actions after the second round of passes")
                return out
    else:
        out.maker, out.trump = forced
        out.round = 1 if out.trump == up_suit else 2
    maker, trump = out.maker, out.trump

    def call():
        nonlocal i
        kind, value = _take(actions, i, maker, ("call", "alone"), "call")
        out.bids.append(actions[i])
        i += 1
        if kind == "call":
            allowed = callable_cards(options, held[maker], trump, upcard)
            if value not in allowed:
                raise RefereeError(f"call: seat {maker} called {card_name(value)}, which the call rule "
                                   f"{options.call_rule!r} does not allow here")
            out.called = value
            return value in held[maker]
        return True

    own = None
    if out.round == 1:
        held[dealer].add(upcard)
        kitty_now.discard(upcard)
        if options.call_before_exchange:
            own = call()
        _, d = _take(actions, i, dealer, ("discard",), "exchange")
        out.bids.append(actions[i])
        i += 1
        if d not in held[dealer] or (d == upcard and not options.dealer_may_discard_upcard):
            raise RefereeError(f"exchange: the dealer (seat {dealer}) cannot discard {card_name(d)}")
        held[dealer].remove(d)
        kitty_now.add(d)
        out.discard = d
    if own is None:
        own = call()
    if out.called < 0 or own:
        out.alone = 1
    elif out.called in kitty_now:
        out.alone = 2
    else:
        out.partner = next(p for p in range(N) if out.called in held[p])
    if any(len(h) != 5 for h in held) or len(kitty_now) != 3:
        raise RefereeError("exchange: every hand must hold five cards and the kitty three")

    leader = (dealer + 1) % N
    for t in range(5):
        trick = []
        for k in range(N):
            p = (leader + k) % N
            _, c = _take(actions, i, p, ("play",), f"trick {t + 1}")
            i += 1
            if c not in legal_cards(held[p], trick, trump):
                why = "does not hold it" if c not in held[p] else "must follow the led effective suit"
                raise RefereeError(f"trick {t + 1}: seat {p} played {card_name(c)} but {why}")
            held[p].remove(c)
            trick.append(c)
        winner = (leader + trick_winner(trick, trump)) % N
        out.tricks.append((leader, trick, winner))
        out.maker_tricks += winner in (maker, out.partner)
        leader = winner
    if i != len(actions):
        raise RefereeError("play: actions after the fifth trick")
    attack, defend = points(options, out.alone, out.maker_tricks)
    out.scores = [attack if p in (maker, out.partner) else defend for p in range(N)]
    return out


def decode_log(log) -> list:
    """A kernel log ((rows, 3) of seat, kind id, value; -1 rows at the end) as (seat, kind name, value)."""
    actions = []
    for seat, kind, value in log.tolist() if hasattr(log, "tolist") else log:
        if kind < 0:
            break
        actions.append((int(seat), ACTION_KINDS[kind], int(value)))
    return actions


def check_game(options: Euchre5Options, first_dealer: int, hands: list) -> dict:
    """Check a whole game's sequence of checked :class:`Hand` results: the deal passes clockwise,
    the game ends after the first hand in which a seat reaches the target (``play_on``: and leads
    alone), or after ``max_hands``. Returns totals and each seat's win credit under the tie rule."""
    totals = [0] * N
    for h, hand in enumerate(hands):
        if hand.dealer != (first_dealer + h) % N:
            raise RefereeError(f"game: hand {h} dealt by seat {hand.dealer}, expected {(first_dealer + h) % N}")
        totals = [a + b for a, b in zip(totals, hand.scores)]
        top = max(totals)
        leaders = [p for p in range(N) if totals[p] == top]
        over = top >= options.target and not (options.tie_rule == "play_on" and len(leaders) > 1)
        last = h == len(hands) - 1
        if (over or h + 1 == options.max_hands) != last:
            raise RefereeError(f"game: ended after hand {len(hands) - 1} but the rules end it after hand {h}"
                               if not last else f"game: ended after hand {h} with totals {totals} below the target")
    top = max(totals)
    leaders = [p for p in range(N) if totals[p] == top]
    if options.tie_rule == "maker_side_first" and len(leaders) > 1:
        final = hands[-1]
        attackers = [p for p in leaders if p in (final.maker, final.partner)]
        leaders = attackers or leaders
    credit = [1 / len(leaders) if p in leaders else 0.0 for p in range(N)]
    return dict(totals=totals, credit=credit)


def describe_hand(hand: Hand) -> str:
    """A hand as a player reads it: the deal, the bidding, the exchange, the call and every trick."""
    names = lambda cards: " ".join(card_name(c) for c in sorted(cards, key=lambda c: (c // 16, c % 16)))  # noqa: E731
    kitty = " ".join(card_name(c) for c in hand.kitty)  # as dealt, the upcard first (as in the JSON record)
    lines = [f"dealer seat {hand.dealer}, upcard {card_name(hand.kitty[0])}, kitty {kitty}"]
    for p in range(N):
        lines.append(f"  seat {p}: {names(hand.hands[p])}")
    for seat, kind, value in hand.bids:
        if kind == "name":
            lines.append(f"seat {seat} names {SUIT_SYMBOLS[value]}")
        elif kind in ("discard", "call"):
            lines.append(f"seat {seat} {'discards' if kind == 'discard' else 'calls'} {card_name(value)}")
        else:
            lines.append(f"seat {seat} {'passes' if kind == 'pass' else 'goes alone' if kind == 'alone' else 'accepts'}")
    if hand.maker < 0:
        lines.append("nobody made trump: the hand is void")
    else:
        side = ALONE_NAMES[hand.alone] + (f" with seat {hand.partner}" if hand.partner >= 0 else "")
        lines.append(f"seat {hand.maker} makes {SUIT_SYMBOLS[hand.trump]} in round {hand.round}, {side}")
        for t, (leader, cards, winner) in enumerate(hand.tricks):
            played = "  ".join(f"{(leader + k) % N}:{card_name(c)}" for k, c in enumerate(cards))
            lines.append(f"trick {t + 1:2d}: {played}  -> seat {winner}")
        lines.append(f"attackers took {hand.maker_tricks} tricks")
    lines.append("scores: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(hand.scores)))
    return "\n".join(lines)


def hand_record(hand: Hand, deal: int) -> dict:
    """The JSON record of one hand (see ``cardlab replay euchre5 --json``)."""
    def action(seat, kind, value):
        a = {"seat": seat, "kind": kind}
        if kind in ("discard", "call", "play"):
            a["card"] = card_name(value)
        elif kind == "name":
            a["suit"] = SUIT_SYMBOLS[value]
        return a

    plays = [(leader + k) % N for leader, cards, _ in hand.tricks for k in range(len(cards))]
    played = [c for _, cards, _ in hand.tricks for c in cards]
    actions = [action(*b) for b in hand.bids] + [action(s, "play", c) for s, c in zip(plays, played)]
    return {"deal": deal, "dealer": hand.dealer,
            "hands": [[card_name(c) for c in sorted(h, key=lambda c: (c // 16, c % 16))] for h in hand.hands],
            "kitty": [card_name(c) for c in hand.kitty], "actions": actions, "maker": hand.maker,
            "trump": SUIT_SYMBOLS[hand.trump] if hand.trump >= 0 else None, "round": hand.round,
            "alone": hand.alone, "partner": hand.partner,
            "called": card_name(hand.called) if hand.called >= 0 else None, "maker_tricks": hand.maker_tricks,
            "scores": hand.scores}
