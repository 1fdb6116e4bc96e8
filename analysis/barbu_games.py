"""Barbu's whole-game reports: contracts in the game (points, timing) and doubling.

Input: a DataFrame as written by ``sim.barbu.simulate_games`` with columns ``game`` (game id),
``deal`` (index of the deal within its game, 0..D-1), ``contract`` (name, categorical in the
simulator), ``declarer`` (seat 0..n-1), ``score_0`` … ``score_{n-1}`` (each seat's final points
for the deal, after the doubling settlement), and where needed ``raw_0`` … ``raw_{n-1}`` (the
deal's points before doubling) and ``double_i_j`` for every ordered pair of seats i != j
(0 = seat i did not double seat j, 1 = i doubled j, 2 = i doubled j and j redoubled; the
multiplier of the pair is that value). Any other column is ignored.

What every game shares (totals, placings, seat advantage, clustered intervals) is in ``games``.
The several doubles of one deal are strongly dependent, so ``double_payoffs`` computes its
intervals with games as clusters (``games.cluster_mean_ci``).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .games import _declarer, _mean_ci_row, _require, _scores, cluster_mean_ci, placings, seat_advantage
from .common import run_header, run_meta, table_text
from .report import _contract_categorical, _integer_array, _seat_columns, summary


_EXPECTED = (
    "expected a whole-game run, one row per deal: game, deal, contract, declarer, score_0 … score_{n-1} "
    "(as from sim.barbu.simulate_games)"
)


ROLE_NAMES = ("non-declarer", "declarer")  # code 0 / 1 in double_payoffs


def _contracts(df: pd.DataFrame) -> pd.Categorical:
    if df["contract"].isna().any():
        raise ValueError("column 'contract' contains missing values")
    return _contract_categorical(df["contract"])


def _doubles(df: pd.DataFrame, n: int) -> np.ndarray:
    """The ``double_i_j`` columns as an int8 array of shape (rows, n, n) (zero diagonal)."""
    what = (
        f"expected one column double_i_j per ordered pair of seats i != j (0 none, 1 i doubled j, "
        f"2 redoubled), as written by simulate_games(..., double=True); this run has {n} seats"
    )
    out = np.zeros((len(df), n, n), np.int8)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            name = f"double_{i}_{j}"
            if name not in df.columns:
                raise ValueError(f"missing column {name!r}: {what}")
            values = _integer_array(df[name], "double multipliers")
            if values.min() < 0 or values.max() > 2:
                raise ValueError(
                    f"column {name!r} must hold 0, 1 or 2, found values from {values.min()} to {values.max()}"
                )
            out[:, i, j] = values
    return out


def has_doubles(df: pd.DataFrame) -> bool:
    """Return True when ``df`` has the ``double_i_j`` columns of a run with doubling (e.g. ``double_0_1``).

    >>> import pandas as pd
    >>> has_doubles(pd.DataFrame({"double_0_1": [0], "double_1_0": [1]})), has_doubles(pd.DataFrame({"x": [0]}))
    (True, False)
    """
    return any(isinstance(c, str) and re.fullmatch(r"double_\d+_\d+", c) for c in getattr(df, "columns", ()))


def _round_index(df: pd.DataFrame, n: int, by: str) -> np.ndarray:
    deal = _integer_array(df["deal"], "deal indices within the game").astype(np.int64, copy=False)
    if deal.min() < 0:
        raise ValueError(f"column 'deal' must hold deal indices within the game (0, 1, …), found {deal.min()}")
    return deal // n if by == "round" else deal


def contract_points(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return per contract how much of the game's points it moves, and what declaring it is worth.

    ``share`` is the contract's share of game points: Σ|score_p| over the contract's deals and
    all seats, divided by Σ|score_p| over every deal and seat (final scores, after doubling), so
    the shares sum to 1; it measures how much of the points changing hands in a game come from
    that contract, whatever their sign. Columns: ``deals``, ``points`` (the numerator),
    ``share``, ``points_per_deal`` (points / deals), ``declarer_mean`` with its interval
    ``declarer_ci_low``/``declarer_ci_high`` (the same numbers as ``report.summary`` for the
    declarer), and ``others_mean`` (mean score of a non-declarer seat). Contracts appear in
    categorical order (unused categories dropped) or order of first appearance.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0], "deal": [0, 1], "contract": ["no-tricks", "trumps"],
    ...                    "declarer": [0, 1], "score_0": [-3, 6], "score_1": [-1, 12]})
    >>> contract_points(df)["share"].tolist()
    [0.18181818181818182, 0.8181818181818182]
    """
    _require(df, ("contract", "declarer"))
    scores = _scores(df)
    n_rows, n = scores.shape
    declarer = _declarer(df, n)
    contract = _contracts(df)
    codes, k = contract.codes, len(contract.categories)
    absolute = np.abs(scores).sum(axis=1)
    dec_score = scores[np.arange(n_rows), declarer]
    others_total = scores.sum(axis=1) - dec_score
    deals = np.bincount(codes, minlength=k)
    points = np.bincount(codes, weights=absolute, minlength=k)
    total_points = points.sum()
    rows = []
    for c in range(k):
        mask = codes == c
        mean, low, high = _mean_ci_row(dec_score[mask], level)
        rows.append(
            {
                "deals": int(deals[c]),
                "points": int(points[c]),
                "share": points[c] / total_points if total_points else np.nan,
                "points_per_deal": points[c] / deals[c],
                "declarer_mean": mean,
                "declarer_ci_low": low,
                "declarer_ci_high": high,
                "others_mean": others_total[mask].sum() / (deals[c] * (n - 1)),
            }
        )
    return pd.DataFrame(rows, index=pd.Index(contract.categories, name="contract"))


