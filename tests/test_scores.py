"""Per-topic score files: fairconv TSV, trec_eval -q and ir_measures layouts."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr
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
    with pytest.warns(
        FairconvWarning, match=r"P_5: 2 of 2 topic\(s\), ndcg: 2 of 2 topic\(s\), nDCG@10: 3 of 3"
    ):
        t = read_scores([tmp_path / "run.trec", tmp_path / "other.irm"])
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
        t = read_scores(f, input_format=forced)
        assert t.topics in (("q1", "q2"), ("q1", "q2", "q3")) and t.present.all()


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


NAME = st.text(st.characters(blacklist_characters="#"), min_size=1, max_size=12)
VALUE = st.floats() | st.sampled_from([0.0, -0.0, 1e-4, 1e16, 5e-324, 0.1, float("nan")])


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
    """Any names (NUL, tabs, non-ASCII, lone surrogates in a text stream) and values."""
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


def test_a_mean_over_inf_and_minus_inf_is_nan_without_a_warning():
    from fairconv.results import ScoreTable

    values = np.array([[[np.inf]], [[-np.inf]]])
    table = ScoreTable(
        topics=("q1", "q2"), runs=("r",), measures=("M",), values=values, present=values != 0
    )
    with np.errstate(all="raise"):
        mean, count = table.mean()
    assert np.isnan(mean[0, 0]) and count[0, 0] == 2


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
