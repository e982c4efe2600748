"""Every reader's file errors are one class, FileFormatError, knowing the file and line.

A table of bad files, one or more for each reader: the error is a FileFormatError (a
ValueError) whose message starts with ``file:line:`` and whose ``path`` and ``line``
say the same.
"""

import json
import pickle

import numpy as np
import pytest

from fairconv import nuggets, trecfair
from fairconv.divergences import AttributeSet
from fairconv.io import (
    FileFormatError,
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
