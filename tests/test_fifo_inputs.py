"""FIFO inputs (``<(...)`` in a shell, a named pipe) work in every command, in every
input position, and give what the same file gives."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fairconv.datasets import path

PILOT = path("fairweb1-pilot")
QRELS = PILOT / "fairweb1pilot.qrels"
GMEMB = PILOT / "fairweb1pilot.M-ORIGIN.gmemb"
GOLD = PILOT / "M-ORIGIN.golddistr"
RUNS = [PILOT / "runs" / "run.bm25-depThre6", PILOT / "runs" / "run.qld-depThre6"]
ANSWERS = path("rag", "pilot-answers.jsonl")
SETS = path("cases", "r112-attributes.json")
CONVERSATIONS = path("cases", "r112-fairweb2.jsonl")
LABELS = path("rag", "ikat-labels.jsonl")


def _run(args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _through_fifo(tmp_path, args, position):
    """Run ``args`` with the file at ``position`` given as a FIFO instead."""
    fifo = tmp_path / f"pipe{position}"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(args[position]), fifo])
    try:
        return _run([*args[:position], fifo, *args[position + 1 :]], tmp_path)
    finally:
        writer.kill()
        writer.wait()


def _scores(tmp_path):
    f = tmp_path / "scores.tsv"
    proc = _run(["gfr", "--qrels", QRELS, "-o", f, *RUNS], tmp_path)
    assert proc.returncode == 0, proc.stderr
    return f


def _label_file(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text("i1 a 1\ni1 b 0\ni2 a 1\ni2 b 1\ni3 a 0\ni3 b 0\n")
    return f


RANKED = ["--qrels", QRELS, "--attribute", "M-ORIGIN", GMEMB, GOLD, "nominal"]
CASES = {
    "gfr": (["gfr", *RANKED, *RUNS], [2, 5, 6, 8, 9]),
    "ragfair": (["ragfair", *RANKED, "--answers", ANSWERS, RUNS[0]], [2, 5, 9, 10]),
    "gfrc": (["gfrc", "--attributes", SETS, CONVERSATIONS], [2, 3]),
    "gfrc2": (["gfrc2", "--attributes", SETS, CONVERSATIONS], [2, 3]),
    "nuggets": (["nuggets", LABELS], [1]),
}


@pytest.mark.parametrize(
    ("command", "position"),
    [(c, p) for c, (_, positions) in sorted(CASES.items()) for p in positions],
)
def test_fifo_inputs(tmp_path, command, position):
    args = list(CASES[command][0])
    if command == "ragfair":  # the answers of the one run given
        answers = tmp_path / "answers.jsonl"
        lines = ANSWERS.read_text().splitlines(keepends=True)
        answers.write_text("".join(x for x in lines if '"Anserini-bm25"' in x))
        args[args.index(ANSWERS)] = answers
    want = _run(args, tmp_path)
    assert want.returncode == 0, want.stderr
    got = _through_fifo(tmp_path, args, position)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), got.stderr


@pytest.mark.parametrize("command", ["labels", "compare", "discpower", "agree"])
def test_fifo_inputs_of_the_analyses(tmp_path, command):
    if command == "labels":
        args = ["labels", _label_file(tmp_path)]
    else:
        args = [command, "-m", "ERR", _scores(tmp_path)]
        args[3:3] = ["-m", "iRBU"] if command == "agree" else ["--B", "200"]
    want = _run(args, tmp_path)
    assert want.returncode == 0, want.stderr
    got = _through_fifo(tmp_path, args, len(args) - 1)
    assert (got.returncode, got.stdout) == (0, want.stdout), got.stderr
