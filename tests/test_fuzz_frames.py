"""Fuzz the in-memory inputs: any frame, dict or record stream ends in a result or an error
naming the input.

Values of every kind (missing values, bools, numbers at the edges of float64, bytes,
text with control characters or lone surrogates, containers) are put in the columns
of a DataFrame (as object columns and as the dtype pandas infers), a dict in
pytrec_eval's shape and records, and read as qrels, a run and memberships. Nothing may
raise another exception or a warning, and an error names the input kind.
"""

import warnings

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairconv.io import as_memberships, as_qrels, as_run

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TEXT = st.text(st.one_of(st.characters(), st.sampled_from("\ud800\udfff\ufeff#\x00 ")), max_size=5)
VALUES = st.one_of(
    st.none(),
    st.just(float("nan")),
    st.just(pd.NA),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=10),
    st.binary(max_size=3),
    TEXT,
    st.lists(st.floats(0, 1), max_size=3),
    st.dictionaries(st.integers(0, 2), st.floats(0, 1), max_size=2),
    st.sets(st.floats(0, 1), max_size=2),
)
ROWS = st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=1, max_size=5)


def _checked(call, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            call()
        except (ValueError, TypeError) as exc:
            assert kind in str(exc), str(exc)
            assert "\n" not in str(exc).strip()


def _frames(rows, names):
    columns = {n: [r[i] for r in rows] for i, n in enumerate(names)}
    yield "DataFrame", pd.DataFrame({n: pd.Series(v, dtype=object) for n, v in columns.items()})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            inferred = pd.DataFrame(columns)
    except (ValueError, TypeError, UnicodeError):
        return
    yield "DataFrame", inferred


@FUZZ
@given(rows=ROWS)
def test_qrels_and_runs_of_any_values_end_in_a_result_or_an_error_naming_the_input(rows):
    for _, frame in _frames(rows, ["query_id", "doc_id", "relevance"]):
        _checked(lambda f=frame: as_qrels(f), "qrels")
        _checked(lambda f=frame: as_run(f.rename(columns={"relevance": "score"})), "run")
    records = [{"query_id": t, "doc_id": d, "score": v} for t, d, v in rows]
    _checked(lambda: as_run(records, name="r"), "run")
    as_dict: dict = {}
    try:
        for t, d, v in rows:
            as_dict.setdefault(t, {})[d] = v
    except TypeError:  # unhashable keys: no dict to give
        return
    _checked(lambda: as_qrels(as_dict), "qrels")
    _checked(lambda: as_run(as_dict, name="r"), "run")


@FUZZ
@given(rows=ROWS, g=st.integers(2, 3))
def test_memberships_of_any_values_end_in_a_result_or_an_error_naming_the_input(rows, g):
    records = [{"query_id": t, "doc_id": d, "relevance": v} for t, d, v in rows]
    _checked(lambda: as_memberships(records, g), "memberships")
    frame = pd.DataFrame(
        {
            "query_id": pd.Series([r[0] for r in rows], dtype=object),
            "doc_id": pd.Series([r[1] for r in rows], dtype=object),
        }
    )
    for k in range(g):
        frame[f"g{k}"] = pd.Series([r[2] for r in rows], dtype=object)
    _checked(lambda: as_memberships(frame, g), "memberships")
    _checked(
        lambda: as_memberships(
            frame.astype({f"g{k}": np.float64 for k in range(g)}, errors="ignore"), g
        ),
        "memberships",
    )
