"""Where a run's chunks are played: this process, a ``concurrent.futures`` executor, or a dask cluster.

The runner hands each chunk ``(first, count)`` to :func:`play_task`, a module-level function so
that any executor can ship it to another process. Chunks have fixed boundaries and every deal's
randomness comes from (seed, deal index), so where a chunk runs never changes its rows.

dask is optional (``pip install 'cardlab[dask]'``): ``--scheduler tcp://HOST:PORT`` connects to
a running scheduler, ``--scheduler local:N`` starts a ``LocalCluster`` of N single-threaded
worker processes on this machine, each running the kernels on ``cores // N`` threads.
"""
from __future__ import annotations

import concurrent.futures
import os
import re

import numba

DASK_HINT = "install the dask extra: pip install 'cardlab[dask]'"


def play_task(play_chunk, first: int, count: int, summarize: str | None = None, threads: int | None = None):
    """Play one chunk where the executor runs it; with ``summarize`` (the index column to drop) return its
    :class:`~cardlab.sim.summary.SeatCounter` instead of the rows, so only the counts travel back."""
    if threads:
        numba.set_num_threads(min(int(threads), numba.config.NUMBA_NUM_THREADS))
    columns = play_chunk(first, count)
    if summarize is None:
        return columns
    from cardlab.sim.summary import SeatCounter

    return SeatCounter(summarize).add(columns)


def warm(play_chunk, first: int, threads: int | None = None) -> bool:
    """Compile (or load from the cache) every kernel a chunk needs, by playing one deal."""
    play_task(play_chunk, first, 1, None, threads)
    return True


def is_dask_client(executor) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "scheduler_info")


def slots(executor) -> int:
    """How many chunks the executor plays at once."""
    if is_dask_client(executor):
        workers = executor.scheduler_info().get("workers", {})
        return max(1, sum(w.get("nthreads", 1) for w in workers.values()))
    return max(1, getattr(executor, "_max_workers", None) or os.cpu_count() or 1)


def submit(executor, fn, *args):
    if is_dask_client(executor):
        return executor.submit(fn, *args, pure=False)
    return executor.submit(fn, *args)


def wait_first(futures):
    """The finished futures among ``futures`` (blocks until at least one is)."""
    futures = list(futures)
    if futures and type(futures[0]).__module__.split(".")[0] == "distributed":
        from distributed import wait

        return wait(futures, return_when="FIRST_COMPLETED").done
    return concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED).done


def cancel(futures) -> None:
    for f in futures:
        f.cancel()


def warm_workers(executor, play_chunk, first: int, threads: int | None = None) -> None:
    """Load the kernels once on every dask worker before the fan-out (plain executors warm on first use)."""
    if is_dask_client(executor):
        executor.run(warm, play_chunk, first, threads)


def scatter(executor, play_chunk):
    """Send the chunk function once to every dask worker (tasks then carry a reference, not a copy)."""
    if is_dask_client(executor):
        return executor.scatter(play_chunk, broadcast=True, hash=False)
    return play_chunk


def connect(scheduler: str):
    """A dask client for ``tcp://HOST:PORT`` (a running scheduler) or ``local:N`` (a new LocalCluster).

    Returns ``(client, threads)``: the kernel threads each task should use (None: the worker's default).
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(f"scheduler: {scheduler!r} needs dask.distributed, which is not installed; "
                         f"{DASK_HINT}") from None
    local = re.fullmatch(r"local:(\d+)", scheduler)
    if local:
        n = int(local.group(1))
        if n < 1:
            raise ValueError(f"scheduler: {scheduler!r} is not allowed; local:N needs N >= 1 workers")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), max(1, numba.config.NUMBA_NUM_THREADS // n)
    if not re.fullmatch(r"(tcp|tls|ws|wss|inproc)://\S+", scheduler):
        raise ValueError(f"scheduler: {scheduler!r} is not allowed; give tcp://HOST:PORT or local:N")
    try:
        return Client(scheduler, timeout="10s"), None
    except OSError as err:
        raise ValueError(f"scheduler: cannot reach {scheduler!r} ({err})") from None
