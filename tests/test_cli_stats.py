"""fairconv compare and fairconv discpower: in-process and as one-line errors."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from fairconv import agreement as ag
from fairconv import stats
from fairconv.cli import main
from fairconv.datasets import fairweb1_pilot, sakai_book
from fairconv.results import ScoreTable
from fairconv.stats import _compare


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
    assert [s["name"] for s in data["runs"]] == ["X", "Y", "Z"]
    assert round(data["runs"][0]["ci_high"] - data["runs"][0]["mean"], 4) == 0.0670
    xy = data["pairs"][0]
    assert (xy["a"], xy["b"], round(xy["pvalue"], 3)) == ("X", "Y", 0.257)
    assert round(xy["effect_size"], 3) == 0.507 and xy["significant"] is False
    assert set(xy) == {"a", "b", "difference", "ci_low", "ci_high", "pvalue", "effect_size",
                       "significant"}  # fmt: skip
    assert (data["effect_size_name"], data["seed"], data["correction"]) == ("ES_E", 0, "none")


def test_compare_default_is_a_reproducible_randomised_tukey(capsys, book):
    a = run(capsys, "compare", "-m", "nDCG@5", "--seed", "3", "--B", "2000", book)
    b = run(capsys, "compare", "-m", "nDCG@5", "--seed", "3", "--B", "2000", book)
    assert a == b and "randomised-tukey" in a


def test_compare_latex_and_plot(capsys, book, tmp_path):
    out = run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--correction", "holm",
              "--format", "latex", "--plot", tmp_path / "m.png", book)  # fmt: skip
    assert "\\begin{tabular}" in out and "\\toprule" in out and "holm" in out
    assert "X & Y & 0.0750 & [0.0008, 0.1492] & 0.143" in out  # 3 x 0.048 (Holm, 3 pairs)
    assert "\\caption{nDCG@5 (higher is better) over 20 topics: paired t-test" in out
    assert "d_z" in out
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
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert out.startswith("# test: tukey (two-way Tukey HSD)\n# alpha: 0.05; correction: none")
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
        (("--B", "0"), "--B must be an integer"),
        (("--alpha", "1.5"), "--alpha must be a number"),
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


REFERENCE = __import__("pathlib").Path(__file__).parent / "reference"
IRM = [REFERENCE / "ir_measures_q.bm25.tsv", REFERENCE / "ir_measures_q.qld.tsv"]


def test_compare_reads_ir_measures_output_and_agrees_with_the_api(capsys):
    from fairconv import stats
    from fairconv.io import read_scores

    out = run(capsys, "compare", "-m", "nDCG@10", "--test", "paired-t", *IRM)
    comments = [line for line in out.splitlines() if line.startswith("#")]
    lines = out.splitlines()[len(comments) :]
    assert comments[:2] == [
        "# measure: nDCG@10 (higher is better)",
        "# test: paired-t (paired t-test)",
    ]
    assert "# alpha: 0.05; correction: none; topics: 4" in comments
    assert lines[0] == "run\tmean"
    assert lines[3] == "a\tb\tdifference\tci_low\tci_high\tpvalue\teffect_size\tsignificant"
    c = stats.compare(read_scores(IRM), "nDCG@10", test="paired-t")
    a, b, diff, low, high, p, es, sig = lines[4].split("\t")
    assert (float(low), float(high)) == (c.pairs[0]["ci_low"], c.pairs[0]["ci_high"])
    assert (a, b) == ("ir_measures_q.bm25.tsv", "ir_measures_q.qld.tsv")
    assert (float(diff), float(p), float(es)) == (
        c.pairs[0]["difference"], c.pairs[0]["pvalue"], c.pairs[0]["effect_size"],
    )  # fmt: skip
    assert sig == "no"
    forced = run(capsys, "compare", "-m", "nDCG@10", "--test", "paired-t", "--input-format",
                 "ir_measures", *IRM)  # fmt: skip
    assert forced == out


def test_nan_policy_omit_says_how_many_topics_were_left_out(capsys, tmp_path):
    f = tmp_path / "s.tsv"
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run_name, values in (("A", [0.5, 0.2, "NaN", 0.9]), ("B", [0.4, 0.3, 0.1, 0.5])):
        rows += [f"{run_name}\tq{i}\tm\t{v}" for i, v in enumerate(values)]
    f.write_text("\n".join(rows) + "\n")
    code = main(["compare", "-m", "m", "--test", "paired-t", "--nan-policy", "omit", str(f)])
    out, err = capsys.readouterr()
    assert code == 0 and "topics: 3 (1 left out: undefined values)" in out
    assert err == "fairconv compare: 1 topic(s) left out (undefined values)\n"
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", "-m", "m", str(f)],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "undefined (NaN) on topic 'q2'" in proc.stderr and "--nan-policy omit" in proc.stderr


def test_latex_escapes_run_names(capsys, tmp_path):
    f = tmp_path / "s.tsv"
    rows = ["run\ttopic\tmeasure\tvalue"]
    for name, values in (("bm25_rm3&x", [0.5, 0.2, 0.9]), ("qld%2", [0.4, 0.3, 0.5])):
        rows += [f"{name}\tq{i}\tm@10\t{v}" for i, v in enumerate(values)]
    f.write_text("\n".join(rows) + "\n")
    out = run(capsys, "compare", "-m", "m@10", "--test", "tukey", "--format", "latex", f)
    assert "bm25\\_rm3\\&x & qld\\%2 &" in out and "\\bottomrule" in out


def test_discpower_two_measures_json_and_figure(capsys, tmp_path):
    from fairconv import stats
    from fairconv.io import read_scores

    png = tmp_path / "asl.png"
    data = json.loads(run(capsys, "discpower", "-m", "nDCG@10", "-m", "P@5", "--test",
                          "paired-t", "--format", "json", "--plot", png, *IRM))  # fmt: skip
    assert list(data) == ["nDCG@10", "P@5"]
    t = read_scores(IRM)
    for m in data:
        x, _, _ = stats.scores_of(t, m)
        assert data[m]["pairs"][0]["asl"] == stats.paired_t_test(x[:, 0], x[:, 1]).pvalue
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "args, message",
    [
        (("-m", "nope", "IRM"), "--measure must name measures of the files"),
        (("-m", "nDCG@10", "--topics", "TOPICS", "IRM"), "'P009'"),
        (("-m", "nDCG@10", "EMPTY"), "the file is empty"),
        (("-m", "nDCG@10", "--input-format", "csv", "IRM"), "invalid choice"),
        (("-m", "nDCG@10", "--B", "1.5", "IRM"), "invalid int value"),
    ],
)
def test_compare_input_errors_are_one_line(tmp_path, args, message):
    (tmp_path / "topics").write_text("P001\nP009\n")
    (tmp_path / "empty").write_text("")
    subst = {"IRM": [str(p) for p in IRM], "TOPICS": [str(tmp_path / "topics")],
             "EMPTY": [str(tmp_path / "empty")]}  # fmt: skip
    argv = [a for arg in args for a in subst.get(arg, [arg])]
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", *argv],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_figures_of_the_commands():
    import matplotlib.pyplot as plt

    from fairconv import stats
    from fairconv.plots import asl_curves, system_means

    book = sakai_book()
    one = {"m": stats.discriminative_power(book.scores[:, :2], test="paired-t")}
    fig = asl_curves(one)
    low, high = fig.axes[0].get_xlim()
    ticks = [t for t in fig.axes[0].get_xticks() if low <= t <= high]
    assert ticks == [1.0] and fig.axes[0].get_ylim() == (0.0, 1.0)  # one pair: rank 1
    plt.close(fig)
    fig = system_means(stats.compare(book.table, "nDCG@5", test="tukey"))
    lines = fig.axes[0].collections[0].get_segments()  # the CI bars, best system on top
    c = stats.compare(book.table, "nDCG@5", test="tukey")
    for seg, s in zip(lines, c.runs, strict=True):
        assert seg[:, 0].tolist() == pytest.approx([s["ci_low"], s["ci_high"]], abs=1e-12)
    plt.close(fig)
    with pytest.raises(TypeError, match="'comparison' parameter of plots.system_means"):
        system_means(c.to_dict())


def test_an_undefined_effect_size_prints_as_undefined(capsys, tmp_path):
    """B - A is 0.1 on every topic: the sign-flip test is defined, mean(d) / s_d is not."""
    f = tmp_path / "s.tsv"
    rows = ["run\ttopic\tmeasure\tvalue"]
    for name, values in (("A", [0.1, 0.3, 0.5]), ("B", [0.2, 0.4, 0.6]), ("C", [0.9, 0.1, 0.4])):
        rows += [f"{name}\tq{i}\tm\t{v}" for i, v in enumerate(values)]
    f.write_text("\n".join(rows) + "\n")
    common = ("compare", "-m", "m", "--test", "randomisation", f)
    last = run(capsys, *common).splitlines()[-1].split("\t")
    assert last[:2] == ["B", "A"] and last[3:] == ["0.25", "NaN", "no"]
    pair = json.loads(run(capsys, *common, "--format", "json"))["pairs"][-1]
    assert pair["pvalue"] == 0.25 and pair["effect_size"] is None
    assert "B & A & 0.1000 & 0.250 & -- \\\\" in run(capsys, *common, "--format", "latex")


def test_discpower_nan_policy(capsys, tmp_path):
    f = tmp_path / "s.tsv"
    rows = ["run\ttopic\tmeasure\tvalue"]
    for name, values in (("A", [0.1, 0.7, "NaN", 0.4]), ("B", [0.2, 0.4, 0.6, 0.3])):
        rows += [f"{name}\tq{i}\tm\t{v}" for i, v in enumerate(values)]
    f.write_text("\n".join(rows) + "\n")
    code = main(["discpower", "-m", "m", "--test", "paired-t", "--nan-policy", "omit", str(f)])
    out, err = capsys.readouterr()
    assert code == 0 and err == "fairconv discpower: m: 1 topic(s) left out (undefined values)\n"
    from scipy.stats import ttest_rel

    rows = [line for line in out.splitlines() if not line.startswith("#")]
    p = float(rows[1].split("\t")[-1])
    assert p == ttest_rel([0.1, 0.7, 0.4], [0.2, 0.4, 0.3]).pvalue
    assert main(["discpower", "-m", "m", str(f)]) == 2
    assert "undefined (NaN) on topic 'q2'" in capsys.readouterr().err


def _scores_file(tmp_path, name, runs):
    f = tmp_path / name
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run_name, values in runs.items():
        rows += [f"{run_name}\tq{i}\tP\t{v}" for i, v in enumerate(values)]
    f.write_text("\n".join(rows) + "\n")
    return f


def test_a_difference_0_on_paper_is_not_significant(capsys, tmp_path):
    """statistics.md, Ties: mean(d) = 0.1 - 0.3 + 0.2 = 0 on paper ties every trial."""
    f = _scores_file(tmp_path, "eq.tsv", {"A": [0.1, 0.2, 0.5, 0.5], "B": [0.3, 0.0, 0.5, 0.5]})
    for test in ("bootstrap", "randomisation", "paired-t"):
        pair = json.loads(run(capsys, "compare", "-m", "P", "--test", test, "--seed", "1",
                              "--format", "json", f))["pairs"][0]  # fmt: skip
        assert pair["significant"] is False and pair["pvalue"] == pytest.approx(1.0)
    out = run(capsys, "discpower", "-m", "P", "--test", "bootstrap", "--seed", "1", f)
    rows = [line for line in out.splitlines() if not line.startswith("#")]
    assert rows[1].split("\t")[-1] == "1.0" and rows[-1] == "P\t0.0"


def test_randomisation_where_the_anova_is_undefined(capsys, tmp_path):
    """docs/statistics.md, When a test is undefined: the CIs are NaN/null, not an error."""
    f = _scores_file(tmp_path, "s.tsv", {"A": [0.3, 0.5, 0.9], "B": [0.1, 0.3, 0.7]})
    common = ("compare", "-m", "P", "--test", "randomisation", f)
    lines = [ln for ln in run(capsys, *common).splitlines() if not ln.startswith("#")]
    assert lines[0] == "run\tmean" and lines[-1].split("\t")[3] == "0.25"
    data = json.loads(run(capsys, *common, "--format", "json"))
    assert data["runs"][0]["ci_low"] is None and data["pairs"][0]["effect_size"] is None
    assert "A & 0.5667 \\\\" in run(capsys, *common, "--format", "latex")
    proc = subprocess.run([sys.executable, "-m", "fairconv", "compare", "-m", "P", "--test",
                           "tukey", str(f)], capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "compare: the residual variance V_E is 0" in proc.stderr and "anova2" not in proc.stderr


@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_scores_beyond_the_float_range_are_one_line_errors(tmp_path, fmt):
    # a difference of means of 3.4e308 (each pair is scaled on its own: 2e308 is computed)
    f = _scores_file(tmp_path, "huge.tsv", {"A": [1.7e308, 1.7e308, 1.6e308], "B": [-1.7e308] * 3})
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-m", "fairconv", "compare", "-m", "P", "--test",
         "randomisation", "--format", fmt, str(f)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert "SCORES must hold scores" in proc.stderr and "finite float" in proc.stderr
    assert "Warning" not in proc.stderr


def test_compare_against_a_baseline_in_every_format(capsys, book):
    from fairconv import stats

    api = stats.compare(sakai_book().table, "nDCG@5", test="paired-t", baseline=["Z"],
                        correction="holm")  # fmt: skip
    data = json.loads(run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--baseline",
                          "Z", "--correction", "holm", "--format", "json", book))  # fmt: skip
    assert data == json.loads(json.dumps(api.to_dict()))
    assert data["baseline"] == ["Z"] and [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("X", "Z"), ("Y", "Z")
    ]  # fmt: skip
    tsv = run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--baseline", "Z", book)
    assert "# pairs: each run against the baseline(s) Z\n" in tsv
    latex = run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--baseline", "Z",
                "--correction", "holm", "--format", "latex", book)  # fmt: skip
    assert latex == api.to_latex() and "Run & Baseline & Difference" in latex
    markdown = run(capsys, "compare", "-m", "nDCG@5", "--test", "paired-t", "--baseline", "Z",
                   "--correction", "holm", "--format", "markdown", book)  # fmt: skip
    assert markdown == api.to_markdown() and "| X | Z | 0.1000 |" in markdown


def test_lower_is_better_orders_the_runs_and_says_so(capsys, book):
    data = json.loads(run(capsys, "compare", "-m", "nDCG@5", "--lower-is-better", "nDCG@5",
                          "--test", "tukey", "--format", "json", book))  # fmt: skip
    assert data["direction"] == "lower" and [r["name"] for r in data["runs"]] == ["Z", "Y", "X"]
    tsv = run(capsys, "compare", "-m", "nDCG@5", "--lower-is-better", "nDCG@5", book)
    assert tsv.startswith("# measure: nDCG@5 (lower is better)\n")
    out = run(capsys, "discpower", "-m", "nDCG@5", "--lower-is-better", "nDCG@5", book)
    assert "# nDCG@5 (lower is better): 20 topics;" in out
    data = json.loads(run(capsys, "discpower", "-m", "nDCG@5", "--format", "json", book))
    assert data["nDCG@5"]["direction"] == "higher"


@pytest.mark.parametrize(
    "args, message",
    [
        (("--lower-is-better", "P@10"), "--lower-is-better names 'P@10', which is not a measure"),
        (("--lower-is-better", "nDCG@5", "--lower-is-better", "nDCG@5"), "'nDCG@5' twice"),
        (("--baseline", "W"), "--baseline must name runs of the scores (X, Y, Z). Got 'W'"),
        (("--baseline", "X", "--baseline", "X"), "--baseline must list each run once"),
    ],
)
def test_direction_and_baseline_errors_are_one_line(book, args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "compare", "-m", "nDCG@5", *args, str(book)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- report
def _pilot_scores(tmp_path):
    from fairconv import gfr

    p = fairweb1_pilot()
    f = tmp_path / "pilot.tsv"
    table = gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["GFR@10", "ERR@10"])
    with open(f, "w") as out:
        table.to_tsv(out)
    return f, table


@pytest.mark.parametrize("fmt", ["tsv", "json", "latex", "markdown"])
@pytest.mark.parametrize(
    "options", [(), ("--test", "paired-t", "--baseline", "Anserini-qld", "--details", "cells")]
)
def test_report_prints_the_report_of_the_api(capsys, tmp_path, fmt, options):
    from fairconv import stats
    from fairconv.stats._report import _tsv

    f, table = _pilot_scores(tmp_path)
    out = run(capsys, "report", "-m", "GFR@10", "-m", "ERR@10", *options, "--format", fmt, f)
    kw = {} if not options else dict(test="paired-t", baseline=["Anserini-qld"], details="cells")
    api = stats.report(table, ["GFR@10", "ERR@10"], **kw)
    expected = {"tsv": _tsv(api), "latex": api.to_latex(), "markdown": api.to_markdown(),
                "json": json.dumps(api.to_dict(), indent=1) + "\n"}[fmt]  # fmt: skip
    assert out == expected
    if fmt == "tsv":
        assert out.startswith("# report: 3 runs x 2 measures\n# Means over 4 topics.\n")
        rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
        assert rows[0] == ["measure", "direction", "n_topics", "run", "letter", "mean", "marks",
                           "best"]  # fmt: skip
        assert float(rows[1][5]) == api.means[0, 0]  # unrounded


def _trec_eval_file(path, run, table, r):
    lines = [f"{m}\t{t}\t{float(table.values[i, r, k])!r}" for k, m in enumerate(table.measures)
             for i, t in enumerate(table.topics)]  # fmt: skip
    path.write_text("\n".join(lines + [f"runid\tall\t{run}"]) + "\n")


def _ir_measures_file(path, table, r):
    lines = [f"{t}\t{m}\t{float(table.values[i, r, k])!r}" for k, m in enumerate(table.measures)
             for i, t in enumerate(table.topics)]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")


def _ranx_file(path, table, r):
    data = {m: {t: float(table.values[i, r, k]) for i, t in enumerate(table.topics)}
            for k, m in enumerate(table.measures)}  # fmt: skip
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("fmt", ["tsv", "json", "latex"])
def test_the_same_report_from_three_tools_files_as_from_one_table(capsys, tmp_path, fmt):
    import numpy as np

    from fairconv.results import ScoreTable

    rng = np.random.default_rng(11)
    v = rng.random((9, 3, 2)) + np.array([0.4, 0.0, 0.2])[None, :, None]
    table = ScoreTable(topics=tuple(f"t{i}" for i in range(9)), runs=("bm25", "qld", "dense"),
                       measures=("ndcg_cut_10", "P_10"), values=v,
                       present=np.ones(v.shape, bool))  # fmt: skip
    one = tmp_path / "all.tsv"
    with open(one, "w") as out:
        table.to_tsv(out)
    _trec_eval_file(tmp_path / "bm25.trec", "bm25", table, 0)
    _ir_measures_file(tmp_path / "qld.irm", table, 1)
    _ranx_file(tmp_path / "dense.json", table, 2)
    sources = [f"bm25={tmp_path / 'bm25.trec'}", f"qld={tmp_path / 'qld.irm'}",
               f"dense={tmp_path / 'dense.json'}"]  # fmt: skip
    args = ["report", "-m", "ndcg_cut_10", "-m", "P_10", "--test", "paired-t", "--format", fmt]
    from_tools = run(capsys, *args, *sources)
    assert from_tools == run(capsys, *args, one)
    assert ("a & bm25 & \\textbf{" in from_tools) == (fmt == "latex")


def test_report_lower_is_better_and_errors(capsys, tmp_path, book):
    out = run(capsys, "report", "-m", "nDCG@5", "--lower-is-better", "nDCG@5", "--test",
              "paired-t", "--format", "markdown", book)  # fmt: skip
    assert out.splitlines()[0] == "|  | Run | nDCG@5 ↓ |"
    assert "| c | Z | **0.2450** |" in out and "↓: lower is better." in out
    for args, message in [
        (("-m", "nDCG@5", "-m", "nDCG@5"), "'nDCG@5' twice"),
        (("-m", "P@5"), "--measure must name measures of the files (nDCG@5). Got 'P@5'"),
        (("-m", "nDCG@5", "--details", "cells", "--test", "paired-t"), "--details must be"),
        (("-m", "nDCG@5", "--baseline", "W"), "--baseline must name runs"),
    ]:
        proc = subprocess.run([sys.executable, "-m", "fairconv", "report", *args, str(book)],
                              capture_output=True, text=True)  # fmt: skip
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


BOOK = sakai_book()


def _trust_scores_file(path, runs: dict, measure="P", topics=None):
    rows = ["run\ttopic\tmeasure\tvalue"]
    for name, values in runs.items():
        ids = topics or [f"q{i}" for i in range(len(values))]
        rows += [f"{name}\t{t}\t{measure}\t{v!r}" for t, v in zip(ids, values, strict=True)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def _body(out):
    return [line.split("\t") for line in out.splitlines() if not line.startswith("#")]


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-W", "error", "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
    )


# --------------------------------------------------------------------------- ties
def test_ties_made_by_rounding_are_ties_where_means_are_ranked(tmp_path, capsys):
    """Means equal on paper (0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1) tie, bit for bit."""
    assert 0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1
    rows = ["run\ttopic\tmeasure\tvalue"]
    data = {
        "A": ([0.1, 0.2, 0.3], [0.9, 0.9, 0.9]),
        "B": ([0.3, 0.2, 0.1], [0.5, 0.5, 0.5]),
        "C": ([0.0, 0.0, 0.1], [0.1, 0.1, 0.1]),
    }
    for run, (m1, m2) in data.items():
        rows += [f"{run}\tq{i}\tM1\t{v}" for i, v in enumerate(m1)]
        rows += [f"{run}\tq{i}\tM2\t{v}" for i, v in enumerate(m2)]
    f = tmp_path / "tie.tsv"
    f.write_text("\n".join(rows) + "\n")
    out, _ = _run(capsys, "agree", "-m", "M1", "-m", "M2", f)
    row = _body(out)[1]
    tau = ag.kendall_tau([0.6, 0.6, 0.1], [0.9, 0.5, 0.1]).statistic
    assert float(row[2]) == tau == pytest.approx(math.sqrt(2 / 3))  # 0.816
    # compare: the tie is kept (ordered by name), not broken by the last bit
    x = np.array([[0.3, 0.1, 0.0], [0.2, 0.2, 0.0], [0.1, 0.3, 0.1]])
    for names in (["B", "A", "C"], ["A", "B", "C"]):
        c = stats.compare(x, "P", test="tukey", runs=names)
        assert [r["name"] for r in c.runs] == sorted(names[:2]) + ["C"]
        assert c.runs[0]["mean"] == c.runs[1]["mean"]


# --------------------------------------------------------------------------- too few topics
def test_resampling_tests_with_too_few_topics_are_refused(tmp_path, capsys):
    """The bootstrap on 2 topics gave p = 0 for any data: it needs 4, and says so."""
    x, y = [0.5, 0.1], [0.2, 0.4]
    with pytest.raises(ValueError, match="at least 4 topics for the bootstrap test. Got 2"):
        stats.bootstrap_test(x, y)
    with pytest.raises(ValueError, match="at least 4 topics for the bootstrap test"):
        stats.compare(np.c_[x, y], "P", test="bootstrap")
    with pytest.raises(ValueError, match="at least 4 topics for the bootstrap test"):
        stats.discriminative_power(np.c_[x, y], test="bootstrap")
    f = _trust_scores_file(tmp_path / "s.tsv", {"A": x, "B": y})
    for command in ("compare", "discpower"):
        proc = _cli(command, "-m", "P", "--test", "bootstrap", f)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1
        assert "at least 4 topics" in proc.stderr and proc.stdout == ""
    # 4 topics: defined, never p = 0
    r = stats.bootstrap_test([0.5, 0.1, 0.7, 0.3], [0.2, 0.4, 0.1, 0.2], n_resamples=99)
    assert 1 / 100 <= r.pvalue <= 1


def test_seed_defaults_to_0(tmp_path, capsys):
    x = BOOK.scores
    a = stats.compare(x, "P", n_resamples=500)
    b = stats.compare(x, "P", n_resamples=500, seed=0)
    assert a.pairs == b.pairs and a.seed == 0
    assert stats.bootstrap_test(x[:, 0], x[:, 1]) == stats.bootstrap_test(x[:, 0], x[:, 1], seed=0)
    f = _trust_scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate("XYZ")})
    out, _ = _run(capsys, "compare", "-m", "P", "--B", "500", f)
    assert "B = 500, seed 0" in out


# --------------------------------------------------------------------------- float64 edges
def test_scaling_is_per_pair_at_the_edge_of_float64(tmp_path, capsys):
    """A run near 1e200 leaves an unrelated pair's paired-t p as it is."""
    x = BOOK.scores
    alone = stats.paired_t_test(x[:, 0], x[:, 1]).pvalue
    big = np.c_[x, 1e200 * (1 + np.arange(20) / 7)]
    for test in ("paired-t", "bootstrap", "randomisation"):
        p = _compare._pairwise(big, test, 300, np.random.default_rng(1), 0.05).pvalue[0, 1]
        q = _compare._pairwise(x, test, 300, np.random.default_rng(1), 0.05).pvalue[0, 1]
        assert p == q
    c = stats.compare(big, "P", test="paired-t", runs=["X", "Y", "Z", "BIG"])
    xy = next(p for p in c.pairs if {p["a"], p["b"]} == {"X", "Y"})
    assert xy["pvalue"] == pytest.approx(alone, rel=1e-12)
    f = _trust_scores_file(
        tmp_path / "s.tsv", {n: big[:, i].tolist() for i, n in enumerate("XYZW")}
    )
    out, _ = _run(capsys, "discpower", "-m", "P", "--test", "paired-t", f)
    row = next(r for r in _body(out) if r[2:4] == ["X", "Y"])
    assert float(row[4]) == pytest.approx(alone, rel=1e-12)


