"""Small timing helper shared by the benchmark scripts."""

import time


def best_of(func, repeat=5):
    """Best wall time of ``repeat`` calls (after one warm-up call), in seconds."""
    func()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def succeeds(status):
    """Stop the benchmark when a CLI call fails (its message is already on stderr)."""
    if status != 0:
        raise SystemExit(f"the command failed with status {status}")
