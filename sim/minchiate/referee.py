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

The rules live in one place, :class:`MinchiateState` (the step API of :mod:`cardlab.sim.state`):
:func:`referee_deal` plays the log through it, each logged decision first checked to be one of the
state's legal actions, and the replay's record (its ``actions`` included) is the state's.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from itertools import combinations as subsets

import numpy as np

from cardlab.sim.minchiate.combos import find_combinations
from cardlab.sim.minchiate.rules import (CARD_GROUP, CARD_VALUES, KING, MATTO, N_CARDS, N_TRICKS, PILE_PAR,
                                         SOURCES, STRENGTH, TRUMP_29, MinchiateOptions, card_name, is_trump,
                                         qualifies, suit_card, suit_of)
from cardlab.sim.state import Action, State


class RefereeError(AssertionError):
    """A log that breaks a rule, or a score the rules do not give."""


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise RefereeError(message)


def is_blank(c: int) -> bool:
    """A card that never scores alone (trump 29 among them): it is in no point group."""
    return CARD_GROUP[c] < 0


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
    return sorted(range(N_CARDS), key=lambda c: (c == TRUMP_29, int(CARD_VALUES[c]), c))


def matto_payment_card(pile: set, points=CARD_VALUES) -> int:
    """The weakest zero-value card of a pile other than 29; else its card of the fewest ``points`` (by card id;
    the run's :meth:`~cardlab.sim.minchiate.rules.MinchiateOptions.card_points`), then the weakest (not the Matto)."""
    blanks = [c for c in pile if is_blank(c) and c != TRUMP_29]
    if blanks:
        return min(blanks, key=lambda c: (STRENGTH[c], c))
    return min((c for c in pile if c != MATTO), key=lambda c: (int(points[c]), STRENGTH[c], c))


