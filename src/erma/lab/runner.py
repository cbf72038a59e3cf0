"""The runner (运行器) of long experiments: walls in shards, on local processes or as Ray tasks.

An experiment is a *shard function* ``fn(config, walls) -> list[result]``: a top-level (picklable) function
that plays the walls whose indices it is given and returns one mergeable result per wall, in the order
given. Everything a wall does must follow from ``config`` and the wall's index (its seed is derived from
the run's seed and the index, its bots' seeds from the seed, the index and the seat), so a wall's result
does not depend on which shard, process or machine played it. :func:`run_walls` therefore returns the same
list — results ordered by wall index — for any number of workers and for local or Ray runs.

- ``workers=1``: in this process; ``workers=K``: K local processes (``concurrent.futures``);
  ``cluster="ray://HOST:PORT"`` (Ray Client), ``"HOST:PORT"`` or ``"auto"`` (join a running cluster):
  Ray tasks (the ``erma[ray]`` extra, imported only then); ``cluster="local"``: a Ray instance started in
  this process with ``workers`` CPUs.
- A shard that raises is run again, up to ``retries`` more times (on Ray, by Ray's own task retries); a
  worker process that dies breaks the local pool, which is rebuilt and the unfinished shards sent again.
- ``progress(done, total)`` is called in this process with the walls completed so far.

>>> run_walls(_double, 3, 5, shard_size=2)
[0, 3, 6, 9, 12]
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from erma.errors import ErmaError

C = TypeVar("C")
R = TypeVar("R")

ShardFn = Callable[[C, Sequence[int]], list[R]]
Progress = Callable[[int, int], None]


class RunnerError(ErmaError):
    """A run could not be completed (a shard failed on every attempt, or the cluster is unreachable)."""


@dataclass(frozen=True, slots=True)
class Shard:
    """A contiguous range of wall indices ``[start, stop)``."""

    start: int
    stop: int

    @property
    def walls(self) -> range:
        """The wall indices of the shard."""
        return range(self.start, self.stop)


def shards(walls: int, size: int) -> list[Shard]:
    """Split ``walls`` walls into consecutive shards of ``size`` (the last one shorter).

    >>> [(s.start, s.stop) for s in shards(5, 2)]
    [(0, 2), (2, 4), (4, 5)]
    """
    return [Shard(i, min(i + size, walls)) for i in range(0, walls, size)]


def default_shard_size(walls: int, workers: int) -> int:
    """About eight shards per worker (even load, frequent progress), at most 200 walls a shard.

    >>> default_shard_size(1000, 2), default_shard_size(10, 4), default_shard_size(100_000, 1)
    (63, 1, 200)
    """
    return max(1, min(200, math.ceil(walls / (8 * max(1, workers)))))


def _double(config: int, walls: Sequence[int]) -> list[int]:
    """A toy shard function (for the doctest): each wall's result is its index times ``config``."""
    return [config * w for w in walls]


@dataclass
class _Job(Generic[C, R]):
    fn: ShardFn[C, R]
    config: C
    total: int
    retries: int
    progress: Progress | None
    results: list[Any]
    done: int = 0

    def finish(self, shard: Shard, got: list[R]) -> None:
        if len(got) != len(shard.walls):
            raise RunnerError(
                f"shard {shard.start}–{shard.stop - 1}: {len(got)} results for {len(shard.walls)} walls"
            )
        self.results[shard.start : shard.stop] = got
        self.done += len(got)
        if self.progress is not None:
            self.progress(self.done, self.total)

    def failed(self, shard: Shard, exc: BaseException) -> RunnerError:
        return RunnerError(
            f"walls {shard.start}–{shard.stop - 1} failed {self.retries + 1} times; last error: "
            f"{type(exc).__name__}: {exc}"
        )


