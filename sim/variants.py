"""The options study of every game: the same deals under the rules as set and under each option changed.

Variant ``default`` is the study's own options; then every declared option of the game takes each
of its other allowed values in turn (a switch is flipped, a choice takes each other value; an
integer option with a range is left to ``--vary``-style sweeps). A variant that the rules refuse
in combination with the others (a two-joker Rami deck with jokers free) or that does not apply to
single deals (a whole game's target) is left out and listed in the metadata's ``skipped``.

Deal ``i`` is dealt from the stream ``(seed, i)`` under every variant, so the cards are the same
(unless the variant changes the deck) and a difference between variants comes from the rule
alone: the paired shift of a figure from ``default`` has a far narrower interval than two
independent runs would give.

One row per deal: ``deal``, then every column the game's plain run gives (but ``deal``), each as
``<column>@<variant>``, the variant spelled ``default`` or ``name=value``.
``cardlab.analysis.variants`` reports the shifts.

The variants study (``cardlab study <game> variants --vary NAME=v1,v2 [--vary ...]``) plays the
variants a designer names instead: every combination of the values given (``a=1;b=x`` when two
options vary), each on the same deals, beside ``default``. A value the rules refuse in combination
is left out and listed in ``skipped``; an option that does not apply to single deals is an error.
"""
from __future__ import annotations

import re
from itertools import product

import numpy as np

from cardlab.sim import runner
from cardlab.sim.game import StudyKind
from cardlab.sim.options import declared, flag_text, parse_text


def option_variants(game, base) -> tuple[dict, dict]:
    """``({variant name: rule changes}, {skipped variant name: why})`` for the study ``base``."""
    variants, skipped = {"default": {}}, {}
    scope = game.scope()
    context = game.run_context(base, unit="deals", study_name="options")
    for f in declared(type(base.options)):
        current = getattr(base.options, f.name)
        if f.metadata["choices"] is not None:
            values = [v for v in f.metadata["choices"] if v != current]
        elif isinstance(f.default, bool):
            values = [not current]
        else:
            continue
        if f.name in scope and not scope[f.name].applies(context):
            skipped.update({f"{f.name}={flag_text(v)}": "does not apply to single deals" for v in values})
            continue
        for value in values:
            name = f"{f.name}={flag_text(value)}"
            try:
                base.with_options(**{f.name: value})
            except ValueError as err:
                skipped[name] = str(err)
                continue
            variants[name] = {f.name: value}
    return variants, skipped


def paired_variants(game, base, changes: dict, *, deals: int, threads=None, first_deal: int = 0,
                    chunk_size: int | None = None, progress: bool = False, out=None, meta: dict):
    """Play ``deals`` deals of ``base`` under each variant of ``changes`` (name -> rule changes); one row per
    deal, every column of a plain run as ``<column>@<variant>``."""
    studies = {name: base.with_options(**change) for name, change in changes.items()}

    def play_chunk(first, count):
        columns = {"deal": np.arange(first, first + count, dtype=np.int64)}
        for name, study in studies.items():
            for column, values in study.play(first, count).items():
                if column == "deal":
                    continue
                if values.ndim == 2:  # one column per seat, named as the runner names them: score_0, score_1 ...
                    columns.update({f"{column}_{i}@{name}": values[:, i] for i in range(values.shape[1])})
                else:
                    columns[f"{column}@{name}"] = values
        return columns

    return runner.run_study(play_chunk, meta, deals=deals, threads=threads, first_deal=first_deal,
                            chunk_size=chunk_size or max(1024, game.deal_chunk // max(1, len(studies))),
                            progress=progress, out=out)


def options_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                  progress: bool = False, out=None, **keywords):
    """Play ``deals`` deals of ``game`` under every variant (see the module docstring); one row per deal."""
    base, meta = _options_plan(game, **keywords)
    return paired_variants(game, base, meta["variants"], deals=deals, threads=threads, first_deal=first_deal,
                           chunk_size=chunk_size, progress=progress, out=out, meta=meta)


def options_metadata(game, **keywords) -> dict:
    return _options_plan(game, **keywords)[1]


def _options_plan(game, **keywords):
    """The options study's base study and its run metadata (the variants it plays and those it leaves out)."""
    base = game.build("deals", study_name="options", **keywords)
    changes, skipped = option_variants(game, base)
    return base, {**base.metadata(), "study": "options", "variants": changes, "skipped": skipped}


