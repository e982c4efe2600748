"""Work on threads gives the results and the error of a plain loop."""

import pytest

from fairconv._accel import _threads as _parallel


@pytest.fixture(autouse=True)
def two_threads(monkeypatch):
    monkeypatch.setattr(_parallel, "threads", lambda: 2)


def test_results_come_in_input_order_whatever_starts_first():
    items = list(range(12))
    cost = [(7 * i) % 5 for i in items]
    assert _parallel.thread_map(lambda x: x * x, items, cost=cost) == [x * x for x in items]


def test_the_error_is_that_of_the_first_failing_item_in_input_order():
    def fail_odd(x):
        if x % 2:
            raise ValueError(f"item {x}")
        return x

    # the costliest failing item (7) starts first; item 1 fails first in input order
    cost = [0, 0, 0, 0, 0, 0, 0, 9]
    with pytest.raises(ValueError, match="item 1"):
        _parallel.thread_map(fail_odd, list(range(8)), cost=cost)


def test_imap_yields_in_order_and_holds_few_results():
    import threading
    import time

    started = []
    lock = threading.Lock()

    def square(x):
        with lock:
            started.append(x)
        time.sleep(0.002 * ((7 * x) % 3))  # items finish out of order
        return x * x

    got = []
    for x in _parallel.thread_imap(square, range(10)):
        got.append(x)
        with lock:  # never more than threads() + 1 items ahead of the consumer
            assert len(started) <= len(got) + 2
    assert got == [x * x for x in range(10)]


def test_imap_raises_the_error_of_the_first_failing_item_when_reached():
    def fail_from_3(x):
        if x >= 3:
            raise ValueError(f"item {x}")
        return x

    got = []
    with pytest.raises(ValueError, match="item 3"):
        for x in _parallel.thread_imap(fail_from_3, range(8)):
            got.append(x)
    assert got == [0, 1, 2]


def test_the_program_keeps_freed_memory_for_reuse():
    """In a process of its own (the setting is the process's): glibc's heaps then serve
    and keep blocks up to 32 MiB, and the explicit trims stop."""
    import subprocess
    import sys

    code = (
        "from fairconv._accel import _threads as _parallel\n"
        "had = _parallel._TRIM is not None\n"
        "_parallel.reuse_freed_memory()\n"
        "print(had, _parallel._TRIM is None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    had, trims_stopped = out.stdout.split()
    assert had == str(_parallel._libc("malloc_trim") is not None)
    if _parallel._libc("mallopt") is not None:
        assert trims_stopped == "True"