# --------------------------------------------------------------------------- order of inputs
def test_same_seed_same_p_whatever_the_order_of_files_runs_and_topics(tmp_path, capsys):
    rng = np.random.default_rng(5)
    x = rng.random((6, 4))
    names = ["r1", "r2", "r3", "r4"]
    files = [
        _trust_scores_file(tmp_path / f"{n}.tsv", {n: x[:, i].tolist()})
        for i, n in enumerate(names)
    ]
    outs = []
    for order in (files, files[::-1], [files[2], files[0], files[3], files[1]]):
        outs.append(_run(capsys, "compare", "-m", "P", "--B", "300", *order)[0])
        outs.append(_run(capsys, "discpower", "-m", "P", "--B", "300", *order)[0])
    assert outs[0::2] == [outs[0]] * 3 and outs[1::2] == [outs[1]] * 3
    # the topic file's order, and the API's order of columns and topics
    topics = tmp_path / "topics"
    topics.write_text("q3\nq0\nq5\nq1\n")
    a = _run(capsys, "compare", "-m", "P", "--B", "300", "--topics", topics, *files)[0]
    topics.write_text("q1\nq5\nq0\nq3\n")
    b = _run(capsys, "compare", "-m", "P", "--B", "300", "--topics", topics, *files)[0]
    assert a == b
    perm = [2, 0, 3, 1]
    c1 = stats.compare(x, "P", n_resamples=300, runs=names)
    c2 = stats.compare(x[:, perm], "P", n_resamples=300, runs=[names[i] for i in perm])
    assert c1.pairs == c2.pairs
    table = ScoreTable(
        runs=tuple(names), topics=tuple(f"q{i}" for i in range(6)), measures=("P",),
        values=x[:, :, None], present=np.ones((6, 4, 1), bool),
    )  # fmt: skip
    api = stats.compare(table, "P", n_resamples=300, topics=["q3", "q0", "q5", "q1"])
    cli = json.loads(_run(capsys, "compare", "-m", "P", "--B", "300", "--topics", topics,
                          "--format", "json", *files)[0])  # fmt: skip
    assert [p["pvalue"] for p in api.pairs] == [p["pvalue"] for p in cli["pairs"]]


