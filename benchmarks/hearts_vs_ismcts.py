"""Hearts: cardlab's search against OpenSpiel's IS-MCTS at equal time per card decision, in paired deals.

    pip install 'cardlab[peers]'          # open-spiel
    python benchmarks/hearts_vs_ismcts.py --deals 200 [--worlds 32 256 --deals 1000 200]
    python benchmarks/hearts_vs_ismcts.py --deals 400 --opponent heuristic random --ismcts-opponent random heuristic

The question: is cardlab's Hearts ``search`` seat (determinized search over ``W`` sampled worlds, heuristic rollouts:
:mod:`cardlab.sim.hearts.search`) stronger than OpenSpiel's information-set MCTS (``pyspiel.ISMCTSBot``, random
rollouts) when both spend the same time on a card? One deal of OpenSpiel's ``hearts`` with its default rules (the
three-card pass, no points on the first trick, hearts broken by a heart or the Q♠, the moon) is one game.

* **Deals.** Deal ``i`` draws OpenSpiel's 53 chance actions (the pass direction uniformly among the legal ones,
  then the 52 cards) from ``numpy.random.default_rng([seed, i])``, so any deal can be replayed on its own.
* **Paired seatings.** Every deal is played twice: cardlab's search at seats 0 and 2 against IS-MCTS at 1 and 3,
  then the same cards and pass direction with the sides swapped. A deal's result is the mean points of the search's
  two seats minus the mean points of the other two, averaged over the two seatings: negative means the search
  took fewer points, i.e. played better. The table gives the mean over deals with a 95 % normal interval (1.96
  standard errors of the per-deal results), and each side's mean points per seat and deal.
* **Referee.** OpenSpiel's state plays the whole deal. A :class:`~cardlab.sim.hearts.referee.HeartsState` built
  from the same deal applies every move beside it (card ids mapped ``16 * suit + rank`` <-> ``4 * rank + suit``)
  and is what cardlab's seats are asked; at the end OpenSpiel's returns must equal 26 minus cardlab's points.
* **cardlab's seat** calls :func:`~cardlab.sim.hearts.state_policies.searched_move` on that state, which runs the
  kernels' search for the seat to move from what it has seen (its search stream keyed by ``(seed, deal i)``, so a
  rerun searches alike). The search does not peek: swapping unplayed same-suit cards between two other seats leaves
  its move and its means unchanged.
* **IS-MCTS seat**: ``pyspiel.ISMCTSBot(seed, RandomRolloutEvaluator(1, seed), uct_c, simulations, -1,
  MAX_VISIT_COUNT)`` (the binding takes no game; one fresh bot per seat and game, seeded by deal, seating and
  seat; every simulation resamples a world with hearts' ``ResampleFromInfostate``, which by its own account ignores
  the voids the play has shown), ``bot.step(state)`` on OpenSpiel's state. It needs 2 simulations at least (the
  first only creates the root). Its moves are not reproducible from one process to the next despite the seeds:
  a node's children live in an ``absl::flat_hash_map``, whose order (per-process hash seed) breaks ties in UCB
  selection and in the final most-visited choice. Below about one simulation per legal card every child is
  visited once and that tie-break picks the card, so at very small counts IS-MCTS is close to a random card among
  those it tried. ``uct_c`` 2 (on returns 0..26) was no worse than 0.5 or 8 in short trial matches at 80
  simulations.
* **Passing is not compared**: every seat passes as cardlab's heuristic does (cardlab's search seats pass that way
  anyway). IS-MCTS cannot be asked for passes in OpenSpiel 2.0.2: hearts' ``ResampleFromInfostate`` hands the seat
  to move the cards its passer really passed while that passer's hand is resampled, so a sampled world can pass
  cards the passer does not hold, and the search then crashes the interpreter (a segmentation fault at the first
  pass of any seat whose passer has already passed). A ``random`` sanity seat passes at random.
* **Equal time.** Only card decisions with more than one legal card are searched and timed (a single legal card is
  played at once by both sides). Before the rows of a ``W``, ``--calibration-deals`` deals (numbered apart from
  the match's) are played by four search seats and cardlab's mean time per decision is taken; IS-MCTS is then
  timed on the very same decision states at 4 and 32 simulations, the simulation count that matches is solved for
  on the line through them (IS-MCTS's time is linear in simulations) and checked once more at that count. The
  table shows both sides' mean times per decision measured during the match itself (same process, moves
  interleaved, so both see the same machine load). ``--simulations`` sets the count instead.

Sanity rows (``--opponent heuristic random``: the search against cardlab's own heuristic seat or uniformly
random cards; ``--ismcts-opponent heuristic random``: IS-MCTS at the calibrated count against those) are played by
the same harness and show its signs and sizes: a search far ahead of random play, IS-MCTS ahead of random play.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time

import numpy as np

PLAYERS = 4
DEAL_CARDS = 52
PASS_ID = 64  # cardlab's pass action id is 64 + card id
SEED = 7
CALIBRATION_FIRST = 1_000_000  # calibration deals are numbered from here, apart from the match's
CALIBRATION_SIMS = (4, 32)


# ----------------------------------------------------------------- card numbering and deals


def spiel_action(card: int) -> int:
    """OpenSpiel's action ``4 * rank + suit`` for cardlab card id ``16 * suit + rank``."""
    return 4 * (card % 16) + card // 16


