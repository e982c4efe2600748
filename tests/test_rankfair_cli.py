"""fairconv rankfair: rows like fairconv gfr, the library's values, bad input in one line."""

import json
import re

import numpy as np
import pytest

from fairconv import FairconvWarning, rankfair
from fairconv.cli import main
from fairconv.datasets import path, rankfair_pack

P = path("rankfair")
RUNS = [str(p) for p in sorted((P / "runs").iterdir())][:3]
SETS = ["--memberships", "gender", str(P / "gender.gmemb")]
SETS += ["--memberships", "region", str(P / "region.gmemb")]
BASE = ["rankfair", "--qrels", str(P / "rankfair.qrels"), *SETS]


def _rows(text):
    head, *rows = [line.split("\t") for line in text.splitlines()]
    assert head == ["run", "topic", "measure", "value"]
    return rows


def test_default_measures_print_run_topic_measure_value_rows(capsys):
    assert main([*BASE, "--protected", "gender=1", *RUNS]) == 0
    out, err = capsys.readouterr()
    rows = _rows(out)
    assert all(len(r) == 4 for r in rows)
    measures = list(dict.fromkeys(r[2] for r in rows))
    assert measures[:7] == [
        "EXP-MinMaxRatio[gender]", "NDKL[gender]", "rND[gender]", "rKL[gender]", "rRD[gender]",
        "FAIR[gender]", "EXPU-MinMaxRatio[gender]",
    ]  # fmt: skip
    assert "IAA" in measures and "EE-R-gERR[region]" in measures
    p = rankfair_pack()
    with pytest.warns(FairconvWarning):  # the EXPU values the pack leaves undefined
        table = rankfair.evaluate(p.qrels, p.runs[:3], p.memberships, protected={"gender": 1})
    for run, topic, measure, value in rows:
        if topic != "all" and not run.startswith("n["):
            want = table.value(run, topic, measure)
            assert value == repr(want) or (value == "NaN" and np.isnan(want)), (run, measure)
    assert err.count("warning: run") >= 1 and all(
        line.startswith("fairconv rankfair: warning:") for line in err.splitlines()
    )


def test_options_summary_json_and_cutoffs(capsys, tmp_path):
    out = tmp_path / "scores.json"
    argv = [*BASE, "-m", "rND", "-m", "IAA", "--protected", "1", "--cutoffs", "10", "--step", "5"]
    assert main([*argv, "--format", "json", "--summary", "-o", str(out), "-j", "1", *RUNS]) == 0
    data = json.loads(out.read_text())
    assert set(data) == {"balanced", "relevance", "shuffled"}
    assert set(data["relevance"]) == {"all"}
    assert set(data["relevance"]["all"]) == {
        "rND[gender]", "rND[region]", "rND@10[gender]", "rND@10[region]", "IAA", "IAA@10",
    }  # fmt: skip


def test_the_sampled_run_gets_expected_exposure(capsys):
    sampled = str(P / "runs" / "run.stochastic")
    assert main([*BASE, "-m", "EE-L-gERR", "-m", "EE-R-RBP[gender]", "--summary", sampled]) == 0
    out, err = capsys.readouterr()
    assert [r[:3] for r in _rows(out)] == [
        ["stochastic", "all", "EE-L-gERR"],
        ["stochastic", "all", "EE-R-RBP[gender]"],
    ]
    assert "several samples" in err


