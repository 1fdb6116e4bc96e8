"""The same run experience in every registered game: the quick start, output checks before the first deal,
Ctrl-C within about a second, honest metadata for every Parquet reader, --chunk-size 0, --overwrite, what an
interrupted start says, and what --out with --plot prints. Each per-game item loops over every game in GAMES."""
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from cardlab import analysis
from cardlab.sim import games as games_registry
from cardlab.sim import runner
from cardlab.sim.cli import main
from cardlab.sim.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
EVERY_GAME = pytest.mark.parametrize("game", list(GAMES))


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def cheap_study(game: str) -> str:
    """A study of the game that plays without search (the strength ladders search: slow)."""
    return next(name for name in games_registry.command(game).STUDIES if name != "strength")


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines()
             if line.strip() and not line.startswith(("cardlab: note:", "cardlab: warning:"))]
    assert len(lines) == 1, stderr
    return lines[0]


def interrupt_at_chunk(monkeypatch, k: int):
    """Ctrl-C as the run reaches its ``k``-th chunk (0-based): the chunks before it are kept."""
    real, seen = runner._play_in_pieces, []

    def play(play_chunk, start, count, pace, index):
        seen.append(start)
        if len(seen) > k:
            raise KeyboardInterrupt
        return real(play_chunk, start, count, pace, index)

    monkeypatch.setattr(runner, "_play_in_pieces", play)


def readers(path) -> dict:
    """The ``cardlab`` metadata as each standard reader returns it (None where it has none)."""
    def load(raw):
        return None if raw is None else json.loads(raw)

    got = {"read_table": load((pq.read_table(path).schema.metadata or {}).get(b"cardlab")),
           "dataset": load((ds.dataset(path).schema.metadata or {}).get(b"cardlab")),
           "ParquetDataset": load((pq.ParquetDataset(path).schema.metadata or {}).get(b"cardlab"))}
    if Path(path).is_file():  # a directory has no footer of its own
        got["read_schema"] = load((pq.read_schema(path).metadata or {}).get(b"cardlab"))
        got["read_metadata"] = load((pq.read_metadata(path).metadata or {}).get(b"cardlab"))
        got["ParquetFile"] = load((pq.ParquetFile(path).schema_arrow.metadata or {}).get(b"cardlab"))
    return got


def assert_readers_agree(path, **expected):
    got = readers(path)
    first = next(iter(got.values()))
    assert all(meta == first for meta in got.values()), got
    for key, value in expected.items():
        assert first.get(key) == value, (key, first.get(key), value)
    assert b"ARROW:schema" in pq.read_metadata(path).metadata  # one entry: the one written at close
    return first


# ---------------------------------------------------------------- 1. the quick start works from a fresh shell


