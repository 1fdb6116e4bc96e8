"""``benchmarks/bench_search.py``: every game's searched deals counted, checked by the referee and timed."""
import json
from pathlib import Path

import pytest

from cardlab.sim.games import GAMES, game

DEALS = 3


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_benchmark_counts_the_decisions_the_replay_shows(name, tmp_path, monkeypatch):
    """Each row and table: the referee passed every recorded deal; a table with fewer search seats has fewer searched
    decisions; the rates are the counts over the median time; and (where a replay's records list the searched
    decisions) the count is the number the replays of the same deals list."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_search

    out = tmp_path / "search.json"
    assert bench_search.main([name, "--deals", str(DEALS), "--games", "0", "--worlds", "2", "--repeats", "1",
                              "--threads", "1", "--tables", "all,1", "--cli-deals", "0", "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["game"] == name
    rows = {(r["row"], r["table"]): r for r in got["rows"]}
    g = game(name)
    keywords = {row: k for row, k, _ in bench_search.DEFAULTS[name].get("rows", ((f"{g.unit}s", {}, 0),))}
    for (row, table), r in rows.items():
        assert r["checked"] == r["count"] == DEALS
        assert r["per_s"] == pytest.approx(DEALS / r["median_s"])
        assert r["decisions_per_s"] == pytest.approx(r["decisions"] / r["median_s"])
        if table == "one search seat":
            assert 0 < r["decisions"] < rows[row, "every seat searching"]["decisions"]
        records = g.replay_deals(g.build("deals", policy=r["policy"], seed=1, search_worlds=2, **keywords[row]),
                                 range(bench_search.FIRST, bench_search.FIRST + DEALS)).records
        listed = [len(rec.get("searches", rec.get("searched", ()))) for rec in records]
        if any(listed):  # Barbu's records do not list its searches
            assert sum(listed) == r["decisions"]
