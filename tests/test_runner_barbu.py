"""The shared runner proven on Barbu: executors, dask, summaries, and real runs killed and resumed."""
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cardlab import analysis
from cardlab.sim import barbu, runner
from cardlab.sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "cardlab.sim.cli"]


def test_threads_chunks_and_executors_give_identical_rows():
    kw = dict(deals=6_000, seed=11, contract="all", players=4)
    reference = barbu.simulate(threads=1, chunk_size=6_000, **kw)
    pd.testing.assert_frame_equal(barbu.simulate(threads=2, chunk_size=777, **kw), reference)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(barbu.simulate(threads=1, chunk_size=1000, executor=pool, **kw), reference)


def test_four_dask_workers_give_identical_rows_and_summaries():
    distributed = pytest.importorskip("distributed")
    kw = dict(deals=4_000, seed=3, contract="all", players=4)
    reference = barbu.simulate(threads=1, chunk_size=4_000, **kw)
    summary = barbu.simulate(threads=1, chunk_size=4_000, summary=True, **kw)
    with distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pd.testing.assert_frame_equal(barbu.simulate(chunk_size=500, executor=client, **kw), reference)
        pd.testing.assert_frame_equal(barbu.simulate(chunk_size=300, executor=client, summary=True, **kw), summary)


def test_a_summary_reports_exactly_as_its_rows(tmp_path):
    kw = dict(deals=20_000, seed=5, contract="all", players=4, threads=1)
    meta = barbu.Study.build(contract="all", seed=5).metadata()
    rows = barbu.simulate(**kw)
    summary = barbu.simulate(summary=True, chunk_size=3_000, **kw)
    assert len(summary) < len(rows) / 5 and summary["count"].sum() == 4 * len(rows)  # one count per seat
    assert summary.attrs["cardlab"]["deals"] == len(rows)
    assert analysis.format_report(summary, meta) == analysis.format_report(rows, meta)
    pd.testing.assert_frame_equal(analysis.summary(summary), analysis.summary(rows))
    pd.testing.assert_frame_equal(analysis.score_shares(summary), analysis.score_shares(rows))


def test_cli_summary_file_reports_like_rows(tmp_path, capsys):
    rows, summ = tmp_path / "rows.parquet", tmp_path / "summary.parquet"
    common = ["simulate", "barbu", "--contract", "no-hearts,salade", "--deals", "5000", "--seed", "2", "--threads", "1"]
    assert main(common + ["--out", str(rows)]) == 0
    assert main(common + ["--out", str(summ), "--summary"]) == 0
    assert "as a summary" in capsys.readouterr().out
    assert main(["report", str(rows)]) == 0
    from_rows = capsys.readouterr().out
    assert main(["report", str(summ)]) == 0
    from_summary = capsys.readouterr().out
    body = lambda text: text.split("\n", 2)[2]  # the header and versions line may differ (chunk size, time)
    assert body(from_summary) == body(from_rows) and "no-hearts" in from_rows


def test_cli_games_use_the_games_chunk(monkeypatch, capsys):
    seen = {}
    real = runner.run

    def spy(play_chunk, **kw):
        seen.update(kw)
        return real(play_chunk, **kw)

    monkeypatch.setattr(runner, "run", spy)
    assert main(["simulate", "barbu", "--games", "3", "--threads", "1"]) == 0
    assert seen["chunk_size"] == runner.DEFAULT_GAME_CHUNK and seen["unit"] == "game"


