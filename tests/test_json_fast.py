"""The JSON readers' shortcuts give what the full rules give, on generated texts."""

import json
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import readers

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
    if isinstance(value, readers.Unreadable):
        return ("unreadable", value.text)
    return (type(value).__name__, repr(value))


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_structure_read_from_the_text_is_that_of_the_values(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert readers._structure(data) == (nesting(value), keys(value))


def test_a_key_twice_counts_twice():
    assert readers._structure(b'{"a": 1, "a": {"b:": "c\\\\", "d": "e\\":"}}') == (2, 4)


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_plain_numbers_decode_as_the_number_hooks_do(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    hooked = canonical(readers._loads(data.decode(), False))
    plain, short = readers._number_shapes(data)
    if plain:
        assert canonical(readers._loads(data.decode(), True)) == hooked
    if short:
        assert all(abs(x) < 2**63 for x in integers(value))


def test_long_or_huge_numbers_take_the_hooks():
    for literal in ["1" * 21, "-" + "9" * 25, "1e400", "2.5E+308", "1" + "0" * 120 + ".5"]:
        assert not readers._number_shapes(f'{{"x": {literal}}}'.encode())[0]
    for literal in ["1" * 20, "-" + "9" * 19]:
        assert readers._number_shapes(f'{{"x": {literal}}}'.encode()) == (True, False)
    for literal in ["9" * 18, "0.28900000000000003", "1e99", "-3.5E-12", "1e-99"]:
        assert readers._number_shapes(f'{{"x": {literal}, "id": "e400123"}}'.encode()) == (
            True,
            True,
        )


def test_identifier_rule_is_the_definition_on_every_code_point():
    """An id refuses exactly the characters that are white space or control characters."""
    from fairconv._validation import _NOT_IN_ID

    for c in map(chr, range(sys.maxunicode + 1)):
        refused = c.isspace() or ord(c) < 32 or 127 <= ord(c) < 160
        assert bool(_NOT_IN_ID.search(c)) == refused, hex(ord(c))
