"""Every example script runs, checks its own numbers, and prints the reference values.

Each script stops with exit status 1 when one of its printed values is not the
published one. Here its standard output is read back and the key numbers are compared
with the references of ``tests/reference`` (papers' tables, the organisers' and the
official tools' output) or with the plain-loop oracles of ``tests/oracles.py``.
"""

import ast
import csv
import json
import math
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path
from statistics import mean

import numpy as np
import pytest
from scipy import stats

import oracles
from fairconv.datasets import fairweb1_pilot, path

HERE = Path(__file__).resolve().parent
EXAMPLES = sorted((HERE.parent / "examples").glob("*.py"))
REFERENCE = HERE / "reference"


def _run(script, cwd, source=None):
    """Run a script (or ``source`` under the script's name) in a clean environment."""
    if source is not None:
        copy = Path(cwd) / script.name
        copy.write_text(source, encoding="utf-8")
        script = copy
    env = {"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"}
    if "PYTHONPATH" in os.environ:  # the code under test, when it is not installed
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=cwd, env=env
    )


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Standard output of every example, run once each."""
    out = {}
    for script in EXAMPLES:
        proc = _run(script, tmp_path_factory.mktemp(script.stem))
        assert proc.returncode == 0, (script.name, proc.stderr)
        out[script.name] = proc.stdout
    return out


def _csv(name):
    with open(REFERENCE / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _globals_of(script, tmp_path, monkeypatch):
    """The module globals of a run of the script (its data, for the oracles)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(script)])
    try:
        return runpy.run_path(str(script))
    finally:
        if "matplotlib.pyplot" in sys.modules:  # the figures it made, if any
            sys.modules["matplotlib.pyplot"].close("all")


def _nev(pilot):
    """The organisers' GFRnev values: {(run, topic): {measure: printed value}} per set."""
    values = {}
    for run in pilot.runs:
        for data in pilot.attributes:
            a = data.attribute
            nev = pilot.expected / f"{Path(run.source).name}.{a.name}.GFRnev"
            for line in nev.read_text().splitlines():
                topic, measure, value = line.replace("=", " ").split()[:3]
                if (
                    measure == "#"
                    or measure.startswith("GF-")
                    and not measure.startswith(f"GF-{a.divergence}")
                ):
                    continue  # a comment, or a divergence that is not the set's own
                depth = re.sub(r"@0*(\d+)", r"@\1", measure)
                base = depth if measure.startswith(("ERR", "iRBU")) else f"{depth}[{a.name}]"
                values.setdefault((run.name, topic), {})[base] = value
    return values


# --------------------------------------------------------------------------- checks
def check_agreement_example(out, script, tmp_path, monkeypatch):
    """Rank correlations against scipy; accuracy and kappas from their formulas."""
    g = _globals_of(script, tmp_path, monkeypatch)
    means, measures = g["means"], g["measures"]
    rows = re.findall(r"^(\S+)\s+(\S+)\s+(-?\d\.\d{3})\s+(-?\d\.\d{3})\s+(-?\d\.\d{3})$", out, re.M)
    assert len(rows) == 3
    for a_name, b_name, tau_b, _, rho in rows:
        a, b = measures.index(a_name), measures.index(b_name)
        assert tau_b == f"{stats.kendalltau(means[a], means[b]).statistic:.3f}", (a_name, b_name)
        assert rho == f"{stats.spearmanr(means[a], means[b]).statistic:.3f}", (a_name, b_name)
    labels, vote, matcher = g["annotators"], g["vote"].labels, g["matcher"]
    # Fleiss 1971, Eqs. 1-5 with n = 3 raters; Cohen's kappa from the 2 x 2 table
    n_ij = np.array([[np.sum(row == j) for j in (0, 1)] for row in labels])
    p_bar = np.mean([(sum(x * x for x in r) - 3) / 6 for r in n_ij])
    p_e = sum((n_ij[:, j].sum() / n_ij.sum()) ** 2 for j in (0, 1))
    agree = np.mean(vote == matcher)
    chance = sum(np.mean(vote == j) * np.mean(matcher == j) for j in (0, 1))
    printed = dict(re.findall(r"^(Fleiss' kappa|Accuracy|Cohen's kappa).*:\s+(\S+)$", out, re.M))
    assert float(printed["Fleiss' kappa"]) == round((p_bar - p_e) / (1 - p_e), 3)
    assert float(printed["Accuracy"]) == round(agree, 3)
    assert float(printed["Cohen's kappa"]) == round((agree - chance) / (1 - chance), 3)


