"""fairconv.io._labels: match labels (read_labels, labels_from_records).

``read_labels`` checks and counts a block of lines at a time and drops the decoded
records; ``labels_from_records`` takes the same column path a block of records at a
time. Both give what a plain loop over every record gives, holding what they have
counted, not every record they decoded. Unknown fields and the reserved topic id
``all`` are refused naming file:line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fairconv.io._labels as labels_module
from commandline import cli_error
from fairconv import io
from fairconv.agreement import read_label_file
from fairconv.datasets import path
from fairconv.io import (
    iter_jsonl,
    read_labels,
)
from fairconv.io._text import RESERVED_TOPIC, RESERVED_TOPIC_RULE

FIELDS = ("topic", "turn", "run", "gold", "extracted", "ntn", "ntr")


# --------------------------------------------------------------------------- the oracle
def _oracle_id(value, field, where):
    if type(value) is not str or not value:
        raise ValueError(f'{where}: "{field}" must be a non-empty string, got {json.dumps(value)}')
    if any(c.isspace() or ord(c) < 32 or 127 <= ord(c) <= 159 for c in value):
        raise ValueError(f'{where}: "{field}" must not contain whitespace or control characters')
    return value


def _oracle_ids(value, field, where):
    if type(value) is not list:
        raise ValueError(f'{where}: "{field}" must be an array of nugget ids')
    ids = [_oracle_id(v, f"{field}[{k}]", where) for k, v in enumerate(value)]
    for k, v in enumerate(ids):
        if v in ids[:k]:
            raise ValueError(f'{where}: "{field}" lists the nugget id {v!r} twice')
    return ids


def _one_edit(a: str, b: str) -> bool:
    """Whether one insertion, deletion, substitution or adjacent swap turns a into b."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        swap = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
        return len(diff) == 1 or (swap and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))


def oracle_labels(records, sources, missing_run="run"):
    """(runs, topics, turns, counts) by a plain loop over the records, one rule at a time.

    Every record gives its run or none does (as the first record): then the run is
    ``missing_run``, the file's name or ``run`` for records given in memory.
    """
    runs, topics, turns, counts = [], [], [], []
    first = records[0] if records else None
    first_given = isinstance(first, dict) and first.get("run") is not None
    for rec, where in zip(records, sources, strict=True):
        if not isinstance(rec, dict):
            raise ValueError(f"{where}: a label record must be a JSON object")
        unknown = [key for key in rec if key not in FIELDS]
        near = [key for key in unknown if any(_one_edit(key, f) for f in FIELDS)]
        for key in near + unknown:  # a misspelt field first, with its hint
            raise ValueError(f'{where}: unknown field "{key}" in a label record')
        for key in ("topic", "turn", "gold", "extracted"):
            if key not in rec:
                raise ValueError(f'{where}: a label record needs "{key}"')
        topics.append(_oracle_id(rec["topic"], "topic", where))
        turns.append(_oracle_id(rec["turn"], "turn", where))
        run = rec.get("run")
        if (run is not None) != first_given:
            told = "gives a" if run is not None else "has no"
            other = "none" if run is not None else "one"
            raise ValueError(
                f'{where}: the record {told} "run", while {sources[0]} gives {other}: give '
                'every record its "run", or none'
            )
        runs.append(_oracle_id(missing_run if run is None else run, "run", where))
        gold = set(_oracle_ids(rec["gold"], "gold", where))
        extracted = set(_oracle_ids(rec["extracted"], "extracted", where))
        pairs = rec.get("ntn", [])
        if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
            raise ValueError(f'{where}: "ntn" must be an array of [extracted, gold] pairs')
        e = {_oracle_id(p[0], f"ntn[{k}][0]", where) for k, p in enumerate(pairs)}
        g = {_oracle_id(p[1], f"ntn[{k}][1]", where) for k, p in enumerate(pairs)}
        if e - extracted or g - gold:
            raise ValueError(f'{where}: "ntn" names nuggets that are not in "extracted" or "gold"')
        ntr = set(_oracle_ids(rec.get("ntr", []), "ntr", where))
        if ntr - gold:
            raise ValueError(f'{where}: "ntr" names nuggets that are not in "gold"')
        counts.append([len(g), len(gold), len(e), len(extracted), len(ntr)])
    return runs, topics, turns, counts


def oracle_file(path):
    """What reading a label file gives: every line decoded, then the reader's own rules
    (unknown fields, the reserved topic) over every line, then the records' rules."""
    name = os.fspath(path)
    found = iter_jsonl(path)  # the whole file at once
    for line, rec in found:
        if isinstance(rec, dict):
            for key in rec:
                if key not in FIELDS:
                    raise ValueError(f'{name}:{line}: unknown field "{key}" in a record')
            if rec.get("topic") == RESERVED_TOPIC:
                raise ValueError(f'{name}:{line}: "topic": {RESERVED_TOPIC_RULE}')
    sources = [f"{name}:{line}" for line, _ in found]
    got = oracle_labels([r for _, r in found], sources, missing_run=os.path.basename(name))
    return (*got, sources)