class Ledger:
    """Points by source per team, Δ and the resti settled after every scoring event."""

    def __init__(self, unit: int = MinchiateOptions.resto_unit):
        self.unit = unit  # the resto unit: points per resto (60)
        self.sources = [{s: 0 for s in SOURCES} for _ in range(2)]
        self.delta = 0
        self.max_delta = 0  # the largest |Δ| left after a settlement
        self.resti = [0, 0]
        self.events = []

    def score(self, label: str, team: int, source: str, points: int, settle: bool = True) -> None:
        self.sources[team][source] += points
        self.delta += points if team == 0 else -points
        if settle:
            while self.delta >= self.unit:
                self.resti[0] += 1
                self.delta -= self.unit
            while self.delta <= -self.unit:
                self.resti[1] += 1
                self.delta += self.unit
            _check(abs(self.delta) < self.unit, "Δ not settled")
            self.max_delta = max(self.max_delta, abs(self.delta))
        self.events.append({"event": label, "team": team, "source": source, "points": points,
                            "delta": self.delta, "resti": list(self.resti)})

    def finish(self) -> None:
        if self.delta > 0:
            self.resti[0] += -(-self.delta // self.unit)
        elif self.delta < 0:
            self.resti[1] += -(self.delta // self.unit)


def may_discard(c: int) -> bool:
    """§5: a legal discard is a zero-value card other than trump 29."""
    return is_blank(c) and c != TRUMP_29


def legal_discards(hand: set, left: int) -> set:
    """§5: the cards a seat with ``left`` discards still to make may discard next: any zero-value card
    other than 29 while it holds ``left`` of them, else the first ``left`` of its cards in the fallback order."""
    blanks = {c for c in hand if may_discard(c)}
    if len(blanks) >= left:
        return blanks
    return set([c for c in discard_fallback_order() if c in hand][:left])


#: Stable action ids, the same in every deal: a card played is its card id (0-96), a discard 100 + the
#: card, a declaration 200 + the value declared.
ID_BASE = {"play": 0, "discard": 100, "declare": 200}
CARD_IDS = {card_name(c): c for c in range(N_CARDS)}
CUTTER_PILE, DEALER_PILE = 4, 5  # resample's holders: the four seats, then the cutter's and the dealer's discards


@lru_cache(maxsize=None)
def action_of(kind: str, v: int) -> Action:
    """The :class:`~cardlab.sim.state.Action` of a move: ``v`` is the card (play, discard) or the value declared.
    One object per move (its entry is shared: read it)."""
    if kind == "declare":
        return Action(ID_BASE[kind] + v, f"declare {v}", {"kind": kind, "value": v})
    name = card_name(v)
    return Action(ID_BASE[kind] + v, name if kind == "play" else f"{kind} {name}", {"kind": kind, "card": name})


def value_of(action: Action) -> int:
    """The card or the declared value of an action."""
    return action.id - ID_BASE[action.entry["kind"]]


class MinchiateState(State):
    """One deal of Minchiate, move by move (:mod:`cardlab.sim.state`); the rules of ``docs/rules/minchiate.md``.

    Dealt from the pack as the kernel shuffled it, the steps without a decision done at once: the
    cutter's draw, the deal of 10 + 11, the exposed card(s), the Fola and the dealer's draw (§2-4).
    Then one decision at a time:

    * **discards** (§5): the cutter, then the dealer, one card at a time (``discard 3 of Cups``) until
      each is back to 21: :func:`legal_discards`;
    * **declarations** (§6), from ``D + 1``: ``declare 25``, the value of a subset of the hand's
      combinations (:func:`~cardlab.sim.minchiate.combos.find_combinations`; all of them with
      ``declarations='mandatory_all'``); the combinations shown are the largest subset worth it;
    * **play** (§8): ``King of Cups``, a card of :func:`legal_plays`; :func:`trick_winner` takes the
      trick, captures and the Matto's debt follow §9, and after trick 21 the end is scored (§10-11).

    Ids (:data:`ID_BASE`): a card played is its card id (0-96), ``discard`` 100 + card, ``declare``
    200 + value. Every scoring event settles the resti at once (:class:`Ledger`).

    A seat sees its hand, the cutter's draw, the exposed cards, the Fola (turned face up, so the
    dealer's draw too), the declarations, every card played and the scoring events; the cutter's and
    the dealer's discards only its own, and every discard once trick 1 is over. :meth:`resample`
    deals the cards a seat has not seen, and the named cards that may have been discarded, with
    :mod:`cardlab.sim.worlds`' exactly uniform sampler over the holders (the three other hands and the
    hidden discards), each card only where the plays so far allow it (a seat holds nothing that would
    have made one of its plays illegal) and discards only among legal discards; the world is then
    replayed through the rules and drawn again if it breaks one or shows the seat something else (a
    declaration that would differ). The referee (:func:`referee_deal`) plays a kernel's log through
    this class.
    """

    def __init__(self, options: MinchiateOptions, deal: int, perm, *, study=None):
        """Deal ``deal`` from the shuffled pack ``perm`` (97 card ids); the dealer is seat ``deal % 4``."""
        o = options
        perm = [int(c) for c in perm]
        _check(sorted(perm) == list(range(N_CARDS)), "the pack is not the 97 cards once each")
        self.options, self.deal, self.study, self.perm = options, deal, study, perm
        self.dealer = dealer = deal % 4
        self.cutter = cutter = (dealer + 3) % 4
        self.ledger = led = Ledger(o.resto_unit)
        self.points = points = o.card_points()  # by card id, as the options value the cards

        def value(c):
            return int(points[c])

        self.hands = hands = [set() for _ in range(4)]
        k = 0  # the cutter's draw (§2)
        while k < o.cutter_cap and qualifies(perm[k], o.steal_29):
            k += 1
        self.cutter_draw = perm[:k]
        hands[cutter].update(self.cutter_draw)
        led.score("cutter's draw", cutter % 2, "draws", sum(value(c) for c in self.cutter_draw))
        pos, last_cards = k, {}  # the deal, 10 then 11 from D + 1 (§3)
        for size in (10, 11):
            for j in range(1, 5):
                p = (dealer + j) % 4
                hands[p].update(perm[pos:pos + size])
                last_cards[p] = perm[pos + size - 1]
                pos += size
        _check(all(len(hands[p]) == 21 + (k if p == cutter else 0) for p in range(4)), "hands of 21 after the deal")
        self.dealt = [sorted(h) for h in hands]
        self.exposed = {}
        for j in range(1, 5):
            p = (dealer + j) % 4
            if p == dealer or o.expose_last_cards == "all_four":
                self.exposed[p] = last_cards[p]
                led.score(f"exposed {card_name(last_cards[p])} (seat {p})", p % 2, "exposed", value(last_cards[p]))
        self.fola = fola = perm[pos:]  # the Fola and the dealer's draw (§4)
        _check(len(fola) == 13 - k, "the Fola holds 13 - k cards")
        i = 0
        while i < len(fola) and qualifies(fola[i], o.steal_29):
            i += 1
        self.dealer_scored = fola[:i]
        led.score("dealer's draw", dealer % 2, "draws", sum(value(c) for c in self.dealer_scored))

        def extra(c):
            return not is_blank(c) or c == TRUMP_29 or (o.dealer_takes_from_fola == "counting+trumps_above_20"
                                                     and is_trump(c) and c + 1 > 20)

        self.dealer_draw = self.dealer_scored + [c for c in fola[i:] if extra(c)]
        self.fola_after = [c for c in fola[i:] if not extra(c)]
        hands[dealer].update(self.dealer_draw)
        _check(all(is_blank(c) and c != TRUMP_29 for c in self.fola_after), "the Fola keeps only blanks other than 29")
        self.to_discard = {cutter: k, dealer: len(self.dealer_draw)}
        self.discards = {cutter: [], dealer: []}
        self.set_aside = set(self.fola_after)  # out of play: the Fola's blanks, then the discards
        self.combo_options = o.combination_keywords()
        self.shown = {}  # seat -> the combinations it declared
        self.piles, self.tricks_won, self.led_suits = [set(), set()], [0, 0], set()
        self.matto_owner, self.matto_owed = None, False
        self.leader, self.trick, self.tricks = (dealer + 1) % 4, [], []  # trick: [seat, card] pairs
        self.actions = []  # (seat, kind, card or value) of every decision, in order
        self.plays = []  # (seat, card, the rule's (led suit, first of its suit, trump played)) of every card played
        self.end = None  # after trick 21: the Matto's payment, the piles' combinations, the resti
        self.discard_plans = {}  # seat -> the discards a built-in seat chose and has still to make
        self._conserved()

    builtin_policies = ("random", "heuristic", "search", "oracle")

    def search_means(self, worlds: int) -> dict | None:
        """The search kernel's means at this card (:func:`cardlab.sim.minchiate.state_policies.searched_move`);
        None before the play or with one legal card."""
        from cardlab.sim.minchiate.state_policies import searched_move

        if self.phase != "play" or len(self.legal_actions()) < 2:
            return None
        return searched_move(self, "search", worlds)[1]

    def _policy_action(self, policy: str) -> Action:
        """The kernels' own decision of a built-in seat here (:mod:`cardlab.sim.minchiate.state_policies`): a search
        or oracle seat's card is the search kernel's, given the deal so far."""
        from cardlab.sim.minchiate.state_policies import policy_action

        return policy_action(self, policy)

    # ---------------------------------------------------------------- whose turn, what is legal

    @property
    def phase(self) -> str:
        if any(len(self.discards[p]) < n for p, n in self.to_discard.items()):
            return "discards"
        if len(self.shown) < 4:
            return "declarations"
        return "play" if self.end is None else "over"

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == "discards":
            return self.cutter if len(self.discards[self.cutter]) < self.to_discard[self.cutter] else self.dealer
        if phase == "declarations":
            return (self.dealer + 1 + len(self.shown)) % 4
        return (self.leader + len(self.trick)) % 4 if phase == "play" else -1

    @property
    def is_over(self) -> bool:
        return self.end is not None

    def led(self):
        """The current trick's led suit (0-3, 4 for trumps; None before a card other than the Matto) and
        whether a trump has been played to it."""
        cards = [c for _, c in self.trick]
        return next((suit_of(c) for c in cards if c != MATTO), None), any(is_trump(c) for c in cards)

    def declarations(self, seat: int) -> dict:
        """Value -> the combinations shown for it: every subset of ``seat``'s combinations, the largest
        first (only all of them with ``declarations='mandatory_all'``)."""
        found = find_combinations(self.hands[seat], **self.combo_options)
        if self.options.declarations == "mandatory_all":
            return {sum(cb.value for cb in found): found}
        choices = {}
        for r in range(len(found), -1, -1):
            for sub in subsets(found, r):
                choices.setdefault(sum(cb.value for cb in sub), list(sub))
        return choices

    def legal_actions(self) -> list[Action]:
        phase, p = self.phase, self.current_player
        if phase == "discards":
            left = self.to_discard[p] - len(self.discards[p])
            return [action_of("discard", c) for c in sorted(legal_discards(self.hands[p], left))]
        if phase == "declarations":
            return [action_of("declare", v) for v in sorted(self.declarations(p))]
        if phase == "play":
            suit, trump_played = self.led()
            return [action_of("play", c) for c in sorted(legal_plays(self.hands[p], suit, suit not in self.led_suits,
                                                                     trump_played))]
        return []

    def where(self) -> str:
        """The step the deal is at, as the referee's messages name it."""
        return f"trick {len(self.tricks) + 1}" if self.phase == "play" else self.phase

    def why(self, kind: str, v: int) -> str:
        """The rule a move of a legal kind breaks with this card or value."""
        p = self.current_player
        if kind == "declare":
            if self.options.declarations == "mandatory_all":
                return f"must declare every combination ({next(iter(self.declarations(p)))}), declared {v}"
            return f"declared {v}, which no subset of its combinations is worth"
        if not 0 <= v < N_CARDS:
            return f"gave {v}, which is not a card"
        legal = ", ".join(a.name for a in self.legal_actions())
        if kind == "discard":
            why = "does not hold it" if v not in self.hands[p] else "a counting card or trump 29" \
                if not may_discard(v) else "the fallback order comes first"
            return f"cannot discard {card_name(v)}: {why} (legal: {legal})"
        return f"played {card_name(v)}, not legal (legal: {legal})"

    def why_illegal(self, move) -> str:
        entry = move.entry if isinstance(move, Action) else move if isinstance(move, dict) else {}
        kind = entry.get("kind")
        if self.is_over or kind not in {a.entry["kind"] for a in self.legal_actions()}:
            return ""
        v = CARD_IDS.get(entry.get("card"), entry.get("value"))
        return self.why(kind, v) if isinstance(v, int) else ""

    # ---------------------------------------------------------------- moves

    def _apply(self, action: Action) -> None:
        p, kind, v = self.current_player, action.entry["kind"], value_of(action)
        self.actions.append((p, kind, v))
        if kind == "discard":
            self.hands[p].remove(v)
            self.discards[p].append(v)
            self.set_aside.add(v)
            if self.phase != "discards":
                _check(all(len(h) == 21 for h in self.hands), "every hand holds 21 cards after the discards")
        elif kind == "declare":
            self.shown[p] = self.declarations(p)[v]
            self.ledger.score(f"declaration (seat {p})", p % 2, "declarations", v)
        else:
            self._play(p, v)
        self._conserved()

    def _play(self, p: int, c: int) -> None:
        """§8-9: a card onto the trick; the fourth gives the trick to :func:`trick_winner`'s seat, whose
        team scores the opponents' counting cards in it; the Matto stays with its owner's team (a debt when
        the opponents won). After trick 1 the discards join their team's pile (``own_team_pile``)."""
        o = self.options
        suit, trump_played = self.led()
        self.plays.append((p, c, (suit, suit not in self.led_suits, trump_played)))
        self.hands[p].remove(c)
        self.trick.append([p, c])
        if c == MATTO:
            self.matto_owner = p
        if len(self.trick) < 4:
            return
        suit, _ = self.led()
        if suit is not None and suit != 4:
            self.led_suits.add(suit)
        cards, seats = [c for _, c in self.trick], [s for s, _ in self.trick]
        winner = trick_winner(cards, seats, suit)
        w = winner % 2
        self.tricks_won[w] += 1
        captured = 0
        for c, s in zip(cards, seats):
            if c == MATTO:
                self.piles[s % 2].add(MATTO)
                self.matto_owed = self.matto_owed or s % 2 != w
                continue
            if s % 2 != w:
                captured += int(self.points[c])
            self.piles[w].add(c)
        self.tricks.append(self.trick)
        self.trick, self.leader = [], winner
        self.ledger.score(f"trick {len(self.tricks)} to seat {winner}", w, "captures", captured)
        if len(self.tricks) == 1 and o.discards_to == "own_team_pile":
            for d in (self.cutter, self.dealer):
                self.piles[d % 2].update(self.discards[d])
                self.set_aside.difference_update(self.discards[d])
        if len(self.tricks) == N_TRICKS:
            self._finish()

    def _finish(self) -> None:
        """§10-11: the Matto's debt, then each team's card points, pile combinations, cards beyond 42 and the
        last trick; the resti rounded up for the team ahead (doubled on a cappotto with ``cappotto_double``)."""
        o, led, piles, won = self.options, self.ledger, self.piles, self.tricks_won
        paid = None
        if self.matto_owed:
            payer = self.matto_owner % 2
            paid = MATTO if won[payer] == 0 else matto_payment_card(piles[payer], self.points)
            piles[payer].remove(paid)
            piles[1 - payer].add(paid)
        if o.discards_to == "fola":
            _check(len(piles[0]) + len(piles[1]) == 84, "piles of 84")
            _check(sum(int(self.points[c]) for pl in piles for c in pl) == int(self.points.sum()),
                   "every card point in the piles")
        pile_combos = [find_combinations(piles[t], **self.combo_options) if o.score_pile_combos else [] for t in range(2)]
        last_team = self.leader % 2
        for t in range(2):
            led.score(f"card points (team {t})", t, "card_points", sum(int(self.points[c]) for c in piles[t]),
                      settle=False)
            led.score(f"pile combinations (team {t})", t, "pile_combos", sum(cb.value for cb in pile_combos[t]),
                      settle=False)
            led.score(f"cards beyond {PILE_PAR} (team {t})", t, "beyond42",
                      max(0, len(piles[t]) - PILE_PAR) * o.beyond_42,
                      settle=False)
            led.score(f"last trick (team {t})", t, "last_trick", o.last_trick if t == last_team else 0,
                      settle=False)
        led.finish()
        resti = [2 * r for r in led.resti] if o.cappotto_double and 0 in won else list(led.resti)
        points = [sum(led.sources[t].values()) for t in range(2)]
        _check(abs(resti[0] - resti[1] - (points[0] - points[1]) / o.resto_unit) < 1 or (o.cappotto_double and 0 in won),
               "net resti within 1 of Δ / the resto unit")
        self.end = {"paid": paid, "pile_combos": pile_combos, "resti": resti}

    def _conserved(self) -> None:
        """Hands, the cards set aside, the piles and the trick hold the 97 cards, each exactly once."""
        places = [*self.hands, self.set_aside, *self.piles, {c for _, c in self.trick}]
        _check(sum(len(x) for x in places) == N_CARDS and len(set().union(*places)) == N_CARDS, "card conservation")

    def check(self, seat: int, kind: str, v: int) -> None:
        """Apply one logged decision ``(seat, kind, card or value)``; :class:`RefereeError` naming the step
        and the rule when it is not the move of the seat to act or not legal."""
        if self.is_over:
            raise RefereeError("the log goes on after trick 21")
        legal = self.legal_actions()
        kinds = list(dict.fromkeys(a.entry["kind"] for a in legal))
        if seat != self.current_player or kind not in kinds:
            raise RefereeError(f"{self.where()}: expected seat {self.current_player} to {' or '.join(kinds)}, "
                               f"the log has seat {seat} {kind}")
        action = next((a for a in legal if value_of(a) == v), None)
        if action is None:
            raise RefereeError(f"{self.where()}: seat {seat} {self.why(kind, v)}")
        self._apply(action)

    # ---------------------------------------------------------------- what a seat knows

    def played(self) -> list:
        """Every card played so far, in order."""
        return [c for trick in self.tricks + [self.trick] for _, c in trick]

    def discards_seen(self, seat: int, discarder: int) -> bool:
        """Discards are face down until trick 1 is over; the discarder knows its own."""
        return seat == discarder or len(self.tricks) > 0

    def observation(self, seat: int) -> dict:
        names = _names
        return {"seat": seat, "dealer": self.dealer, "cutter": self.cutter, "hand": names(sorted(self.hands[seat])),
                "cutter_draw": names(self.cutter_draw), "exposed": {str(p): card_name(c) for p, c in self.exposed.items()},
                "fola": names(self.fola), "dealer_draw": names(self.dealer_draw),
                "discards": {str(p): names(sorted(d)) if self.discards_seen(seat, p) else len(d)
                             for p, d in self.discards.items()},
                "declarations": {str(p): [{"kind": cb.kind, "cards": names(cb.cards), "value": cb.value} for cb in shown]
                                 for p, shown in self.shown.items()},
                "actions": [{"seat": p, "kind": kind} if kind == "discard" and not self.discards_seen(seat, p)
                            else {"seat": p, **action_of(kind, v).entry} for p, kind, v in self.actions],
                "leader": self.leader, "trick": [[p, card_name(c)] for p, c in self.trick],
                "tricks_won": list(self.tricks_won), "events": [dict(e) for e in self.ledger.events],
                "scores": self.scores() if self.is_over else None}

    def named(self) -> dict:
        """Card -> its holder, for the cards a seat's hand was shown to hold: its draw, its exposed card and
        the combinations it declared (each until played or discarded)."""
        owners = {c: self.cutter for c in self.cutter_draw}
        owners.update({c: self.dealer for c in self.dealer_draw})
        owners.update({c: p for p, c in self.exposed.items()})
        owners.update({c: p for p, shown in self.shown.items() for cb in shown for c in cb.cards})
        return owners

    def hidden_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` has not seen: not its own, not played, not shown (draws, exposed cards, the Fola,
        declarations), not a discard it has seen."""
        seen = self.hands[seat] | set(self.played()) | set(self.named()) | set(self.fola)
        for p, d in self.discards.items():
            if self.discards_seen(seat, p):
                seen.update(d)
        return [c for c in range(N_CARDS) if c not in seen]

    def _unplaced(self, seat: int) -> tuple[list, dict]:
        """The six holders (the seats' hands, the cutter's and the dealer's discards) and, for every card
        whose place ``seat`` does not know, the holders that may hold it (see the class docstring)."""
        piles = {self.cutter: CUTTER_PILE, self.dealer: DEALER_PILE}
        holders = self.hands + [set(self.discards[self.cutter]), set(self.discards[self.dealer])]
        hidden = {piles[p] for p in piles if not self.discards_seen(seat, p)}
        named = self.named()
        declared = {c for shown in self.shown.values() for cb in shown for c in cb.cards}
        out = {}
        for h, cards in enumerate(holders):
            if h == seat or (h >= 4 and h not in hidden):
                continue
            for c in cards:
                owner = named.get(c)
                if c in declared or (owner is not None and piles.get(owner) not in hidden):
                    continue  # shown in that hand, and no hidden discard it could have gone to
                seats = [owner] if owner is not None else [p for p in range(4) if p != seat]
                places = {p for p in seats if self.could_hold(p, c)}
                out[c] = places | {pile for pile in ({piles[owner]} if owner is not None else hidden)
                                   if may_discard(c) or not all(map(may_discard, holders[pile]))}
        return holders, out

    def could_hold(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may hold ``card`` after the cards it played: each must have been legal from a
        hand holding ``card`` too (no suit it showed out of, no King it had to play)."""
        return all(c in legal_plays({c, card}, *rule) for p, c, rule in self.plays if p == seat)

    def resample(self, seat: int, rng, tries: int = 500) -> "MinchiateState":
        """A world consistent with ``observation(seat)``: the unplaced cards (:meth:`_unplaced`) dealt anew,
        exactly uniformly (:func:`cardlab.sim.worlds.plan_deal_nb`), then the deal rebuilt as a pack and
        replayed through the rules; a world that breaks a rule or shows ``seat`` something else (a
        declaration, say) is drawn again (a rejection step on top of the uniform draw)."""
        from cardlab.sim.worlds import P_ASSIGN, draw_deal_nb, plan_deal_nb

        holders, unplaced = self._unplaced(seat)
        cards = np.array(sorted(unplaced), np.int64)
        allowed = np.array([sum(1 << h for h in unplaced[c]) for c in cards], np.int64)
        need = np.array([len(held & unplaced.keys()) for held in holders], np.int64)
        plan = plan_deal_nb(cards, allowed, len(cards), need, len(holders))
        seen = self.observation(seat)
        for _ in range(tries):
            draw_deal_nb(np.uint64(rng.integers(1 << 63)), plan)
            now = [set(h) - unplaced.keys() for h in holders]
            for c, h in zip(cards.tolist(), plan[P_ASSIGN].tolist()):
                now[h].add(int(c))
            world = self._replayed(seat, now)
            if world is not None and world.observation(seat) == seen:
                return world
        raise RefereeError(f"resample: no world for seat {seat} in {tries} draws")

    def _replayed(self, seat: int, now: list):
        """The deal whose holders hold ``now`` at this point, as a pack (each hand's packets with its exposed
        card last and a first card the cutter would not have drawn), its decisions replayed through the rules;
        None if the world breaks one."""
        discards = {p: list(self.discards[p]) if self.discards_seen(seat, p) else sorted(now[pile])
                    for p, pile in ((self.cutter, CUTTER_PILE), (self.dealer, DEALER_PILE))}
        packets = []
        for j in range(1, 5):
            p = (self.dealer + j) % 4
            cards = now[p] | {c for s, c, _ in self.plays if s == p} | set(discards.get(p, []))
            cards -= set(self.cutter_draw if p == self.cutter else self.dealer_draw if p == self.dealer else [])
            last = self.exposed.get(p, max(cards))
            first = [] if j > 1 or len(self.cutter_draw) == self.options.cutter_cap else \
                [min((c for c in cards - {last} if not qualifies(c, self.options.steal_29)), default=last)]
            packets.append(first + sorted(cards - {last} - set(first)) + [last])
        perm = self.cutter_draw + [c for pk in packets for c in pk[:10]] + [c for pk in packets for c in pk[10:]] \
            + self.fola
        taken = {p: iter(d) for p, d in discards.items()}
        try:
            world = MinchiateState(self.options, self.deal, perm, study=self.study)
            for p, kind, v in self.actions:
                world.check(p, kind, next(taken[p]) if kind == "discard" else v)
        except RefereeError:
            return None
        return world

    # ---------------------------------------------------------------- the result

    def scores(self) -> list:
        """Each seat's net resti: its team's resti minus the other team's (one number per seat)."""
        resti = self.end["resti"] if self.end else self.ledger.resti
        return [(resti[0] - resti[1]) * (1 if p % 2 == 0 else -1) for p in range(4)]

    def deck_cards(self) -> list[int]:
        return list(range(N_CARDS))

    card_name = staticmethod(card_name)

    def summary(self) -> dict:
        """The deal's record in card ids, so far (the whole of it once over): :func:`json_record` and
        :func:`describe` write it."""
        end = self.end or {"paid": None, "pile_combos": [[], []], "resti": list(self.ledger.resti)}
        led = self.ledger
        return copy.deepcopy({
            "deal": self.deal, "dealer": self.dealer, "cutter": self.cutter, "cutter_draw": self.cutter_draw,
            "hands": self.dealt, "exposed": {str(p): c for p, c in self.exposed.items()}, "fola": self.fola,
            "fola_after": sorted(self.fola_after), "dealer_draw": self.dealer_draw,
            "dealer_scored": self.dealer_scored, "discards": [sorted(self.discards.get(p, [])) for p in range(4)],
            "declarations": [[{"kind": cb.kind, "cards": list(cb.cards), "value": cb.value}
                              for cb in self.shown.get(p, [])] for p in range(4)],
            "tricks": self.tricks, "tricks_won": self.tricks_won, "matto_paid": end["paid"],
            "pile_combinations": [[{"kind": cb.kind, "cards": list(cb.cards), "value": cb.value} for cb in t]
                                  for t in end["pile_combos"]],
            "pile_sizes": [len(self.piles[0]), len(self.piles[1])], "sources": led.sources,
            "points": [sum(led.sources[t].values()) for t in range(2)], "resti": end["resti"],
            "net_resti": end["resti"][0] - end["resti"][1], "events": led.events, "actions": self.actions,
        })

    def record(self) -> dict:
        return json_record(self.summary())


def referee_deal(options: MinchiateOptions, deal: int, perm, cutter_discards, dealer_discards, declared,
                 plays) -> dict:
    """Replay and check one deal's kernel log through :class:`MinchiateState`: the pack, the cutter's and the
    dealer's discards (-1 padded), each seat's declared value and the 84 cards in play order. Returns the
    deal's record in card ids (:meth:`MinchiateState.summary`); raises :class:`RefereeError`."""
    state = MinchiateState(options, deal, perm)
    for p, logged in ((state.cutter, cutter_discards), (state.dealer, dealer_discards)):
        for c in logged:
            if c >= 0:
                state.check(p, "discard", int(c))
    for j in range(1, 5):
        p = (state.dealer + j) % 4
        state.check(p, "declare", int(declared[p]))
    plays = [int(c) for c in plays]
    _check(len(plays) == 84, "84 cards played")
    for c in plays:
        state.check(state.current_player, "play", c)
    return state.summary()


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
        "actions": [{"seat": p, **action_of(kind, v).entry} for p, kind, v in rec["actions"]],
        "scores": [rec["net_resti"] * (1 if p % 2 == 0 else -1) for p in range(4)],
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
