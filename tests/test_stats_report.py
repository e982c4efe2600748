"""stats.report: a paper's results table, its marks exactly those of stats.compare."""

import json
import re
import string
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import FairconvWarning, gfr, stats
from fairconv.datasets import fairweb1_pilot, sakai_book
from fairconv.results import ScoreTable
from fairconv.stats._writers import latex_text, markdown_text

RUNS = ("bm25", "qld", "dense", "splade", "rm3")
MEASURES = ("nDCG@10", "EE-D[g]", "P@10")


def _table(seed=0, n_topics=12, runs=RUNS, measures=MEASURES, directions=None, shift=None):
    """Random per-topic scores; run k gets ``shift[k]`` added (clear differences)."""
    rng = np.random.default_rng(seed)
    v = rng.random((n_topics, len(runs), len(measures)))
    if shift is not None:
        v += np.asarray(shift, dtype=float)[None, :, None]
    return ScoreTable(
        topics=tuple(f"q{i:02d}" for i in range(n_topics)),
        runs=runs,
        measures=measures,
        values=v,
        present=np.ones(v.shape, dtype=bool),
        directions=directions,
    )


SHIFT = [0.6, 0.0, 0.3, 0.5, 0.05]


# --------------------------------------------------------------------------- the oracle
def _oracle(table, measures, baseline=None, **options):
    """Marks and best written plainly from stats.compare's pairs, run by run."""
    runs = list(table.runs)
    bases = [baseline] if isinstance(baseline, str) else baseline
    marks, best = [], []
    for m in measures:
        c = stats.compare(table, m, baseline=bases, **options)
        mean = {s["name"]: s["mean"] for s in c.runs}
        direction = table.directions[m]

        def better(a, b, direction=direction, mean=mean):
            if direction == "higher":
                return mean[a] > mean[b]
            return mean[a] < mean[b]

        significant = {}
        for p in c.pairs:
            significant[(p["a"], p["b"])] = significant[(p["b"], p["a"])] = p["significant"]
        column, top = [], []
        for r in runs:
            text = ""
            if direction != "undirected":
                if bases is None:
                    for k, other in enumerate(runs):
                        if other != r and significant[(r, other)] and better(r, other):
                            text += string.ascii_letters[k]
                else:
                    for k, b in enumerate(bases):
                        if b == r or not significant[(r, b)] or mean[r] == mean[b]:
                            continue
                        text += ("\u25b2" if better(r, b) else "\u25bc") + (
                            string.ascii_letters[k] if len(bases) > 1 else ""
                        )
            column.append(text)
            top.append(
                direction != "undirected"
                and all(not better(other, r) for other in runs if other != r)
            )
        marks.append(column)
        best.append(top)
    return [list(x) for x in zip(*marks, strict=True)], np.array(best).T


CASES = [
    dict(),
    dict(test="tukey"),
    dict(test="paired-t"),
    dict(test="paired-t", correction="holm"),
    dict(test="randomisation", correction="bh", n_resamples=300, seed=4),
    dict(test="bootstrap", correction="bonferroni", n_resamples=300, seed=2),
    dict(baseline="qld", test="paired-t"),
    dict(baseline="qld"),
    dict(baseline=["qld", "rm3"], test="paired-t", correction="holm"),
    dict(baseline=["rm3", "qld"], test="tukey"),
    dict(baseline=["qld", "dense"], test="randomisation", n_resamples=200),
]


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_report_p_values_and_marks_are_those_of_compare(options):
    table = _table(shift=SHIFT)
    r = stats.report(table, MEASURES, **options)
    for m, c in zip(MEASURES, r.comparisons, strict=True):
        options_c = dict(options)
        baseline = options_c.pop("baseline", None)
        expected = stats.compare(table, m, baseline=baseline, **options_c)
        assert json.dumps(c.to_dict()) == json.dumps(expected.to_dict())
    marks, best = _oracle(table, MEASURES, **options)
    assert [list(row) for row in r.marks] == marks
    np.testing.assert_array_equal(r.best, best)
    assert any(any(row) for row in r.marks)  # the case marks something: the test can fail
    # the JSON holds the same unrounded numbers
    data = json.loads(json.dumps(r.to_dict()))
    for i in range(len(MEASURES)):
        assert (
            data["measures"][i]["pairs"]
            == json.loads(json.dumps(r.comparisons[i].to_dict()))["pairs"]
        )
        assert [cell["mean"] for cell in data["measures"][i]["cells"]] == r.means[:, i].tolist()


