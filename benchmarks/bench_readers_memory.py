"""Peak memory of the score-file (and label) readers against the size of their file.

Writes one file of per-topic scores in each layout :func:`fairconv.io.read_scores`
reads (trec_eval -q, ir_measures, fairconv's TSV, ranx JSON; 40 measures x 20,000
topics, 20-60 MB each), and a nugget match-label file (JSON Lines, read by
:func:`fairconv.io.read_labels`), and reads each in a fresh process that has first run
``fairconv --help``, as the command line would have loaded it. Prints the peak
resident memory while the file is read above the peak of a process that runs
``fairconv --help`` alone, divided by the file's size; the goal is at most 10.

    python benchmarks/bench_readers_memory.py [topics]
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

GOAL = 10.0
MEASURES = 40

_CHILD = """
import contextlib, io, resource, sys
from fairconv.cli import main

def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return None

with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(["--help"])
    except SystemExit:
        pass
if sys.argv[1] != "--help":
    from fairconv.io import read_labels, read_scores
    try:  # the peak of the reading alone: reset the high-water mark (Linux)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    if sys.argv[2] == "labels":
        assert len(read_labels(sys.argv[1]).runs) > 0
    else:
        table = read_scores(sys.argv[1], input_format=sys.argv[2])
        assert table.present.sum() > 0
peak = status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(peak, file=sys.stderr)
"""


def peak(*args) -> int:
    """Peak RSS in bytes of a fresh interpreter running the child script."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return int(proc.stderr.strip().splitlines()[-1])


def write_files(folder: str, n_topics: int) -> dict[str, str]:
    rng = np.random.default_rng(0)
    values = rng.random((MEASURES, n_topics))
    measures = [f"ndcg_cut_{10 * (m + 1)}" for m in range(MEASURES)]
    topics = [f"{100000 + t}" for t in range(n_topics)]
    paths = {}
    rows = [
        f"{m}\t{t}\t{v:.4f}\n"
        for m, vs in zip(measures, values, strict=True)
        for t, v in zip(topics, vs, strict=True)
    ]
    paths["trec_eval"] = os.path.join(folder, "run.trec")
    with open(paths["trec_eval"], "w") as f:
        f.write("runid\tall\tbm25\n" + "".join(rows))
    paths["ir_measures"] = os.path.join(folder, "run.irm")
    with open(paths["ir_measures"], "w") as f:
        f.write(
            "".join(
                f"{t} {m} {float(v)!r}\n"
                for m, vs in zip(measures, values, strict=True)
                for t, v in zip(topics, vs, strict=True)
            )
        )
    paths["fairconv"] = os.path.join(folder, "run.tsv")
    with open(paths["fairconv"], "w") as f:
        f.write("run\ttopic\tmeasure\tvalue\n")
        f.write(
            "".join(
                f"bm25\t{t}\t{m}\t{float(v)!r}\n"
                for m, vs in zip(measures, values, strict=True)
                for t, v in zip(topics, vs, strict=True)
            )
        )
    paths["ranx"] = os.path.join(folder, "run.json")
    paths["labels"] = os.path.join(folder, "labels.jsonl")
    with open(paths["labels"], "w") as f:
        for t in range(n_topics * MEASURES // 40):
            gold = [f"g{t}_{i}" for i in range(6)]
            extracted = [f"e{t}_{i}" for i in range(5)]
            record = {
                "topic": f"T{t // 3}",
                "turn": f"T{t // 3}_{t % 3}",
                "run": "bm25",
                "gold": gold,
                "extracted": extracted,
                "ntn": [[extracted[i], gold[i]] for i in range(3)],
                "ntr": gold[:2],
            }
            f.write(json.dumps(record) + "\n")
    with open(paths["ranx"], "w") as f:
        json.dump(
            {
                m: dict(zip(topics, vs.tolist(), strict=True))
                for m, vs in zip(measures, values, strict=True)
            },
            f,
        )
    return paths


def main():
    n_topics = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    with tempfile.TemporaryDirectory() as folder:
        paths = write_files(folder, n_topics)
        idle = min(peak("--help") for _ in range(2))
        print(f"idle 'fairconv --help': {idle / 2**20:.1f} MB peak RSS")
        print(f"{'layout':<12}{'file MB':>9}{'peak MB':>9}{'x file':>8}  goal <= {GOAL:g}")
        for layout, path in paths.items():
            size = os.path.getsize(path)
            top = min(peak(path, layout) for _ in range(2))
            ratio = (top - idle) / size
            verdict = "ok" if ratio <= GOAL else "MISSED"
            print(f"{layout:<12}{size / 2**20:9.1f}{top / 2**20:9.1f}{ratio:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
