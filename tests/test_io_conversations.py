"""Runs are never merged without a word: two files that would give one run name."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fairconv import AttributeSet
from fairconv.io import read_conversations

SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]


def _write(path, topic):
    path.parent.mkdir(parents=True, exist_ok=True)
    rec = {"topic": topic, "text": "U:q S:a b", "nuggets": [{"start": 3, "end": 3}]}
    path.write_text(json.dumps(rec) + "\n")
    return path


def test_runs_merged_conversation_files_with_one_base_name(tmp_path):
    a = _write(tmp_path / "a" / "run.jsonl", "T1")
    b = _write(tmp_path / "b" / "run.jsonl", "T2")
    with pytest.raises(ValueError) as info:
        read_conversations([a, b], SETS)
    message = str(info.value)
    assert message.startswith(f"{b}:1: ") and str(a) in message, message
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    for command in ("gfrc", "gfrc2"):
        proc = subprocess.run(
            [sys.executable, "-m", "fairconv", command, "--attributes", str(sets), str(a), str(b)],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert proc.stderr.count("\n") == 1 and str(a) in proc.stderr and str(b) in proc.stderr


def test_runs_merged_only_when_the_name_comes_from_the_file(tmp_path):
    # records naming their run, or files of distinct names, are separate runs
    a = _write(tmp_path / "a" / "run.jsonl", "T1")
    c = _write(tmp_path / "b" / "other.jsonl", "T1")
    assert sorted(set(read_conversations([a, c], SETS).runs)) == ["other.jsonl", "run.jsonl"]
    rec = {"topic": "T1", "run": "x", "text": "U:q S:a b", "nuggets": []}
    d = tmp_path / "c" / "run.jsonl"
    d.parent.mkdir()
    d.write_text(json.dumps(rec) + "\n")
    assert sorted(set(read_conversations([a, d], SETS).runs)) == ["run.jsonl", "x"]
