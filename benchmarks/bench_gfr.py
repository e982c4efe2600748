"""GFR throughput: 10,000 topics x 3 runs x 100 docs, two attribute sets (G = 4 and 8).

Prints docs/second for scoring alone (the array API on padded arrays, and `evaluate`
on runs already read) and for the whole CLI path (files in, TSV out), and the ratio
of the array scoring time to one numpy pass over the membership arrays
(``memb.sum(axis=-1)``). Goals: scoring within 30x of that pass; the CLI path at
least 500,000 docs/s.

    python benchmarks/bench_gfr.py [--topics 10000]
"""

import argparse
import os
import tempfile
import time

import numpy as np
from _timing import best_of, succeeds

from fairconv import AttributeSet, gfr, readers
from fairconv.cli import main as cli_main


def write_inputs(folder, n_topics, n_runs, depth, rng):
    """Synthetic qrels (half the docs judged), two gmemb files and n_runs runs."""
    pool = 2 * depth
    topics = np.repeat([f"T{t:05d}" for t in range(n_topics)], pool)
    docs = np.tile([f"doc-{d:04d}-{'x' * 24}" for d in range(pool)], n_topics)
    judged = rng.random(len(docs)) < 0.5
    levels = rng.integers(0, 3, size=len(docs))
    with open(os.path.join(folder, "qrels"), "w") as f:
        f.writelines(
            f"{t} {d} L{lv}\n"
            for t, d, lv in zip(topics[judged], docs[judged], levels[judged], strict=False)
        )
    for name, g in (("A4", 4), ("B8", 8)):
        memb = rng.multinomial(1000, np.full(g, 1 / g), size=int(judged.sum())) / 1000
        # as in the official files, judged-nonrelevant docs are listed as uniform
        memb[levels[judged] == 0] = 1 / g
        with open(os.path.join(folder, f"{name}.gmemb"), "w") as f:
            f.writelines(
                f"{t} {d} " + " ".join(repr(float(x)) for x in row) + "\n"
                for t, d, row in zip(topics[judged], docs[judged], memb, strict=False)
            )
    paths = []
    for r in range(n_runs):
        order = np.argsort(rng.random((n_topics, pool)), axis=1)[:, :depth]
        idx = (np.arange(n_topics)[:, None] * pool + order).ravel()
        path = os.path.join(folder, f"run{r}")
        with open(path, "w") as f:
            f.writelines(
                f"{t} Q0 {d} {k % depth + 1} {depth - k % depth} run{r}\n"
                for k, (t, d) in enumerate(zip(topics[idx], docs[idx], strict=False))
            )
        paths.append(path)
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    args = parser.parse_args()
    n_topics, n_runs, depth = args.topics, 3, 100
    n_docs = n_topics * n_runs * depth
    rng = np.random.default_rng(0)
    sets = [
        AttributeSet("A4", np.full(4, 0.25), "ordinal"),
        AttributeSet("B8", rng.dirichlet(np.ones(8)), "nominal"),
    ]

    levels = rng.integers(0, 3, size=(n_topics, n_runs, depth))
    memb = [rng.dirichlet(np.ones(a.n_groups), size=(n_topics, n_runs, depth)) for a in sets]
    base = best_of(lambda: [m.sum(axis=-1) for m in memb], 3)
    t_arrays = best_of(lambda: gfr.gfr(levels, memb, sets), 3)
    print(
        f"{n_topics} topics x {n_runs} runs x {depth} docs = {n_docs:,} ranked docs, "
        "attribute sets with G = 4 and 8"
    )
    print(f"one numpy pass over the memberships: {base * 1e3:8.1f} ms")
    print(
        f"scoring, array API (gfr.gfr):        {t_arrays * 1e3:8.1f} ms  "
        f"{n_docs / t_arrays:12,.0f} docs/s  {t_arrays / base:5.1f}x the numpy pass "
        f"(goal <= 30x: {'ok' if t_arrays / base <= 30 else 'MISSED'})"
    )

    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        runs = write_inputs(folder, n_topics, n_runs, depth, rng)
        print(f"(wrote the synthetic files in {time.perf_counter() - t0:.1f} s)")
        qrels = readers.read_qrels(os.path.join(folder, "qrels"))
        data = [
            gfr.load_attribute(a.name, os.path.join(folder, f"{a.name}.gmemb"), a.target, a.scale)
            for a in sets
        ]
        read = [readers.read_run(p) for p in runs]
        t_eval = best_of(lambda: gfr.evaluate(qrels, read, data), 2)
        print(
            f"scoring, evaluate() on read runs:    {t_eval * 1e3:8.1f} ms  "
            f"{n_docs / t_eval:12,.0f} docs/s"
        )

        argv = [
            "gfr",
            "--qrels",
            os.path.join(folder, "qrels"),
            "--output",
            os.path.join(folder, "out.tsv"),
        ]
        for a in sets:
            target = ",".join(repr(float(x)) for x in a.target)
            argv += [
                "--attribute",
                a.name,
                os.path.join(folder, f"{a.name}.gmemb"),
                target,
                a.scale,
            ]
        t_cli = best_of(lambda: succeeds(cli_main(argv + runs)), 2)
        size = os.path.getsize(os.path.join(folder, "out.tsv"))
        print(
            f"CLI path (files in, TSV out):        {t_cli * 1e3:8.1f} ms  "
            f"{n_docs / t_cli:12,.0f} docs/s  (goal >= 500,000: "
            f"{'ok' if n_docs / t_cli >= 500_000 else 'MISSED'}; {size / 1e6:.0f} MB of TSV)"
        )


if __name__ == "__main__":
    main()
