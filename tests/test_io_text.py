"""fairconv.io._text: what every text reader shares.

- Every reader's file errors are one class, FileFormatError, knowing the file and line:
  a table of bad files, one or more for each reader, whose messages start with
  ``file:line:`` and whose ``path`` and ``line`` say the same.
- The decimal grammar is written once (DECIMAL): the fast byte route, the one-pass check
  of many tokens and every number column accept exactly what it does.
- A reader given something that is not a path or an open file says so; an int in
  particular is not read (``open`` would take it for a file descriptor and close it)."""

import io
import json
import os
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import agreement, nuggets, trecfair
from fairconv import io as fairconv_io
from fairconv._accel import _bytes
from fairconv.divergences import AttributeSet
from fairconv.io import (
    FileFormatError,
    _text,
    iter_jsonl,
    read_answers,
    read_attribute_sets,
    read_conversations,
    read_gmemb,
    read_golddistr,
    read_json,
    read_labels,
    read_qrels,
    read_run,
    read_scores,
    read_topics,
)

HEAD = "run\ttopic\tmeasure\tvalue\n"
_GENDER = trecfair.Dimension("gender", ("Unknown", "f", "m"), np.array([b"1"]), np.eye(1, 3))
SETS = [AttributeSet("P", [0.5, 0.5], "nominal")]
NUGGET = {"start": 2, "end": 2, "level": 1, "groups": {"P": [1, 0]}}
CONV = {"topic": "T1", "run": "r", "text": "U:q S:a b", "nuggets": [NUGGET]}


def _lines(*records) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


GOLD = '{"1_1": {"g1": {"text": "x"}}}'
COVER = {"topic_turn_id": "1_1", "covered": ["g1"], "uncovered": [], "recall": 1.0}
ASSIGN = {"qid": "q1", "run_id": "r", "nuggets": [{"importance": "vital", "assignment": "support"}]}


def _coverage(path):
    """CONE-RAG: the coverage file at ``path``, with a gold file beside it."""
    (path.parent / "gold.json").write_text(GOLD)
    return nuggets.read_cone_rag(path.parent / "gold.json", ntr=[path])


def _response(path):
    """CONE-RAG: the response nuggets file at ``path``, with a gold and a coverage file."""
    (path.parent / "gold.json").write_text(GOLD)
    (path.parent / "coverage_r.jsonl").write_text(json.dumps(COVER) + "\n")
    return nuggets.read_cone_rag(
        path.parent / "gold.json", path, ntr=[path.parent / "coverage_r.jsonl"]
    )