def check_compare_systems(out, script, tmp_path, monkeypatch):
    """Sakai 2015, Table 5.1 example (and the exact p and two-way Tukey of statistics.md)."""
    book = {r["quantity"]: r["expected"] for r in _csv("sakai_book.csv")}
    t = re.search(r"t\(19\) = (\S+), p = (\S+), effect size (\S+), 95% CI \[(\S+), (\S+)\]", out)
    assert t.groups() == (
        book["t_statistic"],
        book["t_pvalue"],
        book["t_effect_size"],
        f"{float(book['t_mean_difference']) - float(book['t_margin']):.4f}",
        f"{float(book['t_mean_difference']) + float(book['t_margin']):.4f}",
    )
    assert (
        re.search(r"randomisation test, X vs Y: p = (\S+) \(exact: True\)", out)[1]
        == book["randomisation_p_xy"]
    )
    assert re.search(r"F\(2, 38\) = (\S+), p = (\S+)$", out, re.M).groups() == (
        book["f_systems"],
        book["p_systems"],
    )
    pairs = re.findall(
        r"^  (\w) - (\w): (\S+), p = \S+ \(two-way Tukey (\S+)\), ES_E = (\S+)$", out, re.M
    )
    assert [(a + b, es) for a, b, _, _, es in pairs] == [
        (p, book[f"es_{p.lower()}"]) for p in ("XY", "XZ", "YZ")
    ]
    assert pairs[0][2] == f"+{book['t_mean_difference']}"
    assert pairs[0][3] == book["tukey_p_xy"]


def check_divergences_example(out, script, tmp_path, monkeypatch):
    """The FairWeb-2 slides' D1 and D2, and DistrSim[HINDEX] of the GFRC2 paper's Table 1."""
    printed = {
        (name, d): value
        for name, d1, d2 in re.findall(r"^(\w+)\s+D1 (\S+)  D2 (\S+)$", out, re.M)
        for d, value in (("D1", d1), ("D2", d2))
    }
    slides = [r for r in _csv("divergences.csv") if r["paper"] == "004 FairWeb-2 slides"]
    assert len(slides) == len(printed) == 6
    for r in slides:
        name, _, d = r["table"].split()
        assert printed[name, d] == r["expected"], r
    (row,) = [r for r in _csv("divergences.csv") if r["table"] == "Table 1 row wc=33 HINDEX"]
    assert re.search(r"DistrSim of \(0,0,0,1\) for HINDEX: (\S+)$", out, re.M)[1] == row["expected"]


def check_gfr_pilot(out, script, tmp_path, monkeypatch):
    """The NTCIR-17 FairWeb-1 organisers' GFRnev files (four decimals)."""
    pilot = fairweb1_pilot()
    nev = _nev(pilot)

    def gf10(run, topic):
        values = nev[run, topic]
        gfs = [float(v) for k, v in values.items() if re.match(r"GF-\w+@10\[", k)]
        return (float(values["ERR@10"]) + sum(gfs)) / (1 + len(gfs)), len(gfs)

    topics = ("P001", "P002", "P003", "P004")
    per_topic = dict(re.findall(r"^Anserini-bm25\t(P00\d)\tGFR@10\t(\S+)$", out, re.M))
    assert sorted(per_topic) == list(topics)
    for topic, value in per_topic.items():
        assert abs(float(value) - gf10("Anserini-bm25", topic)[0]) <= 0.5e-4, topic
    means = re.findall(r"^(Anserini-\w+)\s+(\d\.\d{4})\s+(\d\.\d{4})$", out, re.M)
    assert [m[0] for m in means] == [r.name for r in pilot.runs]
    for run, err, gfr in means:
        want_err = mean(float(nev[run, t]["ERR@10"]) for t in topics)
        assert abs(float(err) - want_err) <= 1e-4, run
        assert abs(float(gfr) - mean(gf10(run, t)[0] for t in topics)) <= 1e-4, run
    count = sum(1 + gf10(run.name, t)[1] for run in pilot.runs for t in topics)
    assert f"\n{count} ERR@10 and GF@10 values agree with the organisers' files" in out


