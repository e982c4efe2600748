"""fairconv.io._conversations: the conversation JSON Lines reader and writer, attribute-set files.

The JSON record rules (strict types, fields, nuggets inside one system turn, duplicate
keys, depth, a BOM), identifiers that could forge rows, unknown fields, the reserved topic
id ``all``, runs never merged without a word (two files that would give one run name),
blocks, and the writer's output rule."""

from __future__ import annotations

import io as stdio
import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commandline import cli_error
from fairconv import AttributeSet
from fairconv.datasets import path
from fairconv.io import (
    Conversation,
    Nugget,
    batch_from_records,
    read_attribute_sets,
    read_conversations,
    write_conversations,
)

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


def conversation(nuggets, **fields):
    rec = {"topic": "T", "run": "r", "text": "U:q S:a b c d e", "nuggets": nuggets}
    rec.update(fields)
    return rec


def _re(text):
    import re

    return re.escape(text)


# --------------------------------------------------------------------------- rule 3
@pytest.mark.parametrize(
    "nugget, message",
    [
        ({"start": 3, "end": 3, "level": "2"}, 'nugget 1: "level" must be an integer, got "2"'),
        ({"start": 3, "end": 3, "level": True}, '"level" must be an integer, got true'),
        ({"start": 3, "end": 3, "level": [1]}, '"level" must be an integer, got [1]'),
        ({"start": 3, "end": 3, "level": 1.0}, '"level" must be an integer, got 1.0'),
        (
            {"start": 3, "end": 3, "level": 10**30},
            '"level" must be an integer, got 1000000000000000',
        ),
        ({"start": 3, "end": 3, "level": 10**17}, '"level" must be an integer within +-2^53'),
        ({"start": "3", "end": 3}, '"start" must be an integer, got "3"'),
        ({"start": 3, "end": 3, "turn": 0}, '"turn" must be >= 1'),
        ({"start": 3, "end": 3, "entity": 7}, '"entity" must be a string, got 7'),
        (
            {"start": 3, "end": 3, "entity": "a b"},
            'nugget 1: "entity" must not contain whitespace or control characters, got "a b"',
        ),
        ({"start": 3, "end": 3, "entity": "a\u00a0b"}, '"entity" must not contain whitespace'),
        ({"start": 3, "end": 3, "entity": "e\n"}, '"entity" must not contain whitespace'),
        ({"start": 3, "end": 3, "entity": ""}, '"entity" must be a non-empty string, got ""'),
        ({"start": 3, "end": 3, "groups": [0.5, 0.5]}, '"groups" must be an object'),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": [True, False]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": ["0.5", "0.5"]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": [1e400, 0]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": ["NaN", 0]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
    ],
)
def test_rule3_json_types_are_strict(tmp_path, nugget, message):
    f = tmp_path / "c.jsonl"
    text = json.dumps(conversation([nugget])).replace("1e+400", "1e400")
    f.write_text(text.replace('"NaN"', "NaN") + "\n")
    with pytest.raises(ValueError, match=r"c\.jsonl:1: " + ".*" + _re(message)):
        read_conversations(f, SETS)


def test_rule3_missing_or_null_level_is_nonrelevant():
    a = batch_from_records([conversation([{"start": 3, "end": 3}])], SETS, sources=["x"])
    b = batch_from_records(
        [conversation([{"start": 3, "end": 3, "level": None}])], SETS, sources=["x"]
    )
    assert a.level.tolist() == b.level.tolist() == [0]


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"topic": 5}, '"topic" must be a non-empty string, got 5'),
        ({"run": ["r"]}, '"run" must be a non-empty string'),
        ({"text": 12}, '"text" must be a string'),
        ({"text": None, "turns": [{"role": "U", "start": 1, "end": 2},
                                  {"role": "S", "start": 4, "end": 6}]}, "contiguous"),
        ({"text": None, "turns": [{"role": "X", "start": 1, "end": 2}]}, '"role" must be'),
        ({"text": None, "turns": [{"role": "U", "start": 1, "end": 2},
                                  {"role": "S", "start": 3, "end": 6}], "length": 9},
         '"length" is 9 but the turns end at word 6'),
        ({"length": 4}, '"length" is 4 but the text has 6 words'),
        ({"nuggets": {"start": 1}}, '"nuggets" must be an array of objects'),
    ],
)  # fmt: skip
def test_rule3_record_fields(fields, message):
    record = dict(conversation([]), **fields)
    with pytest.raises(ValueError, match="c.jsonl:2: " + ".*" + _re(message)):
        batch_from_records([record], SETS, sources=["c.jsonl:2"])


