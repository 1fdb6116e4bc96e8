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
"""
from __future__ import annotations

import numpy as np

from cardlab.sim import runner
from cardlab.sim.game import StudyKind
from cardlab.sim.options import declared


def spell_value(value) -> str:
    """An option value as a variant name shows it (``True`` → ``true``, ``None`` → ``none``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


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
            skipped.update({f"{f.name}={spell_value(v)}": "does not apply to single deals" for v in values})
            continue
        for value in values:
            name = f"{f.name}={spell_value(value)}"
            try:
                base.with_options(**{f.name: value})
            except ValueError as err:
                skipped[name] = str(err)
                continue
            variants[name] = {f.name: value}
    return variants, skipped


def options_study(game, *, deals: int, threads=None, first_deal: int = 0, chunk_size: int | None = None,
                  progress: bool = False, out=None, **keywords):
    """Play ``deals`` deals of ``game`` under every variant (see the module docstring); one row per deal."""
    base = game.build("deals", study_name="options", **keywords)
    changes, skipped = option_variants(game, base)
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

    runner.set_threads(threads)
    meta = {**base.metadata(), "study": "options", "variants": changes, "skipped": skipped}
    return runner.run(play_chunk, deals=deals, first_deal=first_deal,
                      chunk_size=chunk_size or max(1024, game.deal_chunk // max(1, len(studies))),
                      progress=progress, out=out, meta=meta)


def options_metadata(game, **keywords) -> dict:
    base = game.build("deals", study_name="options", **keywords)
    changes, skipped = option_variants(game, base)
    return {**base.metadata(), "study": "options", "variants": changes, "skipped": skipped}


STUDY = StudyKind("every rule option switched from its setting in turn, paired on the same deals", options_study,
                  options_metadata)

__all__ = ["STUDY", "option_variants", "options_metadata", "options_study", "spell_value"]