@pytest.mark.parametrize(
    "test, correction", [("paired-t", "holm"), ("randomisation", "bh"), ("bootstrap", "none")]
)
def test_the_baseline_mode_equals_the_tests_against_each_baseline(test, correction):
    table = _table(seed=5, shift=SHIFT)
    bases = ["qld", "dense"]
    r = stats.report(table, ["nDCG@10"], baseline=bases, test=test, correction=correction,
                     n_resamples=500, seed=9)  # fmt: skip
    x = table.values[:, :, 0]
    one = {"paired-t": stats.paired_t_test, "randomisation": stats.randomisation_test,
           "bootstrap": stats.bootstrap_test}[test]  # fmt: skip
    options = {} if test == "paired-t" else {"n_resamples": 500, "seed": 9}
    pairs = list(r.comparisons[0].pairs)
    expected_pairs = {(run, b) for b in bases for run in RUNS if run != b} - {("qld", "dense")}
    assert {(p["a"], p["b"]) for p in pairs} == expected_pairs
    raw = []
    for p in pairs:
        a, b = sorted((p["a"], p["b"]))  # the trials see the runs in the order of their names
        raw.append(one(x[:, RUNS.index(a)], x[:, RUNS.index(b)], **options).pvalue)
    expected = stats.adjust_pvalues(raw, correction=correction)
    assert [p["pvalue"] for p in pairs] == pytest.approx(expected.tolist(), rel=1e-12)


def test_direction_decides_better_and_the_best():
    # the same scores: as nDCG (higher) and as EE-D (lower is better), run 0 highest
    v = _table(shift=SHIFT, measures=("nDCG@10",)).values
    table = ScoreTable(
        topics=tuple(f"q{i:02d}" for i in range(12)),
        runs=RUNS,
        measures=("nDCG@10", "EE-D[g]"),
        values=np.concatenate([v, v], axis=2),
        present=np.ones((12, 5, 2), dtype=bool),
    )
    r = stats.report(table, ["nDCG@10", "EE-D[g]"], test="paired-t")
    assert r.directions == ("higher", "lower")
    assert r.runs[int(np.argmax(r.best[:, 0]))] == "bm25"  # the highest mean
    assert r.runs[int(np.argmax(r.best[:, 1]))] == "qld"  # the lowest mean is the best
    assert r.means[1, 1] == r.means[:, 1].min() and r.best[:, 1].sum() == 1
    # bm25 is significantly better than qld on nDCG: on EE-D, qld is better than bm25
    assert "b" in r.marks[0][0] and "a" in r.marks[1][1] and "b" not in r.marks[0][1]
    assert "$\\downarrow$" in r.to_latex().split("\\midrule")[0]
    assert "EE-D[g] ↓" in r.to_markdown().split("\n")[0].replace("\\[", "[").replace("\\]", "]")


def test_tied_best_means_are_all_bold():
    v = np.array([[0.5, 0.5, 0.1], [0.1 + 0.2, 0.3, 0.2], [0.7, 0.7, 0.0]])[:, :, None]
    table = ScoreTable(topics=("a", "b", "c"), runs=("x", "y", "z"), measures=("P@5",),
                       values=v, present=np.ones(v.shape, bool))  # fmt: skip
    r = stats.report(table, ["P@5"], test="tukey")
    assert r.best[:, 0].tolist() == [True, True, False]  # 0.1 + 0.2 and 0.3: equal on paper
    latex = r.to_latex()
    assert latex.count("\\textbf{") == 2
    assert r.to_markdown().count("**") == 4


