"""fairconv._accel: the accelerators' switch, the exact key joins, the threads.

- ``FAIRCONV_PURE`` turns every optional module off. Run by the main suite (standard
  route) and again by CI with the ``fast`` extra installed (tests_extra/test_fast_json.py
  checks orjson's JSON decoding).
- Exact (topic, doc) joins by hashing, forced hash collisions included.
- Work on threads gives the results and the error of a plain loop; ``n_jobs`` (or
  ``FAIRCONV_THREADS``) says how many threads, 1 starting none; every pool is shut down
  before the call returns; library calls leave the process as they found it."""

import gc
import os
import pathlib
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fairconv
from fairconv import _accel, gfr, ragfair, rankings
from fairconv._accel import _keys, _orjson, _threads
from fairconv._validation import calling
from fairconv.datasets import fairweb1_pilot, load_case, path
from fairconv.io import read_answers, read_conversations, read_run


def test_pure_turns_every_accelerator_off(monkeypatch):
    monkeypatch.setenv("FAIRCONV_PURE", "1")
    assert _orjson.module("numpy") is None
    monkeypatch.setenv("FAIRCONV_PURE", "")
    assert _orjson.module("numpy") is np
    assert _orjson.module("no_such_module_of_fairconv") is None


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


@pytest.fixture
def tiny_steps():
    """Steps of two rows, so that every loop over steps runs several times."""
    old = _keys._ROWS
    _keys._ROWS = 2
    yield
    _keys._ROWS = old


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


@pytest.mark.usefixtures("tiny_steps")
@given(keys, keys)
def test_find_and_first_occurrences_agree_with_dicts(table_keys, query_keys):
    _check(list(dict.fromkeys(table_keys)), query_keys)


@pytest.mark.usefixtures("tiny_steps")
@given(keys, keys)
def test_exact_even_when_every_hash_collides(table_keys, query_keys):
    original = _keys.key_hashes
    try:
        _keys.key_hashes = lambda t, d: original(t, d) % np.uint64(3)  # many collisions
        _check(list(dict.fromkeys(table_keys)), query_keys)
    finally:
        _keys.key_hashes = original


@pytest.mark.usefixtures("tiny_steps")
def test_empty_inputs():
    table = _keys.KeyTable(np.zeros(0, np.int64), [])
    assert table.find(np.array([1]), [b"x"]).tolist() == [-1]
    assert _keys.first_occurrences(np.zeros(0, np.int64), []).tolist() == []


@pytest.mark.usefixtures("tiny_steps")
def test_docs_of_different_widths_compare_by_their_bytes():
    a = np.array([b"abcdefgh", b"x"], dtype="S8")
    b = np.array([b"abcdefgh", b"x", b"abcdefghi"], dtype="S16")
    same = _keys._same_docs(a, np.array([0, 1, 0, 1]), b, np.array([0, 1, 2, 0]))
    assert same.tolist() == [True, True, False, False]


@pytest.mark.usefixtures("tiny_steps")
@given(table_and_listing())
def test_find_aligned_equals_find_on_listings_in_table_order(pair):
    table_keys, listing = pair
    _check(table_keys, listing)
    t_ids = np.array([k[0] for k in table_keys], dtype=np.int64)
    table = _keys.KeyTable(t_ids, [k[1] for k in table_keys])
    q_ids = np.array([k[0] for k in listing], dtype=np.int64)
    rows = table.find_aligned(q_ids, [k[1] for k in listing])
    assert rows.tolist() == [table_keys.index(k) if k in table_keys else -1 for k in listing]


@pytest.mark.usefixtures("tiny_steps")
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


@pytest.mark.usefixtures("tiny_steps")
@given(HASHES)
def test_argsort_is_numpys_stable_argsort(values):
    h = np.array(values, dtype=np.uint64)
    assert _keys.argsort(h).tolist() == np.argsort(h, kind="stable").tolist()