@pytest.mark.parametrize("test", ["randomised-tukey", "bootstrap", "randomisation", "paired-t"])
def test_compare_and_discpower_agree_on_a_pair(tmp_path, capsys, test):
    x = np.random.default_rng(8).random((8, 5))
    names = ["e", "b", "d", "a", "c"]
    c = stats.compare(x, "P", test=test, n_resamples=400, runs=names)
    dp = stats.discriminative_power(x, test=test, n_resamples=400, runs=names)
    by_pair = {
        frozenset((names[j], names[k])): p for (j, k), p in zip(dp.pairs, dp.asl, strict=False)
    }
    for p in c.pairs:
        assert p["pvalue"] == by_pair[frozenset((p["a"], p["b"]))]
    f = _trust_scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate(names)})
    cmp = json.loads(_run(capsys, "compare", "-m", "P", "--test", test, "--B", "400",
                          "--format", "json", f)[0])  # fmt: skip
    disc = json.loads(_run(capsys, "discpower", "-m", "P", "--test", test, "--B", "400",
                           "--format", "json", f)[0])["P"]  # fmt: skip
    asl = {frozenset((p["a"], p["b"])): p["asl"] for p in disc["pairs"]}
    assert all(p["pvalue"] == asl[frozenset((p["a"], p["b"]))] for p in cmp["pairs"])