def _head(message: str) -> str:
    """Where an error is and the field or rule it names (the message up to its wording)."""
    for word in (" must ", " names ", " lists ", " in a "):
        message = message.split(word)[0]
    return message


def _outcome(call):
    try:
        labels = call()
    except ValueError as exc:
        return "error", _head(str(exc))
    if isinstance(labels, io.MatchLabels):
        counts = np.asarray(labels.counts).tolist()
        return "labels", (list(labels.runs), list(labels.topics), list(labels.turns), counts)
    runs, topics, turns, counts = labels[:4]
    return "labels", (runs, topics, turns, counts)


# --------------------------------------------------------------------------- records drawn
BAD_VALUES = [
    None,
    "",
    "a b",
    7,
    True,
    [],
    ["x9"],
    ["g0", "g0"],
    [["e0"]],
    [["e0", "g9"]],
    [["e9", "g0"]],
    [["e0", 2]],
    [["e0", "g0"], ["e0", "g1"]],
    {"a": 1},
    "g0",
    [1],
    ["g0", ""],
    ["g1"],
    "T\u00a0",
]


@st.composite
def label_record(draw, i: int):
    gold = [f"g{j}" for j in range(draw(st.integers(0, 4)))]
    ext = [f"e{j}" for j in range(draw(st.integers(0, 4)))]
    pairs = (
        draw(st.lists(st.tuples(st.sampled_from(ext), st.sampled_from(gold)), max_size=5))
        if gold and ext
        else []
    )
    rec = {
        "topic": f"T{i % 3}",
        "turn": f"T{i % 3}_{i}",
        "run": draw(st.sampled_from(["r", "s"])),
        "gold": gold,
        "extracted": ext,
        "ntn": [list(p) for p in pairs],
        "ntr": draw(st.lists(st.sampled_from(gold), unique=True)) if gold else [],
    }
    for _ in range(draw(st.integers(0, 2)) if draw(st.integers(0, 3)) == 0 else 0):
        change = draw(st.sampled_from(["set", "drop", "unknown", "not an object"]))
        key = draw(st.sampled_from(FIELDS))
        if change == "set":
            rec[key] = draw(st.sampled_from(BAD_VALUES))
        elif change == "drop":
            rec.pop(key, None)
        elif change == "unknown":
            rec[draw(st.sampled_from(["gold_", "turns", "note"]))] = 1
        else:
            return [rec.get(key)]
    return rec


@st.composite
def label_records(draw):
    return [draw(label_record(i)) for i in range(draw(st.integers(1, 12)))]


FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(label_records(), st.integers(1, 4))
def test_records_in_blocks_agree_with_a_plain_loop(monkeypatch, recs, block):
    sources = [f"record {i + 1}" for i in range(len(recs))]
    want = _outcome(lambda: oracle_labels(recs, sources))
    assert _outcome(lambda: io.labels_from_records(recs)) == want
    with monkeypatch.context() as m:
        m.setattr(labels_module, "_BLOCK", block)
        assert _outcome(lambda: io.labels_from_records(recs)) == want


LINES = st.one_of(
    st.sampled_from(["", "{", "[1,", '{"topic": "all"}', '{"topic": "T\\ud800"}', "  "]),
    st.just(None),
)


@FUZZ
@given(label_records(), st.lists(st.tuples(st.integers(0, 12), LINES), max_size=3), st.data())
def test_a_file_read_in_blocks_gives_what_reading_it_whole_gives(
    tmp_path, monkeypatch, recs, extra, data
):
    lines = [json.dumps(r) for r in recs]
    for at, line in extra:
        if line is not None:
            lines.insert(at, line)
    for k in range(len(lines)):  # some records without a run: the file's name
        if data.draw(st.integers(0, 5)) == 0 and lines[k].startswith('{"topic": "T'):
            lines[k] = lines[k].replace(', "run": "r"', "")
    f = tmp_path / "labels.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = _outcome(lambda: oracle_file(f))
    assert _outcome(lambda: read_labels(f)) == want
    with monkeypatch.context() as m:
        m.setattr(labels_module, "_BLOCK_BYTES", data.draw(st.integers(1, 200)))
        got = _outcome(lambda: read_labels(f))
    assert got == want
    if want[0] == "labels":  # and the places of the records
        assert list(read_labels(f).sources) == oracle_file(f)[4]


GOOD = {"topic": "T1", "turn": "T1_1", "gold": ["g1"], "extracted": ["e1"]}