def test_rule3_nuggets_lie_inside_one_system_turn():
    with pytest.raises(ValueError, match="crosses the end of its turn"):
        batch_from_records(
            [conversation([{"start": 2, "end": 3}], text="U:q S:a U:b S:c")], SETS, sources=["x"]
        )


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"A": {"target": [0.5, 0.5], "scale": 1}}', '"scale" must be a string'),
        ('{"A": {"target": [true, false], "scale": "nominal"}}', '"target" must be an array'),
        ('{"A": {"target": [0.5, 0.5], "scale": "nominal", "weight": 1}}', "unknown field"),
        ('{"A B": {"target": [0.5, 0.5], "scale": "nominal"}}', "whitespace"),
        ("[1, 2]", "expected an object"),
        ("", "empty"),
    ],
)
def test_rule3_attribute_set_files(tmp_path, text, message):
    f = tmp_path / "a.json"
    f.write_text(text)
    with pytest.raises(ValueError, match="a.json" + ".*" + _re(message)):
        read_attribute_sets(f)


# --------------------------------------------------------------------------- rule 4
@pytest.mark.parametrize("name", ["a\tb", "a b", "a\nb", "x\x00", "\u2028"])
def test_rule4_identifiers_that_could_forge_rows_are_refused(name):
    for field in ("topic", "run"):
        with pytest.raises(ValueError, match=f'"{field}" must not contain whitespace'):
            batch_from_records([conversation([], **{field: name})], SETS, sources=["x"])


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"topic": "T", "topic": "U", "nuggets": []}\n', "the key 'topic' appears twice"),
        (  # in a nugget, on line 2: the key count of the text and the values disagree
            '{"topic": "T", "nuggets": []}\n{"topic": "T", "nuggets": [{"start": 1, "start": 2}]}',
            "c.jsonl:2: the key 'start' appears twice",
        ),
        (  # in a field no reader reads
            '{"topic": "T", "nuggets": [], "meta": {"a": 1, "a": 2}}\n',
            "c.jsonl:1: the key 'a' appears twice",
        ),
        ("[" * 40 + "]" * 40 + "\n", "nests deeper than 16 levels"),
        ('{"topic": "T", "nuggets": [}\n', "c.jsonl:1: invalid JSON"),
        ("\n\n", "the file is empty"),
    ],
)
def test_rule3_json_lines_files(tmp_path, text, message):
    f = tmp_path / "c.jsonl"
    f.write_text(text)
    with pytest.raises(ValueError, match=_re(message)):
        read_conversations(f, SETS)


def test_rule3_a_bom_before_json_is_skipped(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(conversation([])).encode() + b"\n")
    assert read_conversations(f, SETS).topics == ("T",)


RULE = "the topic id 'all' is reserved for the mean over topics in score files"


def test_reserved_topic_in_conversations(tmp_path):
    f = tmp_path / "c.jsonl"
    rec = {"topic": "T1", "run": "r", "text": "U:q S:a", "nuggets": []}
    f.write_text(json.dumps(rec) + "\n" + json.dumps(dict(rec, topic="all")) + "\n")
    message = f'{f}:2: "topic": {RULE}'
    with pytest.raises(ValueError, match=f"^{message}"):
        read_conversations(f, SETS)
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    assert message in cli_error("gfrc", "--attributes", sets, f)


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


def _conversation(**fields):
    rec = {
        "topic": "T",
        "run": "r",
        "text": "U:q S:a b c d e",
        "nuggets": [{"start": 3, "end": 3, "level": 1, "groups": {"A": [0.5, 0.5]}}],
    }
    rec.update(fields)
    return rec


