"""Peak memory of the label-file reader against the size of the file it reads.

Writes an ``item rater label`` file (docs/formats.md, Label files) of numeric labels
and one of string labels (5 raters per item; 500,000 items by default, 40-50 MB each,
the sizes of bench_readers_memory's score files) and reads each with
:func:`fairconv.agreement.read_label_file` in a fresh process that has first run
``fairconv --help``, as the command line would have loaded it. Prints the peak
resident memory while the file is read above the peak of a process that runs
``fairconv --help`` alone, divided by the file's size; the goal is at most 10. The
figure includes the modules the reading imports (the agreement package, scipy), which
weigh more on a smaller file.

    python benchmarks/bench_labels_memory.py [items]
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

GOAL = 10.0
RATERS = ("ann1", "ann2", "gpt4o", "llama3", "mistral")

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
    from fairconv.agreement import read_label_file
    try:  # the peak of the reading alone: reset the high-water mark (Linux)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    labels = read_label_file(sys.argv[1])
    assert labels.labels.shape[1] == 5
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
    n_items = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
    with tempfile.TemporaryDirectory() as folder:
        paths = write_files(folder, n_items)
        idle = min(peak("--help") for _ in range(2))
        print(f"idle 'fairconv --help': {idle / 2**20:.1f} MB peak RSS")
        print(f"{'labels':<12}{'file MB':>9}{'peak MB':>9}{'x file':>8}  goal <= {GOAL:g}")
        for kind, path in paths.items():
            size = os.path.getsize(path)
            top = min(peak(path) for _ in range(2))
            ratio = (top - idle) / size
            verdict = "ok" if ratio <= GOAL else "MISSED"
            print(f"{kind:<12}{size / 2**20:9.1f}{top / 2**20:9.1f}{ratio:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
