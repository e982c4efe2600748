"""Speed and memory of the tests at the scale of a shared task.

Randomised Tukey HSD for 100 systems x 50 topics with B = 10,000, and sign-flip
randomisation tests for all 4,950 pairs of those systems with B = 10,000 (one matrix
product of sign flips by differences per chunk of trials). Prints seconds and the ratio
to one numpy pass, ``a.sum(axis=1)`` over a (B, topics, systems) float array, measured in
the same run (best of 5).

Memory: ``fairconv compare --test paired-t`` and ``fairconv discpower --test paired-t``
over 600 runs x 50 topics (179,700 pairs), each a whole process, against the randomised
Tukey HSD's peak on the same file (goal: at most 100 MB above it); and the bootstrap's
largest block of trials over those pairs, traced (goal: within its documented 64 MB).

    python benchmarks/bench_stats.py [speed|memory]
"""

import os
import subprocess
import sys
import tempfile
import tracemalloc

import numpy as np
from _timing import best_of

from fairconv import stats
from fairconv.stats._pairs import _bootstrap_counts, _pair_blocks

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


_PEAK = """
import resource, sys
from fairconv.cli import main
code = main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def _peak_mb(args) -> float:
    """Peak RSS (MB) of one ``fairconv`` process running ``args``."""
    proc = subprocess.run(
        [sys.executable, "-c", _PEAK, *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def memory(runs: int = 600, topics: int = 50) -> None:
    rng = np.random.default_rng(0)
    x = rng.random((topics, runs))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scores.tsv")
        with open(path, "w") as f:
            f.write("run\ttopic\tmeasure\tvalue\n")
            for j in range(runs):
                f.writelines(f"r{j:03d}\tq{i:02d}\tP\t{float(x[i, j])!r}\n" for i in range(topics))
        out = [os.path.join(tmp, f"out{k}.tsv") for k in range(3)]
        tukey = _peak_mb(["compare", "-m", "P", "--B", "1000", "-o", out[0], path])
        paired = _peak_mb(["compare", "-m", "P", "--test", "paired-t", "-o", out[1], path])
        disc = _peak_mb(["discpower", "-m", "P", "--test", "paired-t", "-o", out[2], path])
    n_pairs = runs * (runs - 1) // 2
    print(f"memory, {runs} runs x {topics} topics ({n_pairs:,} pairs), peak RSS of the process:")
    print(f"  compare --test randomised-tukey --B 1000:  {tukey:7.0f} MB")
    for name, peak in (("compare --test paired-t", paired), ("discpower --test paired-t", disc)):
        above = peak - tukey
        verdict = "ok" if above <= 100 else "missed"
        print(f"  {name:41s} {peak:7.0f} MB  ({above:+.0f} MB; goal <= +100 MB: {verdict})")
    # the bootstrap's block of trials: one block of pairs (as _pairwise takes them),
    # its samples drawn a chunk of trials at a time
    j, k = np.triu_indices(runs, 1)
    _, _, d, mag, _ = next(_pair_blocks(x, j, k))
    tracemalloc.start()
    _bootstrap_counts(d, mag, 200, np.random.default_rng(0), None)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    verdict = "ok" if peak <= 64 * 2**20 else "missed"
    print(
        f"  bootstrap, one block of {d.shape[1]:,} pairs, B = 200, traced peak: "
        f"{peak / 2**20:5.1f} MB (goal <= 64 MB: {verdict})"
    )


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "both"
    if what in ("speed", "both"):
        main()
    if what in ("memory", "both"):
        memory()
