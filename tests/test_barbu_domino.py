"""Domino contract: kernel vs plain-Python referee, §8 invariants, scripted deals, policy strength.

Tiers (STYLE.md): random-play conformance and §8 invariants on every deal, scripted deals with
known outcomes, referee vs kernel on thousands of seeded deals per deck x players x policy,
determinism of the counter-based streams.
"""
import itertools

import numpy as np
import pytest

from cardlab.sim.cards import ACE, card_name, cards_of, mask_of, parse_card, rank_of, suit_of
from cardlab.sim.barbu.domino import (DOMINO_BGA_ADJACENT, DOMINO_FAN_TAN, DOMINO_UPWARD, DOMINO_VARIANTS, MOVE_DECLINE, MOVE_NONE,
                              MOVE_PASS, domino_log_length, domino_variant, play_domino_nb)
from cardlab.sim.barbu.domino_referee import RefereeError, check_domino, format_domino, place_table, replay_domino
from cardlab.sim.barbu.policies import POLICY_NAMES
from cardlab.sim.barbu.rules import BarbuOptions, scoring_tables
from cardlab.sim.barbu.play import kernel_tables, play_columns

RANDOM, HEURISTIC = 0, 1
DEALS = 2000


def play(options, count, *, seed=1, first=0, variant=DOMINO_UPWARD, policies=(HEURISTIC,), start_rank=-1,
         starter_offset=0, ace_replay_optional=False, record=True):
    """Run the deal kernel on Domino deals and return its outputs as a dict of arrays."""
    n = options.players
    names = tuple(POLICY_NAMES[p] for p in (policies * n if len(policies) == 1 else policies))
    a = kernel_tables(options, ("domino",), names)
    a.update(domino_variant=variant, domino_start_rank=start_rank, domino_starter=starter_offset,
             ace_replay_optional=ace_replay_optional)
    cols = play_columns(a, seed, first, count, record=record)
    out = dict(declarer=cols["declarer"].astype(np.int64), scores=cols["score"].astype(np.int32), places=a["places"])
    if record:
        out.update(hands=cols["hands"], moves=cols["moves"][:, :domino_log_length(n, options.hand_size)])
    return out


def upward_invariants(options, declarer, hands, moves, places, scores):
    """§8 Domino invariants for the upward variant, checked independently of the referee."""
    n = options.players
    deck = set(int(c) for c in options.cards)
    held = [set(cards_of(int(h))) for h in hands]
    nxt = {s: min(rank_of(c) for c in deck if suit_of(c) == s) for s in range(4)}
    seat = declarer
    finish = []
    events = [int(m) for m in moves[1:]]
    assert int(moves[0]) == -1
    i = 0
    while sum(1 for h in held if h) > 1:
        m = events[i]
        i += 1
        if m == MOVE_PASS:
            assert not any(nxt[suit_of(c)] == rank_of(c) for c in held[seat]), "pass while able to play"
        else:
            assert m >= 0 and m in held[seat] and nxt[suit_of(m)] == rank_of(m), "card is not next[suit]"
            held[seat].remove(m)
            nxt[suit_of(m)] = None if rank_of(m) == ACE else rank_of(m) + 1
            if not held[seat]:
                finish.append(seat)
            elif rank_of(m) == ACE:
                continue  # the extra turn: same seat again
        seat = (seat + 1) % n
        while not held[seat]:
            seat = (seat + 1) % n
    assert all(e == MOVE_NONE for e in events[i:]), "log continues after the deal ended"
    finish += [p for p in range(n) if held[p]]
    assert sorted(finish) == list(range(n)), "finishing places are not a permutation of the seats"
    assert [int(scores[p]) for p in finish] == [int(x) for x in places]
    assert int(np.sum(scores)) == int(places.sum())
    left = held[finish[-1]]
    for s in range(4):
        suit_cards = sorted(c for c in deck if suit_of(c) == s)
        played = [c for c in suit_cards if c not in left]
        # Played cards of a suit are a run from its lowest card; the suit ends at its Ace.
        assert played == suit_cards[:len(played)]
        assert (nxt[s] is None) == (len(played) == len(suit_cards))
    return finish