def check_gfrc2_figure(out, script, tmp_path, monkeypatch):
    """The GFRC2 paper, Tables 1 and 2 (topic R112), to the six decimals printed there."""
    lines = [line.split("\t") for line in out.splitlines() if "\tR112\t" in line]
    head = out.splitlines()[0].split("\t")
    rows = [dict(zip(head, line, strict=True)) for line in lines]
    published = _csv("gfrc2_clusters.csv")
    assert len(rows) == len(published) == 11
    for got, want in zip(rows, published, strict=True):
        assert got["run"] == want["run"]
        for name in ("wc", "GWCrel", "WCnonrel"):
            assert float(got[name]) == int(want[name]), (want, name)
        pairs = [("GNP", "GNP"), ("DistrSim[PRONOUN]", "PRONOUN")]
        pairs += [("DistrSim[HINDEX]", "HINDEX"), ("Experience", "Experience")]
        for name, column in pairs:
            assert f"{float(got[name]):.6f}" == want[column], (want, name)


def check_gfrc_conversation(out, script, tmp_path, monkeypatch):
    """GFRC and GFRC2 of the plain-loop oracles on the example's nuggets."""
    g = _globals_of(script, tmp_path, monkeypatch)
    spans = ast.literal_eval(re.search(r"^nugget spans: (.*)$", out, re.M)[1])
    # words counted in the text: "S:Sure!" (word 25) opens the second system turn
    assert spans == [(13, 15), (16, 18), (20, 22), (26, 28), (29, 31)]
    nuggets = [
        {"start": n.start, "end": n.end, "level": n.level, "entity": n.entity,
         "groups": {k: list(v) for k, v in n.memberships.items()}, "turn": 1 if n.start < 25 else 2}
        for n in g["conversation"].nuggets
    ]  # fmt: skip
    sets = [("PRONOUN", [1 / 3] * 3, "JSD"), ("HINDEX", [0.25] * 4, "RNOD")]
    printed = {
        label: ast.literal_eval(values)
        for label, values in re.findall(r"^(fairweb2|gfrc2-paper|gfrc2) (\{.*\})$", out, re.M)
    }
    for preset, variant in (("fairweb2", "eq7"), ("gfrc2-paper", "eq6")):
        r, gf, total, score = oracles.gfrc(
            nuggets, 2, sets, L=1000, variant=variant, gain="exp", lmax=2,
            method="independent", empty="ignore",
        )  # fmt: skip
        want = {"R": r, **{f"GF[{k}]": v for k, v in gf.items()}, "GF": total, "GFRC": score}
        assert printed[preset] == {k: round(v, 6) for k, v in want.items()}, preset
    _, (egnp, egf, total) = oracles.gfrc2(nuggets, sets, L=1000)
    want = {"EGNP": egnp, **{f"EGF[{k}]": v for k, v in egf.items()}, "GFRC2": total}
    assert printed["gfrc2"] == {k: round(v, 6) for k, v in want.items()}