@pytest.mark.parametrize(
    "extra,message",
    [
        ([], r"give at least one attribute set: --memberships NAME FILE"),
        (["--memberships", "g", "/nonexistent.gmemb"], r"/nonexistent.gmemb"),
        ([*SETS, "-m", "rND"], r"--protected must name the protected group"),
        ([*SETS, "-m", "FAIR[region]", "--protected", "region=4"], r"--protected must be"),
        ([*SETS, "--protected", "x"], r"--protected takes K or NAME=K"),
        ([*SETS, "--protected", "1", "--protected", "gender=1"], r"not both"),
        (
            [*SETS, "-m", "EXP-Mean"],
            r"--measure must use a known meta-metric \(MinMaxRatio, .*Got 'EXP-Mean', whose",
        ),
        ([*SETS, "-m", "EXP-MinMaxRatio@0"], r"is not a measure name"),
        (
            [*SETS, "-m", "EXQ-Variance"],
            r"known statistic \(EXP, EXPU, .*, ARP\). Got 'EXQ-Variance'",
        ),
        (
            [*SETS, "-m", "NDKL[nation]"],
            r"known attribute set \(gender, region\). Got 'NDKL\[nation\]', whose attribute set",
        ),
        ([*SETS, "-m", "EE-L-DCG"], r"rankfair's measures are"),
        ([*SETS, "--cutoffs", "0"], r"--cutoffs must be"),
        ([*SETS, "--decay", "1"], r"--decay must be"),
        ([*SETS, "--attention", "0"], r"--attention must be"),
        ([*SETS, "--patience", "1.5"], r"--patience must be"),
        ([*SETS, "--stop", "0"], r"--stop must be"),
        ([*SETS, "--step", "0"], r"--step must be"),
        ([*SETS, "--epsilon", "-1"], r"--epsilon must be"),
        ([*SETS, "--discount", "paper", "--step", "1"], r"--step must be at least 2"),
        ([*SETS, "--target", "gender", "0.2,0.3,0.5"], r"distribution over its 2 groups"),
        ([*SETS, "--target", "gender", "0.2,0.3"], r"target of attribute set 'gender'"),
        ([*SETS, "--target", "other", "0.5,0.5"], r"--target must name attribute sets"),
        ([*SETS, "--memberships", "gender", str(P / "gender.gmemb")], r"'gender' twice"),
    ],
)
def test_bad_input_is_one_stderr_line_and_status_2(capsys, extra, message):
    argv = ["rankfair", *extra, RUNS[0]]
    if "/nonexistent" not in " ".join(extra) and extra:
        argv = ["rankfair", "--qrels", str(P / "rankfair.qrels"), *extra, RUNS[0]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("fairconv rankfair: error: ")
    assert re.search(message, err), err


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


TWO = ["T a 1 0", "T b 0 1"]
SOFT = ["T a 0.5 0.5"]
BAD_FILES = [
    (["T s1 a 1 2 r", "T s1 b 2 1 r"], ["T a 1 0", "T a 0 1"], [], r"g:2: doc 'a' of topic 'T' "),
    (["T s1 a 1 2 r"], ["T a 0.5 0.6"], [], r"g:1: group probabilities must .* sum to 1"),
    (["T s1 a 1 2 r"], ["T a 0.5 0.5 0"], ["-m", "IAA"], r"--qrels must be given for IAA"),
    (["T s1 a 1 2 r"], SOFT, ["-m", "FAIR", "--protected", "1"], r"g:1: FAIR needs one-of-K"),
    (["T s1 a 1 2 r"], SOFT, ["-m", "ARP-Variance"], r"g:1: ARP-Variance needs one-of-K"),
    (["T s1 z 1 2 r"], ["T a 1 0"], ["-m", "NDKL"], r"run:1: doc 'z' of topic 'T' is not listed"),
    (["T s1 a 1 2 r", "T s2 b 1 2 r"], TWO, ["-m", "NDKL"], r"run 'r' has 2 samples \(rankings\)"),
    (
        ["T s1 a 1 2 r", "T s2 b 1 2 r", "T s1 b 2 1 r"],
        TWO,
        ["-m", "NDKL"],
        r"run:3: the lines of topic 'T', sample 's1' resume",
    ),
]


@pytest.mark.parametrize("run,gmemb,extra,message", BAD_FILES)
def test_bad_files_name_file_and_line(capsys, tmp_path, run, gmemb, extra, message):
    argv = ["rankfair", "--memberships", "g", _write(tmp_path / "g", gmemb), *extra]
    assert main([*argv, _write(tmp_path / "run", run)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert re.search(message, err), err
