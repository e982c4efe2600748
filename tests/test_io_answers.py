"""fairconv.io._answers: RAG answer records (read_answers, as_answers).

The reserved topic id ``all`` is refused naming file:line (it would collide with the
mean rows of every score output); unknown fields are refused with a "did you mean"."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from commandline import cli_error
from fairconv import AttributeSet
from fairconv.datasets import path
from fairconv.io import (
    read_answers,
)

PILOT = path("fairweb1-pilot")
SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]
RULE = "the topic id 'all' is reserved for the mean over topics in score files"


def test_reserved_topic_in_answers(tmp_path):
    f = tmp_path / "a.jsonl"
    rec = {"topic": "all", "run": "r", "entities": []}
    f.write_text(json.dumps(dict(rec, topic="P002")) + "\n" + json.dumps(rec) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_answers(f, SETS)
    err = cli_error(
        "ragfair", "--qrels", PILOT / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        PILOT / "M-ORIGIN.golddistr", "nominal", "--answers", f,
        PILOT / "runs" / "run.bm25-depThre6",
    )  # fmt: skip
    assert message in err


# --------------------------------------------------------------------------- records
def _unknowncli_error(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True
    )
    return proc.returncode, proc.stdout, proc.stderr


def _one_line(code, err, *needles):
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def _answer(**fields):
    rec = {
        "topic": "P002",
        "run": "Anserini-bm25",
        "entities": [{"entity": "m", "level": 2, "groups": {"A": [0.5, 0.5]}}],
    }
    rec.update(fields)
    return rec


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            _answer(topc="P1"),
            "a.jsonl:1: unknown field \"topc\" in a record. Did you mean 'topic'?",
        ),
        (
            _answer(entities=[{"entity": "m", "levle": 2}]),
            "a.jsonl:1: entity 1: unknown field \"levle\" in an entity. Did you mean 'level'?",
        ),
        (
            {"topic": "P002", "run": "x", "nuggets": [{"start": 1, "end": 1, "lvel": 2}]},
            "a.jsonl:1: nugget 1: unknown field \"lvel\" in a nugget. Did you mean 'level'?",
        ),
    ],
)
def test_unknown_fields_in_answer_records(tmp_path, record, message):
    f = tmp_path / "a.jsonl"
    f.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path}/{message}")):
        read_answers(f, SETS)
    pilot = path("fairweb1-pilot")
    code, _, err = _unknowncli_error(
        "ragfair", "--qrels", pilot / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", pilot / "fairweb1pilot.M-ORIGIN.gmemb",
        pilot / "M-ORIGIN.golddistr", "nominal", "--answers", f,
        pilot / "runs" / "run.bm25-depThre6",
    )  # fmt: skip
    _one_line(code, err, message)
