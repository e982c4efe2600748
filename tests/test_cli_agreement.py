"""The agreement commands: fairconv labels and fairconv agree."""

import subprocess
import sys

import numpy as np
import pytest

from fairconv import agreement as ag
from fairconv.cli import main

# Three annotators and an automatic matcher label whether a response matches a nugget
# (illustrative labels, in the spirit of the iKAT 2024 nugget paper's section 5.2).
THREE = """\
# item rater label
n1 h1 1
n1 h2 1
n1 h3 0
n2 h1 0
n2 h2 0
n2 h3 0
n3 h1 1
n3 h2 1
n3 h3 1
n4 h1 1
n4 h2 0
n4 h3 1
n5 h1 0
n5 h2 1
n5 h3 0
"""

TWO = """\
n1 human yes
n1 gpt yes
n2 human no
n2 gpt yes
n3 human no
n3 gpt no
n4 human yes
n4 gpt yes
n5 human partial
n5 gpt no
"""


def _rows(text):
    lines = text.strip().split("\n")
    assert lines[0] == "measure\tvalue"
    return {k: v for k, v in (line.split("\t") for line in lines[1:])}


def _file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_labels_three_raters(tmp_path, capsys):
    path = _file(tmp_path, "three.txt", THREE)
    assert main(["labels", path]) == 0
    rows = _rows(capsys.readouterr().out)
    labels = ag.read_label_file(path).labels
    assert rows["n_items"] == "5" and rows["n_raters"] == "3"
    assert float(rows["fleiss_kappa"]) == ag.fleiss_kappa(labels).statistic
    assert float(rows["krippendorff_alpha[nominal]"]) == (ag.krippendorff_alpha(labels).statistic)
    assert "accuracy" not in rows


def test_labels_two_raters_strings(tmp_path, capsys):
    path = _file(tmp_path, "two.txt", TWO)
    assert main(["labels", path]) == 0
    rows = _rows(capsys.readouterr().out)
    human = ["yes", "no", "no", "yes", "partial"]
    gpt = ["yes", "yes", "no", "yes", "no"]
    assert float(rows["accuracy"]) == 0.6
    assert float(rows["cohen_kappa"]) == ag.cohen_kappa(human, gpt).statistic
    order = "no,partial,yes"
    assert main(["labels", "--weighting", "quadratic", "--categories", order, path]) == 0
    rows = _rows(capsys.readouterr().out)
    expected = ag.cohen_kappa(human, gpt, weighting="quadratic", categories=order.split(","))
    assert float(rows["cohen_kappa[quadratic]"]) == expected.statistic
    assert main(["labels", "--level", "ordinal", "--categories", order, path]) == 0
    rows = _rows(capsys.readouterr().out)
    assert "krippendorff_alpha[ordinal]" in rows


def test_labels_vote(tmp_path, capsys):
    path = _file(tmp_path, "three.txt", THREE + "n6 h1 1\nn6 h2 0\n")
    out = tmp_path / "vote.tsv"
    assert main(["labels", "--vote", "-o", str(out), path]) == 0
    lines = out.read_text().strip().split("\n")
    assert lines[0] == "item\tlabel\tvotes\tratings"
    assert lines[1:] == [
        "n1\t1\t2\t3",
        "n2\t0\t3\t3",
        "n3\t1\t3\t3",
        "n4\t1\t2\t3",
        "n5\t0\t2\t3",
        "n6\tNaN\t1\t2",
    ]
    assert main(["labels", "--vote", "--ties", "highest", path]) == 0
    assert capsys.readouterr().out.strip().split("\n")[-1] == "n6\t1\t1\t2"


def test_labels_unequal_counts_leave_out_fleiss(tmp_path, capsys):
    path = _file(tmp_path, "three.txt", THREE + "n6 h1 1\nn6 h2 0\n")
    assert main(["labels", path]) == 0
    captured = capsys.readouterr()
    assert "fleiss_kappa" not in _rows(captured.out)
    assert "fleiss_kappa left out" in captured.err
    labels = ag.read_label_file(path).labels
    assert np.isnan(labels[5, 2])


def _run(*args):
    return subprocess.run(
        [sys.executable, "-m", "fairconv.cli", *args], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("n1 a 1\nn1 a 0\n", [], "a second label of rater 'a'"),
        ("n1 a 1\nn2 a 0\n", [], "agreement needs at least 2 raters"),
        ("n1 a 1\nn1 b\n", [], "expected 3 columns"),
        ("n1 a x\nn1 b y\n", ["--weighting", "linear"], "'categories' parameter"),
        ("n1 a x\nn1 b y\n", ["--level", "interval"], "numbers at the interval level"),
        ("n1 a 1\nn1 b 1\n", [], "kappa is undefined"),
        ("n1 a 1\nn1 b 1\nn1 c 1\n", [], "must use at least two labels"),
    ],
)
def test_labels_errors_one_line(tmp_path, text, options, message):
    path = _file(tmp_path, "bad.txt", text)
    proc = _run("labels", *options, path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().split("\n")
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("fairconv labels: error:") and message in lines[0]
    assert "Traceback" not in proc.stderr


def test_labels_output_may_not_be_the_input(tmp_path):
    path = _file(tmp_path, "three.txt", THREE)
    proc = _run("labels", "-o", path, path)
    assert proc.returncode == 2 and len(proc.stderr.strip().split("\n")) == 1
