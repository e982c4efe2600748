"""A topic id ``all`` in an input is refused naming file:line: it would collide with
the mean rows (topic ``all``) of every score output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fairconv import AttributeSet
from fairconv.datasets import path
from fairconv.io import (
    read_answers,
    read_conversations,
    read_gmemb,
    read_labels,
    read_qrels,
    read_run,
)

PILOT = path("fairweb1-pilot")
SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]
RULE = "the topic id 'all' is reserved for the mean over topics in score files"


def _cli(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr


def _gfr(qrels, gmemb, run):
    return (
        "gfr", "--qrels", qrels, "--attribute", "X", gmemb, PILOT / "M-ORIGIN.golddistr",
        "nominal", run,
    )  # fmt: skip


def _pilot_with_all(tmp_path, name, src, line):
    lines = src.read_text().splitlines()
    lines[line - 1] = "all " + lines[line - 1].split(maxsplit=1)[1]
    f = tmp_path / name
    f.write_text("\n".join(lines) + "\n")
    return f


@pytest.mark.parametrize(
    ("kind", "reader", "src"),
    [
        ("qrels", read_qrels, PILOT / "fairweb1pilot.qrels"),
        ("gmemb", read_gmemb, PILOT / "fairweb1pilot.M-ORIGIN.gmemb"),
        ("run", read_run, PILOT / "runs" / "run.bm25-depThre6"),
    ],
)
def test_reserved_topic_in_text_inputs(tmp_path, kind, reader, src):
    f = _pilot_with_all(tmp_path, kind, src, 3)
    with pytest.raises(ValueError, match=f"^{f}:3: {RULE}"):
        reader(f)
    files = {
        "qrels": PILOT / "fairweb1pilot.qrels",
        "gmemb": PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        "run": PILOT / "runs" / "run.bm25-depThre6",
    }
    files[kind] = f
    assert f"{f}:3: {RULE}" in _cli(*_gfr(files["qrels"], files["gmemb"], files["run"]))


def test_reserved_topic_in_conversations(tmp_path):
    f = tmp_path / "c.jsonl"
    rec = {"topic": "T1", "run": "r", "text": "U:q S:a", "nuggets": []}
    f.write_text(json.dumps(rec) + "\n" + json.dumps(dict(rec, topic="all")) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_conversations(f, SETS)
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    assert message in _cli("gfrc", "--attributes", sets, f)


def test_reserved_topic_in_answers(tmp_path):
    f = tmp_path / "a.jsonl"
    rec = {"topic": "all", "run": "r", "entities": []}
    f.write_text(json.dumps(dict(rec, topic="P002")) + "\n" + json.dumps(rec) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_answers(f, SETS)
    err = _cli(
        "ragfair", "--qrels", PILOT / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        PILOT / "M-ORIGIN.golddistr", "nominal", "--answers", f,
        PILOT / "runs" / "run.bm25-depThre6",
    )  # fmt: skip
    assert message in err


def test_reserved_topic_in_match_labels(tmp_path):
    rec = json.loads(path("rag", "ikat-labels.jsonl").read_text().splitlines()[0])
    f = tmp_path / "l.jsonl"
    f.write_text(json.dumps(rec) + "\n" + json.dumps(dict(rec, topic="all", turn="x")) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_labels(f)
    assert message in _cli("nuggets", f)
