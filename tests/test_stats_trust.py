"""Defect classes of the statistics and agreement: one test per class, API and CLI.

Each test is named after its class (ties made by rounding, too few topics, scaling at the
edge of float64, order of inputs, ...), not after the example that found it.
"""

import json
import math
import subprocess
import sys
import tracemalloc
import warnings

import numpy as np
import pytest

from fairconv import agreement as ag
from fairconv import stats
from fairconv.cli import main
from fairconv.datasets import sakai_book
from fairconv.results import ScoreTable
from fairconv.stats import _compare

BOOK = sakai_book()


def _scores_file(path, runs: dict, measure="P", topics=None):
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
    out, err = _run(capsys, "agree", "-m", "M1", "-m", "M2", f)
    assert _body(out)[1][2:6] == ["NaN", "NaN", "NaN", "NaN"]
    assert err.count("\n") == 1 and "M1: every run has the same mean" in err
    data = json.loads(_run(capsys, "agree", "-m", "M1", "-m", "M2", "--format", "json", f)[0])
    assert data["pairs"][0]["tau_b"] is None and data["pairs"][0]["tau_b_pvalue"] is None


def test_agree_prints_topics_tau_ap_variant_and_an_exact_p(tmp_path, capsys):
    rows = ["run\ttopic\tmeasure\tvalue"]
    for run, v in {"A": 0.1, "B": 0.5, "C": 0.3}.items():
        rows += [f"{run}\tq1\tP\t{v}", f"{run}\tq1\tQ\t{v}"]
    both = tmp_path / "both.tsv"
    both.write_text("\n".join(rows) + "\n")
    out, _ = _run(capsys, "agree", "-m", "P", "-m", "Q", both)
    assert "# tau_ap: tau_ap-b" in out
    header, row = _body(out)
    assert header[-2:] == ["n_topics_a", "n_topics_b"] and row[-2:] == ["1", "1"]
    assert float(row[3]) == pytest.approx(1 / 3, abs=1e-15)  # perfect tau over 3 runs
    latex, _ = _run(capsys, "agree", "-m", "P", "-m", "Q", "--format", "latex", both)
    assert "\\caption{" in latex and "over 1 topics" in latex


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
    f = _scores_file(tmp_path / "s.tsv", {"A": x, "B": y})
    for command in ("compare", "discpower"):
        proc = _cli(command, "-m", "P", "--test", "bootstrap", f)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1
        assert "at least 4 topics" in proc.stderr and proc.stdout == ""
    # 4 topics: defined, never p = 0
    r = stats.bootstrap_test([0.5, 0.1, 0.7, 0.3], [0.2, 0.4, 0.1, 0.2], n_resamples=99)
    assert 1 / 100 <= r.pvalue <= 1


def test_monte_carlo_p_is_never_0_and_exact_p_stays_count_over_n():
    x = np.arange(30.0)
    r = stats.randomisation_test(x + 1, x * 0, n_resamples=999)  # every d > 0: no trial ties
    assert not r.exact and r.pvalue == 1 / 1000
    e = stats.randomisation_test([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], n_resamples=8)
    assert e.exact and e.pvalue == 2 / 8
    c = stats.compare(np.c_[x + 1, x * 0, x * 0 + 0.5], "P", test="randomisation", n_resamples=99)
    assert min(p["pvalue"] for p in c.pairs) == 1 / 100


def test_seed_defaults_to_0(tmp_path, capsys):
    x = BOOK.scores
    a = stats.compare(x, "P", n_resamples=500)
    b = stats.compare(x, "P", n_resamples=500, seed=0)
    assert a.pairs == b.pairs and a.seed == 0
    assert stats.bootstrap_test(x[:, 0], x[:, 1]) == stats.bootstrap_test(x[:, 0], x[:, 1], seed=0)
    f = _scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate("XYZ")})
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
    f = _scores_file(tmp_path / "s.tsv", {n: big[:, i].tolist() for i, n in enumerate("XYZW")})
    out, _ = _run(capsys, "discpower", "-m", "P", "--test", "paired-t", f)
    row = next(r for r in _body(out) if r[2:4] == ["X", "Y"])
    assert float(row[4]) == pytest.approx(alone, rel=1e-12)


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


