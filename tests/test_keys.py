"""Exact (topic, doc) joins by hashing, including forced hash collisions."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import _keys

keys = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from([b"a", b"b", b"c", b"dd", b"e"])), max_size=30
)


def _check(table_keys, query_keys):
    t_ids = np.array([k[0] for k in table_keys], dtype=np.int64)
    table = _keys.KeyTable(t_ids, [k[1] for k in table_keys])
    index = {}
    for i, k in enumerate(table_keys):
        index.setdefault(k, i)
    q_ids = np.array([k[0] for k in query_keys], dtype=np.int64)
    rows = table.find(q_ids, [k[1] for k in query_keys])
    for k, row in zip(query_keys, rows.tolist(), strict=False):
        if k in index:
            assert table_keys[row] == k
        else:
            assert row == -1
    first = _keys.first_occurrences(q_ids, [k[1] for k in query_keys])
    for i, k in enumerate(query_keys):
        assert first[i] == query_keys.index(k)
    # with ``at`` the keys name their docs by index: the same answers as a copy in order
    docs = _keys.as_docs([k[1] for k in query_keys][::-1])
    at = np.arange(len(query_keys))[::-1].copy()
    assert table.find(q_ids, docs, at=at).tolist() == rows.tolist()
    assert _keys.first_occurrences(q_ids, docs, at=at).tolist() == first.tolist()


@pytest.fixture(autouse=True)
def tiny_steps():
    """Steps of two rows, so that every loop over steps runs several times."""
    old = _keys._ROWS
    _keys._ROWS = 2
    yield
    _keys._ROWS = old


@given(keys, keys)
def test_find_and_first_occurrences_agree_with_dicts(table_keys, query_keys):
    _check(list(dict.fromkeys(table_keys)), query_keys)


@given(keys, keys)
def test_exact_even_when_every_hash_collides(table_keys, query_keys):
    original = _keys.key_hashes
    try:
        _keys.key_hashes = lambda t, d: original(t, d) % np.uint64(3)  # many collisions
        _check(list(dict.fromkeys(table_keys)), query_keys)
    finally:
        _keys.key_hashes = original


def test_empty_inputs():
    table = _keys.KeyTable(np.zeros(0, np.int64), [])
    assert table.find(np.array([1]), [b"x"]).tolist() == [-1]
    assert _keys.first_occurrences(np.zeros(0, np.int64), []).tolist() == []


def test_docs_of_different_widths_compare_by_their_bytes():
    a = np.array([b"abcdefgh", b"x"], dtype="S8")
    b = np.array([b"abcdefgh", b"x", b"abcdefghi"], dtype="S16")
    same = _keys._same_docs(a, np.array([0, 1, 0, 1]), b, np.array([0, 1, 2, 0]))
    assert same.tolist() == [True, True, False, False]
