"""ScoreTable's own rules: names, values, selections, writes and directions
(fairconv.results).

Each rule a table holds is checked where it is built, so that every output of a table
(repr, HTML, TSV, JSON, DataFrame) can be written and every file written read back.
"""

import io
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr
from fairconv._validation import id_fault
from fairconv.datasets import fairweb1_pilot
from fairconv.io import read_scores
from fairconv.results import DIRECTIONS, REPR_LIMIT, ScoreMeans, ScoreTable, direction_of


def table(topics=("q1", "q2"), runs=("A",), measures=("M",), values=None, present=None):
    shape = (len(topics), len(runs), len(measures))
    values = np.arange(np.prod(shape), dtype=float).reshape(shape) if values is None else values
    return ScoreTable(
        topics=topics,
        runs=runs,
        measures=measures,
        values=np.asarray(values, dtype=float),
        present=np.ones(shape, bool) if present is None else present,
    )


# ------------------------------------------------------------------ names
def test_integer_names_from_a_dataframe_are_converted_with_str():
    t = table(topics=np.array([101, 7]), runs=[np.int64(3)])
    assert t.topics == ("101", "7") and t.runs == ("3",)
    assert all(type(x) is str for x in (*t.topics, *t.runs))
    # every output works: repr, HTML, TSV, JSON, and the TSV reads back
    assert "runs: 3;" in repr(t) and '<th title="3">3</th>' in t._repr_html_()
    out = io.StringIO()
    t.to_tsv(out)
    assert out.getvalue().splitlines()[1] == "3\t101\tM\t0.0"
    assert json.loads(json.dumps(t.to_dict()))["3"]["7"] == {"M": 1.0}
    out.seek(0)
    assert read_scores(out).value("3", "7", "M") == 1.0


def test_numpy_strings_become_str():
    t = table(topics=np.array(["q1", "q2"]), runs=np.array(["A"]))
    assert type(t.topics[0]) is str and type(t.runs[0]) is str


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"runs": [1, "1"]}, r"'runs' parameter .* distinct names. Got 1 and '1', both '1'"),
        ({"topics": [np.int64(5), "5"]}, r"'topics' .* Got 5 and '5', both '5'"),
        ({"topics": ["q1", "q1"]}, r"'topics' parameter of results.ScoreTable must hold distinct "
         r"names. Got 'q1' twice instead"),
        ({"measures": ["M", "N", "M"]}, r"'measures' .* Got 'M' twice"),
    ],
)  # fmt: skip
def test_two_inputs_for_one_name_are_an_error_naming_both(kw, match):
    args = {"topics": ("q1", "q2"), "runs": ("A",), "measures": ("M",), **kw}
    args["runs"] = list(args["runs"])
    with pytest.raises(ValueError, match=match):
        table(**args)


def test_from_items_refuses_two_inputs_that_become_one_name():
    values = np.array([[0.5], [0.25]])
    with pytest.raises(ValueError, match=r"'runs' .* Got 1 and '1', both '1' as names"):
        ScoreTable.from_items([1, "1"], ["q1", "q1"], ["M"], values)
    t = ScoreTable.from_items(np.array([1, 2]), np.array([10, 9]), ["M"], values)
    assert t.runs == ("1", "2") and t.topics == ("10", "9")


@pytest.mark.parametrize("name", [1.0, b"q1", None, True, np.float64(2.0)])
def test_names_that_are_neither_str_nor_integers_are_refused(name):
    with pytest.raises(TypeError, match=r"'topics' parameter .* hold names as str .* position 1"):
        table(topics=["q1", name])


@pytest.mark.parametrize(
    "kw, rule, got",
    [
        ({"runs": [""]}, "be a non-empty string", "'' at position 0"),
        ({"topics": ["q1", "q 2"]}, "not contain whitespace", "'q 2' at position 1"),
        ({"measures": ["M\t"]}, "not contain whitespace", r"'M\\t'"),
        ({"runs": ["\ufeffA"]}, "not contain a byte-order mark", r"'\\ufeffA'"),
    ],
)
def test_names_the_readers_would_refuse_are_refused(kw, rule, got):
    """A run named '' was written to TSV and could not be read back."""
    with pytest.raises(ValueError, match=rf"must hold names that the score readers read back "
                       rf"\(each must {rule}.*\). Got {got}"):  # fmt: skip
        table(**kw)


ID = st.text(st.characters(blacklist_characters="#"), min_size=1, max_size=10)


@settings(max_examples=200, deadline=None)
@given(st.lists(ID, min_size=1, max_size=4, unique=True), st.sampled_from(["runs", "topics"]))
def test_a_table_takes_exactly_the_names_that_read_back(names, kind):
    """Ids are taken and read back from the TSV; any other name is refused when built."""
    names = [n for n in names if n != "all"] or ["x"]
    kw = {kind: names}
    if any(id_fault(n) is not None for n in names):
        with pytest.raises(ValueError, match="must hold names that the score readers read back"):
            table(**kw)
        return
    t = table(**kw)
    out = io.StringIO()
    t.to_tsv(out)
    out.seek(0)
    back = read_scores(out)
    assert set(getattr(back, kind)) == set(names)