def test_the_quick_start_commands_run_from_a_fresh_shell():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Quick start")
    block = re.search(r"```sh\n(.*?)```", readme[start:], re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]
    assert commands[:2] == ["make study", "make test"]
    targets = set(re.findall(r"^([a-z]+):", (ROOT / "Makefile").read_text(), re.M))
    for command in commands:  # a make target, or a program in .venv: nothing that needs an activated shell
        assert command.split()[0] == "make" and command.split()[1] in targets or command.startswith(".venv/bin/"), \
            command
    assert "not onto your `PATH`" in readme[start:start + 2000] and ". .venv/bin/activate" in readme[start:start + 2000]
    dry = subprocess.run(["make", "-n", "-W", "pyproject.toml", "study", "test"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    runs = [line for line in dry.splitlines() if "cardlab " in line or "pytest" in line]
    assert runs and all(line.startswith(".venv/bin/") for line in runs), runs
    # make study twice: its --out exists the second time, and --overwrite replaces it instead of refusing
    assert "--out runs/study.parquet --overwrite" in dry


# ---------------------------------------------------------------- 2. every output path is checked before the first deal


@EVERY_GAME
def test_an_unwritable_plot_or_out_is_refused_before_the_first_deal(game, capsys, monkeypatch, tmp_path):
    if not Path("/proc").is_dir():
        pytest.skip("needs /proc")

    def no_run(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(runner, "run", no_run)
    for argv, option, value in (
            (["simulate", game, "--deals", "10", "--plot", "/proc/x.png"], "--plot", "/proc/x.png"),
            (["simulate", game, "--games", "3", "--out", str(tmp_path / "g.parquet"), "--plot", "/proc/x.png"],
             "--plot", "/proc/x.png"),
            (["simulate", game, "--deals", "10", "--out", "/proc/x.parquet"], "--out", "/proc/x.parquet"),
            (["simulate", game, "--deals", "10", "--out", "/proc/ds/"], "--out", "/proc/ds/"),
            (["study", game, cheap_study(game), "--deals", "10", "--plot", "/proc/sub/x.png"], "--plot",
             "/proc/sub/x.png"),
            (["study", game, cheap_study(game), "--deals", "10", "--out", "/proc/x.parquet"], "--out",
             "/proc/x.parquet")):
        code, stdout, stderr = run_cli(capsys, *argv)
        line = one_line(stderr)
        assert code == 2 and stdout == "", (argv, stderr)
        assert line.startswith(f"cardlab: error: {option}: '{value}' is not writable: no file can be created in "
                               "'/proc'"), line
    assert list(tmp_path.iterdir()) == []  # the probe files are gone and no directory was made


def test_report_checks_its_plot_first_and_probes_leave_nothing(tmp_path, capsys):
    out = tmp_path / "r.parquet"
    runner.run(lambda first, count: {"deal": pd.RangeIndex(first, first + count).to_numpy()}, deals=5, out=out)
    if Path("/proc").is_dir():
        code, stdout, stderr = run_cli(capsys, "report", out, "--plot", "/proc/x.png")
        assert code == 2 and stdout == "" and "--plot: '/proc/x.png' is not writable" in one_line(stderr)
    # the checks pass, another option fails: the probes left no file behind
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--deals", "10", "--out", tmp_path / "new" / "x.parquet",
                              "--plot", tmp_path / "x.png", "--chunk-size", "0")
    assert code == 2 and "--chunk-size: 0" in stderr
    assert [p.name for p in tmp_path.iterdir()] == ["r.parquet"]


# ---------------------------------------------------------------- 3 and 7. Ctrl-C: within about a second, every game and mode


def send_sigint_while_playing(monkeypatch, request, delay: float):
    """A real SIGINT to this process ``delay`` s after the run starts its first chunk (kernels loaded). Python's own
    handler is put in place for the test: a test run started in the background (``make test &``) inherits SIGINT
    ignored, and the signal would then never arrive."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))
    playing, state, lock = threading.Event(), {"sent": None, "done": False}, threading.Lock()
    real = runner._play_in_pieces

    def spy(*args, **kwargs):
        playing.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "_play_in_pieces", spy)

    def fire():
        while not playing.wait(1):  # however long the kernels take to compile on a busy machine
            if state["done"]:
                return
        time.sleep(delay)
        with lock:
            if not state["done"]:
                state["sent"] = time.monotonic()
                os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=fire, daemon=True).start()
    return state, lock


def modes(game):
    """Runs of every kind that would take hours, each with a first chunk of minutes if played in one call (a
    study's chunk is set by the test)."""
    n_deals = ["--n-deals", "10000"] if game == "minchiate" else []  # the longest games allowed
    return {"deals": ["simulate", game, "--deals", 10**11, "--chunk-size", 10**9],
            "games": ["simulate", game, "--games", 10**9, "--chunk-size", 10**8, *n_deals],
            "summary": ["simulate", game, "--deals", 10**11, "--chunk-size", 10**9, "--summary"],
            "study": ["study", game, cheap_study(game), "--deals", 10**9]}


@EVERY_GAME
@pytest.mark.parametrize("mode", ["deals", "games", "summary", "study"])
def test_ctrl_c_answers_within_about_a_second(game, mode, tmp_path, capsys, monkeypatch, request):
    state, lock = send_sigint_while_playing(monkeypatch, request, delay=0.5)
    if mode == "study":  # a study sets its own chunk (Euchre's trumps: 65,536 deals, under 0.5 s on a fast machine)
        real_run = runner.run
        monkeypatch.setattr(runner, "run", lambda play, **kw: real_run(play, **{**kw, "chunk_size": 10**9}))
    out = tmp_path / "x.parquet"
    try:
        try:
            code = main([str(a) for a in modes(game)[mode]] + ["--out", str(out)])
            answered = time.monotonic()
        finally:
            with lock:
                state["done"] = True
        time.sleep(0.05)
    except KeyboardInterrupt:  # the signal came after the command had returned
        pytest.fail("the run ended before Ctrl-C")
    assert state["sent"] is not None
    err = capsys.readouterr().err
    assert code == 130
    print(f"{game} {mode}: Ctrl-C answered after {answered - state['sent']:.2f} s")
    assert answered - state["sent"] < 3.0, f"{game} {mode}: Ctrl-C answered after {answered - state['sent']:.2f} s"
    # stopped in the first chunk: nothing kept, nothing written, and the same line in every game
    assert err.splitlines()[-1] == "cardlab: interrupted", err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []


@EVERY_GAME
def test_ctrl_c_before_the_first_chunk_says_the_same_in_every_game(game, tmp_path, capsys, monkeypatch):
    real_run = runner.run

    def stopped_while_loading(play_chunk, **kwargs):  # Ctrl-C while the kernels load (the warm-up deal)
        def play(first, count):
            raise KeyboardInterrupt
        return real_run(play, **kwargs)

    monkeypatch.setattr(runner, "run", stopped_while_loading)
    for argv in (["simulate", game, "--deals", "50"], ["simulate", game, "--games", "5"],
                 ["simulate", game, "--deals", "50", "--out", tmp_path / "x.parquet"],
                 ["simulate", game, "--deals", "50", "--out", f"{tmp_path / 'ds'}/"],
                 ["study", game, cheap_study(game), "--deals", "50", "--out", tmp_path / "s.parquet"]):
        code, stdout, stderr = run_cli(capsys, *argv)
        assert (code, stdout, one_line(stderr)) == (130, "", "cardlab: interrupted"), argv
    assert [p.name for p in tmp_path.iterdir()] == ["ds"] and list((tmp_path / "ds").iterdir()) == []

    def stopped_while_starting(name):  # Ctrl-C while the command imports the game
        raise KeyboardInterrupt

    monkeypatch.setattr(games_registry, "command", stopped_while_starting)
    code, stdout, stderr = run_cli(capsys, "simulate", game, "--deals", "50")
    assert (code, stdout, one_line(stderr)) == (130, "", "cardlab: interrupted")


def test_minchiate_games_are_bounded_and_long_totals_warn(capsys, monkeypatch):
    from cardlab.sim import cli, minchiate

    code, _, stderr = run_cli(capsys, "simulate", "minchiate", "--games", "10", "--n-deals", "100000000")
    assert code == 2 and one_line(stderr) == (
        "cardlab: error: --n-deals: 100000000 is not allowed; use an integer from 1 to 10,000 (deals per whole "
        "game: 1 = one deal, 4 = each player deals once; for more deals in all, give more --games, or --deals)")
    with pytest.raises(ValueError, match="n_deals: 10001 is not allowed"):
        minchiate.simulate_games(games=1, n_deals=10_001)
    assert len(minchiate.simulate_games(games=1, n_deals=10_000, threads=1)) == 1
    monkeypatch.setattr(cli, "LONG_RUN", {"deals": 50, "games": 10**9})
    code, _, stderr = run_cli(capsys, "simulate", "minchiate", "--games", "20", "--n-deals", "4")
    assert code == 0 and "warning: --games 20 of --n-deals 4 is 80 deals: that takes hours" in stderr
    monkeypatch.setattr(cli, "SEARCH_LONG_RUN", 10)
    monkeypatch.setattr(runner, "run", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    code, _, stderr = run_cli(capsys, "simulate", "minchiate", "--games", "2", "--n-deals", "60", "--policy",
                              "search")
    assert "--games 2 of --n-deals 60 (120 deals) with a search seat takes a long while" in stderr
    assert "--n-deals 60 with a search seat: each game takes seconds" in stderr


def test_a_chunk_is_played_in_pieces_joined_in_order():
    """A chunk longer than a piece is played as several calls whose rows, joined, are those of one call, also
    for a study's rows (several variants, one after the other); rows that cannot be joined play whole."""
    import numpy as np

    def study(first, count):  # three variants, each over the chunk's deals in order
        deal = np.arange(first, first + count)
        return {"variant": pd.Categorical.from_codes(np.repeat(np.arange(3), count).astype(np.int8),
                                                     categories=["a", "b", "c"]),
                "deal": np.tile(deal, 3), "score": np.stack([np.tile(deal, 3), -np.tile(deal, 3)], axis=1)}

    whole = study(10, 23)
    pace = runner._Pace(1.0)
    pace.size = lambda: 4  # pieces of 4 deals, the last one 3
    calls = []
    joined = runner._play_in_pieces(lambda f, c: calls.append((f, c)) or study(f, c), 10, 23, pace, "deal")
    assert calls == [(10, 4), (14, 4), (18, 4), (22, 4), (26, 4), (30, 3)]
    for name in whole:
        assert np.array_equal(np.asarray(whole[name]), np.asarray(joined[name])), name
    assert joined["variant"].categories.tolist() == ["a", "b", "c"]
    calls.clear()
    no_index = runner._play_in_pieces(lambda f, c: calls.append((f, c)) or {"x": np.arange(c)}, 0, 9, pace, "deal")
    assert calls[-1] == (0, 9) and no_index["x"].tolist() == list(range(9)) and pace.split is False


# ---------------------------------------------------------------- 4. every reader sees what the file holds


def chunk_fn(first, count):
    import numpy as np

    deal = np.arange(first, first + count)
    return {"deal": deal, "score": np.stack([deal % 3, -(deal % 3)], axis=1).astype(np.int16)}


def test_every_reader_sees_an_interrupted_a_resumed_and_a_gappy_file(tmp_path):
    import concurrent.futures

    out = tmp_path / "r.parquet"
    with pytest.raises(runner.RunInterrupted):
        runner.run(lambda f, c: (_ for _ in ()).throw(KeyboardInterrupt) if f >= 20 else chunk_fn(f, c),
                   deals=50, chunk_size=10, out=out, meta={"game": "test", "seed": 1})
    assert_readers_agree(out, deals=20, requested=50, complete=False)
    runner.run(chunk_fn, deals=50, chunk_size=10, out=out, meta={"game": "test", "seed": 1})  # resumed
    assert_readers_agree(out, deals=50, requested=50, complete=True)

    def fails(first, count):
        if first == 20:
            raise RuntimeError("boom")
        return chunk_fn(first, count)

    gappy = tmp_path / "g.parquet"
    with concurrent.futures.ThreadPoolExecutor(2) as pool, pytest.raises(runner.ChunksFailed):
        runner.run(fails, deals=50, chunk_size=10, out=gappy, executor=pool, meta={"game": "test"})
    meta = assert_readers_agree(gappy, deals=40, requested=50, complete=False)
    assert [m["first"] for m in meta["missing"]] == [20]
    summary = tmp_path / "s.parquet"
    with pytest.raises(runner.RunInterrupted):
        runner.run(lambda f, c: (_ for _ in ()).throw(KeyboardInterrupt) if f >= 20 else chunk_fn(f, c),
                   deals=50, chunk_size=10, out=summary, summary=True, meta={"game": "test"})
    assert_readers_agree(summary, deals=20, requested=50, complete=False)


def test_a_dataset_claims_no_run_size_in_its_chunk_files(tmp_path):
    out = str(tmp_path / "ds") + "/"
    with pytest.raises(runner.RunInterrupted):
        runner.run(lambda f, c: (_ for _ in ()).throw(KeyboardInterrupt) if f >= 20 else chunk_fn(f, c),
                   deals=50, chunk_size=10, out=out, meta={"game": "test", "seed": 4})
    for path in (out, *sorted((tmp_path / "ds").glob("chunk-*.parquet"))):
        for reader, meta in readers(path).items():
            assert not {"deals", "requested", "complete"} & set(meta), (path, reader, meta)
            assert meta["seed"] == 4 and meta["run_metadata"] == "_cardlab.json" and meta["chunk"]["deals"] == 10
    first = json.loads(pq.read_schema(tmp_path / "ds" / f"chunk-{10:020d}-10.parquet").metadata[b"cardlab"])
    assert first["chunk"] == {"first_deal": 10, "deals": 10}
    _, meta = analysis.load_run(out)  # the run's own metadata: _cardlab.json
    assert (meta["deals"], meta["requested"], meta["complete"]) == (20, 50, False)


def test_files_of_the_old_layout_still_read_and_resume(tmp_path, capsys):
    """Files written before: the schema kept the metadata of open time, the footer's key the truth."""
    import pyarrow as pa

    out = tmp_path / "old.parquet"
    first = {"game": "test", "seed": 1, "unit": "deal", "deals": 50, "first_deal": 0, "requested": 50,
             "chunk_size": 10, "versions": {}}
    table = pa.table({"deal": chunk_fn(0, 20)["deal"], "score_0": chunk_fn(0, 20)["score"][:, 0],
                      "score_1": chunk_fn(0, 20)["score"][:, 1]})
    writer = pq.ParquetWriter(out, table.schema.with_metadata({b"cardlab": json.dumps(first).encode()}))
    writer.write_table(table)
    writer.add_key_value_metadata({"cardlab": json.dumps({**first, "deals": 20, "complete": False})})
    writer.close()
    df, meta = analysis.load_run(out)
    assert len(df) == 20 and (meta["deals"], meta["complete"]) == (20, False)
    calls = []
    runner.run(lambda f, c: calls.append((f, c)) or chunk_fn(f, c), deals=50, chunk_size=10, out=out,
               meta={"game": "test", "seed": 1}, overwrite=False)
    assert calls[1:] == [(20, 10), (30, 10), (40, 10)]  # resumed after the 20 deals it holds
    assert_readers_agree(out, deals=50, complete=True)


@EVERY_GAME
def test_every_reader_sees_what_an_interrupted_game_file_holds(game, tmp_path, capsys, monkeypatch):
    out, ds_out = tmp_path / "i.parquet", str(tmp_path / "ds") + "/"
    for target in (out, ds_out):
        with monkeypatch.context() as m:
            interrupt_at_chunk(m, 2)
            code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "4000", "--chunk-size", "1000", "--seed",
                                      "3", "--out", target)
        assert code == 130 and f"interrupted: kept 2,000 of 4,000 deals in {target}" in stderr
    assert_readers_agree(out, game=game, deals=2000, requested=4000, complete=False)
    assert analysis.load_run(ds_out)[1]["complete"] is False
    code, stdout, _ = run_cli(capsys, "report", out)
    assert code == 0 and stdout.splitlines()[1].startswith("PARTIAL RUN (interrupted): 2,000 of 4,000")  # the header's
    for target in (out, ds_out):  # the same command again resumes, and every reader sees the whole run
        code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "4000", "--chunk-size", "1000", "--seed", "3",
                                  "--out", target)
        assert code == 0 and "2,000 deals already there, 2,000 to play" in stderr
    assert_readers_agree(out, game=game, deals=4000, requested=4000, complete=True)
    assert analysis.load_run(ds_out)[1]["complete"] is True
    for reader, meta in readers(ds_out).items():
        assert meta["game"] == game and "complete" not in meta and "deals" not in meta, reader
    pd.testing.assert_frame_equal(analysis.load_run(out)[0], analysis.load_run(ds_out)[0])


# ---------------------------------------------------------------- 5. --chunk-size 0


@EVERY_GAME
def test_chunk_size_zero_is_refused_like_a_negative_one(game, capsys, monkeypatch):
    monkeypatch.setattr(runner, "run", lambda *a, **k: pytest.fail("the run started"))
    for unit in ("--deals", "--games"):
        for value in ("0", "-3"):
            code, stdout, stderr = run_cli(capsys, "simulate", game, unit, "10", "--chunk-size", value)
            assert (code, stdout) == (2, "")
            assert one_line(stderr) == f"cardlab: error: --chunk-size: {value} is not allowed; use an integer >= 1"


# ---------------------------------------------------------------- 6. --overwrite


@EVERY_GAME
def test_an_existing_out_is_refused_without_overwrite(game, tmp_path, capsys, monkeypatch):
    out = tmp_path / "x.parquet"
    assert run_cli(capsys, "simulate", game, "--deals", "30", "--seed", "1", "--out", out)[0] == 0
    before = out.read_bytes()
    code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "30", "--seed", "1", "--out", out)
    assert code == 2 and one_line(stderr) == (
        f"cardlab: error: --out: '{out}' already holds a complete {game} run, seed 1, 30 deals; give --overwrite "
        "to replace it, or another --out")
    assert out.read_bytes() == before
    code, _, _ = run_cli(capsys, "simulate", game, "--deals", "40", "--seed", "2", "--out", out, "--overwrite")
    assert code == 0 and analysis.load_run(out)[1]["seed"] == 2 and len(analysis.load_run(out)[0]) == 40

    # an interrupted file: another seed is refused, the same command resumes it, --overwrite starts afresh
    with monkeypatch.context() as m:
        interrupt_at_chunk(m, 1)
        code, _, _ = run_cli(capsys, "simulate", game, "--deals", "40", "--chunk-size", "10", "--seed", "3", "--out",
                             out, "--overwrite")
    assert code == 130 and analysis.load_run(out)[1]["deals"] == 10
    code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "40", "--chunk-size", "10", "--seed", "4", "--out",
                              out)
    assert code == 2 and one_line(stderr) == (
        f"cardlab: error: --out: '{out}' holds an unfinished {game} run, seed 3, 10 of 40 deals (its seed differs); "
        "run its own command again to resume it, give --overwrite to replace it, or another --out")
    code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "40", "--chunk-size", "10", "--seed", "3", "--out",
                              out)
    assert code == 0 and "10 deals already there, 30 to play" in stderr
    df, meta = analysis.load_run(out)
    assert meta["complete"] is True and df["deal"].tolist() == list(range(40))

    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "10", "--out", junk)
    assert code == 2 and "already exists and holds no cardlab run; give --overwrite" in one_line(stderr)
    assert junk.read_text() == "not parquet"

    # a dataset directory: the same settings resume (here: nothing left to play), others are refused
    folder = str(tmp_path / "ds") + "/"
    for _ in range(2):
        code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "30", "--chunk-size", "10", "--seed", "5",
                                  "--out", folder)
        assert code == 0
    assert "30 deals already there, 0 to play" in stderr
    code, _, stderr = run_cli(capsys, "simulate", game, "--deals", "30", "--chunk-size", "10", "--seed", "6", "--out",
                              folder)
    assert code == 2 and "holds a different run (its seed differs)" in one_line(stderr)
    code, _, _ = run_cli(capsys, "simulate", game, "--deals", "20", "--chunk-size", "10", "--seed", "6", "--out",
                         folder, "--overwrite")
    df, meta = analysis.load_run(folder)
    assert code == 0 and meta["seed"] == 6 and df["deal"].tolist() == list(range(20))

    study = tmp_path / "s.parquet"
    assert run_cli(capsys, "study", game, cheap_study(game), "--deals", "20", "--out", study)[0] == 0
    code, _, stderr = run_cli(capsys, "study", game, cheap_study(game), "--deals", "20", "--out", study)
    assert code == 2 and "already holds a complete" in one_line(stderr)
    assert run_cli(capsys, "study", game, cheap_study(game), "--deals", "20", "--out", study, "--overwrite")[0] == 0