def _sets_file(tmp_path):
    f = tmp_path / "sets.json"
    f.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    return f


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
    code, _, err = _unknowncli_error("gfrc", "--attributes", _sets_file(tmp_path), f)
    _one_line(code, err, message)
    # the records an API user builds follow the same rule
    with pytest.raises(ValueError, match=re.escape(message.split(":", 2)[-1].strip())):
        batch_from_records([record], SETS, sources=["record 1"])


TEXT = (
    "U:Please list researchers. S:Here: Yoshua Bengio https://x/yb and Geoffrey Hinton "
    "U:More S:Fei-Fei Li"
)


def _batch(nuggets, **rec):
    record = {"topic": "T", "run": "r", "text": TEXT, "nuggets": nuggets}
    record.update(rec)
    return batch_from_records([record], SETS, sources=["c.jsonl:7"])


ENTITY_KEYS = st.sampled_from([None, "a", "b", "c", "d"])


def test_round_trip_through_json_lines(tmp_path):
    c = Conversation("T", "r", (Nugget(5, 7, 1, "yb", {"A": [0, 1]}),), text=TEXT)
    write_conversations([c], tmp_path / "c.jsonl")
    batch = read_conversations(tmp_path / "c.jsonl", SETS)
    assert batch.topics == ("T",) and batch.runs == ("r",)
    assert batch.memberships["A"].tolist() == [[0.0, 1.0]]


def test_conversations_are_written_whole_and_never_over_a_file(tmp_path):
    """write_conversations follows the output rule of every writer."""
    c = Conversation("T", "r", (Nugget(5, 7, 1, "yb", {"A": [0, 1]}),), text=TEXT)
    out = tmp_path / "c.jsonl"
    out.write_text("mine\n")
    with pytest.raises(FileExistsError, match="'out' parameter of io.write_conversations"):
        write_conversations([c], out)
    assert out.read_text() == "mine\n"
    write_conversations([c], out, overwrite=True)
    assert read_conversations(out, SETS).runs == ("r",)
    stream = stdio.StringIO()
    write_conversations([c], stream)
    assert stream.getvalue() == out.read_text(encoding="utf-8")
    with pytest.raises(TypeError, match="'conversations' parameter of io.write_conversations"):
        write_conversations([c.to_json()], tmp_path / "d.jsonl")
    assert not (tmp_path / "d.jsonl").exists()


def test_bundled_cases_read():
    sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    assert [a.name for a in sets] == ["PRONOUN", "HINDEX"]
    batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    assert len(batch) == 2 and batch.n_nuggets == 11


@pytest.mark.parametrize(
    "nuggets, rec, message",
    [
        (
            [{"start": 13, "end": 14, "level": 1, "groups": {"A": [1, 0]}}],
            {},
            "c.jsonl:7: .* ends after the last word",
        ),
        ([{"start": 1, "end": 2, "level": 1, "groups": {"A": [1, 0]}}], {}, "lies in a user turn"),
        ([{"start": 10, "end": 12, "level": 1, "groups": {"A": [1, 0]}}], {}, "crosses the end"),
        ([{"start": 6, "end": 5, "level": 1}], {}, "start word is after its end word"),
        (
            [
                {"start": 5, "end": 7, "level": 1, "groups": {"A": [1, 0]}},
                {"start": 7, "end": 8, "level": 1, "groups": {"A": [1, 0]}},
            ],
            {},
            "overlaps",
        ),
        ([{"start": 5, "end": 7, "level": -1}], {}, "level must be >= 0"),
        (
            [{"start": 5, "end": 7, "level": 1, "groups": {"A": [1, 0, 0]}}],
            {},
            r'c\.jsonl:7: nugget 1: "groups"\."A" must be an array of 2 numbers',
        ),
        ([{"start": 5, "end": 7, "level": 1, "groups": {"A": [0.5, 0.6]}}], {}, "summing to 1"),
        ([{"start": 5, "end": 7, "level": 1, "groups": {"A": [-0.5, 1.5]}}], {}, "non-negative"),
        (
            [{"start": 5.5, "end": 7, "level": 1}],
            {},
            'nugget 1: "start" must be an integer, got 5.5',
        ),
        ([], {"text": "S:Hi U:there"}, "must begin with 'U:'"),
        ([{"start": 5, "end": 7, "level": 1}], {"text": None}, "needs a 'turn'"),
    ],
)
def test_bad_conversations(nuggets, rec, message):
    with pytest.raises(ValueError, match=message):
        _batch(nuggets, **rec)


