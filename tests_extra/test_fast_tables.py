"""With the fast extra installed, score tables format their values through orjson.

tests/test_fast.py (rerun by CI with the extra) checks that the strings are repr's;
this shows that the orjson route is the one taken, and that FAIRCONV_PURE=1 leaves it.
"""

import io

import numpy as np
import orjson

from fairconv._accel import _orjson
from fairconv.results import ScoreTable


def _table():
    values = np.array([[[0.25, 1e-7]], [[0.5, float("nan")]]])  # (topics, runs, measures)
    present = np.ones(values.shape, bool)
    return ScoreTable(
        topics=("t1", "t2"), runs=("r",), measures=("GFR", "ERR"), values=values, present=present
    )


def _tsv():
    out = io.StringIO()
    _table().to_tsv(out)
    return out.getvalue()


def test_score_tables_are_formatted_by_orjson(monkeypatch):
    calls = []

    class Counting:
        OPT_SERIALIZE_NUMPY = orjson.OPT_SERIALIZE_NUMPY

        @staticmethod
        def dumps(*args, **kwargs):
            calls.append(len(args[0]))
            return orjson.dumps(*args, **kwargs)

    monkeypatch.delenv("FAIRCONV_PURE", raising=False)
    monkeypatch.setattr(_orjson, "module", lambda name: Counting if name == "orjson" else None)
    fast = _tsv()
    assert calls == [2]  # 0.25 and 0.5; 1e-7 and NaN take repr
    monkeypatch.undo()
    monkeypatch.setenv("FAIRCONV_PURE", "1")
    assert _orjson.module("orjson") is None
    assert _tsv() == fast
    assert "r\tt1\tERR\t1e-07\n" in fast and "r\tt2\tERR\tNaN\n" in fast


def test_the_extra_is_installed():
    assert _orjson.module("orjson") is orjson