def _start(args, tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # a test runner started in the background ignores SIGINT, and children inherit that: restore it
    return subprocess.Popen(CLI + args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for(predicate, proc, timeout=120):
    t0 = time.monotonic()
    while not predicate():
        assert proc.poll() is None, f"the run ended before it could be stopped: {proc.communicate()}"
        assert time.monotonic() - t0 < timeout, "the run made no progress"
        time.sleep(0.02)


SIM = ["simulate", "barbu", "--contract", "no-tricks", "--seed", "9", "--threads", "1"]


@pytest.mark.slow
def test_a_dataset_run_killed_with_sigkill_resumes_to_the_same_data(tmp_path):
    out = tmp_path / "ds"
    args = SIM + ["--deals", "400000", "--chunk-size", "2000", "--out", "ds/"]
    proc = _start(args, tmp_path)
    _wait_for(lambda: out.is_dir() and len(list(out.glob("chunk-*.parquet"))) >= 3, proc)
    proc.kill()
    proc.wait()
    kept = len(list(out.glob("chunk-*.parquet")))
    assert 3 <= kept < 200
    assert json.loads((out / "_cardlab.json").read_text())["run"]["complete"] is False
    done = subprocess.run(CLI + args, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stderr and f"{kept * 2_000:,} deals already there" in done.stderr
    assert not list(out.glob(".*.part"))
    df, meta = analysis.load_run(out)
    assert meta["complete"] is True and meta["deals"] == 400_000
    reference = barbu.simulate(deals=400_000, contract="no-tricks", seed=9, threads=2)
    pd.testing.assert_frame_equal(df, reference)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_cli_run_exits_130_and_is_marked_partial(tmp_path, sig, capsys):
    out = tmp_path / "run.parquet"
    proc = _start(SIM + ["--deals", "20000000", "--chunk-size", "20000", "--out", "run.parquet"], tmp_path)
    _wait_for(lambda: any(p.name.endswith(".part") and p.stat().st_size > 0 for p in tmp_path.iterdir()), proc)
    time.sleep(0.3)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted: kept" in stderr and "of 20,000,000 deals" in stderr
    assert "wrote" not in stdout
    df, meta = analysis.load_run(out)
    assert meta["complete"] is False and meta["requested"] == 20_000_000 and meta["deals"] == len(df) > 0
    assert df["deal"].tolist() == list(range(len(df)))
    assert [p.name for p in tmp_path.iterdir()] == ["run.parquet"]
    assert main(["report", str(out)]) == 0
    assert f"PARTIAL RUN (interrupted): {len(df):,} of 20,000,000 deals" in capsys.readouterr().out


def test_scheduler_needs_a_valid_address(capsys):
    code = main(SIM + ["--deals", "10", "--scheduler", "nowhere"])
    err = capsys.readouterr().err
    assert code == 2 and "--scheduler: 'nowhere' is not allowed" in err


@pytest.mark.slow
def test_cli_on_a_local_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    args = SIM + ["--deals", "3000", "--chunk-size", "1000", "--scheduler", "local:2", "--out", "d.parquet"]
    done = subprocess.run(CLI + args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    df, _ = analysis.load_run(tmp_path / "d.parquet")
    pd.testing.assert_frame_equal(df, barbu.simulate(deals=3000, contract="no-tricks", seed=9, threads=1))


@pytest.mark.slow
def test_concurrent_compiles_into_one_cache_do_not_crash(tmp_path):
    """Two processes compile the summary kernel into the same empty cache at once, a third loads it."""
    code = ("from cardlab.sim.summary import RowCounter; import numpy as np; "
            "c = RowCounter().add({'deal': np.arange(5000), 'v': np.arange(5000) % 17}); "
            "print(int(c.to_frame()['count'].sum()), len(c.to_frame()))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert [p.returncode for p in procs] == [0, 0] and outs == [["5000", "17"]] * 2
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout.split() == ["5000", "17"]
    assert list((tmp_path / "cache").rglob("*.nbi"))


def test_cli_game_summary_reports_per_contract_and_a_study_summary_needs_out(tmp_path, capsys):
    out = tmp_path / "g.parquet"
    assert main(["simulate", "barbu", "--games", "20", "--geronimo", "--double", "--summary", "--threads", "1",
                 "--out", str(out)]) == 0
    df, meta = analysis.load_run(out)
    assert meta["summary"] is True and meta["games"] == 20 and df["count"].sum() == 20 * 28 * 4
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "summary of a game run" in text and "deal report | seed 0 | 20 games" in text and "trumps" in text
    assert main(["study", "barbu", "trumps", "--deals", "100", "--summary"]) == 2
    assert "--summary: a study's report needs one row per deal" in capsys.readouterr().err


def test_cli_on_a_running_scheduler_by_address(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "t.parquet"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert main(SIM + ["--deals", "2000", "--chunk-size", "500", "--scheduler", cluster.scheduler_address,
                           "--out", str(out)]) == 0
    df, _ = analysis.load_run(out)
    pd.testing.assert_frame_equal(df, barbu.simulate(deals=2000, contract="no-tricks", seed=9, threads=1))


def test_scheduler_without_dask_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask.distributed were not installed
    assert main(SIM + ["--deals", "10", "--scheduler", "local:2"]) == 2
    assert "pip install 'cardlab[dask]'" in capsys.readouterr().err