def test_an_undirected_measure_is_tested_but_marks_no_run_better():
    table = _table(shift=SHIFT, directions={"P@10": "undirected"})
    r = stats.report(table, ["P@10", "nDCG@10"], test="paired-t")
    assert r.directions == ("undirected", "higher")
    assert all(row[0] == "" for row in r.marks) and not r.best[:, 0].any()
    assert any(p["significant"] for p in r.comparisons[0].pairs)  # its tests are there
    assert any(row[1] for row in r.marks) and r.best[:, 1].any()
    latex = r.to_latex()
    assert "P@10$^{\\circ}$" in latex and "undirected, no run is better" in latex


def test_a_measure_on_too_few_topics_is_reported_without_a_test():
    p = fairweb1_pilot()
    table = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    with pytest.warns(FairconvWarning, match="'GF-JSD@10\\[M-ORIGIN\\]' on 1: reported without"):
        r = stats.report(table, ["GFR@10", "GF-JSD@10[M-ORIGIN]", "ERR@10"])
    assert r.n_topics == (4, 1, 4) and r.comparisons[1] is None
    assert all(row[1] == "" for row in r.marks)
    on_one = table.values[table.present[:, :, table.measures.index("GF-JSD@10[M-ORIGIN]")].all(
        axis=1), :, table.measures.index("GF-JSD@10[M-ORIGIN]")]  # fmt: skip
    np.testing.assert_array_equal(r.means[:, 1], on_one[0])
    latex = r.to_latex()
    assert "the measure: 4 (GFR@10 and ERR@10), 1 (GF-JSD@10{[}M-ORIGIN{]})." in latex
    assert "Not tested: the measures on fewer than 2 topics" in latex
    assert r.to_dict()["measures"][1]["tested"] is False


@pytest.mark.parametrize(
    "options, error, match",
    [
        (dict(measures="nDCG@10"), TypeError, "'measures' parameter of stats.report"),
        (dict(measures=[]), ValueError, "'measures' parameter .* at least one"),
        (dict(measures=["nDCG@10", "nDCG@10"]), ValueError, "'measures' .* once"),
        (dict(measures=["ndcg@10"]), ValueError, r"'measures' parameter .* \(nDCG@10.*'ndcg@10'"),
        (dict(baseline="BM25"), ValueError, "'baseline' parameter of stats.report"),
        (dict(details="both"), ValueError, "'details' parameter"),
        (dict(details="cells", test="paired-t"), ValueError, "'details' .* paired t-test"),
        (dict(test="tukey", correction="holm"), ValueError, "familywise"),
        (dict(topics=["q99"]), ValueError, "'topics' parameter of stats.report"),
        (dict(alpha=2), ValueError, "'alpha' parameter of stats.report"),
    ],
)
def test_bad_options_are_refused_naming_them(options, error, match):
    measures = options.pop("measures", ["nDCG@10"])
    with pytest.raises(error, match=match):
        stats.report(_table(), measures, **options)


def test_errors_of_a_measure_name_it_and_other_inputs_are_refused():
    v = np.ones((4, 2, 1))
    flat = ScoreTable(topics=("a", "b", "c", "d"), runs=("x", "y"), measures=("m",), values=v,
                      present=np.ones(v.shape, bool))  # fmt: skip
    with pytest.raises(ValueError, match="stats.report: measure 'm': .*x and y"):
        stats.report(flat, ["m"], test="paired-t")
    with pytest.raises(TypeError, match="'table' parameter of stats.report must be a ScoreTable"):
        stats.report(np.ones((3, 3)), ["m"])
    many = _table(runs=tuple(f"r{i}" for i in range(53)), measures=("m",))
    with pytest.raises(ValueError, match="at most 52 runs for the letters of all pairs"):
        stats.report(many, ["m"])
    assert stats.report(many, ["m"], baseline="r0", test="paired-t").letters == ("",) * 53