def test_tiny_alpha_names_alpha_or_works():
    for alpha in (1e-20, 1e-300):
        for test in ("paired-t", "tukey"):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    c = stats.compare(BOOK.table, "nDCG@5", test=test, alpha=alpha)
                except ValueError as exc:
                    assert "'alpha'" in str(exc) and "brentq" not in str(exc)
                    continue
            assert all(math.isfinite(p["ci_low"]) and p["ci_low"] < p["difference"]
                       for p in c.pairs)  # fmt: skip
    t = stats.paired_t_test(BOOK.scores[:, 0], BOOK.scores[:, 1], alpha=1e-300)
    assert math.isfinite(t.ci_low) and t.ci_low < t.mean_difference < t.ci_high


def test_rbo_with_a_subnormal_persistence():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ag.rbo(["a", "b", "c"], ["a", "c", "d"], p=1e-310)
    assert all(math.isfinite(v) for v in (r.min, r.res, r.ext))
    assert r.ext == pytest.approx(1.0) and r.min == pytest.approx(1.0)


# --------------------------------------------------------------------------- order of inputs
def test_same_seed_same_p_whatever_the_order_of_files_runs_and_topics(tmp_path, capsys):
    rng = np.random.default_rng(5)
    x = rng.random((6, 4))
    names = ["r1", "r2", "r3", "r4"]
    files = [
        _scores_file(tmp_path / f"{n}.tsv", {n: x[:, i].tolist()}) for i, n in enumerate(names)
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
    f = _scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate(names)})
    cmp = json.loads(_run(capsys, "compare", "-m", "P", "--test", test, "--B", "400",
                          "--format", "json", f)[0])  # fmt: skip
    disc = json.loads(_run(capsys, "discpower", "-m", "P", "--test", test, "--B", "400",
                           "--format", "json", f)[0])["P"]  # fmt: skip
    asl = {frozenset((p["a"], p["b"])): p["asl"] for p in disc["pairs"]}
    assert all(p["pvalue"] == asl[frozenset((p["a"], p["b"]))] for p in cmp["pairs"])


def test_categories_order_numeric_labels_for_every_statistic(tmp_path, capsys):
    rng = np.random.default_rng(1)
    labels = rng.integers(1, 5, (30, 2))
    f = tmp_path / "l.tsv"
    f.write_text("".join(f"i{i}\tr{r}\t{labels[i, r]}\n" for i in range(30) for r in range(2)))
    order = [4.0, 1.0, 3.0, 2.0]
    out, _ = _run(capsys, "labels", "--level", "ordinal", "--weighting", "linear",
                  "--categories", "4,1,3,2", f)  # fmt: skip
    got = dict(line.split("\t") for line in out.splitlines()[1:])
    a, b = labels[:, 0].astype(float), labels[:, 1].astype(float)
    kappa = ag.cohen_kappa(a, b, weighting="linear", categories=order).statistic
    alpha = ag.krippendorff_alpha(labels.astype(float), level="ordinal", categories=order)
    assert float(got["cohen_kappa[linear]"]) == kappa
    assert float(got["krippendorff_alpha[ordinal]"]) == alpha.statistic
    by_value = ag.krippendorff_alpha(labels.astype(float), level="ordinal").statistic
    assert alpha.statistic != by_value  # the order given is the order used


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


def test_run_names_of_mixed_types_are_refused():
    with pytest.raises(
        TypeError, match=r"'runs' parameter of stats.compare must hold run names as str"
    ):
        stats.compare(BOOK.scores[:, :2], "P", runs=[1, "1"])
    with pytest.raises(ValueError, match="name each run once. Got 'X' at positions 0 and 1"):
        stats.compare(BOOK.scores[:, :2], "P", runs=["X", "X"])
    with pytest.raises(TypeError, match="'runs' parameter of stats.discriminative_power"):
        stats.discriminative_power(BOOK.scores, runs=["X", 2, "Z"])