# --------------------------------------------------------------------------- messages
def test_compare_errors_name_compare_not_an_internal_function(tmp_path):
    v = np.ones((2, 2, 1))
    v[1, 0, 0] = np.nan
    table = ScoreTable(runs=("A", "B"), topics=("q1", "q2"), measures=("P",), values=v,
                       present=np.ones((2, 2, 1), bool))  # fmt: skip
    for call in (
        lambda: stats.compare(table, "P"),
        lambda: stats.compare(table, "Q"),
        lambda: stats.compare(table, "P", topics=["q9"]),
        lambda: stats.compare(table, "P", nan_policy="drop"),
    ):
        with pytest.raises(ValueError) as exc:
            call()
        assert "scores_of" not in str(exc.value) and "compare" in str(exc.value)


def test_compare_takes_one_measure(tmp_path):
    f = _trust_scores_file(tmp_path / "s.tsv", {"A": [0.1, 0.5, 0.3], "B": [0.2, 0.4, 0.1]})
    proc = _cli("compare", "-m", "P", "-m", "Q", f)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert "compare takes one measure; got -m P -m Q" in proc.stderr


# --------------------------------------------------------------------------- reports
@pytest.mark.parametrize("test", stats.TESTS)
def test_every_report_says_how_its_numbers_were_made(tmp_path, capsys, test):
    x = BOOK.scores
    f = _trust_scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate("XYZ")})
    common = ("compare", "-m", "P", "--test", test, "--B", "500", "--seed", "7")
    tsv = _run(capsys, *common, f)[0]
    data = json.loads(_run(capsys, *common, "--format", "json", f)[0])
    latex = _run(capsys, *common, "--format", "latex", f)[0]
    randomised = test in ("randomised-tukey", "randomisation", "bootstrap")
    es = "ES_E" if "tukey" in test else "d_z"
    assert f"# test: {test}" in tsv and "alpha: 0.05; correction: none; topics: 20" in tsv
    assert f"effect size: {es}" in tsv and f"${es}$" in latex and data["effect_size_name"] == es
    assert (data["test"], data["alpha"], data["correction"], data["n_topics"]) == (
        test, 0.05, "none", 20,
    )  # fmt: skip
    if randomised:
        assert "Monte Carlo ((count + 1) / (B + 1)), B = 500, seed 7" in tsv
        assert "B = 500, seed 7" in latex and (data["n_resamples"], data["seed"]) == (500, 7)
        assert data["p_value"].startswith("Monte Carlo")
    assert ("conditional on these 20 topics" in tsv) == ("tukey" in test)
    assert ("pair intervals" in tsv) == (test in ("tukey", "paired-t"))


def test_a_string_of_measures_is_not_split_into_characters(tmp_path):
    f = _trust_scores_file(tmp_path / "s.tsv", {"A": [0.1, 0.5], "B": [0.2, 0.4]}, measure="MN")
    from fairconv.io import read_scores

    with pytest.raises(TypeError, match=r"'measures' parameter of io.read_scores .* \['MN'\]"):
        read_scores([f], measures="MN")
    assert read_scores([f], measures=["MN"]).measures == ("MN",)
