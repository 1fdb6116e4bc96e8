"""Racing in search (sim/racing.py): the rule on hand-made values, racing off playing exactly as the search did
before racing existed, racing on reproducible for any threads and chunks, and the setting where it applies."""
import hashlib
import json

import numpy as np
import pytest

from cardlab.sim.racing import race_best_nb, race_check_nb, race_start_nb, race_world_nb

# ---------------------------------------------------------------- the rule on hand-made values


def race(columns, worlds=None, racing=1):
    """Feed ``columns`` (one list of values per candidate, world by world) to a race as a search would; returns
    (alive, played, worlds played before the decision stopped)."""
    values_in = np.array(columns, np.float64).T
    n_worlds = worlds or values_in.shape[0]
    values, alive, played = race_start_nb(n_worlds, values_in.shape[1])
    for w in range(values_in.shape[0]):
        for j in range(values_in.shape[1]):
            if alive[j]:
                values[w, j] = values_in[w, j]
        if race_world_nb(values, w, alive, played, racing):
            return alive, played, w + 1, values
    return alive, played, values_in.shape[0], values


def test_a_clearly_worse_candidate_is_dropped_at_the_first_check():
    rng = np.random.default_rng(1)
    a = rng.integers(-6, 7, 32).astype(float)
    worse = a - 5 + rng.integers(-1, 2, 32)  # always 4 to 6 below
    close = a + rng.integers(-3, 4, 32)
    alive, played, stopped, _ = race([a, worse, close])
    assert played[1] == 8 and not alive[1]  # dropped after 8 worlds, not before
    assert alive[0] and alive[2] and played[0] == played[2] == 32 and stopped == 32


def test_close_candidates_survive():
    a = [1.0, 0.0] * 16
    b = [0.0, 1.0] * 16  # as good on average, different world by world
    alive, played, stopped, _ = race([a, b])
    assert alive.all() and played.tolist() == [32, 32] and stopped == 32


def test_checks_come_after_8_worlds_then_every_4():
    # candidate 1 is worse only from world 9 on: the check at 8 keeps it, the next is at 12
    a = [0.0] * 8 + [10.0] * 24
    b = [0.0] * 8 + [0.0] * 24
    c = [1.0, -1.0] * 16
    alive, played, stopped, _ = race([a, b, c])
    assert played[1] == 12 and not alive[1]


def test_barbus_level_checks_first_after_12_worlds_then_every_4():
    """Level 2 (Barbu's rule): a candidate clearly worse from the start is dropped at 12, the first check, not at 8
    as by the shared rule (level 1); one worse only from world 13 on is dropped at 16 by both (the same Z)."""
    a = [2.0, 0.0] * 16
    worse = [x - 3 for x in a]  # 3 below in every world
    close = [0.0, 2.0] * 16  # as good on average: never dropped, never tied
    late = a[:12] + [x - 3 for x in a[12:]]  # tied with the leader for 12 worlds, then 3 below
    for level, first in ((1, 8), (2, 12)):
        alive, played, stopped, _ = race([a, worse, close, late], racing=level)
        assert alive.tolist() == [True, False, True, False] and stopped == 32
        assert played.tolist() == [32, first, 32, 16]


@pytest.mark.parametrize("name,level", [("euchre5", 1), ("minchiate", 1), ("barbu", 2)])
def test_each_game_races_at_its_level_and_level_0_is_off(name, level):
    from cardlab.sim.games import game
    from cardlab.sim.racing import LEVELS

    g = game(name)
    assert g.racing_level == level and LEVELS[level, 0] == (12 if name == "barbu" else 8)
    assert g.build("deals", policy="search", search_racing=True).racing_level == level
    assert g.build("deals", policy="search", search_racing=False).racing_level == 0
    assert g.build("deals", policy="search", search_racing=True).racing_search_args[2] == level


def test_all_tied_stops_and_one_left_stops():
    a = [3.0, -1.0, 2.0, 0.0] * 8
    alive, played, stopped, _ = race([a, list(a), list(a)])
    assert alive.all() and stopped == 8 and played.tolist() == [8, 8, 8]
    alive, played, stopped, _ = race([a, [x - 20 for x in a]])
    assert alive.tolist() == [True, False] and stopped == 8


