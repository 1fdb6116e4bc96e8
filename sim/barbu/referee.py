"""Plain-Python Barbu referee: replays a kernel's move log, checks every move, rescores the deal.

Written from ``docs/rules/barbu.md`` alone with sets and plain loops, sharing nothing with the
kernels but the card numbering and the §3 value table, so agreement between the two is
evidence that both are right. The rules live in :class:`TrickState`, the step API's state of a
trick contract (:mod:`cardlab.sim.state`): :func:`check_deal` runs a log through it, move by move.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from cardlab.sim.cards import (HEARTS, KING, ACE, QUEEN, card, card_name, cards_of, mask_of, parse_card, rank_of,
                               suit_of, SUIT_SYMBOLS)
from cardlab.sim.barbu.rules import BarbuOptions, item_values
from cardlab.sim.replay import action as record_action, hand_names, suit_name
from cardlab.sim.state import Action, State, shown_absent

KH = card(KING, HEARTS)
AH = card(ACE, HEARTS)
EARLY_STOP_CONTRACTS = ("no-hearts", "no-queens", "no-barbu")


class RefereeError(AssertionError):
    """A move log that breaks the rules, or scores that do not match them."""


@dataclass
class Trick:
    leader: int
    cards: list  # (seat, card id) in play order
    winner: int
    points: int


@dataclass
class Verdict:
    contract: str
    declarer: int
    hands: list  # initial hands, sets of card ids
    tricks: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    trump: int | None = None


def legal_cards(hand: set, trick: list, *, contract: str, options: BarbuOptions, hearts_played: bool,
                trump: int | None = None) -> set:
    """The cards ``hand`` may play onto ``trick`` (list of card ids so far), per §2, §4 and §7."""
    if not trick:
        restricted = options.hearts_lead != "anytime" and (
            contract in ("no-hearts", "no-barbu") or (contract == "salade" and options.hearts_lead_salade))
        others = {c for c in hand if suit_of(c) != HEARTS}
        if restricted and others and (options.hearts_lead == "only_if_forced" or not hearts_played):
            return others
        return set(hand)
    led = suit_of(trick[0])
    same = {c for c in hand if suit_of(c) == led}
    if trump is None:
        if same:
            return same
        if options.kh_forced_discard and contract in ("no-barbu", "salade") and KH in hand:
            return {KH}
        return set(hand)
    trumps = {c for c in hand if suit_of(c) == trump}
    played_trumps = [c for c in trick if suit_of(c) == trump]
    top = max(played_trumps, key=rank_of) if played_trumps else None
    higher = {c for c in trumps if top is not None and rank_of(c) > rank_of(top)}
    if led == trump:
        return (options.overtrump_on_trump_lead and higher) or trumps or set(hand)
    if same:
        return same
    if not trumps:
        return set(hand)
    # Void in the led suit: each duty on its own. Overtrump a trump in the trick when able (and
    # asked to); otherwise any trump under must-trump, any card without it.
    if options.overtrump_when_ruffing and higher:
        return higher
    return trumps if options.must_trump else set(hand)


def trick_winner(cards: list, trump: int | None = None) -> int:
    """Index in ``cards`` of the winning card: highest trump if any, else highest of the led suit."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and suit_of(c) == trump]
    pool = trumps or [i for i, c in enumerate(cards) if suit_of(c) == suit_of(cards[0])]
    return max(pool, key=lambda i: rank_of(cards[i]))


def trick_points(contract: str, cards: list, index: int, n_tricks: int, options: BarbuOptions) -> int:
    """Points (§3) for taking ``cards`` as trick number ``index`` of ``n_tricks``: each item's value as the
    options set it (:func:`~cardlab.sim.barbu.rules.item_values`), Salade the sum of the four contracts' items
    times ``salade_factor``, Anti-Salade that sum reversed times ``anti_salade_factor``."""
    v = item_values(options)
    hearts = sum(v["ace_hearts"] if c == AH else v["heart"] for c in cards if suit_of(c) == HEARTS)
    queens = v["queen"] * sum(1 for c in cards if rank_of(c) == QUEEN)
    barbu = v["king_hearts"] if KH in cards else 0
    last = {n_tricks - 2: v["second_last"], n_tricks - 1: v["last"]}.get(index, 0)
    salade = v["trick"] + hearts + queens + barbu
    return {"no-tricks": v["trick"], "no-hearts": hearts, "no-queens": queens, "no-barbu": barbu,
            "last-two": last, "salade": salade * options.salade_factor,
            "anti-salade": -salade * options.anti_salade_factor, "trumps": v["trumps_trick"]}[contract]


