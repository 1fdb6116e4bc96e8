"""Plain-Python Hearts referee and step API: the rules move by move, from ``docs/rules/hearts.md`` alone.

:class:`HeartsState` is a deal in progress (:mod:`cardlab.sim.state`), written with sets and plain loops and
sharing nothing with the kernels but the card numbering; :func:`check_log` runs a kernel's move log
through it, so agreement between the two is evidence that both are right. Its moves are OpenSpiel's, one
card at a time: each seat in turn (seat 0 first) passes three cards, one action each (``pass Q♠``, id
``64 + card``), then the 52 cards are played (``Q♠``, id the card id). Three or five players play the same way with
the deck the options name (``rules.REMOVED``: 51 or 50 cards), the lowest club dealt leading.
"""
from __future__ import annotations

import copy

import numpy as np

from cardlab.sim.cards import (CLUBS, HEARTS, SUIT_SYMBOLS, card_name, cards_of, mask_of, parse_card, rank_of,
                               suit_of)
from cardlab.sim.hearts.rules import (AVOID_ALL_TRICKS_POINTS, JACK_DIAMONDS, PASS, PASS_ID, QUEEN_SPADES, REMOVED,
                                      HeartsOptions, pass_name, pass_offset)
from cardlab.sim.replay import hand_names
from cardlab.sim.state import Action, State, shown_absent


class RefereeError(AssertionError):
    """A move log that breaks the rules, or a row that does not match them."""


def play_action(c: int) -> Action:
    """Play card ``c``: id the card id, name ``Q♠``."""
    return Action(int(c), card_name(c), {"kind": "play", "card": card_name(c)})


def pass_action(c: int) -> Action:
    """Pass card ``c``: id ``64 + c``, name ``pass Q♠``."""
    return Action(PASS_ID + int(c), f"pass {card_name(c)}", {"kind": "pass", "card": card_name(c)})


def penalty(c: int, options: HeartsOptions) -> int:
    """What taking card ``c`` costs: 1 a heart, ``queen_points`` (13) the Q♠, minus ``jack_points`` (10) the J♦ with
    ``jd_bonus``, else 0."""
    if suit_of(c) == HEARTS:
        return 1
    if c == QUEEN_SPADES:
        return options.queen_points
    return -options.jack_points if options.jd_bonus and c == JACK_DIAMONDS else 0