def cardlab_card(action: int) -> int:
    """cardlab's card id for OpenSpiel card action ``action``."""
    return 16 * (action % 4) + action // 4


def new_deal(game, seed: int, index: int):
    """OpenSpiel's state of deal ``index``, every chance action drawn: pass direction, then the 52 cards."""
    rng = np.random.default_rng([seed, index])
    state = game.new_initial_state()
    while state.is_chance_node():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state


def cardlab_state(spiel_state, options, study, index: int):
    """The HeartsState of a freshly dealt OpenSpiel state: the ``k``-th dealt card goes to seat ``k % 4``; OpenSpiel's
    pass direction (none, left, across, right) is cardlab's offset."""
    from cardlab.sim.hearts.referee import HeartsState

    history = spiel_state.history()
    hands = [set() for _ in range(PLAYERS)]
    for k, action in enumerate(history[1:1 + DEAL_CARDS]):
        hands[k % PLAYERS].add(cardlab_card(action))
    state = HeartsState(options, hands, deal=index, offset=history[0], study=study)
    state.stream = 0
    state.search_key = (index, 0)
    return state


# ----------------------------------------------------------------- the seats


class Seat:
    """A side's player (one object for both its seats): ``start`` once per seat and game, ``card`` at each card
    decision with more than one legal card (OpenSpiel's state and the HeartsState beside it; returns OpenSpiel's
    action), ``pass_card`` while passing (returns a cardlab card id)."""

    name = "?"

    def start(self, seed: int, index: int, seating: int, seat: int) -> None:
        pass

    def pass_card(self, state) -> int:
        from cardlab.sim.hearts.state_policies import policy_action

        return policy_action(state, "heuristic").id - PASS_ID

    def card(self, spiel_state, state) -> int:
        raise NotImplementedError


class Search(Seat):
    def __init__(self, worlds: int):
        self.worlds, self.name = worlds, f"cardlab search W={worlds}"

    def card(self, spiel_state, state) -> int:
        from cardlab.sim.hearts.state_policies import searched_move

        return spiel_action(searched_move(state, "search", self.worlds)[0].id)


class Heuristic(Seat):
    name = "cardlab heuristic"

    def card(self, spiel_state, state) -> int:
        from cardlab.sim.hearts.state_policies import policy_action

        return spiel_action(policy_action(state, "heuristic").id)


class Random(Seat):
    name = "uniform random"

    def __init__(self):
        self.rngs = {}

    def start(self, seed, index, seating, seat):
        self.rngs[seat] = np.random.default_rng([seed, index, seating, seat, 1])

    def pass_card(self, state) -> int:
        hand = sorted(state.hands[state.current_player])
        return hand[self.rngs[state.current_player].integers(len(hand))]

    def card(self, spiel_state, state) -> int:
        legal = spiel_state.legal_actions()
        return legal[self.rngs[state.current_player].integers(len(legal))]


