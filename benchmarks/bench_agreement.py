"""Kendall's tau-b for every pair of 100 measures over 1,000 systems.

Times ``fairconv.agreement.correlation_matrix(scores, method="tau_b")`` against a loop
calling ``scipy.stats.kendalltau`` on each of the 4,950 pairs, checks that both give
the same coefficients, and prints both times and their ratio. Goal: at least 5x
faster. Scores are drawn with ties (rounded to 3 decimals) and without.

    python benchmarks/bench_agreement.py [--measures 100] [--systems 1000] [--repeat 3]
"""

import argparse
import itertools

import numpy as np
import scipy.stats
from _timing import best_of

from fairconv.agreement import correlation_matrix

GOAL = 5.0


def scipy_pairs(scores):
    m = len(scores)
    out = np.eye(m)
    for a, b in itertools.combinations(range(m), 2):
        out[a, b] = out[b, a] = scipy.stats.kendalltau(scores[a], scores[b]).statistic
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measures", type=int, default=100)
    parser.add_argument("--systems", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    pairs = args.measures * (args.measures - 1) // 2
    print(f"tau-b for {pairs} pairs of {args.measures} measures over {args.systems} systems")
    print(f"{'scores':<10}{'fairconv s':>12}{'scipy s':>10}{'speed-up':>10}  goal >= {GOAL:g}x")
    worst = float("inf")
    for label, ties in (("no ties", False), ("ties", True)):
        scores = rng.random((args.measures, args.systems))
        if ties:
            scores = scores.round(3)
        ours = correlation_matrix(scores, method="tau_b").statistic
        reference = scipy_pairs(scores)
        gap = float(np.abs(ours - reference).max())
        if gap > 1e-12:
            raise SystemExit(f"fairconv and scipy differ by {gap:.3g}")
        t_ours = best_of(lambda s=scores: correlation_matrix(s, method="tau_b"), args.repeat)
        t_scipy = best_of(lambda s=scores: scipy_pairs(s), 1)
        ratio = t_scipy / t_ours
        worst = min(worst, ratio)
        mark = "met" if ratio >= GOAL else "MISSED"
        print(f"{label:<10}{t_ours:12.3f}{t_scipy:10.3f}{ratio:9.1f}x  {mark}")
    print(f"largest difference from scipy <= 1e-12; slowest speed-up {worst:.1f}x")


if __name__ == "__main__":
    main()