# (reader, file name, text, line): the error must name this line (None: the whole file)
CASES = [
    (_coverage, "coverage_r.jsonl", _lines(COVER, {**COVER, "topic_turn_id": "1 1"}), 2),
    (_coverage, "coverage_r.jsonl", _lines(COVER, {"topic_turn_id": "1_1"}), 2),
    (_coverage, "coverage_r.jsonl", _lines(COVER, {**COVER, "topic_turn_id": "all"}), 2),
    (_coverage, "coverage_r.jsonl", _lines(COVER, COVER), 2),
    (_response, "resp.json", '{"1 1": {}}', None),
    (_response, "resp.json", '{"1_1": {"r": {"nuggets": []}}}', None),
    (nuggets.read_nuggetizer, "n.jsonl", _lines(ASSIGN, {**ASSIGN, "run_id": None}), 2),
    (nuggets.read_nuggetizer, "n.jsonl", _lines({**ASSIGN, "qid": "q2"}, ASSIGN, ASSIGN), 3),
    (
        nuggets.read_nuggetizer,
        "n.jsonl",
        _lines(ASSIGN, {k: v for k, v in {**ASSIGN, "qid": "q2"}.items() if k != "run_id"}),
        2,
    ),
    (
        nuggets.read_nuggetizer,
        "n.jsonl",
        _lines({**ASSIGN, "nuggets": [{"importance": "vital"}]}),
        1,
    ),
    (lambda p: read_conversations(p, SETS), "c.jsonl", _lines(CONV, {**CONV, "run": None}), 2),
    (
        lambda p: read_conversations(p, SETS),
        "c.jsonl",
        _lines(CONV, {k: v for k, v in CONV.items() if k != "run"}),
        2,
    ),
    (
        read_labels,
        "l.jsonl",
        _lines(
            {"topic": "T", "turn": "T_1", "gold": [], "extracted": []},
            {"topic": "T", "turn": "T_2", "run": "r", "gold": [], "extracted": []},
        ),
        2,
    ),  # fmt: skip
    (read_qrels, "q.txt", "T1 a L1\nT1 b L-1\n", 2),
    (read_qrels, "q.txt", "T1 a L1\nT1 a L2\n", 2),
    (read_qrels, "q.txt", "T1 a L1\nT1 b\u00a0c L1\n", 2),
    (read_qrels, "q.txt", "# nothing\n", None),
    (read_run, "r.txt", "T1 Q0 a 1 1.0 r\nT1 Q0 b 2 nan r\n", 2),
    (read_run, "r.txt", "T1 Q0 a 1 1.0 r\nT1 Q0 b x 0.5 r\n", 2),
    (read_gmemb, "g.txt", "T1 a 0.5 0.5\nT1 b 0.5 0.6\n", 2),
    (read_gmemb, "g.txt", "T1 a 0.5 0.5\nT1 b 0.5\n", 2),
    (read_golddistr, "d.txt", "0.5\nhalf\n", 2),
    (lambda p: read_conversations(p, SETS), "c.jsonl", _lines(CONV, {**CONV, "topic": "a b"}), 2),
    (lambda p: read_conversations(p, SETS), "c.jsonl", _lines(CONV, "{"), 2),
    (
        lambda p: read_conversations(p, SETS),
        "c.jsonl",
        _lines(CONV, {**CONV, "run": "s", "nuggets": [{**NUGGET, "level": "2"}]}),
        2,
    ),
    (
        lambda p: read_conversations(p, SETS),
        "c.jsonl",
        _lines({"topic": "T1", "run": "r", "turns": 3, "nuggets": []}),
        1,
    ),
    (read_attribute_sets, "a.json", '{"P": {"target": [0.5, 0.5], "scale": "odd"}}', None),
    (read_attribute_sets, "a.json", '{"P": {"target": [0.5, 0.5],\n "scale": nominal}}', 2),
    (
        lambda p: read_answers(p, SETS),
        "ans.jsonl",
        _lines({"topic": "T1", "run": "r", "entities": []}, {"topic": "T 1", "entities": []}),
        2,
    ),
    (
        lambda p: read_answers(p, SETS),
        "ans.jsonl",
        _lines({"topic": "T1", "run": "r", "entities": []}, "[1]"),
        2,
    ),
    (
        lambda p: read_answers(p, SETS),
        "ans.jsonl",
        _lines({"topic": "T1", "run": "r", "entities": [1]}),
        1,
    ),
    (read_labels, "l.jsonl", _lines("[1,"), 1),
    (read_json, "j.json", '{"a": 1,\n "a": 2}', None),
    (iter_jsonl, "j.jsonl", '{"a": 1}\n{"a": 1, "a": 2}\n', 2),
    (iter_jsonl, "j.jsonl", '{"a": 1}\n{"a": "\\ud800"}\n', 2),
    (read_scores, "s.tsv", HEAD + "r\tT1\tP@5\t0.5\nr\tT1\tP@5\t0.25\n", 3),
    (read_scores, "s.tsv", HEAD + "r\tT1\tP@5\t0.5\nr\tT2\tP@5\tmany\n", 3),
    (read_scores, "s.json", '{"P@5": {"T1": 0.5, "T2": "x"}}', None),
    # ranx JSON: ids by the id rule, numbers or null, one run per name
    (read_scores, "s.json", '{"P@5": {"T1": 0.5, "T 2": 0.25}}', None),
    (read_scores, "s.json", '{"bm25": {"P@5": {"T1": 0.5}}, "": {"P@5": {"T1": 1}}}', None),
    (read_scores, "s.json", '{"P@5": {"T1": 0.5},\n "P@5": {"T1": 0.25}}', None),
    (lambda p: read_scores(p, input_format="ranx"), "s.json", "[0.5]", None),
    # ir_measures per-query rows: query_id measure value
    (read_scores, "s.irm", "T1 P@5 0.5\nT2 P@5 0.25\nall P@5 0.375\nT3 P@5 high\n", 4),
    (read_scores, "s.irm", "T1 P@5 0.5\nall P@5 0.5\nT1 P@5 0.25\n", 3),
    (lambda p: read_scores(p, input_format="ir_measures"), "s.irm", "T1 P@5 0.5\nT2 P@5\n", 2),
    (lambda p: read_scores(p, input_format="ir_measures"), "s.irm", "T1 P@5 0.5\nT2 P@5 inf\n", 2),
    (read_topics, "t.txt", "T1\nT2\nT1\n", 3),
    (read_topics, "t.txt", "T1\nT2 T3\n", 2),
    (read_topics, "t.txt", "\n", None),
    (
        nuggets.read_nuggetizer,
        "n.jsonl",
        _lines({"qid": "q1", "run_id": "r", "nuggets": []}, {"qid": "a b", "nuggets": []}),
        2,
    ),
    (nuggets.read_nuggetizer, "n.jsonl", _lines({"qid": "q1", "nuggets": []}, "[1"), 2),
    (lambda p: nuggets.read_cone_rag(p, ntr=[p]), "gold.json", '{"t1": {"g1": {}},\n x}', 2),
    (lambda p: nuggets.read_cone_rag(p, ntr=[p]), "gold.json", '{"t1": [1]}', None),
    (trecfair.read_qrels, "fq.jsonl", _lines({"id": 1, "rel_docs": [1]}, {"id": "a b"}), 2),
    (lambda p: trecfair.read_run(p, task=1), "fr.txt", "1 5\n2 6\n1 7\n", 3),
    (
        lambda p: trecfair.read_alignment("gender", p),
        "al.tsv",
        "page_id\tUnknown\tfemale\n1\t0\t1\n2\t1\n",
        3,
    ),
    # the TREC Fair tables: alignment, metadata, background, targets, work, runs, qrels
    (lambda p: trecfair.read_alignment("gender", p), "al.csv", "page_id,Unknown\n1, 0\n", 2),
    (lambda p: trecfair.read_alignment("gender", p), "al.csv", "page_id,Unknown\n1,-1\n", 2),
    (lambda p: trecfair.read_alignment("gender", p), "al.csv", "id,Unknown\n1,1\n", 1),
    (
        lambda p: trecfair.read_metadata(p, edition=2021),
        "meta.jsonl",
        _lines({"page_id": 1, "quality_score_disc": "C", "geographic_locations": []}, {}),
        2,
    ),
    (trecfair.read_background, "bg.tsv", "female\t0.5\nmale\t0.5\n", 1),
    (trecfair.read_background, "bg.csv", "category,weight\nfemale,0.5\nmale ,0.5\n", 3),
    (trecfair.read_background, "bg.csv", "category,weight\nfemale,0.5\nmale,-1\n", 3),
    (lambda p: trecfair.read_targets(p, [_GENDER]), "t.tsv", "topic_id\tgender\ttarget\n", None),
    (lambda p: trecfair.read_targets(p, [_GENDER]), "t.tsv", "topic\tgender\ttarget\n1\tm\t1\n", 1),
    (
        lambda p: trecfair.read_targets(p, [_GENDER]),
        "t.tsv",
        "topic_id\tgender\ttarget\n1\tm\tnan\n1\tf\t1\n",
        3,
    ),
    (lambda p: trecfair.read_targets(p, [_GENDER]), "t.tsv", "topic_id\tf\tm\n1\t0.5\t0.5 \n", 2),
    (trecfair.read_work, "w.tsv", "page_id\tlevel\n1\tStub\n2\tGreat\n", 3),
    (trecfair.read_work, "w.csv", "page_id,level\n1,Stub\n2 ,C\n", 3),
    (lambda p: trecfair.read_run(p, task=1), "fr.txt", "id\tpage_id\n1\t5\nid\tpage_id\n", 3),
    (lambda p: trecfair.read_run(p, task=1), "fr.txt", "1 Q0 5 1 2.5 r\n1 Q0 6 x 1.5 r\n", 2),
    (lambda p: trecfair.read_run(p, task=2), "fr.txt", "1 1 5\n1 two 6\n", 2),
    (trecfair.read_qrels, "fq.txt", "1 0 a 1\n1 0 b high\n", 2),
]


