"""fairconv.io._frames: in-memory inputs (DataFrames, dicts, records) become the
arrays the file readers give, by the files' rules, and errors name the row.

A plain-loop oracle written from the definitions (ids as UTF-8 bytes, topics coded in
order of first appearance, levels clipped at 0, a run ranked by score with ties by doc
id descending) checks the column route on generated frames; inputs of every kind give
the numbers the files give."""

import math
import warnings
from collections import namedtuple

import numpy as np
import pandas as pd  # the test extra brings pandas
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr, ragfair
from fairconv.datasets import fairweb1_pilot, path
from fairconv.io import (
    as_memberships,
    as_qrels,
    as_run,
    as_runs,
    load_attribute,
    read_answers,
    read_gmemb,
    read_qrels,
    read_run,
)

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


# --------------------------------------------------------------------------- the oracle
def oracle_keyed(rows):
    """(topics in order of first appearance, topic id per row, doc bytes per row)."""
    topics: list[str] = []
    ids, docs = [], []
    for t, d, *_ in rows:
        t = str(t)
        if t not in topics:
            topics.append(t)
        ids.append(topics.index(t))
        docs.append(str(d).encode("utf-8"))
    return tuple(topics), ids, docs


def oracle_qrels(rows):
    topics, ids, docs = oracle_keyed(rows)
    return topics, ids, docs, [max(0, int(v)) for *_, v in rows]


def oracle_ranking(rows):
    """Per topic, its docs ranked by score descending, ties by doc id descending."""
    out: dict = {}
    for t, d, s in rows:
        out.setdefault(str(t), []).append((float(s), str(d).encode("utf-8")))
    return {
        t: [d for _, d in sorted(v, key=lambda x: (-x[0], _desc(x[1])))] for t, v in out.items()
    }


def _desc(doc: bytes):
    """A key sorting byte strings in descending order."""
    return tuple(255 - b for b in doc) + (256,)


def ranked(run, qrels_topics=None):
    """Per topic, the docs of a Run in the rank order gfr.evaluate uses (from ERR)."""
    from fairconv.rankings import _by_score

    keep = np.arange(len(run.docs))
    idx = _by_score(run, keep, run.topic_ids)
    out: dict = {}
    for i in idx.tolist():
        out.setdefault(run.topics[run.topic_ids[i]], []).append(bytes(run.docs[i]))
    return out


def file_text(lines):
    return "".join(" ".join(map(str, line)) + "\n" for line in lines)


# --------------------------------------------------------------------------- generated frames
ASCII_ID = st.text(
    st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters="#"),
    min_size=1,
    max_size=12,
)
UNICODE_ID = st.text(st.sampled_from("aé中ß\u00e9Ω-_.:/"), min_size=1, max_size=6)
IDS = st.one_of(ASCII_ID, UNICODE_ID, st.integers(0, 10**6).map(str))
DTYPES = ["object", "str", "category", "pyarrow"]


def id_column(values, dtype):
    if dtype == "object":
        return pd.Series(values, dtype=object)
    if dtype == "str":
        return pd.Series(values, dtype=str)
    if dtype == "category":
        return pd.Series(values, dtype="category")
    return pd.Series(values, dtype=pd.ArrowDtype(pa.string()))


@st.composite
def qrels_rows(draw):
    topics = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    docs = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
    keys = draw(
        st.lists(
            st.tuples(st.sampled_from(topics), st.sampled_from(docs)),
            min_size=1,
            max_size=25,
            unique=True,
        )
    )
    return [(t, d, draw(st.integers(-3, 100))) for t, d in keys]


@SETTINGS
@given(
    rows=qrels_rows(),
    topic_dtype=st.sampled_from(DTYPES),
    doc_dtype=st.sampled_from(DTYPES),
    level_dtype=st.sampled_from(
        ["int64", "Int64", "float64", "Float64", "object", "int64[pyarrow]"]
    ),
    shuffle=st.randoms(use_true_random=False),
)
def test_qrels_frames_of_every_dtype_give_the_oracle_and_the_file_reader(
    tmp_path, rows, topic_dtype, doc_dtype, level_dtype, shuffle
):
    shuffle.shuffle(rows)
    frame = pd.DataFrame(
        {
            "query_id": id_column([t for t, _, _ in rows], topic_dtype),
            "doc_id": id_column([d for _, d, _ in rows], doc_dtype),
            "relevance": pd.Series([v for *_, v in rows]).astype(level_dtype),
        }
    )
    q = as_qrels(frame)
    topics, ids, docs, levels = oracle_qrels(rows)
    assert q.topics == topics
    assert q.topic_ids.tolist() == ids
    assert [bytes(d) for d in q.docs.tolist()] == docs
    assert q.levels.tolist() == levels
    f = tmp_path / "q"
    f.write_text(file_text((t, 0, d, v) for t, d, v in rows), encoding="utf-8")
    read = read_qrels(f)
    assert read.topics == q.topics and read.topic_ids.tolist() == q.topic_ids.tolist()
    assert read.docs.tolist() == q.docs.tolist() and read.levels.tolist() == q.levels.tolist()
    as_dict: dict = {}
    for t, d, v in rows:
        as_dict.setdefault(t, {})[d] = v
    from_dict = as_qrels(as_dict)  # the dict's order: grouped by topic

    def cells(x):
        names = [x.topics[i] for i in x.topic_ids]
        return sorted(zip(names, x.docs.tolist(), x.levels.tolist(), strict=True))

    assert cells(from_dict) == cells(q)


@st.composite
def run_rows(draw):
    topics = draw(st.lists(IDS, min_size=1, max_size=3, unique=True))
    docs = draw(st.lists(IDS, min_size=1, max_size=10, unique=True))
    keys = draw(
        st.lists(
            st.tuples(st.sampled_from(topics), st.sampled_from(docs)),
            min_size=1,
            max_size=25,
            unique=True,
        )
    )
    scores = st.one_of(st.sampled_from([0.0, 1.0, 2.5, -1.0]), st.floats(-1e6, 1e6))  # ties
    return [(t, d, draw(scores)) for t, d in keys]


