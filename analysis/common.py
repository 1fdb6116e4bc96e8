"""Game-agnostic summaries for any run with one row per deal and ``score_0`` … ``score_{n-1}`` columns.

Means carry normal 95% intervals (``stats.mean_ci``), shares Wilson intervals
(``stats.proportion_ci``). Whole games may have different lengths (``game`` column); a game's
win credit is supplied by the game's own module (tie rules differ from game to game).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import mean_ci, proportion_ci


# ---------------------------------------------------------------- the run a report reads, and its header


def run_meta(df, meta: dict | None = None) -> dict:
    """The run's metadata: ``meta`` if given (as ``load_run`` returns it), else the rows' own
    ``df.attrs["cardlab"]`` (every frame of ``simulate`` and ``load_run`` carries it), else ``{}``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0]})
    >>> df.attrs["cardlab"] = {"game": "rami"}
    >>> run_meta(df), run_meta(df, {"game": "barbu"})
    ({'game': 'rami'}, {'game': 'barbu'})
    """
    if meta is not None and not isinstance(meta, dict):
        raise TypeError(f"meta must be a dict (as returned by load_run) or None, got {type(meta).__name__}")
    if meta:
        return meta
    attrs = getattr(df, "attrs", None) or {}
    return dict(attrs.get("cardlab") or {})


def registered_game(meta: dict | None):
    """The run's :class:`~cardlab.sim.game.Game` from the registry, or None (no game named, or not registered)."""
    name = (meta or {}).get("game")
    try:
        from cardlab.sim import games
    except ImportError:  # analysis used without the engines
        return None
    return games.game(name) if name in games.INTERFACES else None


def _scope_unit(meta: dict) -> str:
    return "games" if meta.get("unit") == "game" else "deals"


def options_that_apply(meta: dict | None) -> dict:
    """The options of a run that can change its results: those set away from their default, and only
    where they apply to this run (by the options' ``applies`` metadata, :meth:`Game.scope`: no
    whole-game option in a run of single deals, Barbu's Trumps duties only when Trumps is dealt …).

    A run of an unregistered game lists every option it records.

    >>> meta = {"game": "euchre5", "options": {"stick_the_dealer": False, "target": 5}}
    >>> options_that_apply(meta), options_that_apply(dict(meta, unit="game"))
    ({'stick_the_dealer': False}, {'stick_the_dealer': False, 'target': 5})
    """
    meta = meta or {}
    options = meta.get("options")
    if not isinstance(options, dict):
        return {}
    game = registered_game(meta)
    if game is None:
        return dict(options)
    from dataclasses import fields
    from types import SimpleNamespace

    from cardlab.sim.options import given_options

    names = {f.name for f in fields(game.Options)}
    rules = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items() if k in names}
    try:
        made = game.make_options(**rules)
    except (TypeError, ValueError):  # a file of an older layout: every recorded option
        return dict(options)
    given = given_options(made)
    study = SimpleNamespace(options=made, contracts=tuple(meta.get("contracts") or ()))
    context = game.run_context(study, unit=_scope_unit(meta), study_name=meta.get("study"))
    scope = game.scope()
    return {k: v for k, v in given.items() if k not in scope or scope[k].applies(context)}


def _value_text(value) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return str(value)


def options_text(meta: dict | None) -> str:
    """``players=3, must_trump=False``: the options that apply (:func:`options_that_apply`), as a header
    shows them; ``the rules as coded`` when every one is at its default."""
    options = options_that_apply(meta)
    return ", ".join(f"{key}={_value_text(value)}" for key, value in options.items()) or "the rules as coded"


def unit_word(meta: dict | None) -> str:
    """The word for one unit of the run: ``game`` for whole games, else the game's word for a deal
    (Euchre ``hand``, Rami ``round``; ``deal`` when the game is unknown)."""
    meta = meta or {}
    if meta.get("unit") == "game":
        return "game"
    game = registered_game(meta)
    return game.unit if game is not None else "deal"


def partial_note(meta: dict | None) -> str:
    """``PARTIAL RUN (interrupted): 5 of 10 deals requested; …`` for an incomplete run file, else ``''``.

    >>> partial_note({"complete": False, "deals": 5, "requested": 10})
    'PARTIAL RUN (interrupted): 5 of 10 deals requested; figures cover those kept'
    """
    meta = meta or {}
    if meta.get("complete", True):
        return ""
    unit = meta.get("unit", "deal")
    kept, asked = meta.get(f"{unit}s", "?"), meta.get("requested", "?")
    why = "chunks failed" if meta.get("missing") else "interrupted"
    count = lambda v: f"{v:,}" if isinstance(v, int) else str(v)  # noqa: E731
    word = unit_word(meta)
    return f"PARTIAL RUN ({why}): {count(kept)} of {count(asked)} {word}s requested; figures cover those kept"


