"""Barbu's paired studies of the heuristic's choices: which trump suit to name, which contract to declare.

Both play every deal several times, once per alternative (same hands, same policies), so the
alternatives are compared on the same deals (paired differences, small intervals).

Trump-choice study, one row per deal: ``deal``, ``declarer``, ``chosen`` (the suit 0-3 = ♣♦♥♠
the heuristic names), ``score_t0`` … ``score_t3`` (the declarer's score with suit t as trump),
``length_t0`` … ``length_t3`` (the declarer's cards in suit t) and ``honours_t0`` …
``honours_t3`` (how many of A K Q J of suit t the declarer holds).

Contract-value study, one row per deal: ``deal``, ``declarer``, ``pick`` (the contract the
heuristic picks) and for each contract c of the study ``score_<c>`` (the declarer's score when the
deal is played as c) and ``value_<c>`` (``score_<c>`` minus c's average declarer score: what
declaring c with this hand is worth compared with an average hand), where ``<c>`` is the contract
name with '-' replaced by '_' (``value_no_tricks``).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .games import _require, cluster_mean_ci
from .common import table_text
from .stats import interval, mean_ci, proportion_ci
from .studies import _numeric, _study_header


SUITS = ("♣", "♦", "♥", "♠")


_TRUMP_EXPECTED = (
    "expected a trump-choice study, one row per deal: deal, declarer, chosen (suit 0-3), "
    "score_t0 … score_t3, length_t0 … length_t3, honours_t0 … honours_t3"
)


_CONTRACT_EXPECTED = (
    "expected a contract-value study, one row per deal: deal, declarer, pick (contract name) and, "
    "per contract c (with '-' written '_'), value_<c> and score_<c>"
)


def _trump_arrays(df: pd.DataFrame, with_hand: bool = False):
    _require(df, ("deal", "declarer", "chosen"), _TRUMP_EXPECTED)
    score = _numeric(df, [f"score_t{t}" for t in range(4)], _TRUMP_EXPECTED)
    chosen = _numeric(df, ["chosen"], _TRUMP_EXPECTED)[:, 0]
    if not np.isin(chosen, (0, 1, 2, 3)).all():
        bad = chosen[~np.isin(chosen, (0, 1, 2, 3))][0]
        raise ValueError(f"column 'chosen' must hold a suit 0-3 (♣♦♥♠), found {bad:g}")
    chosen = chosen.astype(np.int64)
    if not with_hand:
        return score, chosen
    length = _numeric(df, [f"length_t{t}" for t in range(4)], _TRUMP_EXPECTED).astype(np.int64)
    honours = _numeric(df, [f"honours_t{t}" for t in range(4)], _TRUMP_EXPECTED).astype(np.int64)
    return score, chosen, length, honours


def trump_choice_summary(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return how good the heuristic's trump choice is, against the best and a random suit, same deals.

    Rows (``measure``): ``chosen`` (declarer's mean score with the chosen suit), ``best`` (mean of
    the per-deal maximum over the four suits), ``random`` (mean over the four suits: the
    expected score of naming a uniformly random suit), ``regret`` (best − chosen),
    ``regret_if_not_best`` (the same over deals where the choice was not best), ``gain_over_random``
    (chosen − random) and ``chosen_is_best`` (share of deals where the chosen suit scores the
    maximum; ties count as best). Columns ``deals``, ``value``, ``ci_low``, ``ci_high``: normal
    intervals (``stats.mean_ci``) on per-deal values, Wilson (``stats.proportion_ci``) for the share.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "declarer": [0, 1], "chosen": [0, 1],
    ...                    "score_t0": [12, 6], "score_t1": [9, 3], "score_t2": [6, 9], "score_t3": [3, 6]})
    >>> trump_choice_summary(df).loc[["chosen", "best", "random", "regret", "chosen_is_best"], "value"].tolist()
    [7.5, 10.5, 6.75, 3.0, 0.5]
    """
    score, chosen = _trump_arrays(df)
    n = len(score)
    chosen_score = score[np.arange(n), chosen]
    best = score.max(axis=1)
    random = score.mean(axis=1)
    regret = best - chosen_score
    is_best = regret <= 0
    rows = {}
    for name, values in (
        ("chosen", chosen_score),
        ("best", best),
        ("random", random),
        ("regret", regret),
        ("regret_if_not_best", regret[~is_best]),
        ("gain_over_random", chosen_score - random),
    ):
        rows[name] = (len(values), *(mean_ci(values, level=level) if len(values) else (np.nan,) * 3))
    rows["chosen_is_best"] = (n, *proportion_ci(int(is_best.sum()), n, level=level))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["deals", "value", "ci_low", "ci_high"])
    table.index.name = "measure"
    return table


