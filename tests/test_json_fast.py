"""The JSON readers' shortcuts give what the full rules give, on generated texts."""

import importlib.util
import io
import json
import re
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fairconv.io import Unreadable, iter_jsonl
from fairconv.io import _json as rules

# strings full of what the shortcuts look at: quotes, backslashes, brackets, digits, e;
# numbers of up to 26 digits, and strings that look like numbers with long exponents
text = st.text(alphabet='"\\[]{}:,0123456789eE+-. aé\n', max_size=12)
number = st.one_of(
    st.integers(-(10**25), 10**25),
    st.floats(allow_nan=False, allow_infinity=False),
    st.builds(lambda m, e: f"{m}e{e}", st.integers(-999, 999), st.integers(-400, 400)),
)
values = st.recursive(
    st.one_of(st.none(), st.booleans(), text, number),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=20,
)


def keys(value) -> int:
    """The number of keys of every object in a decoded value."""
    if isinstance(value, dict):
        return len(value) + sum(map(keys, value.values()))
    if isinstance(value, list):
        return sum(map(keys, value))
    return 0


def nesting(value) -> int:
    """The nesting depth of a decoded value, straight from the definition."""
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


def integers(value):
    """Every int in a decoded value."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in integers(v)]
    if isinstance(value, list):
        return [x for v in value for x in integers(v)]
    return [value] if type(value) is int else []


def canonical(value):
    """Decoded values with Unreadable numbers as their text, for comparison."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, Unreadable):
        return ("unreadable", value.text)
    return (type(value).__name__, repr(value))


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_structure_read_from_the_text_is_that_of_the_values(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert rules._structure(data) == (nesting(value), keys(value))


@pytest.mark.parametrize(
    "value",
    [["x:y", "z"], {"": "", "a": "[:"}, ["", "", ":"], {"a": ["]", "", "{"]}, [["}"], "", [""]]],
)
def test_strings_side_by_side_leave_every_mark_on_its_side(value):
    data = json.dumps(value).encode()
    assert rules._structure(data) == (nesting(value), keys(value))


def test_a_key_twice_counts_twice():
    assert rules._structure(b'{"a": 1, "a": {"b:": "c\\\\", "d": "e\\":"}}') == (2, 4)


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_plain_numbers_decode_as_the_number_hooks_do(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    hooked = canonical(rules._loads(data.decode(), False))
    plain, short = rules._number_shapes(data)
    if plain:
        assert canonical(rules._loads(data.decode(), True)) == hooked
    if short:
        assert all(abs(x) < 2**63 for x in integers(value))


def test_long_or_huge_numbers_take_the_hooks():
    for literal in ["1" * 21, "-" + "9" * 25, "1e400", "2.5E+308", "1" + "0" * 120 + ".5"]:
        assert not rules._number_shapes(f'{{"x": {literal}}}'.encode())[0]
    for literal in ["1" * 20, "-" + "9" * 19]:
        assert rules._number_shapes(f'{{"x": {literal}}}'.encode()) == (True, False)
    for literal in ["9" * 18, "0.28900000000000003", "1e99", "-3.5E-12", "1e-99"]:
        assert rules._number_shapes(f'{{"x": {literal}, "id": "e400123"}}'.encode()) == (
            True,
            True,
        )


def test_identifier_rule_is_the_definition_on_every_code_point():
    """An id refuses exactly white space, control characters, the BOM and surrogates."""
    from fairconv._validation import NOT_IN_ID

    for c in map(chr, range(sys.maxunicode + 1)):
        refused = c.isspace() or ord(c) < 32 or 127 <= ord(c) < 160
        refused = refused or c == "\ufeff" or 0xD800 <= ord(c) <= 0xDFFF
        assert bool(NOT_IN_ID.search(c)) == refused, hex(ord(c))


# --------------------------------------------------------------------------- surrogates
@pytest.fixture(params=["pure"] + (["orjson"] if importlib.util.find_spec("orjson") else []))
def decoder(request, monkeypatch):
    """Both JSON routes: the standard decoder, and orjson where it is installed (CI runs
    this file again with the fast extra)."""
    if request.param == "orjson":
        monkeypatch.delenv("FAIRCONV_PURE", raising=False)
    else:
        monkeypatch.setenv("FAIRCONV_PURE", "1")
    return request.param


# escapes of surrogates, paired or not, next to escaped backslashes and look-alike text
PIECES = [r"\ud800", r"\uDBFF", r"\udc00", r"\uDFFF", r"\uD83D", r"\ude00", "\\\\", "u",
          "d800", "a", r"\u0041", r"\n"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8), st.booleans())
@example(["\\ud800", "\\\\", "\\udc00"], False)  # halves that an escaped backslash keeps apart
def test_a_lone_surrogate_is_refused_exactly_when_the_decoder_gives_one(pieces, as_key):
    """The text's pre-check never misses a lone surrogate the decoder would give."""
    text = "".join(pieces)
    line = f'{{"{text}": 1}}' if as_key else f'{{"topic": "{text}"}}'
    decoded = json.loads(line)
    lone = any(0xD800 <= ord(c) <= 0xDFFF for c in json.dumps(decoded, ensure_ascii=False))
    stream = io.BytesIO(line.encode() + b"\n")
    stream.name = "s.jsonl"
    try:
        assert iter_jsonl(stream) == [(1, decoded)]
        assert not lone
    except ValueError as exc:
        assert lone and str(exc).startswith("s.jsonl:1: "), str(exc)
        assert "must be valid Unicode text" in str(exc)


CONVERSATION = {"topic": "T", "run": "r", "text": "U:q S:a b", "nuggets": [
    {"start": 3, "end": 3, "level": 1, "entity": "e", "groups": {"A": [1, 0]}}]}  # fmt: skip


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("topic", "T\\ud800", '"topic" must be valid Unicode text, got "T\\ud800"'),
        ("run", "\\udc00r", '"run" must be valid Unicode text, got "\\udc00r"'),
        ("text", "U:q S:a \\udbffb", '"text" must be valid Unicode text'),
        ("entity", "e\\ud800", '"entity" of item 1 of "nuggets" must be valid Unicode text'),
    ],
)
def test_a_lone_surrogate_in_a_conversation_names_file_line_and_field(
    tmp_path, decoder, field, value, message
):
    from fairconv import AttributeSet
    from fairconv.io import read_conversations

    line = json.dumps(CONVERSATION)
    old = f'"{CONVERSATION.get(field, "e")}"'
    f = tmp_path / "c.jsonl"
    f.write_text(line + "\n" + line.replace(old, f'"{value}"', 1) + "\n")
    with pytest.raises(ValueError, match=re.escape(f"c.jsonl:2: {message}")):
        read_conversations(f, [AttributeSet("A", [0.5, 0.5], "nominal")])


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("a.jsonl", '{"topic": "M\\ud800", "run": "r", "entities": []}',
         'a.jsonl:1: "topic" must be valid Unicode text'),
        ("l.jsonl", '{"topic": "T", "turn": "T_1", "gold": ["g\\udc00"], "extracted": [], '
                    '"ntn": [], "ntr": []}',
         'l.jsonl:1: item 1 of "gold" must be valid Unicode text, got "g\\udc00"'),
        ("s.json", '{"A\\ud800": {"target": [0.5, 0.5], "scale": "nominal"}}',
         's.json: a key must be valid Unicode text, got "A\\ud800"'),
        ("s.json", '{"A": {"target": "x\\ud800.golddistr", "scale": "nominal"}}',
         's.json: "target" of "A" must be valid Unicode text'),
    ],
)  # fmt: skip
def test_a_lone_surrogate_in_every_json_reader(tmp_path, decoder, name, text, message):
    from fairconv import AttributeSet
    from fairconv.io import read_answers, read_attribute_sets, read_labels

    f = tmp_path / name
    f.write_text(text + "\n")
    read = {
        "a.jsonl": lambda: read_answers(f, [AttributeSet("A", [0.5, 0.5], "nominal")]),
        "l.jsonl": lambda: read_labels(f),
        "s.json": lambda: read_attribute_sets(f),
    }[name]
    with pytest.raises(ValueError, match=re.escape(message)):
        read()


def test_a_lone_surrogate_in_the_cli_is_one_error_line_and_no_output(tmp_path, decoder):
    import subprocess
    import sys

    from fairconv.datasets import path

    f = tmp_path / "s.jsonl"
    f.write_text('{"topic":"\\ud800","run":"r","text":"U:a S:b","nuggets":[]}\n')
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "gfrc", "--attributes",
         str(path("cases", "r112-attributes.json")), str(f)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    assert proc.stderr.count("\n") == 1
    assert f'{f}:1: "topic" must be valid Unicode text, got "\\ud800"' in proc.stderr
