"""Inputs of every kind give the numbers the files give, and errors naming the row."""

from collections import namedtuple

import numpy as np
import pandas as pd  # the test extra brings pandas
import pytest

from fairconv import FairconvWarning, gfr, ragfair
from fairconv.datasets import fairweb1_pilot, path
from fairconv.io import (
    as_memberships,
    as_qrels,
    as_run,
    as_runs,
    load_attribute,
    read_answers,
    read_run,
)

P = path("fairweb1-pilot")
Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")
ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")


def _lines(p):
    return [line.split() for line in p.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


@pytest.fixture(scope="module")
def reference(pilot):
    return gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10])


def qrels_rows():
    return [(t, d, int(lv[1:])) for t, d, lv in _lines(P / "fairweb1pilot.qrels")]


def run_rows(name):
    return [(t, d, float(s)) for t, _, d, _, s, _ in _lines(P / "runs" / name)]


RUN_FILES = sorted(p.name for p in (P / "runs").iterdir())


def _same(a, b):
    assert a.runs == b.runs and a.topics == b.topics and a.measures == b.measures
    np.testing.assert_array_equal(a.present, b.present)
    np.testing.assert_array_equal(a.values, b.values)


@pytest.mark.parametrize(
    "make_qrels",
    [
        lambda: pd.DataFrame(qrels_rows(), columns=["query_id", "doc_id", "relevance"]),
        lambda: pd.DataFrame(qrels_rows(), columns=["qid", "docno", "label"]),
        lambda: {t: {d: v for tt, d, v in qrels_rows() if tt == t} for t, _, _ in qrels_rows()},
        lambda: [Qrel(t, d, v, "0") for t, d, v in qrels_rows()],
        lambda: P / "fairweb1pilot.qrels",
    ],
    ids=["ir_measures frame", "PyTerrier frame", "pytrec_eval dict", "ir_datasets records", "path"],
)
def test_qrels_of_every_kind_score_as_the_file(pilot, reference, make_qrels):
    _same(gfr.evaluate(make_qrels(), pilot.runs, pilot.attributes, cutoffs=[10]), reference)


@pytest.mark.parametrize(
    "make_run",
    [
        lambda n: pd.DataFrame(run_rows(n), columns=["query_id", "doc_id", "score"]),
        lambda n: pd.DataFrame(
            [(t, d, s, i) for i, (t, d, s) in enumerate(run_rows(n))],
            columns=["qid", "docno", "score", "rank"],
        ),
        lambda n: pd.DataFrame(run_rows(n), columns=["q_id", "doc_id", "score"]),
        lambda n: [ScoredDoc(*r) for r in run_rows(n)],
    ],
    ids=["ir_measures frame", "PyTerrier frame", "ranx frame", "ir_datasets records"],
)
def test_ordered_runs_of_every_kind_score_as_the_files(pilot, reference, make_run):
    runs = {r.name: make_run(f) for r, f in zip(pilot.runs, RUN_FILES, strict=True)}
    _same(gfr.evaluate(pilot.qrels, runs, pilot.attributes, cutoffs=[10]), reference)


def test_dict_runs_are_ranked_by_score_as_trec_eval(pilot):
    runs = {
        r.name: {t: {d: s for tt, d, s in run_rows(f) if tt == t} for t, _, _ in run_rows(f)}
        for r, f in zip(pilot.runs, RUN_FILES, strict=True)
    }
    by_score = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, order="score")
    _same(gfr.evaluate(pilot.qrels, runs, pilot.attributes), by_score)
    tied = {"T": {"a": 1.0, "c": 1.0, "b": 2.0}}  # ties by doc id descending: b, c, a
    for doc, rank in (("b", 1), ("c", 2), ("a", 3)):  # ERR@3 of one relevant doc: p / rank
        with pytest.warns(FairconvWarning, match="GFR is ERR alone"):
            table = gfr.evaluate({"T": {doc: 1}}, {"x": tied}, [], cutoffs=[3])
        assert table.value("x", "T", "ERR@3") == 0.25 / rank


