"""Plain-Python Euchre-for-five referee: replays a hand's action log, checks every action, rescores it.

Written from the rules with sets and plain loops: its own effective suits and card order,
nothing shared with the kernels but the card numbering and the options object, so agreement
between the two is evidence that both are right. It checks the deal (28 distinct cards, five
hands of five, a kitty of three), the order of the bidding, round one (pass or accept), the
dealer's discard, round two (another suit; a stuck dealer may not pass), the call (the call
rule, never the upcard, the maker's own card only when allowed), every card played (held, and
of the led effective suit when the player has one), and the §6 score. Whole games: the dealer
rotation, the end at the target and the tie rule (:func:`check_game`).

The rules live in one place, :class:`Euchre5State` (the step API of :mod:`cardlab.sim.state`):
:func:`check_hand` plays a log through it, each logged action first checked to be one of the
state's legal actions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from cardlab.sim.cards import SUIT_SYMBOLS, card_name, cards_of, parse_card
from cardlab.sim.euchre5.rules import ACTION_KINDS, ALONE_NAMES, FIXED_IDS, ID_BASE, KITTY, Euchre5Options
from cardlab.sim.replay import hand_names
from cardlab.sim.state import Action, State

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
        return (options.march_points, options.lone_march_points, options.forced_alone_march_points)[alone], 0
    if tricks >= 3:
        return (options.maker_points, options.alone_points, options.alone_points)[alone], 0
    return 0, options.defender_points[1] if tricks == 0 else options.defender_points[0]


KITTY_HOLDER = N  # resample's holders: the five seats, then the kitty


@lru_cache(maxsize=None)
def action_of(kind: str, value: int = -1) -> Action:
    """The :class:`~cardlab.sim.state.Action` of a move: ``value`` is the card (play, discard, call) or
    the suit (name); pass, accept and alone carry none. One object per move (its entry is shared: read it)."""
    if kind in FIXED_IDS:
        return Action(FIXED_IDS[kind], kind, {"kind": kind})
    if kind == "name":
        return Action(ID_BASE[kind] + value, f"name {SUIT_SYMBOLS[value]}", {"kind": kind, "suit": SUIT_SYMBOLS[value]})
    name = card_name(value)
    return Action(ID_BASE[kind] + value, name if kind == "play" else f"{kind} {name}", {"kind": kind, "card": name})


def value_of(action: Action) -> int:
    """The card or suit of an action (-1 for pass, accept and alone)."""
    kind = action.entry["kind"]
    return action.id - ID_BASE[kind] if kind in ID_BASE else -1


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
    actions: list = field(default_factory=list)  # (seat, kind, value) of every action, in order

    @property
    def bids(self) -> list:
        """The bidding, the exchange and the call: every action but the card play."""
        return [a for a in self.actions if a[1] != "play"]

    def row(self) -> dict:
        """The kernel's columns for this hand."""
        return dict(dealer=self.dealer, maker=self.maker, trump=self.trump, round=self.round, alone=self.alone,
                    partner=self.partner, maker_tricks=self.maker_tricks, called=self.called,
                    **{f"score_{p}": s for p, s in enumerate(self.scores)})