# ------------------------------------------------------------------ values
@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_an_infinite_value_is_refused_naming_run_topic_and_measure(value):
    values = np.zeros((2, 2, 2))
    values[1, 0, 1] = value
    text = "inf" if value > 0 else "-inf"
    with pytest.raises(ValueError, match=rf"'values' parameter of results.ScoreTable must hold "
                       rf"finite numbers, or NaN where a value is undefined. Got {text} for run "
                       r"'A', topic 'q2' and measure 'N' instead"):  # fmt: skip
        table(runs=("A", "B"), measures=("M", "N"), values=values)


def test_nan_stays_and_a_cell_that_does_not_exist_is_not_looked_at():
    values = np.array([[[np.nan]], [[np.inf]]])
    t = table(values=values, present=np.array([[[True]], [[False]]]))
    assert np.isnan(t.value("A", "q1", "M"))
    out = io.StringIO()
    t.to_json(out)  # never stops half-way
    assert json.loads(out.getvalue()) == {"A": {"q1": {"M": None}, "all": {"M": None}}}


def test_infinite_pooled_values_and_values_that_are_not_numbers_are_refused():
    with pytest.raises(ValueError, match=r"'overall' .* Got inf for run 'A' and measure 'M'"):
        ScoreTable(topics=("q1",), runs=("A",), measures=("M",), values=np.zeros((1, 1, 1)),
                   present=np.ones((1, 1, 1), bool), overall=np.array([[np.inf]]))  # fmt: skip
    with pytest.raises(TypeError, match=r"'values' .* real numbers. Got dtype object"):
        ScoreTable(topics=("q1",), runs=("A",), measures=("M",), present=np.ones((1, 1, 1), bool),
                   values=np.array([[["0.5"]]], dtype=object))  # fmt: skip


def test_the_command_line_refuses_an_infinite_score_in_one_line(tmp_path):
    (tmp_path / "s.tsv").write_text("run\ttopic\tmeasure\tvalue\nA\tq1\tM\tinf\nB\tq1\tM\t1\n")
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", "-m", "M", "s.tsv"],
                          capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "s.tsv:2: the value of a score line must be a finite number or NaN" in proc.stderr


# ------------------------------------------------------------------ selections
@pytest.mark.parametrize(
    "kw, match",
    [
        ({"topics": ["q1", "q1", "q2"]}, r"'topics' parameter of results.ScoreTable.select must "
         r"list each topic once. Got 'q1' twice"),
        ({"runs": ["A", "A"]}, r"'runs' parameter of results.ScoreTable.select must list each "
         r"run once. Got 'A' twice"),
    ],
)  # fmt: skip
def test_select_refuses_a_name_given_twice(kw, match):
    """The mean moved and compare counted 3 topics."""
    t = table(runs=("A", "B"))
    with pytest.raises(ValueError, match=match):
        t.select(**kw)
    with pytest.raises(TypeError, match=r"'topics' .* hold topic names as str"):
        t.select(topics=[1])
    assert t.select(topics=["q2", "q1"], runs=["B"]).topics == ("q2", "q1")


def test_a_measure_taken_twice_is_refused():
    t = table(measures=("M", "N"))
    with pytest.raises(ValueError, match=r"names the measure 'M' twice"):
        t[["M", "N", "M"]]


def test_compare_counts_each_topic_once_on_the_command_line(tmp_path):
    rows = [f"{r}\tq{i}\tM\t{v}" for r, vs in (("A", (1, 2, 3)), ("B", (0, 1, 1)))
            for i, v in enumerate(vs, 1)]  # fmt: skip
    (tmp_path / "s.tsv").write_text("run\ttopic\tmeasure\tvalue\n" + "\n".join(rows) + "\n")
    (tmp_path / "t").write_text("q1\nq1\nq2\n")
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", "-m", "M", "--topics",
                           "t", "s.tsv"], capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and "t:2: topic 'q1' is listed twice" in proc.stderr


# ------------------------------------------------------------------ writes
FULL_DISK = """
import resource, signal, sys
import numpy as np
from fairconv.results import ScoreTable
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
shape = (2000, 3, 4)
table = ScoreTable(topics=[f"q{{i}}" for i in range(shape[0])], runs=["A", "B", "C"],
                   measures=["M1", "M2", "M3", "M4"], values=np.full(shape, 0.123456789),
                   present=np.ones(shape, bool))
resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
try:
    table.{writer}(sys.argv[1], overwrite=True)
except OSError as exc:
    print(exc.errno, exc.filename)
"""


@pytest.mark.parametrize("writer", ["to_tsv", "to_json"])
def test_a_write_that_fails_part_way_keeps_the_old_file_and_leaves_nothing(tmp_path, writer):
    """A full disk (here: a file-size limit) part-way through a write over a file."""
    out = tmp_path / "scores.out"
    out.write_text("the old scores\n")
    code = textwrap.dedent(FULL_DISK).format(writer=writer)
    proc = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    errno, filename = proc.stdout.split()
    assert int(errno) == 27 and filename == str(out)  # EFBIG, named by the user's path
    assert out.read_text() == "the old scores\n"
    assert os.listdir(tmp_path) == ["scores.out"]


