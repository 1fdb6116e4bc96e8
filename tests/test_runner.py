"""The chunked runner: streaming to Parquet or a resumable dataset, summaries, executors, honest interruption."""
import concurrent.futures
import json
import os
import threading
import time

import numpy as np
import pandas as pd
import pytest

from cardlab.analysis import load_run
from cardlab.sim import runner
from cardlab.sim.games import GAMES
from cardlab.sim.summary import RowCounter, expand


def chunk_fn(fail_at=None, interrupt_at=None, calls=None):
    def play(first, count):
        if calls is not None:
            calls.append((first, count))
        if first == fail_at:
            raise RuntimeError("boom")
        if first == interrupt_at:
            raise KeyboardInterrupt
        deals = np.arange(first, first + count)
        return {"deal": deals,
                "contract": pd.Categorical.from_codes((deals % 3).astype(np.int8), categories=["x", "y", "z"]),
                "declarer": (deals % 2).astype(np.int8),
                "score": np.stack([deals % 3, -(deals % 3)], axis=1).astype(np.int16)}
    return play


def test_gathers_a_frame_with_score_columns():
    df = runner.run(chunk_fn(), deals=25, chunk_size=10)
    assert list(df.columns) == ["deal", "contract", "declarer", "score_0", "score_1"]
    assert df["deal"].tolist() == list(range(25))


def test_streams_to_parquet_with_metadata(tmp_path):
    out = tmp_path / "r.parquet"
    assert runner.run(chunk_fn(), deals=25, chunk_size=10, out=out, meta={"game": "test"}) is None
    df, meta = load_run(out)
    assert len(df) == 25 and meta["game"] == "test" and meta["deals"] == 25
    assert meta["complete"] is True and meta["requested"] == 25
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=25, chunk_size=7))


def test_parquet_encodings_keep_every_value(tmp_path):
    """The deal index is delta-encoded, 8-bit integers byte-stream split, categoricals dictionaries; the
    file reads back equal to the frame, and without pandas loaded the columns still become Arrow arrays."""
    import pyarrow.parquet as pq

    out = tmp_path / "r.parquet"
    runner.run(chunk_fn(), deals=300, chunk_size=128, out=out)
    chunk = pq.ParquetFile(out).metadata.row_group(0)
    encodings = {chunk.column(i).path_in_schema: chunk.column(i).encodings for i in range(chunk.num_columns)}
    assert "DELTA_BINARY_PACKED" in encodings["deal"]
    assert "BYTE_STREAM_SPLIT" in encodings["declarer"]
    assert not any("BYTE_STREAM_SPLIT" in encodings[c] for c in ("score_0", "score_1"))  # int16: plain
    assert "RLE_DICTIONARY" in encodings["contract"]
    pd.testing.assert_frame_equal(load_run(out)[0], runner.run(chunk_fn(), deals=300))
    values = np.array([-128, -1, 0, 5, 127], np.int8)
    assert runner._arrow_array(values).to_pylist() == values.tolist()
    assert runner._arrow_array(values[::2]).to_pylist() == values[::2].tolist()  # strided: copied first


def test_a_failure_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "r.parquet"
    with pytest.raises(RuntimeError):
        runner.run(chunk_fn(fail_at=20), deals=50, chunk_size=10, out=out)
    assert list(tmp_path.iterdir()) == []
    slow_add = runner.FileSink.add

    def add(self, *chunk):  # the writer is still busy with a chunk when the next one fails
        time.sleep(0.3)
        slow_add(self, *chunk)

    monkeypatch.setattr(runner.FileSink, "add", add)
    with pytest.raises(RuntimeError):
        runner.run(chunk_fn(fail_at=10), deals=50, chunk_size=10, out=out)
    assert not any(t.name == "cardlab-writer" for t in threading.enumerate())  # stopped before the clean-up
    assert list(tmp_path.iterdir()) == []


