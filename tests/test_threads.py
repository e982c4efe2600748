"""Threads and process state: the outcome of a plain loop, no thread and no setting left.

Work on threads gives the results and the error of a plain loop; ``n_jobs`` (or
``FAIRCONV_THREADS``) says how many threads, 1 starting none; every pool is shut down
before the call returns; library calls leave the cycle collector, its thresholds and
the allocator as they found them (only the console script tunes the allocator).
"""

import gc
import os
import pathlib
import re
import subprocess
import sys
import threading

import numpy as np
import pytest

import fairconv
from fairconv import _accel, gfr, ragfair, rankings
from fairconv._accel import _threads
from fairconv._validation import calling
from fairconv.datasets import fairweb1_pilot, load_case, path
from fairconv.io import read_answers, read_conversations, read_run

SRC = pathlib.Path(fairconv.__file__).parent


@pytest.fixture(autouse=True)
def no_thread_setting(monkeypatch):
    """The tests below choose their threads; the caller's environment does not."""
    monkeypatch.delenv("FAIRCONV_THREADS", raising=False)


# --------------------------------------------------------------------------- plain loop
def test_results_come_in_input_order_whatever_starts_first():
    items = list(range(12))
    cost = [(7 * i) % 5 for i in items]
    got = _accel.thread_map(lambda x: x * x, items, cost=cost, n_jobs=2)
    assert got == [x * x for x in items]


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


def test_the_available_cores_follow_the_process_affinity(monkeypatch):
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert _accel.resolve_n_jobs(None) == _accel.resolve_n_jobs(-1) == 3
    monkeypatch.delattr(os, "sched_getaffinity")
    assert _accel.resolve_n_jobs(None) == 64


@pytest.mark.parametrize("bad", [0, -2, True, False, 1.0, 2.5, "2", [2], np.bool_(True)])
def test_a_bad_n_jobs_is_a_value_error_naming_it(bad):
    with calling("f"):
        with pytest.raises(
            ValueError, match=r"The 'n_jobs' parameter of f must be an integer >= 1"
        ):
            _accel.resolve_n_jobs(bad)


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5", "+", " "])
def test_a_bad_fairconv_threads_is_a_value_error_naming_it(monkeypatch, bad):
    monkeypatch.setenv("FAIRCONV_THREADS", bad)
    with pytest.raises(ValueError, match="The environment variable FAIRCONV_THREADS must"):
        _accel.resolve_n_jobs(None)


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


@pytest.mark.parametrize("call", list(CALLS))
def test_one_job_starts_no_thread_and_any_count_gives_the_same_result(monkeypatch, pilot, call):
    many = CALLS[call](pilot, 3)
    monkeypatch.setattr(_threads, "ThreadPoolExecutor", NoPool)
    assert _same(CALLS[call](pilot, 1), many)
    monkeypatch.setenv("FAIRCONV_THREADS", "1")
    assert _same(CALLS[call](pilot, None), many)


@pytest.mark.parametrize("call", list(CALLS))
def test_every_threaded_function_names_a_bad_n_jobs(pilot, call):
    name = call.split(".")[-1]
    with pytest.raises(ValueError, match=rf"The 'n_jobs' parameter of \S*{name} must"):
        CALLS[call](pilot, 0)


# --------------------------------------------------------------------------- no thread left
def test_no_thread_outlives_a_map_even_when_an_item_fails():
    before = threading.active_count()
    _accel.thread_map(lambda x: x, list(range(20)), n_jobs=4)
    assert threading.active_count() == before
    with pytest.raises(ZeroDivisionError):
        _accel.thread_map(lambda x: 1 / (x - 3), list(range(20)), n_jobs=4)
    assert threading.active_count() == before


# --------------------------------------------------------------------------- process state
def _state():
    return gc.isenabled(), gc.get_threshold(), threading.active_count()


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


def test_a_reader_that_fails_restores_the_collector(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"topic": "t", "run": "r", "nuggets": [}\n')
    before = _state()
    with pytest.raises(ValueError, match="c.jsonl:1: invalid JSON"):
        read_conversations(f, [])
    assert _state() == before


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


def test_the_program_keeps_freed_memory_for_reuse():
    """In a process of its own (the setting is the process's): glibc's heaps then serve
    and keep blocks up to 32 MiB."""
    code = "from fairconv import cli\nprint(cli._reuse_freed_memory())\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sys.platform.startswith("linux"))
