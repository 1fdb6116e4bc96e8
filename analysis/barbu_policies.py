"""Which conclusions of Barbu's contract and trump studies change with the strength of play.

Input: a policy comparison (``cardlab study barbu contracts|trumps --compare-policies heuristic,search``):
the contract-value or trump-choice study played on the same deals once per policy, one row per deal,
``deal``, ``declarer`` and the study's columns prefixed ``<policy>_``.

* :func:`policy_conclusions`: each conclusion of the study under both policies with CIs, the
  paired shift (second policy minus first, one difference per deal) and flags computed from the
  data: ``sign_change`` (the estimates have opposite signs and one interval excludes 0),
  ``ci_shift`` (the shift's interval excludes 0), ``rank_change`` (the contract's order against
  another contract, clear under one policy, is reversed under the other).

(The strength ladder's report, the same for every game, is :mod:`cardlab.analysis.strength`.)
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .games import _require
from .stats import mean_ci, proportion_ci
from .common import table_text
from .studies import _study_header


_POLICY_EXPECTED = ("expected a policy comparison, one row per deal: deal, declarer and, per policy p, the contract "
                    "study's p_pick, p_score_<c>, p_edge_<c> or the trump study's p_chosen, p_score_t0 … p_score_t3")
#: The conclusions that are shares (of deals), shown in % in the report.
SHARE_MEASURES = ("named suit is the best", "pick is the best contract")


def _compared_policies(df: pd.DataFrame) -> tuple[str, list[str]]:
    """(study kind, the two policies in column order) of a policy comparison."""
    for kind, suffix in (("contracts", "_pick"), ("trumps", "_chosen")):
        policies = [c[: -len(suffix)] for c in df.columns if isinstance(c, str) and c.endswith(suffix)]
        if policies:
            if len(policies) != 2:
                raise ValueError(f"a policy comparison compares two policies; found {', '.join(policies)}")
            return kind, policies
    raise ValueError(f"missing column '<policy>_pick' or '<policy>_chosen': {_POLICY_EXPECTED}")


def _policy_measures(df: pd.DataFrame, kind: str, policy: str) -> dict:
    """Per-deal values of each conclusion for one policy: {(measure, item): (array, is_share)}."""
    _require(df, ("deal", "declarer"), _POLICY_EXPECTED)
    out = {}
    if kind == "trumps":
        cols = [f"{policy}_score_t{t}" for t in range(4)]
        _require(df, (f"{policy}_chosen", *cols), _POLICY_EXPECTED)
        score = df[cols].to_numpy(np.float64)
        chosen = df[f"{policy}_chosen"].to_numpy(np.int64)
        named = score[np.arange(len(score)), chosen]
        best = score.max(axis=1)
        out[("declarer's score", "named trump")] = (named, False)
        out[("declarer's score", "best suit")] = (best, False)
        out[("regret (best - named)", "trumps")] = (best - named, False)
        out[("gain over a random suit", "trumps")] = (named - score.mean(axis=1), False)
        out[(SHARE_MEASURES[0], "trumps")] = ((named >= best).astype(np.float64), True)
        return out
    prefix = f"{policy}_edge_"
    keys = [c[len(prefix):] for c in df.columns if isinstance(c, str) and c.startswith(prefix)]
    if not keys:
        raise ValueError(f"missing columns {prefix}<c>: {_POLICY_EXPECTED}")
    _require(df, [f"{policy}_score_{k}" for k in keys], _POLICY_EXPECTED)
    names = [k.replace("_", "-") for k in keys]
    scores = df[[f"{policy}_score_{k}" for k in keys]].to_numpy(np.float64)
    for i, name in enumerate(names):
        out[("declarer's score", name)] = (scores[:, i], False)
    for k, name in zip(keys, names):
        out[("declarer's edge", name)] = (df[f"{policy}_edge_{k}"].to_numpy(np.float64), False)
    values = scores - scores.mean(axis=0)  # each contract's value for the hand, centred in this study
    pick = pd.Index(names).get_indexer(df[f"{policy}_pick"].astype(str).to_numpy())
    if (pick < 0).any():
        raise ValueError(f"column {policy}_pick names a contract without {policy}_score_<c>: {_POLICY_EXPECTED}")
    picked = values[np.arange(len(values)), pick]
    out[("pick's loss (best - picked value)", "all")] = (values.max(axis=1) - picked, False)
    out[(SHARE_MEASURES[1], "all")] = ((picked >= values.max(axis=1)).astype(np.float64), True)
    return out


def _reversed_orders(xa: np.ndarray, xb: np.ndarray, level: float) -> list[tuple[int, int]]:
    """Pairs of columns (contracts) whose order is reversed between the two policies: the mean paired
    difference changes sign and one policy's interval for it excludes 0 (not a swap of two ties)."""
    out = []
    k = xa.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            ma, la, ha = mean_ci(xa[:, i] - xa[:, j], level=level)
            mb, lb, hb = mean_ci(xb[:, i] - xb[:, j], level=level)
            if ma * mb < 0 and (la > 0 or ha < 0 or lb > 0 or hb < 0):
                out.append((i, j))
    return out