#: The share columns of :func:`trump_by_length`, shown in % in the report.
BY_LENGTH_SHARES = ("choice_rate", "chosen_is_best")


def trump_by_length(df: pd.DataFrame, *, by: str = "length", level: float = 0.95) -> pd.DataFrame:
    """Return, per trump length (or honours) of a suit played as trump, the declarer's score and the choice's regret.

    ``by`` is "length" (the declarer's cards in the trump suit) or "honours" (A K Q J held in it).
    Every deal contributes its four suits: ``suits`` counts (deal, suit) pairs with that length,
    ``mean_score``/``score_ci_low``/``score_ci_high`` describe the declarer's score with such a suit
    as trump (interval with deals as clusters, ``games.cluster_mean_ci``, since two suits of one
    deal may share a length). For the chosen suit only: ``chosen`` (deals whose chosen suit has
    that length), ``choice_rate`` (chosen / suits: how readily such a suit is named),
    ``chosen_is_best`` (share where it was the best suit) and ``regret``/``regret_ci_low``/
    ``regret_ci_high`` (best − chosen score; NaN where no chosen suit has that length).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0], "declarer": [0], "chosen": [0], "score_t0": [12], "score_t1": [9],
    ...                    "score_t2": [6], "score_t3": [3], "length_t0": [5], "length_t1": [4],
    ...                    "length_t2": [2], "length_t3": [2], "honours_t0": [2], "honours_t1": [1],
    ...                    "honours_t2": [0], "honours_t3": [1]})
    >>> trump_by_length(df)[["suits", "mean_score", "chosen"]].values.tolist()
    [[2.0, 4.5, 0.0], [1.0, 9.0, 0.0], [1.0, 12.0, 1.0]]
    """
    if by not in ("length", "honours"):
        raise ValueError(f"by: {by!r} is not allowed; choose 'length' or 'honours'")
    score, chosen, length, honours = _trump_arrays(df, with_hand=True)
    key = length if by == "length" else honours
    n = len(score)
    rows = np.arange(n)
    scores = cluster_mean_ci(score.ravel(), key.ravel(), np.repeat(rows, 4), level=level)
    chosen_key = key[rows, chosen]
    regret = score.max(axis=1) - score[rows, chosen]
    regrets = cluster_mean_ci(regret, chosen_key, rows, level=level).reindex(scores.index)
    best = pd.Series(regret <= 0).groupby(chosen_key).mean().reindex(scores.index)
    picked = regrets["count"].fillna(0.0)
    table = pd.DataFrame(
        {
            "suits": scores["count"],
            "mean_score": scores["mean"],
            "score_ci_low": scores["ci_low"],
            "score_ci_high": scores["ci_high"],
            "chosen": picked,
            "choice_rate": picked / scores["count"],
            "chosen_is_best": best,
            "regret": regrets["mean"],
            "regret_ci_low": regrets["ci_low"],
            "regret_ci_high": regrets["ci_high"],
        }
    )
    table.index = pd.Index(table.index.astype(np.int64), name=by)
    return table.astype({"suits": np.int64, "chosen": np.int64})


