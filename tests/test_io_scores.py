"""fairconv.io._scores: per-topic score files (fairconv TSV, trec_eval -q,
ir_measures, ranx) and ir_measures results in memory, beside the other tools.

Each reader is checked against a plain loop written from docs/formats.md (the
``*_by_loop`` oracles), on hand-made files and on random tables written in each layout;
random bytes and broken files end in a result or an error naming the file; frames and
files make one table, and the command line takes them. (ScoreTable's own rules, its
writes and joins, are in test_results.py.)"""

import io
import json
import subprocess
import sys
import warnings
from collections import namedtuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr
from fairconv._validation import id_fault
from fairconv.datasets import fairweb1_pilot
from fairconv.io import FileFormatError, from_ir_measures, read_qrels, read_scores, read_topics
from fairconv.results import ScoreTable

TREC = "P_5\tq1\t0.4\nP_5\tq2\t0.6\nndcg\tq1\t0.5\nndcg\tq2\t0.7\nP_5\tall\t0.5\nrunid\tall\tbm25\n"
IRM = "q1\tnDCG@10\t0.25\nq2\tnDCG@10\t0.75\nq3\tnDCG@10\t0.5\n"


def test_fairconv_tsv_round_trips_the_per_topic_values(tmp_path):
    p = fairweb1_pilot()
    table = gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["GFR@10", "GF-JSD@10[M-ORIGIN]"])
    f = tmp_path / "gfr.tsv"
    with open(f, "w") as out:
        table.to_tsv(out)
    back = read_scores(f)
    assert back.runs == table.runs and back.topics == table.topics
    assert back.measures == table.measures
    np.testing.assert_array_equal(back.present, table.present)
    np.testing.assert_array_equal(back.values[back.present], table.values[table.present])
    assert back.means() == table.means()  # the means are recomputed from the topic rows


def test_a_run_name_that_would_read_back_as_a_comment_is_refused():
    """A TSV row starting with '#' is a comment line to every reader (formats.md)."""
    from fairconv.results import ScoreTable

    table = ScoreTable.from_items(["#r", "r"], ["q1", "q1"], ["M"], np.array([[0.5], [0.25]]))
    out = io.StringIO()
    with pytest.raises(ValueError, match="run name '#r' starts with '#'"):
        table.to_tsv(out)
    assert out.getvalue() == ""


def test_trec_eval_and_ir_measures_layouts_are_detected(tmp_path):
    (tmp_path / "run.trec").write_text(TREC)
    (tmp_path / "other.irm").write_text(IRM)
    with pytest.warns(FairconvWarning) as notices:
        t = read_scores([tmp_path / "run.trec", tmp_path / "other.irm"])
    assert [str(w.message) for w in notices] == [
        f"{tmp_path / 'other.irm'}: read as ir_measures rows (query_id measure value), a guess: "
        "it has no runid row and no 'all' row, and its first column has 3 distinct value(s), "
        "its second 1, the measures being taken for the fewer; if its columns are the other "
        "way round, give input_format (--input-format)",
        "io.read_scores: some runs lack a value on topics that others have (P_5: 2 of 2 "
        "topic(s), ndcg: 2 of 2 topic(s), nDCG@10: 3 of 3 topic(s); first: topic 'q1' of "
        "P_5, runs other.irm); analyses of all runs use the topics every run has",
    ]
    assert t.runs == ("bm25", "other.irm")
    assert t.value("bm25", "q2", "ndcg") == 0.7
    assert t.value("other.irm", "q3", "nDCG@10") == 0.5
    assert t.means()["bm25"]["P_5"] == 0.5  # the 'all' row is ignored, the mean recomputed
    with pytest.raises(KeyError):
        t.value("bm25", "q3", "P_5")


def test_forced_layout_and_a_bom(tmp_path):
    f = tmp_path / "x"
    f.write_bytes(b"\xef\xbb\xbf" + b"q1\tm\t1\nq2\tm\t0\n")
    assert read_scores(f, input_format="ir_measures").topics == ("q1", "q2")
    g = tmp_path / "y"
    g.write_text("m\tq1\t1\n")  # one row: the layouts cannot be told apart
    with pytest.raises(ValueError, match="cannot tell trec_eval"):
        read_scores(g)
    assert read_scores(g, input_format="trec_eval").measures == ("m",)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", ": the file is empty"),
        (b"\n\n", ": the file is empty"),
        (b"m\tq1\t1\nm\tq\xff\t1\n", r":2: the line is not UTF-8"),
        (b"m\tq1\t1\nm\tq\x0b2\t1\n", r":2: a control character"),
        (b"m\tq1\t1\nm\tq2\tinf\n", r":2: the value .* finite number or NaN; found 'inf'"),
        (b"m\tq1\t1\nm\tq2\t1_0\n", r":2: the value .* finite number or NaN; found '1_0'"),
        (b"m\tq1\t1\nm\tq2\t1e999\n", r":2: the value .* found '1e999'"),
        (b"m\tq1\t1\nm\tq1\t2\nrunid\tall\tr\n", r":2: a second value for run 'r'"),
        (b"m\tq1\t1\nm\tq2\n", r":2: expected 3 columns in this score line, found 2"),
        (b"run\ttopic\tmeasure\tvalue\nr\tq\tm\n", r":2: expected 4 columns"),
        (b"m\tq1\t1\n\xef\xbb\xbfm\tq2\t1\n", r":2: a byte-order mark"),
    ],
)
def test_bad_files_name_the_file_and_line(tmp_path, content, message):
    f = tmp_path / "s.txt"
    f.write_bytes(content)
    with pytest.raises(ValueError, match="s.txt" + message):
        read_scores(f, input_format=None if b"run\t" in content else "trec_eval")


