"""Independent pieces of array work on a few threads.

numpy releases the GIL inside its loops, so reading several files, joining several
runs or scoring several blocks of topics overlap on the machine's cores. Results come
back in the order of the items, and an error is that of the first failing item in that
order: the outcome is the one a plain loop gives.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

MAX_THREADS = 4
"""At most this many threads (and no more than the machine's cores)."""


def threads() -> int:
    """How many threads :func:`thread_map` uses."""
    return max(1, min(MAX_THREADS, os.cpu_count() or 1))


def thread_map(func: Callable[..., Any], items: Sequence, *more: Sequence, cost=None) -> list:
    """``[func(*args) for args in zip(items, *more)]``, on :func:`threads` threads.

    With ``cost`` (a number per item), the costliest items start first: the pieces of
    large work then overlap with small ones. Results and the error raised are still
    those of the input order.
    """
    args = list(zip(items, *more, strict=True))
    if len(args) <= 1 or threads() == 1:
        return [func(*a) for a in args]
    start = range(len(args)) if cost is None else sorted(range(len(args)), key=lambda i: -cost[i])
    try:
        with ThreadPoolExecutor(max_workers=threads()) as pool:
            futures = {i: pool.submit(func, *args[i]) for i in start}
            return [futures[i].result() for i in range(len(args))]
    finally:
        release_memory()


def thread_imap(func: Callable[..., Any], items: Sequence) -> Iterator:
    """``func(item)`` for each item, in order, computed on :func:`threads` threads.

    At most one result more than there are threads waits to be taken, so memory holds
    a few results, not all. An error is raised when its item's result is reached.
    """
    if len(items) <= 1 or threads() == 1:
        yield from map(func, items)
        return
    with ThreadPoolExecutor(max_workers=threads()) as pool:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(func, item))
            if len(pending) > threads():
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _libc(name: str):
    """The C library's function ``name`` (glibc), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None


_TRIM = _libc("malloc_trim")
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def reuse_freed_memory() -> None:
    """Keep freed memory in the process for reuse (a command-line process's setting).

    glibc gives blocks of 32 MiB and less from its heaps, and keeps up to 1 GiB freed
    at a heap's top instead of giving it back: the pages a step frees are then reused
    by the next one, where fresh pages from the system each cost the kernel a zeroing.
    :func:`release_memory` becomes a no-op. Nothing changes where glibc is absent.
    """
    global _TRIM
    mallopt = _libc("mallopt")
    if mallopt is None:
        return
    if mallopt(_M_MMAP_THRESHOLD, 32 << 20) and mallopt(_M_TRIM_THRESHOLD, 1 << 30):
        _TRIM = None


def release_memory() -> None:
    """Give the pages freed by the threads' work back to the system.

    Each thread allocates from its own glibc arena, and the temporaries freed there
    would otherwise stay in the process until it ends; a no-op where glibc is absent.
    """
    if _TRIM is not None:
        _TRIM(0)
