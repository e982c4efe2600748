"""The accelerators' switch and the value formatting of score tables.

Run by the main suite (standard route) and again by CI with the ``fast`` extra
installed, where ``_orjson.repr_text`` formats through orjson: the strings must be
``repr``'s either way.
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fairconv._accel import _orjson


def reprs(values: np.ndarray) -> list[str]:
    """The strings of :func:`_orjson.repr_text`, cut at the starts and lengths it gives."""
    text, starts, lengths = _orjson.repr_text(values)
    assert len(starts) == len(lengths) == len(values)
    cuts = zip(starts.tolist(), lengths.tolist(), strict=True)
    return [text[s : s + n].decode() for s, n in cuts]


EDGES = [
    0.0,
    -0.0,
    1e-4,
    np.nextafter(1e-4, 0),
    np.nextafter(1e-4, 1),
    1e16,
    np.nextafter(1e16, 0),
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    0.1,
    1.0,
    123456789.125,
    999999999999999.9,
    1e15,
    float("nan"),
    float("inf"),
    float("-inf"),
]


def test_edges_are_formatted_as_repr():
    values = np.array(EDGES + [-x for x in EDGES])
    assert reprs(values) == [repr(x) for x in values.tolist()]


def test_doubles_of_every_exponent_are_formatted_as_repr():
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2**64, size=200_000, dtype=np.uint64).view(np.float64)
    scaled = rng.random(200_000) * 10.0 ** rng.integers(-8, 20, size=200_000)
    for v in (values, scaled, scaled[(scaled >= 1e-4) & (scaled < 1e16)]):
        assert reprs(v) == [repr(x) for x in v.tolist()]


def test_no_values_give_no_text():
    text, starts, lengths = _orjson.repr_text(np.zeros(0))
    assert (text, len(starts), len(lengths)) == (b"", 0, 0)


@given(st.lists(st.floats(), max_size=50))
def test_any_floats_are_formatted_as_repr(values):
    assert reprs(np.array(values, dtype=np.float64)) == [repr(x) for x in values]


def test_pure_turns_every_accelerator_off(monkeypatch):
    monkeypatch.setenv("FAIRCONV_PURE", "1")
    assert _orjson.module("numpy") is None
    monkeypatch.setenv("FAIRCONV_PURE", "")
    assert _orjson.module("numpy") is np
    assert _orjson.module("no_such_module_of_fairconv") is None