def test_rows_of_the_wrong_width_without_a_forced_layout(tmp_path):
    f = tmp_path / "s.txt"
    f.write_bytes(b"m\tq1\t1\nm\tq2\n")
    with pytest.raises(ValueError, match=r"s.txt:2: expected 3 columns in this score line"):
        read_scores(f)


def test_a_run_in_two_files_and_unknown_names(tmp_path):
    (tmp_path / "a").write_text(TREC)
    (tmp_path / "b").write_text(TREC)
    with pytest.raises(ValueError, match=r"b:1: a second value for run 'bm25', .*first at .*a:1"):
        read_scores([tmp_path / "a", tmp_path / "b"])
    with pytest.raises(ValueError, match=r"must name measures of the files \(P_5, ndcg\)"):
        read_scores(tmp_path / "a", measures=["map"])
    with pytest.raises(ValueError, match="no file has topic"):
        read_scores(tmp_path / "a", topics=["q9"])
    assert read_scores(tmp_path / "a", topics=["q2"]).topics == ("q2",)


def test_nan_marks_an_undefined_value():
    t = read_scores(io.StringIO("run\ttopic\tmeasure\tvalue\nr\tq1\tRIGF\tNaN\nr\tq2\tRIGF\t5\n"))
    assert np.isnan(t.value("r", "q1", "RIGF")) and t.means()["r"]["RIGF"] == 5.0


def test_topic_files(tmp_path):
    f = tmp_path / "topics"
    f.write_text("q2\n\nq1\n")
    assert read_topics(f) == ("q2", "q1")
    f.write_text("q2\nq2\n")
    with pytest.raises(ValueError, match=r"topics:2: topic 'q2' is listed twice"):
        read_topics(f)
    f.write_text("# c\n\n")
    with pytest.raises(ValueError, match=r"topics: the file is empty \(no topic rows\)"):
        read_topics(f)


def test_topic_files_skip_comment_lines(tmp_path):
    """As every text reader does (docs/formats.md): `fairconv compare --topics t`."""
    f = tmp_path / "t"
    f.write_bytes(b"\xef\xbb\xbf# pilot topics\r\nP002\r\n\r\n  #P003 left out\r\nP001\r\n")
    assert read_topics(f) == ("P002", "P001")
    f.write_bytes(b"P001\n\xef\xbb\xbfP002\n")
    with pytest.raises(ValueError, match=r"t:2: a byte-order mark"):
        read_topics(f)


def test_compare_topics_file_with_a_comment(tmp_path):
    import subprocess
    import sys

    for run, values in (("A", "0.4 0.6 0.5"), ("B", "0.3 0.2 0.1")):
        rows = [f"m\tq{i}\t{v}" for i, v in enumerate(values.split(), start=1)]
        (tmp_path / run).write_text("\n".join([*rows, f"runid\tall\t{run}"]) + "\n")
    (tmp_path / "t").write_text("# the first two\nq1\nq2\n")
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "compare", "-m", "m", "--topics", "t", "A", "B"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# measure: m (higher is better)\n# test: randomised-tukey")
    assert "; topics: 2\n" in proc.stdout


@pytest.mark.parametrize(
    "text, layout",
    [
        ("# per-topic scores\n" + TREC.replace("ndcg\tq1", "# a comment\nndcg\tq1"), "trec_eval"),
        ("#!\n" + IRM.replace("q2", "  # indented\n\nq2", 1), "ir_measures"),
        (
            "# written by fairconv\nrun\ttopic\tmeasure\tvalue\n# x\nbm25\tq1\tP_5\t0.4\n"
            "bm25\tq2\tP_5\t0.6\n",
            "fairconv",
        ),
    ],
)
def test_score_files_skip_comment_lines(tmp_path, text, layout):
    f = tmp_path / "c.tsv"
    f.write_text(text)
    for forced in (None, layout):
        with warnings.catch_warnings(record=True) as notices:
            warnings.simplefilter("always")
            t = read_scores(f, input_format=forced)
        assert t.topics in (("q1", "q2"), ("q1", "q2", "q3")) and t.present.all()
        guessed = forced is None and "runid" not in text and layout != "fairconv"
        assert [w.category for w in notices] == [FairconvWarning] * guessed


def test_score_file_fields_split_where_every_reader_splits(tmp_path):
    """At spaces, tabs and CR; a no-break space is refused, as in qrels (the id rule)."""
    f = tmp_path / "s.txt"
    f.write_text("q1\tm\t1\nq\u00a02\tm\t0\n")
    with pytest.raises(FileFormatError, match=r"s\.txt:2: a Unicode space \(U\+00A0\)"):
        read_scores(f, input_format="ir_measures")
    q = tmp_path / "q.txt"
    q.write_text("q1 d1 L1\nq\u00a02 d1 L1\n")
    with pytest.raises(FileFormatError, match=r"q\.txt:2: a Unicode space \(U\+00A0\)"):
        read_qrels(q)


REFERENCE = __import__("pathlib").Path(__file__).parent / "reference"


def test_ir_measures_per_query_output_with_its_all_rows():
    """Files written by `ir_measures qrels run nDCG@10 P@5 -q` (ir_measures 0.4.3)."""
    files = [REFERENCE / "ir_measures_q.bm25.tsv", REFERENCE / "ir_measures_q.qld.tsv"]
    t = read_scores(files)
    assert t.runs == ("ir_measures_q.bm25.tsv", "ir_measures_q.qld.tsv")
    assert t.topics == ("P001", "P002", "P003", "P004") and "all" not in t.topics
    assert t.measures == ("P@5", "nDCG@10") and t.present.all()
    assert t.value("ir_measures_q.bm25.tsv", "P001", "nDCG@10") == 0.6134
    # the means are recomputed from the topic rows; the file's 'all' rows agree to 4 places
    means = t.means()
    assert abs(means["ir_measures_q.bm25.tsv"]["nDCG@10"] - 0.4100) <= 0.5e-4
    assert means["ir_measures_q.qld.tsv"]["P@5"] == pytest.approx(0.45, abs=1e-15)  # all row
    forced = read_scores(files, input_format="ir_measures")
    np.testing.assert_array_equal(forced.values, t.values)