def test_racing_off_plays_every_candidate_in_every_world():
    a = [3.0, -1.0, 2.0, 0.0] * 8
    alive, played, stopped, _ = race([a, [x - 20 for x in a], list(a)], racing=0)
    assert alive.all() and played.tolist() == [32, 32, 32] and stopped == 32


def test_the_leader_is_never_dropped_and_ties_go_to_the_fallback_then_the_lowest():
    values = np.array([[1.0, 2.0, 2.0], [1.0, 2.0, 2.0]])
    alive = np.ones(3, np.bool_)
    played = np.full(3, 2, np.int64)
    assert race_best_nb(values, alive, played, 2) == 2 and race_best_nb(values, alive, played, -1) == 1
    assert race_best_nb(values, alive, played, 0) == 1
    alive[2] = False  # a dropped fallback does not win
    assert race_best_nb(values, alive, played, 2) == 1
    v = np.zeros((8, 2))
    v[:, 1] = -1.0
    a = np.ones(2, np.bool_)
    assert race_check_nb(v, 8, a) and a.tolist() == [True, False]


# ---------------------------------------------------------------- the searches: racing off is the search as it was

def columns_hash(cols: dict) -> str:
    h = hashlib.sha1()
    for name in sorted(cols):
        a = np.ascontiguousarray(np.asarray(cols[name]))
        data = "\0".join(map(str, a.ravel())).encode() if a.dtype == object else a.tobytes()  # (Barbu's contract names)
        h.update(name.encode() + b"\0" + str(a.dtype).encode() + str(a.shape).encode() + b"\0" + data)
    return h.hexdigest()[:16]


# What racing off must reproduce bit for bit: hashes computed on main before racing existed (seed 11, 32 worlds,
# every seat searching; same columns_hash): the rows and the recorded rows (with every searched candidate's mean)
# of 200 hands / 12 deals, whole games (3 / 1), the strength ladder (20 / 4 deals) and Euchre's trump study (3).
# Barbu's (12 deals, one whole game, a ladder of 4 deals) on 569e543, before its search raced. Minchiate's recorded
# rows since they keep the search's means (as every game's do): the hash of the same columns before that change was
# 489d867e56d62844, and without search_means they still hash to it.
BEFORE = {"barbu": dict(deals=12, games=1, ladder=4, rows="edace0bc0cbc3305", record="82979a77b7f539af",
                        whole="e596badf45de4559", strength="5464490021ab5fd9"),
          "euchre5": dict(deals=200, games=3, ladder=20, rows="8e88e77bf386a4d2", record="daa2e947162dbd85",
                          whole="91963501d0078827", strength="d9230927a977657e", trumps="2b7e97c99ce9c699"),
          "minchiate": dict(deals=12, games=1, ladder=4, rows="3e8abfda9849ba14", record="626513db15cfcbe9",
                            whole="bf9d47963674fad2", strength="fd1554597fae7ae4")}


def study_of(name, unit="deals", **keywords):
    from cardlab.sim.games import game

    return game(name).build(unit, policy="search", seed=11, **keywords)


def frame_hash(df) -> str:
    return columns_hash({c: df[c].to_numpy() for c in df.columns})


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_racing_off_gives_the_rows_of_the_search_before_racing(name):
    b = BEFORE[name]
    study = study_of(name, search_racing=False)
    assert columns_hash(study.play(0, b["deals"])) == b["rows"]
    assert columns_hash(study.play(0, b["deals"], record=True)) == b["record"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BEFORE))
