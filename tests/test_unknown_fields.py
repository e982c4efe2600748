"""Unknown fields in records are refused, with a "did you mean" for a near miss."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from fairconv import AttributeSet
from fairconv._validation import did_you_mean
from fairconv.datasets import path
from fairconv.io import batch_from_records, read_answers, read_conversations, read_labels

SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("levle", " Did you mean 'level'?"),  # adjacent swap
        ("runn", " Did you mean 'run'?"),  # insertion
        ("lvel", " Did you mean 'level'?"),  # deletion
        ("lavel", " Did you mean 'level'?"),  # substitution
        ("nuggets", ""),  # exact names are not misspellings
        ("leelv", ""),  # three letters moved is more than one edit
        ("xyz", ""),
        ("", ""),
    ],
)
def test_did_you_mean_one_edit_away(word, expected):
    assert did_you_mean(word, ["level", "run", "nuggets", "text"]) == expected


def test_did_you_mean_names_every_close_choice_in_order():
    assert did_you_mean("ab", ["abc", "xb", "ba"]) == " Did you mean 'abc', 'xb' or 'ba'?"


def test_did_you_mean_case_insensitive_for_measure_names():
    assert did_you_mean("ndcg", ["nDCG", "ERR"]) == ""
    assert did_you_mean("ndcg", ["nDCG", "ERR"], ignore_case=True) == " Did you mean 'nDCG'?"
    assert did_you_mean("GRF", ["GFR", "ERR"], ignore_case=True) == " Did you mean 'GFR'?"


# --------------------------------------------------------------------------- records
def _cli(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True
    )
    return proc.returncode, proc.stdout, proc.stderr


def _one_line(code, err, *needles):
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def _conversation(**fields):
    rec = {
        "topic": "T",
        "run": "r",
        "text": "U:q S:a b c d e",
        "nuggets": [{"start": 3, "end": 3, "level": 1, "groups": {"A": [0.5, 0.5]}}],
    }
    rec.update(fields)
    return rec


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            _conversation(runn="r2"),
            "record.jsonl:2: unknown field \"runn\" in a record. Did you mean 'run'?",
        ),
        (
            _conversation(nuggets=[{"start": 3, "end": 3, "levle": 2}]),
            "record.jsonl:2: nugget 1: unknown field \"levle\" in a nugget. Did you mean 'level'?",
        ),
        (
            _conversation(comment="x"),
            'record.jsonl:2: unknown field "comment" in a record. '
            'The known fields are "length", "nuggets", ',
        ),
        (
            {
                "topic": "T",
                "run": "r",
                "length": 4,
                "turns": [{"role": "U", "start": 1, "end": 1}, {"rloe": "S", "start": 2, "end": 4}],
                "nuggets": [],
            },
            "record.jsonl:2: turn 2: unknown field \"rloe\" in a turn. Did you mean 'role'?",
        ),
    ],
)
def test_unknown_fields_in_conversation_records(tmp_path, record, message):
    f = tmp_path / "record.jsonl"
    f.write_text(json.dumps(_conversation()) + "\n" + json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path}/{message}")):
        read_conversations(f, SETS)
    code, _, err = _cli("gfrc", "--attributes", _sets_file(tmp_path), f)
    _one_line(code, err, message)
    # the records an API user builds follow the same rule
    with pytest.raises(ValueError, match=re.escape(message.split(":", 2)[-1].strip())):
        batch_from_records([record], SETS, sources=["record 1"])


def _sets_file(tmp_path):
    f = tmp_path / "sets.json"
    f.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    return f


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
    code, _, err = _cli(
        "ragfair", "--qrels", pilot / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", pilot / "fairweb1pilot.M-ORIGIN.gmemb",
        pilot / "M-ORIGIN.golddistr", "nominal", "--answers", f,
        pilot / "runs" / "run.bm25-depThre6",
    )  # fmt: skip
    _one_line(code, err, message)


def test_unknown_fields_in_label_records(tmp_path):
    rec = json.loads(path("rag", "ikat-labels.jsonl").read_text().splitlines()[0])
    rec["extarcted"] = rec.pop("extracted")
    f = tmp_path / "l.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    message = "l.jsonl:1: unknown field \"extarcted\" in a record. Did you mean 'extracted'?"
    with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path}/{message}")):
        read_labels(f)
    code, _, err = _cli("nuggets", f)
    _one_line(code, err, message)