def test_trec_eval_q_output_as_trec_eval_pads_it():
    rows = [
        "num_ret               \tq1\t1000",
        "P_5                   \tq1\t0.4000",
        "num_ret               \tq2\t1000",
        "P_5                   \tq2\t0.6000",
        "runid                 \tall\tbm25",
        "num_q                 \tall\t2",
        "P_5                   \tall\t0.5000",
    ]
    t = read_scores(io.StringIO("\r\n".join(rows) + "\r\n"), measures=["P_5"])
    assert t.runs == ("bm25",) and t.topics == ("q1", "q2") and t.measures == ("P_5",)
    assert t.value("bm25", "q2", "P_5") == 0.6


def test_only_all_rows_is_an_error(tmp_path):
    f = tmp_path / "summary.txt"
    f.write_text("runid\tall\tbm25\nP_5\tall\t0.5\n")
    with pytest.raises(ValueError, match=r"summary.txt: no per-topic rows.*trec_eval -q"):
        read_scores(f)
    f.write_text("all\tP@5\t0.5\n")
    with pytest.raises(ValueError, match=r"summary.txt: no per-topic rows"):
        read_scores(f, input_format="ir_measures")


def test_selections_name_each_topic_and_measure_once(tmp_path):
    (tmp_path / "a").write_text(TREC)
    with pytest.raises(ValueError, match="'topics' parameter of io.read_scores must list each"):
        read_scores(tmp_path / "a", topics=["q1", "q1"])
    with pytest.raises(ValueError, match="'measures' parameter of io.read_scores must list each"):
        read_scores(tmp_path / "a", measures=["P_5", "P_5"])
    with pytest.raises(TypeError, match="'topics' parameter of io.read_scores must be a sequence"):
        read_scores(tmp_path / "a", topics="q1")
    with pytest.raises(ValueError, match="'input_format' parameter of io.read_scores"):
        read_scores(tmp_path / "a", input_format="csv")
    with pytest.raises(ValueError, match="'paths' parameter of io.read_scores must name a file"):
        read_scores([])
    t = read_scores(tmp_path / "a", topics=["q2", "q1"], measures=["ndcg"])
    assert t.topics == ("q2", "q1") and t.measures == ("ndcg",)
    assert t.value("bm25", "q2", "ndcg") == 0.7


def test_a_fairconv_tsv_with_several_runs_adds_to_other_files(tmp_path):
    (tmp_path / "f.tsv").write_text(
        "run\ttopic\tmeasure\tvalue\nA\tq1\tm\t0.5\nB\tq1\tm\t0.25\nA\tall\tm\t0.5\n"
        "A\tall\tn[m]\t1\n"
    )
    (tmp_path / "C").write_text("q1\tm\t1\nall\tm\t1\n")
    t = read_scores([tmp_path / "f.tsv", tmp_path / "C"])
    assert t.runs == ("A", "B", "C") and t.topics == ("q1",)
    assert [t.value(r, "q1", "m") for r in t.runs] == [0.5, 0.25, 1.0]
    (tmp_path / "g.tsv").write_text("run\ttopic\tmeasure\tvalue\nB\tq2\tm\t0.5\n")
    with pytest.warns(
        FairconvWarning, match=r"\(m: 1 of 2 topic\(s\); first: topic 'q2' of m, runs A\)"
    ):
        t = read_scores([tmp_path / "f.tsv", tmp_path / "g.tsv"])  # B named inside: merged
    assert t.runs == ("A", "B") and t.present[:, :, 0].tolist() == [[True, True], [False, True]]


NAME = st.text(st.characters(blacklist_characters="#"), min_size=1, max_size=12).filter(
    lambda x: id_fault(x) is None
)


# ------------------------------------------------------------------ layout guessing
FEW_TOPICS = (
    "q1\tP@5\t0.2\nq1\tnDCG@10\t0.3\nq1\tAP\t0.1\nq2\tP@5\t0.4\nq2\tnDCG@10\t0.5\nq2\tAP\t0.2\n"
)


def test_a_guessed_layout_is_said_and_errors_about_names_point_to_input_format(tmp_path):
    """ir_measures output with fewer topics than measures was taken for trec_eval, and
    the error then called the topic ids measures."""
    f = tmp_path / "bm25.irm"
    f.write_text(FEW_TOPICS)
    guess = (
        r"bm25.irm was read as trec_eval -q rows \(measure topic value\), a guess: it has no "
        r"runid row and no 'all' row, and its first column has 2 distinct value\(s\), its "
        r"second 3, the measures being taken for the fewer; if its columns are the other way "
        r"round, give input_format \(--input-format\)"
    )
    with pytest.warns(FairconvWarning, match=r"bm25.irm: read as trec_eval -q rows"):
        with pytest.raises(ValueError, match=r"'measures' parameter of io.read_scores must name "
                           r"measures of the files \(q1, q2\). Got 'nDCG@10' instead; .*"
                           + guess):  # fmt: skip
            read_scores(f, measures=["nDCG@10"])
    with pytest.warns(FairconvWarning), pytest.raises(ValueError, match="; .*" + guess):
        read_scores(f, topics=["q1"])
    t = read_scores(f, input_format="ir_measures", measures=["nDCG@10"])  # no notice
    assert t.topics == ("q1", "q2") and t.value("bm25.irm", "q2", "nDCG@10") == 0.5