def points_left(contract: str, cards: set, options: BarbuOptions) -> bool:
    """Whether any of ``cards`` would still score in ``contract`` (§3)."""
    return not scoring_cards(contract, options).isdisjoint(cards)


@lru_cache(maxsize=256)
def scoring_cards(contract: str, options: BarbuOptions) -> frozenset:
    """The cards that score alone in ``contract`` under ``options`` (§3: :func:`trick_points` of each card)."""
    return frozenset(c for c in range(64) if trick_points(contract, [c], -1, 0, options) != 0)


#: Action ids beyond the cards' own (a card play's id is the card id, 0-63).
PASS_ID, DECLINE_ID, TRUMP_ID, START_ID = 64, 65, 70, 80
#: A deal's doubling choices (a Python seat of doubling policy ``own``): ``no`` is 100; ``double seat t`` is
#: ``110 + t``, ``redouble seat t`` ``120 + t``, ``late-redouble seat t`` ``130 + t`` (``100 + 10 * kind + t``).
NO_DOUBLE_ID, DOUBLE_ID = 100, 100
DOUBLE_KIND_NAMES = {1: "double", 2: "redouble", 3: "late-redouble"}  # the doubling log's kinds


@lru_cache(maxsize=None)
def double_action(kind: int, target: int) -> Action:
    """Say yes to the choice the doubling round asks: ``kind`` 1 double, 2 redouble, 3 late redouble of seat
    ``target``; id ``100 + 10 * kind + target``, name ``redouble seat 3``, record ``{"kind": "redouble", "target": 3}``
    (the doubles' own record entries)."""
    name = DOUBLE_KIND_NAMES[kind]
    return Action(DOUBLE_ID + 10 * kind + target, f"{name} seat {target}", {"kind": name, "target": target})


@lru_cache(maxsize=None)
def no_double_action(target: int) -> Action:
    """Say no to the choice the doubling round asks about seat ``target``: id 100, name ``no``."""
    return Action(NO_DOUBLE_ID, "no", {"kind": "no", "target": target})


def double_actions_now(state) -> tuple[Action, Action]:
    """``(yes, no)``: the two answers to the doubling choice ``state.asking`` (the seat to move's)."""
    _, target, kind, _ = state.asking
    return double_action(kind, target), no_double_action(target)


def trump_action(suit: int) -> Action:
    """The Trumps declarer names ``suit`` (0-3 = ♣♦♥♠) as trump: id ``70 + suit``, ``trump ♥``."""
    return Action(TRUMP_ID + suit, f"trump {SUIT_SYMBOLS[suit]}", {"kind": "trump", "suit": SUIT_SYMBOLS[suit]})


@lru_cache(maxsize=None)
def card_action(c: int) -> Action:
    """Play card ``c``: its id is the card id, its name the card's (``K♥``). One Action per card, shared:
    its ``entry`` is not to be changed."""
    return Action(int(c), card_name(c), {"kind": "play", "card": card_name(c)})


