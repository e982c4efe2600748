"""Exact (topic, doc) joins by hashing, including forced hash collisions."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv._accel import _keys

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
    assert table.find_aligned(q_ids, [k[1] for k in query_keys]).tolist() == rows.tolist()
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


@st.composite
def table_and_listing(draw):
    """Unique table keys, and a listing of them that keeps the table's order within
    each topic for the most part: some keys dropped, some changed, some moved."""
    table_keys = list(dict.fromkeys(draw(keys)))
    listing = []
    for key in table_keys:
        action = draw(st.sampled_from(["keep", "keep", "keep", "drop", "change", "move"]))
        if action == "keep":
            listing.append(key)
        elif action == "change":
            listing.append((key[0], key[1] + b"x"))
        elif action == "move":
            listing.insert(draw(st.integers(0, len(listing))), key)
    return table_keys, listing


@given(table_and_listing())
def test_find_aligned_equals_find_on_listings_in_table_order(pair):
    table_keys, listing = pair
    _check(table_keys, listing)
    t_ids = np.array([k[0] for k in table_keys], dtype=np.int64)
    table = _keys.KeyTable(t_ids, [k[1] for k in table_keys])
    q_ids = np.array([k[0] for k in listing], dtype=np.int64)
    rows = table.find_aligned(q_ids, [k[1] for k in listing])
    assert rows.tolist() == [table_keys.index(k) if k in table_keys else -1 for k in listing]


def test_find_aligned_takes_the_same_place_without_hashing(monkeypatch):
    """A listing in the table's order is found at the same places: no hash is computed."""
    t_ids = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)
    docs = [b"a", b"b", b"c", b"a", b"d", b"e"]
    table = _keys.KeyTable(t_ids, docs)

    def no_hashing(*args, **kwargs):
        raise AssertionError("hashed")

    monkeypatch.setattr(_keys, "string_hashes", no_hashing)
    sub = np.array([0, 1, 4, 5])  # topic 0's first two docs, then topics 1 and 2 from 'd'
    assert table.find_aligned(
        t_ids[[0, 1, 3, 4, 5]], [docs[i] for i in [0, 1, 3, 4, 5]]
    ).tolist() == [0, 1, 3, 4, 5]
    with pytest.raises(AssertionError, match="hashed"):  # 'd' is not first of topic 1
        table.find_aligned(t_ids[sub], [docs[i] for i in sub])


# hashes that often agree on their high bits, on their low bits, or on both
HASHES = st.lists(
    st.one_of(
        st.integers(0, 2**64 - 1),
        st.integers(0, 7).map(lambda k: k << 61),
        st.integers(0, 7),
        st.integers(0, 3).map(lambda k: (k << 62) | 5),
    ),
    max_size=80,
)


@given(HASHES)
def test_argsort_is_numpys_stable_argsort(values):
    h = np.array(values, dtype=np.uint64)
    assert _keys.argsort(h).tolist() == np.argsort(h, kind="stable").tolist()


def test_argsort_of_many_hashes_with_equal_high_bits():
    rng = np.random.default_rng(3)
    h = rng.integers(0, 2**64, size=100_000, dtype=np.uint64)
    h[::7] = h[1::7][: len(h[::7])] ^ rng.integers(0, 2**17, size=len(h[::7]), dtype=np.uint64)
    h[::11] = h[0]
    assert np.array_equal(_keys.argsort(h), np.argsort(h, kind="stable"))