@SETTINGS
@given(rows=run_rows(), dtype=st.sampled_from(DTYPES), shuffle=st.randoms(use_true_random=False))
def test_runs_from_frames_dicts_and_records_rank_as_the_oracle(tmp_path, rows, dtype, shuffle):
    shuffle.shuffle(rows)
    frame = pd.DataFrame(
        {
            "query_id": id_column([t for t, _, _ in rows], dtype),
            "doc_id": id_column([d for _, d, _ in rows], dtype),
            "score": [s for *_, s in rows],
            "rank": np.arange(len(rows))[::-1],  # ignored
        }
    )
    expected = oracle_ranking(rows)
    as_dict: dict = {}
    for t, d, s in rows:
        as_dict.setdefault(t, {})[d] = s
    records = [{"query_id": t, "doc_id": d, "score": s} for t, d, s in rows]
    for source in (frame, as_dict, records):
        run = as_run(source, name="r")
        assert run.order == "score"
        assert ranked(run) == expected
    f = tmp_path / "run"
    f.write_text(
        file_text((t, "Q0", d, i, repr(s), "r") for i, (t, d, s) in enumerate(rows)),
        encoding="utf-8",
    )
    assert ranked(read_run(f)) == expected  # the file read, ranked by trec_eval's rule


@SETTINGS
@given(
    rows=run_rows(),
    dtype=st.sampled_from(DTYPES),
    data=st.data(),
)
def test_sample_ids_of_frames_records_and_files_are_the_oracles(tmp_path, rows, dtype, data):
    """The sample id of every line, kept as topics are: names in order of first
    appearance and a code per line, from a ``sample`` column, a record field or column
    2 of a TREC run line."""
    samples = data.draw(st.lists(IDS, min_size=len(rows), max_size=len(rows)))
    keys = [(s, t, d) for s, (t, d, _) in zip(samples, rows, strict=True)]
    names, codes, _ = oracle_keyed(keys)
    frame = pd.DataFrame(
        {
            "query_id": id_column([t for t, _, _ in rows], dtype),
            "doc_id": id_column([d for _, d, _ in rows], dtype),
            "score": [s for *_, s in rows],
            "sample": id_column(samples, dtype),
        }
    )
    records = [
        {"query_id": t, "doc_id": d, "score": s, "sample": k}
        for (t, d, s), k in zip(rows, samples, strict=True)
    ]
    f = tmp_path / "run"
    f.write_text(
        file_text(
            (t, k, d, i, repr(s), "r")
            for i, ((t, d, s), k) in enumerate(zip(rows, samples, strict=True))
        ),
        encoding="utf-8",
    )
    for run in (as_run(frame), as_run(records), read_run(f), as_runs(frame.assign(run="r"))[0]):
        assert run.samples == names
        assert run.sample_ids.tolist() == codes


def test_a_run_without_sample_ids_has_every_line_in_the_sample_q0():
    frame = pd.DataFrame({"query_id": ["T1", "T1", "T2"], "doc_id": ["a", "b", "a"],
                          "score": [1.0, 2.0, 3.0]})  # fmt: skip
    for run in (as_run(frame), as_run({"T1": {"a": 1.0}}), as_run(frame.to_dict("records"))):
        assert run.samples == ("Q0",)
        assert run.sample_ids.tolist() == [0] * len(run.docs)
        assert not run.sample_ids.flags.writeable  # a view of one 0: no memory per line
    several = as_run(frame.assign(sample=["s1", "s1", "s2"]))
    assert several.samples == ("s1", "s2") and several.sample_ids.tolist() == [0, 0, 1]


@pytest.mark.parametrize(
    "records, message",
    [
        ([{"sample": "s"}, {}], "run 'run' (records):2: the record has no field sample, which "
         "record 1 has: give it in every record or in none"),
        ([{}, {}, {"sample": "s"}], "run 'run' (records):3: the record has a field sample, which "
         "record 1 lacks"),
        ([{"sample": "s"}, {"sample": "a b"}], "run 'run' (records):2: the sample id 'a b' must "
         "be non-empty, without whitespace"),
        ([{"sample": None}], "run 'run' (records):1: the sample id is missing (None)"),
        ([{"sample": 1.5}], "run 'run' (records):1: the sample id must be a string or an "
         "integer, got float 1.5"),
    ],
)  # fmt: skip
def test_sample_ids_follow_the_id_rule_in_every_record_or_none(records, message):
    base = [{"query_id": "T1", "doc_id": f"d{i}", "score": 1.0} for i in range(len(records))]
    with pytest.raises(ValueError) as info:
        as_run([{**b, **r} for b, r in zip(base, records, strict=True)])
    assert str(info.value).startswith(message)


@SETTINGS
@given(
    rows=qrels_rows(),
    groups=st.integers(2, 4),
    dtype=st.sampled_from(["float64", "Float64", "object"]),
    data=st.data(),
)
def test_membership_frames_and_dicts_give_the_oracle_and_the_file_reader(
    tmp_path, rows, groups, dtype, data
):
    vectors = []
    for _ in rows:
        k = data.draw(st.integers(0, groups - 1))
        vectors.append([1.0 if j == k else 0.0 for j in range(groups)])
    frame = pd.DataFrame({"query_id": [t for t, _, _ in rows], "doc_id": [d for _, d, _ in rows]})
    for j in range(groups):
        frame[f"g{j}"] = pd.Series([v[j] for v in vectors]).astype(dtype)
    m = as_memberships(frame, n_groups=groups)
    topics, ids, docs = oracle_keyed(rows)
    assert m.topics == topics and m.topic_ids.tolist() == ids
    assert [bytes(d) for d in m.docs.tolist()] == docs
    assert m.matrix.tolist() == vectors
    f = tmp_path / "g"
    f.write_text(file_text((t, d, *v) for (t, d, _), v in zip(rows, vectors, strict=True)), "utf-8")
    read = read_gmemb(f, n_groups=groups)
    assert read.docs.tolist() == m.docs.tolist() and read.matrix.tolist() == m.matrix.tolist()


