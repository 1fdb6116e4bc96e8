"""Euchre for five's reports, by kind of run: single hands (``deal``), whole games (``game``) and the
trump-choice study (``trumps``). Tables are DataFrames with 95% intervals; the figures are matplotlib.

Input columns as written by ``cardlab.sim.euchre5`` (``deal``, ``dealer``, ``maker``, ``trump``,
``round``, ``alone``, ``partner``, ``maker_tricks``, ``called``, ``score_0`` … ``score_4``; whole
games add ``game``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .common import game_totals, length_summary, mean_table, position_scores, score_matrix, share_table, win_shares
from .common import run_header, run_meta, table_text
from .plots import _yerr, new_figure, plain_numbers, whole_number_axis
from .stats import interval, proportion_ci
from .strength import Figure, Ladder, format_strength_study, plot_strength_study, seat_edge, seat_mean, seat_result

ALONE_NAMES = ("partnered", "alone by choice", "forced alone")
CALLED_KINDS = ("right bower", "left bower", "trump ace", "other trump", "off-suit ace", "other off-suit",
                "own card", "none (alone)")
RELATIONS = ("upcard suit", "same colour", "other colour")
SUITS = "♣♦♥♠"


def _made(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["maker"] >= 0]


def maker_points(df: pd.DataFrame) -> np.ndarray:
    """Points the maker gained in each hand of ``df`` (hands with a maker)."""
    scores = score_matrix(df)
    return scores[np.arange(len(df)), df["maker"].to_numpy(np.int64)]


def contract_summary(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Per contract type (partnered, alone by choice, forced alone): share of hands, the maker's mean
    points, the points a defender gains, march rate (5 tricks) and euchre rate (under 3), with intervals
    (``<name>_low``, ``<name>_high``)."""
    made = _made(df)
    kind = made["alone"].map(dict(enumerate(ALONE_NAMES))).to_numpy()
    pts = mean_table(maker_points(made), kind, level=level, name="maker_points")
    scores = score_matrix(made)
    maker = made["maker"].to_numpy(np.int64)
    partner = made["partner"].to_numpy(np.int64)
    defenders = np.ones_like(scores, bool)
    defenders[np.arange(len(made)), maker] = False
    has = partner >= 0
    defenders[np.flatnonzero(has), partner[has]] = False
    defend = (scores * defenders).sum(axis=1) / defenders.sum(axis=1)
    tricks = made["maker_tricks"].to_numpy()
    out = pd.DataFrame({"hands": pts["count"], "share": pts["count"] / len(df),
                        "maker_points": pts["maker_points"], "ci_low": pts["ci_low"], "ci_high": pts["ci_high"]})
    out["defender_points"] = pd.Series(defend).groupby(kind).mean()
    for name, hit in (("march", tricks == 5), ("euchre", tricks < 3)):
        t = share_table(hit, kind, level=level)
        out[f"{name}_rate"], out[f"{name}_low"], out[f"{name}_high"] = t["share"], t["ci_low"], t["ci_high"]
    return out.reindex([k for k in ALONE_NAMES if k in out.index])


def tricks_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Share of hands by attackers' tricks (0-5), per contract type: the shape of the score per hand."""
    made = _made(df)
    kind = made["alone"].map(dict(enumerate(ALONE_NAMES)))
    table = pd.crosstab(kind, made["maker_tricks"], normalize="index")
    return table.reindex([k for k in ALONE_NAMES if k in table.index])


def called_kind(df: pd.DataFrame) -> np.ndarray:
    """The kind of card each maker called (see :data:`CALLED_KINDS`), relative to the trump."""
    called = df["called"].to_numpy(np.int64)
    trump = df["trump"].to_numpy(np.int64)
    rank, suit = called % 16, called // 16
    right = (rank == 9) & (suit == trump)
    left = (rank == 9) & (suit == 3 - trump)
    trumpish = (suit == trump) | left
    kind = np.where(right, 0, np.where(left, 1, np.where(trumpish & (rank == 12), 2, np.where(
        trumpish, 3, np.where(rank == 12, 4, 5)))))
    own = (df["alone"].to_numpy() == 1) & (called >= 0)
    kind = np.where(own, 6, np.where(called < 0, 7, kind))
    return np.array(CALLED_KINDS, dtype=object)[kind]


