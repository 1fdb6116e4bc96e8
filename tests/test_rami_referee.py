"""The referee agrees with the kernel, move by move and score by score, on seeded rounds of every option set."""
import numpy as np
import pytest

from cardlab.sim.rami.referee import RefereeError, check_round
from cardlab.sim.rami.rules import DECK_HAND_VALUE, HAND_VALUE, never_opened_cap
from cardlab.sim.rami.interface import RamiStudy as Study

OPTION_SETS = [
    dict(),
    dict(recycle_discards=True, blocked_tie="next_in_turn", hand_size=14),
    dict(freed_joker_use="anywhere", go_out_requires_discard=True, discard_take_must_use=False,
         discard_take_first_round=True, single_card_must_draw_stock=False),
    dict(rami_sec_exempt_from_opening=True, open_threshold=30, max_jokers_per_meld=None),
    dict(n_jokers=2, open_needs_pure_run=False, go_out_requires_discard=True, rami_sec_penalty=150),
    dict(open_threshold=40, max_jokers_per_meld=2, freed_joker_use="anywhere"),
]
CASES = [(p, pol, i) for p in (2, 3, 4, 5, 6) for pol in ("heuristic", "random") for i in range(len(OPTION_SETS))]


def kernel_result(cols: dict, i: int, n: int) -> dict:
    """One round's kernel results in the referee's form."""
    return dict(turns=int(cols["turns"][i]), blocked=bool(cols["blocked"][i]), rami_sec=bool(cols["rami_sec"][i]),
                won=[bool(cols[f"won_{p}"][i]) for p in range(n)], opened=[bool(cols[f"opened_{p}"][i]) for p in range(n)],
                hand_value=[int(cols[f"hand_value_{p}"][i]) for p in range(n)],
                score=[int(cols[f"score_{p}"][i]) for p in range(n)])


def check(study, n):
    cols = study.play(0, n, record=True)
    P = study.options.players
    for i in range(n):
        log = cols["logs"][i][: cols["log_rows"][i]]
        result, _ = check_round(study.options, int(cols["dealer"][i]), cols["decks"][i], log)
        assert result == kernel_result(cols, i, P), f"round {i}"
    return cols


@pytest.mark.slow
@pytest.mark.parametrize("players,policy,opts", CASES)
def test_referee_agrees_with_kernel(players, policy, opts):
    pols = policy if policy == "heuristic" else ",".join(["random"] + ["heuristic"] * (players - 1))
    study = Study.build(players=players, policy=pols, seed=100 + opts, **OPTION_SETS[opts])
    cols = check(study, 80)
    invariants(study.options, cols)


def invariants(o, cols):
    """§11: winners score 0, rami sec pays the penalty, never-opened losers are capped, blocked winners hold least."""
    P = o.players
    won = np.stack([cols[f"won_{p}"] for p in range(P)], 1)
    opened = np.stack([cols[f"opened_{p}"] for p in range(P)], 1)
    hv = np.stack([cols[f"hand_value_{p}"] for p in range(P)], 1).astype(int)
    score = np.stack([cols[f"score_{p}"] for p in range(P)], 1).astype(int)
    assert (won.sum(1) >= 1).all() and (score[won] == 0).all()
    sec = cols["rami_sec"]
    assert (score[sec][~won[sec]] == o.rami_sec_penalty).all()
    normal = ~sec[:, None] & ~won
    assert (score[normal & opened] == hv[normal & opened]).all()
    capped = score[normal & ~opened]
    assert (capped <= never_opened_cap(P)).all() and (capped >= 0).all()
    assert (won.sum(1)[~cols["blocked"]] == 1).all()
    blocked = cols["blocked"]
    if blocked.any():
        assert (hv[blocked][won[blocked]] == np.repeat(hv[blocked].min(1), won[blocked].sum(1))).all()
    assert not (sec & blocked).any()
    assert int(HAND_VALUE[:52].sum()) * 2 + 4 * 20 == DECK_HAND_VALUE


def test_referee_rejects_a_tampered_log():
    study = Study.build(players=3, seed=9)
    cols = study.play(0, 1, record=True)
    log = cols["logs"][0][: cols["log_rows"][0]].copy()
    draw = next(i for i in range(len(log)) if log[i, 0] == 1)
    log[draw, 2] = (log[draw, 2] + 1) % 52  # a card that is not the top of the stock
    with pytest.raises(RefereeError):
        check_round(study.options, int(cols["dealer"][0]), cols["decks"][0], log)
    log = cols["logs"][0][: cols["log_rows"][0]].copy()
    discard = next(i for i in range(len(log)) if log[i, 0] == 7)
    log[discard, 1] = (log[discard, 1] + 1) % 3  # out of turn
    with pytest.raises(RefereeError):
        check_round(study.options, int(cols["dealer"][0]), cols["decks"][0], log)