def format_trump_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """Return a plain-text report of a trump-choice study: summary, then by trump length and by honours.

    The header comes from ``meta`` (as from ``load_run``), then ``trump_choice_summary``, the
    share of deals naming each suit, and ``trump_by_length`` by length and by honours, rounded to 3
    decimals.

    >>> import pandas as pd
    >>> row = {"deal": [0], "declarer": [0], "chosen": [0]}
    >>> row.update({f"{k}_t{t}": [v] for k, v in (("score", 9), ("length", 3), ("honours", 1)) for t in range(4)})
    >>> format_trump_study(pd.DataFrame(row)).splitlines()[0]
    'cardlab run (no run metadata): trump-choice study | 1 deal'
    """
    summary = trump_choice_summary(df, level=level)
    _, chosen = _trump_arrays(df)
    suit_share = pd.Series(np.bincount(chosen, minlength=4) / len(chosen), index=list(SUITS), name="share")
    pct = level * 100
    lines = _study_header("trump-choice study", meta, len(df))
    lines += ["", f"Declarer's score: chosen suit vs best suit vs random suit (paired, {pct:g}% CIs)",
              table_text(summary, percent_rows=["chosen_is_best"])]
    lines += ["", "Suit named (% of deals): " + ", ".join(f"{s} {100 * v:.1f}" for s, v in suit_share.items())]
    lines += ["", "By trump length: score with such a suit as trump; regret when the chosen suit has that length",
              table_text(trump_by_length(df, by="length", level=level), percent=BY_LENGTH_SHARES)]
    lines += ["", "By trump honours (A K Q J held in the trump suit)",
              table_text(trump_by_length(df, by="honours", level=level), percent=BY_LENGTH_SHARES)]
    return "\n".join(lines) + "\n"


def _study_contracts(df: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray | None, np.ndarray]:
    """(contract names, values (deals × contracts), scores or None, pick index per deal)."""
    _require(df, ("deal", "declarer", "pick"), _CONTRACT_EXPECTED)
    suffixes = [m.group(1) for c in df.columns if isinstance(c, str) and (m := re.fullmatch(r"value_(\w+)", c))]
    if not suffixes:
        raise ValueError(f"missing value_<c> columns (e.g. 'value_no_tricks'): {_CONTRACT_EXPECTED}")
    if df["pick"].isna().any():
        raise ValueError("column 'pick' contains missing values")
    pick_names = list(df["pick"].cat.categories) if isinstance(df["pick"].dtype, pd.CategoricalDtype) \
        else list(pd.unique(df["pick"]))
    by_suffix = {str(name).replace("-", "_"): str(name) for name in pick_names}
    names = [by_suffix.get(s, s.replace("_", "-")) for s in suffixes]
    values = _numeric(df, [f"value_{s}" for s in suffixes], _CONTRACT_EXPECTED)
    score_columns = [f"score_{s}" for s in suffixes]
    scores = _numeric(df, score_columns, _CONTRACT_EXPECTED) if all(c in df.columns for c in score_columns) else None
    pick = pd.Index(names).get_indexer(df["pick"].astype(str).to_numpy())
    if (pick < 0).any():
        bad = df["pick"].astype(str).to_numpy()[pick < 0][0]
        raise ValueError(
            f"column 'pick' names {bad!r}, which has no value_{bad.replace('-', '_')} column; "
            f"the study's contracts are {', '.join(names)}"
        )
    return names, values, scores, pick