class HeartsState(State):
    """One Hearts deal in progress.

    * **Passing** (unless the deal's direction is ``none``): seat 0 passes three cards, one move each, then
      seats 1, 2 and 3 (and 4, with five); a passed card leaves the hand at once; once every seat's are chosen each
      seat's three go to seat + offset, modulo the players (1 left, 2 across, 3 right; the last seat is the right).
    * **Play**: the 2♣'s holder leads (the lowest club dealt: the 3♣ with five players, who play without the 2♣);
      the legal cards are :meth:`legal_cards`'; the trick has a card from each seat; the highest card of the led
      suit takes the trick, and its seat leads the next.
    * **Score** (:meth:`scores`): each seat's hearts and Q♠ (and J♦ with ``jd_bonus``); a seat that took all
      14 penalty cards scores their worth (26) less and every other seat that much more (with
      ``moon_scoring="shooter_subtracts"``: the shooter scores -26, the others nothing more); without a moon and with
      ``avoid_all_tricks_bonus``, -5 to a seat that took no trick.

    A seat sees its own hand, the cards it passed and, once all have passed, the cards it received; every
    card played. It does not see the others' hands nor what they passed to each other.
    """

    def __init__(self, options: HeartsOptions, hands, *, deal: int = 0, offset: int | None = None, study=None):
        """``hands``: the dealt hands, one a player (sets of card ids, or bitmasks); ``offset``: where the passes go
        (default: deal ``deal``'s direction under ``options``)."""
        self.options, self.deal, self.study = options, int(deal), study
        self.players = options.players
        self.dealt = [set(cards_of(int(h))) if not isinstance(h, (set, list, tuple, frozenset)) else set(h)
                      for h in hands]
        check_hands(self.dealt, options)
        self.lead_card = min(c for h in self.dealt for c in h if suit_of(c) == CLUBS)
        self.offset = pass_offset(options, deal) if offset is None else int(offset)
        self.hands = [set(h) for h in self.dealt]
        self.passed = [[] for _ in range(self.players)]  # each seat's passed cards, in the order chosen
        self.passing = self.offset != 0
        self.entries = []  # the moves as record entries
        self.trick = []  # (seat, card) of the trick under way
        self.tricks = []  # finished tricks: (leader, [(seat, card)...], winner)
        self.taken = [set() for _ in range(self.players)]
        self.broken = not options.must_break_hearts
        self.played = 0
        self.leader = None if self.passing else self._two_clubs_holder()
        self.search_key = (self.deal, 0)

    # ---------------------------------------------------------------- the rules

    def _two_clubs_holder(self) -> int:
        """The seat holding the lead card (the 2♣, or the lowest club dealt)."""
        return next(p for p in range(self.players) if self.lead_card in self.hands[p])

    @property
    def is_over(self) -> bool:
        return self.played == sum(len(h) for h in self.dealt)

    @property
    def current_player(self) -> int:
        if self.is_over:
            return -1
        if self.passing:
            return sum(len(p) for p in self.passed) // PASS
        return (self.leader + len(self.trick)) % self.players

    def legal_cards(self) -> set:
        """The cards the seat to play may play: follow the led suit when able; the deal's first card is the 2♣ (the
        lowest club dealt; any club with ``can_lead_any_club``); on the first trick no heart nor Q♠ while the seat holds another card
        (``no_pts_on_first_trick``); a leader may not lead a heart before hearts are broken while it holds another
        card (with ``can_lead_hearts_instead_of_qs``, a leader holding only the Q♠ besides hearts may lead either);
        otherwise any card."""
        hand = self.hands[self.current_player]
        o = self.options
        if self.trick:
            led = suit_of(self.trick[0][1])
            follow = {c for c in hand if suit_of(c) == led}
            if follow:
                return follow
        if self.played == 0:
            return {c for c in hand if suit_of(c) == CLUBS} if o.can_lead_any_club else {self.lead_card}
        if o.no_pts_on_first_trick and not self.tricks:
            clean = {c for c in hand if suit_of(c) != HEARTS and c != QUEEN_SPADES}
            if clean:
                return clean
        if not self.trick:
            allowed = set(hand) if self.broken else {c for c in hand if suit_of(c) != HEARTS}
            if o.can_lead_hearts_instead_of_qs and allowed == {QUEEN_SPADES}:
                allowed = set()
            if allowed:
                return allowed
        return set(hand)

    def legal_actions(self) -> list[Action]:
        if self.is_over:
            return []
        if self.passing:
            return [pass_action(c) for c in sorted(self.hands[self.current_player])]
        return [play_action(c) for c in sorted(self.legal_cards())]

    def why_illegal(self, move) -> str:
        """The rule a card breaks now, in a few words (``cardlab play``'s refusal)."""
        if self.is_over:
            return ""
        try:
            c = move.id if isinstance(move, Action) else int(move) if isinstance(move, int) else \
                parse_card(str(move).removeprefix("pass").strip())
        except (ValueError, IndexError):
            return ""
        c = c - PASS_ID if c >= PASS_ID else c
        seat, hand = self.current_player, self.hands[self.current_player]
        if c not in hand:
            return f"seat {seat} does not hold {card_name(c)}" if 0 <= c < 64 else ""
        if self.passing:
            return ""
        if self.trick and any(suit_of(x) == suit_of(self.trick[0][1]) for x in hand):
            return f"a seat holding {SUIT_SYMBOLS[suit_of(self.trick[0][1])]} must follow suit"
        if self.played == 0:
            return f"the {card_name(self.lead_card)} leads the first trick" + ("" if not self.options.can_lead_any_club else " (or a club)")
        if not self.tricks and self.options.no_pts_on_first_trick:
            return "no heart or Q♠ on the first trick (no_pts_on_first_trick)"
        return "hearts may not be led before they are broken (must_break_hearts)"

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        self.entries.append({"seat": seat, **action.entry})
        if self.passing:
            c = action.id - PASS_ID
            self.hands[seat].remove(c)
            self.passed[seat].append(c)
            if sum(len(p) for p in self.passed) == self.players * PASS:
                for p in range(self.players):
                    self.hands[(p + self.offset) % self.players].update(self.passed[p])
                self.passing = False
                self.leader = self._two_clubs_holder()
            return
        c = action.id
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        self.played += 1
        if suit_of(c) == HEARTS or (self.options.qs_breaks_hearts and c == QUEEN_SPADES):
            self.broken = True
        if len(self.trick) == self.players:
            led = suit_of(self.trick[0][1])
            winner = max((x for x in self.trick if suit_of(x[1]) == led), key=lambda x: rank_of(x[1]))[0]
            self.tricks.append((self.leader, self.trick, winner))
            self.taken[winner].update(c for _, c in self.trick)
            self.leader, self.trick = winner, []

    def points(self) -> list:
        """Each seat's points from the cards it has taken so far (no moon, no bonus)."""
        return [sum(penalty(c, self.options) for c in t) for t in self.taken]

    def moon(self) -> int:
        """The seat that shot the moon (took every heart and the Q♠), -1 if none (or the deal is not over)."""
        if not self.is_over:
            return -1
        penalty_cards = {c for c in range(64) if suit_of(c) == HEARTS and rank_of(c) < 13} | {QUEEN_SPADES}
        return next((p for p in range(self.players) if penalty_cards <= self.taken[p]), -1)

    def scores(self) -> list:
        """Each seat's points: the cards taken so far; once the deal is over, with the moon or the no-trick bonus."""
        points = self.points()
        if not self.is_over:
            return points
        shooter = self.moon()
        for p in range(self.players):
            if shooter >= 0 and self.options.moon_scoring == "shooter_subtracts":
                points[p] -= 2 * self.options.moon if p == shooter else 0
            elif shooter >= 0:
                points[p] += -self.options.moon if p == shooter else self.options.moon
            elif self.options.avoid_all_tricks_bonus and not any(w == p for _, _, w in self.tricks):
                points[p] += AVOID_ALL_TRICKS_POINTS
        return points

    # ---------------------------------------------------------------- what a seat knows

    def received(self, seat: int) -> list:
        """The cards ``seat`` received, once every seat has passed (empty before, and without passing)."""
        if self.offset == 0 or self.passing:
            return []
        return sorted(self.passed[(seat - self.offset) % self.players])

    def observation(self, seat: int) -> dict:
        """What ``seat`` knows: its hand, the cards it passed and received, every move with the other seats' passed
        cards hidden, the tricks each seat has taken, the points so far, whether hearts are broken."""
        actions = [e if e["kind"] == "play" or e["seat"] == seat else {"seat": e["seat"], "kind": "pass"}
                   for e in self.entries]
        return {"seat": seat, "pass_direction": pass_name(self.offset, self.players),
                "hand": hand_names(self.hands[seat]),
                "passed": [card_name(c) for c in self.passed[seat]],
                "received": [card_name(c) for c in self.received(seat)], "actions": [dict(a) for a in actions],
                "hand_sizes": [len(h) for h in self.hands], "tricks_taken": [sum(w == p for *_, w in self.tricks)
                                                                             for p in range(self.players)],
                "points": self.points(), "hearts_broken": self.broken, "to_move": self.current_player}

    def known(self, seat: int) -> dict:
        """Card -> seat for the cards ``seat`` knows the holder of besides its own: those it passed, not yet played."""
        if self.passing:
            return {}
        receiver = (seat + self.offset) % self.players
        return {c: receiver for c in self.passed[seat] if c in self.hands[receiver]}

    def hidden_cards(self, seat: int) -> list[int]:
        """The cards in other seats' hands (and their pending passes) ``seat`` cannot place."""
        pending = {c for p in range(self.players) if p != seat and self.passing for c in self.passed[p]}
        held = {c for p in range(self.players) if p != seat for c in self.hands[p]}
        return sorted((held | pending) - set(self.passed[seat]))

    def excluded(self, seat: int) -> list[set]:
        """Per seat, the unplaced cards its plays showed it cannot hold (:func:`~cardlab.sim.state.shown_absent` on
        the deal replayed from the start: a suit it showed out of ...)."""
        replay = HeartsState(self.options, self.dealt, deal=self.deal, offset=self.offset)
        return shown_absent(replay, (replay.action(e) for e in self.entries), seat, set(self.hidden_cards(seat)),
                            lambda action: action.entry["kind"] == "play")

    def resample(self, seat: int, rng) -> "HeartsState":
        """A copy whose cards hidden from ``seat`` are redealt exactly uniformly among the deals consistent with its
        observation (:func:`cardlab.sim.worlds.sample_world_nb`): every seat keeps its hand size, the cards ``seat``
        passed stay with their receiver, no seat gets a card it has shown it cannot hold. Only the play is
        resampled: during the passing the copy is the same deal."""
        from cardlab.sim.worlds import sample_world_nb

        out = self.clone()
        if self.passing:
            return out
        n = self.players
        known = self.known(seat)
        excluded = self.excluded(seat)
        for c, holder in known.items():
            for p in range(n):
                if p != holder:
                    excluded[p].add(c)
        hands = np.array([mask_of(h) for h in self.hands], np.uint64)
        world = np.zeros(n, np.uint64)
        sample_world_nb(rng.integers(2 ** 63, dtype=np.uint64), seat, n, hands,
                        np.array([mask_of(x) for x in excluded], np.uint64), world, 0)
        played = [{c for _, t, _ in self.tricks for q, c in t if q == p} | {c for q, c in self.trick if q == p}
                  for p in range(n)]
        for p in range(n):
            out.hands[p] = set(cards_of(int(world[p])))
        # The passes the seat did not see are redrawn among the receiver's cards (its hand and the cards it played),
        # so that the copy's history stays a deal that could have been: dealt = held + played + passed - received.
        for p in range(n):
            r = (p + self.offset) % n
            if self.offset and seat not in (p, r):
                pool = sorted((out.hands[r] | played[r]) - set(self.passed[seat]))
                out.passed[p] = [int(c) for c in rng.choice(pool, PASS, replace=False)]
        for p in range(n):
            got = set(out.passed[(p - self.offset) % n]) if self.offset else set()
            out.dealt[p] = (out.hands[p] | played[p] | set(out.passed[p] if self.offset else ())) - got
        out.entries = [e if e["kind"] == "play" else {**e, "card": card_name(out.passed[e["seat"]][i % PASS])}
                       for i, e in enumerate(self.entries)]
        return out

    def clone(self) -> "HeartsState":
        """An independent copy; the study and the options (immutable) are shared, not copied."""
        return copy.deepcopy(self, {id(self.study): self.study, id(self.options): self.options})

    def deck_cards(self) -> list[int]:
        return sorted(c for h in self.dealt for c in h)

    def record(self) -> dict:
        """The deal's JSON record: ``deal``, ``pass_direction``, the dealt ``hands``, every move (``actions``), the
        final ``scores`` (once over), the ``moon`` shooter (or null)."""
        out = {"deal": self.deal, "pass_direction": pass_name(self.offset, self.players),
               "hands": [hand_names(h) for h in self.dealt], "actions": [dict(e) for e in self.entries],
               "scores": self.scores()}
        if self.is_over:
            out["moon"] = None if self.moon() < 0 else self.moon()
        return out

    # ---------------------------------------------------------------- the built-in seats

    builtin_policies = ("random", "heuristic", "search", "oracle")
    #: The searcher's stream key and first decision in the kernels: (deal, 0) for deal ``deal`` of a run; (game, 64 k)
    #: for deal ``k`` of whole game ``game``.
    search_key = (0, 0)

    def search_means(self, worlds: int) -> dict | None:
        """The kernels' search at this card (:func:`cardlab.sim.hearts.state_policies.searched_move`); None while
        passing or with one legal card."""
        from cardlab.sim.hearts.state_policies import searched_move

        if self.is_over or self.passing or len(self.legal_actions()) < 2:
            return None
        return searched_move(self, "search", worlds)[1]

    def _policy_action(self, policy: str) -> Action:
        """The kernels' own decision here (:mod:`cardlab.sim.hearts.policies`)."""
        from cardlab.sim.hearts.state_policies import policy_action

        return policy_action(self, policy)