# --------------------------------------------------------------------------- the outputs
HOSTILE = ["a_b", "50%", "R&D", "#1", "$x$", "{br}", "t~n", "c^2", "back\\slash", "[opt]",
           "a--b", "x''y", "!`q", "<|>"]  # fmt: skip
_UNESCAPE = [
    (r"\textbackslash{}", "\\"), (r"\textasciitilde{}", "~"), (r"\textasciicircum{}", "^"),
    (r"\textless{}", "<"), (r"\textgreater{}", ">"), (r"\textbar{}", "|"), ("{[}", "["),
    ("{]}", "]"), ("{`}", "`"), ("-{}", "-"), ("'{}", "'"), (r"\{", "{"), (r"\}", "}"),
    (r"\$", "$"), (r"\&", "&"), (r"\%", "%"), (r"\#", "#"), (r"\_", "_"),
]  # fmt: skip


def _unescaped(text: str) -> str:
    """LaTeX text back to its characters, one escape at a time from the left."""
    out, i = "", 0
    while i < len(text):
        for escaped, plain_text in _UNESCAPE:
            if text.startswith(escaped, i):
                out += plain_text
                i += len(escaped)
                break
        else:
            assert text[i] not in "\\{}$&%#_~^<>|[]", (text, i)  # nothing raw
            out += text[i]
            i += 1
    return out


@given(st.text(alphabet=st.sampled_from(list("\\{}$&%#_~^<>|[]`'-!?ab 1")), max_size=12))
def test_latex_text_escapes_every_special_character_and_ligature(name):
    escaped = latex_text(name)
    assert _unescaped(escaped) == name
    # no ligature of the text fonts: -- ``  '' !` ?` never appear raw
    for ligature in ("--", "``", "''", "!`", "?`"):
        assert ligature not in escaped.replace("{}", "\0").replace("{`}", "\1")


@given(st.text(alphabet=st.sampled_from(list("\\`*_[]<>|~&$^ab-.")), max_size=12))
def test_markdown_text_escapes_what_means_something(name):
    escaped = markdown_text(name)
    assert re.sub(r"\\(.)", r"\1", escaped) == name
    assert not re.search(r"(?<!\\)[`*_\[\]<>|~&$^]", escaped.replace("\\\\", ""))