# --------------------------------------------------------------------------- the rules
@pytest.mark.parametrize(
    "column, message",
    [
        (
            pd.Series(["T", None], dtype=object),
            r"\(DataFrame, index 1\): the query id is missing \(None\)",
        ),
        (
            pd.Series(["T", np.nan], dtype=object),
            r"\(DataFrame, index 1\): the query id is missing \(nan\)",
        ),
        (
            pd.Series(["T", pd.NA], dtype=object),
            r"\(DataFrame, index 1\): the query id is missing \(<NA>\)",
        ),
        (pd.array(["T", None], dtype="string"), r"\(DataFrame, index 1\): the query id is missing"),
        (
            pd.Series(["T", None], dtype="category"),
            r"\(DataFrame, index 1\): the query id is missing",
        ),
        (
            pd.Series(["T", None], dtype=pd.ArrowDtype(pa.string())),
            r"\(DataFrame, index 1\): the query id is missing",
        ),
        (
            pd.array([1, None], dtype="Int64"),
            r"\(DataFrame, index 1\): the query id is missing \(<NA>\)",
        ),
        (
            ["T", 1.0],
            r"\(DataFrame, index 1\): the query id must be a string or an integer, got float 1.0",
        ),
        (
            [1.0, 2.0],
            r"\(DataFrame, index 0\): the query id must be a string or an integer, got float",
        ),
        (
            [True, False],
            r"\(DataFrame, index 0\): the query id must be a string or an integer, got bool",
        ),
        (
            ["T", b"T"],
            r"\(DataFrame, index 1\): the query id must be a string or an integer, got bytes",
        ),
        (["T", ""], r"\(DataFrame, index 1\): the query id '' must be non-empty"),
        (
            ["T", "a b"],
            r"\(DataFrame, index 1\): the query id 'a b' must be non-empty, without whitespace",
        ),
        (
            ["T", "a\u00a0b"],
            r"\(DataFrame, index 1\): the query id 'a\\xa0b' must be non-empty, without",
        ),
        (["T", "a\x00"], r"\(DataFrame, index 1\): the query id 'a\\x00' must be non-empty"),
        (["T", "a\x85"], r"\(DataFrame, index 1\): the query id 'a\\x85' must be non-empty"),
        (["T", "\ufeffT"], r"qrels \(DataFrame, index 1\): .* without a byte-order mark"),
        (
            pd.Series(["T", "T\ud800"], dtype=object),
            r"qrels \(DataFrame, index 1\): .* or a lone surrogate",
        ),
        (["T", "#T"], r"\(DataFrame, index 1\): the query id '#T' must not start with '#'"),
        (
            pd.Series(["T", "#T"], dtype="category"),
            r"\(DataFrame, index 1\): the query id '#T' must not",
        ),
    ],
)
def test_each_id_rule_names_the_row_whatever_the_dtype(column, message):
    frame = pd.DataFrame({"query_id": column, "doc_id": ["a", "b"], "relevance": [1, 1]})
    with pytest.raises(ValueError, match=message):
        as_qrels(frame)


def test_a_doc_id_may_start_with_hash_and_be_any_text_a_file_holds():
    q = as_qrels(
        pd.DataFrame({"query_id": ["T", "T"], "doc_id": ["#a", "中-é"], "relevance": [1, 2]})
    )
    assert q.docs.tolist() == [b"#a", "中-é".encode()]


@pytest.mark.parametrize(
    "levels, message",
    [
        (
            [1, 101],
            r"\(DataFrame, index 1\): a TREC qrels level must be an integer \(at most 100\); "
            r"found '101'",
        ),
        ([1.0, 1.5], r"qrels \(DataFrame, index 1\): the relevance must be an integer, got"),
        ([1.0, np.nan], r"qrels \(DataFrame, index 1\): the relevance must be an integer, got"),
        (
            pd.array([1, None], dtype="Int64"),
            r"qrels \(DataFrame, index 1\): the relevance is missing \(<NA>\)",
        ),
        (
            pd.array([1.0, None], dtype="Float64"),
            r"qrels \(DataFrame, index 1\): the relevance is missing",
        ),
        ([True, False], r"qrels \(DataFrame, index 0\): the relevance must be a number, got"),
        ([1, "2"], r"qrels \(DataFrame, index 1\): the relevance must be a number, got '2'"),
        (
            [1, 10**30],
            r"\(DataFrame, index 1\): a TREC qrels level must be an integer \(at most 100\)",
        ),
        (
            [1, -(10**18)],
            r"\(DataFrame, index 1\): a TREC qrels level must be an integer \(at most 100\)",
        ),
    ],
)
def test_each_level_rule_names_the_row(levels, message):
    frame = pd.DataFrame({"query_id": ["T", "T"], "doc_id": ["a", "b"], "relevance": levels})
    with pytest.raises(ValueError, match=message):
        as_qrels(frame)


def test_negative_levels_are_nonrelevant_as_trec_eval_reads_them():
    q = as_qrels(
        pd.DataFrame({"query_id": ["T"] * 3, "doc_id": list("abc"), "relevance": [-2, 0, 2]})
    )
    assert q.levels.tolist() == [0, 0, 2]


@pytest.mark.parametrize(
    "scores, message",
    [
        ([1.0, np.inf], r"run 'r' \(DataFrame, index 1\): the score must be a finite number, got"),
        ([1.0, np.nan], r"run 'r' \(DataFrame, index 1\): the score must be a finite number, got"),
        (
            pd.array([1.0, None], dtype="Float64"),
            r"run 'r' \(DataFrame, index 1\): the score is missing",
        ),
        ([1.0, "x"], r"run 'r' \(DataFrame, index 1\): the score must be a number, got 'x'"),
        (
            pd.Series([1.0, 1j], dtype=object),
            r"run 'r' \(DataFrame, index 1\): the score must be a number",
        ),
        ([1j, 1j], r"run 'r' \(DataFrame, index 0\): the score must be a number"),
    ],
)
def test_each_score_rule_names_the_row(scores, message):
    frame = pd.DataFrame({"query_id": ["T", "T"], "doc_id": ["a", "b"], "score": scores})
    with pytest.raises(ValueError, match=message):
        as_run(frame, name="r")


def test_a_row_is_named_by_its_index_label_never_by_its_position():
    frame = pd.DataFrame(
        {"query_id": ["T", "T"], "doc_id": ["a", "b"], "relevance": [1, 1.5]}, index=["x", "y"]
    )
    with pytest.raises(ValueError, match=r"^qrels \(DataFrame, index 'y'\): the relevance"):
        as_qrels(frame)
    shifted = pd.DataFrame(
        {"query_id": ["T", "T"], "doc_id": ["a", "a"], "relevance": [1, 1]}, index=[10, 11]
    )
    with pytest.raises(
        ValueError,
        match=r"^qrels \(DataFrame, index 11\): doc 'a' of topic 'T' is judged twice "
        r"\(first at index 10\)$",
    ):
        as_qrels(shifted)
    plain = pd.DataFrame({"query_id": ["T", "T"], "doc_id": ["a", "b"], "relevance": [1, 1.5]})
    with pytest.raises(ValueError, match=r"qrels \(DataFrame, index 1\): the relevance"):
        as_qrels(plain)