def test_the_command_line_says_what_was_guessed(tmp_path):
    import subprocess
    import sys

    (tmp_path / "a.irm").write_text(FEW_TOPICS)
    (tmp_path / "b.irm").write_text(FEW_TOPICS.replace("\t0.", "\t0.0"))
    argv = [sys.executable, "-m", "fairconv", "compare", "-m", "nDCG@10", "a.irm", "b.irm"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    error = proc.stderr.splitlines()[-1]
    assert error.startswith(
        "fairconv compare: error: --measure must name measures of the files (q1,"
    )
    assert "a.irm was read as trec_eval -q rows" in error and "(and 1 more file(s))" in error
    assert "give input_format (--input-format)" in error
    assert proc.stderr.count("a guess") == 3  # one notice per file, then the error
    proc = subprocess.run([*argv, "--input-format", "ir_measures"], capture_output=True,
                          text=True, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


# ------------------------------------------------------------------ ids of other tools' files
@pytest.mark.parametrize(
    "data, where",
    [
        ({"ndcg": {"": 0.5}}, r"field 'ndcg'/'': a query id must be a non-empty string"),
        ({"ndcg": {"q 1": 0.5}}, r"field 'ndcg'/'q 1': a query id must not contain "
         r"whitespace"),
        ({"ndcg": {"q1": 0.5, "q\u00a02": 1}}, r"field .*'q\\xa02': a query id must not contain"),
        ({"nd cg": {"q1": 0.5}}, r"field 'nd cg': a measure name must not contain"),
        ({"A B": {"ndcg": {"q1": 0.5}}}, r"field 'A B': a run name must not contain whitespace"),
        ({"": {"ndcg": {"q1": 0.5}}}, r"field '': a run name must be a non-empty string"),
        ({"ndcg": {"q1": True}}, r"field 'ndcg': a score must be a number or null; "
         r"found True"),
    ],
)  # fmt: skip
def test_ranx_ids_follow_the_id_rule(tmp_path, data, where):
    import json

    f = tmp_path / "r.json"
    f.write_text(json.dumps(data))
    with pytest.raises(FileFormatError, match=rf"^{tmp_path / 'r.json'}: {where}"):
        read_scores(f)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=4), min_size=1, max_size=4, unique=True))
def test_a_ranx_file_is_read_exactly_when_its_query_ids_are_ids(queries):
    import json
    import tempfile

    queries = [q for q in queries if q != "all"] or ["x"]
    with tempfile.TemporaryDirectory() as folder:
        f = f"{folder}/r.json"
        with open(f, "w", encoding="utf-8", errors="surrogatepass") as out:
            out.write(json.dumps({"ndcg": dict.fromkeys(queries, 0.5)}))
        if all(id_fault(q) is None for q in queries):
            assert set(read_scores(f).topics) == set(queries)
        else:
            with pytest.raises(FileFormatError, match="a query id must"):
                read_scores(f)


def test_a_run_named_after_a_file_whose_name_is_no_run_name_asks_for_a_name(tmp_path):
    f = tmp_path / "my run.trec"
    f.write_text("P_5\tq1\t0.4\nP_5\tall\t0.4\n")
    with pytest.raises(FileFormatError, match=r"my run.trec: the file names no run, and its name "
                       r"'my run.trec' is no run name \(a run name must not contain whitespace "
                       r"or control characters\); name the run \(\{name: path\} in the API, "
                       r"NAME=FILE on the command line\)"):  # fmt: skip
        read_scores(f)
    assert read_scores({"bm25": f}).runs == ("bm25",)
    g = tmp_path / "two words.json"
    g.write_text('{"ndcg": {"q1": 0.5}}')
    with pytest.raises(FileFormatError, match="its name 'two words.json' is no run name"):
        read_scores(g)
    assert read_scores({"A": g}).runs == ("A",)


def test_ir_measures_results_follow_the_id_and_name_rules():
    from collections import namedtuple

    from fairconv.io import from_ir_measures

    Metric = namedtuple("Metric", "query_id measure value")
    with pytest.raises(ValueError, match=r"'metrics' parameter of io.from_ir_measures must hold "
                       r"query ids that the score readers read back \(each must not contain "
                       r"whitespace or control characters\). Got 'q 1' in run 'r'"):  # fmt: skip
        from_ir_measures([Metric("q 1", "P@5", 0.1)], name="r")
    with pytest.raises(ValueError, match=r"hold measure names .* Got 'P 5' in run 'r'"):
        from_ir_measures([Metric("q1", "P 5", 0.1)], name="r")
    with pytest.raises(ValueError, match=r"hold distinct names \(query ids of run 'r'\). Got 1 "
                       r"and '1', both '1' as names"):  # fmt: skip
        from_ir_measures([Metric(1, "P@5", 0.1), Metric("1", "P@5", 0.2)], name="r")
    with pytest.raises(ValueError, match=r"'name' parameter .* Got 'a b' instead"):
        from_ir_measures([Metric("q1", "P@5", 0.1)], name="a b")
    with pytest.raises(ValueError, match=r"'metrics' .* map run names to results \(each must be "
                       r"a non-empty string\). Got ''"):  # fmt: skip
        from_ir_measures({"": [Metric("q1", "P@5", 0.1)]})
    with pytest.raises(ValueError, match=r"hold finite numbers as values .* Got -inf at item 1"):
        from_ir_measures([Metric("q1", "P@5", 0.1), Metric("q2", "P@5", -np.inf)], name="r")
    t = from_ir_measures({np.int64(7): [Metric(np.int64(3), "P@5", 0.5)]})
    assert t.runs == ("7",) and t.topics == ("3",)