def policy_conclusions(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Return each conclusion of a policy comparison under both policies and whether it changes.

    Index (``measure``, ``item``): for the contract study the declarer's mean score and edge per
    contract (with their ranks among the contracts, 1 = best for the declarer), the pick's loss
    and how often the pick is the best contract (values centred per policy); for the trump study
    the declarer's score with the named trump and the best suit, the regret, the gain over a random
    suit and how often the named suit is the best. Columns, for policies ``a`` and ``b``: ``a``,
    ``a_low``, ``a_high``, ``b`` …, ``shift`` (b − a, paired per deal) with ``shift_low`` and
    ``shift_high``, ``rank_a`` and ``rank_b`` (NaN where no ranking applies), and the flags
    ``sign_change``, ``ci_shift``, ``rank_change`` and ``changes`` (the flags raised, comma-separated).
    ``rank_change`` marks a contract whose order against another contract is reversed: their paired
    per-deal difference changes sign between the policies and one policy's interval for it excludes
    0 (two contracts tied within noise may swap ranks without a flag).

    >>> t = policy_conclusions(example_policy_comparison())
    >>> [float(v) for v in t.loc[("declarer's edge", "no-tricks"), ["heuristic", "search"]]]
    [-1.0, 1.0]
    >>> t.loc[("declarer's edge", "no-tricks"), "changes"]
    'sign, shift, rank'
    >>> t.loc[("declarer's edge", "trumps"), "changes"]
    'shift, rank'
    """
    kind, (a, b) = _compared_policies(df)
    ma, mb = _policy_measures(df, kind, a), _policy_measures(df, kind, b)
    rows = {}
    for key, (xa, share) in ma.items():
        xb = mb[key][0]
        row = {}
        for name, x in ((a, xa), (b, xb)):
            if share:
                row[name], row[f"{name}_low"], row[f"{name}_high"] = proportion_ci(int(x.sum()), len(x), level=level)
            else:
                row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_ci(x, level=level)
        row["shift"], row["shift_low"], row["shift_high"] = mean_ci(xb - xa, level=level)
        rows[key] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index = pd.MultiIndex.from_tuples(table.index, names=["measure", "item"])
    table[f"rank_{a}"] = np.nan
    table[f"rank_{b}"] = np.nan
    if kind == "contracts":
        for measure in ("declarer's score", "declarer's edge"):
            part = table.index.get_level_values("measure") == measure
            for name in (a, b):
                table.loc[part, f"rank_{name}"] = table.loc[part, name].rank(ascending=False, method="min").to_numpy()
    excludes_zero = lambda low, high: (low > 0) | (high < 0)  # noqa: E731
    table["sign_change"] = (np.sign(table[a]) * np.sign(table[b]) < 0) & (
        excludes_zero(table[f"{a}_low"], table[f"{a}_high"]) | excludes_zero(table[f"{b}_low"], table[f"{b}_high"]))
    table["ci_shift"] = excludes_zero(table["shift_low"], table["shift_high"])
    table["rank_change"] = False
    if kind == "contracts":
        for measure in ("declarer's score", "declarer's edge"):
            items = [item for (m, item) in ma if m == measure]
            xa = np.column_stack([ma[(measure, item)][0] for item in items])
            xb = np.column_stack([mb[(measure, item)][0] for item in items])
            for i, j in _reversed_orders(xa, xb, level):
                table.loc[(measure, items[i]), "rank_change"] = True
                table.loc[(measure, items[j]), "rank_change"] = True
    flags = {"sign_change": "sign", "ci_shift": "shift", "rank_change": "rank"}
    table["changes"] = [", ".join(v for k, v in flags.items() if row[k]) for _, row in table.iterrows()]
    return table


def example_policy_comparison() -> pd.DataFrame:
    """A four-deal contract-study comparison of heuristic and search small enough to read (examples, tests).

    No Tricks: the declarer's edge is -1 on every deal under the heuristic and +1 under search;
    Trumps: 4 or 6 under the heuristic, 0 or 1 under search, so the two contracts swap ranks.
    """
    rows = []
    for deal in range(4):
        row = {"deal": deal, "declarer": deal % 4}
        for policy, nt, tr in (("heuristic", -1.0, 4.0 + 2 * (deal % 2)), ("search", 1.0, 1.0 * (deal % 2))):
            row.update({f"{policy}_pick": "trumps", f"{policy}_score_no_tricks": nt, f"{policy}_edge_no_tricks": nt,
                        f"{policy}_score_trumps": tr, f"{policy}_edge_trumps": tr})
        rows.append(row)
    return pd.DataFrame(rows)


def format_policy_conclusions(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """A policy comparison as text: every conclusion side by side, then the ones that change.

    >>> text = format_policy_conclusions(example_policy_comparison())
    >>> text.splitlines()[-1][:45]
    '4 of 6 conclusions change with the policy: de'
    """
    table = policy_conclusions(df, level=level)
    kind, (a, b) = _compared_policies(df)
    lines = _study_header(f"Policy comparison of the {'contract-value' if kind == 'contracts' else 'trump'} study "
                          f"(same deals: {a} vs {b})", meta, len(df))
    shown = table.drop(columns=["sign_change", "ci_shift", "rank_change"])
    if kind == "trumps":
        shown = shown.drop(columns=[f"rank_{a}", f"rank_{b}"])
    lines += ["", f"Each conclusion under both policies ({level:.0%} CIs; shift = {b} − {a}, paired per deal; "
                  "changes: sign = opposite signs with one CI excluding 0, shift = the shift's CI excludes 0, "
                  "rank = its order against another contract, CI-clear under one policy, is reversed; shares in %)",
              table_text(shown, percent_rows=SHARE_MEASURES)]
    changed = table[table["changes"] != ""]
    lines += ["", f"{len(changed)} of {len(table)} conclusions change with the policy"
                  + (": " + "; ".join(f"{m}, {i} ({c})" for (m, i), c in changed["changes"].items()) if len(changed)
                     else "")]
    return "\n".join(lines)


def plot_policy_conclusions(df: pd.DataFrame, *, fig: Figure | None = None, level: float = 0.95) -> Figure:
    """Each conclusion under both policies with its CI, one panel per measure; changed ones in bold red.

    >>> [ax.get_title() for ax in plot_policy_conclusions(example_policy_comparison()).axes][0]
    "declarer's score"
    """
    table = policy_conclusions(df, level=level)
    _, (a, b) = _compared_policies(df)
    measures = list(dict.fromkeys(table.index.get_level_values("measure")))
    cols = min(3, len(measures))
    rows = -(-len(measures) // cols)
    height = max(len(table.xs(m, level="measure")) for m in measures)
    fig = fig or Figure(figsize=(5.2 * cols, 0.6 + (0.9 + 0.35 * height) * rows), layout="constrained")
    for i, measure in enumerate(measures):
        ax = fig.add_subplot(rows, cols, i + 1)
        part = table.xs(measure, level="measure")
        y = np.arange(len(part))
        for k, (name, colour) in enumerate(((a, "tab:blue"), (b, "tab:red"))):
            err = np.vstack([part[name] - part[f"{name}_low"], part[f"{name}_high"] - part[name]])
            ax.errorbar(part[name], y + (k - 0.5) * 0.3, xerr=np.nan_to_num(err), fmt="o", color=colour, capsize=2,
                        label=name)
        ax.set_yticks(y, [f"{item} ({c})" if c else str(item) for item, c in zip(part.index, part["changes"])])
        for label, changes in zip(ax.get_yticklabels(), part["changes"]):
            if changes:
                label.set_color("tab:red")
                label.set_fontweight("bold")
        ax.set_ylim(len(part) - 0.5, -0.5)
        low, high = ax.get_xlim()
        if low < 0 < high:
            ax.axvline(0, color="0.5", linewidth=0.8)
        ax.set_title(measure)
        if i == 0:
            ax.legend(fontsize="x-small")
    fig.suptitle(f"Which conclusions change from {a} to {b} play (same deals, {level:.0%} CI; red = changes)")
    return fig


__all__ = ["example_policy_comparison", "format_policy_conclusions", "plot_policy_conclusions", "policy_conclusions"]