def test_a_doc_twice_in_a_frame_run_names_both_rows_by_their_labels():
    """The join's duplicate rule (rankings) names the first row as the frame labels it."""
    from fairconv import gfr
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    frame = pd.DataFrame(
        {"query_id": ["P001"] * 3, "doc_id": ["a", "b", "a"], "score": [3.0, 2.0, 1.0]},
        index=[10, 11, 12],
    )
    with pytest.raises(
        ValueError,
        match=r"^run 'r' \(DataFrame, index 12\): doc 'a' appears twice in the ranked list "
        r"of topic 'P001' \(first at index 10\); ",
    ):
        gfr.evaluate(p.qrels, {"r": frame}, p.attributes)


def test_the_first_bad_row_is_named_whichever_column_it_is_in():
    frame = pd.DataFrame(
        {
            "query_id": ["T", "T", "T", ""],
            "doc_id": ["a", "b", "c d", "e"],
            "relevance": [1, 1.5, 1, 1],
        }
    )
    with pytest.raises(ValueError, match=r"qrels \(DataFrame, index 1\): the relevance"):
        as_qrels(frame)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: as_qrels({"T": {"a": 1}, 7: {"a": 1, "a ": 2}}), r"qrels dict:3: the doc id 'a '"),
        (
            lambda: as_qrels([{"query_id": "T", "doc_id": "a", "relevance": 1}] * 2),
            r"qrels records:2: doc 'a' of topic 'T' is judged twice \(first on line 1\)",
        ),
        (
            lambda: as_memberships(
                pd.DataFrame(
                    {"query_id": ["T"] * 2, "doc_id": ["a"] * 2, "g0": [1.0, 1.0], "g1": [0.0, 0.0]}
                )
            ),
            r"memberships \(DataFrame, index 1\): doc 'a' of topic 'T' is listed twice",
        ),
        (
            lambda: as_memberships({"T": {"a": [0.5, 0.6]}}),
            r"memberships dict:1: group probabilities",
        ),
        (
            lambda: as_memberships({"T": {"a": [0.5, 0.5], "b": [1.0, 0, 0]}}),
            r"memberships dict:2: a membership vector of 3 groups where row 1 has 2",
        ),
        (
            lambda: as_memberships({"T": {"a": [0.5, 0.5]}}, n_groups=3),
            r"dict:1: expected 3 group probabilities \(the target has 3 groups\), found 2",
        ),
        (
            lambda: as_memberships({"T": {"a": [1, 0], "b": [0.5, np.nan]}}),
            r"memberships dict:2: the group probability must be a finite number, got nan",
        ),
        (
            lambda: as_memberships({"T": {"a": "10"}}),
            r"memberships dict:1: a membership vector must be",
        ),
        (
            lambda: as_qrels(pd.DataFrame({"query_id": [], "doc_id": [], "relevance": []})),
            r"qrels \(DataFrame\): has no rows",
        ),
    ],
)
def test_duplicates_vectors_and_empty_inputs_name_the_row(make, message):
    with pytest.raises(ValueError, match=message):
        make()


# --------------------------------------------------------------------------- issue 24
def _utility_only(qrels, runs, **options):
    """gfr.evaluate with no attribute set: its notice that GFR is ERR alone is expected."""
    with pytest.warns(FairconvWarning, match="GFR is ERR alone"):
        return gfr.evaluate(qrels, runs, [], **options)


def _err_at_10(runs, qrels):
    return _utility_only(qrels, runs, cutoffs=[10])


def test_a_dataframe_run_is_ranked_by_score_not_by_row_order():
    qrels = {"T": {"good": 2, "fair": 1}}
    rows = pd.DataFrame(
        {"query_id": ["T"] * 3, "doc_id": ["bad", "fair", "good"], "score": [0.1, 0.5, 0.9]}
    )
    as_dict = {"T": {"bad": 0.1, "fair": 0.5, "good": 0.9}}
    by_frame = _err_at_10({"r": rows}, qrels).value("r", "T", "ERR@10")
    by_dict = _err_at_10({"r": as_dict}, qrels).value("r", "T", "ERR@10")
    by_records = _err_at_10({"r": rows.to_dict("records")}, qrels).value("r", "T", "ERR@10")
    p2, p1 = 3 / 4, 1 / 4  # gains (1, 3): p = gain / (gain(lmax) + 1)
    assert by_frame == by_dict == by_records == pytest.approx(p2 + (1 - p2) * p1 / 2, abs=1e-15)


def test_a_rank_column_is_ignored_and_order_file_keeps_row_order():
    qrels = {"T": {"good": 2}}
    frame = pd.DataFrame(
        {"query_id": ["T", "T"], "doc_id": ["bad", "good"], "score": [0.1, 0.9], "rank": [1, 2]}
    )
    assert _err_at_10({"r": frame}, qrels).value("r", "T", "ERR@10") == 0.75
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = gfr.evaluate(qrels, {"r": frame}, [], cutoffs=[10], order="file")
    assert not [w for w in caught if "order" in str(w.message)]  # row order asked for
    assert table.value("r", "T", "ERR@10") == 0.75 / 2


def test_files_keep_their_order_by_default_with_the_notice(tmp_path):
    f = tmp_path / "run"
    f.write_text("T Q0 bad 1 0.1 r\nT Q0 good 2 0.9 r\n")
    # one recorder for both notices: pytest before 8 drops what a nested warns() leaves
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = gfr.evaluate({"T": {"good": 2}}, [f], [], cutoffs=[10])
    notices = [str(w.message) for w in caught if w.category is FairconvWarning]
    assert any("ranked in file order" in m for m in notices), notices
    assert any("GFR is ERR alone" in m for m in notices), notices
    assert table.value("r", "T", "ERR@10") == 0.75 / 2


@pytest.mark.parametrize("column", ["run_id", "run", "tag", "name", "system"])
def test_a_frame_with_a_run_column_is_several_runs(column):
    frame = pd.DataFrame(
        {
            column: ["b", "b", "a"],
            "query_id": ["T"] * 3,
            "doc_id": ["x", "good", "good"],
            "score": [0.9, 0.1, 0.5],
        }
    )
    runs = as_runs(frame)
    assert [r.name for r in runs] == ["b", "a"]
    table = _utility_only({"T": {"good": 2}}, frame, cutoffs=[10])
    assert table.value("a", "T", "ERR@10") == 0.75
    assert table.value("b", "T", "ERR@10") == 0.75 / 2
    with pytest.raises(
        ValueError, match=r"holds 2 runs by its run column \('b', 'a'\); pass it as runs"
    ):
        as_run(frame)