@pytest.mark.slow
@pytest.mark.parametrize("deck,players,policy", list(itertools.product((32, 52), (3, 4, 5), (RANDOM, HEURISTIC))))
def test_upward_kernel_matches_referee(deck, players, policy):
    options = BarbuOptions(players=players, deck=deck)
    out = play(options, DEALS, seed=100 * deck + 10 * players + policy, policies=(policy,))
    assert (out["declarer"] == np.arange(DEALS) % players).all()
    assert (out["scores"].sum(axis=1) == out["places"].sum()).all()
    for j in range(DEALS):
        args = (options, int(out["declarer"][j]), out["hands"][j], out["moves"][j])
        finish, scores = check_domino(*args)
        assert scores == [int(s) for s in out["scores"][j]], f"deal {j}"
        assert upward_invariants(*args, out["places"], out["scores"][j]) == finish


RULE_SETS = [
    dict(variant=DOMINO_UPWARD, starter_offset=1),
    dict(variant=DOMINO_UPWARD, ace_replay_optional=True),
    dict(variant=DOMINO_FAN_TAN),
    dict(variant=DOMINO_FAN_TAN, starter_offset=1, ace_replay_optional=True),
    dict(variant=DOMINO_FAN_TAN, start_rank=5),  # 7s: removed 7♦/7♣ open at the 8 (§7 item 15)
    dict(variant=DOMINO_FAN_TAN, start_rank=0),  # 2s: 32 cards open at the 7, 52/3p ♦ at the 3
    dict(variant=DOMINO_FAN_TAN, start_rank=ACE),
    dict(variant=DOMINO_FAN_TAN, start_rank=9),
    dict(variant=DOMINO_BGA_ADJACENT),
    dict(variant=DOMINO_BGA_ADJACENT, starter_offset=1, ace_replay_optional=True),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "-".join(f"{k}={v}" for k, v in r.items()))
@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_variants_match_referee(rules, policy):
    deals = 60
    for k, (deck, players) in enumerate(itertools.product((32, 52), (3, 4, 5))):
        options = BarbuOptions(players=players, deck=deck)
        start = rules.get("start_rank", -1)
        if start == 0 and deck == 32:
            start = 5
        pols = {"random": (RANDOM,), "heuristic": (HEURISTIC,),
                "mixed": tuple(HEURISTIC if p % 2 == 0 else RANDOM for p in range(players))}[policy]
        out = play(options, deals, seed=7 + k, policies=pols, **{**rules, "start_rank": start})
        assert (out["scores"].sum(axis=1) == out["places"].sum()).all()
        kw = dict(rules, start_rank=start)
        for j in range(deals):
            finish, scores = check_domino(options, int(out["declarer"][j]), out["hands"][j], out["moves"][j], **kw)
            assert scores == [int(s) for s in out["scores"][j]], f"{deck}/{players} deal {j}"
            assert sorted(finish) == list(range(players))
            header = int(out["moves"][j][0])
            if rules["variant"] == DOMINO_FAN_TAN:
                assert start < 0 or header == start
            else:
                assert header == -1
            if not rules.get("ace_replay_optional"):
                assert MOVE_DECLINE not in out["moves"][j]


