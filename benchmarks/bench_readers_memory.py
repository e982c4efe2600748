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
import sys
import tempfile

import numpy as np
from _memory import report

MEASURES = 40

READ = """
from fairconv.io import read_labels, read_scores
if kind == "labels":
    assert len(read_labels(path).runs) > 0
else:
    assert read_scores(path, input_format=kind).present.sum() > 0
"""


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
        report("layout", paths, READ)


if __name__ == "__main__":
    main()
