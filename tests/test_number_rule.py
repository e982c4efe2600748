"""The decimal grammar is written once (fairconv.io._text.DECIMAL): the fast byte route,
the one-pass check of many tokens and every number column accept exactly what it does."""

import io

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fairconv._accel import _bytes
from fairconv.io import FileFormatError, _text, read_golddistr

TOKENS = st.text(alphabet="0123456789+-.eE_xin", min_size=1, max_size=12).map(str.encode)


def _rule(token: bytes):
    """The grammar by hand: sign, digits and one point (a digit somewhere), exponent."""
    body = token[1:] if token[:1] in (b"+", b"-") else token
    mantissa, _, exponent = body.lower().partition(b"e")
    if b"e" in body.lower():
        exponent = exponent[1:] if exponent[:1] in (b"+", b"-") else exponent
        if not exponent.isdigit():
            return None
    if mantissa.count(b".") > 1 or not mantissa.replace(b".", b"").isdigit():
        return None
    value = float(token)
    return value if np.isfinite(value) else None


@given(TOKENS)
def test_the_grammar_is_the_rule_in_words(token):
    assert _text.decimal(token) == _rule(token)


@given(st.lists(TOKENS, min_size=1, max_size=8))
def test_one_pass_over_many_tokens_is_the_grammar(tokens):
    joined = b"\n".join(tokens)
    assert bool(_text.ALL_DECIMALS.fullmatch(joined)) == all(_text.DECIMAL.match(t) for t in tokens)


@given(st.lists(TOKENS, min_size=1, max_size=8))
def test_the_fast_route_takes_only_the_grammar_and_float_values(tokens):
    buf = _bytes.padded(b"\n".join(tokens))
    starts, ends = _bytes.bounds(buf)
    values, ok = _bytes.decimals(buf, starts, ends)
    for token, value, good in zip(tokens, values.tolist(), ok.tolist(), strict=True):
        if good:
            assert _text.DECIMAL.match(token), token
            assert value == float(token)


@given(st.lists(TOKENS, min_size=2, max_size=6))
def test_a_number_column_accepts_exactly_the_grammar(tokens):
    stream = io.BytesIO(b"\n".join(tokens) + b"\n")
    expected = [_rule(t) for t in tokens]
    if None in expected:
        bad = expected.index(None) + 1
        try:
            read_golddistr(stream)
        except FileFormatError as err:
            assert err.line == bad
        else:
            raise AssertionError(f"{tokens} read")
    else:
        assert read_golddistr(stream).tolist() == expected
