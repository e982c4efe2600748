"""RIGF and ADsim throughput: 100,000 topics, one run of 20 retrieved docs each, two
attribute sets (G = 4 and 8), one generated answer of 1-3 entities per topic.

Prints topics/second for ``ragfair.evaluate`` and for ``gfr.evaluate`` alone on the same
retrieval lists (both on files already read), and their ratio. Goal: ragfair within 2x
of gfr alone.

    python benchmarks/bench_ragfair.py [--topics 100000]
"""

import argparse
import json
import os
import tempfile

import numpy as np
from _timing import best_of
from bench_gfr import write_inputs

from fairconv import AttributeSet, gfr, ragfair
from fairconv.io import load_attribute, read_answers, read_qrels, read_run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=100_000)
    args = parser.parse_args()
    n, depth = args.topics, 20
    rng = np.random.default_rng(0)
    sets = [
        AttributeSet("A4", np.full(4, 0.25), "ordinal"),
        AttributeSet("B8", rng.dirichlet(np.ones(8)), "nominal"),
    ]
    with tempfile.TemporaryDirectory() as folder:
        (run_path,) = write_inputs(folder, n, 1, depth, rng)
        with open(os.path.join(folder, "answers.jsonl"), "w") as f:
            for t in range(n):
                k = int(rng.integers(1, 4))
                ents = [
                    {
                        "level": int(rng.integers(0, 3)),
                        "groups": {
                            "A4": np.eye(4)[rng.integers(4)].tolist(),
                            "B8": np.eye(8)[rng.integers(8)].tolist(),
                        },
                    }
                    for _ in range(k)
                ]
                f.write(json.dumps({"topic": f"T{t:05d}", "run": "run0", "entities": ents}) + "\n")
        qrels = read_qrels(os.path.join(folder, "qrels"))
        data = [
            load_attribute(a.name, os.path.join(folder, f"{a.name}.gmemb"), a.target, a.scale)
            for a in sets
        ]
        runs = [read_run(run_path)]
        answers = read_answers(os.path.join(folder, "answers.jsonl"), sets)
        t_gfr = best_of(lambda: gfr.evaluate(qrels, runs, data, cutoffs=[depth]), 2)
        t_rag = best_of(lambda: ragfair.evaluate(qrels, runs, data, answers, cutoff=depth), 2)
    print(f"{n:,} topics x 1 run x {depth} docs, attribute sets with G = 4 and 8")
    print(f"gfr.evaluate alone:     {t_gfr * 1e3:8.1f} ms  {n / t_gfr:12,.0f} topics/s")
    print(
        f"ragfair.evaluate:       {t_rag * 1e3:8.1f} ms  {n / t_rag:12,.0f} topics/s  "
        f"{t_rag / t_gfr:4.2f}x gfr alone (goal <= 2x: {'ok' if t_rag / t_gfr <= 2 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
