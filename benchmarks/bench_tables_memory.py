"""Peak memory of writing a score table and of ``fairconv compare`` against their files.

Two workloads, each run in a fresh process that has first run ``fairconv --help``, as
the command line would have loaded it; the figure is the peak resident memory of the
step above the peak of a process that runs ``fairconv --help`` alone, divided by the
size of the TSV file the step writes or reads (goal: at most 10, as the readers hold):

- ``long id``: ``ScoreTable.to_tsv`` of 2 runs x 1,200 topics x 10 measures, one topic
  id being 8,000 characters long (a 0.67 MB file); the table is read from the file
  first, and only the writing is measured. A writer that lays out its lines at the
  width of the longest name makes every line that wide.
- ``compare``: ``fairconv compare -m m1 --test tukey`` on a fairconv TSV of 20 runs x
  2,000 topics x 10 measures (7 MB): the reading, the test and the report.

    python benchmarks/bench_tables_memory.py
"""

import os
import tempfile

import numpy as np
from _memory import report

RUN = """
import contextlib, io
if kind == "long id":
    from fairconv.io import read_scores
    table = read_scores(path)
    try:  # the peak of the writing alone
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    table.to_tsv(path + ".out", overwrite=True)
else:
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
        paths = {"long id": os.path.join(folder, "long.tsv")}
        topics = [f"q{t}" for t in range(1199)] + ["q" * 8000]
        write_tsv(paths["long id"], 2, topics, 10, 0)
        paths["compare"] = os.path.join(folder, "compare.tsv")
        write_tsv(paths["compare"], 20, [f"q{t}" for t in range(2000)], 10, 1)
        report("step", paths, RUN)


if __name__ == "__main__":
    main()
