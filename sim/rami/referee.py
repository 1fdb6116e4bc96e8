"""A plain-Python referee for Rami: replays a round's move log through :class:`~cardlab.sim.rami.state.RamiState`.

Every logged move must be legal for the seat the state says is to move, then the state plays it, so
the rules checked here are the state's, the only Python copy (a meld's validity is checked by that code,
not the kernels'; whether a turn can still end uses the kernels' exact meld search). Card conservation is checked after every event; at the end the state's winners, rami
sec and scores (``rules.round_scores``) are the result.
"""
from __future__ import annotations

from collections import Counter

from cardlab.sim.rami.rules import JOKER, RamiOptions, card_name
from cardlab.sim.rami.state import RamiState, meld_cards, meld_ok, meld_points, meld_str  # noqa: F401 (the API)
from cardlab.sim.state import IllegalAction

EV_NAMES = {1: "draw", 2: "take", 3: "meld", 4: "open", 5: "layoff", 6: "retrieve", 7: "discard", 8: "out",
            9: "recycle", 10: "blocked"}


class RefereeError(Exception):
    """A move the rules do not allow, or a result that does not match them."""


def dealt_state(options: RamiOptions, dealer: int, deck, log=(), **keywords) -> RamiState:
    """The round dealt from the logged ``deck``; a recycled stock is drawn in the order ``log`` drew it."""
    deck = [int(k) for k in deck[: options.deck_size]]
    if Counter(deck) != Counter({**{k: 2 for k in range(52)}, JOKER: options.n_jokers}):
        raise RefereeError("the deck is not two packs plus the jokers")
    codes = [int(r[0]) for r in log]
    after = codes.index(9) if 9 in codes else len(codes)
    restock = [int(r[2]) for r in log[after:] if int(r[0]) == 1]
    return RamiState(options, dealer, deck, restock=restock, **keywords)


def log_entry(state: RamiState, name: str, x) -> dict:
    """The action entry a kernel log row stands for (``name`` and its integers ``x``)."""
    if name == "draw":
        return {"kind": "draw"}
    if name in ("take", "discard"):
        return {"kind": name, "card": card_name(x[0])}
    if name == "meld":
        return {"kind": "meld", "cards": meld_str(x[:5]).split()}
    if name == "open":
        return {"kind": "open", "exempt": True} if x[0] == 1 else {"kind": "open"}
    if name == "layoff":
        return state.layoff_entry(x[0], x[1], x[2])
    return {"kind": "retrieve", "card": card_name(x[1]), "meld": x[0]}


def check_round(options: RamiOptions, dealer: int, deck, log, *, describe: bool = False):
    """Replay one round's log; returns ``(result, lines)``.

    ``result``: dict with ``turns``, ``blocked``, ``rami_sec``, ``won``, ``opened``, ``hand_value``,
    ``score`` (lists per seat). ``lines``: the round turn by turn in readable cards (``describe``).
    Raises :class:`RefereeError` at the first illegal move.
    """
    state = dealt_state(options, dealer, deck, log)
    lines = play_log(state, log, describe=describe)
    return state.result(), lines


def play_log(state: RamiState, log, *, describe: bool = False) -> list[str]:
    """Play a kernel's log through ``state``, checking each move; the round's text when ``describe``."""
    full = [state.deck.count(kind) for kind in range(len(state.hands[0]))]
    lines = []
    say = lines.append if describe else (lambda line: None)
    for p in range(state.P):
        say(f"seat {p} dealt: {_hand_str(state.hands[p])}")
    say(f"upcard: {card_name(state.pile[-1])}")
    for row in log:
        code, who = int(row[0]), int(row[1])
        x = [int(v) for v in row[2:]]
        name = EV_NAMES.get(code)
        t = state.t
        if name is None:
            raise RefereeError(f"unknown event code {code}")
        if name in ("recycle", "blocked", "out"):
            if name == "recycle" and (state.recycled_at != len(state.actions) or x[0] != len(state.restock)):
                raise RefereeError(f"turn {t}: recycling the discards is not allowed here")
            if name == "blocked" and not state.blocked:
                raise RefereeError(f"turn {t}: blocked although the round goes on")
            if name == "out" and state.winner != who:
                raise RefereeError(f"turn {t}: going out needs an empty hand and an opened player")
            if name == "recycle":
                say(f"the {x[0]} discards under the top card are shuffled into a new stock")
            elif name == "blocked":
                say(f"turn {t + 1}: seat {who} cannot draw: the round is blocked")
            else:
                say(f"    seat {who} goes out")
            continue
        if state.is_over:
            raise RefereeError("an event after the round ended")
        if who != state.current_player:
            raise RefereeError(f"turn {t}: seat {who} acted but it is seat {state.current_player}'s turn")
        if name == "draw" and state.stock_top() != x[0]:
            raise RefereeError(f"turn {t}: drew {card_name(x[0])}, not the top of the stock")
        before = [list(m) for m in state.table]
        pending = sum(meld_points(m) for m in state.turn["pending"])
        try:
            action = state.apply(log_entry(state, name, x))
        except IllegalAction as e:
            raise RefereeError(f"turn {t}: {e}") from None
        if describe:
            say(_describe(state, name, x, action, before, pending))
        _conserve(state, full, f"turn {t} ({name})")
    if not state.is_over:
        raise RefereeError("the log ends before the round does")
    result = state.result()
    hv = result["hand_value"]
    say("hands left: " + "; ".join(f"seat {p}: {_hand_str(state.hands[p]) or '-'} (H={hv[p]})"
                                   for p in range(state.P)))
    how = "rami sec" if result["rami_sec"] else "blocked" if result["blocked"] else "out"
    say(f"winner(s): {[p for p in range(state.P) if result['won'][p]]} ({how}); scores: {result['score']}")
    return lines


def _describe(state: RamiState, name: str, x, action, before, pending) -> str:
    """One logged move in words, as the text replay shows it."""
    seat = state.actions[-1][0]
    if name in ("draw", "take"):
        src = "stock" if name == "draw" else "discard pile"
        return (f"turn {state.t + 1}: seat {seat} {'draws' if name == 'draw' else 'takes'} {card_name(x[0])} "
                f"from the {src}")
    if name == "meld":
        return f"    melds {meld_str(x[:5])} ({meld_points(x[:5])})"
    if name == "open":
        return f"    opens with {pending} points" + (" (rami sec exemption)" if x[0] == 1 else "")
    if name == "layoff":
        return f"    lays off {card_name(x[1])} on {meld_str(state.table[x[0]])}"
    if name == "retrieve":
        return (f"    takes back the joker of {meld_str(before[x[0]])} with {card_name(x[1])}: "
                f"now {meld_str(state.table[x[0]])}")
    hand = state.hands[seat]
    return f"    discards {card_name(x[0])}; holds {sum(hand)}: {_hand_str(hand)}"


def _conserve(state: RamiState, full: list, where: str) -> None:
    """Every card of the deck is in a hand, the stock, the discard pile or on the table, once: ``full`` counts
    the deck's copies of each card kind."""
    counts = [sum(copies) for copies in zip(*state.hands)]
    order = state.deck + state.restock
    for pos in state.stock:
        counts[order[pos]] += 1
    for kind in state.pile:
        counts[kind] += 1
    for m in state.table:
        for kind, n in meld_cards(m).items():
            counts[kind] += n
    if counts != full or any(min(h) < 0 for h in state.hands):
        raise RefereeError(f"{where}: cards not conserved")


def _hand_str(h) -> str:
    return " ".join(card_name(k) for k in range(53) for _ in range(h[k]))