def run_walls(
    fn: ShardFn[C, R],
    config: C,
    walls: int,
    *,
    workers: int = 1,
    cluster: str | None = None,
    shard_size: int | None = None,
    retries: int = 2,
    progress: Progress | None = None,
) -> list[R]:
    """Play walls ``0 … walls-1`` with ``fn`` and return their results in wall order."""
    if walls < 0:
        raise RunnerError(f"walls must be ≥ 0, not {walls}")
    if workers < 1:
        raise RunnerError(f"--workers {workers}: at least 1")
    size = shard_size or default_shard_size(walls, workers)
    job: _Job[C, R] = _Job(fn, config, walls, retries, progress, [None] * walls)
    todo = shards(walls, size)
    if progress is not None:
        progress(0, walls)
    if cluster is not None:
        _run_ray(job, todo, cluster, workers)
    elif workers == 1:
        _run_here(job, todo)
    else:
        _run_pool(job, todo, workers)
    return job.results


def _run_here(job: _Job[C, R], todo: list[Shard]) -> None:
    for shard in todo:
        for attempt in range(job.retries + 1):
            try:
                got = job.fn(job.config, shard.walls)
            except Exception as exc:
                if attempt == job.retries:
                    raise job.failed(shard, exc) from exc
            else:
                job.finish(shard, got)
                break


def _context() -> multiprocessing.context.BaseContext:
    # forkserver: workers start from a clean process (no threads of ours, such as a progress bar's, copied)
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _run_pool(job: _Job[C, R], todo: list[Shard], workers: int) -> None:
    attempts = dict.fromkeys(todo, 0)
    pending = list(todo)
    while pending:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
            running: dict[Future[list[R]], Shard] = {
                pool.submit(job.fn, job.config, s.walls): s for s in pending
            }
            pending = []
            broken = False
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    shard = running.pop(fut)
                    exc = fut.exception()
                    if exc is None:
                        job.finish(shard, fut.result())
                        continue
                    attempts[shard] += 1
                    if attempts[shard] > job.retries:
                        for other in running:
                            other.cancel()
                        raise job.failed(shard, exc) from exc
                    if isinstance(exc, BrokenProcessPool):
                        broken = True
                    if broken:
                        pending.append(shard)  # the pool is gone: sent again to a new one
                    else:
                        running[pool.submit(job.fn, job.config, shard.walls)] = shard


def _probe(cluster: str) -> None:
    """Fail in seconds, with one line, when a ``HOST:PORT`` or ``ray://HOST:PORT`` address does not answer
    (Ray itself retries for minutes)."""
    host, sep, port = cluster.removeprefix("ray://").rpartition(":")
    if cluster in ("auto", "local") or not sep or not port.isdigit():
        return
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise RunnerError(f"--cluster {cluster}: nothing answers at {host}:{port} ({exc})") from None


def _run_ray(job: _Job[C, R], todo: list[Shard], cluster: str, workers: int) -> None:
    try:
        import ray
    except ImportError:
        raise RunnerError("--cluster needs Ray: pip install 'erma[ray]'") from None
    if not ray.is_initialized():
        _probe(cluster)
        # "local": a Ray instance of this process with ``workers`` CPUs (to measure Ray's own overhead)
        local = (
            {"num_cpus": workers, "include_dashboard": False} if cluster == "local" else {"address": cluster}
        )
        try:
            ray.init(**local, log_to_driver=False, logging_level="warning")  # type: ignore[arg-type]
        except Exception as exc:  # ConnectionError, or Ray's own errors for a bad address
            raise RunnerError(f"--cluster {cluster}: cannot connect ({type(exc).__name__}: {exc})") from None
    remote = ray.remote(max_retries=job.retries, retry_exceptions=True)(job.fn)
    config = ray.put(job.config)
    running = {remote.remote(config, list(s.walls)): s for s in todo}
    while running:
        ready, _ = ray.wait(list(running), num_returns=1)
        for ref in ready:
            shard = running.pop(ref)
            try:
                got = ray.get(ref)
            except Exception as exc:
                for other in running:
                    ray.cancel(other)
                raise job.failed(shard, exc) from exc
            job.finish(shard, got)
