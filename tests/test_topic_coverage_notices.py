"""Say what would mislead: a run that matches no topic of the qrels is an error; runs
without lists for some topics, and topics on which GFR has no fairness component, are
notices (FairconvWarning in the API, a stderr line on the CLI); the output is unchanged."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fairconv import FairconvWarning, gfr, ragfair
from fairconv.datasets import fairweb1_pilot, path
from fairconv.io import read_answers, read_run

PILOT = path("fairweb1-pilot")
QRELS = PILOT / "fairweb1pilot.qrels"
RUN = PILOT / "runs" / "run.bm25-depThre6"
ORIGIN = ("--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
          PILOT / "M-ORIGIN.golddistr", "nominal")  # fmt: skip


def _cli(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True
    )
    return proc.returncode, proc.stdout, proc.stderr


def _run_file(tmp_path, rename=None, keep=None):
    lines = RUN.read_text().splitlines()
    if keep is not None:
        lines = [x for x in lines if x.split()[0] in keep]
    if rename is not None:
        lines = [rename(x.split()[0]) + " " + x.split(maxsplit=1)[1] for x in lines]
    f = tmp_path / "run.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


def test_topic_coverage_a_run_sharing_no_topic_is_an_error(tmp_path):
    f = _run_file(tmp_path, rename=lambda t: "Q" + t[1:])  # P001 -> Q001
    p = fairweb1_pilot()
    with pytest.raises(ValueError, match="run 'Anserini-bm25' with topics Q001, Q002") as info:
        gfr.evaluate(p.qrels, [read_run(f)], p.attributes)
    assert "the qrels' topics P001, P002" in str(info.value)
    code, out, err = _cli("gfr", "--qrels", QRELS, f)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "'Anserini-bm25'" in err and "Q001" in err and "P001" in err, err
    assert "parameter" not in err, err


def test_topic_coverage_partial_overlap_is_a_notice(tmp_path):
    f = _run_file(tmp_path, keep={"P001", "P002"})
    p = fairweb1_pilot()
    message = "run 'Anserini-bm25' has no ranked list for 2 of the 4 topics scored (P003, P004)"
    with pytest.warns(FairconvWarning, match=message.replace("(", r"\(").replace(")", r"\)")):
        table = gfr.evaluate(p.qrels, [read_run(f)], p.attributes)
    assert table.value("Anserini-bm25", "P003", "ERR") == 0.0
    code, out, err = _cli("gfr", "--qrels", QRELS, *ORIGIN, f)
    assert code == 0 and f"fairconv gfr: warning: {message}" in err, err
    code, whole, _ = _cli("gfr", "--qrels", QRELS, *ORIGIN, RUN)
    kept = [x for x in whole.splitlines() if x.split("\t")[1] in ("topic", "P001", "P002")]
    assert [x for x in out.splitlines() if x.split("\t")[1] != "all"][: len(kept)] == kept


def test_topic_coverage_gfr_without_fairness_is_a_notice():
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    message = r"GFR is ERR alone on 3 of the 4 topics: no attribute set covers them \(P001, P003"
    with pytest.warns(FairconvWarning, match=message):
        gfr.evaluate(p.qrels, p.runs, origin)
    with pytest.warns(FairconvWarning, match="GFR is iRBU alone on 4 of the 4 topics: no attr"):
        gfr.evaluate(p.qrels, p.runs, [], utility="iRBU")
    code, out, err = _cli("gfr", "--qrels", QRELS, "--utility", "iRBU", RUN)
    assert code == 0 and err == (
        "fairconv gfr: warning: GFR is iRBU alone on 4 of the 4 topics: no attribute set is given\n"
    )
    assert out.startswith("run\ttopic\tmeasure\tvalue\n")
    code, out, err = _cli("gfr", "--qrels", QRELS, *ORIGIN, RUN)
    assert code == 0 and err.count("\n") == 1 and "(P001, P003, P004)" in err, err


def test_topic_coverage_every_topic_covered_says_nothing(recwarn):
    p = fairweb1_pilot()
    gfr.evaluate(p.qrels, p.runs, p.attributes)
    gfr.evaluate(p.qrels, p.runs, [], measures=["ERR"])  # no GFR asked for
    assert not [w for w in recwarn if issubclass(w.category, FairconvWarning)]


def test_topic_coverage_counts_on_the_table(tmp_path):
    f = _run_file(tmp_path, keep={"P001", "P002"})
    f.write_text(f.read_text().replace(" Anserini-bm25", " part"))
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    with pytest.warns(FairconvWarning):
        table = gfr.evaluate(p.qrels, [*p.runs, read_run(f)], origin)
    assert table.notices["topics_scored"] == 4
    assert table.notices["topics_without_fairness"] == 3
    assert table.notices["topics_missing"] == {**{r: 0 for r in table.runs[:-1]}, "part": 2}
    assert gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["ERR"]).notices == {
        "topics_scored": 4,
        "topics_missing": dict.fromkeys(table.runs[:-1], 0),
        "topics_without_fairness": 0,
    }


def test_topic_coverage_in_ragfair(tmp_path):
    f = _run_file(tmp_path, rename=lambda t: "Q" + t[1:])
    p = fairweb1_pilot()
    movies = [a for a in p.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    with pytest.raises(ValueError, match="run 'Anserini-bm25' with topics Q001"):
        ragfair.evaluate(p.qrels, [read_run(f)], movies, answers)
