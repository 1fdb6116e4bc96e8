"""Fingerprints of every game's results on fixed seeds: the check that a refactor keeps results.

Runs a fixed list of ``cardlab`` commands in one process (every game; random, heuristic, mixed and
search seats; single deals, whole games, summaries, every study, text and JSON replays) and prints
one line per command: a hash of the rows written (column names, types and values, not the
metadata), of the metadata (without versions and timings) and, for replays, of what was printed.
Save the output before a restructuring and compare it after:

    python benchmarks/fingerprint.py > before.txt      # on the old code
    python benchmarks/fingerprint.py > after.txt       # on the new code
    diff before.txt after.txt                          # rows and replays must match

``--only GAME`` runs one game's commands. Sizes are small (a few minutes warm), seeds fixed.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

SEARCH = ["--search-worlds", "4"]

COMMANDS = {
    "barbu": [
        "simulate barbu --deals 3000 --seed 3",
        "simulate barbu --deals 2000 --seed 4 --policy random",
        "simulate barbu --deals 2000 --seed 5 --policy heuristic,random,random,heuristic --players 4 --deck 32",
        "simulate barbu --deals 2000 --seed 6 --players 3 --contract no-hearts,trumps",
        "simulate barbu --deals 2000 --seed 6 --players 5 --hearts-lead broken --domino-rules fan_tan",
        "simulate barbu --deals 60 --seed 8 --policy search " + " ".join(SEARCH),
        "simulate barbu --deals 40 --seed 8 --policy search,heuristic,heuristic,random --contract salade,domino "
        + " ".join(SEARCH),
        "simulate barbu --deals 20000 --seed 9 --summary --contract no-tricks",
        "simulate barbu --games 300 --seed 10",
        "simulate barbu --games 200 --seed 11 --geronimo --double",
        "simulate barbu --games 100 --seed 12 --salade --anti-salade --double --late-redouble --iterations 2",
        "simulate barbu --games 4 --seed 13 --policy search " + " ".join(SEARCH),
        "study barbu trumps --deals 2000 --seed 14",
        "study barbu contracts --deals 1000 --seed 15",
        "study barbu contracts --deals 40 --seed 15 --compare-policies heuristic,search " + " ".join(SEARCH),
        "study barbu strength --deals 40 --seed 16 --contract no-queens " + " ".join(SEARCH),
        "replay barbu --deal 0:12 --seed 17 --json",
        "replay barbu --deal 3 --seed 17 --contract domino",
        "replay barbu --deal 0:3 --seed 18 --policy search --json " + " ".join(SEARCH),
        "replay barbu --game-index 0:2 --seed 19 --json --geronimo --double",
        "replay barbu --game-index 1 --seed 19",
    ],
    "euchre5": [
        "simulate euchre5 --deals 5000 --seed 3",
        "simulate euchre5 --deals 3000 --seed 4 --policy random",
        "simulate euchre5 --deals 3000 --seed 5 --call-rule ace_of_suit --no-stick-the-dealer --lone-march-points 4",
        "simulate euchre5 --deals 100 --seed 8 --policy search " + " ".join(SEARCH),
        "simulate euchre5 --deals 100 --seed 8 --policy search,heuristic,random,heuristic,heuristic --call-rule "
        "ace_of_suit " + " ".join(SEARCH),
        "simulate euchre5 --games 500 --seed 10",
        "simulate euchre5 --games 300 --seed 11 --tie-rule play_on --target 5",
        "simulate euchre5 --games 5 --seed 12 --policy search " + " ".join(SEARCH),
        "study euchre5 trumps --deals 1000 --seed 14",
        "study euchre5 strength --deals 60 --seed 16 " + " ".join(SEARCH),
        "replay euchre5 --deal 0:12 --seed 17 --json",
        "replay euchre5 --deal 2 --seed 17",
        "replay euchre5 --deal 0:3 --seed 18 --policy search --json " + " ".join(SEARCH),
        "replay euchre5 --game-index 0:2 --seed 19 --json",
        "replay euchre5 --game-index 1 --seed 19",
    ],
    "minchiate": [
        "simulate minchiate --deals 3000 --seed 3",
        "simulate minchiate --deals 2000 --seed 4 --policy random",
        "simulate minchiate --deals 2000 --seed 5 --expose-last-cards all_four --no-steal-29 --discards-to "
        "own_team_pile --cappotto-double",
        "simulate minchiate --deals 30 --seed 8 --policy search " + " ".join(SEARCH),
        "simulate minchiate --deals 30 --seed 8 --policy search,heuristic,random,heuristic " + " ".join(SEARCH),
        "simulate minchiate --games 200 --seed 10 --n-deals 4",
        "simulate minchiate --games 3 --seed 12 --n-deals 2 --policy search " + " ".join(SEARCH),
        "study minchiate options --deals 500 --seed 14",
        "study minchiate strength --deals 12 --seed 16 " + " ".join(SEARCH),
        "replay minchiate --deal 0:8 --seed 17 --json",
        "replay minchiate --deal 2 --seed 17",
        "replay minchiate --deal 0:2 --seed 18 --policy search --json " + " ".join(SEARCH),
    ],
    "rami": [
        "simulate rami --deals 1500 --seed 3",
        "simulate rami --deals 1000 --seed 4 --policy random --players 3",
        "simulate rami --deals 1000 --seed 5 --players 6 --open-threshold 30 --recycle-discards --blocked-tie "
        "next_in_turn",
        "simulate rami --deals 1000 --seed 5 --players 2 --n-jokers 2 --hand-size 14 --freed-joker-use anywhere",
        "simulate rami --deals 15 --seed 8 --players 3 --policy search " + " ".join(SEARCH),
        "simulate rami --deals 15 --seed 8 --policy search,heuristic,random,heuristic " + " ".join(SEARCH),
        "simulate rami --games 100 --seed 10",
        "simulate rami --games 2 --seed 12 --players 2 --policy search,heuristic " + " ".join(SEARCH),
        "study rami threshold --deals 500 --seed 14",
        "study rami options --deals 300 --seed 15",
        "study rami strength --deals 6 --seed 16 --players 2 " + " ".join(SEARCH),
        "replay rami --deal 0:6 --seed 17 --json",
        "replay rami --deal 2 --seed 17",
        "replay rami --deal 0:2 --seed 18 --players 3 --policy search --json " + " ".join(SEARCH),
    ],
    "hearts": [
        "simulate hearts --deals 3000 --seed 3",
        "simulate hearts --deals 2000 --seed 4 --policy random",
        "simulate hearts --deals 2000 --seed 5 --policy heuristic,random,random,heuristic --jd-bonus "
        "--avoid-all-tricks-bonus --pass-direction across",
        "simulate hearts --deals 2000 --seed 6 --no-must-break-hearts --can-lead-any-club --queen-points 20",
        "simulate hearts --deals 60 --seed 8 --policy search " + " ".join(SEARCH),
        "simulate hearts --deals 60 --seed 8 --policy search,heuristic,oracle,random " + " ".join(SEARCH),
        "simulate hearts --games 200 --seed 10",
        "simulate hearts --games 2 --seed 12 --policy search,heuristic,heuristic,heuristic " + " ".join(SEARCH),
        "study hearts passing --deals 2000 --seed 13",
        "study hearts options --deals 300 --seed 15",
        "study hearts strength --deals 8 --seed 16 " + " ".join(SEARCH),
        "replay hearts --deal 0:6 --seed 17 --json",
        "replay hearts --deal 2 --seed 17",
        "replay hearts --game-index 1 --seed 17 --json",
        "replay hearts --deal 0:2 --seed 18 --policy search --json " + " ".join(SEARCH),
    ],
}

VOLATILE = {"versions", "version", "cardlab", "numba", "numpy", "seconds", "elapsed", "started", "finished", "host",
            "wall_seconds", "rate", "elapsed_s", "warmup_s"}


def digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def table_hash(path: Path) -> tuple[str, str, int]:
    """(rows hash, metadata hash, row count) of a Parquet file or dataset written by cardlab."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    if path.is_dir():
        files = sorted(p for p in path.glob("*.parquet"))
        table = ds.dataset([str(f) for f in files], format="parquet").to_table()
        meta_files = sorted(path.glob("*.json"))
        meta = b"".join(f.read_bytes() for f in meta_files)
    else:
        table = pq.read_table(path)
        meta = (pq.read_metadata(path).metadata or {}).get(b"cardlab", b"")
    h = hashlib.sha1()
    for name in table.column_names:
        column = table.column(name).combine_chunks()
        h.update(name.encode() + b"\0" + str(column.type).encode() + b"\0")
        values = column.to_numpy(zero_copy_only=False)
        h.update(values.tobytes() if values.dtype != object else repr(values.tolist()).encode())
    try:
        meta_obj = json.loads(meta) if meta else {}
        meta_obj = {k: v for k, v in meta_obj.items() if k not in VOLATILE}
        meta_text = json.dumps(meta_obj, sort_keys=True, default=str).encode()
    except ValueError:
        meta_text = meta
    return h.hexdigest()[:16], digest(meta_text), table.num_rows


def run(command: str, folder: Path) -> str:
    from cardlab.sim.cli import main

    argv = command.split()
    out = None
    if argv[0] in ("simulate", "study"):
        out = folder / (digest(command.encode()) + ".parquet")
        argv += ["--out", str(out), "--threads", "2"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    if code != 0:
        return f"exit {code}"
    if out is not None:
        rows, meta, n = table_hash(out)
        return f"rows {rows} meta {meta} n {n}"
    return f"printed {digest(printed.getvalue().encode())} lines {printed.getvalue().count(chr(10))}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", choices=sorted(COMMANDS), help="one game's commands")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for game, commands in COMMANDS.items():
            if args.only and game != args.only:
                continue
            for command in commands:
                print(f"{command} => {run(command, Path(tmp))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