def _policies_text(meta: dict) -> str:
    policies = meta.get("policies")
    if not isinstance(policies, list) or not policies:
        return ""
    if meta.get("study") == "strength":
        own = meta.get("own_policies") or {}
        return ", ".join(f"{p} ({own[p]})" if p in own else p for p in policies) + " (the study sets every seat)"
    if len(set(policies)) == 1:
        return f"{policies[0]} at every seat"
    return ", ".join(f"seat {p} {name}" for p, name in enumerate(policies))


def run_header(meta: dict | None, title: str, *, count: int | None = None, unit: str | None = None,
               width: int = 110) -> list[str]:
    """Every report's header, the same for every game: the game and what the report is, the seed and
    the run's size in its own unit, PARTIAL when the run file is incomplete, the options that can
    change its results (:func:`options_that_apply`), the policies, the search's settings, versions.

    ``count`` is the number of units the rows hold (default: the metadata's count), ``unit`` their word
    (default: :func:`unit_word`; a whole-game report says ``game`` whatever its metadata).

    >>> meta = {"game": "rami", "options": {"players": 3, "target": 200}, "seed": 7, "deals": 40,
    ...         "policies": ["heuristic"] * 3, "complete": False, "requested": 100}
    >>> for line in run_header(meta, "round report"):
    ...     print(line)
    Rami (rami): round report | seed 7 | 40 rounds
    PARTIAL RUN (interrupted): 40 of 100 rounds requested; figures cover those kept
    options: players=3
    policies: heuristic at every seat
    """
    import textwrap

    meta = meta or {}
    game = registered_game(meta)
    name = meta.get("game")
    what = f"{game.title} ({name})" if game is not None else str(name or "cardlab run (no run metadata)")
    word = unit or unit_word(meta)
    if count is None:
        count = meta.get(f"{meta.get('unit', 'deal')}s")
    parts = [f"{what}: {title}"]
    if "seed" in meta:
        parts.append(f"seed {meta['seed']}")
    if isinstance(count, int):
        parts.append(f"{count:,} {word}{'' if count == 1 else 's'}")
    lines = [" | ".join(parts)]
    if partial_note(meta):
        lines.append(partial_note(meta))
    if isinstance(meta.get("options"), dict):
        lines += textwrap.wrap(f"options: {options_text(meta)}", width=width, subsequent_indent="  ")
    if _policies_text(meta):
        lines.append(f"policies: {_policies_text(meta)}")
    if meta.get("search_worlds"):
        lines.append(f"search: {meta['search_worlds']} sampled worlds per decision, "
                     f"{meta.get('search_rollout', 'heuristic')} rollouts")
    versions = meta.get("versions")
    if isinstance(versions, dict) and versions:
        lines.append("versions: " + ", ".join(f"{key} {value}" for key, value in versions.items()))
    return lines


def percent_name(column: str) -> str:
    """How a report table names a column shown in %: ``win_share`` → ``win %``, ``march_rate`` →
    ``march %``, ``share`` → ``%``, any other name with `` %`` after it (``ci_low %``).

    >>> [percent_name(c) for c in ("share", "win_share", "euchre_rate", "buried")]
    ['%', 'win %', 'euchre %', 'buried %']
    """
    stem = column[:-len("share")] if column.endswith("share") else column[:-len("rate")] if column.endswith("rate") \
        else column + "_"
    stem = stem.rstrip("_")
    return f"{stem} %" if stem else "%"


def table_text(table: pd.DataFrame, *, percent=(), percent_rows=(), digits: int = 3) -> str:
    """A report's table as text, the same in every game: numbers rounded to ``digits`` decimals (-0.0
    shown as 0.0), and every share in % with one decimal: the columns named in ``percent`` (a share
    and the bounds of its interval, held as fractions) and the rows named in ``percent_rows`` (by the
    index's first level), their names marked by :func:`percent_name`. The table itself (the API's DataFrame) keeps its fractions.

    >>> t = pd.DataFrame({"games": [10], "win_share": [0.25], "ci_low": [0.0711], "ci_high": [0.5909]}, index=["seat 0"])
    >>> print(table_text(t, percent=["win_share", "ci_low", "ci_high"]))
            games  win %  ci_low %  ci_high %
    seat 0     10   25.0       7.1       59.1
    """
    shown = table.copy()
    for name in percent:
        shown[name] = (100 * shown[name].astype(float)).round(1)
    if len(percent_rows):
        floats = shown.select_dtypes("float").columns
        rows = shown.index.get_level_values(0).isin(percent_rows)
        shown.loc[rows, floats] = (100 * shown.loc[rows, floats]).round(1)
        shown = shown.rename(index={row: percent_name(row) for row in percent_rows}, level=0)
    for c in shown.select_dtypes("float").columns:
        if c not in percent:
            shown[c] = shown[c].round(digits) + 0.0
    return shown.rename(columns={c: percent_name(c) for c in percent}).to_string()