def test_a_frame_of_several_runs_without_a_run_column_is_not_told_to_merge_them():
    frame = pd.DataFrame(
        {"system_id": ["a", "b"], "query_id": ["T", "T"], "doc_id": ["x", "x"], "score": [1.0, 2.0]}
    )
    with pytest.raises(ValueError, match=r"several runs, name each in a run column \(run_id"):
        gfr.evaluate({"T": {"x": 1}}, {"r": frame}, [])


def test_ragfair_takes_answers_as_paths_frames_and_records():
    import json

    pilot = fairweb1_pilot()
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    sets = [a.attribute for a in movies]
    file = path("rag", "pilot-answers.jsonl")
    records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    reference = ragfair.evaluate(pilot.qrels, pilot.runs, movies, read_answers(file, sets))
    for answers in (
        file,
        str(file),
        records,
        pd.DataFrame(records),
        pd.DataFrame(records).rename(columns={"topic": "query_id", "run": "run_id"}),
    ):
        table = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers)
        np.testing.assert_array_equal(table.values, reference.values)
    bad = pd.DataFrame(records).assign(topic=[""] + [r["topic"] for r in records[1:]])
    with pytest.raises(ValueError, match=r"answers \(DataFrame, index 0\): .*topic"):
        ragfair.evaluate(pilot.qrels, pilot.runs, movies, bad)


def test_answers_lacking_an_attribute_set_are_an_error_naming_it():
    pilot = fairweb1_pilot()
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [movies[0].attribute])
    missing = movies[1].attribute.name
    with pytest.raises(ValueError, match=f"answers without the attribute set '{missing}'"):
        ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers)


# --------------------------------------------------------------------------- issue 25
def test_membership_vectors_given_as_mappings_or_sets_are_a_type_error_naming_the_row():
    with pytest.raises(TypeError, match=r"memberships dict:1: a membership vector .* not a dict"):
        as_memberships({"T": {"a": {0: 1.0, 1: 0.0}}})
    with pytest.raises(TypeError, match=r"memberships dict:2: .* not a set"):
        as_memberships({"T": {"a": [1.0, 0.0], "b": {0.5}}})
    records = [{"query_id": "T", "doc_id": "a", "relevance": {1: 0.0, 0: 1.0}}]
    with pytest.raises(TypeError, match=r"memberships records:1: .* not a dict"):
        as_memberships(records)


@pytest.mark.parametrize("column", ["score", "query_id", "doc_id"])
def test_a_dataframe_with_two_columns_of_one_name_is_refused_naming_it(column):
    frame = pd.DataFrame([["T", "a", 1.0]], columns=["query_id", "doc_id", "score"])
    frame = pd.concat([frame, frame[[column]]], axis=1)
    with pytest.raises(
        ValueError, match=f"the run DataFrame has 2 columns named '{column}'; keep one"
    ):
        gfr.evaluate({"T": {"a": 1}}, [frame], [])
    qrels = pd.DataFrame([["T", "a", 1]], columns=["query_id", "doc_id", "relevance"])
    if column != "score":
        qrels = pd.concat([qrels, qrels[[column]]], axis=1)
        with pytest.raises(ValueError, match=f"the qrels DataFrame has 2 columns named '{column}'"):
            as_qrels(qrels)


def test_a_single_pytrec_eval_run_given_as_runs_is_not_read_as_runs_named_by_query_ids():
    with pytest.raises(
        ValueError, match=r"runs takes runs or a \{name: run\} mapping; got one run"
    ):
        gfr.evaluate({"T": {"a": 1}}, {"T": {"a": 1.0}}, [])
    table = _utility_only({"T": {"a": 1}}, {"T": {"T": {"a": 1.0}}})  # a run named T
    assert table.runs == ("T",)


def test_run_names_of_another_type_that_read_alike_are_refused_naming_both():
    run = {"T": {"a": 1.0}}
    with pytest.raises(ValueError, match=r"the keys 1 and '1', which name one run '1'"):
        gfr.evaluate({"T": {"a": 1}}, {1: run, "1": run}, [])


def test_a_nan_label_among_string_labels_is_an_error_naming_the_line(tmp_path):
    from fairconv.agreement._labels import read_label_file

    f = tmp_path / "labels.txt"
    f.write_text("i1 a yes\ni1 b NaN\ni2 a no\ni2 b no\n")
    with pytest.raises(ValueError, match=r"labels.txt:2: the label 'NaN' is not a finite number"):
        read_label_file(f)
    f.write_text("i1 a yes\ni1 b no\ni2 a -inf\ni2 b no\n")
    with pytest.raises(ValueError, match=r"labels.txt:3: the label '-inf' is not a finite number"):
        read_label_file(f)


def test_a_nan_label_among_string_labels_is_refused_on_the_command_line(tmp_path, capsys):
    from fairconv.cli import main

    f = tmp_path / "labels.txt"
    f.write_text("i1 a yes\ni1 b nan\ni2 a no\ni2 b no\n")
    assert main(["labels", str(f)]) == 2
    err = capsys.readouterr().err
    assert "labels.txt:2: the label 'nan' is not a finite number" in err
    assert len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- whole inputs
def test_the_pilot_as_frames_scores_as_the_files_ranked_by_score():
    pilot = fairweb1_pilot()
    folder = path("fairweb1-pilot")
    qrels = pd.read_csv(
        folder / "fairweb1pilot.qrels",
        sep=" ",
        header=None,
        names=["query_id", "doc_id", "relevance"],
    )
    qrels["relevance"] = qrels["relevance"].str[1:].astype(int)
    runs = {}
    for run, f in zip(pilot.runs, sorted((folder / "runs").iterdir()), strict=True):
        frame = pd.read_csv(
            f, sep=" ", header=None, names=["query_id", "q0", "doc_id", "rank", "score", "tag"]
        )
        runs[run.name] = frame
    lines = (folder / "fairweb1pilot.M-ORIGIN.gmemb").read_text().split("\n")
    rows = [(t, d, *map(float, v)) for t, d, *v in (line.split() for line in lines if line)]
    gm = pd.DataFrame(rows).rename(columns={0: "query_id", 1: "doc_id"})  # exact floats
    attr = pilot.attributes[3]
    data = load_attribute(attr.attribute.name, gm, attr.attribute.target, attr.attribute.scale)
    with pytest.warns(FairconvWarning, match="GFR is ERR alone on 3 of the 4 topics"):
        table = gfr.evaluate(qrels, runs, [data], cutoffs=[10])
    with pytest.warns(FairconvWarning, match="GFR is ERR alone on 3 of the 4 topics"):
        reference = gfr.evaluate(pilot.qrels, pilot.runs, [attr], cutoffs=[10], order="score")
    np.testing.assert_array_equal(table.values, reference.values)
    assert table.runs == reference.runs and table.topics == reference.topics