def test_racing_off_gives_the_games_ladder_and_studies_of_the_search_before_racing(name):
    from cardlab.sim.games import game
    from cardlab.sim.ladder import strength_study

    b = BEFORE[name]
    assert columns_hash(study_of(name, "games", search_racing=False).play_games(0, b["games"])) == b["whole"]
    ladder = strength_study(game(name), deals=b["ladder"], seed=11, threads=1, search_racing=False)
    assert frame_hash(ladder) == b["strength"]
    if name == "euchre5":
        from cardlab.sim.euchre5.trumps import trump_study

        trumps = trump_study(game(name), deals=3, seed=11, policy="search", threads=1, search_racing=False)
        assert frame_hash(trumps) == b["trumps"]


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_racing_on_is_reproducible_for_any_threads_and_chunks(name):
    from cardlab.sim.games import game

    n = BEFORE[name]["deals"] // 4
    g = game(name)
    kw = dict(deals=n, seed=11, policy="search", search_worlds=24)
    a = g.simulate(threads=1, chunk_size=max(1, n // 3), search_racing=True, **kw)
    b = g.simulate(threads=2, chunk_size=n, search_racing=True, **kw)
    assert a.equals(b) and a.attrs["cardlab"].get("search_racing", g.races_by_default) is True
    off = g.simulate(threads=1, search_racing=False, **kw)
    assert off.attrs["cardlab"].get("search_racing", g.races_by_default) is False
    default = g.simulate(threads=1, **kw)  # the game's default, recorded by saying nothing
    assert default.equals(a if g.races_by_default else off) and "search_racing" not in default.attrs["cardlab"]


def euchre_card_search(j, cols, rules, worlds, racing):
    """The card search of the first leader of recorded hand ``j`` (as ``test_euchre5_search`` sets it up):
    (chosen card, totals, counts, the candidate cards)."""
    from cardlab.sim.cards import cards_of, mask_of
    from cardlab.sim.euchre5.kernels import DECK_BITS
    from cardlab.sim.euchre5.search import HOLDERS, card_search_nb, knowledge_nb, search_state
    from cardlab.sim.policy import POLICY

    h = cols["hands"][j].astype(np.uint64)
    dealer, maker, trump, called = (int(cols[k][j]) for k in ("dealer", "maker", "trump", "called"))
    s = (dealer + 1) % 5
    kitty = np.uint64(mask_of(cols["kitty"][j].tolist()))
    holders, known, excluded = (np.empty(HOLDERS, np.uint64) for _ in range(3))
    knowledge_nb(s, h, kitty, int(cols["kitty"][j][0]), dealer, rules, 2, -1, False, maker, called, False,
                 np.zeros(5, np.uint64), holders, known, excluded)
    partner = [q for q in range(5) if int(h[q]) >> called & 1]
    totals, counts = np.zeros(64, np.int64), np.zeros(64, np.int64)
    no_inference = (0.0, np.empty((0, 5), np.int64), np.empty((0, 4), np.uint64), 0, np.empty((0, 4), np.int64), 0, 0,
                    -1, 0)  # eps 0, no history, bids or upcard
    c = card_search_nb(np.uint64(search_state(5, j, 20)), s, holders, known, excluded, worlds, POLICY.HEURISTIC,
                       racing, False, rules, trump, maker, partner[0] if partner else -1, 0, called, False, False,
                       DECK_BITS & ~np.uint64(1 << int(cols["kitty"][j][0])), 0, 0, s, np.uint64(0), np.uint64(0), s,
                       np.uint64(0), np.full(5, -1, np.int64), h[s], int(cards_of(int(h[s]))[0]), totals, counts,
                       *no_inference)
    return c, totals, counts, [int(x) for x in cards_of(int(h[s]))]


def test_a_raced_card_search_reports_each_candidates_sum_over_its_own_worlds():
    """Euchre's card search raced: a dropped candidate's total is its total over the worlds it was played on
    (the same as an unraced search of that many worlds: the worlds come in the same order), so total / count
    is its mean there; the card chosen is the best mean among the candidates played to the end."""
    from cardlab.sim.euchre5 import Study

    study = Study.build(policy="heuristic", seed=5)
    cols = study.play(0, 60, record=True)
    dropped = 0
    for j in np.flatnonzero((cols["partner"] >= 0) & (cols["round"] == 2))[:12]:
        c, totals, counts, cards = euchre_card_search(j, cols, study.rules, 32, 1)
        _, off_totals, off_counts, _ = euchre_card_search(j, cols, study.rules, 32, 0)
        assert all(off_counts[x] == 32 for x in cards)
        full = max(counts[x] for x in cards)
        assert counts[c] == full and totals[c] == max(totals[x] for x in cards if counts[x] == full)
        if full == 32:
            assert all(totals[x] == off_totals[x] for x in cards if counts[x] == 32)
        for x in cards:
            if counts[x] < full:
                dropped += 1
                assert counts[x] >= 8 and (counts[x] - 8) % 4 == 0
                _, part, _, _ = euchre_card_search(j, cols, study.rules, int(counts[x]), 0)
                assert part[x] == totals[x]
    assert dropped >= 3


# ---------------------------------------------------------------- where the setting applies

def help_text(game, capsys):
    from cardlab.sim.cli import main

    main(["simulate", game, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("game,races", [("euchre5", True), ("minchiate", True), ("barbu", True), ("rami", False)])
def test_the_flag_exists_where_the_search_races(game, races, capsys):
    assert ("--search-racing" in help_text(game, capsys)) == races
    assert ("--no-search-racing" in help_text(game, capsys)) == races


def test_search_racing_is_refused_where_it_does_not_apply():
    from cardlab.sim.games import game

    for value in (False, True):
        with pytest.raises(ValueError, match=f"^search_racing: {value} does not apply to Rami; its search does not "
                                             r"race candidates \(Barbu, Euchre for five, Minchiate do\)$") as e:
            game("rami").build("deals", policy="search", search_racing=value)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match=r"^search_racing: True does not apply with search_inference 'on' \(a seat "
                                         r"that infers weighs its worlds and does not race\); use one or the other$"):
        game("barbu").build("deals", policy="search", search_inference="on", search_racing=True)
    assert game("barbu").build("deals", policy="search", search_inference="on", search_racing=False).racing is False
    with pytest.raises(ValueError, match=r"^search_racing: False needs a search seat \(policy 'search'\)$"):
        game("euchre5").build("deals", policy="heuristic", search_racing=False)
    with pytest.raises(ValueError, match="^search_racing: 'no' is not allowed; use True or False$"):
        game("minchiate").build("deals", policy="search", search_racing="no")


def test_the_command_line_passes_the_setting_and_the_run_records_it_when_off(tmp_path, capsys):
    import pyarrow.parquet as pq

    from cardlab.sim.cli import main

    metas = {}
    for flag in ("--search-racing", "--no-search-racing"):
        out = tmp_path / f"{flag}.parquet"
        assert main(["simulate", "euchre5", "--policy", "search", "--search-worlds", "2", "--deals", "5", flag,
                     "--out", str(out)]) == 0
        metas[flag] = json.loads(pq.read_table(out).schema.metadata[b"cardlab"])
    # Euchre races only when asked (racing cost it strength): the run records the setting when it is not the default
    assert metas["--search-racing"]["search_racing"] is True and "search_racing" not in metas["--no-search-racing"]
    assert main(["simulate", "rami", "--policy", "search", "--deals", "5", "--no-search-racing"]) != 0
    capsys.readouterr()


def test_replay_and_ladder_take_the_setting():
    from cardlab.sim.games import game
    from cardlab.sim.ladder import strength_metadata

    euchre = game("euchre5")
    replay = euchre.replay(deal="0:2", seed=3, policy="search", search_worlds=2, search_racing=True)
    assert replay.records[0]["search_racing"] is True
    assert "search_racing" not in euchre.replay(deal=0, seed=3, policy="search", search_worlds=2).record
    assert strength_metadata(euchre, seed=1, search_racing=True)["search_racing"] is True
    assert strength_metadata(game("minchiate"), seed=1, search_racing=False)["search_racing"] is False


# ---------------------------------------------------------------- no peeking, with racing on (more worlds than 8)

@pytest.mark.slow
@pytest.mark.parametrize("test,case", [("test_euchre5_search_sees_only_what_its_seat_has_seen", (0, False)),
                                       ("test_minchiate_search_sees_only_what_its_seat_has_seen", (0, False)),
                                       ("test_barbu_search_sees_only_what_its_seat_has_seen",
                                        ("no-queens", 4, 52, False))])
def test_the_leakage_tests_hold_with_racing_dropping_candidates(test, case, monkeypatch):
    """The leakage tests search with 8 worlds, where racing only checks once, at the end; at 16 it drops
    candidates mid-decision (the tests call the kernels with racing on)."""
    import test_search_leakage as leakage

    monkeypatch.setattr(leakage, "WORLDS", 16)
    getattr(leakage, test)(*case)