def test_referee_reads_rules_from_options():
    """Variant, starter, optional Ace replay and a domino_table override come from BarbuOptions."""
    options = BarbuOptions(players=5, deck=52, domino_starter="left", ace_replay_optional=True,
                           domino_table=(45, 25, 10, 0, -6))
    out = play(options, 300, seed=9, policies=(RANDOM, HEURISTIC, RANDOM, HEURISTIC, RANDOM), starter_offset=1,
               ace_replay_optional=True)
    assert out["places"].tolist() == [45, 25, 10, 0, -6]
    assert (out["scores"].sum(axis=1) == 74).all()
    for j in range(300):
        _, scores = check_domino(options, int(out["declarer"][j]), out["hands"][j], out["moves"][j])
        assert scores == out["scores"][j].tolist()
    j = next(j for j in range(300) if (out["moves"][j] == MOVE_DECLINE).any())
    with pytest.raises(RefereeError):
        check_domino(options, int(out["declarer"][j]), out["hands"][j], out["moves"][j], variant="upward",
                     starter_offset=0, ace_replay_optional=False)
    fan_tan = BarbuOptions(players=5, deck=52, domino_rules="fan_tan", domino_starter="left")
    out = play(fan_tan, 100, seed=9, variant=DOMINO_FAN_TAN, policies=(RANDOM,), starter_offset=1)
    for j in range(100):
        _, scores = check_domino(fan_tan, int(out["declarer"][j]), out["hands"][j], out["moves"][j])
        assert scores == out["scores"][j].tolist()


def test_optional_ace_replay_is_used_by_random_only():
    options = BarbuOptions(players=4, deck=52)
    rnd = play(options, 300, policies=(RANDOM,), ace_replay_optional=True)
    heu = play(options, 300, policies=(HEURISTIC,), ace_replay_optional=True)
    assert (rnd["moves"] == MOVE_DECLINE).any()
    assert not (heu["moves"] == MOVE_DECLINE).any()
    # With nobody declining, the option changes nothing for the heuristic.
    base = play(options, 300, policies=(HEURISTIC,))
    assert (base["moves"] == heu["moves"]).all()


def test_fan_tan_start_rank_chosen_in_kernel():
    options = BarbuOptions(players=4, deck=32)
    heu = play(options, 500, variant=DOMINO_FAN_TAN, policies=(HEURISTIC,))
    rnd = play(options, 500, variant=DOMINO_FAN_TAN, policies=(RANDOM,))
    for out in (heu, rnd):
        ranks = out["moves"][:, 0]
        assert ((ranks >= 5) & (ranks <= ACE)).all()
    assert len(set(rnd["moves"][:, 0].tolist())) == 8  # uniform over 7..A
    # Heuristic: the named rank is one the declarer holds most of.
    for j in range(500):
        hand = cards_of(int(heu["hands"][j][heu["declarer"][j]]))
        counts = [sum(1 for c in hand if rank_of(c) == r) for r in range(13)]
        assert counts[int(heu["moves"][j][0])] == max(counts)


def test_log_length_is_enough():
    for deck, players in itertools.product((32, 52), (3, 4, 5)):
        options = BarbuOptions(players=players, deck=deck)
        for variant in range(3):
            out = play(options, 500, variant=variant, policies=(RANDOM,), ace_replay_optional=True, seed=3)
            used = (out["moves"] != MOVE_NONE).sum(axis=1)
            assert used.max() < out["moves"].shape[1]


def test_deterministic_and_chunk_independent():
    options = BarbuOptions(players=5, deck=52)
    a = play(options, 3000, seed=42, policies=(RANDOM, HEURISTIC, RANDOM, HEURISTIC, RANDOM))
    b = play(options, 1000, seed=42, first=2000, policies=(RANDOM, HEURISTIC, RANDOM, HEURISTIC, RANDOM))
    assert (a["scores"][2000:] == b["scores"]).all()
    assert (a["moves"][2000:] == b["moves"]).all()
    c = play(options, 3000, seed=43, policies=(RANDOM,))
    assert not (a["moves"] == c["moves"]).all()


# ---------------------------------------------------------------- scripted deals


def hands_of(*texts):
    return np.array([mask_of(parse_card(x) for x in t.split()) for t in texts], np.uint64)


def play_one(hands, places, *, declarer=0, variant=DOMINO_UPWARD, start_rank=-1, starter_offset=0,
             ace_replay_optional=False, policy=HEURISTIC):
    n = len(hands)
    h = hands.copy()
    moves = np.zeros(domino_log_length(n, 13), np.int8)
    scores = np.zeros(n, np.int32)
    play_domino_nb(h, n, declarer, variant, start_rank, starter_offset, ace_replay_optional,
                   np.array(places, np.int32), np.full(n, policy, np.int64), np.uint64(0), moves, scores, None,
                   np.zeros(2, np.int64))
    log = [int(m) for m in moves]
    while len(log) > 1 and log[-1] == MOVE_NONE:
        log.pop()
    return log, scores.tolist()


