"""The chunked runner: streaming to Parquet, no partial files on failure, nothing lost on interruption."""
import numpy as np
import pandas as pd
import pytest

from cardlab.analysis import load_run
from cardlab.sim import runner


def chunk_fn(fail_at=None, interrupt_at=None):
    def play(first, count):
        if first == fail_at:
            raise RuntimeError("boom")
        if first == interrupt_at:
            raise KeyboardInterrupt
        deals = np.arange(first, first + count)
        return {"deal": deals, "score": np.stack([deals % 3, -(deals % 3)], axis=1).astype(np.int16)}
    return play


def test_gathers_a_frame_with_score_columns():
    df = runner.run(chunk_fn(), deals=25, chunk_size=10)
    assert list(df.columns) == ["deal", "score_0", "score_1"] and df["deal"].tolist() == list(range(25))


def test_streams_to_parquet_with_metadata(tmp_path):
    out = tmp_path / "r.parquet"
    assert runner.run(chunk_fn(), deals=25, chunk_size=10, out=out, meta={"game": "test"}) is None
    df, meta = load_run(out)
    assert len(df) == 25 and meta["game"] == "test" and meta["deals"] == 25
    pd.testing.assert_frame_equal(df, runner.run(chunk_fn(), deals=25, chunk_size=7))


def test_a_failure_leaves_no_file(tmp_path):
    out = tmp_path / "r.parquet"
    with pytest.raises(RuntimeError):
        runner.run(chunk_fn(fail_at=20), deals=50, chunk_size=10, out=out)
    assert list(tmp_path.iterdir()) == []


def test_an_interruption_keeps_the_finished_chunks(tmp_path, capsys):
    out = tmp_path / "r.parquet"
    runner.run(chunk_fn(interrupt_at=30), deals=50, chunk_size=10, out=out, meta={"game": "test"})
    df, meta = load_run(out)
    assert df["deal"].tolist() == list(range(30)) and meta["deals"] == 30
    assert "interrupted" in capsys.readouterr().err


def test_threads_must_fit_the_machine():
    with pytest.raises(ValueError, match="threads: 0 is not allowed"):
        runner.set_threads(0)