def test_memberships_of_every_kind_load_as_the_file(pilot, reference):
    rows = [(t, d, *map(float, v)) for t, d, *v in _lines(P / "fairweb1pilot.M-ORIGIN.gmemb")]
    groups = [f"g{i}" for i in range(len(rows[0]) - 2)]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", *groups])
    as_dict = {}
    for t, d, *v in rows:
        as_dict.setdefault(t, {})[d] = v
    for source in (frame, as_dict):
        data = load_attribute("M-ORIGIN", source, P / "M-ORIGIN.golddistr", "nominal")
        np.testing.assert_array_equal(
            data.memberships.matrix, pilot.attributes[3].memberships.matrix
        )
        with pytest.warns(FairconvWarning, match="GFR is ERR alone on 3 of the 4 topics"):
            table = gfr.evaluate(pilot.qrels, pilot.runs, [data], cutoffs=[10])
        ref = reference["GF-JSD@10[M-ORIGIN]"]
        assert table.value("Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]") == ref.value(
            "Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]"
        )


def test_ragfair_takes_the_same_inputs(pilot):
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    frame_runs = {
        r.name: pd.DataFrame(run_rows(f), columns=["query_id", "doc_id", "score"])
        for r, f in zip(pilot.runs, RUN_FILES, strict=True)
    }
    a = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers, cutoffs=[10])
    b = ragfair.evaluate(qrels_rows_frame(), frame_runs, movies, answers, cutoffs=[10])
    _same(a, b)


def qrels_rows_frame():
    return pd.DataFrame(qrels_rows(), columns=["query_id", "doc_id", "relevance"])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: as_qrels(pd.DataFrame({"query_id": ["T"], "doc_id": ["a"]})), "relevance column"),
        (lambda: as_qrels({"T": {"a b": 1}}), r"qrels dict:1: the doc id 'a b'"),
        (
            lambda: as_qrels({"T": {"a": 1, "b": "x"}}),
            r"qrels dict:2: the relevance must be a number",
        ),
        (lambda: as_qrels({"T": {"a": 1.5}}), r"qrels dict:1: the relevance must be an integer"),
        (lambda: as_qrels([Qrel("T", "a", 101, "0")]), r"qrels records:1: .*at most 100"),
        (lambda: as_run({"T": {"a": float("nan")}}, name="r"), r"run 'r' \(dict\):1: the score"),
        (
            lambda: gfr.evaluate(
                {"T": {"a": 1}}, {"r": [ScoredDoc("T", "a", 2.0), ScoredDoc("T", "a", 1.0)]}, []
            ),
            r"run 'r' \(records\):2: doc 'a' appears twice",
        ),
        (lambda: as_run(pd.DataFrame({"qid": ["T"], "docno": ["a"]})), "score column"),
        (lambda: as_memberships({"T": {"a": [0.5, 0.6]}}), r"memberships dict:1: .*sum to 1"),
        (
            lambda: (
                as_runs([{"T": {"a": 1.0}}, {"T": {"b": 1.0}}])
                and gfr.evaluate({"T": {"a": 1}}, [{"T": {"a": 1.0}}, {"T": {"b": 1.0}}], [])
            ),
            "two runs are named",
        ),
        (lambda: as_qrels(42), "must be a path"),
    ],
)
def test_bad_in_memory_input_names_the_row(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_gz_and_file_objects(tmp_path, pilot):
    import gzip

    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress((P / "runs" / RUN_FILES[0]).read_bytes()))
    with open(P / "runs" / RUN_FILES[0], "rb") as f:
        from_object = read_run(f)
    docs = pilot.runs[0].docs.tolist()
    assert read_run(gz).docs.tolist() == from_object.docs.tolist() == docs


# --------------------------------------------------------------------------- value checks
NOT_NUMBERS = [True, np.bool_(True), "2", np.str_("2"), np.complex128(2), None, b"2", [2]]
NOT_FINITE = [float("nan"), np.float64("nan"), float("inf"), -np.inf, np.float32("inf"), 10**400]
VALUE_CALLS = {
    "relevance": (lambda v: as_qrels({"T": {"a": 1, "b": v}}), r"qrels dict:2: the relevance"),
    "score": (
        lambda v: as_run([ScoredDoc("T", "a", 1.0), ScoredDoc("T", "b", v)], name="r"),
        r"run 'r' \(records\):2: the score",
    ),
    "probability": (
        lambda v: as_memberships({"T": {"a": [1, 0], "b": [v, 0]}}),
        r"memberships dict:2: the group probability",
    ),
}