# ---------------------------------------------------------------- 8. --out with --plot prints what --out alone prints


@EVERY_GAME
def test_out_with_plot_prints_only_what_was_written(game, tmp_path, capsys):
    out, plot = tmp_path / "x.parquet", tmp_path / "x.png"
    word = games_registry.game(game).unit  # every game says its size in its own word: deals, hands, rounds
    code, stdout, _ = run_cli(capsys, "simulate", game, "--deals", "300", "--out", out, "--plot", plot)
    assert code == 0 and stdout == f"wrote 300 {word}s to {out}\nplot written to {plot}\n"
    assert plot.stat().st_size > 5_000
    code, stdout, _ = run_cli(capsys, "simulate", game, "--deals", "300", "--out", tmp_path / "y.parquet")
    assert stdout == f"wrote 300 {word}s to {tmp_path / 'y.parquet'}\n"
    out, plot = tmp_path / "s.parquet", tmp_path / "s.png"
    code, stdout, _ = run_cli(capsys, "study", game, cheap_study(game), "--deals", "100", "--out", out, "--plot", plot)
    assert code == 0 and stdout == f"wrote 100 {word}s to {out}\nplot written to {plot}\n" and plot.is_file()
    code, stdout, _ = run_cli(capsys, "simulate", game, "--deals", "300", "--plot", tmp_path / "z.png")
    assert code == 0 and stdout.endswith(f"plot written to {tmp_path / 'z.png'}\n") and len(stdout.splitlines()) > 3
