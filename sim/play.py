"""Play a deal yourself, against cardlab's seats: ``cardlab play <game>`` in a terminal, or
:func:`play` in a notebook (the same loop, reading your moves with ``input``).

You take one seat; the others play their policies (by default the heuristic: the kernels' own decisions,
which every game's step API plays, ``State.policy_action``). Before each of your moves you see your view of
the deal (your hand, what has been played: the state's ``observation``, never a hidden card) and
the legal moves, numbered. Answer with a number or a move's name (``K♥``, ``kh`` and ``KH`` too:
letters c, d, h, s stand for the suits); ``?`` asks for a hint (each legal move's mean final score
over deals resampled from your view, :func:`hint_means`; ``? 32`` samples 32 per move); ``q`` stops.
A move the rules refuse is refused with the rule it breaks, and you answer again. The finished deal is
saved as its JSON record, with the game, seed, deal and options, which ``cardlab replay <game> --record
FILE`` checks move by move.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cardlab.sim.state import IllegalAction

SUIT_LETTERS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANKS = {str(r) for r in range(2, 11)} | {"J", "Q", "K", "A"}


def read_move(text: str, legal: list):
    """The move meant by ``text``: a number of the list (from 1), else the text as a name, with a
    trailing suit letter read as its symbol (``kh`` → ``K♥``, ``10s`` → ``10♠``)."""
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    words = text.split()
    last = words[-1] if words else ""
    if len(last) >= 2 and last[-1].lower() in SUIT_LETTERS and last[:-1].upper() in RANKS:
        words[-1] = last[:-1].upper() + SUIT_LETTERS[last[-1].lower()]
    return " ".join(words)


def describe_view(observation: dict, seen: int) -> list[str]:
    """Lines showing a seat's view: its hand, then the public moves since it last looked (from
    action ``seen`` on), then the rest of what it knows, one key a line."""
    lines = []
    actions = observation.get("actions", [])
    for entry in actions[seen:]:
        what = " ".join(str(v) for k, v in entry.items() if k not in ("seat",))
        lines.append(f"  seat {entry.get('seat', '?')}: {what}")
    for key, value in observation.items():
        if key in ("actions", "seat", "to_move"):
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = " ".join(value) or "-"
        elif not isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False)
        lines.append(f"{key}: {value}")
    return lines


def bot_move(state, policy: str, rng):
    """The move of a cardlab seat: its game's built-in decision (``State.policy_action``; :func:`play` checks the
    state plays it), or uniform over the legal moves (drawn from ``rng``) for ``random`` and where the built-in
    seat has no move (``State.policy_ready``: the rest of a Rami turn another player began, in a hint's play-out)."""
    if policy != "random" and state.policy_ready():
        return state.policy_action(policy)
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def play(game, *, seat: int = 0, policy=None, seed: int = 0, deal: int = 0, game_index: int | None = None,
         read=input, write=print, save=None, **options):
    """Play deal ``deal`` of ``game`` (a name or a Game), or whole game ``game_index`` (deal after deal), in seat
    ``seat`` against ``policy`` (one name, or one per seat; yours is ignored; default: the heuristic where the
    game's state plays it, else random), reading your moves with ``read`` and writing with ``write``. Returns
    the finished state (None when you stop); ``save`` (a path) receives its record."""
    from cardlab.sim.games import game as game_named

    g = game_named(game) if isinstance(game, str) else game
    whole = game_index is not None
    if whole and deal:
        raise ValueError("deal: give a deal or a game_index (a whole game), not both")

    def start(bots):
        if whole:
            return g.game_state(seed=seed, game=game_index, policy=bots, **options)
        return g.state(seed=seed, deal=deal, policy=bots, **options)

    state = start(policy or "heuristic")
    if policy is None and "heuristic" not in state.builtin_policies:
        state = start("random")
    n = g.players(state.study.options)
    if not 0 <= seat < n:
        raise ValueError(f"seat: {seat} is not allowed; choose 0 to {n - 1}")
    bots = state.study.policies
    builtin = [p for i, p in enumerate(bots) if i != seat and p != "random" and p not in state.builtin_policies]
    if builtin:
        allowed = ", ".join(("random",) + tuple(p for p in state.builtin_policies if p != "random"))
        raise ValueError(f"policy: {builtin[0]} seats do not play in {g.name}'s step API; give {allowed}")
    rng = np.random.default_rng([seed, game_index if whole else deal, int(whole)])
    write(f"{g.title}, {f'whole game {game_index}' if whole else f'deal {deal}'} of seed {seed}: you are seat "
          f"{seat}; the others play " + ", ".join(f"seat {p} {bots[p]}" for p in range(n) if p != seat))
    seen, dealt = 0, 0
    while not state.is_over:
        if whole and state.deal != dealt:  # a deal of the game is over: its end, then the next deal
            _deal_over(state.finished[-1], seat, seen, write)
            seen, dealt = 0, state.deal
            write(f"game totals: {_scores(state.scores())}; deal {dealt}")
        p = state.current_player
        if p != seat:
            state.apply(bot_move(state, bots[p], rng))
            continue
        obs = state.observation(seat)
        for line in describe_view(obs, seen):
            write(line)
        seen = len(obs.get("actions", []))
        legal = state.legal_actions()
        write("your move: " + "  ".join(f"{k}) {a.name}" for k, a in enumerate(legal, 1)))
        while True:
            answer = read("> ")
            if answer.strip().lower() in ("q", "quit"):
                write("stopped; nothing saved")
                return None
            words = answer.split()
            if words and words[0] == "?" and len(words) <= 2 and all(w.isdigit() and int(w) > 0 for w in words[1:]):
                write(hint(state, int(words[1]) if len(words) == 2 else HINT_WORLDS))
                continue
            try:
                state.apply(read_move(answer, legal))
                break
            except IllegalAction as e:
                write(f"refused: {e}")
    if whole:
        _deal_over(state.finished[-1], seat, seen if state.deal == dealt + 1 else 0, write)
        write(f"game over after {state.deal} deals; totals: {_scores(state.scores())}")
    else:
        _deal_over(state, seat, seen, write)
    if save is not None:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(saved_record(state), ensure_ascii=False) + "\n")
        write(f"saved {path}")
    return state