def check_nuggets_example(out, script, tmp_path, monkeypatch):
    """nuggetizer's own metrics and CONE-RAG's scripts' values (tests/reference/nuggets)."""
    data, ref = path("rag"), REFERENCE / "nuggets"
    # the bundled files are those the reference values were computed on
    pipeline = ref / "nuggetizer-pipeline"
    same = [(data / "nuggetizer-assign.jsonl", pipeline / "assign_answers.jsonl")]
    cone, basic = data / "cone-rag", ref / "cone-rag" / "basic"
    same += [(cone / n, basic / n) for n in ("gold.json", "response_nuggets.json")]
    same += [(cone / "nuggets_results.json", basic / "official" / "NtN" / "nuggets_results.json")]
    same += [(cone / f, basic / "official" / "NtR" / f) for f in ("coverage_runA.jsonl",
                                                               "coverage_runB.jsonl")]  # fmt: skip
    for bundled, reference in same:
        assert bundled.read_bytes() == reference.read_bytes(), bundled.name
    metrics = {
        r["qid"]: {k.replace("_", "-"): v for k, v in r.items() if k != "qid"}
        for r in map(json.loads, (pipeline / "metrics_answers.jsonl").read_text().splitlines())
    }
    printed = dict(re.findall(r"^nuggetizer (q\d) (\{.*\})$", out, re.M))
    printed["all"] = re.search(r"^nuggetizer mean: (\{.*\})$", out, re.M)[1]
    assert sorted(printed) == sorted(metrics)
    for qid, values in printed.items():
        assert ast.literal_eval(values) == {k: round(v, 4) for k, v in metrics[qid].items()}
    means = json.loads((basic / "expected.json").read_text())["fairconv_view"]["means"]
    runs = dict(re.findall(r"^CONE-RAG (\w+) (\{.*\})$", out, re.M))
    assert sorted(runs) == sorted(means)
    for run, values in runs.items():
        want = {k.replace("_", "-"): round(v, 4) for k, v in means[run].items()}
        assert ast.literal_eval(values) == want, run
    turn = ast.literal_eval(re.search(r"^match labels, turn T1_1: (\{.*\})$", out, re.M)[1])
    record = json.loads(path("rag", "ikat-labels.jsonl").read_text().splitlines()[0])
    gold, extracted = record["gold"], record["extracted"]
    assert turn == {
        "Recall-NtN": len({g for _, g in record["ntn"]}) / len(gold),
        "Precision-NtN": len({e for e, _ in record["ntn"]}) / len(extracted),
        "Recall-NtR": len(record["ntr"]) / len(gold),
    }


def check_rag_fairness(out, script, tmp_path, monkeypatch):
    """GF-Re, GF-Gen, RIGF and ADsim of the plain-loop oracle; coverage from the labels."""
    pilot_dir, topic = path("fairweb1-pilot"), "P002"
    levels = {}
    for line in (pilot_dir / "fairweb1pilot.qrels").read_text().splitlines():
        t, doc, level = line.split()
        if t == topic:
            levels[doc] = int(level[1:])
    answers = {}
    for line in path("rag", "pilot-answers.jsonl").read_text().splitlines():
        record = json.loads(line)
        answers[record["run"]] = record["entities"]
    printed = {
        run: ast.literal_eval(values.replace("nan", "None"))
        for run, values in re.findall(r"^(Anserini-\w+) (\{.*\})$", out, re.M)
    }
    pilot = fairweb1_pilot()
    assert sorted(printed) == sorted(r.name for r in pilot.runs)
    for run in pilot.runs:
        ranked = [
            line.split()[2]
            for line in Path(run.source).read_text().splitlines()
            if line.split()[0] == topic
        ]
        overall = {}
        for name, divergence in (("M-RATINGS", "RNOD"), ("M-ORIGIN", "JSD")):
            memberships = {}
            for line in (pilot_dir / f"fairweb1pilot.{name}.gmemb").read_text().splitlines():
                t, doc, *vector = line.split()
                if t == topic:
                    memberships[doc] = [float(x) for x in vector]
            target = [float(x) for x in (pilot_dir / f"{name}.golddistr").read_text().split()]
            answer = [(e.get("level", 0), e.get("groups", {}).get(name)) for e in answers[run.name]]
            for cutoff, depth in ((None, ""), (10, "@10")):
                gf_re, gf_gen, rigf, adsim = oracles.ragfair_topic(
                    ranked, levels, memberships, target, divergence, answer, cutoff=cutoff
                )
                got = printed[run.name]
                assert got[f"GF-Re{depth}[{name}]"] == round(gf_re, 4)
                assert got[f"GF-Gen[{name}]"] == round(gf_gen, 4)
                assert got[f"RIGF{depth}[{name}]"] == round(rigf, 4)
                assert got[f"ADsim{depth}[{name}]"] == (None if adsim is None else round(adsim, 4))
                overall.setdefault(depth, []).append((gf_re, gf_gen))
        for depth, values in overall.items():  # equal weights over the two sets
            gf_re, gf_gen = (mean(v) for v in zip(*values, strict=True))
            assert printed[run.name][f"GF-Re{depth}"] == round(gf_re, 4)
            assert printed[run.name]["GF-Gen"] == round(gf_gen, 4)
            assert printed[run.name][f"RIGF{depth}"] == round((gf_gen - gf_re) / gf_re * 100, 4)
    coverage = ast.literal_eval(re.search(r"^nugget coverage .*: (\{.*\})$", out, re.M)[1])
    records = [
        json.loads(line) for line in path("rag", "ikat-labels.jsonl").read_text().splitlines()
    ]
    per_turn = {"Recall-NtN": [], "Precision-NtN": [], "Recall-NtR": []}
    for r in records:
        per_turn["Recall-NtN"].append(len({g for _, g in r["ntn"]}) / len(r["gold"]))
        if r["extracted"]:  # 0/0 is left out of the mean
            per_turn["Precision-NtN"].append(len({e for e, _ in r["ntn"]}) / len(r["extracted"]))
        per_turn["Recall-NtR"].append(len(r["ntr"]) / len(r["gold"]))
    assert coverage == {k: round(mean(v), 4) for k, v in per_turn.items()}


