"""Plain-Python Minchiate referee: replays one deal's log, checks every step, rescores it.

The log is what the kernel recorded: the shuffled pack, the cutter's and the dealer's discards,
each player's declared value and the 84 cards in play order. From the pack alone the referee
redoes the cutter's draw, the deal of 10 + 11, the exposed card(s), the Fola and the dealer's
draw; then it checks that the discards are legal (zero-value cards, never trump 29, the fallback
order only when too few), that each declaration is worth a subset of the hand's combinations
(all of them with ``declarations='mandatory_all'``), that every card played is legal and from
the right seat, and that the 97 cards are all somewhere exactly once at every step. It keeps
its own list of scoring events, settles the resti after each, and returns the whole record: the
replay text and JSON are written from it (:func:`describe`, :func:`json_record`), and
:func:`check_agreement` holds the kernel's row of the deal against it.
"""
from __future__ import annotations

from itertools import combinations as subsets

from cardlab.sim.minchiate.combos import find_combinations
from cardlab.sim.minchiate.rules import (CARD_VALUES, KING, LAST_TRICK_POINTS, MATTO, N_CARDS, PILE_PAR, RESTO,
                                         SOURCES, STRENGTH, TRUMP_29, MinchiateOptions, card_name, is_trump,
                                         qualifies, suit_card, suit_of)


class RefereeError(AssertionError):
    """A log that breaks a rule, or a score the rules do not give."""


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise RefereeError(message)


def value(c: int) -> int:
    return int(CARD_VALUES[c])


def legal_plays(hand: set, led: int | None, first_of_suit: bool, trump_played: bool) -> set:
    """§5: follow the led suit, else trump, else anything; the Matto always, but the King rule binds."""
    if led is None:
        return set(hand)
    if led != 4 and first_of_suit and trump_played and suit_card(led, KING) in hand:
        return {suit_card(led, KING)}
    same = {c for c in hand if suit_of(c) == led}
    if same:
        return same | ({MATTO} & hand)
    trumps = {c for c in hand if is_trump(c)}
    if trumps:
        return trumps | ({MATTO} & hand)
    return set(hand)


def trick_winner(cards, seats, led) -> int:
    """Seat of the highest trump, else of the highest card of the led suit; the Matto never wins."""
    trumps = [(c, p) for c, p in zip(cards, seats) if is_trump(c)]
    if trumps:
        return max(trumps)[1]
    return max((STRENGTH[c], p) for c, p in zip(cards, seats) if c != MATTO and suit_of(c) == led)[1]


def discard_fallback_order() -> list[int]:
    """Legal discards first, then trumps 2-5, the fives, the tens and trump 29 last."""
    return sorted(range(N_CARDS), key=lambda c: (c == TRUMP_29, value(c), c))


def matto_payment_card(pile: set) -> int:
    """The weakest zero-value card of a pile other than 29; else its lowest-valued card (not the Matto)."""
    blanks = [c for c in pile if value(c) == 0 and c != TRUMP_29]
    if blanks:
        return min(blanks, key=lambda c: (STRENGTH[c], c))
    return min((c for c in pile if c != MATTO), key=lambda c: (value(c), STRENGTH[c], c))


