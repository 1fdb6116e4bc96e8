"""A plain-Python referee for Rami: replays a round's move log, checks every move, rescores the round.

It deals the logged deck itself and keeps every card somewhere (hands, stock, discard pile,
table) after each event, so card conservation is checked after every draw, meld, lay-off,
retrieval and discard. Melds are checked with their own code here, not the kernels'. At the
end it recomputes the winners, rami sec and the scores (``rules.round_scores``).
"""
from __future__ import annotations

from collections import Counter

from cardlab.sim.rami.rules import (JOKER, RUN_VALUE, SET_VALUE, RamiOptions, card_name, hand_value,
                                    round_scores)

EV_NAMES = {1: "draw", 2: "take", 3: "meld", 4: "open", 5: "layoff", 6: "retrieve", 7: "discard", 8: "out",
            9: "recycle", 10: "blocked"}


class RefereeError(Exception):
    """A move the rules do not allow, or a result that does not match them."""


def _kind(suit, pos):
    return suit * 13 + (pos - 1 if pos <= 13 else 0)


def meld_cards(m) -> Counter:
    """The cards of a meld row (type, a, b, c, d) as a Counter of card kinds (52 = joker)."""
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        out = Counter(s * 13 + a - 1 for s in range(4) if b >> s & 1)
        out[JOKER] += c
        return out
    return Counter(JOKER if d >> p & 1 else _kind(a, p) for p in range(b, c + 1))


def meld_ok(m, jokers_per_meld) -> bool:
    """Sets: 3-4 cards, one rank, distinct suits, jokers < naturals; runs: one suit, 3-13 positions in 1..14."""
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        naturals = bin(b).count("1")
        jokers = c
        ok = 1 <= a <= 13 and 0 <= b < 16 and 3 <= naturals + jokers <= 4
    elif typ == 1:
        jokers = bin(d).count("1")
        naturals = c - b + 1 - jokers
        inside = all(b <= p <= c for p in range(15) if d >> p & 1) and d >> 15 == 0
        ok = 0 <= a <= 3 and 1 <= b and c <= 14 and 3 <= c - b + 1 <= 13 and inside
    else:
        return False
    return ok and jokers <= jokers_per_meld and jokers < naturals


def meld_points(m) -> int:
    """Meld value: a set's rank per card (ace 11), a run's positions (ace 1 low, 11 high), jokers as their card."""
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        return int(SET_VALUE[a - 1]) * (bin(b).count("1") + c)
    return sum(int(RUN_VALUE[p]) for p in range(b, c + 1))


def meld_str(m) -> str:
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        return " ".join([card_name(s * 13 + a - 1) for s in range(4) if b >> s & 1] + ["JK"] * c)
    return " ".join("JK" if d >> p & 1 else card_name(_kind(a, p)) for p in range(b, c + 1))


class _Round:
    def __init__(self, options: RamiOptions, dealer: int, deck):
        self.o = options
        self.P = options.players
        self.jmax = options.jokers_per_meld
        n = options.deck_size
        deck = [int(k) for k in deck[:n]]
        if Counter(deck) != Counter({**{k: 2 for k in range(52)}, JOKER: options.n_jokers}):
            raise RefereeError("the deck is not two packs plus the jokers")
        self.full = Counter(deck)
        self.hands = [Counter() for _ in range(self.P)]
        i = 0
        for _ in range(options.hand_size):
            for k in range(self.P):
                self.hands[(dealer + 1 + k) % self.P][deck[i]] += 1
                i += 1
        self.pile = [deck[i]]
        self.stock = deck[i + 1:][::-1]  # drawn from the end
        self.recycled = None  # the recycled stock, a multiset, once the discards were shuffled back
        self.table = []
        self.opened = [False] * self.P
        self.open_turn = [-1] * self.P
        self.dealer = dealer

    def conserve(self, where):
        total = Counter()
        for h in self.hands:
            total.update(h)
        total.update(self.stock if self.recycled is None else self.recycled)
        total.update(self.pile)
        for m in self.table:
            total.update(meld_cards(m))
        total = +total
        if total != self.full:
            raise RefereeError(f"{where}: cards not conserved")
        for h in self.hands:
            if any(v < 0 for v in h.values()):
                raise RefereeError(f"{where}: a hand holds a negative count")