def named(log):
    return [card_name(m) if m >= 0 else m for m in log[1:]]


def test_scripted_one_suit_each():
    """32 cards, 4 players, each holds a whole suit: one card each in turn, out in seat order."""
    options = BarbuOptions(players=4, deck=32)
    hands = hands_of(*(" ".join(f"{r}{s}" for r in "7 8 9 10 J Q K A".split()) for s in "CDHS"))
    places = scoring_tables(options).domino_places  # basic-32: 20 10 0 0
    for policy in (RANDOM, HEURISTIC):
        log, scores = play_one(hands, places, policy=policy)
        assert scores == [20, 10, 0, 0]
        assert named(log)[:4] == ["7♣", "7♦", "7♥", "7♠"]
        assert named(log)[-3:] == ["A♣", "A♦", "A♥"]  # seat 3 keeps A♠: last place
        assert check_domino(options, 0, hands, log) == ([0, 1, 2, 3], [20, 10, 0, 0])
        log, scores = play_one(hands, places, policy=policy, declarer=2, starter_offset=1)
        assert scores == [10, 0, 0, 20]  # seat 3 starts: order 3, 0, 1, 2
        assert check_domino(options, 2, hands, log, starter_offset=1)[0] == [3, 0, 1, 2]


def test_scripted_forced_deal_with_passes_and_ace_turn():
    """Every turn has at most one playable card, so any policy plays the same deal."""
    options = BarbuOptions(players=3, deck=52)
    deck = [parse_card(x) for x in "10C JC QC KC AC JD QD KD AD QH KH AH".split()]
    hands = hands_of("AC QH KH AH", "10C JC QC KC", "JD QD KD AD")
    expected = ["Q♥", "10♣", "J♦", "K♥", "J♣", "Q♦", "A♥", MOVE_PASS, "Q♣", "K♦", MOVE_PASS, "K♣", "A♦"]
    for policy in (RANDOM, HEURISTIC):
        log, scores = play_one(hands, [25, 15, 5], policy=policy)
        assert named(log) == expected
        assert scores == [5, 25, 15]
        assert check_domino(options, 0, hands, log, deck=deck) == ([1, 2, 0], [5, 25, 15])
    text = format_domino(options, 0, hands, log, deck=deck)
    assert "S0 plays A♥  (Ace: plays again)" in text
    assert "S0 passes  (extra turn, nothing to play)" in text
    assert "S1 plays K♣  (out: 1st place (+25))" in text
    assert "seat 0 still holds cards: 3rd place (+5)" in text


def test_scripted_heuristic_takes_the_ace_and_plays_again():
    options = BarbuOptions(players=4, deck=52)
    deck = [parse_card(x) for x in "QC KC AC QD KD AD".split()]
    hands = hands_of("QC AC KD", "KC QD AD")
    log, scores = play_one(hands, [10, 0])
    # Seat 1 prefers Q♦ (its A♦ waits above) to K♣ (a gift), then A♦ (extra turn) and K♣ to go out.
    assert named(log) == ["Q♣", "Q♦", "K♦", "A♦", "K♣"]
    assert scores == [0, 10]
    assert check_domino(options, 0, hands, log, deck=deck, places=[10, 0]) == ([1, 0], [0, 10])
    log2, _ = play_one(hands, [10, 0], ace_replay_optional=True)
    assert log2 == log


def test_scripted_fan_tan_builds_down():
    options = BarbuOptions(players=4, deck=52)
    deck = [parse_card(x) for x in "JC QC KC AC".split()]
    hands = hands_of("QC JC", "KC AC")
    log, scores = play_one(hands, [10, 0], variant=DOMINO_FAN_TAN, start_rank=10)
    assert log[0] == 10 and named(log) == ["Q♣", "K♣", "J♣"]
    assert scores == [10, 0]
    assert check_domino(options, 0, hands, log, deck=deck, places=[10, 0], variant="fan_tan",
                        start_rank=10) == ([0, 1], [10, 0])