@pytest.mark.parametrize(
    "lines, message",
    [
        # a record's rule on line 1, the reader's own rules on a later line: those first
        ([dict(GOOD, gold="g1"), GOOD, dict(GOOD, golds=[])], r'l\.jsonl:3: unknown field "golds"'),
        ([dict(GOOD, gold="g1"), GOOD, dict(GOOD, topic="all")], r'l\.jsonl:3: "topic"'),
        # invalid JSON on a later line comes before every rule of the records
        ([dict(GOOD, golds=[]), GOOD, "{"], r"l\.jsonl:3: invalid JSON"),
        (['{"topic": "\\ud800"}', GOOD, "[1,"], r"l\.jsonl:3: invalid JSON"),
        # a lone surrogate comes before the rules of the records, wherever they are
        ([dict(GOOD, gold="g1"), '{"topic": "\\ud800"}', GOOD], r"l\.jsonl:2: .*surrogate"),
        ([GOOD, dict(GOOD, golds=[]), '{"topic": "\\udc00"}'], r"l\.jsonl:3: .*surrogate"),
        # the first of two errors of one kind
        ([GOOD, dict(GOOD, ntr=["g9"]), dict(GOOD, gold=1)], r'l\.jsonl:2: "ntr" names'),
    ],
)
@pytest.mark.parametrize("block_bytes", [1, 40, 1 << 20])
def test_errors_keep_their_order_across_blocks(tmp_path, monkeypatch, lines, message, block_bytes):
    f = tmp_path / "l.jsonl"
    f.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    monkeypatch.setattr(labels_module, "_BLOCK_BYTES", block_bytes)
    with pytest.raises(ValueError, match=message):
        read_labels(f)


def test_a_file_of_blank_blocks_is_empty(tmp_path, monkeypatch):
    monkeypatch.setattr(labels_module, "_BLOCK_BYTES", 1)
    (tmp_path / "l.jsonl").write_text("\n \n\t\n")
    with pytest.raises(ValueError, match=r"l\.jsonl: the file is empty"):
        read_labels(tmp_path / "l.jsonl")


# --------------------------------------------------------------------------- memory
def _label_file(path, n: int) -> None:
    with open(path, "w") as f:
        for t in range(n):
            gold = [f"g{t}_{i}" for i in range(6)]
            ext = [f"e{t}_{i}" for i in range(5)]
            rec = {
                "topic": f"T{t // 3}",
                "turn": f"T{t // 3}_{t % 3}",
                "run": "bm25",
                "gold": gold,
                "extracted": ext,
                "ntn": [[ext[i], gold[i]] for i in range(3)],
                "ntr": gold[:2],
            }
            f.write(json.dumps(rec) + "\n")


def _traced_peak(call) -> tuple[object, int]:
    call()  # modules and caches loaded before the count
    tracemalloc.start()
    try:
        out = call()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_read_labels_holds_a_block_of_records_not_the_file(tmp_path):
    f = tmp_path / "labels.jsonl"
    _label_file(f, 12_000)  # 3.6 MB
    labels, peak = _traced_peak(lambda: read_labels(f))
    assert labels.counts.sum(axis=0).tolist() == [36_000, 72_000, 36_000, 60_000, 24_000]
    # every decoded record held at once takes more than 11 times the file
    assert peak < 5 * f.stat().st_size


@pytest.mark.parametrize("kind", ["numbers", "strings"])
def test_read_label_file_peak_beside_its_rows(tmp_path, kind):
    words = ["no", "partial", "yes"] if kind == "strings" else ["0", "1", "2"]
    f = tmp_path / "labels.txt"
    with open(f, "w") as out:
        out.write(
            "".join(
                f"t{i // 25}-n{i % 25}\t{rater}\t{words[(i + r) % 3]}\n"
                for i in range(50_000)
                for r, rater in enumerate(("ann1", "ann2", "gpt4o", "llama3", "mistral"))
            )
        )
    m, peak = _traced_peak(lambda: read_label_file(f))
    assert m.labels.shape == (50_000, 5)
    # sorting by np.unique beside the rows and parsing every label at once took 9.5x
    assert peak < 9 * f.stat().st_size


def test_reading_a_label_file_loads_no_statistics(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text("i1 a 1\ni1 b 0\n")
    code = (
        "import sys\n"
        "from fairconv.agreement import read_label_file\n"
        "read_label_file(sys.argv[1])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy')[:3])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(f)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


RULE = "the topic id 'all' is reserved for the mean over topics in score files"


def test_reserved_topic_in_match_labels(tmp_path):
    rec = json.loads(path("rag", "ikat-labels.jsonl").read_text().splitlines()[0])
    f = tmp_path / "l.jsonl"
    f.write_text(json.dumps(rec) + "\n" + json.dumps(dict(rec, topic="all", turn="x")) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_labels(f)
    assert message in cli_error("nuggets", f)


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


def test_unknown_fields_in_label_records(tmp_path):
    rec = json.loads(path("rag", "ikat-labels.jsonl").read_text().splitlines()[0])
    rec["extarcted"] = rec.pop("extracted")
    f = tmp_path / "l.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    message = "l.jsonl:1: unknown field \"extarcted\" in a record. Did you mean 'extracted'?"
    with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path}/{message}")):
        read_labels(f)
    code, _, err = _unknowncli_error("nuggets", f)
    _one_line(code, err, message)
