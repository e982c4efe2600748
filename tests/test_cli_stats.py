"""fairconv compare and fairconv discpower: in-process and as one-line errors."""

import json
import subprocess
import sys

import pytest

from fairconv.cli import main
from fairconv.datasets import fairweb1_pilot, sakai_book


@pytest.fixture()
def book(tmp_path):
    f = tmp_path / "book.tsv"
    with open(f, "w") as out:
        sakai_book().table.to_tsv(out)
    return f


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_compare_json_has_the_book_values(capsys, book):
    data = json.loads(run(capsys, "compare", "-m", "nDCG@5", "--test", "tukey", "--format",
                          "json", book))  # fmt: skip
    assert data["measure"] == "nDCG@5" and data["test"] == "tukey" and data["n_topics"] == 20
    assert [s["name"] for s in data["systems"]] == ["X", "Y", "Z"]
    assert round(data["systems"][0]["ci_high"] - data["systems"][0]["mean"], 4) == 0.0670
    xy = data["pairs"][0]
    assert (xy["a"], xy["b"], round(xy["pvalue"], 3)) == ("X", "Y", 0.257)
    assert round(xy["effect_size"], 3) == 0.507 and xy["significant"] is False
    assert set(xy) == {"a", "b", "difference", "pvalue", "effect_size", "significant"}


def test_compare_default_is_a_reproducible_randomised_tukey(capsys, book):
    a = run(capsys, "compare", "-m", "nDCG@5", "--seed", "3", "--B", "2000", book)
    b = run(capsys, "compare", "-m", "nDCG@5", "--seed", "3", "--B", "2000", book)
    assert a == b and "randomised-tukey" in a


def test_compare_latex_and_plot(capsys, book, tmp_path):
    out = run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--correction", "holm",
              "--format", "latex", "--plot", tmp_path / "m.png", book)  # fmt: skip
    assert "\\begin{tabular}" in out and "\\toprule" in out and "holm" in out
    assert "X & Y & 0.0750 & 0.143" in out  # 3 x 0.048 (Holm on three pairs)
    assert (tmp_path / "m.png").read_bytes().startswith(b"\x89PNG")


def test_compare_on_pilot_scores_from_fairconv_gfr(capsys, tmp_path):
    p = fairweb1_pilot()
    gfr_out = tmp_path / "gfr.tsv"
    from fairconv import gfr

    with open(gfr_out, "w") as f:
        gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["GFR@10"]).to_tsv(f)
    data = json.loads(run(capsys, "compare", "-m", "GFR@10", "--test", "paired-t",
                          "--format", "json", gfr_out))  # fmt: skip
    assert data["n_topics"] == 4 and len(data["pairs"]) == 3


def test_topics_file_restricts_the_comparison(capsys, book, tmp_path):
    topics = tmp_path / "topics"
    topics.write_text("\n".join(f"Q{i}" for i in range(1, 11)) + "\n")
    data = json.loads(run(capsys, "compare", "-m", "nDCG@5", "--test", "tukey", "--topics",
                          topics, "--format", "json", book))  # fmt: skip
    assert data["n_topics"] == 10


def test_discpower_curves_and_power(capsys, book, tmp_path):
    out = run(capsys, "discpower", "-m", "nDCG@5", "--test", "tukey", "--plot",
              tmp_path / "asl.png", book)  # fmt: skip
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["measure", "rank", "a", "b", "asl"]
    assert [r[1] for r in rows[1:4]] == ["1", "2", "3"]
    assert ["nDCG@5", "0.0"] in rows
    assert (tmp_path / "asl.png").read_bytes().startswith(b"\x89PNG")
    data = json.loads(run(capsys, "discpower", "-m", "nDCG@5", "--format", "json", "--test",
                          "paired-t", book))  # fmt: skip
    assert data["nDCG@5"]["discriminative_power"] == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "args, message",
    [
        (("--test", "tukey", "--correction", "bonferroni"), "familywise"),
        (("--B", "0"), "'n_resamples'"),
        (("--alpha", "1.5"), "'alpha'"),
        (("--test", "anova"), "invalid choice"),
    ],
)
def test_compare_errors_are_one_line(book, args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "compare", "-m", "nDCG@5", *args, str(book)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