def call_values(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Per kind of called card: how often it is called, how often it was buried (forced alone), the
    maker's mean points with interval and the euchre rate."""
    made = _made(df)
    kind = called_kind(made)
    out = mean_table(maker_points(made), kind, level=level, name="maker_points")
    out["buried"] = pd.Series(made["alone"].to_numpy() == 2).groupby(kind).mean()
    out["euchre_rate"] = pd.Series(made["maker_tricks"].to_numpy() < 3).groupby(kind).mean()
    return out.reindex([k for k in CALLED_KINDS if k in out.index])


def bidding_summary(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """How trump was made: round one, round two, by the stuck dealer, or not at all; with the maker's points."""
    rnd = df["round"].to_numpy()
    stuck = (rnd == 2) & (df["maker"].to_numpy() == df["dealer"].to_numpy())
    label = np.where(rnd == 0, "void (nobody made)", np.where(rnd == 1, "round one", "round two"))
    label = np.where(stuck, "round two, dealer", label)
    t = share_table(np.ones(len(df), bool), label)[["count"]]
    t.index.name = None
    t["share"] = t["count"] / len(df)
    made = df["maker"].to_numpy() >= 0
    pts = pd.Series(np.where(made, score_matrix(df)[np.arange(len(df)), np.maximum(df["maker"].to_numpy(), 0)], 0))
    t["maker_points"] = pts.groupby(label).mean()
    t["euchre_rate"] = pd.Series((df["maker_tricks"].to_numpy() < 3) & made).groupby(label).mean()
    return t


def policy_edge(df: pd.DataFrame, meta: dict | None, *, level: float = 0.95) -> pd.DataFrame | None:
    """With mixed policies: mean points per hand of a seat under each policy, and the heuristic's edge."""
    policies = (meta or {}).get("policies")
    if not policies or len(set(policies)) < 2:
        return None
    scores = score_matrix(df).astype(float)
    rows = {}
    for name in sorted(set(policies)):
        seats = [p for p, q in enumerate(policies) if q == name]
        m, lo, hi = mean_table(scores[:, seats].mean(axis=1), np.zeros(len(df)), level=level).iloc[0][
            ["mean", "ci_low", "ci_high"]]
        rows[name] = dict(seats=",".join(map(str, seats)), points_per_hand=m, ci_low=lo, ci_high=hi)
    h = [p for p, q in enumerate(policies) if q == "heuristic"]
    r = [p for p, q in enumerate(policies) if q == "random"]
    if h and r:
        diff = scores[:, h].mean(axis=1) - scores[:, r].mean(axis=1)
        m, lo, hi = mean_table(diff, np.zeros(len(df)), level=level).iloc[0][["mean", "ci_low", "ci_high"]]
        rows["heuristic - random"] = dict(seats="", points_per_hand=m, ci_low=lo, ci_high=hi)
    return pd.DataFrame.from_dict(rows, orient="index")


#: The share columns of each table in the reports, shown in % (:func:`common.table_text`).
WIN_SHARES = ("win_share", "ci_low", "ci_high")
CONTRACT_SHARES = ("share", "march_rate", "march_low", "march_high", "euchre_rate", "euchre_low", "euchre_high")


def _fmt(table: pd.DataFrame, *percent) -> str:
    return table_text(table, percent=percent)


def format_deal_report(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The report of a run of single hands."""
    meta = run_meta(df, meta)
    lines = run_header(meta, "hand report", count=len(df))
    lines += ["", "How trump was made:", _fmt(bidding_summary(df, level=level), "share", "euchre_rate")]
    lines += ["", "Contract types (maker points per hand with 95% CI; defender points per defender):",
              _fmt(contract_summary(df, level=level), *CONTRACT_SHARES)]
    lines += ["", "Attackers' tricks by contract type, % of hands (3-4: 1 point to each attacker, 5: the march; "
              "1-2 and 0: the defenders' points):", (100 * tricks_distribution(df)).round(1).to_string()]
    lines += ["", "Value of calling each kind of card:", _fmt(call_values(df, level=level), "buried", "euchre_rate")]
    lines += ["", "Points per hand by seat relative to the dealer (edge = minus the table average):",
              _fmt(position_scores(df, level=level))]
    edge = policy_edge(df, meta, level=level)
    if edge is not None:
        lines += ["", "Points per hand by policy:", _fmt(edge)]
    return "\n".join(lines)


def plot_deal_report(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """Three panels with ``level`` intervals: the maker's points by contract type, the distribution of the
    attackers' tricks per contract type (which sets the points: 3-4 one each, 5 the march, under 3 euchred)
    and the points by seat relative to the dealer. Drawn on ``fig`` (empty) or a new Figure (no pyplot)."""
    fig = new_figure(fig, (16, 4.6))
    a, c, b = fig.subplots(1, 3)
    t = contract_summary(df, level=level)
    a.bar(t.index, t["maker_points"], yerr=_yerr(t, "maker_points", "ci_low", "ci_high"), capsize=4,
          color="tab:blue", ecolor="0.3")
    a.axhline(0, color="0.4", linewidth=0.8)
    a.set_xlabel("contract type")
    a.set_ylabel(f"maker's points per hand ({level:.0%} CI)")
    a.set_title("Maker's points by contract type")
    made = _made(df)
    kind = made["alone"].map(dict(enumerate(ALONE_NAMES)))
    counts = pd.crosstab(kind, made["maker_tricks"]).reindex(columns=range(6), fill_value=0)
    counts = counts.reindex([k for k in ALONE_NAMES if k in counts.index])
    width = 0.8 / max(len(counts), 1)
    for k, (name, row) in enumerate(counts.iterrows()):
        hands = np.full(len(row), int(row.sum()))
        share, low, high = proportion_ci(row.to_numpy(), hands, level=level)
        c.bar(np.arange(len(row)) + (k - (len(counts) - 1) / 2) * width, 100 * share, width, label=name,
              yerr=100 * np.vstack([share - low, high - share]), capsize=2, ecolor="0.3")
    c.set_xticks(range(6))
    c.set_xlabel("attackers' tricks (3-4: 1 point each, 5: the march, 0-2: euchred)")
    c.set_ylabel(f"% of the type's hands ({level:.0%} CI)")
    c.set_title("Attackers' tricks by contract type")
    c.legend(fontsize="small", loc="upper left")
    p = position_scores(df, level=level)
    b.bar(p.index, p["mean"], yerr=_yerr(p, "mean", "ci_low", "ci_high"), capsize=4, color="tab:green", ecolor="0.3")
    b.axhline(0, color="0.4", linewidth=0.8)
    b.set_xlabel("seat (places after the dealer)")
    b.set_ylabel(f"points per hand ({level:.0%} CI)")
    b.set_title("Points by seat relative to the dealer")
    return fig


# ---------------------------------------------------------------- whole games


def game_credit(df: pd.DataFrame, tie_rule: str = "shared") -> tuple[pd.DataFrame, np.ndarray]:
    """Game totals (see ``common.game_totals``) and each seat's win credit per game under ``tie_rule``:
    1 for a sole winner, 1/k for k seats sharing; ``maker_side_first`` prefers the tied seats that
    attacked in the last hand."""
    totals = game_totals(df)
    n = sum(c.startswith("total_") for c in totals.columns)
    t = totals[[f"total_{p}" for p in range(n)]].to_numpy()
    leaders = t == t.max(axis=1, keepdims=True)
    if tie_rule == "maker_side_first":
        last = df.groupby("game", sort=True)[["maker", "partner"]].last().to_numpy()
        attack = np.zeros_like(leaders)
        for col in range(2):
            ok = last[:, col] >= 0
            attack[np.flatnonzero(ok), last[ok, col]] = True
        preferred = leaders & attack
        leaders = np.where(preferred.any(axis=1, keepdims=True), preferred, leaders)
    credit = leaders / leaders.sum(axis=1, keepdims=True)
    return totals, credit


def format_game_report(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The report of a run of whole games: length, winners by seat and by place after the first dealer."""
    meta = run_meta(df, meta)
    tie_rule = (meta.get("options") or {}).get("tie_rule", "shared")
    totals, credit = game_credit(df, tie_rule)
    lines = run_header(meta, "whole-game report", count=len(totals), unit="game")
    lines += ["", "Game length:", _fmt(length_summary(totals["hands"].to_numpy(), level=level))]
    shared = (credit.max(axis=1) < 1).mean()
    lines += ["", f"Winners ({tie_rule} ties; {shared:.1%} of games end with a shared win):",
              _fmt(win_shares(credit, level=level), *WIN_SHARES)]
    first = df.groupby("game", sort=True)["dealer"].first().to_numpy()
    n = credit.shape[1]
    by_place = np.stack([credit[np.arange(len(credit)), (first + k) % n] for k in range(1, n + 1)], axis=1)
    labels = [f"dealer+{k}" for k in range(1, n)] + ["first dealer"]
    lines += ["", "Win share by place after the first dealer:", _fmt(win_shares(by_place, level=level, labels=labels), *WIN_SHARES)]
    t = totals[[f"total_{p}" for p in range(n)]].to_numpy()
    by_place_total = np.stack([t[np.arange(len(t)), (first + k) % n] for k in range(1, n + 1)], axis=1)
    finals = mean_table(by_place_total.ravel(), np.tile(np.arange(n), len(t)), level=level, name="final_total")
    finals.index = labels
    finals["edge"] = (by_place_total - t.mean(axis=1, keepdims=True)).mean(axis=0)
    lines += ["", "Final points by place after the first dealer (edge: minus the game's average):", _fmt(finals)]
    lines += ["", "Hands (all games pooled):", _fmt(contract_summary(df, level=level), *CONTRACT_SHARES)]
    return "\n".join(lines)


def plot_game_report(df: pd.DataFrame, *, fig=None, meta: dict | None = None, level: float = 0.95):
    """Win share by seat (``level`` intervals; shared wins split) and the distribution of game length.
    Drawn on ``fig`` (empty) or a new Figure (no pyplot)."""
    meta = run_meta(df, meta)
    tie_rule = (meta.get("options") or {}).get("tie_rule", "shared")
    totals, credit = game_credit(df, tie_rule)
    fig = new_figure(fig, (12, 4.4))
    a, b = fig.subplots(1, 2)
    w = win_shares(credit, level=level)
    a.bar(w.index, 100 * w["win_share"], yerr=100 * _yerr(w, "win_share", "ci_low", "ci_high"), capsize=4,
          ecolor="0.3")
    a.axhline(100 / credit.shape[1], color="0.4", lw=1, ls=":")
    a.set_xlabel("seat")
    a.set_ylabel(f"% of games won ({level:.0%} CI; {tie_rule} ties)")
    a.set_title("Winners by seat (dotted: a fair seat)")
    hands = totals["hands"].to_numpy()
    b.hist(hands, bins=np.arange(hands.min(), hands.max() + 2) - 0.5, color="tab:orange")
    mean, low, high = length_summary(hands, level=level).iloc[0][["mean", "ci_low", "ci_high"]]
    b.axvline(mean, color="0.2", lw=1, ls="--", label=f"mean {mean:.2f} ({low:.2f} to {high:.2f})")
    b.set_xlabel("hands per game")
    b.set_ylabel("games")
    b.set_title("Game length")
    b.legend(fontsize="small", title=f"{level:.0%} CI", title_fontsize="small")
    whole_number_axis(b.xaxis)
    whole_number_axis(b.yaxis)
    plain_numbers(b.yaxis)
    return fig


# ---------------------------------------------------------------- trump-choice study


def trump_by(df: pd.DataFrame, by: str, *, level: float = 0.95) -> pd.DataFrame:
    """Maker's mean points, edge over the others and euchre rate by a study column (with intervals)."""
    keys = df[by].to_numpy()
    if by == "relation":
        keys = np.array(RELATIONS, dtype=object)[keys]
    out = mean_table(df["maker_points"], keys, level=level, name="maker_points")
    e = mean_table(df["edge"], keys, level=level, name="edge")
    out["edge"] = e["edge"]
    out["edge_ci"] = [interval(lo, hi) for lo, hi in zip(e["ci_low"], e["ci_high"])]
    out["euchre_rate"] = share_table(df["maker_tricks"].to_numpy() < 3, keys)["share"]
    out["alone_rate"] = pd.Series(df["alone"].to_numpy() == 1).groupby(keys).mean()
    if by == "relation":
        out = out.reindex(RELATIONS)
    return out


def paired_relation(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Paired differences of the maker's edge against making the upcard's suit, on the same cards
    and maker: the mean difference with its interval, and the variance reduction pairing buys
    (variance of two unpaired samples over the variance of the paired differences)."""
    rel = df["relation"].to_numpy()
    key = df["deal"].to_numpy() * 5 + df["maker"].to_numpy()
    up = pd.Series(df["edge"].to_numpy()[rel == 0], index=key[rel == 0])
    rows = {}
    for r in (1, 2):
        part = pd.Series(df["edge"].to_numpy()[rel == r], index=key[rel == r])
        diff = part - up.reindex(part.index).to_numpy()
        t = mean_table(diff.to_numpy(), np.zeros(len(diff)), level=level).iloc[0]
        unpaired = part.var() + up.var()
        rows[f"{RELATIONS[r]} - upcard suit"] = dict(pairs=len(diff), edge_diff=t["mean"], ci_low=t["ci_low"],
                                                     ci_high=t["ci_high"],
                                                     variance_reduction=unpaired / max(diff.var(), 1e-12))
    return pd.DataFrame.from_dict(rows, orient="index")


def strength_curve(df: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """The maker's mean edge and euchre rate by the heuristic's bid strength (half points): where
    making trump starts to pay, against the heuristic's thresholds."""
    s = np.clip(df["strength"].to_numpy(), 0, 24)
    out = mean_table(df["edge"], s, level=level, name="edge")
    out["maker_points"] = pd.Series(df["maker_points"].to_numpy()).groupby(s).mean()
    out["euchre_rate"] = pd.Series(df["maker_tricks"].to_numpy() < 3).groupby(s).mean()
    out.index.name = "strength"
    return out


def format_trump_study(df: pd.DataFrame, meta: dict | None = None, *, level: float = 0.95) -> str:
    """The trump-choice study: by trump relative to the upcard, bowers, trumps held, seat, and strength."""
    meta = run_meta(df, meta)
    lines = run_header(meta, "trump-choice study", count=df["deal"].nunique())
    lines.append(f"{len(df):,} plays: each deal with every seat as maker and every trump suit; "
                 "edge = maker points minus the other seats' mean")
    for by, title in (("relation", "trump relative to the upcard"), ("bowers", "bowers held"),
                      ("trumps", "trumps held (bowers included)"), ("seat", "maker's place after the dealer (5 = dealer)")):
        lines += ["", f"By {title}:", _fmt(trump_by(df, by, level=level), "euchre_rate", "alone_rate")]
    lines += ["", "Paired against the upcard's suit (same cards, same maker):", _fmt(paired_relation(df, level=level))]
    curve = strength_curve(df, level=level)
    thresholds = (meta or {}).get("thresholds", {})
    lines += ["", "By the heuristic's bid strength (half points; thresholds "
              + ", ".join(f"{k} {v}" for k, v in thresholds.items()) + "):", _fmt(curve, "euchre_rate")]
    pays = curve.index[(curve["edge"] > 0).to_numpy()]
    if len(pays):
        lines.append(f"making trump gains on average from strength {int(pays.min())}; the heuristic bids from "
                     f"{thresholds.get('accept', '?')} (round one) and {thresholds.get('name', '?')} (round two)")
    return "\n".join(lines)


def plot_trump_study(df: pd.DataFrame, *, fig=None, level: float = 0.95):
    """The maker's edge by bid strength, one line per trump relation (``level`` intervals; strengths with
    fewer than 30 plays left out). Drawn on ``fig`` (empty) or a new Figure (no pyplot)."""
    fig = new_figure(fig, (8, 4.8))
    ax = fig.subplots()
    for r, name in enumerate(RELATIONS):
        c = strength_curve(df[df["relation"] == r], level=level)
        c = c[c["count"] >= 30]
        ax.errorbar(c.index, c["edge"], yerr=_yerr(c, "edge", "ci_low", "ci_high"), label=name,
                    capsize=2, marker="o", ms=3)
    ax.axhline(0, color="grey", lw=1)
    whole_number_axis(ax.xaxis)
    ax.set_xlabel("heuristic bid strength (half points)")
    ax.set_ylabel(f"maker's edge per hand (points, {level:.0%} CI)")
    ax.set_title("Maker's edge by bid strength and trump relation")
    ax.legend(title="trump suit", fontsize="small")
    return fig


# ---------------------------------------------------------------- the trump study under two policies


def trump_choice(df: pd.DataFrame) -> pd.DataFrame:
    """Per (deal, maker) of a trump study: the edge of the suit the heuristic rates strongest (its
    bid strength; ties to the lower suit), of the best suit, and the regret between them."""
    order = df.sort_values(["deal", "maker", "trump"])
    edge = order["edge"].to_numpy(np.float64).reshape(-1, 4)
    strength = order["strength"].to_numpy(np.int64).reshape(-1, 4)
    named = edge[np.arange(len(edge)), strength.argmax(axis=1)]
    best = edge.max(axis=1)
    return pd.DataFrame({"named": named, "best": best, "regret": best - named,
                         "named_is_best": named == best, "random_suit": edge.mean(axis=1)})


def compare_trump_studies(studies: dict, *, level: float = 0.95) -> pd.DataFrame:
    """The trump-choice study's conclusions side by side for runs on the same deals under different
    policies (``{"heuristic": df, "search": df}``): the maker's edge by trump relative to the upcard,
    by bowers held, by seat; the paired relation differences; the strength from which making pays;
    the value of the suit the heuristic rates strongest against the best suit.

    >>> from cardlab.sim.euchre5 import trump_study
    >>> t = compare_trump_studies({"heuristic": trump_study(deals=20, seed=1)})
    >>> "regret (best - strongest suit)" in t.index
    True
    """
    columns = {}
    for name, df in studies.items():
        col = {}
        for by, label in (("relation", "edge, {}"), ("bowers", "edge, {} bowers"),
                          ("seat", "edge, maker at place {}")):
            t = trump_by(df, by, level=level)
            for key, row in t.iterrows():
                col[label.format(key)] = row["edge"]
        for key, row in paired_relation(df, level=level).iterrows():
            col[f"paired: {key}"] = row["edge_diff"]
        curve = strength_curve(df, level=level)
        pays = curve.index[(curve["edge"] > 0).to_numpy() & (curve["count"] >= 30).to_numpy()]
        col["making pays from strength"] = float(pays.min()) if len(pays) else np.nan
        col["euchre rate, all variants"] = float((df["maker_tricks"] < 3).mean())
        choice = trump_choice(df)
        col["edge of the strongest suit"] = choice["named"].mean()
        col["edge of the best suit"] = choice["best"].mean()
        col["regret (best - strongest suit)"] = choice["regret"].mean()
        col["strongest suit is the best"] = choice["named_is_best"].mean()
        col["gain over a random suit"] = (choice["named"] - choice["random_suit"]).mean()
        columns[name] = col
    return pd.DataFrame(columns)


def _variants(name: str):
    """The shared options study's report (``cardlab.analysis.variants``), imported when a report is made."""
    def report(*args, **kwargs):
        from . import variants

        return getattr(variants, name)(*args, **kwargs)
    return report


def _of_made(read):
    """A yes/no figure over the hands where trump was made (NaN elsewhere: left out)."""
    def figure(df, p):
        made = df[f"maker_{p}"].to_numpy() >= 0
        return np.where(made, read(df, p), np.nan)
    return Figure(figure, share=True)


def _maker_points(df, p):
    maker = df[f"maker_{p}"].to_numpy(np.int64)
    scores = df[[f"score_{p}_{s}" for s in range(5)]].to_numpy(np.float64)
    return np.where(maker >= 0, scores[np.arange(len(df)), np.maximum(maker, 0)], np.nan)


#: The strength ladder's rows (``sim/euchre5/interface.py``'s hooks): the lone seat's edge (its points minus
#: the other four seats' mean) and points; each whole table's bidding and the makers' results.
STRENGTH = Ladder(measures=(seat_edge(), seat_result()), figures={
    "a seat's points": seat_mean(),
    "made in round one": Figure(lambda df, p: df[f"round_{p}"].to_numpy() == 1, share=True),
    "made in round two": Figure(lambda df, p: df[f"round_{p}"].to_numpy() == 2, share=True),
    "no trump made": Figure(lambda df, p: df[f"maker_{p}"].to_numpy() < 0, share=True),
    "alone by choice": _of_made(lambda df, p: df[f"alone_{p}"].to_numpy() == 1),
    "march": _of_made(lambda df, p: df[f"tricks_{p}"].to_numpy() == 5),
    "euchred": _of_made(lambda df, p: df[f"tricks_{p}"].to_numpy() < 3),
    "maker's points": Figure(_maker_points),
})


REPORTS = {
    "deal": (format_deal_report, plot_deal_report),
    "game": (format_game_report, plot_game_report),
    "trumps": (format_trump_study, plot_trump_study),
    "strength": (format_strength_study, plot_strength_study),  # every game's ladder report, read through STRENGTH
    "options": (_variants("format_variants"), _variants("plot_variants")),  # the options study of every game
}
