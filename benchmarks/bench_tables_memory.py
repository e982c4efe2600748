"""Peak memory of writing a score table and of ``fairconv compare`` against their files.

Two workloads, each run in a fresh process that has first run ``fairconv --help``, as
the command line would have loaded it; the figure is the peak resident memory of the
step above an idle process, divided by the size of the TSV file the step writes or
reads (goal: at most 10, as the readers hold):

- ``long id``: ``ScoreTable.to_tsv`` of 2 runs x 1,200 topics x 10 measures, one topic
  id being 8,000 characters long (a 0.6 MB file); the table is read from the file
  first, and only the writing is measured: its idle process has read the same table.
  A writer that lays out its lines at the width of the longest name makes every line
  that wide.
- ``compare``: ``fairconv compare -m m1 --test tukey`` on a fairconv TSV of 20 runs x
  2,000 topics x 10 measures (7 MB): the reading, the test and the report. Its idle
  process has also imported what the command imports (``scipy.stats``, about 70 MB,
  whatever the file): the figure is what the data costs. The peak above an idle
  ``fairconv --help`` is printed beside it.

    python benchmarks/bench_tables_memory.py
"""

import os
import tempfile

import numpy as np
from _memory import GOAL, peak

WRITE = """
from fairconv.io import read_scores
table = read_scores(path)
try:  # the peak of the writing alone
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    pass
if kind == "long id":
    table.to_tsv(path + ".out", overwrite=True)
"""

COMPARE = """
import contextlib, io
import scipy.stats
import fairconv.stats
if kind == "compare":
    from fairconv.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["compare", "-m", "m1", "--test", "tukey", path]) == 0
"""


def write_tsv(path: str, runs: int, topics: list[str], measures: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.random((runs, len(topics), measures)).round(4)
    with open(path, "w") as f:
        f.write("run\ttopic\tmeasure\tvalue\n")
        for r in range(runs):
            f.write(
                "".join(
                    f"r{r}\t{t}\tm{m + 1}\t{float(values[r, i, m])!r}\n"
                    for i, t in enumerate(topics)
                    for m in range(measures)
                )
            )


def main():
    with tempfile.TemporaryDirectory() as folder:
        long_id = os.path.join(folder, "long.tsv")
        write_tsv(long_id, 2, [f"q{t}" for t in range(1199)] + ["q" * 8000], 10, 0)
        scores = os.path.join(folder, "compare.tsv")
        write_tsv(scores, 20, [f"q{t}" for t in range(2000)], 10, 1)
        idle = min(peak(WRITE, "--help") for _ in range(2))
        reading = min(peak(WRITE, long_id, "read only") for _ in range(2))
        loaded = min(peak(COMPARE, scores, "imports") for _ in range(2))
        print(f"idle 'fairconv --help': {idle / 2**20:.1f} MB peak RSS; with the table read: "
              f"{reading / 2**20:.1f} MB; with scipy.stats imported: "
              f"{loaded / 2**20:.1f} MB")  # fmt: skip
        print(f"{'step':<10}{'file MB':>9}{'peak MB':>9}{'x file':>8}  goal <= {GOAL:g}"
              f"{'above --help':>16}")  # fmt: skip
        for step, path, read, base in (
            ("long id", long_id, WRITE, reading),
            ("compare", scores, COMPARE, loaded),
        ):
            size = os.path.getsize(path)
            top = min(peak(read, path, step) for _ in range(2))
            ratio = (top - base) / size
            verdict = "ok" if ratio <= GOAL else "MISSED"
            print(f"{step:<10}{size / 2**20:9.1f}{top / 2**20:9.1f}{ratio:8.2f}  {verdict:<10}"
                  f"{(top - idle) / size:10.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