def check_round(options: RamiOptions, dealer: int, deck, log, *, describe: bool = False):
    """Replay one round's log; returns ``(result, lines)``.

    ``result``: dict with ``turns``, ``blocked``, ``rami_sec``, ``won``, ``opened``, ``hand_value``,
    ``score`` (lists per seat). ``lines``: the round turn by turn in readable cards (``describe``).
    Raises :class:`RefereeError` at the first illegal move.
    """
    o = options
    r = _Round(o, dealer, deck)
    P = r.P
    lines = []
    if describe:
        for p in range(P):
            lines.append(f"seat {p} dealt: {_hand_str(r.hands[p])}")
        lines.append(f"upcard: {card_name(r.pile[-1])}")
    seat = (dealer + 1) % P
    t = 0
    in_turn = False
    winner = None
    blocked = False
    turn = {}

    def end_turn():
        if o.discard_take_must_use and turn["taken"] >= 0 and not turn["taken_used"]:
            raise RefereeError(f"turn {t}: the discard taken ({card_name(turn['taken'])}) did not reach the table")
        if turn["pending"]:
            raise RefereeError(f"turn {t}: melds laid without opening")
        if turn["joker_debt"] > 0:
            raise RefereeError(f"turn {t}: a freed joker was not used in a new meld")
        if turn["exempt"] and winner is None:
            raise RefereeError(f"turn {t}: an exempt opening must go out at once")

    for row in log:
        code, who = int(row[0]), int(row[1])
        x = [int(v) for v in row[2:]]
        name = EV_NAMES.get(code)
        if name is None:
            raise RefereeError(f"unknown event code {code}")
        if winner is not None or blocked:
            raise RefereeError("an event after the round ended")
        if who != seat:
            raise RefereeError(f"turn {t}: seat {who} acted but it is seat {seat}'s turn")
        hand = r.hands[seat]
        if name in ("recycle", "blocked"):
            if in_turn or r.stock or (r.recycled is not None and sum(r.recycled.values())):
                raise RefereeError(f"turn {t}: {name} while the stock still holds cards or mid-turn")
            if name == "recycle":
                if not o.recycle_discards or r.recycled is not None or len(r.pile) < 2 or x[0] != len(r.pile) - 1:
                    raise RefereeError(f"turn {t}: recycling the discards is not allowed here")
                r.recycled = Counter(r.pile[:-1])
                r.pile = r.pile[-1:]
                lines.append(f"the {x[0]} discards under the top card are shuffled into a new stock") if describe else None
            else:
                if o.recycle_discards and r.recycled is None and len(r.pile) > 1:
                    raise RefereeError(f"turn {t}: blocked although the discards could be recycled")
                blocked = True
                lines.append(f"turn {t + 1}: seat {seat} cannot draw: the round is blocked") if describe else None
            continue
        if name in ("draw", "take"):
            if in_turn:
                raise RefereeError(f"turn {t}: a second draw")
            in_turn = True
            turn = dict(taken=-1, taken_used=False, pending=[], joker_debt=0, exempt=False, discarded=False)
            card = x[0]
            if name == "draw":
                if r.recycled is None:
                    if not r.stock or r.stock[-1] != card:
                        raise RefereeError(f"turn {t}: drew {card_name(card)}, not the top of the stock")
                    r.stock.pop()
                else:
                    if r.recycled[card] <= 0:
                        raise RefereeError(f"turn {t}: drew {card_name(card)}, which is not in the stock")
                    r.recycled[card] -= 1
            else:
                if not r.pile or r.pile[-1] != card:
                    raise RefereeError(f"turn {t}: took {card_name(card)}, not the top discard")
                if t < P and not o.discard_take_first_round:
                    raise RefereeError(f"turn {t}: the discard cannot be taken in the first round of turns")
                if o.single_card_must_draw_stock and sum(hand.values()) == 1:
                    raise RefereeError(f"turn {t}: a player with one card must draw from the stock")
                r.pile.pop()
                turn["taken"] = card
            hand[card] += 1
            if describe:
                src = "stock" if name == "draw" else "discard pile"
                lines.append(f"turn {t + 1}: seat {seat} {'draws' if name == 'draw' else 'takes'} {card_name(card)} "
                             f"from the {src}")
        elif not in_turn:
            raise RefereeError(f"turn {t}: {name} before drawing")
        elif name == "meld":
            m = x[:5]
            if not meld_ok(m, r.jmax):
                raise RefereeError(f"turn {t}: illegal meld {m}")
            need = meld_cards(m)
            if any(hand[k] < v for k, v in need.items()):
                raise RefereeError(f"turn {t}: meld {meld_str(m)} uses cards not in hand")
            hand.subtract(need)
            r.table.append(list(m) + [seat])
            if not r.opened[seat]:
                turn["pending"].append(m)
            if turn["taken"] >= 0 and need[turn["taken"]] > 0:
                turn["taken_used"] = True
            turn["joker_debt"] = max(0, turn["joker_debt"] - need[JOKER])
            if describe:
                lines.append(f"    melds {meld_str(m)} ({meld_points(m)})")
        elif name == "open":
            if r.opened[seat]:
                raise RefereeError(f"turn {t}: seat {seat} opens twice")
            value = sum(meld_points(m) for m in turn["pending"])
            pure = any(m[0] == 1 and m[4] == 0 for m in turn["pending"])
            exempt = x[0] == 1
            if exempt:
                if not o.rami_sec_exempt_from_opening or any(r.opened[p] for p in range(P) if p != seat):
                    raise RefereeError(f"turn {t}: an exempt opening is not allowed here")
                turn["exempt"] = True
            elif value < o.open_threshold or (o.open_needs_pure_run and not pure) or not turn["pending"]:
                raise RefereeError(f"turn {t}: opening with {value} points (pure run: {pure}) is not enough")
            r.opened[seat] = True
            r.open_turn[seat] = t
            turn["pending"] = []
            if describe:
                lines.append(f"    opens with {value} points" + (" (rami sec exemption)" if exempt else ""))
        elif name in ("layoff", "retrieve"):
            if not r.opened[seat] or turn["pending"]:
                raise RefereeError(f"turn {t}: {name} before opening")
            mi, card, slot = x[0], x[1], x[2]
            if not 0 <= mi < len(r.table) or hand[card] <= 0:
                raise RefereeError(f"turn {t}: {name} of {card_name(card)} on meld {mi} is not possible")
            m = r.table[mi]
            before = meld_cards(m)
            new = list(m)
            if name == "layoff":
                if m[0] == 0:
                    if card == JOKER:
                        new[3] += 1
                    elif card % 13 == m[1] - 1 and not m[2] >> (card // 13) & 1 and slot == card // 13:
                        new[2] |= 1 << slot
                    else:
                        raise RefereeError(f"turn {t}: {card_name(card)} does not fit the set {meld_str(m)}")
                else:
                    if slot not in (m[2] - 1, m[3] + 1) or not 1 <= slot <= 14:
                        raise RefereeError(f"turn {t}: lay-off slot {slot} is not at an end of {meld_str(m)}")
                    if card != JOKER and _kind(m[1], slot) != card:
                        raise RefereeError(f"turn {t}: {card_name(card)} does not extend {meld_str(m)}")
                    new[2], new[3] = min(m[2], slot), max(m[3], slot)
                    if card == JOKER:
                        new[4] |= 1 << slot
                if not meld_ok(new, r.jmax) or meld_cards(new) - before != Counter({card: 1}):
                    raise RefereeError(f"turn {t}: lay-off of {card_name(card)} leaves {meld_str(new)} illegal")
                hand[card] -= 1
                verb = "lays off"
            else:
                if card == JOKER:
                    raise RefereeError(f"turn {t}: a joker cannot take back a joker")
                if m[0] == 0:
                    if m[3] != 1 or card % 13 != m[1] - 1 or m[2] >> (card // 13) & 1:
                        raise RefereeError(f"turn {t}: {card_name(card)} frees no joker of {meld_str(m)}")
                    new[2] |= 1 << (card // 13)
                    new[3] = 0
                else:
                    if not (m[4] >> slot & 1) or _kind(m[1], slot) != card:
                        raise RefereeError(f"turn {t}: {card_name(card)} is not the card the joker stands for")
                    new[4] &= ~(1 << slot)
                if not meld_ok(new, r.jmax):
                    raise RefereeError(f"turn {t}: retrieval leaves {meld_str(new)} illegal")
                hand[card] -= 1
                hand[JOKER] += 1
                if o.freed_joker_use == "new_meld":
                    turn["joker_debt"] += 1
                verb = "takes back the joker of"
            r.table[mi] = new
            if turn["taken"] >= 0 and card == turn["taken"]:
                turn["taken_used"] = True
            if describe:
                what = f"{card_name(card)} on" if name == "layoff" else f"{meld_str(m)} with {card_name(card)}:"
                lines.append(f"    {verb} {what} {meld_str(new)}" if name == "layoff" else
                             f"    {verb} {what} now {meld_str(new)}")
        elif name == "discard":
            card = x[0]
            if hand[card] <= 0:
                raise RefereeError(f"turn {t}: discards {card_name(card)}, not in hand")
            if card == turn["taken"] and not turn["taken_used"] and hand[card] < 2:
                raise RefereeError(f"turn {t}: discards the card just taken from the discard pile")
            hand[card] -= 1
            r.pile.append(card)
            turn["discarded"] = True
            if describe:
                lines.append(f"    discards {card_name(card)}; holds {sum(hand.values())}: {_hand_str(hand)}")
        elif name == "out":
            if sum(hand.values()) != 0 or not r.opened[seat]:
                raise RefereeError(f"turn {t}: going out needs an empty hand and an opened player")
            if o.go_out_requires_discard and not turn["discarded"]:
                raise RefereeError(f"turn {t}: going out needs a final discard")
            winner = seat
            if describe:
                lines.append(f"    seat {seat} goes out")
        r.conserve(f"turn {t} ({name})")
        for m in r.table:
            if not meld_ok(m, r.jmax):
                raise RefereeError(f"turn {t}: table meld {meld_str(m)} illegal")
        if winner is not None:
            end_turn()
        elif name == "discard" and sum(hand.values()) > 0:
            end_turn()
            if any(sum(h.values()) > o.hand_size for h in r.hands):
                raise RefereeError(f"turn {t}: a hand holds more than {o.hand_size} cards between turns")
            in_turn = False
            t += 1
            seat = (seat + 1) % P
    if winner is None and not blocked:
        raise RefereeError("the log ends before the round does")
    hv = [hand_value([r.hands[p][k] for k in range(53)]) for p in range(P)]
    if winner is not None:
        won = [p == winner for p in range(P)]
        rami_sec = r.open_turn[winner] == t and not any(r.opened[p] for p in range(P) if p != winner)
        turns = t + 1
    else:
        low = min(hv)
        tied = [p for p in range(P) if hv[p] == low]
        if o.blocked_tie == "next_in_turn":
            first = min(tied, key=lambda p: (p - seat) % P)
            tied = [first]
        won = [p in tied for p in range(P)]
        rami_sec = False
        turns = t
    scores = round_scores(o, won, r.opened, hv, rami_sec)
    result = dict(turns=turns, blocked=blocked, rami_sec=rami_sec, won=won, opened=list(r.opened), hand_value=hv,
                  score=scores)
    if describe:
        lines.append("hands left: " + "; ".join(f"seat {p}: {_hand_str(r.hands[p]) or '-'} (H={hv[p]})"
                                                for p in range(P)))
        how = "rami sec" if rami_sec else "blocked" if blocked else "out"
        lines.append(f"winner(s): {[p for p in range(P) if won[p]]} ({how}); scores: {scores}")
    return result, lines


def _hand_str(h) -> str:
    return " ".join(card_name(k) for k in range(53) for _ in range(h[k]))