class Ledger:
    """Points by source per team, Δ and the resti settled after every scoring event."""

    def __init__(self):
        self.sources = [{s: 0 for s in SOURCES} for _ in range(2)]
        self.delta = 0
        self.resti = [0, 0]
        self.events = []

    def score(self, label: str, team: int, source: str, points: int, settle: bool = True) -> None:
        self.sources[team][source] += points
        self.delta += points if team == 0 else -points
        if settle:
            while self.delta >= RESTO:
                self.resti[0] += 1
                self.delta -= RESTO
            while self.delta <= -RESTO:
                self.resti[1] += 1
                self.delta += RESTO
            _check(abs(self.delta) < RESTO, "Δ not settled")
        self.events.append({"event": label, "team": team, "source": source, "points": points,
                            "delta": self.delta, "resti": list(self.resti)})

    def finish(self) -> None:
        if self.delta > 0:
            self.resti[0] += -(-self.delta // RESTO)
        elif self.delta < 0:
            self.resti[1] += -(self.delta // RESTO)


def referee_deal(options: MinchiateOptions, deal: int, perm, cutter_discards, dealer_discards, declared,
                 plays) -> dict:
    """Replay and check one deal; returns its full record (see the module docstring)."""
    o = options
    perm = [int(c) for c in perm]
    _check(sorted(perm) == list(range(N_CARDS)), "the pack is not the 97 cards once each")
    dealer = deal % 4
    first, cutter = (dealer + 1) % 4, (dealer + 3) % 4
    led = Ledger()
    hands = [set() for _ in range(4)]

    # cutter's draw
    k = 0
    while k < o.cutter_cap and qualifies(perm[k], o.steal_29):
        k += 1
    cutter_draw = perm[:k]
    hands[cutter].update(cutter_draw)
    led.score("cutter's draw", cutter % 2, "draws", sum(value(c) for c in cutter_draw))
    # the deal, 10 then 11 from D + 1
    pos = k
    last_cards = {}
    for size in (10, 11):
        for j in range(1, 5):
            p = (dealer + j) % 4
            hands[p].update(perm[pos:pos + size])
            last_cards[p] = perm[pos + size - 1]
            pos += size
    _check(all(len(hands[p]) == 21 + (k if p == cutter else 0) for p in range(4)), "hands of 21 after the deal")
    dealt = [sorted(h) for h in hands]
    exposed = {}
    for j in range(1, 5):
        p = (dealer + j) % 4
        if p == dealer or o.expose_last_cards == "all_four":
            exposed[p] = last_cards[p]
            led.score(f"exposed {card_name(last_cards[p])} (seat {p})", p % 2, "exposed", value(last_cards[p]))
    fola = perm[pos:]
    _check(len(fola) == 13 - k, "the Fola holds 13 - k cards")
    # the dealer's draw
    i = 0
    while i < len(fola) and qualifies(fola[i], o.steal_29):
        i += 1
    dealer_scored = fola[:i]
    led.score("dealer's draw", dealer % 2, "draws", sum(value(c) for c in dealer_scored))

    def extra(c):
        return value(c) > 0 or c == TRUMP_29 or (o.dealer_takes_from_fola == "counting+trumps_above_20" and is_trump(c)
                                                 and c + 1 > 20)

    dealer_extra = [c for c in fola[i:] if extra(c)]
    fola = [c for c in fola[i:] if not extra(c)]
    dealer_draw = dealer_scored + dealer_extra
    hands[dealer].update(dealer_draw)
    _check(all(value(c) == 0 and c != TRUMP_29 for c in fola), "the Fola keeps only blanks other than 29")

    # discards
    discards = {}
    for p, n, logged in ((cutter, k, cutter_discards), (dealer, len(dealer_draw), dealer_discards)):
        ds = [int(c) for c in logged if c >= 0]
        _check(len(ds) == n and len(set(ds)) == n, f"seat {p} must discard {n} cards, discarded {len(ds)}")
        _check(set(ds) <= hands[p], f"seat {p} discarded cards it does not hold")
        legal = {c for c in hands[p] if value(c) == 0 and c != TRUMP_29}
        if len(legal) >= n:
            _check(set(ds) <= legal, f"seat {p} discarded a counting card or trump 29")
        else:
            expected = [c for c in discard_fallback_order() if c in hands[p]][:n]
            _check(set(ds) == set(expected), f"seat {p}'s fallback discards are not in the fallback order")
        hands[p] -= set(ds)
        discards[p] = sorted(ds)
    discards.setdefault(cutter, [])
    discards.setdefault(dealer, [])
    _check(all(len(h) == 21 for h in hands), "every hand holds 21 cards after the discards")
    _check(len(fola) + len(discards[cutter]) + len(discards[dealer]) == 13, "Fola and discards make 13")
    set_aside = set(fola) | set(discards[cutter]) | set(discards[dealer])

    def conserved(piles, trick):
        """Hands, Fola, discards, piles and the trick hold the 97 cards, each exactly once."""
        places = [*hands, set_aside, *piles, trick]
        _check(sum(len(x) for x in places) == N_CARDS and len(set().union(*places)) == N_CARDS, "card conservation")

    conserved([set(), set()], [])
    # declarations
    combo_opts = dict(c5_merge=o.c5_merge, combos_may_share=o.combos_may_share,
                      matto_bonus_on_c3=o.matto_bonus_on_c3)
    shown = {}
    for j in range(1, 5):
        p = (dealer + j) % 4
        found = find_combinations(hands[p], **combo_opts)
        v = int(declared[p])
        full = sum(cb.value for cb in found)
        if o.declarations == "mandatory_all":
            _check(v == full, f"seat {p} must declare every combination ({full}), declared {v}")
        chosen = None
        for r in range(len(found), -1, -1):
            for sub in subsets(found, r):
                if sum(cb.value for cb in sub) == v:
                    chosen = list(sub)
                    break
            if chosen is not None:
                break
        _check(chosen is not None, f"seat {p} declared {v}, which no subset of its combinations is worth")
        shown[p] = chosen
        led.score(f"declaration (seat {p})", p % 2, "declarations", v)

    # the play
    piles = [set(), set()]
    tricks_won = [0, 0]
    led_suits = set()
    matto_owner, matto_owed = None, False
    leader = first
    tricks = []
    plays = [int(c) for c in plays]
    _check(len(plays) == 84, "84 cards played")
    for t in range(21):
        trick_cards, trick_seats = [], []
        suit, trump_played = None, False
        for n in range(4):
            p = (leader + n) % 4
            c = plays[4 * t + n]
            legal = legal_plays(hands[p], suit, suit not in led_suits, trump_played)
            _check(len(legal) > 0, "an empty legal set")
            if c not in legal:
                raise RefereeError(f"trick {t + 1}: seat {p} played {card_name(c)}, not legal "
                                   f"(legal: {', '.join(card_name(x) for x in sorted(legal))})")
            hands[p].remove(c)
            trick_cards.append(c)
            trick_seats.append(p)
            conserved(piles, trick_cards)
            if c == MATTO:
                matto_owner = p
                continue
            if suit is None:
                suit = suit_of(c)
            trump_played = trump_played or is_trump(c)
        if suit is not None and suit != 4:
            led_suits.add(suit)
        winner = trick_winner(trick_cards, trick_seats, suit)
        w = winner % 2
        tricks_won[w] += 1
        captured = 0
        for c, p in zip(trick_cards, trick_seats):
            if c == MATTO:
                piles[p % 2].add(MATTO)
                matto_owed = matto_owed or p % 2 != w
                continue
            if p % 2 != w:
                captured += value(c)
            piles[w].add(c)
        tricks.append([[p, c] for p, c in zip(trick_seats, trick_cards)])
        led.score(f"trick {t + 1} to seat {winner}", w, "captures", captured)
        if t == 0 and o.discards_to == "own_team_pile":
            piles[cutter % 2].update(discards[cutter])
            piles[dealer % 2].update(discards[dealer])
            set_aside.difference_update(discards[cutter])
            set_aside.difference_update(discards[dealer])
        conserved(piles, [])
        leader = winner
    last_team = leader % 2
    # the end
    paid = None
    if matto_owed:
        payer = matto_owner % 2
        paid = MATTO if tricks_won[payer] == 0 else matto_payment_card(piles[payer])
        piles[payer].remove(paid)
        piles[1 - payer].add(paid)
    conserved(piles, [])
    if o.discards_to == "fola":
        _check(len(piles[0]) + len(piles[1]) == 84, "piles of 84")
        _check(sum(value(c) for pl in piles for c in pl) == 142, "142 card points in the piles")
    pile_combos = [find_combinations(piles[t], **combo_opts) if o.score_pile_combos else [] for t in range(2)]
    for t in range(2):
        led.score(f"card points (team {t})", t, "card_points", sum(value(c) for c in piles[t]), settle=False)
        led.score(f"pile combinations (team {t})", t, "pile_combos", sum(cb.value for cb in pile_combos[t]),
                  settle=False)
        led.score(f"cards beyond {PILE_PAR} (team {t})", t, "beyond42", max(0, len(piles[t]) - PILE_PAR),
                  settle=False)
        led.score(f"last trick (team {t})", t, "last_trick", LAST_TRICK_POINTS if t == last_team else 0,
                  settle=False)
    led.finish()
    resti = list(led.resti)
    if o.cappotto_double and 0 in tricks_won:
        resti = [2 * r for r in resti]
    points = [sum(led.sources[t].values()) for t in range(2)]
    net = resti[0] - resti[1]
    diff = (points[0] - points[1]) / RESTO
    _check(abs(net - diff) < 1 or (o.cappotto_double and 0 in tricks_won), "net resti within 1 of Δ / 60")
    return {
        "deal": deal, "dealer": dealer, "cutter": cutter, "cutter_draw": cutter_draw, "hands": dealt,
        "exposed": {str(p): c for p, c in exposed.items()}, "fola": perm[k + 84:], "fola_after": sorted(fola),
        "dealer_draw": dealer_draw, "dealer_scored": dealer_scored,
        "discards": [discards.get(p, []) for p in range(4)],
        "declarations": [[{"kind": cb.kind, "cards": list(cb.cards), "value": cb.value} for cb in shown[p]]
                         for p in range(4)],
        "tricks": tricks, "tricks_won": tricks_won, "matto_paid": paid,
        "pile_combinations": [[{"kind": cb.kind, "cards": list(cb.cards), "value": cb.value} for cb in pile_combos[t]]
                              for t in range(2)],
        "pile_sizes": [len(piles[0]), len(piles[1])],
        "sources": led.sources, "points": points, "resti": resti, "net_resti": net, "events": led.events,
    }


# ---------------------------------------------------------------- the record against the kernel, as JSON and text


def check_agreement(rec: dict, row: dict, deal: int) -> None:
    """Raise :class:`RefereeError` when the kernel's row differs from the referee's record."""
    expect = {"dealer": rec["dealer"], "cutter_cards": len(rec["cutter_draw"]), "dealer_cards": len(rec["dealer_draw"]),
              "net_resti": rec["net_resti"], "tricks_0": rec["tricks_won"][0], "tricks_1": rec["tricks_won"][1]}
    for t in range(2):
        expect[f"points_{t}"] = rec["points"][t]
        expect[f"resti_{t}"] = rec["resti"][t]
        for s in SOURCES:
            expect[f"{s}_{t}"] = rec["sources"][t][s]
    for name, want in expect.items():
        if int(row[name]) != int(want):
            raise RefereeError(f"deal {deal}: kernel {name} = {int(row[name])}, the rules give {want}")


def _names(cards) -> list[str]:
    return [card_name(c) for c in cards]


def json_record(rec: dict) -> dict:
    """The machine-readable record of a deal (card names as in the text replay)."""
    return {
        "deal": rec["deal"], "dealer": rec["dealer"], "cutter": rec["cutter"],
        "cutter_draw": _names(rec["cutter_draw"]), "hands": [_names(h) for h in rec["hands"]],
        "exposed": {p: card_name(c) for p, c in rec["exposed"].items()}, "fola": _names(rec["fola"]),
        "dealer_draw": _names(rec["dealer_draw"]), "discards": [_names(d) for d in rec["discards"]],
        "declarations": [[{"kind": cb["kind"], "cards": _names(cb["cards"]), "value": cb["value"]} for cb in seat]
                         for seat in rec["declarations"]],
        "tricks": [[[p, card_name(c)] for p, c in trick] for trick in rec["tricks"]],
        "matto_paid": None if rec["matto_paid"] is None else card_name(rec["matto_paid"]),
        "pile_combinations": [[{"kind": cb["kind"], "cards": _names(cb["cards"]), "value": cb["value"]} for cb in t]
                              for t in rec["pile_combinations"]],
        "points_by_source": rec["sources"], "points": rec["points"], "resti": rec["resti"],
        "net_resti": rec["net_resti"], "events": rec["events"],
    }


def describe(rec: dict) -> str:
    """The deal as text: draws, Fola, discards, declarations, 21 tricks, every scoring event with Δ and resti."""
    events = iter(rec["events"])

    def ev():
        e = next(events)
        return f"  [{e['event']}: team {e['team']} +{e['points']}; Δ {e['delta']:+d}, resti {e['resti'][0]}-{e['resti'][1]}]"

    lines = [f"deal {rec['deal']}: dealer seat {rec['dealer']}, cutter seat {rec['cutter']} (team 0 = seats 0 and 2)"]
    lines.append(f"cutter's draw ({len(rec['cutter_draw'])}): {', '.join(_names(rec['cutter_draw'])) or 'nothing'}")
    lines.append(ev())
    for p in range(4):
        lines.append(f"seat {p} dealt: {', '.join(_names(rec['hands'][p]))}")
    for p, c in rec["exposed"].items():
        lines.append(f"exposed (seat {p}): {card_name(c)}")
        lines.append(ev())
    lines.append(f"Fola: {', '.join(_names(rec['fola'])) or 'empty'}")
    lines.append(f"dealer's draw: scored {', '.join(_names(rec['dealer_scored'])) or 'nothing'}; "
                 f"taken unscored {', '.join(_names(rec['dealer_draw'][len(rec['dealer_scored']):])) or 'nothing'}")
    lines.append(ev())
    for p in range(4):
        if rec["discards"][p]:
            lines.append(f"seat {p} discards: {', '.join(_names(rec['discards'][p]))}")
    for j in range(1, 5):
        p = (rec["dealer"] + j) % 4
        shown = rec["declarations"][p]
        text = "; ".join(f"{cb['kind']} {'-'.join(_names(cb['cards']))} = {cb['value']}" for cb in shown)
        lines.append(f"seat {p} declares: {text or 'nothing'}")
        lines.append(ev())
    for t, trick in enumerate(rec["tricks"]):
        lines.append(f"trick {t + 1:2d}: " + ", ".join(f"{p}:{card_name(c)}" for p, c in trick))
        lines.append(ev())
    if rec["matto_paid"] is not None:
        lines.append(f"Matto debt paid with {card_name(rec['matto_paid'])}")
    for t in range(2):
        combos = "; ".join(f"{cb['kind']} = {cb['value']}" for cb in rec["pile_combinations"][t])
        lines.append(f"team {t} pile: {rec['pile_sizes'][t]} cards; combinations: {combos or 'none'}")
    for e in events:
        lines.append(f"  [{e['event']}: +{e['points']}; Δ {e['delta']:+d}]")
    for t in range(2):
        src = ", ".join(f"{k} {v}" for k, v in rec["sources"][t].items())
        lines.append(f"team {t}: {rec['points'][t]} points ({src}); resti {rec['resti'][t]}")
    lines.append(f"net resti (team 0 - team 1): {rec['net_resti']:+d}")
    return "\n".join(lines)