class ISMCTS(Seat):
    def __init__(self, simulations: int, uct_c: float, final_policy: str):
        self.simulations, self.uct_c, self.final_policy = simulations, uct_c, final_policy
        self.name, self.bots = f"IS-MCTS {simulations} sims", {}

    def bot(self, seed: int):
        import pyspiel

        seed = seed % 2 ** 31
        return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), self.uct_c, self.simulations, -1,
                                 getattr(pyspiel.ISMCTSFinalPolicyType, self.final_policy))

    def start(self, seed, index, seating, seat):
        self.bots[seat] = self.bot(seed * 1_000_003 + 8 * index + 4 * seating + seat)

    def card(self, spiel_state, state) -> int:
        return self.bots[state.current_player].step(spiel_state)


# ----------------------------------------------------------------- one game


def play(deal, index: int, seats: list, seating: int, options, study, seed: int, snapshots=None):
    """Deal ``index`` (OpenSpiel's dealt state ``deal``, left untouched) played to its end by ``seats`` (one Seat
    per seat). Returns each seat's points and, per seat, the seconds of each timed decision. With ``snapshots`` (a
    list), a copy of OpenSpiel's state is appended there before each timed decision."""
    spiel_state = deal.clone()
    state = cardlab_state(spiel_state, options, study, index)
    for p, seat in enumerate(seats):
        seat.start(seed, index, seating, p)
    times = [[] for _ in range(PLAYERS)]
    while not spiel_state.is_terminal():
        p = spiel_state.current_player()
        if p != state.current_player:
            raise AssertionError(f"seat to move: OpenSpiel {p}, cardlab {state.current_player}; "
                                 f"history {spiel_state.history()}")
        if state.passing:
            c = seats[p].pass_card(state)
            spiel_state.apply_action(spiel_action(c))
            state.apply(PASS_ID + c)
            continue
        legal = spiel_state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            if snapshots is not None:
                snapshots.append(spiel_state.clone())
            t0 = time.perf_counter()
            action = seats[p].card(spiel_state, state)
            times[p].append(time.perf_counter() - t0)
        spiel_state.apply_action(action)
        state.apply(cardlab_card(action))
    points = [26 - r for r in spiel_state.returns()]
    if state.scores() != points:
        raise AssertionError(f"points: OpenSpiel {points}, cardlab {state.scores()}; history {spiel_state.history()}")
    return points, times


# ----------------------------------------------------------------- equal time


def search_decisions(game, options, study, worlds: int, deals: int, seed: int):
    """Calibration deals played by four search seats: cardlab's mean seconds per decision and OpenSpiel's state at
    each decision."""
    snapshots, seconds = [], []
    for j in range(deals):
        index = CALIBRATION_FIRST + j
        _, times = play(new_deal(game, seed, index), index, [Search(worlds)] * PLAYERS, 0, options, study, seed,
                        snapshots)
        seconds += [t for ts in times for t in ts]
    return float(np.mean(seconds)), snapshots


def ismcts_seconds(states, simulations: int, uct_c: float, final_policy: str, seed: int) -> float:
    """IS-MCTS's mean seconds per decision over ``states`` at ``simulations``."""
    seat = ISMCTS(simulations, uct_c, final_policy)
    bot = seat.bot(seed)
    bot.step(states[0])  # warm-up
    seconds = []
    for s in states:
        t0 = time.perf_counter()
        bot.step(s)
        seconds.append(time.perf_counter() - t0)
    return float(np.mean(seconds))


def calibrate(states, target: float, uct_c: float, final_policy: str, seed: int):
    """The simulation count whose mean time per decision over ``states`` matches ``target`` seconds, and the
    timings made: (simulations, seconds) pairs."""
    points = [(n, ismcts_seconds(states, n, uct_c, final_policy, seed)) for n in CALIBRATION_SIMS]

    def solve(pts):
        (n0, t0), (n1, t1) = pts
        slope = (t1 - t0) / (n1 - n0)
        return max(2, round(n0 + (target - t0) / slope)) if slope > 0 else n1

    guess = solve(points)
    if guess not in dict(points):
        points.append((guess, ismcts_seconds(states, guess, uct_c, final_policy, seed)))
        nearest = sorted(points, key=lambda nt: abs(nt[1] - target))[:2]
        if nearest[0][0] != nearest[1][0]:
            guess = solve(sorted(nearest))
    return guess, points