# ---------------------------------------------------------------- referee rejects bad logs


@pytest.fixture(scope="module")
def sample():
    options = BarbuOptions(players=4, deck=52)
    out = play(options, 50, seed=11, policies=(RANDOM,))
    return options, out


def find_deal(sample, predicate):
    options, out = sample
    for j in range(len(out["declarer"])):
        moves = out["moves"][j]
        for i in range(1, len(moves)):
            if predicate(moves, i):
                return int(out["declarer"][j]), out["hands"][j], moves.copy(), i
    pytest.skip("no suitable deal")


def test_referee_rejects_pass_while_able(sample):
    decl, hands, moves, i = find_deal(sample, lambda m, i: m[i] >= 0 and rank_of(m[i]) != ACE and m[i + 1] >= 0)
    moves[i] = MOVE_PASS
    with pytest.raises(RefereeError, match="passed while holding playable"):
        check_domino(sample[0], decl, hands, moves)


def test_referee_rejects_unplayable_card(sample):
    options = sample[0]
    decl, hands, moves, i = find_deal(sample, lambda m, i: m[i] == MOVE_PASS)
    _, _, events, _ = replay_domino(options, decl, hands, moves)
    seat = events[i - 1][0]  # events[k] is the turn logged at moves[k + 1]
    still_held = set(cards_of(int(hands[seat]))) - {int(m) for m in moves[1:i]}
    moves[i] = max(still_held)
    with pytest.raises(RefereeError, match=f"turn {i}: seat {seat} played {card_name(max(still_held))}; playable were"):
        check_domino(options, decl, hands, moves)
    moves[i] = next(c for c in options.cards if int(c) not in still_held)
    with pytest.raises(RefereeError, match="which it does not hold"):
        check_domino(options, decl, hands, moves)


def test_referee_rejects_wrong_turn_order(sample):
    decl, hands, moves, i = find_deal(sample, lambda m, i: m[i] >= 0 and m[i + 1] >= 0 and
                                      suit_of(m[i]) != suit_of(m[i + 1]))
    moves[i], moves[i + 1] = moves[i + 1], moves[i]
    with pytest.raises(RefereeError):
        check_domino(sample[0], decl, hands, moves)


def test_referee_rejects_bad_endings(sample):
    options, out = sample
    moves = out["moves"][0].copy()
    end = int(np.nonzero(moves != MOVE_NONE)[0].max()) + 1  # one past the last event
    short = moves.copy()
    short[end - 1] = MOVE_NONE
    with pytest.raises(RefereeError, match="the log ends"):
        check_domino(options, int(out["declarer"][0]), out["hands"][0], short)
    long = moves.copy()
    long[end] = MOVE_PASS
    with pytest.raises(RefereeError, match="log goes on"):
        check_domino(options, int(out["declarer"][0]), out["hands"][0], long)


def test_referee_rejects_decline_unless_allowed():
    options = BarbuOptions(players=4, deck=52)
    out = play(options, 200, seed=5, policies=(RANDOM,), ace_replay_optional=True)
    j = next(j for j in range(200) if (out["moves"][j] == MOVE_DECLINE).any())
    args = (options, int(out["declarer"][j]), out["hands"][j], out["moves"][j])
    check_domino(*args, ace_replay_optional=True)
    with pytest.raises(RefereeError, match="compulsory"):
        check_domino(*args)


def test_variant_names():
    assert [domino_variant(v) for v in ("upward", "fan_tan", "bga_adjacent")] == [0, 1, 2]
    with pytest.raises(ValueError, match="domino_rules"):
        domino_variant("downward")


# ---------------------------------------------------------------- policy strength