@pytest.mark.parametrize("kind", list(VALUE_CALLS))
@pytest.mark.parametrize("value", NOT_NUMBERS + NOT_FINITE, ids=lambda v: repr(v)[:24])
def test_every_value_is_checked_explicitly_naming_its_row(kind, value):
    """No numpy bool, string or complex passes as a number; NaN and inf name their row."""
    call, where = VALUE_CALLS[kind]
    if any(value is v for v in NOT_NUMBERS):
        rule = "must be a number, got "
    elif kind == "relevance" and type(value) is int:  # a whole number: the reader's range
        where, rule = r"qrels dict:2: ", r"a TREC qrels level must be an integer \(at most 100\)"
    else:
        rule = "must be (an integer|a finite number), got "
    with pytest.raises(ValueError, match=where + " " * (not where.endswith(" ")) + rule):
        call(value)


def test_nan_relevance_in_a_dataframe_names_its_row():
    frame = pd.DataFrame({"query_id": ["T", "T"], "doc_id": ["a", "b"], "relevance": [1, np.nan]})
    with pytest.raises(
        ValueError, match=r"qrels \(DataFrame, index 1\): the relevance must be an integer"
    ):
        as_qrels(frame)


def test_whole_numbers_of_every_numeric_type_are_levels():
    q = as_qrels({"T": {"a": np.int8(2), "b": np.uint64(1), "c": 2.0, "d": np.float32(0)}})
    assert q.levels.tolist() == [2, 1, 2, 0]


@pytest.mark.parametrize(
    "topic, message",
    [
        (b"T1", r"the query id must be a string or an integer, got bytes b'T1'"),
        (1.0, r"the query id must be a string or an integer, got float 1.0"),
        (np.bool_(True), r"the query id must be a string or an integer, got bool"),
        ("#T1", r"the query id '#T1' must not start with '#' \(in the file format"),
        ("\ufeffT1", r"the query id '\\ufeffT1' must be Unicode text without a byte-order mark"),
        ("T\ud8001", r"the query id 'T\\ud8001' must be .* or a lone surrogate"),
    ],
)
def test_ids_that_a_file_cannot_hold_as_given_are_refused_not_changed(topic, message):
    """First row or later: a '#' topic was dropped as a comment, a BOM stripped from the first."""
    t = topic
    for call, where in [
        (lambda: as_qrels({t: {"a": 1}, "T2": {"a": 1}}), "qrels dict:1: "),
        (lambda: as_qrels({"T0": {"a": 1}, t: {"a": 1}}), "qrels dict:2: "),
        (lambda: as_qrels([Qrel("T0", "a", 1, "0"), Qrel(t, "a", 1, "0")]), "qrels records:2: "),
        (lambda: as_run({"T0": {"a": 1.0}, t: {"a": 1.0}}, name="r"), r"run 'r' \(dict\):2: "),
        (lambda: as_memberships({"T0": {"a": [1, 0]}, t: {"a": [1, 0]}}), "memberships dict:2: "),
    ]:  # fmt: skip
        with pytest.raises(ValueError, match=where + message):
            call()


def test_the_reported_hash_topic_is_not_dropped():
    rows = [{"query_id": "#T1", "doc_id": "a", "relevance": 1},
            {"query_id": "T2", "doc_id": "a", "relevance": 1}]  # fmt: skip
    with pytest.raises(ValueError, match=r"qrels records:1: the query id '#T1' must not start"):
        as_qrels(rows)


def test_ids_a_file_can_hold_are_kept_as_given():
    q = as_qrels({7: {np.int64(8): 1}, "T#": {"#a": 2}})
    assert q.topics == ("7", "T#") and q.docs.tolist() == [b"8", b"#a"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: as_runs({b"x": {"T": {"a": 1.0}}}), r"run: the run name must be a string or an"),
        (lambda: as_run({"T": {"a": 1.0}}, name=""), r"run: the run name '' must be non-empty"),
        (lambda: as_run(P / "runs" / RUN_FILES[0], name="a b"), r"run: the run name 'a b'"),
    ],
)
def test_run_names_are_checked_whatever_the_run(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("runs", [5, 2.5, None])
def test_runs_that_are_no_run_nor_a_collection_of_runs_say_what_runs_may_be(runs):
    rule = r"^The 'runs' parameter of io.as_runs must be a run .*\. Got an? \w+ instead\.$"
    with pytest.raises(TypeError, match=rule):
        as_runs(runs)