# ----------------------------------------------------------------- rows


def match(game, options, study, side_a: Seat, side_b: Seat, deals: int, seed: int) -> dict:
    """``deals`` paired deals of ``side_a`` against ``side_b`` (A at seats 0 and 2, then at 1 and 3)."""
    diffs, points_a, points_b, times_a, times_b = [], [], [], [], []
    t0 = time.perf_counter()
    for i in range(deals):
        deal = new_deal(game, seed, i)
        per_seating = []
        for seating in (0, 1):
            a_seats = (0, 2) if seating == 0 else (1, 3)
            seats = [side_a if p in a_seats else side_b for p in range(PLAYERS)]
            points, times = play(deal, i, seats, seating, options, study, seed)
            pa = [points[p] for p in a_seats]
            pb = [points[p] for p in range(PLAYERS) if p not in a_seats]
            points_a += pa
            points_b += pb
            per_seating.append(np.mean(pa) - np.mean(pb))
            for p in range(PLAYERS):
                (times_a if p in a_seats else times_b).extend(times[p])
        diffs.append(float(np.mean(per_seating)))
    diffs = np.array(diffs)
    half = 1.96 * diffs.std(ddof=1) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return {"a": side_a.name, "b": side_b.name, "deals": deals, "mean_diff": float(diffs.mean()),
            "ci_low": float(diffs.mean() - half), "ci_high": float(diffs.mean() + half),
            "a_points": float(np.mean(points_a)), "b_points": float(np.mean(points_b)),
            "a_ms": 1000 * float(np.mean(times_a)) if times_a else float("nan"),
            "b_ms": 1000 * float(np.mean(times_b)) if times_b else float("nan"),
            "a_decisions": len(times_a), "b_decisions": len(times_b),
            "a_better_pct": 100 * float((diffs < 0).mean()), "b_better_pct": 100 * float((diffs > 0).mean()),
            "seconds": time.perf_counter() - t0}


def print_header() -> None:
    print(f"{'side A':<22} {'side B':<22} {'deals':>6} {'A pts':>6} {'B pts':>6} {'A - B [95% CI]':>24}"
          f" {'A better':>8} {'B better':>8} {'A ms/dec':>9} {'B ms/dec':>9} {'wall s':>7}", flush=True)


