"""Barbu doubling (§5): worked example, settlement, kernel vs referee, obligations, invariants (§8)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cardlab.sim.barbu.doubling import (ACTION, DOUBLING_POLICY, POLICY_HEURISTIC, POLICY_MAXIMUM, POLICY_RANDOM,
                                doubling_log_length, doubling_policy_ids, doubling_round_nb, required_doubles,
                                settle_nb, start_obligations)
from cardlab.sim.barbu.doubling_referee import DoublingDeal, check_doubling, check_game, decode_log, settle
from cardlab.sim.barbu.referee import RefereeError
from cardlab.sim.rng import deal_state

ROUNDS = 1500  # per (players, positive, late_redouble) combination


def run_round(n, declarer, *, positive=False, late=False, policies=None, estimates=None, baseline=-5.0,
              bonus=2.0, margin=1.0, required=None, done=None, remaining=None, seed=0, index=0):
    policies = np.full(n, POLICY_RANDOM, np.int64) if policies is None else np.asarray(policies, np.int64)
    estimates = np.full(n, baseline) if estimates is None else np.asarray(estimates, np.float64)
    required = np.zeros(n, np.int16) if required is None else required
    done = np.zeros((n, n), np.int16) if done is None else done
    remaining = np.ones(n, np.int16) if remaining is None else remaining
    m = np.empty((n, n), np.int8)
    initiator = np.empty((n, n), np.int8)
    log = np.empty(doubling_log_length(n), np.int8)
    doubling_round_nb(n, declarer, positive, late, required, done, remaining, estimates, baseline, bonus, margin,
                      policies, np.uint64(deal_state(seed, index)), m, initiator, log)
    return m, initiator, log


def example_log():
    """§5: B doubles A and C; C doubles A; D passes; A redoubles C (A=0, B=1, C=2, D=3, declarer A)."""
    log = np.full(doubling_log_length(4), -1, np.int8)
    actions = [(1, 0, 1), (1, 2, 1), (2, 0, 1), (0, 2, 2)]
    log[:12] = np.array(actions, np.int8).ravel()
    return log


# ---------------------------------------------------------------- tier 2: the worked example


def test_worked_example():
    verdict = check_doubling(4, 0, example_log(), positive=False)
    assert verdict.m == [[0, 1, 2, 0], [1, 0, 1, 0], [2, 1, 0, 0], [0, 0, 0, 0]]
    raw = np.array([0, -12, -6, -6], np.int32)
    assert settle(raw, verdict.m) == [24, -30, -12, -6]
    out = np.empty(4, np.int32)
    settle_nb(raw, np.array(verdict.m, np.int8), 4, out)
    assert out.tolist() == [24, -30, -12, -6]
    assert out.sum() == raw.sum() == -24


def test_doubling_log_length():
    assert [doubling_log_length(n) for n in (3, 4, 5)] == [18, 36, 60]


# ---------------------------------------------------------------- settlement


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 5).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-200, 200), min_size=n, max_size=n),
    st.lists(st.integers(0, 2), min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2))))
def test_settlement_preserves_sum(case):
    raw, pairs = case
    n = len(raw)
    m = np.zeros((n, n), np.int8)
    for (i, j), v in zip(itertools.combinations(range(n), 2), pairs):
        m[i, j] = m[j, i] = v
    out = np.empty(n, np.int64)
    settle_nb(np.array(raw, np.int32), m, n, out)
    assert out.sum() == sum(raw)
    assert out.tolist() == settle(raw, m.tolist())
    for i in range(n):
        assert out[i] == raw[i] + sum(int(m[i, j]) * (raw[i] - raw[j]) for j in range(n))


# ---------------------------------------------------------------- tier 3: kernel vs referee


def check_invariants(n, declarer, positive, m, initiator, verdict):
    assert set(np.unique(m)) <= {0, 1, 2}
    assert (m == m.T).all()
    assert (np.diag(m) == 0).all()
    assert not initiator[declarer].any(), "the declarer never initiates"
    assert ((initiator | initiator.T).astype(bool) == (m > 0)).all()
    assert not (initiator & initiator.T).any()
    if positive:
        assert not initiator[:, [j for j in range(n) if j != declarer]].any()
    for actor, target, kind in verdict.actions:
        if kind == ACTION.DOUBLE and positive:
            assert target == declarer


@pytest.mark.slow
@pytest.mark.parametrize("n,positive,late", list(itertools.product((3, 4, 5), (False, True), (False, True))))
def test_kernel_matches_referee(n, positive, late):
    rng = np.random.default_rng(100 * n + 10 * positive + late)
    kinds = {1: 0, 2: 0, 3: 0}
    for r in range(ROUNDS):
        declarer = int(rng.integers(n))
        policies = rng.integers(0, 3, n)
        estimates = rng.normal(-5.0, 4.0, n)
        required = rng.integers(0, 3, n).astype(np.int16)
        remaining = rng.integers(1, 5, n).astype(np.int16)
        done = rng.integers(0, 3, (n, n)).astype(np.int16)
        before = done.copy()
        m, initiator, log = run_round(n, declarer, positive=positive, late=late, policies=policies,
                                      estimates=estimates, required=required, done=done, remaining=remaining,
                                      seed=n, index=r)
        must = [i for i in range(n) if i != declarer and required[declarer] - before[i, declarer] >= remaining[declarer]]
        verdict = check_doubling(n, declarer, log, positive=positive, late_redouble=late, must_double=must)
        assert verdict.m == m.tolist(), f"round {r}"
        assert {k for k in verdict.doubled_by} == {(i, j) for i in range(n) for j in range(n) if initiator[i, j]}
        expected_done = before.copy()
        for i in range(n):
            expected_done[i, declarer] += verdict.doubled(i, declarer)
        assert (done == expected_done).all()
        check_invariants(n, declarer, positive, m, initiator, verdict)
        for a in verdict.actions:
            kinds[a[2]] += 1
        raw = rng.integers(-30, 10, n).astype(np.int32)
        out = np.empty(n, np.int32)
        settle_nb(raw, m, n, out)
        assert out.tolist() == settle(raw, verdict.m) and out.sum() == raw.sum()
    assert kinds[1] > 0 and kinds[2] > 0
    # Late redoubles need a non-declarer doubled by a later seat: impossible in positive contracts.
    assert (kinds[3] > 0) == (late and not positive)


def test_policies_behave():
    n, d = 4, 1
    # Maximum: every pair ends redoubled (negative); only declarer pairs (positive).
    for late in (False, True):
        m, _, _ = run_round(n, d, late=late, policies=[POLICY_MAXIMUM] * n)
        assert (m == 2 - 2 * np.eye(n, dtype=np.int8)).all()
        m, _, _ = run_round(n, d, positive=True, late=late, policies=[POLICY_MAXIMUM] * n)
        expected = np.zeros((n, n), np.int8)
        expected[d, :] = expected[:, d] = 2
        expected[d, d] = 0
        assert (m == expected).all()
    # Heuristic, declarer 1, baseline -5, declarer expected -5 + 2 = -3, margin 1. Seat 2 expects -1: doubles
    # everyone. Seat 3 expects -3.5 (beats the baseline by 1.5, not the declarer's -3): redoubles seat 2 and
    # doubles seat 0. Seat 0 expects -6 and the declarer -8: they do nothing.
    est = [-6.0, -8.0, -1.0, -3.5]
    m, init, log = run_round(n, d, policies=[POLICY_HEURISTIC] * n, estimates=est, baseline=-5.0, bonus=2.0, margin=1.0)
    actions = decode_log(log)
    assert actions == [(2, 3, 1), (2, 0, 1), (2, 1, 1), (3, 2, 2), (3, 0, 1)]
    # Obligation overrides the heuristic.
    required = np.array([2, 2, 2, 2], np.int16)
    remaining = np.array([1, 2, 1, 1], np.int16)
    m, init, log = run_round(n, d, policies=[POLICY_HEURISTIC] * n, estimates=[-9.0] * 4, baseline=-5.0,
                             required=required, remaining=remaining)
    assert decode_log(log) == [(2, 1, 1), (3, 1, 1), (0, 1, 1)]
    # Random: each allowed decision is a fair coin.
    total = doubles = 0
    for r in range(400):
        _, init, _ = run_round(3, 0, positive=True, seed=7, index=r)
        doubles += int(init[:, 0].sum())
        total += 2
    assert 0.4 < doubles / total < 0.6


def test_late_redouble_example():
    # 4 players, declarer 0. Seat 3 doubles seat 1 after seat 1 acted; seat 1 may answer only in its late turn.
    referee = dict(positive=False)
    log = [(3, 1, 1), (1, 3, 3)]
    with pytest.raises(RefereeError, match="late redoubles are off"):
        check_doubling(4, 0, log, **referee)
    assert check_doubling(4, 0, log, late_redouble=True, **referee).m[1][3] == 2
    with pytest.raises(RefereeError, match="after the actor's turn|out of turn"):
        check_doubling(4, 0, [(3, 1, 1), (1, 3, 2)], late_redouble=True, **referee)


@pytest.mark.parametrize("log,message", [
    ([(0, 1, 1)], "declarer may never double"),
    ([(2, 3, 1)], "positive contract"),
    ([(1, 2, 2)], "never doubled"),
    ([(2, 3, 1), (1, 3, 1)], "out of turn"),
    ([(1, 2, 1), (2, 1, 1)], "already doubled"),
    ([(1, 0, 1), (0, 1, 2), (0, 1, 2)], "already redoubled"),
    ([(1, 2, 1), (2, 1, 3)], "only a double made after"),
    ([(1, 1, 1)], "two different seats"),
])
def test_referee_rejects(log, message):
    positive = message == "positive contract"
    with pytest.raises(RefereeError, match=message):
        check_doubling(4, 0, log, positive=positive, late_redouble=True)


def test_referee_rejects_bad_padding():
    log = np.full(36, -1, np.int8)
    log[3:6] = (1, 0, 1)
    with pytest.raises(RefereeError, match="padding"):
        decode_log(log)


# ---------------------------------------------------------------- obligations over a game


def play_game(n, deals_each, policies, seed, *, positive_every=4, obligation=2, late=False):
    """Geronimo-like rotation: deal t is declared by seat t % n; every ``positive_every``-th deal is positive."""
    schedule = [t % n for t in range(n * deals_each)]
    declared = np.bincount(schedule, minlength=n).astype(np.int16)
    required, done, remaining = start_obligations(declared, obligation)
    log_len = doubling_log_length(n)
    m = np.empty((n, n), np.int8)
    initiator = np.empty((n, n), np.int8)
    rng = np.random.default_rng(seed)
    deals = []
    for t, d in enumerate(schedule):
        log = np.empty(log_len, np.int8)
        positive = t % positive_every == positive_every - 1
        doubling_round_nb(n, d, positive, late, required, done, remaining, rng.normal(-5, 3, n), -5.0, 2.0, 1.0,
                          policies, np.uint64(deal_state(seed, t)), m, initiator, log)
        remaining[d] -= 1
        raw = rng.integers(-20, 5, n).astype(np.int32)
        final = np.empty(n, np.int32)
        settle_nb(raw, m, n, final)
        deals.append(DoublingDeal(d, log, positive, raw, final))
    return declared, required, done, deals


@pytest.mark.parametrize("n", (3, 4, 5))
@pytest.mark.parametrize("deals_each", (1, 2, 7))
def test_obligations_met(n, deals_each):
    for game in range(60):
        policies = np.full(n, POLICY_RANDOM, np.int64) if game % 2 else np.random.default_rng(game).integers(0, 2, n)
        declared, required, done, deals = play_game(n, deals_each, policies, 1000 * n + game, late=game % 3 == 0)
        assert (required == np.minimum(2, declared)).all()
        for d in range(n):
            for i in range(n):
                if i != d:
                    assert done[i, d] >= required[d]
        check_game(n, deals, late_redouble=game % 3 == 0)


def test_obligation_disabled_and_checked():
    n = 4
    # Heuristic seats that never want to double: no doubles at all without the obligation.
    policies = np.full(n, POLICY_HEURISTIC, np.int64)
    declared = np.full(n, 3, np.int16)
    assert required_doubles(declared, 0).tolist() == [0] * n
    assert required_doubles(np.array([0, 1, 2, 7]), 2).tolist() == [0, 1, 2, 2]
    for obligation in (0, 2):
        required, done, remaining = start_obligations(declared, obligation)
        logs = []
        for t in range(12):
            d = t % n
            log = np.empty(doubling_log_length(n), np.int8)
            doubling_round_nb(n, d, False, False, required, done, remaining, np.full(n, -20.0), -5.0, 2.0, 1.0,
                              policies, np.uint64(deal_state(0, t)), np.empty((n, n), np.int8), np.empty((n, n), np.int8), log)
            remaining[d] -= 1
            logs.append((d, log, False))
        counts = done.sum()
        assert counts == (0 if obligation == 0 else n * (n - 1) * 2)
        check_game(n, logs, obligation=obligation)
    # A game log that misses an obligation is rejected.
    with pytest.raises(RefereeError, match="obliged to double"):
        check_game(n, [(t % n, [], False) for t in range(8)])
    with pytest.raises(RefereeError, match="final scores"):
        check_game(4, [DoublingDeal(0, example_log(), False, [0, -12, -6, -6], [24, -30, -12, -5])], obligation=0)


def test_policy_ids():
    assert doubling_policy_ids("maximum", 3).tolist() == [2, 2, 2]
    assert DOUBLING_POLICY.MAXIMUM == POLICY_MAXIMUM == 2
    with pytest.raises(ValueError, match="double_policy: .greedy. is not allowed"):
        doubling_policy_ids("greedy", 3)


def ask_round(n, d, positive, late, policies, estimates, required, done, remaining, stream, answer):
    """The round of :func:`doubling_round_given_nb` run from the start with one more answer each time it asks (as the
    step API runs it), ``answer((actor, target, kind, heuristic))`` giving each; ``(m, initiator, log, done, stream,
    questions)`` at its end."""
    from cardlab.sim.barbu.doubling import STOP_LENGTH, doubling_round_given_nb

    given, questions = [], []
    while True:
        m, initiator = np.empty((n, n), np.int8), np.empty((n, n), np.int8)
        log, stop, mine = np.empty(doubling_log_length(n), np.int8), np.empty(STOP_LENGTH, np.int64), done.copy()
        out = doubling_round_given_nb(n, d, positive, late, required, mine, remaining, estimates, -5.0, 2.0, 1.0,
                                      policies, np.uint64(stream), m, initiator, log, np.array(given, np.int8), stop)
        if stop[0] < 0:
            return m, initiator, log, mine, out, questions
        questions.append(tuple(int(x) for x in stop))
        given.append(int(answer(questions[-1])))


@pytest.mark.parametrize("n", (3, 4, 5))
def test_own_seats_answering_as_a_policy_play_that_policys_round(n):
    """Issue #18: an ``own`` seat (policy 3) asked each choice and answering as the heuristic (the answer the round
    gives with its question) or always yes (maximum) plays exactly the round of that policy, the other seats' random
    draws included; its forced doubles are made without asking; with nothing asked the round is doubling_round_nb's."""
    from cardlab.sim.barbu.doubling import POLICY_OWN

    rng = np.random.default_rng(n)
    count = 0
    for t in range(300):
        d, positive, late = t % n, t % 4 == 3, t % 3 == 0
        base = rng.integers(0, 3, n)
        own = rng.random(n) < 0.5
        estimates = rng.normal(-5, 3, n)
        required = np.full(n, 2, np.int16)
        done = rng.integers(0, 3, (n, n)).astype(np.int16)
        remaining = rng.integers(1, 3, n).astype(np.int16)
        for as_policy, answer in ((POLICY_HEURISTIC, lambda q: q[3] == 1), (POLICY_MAXIMUM, lambda q: True)):
            kernel = np.where(own, as_policy, base).astype(np.int64)
            expected = run_round(n, d, positive=positive, late=late, policies=kernel, estimates=estimates,
                                 required=required, done=(kernel_done := done.copy()), remaining=remaining, seed=t)
            asked = np.where(own, POLICY_OWN, base).astype(np.int64)
            m, initiator, log, mine, _, questions = ask_round(n, d, positive, late, asked, estimates, required, done,
                                                              remaining, deal_state(t, 0), answer)
            assert (m == expected[0]).all() and (initiator == expected[1]).all() and (log == expected[2]).all()
            assert (mine == kernel_done).all()
            assert all(own[actor] for actor, _, _, _ in questions)
            count += len(questions)
            forced = [(i, d) for i in range(n) if own[i] and i != d and required[d] - done[i, d] >= remaining[d]]
            assert not any((a, tg, 1) == (i, dd, k) for i, dd in forced for a, tg, k, _ in questions)
    assert count > 300
