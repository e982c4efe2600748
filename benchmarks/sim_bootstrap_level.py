"""The paired bootstrap test's rejection rate at nominal 5% under the null hypothesis.

Normal per-topic differences (mean 0) for n = 3, 4, 5, 8 and 20 topics; 20 chunks of
1,000 data sets per n, each chunk with its own trials (B = 1,000), as one call of the
test over many pairs draws them. Prints the rate and its standard error; the figures
are those of docs/statistics.md, "How many topics" (the test refuses n < 4).

    python benchmarks/sim_bootstrap_level.py
"""

import numpy as np

from fairconv.stats._common import _p_values
from fairconv.stats._pairs import _bootstrap_counts

B, CHUNKS, PER_CHUNK, ALPHA = 1000, 20, 1000, 0.05


def main():
    for n in (3, 4, 5, 8, 20):
        rejected = 0
        for c in range(CHUNKS):
            d = np.random.default_rng([n, c]).standard_normal((n, PER_CHUNK))
            counts, _ = _bootstrap_counts(d, np.abs(d), B, np.random.default_rng([n, c, 1]), None)
            rejected += int((_p_values(counts, B, False) < ALPHA).sum())
        total = CHUNKS * PER_CHUNK
        rate = rejected / total
        se = np.sqrt(rate * (1 - rate) / total)
        print(f"{n:3d} topics: {100 * rate:5.2f}% +- {100 * se:.2f} (nominal {100 * ALPHA:g}%)")


if __name__ == "__main__":
    main()