class Euchre5State(State):
    """One hand of Euchre for five, move by move (:mod:`cardlab.sim.state`); the rules of
    ``docs/rules/euchre5.md``, one decision at a time:

    * **round one** (§3), from the dealer's left to the dealer: ``pass`` or ``accept`` the upcard's
      suit; after an acceptance the dealer takes the upcard into its hand;
    * **round two**: ``pass`` or ``name ♥`` (any suit but the upcard's); a stuck dealer may not pass
      (``stick_the_dealer``), otherwise a tenth pass ends the hand void;
    * **exchange** (after round one): the dealer's ``discard K♥``, any of its six cards (the upcard
      only with ``dealer_may_discard_upcard``);
    * **call** (§4, after the exchange, or before it with ``call_before_exchange``): the maker's
      ``call A♠`` (:func:`callable_cards`) or ``alone``; the holder of the called card after the
      exchange is the partner, a called card in the kitty leaves the maker forced alone;
    * **play** (§5): ``K♥``, a card of the led effective suit if held (:func:`legal_cards`); the
      trick goes to :func:`trick_winner`, and after five tricks the hand is scored (§6, :func:`points`).

    Ids (:data:`ID_BASE`, :data:`FIXED_IDS`): a card played is its card id, ``discard`` 64 + card,
    ``call`` 128 + card, ``name`` 192 + suit, ``pass`` 196, ``accept`` 197, ``alone`` 198.

    A seat sees its own hand, the upcard, every bid, the call and every card played, but not another
    seat's discard; it learns the partner when the called card falls (the partner knows at once).
    :meth:`resample` deals the cards a seat has not seen, and the ones it knows only by name (the
    called card until it falls; the upcard once the dealer may have buried it), with
    :mod:`cardlab.sim.worlds`' exactly uniform sampler, respecting hand sizes, the suits a seat
    showed out of and the maker's not holding the card it called; a non-dealer's world picks the
    dealer's discard among the kitty's cards. The referee (:func:`check_hand`) plays a kernel's log
    through this class.
    """

    def __init__(self, options: Euchre5Options, dealer: int, hands, kitty, *, forced=None, study=None, deal=0):
        """The hand as dealt: ``hands`` five masks or card sets, ``kitty`` three cards (the upcard first);
        ``forced=(maker, trump)`` skips the bidding (the trump study). :class:`RefereeError` for a bad deal."""
        held = [set(cards_of(h)) if isinstance(h, int) or hasattr(h, "dtype") else {int(c) for c in h} for h in hands]
        kitty = [int(c) for c in kitty]
        seen = [c for h in held for c in h] + kitty
        if len(held) != N or any(len(h) != 5 for h in held) or len(kitty) != 3 or sorted(seen) != sorted(DECK):
            raise RefereeError("deal: expected five hands of five and a kitty of three, every one of the 28 cards once")
        self.options, self.study, self.deal, self.forced = options, study, deal, forced
        self.hand = Hand(dealer, [set(h) for h in held], kitty)
        self.held, self.kitty_now, self.upcard = held, set(kitty), kitty[0]
        self.phase = "round one"  # round one, round two, exchange, call, play, over
        self.bidder = 0  # how many seats have bid in this round
        self.own = None  # after the call: whether the maker plays alone by choice
        self.leader, self.trick = (dealer + 1) % N, []
        if forced is not None:
            maker, trump = forced
            self._make(maker, trump, 1 if trump == self.upcard // 16 else 2)

    builtin_policies = ("random", "heuristic", "search", "oracle")
    search_key = None  # (unit, first decision) of a search seat's streams: (deal, 0) unless a whole game's hand

    def search_means(self, worlds: int) -> dict | None:
        """The kernels' search at this decision (:func:`cardlab.sim.euchre5.state_policies.searched_move`); None
        where the seat has one choice or the decision is a discard (the heuristic's)."""
        from cardlab.sim.euchre5.state_policies import searched_move

        if self.is_over:
            return None
        return searched_move(self, "search", worlds)[1] or None

    def _policy_action(self, policy: str) -> Action:
        """The kernels' own decision of a built-in seat here (:mod:`cardlab.sim.euchre5.state_policies`)."""
        from cardlab.sim.euchre5.state_policies import policy_action

        return policy_action(self, policy)

    # ---------------------------------------------------------------- whose turn, what is legal

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == "play":
            return (self.leader + len(self.trick)) % N
        if phase in ("round one", "round two"):
            return (self.hand.dealer + 1 + self.bidder) % N
        return self.hand.dealer if phase == "exchange" else self.hand.maker if phase == "call" else -1

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def stuck(self) -> bool:
        """The dealer bidding last in round two under stick-the-dealer: it may not pass."""
        return self.phase == "round two" and self.bidder == N - 1 and self.options.stick_the_dealer

    def legal_actions(self) -> list[Action]:
        h, o = self.hand, self.options
        if self.phase == "round one":
            return [action_of("pass"), action_of("accept")]
        if self.phase == "round two":
            return [action_of("pass")] * (not self.stuck()) + \
                [action_of("name", s) for s in range(4) if s != self.upcard // 16]
        if self.phase == "exchange":
            return [action_of("discard", c) for c in sorted(self.held[h.dealer])
                    if c != self.upcard or o.dealer_may_discard_upcard]
        if self.phase == "call":
            return [action_of("call", c) for c in sorted(callable_cards(o, self.held[h.maker], h.trump, self.upcard))] \
                + [action_of("alone")]
        if self.phase == "play":
            return [action_of("play", c) for c in sorted(legal_cards(self.held[self.current_player], self.trick,
                                                                       h.trump))]
        return []

    def where(self) -> str:
        """The step the hand is at, as the referee's messages name it."""
        if self.phase == "play":
            return f"trick {len(self.hand.tricks) + 1}"
        return "round two (stick the dealer)" if self.stuck() else self.phase

    def why(self, kind: str, value: int) -> str:
        """The rule a move of a legal kind breaks with this card or suit."""
        seat = self.current_player
        if kind == "play":
            name = card_name(value)
            return f"played {name} but " + ("does not hold it" if value not in self.held[seat]
                                            else "must follow the led effective suit")
        if kind == "discard":
            return f"(the dealer) cannot discard {card_name(value)}" + \
                (" (the upcard stays)" if value == self.upcard else " (not in its hand)")
        if kind == "call":
            return f"called {card_name(value)}, which the call rule {self.options.call_rule!r} does not allow here"
        if kind == "name":
            return f"named suit {value}; the upcard's suit {SUIT_SYMBOLS[self.upcard // 16]} is barred"
        return ""

    def why_illegal(self, move) -> str:
        entry = move.entry if isinstance(move, Action) else move if isinstance(move, dict) else {}
        kind = entry.get("kind")
        if self.is_over or kind not in {a.entry["kind"] for a in self.legal_actions()} or kind not in ID_BASE:
            return ""
        try:
            value = parse_card(entry["card"]) if "card" in entry else SUIT_SYMBOLS.index(entry["suit"])
        except (KeyError, ValueError):
            return ""
        return self.why(kind, value)

    # ---------------------------------------------------------------- moves

    def _apply(self, action: Action) -> None:
        h, seat, kind, value = self.hand, self.current_player, action.entry["kind"], value_of(action)
        h.actions.append((seat, kind, value))
        if kind == "accept":
            self._make(seat, self.upcard // 16, 1)
        elif kind == "name":
            self._make(seat, value, 2)
        elif kind == "pass":
            self.bidder += 1
            if self.bidder == N:
                self.phase, self.bidder = ("round two", 0) if self.phase == "round one" else ("over", 0)
        elif kind == "discard":
            self.held[h.dealer].remove(value)
            self.kitty_now.add(value)
            h.discard = value
            self.phase = "call" if self.own is None else self._settle()
        elif kind in ("call", "alone"):
            h.called = value if kind == "call" else -1
            self.own = kind == "alone" or value in self.held[h.maker]
            self.phase = "exchange" if h.round == 1 and h.discard < 0 else self._settle()
        else:
            self._play(seat, value)

    def _make(self, maker: int, trump: int, rnd: int) -> None:
        """Trump is made: in round one the dealer takes the upcard, and the exchange or the call follows."""
        h = self.hand
        h.maker, h.trump, h.round = maker, trump, rnd
        if rnd == 1:
            self.held[h.dealer].add(self.upcard)
            self.kitty_now.discard(self.upcard)
        self.phase = "exchange" if rnd == 1 and not self.options.call_before_exchange else "call"

    def _settle(self) -> str:
        """After the call and the exchange: alone by choice (no card called, or its own), forced alone (the
        called card is in the kitty), or partnered with the called card's holder. Play begins."""
        h = self.hand
        if h.called < 0 or self.own:
            h.alone = 1
        elif h.called in self.kitty_now:
            h.alone = 2
        else:
            h.partner = next(p for p in range(N) if h.called in self.held[p])
        return "play"

    def _play(self, seat: int, card: int) -> None:
        """A card onto the trick; the fifth card gives the trick to its winner, who leads the next; the
        fifth trick ends the hand and scores it (§6)."""
        h = self.hand
        self.held[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < N:
            return
        winner = (self.leader + trick_winner(self.trick, h.trump)) % N
        h.tricks.append((self.leader, self.trick, winner))
        self.leader, self.trick = winner, []
        if len(h.tricks) == 5:
            h.maker_tricks = sum(w in (h.maker, h.partner) for _, _, w in h.tricks)
            attack, defend = points(self.options, h.alone, h.maker_tricks)
            h.scores = [attack if p in (h.maker, h.partner) else defend for p in range(N)]
            self.phase = "over"

    def check(self, seat: int, kind: str, value: int) -> None:
        """Apply one logged action ``(seat, kind name, value)``; :class:`RefereeError` naming the step and
        the rule when it is not the move of the seat to act or not legal."""
        if self.is_over:
            raise RefereeError("void hand: actions after the second round of passes" if self.hand.maker < 0
                               else "play: actions after the fifth trick")
        legal = self.legal_actions()
        kinds = list(dict.fromkeys(a.entry["kind"] for a in legal))
        if seat != self.current_player or kind not in kinds:
            raise RefereeError(f"{self.where()}: expected seat {self.current_player} to {' or '.join(kinds)}, "
                               f"the log has seat {seat} {kind}")
        key = (kind, int(value) if kind in ID_BASE else -1)
        action = next((a for a in legal if (a.entry["kind"], value_of(a)) == key), None)
        if action is None:
            raise RefereeError(f"{self.where()}: seat {seat} {self.why(kind, int(value))}")
        self._apply(action)

    # ---------------------------------------------------------------- what a seat knows

    def played(self) -> list:
        """Every card played so far, in order."""
        return [c for _, cards, _ in self.hand.tricks for c in cards] + self.trick

    def observation(self, seat: int) -> dict:
        h = self.hand
        revealed = h.called in self.played() or self.is_over or seat == h.partner
        return {"seat": seat, "dealer": h.dealer, "upcard": card_name(self.upcard),
                "hand": hand_names(self.held[seat]),
                "actions": [self._public(a, seat) for a in h.actions],
                "trump": SUIT_SYMBOLS[h.trump] if h.trump >= 0 else None, "maker": h.maker,
                "called": card_name(h.called) if h.called >= 0 else None,
                "partner": h.partner if revealed else None,
                "leader": self.leader, "trick": [card_name(c) for c in self.trick],
                "scores": h.scores if self.is_over else None}

    def _public(self, action: tuple, seat: int) -> dict:
        """An action as ``seat`` saw it: another seat's discard is face down."""
        s, kind, value = action
        if kind == "discard" and seat != s:
            return {"seat": s, "kind": kind}
        return {"seat": s, **action_of(kind, value).entry}

    def hidden_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` has not seen: not its own, not played, not the upcard or the called card
        (both named aloud), not its own discard."""
        h = self.hand
        seen = self.held[seat] | set(self.played()) | {self.upcard, h.called}
        if seat == h.dealer:
            seen.add(h.discard)
        return sorted(c for c in DECK if c not in seen)

    def _plays(self) -> list:
        """``(seat, the trick before its card, card)`` of every card played so far."""
        return [((leader + k) % N, cards[:k], c) for leader, cards, _ in self.hand.tricks + [(self.leader, self.trick, -1)]
                for k, c in enumerate(cards)]

    def could_hold(self, seat: int, card: int, plays: list) -> bool:
        """Whether ``seat`` may hold ``card`` after its ``plays`` (:meth:`_plays`): each card it played
        must have been legal from a hand holding ``card`` too (so it holds no suit it showed out of)."""
        return all(c in legal_cards({c, card}, trick, self.hand.trump) for s, trick, c in plays if s == seat)

    def _unplaced(self, seat: int) -> dict:
        """Card -> the holders (seats, :data:`KITTY_HOLDER`) that may hold it in ``seat``'s eyes, for every
        card whose place ``seat`` does not know (see the class docstring)."""
        h, o = self.hand, self.options
        holders = self.held + [self.kitty_now]
        known = {self.upcard} if h.round != 1 or seat == h.dealer or h.discard < 0 or \
            not o.dealer_may_discard_upcard else set()
        if seat == h.dealer:
            known.add(h.discard)
        plays = self._plays()
        out = {}
        for where, cards in enumerate(holders):
            for c in cards - known if where != seat else ():
                places = {p for p in range(N) if p != seat and self.could_hold(p, c, plays)} | {KITTY_HOLDER}
                if c == self.upcard:
                    places &= {h.dealer, KITTY_HOLDER}
                if c == h.called and not o.allow_call_own_card and seat != h.maker:
                    places.discard(h.maker)
                out[c] = places
        return out

    def resample(self, seat: int, rng, tries: int = 100) -> "Euchre5State":
        """A world consistent with ``observation(seat)``: the unplaced cards (:meth:`_unplaced`) dealt anew,
        exactly uniformly (:func:`cardlab.sim.worlds.plan_deal_nb`), then the hand replayed from that deal
        through the rules (a world whose replay breaks a rule, which the constraints leave possible only
        for a dealer's call before its exchange, is drawn again)."""
        from cardlab.sim.worlds import P_ASSIGN, draw_deal_nb, plan_deal_nb

        unplaced = self._unplaced(seat)
        holders = self.held + [self.kitty_now]
        cards = np.array(sorted(unplaced), np.int64)
        allowed = np.array([sum(1 << p for p in unplaced[c]) for c in cards], np.int64)
        need = np.array([len(held & unplaced.keys()) for held in holders], np.int64)
        plan = plan_deal_nb(cards, allowed, len(cards), need, N + 1)
        for _ in range(tries):
            draw_deal_nb(np.uint64(rng.integers(1 << 63)), plan)
            now = [set(held) - unplaced.keys() for held in holders]
            for c, where in zip(cards.tolist(), plan[P_ASSIGN].tolist()):
                now[where].add(int(c))
            world = self._replayed(seat, now, rng)
            if world is not None:
                return world
        raise RefereeError(f"resample: no world for seat {seat} in {tries} draws")

    def _replayed(self, seat: int, now: list, rng):
        """The hand dealt so that its holders hold ``now`` (five hands and the kitty) at this point, its
        actions replayed through the rules; None if the world breaks one."""
        h = self.hand
        discard = h.discard
        if discard >= 0 and seat != h.dealer:
            discard = self.upcard if self.upcard in now[KITTY_HOLDER] else int(rng.choice(sorted(now[KITTY_HOLDER])))
        dealt = [now[p] | {c for s, _, c in self._plays() if s == p} for p in range(N)]
        if h.round == 1:
            dealt[h.dealer] = (dealt[h.dealer] | {discard}) - {self.upcard, -1}
        kitty = [self.upcard] + sorted(now[KITTY_HOLDER] - {self.upcard, discard})
        world = Euchre5State(self.options, h.dealer, dealt, kitty, forced=self.forced, study=self.study,
                             deal=self.deal)
        world.search_key = self.search_key
        try:
            for s, kind, value in h.actions:
                world.check(s, kind, discard if kind == "discard" else value)
        except RefereeError:
            return None
        return world

    # ---------------------------------------------------------------- the result

    def scores(self) -> list:
        return list(self.hand.scores)

    def deck_cards(self) -> list[int]:
        return sorted(DECK)

    def record(self) -> dict:
        return hand_record(self.hand, self.deal)


def dealt_state(study, stream, dealer: int, deal: int) -> Euchre5State:
    """The hand the kernel deals from ``stream`` (:func:`~cardlab.sim.euchre5.kernels.deal_nb`), dealt by
    ``dealer``, as a state holding the stream after the deal for its random seats."""
    from cardlab.sim.euchre5.kernels import DECK as DEALT, deal_nb
    from cardlab.sim.state import as_stream

    hands, kitty = np.empty(N, np.uint64), np.empty(KITTY, np.int64)
    stream = deal_nb(np.uint64(stream), np.empty(DEALT.shape[0], np.int8), hands, kitty)
    state = Euchre5State(study.options, dealer, [int(h) for h in hands], kitty.tolist(), study=study, deal=deal)
    state.stream = as_stream(stream)
    return state


def next_hand(study, index: int, finished: list) -> Euchre5State | None:
    """The state of the next hand of whole game ``index`` after its ``finished`` hands (the step API's
    ``Game.next_deal``): a game's hands are dealt from one stream, ``(seed, game)``; its first draw picks the first
    dealer, then each hand carries the stream on, the deal passing clockwise, until :func:`game_over` (None then)."""
    from cardlab.sim.euchre5.search import GAME_DECISIONS
    from cardlab.sim.rng import below_n, deal_state
    from cardlab.sim.whole_games import game_totals

    if not finished:
        stream, dealer = below_n(np.uint64(deal_state(study.seed, index)), N)
        state = dealt_state(study, stream, int(dealer), 0)
    elif game_over(study.options, game_totals(finished), len(finished)):
        return None
    else:
        state = dealt_state(study, finished[-1].stream, (finished[-1].hand.dealer + 1) % N, len(finished))
    state.search_key = (index, state.deal * GAME_DECISIONS)  # hand h of game g searches from (seed, g, 64 h + n)
    return state


def check_hand(options: Euchre5Options, dealer: int, hands, kitty, actions, *, forced=None) -> Hand:
    """Replay one hand through :class:`Euchre5State`: ``hands`` five masks or card sets as dealt, ``kitty``
    three cards (upcard first), ``actions`` a list of ``(seat, kind name, value)``. ``forced=(maker, trump)``
    skips the bidding (the trump study). Returns the :class:`Hand`; raises :class:`RefereeError`."""
    state = Euchre5State(options, dealer, hands, kitty, forced=forced)
    for seat, kind, value in actions:
        state.check(seat, kind, value)
    if not state.is_over:
        raise RefereeError(f"{state.where()}: the log ends where seat {state.current_player} should act")
    return state.hand


def decode_log(log) -> list:
    """A kernel log ((rows, 3) of seat, kind id, value; -1 rows at the end) as (seat, kind name, value)."""
    actions = []
    for seat, kind, value in log.tolist() if hasattr(log, "tolist") else log:
        if kind < 0:
            break
        actions.append((int(seat), ACTION_KINDS[kind], int(value)))
    return actions


def game_over(options: Euchre5Options, totals: list, played: int) -> bool:
    """§7: a game ends after the first hand in which a seat reaches the target (``play_on``: and leads alone), or
    after ``max_hands`` hands (``played``: the hands played, ``totals``: the seats' points after them)."""
    top = max(totals)
    leaders = sum(t == top for t in totals)
    return played >= options.max_hands or top >= options.target and not (options.tie_rule == "play_on"
                                                                            and leaders > 1)


def check_game(options: Euchre5Options, first_dealer: int, hands: list) -> dict:
    """Check a whole game's sequence of checked :class:`Hand` results: the deal passes clockwise,
    and the game ends where :func:`game_over` says. Returns totals and each seat's win credit under the tie rule."""
    totals = [0] * N
    for h, hand in enumerate(hands):
        if hand.dealer != (first_dealer + h) % N:
            raise RefereeError(f"game: hand {h} dealt by seat {hand.dealer}, expected {(first_dealer + h) % N}")
        totals = [a + b for a, b in zip(totals, hand.scores)]
        last = h == len(hands) - 1
        if game_over(options, totals, h + 1) != last:
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
    return {"deal": deal, "dealer": hand.dealer,
            "hands": [[card_name(c) for c in sorted(h, key=lambda c: (c // 16, c % 16))] for h in hand.hands],
            "kitty": [card_name(c) for c in hand.kitty],
            "actions": [{"seat": seat, **action_of(kind, value).entry} for seat, kind, value in hand.actions],
            "maker": hand.maker, "trump": SUIT_SYMBOLS[hand.trump] if hand.trump >= 0 else None, "round": hand.round,
            "alone": hand.alone, "partner": hand.partner,
            "called": card_name(hand.called) if hand.called >= 0 else None, "maker_tricks": hand.maker_tricks,
            "scores": hand.scores}
