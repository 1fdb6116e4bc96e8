"""The search's inference (``--search-inference``) from the command line in every registered game: where the game's
search infers, the strength ladder with the oracle runs with it on and off on the same deals, inference changes only
the tables with a search seat, ``inference_share`` reads the two ladders, and a run records it; without a search seat
it is refused in one line (from Python too, and so is a value other than on or off, and racing beside it), as
it is in a game whose search does not infer. (Each game's likelihood, reproducibility
and step API: its own ``tests/test_<game>_inference.py``; leakage: ``tests/test_search_leakage.py``.)"""
from __future__ import annotations

import pandas as pd
import pytest

from cardlab.sim.games import GAMES, game

INFERRING = [name for name in GAMES if game(name).inference]
LADDER = {"barbu": ["--deals", "16", "--contract", "salade,trumps"], "euchre5": ["--deals", "10"],
          "hearts": ["--deals", "8"], "minchiate": ["--deals", "8"], "rami": ["--deals", "8"]}


def test_every_game_infers_and_a_game_whose_search_does_not_refuses_the_flag():
    from cardlab.sim.game import inference_setting

    assert INFERRING == list(GAMES)
    plain = type("PlainSearch", (type(game("hearts")),), {"inference": False})()  # a game added without inference
    with pytest.raises(ValueError, match="search_inference: 'on' does not apply to Hearts; its search does not"):
        inference_setting(plain, ("search",) * 4, "on")
    assert inference_setting(plain, ("search",) * 4, None) == "off"


@pytest.mark.parametrize("name", INFERRING)
def test_search_inference_is_checked_from_python(name):
    g = game(name)
    with pytest.raises(ValueError, match="search_inference: 'on' needs a search seat"):
        g.build("deals", policy="heuristic", search_inference="on")
    with pytest.raises(ValueError, match="search_inference: 'yes' is not allowed"):
        g.build("deals", policy="search", search_inference="yes")
    if g.races:
        with pytest.raises(ValueError, match="search_racing: True does not apply with search_inference 'on'"):
            g.build("deals", policy="search", search_inference="on", search_racing=True)


@pytest.mark.parametrize("name", INFERRING)
def test_command_line_oracle_ladder_and_inference_share(name, tmp_path, capsys):
    from cardlab.analysis.io import load_run
    from cardlab.analysis.strength import inference_share
    from cardlab.sim.cli import main

    paths = {}
    for inference in ("on", "off"):
        paths[inference] = tmp_path / f"ladder-{inference}.parquet"
        assert main(["study", name, "strength", *LADDER[name], "--search-worlds", "2", "--oracle",
                     "--search-inference", inference, "--out", str(paths[inference])]) == 0
    capsys.readouterr()
    (on, meta_on), (off, meta_off) = (load_run(paths[k]) for k in ("on", "off"))
    assert meta_on["search_inference"] == "on" and "search_inference" not in meta_off and meta_on["oracle"]
    assert "search_racing" not in meta_on  # racing stays the game's default; a seat that infers does not race
    unsearched = [c for c in off.columns if "search" not in c]  # the oracle never infers, the others never search
    assert any("oracle" in c for c in unsearched)
    pd.testing.assert_frame_equal(on[unsearched], off[unsearched])
    assert not on.equals(off)
    assert inference_share(on, off)["deals"].sum() == int(LADDER[name][1])
    assert main(["simulate", name, "--deals", "4", "--search-inference", "on"]) == 2
    assert "--search-inference: 'on' needs a search seat (policy 'search')" in capsys.readouterr().err
    out = tmp_path / "run.parquet"
    assert main(["simulate", name, "--deals", "2", "--policy", "search", "--search-worlds", "2",
                 "--search-inference", "on", "--out", str(out)]) == 0
    assert load_run(out)[1]["search_inference"] == "on"
