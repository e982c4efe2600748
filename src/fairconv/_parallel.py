"""Independent pieces of array work on a few threads.

numpy releases the GIL inside its loops, so reading several files, joining several
runs or scoring several blocks of topics overlap on the machine's cores. Results come
back in the order of the items, and an error is that of the first failing item in that
order: the outcome is the one a plain loop gives.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

MAX_THREADS = 4
"""At most this many threads (and no more than the machine's cores)."""


def threads() -> int:
    """How many threads :func:`thread_map` uses."""
    return max(1, min(MAX_THREADS, os.cpu_count() or 1))


def thread_map(func: Callable[..., Any], items: Sequence, *more: Sequence) -> list:
    """``[func(*args) for args in zip(items, *more)]``, on :func:`threads` threads."""
    args = list(zip(items, *more, strict=True))
    if len(args) <= 1 or threads() == 1:
        return [func(*a) for a in args]
    with ThreadPoolExecutor(max_workers=threads()) as pool:
        futures = [pool.submit(func, *a) for a in args]
        return [f.result() for f in futures]
