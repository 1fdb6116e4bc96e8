"""Rami's rules in plain Python: the melds' geometry and :class:`RamiState`, one round move by move.

The referee (:mod:`cardlab.sim.rami.referee`) checks a kernel's log by playing it through the state,
so these are the only Python copy of the rules (``docs/rules/rami.md``). A meld is a row
``(type, a, b, c, d)`` as in :mod:`cardlab.sim.rami.melds`: a set ``(0, rank 1..13, suit mask,
jokers, 0)``, a run ``(1, suit, lo, hi, joker-position mask)`` over positions 1..14 (1 the ace low,
14 the ace high).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from cardlab.sim.rami.rules import (HAND_VALUE, HAND_W, JOKER, RUN_VALUE, SET_VALUE, card_name, hand_text,
                                    hand_value, round_scores)
from cardlab.sim.state import Action, State, as_stream

DRAW, TAKE, DISCARD, OPEN, OPEN_EXEMPT = 0, 1, 100, 200, 201
LAYOFF, RETRIEVE, MELD = 1000, 20000, 1 << 28
ENDS = ("", "low", "high")


def kind_at(suit: int, pos: int) -> int:
    """The natural at run position ``pos`` (1..14, both ends the ace) of ``suit``."""
    return suit * 13 + (pos - 1 if pos <= 13 else 0)


def meld_cards(m) -> Counter:
    """The cards of a meld row (type, a, b, c, d) as a Counter of card kinds (52 = joker)."""
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        out = Counter(s * 13 + a - 1 for s in range(4) if b >> s & 1)
        out[JOKER] += c
        return out
    return Counter(JOKER if d >> p & 1 else kind_at(a, p) for p in range(b, c + 1))


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
    """A run in order with ``JK`` where a joker stands; a set's naturals by suit, then its jokers."""
    typ, a, b, c, d = (int(v) for v in m[:5])
    if typ == 0:
        return " ".join([card_name(s * 13 + a - 1) for s in range(4) if b >> s & 1] + ["JK"] * c)
    return " ".join("JK" if d >> p & 1 else card_name(kind_at(a, p)) for p in range(b, c + 1))


def pure_run(m) -> bool:
    return int(m[0]) == 1 and int(m[4]) == 0


def formable_melds(hand, jmax: int) -> list[tuple]:
    """Every meld (with every placement of its jokers) that the count vector ``hand`` can lay."""
    jokers = min(int(hand[JOKER]), jmax)
    out = []
    for rank in range(1, 14):
        suits = [s for s in range(4) if hand[s * 13 + rank - 1]]
        for n in range(2, len(suits) + 1):
            for chosen in combinations(suits, n):
                mask = sum(1 << s for s in chosen)
                out += [(0, rank, mask, j, 0) for j in range(min(jokers, n - 1) + 1) if 3 <= n + j <= 4]
    for suit in range(4):
        have = [False] + [bool(hand[kind_at(suit, p)]) for p in range(1, 15)]
        for lo in range(1, 13):
            need, missing = 0, 0
            for hi in range(lo, min(14, lo + 12) + 1):
                if not have[hi]:
                    need, missing = need + 1, missing | 1 << hi
                if need > jokers:  # the gaps only grow with hi
                    break
                if hi - lo < 2:
                    continue
                held = [p for p in range(lo, hi + 1) if have[p]]
                for extra in range(jokers - need + 1):
                    if 2 * (need + extra) >= hi - lo + 1:
                        break
                    out += [(1, suit, lo, hi, missing | sum(1 << p for p in more)) for more in combinations(held, extra)]
    return out


def _search(hand, *, mode=0, need_pure=False, min_value=0, force=-1, min_jokers=0, min_left=0, jmax=1,
            values=HAND_VALUE):
    """The exact meld search of :func:`cardlab.sim.rami.melds.best_melds_nb` (objective, melds), -1 when none;
    ``values`` the card values left in hand (mode 1)."""
    from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, _scratch, best_melds_nb

    if force == JOKER:
        force, min_jokers = -1, max(min_jokers, 1)
    out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    v, n, _ = best_melds_nb(np.asarray(hand, np.int64), mode, bool(need_pure), int(min_value), int(force),
                            int(min_jokers), int(min_left), int(jmax), np.asarray(values, np.int64), out, _scratch())
    return int(v), int(n)


def _meld_id(m) -> int:
    typ, a, b, c, d = m
    return MELD + (((((typ * 16 + a) * 16 + b) * 16 + c) << 15) | d)


def _fresh_turn() -> dict:
    return dict(taken=-1, taken_used=False, pending=[], debt=0, exempt=False, discarded=False)