def contract_timing(df: pd.DataFrame, *, by: str = "round") -> pd.DataFrame:
    """Return how often each contract is played at each point of the game (rows sum to 1).

    With ``by="round"`` (default) rows are rounds, ``deal // n`` for n seats (one round = every
    seat declares once); with ``by="deal"`` rows are deal indices within the game. Columns are
    the contracts, values the share of that row's deals played as the contract. In Geronimo the
    declarer chooses, so this shows which contracts are taken early and which are left for last;
    in regular mode the schedule is fixed and every row is a single 1.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "declarer": [0, 1, 0, 1],
    ...                    "contract": ["trumps", "domino", "domino", "trumps"],
    ...                    "score_0": [0, 0, 0, 0], "score_1": [0, 0, 0, 0]})
    >>> contract_timing(df, by="deal").values.tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
    if by not in ("round", "deal"):
        raise ValueError(f"by: {by!r} is not allowed; choose 'round' or 'deal'")
    _require(df, ("deal", "contract"))
    n = len(_seat_columns(df, "score_", "one final score column per seat, score_0 … score_{n-1}"))
    row = _round_index(df, n, by)
    contract = _contracts(df)
    k = len(contract.categories)
    n_rows = int(row.max()) + 1
    counts = np.bincount(row * k + contract.codes, minlength=n_rows * k).reshape(n_rows, k).astype(float)
    per_row = counts.sum(axis=1)
    present = per_row > 0
    shares = counts[present] / per_row[present, None]
    return pd.DataFrame(
        shares,
        index=pd.Index(np.flatnonzero(present), name=by),
        columns=pd.Index(list(contract.categories), name="contract"),
    )


def is_chosen_schedule(df: pd.DataFrame, meta: dict | None = None) -> bool:
    """Return True when contracts are chosen by the declarers (Geronimo), False for a fixed schedule.

    Uses ``meta["options"]["geronimo"]`` when given, else looks at the data: in regular mode every
    deal index carries the same contract in every game.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "contract": ["a", "b", "b", "a"]})
    >>> is_chosen_schedule(df), is_chosen_schedule(df, {"options": {"geronimo": False}})
    (True, False)
    """
    options = (meta or {}).get("options") if isinstance(meta, dict) else None
    if isinstance(options, dict) and "geronimo" in options:
        return bool(options["geronimo"])
    _require(df, ("deal", "contract"))
    contract = _contracts(df)
    pairs = pd.DataFrame({"deal": df["deal"].to_numpy(), "c": contract.codes}).drop_duplicates()
    return bool(pairs["deal"].duplicated().any())


def doubling_effects(df: pd.DataFrame) -> pd.DataFrame:
    """Return per contract how doubling changes the deal scores (and a last row ``all``).

    Columns: ``deals``; ``raw_std`` and ``final_std``, the standard deviation (ddof=1) of every
    seat's score before (``raw_p``) and after (``score_p``) the doubling settlement, and their
    ratio ``spread_ratio``; ``doubles_per_deal`` (initiated doubles, i.e. pairs with
    ``double_i_j`` > 0, per deal); ``doubled_deals`` (share of deals with at least one double);
    ``redoubled_share`` (share of doubles that were redoubled, NaN without doubles).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"contract": ["no-queens"] * 2, "declarer": [0, 0], "raw_0": [0, -6],
    ...                    "raw_1": [-6, 0], "score_0": [12, -6], "score_1": [-18, 0],
    ...                    "double_0_1": [0, 0], "double_1_0": [2, 0]})
    >>> doubling_effects(df).loc["no-queens", ["doubles_per_deal", "redoubled_share"]].tolist()
    [0.5, 1.0]
    """
    _require(df, ("contract",))
    scores = _scores(df)
    raw = _scores(df, "raw_")
    n = scores.shape[1]
    if raw.shape[1] != n:
        raise ValueError(f"found {raw.shape[1]} raw_* columns but {n} score_* columns; expected one of each per seat")
    doubles = _doubles(df, n).reshape(len(df), n * n)
    contract = _contracts(df)
    initiated = (doubles > 0).sum(axis=1)
    redoubled = (doubles == 2).sum(axis=1)
    groups = [(name, contract.codes == c) for c, name in enumerate(contract.categories)]
    groups.append(("all", np.ones(len(df), bool)))
    rows = []
    for _, mask in groups:
        m = int(mask.sum())
        raw_std = float(raw[mask].std(ddof=1)) if m * n > 1 else np.nan
        final_std = float(scores[mask].std(ddof=1)) if m * n > 1 else np.nan
        n_doubles = int(initiated[mask].sum())
        rows.append(
            {
                "deals": m,
                "raw_std": raw_std,
                "final_std": final_std,
                "spread_ratio": final_std / raw_std if raw_std else np.nan,
                "doubles_per_deal": n_doubles / m,
                "doubled_deals": float((initiated[mask] > 0).mean()),
                "redoubled_share": int(redoubled[mask].sum()) / n_doubles if n_doubles else np.nan,
            }
        )
    return pd.DataFrame(rows, index=pd.Index([name for name, _ in groups], name="contract"))


def double_events(df: pd.DataFrame) -> pd.DataFrame:
    """Return one row per initiated double (``double_i_j`` > 0) with the doubler's payoff.

    Columns: ``row`` (position of the deal in ``df``), ``game``, ``deal``, ``contract``,
    ``doubler`` (seat i), ``target`` (seat j), ``doubler_role`` and ``target_role``
    ("declarer" or "non-declarer"), ``redoubled`` (bool), ``multiplier`` (m = 1, or 2 when
    redoubled) and ``payoff`` = m · (raw_i − raw_j), what the pair's settlement adds to the
    doubler (rules §5; the target loses the same).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0], "deal": [0], "contract": ["no-barbu"], "declarer": [0],
    ...                    "raw_0": [-12], "raw_1": [0], "score_0": [-36], "score_1": [24],
    ...                    "double_0_1": [0], "double_1_0": [2]})
    >>> double_events(df)[["doubler", "target", "payoff"]].values.tolist()
    [[1, 0, 24]]
    """
    _require(df, ("game", "deal", "contract", "declarer"))
    raw = _scores(df, "raw_")
    n = raw.shape[1]
    declarer = _declarer(df, n)
    doubles = _doubles(df, n)
    contract = _contracts(df)
    rows, i, j = np.nonzero(doubles)
    m = doubles[rows, i, j].astype(np.int64)
    payoff = m * (raw[rows, i] - raw[rows, j])
    doubler_is_dec = (i == declarer[rows]).astype(np.int8)
    target_is_dec = (j == declarer[rows]).astype(np.int8)
    return pd.DataFrame(
        {
            "row": rows,
            "game": df["game"].to_numpy()[rows],
            "deal": df["deal"].to_numpy()[rows],
            "contract": pd.Categorical.from_codes(contract.codes[rows], dtype=contract.dtype),
            "doubler": i.astype(np.int8),
            "target": j.astype(np.int8),
            "doubler_role": pd.Categorical.from_codes(doubler_is_dec, categories=ROLE_NAMES),
            "target_role": pd.Categorical.from_codes(target_is_dec, categories=ROLE_NAMES),
            "redoubled": m == 2,
            "multiplier": m.astype(np.int8),
            "payoff": payoff,
        }
    )


def double_payoffs(df: pd.DataFrame, *, level: float = 0.95, split_redoubled: bool = True) -> pd.DataFrame:
    """Return which doubles pay on average: the doubler's payoff per contract and roles.

    For every initiated double i→j (``double_i_j`` > 0) the payoff to the doubler is
    m · (raw_i − raw_j) with m = 1, or 2 when j redoubled (see ``double_events``). The index is
    (contract, doubler_role, target_role, redoubled), or without ``redoubled`` when
    ``split_redoubled`` is False (the doubler's expected payoff before knowing whether the target
    will redouble); only groups that occur are listed (the declarer never initiates a double, so
    doubler_role is "non-declarer" in valid runs). Columns: ``count``, ``mean``, ``std``,
    ``ci_low``/``ci_high`` (cluster-robust with games as clusters, since the doubles of one deal
    and game are dependent: see ``cluster_mean_ci``), ``positive_share`` (share of doubles that
    paid the doubler) and ``zero_share``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 1], "deal": [0, 0], "contract": ["no-barbu"] * 2, "declarer": [0, 0],
    ...                    "raw_0": [-12, 0], "raw_1": [0, -12], "score_0": [-24, 12], "score_1": [12, -24],
    ...                    "double_0_1": [0, 0], "double_1_0": [1, 1]})
    >>> double_payoffs(df)[["count", "mean"]].values.tolist()
    [[2.0, 0.0]]
    """
    events = double_events(df)
    keys = ["contract", "doubler_role", "target_role", "redoubled"][: 4 if split_redoubled else 3]
    columns = ["count", "mean", "std", "ci_low", "ci_high", "positive_share", "zero_share"]
    if events.empty:
        return pd.DataFrame(columns=columns, index=pd.MultiIndex.from_arrays([[]] * len(keys), names=keys))
    group = (events["contract"].cat.codes.to_numpy().astype(np.int64) * 2
             + events["doubler_role"].cat.codes.to_numpy()) * 2 + events["target_role"].cat.codes.to_numpy()
    if split_redoubled:
        group = group * 2 + events["redoubled"].to_numpy()
    payoff = events["payoff"].to_numpy()
    stats = cluster_mean_ci(payoff, group, events["game"].to_numpy(), level=level)
    g_codes = pd.Index(stats.index).get_indexer(group)
    stats["positive_share"] = np.bincount(g_codes, weights=payoff > 0, minlength=len(stats)) / stats["count"]
    stats["zero_share"] = np.bincount(g_codes, weights=payoff == 0, minlength=len(stats)) / stats["count"]
    labels = np.asarray(stats.index, dtype=np.int64)
    levels = []
    if split_redoubled:
        levels.append((labels % 2).astype(bool))
        labels = labels // 2
    levels.append(pd.Categorical.from_codes(labels % 2, categories=ROLE_NAMES))
    levels.append(pd.Categorical.from_codes((labels // 2) % 2, categories=ROLE_NAMES))
    levels.append(pd.Categorical.from_codes(labels // 4, categories=events["contract"].cat.categories))
    stats.index = pd.MultiIndex.from_arrays(levels[::-1], names=keys)
    stats["count"] = stats["count"].astype(np.int64)
    return stats[columns]


def _game_header(meta: dict | None, df: pd.DataFrame, n: int) -> list[str]:
    """Every report's header (``common.run_header``), then Barbu's contracts and doubling policies."""
    games = df["game"].nunique()
    per_game = len(df) // games if games else 0
    meta = run_meta(df, meta)
    lines = run_header(meta, "whole-game report", count=games, unit="game")
    doubling = bool((meta.get("options") or {}).get("double", True)) if isinstance(meta.get("options"), dict) else True
    for key in ("contracts", "double_policies"):
        value = meta.get(key)
        if value and (key != "double_policies" or doubling):  # doubling policies only where doubles are played
            text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            lines.append(f"{key.replace('_', ' ')}: {text}")
    lines.append(f"data: {games:,} games × {meta.get('deals_per_game', per_game)} deals, {n} seats")
    return lines


def format_game_report(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """Return a plain-text report of a whole-game run.

    Sections: the header (every report's, ``common.run_header``, from ``meta`` or ``df.attrs``; then
    the contracts), seat advantage (``seat_advantage``), placings (% per seat and place,
    from ``placings``), contract points (``contract_points``), each contract's declarer and
    others score summary (``report.summary`` on the deal rows), contract timing by round (only
    when the declarers choose, see ``is_chosen_schedule``), and, when the run has ``double_i_j``
    columns, ``doubling_effects`` and ``double_payoffs``. Numbers are rounded to 3 decimals.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "declarer": [0, 1, 0, 1],
    ...                    "contract": ["no-tricks", "trumps"] * 2, "score_0": [-3, 6, 0, 9],
    ...                    "score_1": [-10, 33, -13, 30]})
    >>> format_game_report(df).splitlines()[0]
    'cardlab run (no run metadata): whole-game report | 2 games'
    """
    _require(df, ("game", "deal", "contract", "declarer"))
    n = len(_seat_columns(df, "score_", "one final score column per seat, score_0 … score_{n-1}"))
    pct = level * 100
    lines = _game_header(meta, df, n)
    lines += ["", f"Seat advantage: game totals per seat ({pct:g}% CIs; edge = seat total − table mean total)",
              table_text(seat_advantage(df, level=level), percent=["win_share"])]
    places = placings(df, level=level)
    wide = (100 * places["share"]).unstack("place").round(1)
    wide.columns = [f"place {p}" for p in wide.columns]
    lines += ["", "Placings: % of games per seat and place (ties share the better place)", wide.to_string()]
    lines += ["", "Contract points: % = Σ|score| over the contract's deals / Σ|score| over all deals",
              table_text(contract_points(df, level=level), percent=["share"])]
    deal_scores = summary(df, by="contract", role="declarer", level=level)
    lines += ["", "Deal scores by contract and role (final scores)", table_text(deal_scores)]
    if is_chosen_schedule(df, meta):
        timing = (100 * contract_timing(df)).round(1)
        lines += ["", f"Contract timing: % of deals per round (round = deal // {n})", timing.to_string()]
    if has_doubles(df):
        lines += ["", "Doubling effects", table_text(doubling_effects(df), percent=["doubled_deals", "redoubled_share"])]
        title = f"Double payoffs to the doubler, m·(raw doubler − raw target) ({pct:g}% CIs, games as clusters)"
        payoff_shares = ["positive_share", "zero_share"]
        lines += ["", title + ": every double",
                  table_text(double_payoffs(df, level=level, split_redoubled=False), percent=payoff_shares)]
        lines += ["", "Double payoffs by whether the target redoubled (m = 2)",
                  table_text(double_payoffs(df, level=level), percent=payoff_shares)]
    return "\n".join(lines) + "\n"
