"""Euchre for five, tier 1 and 3: the plain-Python referee agrees with the kernels on thousands of
seeded hands for every option set and both policies, and the invariants of §10 hold."""
import numpy as np
import pytest

from cardlab.sim.euchre5 import Study
from cardlab.sim.euchre5.referee import check_game
from cardlab.sim.euchre5.interface import check_rows

HANDS = 1500
OPTION_SETS = [
    dict(),
    dict(lone_march_points=4, forced_alone_march_points=5, defender_points=(3, 6)),
    dict(call_rule="non_trump"),
    dict(call_rule="ace_of_suit", allow_call_own_card=True),
    dict(allow_call_own_card=True),
    dict(call_before_exchange=True),
    dict(dealer_may_discard_upcard=False, call_before_exchange=True, call_rule="non_trump"),
    dict(stick_the_dealer=False),
    dict(lone_march_points=5, stick_the_dealer=False, call_rule="ace_of_suit", dealer_may_discard_upcard=False),
]
POLICIES = ["heuristic", "random", "heuristic,random,random,heuristic,random"]


def scores(cols):
    return np.stack([cols[f"score_{p}"] for p in range(5)], axis=1).astype(np.int64)


def check_invariants(options, cols, hands):
    """§10 on every hand of a recorded run (the referee has already checked cards, order and legality)."""
    for j, h in enumerate(hands):
        up = int(cols["kitty"][j][0])
        if h.round == 1:
            assert h.trump == up // 16
            assert h.discard in h.hands[h.dealer] | {up}  # the kitty keeps three cards: the discard went in
        elif h.round == 2:
            assert h.trump != up // 16
        else:
            assert not options.stick_the_dealer and h.maker == -1
            continue
        assert h.maker != h.partner
        assert (h.partner == -1) == (h.alone != 0)
        assert h.called != up
        if not options.allow_call_own_card and h.called >= 0:
            held = set(h.hands[h.maker])  # the maker's hand when it called
            if h.round == 1 and h.maker == h.dealer:
                held.add(up)
                if not options.call_before_exchange:
                    held.discard(h.discard)
            assert h.called not in held
        assert len(h.tricks) == 5 and h.tricks[0][0] == (h.dealer + 1) % 5
        for k in range(4):
            assert h.tricks[k + 1][0] == h.tricks[k][2]
        total = sum(h.scores)
        attackers = {h.maker, h.partner} - {-1}
        if h.alone == 0:
            assert total in (2, 4, 6 * options.defender_points[0] // 2, 3 * options.defender_points[1])
        else:
            march = options.lone_march_points if h.alone == 1 else options.forced_alone_march_points
            assert total in (1, march, 4 * options.defender_points[0], 4 * options.defender_points[1])
        winners = {p for p in range(5) if h.scores[p] > 0}
        assert winners == attackers or winners == set(range(5)) - attackers  # exactly one side scores
    assert (scores(cols) >= 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("rules", OPTION_SETS, ids=[",".join(f"{k}={v}" for k, v in r.items()) or "default"
                                                     for r in OPTION_SETS])
def test_kernel_matches_referee(rules, policy):
    study = Study.build(policy=policy, seed=1234 + len(rules), **rules)
    cols = study.play(0, HANDS, record=True)
    hands = check_rows(study.options, cols)
    check_invariants(study.options, cols, hands)
    alone = np.bincount(cols["alone"], minlength=3)
    assert alone[0] > 0 and alone[2] > 0  # partnered and buried calls both occur


@pytest.mark.parametrize("rules", [dict(), dict(tie_rule="play_on"), dict(tie_rule="maker_side_first", target=5),
                                   dict(stick_the_dealer=False, lone_march_points=4, target=15)])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_whole_games_match_referee(rules, policy):
    study = Study.build(policy=policy, seed=77, **rules)
    games = 40
    cols = study.play_games(0, games, record=True)
    hands = check_rows(study.options, cols)
    o = study.options
    start = 0
    max_award = max(2, o.lone_march_points, o.forced_alone_march_points, *o.defender_points)
    for g in range(games):
        n = int((cols["game"] == g).sum())
        game_hands = hands[start:start + n]
        verdict = check_game(o, game_hands[0].dealer, game_hands)
        assert max(verdict["totals"]) >= o.target or n == o.max_hands
        assert all(t <= o.target - 1 + max_award for t in verdict["totals"]) or o.tie_rule == "play_on"
        assert abs(sum(verdict["credit"]) - 1) < 1e-9
        if o.tie_rule == "play_on":
            assert max(verdict["credit"]) == 1
        start += n


def test_referee_catches_a_wrong_kernel_score():
    from cardlab.sim.euchre5.referee import RefereeError

    study = Study.build(seed=5)
    cols = study.play(0, 20, record=True)
    cols["score_0"] = cols["score_0"].copy()
    cols["score_0"][7] += 1
    with pytest.raises(RefereeError, match="deal 7: kernel gave"):
        check_rows(study.options, cols)


def test_trump_study_matches_referee():
    """Each study row is a legal hand: replay the forced (maker, trump) variants through the referee."""
    from cardlab.sim.euchre5.kernels import N_RES, RES_SCORE, play_hand_nb
    from cardlab.sim.euchre5.referee import check_hand, decode_log
    from cardlab.sim.euchre5.rules import MAX_ACTIONS
    from cardlab.sim.euchre5 import trump_study

    study = Study.build(seed=3)
    df = trump_study(deals=30, seed=3)
    cols = study.play(0, 30, record=True)
    for j in range(30):
        for m in range(5):
            for t in range(4):
                hands = cols["hands"][j].copy()
                log = np.zeros((MAX_ACTIONS, 3), np.int8)
                res = np.zeros(N_RES, np.int64)
                kitty = cols["kitty"][j].astype(np.int64)
                # the heuristic draws no random numbers, so any stream state replays the study's hand
                play_hand_nb(hands, kitty, j % 5, study.rules, study.policy_ids, m, t, np.uint64(1), log, res, None,
                             None, np.zeros(2, np.int64))
                h = check_hand(study.options, j % 5, [int(x) for x in cols["hands"][j]], kitty.tolist(),
                               decode_log(log), forced=(m, t))
                assert h.scores == res[RES_SCORE:].tolist()
                row = df.iloc[j * 20 + m * 4 + t]
                assert row["maker_points"] == h.scores[m] and row["maker_tricks"] == h.maker_tricks
                assert row["relation"] == (0 if t == kitty[0] // 16 else 1 if t == 3 - kitty[0] // 16 else 2)


def test_the_text_shows_the_kitty_in_the_order_of_the_record():
    """The text replay lists the kitty as dealt, the upcard first, as the JSON record does (#21 item 17)."""
    from cardlab.sim.euchre5 import replay

    r = replay(deal="0:20", seed=7)
    shown = [line.split(", kitty ")[1].split() for line in r.text.splitlines() if ", kitty " in line]
    assert shown == [record["kitty"] for record in r.records] and len(shown) == 20