def score_matrix(df: pd.DataFrame) -> np.ndarray:
    """The ``score_i`` columns as an int64 array (rows, seats)."""
    n = 0
    while f"score_{n}" in df.columns:
        n += 1
    if n < 2:
        raise ValueError("missing columns score_0, score_1 …: expected one score column per seat")
    return df[[f"score_{p}" for p in range(n)]].to_numpy(np.int64)


def mean_table(values, groups, *, level: float = 0.95, name: str = "mean") -> pd.DataFrame:
    """Per group: ``count``, the mean of ``values`` and its interval, as columns ``name``, ``ci_low``, ``ci_high``.

    >>> float(mean_table([1, 3, 5, 7], ["a", "a", "b", "b"]).loc["b", "mean"])
    6.0
    """
    frame = pd.DataFrame({"v": np.asarray(values, float), "g": np.asarray(groups)})
    rows = {}
    for key, part in frame.groupby("g", sort=True)["v"]:
        m, lo, hi = mean_ci(part.to_numpy(), level=level)
        rows[key] = {"count": len(part), name: m, "ci_low": lo, "ci_high": hi}
    return pd.DataFrame.from_dict(rows, orient="index")


def share_table(hits, groups, *, level: float = 0.95, name: str = "share") -> pd.DataFrame:
    """Per group: ``count`` and the share of true ``hits`` with its Wilson interval."""
    frame = pd.DataFrame({"h": np.asarray(hits, bool), "g": np.asarray(groups)})
    g = frame.groupby("g", sort=True)["h"]
    count, k = g.size(), g.sum()
    share, lo, hi = proportion_ci(k.to_numpy(), count.to_numpy(), level=level)
    return pd.DataFrame({"count": count.to_numpy(), name: share, "ci_low": lo, "ci_high": hi}, index=count.index)


def position_scores(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Mean points per deal of the seat ``k`` places after the dealer (``k = n`` is the dealer itself),
    and its edge over the table average (a fair table has edge 0 everywhere)."""
    scores = score_matrix(df)
    n = scores.shape[1]
    dealer = df["dealer"].to_numpy(np.int64)
    rows = {}
    average = scores.mean(axis=1)
    for k in range(1, n + 1):
        seat_scores = scores[np.arange(len(scores)), (dealer + k) % n]
        m, lo, hi = mean_ci(seat_scores, level=level)
        e, elo, ehi = mean_ci(seat_scores - average, level=level)
        rows["dealer" if k == n else f"dealer+{k}"] = dict(mean=m, ci_low=lo, ci_high=hi, edge=e, edge_ci_low=elo,
                                                           edge_ci_high=ehi)
    return pd.DataFrame.from_dict(rows, orient="index")


def game_totals(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game: ``hands``, each seat's ``total_i`` and place ``place_i`` (1 + seats strictly ahead)."""
    scores = score_matrix(df)
    codes, games = pd.factorize(df["game"], sort=True)
    n = scores.shape[1]
    totals = np.stack([np.bincount(codes, weights=scores[:, p], minlength=len(games)) for p in range(n)], axis=1)
    totals = totals.round().astype(np.int64)
    places = 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
    out = {"hands": np.bincount(codes, minlength=len(games))}
    out.update({f"total_{p}": totals[:, p] for p in range(n)})
    out.update({f"place_{p}": places[:, p] for p in range(n)})
    return pd.DataFrame(out, index=pd.Index(games, name="game"))


def win_shares(credit: np.ndarray, *, level: float = 0.95, labels=None) -> pd.DataFrame:
    """Per seat (or label): the mean win credit over games (1 a sole win, 1/k a shared one) with its interval."""
    rows = {}
    for p in range(credit.shape[1]):
        m, lo, hi = mean_ci(credit[:, p], level=level)
        rows[labels[p] if labels is not None else f"seat {p}"] = dict(games=len(credit), win_share=m, ci_low=lo,
                                                                      ci_high=hi)
    return pd.DataFrame.from_dict(rows, orient="index")


def length_summary(hands: np.ndarray, *, level: float = 0.95) -> pd.DataFrame:
    """Game length in deals: mean with interval, quantiles and extremes."""
    m, lo, hi = mean_ci(hands, level=level)
    q = np.quantile(hands, [0.05, 0.5, 0.95])
    return pd.DataFrame([dict(games=len(hands), mean=m, ci_low=lo, ci_high=hi, q05=q[0], median=q[1], q95=q[2],
                              min=int(hands.min()), max=int(hands.max()))], index=["hands per game"])