def parse_vary(game, vary) -> dict[str, list]:
    """The options to vary and their values: ``vary`` is ``["NAME=v1,v2", ...]`` as typed (values read as the
    option's flag reads them, separated by commas, or by ``/`` when a value holds commas itself) or a mapping
    name -> values."""
    if not vary:
        raise ValueError("vary: give at least one option to vary, e.g. --vary players=3,5")
    known = {f.name: f for f in declared(game.Options)}
    items = vary.items() if isinstance(vary, dict) else []
    if not isinstance(vary, dict):
        for spec in ([vary] if isinstance(vary, str) else vary):
            name, sep, values = str(spec).partition("=")
            name = name.strip().lstrip("-").replace("-", "_")
            if not sep or not values.strip():
                raise ValueError(f"vary: {spec!r} is not allowed; give NAME=v1,v2,... e.g. players=3,5")
            if name not in known:
                raise ValueError(f"vary: {name!r} is not an option of {game.title}; options: {', '.join(known)}")
            split = "/" if "/" in values else ","  # a list option's values hold commas: 45,25,10,0/40,20,10,0
            items.append((name, [parse_text(known[name], v.strip()) for v in values.split(split)]))
    out = {}
    for name, values in items:
        if name not in known:
            raise ValueError(f"vary: {name!r} is not an option of {game.title}; options: {', '.join(known)}")
        if name in out:
            raise ValueError(f"vary: {name!r} is named twice; give all its values in one NAME=v1,v2")
        values = [tuple(v) if isinstance(v, list) else v for v in values]
        if not values or len(set(map(flag_text, values))) != len(values):
            raise ValueError(f"vary: {name}={','.join(map(flag_text, values))} is not allowed; give distinct values")
        out[name] = values
    return out


def check_single_deals(game, base, names, *, flag: str, study_name: str) -> None:
    """Refuse, naming ``flag``, the first option of ``names`` that does not apply to single deals of ``base``
    (a study plays single deals: a whole game's ``target`` cannot vary there)."""
    scope, context = game.scope(), game.run_context(base, unit="deals", study_name=study_name)
    for name in names:
        if name in scope and not scope[name].applies(context):
            where = re.sub(r"{(\w+)}", r"\1", scope[name].where)
            raise ValueError(f"{flag}: {name} does not apply to single deals; it applies {where}")


def vary_variants(game, base, grid: dict) -> tuple[dict, dict]:
    """``({variant name: rule changes}, {skipped variant name: why})``: ``default``, then every combination of
    the values of ``grid`` (:func:`parse_vary`'s; a combination equal to the study's own options is ``default``)."""
    check_single_deals(game, base, grid, flag="vary", study_name="variants")
    variants, skipped = {"default": {}}, {}
    for combo in product(*grid.values()):
        change = dict(zip(grid, combo))
        name = ";".join(f"{k}={flag_text(v)}" for k, v in change.items())
        if all(getattr(base.options, k) == v for k, v in change.items()):
            continue  # the study's own options: that is default
        try:
            base.with_options(**change)
        except ValueError as err:
            skipped[name] = str(err)
            continue
        variants[name] = change
    if len(variants) == 1:
        raise ValueError("vary: every combination is the default or refused by the rules: "
                         + "; ".join(f"{k}: {v}" for k, v in skipped.items()) if skipped else
                         "vary: every combination equals the study's own options; give other values")
    return variants, skipped


def variants_study(game, *, deals: int, vary, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                   progress: bool = False, out=None, **keywords):
    """Play ``deals`` deals under ``default`` and every combination of the ``vary`` values, paired."""
    base, meta = _variants_plan(game, vary, **keywords)
    return paired_variants(game, base, meta["variants"], deals=deals, threads=threads, first_deal=first_deal,
                           chunk_size=chunk_size, progress=progress, out=out, meta=meta)


def variants_metadata(game, *, vary, **keywords) -> dict:
    return _variants_plan(game, vary, **keywords)[1]


def _variants_plan(game, vary, **keywords):
    """The variants study's base study and its run metadata (what was varied, the variants, those left out)."""
    base = game.build("deals", study_name="variants", **keywords)
    grid = parse_vary(game, vary)
    changes, skipped = vary_variants(game, base, grid)
    return base, {**base.metadata(), "study": "variants", "vary": {k: [flag_text(v) for v in vs]
                                                                   for k, vs in grid.items()},
                  "variants": changes, "skipped": skipped}


STUDY = StudyKind("every rule option switched from its setting in turn, paired on the same deals", options_study,
                  options_metadata)
VARIANTS = StudyKind("the variants named by --vary NAME=v1,v2 (every combination), paired on the same deals",
                     variants_study, variants_metadata)

__all__ = ["STUDY", "VARIANTS", "check_single_deals", "option_variants", "options_metadata", "options_study",
           "paired_variants", "parse_vary", "vary_variants", "variants_metadata", "variants_study"]
