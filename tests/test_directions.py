"""Every measure knows its direction; tables carry it; notices point at the user's line."""

import warnings

import numpy as np
import pytest

from fairconv import FairconvWarning, gfr
from fairconv.datasets import fairweb1_pilot
from fairconv.results import DIRECTIONS, ScoreTable, direction_of


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