def test_the_command_line_keeps_the_old_output_when_the_disk_fills(tmp_path):
    from fairconv.datasets import path

    p = path("fairweb1-pilot")
    out = tmp_path / "gfr.tsv"
    out.write_text("the old scores\n")
    code = (
        "import resource, signal, sys\n"
        "from fairconv.cli import main\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    argv = ["gfr", "--qrels", str(p / "fairweb1pilot.qrels"), "-o", str(out), "--attribute",
            "M-ORIGIN", str(p / "fairweb1pilot.M-ORIGIN.gmemb"), str(p / "M-ORIGIN.golddistr"),
            "nominal", *map(str, sorted((p / "runs").iterdir()))]  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    errors = [line for line in proc.stderr.splitlines() if ": error: " in line]
    assert proc.returncode == 2 and errors == [f"fairconv gfr: error: {out}: File too large"]
    assert out.read_text() == "the old scores\n"
    assert os.listdir(tmp_path) == ["gfr.tsv"]


def test_to_tsv_n_jobs_is_deprecated_and_changes_nothing():
    t = table(runs=("A", "B"))
    plain, threaded = io.StringIO(), io.StringIO()
    t.to_tsv(plain)
    with pytest.warns(DeprecationWarning, match=r"to_tsv\(n_jobs=...\) has no effect") as w:
        t.to_tsv(threaded, n_jobs=2)
    assert w[0].filename == __file__  # the user's line
    assert threaded.getvalue() == plain.getvalue()


def test_writing_a_table_with_one_long_id_takes_memory_as_its_output_does():
    """One 8,000-character topic id made a 0.67 MB table take 460 MB to write."""
    import tracemalloc

    class Count:  # a file that keeps nothing: the writer's own memory is measured
        size = 0

        def write(self, text):
            self.size += len(text)

    def written(last_topic):
        t = table(topics=[f"q{i}" for i in range(3999)] + [last_topic], runs=("A", "B"),
                  measures=("M1", "M2", "M3"))  # fmt: skip
        out = Count()
        tracemalloc.start()
        try:
            t.to_tsv(out)
            return out.size, tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    size, peak = written("q" * 8000)
    short_size, short_peak = written("q")
    assert size - short_size == 6 * 7999  # its 6 lines
    assert peak - short_peak < 3 * (size - short_size)  # not the 12,000 lines 8,000 wide


def test_a_table_built_inside_another_call_names_that_call():
    """A family builds the table from the user's inputs: no 'parameter' it lacks."""
    from fairconv._validation import public

    @public
    def evaluate():
        return table(runs=[""])

    with pytest.raises(ValueError, match=r"evaluate: the runs of the score table it builds must "
                       r"hold names that the score readers read back \(each must be a non-empty "
                       r"string\); got '' at position 0$"):  # fmt: skip
        evaluate()


# ------------------------------------------------------------------ concat
def concat_by_loop(*tables):
    """{(run, topic, measure): value} of tables of different runs, cell by cell."""
    out = {}
    for t in tables:
        for ti, topic in enumerate(t.topics):
            for ri, run in enumerate(t.runs):
                for mi, measure in enumerate(t.measures):
                    if t.present[ti, ri, mi]:
                        out[run, topic, measure] = float(t.values[ti, ri, mi])
    return out


def cells(t):
    return concat_by_loop(t)


def test_concat_puts_tables_of_different_runs_side_by_side():
    rng = np.random.default_rng(0)
    a = table(topics=("q1", "q2", "q3"), runs=("A", "B"), measures=("M", "N"),
              values=rng.random((3, 2, 2)))  # fmt: skip
    b = table(
        topics=("q1", "q2", "q3"), runs=("C",), measures=("N", "M"), values=rng.random((3, 1, 2))
    )
    both = ScoreTable.concat(a, b)
    assert both.runs == ("A", "B", "C") and both.measures == ("M", "N")
    assert cells(both) == concat_by_loop(a, b)
    assert both.means()["C"] == b.means()["C"] and dict(both.notices) == {}


def test_concat_of_runs_with_other_topics_or_measures_gives_the_notice():
    """Per-run nDCG tables from different tools: a topic set that differs is said."""
    a = table(topics=("q1", "q2"), runs=("A",), measures=("M",))
    b = table(topics=("q2", "q3"), runs=("B",), measures=("M", "N"))
    with pytest.warns(FairconvWarning, match=r"results.ScoreTable.concat: some runs lack a value "
                      r"on topics that others have \(M: 2 of 3 topic\(s\), N: 2 of 2"):  # fmt: skip
        both = ScoreTable.concat(a, b)
    assert both.topics == ("q1", "q2", "q3")
    assert both.notices["topics_missing_by_measure"] == {"M": 2, "N": 2}
    assert cells(both) == concat_by_loop(a, b)
    assert both.means().to_dict() == {"A": {"M": 0.5}, "B": {"M": 1.0, "N": 2.0}}


def test_concat_refuses_a_run_twice_and_a_measure_pointing_two_ways():
    a = table(runs=("A",))
    with pytest.raises(ValueError, match=r"'tables' parameter of results.ScoreTable.concat must "
                       r"hold each run once .* Got run 'A' in table 0 and in table 1"):  # fmt: skip
        ScoreTable.concat(a, a)
    lower = ScoreTable(topics=a.topics, runs=("B",), measures=("M",), values=a.values,
                       present=a.present, directions={"M": "lower"})  # fmt: skip
    with pytest.raises(ValueError, match=r"one direction. Got 'M', higher in table 0 and lower"):
        ScoreTable.concat(a, lower)
    with pytest.raises(TypeError, match=r"'tables' .* ScoreTable objects. Got dict"):
        ScoreTable.concat(a, {})
    with pytest.raises(ValueError, match=r"'tables' .* at least 1 item"):
        ScoreTable.concat()
    assert dict(ScoreTable.concat(lower).directions) == {"M": "lower"}


