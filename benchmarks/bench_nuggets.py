"""nuggetizer scores: 20 runs x 1,000 topics, 0-40 nuggets a topic (about 400,000).

Prints, measured in one run: the bare reading (the standard library's ``json.loads`` of
each line), ``read_nuggetizer`` + ``nuggetizer_scores`` (the whole API route), the
command line on the same files (a whole process, TSV included, best of 2), and a plain
loop over records and nuggets written from the definition (nuggetizer's own way of
scoring, on the decoded records). Every route's scores are checked to be equal.

    python benchmarks/bench_nuggets.py [--runs 20] [--topics 1000]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from _timing import best_of, succeeds

from fairconv import nuggets

IMPORTANCE = ["vital", "okay"]
ASSIGNMENT = ["support", "partial_support", "not_support"]


def write_runs(folder, n_runs, n_topics, rng):
    paths = []
    for r in range(n_runs):
        path = os.path.join(folder, f"run{r:02d}.jsonl")
        with open(path, "w") as f:
            for t in range(n_topics):
                k = int(rng.integers(0, 41))
                imp = rng.integers(0, 2, k)
                ass = rng.integers(0, 3, k)
                ns = [
                    {
                        "text": f"nugget {t}-{j}",
                        "importance": IMPORTANCE[i],
                        "assignment": ASSIGNMENT[a],
                    }
                    for j, (i, a) in enumerate(zip(imp, ass, strict=True))
                ]
                rec = {"query": f"query {t}", "qid": f"{t}", "answer_text": "an answer",
                       "response_length": 10, "run_id": f"run{r:02d}", "nuggets": ns}  # fmt: skip
                f.write(json.dumps(rec) + "\n")
        paths.append(path)
    return paths


def bare(paths):
    for p in paths:
        with open(p, encoding="utf-8") as f:
            [json.loads(line) for line in f]


def api(paths):
    return nuggets.nuggetizer_scores([nuggets.read_nuggetizer(p) for p in paths])


def decoded(paths):
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            out += [json.loads(line) for line in f]
    return out


def plain_loop(paths):
    """Read each line, then score as :func:`loop_scores`."""
    return loop_scores(decoded(paths))


def loop_scores(records):
    """Per record and nugget, as nuggetizer's calculate_nugget_scores; means per run."""
    rows_of = {}
    for rec in records:
        rows = rows_of.setdefault(rec["run_id"], [])
        ns = rec["nuggets"]
        vital = [n for n in ns if n["importance"] == "vital"]
        sv = sum(1 for n in vital if n["assignment"] == "support")
        sa = sum(1 for n in ns if n["assignment"] == "support")
        pv = sv + sum(0.5 for n in vital if n["assignment"] == "partial_support")
        pa = sa + sum(0.5 for n in ns if n["assignment"] == "partial_support")
        rows.append(
            (
                sv / len(vital) if vital else 0.0,
                sa / len(ns) if ns else 0.0,
                pv / len(vital) if vital else 0.0,
                pa / len(ns) if ns else 0.0,
            )
        )
    return {
        run: [statistics.mean(c) for c in zip(*rows, strict=True)] for run, rows in rows_of.items()
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--topics", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        paths = write_runs(folder, args.runs, args.topics, rng)
        size = sum(os.path.getsize(p) for p in paths)
        table = api(paths)
        want = plain_loop(paths)
        for run, means in want.items():
            assert [table.value(run, "all", m) for m in nuggets.NUGGETIZER_MEASURES] == means
        n_nuggets = sum(int(nuggets.read_nuggetizer(p).counts[:, 3].sum()) for p in paths)
        t_bare = best_of(lambda: bare(paths), 2)
        t_api = best_of(lambda: api(paths), 2)
        t_loop = best_of(lambda: plain_loop(paths), 2)
        records = decoded(paths)
        t_mem = best_of(lambda: nuggets.nuggetizer_scores(nuggets.read_nuggetizer(records)), 2)
        t_mem_loop = best_of(lambda: loop_scores(records), 2)
        out = os.path.join(folder, "scores.tsv")
        argv = [sys.executable, "-m", "fairconv", "nuggets", "--input-format", "nuggetizer"]
        cli = []
        for _ in range(2):
            if os.path.exists(out):
                os.remove(out)
            t0 = time.perf_counter()
            succeeds(subprocess.run([*argv, "-o", out, *paths]).returncode)
            cli.append(time.perf_counter() - t0)
    n_records = args.runs * args.topics
    print(f"{args.runs} runs x {args.topics:,} topics, {n_nuggets:,} nuggets, {size / 1e6:.1f} MB")
    print(f"bare reading (json.loads per line)   {t_bare:7.3f} s")
    print(f"read_nuggetizer + nuggetizer_scores  {t_api:7.3f} s  ({t_api / t_bare:.2f}x bare)")
    print(f"fairconv nuggets (whole process)     {min(cli):7.3f} s")
    print(f"plain loop (read and score)          {t_loop:7.3f} s  ({t_loop / t_api:.2f}x the API)")
    print("on the decoded records (no JSON):")
    print(f"read_nuggetizer + nuggetizer_scores  {t_mem:7.3f} s")
    print(f"plain loop                           {t_mem_loop:7.3f} s  ({t_mem_loop / t_mem:.2f}x)")
    print(
        f"throughput: {n_nuggets / t_api / 1e6:.2f} M nuggets/s, {n_records / t_api:,.0f} records/s"
    )


if __name__ == "__main__":
    main()