def contract_value_summary(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return, per contract and overall (last row ``all``), how well the heuristic picks its contract.

    Per contract c (study order): ``picked``/``pick_share`` (deals where c is the pick),
    ``best``/``best_share`` (deals where c has the highest ``value_c``; ties count as best for
    every tied contract), ``mean_value`` with ``value_ci_low``/``value_ci_high`` (over all deals),
    ``mean_score`` (mean ``score_c``, if present), ``value_when_picked``, ``value_when_best``,
    ``pick_is_best`` (share of c-picks that were best, Wilson interval ``best_ci_low``/
    ``best_ci_high``), ``loss`` (mean of best value − picked value over c-picks, interval
    ``loss_ci_low``/``loss_ci_high``) and ``loss_if_not_best`` (over c-picks that were not best).
    The ``all`` row gives the same per-pick measures over every deal (``value_when_picked`` is the
    mean value of the pick, ``value_when_best`` the mean best value); its per-contract columns
    (``mean_value``, ``mean_score``) are NaN.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "declarer": [0, 1], "pick": ["no-tricks", "trumps"],
    ...                    "value_no_tricks": [2.0, -1.0], "value_trumps": [1.0, -3.0]})
    >>> t = contract_value_summary(df)
    >>> t.loc["all", ["pick_is_best", "loss"]].tolist(), float(t.loc["trumps", "loss"])
    ([0.5, 1.0], 2.0)
    """
    names, values, scores, pick = _study_contracts(df)
    n, k = values.shape
    rows = np.arange(n)
    best_value = values.max(axis=1)
    picked_value = values[rows, pick]
    loss = best_value - picked_value
    is_best = values >= best_value[:, None]
    pick_best = loss <= 0

    def per_pick(mask) -> dict:
        m = int(mask.sum())
        out = {"picked": m, "pick_share": m / n}
        if m == 0:
            return out | dict.fromkeys(
                ("value_when_picked", "pick_is_best", "best_ci_low", "best_ci_high", "loss", "loss_ci_low",
                 "loss_ci_high", "loss_if_not_best"), np.nan)
        share, low, high = proportion_ci(int(pick_best[mask].sum()), m, level=level)
        l_mean, l_low, l_high = mean_ci(loss[mask], level=level)
        wrong = loss[mask & ~pick_best]
        return out | {
            "value_when_picked": float(picked_value[mask].mean()),
            "pick_is_best": share,
            "best_ci_low": low,
            "best_ci_high": high,
            "loss": l_mean,
            "loss_ci_low": l_low,
            "loss_ci_high": l_high,
            "loss_if_not_best": float(wrong.mean()) if wrong.size else np.nan,
        }

    records = []
    for c in range(k):
        v_mean, v_low, v_high = mean_ci(values[:, c], level=level)
        best_c = is_best[:, c]
        records.append(
            per_pick(pick == c)
            | {
                "best": int(best_c.sum()),
                "best_share": float(best_c.mean()),
                "mean_value": v_mean,
                "value_ci_low": v_low,
                "value_ci_high": v_high,
                "mean_score": float(scores[:, c].mean()) if scores is not None else np.nan,
                "value_when_best": float(values[best_c, c].mean()) if best_c.any() else np.nan,
            }
        )
    records.append(
        per_pick(np.ones(n, bool))
        | {"best": n, "best_share": 1.0, "mean_value": np.nan, "value_ci_low": np.nan, "value_ci_high": np.nan,
           "mean_score": np.nan, "value_when_best": float(best_value.mean())}
    )
    columns = ["picked", "pick_share", "best", "best_share", "mean_value", "value_ci_low", "value_ci_high",
               "mean_score", "value_when_picked", "value_when_best", "pick_is_best", "best_ci_low", "best_ci_high",
               "loss", "loss_ci_low", "loss_ci_high", "loss_if_not_best"]
    return pd.DataFrame(records, index=pd.Index([*names, "all"], name="contract"))[columns]


def format_contract_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """Return a plain-text report of a contract-value study: the ``contract_value_summary`` table and a verdict.

    The header comes from ``meta`` (as from ``load_run``); the table is split in two (what each
    contract is worth; how good the picks are) and rounded to 3 decimals; the last lines state
    the share of deals where the pick was the best contract and the mean loss with its interval.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"deal": [0, 1], "declarer": [0, 1], "pick": ["no-tricks", "trumps"],
    ...                    "value_no_tricks": [2.0, -1.0], "value_trumps": [1.0, -3.0]})
    >>> format_contract_study(df).splitlines()[0]
    'cardlab run (no run metadata): contract-value study | 2 deals'
    """
    table = contract_value_summary(df, level=level)
    pct = level * 100
    worth = ["mean_value", "value_ci_low", "value_ci_high", "mean_score", "best", "best_share", "value_when_best"]
    picks = ["picked", "pick_share", "value_when_picked", "pick_is_best", "best_ci_low", "best_ci_high", "loss",
             "loss_ci_low", "loss_ci_high", "loss_if_not_best"]
    overall = table.loc["all"]
    lines = _study_header("contract-value study", meta, len(df))
    lines += ["", "What each contract is worth to the declarer (value = score − the contract's average declarer "
              f"score; {pct:g}% CIs)", table_text(table.drop(index="all")[worth], percent=["best_share"])]
    lines += ["", "How good the heuristic's picks are (loss = best value − picked value)",
              table_text(table[picks], percent=["pick_share", "pick_is_best", "best_ci_low", "best_ci_high"])]
    lines += [
        "",
        f"The pick was the best contract in {100 * overall['pick_is_best']:.1f}% of deals "
        f"({interval(100 * overall['best_ci_low'], 100 * overall['best_ci_high'], '.1f')}); mean loss "
        f"{overall['loss']:.3f} ({interval(overall['loss_ci_low'], overall['loss_ci_high'])}) points per deal, "
        f"{overall['loss_if_not_best']:.3f} when not best.",
    ]
    return "\n".join(lines) + "\n"