def test_concat_keeps_pooled_means():
    a = table(runs=("A",))
    pooled = ScoreTable(topics=a.topics, runs=("B",), measures=("M",), values=a.values,
                        present=a.present, overall=np.array([[0.9]]))  # fmt: skip
    both = ScoreTable.concat(a, pooled)
    assert both.means().to_dict() == {"A": {"M": 0.5}, "B": {"M": 0.9}}


# ------------------------------------------------------------------ the notebook table
def test_a_notebook_shows_the_measures_with_a_cutoff_first(pilot):
    """gfr.evaluate(..., cutoffs=[5, 10, 20]): GFR@10 was among '16 more measures'."""
    from fairconv import gfr

    t = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[5, 10, 20])
    html = t._repr_html_()
    heads = [h.split(">", 1)[1].split("<")[0] for h in html.split("<th title=")[1:13]]
    assert heads == ["ERR@5", "iRBU@5", "GFR@5", "ERR@10", "iRBU@10", "GFR@10", "ERR@20",
                     "iRBU@20", "GFR@20", "GF-JSD@5[R-HINDEX]", "GF-NMD@5[R-HINDEX]",
                     "GF-RNOD@5[R-HINDEX]"]  # fmt: skip
    assert "not shown: 72 more measures" in html
    # display only: the outputs keep the table's order
    out = io.StringIO()
    t.to_tsv(out, summary=True)
    rows = [line.split("\t")[2] for line in out.getvalue().splitlines()[1:]]
    assert [m for m in rows if not m.startswith("n[")][: len(t.measures)] == list(t.measures)
    assert list(t.to_dict()[t.runs[0]]["all"]) == list(t.measures)


@pytest.fixture(scope="module")
def pilot():
    from fairconv.datasets import fairweb1_pilot

    return fairweb1_pilot()


def test_fixed_decimals_settable_and_counts_only_where_they_differ():
    values = np.array([[[1 / 3, 0.5]], [[2 / 3, np.nan]], [[1.0, np.nan]]])
    t = table(topics=("q1", "q2", "q3"), measures=("M", "N@5[G]"), values=values)
    html = t._repr_html_()
    assert "<td>0.6667</td>" in html and "<td>0.5000</td>" in html  # 4 decimals
    assert "3 topics (each mean over the 3, or over the n shown)" in html
    assert "<br><small>n=1</small>" in html  # N@5[G]: every run over 1 topic, said once
    assert "(n=" not in html
    three = t.display(decimals=1)._repr_html_()
    assert "<td>0.7</td>" in three and "<td>0.5</td>" in three
    assert "<td>1</td>" in t.display(decimals=0)._repr_html_()
    assert "0.667" in t.means().display(decimals=3)._repr_html_()
    for bad in (-1, 18, 2.5, True):
        with pytest.raises(ValueError, match=r"'decimals' parameter of results.ScoreTable.display "
                           r"must be an integer in 0..17"):  # fmt: skip
            t.display(decimals=bad)
    assert (
        repr(t.display()) == "Shown(ScoreTable, means over topics: 1 run x 2 measures, 4 decimals)"
    )


def test_a_cell_whose_count_differs_from_its_column_s_says_it():
    values = np.array([[[0.5], [0.5]], [[0.5], [np.nan]]])  # run B: 1 of 2 topics defined
    html = table(runs=("A", "B"), values=values)._repr_html_()
    assert html.count("(n=1)") == 1 and "<td>0.5000 <small>(n=1)</small></td>" in html


def test_long_set_lists_are_shortened_with_the_whole_name_in_a_tooltip():
    name = "EE-D[geography,gender,language,age]"
    long_run = "a-run-name-much-longer-than-a-column-needs"
    t = ScoreTable(topics=("q1",), runs=(long_run,), measures=(name,), values=np.ones((1, 1, 1)),
                   present=np.ones((1, 1, 1), bool))  # fmt: skip
    html = t._repr_html_()
    assert f'<th title="{name} (lower is better)">EE-D[geography,gender,…]</th>' in html
    assert f'<th title="{long_run}">a-run-name-much-longer-…</th>' in html


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12) | st.sampled_from(["0", "1", "7", "q", "12"]), min_size=1,
                max_size=6, unique_by=lambda x: (type(x), x)))  # fmt: skip
def test_names_become_str_and_two_inputs_of_one_name_are_refused(names):
    """numpy integers from a DataFrame and strings: converted, never merged."""
    mixed = [np.int64(x) if isinstance(x, int) else x for x in names]
    texts = [str(x) for x in names]
    if len(set(texts)) < len(texts):
        with pytest.raises(ValueError, match=r"must hold distinct names. Got .* and .*, both"):
            table(topics=mixed)
    else:
        assert table(topics=mixed).topics == tuple(texts)