def test_reading_a_fairconv_tsv_holds_a_code_per_row_not_a_string(tmp_path):
    """compare on a 7 MB TSV peaked at 16x the file; the reader's arrays follow the rows."""
    import tracemalloc

    rng = np.random.default_rng(0)
    f = tmp_path / "s.tsv"
    rows = [f"r{r}\tq{t}\tm{m}\t{rng.random():.4f}\n" for r in range(20) for t in range(2000)
            for m in range(8)]  # fmt: skip
    f.write_text("run\ttopic\tmeasure\tvalue\n" + "".join(rows))
    size = f.stat().st_size
    tracemalloc.start()
    try:
        t = read_scores(f, measures=["m1"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert t.values.shape == (2000, 20, 1)
    # the tokeniser's bounds are allocated at 4x the file (pages it never reaches are
    # not memory), the bytes 1x; with a string per row the reading took 11.2x
    assert peak < 8 * size, peak / size


Metric = namedtuple("Metric", "query_id measure value")


def table_of(values, runs=None, topics=None, measures=None, present=None):
    values = np.asarray(values, dtype=float)
    t, r, m = values.shape
    return ScoreTable(
        topics=topics or tuple(f"q{i}" for i in range(t)),
        runs=runs or tuple(f"r{i}" for i in range(r)),
        measures=measures or tuple(f"M{i}" for i in range(m)),
        values=values,
        present=np.ones(values.shape, bool) if present is None else np.asarray(present),
    )


@pytest.fixture(scope="module")
def pilot_table():
    p = fairweb1_pilot()
    return gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])


# ------------------------------------------------------------------ oracles
def _fields(text):
    """Records of a whitespace table: blank lines and '#' lines skipped."""
    for number, line in enumerate(text.split("\n"), start=1):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            yield number, fields


def _number(token):
    return float("nan") if token in ("NaN", "nan") else float(token)


def fairconv_by_loop(text):
    """{(run, topic, measure): value} of fairconv's TSV."""
    out = {}
    rows = list(_fields(text))
    assert [f.lower() for f in rows[0][1]] == ["run", "topic", "measure", "value"]
    for _, (run, topic, measure, value) in rows[1:]:
        if topic != "all":
            out[run, topic, measure] = _number(value)
    return out


def trec_eval_by_loop(text, file_name):
    out, run = {}, file_name
    for _, (measure, _topic, value) in _fields(text):
        if measure == "runid":
            run = value
    for _, (measure, topic, value) in _fields(text):
        if measure != "runid" and topic != "all":
            out[run, topic, measure] = _number(value)
    return out


def ir_measures_by_loop(text, file_name):
    return {
        (file_name, topic, measure): _number(value)
        for _, (topic, measure, value) in _fields(text)
        if topic != "all"
    }


def ranx_by_loop(data, file_name):
    first = next(iter(data.values()))
    by_run = data if isinstance(next(iter(first.values())), dict) else {file_name: data}
    return {
        (run, topic, measure): float("nan") if value is None else float(value)
        for run, per in by_run.items()
        for measure, values in per.items()
        for topic, value in values.items()
    }


def cells_of(table):
    """{(run, topic, measure): value} of the cells a table holds."""
    return {
        (run, topic, measure): float(table.values[t, r, m])
        for t, topic in enumerate(table.topics)
        for r, run in enumerate(table.runs)
        for m, measure in enumerate(table.measures)
        if table.present[t, r, m]
    }


def same_cells(a, b):
    assert a.keys() == b.keys()
    for key, value in a.items():
        assert value == b[key] or (np.isnan(value) and np.isnan(b[key])), key


# ------------------------------------------------------------------ other tools' files
TREC_A = "P_5\tq1\t0.4000\nndcg_cut_20\tq1\t0.5\nP_5\tq2\t0.6\nndcg_cut_20\tq2\t0.7\n" \
    "runid\tall\tA\nP_5\tall\t0.5\n"  # fmt: skip


# ------------------------------------------------------------------ command line
def fairconv(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True,
        cwd=cwd,
    )  # fmt: skip


@pytest.fixture
def gfr_and_trec_eval(tmp_path, pilot_table):
    pilot_table["GFR@10"].to_tsv(tmp_path / "gfr.tsv")
    rng = np.random.default_rng(1)
    for run in pilot_table.runs:
        rows = [f"ndcg_cut_10\t{t}\t{rng.random():.4f}" for t in pilot_table.topics]
        (tmp_path / f"{run}.trec").write_text("\n".join([*rows, f"runid\tall\t{run}"]) + "\n")
    return pilot_table.runs


# ------------------------------------------------------------------ round trips and fuzz
NAMES = st.text("abcXYZ019_-.@[]é", min_size=1, max_size=8).filter(
    lambda x: x != "all" and x != "runid" and not x.startswith("#")
)


FINITE = st.floats(allow_nan=False, allow_infinity=False) | st.just(float("nan"))


@st.composite
def cell_sets(draw):
    topics = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    measures = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    cells = {
        (t, m): draw(FINITE)
        for t in topics
        for m in measures
        if draw(st.booleans()) or (t, m) == (topics[0], measures[0])
    }
    return cells


ROUND = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


def _text(value):
    return "NaN" if np.isnan(value) else repr(value)


MUTATIONS = st.sampled_from(["\t", "\n", " ", "all", "runid", "NaN", "1e999", "#", "x", ""])


# ------------------------------------------------------------------ DataFrames of scores
def frame_by_loop(frame, name=None):
    """{(run, topic, measure): value} of a long frame, row by row (formats in read_scores)."""
    columns = set(frame.columns)
    run_col = next((c for c in ("run_id", "run", "tag", "name", "system") if c in columns), None)
    topic_col = next(c for c in ("topic", "query_id", "qid", "q_id") if c in columns)
    out = {}
    for _, row in frame.iterrows():
        topic = str(row[topic_col])
        if topic == "all":
            continue
        run = name if name is not None else str(row[run_col])
        value = row["value"]
        out[run, topic, str(row["measure"])] = float("nan") if pd_isna(value) else float(value)
    return out


def pd_isna(value):
    import pandas as pd

    return bool(pd.isna(value))