class BarbuState(State):
    """One Barbu deal in progress (the step API, :mod:`cardlab.sim.state`): what every contract shares.

    Everything played is public: an observation is the seat's own hand, every hand's size and every
    move so far (``actions``, as in the record). The hidden cards are the other seats' unplayed cards.
    :meth:`resample` deals them anew with the searches' exactly uniform sampler
    (:func:`cardlab.sim.worlds.sample_world_nb`): every seat keeps its hand size and holds no card it
    has shown it cannot hold, found with the rules themselves (a card is excluded from a seat when,
    had the seat held it at one of its moves, that move would have been illegal: a suit it showed out
    of, a trump it did not play under a trump duty, a playable Domino card when it passed).
    The contract's own rules are in :class:`TrickState` and :class:`~cardlab.sim.barbu.domino_referee.DominoState`.
    """

    trump = None  # the trump suit (0-3) once named; None outside Trumps
    doubling = None  # a deal of a whole game with ``double``: the game's obligations and the deal's stream (Doubling)
    doubled = None  # ... and, once made, its doubles (state_policies.Doubled): settled scores, records, views
    asking = None  # while the round asks a seat of doubling policy ``own``: (actor, target, kind, heuristic's answer)
    given = ()  # ... the answers of such seats so far (1 yes, 0 no), in the round's order
    doubles_so_far = None  # ... and the round's log of the doubles made before the question
    search_key = None  # the stream a search seat's draws are keyed by, (seed, deal) for a single deal; a whole game's
    #                    deal: (the game's stream, the deal within the game), as the game kernel keys them

    def __init__(self, options: BarbuOptions, contract: str, declarer: int, hands, *, deal: int = 0, study=None):
        self.options, self.contract, self.declarer = options, contract, int(declarer)
        self.deal, self.study = int(deal), study
        self.n = len(hands)
        self.dealt = [set(int(c) for c in h) for h in hands]
        self.hands = [set(h) for h in self.dealt]
        self.moves = []  # (seat, Action) in play order
        self.entries = []  # the same as record entries, {"seat": s, "kind": ...} (kept as the moves are made)

    @property
    def game(self):
        from cardlab.sim.barbu.interface import BARBU

        return BARBU

    #: random seats at a Python seat's table: sim.python_seats; search: the kernels' own (state_policies)
    builtin_policies = ("heuristic", "classic", "search", "oracle")

    def _policy_action(self, policy: str) -> Action:
        """The move a built-in seat of ``policy`` makes here: the kernels' own decision
        (:mod:`cardlab.sim.barbu.state_policies`), so a Python seat's table plays as the kernels do."""
        from cardlab.sim.barbu.state_policies import policy_action

        return policy_action(self, policy)

    def play_builtin(self, policies) -> None:
        """The built-in seats' moves until another seat is to move: the kernel's own loop between a Python seat's
        turns (:func:`cardlab.sim.barbu.state_policies.play_builtin`, Domino's
        :func:`~cardlab.sim.barbu.state_policies.play_builtin_domino`)."""
        from cardlab.sim.barbu.state_policies import play_builtin, play_builtin_domino

        (play_builtin if isinstance(self, TrickState) else play_builtin_domino)(self, policies)

    def clone(self) -> "BarbuState":
        """An independent copy; the study and the options (immutable) are shared, not copied."""
        return copy.deepcopy(self, {id(self.study): self.study, id(self.options): self.options})

    def _apply(self, action: Action) -> None:
        if self.asking is not None:
            self._answer(action)
            return
        seat = self.current_player
        self.moves.append((seat, action))
        self.entries.append(record_action(seat, **action.entry))
        self._play(action)

    def _play(self, action: Action) -> None:
        """The contract's effect of a legal ``action`` by the seat to move."""
        raise NotImplementedError

    def _restart(self) -> "BarbuState":
        """The same deal before its first move."""
        raise NotImplementedError

    def actions(self) -> list:
        """Every move so far as record entries, ``{"seat": s, "kind": ...}`` (copies: the caller may change them)."""
        return [dict(e) for e in self.entries]

    def observation(self, seat: int) -> dict:
        """The seat's view; in a deal of a whole game with ``double`` the doubles are public: ``doubles`` those made
        so far (all of them once the round is over) and, while the round asks a seat, ``doubling`` the question
        (``{"seat": 1, "kind": "double", "target": 3}``)."""
        if self.doubled is not None:
            doubles = {"doubles": self.doubled.actions()}
        elif self.asking is not None:
            from cardlab.sim.barbu.records import double_actions

            actor, target, kind, _ = self.asking
            doubles = {"doubles": double_actions(self.doubles_so_far),
                       "doubling": {"seat": actor, "kind": DOUBLE_KIND_NAMES[kind], "target": target}}
        else:
            doubles = {}
        return {"seat": seat, "contract": self.contract, "declarer": self.declarer,
                "trump": suit_name(-1 if self.trump is None else self.trump), "hand": hand_names(self.hands[seat]),
                "hand_sizes": [len(h) for h in self.hands], **doubles, "actions": self.actions(),
                "scores": self.scores(), "to_move": self.current_player}

    def scores(self) -> list:
        """The deal's scores: its points (:meth:`raw_scores`), in a doubled deal once the doubles are settled."""
        raw = self.raw_scores()
        return raw if self.doubled is None else self.doubled.settle(raw)

    def raw_scores(self) -> list:
        """The deal's points before any doubling."""
        raise NotImplementedError

    def _double(self) -> None:
        """Make the deal's doubles, when it is a deal of a whole game with ``double``, as play starts (after the
        Trumps declarer names the trump): :func:`cardlab.sim.barbu.state_policies.double_round`. While it asks a seat
        of doubling policy ``own`` (:attr:`asking`), that seat is to move, its moves :func:`double_action` (yes) and
        :func:`no_double_action`; each answer runs the round again from the deal's start (:meth:`_answer`)."""
        if self.doubling is not None and self.doubled is None:
            from cardlab.sim.barbu.state_policies import double_round

            self.doubled = double_round(self)

    def _answer(self, action: Action) -> None:
        """The asked seat's answer to the doubling round's question: the round goes on (:meth:`_double`)."""
        self.given = self.given + (int(action.id != NO_DOUBLE_ID),)
        self._double()

    def hidden_cards(self, seat: int) -> list[int]:
        return sorted(c for p, h in enumerate(self.hands) if p != seat for c in h)

    def deck_cards(self) -> list[int]:
        return sorted(c for h in self.dealt for c in h)

    def record(self) -> dict:
        """The deal's record; a deal of a whole game with ``double`` also says whether it was ``played`` and its
        ``raw`` points, its doubles first among its actions (as ``replay --game-index --json``)."""
        trump = suit_name(-1 if self.trump is None else self.trump)
        hands = [hand_names(h) for h in self.dealt]
        if self.doubled is None:
            return {"deal": self.deal, "contract": self.contract, "declarer": self.declarer, "trump": trump,
                    "hands": hands, "actions": self.actions(), "scores": self.scores()}
        return {"deal": self.deal, "contract": self.contract, "declarer": self.declarer, "trump": trump,
                "played": self.doubled.played, "hands": hands, "actions": self.doubled.actions() + self.actions(),
                "raw": self.raw_scores(), "scores": self.scores()}

    def excluded(self, seat: int) -> list[set]:
        """Per seat, the cards hidden from ``seat`` that its moves showed it cannot hold
        (:func:`~cardlab.sim.state.shown_absent` on the deal replayed from the start)."""
        return shown_absent(self._restart(), (a for _, a in self.moves), seat, set(self.hidden_cards(seat)))

    def resample(self, seat: int, rng) -> "BarbuState":
        """A copy whose hidden cards are redealt exactly uniformly among the deals consistent with
        ``observation(seat)`` (see the class docstring); ``rng`` is a numpy Generator."""
        from cardlab.sim.worlds import sample_world_nb

        hands = np.array([mask_of(h) for h in self.hands], np.uint64)
        excluded = np.array([mask_of(x) for x in self.excluded(seat)], np.uint64)
        world = np.zeros(self.n, np.uint64)
        sample_world_nb(rng.integers(2 ** 64, dtype=np.uint64), seat, self.n, hands, excluded, world, 0)
        out = self.clone()
        played = [{int(a.id) for p, a in self.moves if p == q and a.entry["kind"] == "play"} for q in range(self.n)]
        for p in range(self.n):
            out.hands[p] = set(cards_of(int(world[p])))
            out.dealt[p] = out.hands[p] | played[p]
        return out


