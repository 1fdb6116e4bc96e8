"""Playing a deal yourself (cardlab.sim.play, `cardlab play`): the loop takes numbers and names, refuses
an illegal entry with the rule and asks again, saves the record, and `replay --record` checks it;
end to end, a person's keys typed into a real terminal (tmux) play a whole deal."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cardlab.sim.games import GAMES, game
from cardlab.sim.play import check_record, hint, play, read_move

ROOT = Path(__file__).resolve().parents[1]


def _scripted(answers):
    answers = iter(answers)
    return lambda prompt: next(answers)


def _always(answer):
    return lambda prompt: answer


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_played_from_the_keyboard_is_saved_and_its_record_checks(name, tmp_path):
    out, said = tmp_path / "deal.json", []
    state = play(name, seat=1, policy="random", seed=4, deal=2, read=_always("1"), write=said.append, save=out)
    assert state.is_over and said[-1] == f"saved {out}"
    record = json.loads(out.read_text())
    assert record["game"] == name and record["deal"] == 2 and record["seed"] == 4
    assert check_record(game(name), record).scores() == state.scores()


@pytest.mark.parametrize("name", list(GAMES))
def test_a_tampered_record_is_refused_naming_the_action(name, tmp_path):
    out = tmp_path / "deal.json"
    play(name, seat=0, policy="random", seed=1, read=_always("1"), write=lambda line: None, save=out)
    record = json.loads(out.read_text())
    record["scores"] = [s + 1 for s in record["scores"]]
    with pytest.raises(ValueError, match="record: scores"):
        check_record(game(name), record)
    record = json.loads(out.read_text())
    record["actions"] = record["actions"][:-1]
    with pytest.raises(ValueError, match="not over"):
        check_record(game(name), record)


def test_an_illegal_entry_is_refused_with_the_rule_and_asked_again():
    said = []
    answers = iter(["no such card", "99"])
    first = {"asked": 0}

    def read(prompt):
        first["asked"] += 1
        return next(answers, "1")

    play("barbu", seat=0, policy="random", read=read, write=said.append)
    refusals = [line for line in said if line.startswith("refused: ")]
    assert len(refusals) == 2 and all("legal:" in line for line in refusals)
    assert first["asked"] > 13


def test_q_stops_and_saves_nothing(tmp_path):
    said = []
    stopped = play("barbu", seat=0, policy="random", read=_always("q"), write=said.append, save=tmp_path / "x.json")
    assert stopped is None
    assert said[-1] == "stopped; nothing saved" and not any(tmp_path.iterdir())


def test_moves_are_read_by_number_name_or_letters():
    legal = ["a", "b"]
    assert read_move("2", legal) == "b"
    typed = ("kh", "10s", "Q♠", "meld 7s", "pass")
    assert [read_move(t, legal) for t in typed] == ["K♥", "10♠", "Q♠", "meld 7♠", "pass"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_cardlab_play_in_a_real_terminal(tmp_path):
    session = f"cardlab-play-{os.getpid()}"
    out = tmp_path / "deal.json"
    cardlab = Path(sys.executable).with_name("cardlab")
    command = f"{cardlab} play barbu --seat 2 --policy random --seed 3 --save {out}; echo EXIT=$?; sleep 120"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "50", command], check=True,
                   cwd=ROOT)
    try:
        deadline = time.time() + 300
        screen = ""
        while time.time() < deadline and "EXIT=" not in screen:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            if screen.rstrip().endswith(">"):
                subprocess.run(["tmux", "send-keys", "-t", session, "1", "Enter"], check=True)
            time.sleep(0.3)
        assert "EXIT=0" in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    checked = subprocess.run([str(cardlab), "replay", "barbu", "--record", str(out)], capture_output=True, text=True,
                             cwd=ROOT)
    assert checked.returncode == 0 and "moves legal" in checked.stdout, checked.stderr


@pytest.mark.parametrize("name", list(GAMES))
def test_the_other_seats_play_the_kernels_heuristic_by_default(name):
    """Every game's bots play the heuristic by default, each move the kernels' own (``State.policy_action``)."""
    said, keywords = [], {"contract": "no-tricks"} if name == "barbu" else {}
    state = play(name, seat=0, seed=2, deal=1, read=_always("1"), write=said.append, **keywords)
    assert "seat 1 heuristic" in said[0]
    again = game(name).state(seed=2, deal=1, **keywords)
    for entry in state.record()["actions"]:
        if entry["seat"] != 0:
            assert again.policy_action("heuristic") == again.action(entry)
        again.apply(entry)
    if game(name).search_beside_python:  # search bots: the searched kernel given the deal so far
        searched = play(name, seat=0, policy="search", read=_always("1"), write=said.append, search_worlds=4,
                        **keywords)
        assert searched.is_over and any("seat 1 search" in line for line in said)
    else:
        with pytest.raises(ValueError, match="search seats do not play"):
            play(name, seat=0, policy="search", read=_always("1"), write=said.append, **keywords)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_hint_ranks_every_legal_move_from_the_seats_view_alone(name):
    """The hint's worlds are resampled from the seat's view: the same deal with its hidden cards dealt
    otherwise (a resampled state) gives the same hint, and every legal move is ranked once."""
    state = game(name).state(seed=1, deal=2, policy="random")
    rng = np.random.default_rng(0)
    for _ in range(5):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    text = hint(state, 2)
    moves = [line.strip().rsplit(":", 1)[0] for line in text.splitlines()[1:]]
    assert sorted(moves) == sorted(a.name for a in state.legal_actions())
    assert hint(state.resample(state.current_player, np.random.default_rng(99)), 2) == text


def test_barbus_hint_is_the_kernels_search_at_that_move():
    """In Barbu's trick contracts the hint is the kernels' own search (``State.search_means``): at every move of a
    searched deal it gives the candidate means the search kernel records there (none where one card is legal)."""
    barbu = game("barbu")
    study = barbu.build("deals", seed=5, contract="no-hearts", policy="search", search_worlds=8)
    _, _, moves, means, _ = study.searched([3], record=True)
    state = barbu.new_state(study, 3)
    for i in range(20):
        recorded = {x: float(means[0, i, x]) for x in range(64) if not np.isnan(means[0, i, x])}
        assert (state.search_means(8) or {}) == recorded, i
        state.apply(int(moves[0, i]))
    assert "by cardlab's search, over 8 deals" in hint(state, 8).splitlines()[0]


def test_a_question_mark_asks_for_the_hint_and_the_move_is_asked_again():
    said, answers = [], iter(["?", "? 3", "? 0"])
    play("barbu", seat=0, policy="random", read=lambda prompt: next(answers, "1"), write=said.append)
    hints = [line for line in said if line.startswith("hint: ")]
    assert len(hints) == 2 and "over 8 deals" in hints[0] and "over 3 deals" in hints[1]
    assert any(line.startswith("refused: seat 0: ? 0 is not legal") for line in said)  # no hint of zero deals


@pytest.mark.parametrize("name", ["euchre5", "minchiate", "rami"])
def test_a_whole_game_played_from_the_keyboard_is_saved_and_its_record_checks(name, tmp_path, capsys):
    out, said = tmp_path / "game.json", []
    keywords = {"minchiate": dict(n_deals=2)}.get(name, {})
    state = play(name, seat=1, seed=4, game_index=3, read=_always("1"), write=said.append, save=out, **keywords)
    assert state.is_over and said[-1] == f"saved {out}" and said[-2].startswith(f"game over after {state.deal} deals")
    assert sum(line.startswith("game totals: ") for line in said) == state.deal - 1  # between the deals
    record = json.loads(out.read_text())
    assert record["game_index"] == 3 and len(record["deals"]) == state.deal and record["totals"] == state.scores()
    assert check_record(game(name), record).scores() == state.scores()
    from cardlab.sim.cli import main

    assert main(["replay", name, "--record", str(out)]) == 0
    assert f"game 3 of seed 4: {state.deal} deals, all " in capsys.readouterr().out
    record["deals"][-1]["scores"] = [s + 1 for s in record["deals"][-1]["scores"]]
    with pytest.raises(ValueError, match=f"record: deal {state.deal - 1}, scores"):
        check_record(game(name), record)


def test_a_whole_game_and_a_deal_are_not_asked_together():
    with pytest.raises(ValueError, match="^deal: give a deal or a game_index"):
        play("euchre5", deal=2, game_index=1, read=_always("1"), write=lambda line: None)


@pytest.mark.parametrize("double_policy", ["heuristic", "own,random,maximum,heuristic"])
def test_a_doubled_whole_barbu_game_is_saved_and_its_record_checks(double_policy, tmp_path, capsys):
    """A doubled game's record is checked whatever made its doubles (a policy, a person's own choices): the checking
    game asks every seat its choices and the record answers them; a double the rules do not allow is refused."""
    out, barbu = tmp_path / "game.json", game("barbu")
    state = play(barbu, seat=0, seed=4, game_index=1, double=True, double_policy=double_policy, person=0,
                 read=_always("1"), write=lambda line: None, save=out)
    record = json.loads(out.read_text())
    kinds = {e["kind"] for d in record["deals"] for e in d["actions"]}
    assert "double" in kinds and check_record(barbu, record).scores() == state.scores()
    from cardlab.sim.cli import main

    assert main(["replay", "barbu", "--record", str(out)]) == 0
    assert f"game 1 of seed 4: {state.deal} deals, all " in capsys.readouterr().out
    d = next(d for d, deal in enumerate(record["deals"]) if deal["actions"][0]["kind"] == "double")
    first = record["deals"][d]["actions"][0]
    for tampered in ({**first, "target": first["seat"]}, {**first, "kind": "late-redouble"}):
        record["deals"][d]["actions"][0] = tampered
        with pytest.raises(ValueError, match=f"^record: deal {d}, its doubles are not the round's: it gives seat "):
            check_record(barbu, record)