def test_an_interruption_keeps_the_finished_chunks_and_says_so(tmp_path, capsys):
    out = tmp_path / "r.parquet"
    with pytest.raises(runner.RunInterrupted) as stop:
        runner.run(chunk_fn(interrupt_at=30), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    assert (stop.value.done, stop.value.requested) == (30, 50)
    df, meta = load_run(out)
    assert df["deal"].tolist() == list(range(30))
    assert meta["deals"] == 30 and meta["requested"] == 50 and meta["complete"] is False
    assert "interrupted: kept 30 of 50 deals" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["r.parquet"]


def test_the_same_command_reuses_an_interrupted_file(tmp_path):
    out = tmp_path / "r.parquet"
    with pytest.raises(runner.RunInterrupted):
        runner.run(chunk_fn(interrupt_at=30), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    calls = []
    runner.run(chunk_fn(calls=calls), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    assert calls == [(30, 1), (30, 10), (40, 10)]  # one deal first: kernels load before the clock starts
    df, meta = load_run(out)
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=50, chunk_size=10))
    assert meta["complete"] is True and meta["deals"] == 50


def test_an_interrupted_frame_is_handed_back():
    with pytest.raises(runner.RunInterrupted) as stop:
        runner.run(chunk_fn(interrupt_at=20), deals=50, chunk_size=10)
    assert len(stop.value.frame) == 20 and stop.value.meta["complete"] is False


def test_a_dataset_directory_holds_one_file_per_chunk_and_resumes(tmp_path):
    out = str(tmp_path / "ds") + "/"
    with pytest.raises(runner.RunInterrupted):
        runner.run(chunk_fn(interrupt_at=30), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    names = sorted(os.listdir(out))
    assert names == ["_cardlab.json"] + [f"chunk-{s:020d}-10.parquet" for s in (0, 10, 20)]
    assert json.loads((tmp_path / "ds" / "_cardlab.json").read_text())["run"]["complete"] is False
    (tmp_path / "ds" / f".chunk-{30:020d}-10.parquet.999999999.part").write_bytes(b"half a chunk")  # a killed writer
    calls = []
    runner.run(chunk_fn(calls=calls), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    assert calls == [(30, 1), (30, 10), (40, 10)]
    assert not [n for n in os.listdir(out) if n.endswith(".part")]
    df, meta = load_run(out)
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=50, chunk_size=10))
    pd.testing.assert_frame_equal(pd.read_parquet(out), df)
    assert meta["complete"] is True and meta["deals"] == 50
    calls.clear()  # a third run finds everything there: nothing is played again
    runner.run(chunk_fn(calls=calls), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    assert calls == []


def test_a_dataset_refuses_another_run(tmp_path):
    out = tmp_path / "ds"
    runner.run(chunk_fn(), deals=20, chunk_size=10, out=str(out) + "/", meta={"game": "test", "seed": 1})
    with pytest.raises(ValueError, match="holds a different run"):
        runner.run(chunk_fn(), deals=20, chunk_size=10, out=out, meta={"game": "test", "seed": 2})


def test_stale_part_files_of_dead_writers_are_removed(tmp_path):
    out = tmp_path / "r.parquet"
    stale = tmp_path / ".r.parquet.999999999.part"
    stale.write_bytes(b"x" * 100)
    runner.run(chunk_fn(), deals=20, chunk_size=10, out=out)
    assert not stale.exists() and out.is_file()


def test_sigterm_stops_like_ctrl_c(tmp_path):
    import signal

    def play(first, count):
        if first == 20:
            os.kill(os.getpid(), signal.SIGTERM)
        return chunk_fn()(first, count)

    with pytest.raises(runner.RunInterrupted) as stop:
        runner.run(play, deals=100, chunk_size=10, out=tmp_path / "r.parquet")
    assert stop.value.done in (20, 30)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_summary_counts_each_seat_with_the_others_total_in_any_order():
    rows = runner.run(chunk_fn(), deals=1000, chunk_size=64)
    summary = runner.run(chunk_fn(), deals=1000, chunk_size=64, summary=True)
    assert list(summary.columns) == ["contract", "declarer", "seat", "score", "score_others", "count"]
    assert summary["count"].sum() == 2 * 1000 and summary.attrs["cardlab"]["deals"] == 1000
    seats = pd.concat([rows.assign(seat=s, score=rows[f"score_{s}"], score_others=rows[f"score_{1 - s}"])
                       for s in (0, 1)])
    key = ["contract", "declarer", "seat", "score", "score_others"]
    expected = seats.groupby(key, observed=True).size().rename("count").reset_index()
    got = expand(summary).groupby(key, observed=True).size().rename("count").reset_index()
    pd.testing.assert_frame_equal(got.astype({"seat": "int64", "score": "int64"}),
                                  expected.astype({"seat": "int64", "score": "int64", "score_others": "int64"}))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(runner.run(chunk_fn(), deals=1000, chunk_size=37, summary=True, executor=pool),
                                      summary)


def test_rows_without_seat_arrays_are_counted_whole():
    def play(first, count):
        deals = np.arange(first, first + count)
        return {"deal": deals, "a": deals % 5, "b": (deals % 3).astype(np.int8)}

    summary = runner.run(play, deals=300, chunk_size=40, summary=True)
    assert list(summary.columns) == ["a", "b", "count"] and len(summary) == 15 and summary["count"].sum() == 300


def test_row_counter_grows_and_survives_pickling():
    import pickle

    rng = np.random.default_rng(1)
    counter = RowCounter()
    values = rng.integers(0, 3000, size=20_000)
    counter.add({"deal": np.arange(20_000), "v": values, "f": (values / 7).astype(np.float32)})
    again = pickle.loads(pickle.dumps(counter))
    frame = again.to_frame()
    assert frame["count"].sum() == 20_000 and len(frame) == len(np.unique(values))
    assert frame["f"].dtype == np.float32 and np.allclose(frame["f"], frame["v"] / 7)


def test_a_summary_file_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    out = tmp_path / "s.parquet"
    monkeypatch.setattr(runner, "CHECKPOINT_SECONDS", 0.0)
    with pytest.raises(runner.RunInterrupted):
        runner.run(chunk_fn(interrupt_at=50), deals=100, chunk_size=10, out=out, summary=True, meta={"game": "t"})
    calls = []
    runner.run(chunk_fn(calls=calls), deals=100, chunk_size=10, out=out, summary=True, meta={"game": "t"})
    assert calls == [(50, 1)] + [(s, 10) for s in range(50, 100, 10)]
    df, meta = load_run(out)
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=100, chunk_size=10, summary=True))
    assert meta["summary"] is True and meta["complete"] is True


