"""Independent pieces of array work on a few threads.

numpy releases the GIL inside its loops, so reading several files, joining several
runs or scoring several blocks of topics overlap on the machine's cores. Results come
back in the order of the items, and an error is that of the first failing item in that
order: the outcome is the one a plain loop gives.

Each task runs in a copy of the caller's :mod:`contextvars` context, so an error raised
on a worker names the public function the user called, as on the caller's thread.

How many threads: the caller's ``n_jobs`` (:func:`resolve_n_jobs`). One thread is the
caller's own: ``n_jobs=1`` starts none. Every pool is shut down before the call that
made it returns, so no thread outlives the call. Nothing here changes the process: no
allocator setting, no thread count of another library.
"""

from __future__ import annotations

import contextvars
import functools
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._validation import _short, fail

ENVIRONMENT = "FAIRCONV_THREADS"
"""The environment variable that sets the threads when ``n_jobs`` is None."""

_RULE = "be an integer >= 1, or -1 for all available cores"


def available_cores() -> int:
    """The cores this process may run on.

    ``os.process_cpu_count()`` where it exists (Python 3.13), else the size of the
    process's CPU affinity mask, else ``os.cpu_count()``; at least 1.
    """
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        n = count()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)


def resolve_n_jobs(n_jobs=None) -> int:
    """The threads a call uses, from its ``n_jobs`` parameter.

    None: the value of the environment variable ``FAIRCONV_THREADS`` when it is set
    (and not empty), else every available core (:func:`available_cores`). An integer
    >= 1: that many (1 starts no thread). -1: every available core.

    Raises
    ------
    ValueError
        For anything else (0, -2, a bool, a float, a string), naming ``n_jobs`` of
        the public function called, or ``FAIRCONV_THREADS`` when its value is the bad
        one.
    """
    if n_jobs is None:
        text = os.environ.get(ENVIRONMENT, "")
        if not text:
            return available_cores()
        value = text.strip()
        n_jobs = int(value) if re.fullmatch("-?[0-9]{1,9}", value) else 0
        if n_jobs == 0 or n_jobs < -1:
            raise ValueError(
                f"The environment variable {ENVIRONMENT} must {_RULE}. Got {text!r} instead."
            )
    elif (
        isinstance(n_jobs, (bool, np.bool_))
        or not isinstance(n_jobs, (int, np.integer))
        or n_jobs == 0
        or n_jobs < -1
    ):
        raise fail(
            "n_jobs",
            f"{_RULE} (or None: {ENVIRONMENT}, else every available core)",
            _short(repr(n_jobs)),
        )
    return available_cores() if n_jobs == -1 else int(n_jobs)


def thread_map(
    func: Callable[..., Any], items: Sequence, *more: Sequence, cost=None, n_jobs=None
) -> list:
    """``[func(*args) for args in zip(items, *more)]``, on ``n_jobs`` threads.

    With ``cost`` (a number per item), the costliest items start first: the pieces of
    large work then overlap with small ones. Results and the error raised are still
    those of the input order; once an item has failed, the items not yet started are
    cancelled. The pool is shut down before this returns.
    """
    args = list(zip(items, *more, strict=True))
    workers = min(resolve_n_jobs(n_jobs), len(args))
    if workers <= 1:
        return [func(*a) for a in args]
    start = range(len(args)) if cost is None else sorted(range(len(args)), key=lambda i: -cost[i])
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = {i: pool.submit(_in_context(func), *args[i]) for i in start}
        return [futures[i].result() for i in range(len(args))]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _in_context(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, run in a copy of the caller's context.

    Errors in a worker then name the public function the user called. One copy per
    task: a context is entered by one thread at a time.
    """
    return functools.partial(contextvars.copy_context().run, func)