@pytest.mark.parametrize(("reader", "name", "text", "line"), CASES)
def test_a_bad_file_is_a_file_format_error_naming_file_and_line(tmp_path, reader, name, text, line):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileFormatError) as err:
        reader(path)
    assert isinstance(err.value, ValueError)
    assert err.value.path == str(path)
    assert err.value.line == line
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err.value).startswith(where), str(err.value)
    assert err.value.message == str(err.value)[len(where) :]
    # it crosses processes whole (multiprocessing, joblib pickle their workers' errors)
    back = pickle.loads(pickle.dumps(err.value))
    assert type(back) is FileFormatError
    assert (str(back), back.path, back.line, back.message) == (
        str(err.value),
        err.value.path,
        err.value.line,
        err.value.message,
    )


TOKENS = st.text(alphabet="0123456789+-.eE_xin", min_size=1, max_size=12).map(str.encode)


def _rule(token: bytes):
    """The grammar by hand: sign, digits and one point (a digit somewhere), exponent."""
    body = token[1:] if token[:1] in (b"+", b"-") else token
    mantissa, _, exponent = body.lower().partition(b"e")
    if b"e" in body.lower():
        exponent = exponent[1:] if exponent[:1] in (b"+", b"-") else exponent
        if not exponent.isdigit():
            return None
    if mantissa.count(b".") > 1 or not mantissa.replace(b".", b"").isdigit():
        return None
    value = float(token)
    return value if np.isfinite(value) else None