class RamiState(State):
    """One Rami round (``docs/rules/rami.md``), move by move; the rules it codes per decision:

    * **draw** (§4): ``draw stock`` (id 0), or ``take X`` (id 1 + kind) the top discard: not in the first
      round of turns (``discard_take_first_round``), not holding one card (``single_card_must_draw_stock``)
      and, with ``discard_take_must_use``, only when X can still reach the table this turn. The card drawn
      from the stock is chance, not part of the move.
    * **meld** (§2, §5): ``meld 7♠ 8♠ 9♠`` (id 2**28 + the packed meld row ``(type, a, b, c, d)`` as
      ``((((type*16 + a)*16 + b)*16 + c) << 15) | d``), every meld the hand can lay, each placement of
      its jokers apart. Before opening a meld must leave an opening possible this turn.
    * **open** (§5, §6): ``open`` (200) once this turn's melds are worth ``open_threshold`` (with a
      joker-free run when ``open_needs_pure_run``); ``open exempt`` (201): a rami sec exempt from those
      conditions (``rami_sec_exempt_from_opening``, nobody else opened, at most one card left).
    * **lay off** (§5): ``lay off 10♠ on meld 2`` (id 1000 + (meld*53 + kind)*3 + end), once opened, on
      table meld 2 (melds are numbered in the order laid); a joker or an ace laid on a run names the end,
      ``lay off JK on meld 2 high`` (end 1 low, 2 high; 0 otherwise).
    * **retrieve** (§5): ``retrieve JK from meld 2 with 7♠`` (id 20000 + meld*53 + kind): the natural the
      joker stands for takes its place; with ``freed_joker_use='new_meld'`` the joker must go into a new
      meld this turn.
    * **discard** (§4): ``discard K♦`` (id 100 + kind), ending the turn: not the card just taken (a twin
      of it may go), and only once the taken card, a freed joker and the opening melds are settled.

    Every table move must leave the turn finishable (a legal discard or going out), checked with the
    exact meld search of :mod:`cardlab.sim.rami.melds`. Forced moves are not actions: going out (an
    empty hand), the recycled stock and the blocked round. Card ids are kinds (``suit*13 + rank-1``, 52
    the joker); the deck's twins share one.

    The deck's twins are told apart in the record only: a card is its deck position, written as its
    ``copy`` (1 for the first of its kind in ``deck``, 2 for its twin; jokers 1 to ``n_jokers``). Which
    copy a move takes from a hand is a convention the kernel does not see (it plays kinds): the card
    just taken from the pile goes to the table first and to the pile last (it may not be discarded, a
    twin of it may), otherwise the copy held longest goes first; a recycled stock keeps the pile's order
    among twins. A record's action carries these as notes (:attr:`notes`), which :meth:`action` reads
    past, and an observation never shows them (a copy number tells where the twin lay in the deck).

    The kernel shuffles a recycled stock from the round's stream after the policies' random draws. A
    state made by ``game.state`` holds that stream (:attr:`stream`) and shuffles the same way; a state
    rebuilt from a record draws the cards in the order the kernel drew them (``restock``, read from the
    kernel's log of the deal), then the others in a shuffle seeded by ``(seed, deal)``. ``resample`` permutes the cards the seat has not seen (the others' unseen hand
    cards and the stock; a recycled stock's cards among themselves) uniformly, a constrained shuffle.
    """

    def __init__(self, options, dealer: int, deck, *, study=None, deal: int = 0, keys=None, restock=()):
        o = self.o = options
        self.study, self.deal, self.dealer, self.P = study, deal, int(dealer), o.players
        self.keys = keys if keys is not None else {"game": "rami", "seed": study.seed if study else 0, "deal": deal}
        self.deck = [int(k) for k in deck[:o.deck_size]]
        self.restock_hint = [int(k) for k in restock]
        self.restock = []
        self.hands = [[0] * HAND_W for _ in range(self.P)]
        self.copies = [self.deck[:i].count(k) + 1 for i, k in enumerate(self.deck)]
        self.held = [[] for _ in range(self.P)]  # each hand's cards as deck positions, in the order they arrived
        self.secret = [[] for _ in range(self.P)]  # deck positions in each hand that the others have not seen
        self.known = [Counter() for _ in range(self.P)]  # cards in each hand that everyone saw arrive
        dealt = self.P * o.hand_size
        for i in range(dealt):
            seat = (self.dealer + 1 + i % self.P) % self.P
            self.hands[seat][self.deck[i]] += 1
            self.secret[seat].append(i)
            self.held[seat].append(i)
        self.dealt = [list(h) for h in self.hands]
        self.pile = [self.deck[dealt]]
        self.pile_ids, self.restock_ids, self.table_ids = [dealt], [], []  # the same places, as deck positions
        self.taken_id, self.opening, self.notes_log = -1, [], []
        self.stock = list(range(o.deck_size - 1, dealt, -1))  # positions, drawn from the end
        self.table = []
        self.opened = [False] * self.P
        self.open_turn = [-1] * self.P
        self.seat, self.t, self.drawn, self.turn = (self.dealer + 1) % self.P, 0, False, _fresh_turn()
        self.actions = []
        self.recycled_at = None
        self.winner = None
        self.blocked = False
        # a built-in seat's turn: ((seat, turn, policy), its first move's index, its log rows, the move it expects)
        self.turn_plan = None
        self.search_key = (deal, 0)  # a search seat's streams: (round, 0), or a whole game's (game, round in it)

    builtin_policies = ("random", "heuristic", "search", "oracle")

    def _policy_action(self, policy: str) -> Action:
        """The kernels' own move of a random, heuristic, search or oracle seat here
        (:mod:`cardlab.sim.rami.state_policies`)."""
        from cardlab.sim.rami.state_policies import policy_action

        return policy_action(self, policy)

    def search_means(self, worlds: int) -> dict | None:
        """The kernels' search at this move (:func:`cardlab.sim.rami.state_policies.search_means`): a draw with the
        discard on offer or a discard of a turn played as the search plays it; None elsewhere."""
        from cardlab.sim.rami.state_policies import search_means

        return None if self.is_over else search_means(self, worlds)

    def policy_ready(self) -> bool:
        """Whether a built-in seat can move now: at the start of a turn, or within a turn it began."""
        plan = self.turn_plan
        return not self.drawn or (plan is not None and plan[0][:2] == (self.seat, self.t)
                                  and plan[1] == self.turn_began() and len(self.actions) - plan[1] < len(plan[2]))

    def turn_began(self) -> int:
        """The index in :attr:`actions` of the turn under way's first move."""
        return next((i + 1 for i in range(len(self.actions) - 1, -1, -1) if DISCARD <= self.actions[i][1].id < OPEN),
                    0)

    def rewound(self, moves: int, deck=None, restock=None) -> "RamiState":
        """This round after its first ``moves`` moves, replayed on its cards or on ``deck`` (and a recycled stock's
        ``restock``); without the stream (no random seat plays there)."""
        state = RamiState(self.o, self.dealer, self.deck if deck is None else deck, study=self.study, deal=self.deal,
                          keys=self.keys, restock=(self.restock if restock is None else restock)
                          if self.recycled_at is not None else self.restock_hint)
        state.search_key = self.search_key
        for _, action in self.actions[:moves]:
            state._apply(action)
        return state

    # ---------------------------------------------------------------- cards

    card_name = staticmethod(card_name)

    def kind(self, pos: int) -> int:
        n = len(self.deck)
        return self.deck[pos] if pos < n else self.restock[pos - n]

    def stock_top(self) -> int:
        """The kind of the stock's next card."""
        return self.kind(self.stock[-1])

    def deck_cards(self) -> list[int]:
        return list(self.deck)

    def _give(self, seat, kind, pos=None):
        self.hands[seat][kind] += 1
        if pos is None:
            self.known[seat][kind] += 1
        else:
            self.secret[seat].append(pos)

    def _remove(self, seat, kind):
        """A card leaves the hand for the table or the pile: a copy everyone saw arrive goes first."""
        self.hands[seat][kind] -= 1
        if self.known[seat][kind]:
            self.known[seat][kind] -= 1
        else:
            self.secret[seat].remove(next(p for p in self.secret[seat] if self.kind(p) == kind))

    # ---------------------------------------------------------------- whose turn

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.seat

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.blocked

    def _forbidden(self) -> int:
        """The card just taken while it may not be discarded (unused, no twin held), else -1."""
        tk = self.turn["taken"]
        return tk if tk >= 0 and not self.turn["taken_used"] and self.hands[self.seat][tk] < 2 else -1

    def _must_place(self) -> int:
        """The taken card while it still has to reach the table (``discard_take_must_use``), else -1."""
        tk = self.turn["taken"]
        return tk if self.o.discard_take_must_use and tk >= 0 and not self.turn["taken_used"] else -1

    def _nobody_else_opened(self) -> bool:
        return not any(self.opened[p] for p in range(self.P) if p != self.seat)

    # ---------------------------------------------------------------- actions

    def _action(self, move) -> Action:
        kind = move[0]
        if kind == "draw":
            return Action(DRAW, "draw stock", {"kind": "draw"})
        if kind in ("take", "discard"):
            k = move[1]
            return Action((TAKE if kind == "take" else DISCARD) + k, f"{kind} {card_name(k)}",
                          {"kind": kind, "card": card_name(k)})
        if kind == "meld":
            text = meld_str(move[1])
            return Action(_meld_id(move[1]), f"meld {text}", {"kind": "meld", "cards": text.split()})
        if kind == "open":
            return (Action(OPEN_EXEMPT, "open exempt", {"kind": "open", "exempt": True}) if move[1] else
                    Action(OPEN, "open", {"kind": "open"}))
        _, mi, k, slot = move
        if kind == "retrieve":
            return Action(RETRIEVE + mi * 53 + k, f"retrieve JK from meld {mi} with {card_name(k)}",
                          {"kind": "retrieve", "card": card_name(k), "meld": mi})
        m = self.table[mi]
        end = 0 if m[0] == 0 or k not in (JOKER, m[1] * 13) else 1 if slot < m[2] else 2
        entry = {"kind": "layoff", "card": card_name(k), "meld": mi}
        if end:
            entry["end"] = ENDS[end]
        return Action(LAYOFF + (mi * 53 + k) * 3 + end, f"lay off {card_name(k)} on meld {mi}"
                      + (f" {ENDS[end]}" if end else ""), entry)

    def layoff_entry(self, mi: int, kind: int, slot: int) -> dict:
        """The entry of laying ``kind`` at ``slot`` of table meld ``mi`` (the kernel's log form), or a
        dict no legal move has when the slot is not where the card goes."""
        moves = [mv for mv in self._layoffs(self.hands[self.seat]) if mv[1:] == (mi, kind, slot)]
        return self._action(moves[0]).entry if moves else {"kind": "layoff", "meld": mi, "slot": slot}

    def _layoffs(self, hand):
        """(``layoff``, meld, kind, slot) for each card of ``hand`` that fits a table meld (§5)."""
        out = []
        for mi, m in enumerate(self.table):
            for k in set(k for k in range(HAND_W) if hand[k]):
                if m[0] == 0:
                    slots = [0] if k == JOKER else [k // 13] if k % 13 == m[1] - 1 and not m[2] >> k // 13 & 1 else []
                else:
                    slots = [s for s in (m[2] - 1, m[3] + 1) if 1 <= s <= 14 and (k == JOKER or kind_at(m[1], s) == k)]
                out += [("layoff", mi, k, s) for s in slots if meld_ok(self._laid(m, k, s), self.o.jokers_per_meld)]
        return out

    @staticmethod
    def _laid(m, k, slot):
        new = list(m)
        if m[0] == 0:
            new[3 if k == JOKER else 2] = m[3] + 1 if k == JOKER else m[2] | 1 << slot
        else:
            new[2], new[3] = min(m[2], slot), max(m[3], slot)
            new[4] = m[4] | 1 << slot if k == JOKER else m[4]
        return new

    def _retrievals(self, hand):
        """(``retrieve``, meld, kind, slot): a natural in hand that the joker of a table meld stands for."""
        out = []
        for mi, m in enumerate(self.table):
            if m[0] == 0:
                if m[3] == 1:
                    out += [("retrieve", mi, s * 13 + m[1] - 1, s) for s in range(4)
                            if not m[2] >> s & 1 and hand[s * 13 + m[1] - 1]]
            else:
                out += [("retrieve", mi, kind_at(m[1], p), p) for p in range(m[2], m[3] + 1)
                        if m[4] >> p & 1 and hand[kind_at(m[1], p)]]
        return [mv for mv in out if meld_ok(self._freed(self.table[mv[1]], mv[3]), self.o.jokers_per_meld)]

    @staticmethod
    def _freed(m, slot):
        new = list(m)
        if m[0] == 0:
            new[2], new[3] = m[2] | 1 << slot, 0
        else:
            new[4] = m[4] & ~(1 << slot)
        return new

    def legal_actions(self) -> list[Action]:
        """The seat's legal moves, by id (see the class docstring for the rule behind each)."""
        if self.is_over:
            return []
        if not self.drawn:
            return [self._action(mv) for mv in self._draws()]
        return sorted((self._action(mv) for mv in self._table_moves() + self._discards()), key=lambda a: a.id)

    def _draws(self):
        o, hand, top = self.o, self.hands[self.seat], self.pile[-1] if self.pile else -1
        moves = [("draw",)]
        if top >= 0 and (self.t >= self.P or o.discard_take_first_round) and not (
                o.single_card_must_draw_stock and sum(hand) == 1):
            if not o.discard_take_must_use or self._after(("take", top))._finishable():
                moves.append(("take", top))
        return moves

    def _table_moves(self):
        hand = self.hands[self.seat]
        moves = []
        if not self.opened[self.seat]:
            if self.turn["pending"] or self._can_open(hand) or self._can_exempt(hand):
                moves += [("meld", m) for m in formable_melds(hand, self.o.jokers_per_meld)]
            moves += [("open", 0), ("open", 1)] if self.turn["pending"] else []
        elif not self.turn["exempt"]:
            moves += self._retrievals(hand) + [("meld", m) for m in formable_melds(hand, self.o.jokers_per_meld)]
            moves += self._layoffs(hand)
        elif sum(hand) == 1:
            moves += self._layoffs(hand)
        return [mv for mv in moves if self._allowed(mv) and self._after(mv)._finishable()]

    def _allowed(self, move) -> bool:
        """The opening conditions (§5, §6) for ``open``; every other table move is checked by its result."""
        if move[0] != "open":
            return True
        pending = self.turn["pending"]
        if move[1]:
            return (self.o.rami_sec_exempt_from_opening and self._nobody_else_opened()
                    and sum(self.hands[self.seat]) <= 1)
        return (sum(meld_points(m) for m in pending) >= self.o.open_threshold
                and (not self.o.open_needs_pure_run or any(pure_run(m) for m in pending)))

    def _discards(self):
        hand, turn = self.hands[self.seat], self.turn
        if turn["pending"] or turn["debt"] > 0 or self._must_place() >= 0 or (turn["exempt"] and sum(hand) > 1):
            return []
        return [("discard", k) for k in range(HAND_W) if hand[k] and k != self._forbidden()]

    def _after(self, move) -> "RamiState":
        """A light copy of the state with ``move`` applied (only what a turn's moves change is copied)."""
        s = object.__new__(RamiState)
        s.__dict__.update(self.__dict__)
        seat = self.seat
        s.hands = list(self.hands)
        s.hands[seat] = list(self.hands[seat])
        s.known = list(self.known)
        s.known[seat] = Counter(self.known[seat])
        s.secret = list(self.secret)
        s.secret[seat] = list(self.secret[seat])
        s.table = [list(m) for m in self.table]
        s.pile = list(self.pile)
        s.stock = list(self.stock)
        s.opened, s.open_turn, s.actions = list(self.opened), list(self.open_turn), list(self.actions)
        s.turn = dict(self.turn, pending=list(self.turn["pending"]))
        s._play(move)
        return s

    # ---------------------------------------------------------------- can the turn still end legally?

    def _finishable(self) -> bool:
        """Can the seat still end this turn legally: a discard, or going out (§4-§6)?"""
        if self.is_over:
            return True
        hand, o, turn = self.hands[self.seat], self.o, self.turn
        left = 1 if o.go_out_requires_discard else 0
        n = sum(hand)
        forced = self._must_place()
        if turn["exempt"]:
            return n == 1 and forced < 0 and self._forbidden() < 0
        if not self.opened[self.seat]:
            if not turn["pending"] and forced < 0:
                return any(hand[k] for k in range(HAND_W) if k != self._forbidden())
            return self._can_open(hand) or self._can_exempt(hand)
        if turn["debt"] > 0:
            return _search(hand, min_jokers=turn["debt"], force=forced, min_left=left, jmax=o.jokers_per_meld)[0] >= 0
        if forced >= 0:
            return self._placeable(forced)
        return n > 0 and any(hand[k] for k in range(HAND_W) if k != self._forbidden())

    def _placeable(self, kind) -> bool:
        """Can ``kind`` go to the table at once (a lay-off or a retrieval after which the turn can still end,
        or a meld of the hand)?"""
        hand = self.hands[self.seat]
        left = 1 if self.o.go_out_requires_discard else 0
        if any(mv[2] == kind and self._after(mv)._finishable() for mv in self._layoffs(hand) + self._retrievals(hand)):
            return True
        return _search(hand, force=kind, min_left=left, jmax=self.o.jokers_per_meld)[1] > 0

    def _can_open(self, hand) -> bool:
        """Can this turn's melds so far, with more from ``hand``, open (§5)? A card taken that must reach the
        table is among them, or fits a table meld; a card taken and kept leaves another to discard."""
        o, pending = self.o, self.turn["pending"]
        forced, forbidden = self._must_place(), self._forbidden()
        left = 1 if o.go_out_requires_discard else 0
        if forbidden >= 0 and forced < 0:
            hand = list(hand)
            hand[forbidden] -= 1
            left = 1
        need = dict(need_pure=o.open_needs_pure_run and not any(pure_run(m) for m in pending),
                    min_value=max(0, o.open_threshold - sum(meld_points(m) for m in pending)), min_left=left,
                    jmax=o.jokers_per_meld)
        v, n = _search(hand, force=forced, **need)
        if v < 0 and forced >= 0 and any(mv[2] == forced for mv in self._layoffs(hand)):
            v, n = _search(hand, **need)
        return v >= 0 and (n > 0 or bool(pending))

    def _can_exempt(self, hand) -> bool:
        """Can an exempt rami sec (§6) still be made: the whole hand melded but at most one card to discard?"""
        o = self.o
        if not o.rami_sec_exempt_from_opening or not self._nobody_else_opened():
            return False
        forced = self._must_place() if self._must_place() >= 0 else self._forbidden()
        kept = [k for k in range(HAND_W) if hand[k] and (k != forced or hand[k] > 1)]
        for k in ([] if o.go_out_requires_discard else [-1]) + kept:
            rest = list(hand)
            if k >= 0:
                rest[k] -= 1
            v, n = _search(rest, mode=1, force=forced if forced >= 0 and rest[forced] else -1, jmax=o.jokers_per_meld,
                           values=o.card_values)
            if v == hand_value(rest, o.card_values) and (n > 0 or self.turn["pending"]):
                return True
        return False

    def why_illegal(self, move) -> str:
        """The rule a refused move breaks (the kind of move read from its entry or name)."""
        kind = move.get("kind") if isinstance(move, dict) else str(move).split()[0] if isinstance(move, str) else ""
        o, turn, hand = self.o, self.turn, self.hands[self.seat]
        pending = turn["pending"]
        exempt_ok = o.rami_sec_exempt_from_opening and self._nobody_else_opened()
        no_exempt = "" if exempt_ok else "an exempt opening is not allowed here"
        value = sum(meld_points(m) for m in pending)
        if not self.drawn:
            return "the turn starts with a draw" if kind != "take" else (
                "the discard can be taken only once the first round of turns is over, by a player holding more "
                "than one card, and when it can reach the table this turn")
        if kind == "meld" and not self.opened[self.seat]:
            need_pure = o.open_needs_pure_run and not any(pure_run(m) for m in pending)
            best = max(0, _search(hand, need_pure=need_pure, jmax=o.jokers_per_meld)[0]) + value
            return (f"melds before opening must open this turn: they reach at most {best} of the "
                    f"{o.open_threshold} points needed" + (f", and {no_exempt}" if no_exempt else ""))
        if kind == "open" and (move.get("exempt") if isinstance(move, dict) else "exempt" in str(move)):
            return no_exempt or "an exempt opening must leave at most one card, to discard and go out"
        if kind == "open":
            pure = any(pure_run(m) for m in pending)
            return f"opening with {value} points (pure run: {pure}) is not enough" if pending else "no melds laid"
        if kind in ("lay", "layoff", "retrieve") and not self.opened[self.seat]:
            return "lay-offs and jokers taken back come after opening"
        if kind == "discard":
            return ("melds laid without opening" if pending else
                    "the card taken must reach the table first" if self._must_place() >= 0 else
                    "a freed joker must go into a new meld first" if turn["debt"] else
                    "the card just taken may not be discarded")
        return ""

    # ---------------------------------------------------------------- moves

    notes = ("copy", "copies", "stands_for", "number", "melds", "points", "joker_copy")

    def _apply(self, action: Action) -> None:
        if self.turn_plan is not None and self.turn_plan[3] != action.id:
            self.turn_plan = None  # another move than the built-in seat's plan
        move = self._move(action)
        note = self._track(move)
        recycled = self.recycled_at
        self._play(move)
        self.notes_log.append(note)
        if recycled is None and self.recycled_at is not None:
            rest, self.pile_ids = self.pile_ids[:-1], self.pile_ids[-1:]
            for k in self.restock:  # twins keep the pile's order
                self.restock_ids.append(rest.pop(next(i for i, q in enumerate(rest) if self.deck[q] == k)))

    # ---------------------------------------------------------------- which copy moves (the record's notes)

    def _take_out(self, seat: int, kind: int, to_table: bool) -> int:
        """The deck position of the copy of ``kind`` that leaves ``seat``'s hand (the class docstring's rule)."""
        ids = [q for q in self.held[seat] if self.deck[q] == kind]
        taken = self.taken_id if self.taken_id in ids else -1
        pick = taken if taken >= 0 and (to_table or len(ids) == 1) else next(q for q in ids if q != taken)
        self.held[seat].remove(pick)
        return pick

    def _stands_for(self, m, slots=None) -> list[str]:
        """The naturals a meld's jokers stand for: in a run the card of each joker's position (or of
        ``slots``), in a set every suit it lacks (a set's joker stands for any of them)."""
        typ, a, b, c, d = (int(v) for v in m[:5])
        if typ == 0:
            return [card_name(s * 13 + a - 1) for s in range(4) if not b >> s & 1]
        return [card_name(kind_at(a, p)) for p in (slots or [p for p in range(b, c + 1) if d >> p & 1])]

    def _track(self, move) -> dict:
        """Move the copies ``move`` moves (before it is played) and return its notes for the record."""
        seat, kind, n = self.seat, move[0], len(self.deck)
        copy = self.copies
        if kind == "draw":
            pos = self.stock[-1]
            self.held[seat].append(pos if pos < n else self.restock_ids[pos - n])
            return {}
        if kind == "take":
            self.taken_id = self.pile_ids.pop()
            self.held[seat].append(self.taken_id)
            return {"copy": copy[self.taken_id]}
        if kind == "discard":
            q = self._take_out(seat, move[1], False)
            self.pile_ids.append(q)
            self.taken_id = -1
            return {"copy": copy[q]}
        if kind == "open":
            note = {"melds": self.opening, "points": sum(meld_points(m) for m in self.turn["pending"])}
            self.opening = []
            return note
        if kind == "meld":
            m = move[1]
            typ, a, b, c, d = m
            kinds = ([s * 13 + a - 1 for s in range(4) if b >> s & 1] + [JOKER] * c if typ == 0 else
                     [JOKER if d >> p & 1 else kind_at(a, p) for p in range(b, c + 1)])
            ids = [self._take_out(seat, k, True) for k in kinds]
            slots = [s for s in range(4) if b >> s & 1] if typ == 0 else list(range(b, c + 1))
            self.table_ids.append({**dict(zip(slots, ids)), "JK": ids[len(slots):]})
            if not self.opened[seat]:
                self.opening.append(len(self.table))
            note = {"copies": [copy[q] for q in ids], "number": len(self.table)}
            return {**note, "stands_for": self._stands_for(m)} if JOKER in kinds else note
        _, mi, k, slot = move
        m, places = self.table[mi], self.table_ids[mi]
        q = self._take_out(seat, k, True)
        if kind == "layoff":
            if m[0] == 0 and k == JOKER:
                places["JK"].append(q)
            else:
                places[slot] = q
            stands = self._stands_for(m, [slot]) if k == JOKER else None
            return {"copy": copy[q], "stands_for": stands} if stands else {"copy": copy[q]}
        joker = places["JK"].pop() if m[0] == 0 else places[slot]
        places[slot] = q
        self.held[seat].append(joker)
        return {"copy": copy[q], "joker_copy": copy[joker]}

    def _move(self, action: Action):
        """The move behind an action id (the encoding of the class docstring), read against the table."""
        i = action.id
        if i == DRAW:
            return ("draw",)
        if i < DISCARD:
            return ("take", i - TAKE)
        if i < OPEN:
            return ("discard", i - DISCARD)
        if i < LAYOFF:
            return ("open", i - OPEN)
        if i < RETRIEVE:
            mi, k = divmod((i - LAYOFF) // 3, 53)
            end = (i - LAYOFF) % 3
            m = self.table[mi]
            ok = [mv for mv in self._layoffs(self.hands[self.seat]) if mv[1:3] == (mi, k)]
            return next(mv for mv in ok if not end or (mv[3] < m[2]) == (end == 1))
        if i < MELD:
            mi, k = divmod(i - RETRIEVE, 53)
            return next(mv for mv in self._retrievals(self.hands[self.seat]) if mv[1:3] == (mi, k))
        packed = i - MELD
        return ("meld", (packed >> 27, packed >> 23 & 15, packed >> 19 & 15, packed >> 15 & 15, packed & 0x7FFF))

    def _play(self, move) -> None:
        """Play a legal move, then what the rules force: going out, the next turn, a recycle or a block."""
        seat, hand, turn, kind = self.seat, self.hands[self.seat], self.turn, move[0]
        self.actions.append((seat, self._action(move)))
        if kind == "draw":
            pos = self.stock.pop()
            self._give(seat, self.kind(pos), pos)
            self.drawn = True
        elif kind == "take":
            self._give(seat, self.pile.pop())
            self.drawn, turn["taken"] = True, move[1]
        elif kind == "meld":
            m = list(move[1])
            need = meld_cards(m)
            for k, v in need.items():
                for _ in range(v):
                    self._remove(seat, k)
            self.table.append(m + [seat])
            if not self.opened[seat]:
                turn["pending"].append(m)
            turn["taken_used"] |= turn["taken"] >= 0 and need[turn["taken"]] > 0
            turn["debt"] = max(0, turn["debt"] - need[JOKER])
        elif kind == "open":
            self.opened[seat], self.open_turn[seat] = True, self.t
            turn["pending"], turn["exempt"] = [], bool(move[1])
        elif kind in ("layoff", "retrieve"):
            _, mi, k, slot = move
            m = self.table[mi]
            self.table[mi] = self._laid(m, k, slot) if kind == "layoff" else self._freed(m, slot)
            self._remove(seat, k)
            if kind == "retrieve":
                self._give(seat, JOKER)
                turn["debt"] += self.o.freed_joker_use == "new_meld"
            turn["taken_used"] |= k == turn["taken"]
        else:
            self._remove(seat, move[1])
            self.pile.append(move[1])
            turn["discarded"] = True
        if sum(hand) == 0 and self.opened[seat] and not turn["pending"] and (
                turn["discarded"] or not self.o.go_out_requires_discard):
            self.winner = seat
        elif kind == "discard":
            self.seat, self.t, self.drawn, self.turn = (seat + 1) % self.P, self.t + 1, False, _fresh_turn()
            self._turn_start()

    def _turn_start(self) -> None:
        """§4: a turn that starts with an empty stock recycles the discards once (``recycle_discards``) or
        blocks the round."""
        if self.stock:
            return
        if self.o.recycle_discards and self.recycled_at is None and len(self.pile) > 1:
            cards = Counter(self.pile[:-1])
            order = []
            for k in self.restock_hint:
                if cards[k]:
                    cards[k] -= 1
                    order.append(k)
            rest = [k for k in sorted(cards.elements())]
            seed = self.study.seed if self.study else 0
            order += [rest[i] for i in np.random.default_rng([seed, self.deal]).permutation(len(rest))]
            if self.stream is not None:  # the kernel's shuffle of the pile, from the round's stream
                from cardlab.sim.rami.kernels import shuffle

                cards = np.array(self.pile[:-1], np.int64)
                self.stream = as_stream(shuffle(np.uint64(self.stream), cards, 0, len(cards)))
                order = cards.tolist()
            self.restock, self.pile, self.recycled_at = order, self.pile[-1:], len(self.actions)
            self.stock = [len(self.deck) + j for j in range(len(order) - 1, -1, -1)]
        else:
            self.blocked = True

    # ---------------------------------------------------------------- what a seat knows

    def hidden_cards(self, seat: int) -> list[int]:
        """The others' hand cards that ``seat`` did not see arrive, and the stock."""
        return [self.kind(p) for q in range(self.P) if q != seat for p in self.secret[q]] + \
            [self.kind(p) for p in self.stock]

    def observation(self, seat: int) -> dict:
        """``seat``'s hand, every hand's size and the cards everyone saw go into it (taken discards, freed
        jokers), the discard pile, the table, the stock's size and every move so far."""
        return {"seat": seat, "dealer": self.dealer, "to_move": self.current_player, "turn": self.t,
                "hand": hand_text(self.hands[seat]).split(),
                "hand_sizes": [sum(h) for h in self.hands],
                "known": [sorted(card_name(k) for k in self.known[q].elements()) for q in range(self.P)],
                "pile": [card_name(k) for k in self.pile], "stock": len(self.stock),
                "table": [{"owner": m[5], "cards": meld_str(m).split()} for m in self.table],
                "opened": list(self.opened), "actions": self._entries()}

    def resample(self, seat: int, rng) -> "RamiState":
        """A world: the cards ``seat`` has not seen permuted uniformly among their places (the deck's among
        the deck's, a recycled stock's among its own), then this round's moves replayed on it."""
        n = len(self.deck)
        hidden = [p for q in range(self.P) if q != seat for p in self.secret[q]] + list(self.stock)
        deck, restock = list(self.deck), list(self.restock)
        for places, cards, base in ((sorted(p for p in hidden if p < n), deck, 0),
                                    (sorted(p for p in hidden if p >= n), restock, n)):
            kinds = sorted(cards[p - base] for p in places)  # not their order: the world follows the view alone
            for p, j in zip(places, rng.permutation(len(places))):
                cards[p - base] = kinds[j]
        return self.rewound(len(self.actions), deck, restock)

    # ---------------------------------------------------------------- results

    def result(self) -> dict:
        """§6-§7: the winner (or a blocked round's lowest hands), rami sec and the round's scores."""
        o, P = self.o, self.P
        hv = [hand_value(h, o.card_values) for h in self.hands]
        if self.winner is not None:
            won = [p == self.winner for p in range(P)]
            rami_sec = self.open_turn[self.winner] == self.t and not any(
                self.opened[p] for p in range(P) if p != self.winner)
            turns = self.t + 1
        else:
            tied = [p for p in range(P) if hv[p] == min(hv)]
            if o.blocked_tie == "next_in_turn":
                tied = [min(tied, key=lambda p: (p - self.seat) % P)]
            won, rami_sec, turns = [p in tied for p in range(P)], False, self.t
        return dict(turns=turns, blocked=self.blocked, rami_sec=rami_sec, won=won, opened=list(self.opened),
                    hand_value=hv, score=round_scores(o, won, self.opened, hv, rami_sec))

    def scores(self) -> list:
        return self.result()["score"] if self.is_over else [0] * self.P

    def _entries(self, notes: bool = False) -> list[dict]:
        """The moves as record entries; with ``notes``, each with the copies it moved (the record's, never an
        observation's)."""
        if not notes:
            return [{"seat": s, **a.entry} for s, a in self.actions]
        return [{"seat": s, **a.entry, **note} for (s, a), note in zip(self.actions, self.notes_log)]

    def record(self) -> dict:
        """The round as ``replay --json`` writes it: the deal, dealt hands, moves, result and scores."""
        rec = {**self.keys, "dealer": self.dealer,
               "policies": list(self.study.policies) if self.study else None, "options": self.o.to_dict(),
               "deck": [card_name(k) for k in self.deck],
               "hands": [hand_text(h).split() for h in self.dealt], "actions": self._entries(notes=True)}
        if self.recycled_at is not None:
            rec["restock"] = [card_name(k) for k in self.restock]
            rec["restock_copies"] = [self.copies[q] for q in self.restock_ids]
        over = self.is_over
        rec["result"] = self.result() if over else None
        rec["scores"] = self.result()["score"] if over else None
        return rec


def dealt_round(study, stream, dealer: int, deal: int, keys: dict | None = None) -> RamiState:
    """The round the kernel deals from ``stream`` (its deck shuffled by
    :func:`~cardlab.sim.rami.kernels.shuffled_deck_nb`), dealt by ``dealer``, as a state holding the stream after
    the shuffle (a recycled stock and the random seats draw from it); its record begins with ``keys`` (by default
    the round's: ``game``, ``seed``, ``deal``)."""
    from cardlab.sim.rami.kernels import DECK_MAX, shuffled_deck_nb

    o = study.options
    deck = np.zeros(DECK_MAX, np.int64)
    stream = shuffled_deck_nb(np.uint64(stream), deck, o.deck_size)
    state = RamiState(o, dealer, deck[:o.deck_size].tolist(), study=study, deal=deal, keys=keys)
    state.stream = as_stream(stream)
    return state
