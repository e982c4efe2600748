"""Fuzz the JSON readers: any document ends in a result or a ValueError naming the file.

Random JSON values, and valid records with one field replaced by a random value, are
written to a file and read by every JSON reader (conversations, attribute sets, RAG
answers, nugget match labels). Nothing may raise another exception or a warning.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet
from fairconv.io import read_answers, read_attribute_sets, read_conversations, read_labels

SETS = [AttributeSet("A", [0.5, 0.5], "nominal"), AttributeSet("B", [0.2, 0.3, 0.5], "ordinal")]

# text with lone surrogates too: json.dumps writes them as \ud800 escapes
TEXT = st.text(st.one_of(st.characters(), st.sampled_from("\ud800\udbff\udc00\udfff")), max_size=6)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)

CONVERSATION = {
    "topic": "T",
    "run": "r",
    "text": "U:q S:a b c U:more S:d e",
    "nuggets": [
        {"start": 3, "end": 4, "level": 2, "entity": "e1", "groups": {"A": [1, 0], "B": [0, 1, 0]}},
        {"start": 7, "end": 7, "level": 1, "groups": {"A": [0.5, 0.5], "B": [0, 0, 1]}},
    ],
}
ANSWER = {"topic": "T", "run": "r", "entities": [{"level": 2, "groups": {"A": [0, 1]}}]}
LABEL = {
    "topic": "T", "turn": "T_1", "run": "r", "gold": ["g1", "g2"], "extracted": ["e1"],
    "ntn": [["e1", "g2"]], "ntr": ["g1"],
}  # fmt: skip
ATTRIBUTES = {"A": {"target": [0.5, 0.5], "scale": "nominal"}}

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def paths_of(record):
    """Every place in a record where a value can be replaced: lists of keys/indices."""
    out = [[]]
    if isinstance(record, dict):
        for k, v in record.items():
            out += [[k, *p] for p in paths_of(v)]
    elif isinstance(record, list):
        for i, v in enumerate(record):
            out += [[i, *p] for p in paths_of(v)]
    return out


def replaced(record, path, value):
    if not path:
        return value
    copy = json.loads(json.dumps(record))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def read_all(tmp_path, text, name):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    readers = {
        "c.jsonl": lambda: read_conversations(f, SETS),
        "a.jsonl": lambda: read_answers(f, SETS[:1]),
        "l.jsonl": lambda: read_labels(f),
        "s.json": lambda: read_attribute_sets(f),
    }
    try:
        readers[name]()
    except ValueError as exc:
        assert str(f) in str(exc) or f.name in str(exc), str(exc)


def check(tmp_path, name, record, data):
    path = data.draw(st.sampled_from(paths_of(record)))
    value = data.draw(VALUES)
    doc = replaced(record, path, value)
    line = json.dumps(doc, allow_nan=False)
    read_all(tmp_path, line + "\n" if name.endswith("jsonl") else line, name)


@FUZZ
@given(st.data())
def test_conversation_records_with_one_field_replaced(tmp_path_factory, data):
    check(tmp_path_factory.mktemp("c"), "c.jsonl", CONVERSATION, data)


@FUZZ
@given(st.data())
def test_answer_records_with_one_field_replaced(tmp_path_factory, data):
    check(tmp_path_factory.mktemp("a"), "a.jsonl", ANSWER, data)


@FUZZ
@given(st.data())
def test_label_records_with_one_field_replaced(tmp_path_factory, data):
    check(tmp_path_factory.mktemp("l"), "l.jsonl", LABEL, data)


@FUZZ
@given(st.data())
def test_attribute_set_files_with_one_field_replaced(tmp_path_factory, data):
    check(tmp_path_factory.mktemp("s"), "s.json", ATTRIBUTES, data)


@FUZZ
@given(VALUES, st.sampled_from(["c.jsonl", "a.jsonl", "l.jsonl", "s.json"]))
def test_random_json_documents(tmp_path_factory, value, name):
    read_all(tmp_path_factory.mktemp("r"), json.dumps(value, allow_nan=False) + "\n", name)


@FUZZ
@given(st.text(max_size=80), st.sampled_from(["c.jsonl", "a.jsonl", "l.jsonl", "s.json"]))
def test_random_text(tmp_path_factory, text, name):
    read_all(tmp_path_factory.mktemp("t"), text, name)