def test_heuristic_beats_random():
    options = BarbuOptions(players=4, deck=52)
    out = play(options, 20000, seed=2024, policies=(HEURISTIC, RANDOM, RANDOM, RANDOM), record=False)
    mean = out["scores"].mean(axis=0)
    assert mean[0] > mean[1:].mean() + 2.0, mean


def _ace_followed_by_same_seat(out, j):
    """Whether some non-final Ace of deal ``j`` is followed by a turn of the same seat (an extra turn)."""
    n = len(out["hands"][j])
    held = [set(cards_of(int(h))) for h in out["hands"][j]]
    events = [int(m) for m in out["moves"][j][1:] if m != MOVE_NONE]
    seat = int(out["declarer"][j])
    owner = {c: p for p, h in enumerate(held) for c in h}
    for a, b in zip(events, events[1:]):
        if a >= 0 and rank_of(a) == ACE and held[owner[a]] - {a}:
            if b >= 0 and owner[b] == owner[a]:
                return True
        if a >= 0:
            held[owner[a]].discard(a)
    return False


@pytest.mark.parametrize("variant,extra", [(DOMINO_UPWARD, True), (DOMINO_FAN_TAN, False),
                                           (DOMINO_BGA_ADJACENT, False)])
def test_ace_extra_turn_only_where_the_ace_closes_its_suit(variant, extra):
    """Issue 6.2: upward closes a suit with its Ace and gives an extra turn; fan_tan (the suit still
    builds down) and bga_adjacent (K and the other Aces stay playable) do not."""
    options = BarbuOptions(players=4, deck=52)
    for policy in (RANDOM, HEURISTIC):
        out = play(options, 200, seed=3, variant=variant, policies=(policy,))
        assert any(_ace_followed_by_same_seat(out, j) for j in range(200)) == extra
        for j in range(200):
            check_domino(options, int(out["declarer"][j]), out["hands"][j], out["moves"][j],
                         variant=DOMINO_VARIANTS[variant])


def test_fan_tan_ace_passes_the_turn_in_the_issue_example():
    """Issue 6.2 example (seed 0, deal 4, fan_tan): every Ace played passes the turn on."""
    from cardlab.sim.barbu import replay

    for policy in ("heuristic", "random"):
        lines = replay(deal=4, seed=0, contract="domino", domino_rules="fan_tan", policy=policy).text.splitlines()
        turns = [line.split() for line in lines if line[:4].strip().rstrip(".").isdigit()]
        aces = [k for k, t in enumerate(turns) if t[2] == "plays" and t[3].startswith("A") and not any("out:" in x for x in t)]
        assert aces and "plays again" not in "\n".join(lines)
        assert all(turns[k + 1][1] != turns[k][1] for k in aces if k + 1 < len(turns))


@pytest.mark.parametrize("scoring,deck,third,last", [("wiki", 52, 5, -5), ("basic", 52, 5, 0), ("basic", 32, 0, 0)])
def test_three_player_domino_loser_option(scoring, deck, third, last):
    """Issue 6.6: with three players the loser scores the table's 3rd value by default, its last value
    (Wikipedia: -5) with domino_three_last='last_place'; kernel and referee agree."""
    from cardlab.sim.barbu import simulate
    from cardlab.sim.barbu.rules import domino_places

    for choice, loser in (("third_place", third), ("last_place", last)):
        options = BarbuOptions(players=3, deck=deck, scoring=scoring, domino_three_last=choice)
        assert domino_places(options)[2] == loser and place_table(options)[2] == loser
        df = simulate(deals=300, seed=4, contract="domino", options=options)
        scores = df[["score_0", "score_1", "score_2"]].to_numpy()
        assert (scores.min(axis=1) == loser).all() and (scores.sum(axis=1) == sum(domino_places(options))).all()
        a = kernel_tables(options, ("domino",), ("heuristic",) * 3)
        cols = play_columns(a, 4, 0, 50, record=True)
        for j in range(50):
            _, referee = check_domino(options, int(cols["declarer"][j]), cols["hands"][j], cols["moves"][j])
            assert referee == cols["score"][j].tolist()