def test_an_executor_gives_the_same_rows_in_order():
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        df = runner.run(chunk_fn(), deals=200, chunk_size=9, executor=pool)
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=200, chunk_size=50))


def test_a_chunk_failing_twice_is_reported_and_the_rest_kept(tmp_path):
    out = tmp_path / "ds"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        with pytest.raises(runner.ChunksFailed) as failed:
            runner.run(chunk_fn(fail_at=20), deals=50, chunk_size=10, executor=pool, out=str(out) + "/",
                       meta={"game": "test", "seed": 5, "options": {"players": 4}})
    (missing,) = failed.value.missing
    assert missing["first"] == 20 and missing["count"] == 10 and missing["seed"] == 5
    assert missing["options"] == {"players": 4} and "boom" in missing["error"]
    assert "seed 5, first 20, count 10" in str(failed.value)
    df, meta = load_run(out)
    assert sorted(df["deal"]) == [d for d in range(50) if not 20 <= d < 30]
    assert meta["complete"] is False and meta["missing"][0]["first"] == 20


def test_a_chunk_failing_once_is_retried():
    tries = []

    def flaky(first, count):
        if first == 10 and not tries:
            tries.append(first)
            raise OSError("worker lost")
        return chunk_fn()(first, count)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        df = runner.run(flaky, deals=30, chunk_size=10, executor=pool)
    assert df["deal"].tolist() == list(range(30)) and tries == [10]


def test_plan_chunks_keeps_the_grid_and_skips_what_is_covered():
    assert runner.plan_chunks(5, 25, 10) == [(5, 10), (15, 10), (25, 5)]
    assert runner.plan_chunks(0, 40, 10, [[10, 20], [30, 35]]) == [(0, 10), (20, 10), (35, 5)]


def test_threads_must_fit_the_machine():
    with pytest.raises(ValueError, match="threads: 0 is not allowed"):
        runner.set_threads(0)


@pytest.mark.slow
def test_a_dask_worker_killed_mid_chunk_is_replaced_and_its_chunk_played_again(tmp_path):
    distributed = pytest.importorskip("distributed")
    marker = str(tmp_path / "died-once")

    def dies_once(first, count):
        if first == 20 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker process dies in the middle of the chunk
        deals = np.arange(first, first + count)
        return {"deal": deals, "score": np.stack([deals % 3, -(deals % 3)], axis=1).astype(np.int16)}

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        df = runner.run(dies_once, deals=60, chunk_size=10, executor=client, out=str(tmp_path / "ds") + "/")
    assert df is None and os.path.exists(marker)
    rows, meta = load_run(tmp_path / "ds")
    assert rows["deal"].tolist() == list(range(60)) and meta["complete"] is True


def test_an_executor_run_to_one_file_keeps_a_prefix_when_interrupted_and_gaps_when_chunks_fail(tmp_path):
    out = tmp_path / "r.parquet"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        with pytest.raises(runner.RunInterrupted) as stop:
            runner.run(chunk_fn(interrupt_at=40), deals=100, chunk_size=10, executor=pool, out=out)
    df, meta = load_run(out)
    assert df["deal"].tolist() == list(range(len(df))) and meta["deals"] == len(df) == stop.value.done
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        with pytest.raises(runner.ChunksFailed):
            runner.run(chunk_fn(fail_at=20), deals=50, chunk_size=10, executor=pool, out=tmp_path / "gaps.parquet")
    df, meta = load_run(tmp_path / "gaps.parquet")
    assert df["deal"].tolist() == [d for d in range(50) if not 20 <= d < 30] and meta["deals"] == 40
    assert meta["complete"] is False and meta["missing"][0]["first"] == 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_search_run_goes_in_small_chunks_that_keep_their_rows(name, monkeypatch, tmp_path):
    """Searched play runs hundreds to thousands of deals a second: its chunks are small (seconds each), so a long run
    shows its progress and an interrupted one keeps what it played; the rows are the same in any chunks."""
    from cardlab.sim.games import game

    seen = []
    real = runner.run

    def spy(play_chunk, **kw):
        seen.append(kw["chunk_size"])
        return real(play_chunk, **kw)

    monkeypatch.setattr(runner, "run", spy)
    g = game(name)
    keywords = dict(seed=2, policy="search", search_worlds=2)
    df = g.simulate(deals=5, **keywords)
    assert seen == [g.search_chunk] == [runner.SEARCH_CHUNK]
    assert df.equals(g.simulate(deals=5, chunk_size=2, **keywords))
    g.simulate_games(games=1, **keywords)
    assert seen[-1] == g.search_game_chunk
    g.simulate(deals=5, seed=2)
    assert seen[-1] == g.deal_chunk
