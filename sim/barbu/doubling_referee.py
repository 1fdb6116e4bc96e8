"""Plain-Python referee of Barbu doubling (§5): checks a deal's doubling log, obligations and settlement.

Written from ``docs/rules/barbu.md`` §5 and §7 (items 10, 11, 13) alone, with dicts and plain
loops. It shares nothing with ``sim.barbu.doubling`` but the log encoding (triples
``(actor, target, kind)``, kind 1 double, 2 redouble in one's own turn, 3 late redouble, -1
padding), so agreement between the two is evidence that both are right.

Rules checked, action by action, in log order:

* turns come in the order ``d+1, …, d+n−1``, then the declarer ``d``, then (only with
  ``late_redouble``) redouble-only turns for ``d+1, …, d+n−1``; the log never goes back to an
  earlier turn;
* a double needs ``m = 0``, comes from a non-declarer, and in a positive contract targets the
  declarer;
* a redouble (``1 → 2``) answers a double the actor received from the target; in the actor's
  own turn that double was made before the turn; in a late turn it was made after the actor's
  own turn (the actor had already acted);
* obligation: when ``i`` acts in a deal of ``d``, if ``R_d − done[i][d] ≥`` the deals ``d``
  still declares (this one included), ``i`` doubles ``d``; at game end every ``i`` has doubled
  every ``d`` in at least ``R_d = min(obligation, D_d)`` of ``d``'s deals.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cardlab.sim.barbu.referee import RefereeError

KIND_NAMES = {1: "doubles", 2: "redoubles", 3: "late-redoubles"}


@dataclass
class DoublingVerdict:
    declarer: int
    actions: list  # (actor, target, kind) in order
    m: list  # n x n lists, symmetric, values 0/1/2
    doubled_by: dict = field(default_factory=dict)  # (actor, target) -> turn number of the double

    def doubled(self, i: int, j: int) -> bool:
        """Whether ``i`` doubled ``j`` in this deal."""
        return (i, j) in self.doubled_by


def decode_log(log) -> list:
    """The ``(actor, target, kind)`` triples of a padded int8 log; checks the padding."""
    values = [int(v) for v in log]
    if len(values) % 3:
        raise RefereeError(f"doubling log has {len(values)} entries, not a multiple of 3")
    actions = []
    ended = False
    for k in range(0, len(values), 3):
        triple = values[k:k + 3]
        if all(v == -1 for v in triple):
            ended = True
            continue
        if ended or any(v < 0 for v in triple):
            raise RefereeError(f"doubling log: entries {triple} at {k} follow or mix with the -1 padding")
        actions.append(tuple(triple))
    return actions


def format_action(action) -> str:
    actor, target, kind = action
    return f"seat {actor} {KIND_NAMES.get(kind, f'kind {kind}')} seat {target}"


def check_doubling(n: int, declarer: int, log, *, positive: bool, late_redouble: bool = False,
                   must_double=()) -> DoublingVerdict:
    """Check one deal's doubling log and rebuild ``m``; ``must_double`` = seats obliged to double the declarer.

    ``log`` is the padded int8 array (or a list of triples). Raises :class:`RefereeError` on the
    first illegal action.
    """
    if not 0 <= declarer < n:
        raise RefereeError(f"declarer {declarer} is not a seat of {n}")
    if len(log) and not isinstance(log[0], (tuple, list)):
        actions = decode_log(log)
    else:
        actions = [tuple(int(v) for v in a) for a in log]
    m = [[0] * n for _ in range(n)]
    doubled_by = {}

    def position(seat):  # 1 .. n-1 for the others, n for the declarer
        return (seat - declarer) % n or n

    last_turn = 0
    for number, action in enumerate(actions):
        where = f"action {number + 1} ({format_action(action)})"
        if len(action) != 3:
            raise RefereeError(f"action {number + 1}: {action} is not an (actor, target, kind) triple")
        actor, target, kind = action
        if not (0 <= actor < n and 0 <= target < n) or actor == target:
            raise RefereeError(f"{where}: actor and target must be two different seats of {n}")
        if kind not in KIND_NAMES:
            raise RefereeError(f"{where}: kind must be 1 (double), 2 (redouble) or 3 (late redouble)")
        if kind == 3:
            if not late_redouble:
                raise RefereeError(f"{where}: late redoubles are off")
            if actor == declarer:
                raise RefereeError(f"{where}: the declarer has no late turn")
            turn = n + position(actor)
        else:
            turn = position(actor)
        if turn < last_turn:
            raise RefereeError(f"{where}: out of turn (seat order is left of the declarer, declarer last, "
                               f"then late redoubles)")
        last_turn = turn
        if kind == 1:
            if actor == declarer:
                raise RefereeError(f"{where}: the declarer may never double")
            if positive and target != declarer:
                raise RefereeError(f"{where}: in a positive contract a non-declarer may double only the declarer")
            if m[actor][target] != 0:
                raise RefereeError(f"{where}: the pair is already doubled (m = {m[actor][target]})")
            m[actor][target] = m[target][actor] = 1
            doubled_by[(actor, target)] = turn
        else:
            if (target, actor) not in doubled_by:
                raise RefereeError(f"{where}: seat {target} never doubled seat {actor}")
            if m[actor][target] != 1:
                raise RefereeError(f"{where}: the pair is already redoubled")
            made_after_own_turn = doubled_by[(target, actor)] > position(actor)
            if kind == 2 and made_after_own_turn:
                raise RefereeError(f"{where}: the double came after the actor's turn")
            if kind == 3 and not made_after_own_turn:
                raise RefereeError(f"{where}: a late redouble answers only a double made after the actor had acted")
            m[actor][target] = m[target][actor] = 2
    for seat in must_double:
        if (seat, declarer) not in doubled_by:
            raise RefereeError(f"seat {seat} was obliged to double the declarer {declarer} but did not")
    return DoublingVerdict(declarer, actions, m, doubled_by)


def settle(raw, m) -> list:
    """Final deal scores: for each pair with ``m ≥ 1``, ``Δ = m·(s_i − s_j)`` goes to ``i``, ``−Δ`` to ``j``."""
    n = len(raw)
    final = [int(s) for s in raw]
    for i in range(n):
        for j in range(i + 1, n):
            if m[i][j] != m[j][i]:
                raise RefereeError(f"m is not symmetric at seats {i}, {j}")
            if m[i][j] not in (0, 1, 2):
                raise RefereeError(f"m[{i}][{j}] = {m[i][j]} is not 0, 1 or 2")
            delta = int(m[i][j]) * (int(raw[i]) - int(raw[j]))
            final[i] += delta
            final[j] -= delta
    return final


@dataclass
class DoublingDeal:
    """One deal of a game as the referee sees it; ``raw``/``final`` are optional score checks."""

    declarer: int
    log: object
    positive: bool = False
    raw: object = None
    final: object = None


def check_game(n: int, deals, *, late_redouble: bool = False, obligation: int = 2) -> list:
    """Check every deal of a game in order, the obligation rule and settlement; returns the verdicts.

    ``deals`` is a sequence of :class:`DoublingDeal` (or ``(declarer, log, positive)`` tuples).
    The deal counts ``D_d`` come from the sequence itself.
    """
    deals = [d if isinstance(d, DoublingDeal) else DoublingDeal(*d) for d in deals]
    declared = [0] * n
    for deal in deals:
        declared[deal.declarer] += 1
    required = [min(obligation, count) for count in declared]
    left = list(declared)
    done = [[0] * n for _ in range(n)]
    verdicts = []
    for number, deal in enumerate(deals):
        d = deal.declarer
        must = [i for i in range(n) if i != d and required[d] - done[i][d] >= left[d]]
        try:
            verdict = check_doubling(n, d, deal.log, positive=deal.positive, late_redouble=late_redouble,
                                     must_double=must)
        except RefereeError as error:
            raise RefereeError(f"deal {number}: {error}") from None
        for i in range(n):
            if verdict.doubled(i, d):
                done[i][d] += 1
        left[d] -= 1
        if deal.raw is not None:
            final = settle(deal.raw, verdict.m)
            if deal.final is not None and [int(s) for s in deal.final] != final:
                raise RefereeError(f"deal {number}: final scores {[int(s) for s in deal.final]}, "
                                   f"the rules give {final}")
        verdicts.append(verdict)
    for d in range(n):
        for i in range(n):
            if i != d and done[i][d] < required[d]:
                raise RefereeError(f"seat {i} doubled declarer {d} in {done[i][d]} of {declared[d]} deals; "
                                   f"at least {required[d]} are required")
    return verdicts
