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


# ---------------------------------------------------------------- 3 and 7. Ctrl-C: within about a second, every game and mode


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