def test_trec_eval_file_by_the_oracle(tmp_path):
    f = tmp_path / "a.trec"
    f.write_text(TREC_A)
    t = read_scores(f)
    same_cells(cells_of(t), trec_eval_by_loop(TREC_A, "a.trec"))
    assert t.measures == ("P_5", "ndcg_cut_20")  # names kept verbatim


def test_two_runid_rows_in_one_trec_eval_file_are_an_error(tmp_path):
    """Runs merged without a word: two trec_eval -q outputs joined with cat."""
    for second in ("A", "B"):
        f = tmp_path / f"joined{second}"
        f.write_text(TREC_A + TREC_A.replace("\tA\n", f"\t{second}\n").replace("q", "p"))
        with pytest.raises(ValueError, match=r"joined.:11: a second runid row \(the first is "
                           r"on line 5\)"):  # fmt: skip
            read_scores(f)


def test_mean_rows_are_left_out_and_a_topic_all_is_refused(tmp_path):
    f = tmp_path / "s.tsv"
    f.write_text("run\ttopic\tmeasure\tvalue\nr\tq1\tm\t1\nr\tall\tm\t5\nr\tall\tn[m]\t1\n")
    t = read_scores(f)
    assert t.topics == ("q1",) and t.means()["r"]["m"] == 1.0
    ranx = tmp_path / "r.json"
    ranx.write_text(json.dumps({"ndcg@10": {"q1": 0.5, "all": 0.5}}))
    with pytest.raises(ValueError, match=r"r.json: field 'ndcg@10'/'all': the topic"):
        read_scores(ranx)
    with pytest.raises(ValueError, match="query id 'all'"):
        from_ir_measures([Metric("all", "P@5", 0.2)], name="r")
    with pytest.raises(ValueError, match="topic id 'all'"):
        table_of([[[1.0]]], topics=("all",))


def test_ranx_json_flat_and_by_run(tmp_path):
    flat = {"ndcg@10": {"q1": 0.5, "q2": 0.25}, "precision@5": {"q1": 0.2, "q2": None}}
    (tmp_path / "bm25.json").write_text(json.dumps(flat))
    t = read_scores(tmp_path / "bm25.json")
    same_cells(cells_of(t), ranx_by_loop(flat, "bm25.json"))
    nested = {"A": flat, "B": {"ndcg@10": {"q1": 1.0, "q2": 0.0}}}
    (tmp_path / "two.json").write_text(json.dumps(nested))
    with pytest.warns(FairconvWarning, match="precision@5"):
        t = read_scores(tmp_path / "two.json", input_format="ranx")
    same_cells(cells_of(t), ranx_by_loop(nested, "two.json"))
    assert t.runs == ("A", "B")
    (tmp_path / "bad.json").write_text(json.dumps({"ndcg@10": {"q1": "x"}}))
    with pytest.raises(ValueError, match=r"bad.json: field 'ndcg@10': a score must"):
        read_scores(tmp_path / "bad.json")


def test_a_run_named_inside_or_by_the_caller_spans_files(tmp_path, pilot_table):
    gfr_file = tmp_path / "gfr.tsv"
    pilot_table["GFR@10"].to_tsv(gfr_file)
    run = pilot_table.runs[0]
    rows = [f"ndcg_cut_10\t{t}\t0.{i + 1}" for i, t in enumerate(pilot_table.topics)]
    (tmp_path / "x.trec").write_text("\n".join(rows) + "\n")
    with pytest.warns(FairconvWarning) as notices:
        t = read_scores([gfr_file, {run: tmp_path / "x.trec"}])
    assert "x.trec: read as trec_eval -q rows (measure topic value), a guess" in str(
        notices[0].message
    )
    assert "ndcg_cut_10: 4 of 4 topic" in str(notices[1].message) and len(notices) == 2
    assert t.runs == pilot_table.runs
    assert t.value(run, pilot_table.topics[1], "ndcg_cut_10") == 0.2
    assert t.value(run, "P002", "GFR@10") == pilot_table.value(run, "P002", "GFR@10")
    # a name from a file's base name is never merged
    (tmp_path / run).write_text("\n".join(rows) + "\n")
    with pytest.raises(ValueError, match="only by its file name, which is never merged"):
        with pytest.warns(FairconvWarning, match="a guess"):
            read_scores([gfr_file, tmp_path / run])
    # the same (run, topic, measure) twice names both places
    with pytest.raises(ValueError, match=r"y.trec:1: a second value for run .* \(first at "
                       r".*x.trec:1\)"):  # fmt: skip
        (tmp_path / "y.trec").write_text("\n".join(rows) + "\n")
        read_scores({run: [tmp_path / "x.trec", tmp_path / "y.trec"]}, input_format="trec_eval")
    with pytest.raises(ValueError, match="given to a file of 3 runs"):
        read_scores({"Z": gfr_file})


def test_ir_measures_adapter_by_the_oracle():
    rng = np.random.default_rng(5)
    results = {
        run: [Metric(f"q{t}", name, float(rng.random())) for t in range(7)
              for name in ("nDCG@10", "P@5") if (t + len(run)) % 5]
        for run in ("bm25", "qld-x")
    }  # fmt: skip
    with pytest.warns(FairconvWarning):
        t = from_ir_measures(results)
    want = {(run, m.query_id, m.measure): m.value for run, ms in results.items() for m in ms}
    same_cells(cells_of(t), want)
    one = from_ir_measures(iter(results["bm25"]), name="bm25")
    assert one.measures == ("nDCG@10", "P@5") and one.runs == ("bm25",)
    with pytest.raises(ValueError, match=r"item 1: .*a second value.*item 0"):
        from_ir_measures([Metric("q", "P@5", 0.1), Metric("q", "P@5", 0.2)], name="r")
    with pytest.raises(ValueError, match="'name' parameter of io.from_ir_measures"):
        from_ir_measures([Metric("q", "P@5", 0.1)])
    with pytest.raises(
        ValueError, match="must hold numbers as values. Got True at item 0 of run 'r'"
    ):
        from_ir_measures([Metric("q", "P@5", True)], name="r")


