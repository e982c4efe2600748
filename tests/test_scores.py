"""Per-topic score files: fairconv TSV, trec_eval -q and ir_measures layouts."""

import io
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr
from fairconv._validation import id_fault
from fairconv.datasets import fairweb1_pilot
from fairconv.io import FileFormatError, read_qrels, read_scores, read_topics

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


# ------------------------------------------------------------------ the TSV writer
def tsv_by_loop(table, summary=False) -> str:
    """fairconv's TSV written line by line, straight from formats.md."""

    def text(x):
        return "NaN" if np.isnan(x) else repr(float(x))

    lines = ["run\ttopic\tmeasure\tvalue\n"]
    mean, count = table.mean()
    for r, run in enumerate(table.runs):
        for t, topic in enumerate(table.topics):
            for m, measure in enumerate(table.measures):
                if table.present[t, r, m] and not summary:
                    lines.append(f"{run}\t{topic}\t{measure}\t{text(table.values[t, r, m])}\n")
        for m, measure in enumerate(table.measures):
            n = int(table.present[:, r, m].sum())
            if n:
                lines.append(f"{run}\tall\t{measure}\t{text(mean[r, m])}\n")
                if count[r, m] != n:
                    lines.append(f"{run}\tall\tn[{measure}]\t{int(count[r, m])}\n")
    return "".join(lines)


NAME = st.text(st.characters(blacklist_characters="#"), min_size=1, max_size=12).filter(
    lambda x: id_fault(x) is None
)
VALUE = st.floats(allow_infinity=False) | st.sampled_from(
    [0.0, -0.0, 1e-4, 1e16, 5e-324, 0.1, float("nan"), 1.7976931348623157e308]
)


@st.composite
def score_tables(draw):
    from fairconv.results import ScoreTable

    runs = draw(st.lists(NAME, min_size=1, max_size=4, unique=True))
    topics = draw(st.lists(NAME.filter(lambda x: x != "all"), min_size=1, max_size=6, unique=True))
    measures = draw(st.lists(NAME, min_size=1, max_size=4, unique=True))
    shape = (len(topics), len(runs), len(measures))
    size = int(np.prod(shape))
    values = np.array(draw(st.lists(VALUE, min_size=size, max_size=size))).reshape(shape)
    present = np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)))
    return ScoreTable(
        topics=topics, runs=runs, measures=measures, values=values, present=present.reshape(shape)
    )


@settings(max_examples=300, deadline=None)
@given(score_tables(), st.booleans())
def test_the_tsv_is_the_loop_s_text(table, summary):
    """Any ids (non-ASCII, astral characters, quotes) and any finite values or NaN."""
    out = io.StringIO()
    table.to_tsv(out, summary=summary)
    assert out.getvalue() == tsv_by_loop(table, summary)


def test_the_tsv_of_a_large_table_is_the_loop_s_text(monkeypatch):
    """Lines laid out over several steps and runs on several threads."""
    from fairconv._accel import _bytes
    from fairconv.results import ScoreTable

    monkeypatch.setattr(_bytes, "_ROWS", 1000)
    rng = np.random.default_rng(3)
    shape = (700, 5, 9)
    values = rng.random(shape) * 10.0 ** rng.integers(-6, 18, shape)
    values[rng.random(shape) < 0.05] = np.nan
    runs = tuple(f"run{r}" * (r + 1) for r in range(shape[1]))
    topics = tuple(f"q{t}" + "é" * (t % 3) for t in range(shape[0]))
    measures = tuple(f"M{m}@{10 * m}" for m in range(shape[2]))
    present = rng.random(shape) < 0.9
    table = ScoreTable(topics=topics, runs=runs, measures=measures, values=values, present=present)
    out = io.StringIO()
    table.to_tsv(out)
    assert out.getvalue() == tsv_by_loop(table)


def test_a_mean_of_values_whose_sum_passes_the_largest_double_is_finite():
    from fairconv.results import ScoreTable

    big = np.finfo(float).max / 2 * 1.5
    table = ScoreTable(
        topics=("q1", "q2"),
        runs=("r",),
        measures=("M",),
        values=np.full((2, 1, 1), big),
        present=np.ones((2, 1, 1), bool),
    )
    with np.errstate(all="raise"):
        mean, _ = table.mean()
    assert mean[0, 0] == big


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