def print_row(r: dict) -> None:
    ci = f"{r['mean_diff']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"
    print(f"{r['a']:<22} {r['b']:<22} {r['deals']:>6} {r['a_points']:>6.2f} {r['b_points']:>6.2f} {ci:>24}"
          f" {r['a_better_pct']:>7.1f}% {r['b_better_pct']:>7.1f}% {r['a_ms']:>9.3f} {r['b_ms']:>9.3f}"
          f" {r['seconds']:>7.0f}", flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, nargs="+", default=[200],
                    help="paired deals per row, one number per --worlds value (the last one repeats; default 200)")
    ap.add_argument("--worlds", type=int, nargs="+", default=[32],
                    help="the search's worlds W; one block of rows per value (default 32)")
    ap.add_argument("--simulations", type=int, nargs="+",
                    help="IS-MCTS simulations per decision, one per --worlds value, instead of calibrating (>= 2)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"deals, search and bots (default {SEED})")
    ap.add_argument("--opponent", nargs="+", choices=["ismcts", "heuristic", "random"], default=["ismcts"],
                    help="the search's opponents, one row each (default ismcts)")
    ap.add_argument("--ismcts-opponent", nargs="*", choices=["heuristic", "random"], default=[],
                    help="sanity rows: IS-MCTS (at the W's simulations) against these (default none)")
    ap.add_argument("--uct-c", type=float, default=2.0,
                    help="IS-MCTS's UCT constant, on returns 0..26 (default 2.0, OpenSpiel's usual)")
    ap.add_argument("--final-policy", choices=["MAX_VISIT_COUNT", "MAX_VALUE", "NORMALIZED_VISIT_COUNT"],
                    default="MAX_VISIT_COUNT", help="IS-MCTS's move from its root (default MAX_VISIT_COUNT)")
    ap.add_argument("--calibration-deals", type=int, default=4,
                    help="deals of four search seats whose decisions time both sides (default 4)")
    ap.add_argument("--json", help="also write the rows to this JSON file")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        raise SystemExit("hearts_vs_ismcts.py needs OpenSpiel: pip install 'cardlab[peers]' (the open-spiel wheel)") \
            from None
    from cardlab.sim.hearts import HEARTS
    from cardlab.sim.hearts.rules import HeartsOptions

    if args.simulations and min(args.simulations) < 2:
        ap.error("--simulations: IS-MCTS needs at least 2 (its first simulation only creates the root)")
    game = pyspiel.load_game("hearts")
    options = HeartsOptions(**game.get_parameters())  # OpenSpiel's eight rule parameters, same names
    started = time.perf_counter()
    print(f"Hearts, OpenSpiel {pyspiel.__version__} default rules; paired deals (each played with both seatings); "
          f"seed {args.seed}; {os.cpu_count()} CPUs, load average {load()}")
    print(f"IS-MCTS: RandomRolloutEvaluator(1 rollout), uct_c {args.uct_c}, {args.final_policy}, a world resampled "
          f"every simulation; every seat passes as cardlab's heuristic (random seats at random)", flush=True)
    rows = []
    for k, worlds in enumerate(args.worlds):
        deals = args.deals[min(k, len(args.deals) - 1)]
        study = HEARTS.build("deals", seed=args.seed, policy=["search"] * PLAYERS, search_worlds=worlds,
                             **game.get_parameters())
        warm = CALIBRATION_FIRST - 1  # one deal not timed: the kernels' first call loads (or compiles) them
        play(new_deal(game, args.seed, warm), warm, [Search(worlds)] * PLAYERS, 0, options, study, args.seed)
        needs_ismcts = "ismcts" in args.opponent or args.ismcts_opponent
        calibration = None
        if args.simulations:
            sims = args.simulations[min(k, len(args.simulations) - 1)]
        elif needs_ismcts:
            target, states = search_decisions(game, options, study, worlds, args.calibration_deals, args.seed)
            sims, timings = calibrate(states, target, args.uct_c, args.final_policy, args.seed)
            calibration = {"search_ms": 1000 * target, "decisions": len(states),
                           "ismcts_ms": {n: 1000 * t for n, t in timings}}
            print(f"\nW={worlds}: calibration on {len(states)} decisions of {args.calibration_deals} deals: search "
                  f"{1000 * target:.3f} ms/decision; IS-MCTS "
                  + ", ".join(f"{n} sims {1000 * t:.3f} ms" for n, t in sorted(timings))
                  + f" -> {sims} simulations", flush=True)
        else:
            sims = None
        print(f"\nW={worlds}" + (f", IS-MCTS {sims} simulations" if sims else "") + f", load average {load()}")
        print_header()
        search = Search(worlds)
        pairs = [(search, {"ismcts": lambda: ISMCTS(sims, args.uct_c, args.final_policy),
                           "heuristic": Heuristic, "random": Random}[o]()) for o in args.opponent]
        pairs += [(ISMCTS(sims, args.uct_c, args.final_policy), {"heuristic": Heuristic, "random": Random}[o]())
                  for o in args.ismcts_opponent]
        for side_a, side_b in pairs:
            r = match(game, options, study, side_a, side_b, deals, args.seed)
            r.update(worlds=worlds, simulations=sims, calibration=calibration, load=load())
            rows.append(r)
            print_row(r)
    print(f"\nA - B: per deal, the mean points of side A's two seats minus side B's, averaged over both seatings; "
          f"negative = A took fewer points (better). 95% CI: 1.96 standard errors over deals. A/B better: deals "
          f"where that side's result was better. ms/dec: mean time per card decision with more than one legal card, "
          f"measured in the match. Load average at the end {load()}; {time.perf_counter() - started:.0f} s in all.")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "uct_c": args.uct_c, "final_policy": args.final_policy,
                       "openspiel": pyspiel.__version__, "rows": rows}, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