def _scores(scores) -> str:
    return "  ".join(f"seat {p}: {s:+}" for p, s in enumerate(scores))


def _deal_over(state, seat: int, seen: int, write) -> None:
    """Show the end of a finished deal from ``seat``'s view (the moves since ``seen``) and its scores."""
    for line in describe_view(state.observation(seat), seen):
        write(line)
    write("scores: " + _scores(state.scores()))


HINT_WORLDS = 8  # sampled deals per legal move; "? 32" asks for more


def hint_means(state, worlds: int = HINT_WORLDS) -> list[tuple]:
    """``(action, mean score, deals)`` for each legal move of the seat to move: its final score,
    averaged over ``worlds`` deals resampled from what the seat has seen (``state.resample``: the
    hidden cards redealt, its view kept), each played out after the move by the heuristic where the
    game's state plays it, else at random. A determinized Monte Carlo search in plain Python, seeded
    by the deal and the moves so far, so it depends only on the seat's view. In a whole game, the score is the
    deal's (the deal under way is played out, not the game)."""
    from cardlab.sim.whole_games import WholeGame

    state = state.current if isinstance(state, WholeGame) else state
    seat, legal = state.current_player, state.legal_actions()
    policy = _rollout_policy(state)
    rng = np.random.default_rng([state.study.seed, state.deal, len(state.observation(seat).get("actions", []))])
    means = []
    for action in legal:
        total = 0.0
        for _ in range(worlds):
            world = state.resample(seat, rng)
            world.apply(action.id)
            while not world.is_over:
                world.apply(bot_move(world, policy, rng))
            total += float(world.scores()[seat])
        means.append((action, total / worlds, worlds))
    return means