def scripted_rami_sec_deck():
    """Two players, dealer 0: seat 1 holds A-2-3♣, A-2-3♦, 4♣4♥4♠, 5♣5♦5♥5♠ (44 meld points, no opening)."""
    from collections import Counter

    seat1 = [0, 1, 2, 13, 14, 15, 3, 29, 42, 4, 17, 30, 43]
    rest = Counter({**{k: 2 for k in range(52)}, 52: 4})
    rest.subtract(seat1 + [51])
    others = [k for k in range(53) for _ in range(rest[k])]
    deck = []
    for i in range(13):  # dealt one at a time from seat 1
        deck += [seat1[i], others.pop(0)]
    deck += [others.pop(0), 51] + others  # upcard, then K♠ on top of the stock
    return deck


RAMI_SEC_LOG = [
    [1, 1, 51, 0, 0, 0, 0, 0],  # draws K♠
    [3, 1, 1, 0, 1, 3, 0, 0],  # A-2-3♣
    [3, 1, 1, 1, 1, 3, 0, 0],  # A-2-3♦
    [3, 1, 0, 4, 13, 0, 0, 0],  # 4♣ 4♥ 4♠
    [3, 1, 0, 5, 15, 0, 0, 0],  # 5♣ 5♦ 5♥ 5♠
    [4, 1, 1, 0, 0, 0, 0, 0],  # opens, exempt
    [7, 1, 51, 0, 0, 0, 0, 0],  # discards K♠
    [8, 1, 0, 0, 0, 0, 0, 0],  # out
]


def test_scripted_rami_sec_with_the_exemption():
    from cardlab.sim.rami.rules import RamiOptions

    deck = scripted_rami_sec_deck()
    o = RamiOptions(players=2, rami_sec_exempt_from_opening=True)
    result, lines = check_round(o, 0, deck, np.array(RAMI_SEC_LOG), describe=True)
    assert result["rami_sec"] and result["won"] == [False, True] and result["score"] == [200, 0]
    assert result["turns"] == 1 and "rami sec exemption" in "\n".join(lines)
    with pytest.raises(RefereeError, match="exempt opening is not allowed"):  # not without the option
        check_round(RamiOptions(players=2), 0, deck, np.array(RAMI_SEC_LOG))
    normal = [row if row[0] != 4 else [4, 1, 0, 0, 0, 0, 0, 0] for row in RAMI_SEC_LOG]
    with pytest.raises(RefereeError, match="not enough"):
        check_round(o, 0, deck, np.array(normal))


def test_a_whole_game_replays_round_by_round():
    """``replay_game``: each round of a whole game checked by the referee, its totals and end by the rules,
    the same rounds and totals as ``simulate_games``; searched games too; the command line's --game-index."""
    from cardlab.sim import rami
    from cardlab.sim.cli import main

    games = rami.simulate_games(games=4, seed=2, players=3)
    replay = rami.replay_game(game="1:3", seed=2, players=3)
    rows = games[games.game.isin([1, 2])]
    assert [(r["game"], r["round"]) for r in replay.records] == list(zip(rows.game, rows["round"]))
    assert [r["totals"] for r in replay.records] == rows[["total_0", "total_1", "total_2"]].to_numpy().tolist()
    assert [r["result"]["score"] for r in replay.records] == rows[["score_0", "score_1", "score_2"]].to_numpy().tolist()
    assert replay.text.startswith(f"game 1: {len(rows[rows.game == 1])} rounds, 3 players")
    searched = rami.replay_game(game=0, seed=2, players=2, policy="search,heuristic", search_worlds=2)
    plain_rows = rami.simulate_games(games=1, seed=2, players=2, policy="search,heuristic", search_worlds=2)
    assert [r["totals"] for r in searched.records] == plain_rows[["total_0", "total_1"]].to_numpy().tolist()
    assert all("searches" in r for r in searched.records) and "totals after round 0" in searched.text
    assert main(["replay", "rami", "--game-index", "1", "--seed", "2", "--players", "3", "--json"]) == 0