def check_hands(hands: list, options: HeartsOptions) -> None:
    """One hand a player, every card of the 52 once (but the 2♦ with three players, the 2♦ and 2♣ with five), the
    same number in each: four hands of 13, three of 17, five of 10."""
    n = options.players
    deck = sorted(16 * s + r for s in range(4) for r in range(13) if 16 * s + r not in REMOVED[n])
    size = len(deck) // n
    if len(hands) != n or any(len(h) != size for h in hands):
        raise RefereeError(f"hands have sizes {[len(h) for h in hands]}, expected {n} hands of {size}")
    if sorted(c for h in hands for c in h) != deck:
        raise RefereeError("the hands do not hold every card of the deck exactly once")


def check_log(options: HeartsOptions, deal: int, hands, log, offset: int | None = None) -> HeartsState:
    """Replay a kernel's move log (``HeartsOptions.log_width`` entries: three passes a player, -1 without passing,
    then every card of the deal: 12 and 52 with four) from the dealt ``hands`` (bitmasks) through a
    :class:`HeartsState`; raises :class:`RefereeError` on an illegal move."""
    state = HeartsState(options, [int(h) for h in hands], deal=deal, offset=offset)
    moves = [int(m) for m in log]
    plays = PASS * state.players
    passes = moves[:plays]
    if state.passing:
        moves = [PASS_ID + c for c in passes] + moves[plays:]
    else:
        if any(c >= 0 for c in passes):
            raise RefereeError(f"deal {deal}: the log passes cards in a deal without passing")
        moves = moves[plays:]
    for m in moves:
        legal = {a.id: a for a in state.legal_actions()}
        if m not in legal:
            shown = ", ".join(a.name for a in legal.values())
            raise RefereeError(f"deal {deal}: seat {state.current_player} moved {m}; legal were {shown}")
        state._apply(legal[m])
    if not state.is_over:
        raise RefereeError(f"deal {deal}: the log ends before the deal does")
    return state


def describe(state: HeartsState) -> str:
    """The deal move by move, readable: the hands, the passes, each trick and its taker, the scores."""
    lines = [f"deal {state.deal}: passing {pass_name(state.offset, state.players)}"]
    for p, hand in enumerate(state.dealt):
        lines.append(f"  seat {p}: " + " ".join(hand_names(hand)))
    if state.offset:
        for p in range(state.players):
            lines.append(f"  seat {p} passes " + " ".join(card_name(c) for c in state.passed[p])
                         + f" to seat {(p + state.offset) % state.players}")
    for t, (leader, cards, winner) in enumerate(state.tricks, 1):
        played = "  ".join(f"S{seat} {card_name(c):>3}" for seat, c in cards)
        points = sum(penalty(c, state.options) for _, c in cards)
        lines.append(f"trick {t:2d}: {played}  -> seat {winner}" + (f" ({points:+d})" if points else ""))
    if state.moon() >= 0:
        lines.append(f"seat {state.moon()} shoots the moon")
    lines.append("scores: " + "  ".join(f"seat {p}: {s}" for p, s in enumerate(state.scores())))
    return "\n".join(lines)