def test_the_command_line_asks_a_name_for_a_file_named_as_no_run_is(tmp_path):
    """A run named '' or 'my run' could be written but not read back."""
    (tmp_path / "my run.trec").write_text("m\tq1\t0.4\nm\tq2\t0.6\nm\tall\t0.5\n")
    (tmp_path / "b.trec").write_text("m\tq1\t0.1\nm\tq2\t0.2\nm\tall\t0.15\n")
    argv = [sys.executable, "-m", "fairconv", "compare", "-m", "m", "--test", "tukey"]
    proc = subprocess.run([*argv, "my run.trec", "b.trec"], capture_output=True, text=True,
                          cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "my run.trec: the file names no run, and its name 'my run.trec' is no run name" in (
        proc.stderr
    )
    proc = subprocess.run([*argv, "mine=my run.trec", "b.trec"], capture_output=True, text=True,
                          cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_the_command_line_refuses_a_ranx_id_by_the_id_rule(tmp_path):
    (tmp_path / "a.json").write_text('{"A": {"m": {"q1": 0.5, "q 2": 0.25}}}')
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", "-m", "m", "a.json"],
                          capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "a.json: field 'A'/'m'/'q 2': a query id must not contain whitespace" in proc.stderr


def _table(measures, **kw):
    shape = (2, 1, len(measures))
    return ScoreTable(
        topics=("q1", "q2"),
        runs=("r",),
        measures=measures,
        values=np.ones(shape),
        present=np.ones(shape, dtype=bool),
        **kw,
    )


# ------------------------------------------------------------------ other tools' scores
FAIRCONV_TSV = "run\ttopic\tmeasure\tvalue\nA\tq1\tEE-D[g]\t0.5\nA\tq1\tGFR\t0.25\n"


def _read(tmp_path, files, **kw):
    from fairconv.io import read_scores

    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    return read_scores(paths, **kw)


@pytest.mark.parametrize(
    "name, direction",
    [
        ("GFR@10", "higher"),
        ("GF-JSD@10[M-ORIGIN]", "higher"),
        ("EE-L[geo]", "lower"),
        ("EE-D[geo,gender]", "lower"),
        ("EE-R[geo]", "higher"),
        ("EE-L-gERR", "lower"),
        ("EE-D-RBP@20[gender]", "lower"),
        ("EE-R-gERR", "higher"),
        ("NDKL[g]", "lower"),
        ("rND@10[g]", "lower"),
        ("rKL[g]", "lower"),
        ("rRD[g]", "lower"),
        ("IAA@10", "lower"),
        ("FAIR[g]", "higher"),
        ("EXP-MinMaxRatio[g]", "higher"),
        ("EXPU-MaxMinRatio[g]", "lower"),
        ("ATT-Variance@10[g]", "lower"),
        ("ARP-LTwo[g]", "undirected"),
        ("nDCG*AWRF[geo]", "higher"),
        ("ndcg_cut_10", "higher"),  # another tool's name
        ("P_5", "higher"),
        ("MinMaxRatio", "higher"),  # a meta word alone is no exposure measure
    ],
)
def test_direction_of_fairconv_names(name, direction):
    assert direction_of(name) == direction


def test_a_table_fills_each_direction_and_keeps_those_given():
    table = _table(("GFR", "EE-D[g]", "my_loss"), directions={"my_loss": "lower"})
    assert dict(table.directions) == {"GFR": "higher", "EE-D[g]": "lower", "my_loss": "lower"}
    assert set(table.directions.values()) <= set(DIRECTIONS)


def test_directions_follow_the_measures_through_every_operation():
    table = _table(("GFR", "my_loss"), directions={"my_loss": "lower"})
    assert dict(table["my_loss"].directions) == {"my_loss": "lower"}
    assert dict(table.select(topics=["q2"]).directions) == dict(table.directions)
    other = _table(("cost",), directions={"cost": "lower"})
    assert table.join(other).directions["cost"] == "lower"


@pytest.mark.parametrize(
    "directions, match",
    [
        ({"nDCG": "lower"}, r"'directions' parameter .* name measures of the table"),
        ({"GFR": "up"}, r"'directions' parameter .* one of higher, lower, undirected.*'up'"),
        (["GFR"], r"'directions' parameter .* mapping"),
    ],
)
def test_bad_directions_are_refused(directions, match):
    with pytest.raises((ValueError, TypeError), match=match):
        _table(("GFR",), directions=directions)


def test_from_columns_builds_values_and_cells_once():
    covered = np.array([True, False])
    table = ScoreTable.from_columns(
        ["q1", "q2"],
        ["a", "b"],
        [("ERR", np.array([[0.1, 0.2], [0.3, 0.4]]), None), ("GF-JSD[S]", 0.5, covered)],
    )
    assert table.measures == ("ERR", "GF-JSD[S]")
    assert table.values[:, :, 0].tolist() == [[0.1, 0.2], [0.3, 0.4]]
    assert table.present[:, :, 1].tolist() == [[True, True], [False, False]]
    assert table.value("b", "q1", "GF-JSD[S]") == 0.5


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_notice_points_at_the_line_that_called_fairconv(n_jobs):
    p = fairweb1_pilot()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gfr.evaluate(p.qrels, p.runs[:1], [], n_jobs=n_jobs)  # GFR is ERR alone: a notice
    notices = [w for w in caught if issubclass(w.category, FairconvWarning)]
    assert notices
    assert {w.filename for w in notices} == {__file__}


@pytest.mark.parametrize("how", ["-c", "stdin"])
def test_a_notice_reaches_a_caller_without_a_source_file(how):
    """Code run by ``python -c`` or from stdin has no file: the notice still prints."""
    import subprocess
    import sys

    code = (
        "from fairconv import gfr\n"
        "from fairconv.datasets import fairweb1_pilot\n"
        "p = fairweb1_pilot()\n"
        "gfr.evaluate(p.qrels, p.runs[:1], [])\n"
    )
    argv = [sys.executable, "-c", code] if how == "-c" else [sys.executable, "-"]
    proc = subprocess.run(argv, input=None if how == "-c" else code, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "FairconvWarning: GFR is ERR alone on 4 of the 4 topics" in proc.stderr
    assert ":4: " in proc.stderr  # the caller's line


@pytest.mark.parametrize(
    "name, text",
    [
        ("A.trec", "EE-D[g]\tq1\t0.5\nrunid\tall\tA\n"),
        ("A.irm", "q1\tEE-D[g]\t0.5\nq2\tEE-D[g]\t0.25\nq3\tEE-D[g]\t1\n"),
        ("A.json", '{"EE-D[g]": {"q1": 0.5}}'),
    ],
)
def test_another_tool_s_measure_is_higher_is_better_unless_said(tmp_path, name, text):
    """Even under a fairconv name: the tool that wrote the file does not say."""
    fmt = {"trec": "trec_eval", "irm": "ir_measures", "json": "ranx"}[name.split(".")[1]]
    table = _read(tmp_path, {name: text}, input_format=fmt)
    assert dict(table.directions) == {"EE-D[g]": "higher"}
    table = _read(tmp_path, {name: text}, input_format=fmt, directions={"EE-D[g]": "lower"})
    assert dict(table.directions) == {"EE-D[g]": "lower"}


def test_fairconv_s_tsv_takes_fairconv_s_directions_unless_said(tmp_path):
    table = _read(tmp_path, {"f.tsv": FAIRCONV_TSV})
    assert dict(table.directions) == {"EE-D[g]": "lower", "GFR": "higher"}
    table = _read(tmp_path, {"f.tsv": FAIRCONV_TSV}, directions={"GFR": "undirected"})
    assert dict(table.directions) == {"EE-D[g]": "lower", "GFR": "undirected"}
    # a direction given for a measure the files have but measures= leaves out is fine
    table = _read(
        tmp_path, {"f.tsv": FAIRCONV_TSV}, measures=["GFR"], directions={"EE-D[g]": "lower"}
    )
    assert dict(table.directions) == {"GFR": "higher"}


def test_files_that_point_a_measure_two_ways_need_directions(tmp_path):
    files = {"f.tsv": FAIRCONV_TSV, "B.trec": "EE-D[g]\tq1\t0.7\nGFR\tq1\t0.1\nrunid\tall\tB\n"}
    with pytest.raises(
        ValueError,
        match=r"'directions' parameter of io.read_scores must say which way a measure points "
        r"when its files disagree. Got 'EE-D\[g\]', lower-is-better in .*f.tsv and "
        r"higher-is-better in .*B.trec instead; .* give directions=\{'EE-D\[g\]': ...\}",
    ):
        _read(tmp_path, files)
    for d in ("lower", "higher"):
        table = _read(tmp_path, files, directions={"EE-D[g]": d})
        assert table.directions["EE-D[g]"] == d and table.runs == ("A", "B")
    assert dict(_read(tmp_path, files, measures=["GFR"]).directions) == {"GFR": "higher"}


@pytest.mark.parametrize(
    "directions, error, match",
    [
        ({"GFR@10": "lower"}, ValueError, r"'directions' .* name measures of the files "
         r"\(EE-D\[g\], GFR\). Got 'GFR@10'"),
        ({"GRF": "lower"}, ValueError, r"Got 'GRF' \(Did you mean 'GFR'\?\)"),
        ({"GFR": "down"}, ValueError, r"one of higher, lower, undirected. Got 'down' for 'GFR'"),
        (["GFR"], TypeError, r"'directions' parameter of io.read_scores must be a mapping"),
    ],
)  # fmt: skip
def test_bad_directions_of_a_score_file_are_refused(tmp_path, directions, error, match):
    with pytest.raises(error, match=match):
        _read(tmp_path, {"f.tsv": FAIRCONV_TSV}, directions=directions)


def test_ir_measures_results_are_higher_is_better_unless_said():
    from collections import namedtuple

    from fairconv.io import from_ir_measures

    Metric = namedtuple("Metric", "query_id measure value")
    results = {"bm25": [Metric("q1", "nDCG@10", 0.5), Metric("q1", "EE-D[g]", 0.1)]}
    assert set(from_ir_measures(results).directions.values()) == {"higher"}
    table = from_ir_measures(results, directions={"EE-D[g]": "lower"})
    assert dict(table.directions) == {"nDCG@10": "higher", "EE-D[g]": "lower"}
    with pytest.raises(ValueError, match=r"'directions' parameter of io.from_ir_measures"):
        from_ir_measures(results, directions={"P@5": "lower"})


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


def cells_of(table):
    """{(run, topic, measure): value} of the cells a table holds."""
    return {
        (run, topic, measure): float(table.values[t, r, m])
        for t, topic in enumerate(table.topics)
        for r, run in enumerate(table.runs)
        for m, measure in enumerate(table.measures)
        if table.present[t, r, m]
    }


# ------------------------------------------------------------------ command line
def fairconv(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True,
        cwd=cwd,
    )  # fmt: skip


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


# ------------------------------------------------------------------ axis order (issue 23)
def test_values_and_present_are_topics_runs_measures(pilot_table):
    t = pilot_table
    assert t.values.shape == (len(t.topics), len(t.runs), len(t.measures))
    assert t.present.shape == t.values.shape
    r, m = 1, t.measures.index("GFR@10")
    assert t.values[t.topics.index("P002"), r, m] == t.value(t.runs[r], "P002", "GFR@10")


def test_a_table_is_built_by_keyword_and_its_shapes_are_checked():
    v = np.zeros((2, 3, 1))
    with pytest.raises(TypeError):
        ScoreTable(("a", "b", "c"), ("q1", "q2"), ("M",), v, v == 0)  # positional: no
    with pytest.raises(ValueError, match=r"'values' .* shape \(topics, runs, measures\) = "
                       r"\(3, 2, 1\). Got \(2, 3, 1\)"):  # fmt: skip
        ScoreTable(topics=("q1", "q2", "q3"), runs=("a", "b"), measures=("M",), values=v,
                   present=v == 0)  # fmt: skip
    with pytest.raises(TypeError, match="'present' .* boolean"):
        ScoreTable(topics=("q1", "q2"), runs="abc", measures=("M",), values=v, present=v)


def test_the_outputs_of_a_table_keep_their_bytes_under_the_new_axis_order(pilot_table):
    """TSV by the oracle loop; JSON by a loop over (run, topic) in that order."""
    out = io.StringIO()
    pilot_table.to_tsv(out)
    lines = out.getvalue().splitlines()
    assert lines[1].split("\t")[:2] == [pilot_table.runs[0], pilot_table.topics[0]]
    mean, _ = pilot_table.mean()
    want = {}
    for r, run in enumerate(pilot_table.runs):
        per = {}
        for t, topic in enumerate(pilot_table.topics):
            cells = {
                m: float(pilot_table.values[t, r, i])
                for i, m in enumerate(pilot_table.measures)
                if pilot_table.present[t, r, i]
            }
            if cells:
                per[topic] = cells
        per["all"] = {m: float(mean[r, i]) for i, m in enumerate(pilot_table.measures)}
        want[run] = per
    assert pilot_table.to_dict() == want


# ------------------------------------------------------------------ notebooks
def test_repr_is_short_and_says_the_shape():
    big = table_of(
        np.random.default_rng(0).random((400, 60, 45)),
        runs=tuple(f"a-very-long-run-name-number-{i}" for i in range(60)),
        measures=tuple(f"GF-JSD@{i}[M-ORIGIN-AND-MORE]" for i in range(45)),
    )
    text = repr(big)
    assert len(text) <= REPR_LIMIT
    assert text.startswith("ScoreTable(400 topics x 60 runs x 45 measures; runs: ")
    assert "(+" in text  # the names left out are counted
    one = big["GF-JSD@3[M-ORIGIN-AND-MORE]"]
    assert len(repr(one)) <= REPR_LIMIT and "x 1 measure;" in repr(one)
    small = table_of([[[0.5, 0.25]]])
    assert repr(small) == (
        "ScoreTable(1 topic x 1 run x 2 measures; runs: r0; measures: M0, M1; "
        "means: r0 M0=0.5, r0 M1=0.25)"
    )


def test_html_is_a_compact_table_saying_what_it_leaves_out():
    values = np.arange(3 * 25 * 22, dtype=float).reshape(3, 25, 22)
    present = np.ones(values.shape, bool)
    present[0, 0, 0] = False
    html = table_of(values, present=present)._repr_html_()
    assert html.count("<tr>") == 21  # the header and 20 runs
    assert html.count("<td>") == 20 * 12  # 12 measures: about a notebook's width
    assert "not shown: 5 more runs and 10 more measures (M12, M13," in html
    assert "3 topics (each mean over the 3, or over the n shown)" in html
    assert html.count("(n=") == 1 and "<td>825.0000 <small>(n=2)</small></td>" in html  # r0 M0
    one = table_of(values)["M3"]._repr_html_()
    assert one.count("<td>") == 20 and "5 more runs" in one and "more measures" not in one
    assert "&lt;b&gt;" in table_of([[[1.0]]], runs=("<b>",))._repr_html_()
    assert "<b>" not in table_of([[[1.0]]], runs=("<b>",))._repr_html_()


def test_means_read_as_a_dict_with_a_short_repr(pilot_table):
    means = pilot_table.means()
    assert isinstance(means, ScoreMeans) and len(repr(means)) <= REPR_LIMIT
    plain = means.to_dict()
    assert type(plain) is dict and means == plain
    mean, _ = pilot_table.mean()
    r, m = 2, pilot_table.measures.index("GFR@10")
    assert means[pilot_table.runs[r]]["GFR@10"] == mean[r, m]
    assert "<table>" in means._repr_html_()
    assert len(repr(pilot_table.to_dict())) > 10 * REPR_LIMIT  # what a notebook showed


def test_to_frame_with_all_rows():
    import pandas as pd

    t = table_of([[[1.0]], [[np.nan]], [[3.0]]])
    frame = t.to_frame(all_rows=True)
    assert frame["topic"].tolist() == ["q0", "q1", "q2", "all"]
    assert frame["value"].iloc[-1] == 2.0
    assert len(t.to_frame()) == 3
    wide = t.to_frame(wide=True, all_rows=True)
    assert wide.loc[("r0", "all"), "M0"] == 2.0
    assert isinstance(wide, pd.DataFrame)


def test_to_tsv_and_to_json_take_a_path_or_a_file(tmp_path):
    t = table_of([[[0.5]], [[0.25]]])
    stream = io.StringIO()
    t.to_tsv(stream)
    t.to_tsv(tmp_path / "out.tsv")
    t.to_tsv(str(tmp_path / "out2.tsv"))
    assert (tmp_path / "out.tsv").read_text(encoding="utf-8") == stream.getvalue()
    assert (tmp_path / "out2.tsv").read_bytes() == stream.getvalue().encode()
    t.to_json(tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text())["r0"]["all"] == {"M0": 0.375}
    exists = r"must name a file that does not exist yet. Got a file that exists \(.*out.tsv\) "
    with pytest.raises(FileExistsError, match=exists + "instead; pass overwrite=True"):
        t.to_tsv(tmp_path / "out.tsv", summary=True)
    assert (tmp_path / "out.tsv").read_text() == stream.getvalue()  # left as it was
    t.to_tsv(tmp_path / "out.tsv", summary=True, overwrite=True)
    assert (tmp_path / "out.tsv").read_text().count("\n") == 2
    with pytest.raises(TypeError, match="'out' parameter of results.ScoreTable.to_json"):
        t.to_json(3)


def test_a_failed_write_leaves_no_file(tmp_path):
    t = table_of([[[0.5]]], runs=("#r",))
    with pytest.raises(ValueError, match="starts with '#'"):
        t.to_tsv(tmp_path / "x.tsv")
    assert not (tmp_path / "x.tsv").exists()


def test_notices_are_a_documented_field_empty_by_default(tmp_path):
    t = table_of([[[0.5]]])
    assert dict(t.notices) == {}
    with pytest.raises(TypeError):
        t.notices["x"] = 1  # read only
    t2 = ScoreTable(topics=t.topics, runs=t.runs, measures=t.measures, values=t.values,
                    present=t.present, notices={"topics_missing": {"r0": 2}})  # fmt: skip
    assert t2.notices["topics_missing"] == {"r0": 2} and t2["M0"].notices == t2.notices
    import copy
    import pickle

    back = pickle.loads(pickle.dumps(t2))
    assert back.notices == t2.notices and cells_of(back) == cells_of(t2)
    assert copy.deepcopy(t2).runs == t2.runs
    (tmp_path / "a").write_text("runid all A\nm q1 1\nm q2 1\n")
    (tmp_path / "b").write_text("runid all B\nm q1 1\n")
    with pytest.warns(FairconvWarning, match=r"m: 1 of 2 topic"):
        read = read_scores([tmp_path / "a", tmp_path / "b"])
    assert read.notices == {"topics_missing_by_measure": {"m": 1}}


# ------------------------------------------------------------------ join
def test_join_combines_measures_of_the_same_runs(pilot_table):
    g = pilot_table["GFR@10"]
    other = ScoreTable(
        topics=g.topics,
        runs=tuple(reversed(g.runs)),
        measures=("ndcg_cut_10",),
        values=g.values[:, ::-1] / 2,
        present=g.present[:, ::-1],
    )
    both = g.join(other)
    assert both.measures == ("GFR@10", "ndcg_cut_10") and both.runs == g.runs
    np.testing.assert_array_equal(both.values[:, :, 1], g.values[:, :, 0] / 2)
    with pytest.raises(ValueError, match=r"must give each measure once. Got 'GFR@10'"):
        g.join(g)
    with pytest.raises(ValueError, match=r"runs of the first table. Got table 0 instead; it "
                       r"lacks"):  # fmt: skip
        g.join(other.select(runs=other.runs[:2]))
    with pytest.raises(TypeError, match="must hold ScoreTable objects. Got dict at position 0"):
        g.join({})


def test_join_with_partial_topics_gives_a_notice():
    a = table_of([[[1.0]], [[2.0]]], topics=("q1", "q2"))
    b = table_of([[[3.0]], [[4.0]]], topics=("q2", "q3"), measures=("N",))
    with pytest.warns(FairconvWarning, match=r"share 1 of 3 topics; self lacks 1 \(q3\); "
                      r"table 0 lacks 1 \(q1\)"):  # fmt: skip
        j = a.join(b)
    assert j.topics == ("q1", "q2", "q3")
    assert j.present[:, 0].tolist() == [[True, False], [True, True], [False, True]]
    assert j.means().to_dict() == {"r0": {"M0": 1.5, "N": 3.5}}
    with pytest.raises(ValueError, match="without a common topic"):
        a.join(table_of([[[1.0]]], topics=("z",), measures=("N",)))


@pytest.mark.parametrize(
    ("values", "error", "match"),
    [
        (np.array([["x"]]), TypeError, r"values as numbers\. Got str32 for 'm' instead"),
        ([["x"]], TypeError, r"values as numbers\. Got str32 for 'm' instead"),
        (np.array([[object()]]), TypeError, r"values as numbers\. Got objects for 'm' instead"),
        (np.ones((2, 2)), ValueError, r"shape \(1, 1\) .*Got shape \(2, 2\) for 'm' instead"),
        ([[0.5, 0.25]], ValueError, r"Got shape \(1, 2\) for 'm' instead"),
    ],
)
def test_from_columns_names_values_that_are_no_table_of_numbers(values, error, match):
    """Strings, objects or a shape that does not broadcast: an error naming the measure,
    never numpy's 'could not convert string to float: np.str_(...)'."""
    with pytest.raises(error, match=r"^The 'columns' parameter of results\.ScoreTable\.from_.*"
                       + match):  # fmt: skip
        ScoreTable.from_columns(["q"], ["r"], [("m", values, None)])
