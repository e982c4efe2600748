"""Exact (topic, doc) joins by hashing, including forced hash collisions."""

import numpy as np
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