def test_does_gfr_rank_systems_like_ndcg_in_one_command(tmp_path, gfr_and_trec_eval):
    trec = [f"{r}.trec" for r in gfr_and_trec_eval]
    agree = fairconv("agree", "-m", "GFR@10", "-m", "ndcg_cut_10", "gfr.tsv", *trec, cwd=tmp_path)
    assert agree.returncode == 0, agree.stderr
    row = agree.stdout.splitlines()[-1].split("\t")
    assert row[:2] == ["GFR@10", "ndcg_cut_10"]
    table = read_scores([tmp_path / "gfr.tsv", *(tmp_path / p for p in trec)])
    from scipy.stats import kendalltau

    mean, _ = table.mean()
    assert float(row[2]) == pytest.approx(kendalltau(mean[:, 0], mean[:, 1]).statistic, abs=1e-12)
    # NAME=FILE names the run of a file without a runid row
    named = []
    for run in gfr_and_trec_eval:
        text = (tmp_path / f"{run}.trec").read_text().replace(f"runid\tall\t{run}\n", "")
        (tmp_path / f"plain-{run}").write_text(text)
        named.append(f"{run}=plain-{run}")
    for command in (["compare", "-m", "ndcg_cut_10", "--test", "tukey"],
                    ["discpower", "-m", "GFR@10", "-m", "ndcg_cut_10", "--test", "tukey"],
                    ["agree", "-m", "GFR@10", "-m", "ndcg_cut_10"]):  # fmt: skip
        a = fairconv(*command, "gfr.tsv", *trec, cwd=tmp_path)
        b = fairconv(*command, "gfr.tsv", *named, cwd=tmp_path)
        assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
        assert a.stdout == b.stdout and a.stdout


