"""The id rule is written once (fairconv._validation.ID_FORBIDDEN): its text and byte
forms, and the whitespace-table rule derived from it, agree on every code point."""

import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import _validation as v
from fairconv.io import FileFormatError

ALL = "".join(map(chr, range(sys.maxunicode + 1)))


def _in_ranges(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in v.ID_FORBIDDEN)


def _plain_rule(char: str) -> bool:
    """The rule in words: whitespace, a control character, the BOM or a surrogate."""
    code = ord(char)
    return (
        char.isspace()
        or code < 0x20
        or 0x7F <= code <= 0x9F
        or code == 0xFEFF
        or 0xD800 <= code <= 0xDFFF
    )


def test_ranges_are_the_rule_in_words():
    # every code point: the ranges hold exactly what the rule names
    forbidden = v.NOT_IN_ID.findall(ALL)
    assert forbidden == [c for c in ALL if _plain_rule(c)]
    assert forbidden == [c for c in ALL if _in_ranges(ord(c))]


def test_byte_rule_agrees_with_text_rule_on_every_code_point():
    data = ALL.encode("utf-8", "surrogatepass")
    found = [m.group().decode("utf-8", "surrogatepass") for m in v.NOT_IN_ID_BYTES.finditer(data)]
    assert found == v.NOT_IN_ID.findall(ALL)


def test_table_rule_is_the_id_rule_but_the_separators():
    from fairconv.io._text import _BAD_TABLE_BYTES

    data = ALL.encode("utf-8", "surrogatepass")
    found = {m.group().decode("utf-8", "surrogatepass") for m in _BAD_TABLE_BYTES.finditer(data)}
    ids = set(v.NOT_IN_ID.findall(ALL))
    surrogates = {chr(c) for c in range(0xD800, 0xE000)}  # not UTF-8: refused as such
    assert ids - found == set(v.TOKEN_SEPARATORS) | surrogates
    assert found - ids == set()


_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),  # any code point, surrogates included
        st.sampled_from([c for c in ALL[:0x3100] if _plain_rule(c)] + ["\ufeff", "a", "é"]),
    ),
    max_size=6,
)


@given(st.lists(_TEXT, max_size=8))
def test_first_bad_id_agrees_on_text_and_bytes(ids):
    expected = next((i for i, t in enumerate(ids) if v.id_fault(t) is not None), -1)
    assert v.first_bad_id(ids) == expected
    assert v.first_bad_id(np.array(ids, dtype=object)) == expected
    encoded = [t.encode("utf-8", "surrogatepass") for t in ids]
    assert v.first_bad_id(encoded) == expected
    for i, t in enumerate(ids):  # the plain loop: one character at a time
        bad = not t or any(_plain_rule(c) for c in t)
        assert (v.id_fault(t) is not None) == bad, i


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a b", '"topic" must not contain whitespace or control characters, got "a b"'),
        ("a\u3000b", '"topic" must not contain whitespace or control characters'),
        ("a\x85", '"topic" must not contain whitespace or control characters'),
        ("\ufeffa", '"topic" must not contain a byte-order mark \\(U\\+FEFF\\) or a lone'),
        ("", '"topic" must be a non-empty string, got ""'),
        (3, '"topic" must be a non-empty string, got 3'),
    ],
)
def test_check_id(value, message):
    with pytest.raises(FileFormatError, match="^f.json:3: nugget 2: " + message) as err:
        v.check_id(value, "topic", v.Where("f.json", 3).then("nugget 2"))
    assert (err.value.path, err.value.line) == ("f.json", 3)
    assert v.check_id("T-1\u00e9", "topic", "f.json") == "T-1\u00e9"