def check_trecfair_example(out, script, tmp_path, monkeypatch):
    """The means over topics of the track's own code's values (tests/reference/trecfair)."""
    official = json.loads((REFERENCE / "trecfair" / "official" / "bundled-2022.json").read_text())
    rows = re.findall(r"^(t[12]-\S+)\tall\t([^\t\[]+)\[[^\]]*\]\t(\S+)$", out, re.M)
    rows += re.findall(r"^(t1-\S+)\tall\t(nDCG)\t(\S+)$", out, re.M)
    assert len(rows) == 9  # nDCG, AWRF, nDCG*AWRF of two runs; EE-L, EE-D, EE-R of one
    for run, measure, value in rows:
        want = mean(topic[measure] for topic in official["runs"][run].values())
        assert math.isclose(float(value), want, rel_tol=1e-6), (run, measure, value, want)


CHECKS = {f.__name__[len("check_") :] + ".py": f for f in list(globals().values())
          if callable(f) and getattr(f, "__name__", "").startswith("check_")}  # fmt: skip


def test_every_example_has_its_check():
    assert sorted(CHECKS) == sorted(p.name for p in EXAMPLES)


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_prints_the_reference_values(script, outputs, tmp_path, monkeypatch):
    CHECKS[script.name](outputs[script.name], script, tmp_path, monkeypatch)


# a published value of each example, and a wrong one: the example must stop on it
BROKEN = {
    "agreement_example.py": ("(1 - chance))", "(1 - chance) + 0.01)", "Cohen's kappa"),
    "compare_systems.py": ('"2.116", 3)', '"2.117", 3)', "t statistic"),
    "divergences_example.py": ('"NMD": ["0.2000"', '"NMD": ["0.2001"', "NMD of D1 and D2"),
    "gfr_pilot.py": ('organisers[run.name, topic]["ERR@10"] = value',
                     'organisers[run.name, topic]["ERR@10"] = value + "1"', "ERR@10 of"),
    "gfrc2_figure.py": ('(45, 18, 36, "0.333333"', '(45, 18, 36, "0.333334"', "cluster 9"),
    "gfrc_conversation.py": ("e / 1000) for e in ends) / 500.5", "e / 1000) for e in ends) / 500.6",
                             "R, fairweb2"),
    "nuggets_example.py": ('"all-score": 0.5,', '"all-score": 0.51,', "mean all-score"),
    "rag_fairness.py": ("(3 / 3 + 0 / 2) / 2", "(3 / 3 + 1 / 2) / 2", "mean Precision-NtN"),
    "trecfair_example.py": ('"0.422719"', '"0.422718"', "EE-L"),
}  # fmt: skip


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_an_example_stops_on_a_wrong_reference_value(script, tmp_path):
    good, bad, message = BROKEN[script.name]
    source = script.read_text(encoding="utf-8")
    assert source.count(good) == 1, good
    proc = _run(script, tmp_path, source.replace(good, bad))
    assert proc.returncode == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
