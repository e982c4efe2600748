"""Peak memory of the label-file reader against the size of the file it reads.

Writes an ``item rater label`` file (docs/formats.md, Label files) of numeric labels
and one of string labels (5 raters per item) for each number of items given (50,000
and 500,000 by default: 4-5 MB and 40-50 MB, the sizes of bench_readers_memory's
files at the large end), and reads each with :func:`fairconv.agreement.read_label_file`
in a fresh process that has first run ``fairconv --help``, as the command line would
have loaded it. Prints the peak resident memory while the file is read above the peak
of a process that runs ``fairconv --help`` alone, divided by the file's size; the goal
is at most 10. The figure includes the modules the reading imports (the agreement
package without scipy, which only the statistics load), which weigh more on a smaller
file.

    python benchmarks/bench_labels_memory.py [items ...]
"""

import os
import sys
import tempfile

import numpy as np
from _memory import report

RATERS = ("ann1", "ann2", "gpt4o", "llama3", "mistral")

READ = """
from fairconv.agreement import read_label_file
assert read_label_file(path).labels.shape[1] == 5
"""


def write_files(folder: str, n_items: int) -> dict[str, str]:
    rng = np.random.default_rng(0)
    levels = rng.integers(0, 3, size=(n_items, len(RATERS)))
    words = np.array(["no", "partial", "yes"])
    paths = {}
    for kind, shown in (("numbers", levels.astype(str)), ("strings", words[levels])):
        paths[kind] = os.path.join(folder, f"labels-{kind}.txt")
        with open(paths[kind], "w") as f:
            f.write(
                "".join(
                    f"t{i // 25}-n{i % 25}\t{rater}\t{shown[i, r]}\n"
                    for i in range(n_items)
                    for r, rater in enumerate(RATERS)
                )
            )
    return paths


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [50_000, 500_000]
    for n_items in sizes:
        print(f"{n_items:,} items")
        with tempfile.TemporaryDirectory() as folder:
            paths = write_files(folder, n_items)
            report("labels", paths, READ)


if __name__ == "__main__":
    main()