def test_memory_of_the_arrays_follows_the_ids_not_the_longest_id():
    long = "x" * 5000
    docs = [f"d{i}" for i in range(20_000)] + [long]
    q = as_qrels(
        pd.DataFrame({"query_id": ["T"] * len(docs), "doc_id": docs, "relevance": [1] * len(docs)})
    )
    assert q.docs.nbytes < 10 * sum(map(len, docs)) + 2**20  # not 20,001 x 5,000 bytes
    assert bytes(q.docs[-1]) == long.encode()


def test_no_float_is_changed_on_the_way():
    scores = [0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -0.0, np.float32(0.1)]
    run = as_run(pd.DataFrame({"query_id": ["T"] * 6, "doc_id": list("abcdef"), "score": scores}))
    assert run.scores.tolist() == [float(s) for s in scores]
    assert all(
        math.copysign(1, a) == math.copysign(1, float(b))
        for a, b in zip(run.scores, scores, strict=True)
    )


# --------------------------------------------------------------------------- threads
def _in_memory_inputs():
    qrels = pd.DataFrame(
        {"query_id": ["T1", "T1", "T2"], "doc_id": ["a", "b", "c"], "relevance": [2, 0, 1]}
    )
    runs = {
        name: pd.DataFrame(
            {"query_id": ["T1", "T1", "T2"], "doc_id": ["b", "a", "c"], "score": scores}
        )
        for name, scores in (("r1", [3.0, 2.0, 1.0]), ("r2", [1.0, 2.0, 3.0]), ("r3", [0, 0, 0]))
    }
    return qrels, runs


@pytest.mark.parametrize("evaluate", [_utility_only, ragfair.evaluate], ids=["gfr", "ragfair"])
def test_inputs_converted_on_threads_score_as_on_one(evaluate):
    qrels, runs = _in_memory_inputs()
    if evaluate is ragfair.evaluate:
        pilot = fairweb1_pilot()
        movies = [a for a in pilot.attributes if a.attribute.name == "M-ORIGIN"]
        answers = read_answers(path("rag", "pilot-answers.jsonl"), [movies[0].attribute])
        qrels, runs = pilot.qrels, {r.name: r for r in pilot.runs}

        def evaluate(q, r, **options):
            return ragfair.evaluate(q, r, movies, answers, cutoffs=[10], **options)

    one = evaluate(qrels, runs, n_jobs=1)
    two = evaluate(qrels, runs, n_jobs=2)
    np.testing.assert_array_equal(one.values, two.values)
    assert one.runs == two.runs and one.topics == two.topics


BAD_QRELS = pd.DataFrame({"query_id": ["T1", "T 2"], "doc_id": ["a", "b"], "relevance": [1, 1]})
BAD_RUN = pd.DataFrame({"query_id": ["T1"], "doc_id": ["a"], "score": ["high"]})


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize(
    "qrels_bad, runs, message",
    [
        (True, {"r1": "GOOD", "r2": BAD_RUN}, r"qrels \(DataFrame, index 1\): the query id 'T 2'"),
        (True, 5, r"qrels \(DataFrame, index 1\): the query id 'T 2'"),  # the runs' TypeError after
        (True, {"T": {"a": 1.0}}, r"qrels \(DataFrame, index 1\): the query id 'T 2'"),
        (False, 5, r"'runs' parameter of gfr.evaluate must be a run"),
        (
            False,
            {"r1": BAD_RUN, "r2": BAD_RUN.assign(doc_id="a b")},
            r"run 'r1' \(DataFrame, index 0\): the score",
        ),
        (False, {"r1": "GOOD", "r2": BAD_RUN}, r"run 'r2' \(DataFrame, index 0\): the score"),
    ],
)
def test_the_error_of_inputs_converted_on_threads_is_the_first_in_input_order(
    n_jobs, qrels_bad, runs, message
):
    good_qrels, good_runs = _in_memory_inputs()
    qrels = BAD_QRELS if qrels_bad else good_qrels
    if isinstance(runs, dict):
        runs = {k: good_runs["r1"] if isinstance(v, str) else v for k, v in runs.items()}
    with pytest.raises((ValueError, TypeError), match=message):
        gfr.evaluate(qrels, runs, [], n_jobs=n_jobs)


class RanxLike:
    """A stand-in for ranx's ``Qrels`` and ``Run`` (ranx, which needs numba, is not
    installed for the tests): what fairconv reads of them, ``to_dict()`` and ``name``."""

    def __init__(self, data, name=None):
        self._data, self.name = data, name

    def to_dict(self):
        return self._data


def test_ranx_qrels_and_runs_are_taken_wherever_dicts_are():
    qrels = {"T1": {"a": 2, "b": 0}, "T2": {"a": 1}}
    run = {"T1": {"a": 0.5, "b": 0.9}, "T2": {"a": 0.3}}
    assert as_qrels(RanxLike(qrels)).levels.tolist() == as_qrels(qrels).levels.tolist()
    got = as_run(RanxLike(run, name="bm25"))
    assert got.name == "bm25" and got.scores.tolist() == as_run(run).scores.tolist()
    assert as_run(RanxLike(run)).name == "run"
    assert as_run(RanxLike(run, name="bm25"), name="mine").name == "mine"
    assert [r.name for r in as_runs(RanxLike(run, name="a"))] == ["a"]
    assert [r.name for r in as_runs([RanxLike(run, name="a"), RanxLike(run, name="b")])] == [
        "a",
        "b",
    ]
    assert [r.name for r in as_runs({"x": RanxLike(run, name="a")})] == ["x"]
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    pilot_run = {"P002": {"tt0088763": 9.0, "tt0111161": 8.5}}
    table = gfr.evaluate(RanxLike({"P002": {"tt0088763": 2}}), [RanxLike(pilot_run, name="r")],
                         origin, cutoffs=[10])  # fmt: skip
    assert table.runs == ("r",)
    with pytest.raises(ValueError, match="run name"):
        as_run(RanxLike(run, name="a b"))


