"""The team of threads that runs `mha.fast`'s work items: the calling thread plus parked threads.

Handing an item to a parked thread costs ~25 us; a ThreadPoolExecutor round
trip cost ~70 us, too much for a 0.5 ms problem.  BLAS is held to one thread
while the team works (two thread pools on two cores fight).  The compiled pass
(`mha.kernel`) releases the GIL, as NumPy and BLAS do, so the threads run at
once.
"""

from __future__ import annotations

import os
import queue
import threading
from functools import lru_cache
from typing import Any, Callable

import numpy as np


@lru_cache(maxsize=1)
def _blas_libraries() -> tuple[Any, ...]:
    """threadpoolctl's handles on the BLAS libraries NumPy loaded, found once (a scan costs ms once torch
    is loaded); setting their thread count directly costs ~2 us, threadpoolctl's limit() ~20 us."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency; stay correct without it
        return ()
    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)


class _OneBlasThread:
    """Hold BLAS to one thread inside the block: our own threads do the parallel work."""

    def __enter__(self) -> None:
        self.saved = []
        for lib in _blas_libraries():
            n = lib.get_num_threads()
            if n != 1:
                lib.set_num_threads(1)
                self.saved.append((lib, n))

    def __exit__(self, *exc: Any) -> None:
        for lib, n in self.saved:
            lib.set_num_threads(n)


@lru_cache(maxsize=1)
def cores() -> int:
    """The cores this process may use (cached: reading them costs ~40 us)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class Team:
    """The calling thread plus n - 1 parked threads that share a list of work items.

    Threads pick the next item as they finish one (largest first is the
    caller's job), so items of unequal cost balance themselves.  The parked
    threads block on a queue between calls and live as long as the process.
    """

    def __init__(self, n: int):
        self.n = max(1, n)
        self._inboxes: list[queue.SimpleQueue] = []
        self._done: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()                 # one call at a time uses the parked threads

    def _start(self) -> None:
        while len(self._inboxes) < self.n - 1:
            inbox: queue.SimpleQueue = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(inbox,), daemon=True, name="mha-worker").start()
            self._inboxes.append(inbox)

    def _serve(self, inbox: queue.SimpleQueue) -> None:
        while True:
            job = inbox.get()
            try:
                job()
                self._done.put(None)
            except BaseException as e:  # handed back to the caller
                self._done.put(e)

    def run(self, fn: Callable[[Any], None], items: list) -> None:
        """fn(item) for every item; the first error is raised in the caller."""
        helpers = min(self.n, len(items)) - 1
        if helpers <= 0 or not self._lock.acquire(blocking=False):   # busy (nested or concurrent call): alone
            with _OneBlasThread():
                for it in items:
                    fn(it)
            return
        try:
            self._start()
            pending = iter(items)
            take = threading.Lock()

            def job() -> None:
                while True:
                    with take:
                        it = next(pending, None)
                    if it is None:
                        return
                    fn(it)

            with _OneBlasThread():
                for inbox in self._inboxes[:helpers]:
                    inbox.put(job)
                error: BaseException | None = None
                try:
                    job()
                except BaseException as e:
                    error = e
                for _ in range(helpers):                 # wait for every helper, even after an error
                    e = self._done.get()
                    error = error or e
            if error is not None:
                raise error
        finally:
            self._lock.release()

    def matmul(self, X: np.ndarray, W: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        """X W + b for X [..., n, d_in] and W [d_in, d_out], rows split across the team."""
        X2 = X.reshape(-1, X.shape[-1])                                   # [rows, d_in]
        out = np.empty((X2.shape[0], W.shape[1]), dtype=np.result_type(X, W))
        step = max(64, -(-X2.shape[0] // self.n))

        def part(r0: int) -> None:
            r1 = min(r0 + step, X2.shape[0])
            np.matmul(X2[r0:r1], W, out=out[r0:r1])
            if b is not None:
                out[r0:r1] += b

        self.run(part, list(range(0, X2.shape[0], step)))
        return out.reshape(X.shape[:-1] + (W.shape[1],))


_TEAMS: dict[int, Team] = {}


def team(n: int | None = None) -> Team:
    """The process's team of n threads (default: one per core)."""
    n = max(1, n or cores())
    if n not in _TEAMS:
        _TEAMS[n] = Team(n)
    return _TEAMS[n]


if hasattr(os, "register_at_fork"):
    # a forked child inherits the teams' objects but not their threads
    os.register_at_fork(after_in_child=_TEAMS.clear)
