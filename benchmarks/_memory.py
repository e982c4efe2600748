"""Peak memory of a reader in a fresh process, above an idle ``fairconv --help``.

Shared by the memory benchmarks: each names the code that reads one file (``path`` and
``kind`` are defined for it) and gets the peak resident memory of the reading.
"""

import os
import subprocess
import sys

GOAL = 10.0
"""The goal: the reading's peak above the idle peak is at most 10x the file."""

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
    path, kind = sys.argv[1], sys.argv[2]
    try:  # the peak of the reading alone: reset the high-water mark (Linux)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
{read}
peak = status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(peak, file=sys.stderr)
"""


def peak(read: str, *args) -> int:
    """Peak RSS in bytes of a fresh interpreter that runs ``fairconv --help``, then ``read``."""
    child = _CHILD.replace("{read}", "\n".join("    " + line for line in read.splitlines()))
    proc = subprocess.run(
        [sys.executable, "-c", child, *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return int(proc.stderr.strip().splitlines()[-1])


def report(title: str, paths: dict[str, str], read: str) -> None:
    """Print each file's size, the reading's peak and its ratio to the file against GOAL."""
    idle = min(peak(read, "--help") for _ in range(2))
    print(f"idle 'fairconv --help': {idle / 2**20:.1f} MB peak RSS")
    print(f"{title:<12}{'file MB':>9}{'peak MB':>9}{'x file':>8}  goal <= {GOAL:g}")
    for kind, path in paths.items():
        size = os.path.getsize(path)
        top = min(peak(read, path, kind) for _ in range(2))
        ratio = (top - idle) / size
        verdict = "ok" if ratio <= GOAL else "MISSED"
        print(f"{kind:<12}{size / 2**20:9.1f}{top / 2**20:9.1f}{ratio:8.2f}  {verdict}")
