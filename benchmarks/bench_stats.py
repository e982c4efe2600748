"""Speed of the randomised tests at the scale of a shared task.

Randomised Tukey HSD for 100 systems x 50 topics with B = 10,000, and sign-flip
randomisation tests for all 4,950 pairs of those systems with B = 10,000 (one matrix
product of sign flips by differences per chunk of trials). Prints seconds and the ratio
to one numpy pass, ``a.sum(axis=1)`` over a (B, topics, systems) float array, measured in
the same run (best of 5).

    python benchmarks/bench_stats.py
"""

import numpy as np
from _timing import best_of

from fairconv import stats

B, TOPICS, SYSTEMS = 10_000, 50, 100


def main():
    rng = np.random.default_rng(0)
    scores = rng.random((TOPICS, SYSTEMS))
    a = rng.random((B, TOPICS, SYSTEMS))
    base = best_of(lambda: a.sum(axis=1))
    tukey = best_of(lambda: stats.randomised_tukey_hsd(scores, n_resamples=B, seed=1), 3)
    pairs = best_of(
        lambda: stats.discriminative_power(scores, test="randomisation", n_resamples=B, seed=1),
        3,
    )
    print(f"{SYSTEMS} systems x {TOPICS} topics, B = {B:,}")
    print(f"one numpy pass (a.sum(axis=1), {B:,} x {TOPICS} x {SYSTEMS}): {base * 1e3:8.1f} ms")
    ratio = tukey / base
    verdict = "ok" if ratio <= 40 else "missed"
    print(
        f"randomised Tukey HSD:                 {tukey:8.2f} s   {ratio:5.1f}x the pass "
        f"(goal <= 40x: {verdict})"
    )
    n_pairs = SYSTEMS * (SYSTEMS - 1) // 2
    verdict = "ok" if pairs < 10 else "missed"
    print(
        f"randomisation tests, all {n_pairs:,} pairs: {pairs:8.2f} s   "
        f"{pairs / base:5.1f}x the pass (goal < 10 s: {verdict})"
    )


if __name__ == "__main__":
    main()