@given(TOKENS)
def test_the_grammar_is_the_rule_in_words(token):
    assert _text.decimal(token) == _rule(token)


@given(st.lists(TOKENS, min_size=1, max_size=8))
def test_one_pass_over_many_tokens_is_the_grammar(tokens):
    joined = b"\n".join(tokens)
    assert bool(_text.ALL_DECIMALS.fullmatch(joined)) == all(_text.DECIMAL.match(t) for t in tokens)


@given(st.lists(TOKENS, min_size=1, max_size=8))
def test_the_fast_route_takes_only_the_grammar_and_float_values(tokens):
    buf = _bytes.padded(b"\n".join(tokens))
    starts, ends = _bytes.bounds(buf)
    values, ok = _bytes.decimals(buf, starts, ends)
    for token, value, good in zip(tokens, values.tolist(), ok.tolist(), strict=True):
        if good:
            assert _text.DECIMAL.match(token), token
            assert value == float(token)


@given(st.lists(TOKENS, min_size=2, max_size=6))
def test_a_number_column_accepts_exactly_the_grammar(tokens):
    stream = io.BytesIO(b"\n".join(tokens) + b"\n")
    expected = [_rule(t) for t in tokens]
    if None in expected:
        bad = expected.index(None) + 1
        try:
            read_golddistr(stream)
        except FileFormatError as err:
            assert err.line == bad
        else:
            raise AssertionError(f"{tokens} read")
    else:
        assert read_golddistr(stream).tolist() == expected


READERS = {
    "io.read_qrels": (lambda x: fairconv_io.read_qrels(x), "path"),
    "io.read_run": (lambda x: fairconv_io.read_run(x), "path"),
    "io.read_gmemb": (lambda x: fairconv_io.read_gmemb(x), "path"),
    "io.read_golddistr": (lambda x: fairconv_io.read_golddistr(x), "path"),
    "io.read_json": (lambda x: fairconv_io.read_json(x), "path"),
    "io.iter_jsonl": (lambda x: list(fairconv_io.iter_jsonl(x)), "path"),
    "io.read_attribute_sets": (lambda x: fairconv_io.read_attribute_sets(x), "path"),
    "io.read_conversations": (lambda x: fairconv_io.read_conversations(x, []), "paths"),
    "io.read_answers": (lambda x: fairconv_io.read_answers(x, []), "path"),
    "io.read_labels": (lambda x: fairconv_io.read_labels(x), "path"),
    "io.read_scores": (lambda x: fairconv_io.read_scores(x), "paths"),
    "io.read_topics": (lambda x: fairconv_io.read_topics(x), "path"),
    "trecfair.read_run": (lambda x: trecfair.read_run(x, task=1), "path"),
    "trecfair.read_qrels": (lambda x: trecfair.read_qrels(x), "path"),
    "trecfair.read_alignment": (lambda x: trecfair.read_alignment("gender", x), "path"),
    "trecfair.read_metadata": (lambda x: trecfair.read_metadata(x, edition=2021), "path"),
    "trecfair.read_background": (lambda x: trecfair.read_background(x), "source"),
    "trecfair.read_work": (lambda x: trecfair.read_work(x), "path"),
    "io.read_nuggetizer": (lambda x: fairconv_io.read_nuggetizer(x), "path_or_records"),
    "io.read_cone_rag": (lambda x: fairconv_io.read_cone_rag(x), "gold"),
    "agreement.read_label_file": (lambda x: agreement.read_label_file(x), "path"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("value", [None, 2.5])
def test_a_value_that_is_no_path_is_a_type_error_naming_the_parameter(reader, value):
    read, parameter = READERS[reader]
    with pytest.raises(TypeError, match=rf"^The '{parameter}' parameter of {reader} must be"):
        read(value)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_file_descriptor_is_refused_and_left_open(reader, tmp_path):
    read, parameter = READERS[reader]
    held = tmp_path / "held.txt"
    held.write_text("q1 0 d1 1\n")
    fd = os.open(held, os.O_RDONLY)
    try:
        with pytest.raises(TypeError, match=rf"^The '{parameter}' parameter of {reader} must be"):
            read(fd)
        assert os.fstat(fd).st_size == held.stat().st_size  # still open: nothing closed it
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0  # and nothing read from it
    finally:
        os.close(fd)
