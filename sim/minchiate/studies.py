"""Paired studies: the same Minchiate deals played under every rule option switched in turn.

The shuffle is the first use of a deal's stream, so deal ``i`` has the same pack under every
option set: the differences between variants are paired, deal by deal, and their confidence
intervals are much narrower than those of independent runs.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardlab.sim import runner
from cardlab.sim.minchiate.rules import (DEALER_TAKES, DECLARATIONS, DISCARDS_TO, EXPOSE, MinchiateOptions)
from cardlab.sim.minchiate.simulate import Study, make_options

#: The alternative of each option with one (n_deals, cutter_cap and card_bonus_rule change no deal's rules).
SWITCHES = {
    "steal_29": lambda v: not v,
    "expose_last_cards": lambda v: EXPOSE[1 - EXPOSE.index(v)],
    "dealer_takes_from_fola": lambda v: DEALER_TAKES[1 - DEALER_TAKES.index(v)],
    "discards_to": lambda v: DISCARDS_TO[1 - DISCARDS_TO.index(v)],
    "declarations": lambda v: DECLARATIONS[1 - DECLARATIONS.index(v)],
    "c5_merge": lambda v: not v,
    "combos_may_share": lambda v: not v,
    "matto_bonus_on_c3": lambda v: not v,
    "score_pile_combos": lambda v: not v,
    "cappotto_double": lambda v: not v,
}


def option_variants(options: MinchiateOptions) -> dict[str, MinchiateOptions]:
    """``{"as given": options, "steal_29=False": …, …}``: each option switched alone."""
    out = {"as given": options}
    for name, switch in SWITCHES.items():
        value = switch(getattr(options, name))
        out[f"{name}={value}"] = make_options(options, **{name: value})
    return out


KEEP = ("dealer", "cutter_cards", "points_0", "points_1", "resti_0", "resti_1", "net_resti", "declarations_0",
        "declarations_1", "pile_combos_0", "pile_combos_1")


def option_study(*, deals: int, seed: int = 0, policy="heuristic", threads=None, progress=False, out=None,
                 chunk_size: int = 1 << 18, **rules) -> pd.DataFrame | None:
    """Every deal played under each variant of :func:`option_variants`; one row per (variant, deal).

    Columns: ``variant``, ``deal``, ``dealer``, ``cutter_cards``, the teams' points and resti,
    ``net_resti``, the declarations and pile combinations per team.

    >>> df = option_study(deals=50, seed=2)
    >>> int(df.groupby("variant", sort=False, observed=True).size().iloc[0])
    50
    """
    base = Study.build(policy=policy, seed=seed, **rules)
    variants = option_variants(base.options)
    studies = {name: Study(opts, base.policies, base.seed, base.search_worlds, base.search_rollout)
               for name, opts in variants.items()}
    names = list(studies)

    def play(first, count):
        parts = []
        for name, study in studies.items():
            cols = study.play(first, count)
            parts.append(pd.DataFrame({"variant": pd.Categorical([name] * count, categories=names),
                                       "deal": cols["deal"], **{k: cols[k] for k in KEEP}}))
        return {k: v.to_numpy() if k != "variant" else v.values for k, v in pd.concat(parts).items()}

    runner.set_threads(threads)
    meta = {**base.metadata(), "study": "options", "variants": names}
    return runner.run(play, deals=deals, chunk_size=chunk_size, progress=progress, out=out, meta=meta)


def dealer_edge(df: pd.DataFrame) -> np.ndarray:
    """Net resti of the dealer's team, per row (the cutter's team gets the opposite)."""
    sign = np.where(df["dealer"].to_numpy() % 2 == 0, 1, -1)
    return df["net_resti"].to_numpy() * sign