@pytest.mark.usefixtures("tiny_steps")
def test_argsort_of_many_hashes_with_equal_high_bits():
    rng = np.random.default_rng(3)
    h = rng.integers(0, 2**64, size=100_000, dtype=np.uint64)
    h[::7] = h[1::7][: len(h[::7])] ^ rng.integers(0, 2**17, size=len(h[::7]), dtype=np.uint64)
    h[::11] = h[0]
    assert np.array_equal(_keys.argsort(h), np.argsort(h, kind="stable"))


SRC = pathlib.Path(fairconv.__file__).parent


@pytest.fixture
def no_thread_setting(monkeypatch):
    """The tests below choose their threads; the caller's environment does not."""
    monkeypatch.delenv("FAIRCONV_THREADS", raising=False)


class NoPool:
    def __init__(self, *args, **kwargs):
        raise AssertionError("a thread pool was started")


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


def _answers(pilot):
    movies = [a for a in pilot.attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    return movies, read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])


CALLS = {
    "gfr.evaluate": lambda p, n: gfr.evaluate(p.qrels, p.runs, p.attributes, n_jobs=n),
    "rankings.prepare": lambda p, n: rankings.prepare(p.qrels, p.runs, p.attributes, n_jobs=n),
    "ragfair.evaluate": lambda p, n: ragfair.evaluate(
        p.qrels, p.runs, *_answers(p), cutoffs=[10], n_jobs=n
    ),
}


def _same(a, b):
    if isinstance(a, rankings.RankedLists):
        return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("lengths", "level"))
    return np.array_equal(a.values, b.values, equal_nan=True) and a.measures == b.measures


# --------------------------------------------------------------------------- process state
def _state():
    return gc.isenabled(), gc.get_threshold(), threading.active_count()


# --------------------------------------------------------------------------- plain loop
@pytest.mark.usefixtures("no_thread_setting")
def test_results_come_in_input_order_whatever_starts_first():
    items = list(range(12))
    cost = [(7 * i) % 5 for i in items]
    got = _accel.thread_map(lambda x: x * x, items, cost=cost, n_jobs=2)
    assert got == [x * x for x in items]


@pytest.mark.usefixtures("no_thread_setting")
def test_the_error_is_that_of_the_first_failing_item_in_input_order():
    def fail_odd(x):
        if x % 2:
            raise ValueError(f"item {x}")
        return x

    # the costliest failing item (7) starts first; item 1 fails first in input order
    cost = [0, 0, 0, 0, 0, 0, 0, 9]
    with pytest.raises(ValueError, match="item 1"):
        _accel.thread_map(fail_odd, list(range(8)), cost=cost, n_jobs=2)


# --------------------------------------------------------------------------- n_jobs
@pytest.mark.usefixtures("no_thread_setting")
def test_n_jobs_none_is_the_environment_variable_else_the_available_cores(monkeypatch):
    if hasattr(os, "process_cpu_count"):
        cores = os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count()
    assert _accel.resolve_n_jobs(None) == _accel.available_cores() == cores
    assert _accel.resolve_n_jobs(-1) == cores
    assert _accel.resolve_n_jobs(3) == 3 and _accel.resolve_n_jobs(np.int64(1)) == 1
    monkeypatch.setenv("FAIRCONV_THREADS", "5")
    assert _accel.resolve_n_jobs(None) == 5
    assert _accel.resolve_n_jobs(2) == 2  # the caller's value comes first
    monkeypatch.setenv("FAIRCONV_THREADS", "-1")
    assert _accel.resolve_n_jobs(None) == cores
    monkeypatch.setenv("FAIRCONV_THREADS", "")
    assert _accel.resolve_n_jobs(None) == cores


@pytest.mark.usefixtures("no_thread_setting")
def test_the_available_cores_follow_the_process_affinity(monkeypatch):
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert _accel.resolve_n_jobs(None) == _accel.resolve_n_jobs(-1) == 3
    monkeypatch.delattr(os, "sched_getaffinity")
    assert _accel.resolve_n_jobs(None) == 64


