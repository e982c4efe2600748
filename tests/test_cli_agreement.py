"""The agreement commands: fairconv labels and fairconv agree."""

import json
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
    return subprocess.run([sys.executable, "-m", "fairconv", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("n1 a 1\nn1 a 0\n", [], "a second label of rater 'a'"),
        ("n1 a 1\nn2 a 0\n", [], "agreement needs at least 2 raters"),
        ("n1 a 1\nn1 b\n", [], "expected 3 columns"),
        ("n1 a x\nn1 b y\n", ["--weighting", "linear"], "--categories must list"),
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


# --------------------------------------------------------------------------- agree
RUNS = ["r1", "r2", "r3", "r4", "r5"]
TOPICS = ["t1", "t2", "t3"]


def _score_file(tmp_path, name, values, measures, *, skip=()):
    """A fairconv per-topic TSV: values[m][r][t]; cells in ``skip`` are left out."""
    lines = ["run\ttopic\tmeasure\tvalue"]
    for r, run in enumerate(RUNS):
        for t, topic in enumerate(TOPICS):
            for m, measure in enumerate(measures):
                if (run, topic, measure) not in skip:
                    lines.append(f"{run}\t{topic}\t{measure}\t{float(values[m][r][t])!r}")
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _values(seed, n_measures):
    rng = np.random.default_rng(seed)
    return rng.random((n_measures, len(RUNS), len(TOPICS))).round(3)


HEADER = "a\tb\ttau_b\ttau_b_pvalue\ttau_ap\tspearman\tn_systems\tn_topics_a\tn_topics_b"


def _tsv_pairs(text):
    lines = text.strip().split("\n")
    assert lines[0].startswith("# tau_ap: tau_ap-b (Urbano and Marrero") and lines[1][:3] == "# p"
    assert lines[2] == HEADER
    return [line.split("\t") for line in lines[3:]]


def test_agree_every_pair_of_measures(tmp_path, capsys):
    values = _values(1, 3)
    path = _score_file(tmp_path, "s.tsv", values, ["A", "B", "C"])
    assert main(["agree", "-m", "A", "-m", "B", "-m", "C", path]) == 0
    rows = _tsv_pairs(capsys.readouterr().out)
    assert [(r[0], r[1]) for r in rows] == [("A", "B"), ("A", "C"), ("B", "C")]
    means = values.mean(axis=2)
    for row, (a, b) in zip(rows, [(0, 1), (0, 2), (1, 2)], strict=True):
        tau = ag.kendall_tau(means[a], means[b])
        assert float(row[2]) == pytest.approx(tau.statistic)
        assert float(row[3]) == pytest.approx(tau.pvalue, rel=1e-12)
        assert float(row[4]) == pytest.approx(ag.tau_ap(means[a], means[b], variant="b").statistic)
        assert float(row[5]) == pytest.approx(ag.spearman(means[a], means[b]).statistic)
        assert row[6:] == ["5", "3", "3"]


def test_agree_means_over_topics_every_run_has(tmp_path, capsys):
    values = _values(2, 2)
    # r2 has no B on t3: t3 is left out of every run's mean of B, not of A
    path = _score_file(tmp_path, "s.tsv", values, ["A", "B"], skip={("r2", "t3", "B")})
    assert main(["agree", "-m", "A", "-m", "B", "--format", "json", path]) == 0
    pair = json.loads(capsys.readouterr().out)["pairs"][0]
    a = values[0].mean(axis=1)
    b = values[1][:, :2].mean(axis=1)
    assert pair["a"] == "A" and pair["b"] == "B" and pair["n_systems"] == 5
    assert pair["tau_b"] == pytest.approx(ag.kendall_tau(a, b).statistic)
    assert pair["spearman"] == pytest.approx(ag.spearman(a, b).statistic)
    assert pair["tau_ap"] == pytest.approx(ag.tau_ap(a, b, variant="b").statistic)
    assert pair["n_topics"] == [3, 2]


def test_agree_between_two_files_latex_and_plot(tmp_path, capsys):
    # a trec_eval name, kept verbatim from the files: its underscore is escaped
    human = _score_file(tmp_path, "human.tsv", _values(3, 1), ["ndcg_cut_20"])
    llm = _score_file(tmp_path, "llm.tsv", _values(4, 1), ["ndcg_cut_20"])
    fig = tmp_path / "fig.png"
    args = ["agree", "-m", "ndcg_cut_20", "--between", "--format", "latex"]
    assert main([*args, "--plot", str(fig), human, llm]) == 0
    out = capsys.readouterr().out
    assert out.startswith("\\begin{table}") and "ndcg\\_cut\\_20" in out
    assert (
        "\\caption{Agreement of the run rankings: 5 runs ranked by their mean over 3 topics" in out
    )
    a = _values(3, 1)[0].mean(axis=1)
    b = _values(4, 1)[0].mean(axis=1)
    assert f"{ag.kendall_tau(a, b).statistic:.3f}" in out
    assert fig.stat().st_size > 0


def _agree_error(*args):
    proc = _run("agree", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().split("\n")
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_agree_errors(tmp_path):
    values = _values(5, 2)
    path = _score_file(tmp_path, "s.tsv", values, ["A", "B"])
    assert "at least two measures" in _agree_error("-m", "A", path)
    assert "two score files" in _agree_error("-m", "A", "--between", path)
    constant = np.ones_like(values)
    flat = _score_file(tmp_path, "flat.tsv", constant, ["A", "B"])
    proc = _run("agree", "-m", "A", "-m", "B", flat)  # undefined: NaN, with a notice each
    assert proc.returncode == 0 and proc.stdout.strip().split("\n")[-1].split("\t")[2:6] == [
        "NaN", "NaN", "NaN", "NaN"
    ]  # fmt: skip
    assert proc.stderr.count("every run has the same mean (1.0)") == 2


def test_labels_json(tmp_path, capsys):
    f = tmp_path / "l.txt"
    f.write_text("n1 r1 1\nn1 r2 1\nn2 r1 0\nn2 r2 1\nn3 r1 1\nn3 r2 1\n")
    assert main(["labels", "--format", "json", str(f)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n_items"] == 3 and data["accuracy"] == pytest.approx(2 / 3)
    assert main(["labels", "--vote", "--format", "json", str(f)]) == 0
    votes = json.loads(capsys.readouterr().out)["votes"]
    assert [v["label"] for v in votes] == [1, None, 1]  # n2: a tie, no majority


def test_agree_prints_exactly_1_for_the_same_ranking(tmp_path, capsys):
    """docs/agreement.md, Exactness: rho equals spearmanr, 1 for the same ranking."""
    lines = ["run\ttopic\tmeasure\tvalue"]
    for run, (a, b) in {"r1": (0.1, 0.2), "r2": (0.5, 0.6), "r3": (0.3, 0.4)}.items():
        lines += [f"{run}\tt1\tA\t{a}", f"{run}\tt1\tB\t{b}"]
    path = _file(tmp_path, "s.tsv", "\n".join(lines) + "\n")
    assert main(["agree", "-m", "A", "-m", "B", path]) == 0
    row = _tsv_pairs(capsys.readouterr().out)
    assert row == [["A", "B", "1.0", repr(1 / 3), "1.0", "1.0", "3", "1", "1"]]


def test_agree_ranks_a_lower_is_better_measure_lowest_first(tmp_path, capsys):
    """EE-D and nDCG that rank the runs alike: tau +1 (it was -1), by the API and the CLI."""
    good = _values(6, 1)[0]
    path = _score_file(tmp_path, "s.tsv", [good, 1 - good], ["nDCG@10", "EE-D[g]"])
    assert main(["agree", "-m", "nDCG@10", "-m", "EE-D[g]", "--format", "json", path]) == 0
    pair = json.loads(capsys.readouterr().out)["pairs"][0]
    assert (pair["tau_b"], pair["tau_ap"], pair["spearman"]) == (1.0, 1.0, 1.0)
    # another tool's measure is higher-is-better unless the user says otherwise
    other = _score_file(tmp_path, "t.tsv", [good, 1 - good], ["ndcg_cut_10", "loss"])
    assert main(["agree", "-m", "ndcg_cut_10", "-m", "loss", other]) == 0
    assert _tsv_pairs(capsys.readouterr().out)[0][2] == "-1.0"
    args = ["agree", "-m", "ndcg_cut_10", "-m", "loss", "--lower-is-better", "loss"]
    fig = tmp_path / "fig.png"
    assert main([*args, "--plot", str(fig), other]) == 0
    assert _tsv_pairs(capsys.readouterr().out)[0][2] == "1.0"
    assert fig.stat().st_size > 0


def test_agree_between_two_files_ranks_by_direction(tmp_path, capsys):
    good = _values(8, 1)
    a = _score_file(tmp_path, "a.tsv", 1 - good, ["loss"])
    b = _score_file(tmp_path, "b.tsv", 1 - good * 0.9, ["loss"])
    args = ["agree", "-m", "loss", "--between", "--format", "json"]
    assert main([*args, "--lower-is-better", "loss", a, b]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"][0]["tau_b"] == 1.0


def test_agree_refuses_an_undirected_measure_in_one_line(tmp_path):
    path = _score_file(tmp_path, "s.tsv", _values(9, 2), ["nDCG@10", "ARP-LTwo[g]"])
    message = _agree_error("-m", "nDCG@10", "-m", "ARP-LTwo[g]", path)
    assert "'ARP-LTwo[g]', which is undirected" in message
    assert "--lower-is-better names 'x'" in _agree_error(
        "-m", "nDCG@10", "-m", "ARP-LTwo[g]", "--lower-is-better", "x", path
    )


def _trust_run(capsys, *args):
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


def test_undefined_tau_is_nan_with_a_notice(tmp_path, capsys):
    """Every run with the same mean under a measure: tau-b is undefined, not -1."""
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run, (m1, m2) in {
        "A": ([0.1, 0.2, 0.3], [0.1] * 3),
        "B": ([0.3, 0.2, 0.1], [0.3] * 3),
    }.items():
        rows += [f"{run}\tq{i}\tM1\t{v}" for i, v in enumerate(m1)]
        rows += [f"{run}\tq{i}\tM2\t{v}" for i, v in enumerate(m2)]
    f = tmp_path / "two.tsv"
    f.write_text("\n".join(rows) + "\n")
    out, err = _trust_run(capsys, "agree", "-m", "M1", "-m", "M2", f)
    assert _body(out)[1][2:6] == ["NaN", "NaN", "NaN", "NaN"]
    assert err.count("\n") == 1 and "M1: every run has the same mean" in err
    data = json.loads(_trust_run(capsys, "agree", "-m", "M1", "-m", "M2", "--format", "json", f)[0])
    assert data["pairs"][0]["tau_b"] is None and data["pairs"][0]["tau_b_pvalue"] is None


def test_agree_prints_topics_tau_ap_variant_and_an_exact_p(tmp_path, capsys):
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run, v in {"A": 0.1, "B": 0.5, "C": 0.3}.items():
        rows += [f"{run}\tq1\tP\t{v}", f"{run}\tq1\tQ\t{v}"]
    both = tmp_path / "both.tsv"
    both.write_text("\n".join(rows) + "\n")
    out, _ = _trust_run(capsys, "agree", "-m", "P", "-m", "Q", both)
    assert "# tau_ap: tau_ap-b" in out
    header, row = _body(out)
    assert header[-2:] == ["n_topics_a", "n_topics_b"] and row[-2:] == ["1", "1"]
    assert float(row[3]) == pytest.approx(1 / 3, abs=1e-15)  # perfect tau over 3 runs
    latex, _ = _trust_run(capsys, "agree", "-m", "P", "-m", "Q", "--format", "latex", both)
    assert "\\caption{" in latex and "over 1 topics" in latex


def test_overflow_near_the_float_maximum_in_agree(tmp_path):
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run, (a, b) in {"A": (1.7e308, 0.5), "B": (1.6e308, 0.4), "C": (1e308, 0.6)}.items():
        rows += [f"{run}\tq{i}\tM1\t{a!r}" for i in range(3)]
        rows += [f"{run}\tq{i}\tM2\t{b!r}" for i in range(3)]
    f = tmp_path / "big.tsv"
    f.write_text("\n".join(rows) + "\n")
    proc = _cli("agree", "-m", "M1", "-m", "M2", f)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert _body(proc.stdout)[1][2] == repr(ag.kendall_tau([3, 2, 1], [2, 1, 3]).statistic)