def test_cli_errors_of_score_files(tmp_path, gfr_and_trec_eval):
    run = gfr_and_trec_eval[0]
    (tmp_path / "cat.trec").write_text(
        (tmp_path / f"{run}.trec").read_text() + (tmp_path / f"{run}.trec").read_text()
    )
    proc = fairconv("agree", "-m", "GFR@10", "-m", "ndcg_cut_10", "gfr.tsv", "cat.trec",
                    cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "cat.trec:" in proc.stderr and "a second runid row" in proc.stderr
    proc = fairconv("compare", "-m", "GFR@10", "gfr.tsv", "=x", cwd=tmp_path)
    assert proc.returncode == 2 and "NAME=FILE" in proc.stderr


@ROUND
@given(cell_sets(), st.sampled_from(["fairconv", "trec_eval", "ir_measures", "ranx"]))
def test_each_layout_round_trips_by_the_oracle(tmp_path, cells, layout):
    f = tmp_path / "run-x"
    if layout == "fairconv":
        text = "run\ttopic\tmeasure\tvalue\n" + "".join(
            f"run-x\t{t}\t{m}\t{_text(v)}\n" for (t, m), v in cells.items()
        )
        want = fairconv_by_loop(text)
    elif layout == "trec_eval":
        text = "".join(f"{m}\t{t}\t{_text(v)}\n" for (t, m), v in cells.items())
        want = trec_eval_by_loop(text, "run-x")
    elif layout == "ir_measures":
        text = "".join(f"{t} {m} {_text(v)}\n" for (t, m), v in cells.items())
        want = ir_measures_by_loop(text, "run-x")
    else:
        data: dict = {}
        for (t, m), v in cells.items():
            data.setdefault(m, {})[t] = None if np.isnan(v) else v
        text = json.dumps(data)
        want = ranx_by_loop(data, "run-x")
    f.write_text(text, encoding="utf-8")
    t = read_scores(f, input_format=layout)
    same_cells(cells_of(t), want)


@ROUND
@given(st.binary(max_size=200), st.sampled_from([None, "trec_eval", "fairconv", "ranx"]))
def test_random_bytes_give_a_table_or_an_error_naming_the_file(tmp_path, data, layout):
    f = tmp_path / "fuzz.txt"
    f.write_bytes(data)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            read_scores(f, input_format=layout)
        except ValueError as exc:
            assert str(exc).startswith(str(f)) or "fuzz.txt" in str(exc)
    assert all(w.category is FairconvWarning for w in caught)  # notices, never numpy's


@ROUND
@given(st.integers(0, 200), MUTATIONS, st.sampled_from([None, "trec_eval", "ir_measures"]))
def test_broken_score_files_give_a_table_or_an_error_naming_the_file(tmp_path, at, what, fmt):
    base = TREC_A + "ndcg\tq3\t0.25\n"
    f = tmp_path / "broken.trec"
    f.write_text(base[:at] + what + base[at + 1 :], encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            read_scores(f, input_format=fmt)
        except ValueError as exc:
            assert "broken.trec" in str(exc)
    assert all(w.category is FairconvWarning for w in caught)  # notices, never numpy's


def test_a_fifo_score_file_is_read_once(tmp_path):
    """A FIFO (``<(trec_eval -q ...)`` on the command line) is read as the file it names."""
    import os
    import threading

    fifo = tmp_path / "scores.fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w") as f:
            f.write(TREC_A)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        t = read_scores(fifo)
    finally:
        writer.join(timeout=10)
    same_cells(cells_of(t), trec_eval_by_loop(TREC_A, "scores.fifo"))


def test_pyterrier_ir_measures_and_fairconv_frames_by_the_oracle(pilot_table):
    import pandas as pd

    pyterrier = pd.DataFrame({"name": ["BM25"] * 4 + ["PL2"] * 4,
                              "qid": ["301", "301", "302", "302"] * 2,
                              "measure": ["map", "ndcg_cut_10"] * 4,
                              "value": [0.1, 0.2, 0.3, np.nan, 0.5, 0.6, 0.7, 0.8]})  # fmt: skip
    t = read_scores(pyterrier)
    same_cells(cells_of(t), frame_by_loop(pyterrier))
    assert t.runs == ("BM25", "PL2") and np.isnan(t.value("BM25", "302", "ndcg_cut_10"))
    results = [Metric(301, "nDCG@10", 0.5), Metric(302, "nDCG@10", 0.25)]
    irm = pd.DataFrame(results)  # pd.DataFrame(ir_measures.iter_calc(...)): query_id, no run
    t = read_scores({"bm25": irm})
    same_cells(cells_of(t), frame_by_loop(irm, "bm25"))
    back = read_scores(pilot_table.to_frame(all_rows=True))  # the all rows are left out
    same_cells(cells_of(back), cells_of(pilot_table))
    assert dict(back.directions) == dict(pilot_table.directions)


def test_frames_and_files_in_one_table(tmp_path, pilot_table):
    import pandas as pd

    gfr_file = tmp_path / "gfr.tsv"
    pilot_table["GFR@10"].to_tsv(gfr_file)
    run = pilot_table.runs[0]
    ndcg = pd.DataFrame({"query_id": list(pilot_table.topics), "measure": "nDCG@10",
                         "value": np.linspace(0, 1, len(pilot_table.topics))})  # fmt: skip
    with pytest.warns(FairconvWarning, match="nDCG@10: 4 of 4 topic"):
        t = read_scores([gfr_file, {run: ndcg}])  # one run over a file and a frame
    assert t.measures == ("GFR@10", "nDCG@10") and t.runs == pilot_table.runs
    assert t.value(run, pilot_table.topics[-1], "nDCG@10") == 1.0
    with pytest.raises(ValueError, match=r"run 'x' \(DataFrame, index 0\): a second value"):
        read_scores([{"x": ndcg}, {"x": ndcg}])


@pytest.mark.parametrize(
    "columns, index, match",
    [
        ({"run": ["a", "a"], "topic": ["q1", "q 2"]}, [7, 9],
         r"^scores \(DataFrame, index 9\): the topic 'q 2' must be non-empty, without"),
        ({"run": ["a", ""], "topic": ["q1", "q2"]}, ["x", "y"],
         r"^scores \(DataFrame, index 'y'\): the run name '' must be non-empty"),
        ({"run": ["a", None], "topic": ["q1", "q2"]}, None,
         # pandas 3 stores the None of a str column as NaN, pandas 2 keeps it
         r"^scores \(DataFrame, index 1\): the run name is missing \((None|nan)\)$"),
        ({"run": ["a", "a"], "topic": ["q1", "q2"], "value": [0.5, np.inf]}, [3, 4],
         r"^scores \(DataFrame, index 4\): a score must be finite \(NaN where undefined\), "
         r"got inf$"),
        ({"run": ["a", "a"], "topic": ["q1", "q2"], "value": [0.5, "high"]}, None,
         r"^scores \(DataFrame, index 1\): a score must be a number .*got 'high'$"),
        ({"run": ["a", "a"], "topic": ["q1", "q2"], "measure": ["m", 2.5]}, None,
         r"^scores \(DataFrame, index 1\): a measure must be named by a string, got 2.5$"),
        ({"run": ["a", "a"], "topic": ["q1", "q1"]}, [5, 6],
         r"^scores \(DataFrame, index 6\): a second value for run 'a', topic 'q1' and measure "
         r"'m' \(first at scores \(DataFrame, index 5\)\)$"),
        ({"topic": ["q1", "q2"]}, None, r"has no run column .*name its run: \{name: frame\}"),
        ({"run": ["a", "a"], "topic": [1, "1"], "measure": ["m", "n"]}, [4, 5],
         r"^scores \(DataFrame, index 5\): the topic '1' and the topic 1 at index 4 are "
         r"different values of one id '1'; give every topic as a str, or every one as an "
         r"integer$"),
        ({"run": ["a", "a"], "qid": ["q1", "q2"], "topic": ["all", "all"]}, None,
         r"only 'all' rows"),
    ],
)  # fmt: skip
def test_a_frame_s_bad_row_is_named_by_its_index_label(columns, index, match):
    import pandas as pd

    data = {"measure": ["m", "m"], "value": [0.5, 0.25], **columns}
    with pytest.raises(ValueError, match=match):
        read_scores(pd.DataFrame(data, index=index))


def test_a_frame_of_python_objects_reads_as_one_of_numbers():
    """Integer ids as their digits, None and NaN as undefined, whatever the dtype."""
    import pandas as pd

    frame = pd.DataFrame({"run": ["a", "a", "a"], "topic": [np.int64(1), 2, 3],
                          "measure": ["m", "m", "m"], "value": [0.5, None, np.nan]},
                         dtype=object)  # fmt: skip
    t = read_scores(frame)
    assert t.topics == ("1", "2", "3") and t.means()["a"]["m"] == 0.5
    assert np.isnan(t.values[1:, 0, 0]).all() and t.present.all()


@settings(max_examples=60, deadline=None)
@given(cell_sets(), st.sampled_from(["run", "name", None]), st.sampled_from(["topic", "qid"]))
def test_any_long_frame_reads_as_the_oracle(cells, run_column, topic_column):
    import pandas as pd

    rows = [(t, m, v) for (t, m), v in cells.items()]
    data = {topic_column: [r[0] for r in rows], "measure": [r[1] for r in rows],
            "value": [r[2] for r in rows]}  # fmt: skip
    if run_column is not None:
        data[run_column] = "run-x"
    frame = pd.DataFrame(data)
    t = read_scores(frame if run_column else {"run-x": frame})
    same_cells(cells_of(t), frame_by_loop(frame, None if run_column else "run-x"))