def test_invalid_json_names_file_and_line(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"topic": "T", "nuggets": []}\n\n{"topic": "U", "nuggets": [}\n')
    with pytest.raises(ValueError, match=r"c\.jsonl:3: invalid JSON"):
        read_conversations(f, SETS)


def test_record_without_topic(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"nuggets": []}\n')
    with pytest.raises(ValueError, match=r'c\.jsonl:1: "topic" must be a non-empty string'):
        read_conversations(f, SETS)


def test_attribute_set_file_errors(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{"A": {"target": [0.5, 0.6], "scale": "nominal"}}')
    with pytest.raises(ValueError, match="attribute set 'A': .*sum to 1"):
        read_attribute_sets(f)
    f.write_text('{"A": {"target": [0.5, 0.5]}}')
    with pytest.raises(ValueError, match='needs a "target" and a "scale"'):
        read_attribute_sets(f)
    f.write_text('{"A": ')
    with pytest.raises(ValueError, match=r"a\.json:1: invalid JSON"):
        read_attribute_sets(f)
    (tmp_path / "t.golddistr").write_text("0.5\n0.5\n")
    f.write_text('{"A": {"target": "t.golddistr", "scale": "ordinal"}}')
    assert read_attribute_sets(f)[0].target.tolist() == [0.5, 0.5]


def test_a_golddistr_path_that_cannot_be_opened_names_its_attribute_set(tmp_path):
    f = tmp_path / "a.json"
    for target, reason in [("missing", "No such file"), (".", "Is a directory"),
                           ("t\\u0000", "embedded null byte")]:  # fmt: skip
        f.write_text(f'{{"A": {{"target": "{target}", "scale": "ordinal"}}}}')
        with pytest.raises(ValueError, match=rf"a\.json: attribute set 'A': .*\({reason}"):
            read_attribute_sets(f)


@settings(max_examples=60, deadline=None)
@given(
    keys=st.lists(st.lists(ENTITY_KEYS, min_size=0, max_size=4), min_size=1, max_size=8),
    block_bytes=st.integers(1, 400),
)
def test_a_file_read_in_blocks_is_the_batch_of_all_its_records(tmp_path_factory, keys, block_bytes):
    """Blocks of any size give the batch of the whole file: entity keys are coded in
    order of first appearance over all the blocks, as over all the records."""
    from fairconv.io import _conversations

    records = []
    for c, row in enumerate(keys):
        nuggets = [{"start": 2 * k + 3, "end": 2 * k + 3, "level": 1, "entity": e,
                    "groups": {"A": [1, 0]}} for k, e in enumerate(row)]  # fmt: skip
        nuggets = [{k: v for k, v in n.items() if v is not None} for n in nuggets]
        text = "U:q S:" + " ".join(f"w{i}" for i in range(2 * len(row) + 2))
        records.append({"topic": f"T{c}", "run": "r", "text": text, "nuggets": nuggets})
    f = tmp_path_factory.mktemp("blocks") / "c.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    whole = batch_from_records(records, SETS, sources=[f"{f}:{c + 1}" for c in range(len(keys))])
    old = _conversations._BLOCK_BYTES
    _conversations._BLOCK_BYTES = block_bytes
    try:
        read = read_conversations(f, SETS)
    finally:
        _conversations._BLOCK_BYTES = old
    first_seen: dict = {}
    expected = [first_seen.setdefault(e, len(first_seen)) for row in keys for e in row if e]
    assert read.entity[read.entity >= 0].tolist() == expected
    for name in ("offsets", "start", "end", "level", "turn", "entity", "system_turns", "lengths"):
        assert getattr(read, name).tolist() == getattr(whole, name).tolist(), name
    assert read.memberships["A"].tolist() == whole.memberships["A"].tolist()
    assert (read.topics, read.runs, read.sources) == (whole.topics, whole.runs, whole.sources)
