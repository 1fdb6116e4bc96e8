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


@pytest.mark.parametrize("name", INFERRING)
def test_search_epsilon_makes_only_its_search_seats_infer(name):
    """``Study.search_epsilon`` (one side inferring among searchers that do not, ``benchmarks/inference.py``): a
    search seat given the game's eps plays as with ``search_inference`` on, a seat given 0 as with it off, and a
    seat that does not search reads none."""
    import importlib
    from dataclasses import replace

    import numpy as np

    from cardlab.sim.policy import POLICY

    eps = importlib.import_module(f"cardlab.sim.{name}.search").INFERENCE_EPSILON
    off = game(name).build("deals", study_name="strength", policy="search", seed=3, search_worlds=2)
    on = replace(off, search_inference="on")
    n = len(off.policies)
    deals = np.arange(16, dtype=np.int64)
    mixed = np.array([POLICY.SEARCH] + [POLICY.HEURISTIC] * (n - 1), np.int64)
    lone = replace(off, search_epsilon=(eps,) + (0.0,) * (n - 1))
    assert lone.inference_eps(np.array([POLICY.SEARCH] * n)).tolist() == [eps] + [0.0] * (n - 1)
    assert lone.inference_eps(np.array([POLICY.ORACLE] + [POLICY.SEARCH] * (n - 1))).tolist() == [0.0] * n

    def played(study, policies):
        return study.play_tables(deals, np.tile(policies, (len(deals), 1)))

    assert any((a != b).any() for a, b in zip(played(on, mixed).values(), played(off, mixed).values()))  # it infers
    for got, want in ((played(lone, mixed), played(on, mixed)),
                      (played(replace(off, search_epsilon=(0.0,) + (eps,) * (n - 1)), mixed), played(off, mixed)),
                      (played(replace(off, search_epsilon=(eps,) * n), np.full(n, POLICY.SEARCH)),
                       played(on, np.full(n, POLICY.SEARCH)))):
        assert got.keys() == want.keys()
        for key in got:
            np.testing.assert_array_equal(got[key], want[key], err_msg=key)


@pytest.mark.parametrize("name", INFERRING)
def test_the_inference_benchmark_reads_its_tables(name, tmp_path, capsys, monkeypatch):
    """``benchmarks/inference.py``: every table kind runs, and each row's gain and gap are the differences of the
    tables' mean results (saved where lower is better), its share their ratio."""
    import json
    from pathlib import Path

    from cardlab.analysis.strength import ladder_of

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import inference

    out = tmp_path / "inference.json"
    assert inference.main([name, "--deals", "8", "--worlds", "2", "--eps", "0.2,0.4", "--searchers", "--chunk", "5",
                           "--json", str(out)]) == 0
    assert "search (no inference) vs heuristic" in capsys.readouterr().out
    got = json.loads(out.read_text())
    report = ladder_of({"game": name})
    sign, means = -1 if report.lower_is_better else 1, got["means"]
    assert sum(key.endswith(" all") for key in got["rows"]) == 2 * 2 * len(means["heuristic"])  # among, eps, figure
    for key, row in got["rows"].items():
        among, e, fig, group = key.split()
        assert row["deals"] == 8 if group == "all" else report.by  # Barbu's rows per contract too
        if group != "all":
            continue
        base = means[f"search_in_{among}"][fig]
        assert row["gain"] == pytest.approx(sign * (means[f"inference_{e}_in_{among}"][fig] - base))
        assert row["gap"] == pytest.approx(sign * (means[f"oracle_in_{among}"][fig] - base))
        if row["gap"] != 0:
            assert row["share"] == pytest.approx(row["gain"] / row["gap"])