class TrickState(BarbuState):
    """A trick contract (``docs/rules/barbu.md`` §2-§4, §7), played move by move.

    * Trumps only: the declarer first names the trump suit (any of the four; action ``trump ♥``, id
      ``70 + suit``, 0-3 = ♣♦♥♠, record ``{"kind": "trump", "suit": "♥"}``).
    * Then every move is a card (id: the card id; name ``K♥``; record ``{"kind": "play", "card": "K♥"}``)
      from :func:`legal_cards`: the declarer leads the first trick, clockwise, the winner
      (:func:`trick_winner`) leads the next; the hearts-lead rule, following suit, the K♥ discard
      and the trump duties are all :func:`legal_cards`'.
    * Each trick scores :func:`trick_points` to its winner. With ``early_stop``, No Hearts, No Queens
      and No K♥ end after the first trick that leaves no scoring card in any hand.
    """

    def __init__(self, options: BarbuOptions, contract: str, declarer: int, hands, *, deal: int = 0, study=None):
        """``hands``: the dealt hands, sets of card ids (checked: :func:`check_hands`)."""
        super().__init__(options, contract, declarer, hands, deal=deal, study=study)
        check_hands(options, self.dealt)
        self.naming = contract == "trumps"  # the declarer names the trump before the play
        self.leader = self.declarer
        self.trick = []  # card ids of the trick in progress, in play order
        self.tricks = []  # finished tricks (Trick)
        self.points = [0] * self.n
        self.size = len(self.dealt[0])  # tricks in the deal: the dealt hand size
        self.scoring = scoring_cards(contract, options) if self.may_stop else frozenset()  # for the early stop
        self.hearts_played = False
        self.stopped = False  # the early stop

    def search_means(self, worlds: int) -> dict | None:
        """The kernels' search at this move (:func:`cardlab.sim.barbu.state_policies.searched_move`); None with one
        legal move, and at a doubling choice."""
        from cardlab.sim.barbu.state_policies import searched_move

        return None if self.asking is not None else searched_move(self, worlds, hint=True)[1] or None

    def _restart(self) -> "TrickState":
        return TrickState(self.options, self.contract, self.declarer, self.dealt, deal=self.deal, study=self.study)

    @property
    def may_stop(self) -> bool:
        """Whether this contract ends once no card left can score (``early_stop``, §7)."""
        return self.options.early_stop and self.contract in EARLY_STOP_CONTRACTS

    @property
    def is_over(self) -> bool:
        return self.stopped or len(self.tricks) == self.size

    @property
    def current_player(self) -> int:
        if self.asking is not None:
            return self.asking[0]
        if self.is_over:
            return -1
        return self.declarer if self.naming else (self.leader + len(self.trick)) % self.n

    def why_illegal(self, move) -> str:
        """The rule a card breaks now (§2, §4), in a few words: the refusal's reason in ``cardlab play``."""
        if self.is_over or self.naming or self.asking is not None:
            return ""
        try:
            c = move.id if isinstance(move, Action) else int(move) if isinstance(move, int) else parse_card(str(move))
        except (ValueError, IndexError):
            return ""
        hand = self.hands[self.current_player]
        if c not in hand:
            return f"seat {self.current_player} does not hold {card_name(c)}" if 0 <= c < 64 else ""
        if not self.trick:
            return "hearts may not be led yet (hearts_lead)" if suit_of(c) == HEARTS else ""
        led = suit_of(self.trick[0])
        if suit_of(c) != led and any(suit_of(x) == led for x in hand):
            return f"a seat holding {SUIT_SYMBOLS[led]} must follow suit"
        if KH in hand and c != KH and self.trump is None:
            return "a seat void in the led suit must throw K♥ (kh_forced_discard)"
        return "the trump duties ask for a trump, or a higher one" if self.trump is not None else ""

    def legal_actions(self) -> list[Action]:
        if self.asking is not None:
            return list(double_actions_now(self))
        if self.is_over:
            return []
        if self.naming:
            return [trump_action(s) for s in range(4)]
        allowed = legal_cards(self.hands[self.current_player], self.trick, contract=self.contract,
                              options=self.options, hearts_played=self.hearts_played, trump=self.trump)
        return [card_action(c) for c in sorted(allowed)]

    def _apply(self, action: Action) -> None:
        """:meth:`BarbuState._apply` with the seat to move found at once (the step API's hot path)."""
        if self.asking is not None:
            self._answer(action)
            return
        seat = self.declarer if self.naming else (self.leader + len(self.trick)) % self.n
        self.moves.append((seat, action))
        self.entries.append({"seat": seat, **action.entry})
        self._play(action, seat)

    def _play(self, action: Action, seat: int | None = None) -> None:
        if self.naming:
            self.trump, self.naming = action.id - TRUMP_ID, False
            self._double()
            return
        self.hands[self.current_player if seat is None else seat].remove(action.id)
        self.trick.append(action.id)
        if len(self.trick) < self.n:
            return
        winner = (self.leader + trick_winner(self.trick, self.trump)) % self.n
        points = trick_points(self.contract, self.trick, len(self.tricks), self.size, self.options)
        self.points[winner] += points
        self.tricks.append(Trick(self.leader, [((self.leader + k) % self.n, c) for k, c in enumerate(self.trick)],
                                 winner, points))
        self.hearts_played = self.hearts_played or any(suit_of(c) == HEARTS for c in self.trick)
        self.leader, self.trick = winner, []
        self.stopped = self.may_stop and all(self.scoring.isdisjoint(h) for h in self.hands)

    def raw_scores(self) -> list:
        return list(self.points)

    def run_log(self, moves, trump: int | None = None) -> "TrickState":
        """Check a kernel's log on this state: ``trump`` the suit named (Trumps), ``moves`` the cards in
        play order then -1 (after an early stop, and the log's unused tail). Raises :class:`RefereeError`."""
        if self.naming:
            if trump is None:
                raise RefereeError("trumps: the log names no trump suit")
            self.apply(trump_action(trump))
        elif trump is not None:
            raise RefereeError(f"{self.contract}: the log names trump {trump} outside Trumps")
        for c in (int(m) for m in moves[:self.size * self.n]):
            if self.is_over:
                if c >= 0:
                    raise RefereeError(f"play stopped after trick {len(self.tricks)} but the log goes on")
                continue
            t, seat = len(self.tricks), self.current_player
            if c < 0 and not self.trick:
                raise RefereeError(f"play stopped after trick {t} " + (
                    "with scoring cards still in hand" if self.may_stop else f"but {self.contract} must be played out"))
            legal = {a.id: a for a in self.legal_actions()}
            if c not in legal:
                shown = ", ".join(a.name for a in legal.values())
                raise RefereeError(f"trick {t + 1}: seat {seat} played {card_name(c) if c >= 0 else c}; "
                                   f"legal were {shown}")
            self._apply(legal[c])
        if not self.is_over:
            raise RefereeError(f"the log ends after {len(self.tricks)} tricks")
        return self