def _balanced(latex: str) -> bool:
    """Braces balanced, an escaped character (\\{, \\\\) counting as none."""
    depth, i = 0, 0
    while i < len(latex):
        if latex[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(latex[i], 0)
        if depth < 0:
            return False
        i += 1
    return depth == 0


def _hostile_table():
    runs = tuple(HOSTILE)
    shift = np.where(np.arange(len(runs)) == 0, 0.6, 0.0)
    return _table(seed=1, n_topics=8, runs=runs, measures=("m_1%", "EE-D[g&h]", "x{y}"),
                  shift=shift, directions={"x{y}": "undirected"})  # fmt: skip


@pytest.mark.parametrize(
    "options",
    [
        dict(test="paired-t", details="table"),
        dict(test="tukey", baseline=["[opt]", "$x$"], details="cells"),
    ],  # fmt: skip
)
def test_latex_of_hostile_names_is_a_valid_booktabs_table(options):
    table = _hostile_table()
    r = stats.report(table, list(table.measures), **options)
    latex = r.to_latex()
    assert latex.startswith("\\begin{table}[t]\n\\centering\n\\caption{")
    assert latex.endswith("\\end{table}\n")
    body = latex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    rows = body.strip("\n").split(" \\\\\n")
    rows[-1] = rows[-1].removesuffix(" \\\\")
    assert len(rows) == len(HOSTILE)  # one row per run
    for run, row in zip(HOSTILE, rows, strict=True):
        cells = row.split(" & ")
        assert len(cells) == 2 + 3  # letter, the run's name in a cell of its own, 3 measures
        assert _unescaped(cells[1]) == run
        for cell in cells[2:]:
            # a superscript mark only in an \rlap, else only padding in an \hphantom
            bare = re.sub(r"\\rlap\{\$\^\{[^$]*\}\$\}|\\hphantom\{\$\^\{[^$]*\}\$\}", "", cell)
            assert "^" not in bare.split(" (")[0]
    header = latex.split("\\toprule\n", 1)[1].split(" \\\\\n", 1)[0].split(" & ")
    assert header[0] == "& Run"  # the letters' column has no header
    nested = r"\\begin\{tabular\}\[b\]\{@\{\}r@\{\}\}(.*)\\\\(.*)\\end\{tabular\}"
    shown = [re.sub(nested, r"\1\2", h) for h in header[1:]]  # a set under its measure
    assert "\\begin{tabular}[b]" in header[2]  # EE-D[g&h] on two lines
    assert [_unescaped(h.replace("$\\downarrow$", "").replace("$^{\\circ}$", ""))
            for h in shown] == list(table.measures)  # fmt: skip
    assert _balanced(latex)
    assert "\\toprule" in latex and "\\bottomrule" in latex and "\\hline" not in latex


def test_latex_marks_are_superscripts_and_unmarked_cells_carry_none():
    r = stats.report(sakai_book().table, ["nDCG@5"], test="paired-t")
    rows = r.to_latex().split("\\midrule\n")[1].split("\\bottomrule")[0].splitlines()
    assert rows == [
        "a & X & \\textbf{0.3450}\\rlap{$^{\\mathrm{b}}$}\\hphantom{$^{\\mathrm{b}}$} \\\\",
        "b & Y & 0.2700\\hphantom{$^{\\mathrm{b}}$} \\\\",
        "c & Z & 0.2450\\hphantom{$^{\\mathrm{b}}$} \\\\",
    ]


def test_the_caption_states_what_a_results_section_must():
    r = stats.report(_table(shift=SHIFT), list(MEASURES), n_resamples=2000, seed=3)
    caption = r.to_latex().split("\\caption{", 1)[1].split("}\n\\begin{tabular}", 1)[0]
    stated = ["randomised Tukey HSD", "B = 2,000", "seed 3", "$\\alpha = 0.05$",
              "correction: none", "Means over 12 topics", "significantly better than",
              "letters beside their names", "Bold: the best mean", "lower is better"]  # fmt: skip
    for said in stated:
        assert said in caption, said
    assert "Monte Carlo p = (count + 1)/(B + 1)" in caption
    against = stats.report(_table(shift=SHIFT), ["nDCG@10"], baseline="qld", test="paired-t",
                           correction="holm")  # fmt: skip
    caption = against.to_markdown().strip().splitlines()[-1]
    assert "▲/▼: significantly better/worse than the baseline qld (p < 0.05)" in caption
    assert "correction: holm over the pairs of each measure" in caption
    assert "paired t-test, p from the t distribution" in caption


def test_details_in_the_cells_and_in_a_second_table():
    table = _table(shift=SHIFT)
    r = stats.report(table, ["nDCG@10"], baseline="qld", test="paired-t", details="cells")
    c = r.comparisons[0]
    for p in c.pairs:
        row = r.to_markdown().split(f"| {p['a']} | ", 1)[1].split("\n")[0]
        assert f"({p['effect_size']:.2f} [{p['ci_low']:.4f}, {p['ci_high']:.4f}])" in row
    tukey = stats.report(table, ["nDCG@10"], test="tukey", details="cells")
    first = tukey.comparisons[0].runs
    for s in first:
        assert f"[{s['ci_low']:.4f}, {s['ci_high']:.4f}]" in tukey.to_latex()
    second = stats.report(table, ["nDCG@10", "P@10"], test="paired-t", details="table")
    pairs = second.to_latex().split("\\medskip\n", 1)[1]
    assert pairs.count(" \\\\\n") == 1 + 2 * 10  # the header and every pair of each measure
    assert "Measure & A & B & Difference & CI & $p$ & $d_z$" in pairs
    assert "Second table: every pair tested" in second.to_markdown()


def test_a_notebook_shows_the_report_as_a_paper_would():
    r = stats.report(sakai_book().table, ["nDCG@5"], test="paired-t", details="table")
    page = r._repr_html_()
    assert "<td><b>0.3450</b><sup>b</sup></td>" in page and "<b>Pairs</b>" in page
    assert "0.0478*" in page  # p with 3 significant digits
    frame = r.to_frame()
    assert list(frame.columns) == ["run", "letter", "nDCG@5", "nDCG@5 marks"]
    assert frame["nDCG@5"].tolist() == r.means[:, 0].tolist()
    assert len(repr(r)) <= 500 and repr(r).startswith("Report(")
    json.dumps(r.to_dict(), allow_nan=False)
    hostile = stats.report(_hostile_table(), ["m_1%"], test="paired-t")._repr_html_()
    assert "<td>&lt;|&gt;</td>" in hostile and "<td>{br}</td>" in hostile


def test_the_report_of_tables_from_files_says_which_topics_it_compared(tmp_path):
    from fairconv.io import read_scores

    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    t = _table(shift=SHIFT, measures=("P@10",))
    rows = ["run\ttopic\tmeasure\tvalue"]
    for ti, topic in enumerate(t.topics):
        for ri, run in enumerate(t.runs):
            if not (run == "qld" and ti >= 10):  # qld lacks two topics
                rows.append(f"{run}\t{topic}\tP@10\t{float(t.values[ti, ri, 0])!r}")
    a.write_text("\n".join(rows[: 1 + 5 * 6]) + "\n")
    b.write_text("\n".join(rows[:1] + rows[1 + 5 * 6 :]) + "\n")
    with pytest.warns(FairconvWarning, match="some runs lack a value"):
        table = read_scores([a, b])
    r = stats.report(table, ["P@10"], test="paired-t")
    assert r.n_topics == (10,)
    assert "Means over 10 topics" in r.to_latex()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same = stats.report(t, ["P@10"], test="paired-t", topics=list(t.topics[:10]))
    assert [list(x) for x in same.marks] == [list(x) for x in r.marks]
    np.testing.assert_array_equal(same.means, r.means)


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_runs=st.integers(2, 6),
    n_topics=st.integers(3, 8),
    test=st.sampled_from(["paired-t", "tukey"]),
    directions=st.lists(
        st.sampled_from(["higher", "lower", "undirected"]), min_size=2, max_size=2
    ),  # fmt: skip
    n_baselines=st.integers(0, 2),
)
def test_the_marks_and_the_best_are_the_oracle_s_on_any_table(
    seed, n_runs, n_topics, test, directions, n_baselines
):
    rng = np.random.default_rng(seed)
    runs = tuple(f"r{i}" for i in range(n_runs))
    # scores on a grid of tenths with shifts: ties, exact equal means and clear differences
    v = rng.integers(0, 10, (n_topics, n_runs, 2)) / 10 + rng.integers(0, 3, (1, n_runs, 1)) / 2
    table = ScoreTable(topics=tuple(f"q{i}" for i in range(n_topics)), runs=runs,
                       measures=("A", "B"), values=v, present=np.ones(v.shape, bool),
                       directions=dict(zip(("A", "B"), directions, strict=True)))  # fmt: skip
    baseline = list(rng.permutation(runs)[: min(n_baselines, n_runs)]) or None
    try:
        r = stats.report(table, ["A", "B"], test=test, baseline=baseline)
    except ValueError as exc:  # a test undefined on these scores (s_d or V_E of 0)
        assert "measure 'A'" in str(exc) or "measure 'B'" in str(exc)
        return
    marks, best = _oracle(table, ["A", "B"], baseline=baseline, test=test)
    assert [list(row) for row in r.marks] == marks
    np.testing.assert_array_equal(r.best, best)
    # the bold of the LaTeX is the best, cell by cell
    body = r.to_latex().split("\\midrule\n")[1].split("\\bottomrule")[0].splitlines()
    for k, row in enumerate(body):
        cells = row.removesuffix(" \\\\").split(" & ")[-2:]
        assert ["\\textbf{" in cell for cell in cells] == best[k].tolist()
