"""The referee replays Minchiate kernel logs: every step legal, every score recomputed (§11 invariants)."""
import numpy as np
import pytest

from cardlab.sim.minchiate.kernels import LOG_CUTTER_DISCARDS, LOG_DEALER_DISCARDS, LOG_PERM, LOG_PLAYS
from cardlab.sim.minchiate import Study, simulate
from cardlab.sim.minchiate.interface import row_columns
from cardlab.sim.minchiate.referee import RefereeError, check_agreement, referee_deal
from cardlab.sim.minchiate.rules import MATTO, SOURCES, MinchiateOptions

RESTO = MinchiateOptions.resto_unit  # the default resto unit

OPTION_SETS = {
    "defaults": {},
    "all switched": dict(steal_29=False, expose_last_cards="all_four", dealer_takes_from_fola="counting+trumps_above_20",
                         discards_to="own_team_pile", declarations="mandatory_all", c5_merge=False,
                         combos_may_share=False, matto_bonus_on_c3=True, score_pile_combos=False,
                         cappotto_double=True),
    "mixed a": dict(steal_29=False, dealer_takes_from_fola="counting+trumps_above_20", c5_merge=False,
                    matto_bonus_on_c3=True, cutter_cap=4),
    "mixed b": dict(expose_last_cards="all_four", discards_to="own_team_pile", combos_may_share=False,
                    cappotto_double=True),
}
DEALS = 1000


def referee_rows(study, first, count):
    """Referee every deal of a recorded batch against the kernel's row; returns the records."""
    out, logs, declared = study.raw(first, count, record=True)
    cols = row_columns(out)
    records = []
    for j in range(count):
        log = logs[j].astype(np.int64)
        rec = referee_deal(study.options, first + j, log[LOG_PERM:LOG_PERM + 97],
                           log[LOG_CUTTER_DISCARDS:LOG_DEALER_DISCARDS], log[LOG_DEALER_DISCARDS:LOG_PLAYS],
                           declared[j], log[LOG_PLAYS:LOG_PLAYS + 84])
        check_agreement(rec, {k: v[j] for k, v in cols.items()}, first + j)
        records.append(rec)
    return records


CASES = [(name, policy) for name in OPTION_SETS for policy in ("heuristic", "random")]
CASES.append(("defaults", "heuristic,random,random,heuristic"))


@pytest.mark.slow
@pytest.mark.parametrize("name, policy", CASES)
def test_referee_agrees_with_kernel(name, policy):
    study = Study.build(policy=policy, seed=11 + len(name), **OPTION_SETS[name])
    records = referee_rows(study, 0, DEALS if "," not in policy else 300)
    assert {r["dealer"] for r in records} == {0, 1, 2, 3}
    if name == "defaults":
        assert all(r["pile_sizes"][0] + r["pile_sizes"][1] == 84 for r in records)
    # the Matto ends with its owner's team unless that team took no trick (then it is the debt)
    for r in records:
        owner = next(p for trick in r["tricks"] for p, c in trick if c == MATTO) % 2
        if r["matto_paid"] == MATTO:
            assert r["tricks_won"][owner] == 0


def test_referee_rejects_an_illegal_play():
    study = Study.build(seed=3)
    out, logs, declared = study.raw(0, 1, record=True)
    log = logs[0].astype(np.int64)
    args = [study.options, 0, log[:97], log[97:110], log[110:123], declared[0]]
    plays = log[LOG_PLAYS:LOG_PLAYS + 84].copy()
    referee_deal(*args, plays)
    plays[1], plays[5] = plays[5], plays[1]  # the same seat's cards, out of turn order: a revoke or a missing card
    with pytest.raises(RefereeError):
        referee_deal(*args, plays)
    with pytest.raises(RefereeError):  # a declaration no combination is worth
        referee_deal(study.options, 0, log[:97], log[97:110], log[110:123], declared[0] + 1, log[123:207])
    bad = log[97:110].copy()
    bad[:] = -1
    if log[97] >= 0:  # a cutter who took cards must discard as many
        with pytest.raises(RefereeError):
            referee_deal(study.options, 0, log[:97], bad, log[110:123], declared[0], log[123:207])


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_invariants_on_many_deals(policy):
    """§11 on 20,000 deals: 142 card points, one last trick, |Δ| < 60 during play, net within 1 of Δ/60."""
    df = simulate(deals=20_000, seed=5, policy=policy)
    assert ((df.card_points_0 + df.card_points_1) == 142).all()
    assert ((df.last_trick_0 + df.last_trick_1) == 10).all() and ((df.last_trick_0 == 0) | (df.last_trick_1 == 0)).all()
    assert ((df.beyond42_0 == 0) | (df.beyond42_1 == 0)).all()
    assert ((df.tricks_0 + df.tricks_1) == 21).all()
    assert (df.max_delta < RESTO).all()
    assert (df.cutter_cards <= 13).all() and (df.dealer_cards <= 13 - df.cutter_cards).all()
    points = sum(df[f"{s}_0"] for s in SOURCES) - sum(df[f"{s}_1"] for s in SOURCES)
    assert (points == df.points_0 - df.points_1).all()
    diff = df.points_0 - df.points_1
    gap = df.net_resti - diff / RESTO
    assert (gap.abs() < 1).all()
    assert (df.net_resti[diff % RESTO == 0] == diff[diff % RESTO == 0] // RESTO).all()
    assert ((df.net_resti == df.resti_0 - df.resti_1)).all()
    assert (df.resti_0 >= 0).all() and (df.resti_1 >= 0).all()


def test_heuristic_team_beats_random_team():
    """The heuristic partnership wins clearly against random partners (captures far more)."""
    df = simulate(deals=4000, seed=3, policy="heuristic,random,heuristic,random")
    assert df.net_resti.mean() > 1.0
    assert (df.captures_0 - df.captures_1).mean() > 5