def _rollout_policy(state) -> str:
    """The hint's play-out policy: the heuristic where the game's state plays it, else random."""
    return "heuristic" if "heuristic" in state.builtin_policies else "random"


def hint(state, worlds: int = HINT_WORLDS) -> str:
    """Each legal move's mean final score as lines, the best move first: the highest score, or the lowest in a game
    whose scores are penalties (its strength ladder says ``lower_is_better``: Rami). The means are the kernels' own
    search's where the state runs it (``State.search_means``: Barbu's trick contracts), else :func:`hint_means`'."""
    from cardlab.analysis.strength import ladder_of

    from cardlab.sim.whole_games import WholeGame

    lower = ladder_of({"game": state.study.game.name}).lower_is_better
    now = state.current if isinstance(state, WholeGame) else state
    searched = now.search_means(worlds)  # the kernels' own search, where the game's step API runs it
    means = [(a, searched[a.id], worlds) for a in now.legal_actions()] if searched else hint_means(state, worlds)
    ranked = sorted(means, key=lambda m: m[1], reverse=not lower)
    if searched:
        head = (f"hint: each move's mean final score by cardlab's search, over {worlds} deals sampled from what "
                f"you have seen, played out by the heuristic ({'lower' if lower else 'higher'} is better)")
    else:
        by = "the heuristic" if _rollout_policy(state) == "heuristic" else "random moves"
        head = (f"hint: each move's mean final score over {worlds} deals resampled from what you have seen, "
                f"played out by {by} ({'lower' if lower else 'higher'} is better)")
    return "\n".join([head] + [f"  {a.name}: {m:+.2f}" for a, m, _ in ranked])


def saved_record(state) -> dict:
    """The deal's record opened by what rebuilds it, as ``replay --json`` writes it: the study's metadata
    (game, options, policies, seed), then the state's record (deal, hands, actions, scores ...)."""
    return {**state.study.metadata(), **state.record()}


def check_record(game, record: dict):
    """Replay a saved record through the game's state (the referee's rules): every action must be
    legal for the seat that made it, and the scores the record gives must be the rules'. Returns the
    finished state; a ``ValueError`` names the first action or score that is wrong. A whole game's record
    (``deals``: each deal's record) is checked deal after deal, and its totals."""
    if "deals" in record:
        state = game.record_game_state(record)
        for d, deal in enumerate(record["deals"]):
            where = f"deal {d}, "
            game.apply_record_deal(state, deal["actions"], where)
            if state.deal != d + 1:
                raise ValueError(f"record: {where}the deal is not over after its {len(deal['actions'])} actions")
            if list(deal["scores"]) != list(state.finished[-1].scores()):
                raise ValueError(f"record: {where}scores {deal['scores']} are not the rules' "
                                 f"{state.finished[-1].scores()}")
        if not state.is_over or list(record["totals"]) != list(state.scores()):
            raise ValueError(f"record: the game is not over after its {len(record['deals'])} deals, or its totals "
                             f"{record['totals']} are not the rules' {state.scores()}")
        return state
    state = game.state(seed=record["seed"], deal=record["deal"], **game.record_keywords(record),
                       **record.get("options", {}))
    for k, entry in enumerate(record["actions"]):
        apply_action(state, k, entry, "")
    if not state.is_over:
        raise ValueError(f"record: the deal is not over after its {len(record['actions'])} actions")
    if list(record["scores"]) != list(state.scores()):
        raise ValueError(f"record: scores {record['scores']} are not the rules' {state.scores()}")
    return state


def apply_action(state, k: int, entry: dict, where: str) -> None:
    """Apply a record's action number ``k``: refused in one line when it is not the seat to move's, or not legal."""
    if entry.get("seat") != state.current_player:
        raise ValueError(f"record: {where}action {k} is seat {entry.get('seat')}'s, but seat "
                         f"{state.current_player} is to move")
    try:
        state.apply(entry)
    except IllegalAction as e:
        raise ValueError(f"record: {where}action {k}: {e}") from None
