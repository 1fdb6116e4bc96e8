"""What keeps output and start-up cheap gives the same results: packed summary counting, the Arrow schema,
the CLI importing only the game it runs, and Barbu's hand-value model kept on disk."""
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from cardlab.sim import runner, summary
from cardlab.sim.summary import SeatCounter, count_seats_packed_nb


def seat_chunk(first, count, spread):
    """A chunk with deal columns and two seat arrays whose values span ``spread``."""
    deals = np.arange(first, first + count)
    return {"deal": deals,
            "contract": pd.Categorical.from_codes((deals % 4).astype(np.int8), categories=list("abcd")),
            "declarer": (deals % 3).astype(np.int8),
            "raw": per_deal(deals, 1, spread),
            "score": per_deal(deals, 2, 40).astype(np.int16)}


def per_deal(deals, salt, spread):
    """Values in ``[-spread, spread)`` for each deal and 3 seats from the deal index alone (as the runner asks
    of a chunk: the same deal gives the same row whatever chunk, or piece of a chunk, it is played in)."""
    x = deals.astype(np.uint64)[:, None] * np.uint64(0x9E3779B97F4A7C15) + \
        np.arange(3 * salt, 3 * salt + 3, dtype=np.uint64) * np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(32)
    return (x % np.uint64(2 * spread)).astype(np.int64) - spread


def wide_counts(chunks, monkeypatch):
    """The counts through the row-by-row table only (the packed kernel made to refuse every chunk)."""
    with monkeypatch.context() as m:
        m.setattr(summary, "count_seats_packed_nb", lambda rows, seats: (None, None, False))
        counter = SeatCounter()
        for chunk in chunks:
            counter.add(chunk)
        return counter.to_frame()


def test_packed_seat_counts_equal_the_row_by_row_counts(monkeypatch):
    chunks = [seat_chunk(k * 5000, 5000, 30) for k in range(3)]
    counter = SeatCounter()
    for chunk in chunks:
        counter.add(chunk)
    packed = counter.to_frame()
    pd.testing.assert_frame_equal(packed, wide_counts(chunks, monkeypatch))
    assert packed["count"].sum() == 15_000 * 3 and counter.total == 15_000
    seat_1_of_a = packed[(packed["contract"] == "a") & (packed["seat"] == 1)]
    assert seat_1_of_a["count"].sum() == sum((c["contract"] == "a").sum() for c in chunks)
    sums = packed.assign(w=packed["raw"] * packed["count"]).groupby("seat")["w"].sum()
    assert sums.tolist() == [sum(int(c["raw"][:, s].sum()) for c in chunks) for s in range(3)]


def test_rows_too_wide_for_one_word_fall_back_with_the_same_counts(monkeypatch):
    chunk = seat_chunk(0, 2000, 2**40)  # raw and its others' total need about 2 x 42 bits: no single word
    plain = summary.RowCounter("deal")
    rows = plain._encode({k: chunk[k] for k in ("deal", "contract", "declarer")})
    assert not count_seats_packed_nb(rows, np.stack([chunk["raw"], chunk["score"]], axis=1))[2]
    pd.testing.assert_frame_equal(SeatCounter().add(chunk).to_frame(), wide_counts([chunk], monkeypatch))


def test_rows_files_read_back_the_same_frame(tmp_path):
    play = lambda first, count: seat_chunk(first, count, 30)  # noqa: E731
    frame = runner.run(play, deals=3000, chunk_size=1000)
    runner.run(play, deals=3000, chunk_size=1000, out=tmp_path / "r.parquet")
    back = pd.read_parquet(tmp_path / "r.parquet")
    pd.testing.assert_frame_equal(back, frame, check_categorical=False)
    assert back["contract"].dtype == "category"
    stats = pq.ParquetFile(tmp_path / "r.parquet").metadata.row_group(0)
    assert stats.column(0).statistics is not None  # the deal index keeps min/max for filters


def test_the_cli_imports_only_the_game_it_runs():
    code = ("import sys; from cardlab.sim.cli import build_parser; "
            "build_parser(['simulate', 'barbu', '--deals', '10']).parse_args(['simulate', 'barbu', '--deals', '10']); "
            "print(sorted(m for m in ('euchre5', 'minchiate', 'rami', 'barbu') if f'cardlab.sim.{m}' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['barbu']"


def test_the_hand_model_kept_on_disk_equals_the_fit(tmp_path, monkeypatch):
    import numba

    from cardlab.sim.barbu.rules import BarbuOptions
    from cardlab.sim.barbu.play import hand_model

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    cached = hand_model.__wrapped__  # the disk layer under the in-memory cache
    fitted = cached(BarbuOptions(players=3))
    assert len(list((tmp_path / "barbu-hand-model").glob("*.npz"))) == 1
    loaded = cached(BarbuOptions(players=3))
    assert type(loaded) is type(fitted)
    for a, b in zip(loaded, fitted):
        np.testing.assert_array_equal(a, b)