@pytest.mark.usefixtures("no_thread_setting")
@pytest.mark.parametrize("bad", [0, -2, True, False, 1.0, 2.5, "2", [2], np.bool_(True)])
def test_a_bad_n_jobs_is_a_value_error_naming_it(bad):
    with calling("f"):
        with pytest.raises(
            ValueError, match=r"The 'n_jobs' parameter of f must be an integer >= 1"
        ):
            _accel.resolve_n_jobs(bad)


@pytest.mark.usefixtures("no_thread_setting")
@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5", "+", " "])
def test_a_bad_fairconv_threads_is_a_value_error_naming_it(monkeypatch, bad):
    monkeypatch.setenv("FAIRCONV_THREADS", bad)
    with pytest.raises(ValueError, match="The environment variable FAIRCONV_THREADS must"):
        _accel.resolve_n_jobs(None)


@pytest.mark.usefixtures("no_thread_setting")
@pytest.mark.parametrize("call", list(CALLS))
def test_one_job_starts_no_thread_and_any_count_gives_the_same_result(monkeypatch, pilot, call):
    many = CALLS[call](pilot, 3)
    monkeypatch.setattr(_threads, "ThreadPoolExecutor", NoPool)
    assert _same(CALLS[call](pilot, 1), many)
    monkeypatch.setenv("FAIRCONV_THREADS", "1")
    assert _same(CALLS[call](pilot, None), many)


@pytest.mark.usefixtures("no_thread_setting")
@pytest.mark.parametrize("call", list(CALLS))
def test_every_threaded_function_names_a_bad_n_jobs(pilot, call):
    name = call.split(".")[-1]
    with pytest.raises(ValueError, match=rf"The 'n_jobs' parameter of \S*{name} must"):
        CALLS[call](pilot, 0)


# --------------------------------------------------------------------------- no thread left
@pytest.mark.usefixtures("no_thread_setting")
def test_no_thread_outlives_a_map_even_when_an_item_fails():
    before = threading.active_count()
    _accel.thread_map(lambda x: x, list(range(20)), n_jobs=4)
    assert threading.active_count() == before
    with pytest.raises(ZeroDivisionError):
        _accel.thread_map(lambda x: 1 / (x - 3), list(range(20)), n_jobs=4)
    assert threading.active_count() == before


@pytest.mark.usefixtures("no_thread_setting")
def test_library_calls_leave_the_collector_and_the_threads_as_found(pilot):
    gc.set_threshold(1234, 11, 12)
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            before = _state()
            gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, n_jobs=4)
            assert _state() == before
            case = load_case("r112")
            read_conversations(case.conversations_path, case.attribute_sets)
            assert _state() == before
            read_run(path("fairweb1-pilot", "runs", "run.bm25-depThre6"))
            assert _state() == before
    finally:
        gc.enable()
        gc.set_threshold(700, 10, 10)


@pytest.mark.usefixtures("no_thread_setting")
def test_a_reader_that_fails_restores_the_collector(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"topic": "t", "run": "r", "nuggets": [}\n')
    before = _state()
    with pytest.raises(ValueError, match="c.jsonl:1: invalid JSON"):
        read_conversations(f, [])
    assert _state() == before


@pytest.mark.usefixtures("no_thread_setting")
def test_only_the_console_script_tunes_the_allocator():
    """No malloc_trim/mallopt and no collector setting or pause in library code (the
    collector is process-wide: pausing it pauses it for every thread of the host
    program); cli.run alone tunes the allocator."""
    allowed = {SRC / "cli" / "__init__.py"}
    for source in SRC.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        if source not in allowed:
            assert not re.search(r"malloc_trim|mallopt|CDLL", text), source
        assert not re.search(r"gc\.(freeze|set_threshold|collect|disable)", text), source


@pytest.mark.usefixtures("no_thread_setting")
def test_the_program_keeps_freed_memory_for_reuse():
    """In a process of its own (the setting is the process's): glibc's heaps then serve
    and keep blocks up to 32 MiB."""
    code = "from fairconv import cli\nprint(cli._reuse_freed_memory())\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sys.platform.startswith("linux"))