def check_deal(options: BarbuOptions, contract: str, declarer: int, hands, moves, *, trump: int | None = None) -> Verdict:
    """Replay ``moves`` (card ids in play order, -1 after an early stop) from ``hands`` (bitmasks)
    through a :class:`TrickState` (``trump``: the suit the Trumps declarer named).

    Raises :class:`RefereeError` on a dealing error or an illegal move; returns the tricks and
    the recomputed scores.
    """
    sets = [set(cards_of(int(h))) for h in hands]
    state = TrickState(options, contract, declarer, sets).run_log(moves, trump)
    return Verdict(contract, declarer, [set(h) for h in sets], state.tricks, state.scores(), trump)


def check_hands(options: BarbuOptions, hands: list) -> None:
    """The deal (§1): ``options.players`` hands (sets) of ``options.hand_size``, every card of the deck once."""
    n, size = options.players, options.hand_size
    if len(hands) != n or any(len(h) != size for h in hands):
        raise RefereeError(f"hands have sizes {[len(h) for h in hands]}, expected {n} hands of {size}")
    if sorted(c for h in hands for c in h) != sorted(int(c) for c in options.cards):
        raise RefereeError("the hands do not hold every card of the deck exactly once")


def hand_text(hand: set) -> str:
    """A hand as readable cards grouped by suit: ``'♠ A K 7  ♥ Q 2  ...'``."""
    parts = []
    for s in (3, 2, 1, 0):
        ranks = sorted((c for c in hand if suit_of(c) == s), reverse=True)
        parts.append(SUIT_SYMBOLS[s] + " " + (" ".join(card_name(c)[:-1] for c in ranks) or "-"))
    return "  ".join(parts)


def format_deal(verdict: Verdict) -> str:
    """The deal trick by trick with readable cards, e.g. ``trick 1: S0 K♥ S1 2♥ ... -> S0 (-13)``."""
    lines = [f"contract {verdict.contract}, declarer seat {verdict.declarer}"
             + (f", trump {SUIT_SYMBOLS[verdict.trump]}" if verdict.trump is not None else "")]
    for seat, hand in enumerate(verdict.hands):
        lines.append(f"  seat {seat}: {hand_text(hand)}")
    for t, trick in enumerate(verdict.tricks, 1):
        played = "  ".join(f"S{seat} {card_name(c):>3}" for seat, c in trick.cards)
        lines.append(f"trick {t:2d}: {played}  -> seat {trick.winner} ({trick.points:+d})")
    if len(verdict.tricks) < len(next(iter(verdict.hands))):
        lines.append("(play stops early: no card left can score)")
    lines.append("scores: " + "  ".join(f"seat {p}: {s:+d}" for p, s in enumerate(verdict.scores)))
    return "\n".join(lines)