@pytest.mark.parametrize(
    "vector", [[1, 0], (1, 0), np.array([1, 0]), np.array([1.0, 0.0]), (np.int64(1), np.int64(0))]
)
@pytest.mark.parametrize("level", [2, np.int64(2), np.int32(2), np.uint8(2)])
def test_answers_take_the_vectors_and_levels_memberships_take(vector, level):
    """Tuples and arrays of numbers, numpy integer levels: as JSON's lists and ints."""
    from fairconv import AttributeSet
    from fairconv.io import as_answers

    sets = [AttributeSet("A", [0.5, 0.5], "nominal")]
    entities = [{"level": level, "groups": {"A": vector}}]
    frame = pd.DataFrame({"topic": ["T1"], "run": ["r"], "entities": [entities]})
    for answers in (frame, [{"topic": "T1", "run": "r", "entities": entities}]):
        assert as_answers(answers, sets).distributions["A"].tolist() == [[1.0, 0.0]]


def test_a_vector_of_another_length_is_named_as_given():
    from fairconv import AttributeSet
    from fairconv.io import as_answers

    sets = [AttributeSet("A", [0.5, 0.5], "nominal")]
    entities = [{"level": 1, "groups": {"A": np.array([0, 0, 1])}}]
    frame = pd.DataFrame({"topic": ["T1"], "entities": [entities]})
    with pytest.raises(
        ValueError, match=r'"groups"."A" must be an array of 2 numbers .*got \[0, 0, 1\]'
    ):
        as_answers(frame, sets)


@pytest.mark.parametrize("value", [np.float64("nan"), np.float32("nan"), float("nan")])
def test_values_are_named_as_the_user_wrote_them(value):
    """``nan``, never ``np.float64(nan)`` (numpy 2's repr of its scalars)."""
    frame = pd.DataFrame({"query_id": ["T1", "T2"], "doc_id": ["a", "b"],
                          "score": pd.Series([1.0, value], dtype=object)})  # fmt: skip
    with pytest.raises(ValueError, match=r"the score must be a finite number, got nan$"):
        as_run(frame)
    ids = frame.assign(score=1.0, query_id=pd.Series(["T1", value], dtype=object))
    with pytest.raises(ValueError, match=r"the query id is missing \(nan\)$"):
        as_run(ids)


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


def inputs_qrels_rows():
    return [(t, d, int(lv[1:])) for t, d, lv in _lines(P / "fairweb1pilot.qrels")]


def inputs_run_rows(name):
    return [(t, d, float(s)) for t, _, d, _, s, _ in _lines(P / "runs" / name)]


RUN_FILES = sorted(p.name for p in (P / "runs").iterdir())


def _same(a, b):
    assert a.runs == b.runs and a.topics == b.topics and a.measures == b.measures
    np.testing.assert_array_equal(a.present, b.present)
    np.testing.assert_array_equal(a.values, b.values)


def qrels_rows_frame():
    return pd.DataFrame(inputs_qrels_rows(), columns=["query_id", "doc_id", "relevance"])


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


@pytest.mark.parametrize(
    "make_qrels",
    [
        lambda: pd.DataFrame(inputs_qrels_rows(), columns=["query_id", "doc_id", "relevance"]),
        lambda: pd.DataFrame(inputs_qrels_rows(), columns=["qid", "docno", "label"]),
        lambda: {
            t: {d: v for tt, d, v in inputs_qrels_rows() if tt == t}
            for t, _, _ in inputs_qrels_rows()
        },
        lambda: [Qrel(t, d, v, "0") for t, d, v in inputs_qrels_rows()],
        lambda: P / "fairweb1pilot.qrels",
    ],
    ids=["ir_measures frame", "PyTerrier frame", "pytrec_eval dict", "ir_datasets records", "path"],
)
def test_qrels_of_every_kind_score_as_the_file(pilot, reference, make_qrels):
    _same(gfr.evaluate(make_qrels(), pilot.runs, pilot.attributes, cutoffs=[10]), reference)


@pytest.mark.parametrize(
    "make_run",
    [
        lambda n: pd.DataFrame(inputs_run_rows(n), columns=["query_id", "doc_id", "score"]),
        lambda n: pd.DataFrame(
            [(t, d, s, i) for i, (t, d, s) in enumerate(inputs_run_rows(n))],
            columns=["qid", "docno", "score", "rank"],
        ),
        lambda n: pd.DataFrame(inputs_run_rows(n), columns=["q_id", "doc_id", "score"]),
        lambda n: [ScoredDoc(*r) for r in inputs_run_rows(n)],
    ],
    ids=["ir_measures frame", "PyTerrier frame", "ranx frame", "ir_datasets records"],
)
def test_ordered_runs_of_every_kind_score_as_the_files(pilot, reference, make_run):
    runs = {r.name: make_run(f) for r, f in zip(pilot.runs, RUN_FILES, strict=True)}
    _same(gfr.evaluate(pilot.qrels, runs, pilot.attributes, cutoffs=[10]), reference)


def test_dict_runs_are_ranked_by_score_as_trec_eval(pilot):
    runs = {
        r.name: {
            t: {d: s for tt, d, s in inputs_run_rows(f) if tt == t}
            for t, _, _ in inputs_run_rows(f)
        }
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
        r.name: pd.DataFrame(inputs_run_rows(f), columns=["query_id", "doc_id", "score"])
        for r, f in zip(pilot.runs, RUN_FILES, strict=True)
    }
    a = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers, cutoffs=[10])
    b = ragfair.evaluate(qrels_rows_frame(), frame_runs, movies, answers, cutoffs=[10])
    _same(a, b)


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


# --------------------------------------------------------------------------- rows by label
def _answers_frame(topics, runs):
    entity = [{"entity": "movie-a", "level": 2, "groups": {"M-RATINGS": [0, 0, 0, 1]}}]
    return pd.DataFrame({"topic": topics, "run": runs, "entities": [entity] * len(topics)})


def _answers_of(frame):
    from fairconv.io import as_answers

    ratings = [a.attribute for a in fairweb1_pilot().attributes if a.attribute.name == "M-RATINGS"]
    return as_answers(frame, ratings)


