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
