"""Inputs of every kind give the numbers the files give, and errors naming the row."""

from collections import namedtuple

import numpy as np
import pytest

from fairconv import gfr, ragfair, readers
from fairconv.datasets import fairweb1_pilot, path
from fairconv.inputs import as_memberships, as_qrels, as_run, as_runs

pd = pytest.importorskip("pandas")

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
    runs = {r.tag: make_run(f) for r, f in zip(pilot.runs, RUN_FILES, strict=True)}
    _same(gfr.evaluate(pilot.qrels, runs, pilot.attributes, cutoffs=[10]), reference)


def test_dict_runs_are_ranked_by_score_as_trec_eval(pilot):
    runs = {
        r.tag: {t: {d: s for tt, d, s in run_rows(f) if tt == t} for t, _, _ in run_rows(f)}
        for r, f in zip(pilot.runs, RUN_FILES, strict=True)
    }
    by_score = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, order="score")
    _same(gfr.evaluate(pilot.qrels, runs, pilot.attributes), by_score)
    tied = as_run({"T": {"a": 1.0, "c": 1.0, "b": 2.0}}, name="x")
    assert [d.decode() for d in tied.docs] == ["b", "c", "a"]  # ties: doc id descending


def test_memberships_of_every_kind_load_as_the_file(pilot, reference):
    rows = [(t, d, *map(float, v)) for t, d, *v in _lines(P / "fairweb1pilot.M-ORIGIN.gmemb")]
    groups = [f"g{i}" for i in range(len(rows[0]) - 2)]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", *groups])
    as_dict = {}
    for t, d, *v in rows:
        as_dict.setdefault(t, {})[d] = v
    for source in (frame, as_dict):
        data = gfr.load_attribute("M-ORIGIN", source, P / "M-ORIGIN.golddistr", "nominal")
        np.testing.assert_array_equal(
            data.memberships.matrix, pilot.attributes[3].memberships.matrix
        )
        table = gfr.evaluate(pilot.qrels, pilot.runs, [data], cutoffs=[10])
        ref = reference["GF-JSD@10[M-ORIGIN]"]
        assert table.value("Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]") == ref.value(
            "Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]"
        )


def test_ragfair_takes_the_same_inputs(pilot):
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    answers = ragfair.read_answers(
        path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies]
    )
    frame_runs = {
        r.tag: pd.DataFrame(run_rows(f), columns=["query_id", "doc_id", "score"])
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
        from_object = readers.read_run(f)
    docs = pilot.runs[0].docs.tolist()
    assert readers.read_run(gz).docs.tolist() == from_object.docs.tolist() == docs