def _scores_of(frame):
    from fairconv.io import read_scores

    return read_scores(frame)


# reader: (read, the frame of n rows with a bad value at row k, the input's name)
FRAME_READERS = {
    "qrels": (
        as_qrels,
        lambda n, k: pd.DataFrame({"query_id": ["T"] * n, "doc_id": [f"d{i}" for i in range(n)],
                                   "relevance": [1.5 if i == k else 1 for i in range(n)]}),
        "qrels",
    ),
    "run": (
        lambda f: as_run(f, name="r"),
        lambda n, k: pd.DataFrame({"query_id": ["T"] * n, "doc_id": [f"d{i}" for i in range(n)],
                                   "score": [np.inf if i == k else 1.0 for i in range(n)]}),
        "run 'r'",
    ),
    "runs": (
        as_runs,
        lambda n, k: pd.DataFrame({"run": ["A", "B"] * n, "query_id": ["T"] * (2 * n),
                                   "doc_id": [f"d{i // 2}" for i in range(2 * n)],
                                   "score": [np.nan if i == 2 * k + 1 else 1.0
                                             for i in range(2 * n)]}),
        "run 'B'",
    ),
    "memberships": (
        as_memberships,
        lambda n, k: pd.DataFrame({"query_id": ["T"] * n, "doc_id": [f"d{i}" for i in range(n)],
                                   "g1": [2.0 if i == k else 1.0 for i in range(n)],
                                   "g2": [0.0] * n}),
        "memberships",
    ),
    "answers": (
        _answers_of,
        lambda n, k: _answers_frame([("a b" if i == k else f"T{i}") for i in range(n)], ["A"] * n),
        "answers",
    ),
    "scores": (
        _scores_of,
        lambda n, k: pd.DataFrame({"run": ["A"] * n, "topic": [f"T{i}" for i in range(n)],
                                   "measure": ["m"] * n,
                                   "value": [np.inf if i == k else 0.5 for i in range(n)]}),
        "scores",
    ),
}  # fmt: skip

INDEXES = {
    "default": lambda n: None,
    "shifted": lambda n: pd.RangeIndex(5, 5 + 3 * n, 3),
    "integers": lambda n: pd.Index(np.arange(n, dtype=np.int64)[::-1] * 7),
    "strings": lambda n: pd.Index([f"row {i}" for i in range(n)]),
    "floats": lambda n: pd.Index(np.arange(n) + 0.5),
    "dates": lambda n: pd.date_range("2024-01-01", periods=n),
    "pairs": lambda n: pd.MultiIndex.from_arrays([["a"] * n, range(n)]),
    "numpy pairs": lambda n: pd.MultiIndex.from_arrays([np.array(["a"] * n), np.arange(n)]),
}


@pytest.mark.parametrize("reader", sorted(FRAME_READERS))
@pytest.mark.parametrize("index", sorted(INDEXES))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_every_frame_reader_names_a_bad_row_by_its_index_label(reader, index, data):
    """What ``df.loc`` takes, as the user wrote it (never numpy's repr), and never a
    1-based position: in every reader of in-memory frames, whatever the index."""
    read, make, name = FRAME_READERS[reader]
    n = data.draw(st.integers(1, 6), label="rows")
    k = data.draw(st.integers(0, n - 1), label="bad row")
    frame = make(n, k)
    labels = INDEXES[index](len(frame))
    if labels is not None:
        frame.index = labels
    row = 2 * k + 1 if reader == "runs" else k
    label = frame.index[row]
    label = tuple(x.item() if isinstance(x, np.generic) else x for x in label) if isinstance(
        label, tuple
    ) else (label.item() if isinstance(label, np.generic) else label)  # fmt: skip
    with pytest.raises(ValueError) as info:
        read(frame)
    message = str(info.value)
    assert message.startswith(f"{name} (DataFrame, index {label!r}): "), message
    assert "np." not in message and "DataFrame:" not in message, message


@pytest.mark.parametrize("reader", ["qrels topic", "qrels doc", "runs", "run topic", "scores"])
@settings(max_examples=30, deadline=None)
@given(ids=st.lists(st.one_of(st.integers(0, 3), st.sampled_from(["0", "1", "2", "3", "x"])),
                    min_size=1, max_size=8),
       shifted=st.booleans())  # fmt: skip
def test_a_column_holding_1_and_str_1_is_an_error_naming_both_rows(reader, ids, shifted):
    """Two ids that read as one (1 and '1') are never merged: every frame reader names
    both rows by their labels; other columns of strings and integers read as given."""
    n = len(ids)
    docs = [f"d{i}" for i in range(n)]
    columns, read, field = {
        "qrels topic": ({"query_id": ids, "doc_id": docs, "relevance": 1}, as_qrels, "query id"),
        "qrels doc": ({"query_id": "T", "doc_id": ids, "relevance": 1}, as_qrels, "doc id"),
        "runs": ({"run": ids, "query_id": "T", "doc_id": docs, "score": 1.0}, as_runs, "run name"),
        "run topic": ({"query_id": ids, "doc_id": docs, "score": 1.0}, as_run, "query id"),
        "scores": ({"run": "A", "topic": ids, "measure": "m", "value": 0.5}, _scores_of, "topic"),
    }[reader]
    frame = pd.DataFrame(columns)
    if shifted:
        frame.index = pd.RangeIndex(100, 100 + n)
    texts = [str(x) for x in ids]
    clash = min(
        ((i, j) for i in range(n) for j in range(i)
         if texts[i] == texts[j] and type(ids[i]) is not type(ids[j])),
        default=None,
    )  # fmt: skip
    if clash is None:
        if reader == "qrels doc" and len(set(texts)) < n:
            with pytest.raises(ValueError, match="is judged twice"):
                read(frame)
            return
        if reader == "scores" and len(set(texts)) < n:
            with pytest.raises(ValueError, match="a second value"):
                read(frame)
            return
        got = read(frame)
        if reader == "qrels doc":
            names = [d.decode() for d in got.docs]
        else:
            names = [r.name for r in got] if reader == "runs" else got.topics
        assert sorted(set(names)) == sorted(set(texts))
        return
    i, j = clash
    base = 100 if shifted else 0
    with pytest.raises(ValueError) as info:
        read(frame)
    message = str(info.value)
    assert f"(DataFrame, index {base + i}): the {field} " in message, message
    assert f" at index {base + j} are different values of one id {texts[i]!r}" in message
