"""GFRC2 throughput: 100,000 synthetic conversations of ~1,000 words, ~20 nuggets each,
two attribute sets.

Prints conversations/second for scoring alone (``gfrc2_arrays`` on a batch) and for
the CLI path (JSON Lines in, TSV out), and the ratio of scoring time to one numpy pass
over the nugget arrays (``groups.sum(axis=-1)`` of each attribute set). Goal: scoring
within 30x of that pass.

    python benchmarks/bench_gfrc2.py [--conversations 100000]
"""

import argparse
import os
import tempfile

import numpy as np
from _conversations import attributes_json, synthetic_batch, write_jsonl
from _timing import best_of, succeeds

from fairconv import gfrc2
from fairconv.cli import main as cli_main


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    args = parser.parse_args()
    batch = synthetic_batch(args.conversations, np.random.default_rng(0))
    n = len(batch)
    base = best_of(lambda: [g.sum(axis=-1) for g in batch.groups.values()], 3)
    print(f"{n:,} conversations, {batch.n_nuggets:,} nuggets, attribute sets with G = 4 and 3")
    print(f"one numpy pass over the nugget arrays: {base * 1e3:8.1f} ms")
    t = best_of(lambda: gfrc2.gfrc2_arrays(batch), 3)
    print(f"scoring:                               {t * 1e3:8.1f} ms  {n / t:12,.0f} conv/s  "
          f"{t / base:5.1f}x the numpy pass (goal <= 30x: {'ok' if t / base <= 30 else 'MISSED'})")
    with tempfile.TemporaryDirectory() as folder:
        data, attrs = os.path.join(folder, "c.jsonl"), os.path.join(folder, "a.json")
        write_jsonl(batch, data)
        attributes_json(attrs)
        out = os.path.join(folder, "out.tsv")
        t = best_of(lambda: succeeds(cli_main(["gfrc2", "--attributes", attrs, "-o", out, data])), 1)
        print(f"CLI path (JSON Lines in, TSV out):      {t * 1e3:8.1f} ms  {n / t:12,.0f} conv/s "
              f"({os.path.getsize(data) / 1e6:.0f} MB in)")


if __name__ == "__main__":
    main()
