"""GFR from DataFrames and dicts beside the CLI on files and ir_measures on the frames.

The workload of ``bench_gfr.py`` (10,000 topics x 3 runs x 100 docs, two attribute
sets of 4 and 8 groups), written by its generator and read into the DataFrames a
notebook user holds: qrels ``query_id, doc_id, relevance``; runs ``query_id, doc_id,
score``; memberships ``query_id, doc_id, g0..``; ids of object dtype (``read_csv``'s
strings before pandas 3). Then, in one run:

- frames to a ScoreTable: both ``load_attribute`` calls and ``gfr.evaluate``, cutoffs
  10, 20 and 100 (in-memory runs are ranked by score);
- ``fairconv gfr --order score`` on the files as a whole process (start-up, reading,
  scoring and the TSV output), with the extras this environment has;
- ir_measures' nDCG@20 on the same frames (``pip install ir-measures
  pytrec-eval-terrier``), when installed;
- the same inputs as dicts in pytrec_eval's shape (``{query_id: {doc_id: value}}``).

Each route runs twice, the routes alternating, and its best time is printed (the
machine may be shared). Goals: the frames no slower than the files, and ir_measures
taking at least 2x the frames' time.

    python benchmarks/bench_frames.py [--topics 10000]
"""

import argparse
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import time

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_gfr import SETS, fairconv_argv, timed, workload_paths  # noqa: E402

CUTOFFS = (10, 20, 100)


def frames_of(paths):
    """The workload's files as DataFrames with object ids (not timed)."""

    def table(path, names):
        frame = pd.read_csv(path, sep=" ", header=None, names=names, dtype=str)
        return frame.astype(object)

    qrels = table(paths["trec_qrels"], ["query_id", "iteration", "doc_id", "relevance"])
    qrels = qrels[["query_id", "doc_id"]].assign(relevance=qrels["relevance"].astype(int))
    runs = {}
    for path in paths["runs"]:
        run = table(path, ["query_id", "q0", "doc_id", "rank", "score", "tag"])
        name = run["tag"].iloc[0]
        runs[name] = run[["query_id", "doc_id"]].assign(score=run["score"].astype(float))
    memberships = {}
    for name, g, _ in SETS:
        groups = [f"g{k}" for k in range(g)]
        m = table(paths[name], ["query_id", "doc_id", *groups])
        memberships[name] = m.astype({c: float for c in groups})
    return qrels, runs, memberships


def dicts_of(qrels, runs, memberships):
    """The same inputs in pytrec_eval's shape (not timed)."""

    def nested(frame, value):
        out: dict = {}
        for t, d, v in zip(frame["query_id"], frame["doc_id"], value, strict=True):
            out.setdefault(t, {})[d] = v
        return out

    q = nested(qrels, qrels["relevance"].tolist())
    r = {name: nested(run, run["score"].tolist()) for name, run in runs.items()}
    m = {}
    for name, frame in memberships.items():
        m[name] = nested(frame, frame.iloc[:, 2:].to_numpy().tolist())
    return q, r, m


def fairconv_in_memory(qrels, runs, memberships):
    """Seconds from in-memory inputs to a ScoreTable, and the table."""
    from fairconv import gfr
    from fairconv.io import load_attribute

    t0 = time.perf_counter()
    attributes = [
        load_attribute(name, memberships[name], [1 / g] * g, scale) for name, g, scale in SETS
    ]
    table = gfr.evaluate(qrels, runs, attributes, cutoffs=CUTOFFS)
    return time.perf_counter() - t0, table


def ir_measures_time(qrels, runs):
    """Seconds of ir_measures' nDCG@20 over every run (per-topic values consumed)."""
    import ir_measures

    measure = ir_measures.nDCG @ 20
    t0 = time.perf_counter()
    for run in runs.values():
        for _ in ir_measures.iter_calc([measure], qrels, run):
            pass
    return time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bench_gfr = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_gfr.py")
        generate = [sys.executable, bench_gfr, "--generate", folder, "--topics", str(args.topics)]
        subprocess.run(generate, check=True)
        paths, size = workload_paths(folder)
        qrels, runs, memberships = frames_of(paths)
        n_docs = sum(len(r) for r in runs.values())
        print(
            f"{args.topics:,} topics x {len(runs)} runs: {n_docs:,} ranked docs, "
            f"{len(qrels):,} judgments, {size / 2**20:.0f} MiB as files; ids of object dtype"
        )
        out = os.path.join(folder, "out.tsv")
        argv = [sys.executable, "-m", "fairconv", *fairconv_argv(paths, out)]
        argv += ["--order", "score", "--cutoffs", ",".join(map(str, CUTOFFS))]
        q_dict, r_dict, m_dict = dicts_of(qrels, runs, memberships)
        have_ir_measures = importlib.util.find_spec("ir_measures") is not None
        best = {"frames": math.inf, "dicts": math.inf, "files": math.inf, "ir": math.inf}
        for _ in range(2):  # each route twice, alternating, best of 2: the machine is shared
            seconds, table = fairconv_in_memory(qrels, runs, memberships)
            best["frames"] = min(best["frames"], seconds)
            del table
            if os.path.exists(out):
                os.remove(out)
            best["files"] = min(best["files"], timed(argv)[0])
            best["dicts"] = min(best["dicts"], fairconv_in_memory(q_dict, r_dict, m_dict)[0])
            if have_ir_measures:
                best["ir"] = min(best["ir"], ir_measures_time(qrels, runs))
        _, table = fairconv_in_memory(qrels, runs, memberships)
        from fairconv.io import read_scores

        from_files = read_scores(out)
        for m in ("GFR@10", "GFR@100", "GF-JSD@20[B8]"):  # a sample of cells
            for t in table.topics[:: max(1, len(table.topics) // 200)]:
                for r in table.runs:
                    if abs(table.value(r, t, m) - from_files.value(r, t, m)) > 5e-5:
                        raise SystemExit(f"{m}: the frames and the files give other values")
        frames_s, dicts_s, files_s = best["frames"], best["dicts"], best["files"]
        ir_s = best["ir"] if have_ir_measures else None
        print(f"{'route':<44}{'seconds':>9}")
        print(f"{'frames -> ScoreTable (load_attribute x2, evaluate)':<44}{frames_s:9.2f}")
        print(f"{'dicts (pytrec_eval shape) -> ScoreTable':<44}{dicts_s:9.2f}")
        print(f"{'fairconv gfr --order score, files, process':<44}{files_s:9.2f}")
        if ir_s is not None:
            print(f"{'ir_measures nDCG@20 on the frames':<44}{ir_s:9.2f}")
        verdict = "ok" if frames_s <= files_s else "MISSED"
        print(f"frames {frames_s:.2f} s vs files {files_s:.2f} s (goal: no slower: {verdict})")
        if ir_s is None:
            print("ir_measures is not installed: pip install ir-measures pytrec-eval-terrier")
        else:
            ratio = ir_s / frames_s
            verdict = "ok" if ratio >= 2 else "MISSED"
            print(f"ir_measures takes {ratio:.2f}x the frames' time (goal >= 2x: {verdict})")


if __name__ == "__main__":
    main()