def test_compare_takes_one_measure(tmp_path):
    f = _scores_file(tmp_path / "s.tsv", {"A": [0.1, 0.5, 0.3], "B": [0.2, 0.4, 0.1]})
    proc = _cli("compare", "-m", "P", "-m", "Q", f)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert "compare takes one measure; got -m P -m Q" in proc.stderr


# --------------------------------------------------------------------------- reports
@pytest.mark.parametrize("test", stats.TESTS)
def test_every_report_says_how_its_numbers_were_made(tmp_path, capsys, test):
    x = BOOK.scores
    f = _scores_file(tmp_path / "s.tsv", {n: x[:, i].tolist() for i, n in enumerate("XYZ")})
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


def test_records_have_short_reprs_html_and_frames_by_run_name():
    x = np.random.default_rng(0).random((6, 30))
    names = [f"run-{i:02d}" for i in range(30)]
    records = [
        stats.compare(x, "P", test="tukey", runs=names),
        stats.tukey_hsd(x, runs=names),
        stats.randomised_tukey_hsd(x, n_resamples=50, runs=names),
        stats.anova2(x, runs=names),
        stats.discriminative_power(x, test="paired-t", runs=names),
        stats.paired_t_test(x[:, 0], x[:, 1]),
        stats.randomisation_test(x[:, 0], x[:, 1]),
        stats.bootstrap_test(x[:, 0], x[:, 1]),
        ag.kendall_tau(x[0], x[1]),
        ag.correlation_matrix(x[:3], method="tau_b", measures=["A", "B", "C"]),
        ag.rbo(["a", "b"], ["b", "c"]),
        ag.cohen_kappa([1, 2, 1, 2], [1, 2, 2, 2]),
        ag.majority_vote([[1, 1], [2, 1], [2, 2]]),
    ]
    for r in records:
        assert len(repr(r)) <= 500 and repr(r).startswith(type(r).__name__)
        page = r._repr_html_()
        assert page.startswith("<div>") and page.count("<tr>") <= 2 * 21
        frame = r.to_frame()
        assert len(frame) >= 1
        json.dumps(r.to_dict(), allow_nan=False)
    comparison = records[0]._repr_html_()
    assert (
        records[0].runs[0]["name"] in comparison
        and "<th>a</th>" in comparison
        and "more rows" in comparison
    )
    assert set(records[1].to_frame()["a"]) <= set(names)
    assert records[4].to_frame()["a"].iloc[0] in names


# --------------------------------------------------------------------------- memory
def test_memory_of_paired_tests_over_all_pairs_follows_the_pairs_not_topics_x_runs2():
    """600 runs x 50 topics: 179,700 pairs. Blocks of pairs, not a (50, 179700) array."""
    x = np.random.default_rng(3).random((50, 600))
    names = tuple(f"r{i}" for i in range(600))
    tracemalloc.start()
    try:
        _compare._pairwise(x, "paired-t", 0, np.random.default_rng(0), 0.05, names)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    full = 50 * 179_700 * 8  # one (topics, pairs) float64 array: 72 MB
    assert peak < full, f"peak {peak / 2**20:.0f} MB"
    small = np.random.default_rng(3).random((50, 120))  # 7,140 pairs: two blocks
    tracemalloc.start()
    try:
        _compare._pairwise(small, "bootstrap", 3, np.random.default_rng(0), 0.05)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.0f} MB"


def test_a_string_of_measures_is_not_split_into_characters(tmp_path):
    f = _scores_file(tmp_path / "s.tsv", {"A": [0.1, 0.5], "B": [0.2, 0.4]}, measure="MN")
    from fairconv.io import read_scores

    with pytest.raises(TypeError, match=r"'measures' parameter of io.read_scores .* \['MN'\]"):
        read_scores([f], measures="MN")
    assert read_scores([f], measures=["MN"]).measures == ("MN",)
