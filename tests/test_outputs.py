"""Measures by name, JSON output and summaries, in the API and on the command line."""

import json
import math

import pytest

from fairconv import gfr, gfrc, gfrc2, ragfair
from fairconv.cli import main
from fairconv.datasets import fairweb1_pilot, load_case, path
from fairconv.io import read_answers

P = path("fairweb1-pilot")
ORIGIN = ("--attribute", "M-ORIGIN", str(P / "fairweb1pilot.M-ORIGIN.gmemb"),
          str(P / "M-ORIGIN.golddistr"), "nominal")  # fmt: skip
RATINGS = ("--attribute", "M-RATINGS", str(P / "fairweb1pilot.M-RATINGS.gmemb"),
           str(P / "M-RATINGS.golddistr"), "ordinal")  # fmt: skip
RUNS = [str(p) for p in sorted((P / "runs").iterdir())]


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


def test_gfr_measures_by_name_give_their_cutoffs(pilot):
    names = ["GFR@10", "GF-JSD@5[M-ORIGIN]", "ERR"]
    picked = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=names)
    full = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[5, 10])
    assert picked.measures == tuple(names)
    for run in full.runs:
        for topic in full.topics:
            for m in names:
                try:
                    want = full.value(run, topic, m)
                except KeyError:  # the set does not cover the topic
                    with pytest.raises(KeyError):
                        picked.value(run, topic, m)
                    continue
                assert picked.value(run, topic, m) == want


def test_unknown_measure_names_list_the_valid_ones(pilot):
    with pytest.raises(ValueError, match=r"must name measures it computes \(ERR, iRBU, .*GFR@7"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@7", "nDCG@7"])
    with pytest.raises(ValueError, match="not a measure name"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@"])
    with pytest.raises(ValueError, match=r"'cutoffs' .* must include the depths the measures ask"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@10"], cutoffs=[5])


def test_conversation_and_rag_measures_by_name(pilot):
    batch = load_case("r112").conversations
    assert gfrc.evaluate(batch, measures=["GFRC", "R"]).measures == ("GFRC", "R")
    assert gfrc2.evaluate(batch, measures=["EGF[HINDEX]"]).measures == ("EGF[HINDEX]",)
    with pytest.raises(ValueError, match="GFRC2"):
        gfrc2.evaluate(batch, measures=["GFRC"])
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    t = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers, measures=["RIGF@10", "GF-Gen"])
    assert t.measures == ("RIGF@10", "GF-Gen")


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_json_output_is_the_table_dict_with_null_for_undefined(capsys):
    out = run_cli(capsys, "ragfair", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN,
                  *RATINGS, "--answers", str(path("rag", "pilot-answers.jsonl")),
                  "--cutoffs", "10", "--format", "json", *RUNS)  # fmt: skip
    assert "NaN" not in out
    data = json.loads(out)
    assert data["Anserini-qljm"]["P002"]["RIGF@10[M-ORIGIN]"] == -100.0
    assert data["Anserini-qljm"]["P002"]["ADsim@10[M-ORIGIN]"] is None
    assert set(data["Anserini-bm25"]) == {"P002", "all"}


def test_summary_prints_only_the_all_rows(capsys):
    out = run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN,
                  "-m", "GFR@10", "--summary", *RUNS)  # fmt: skip
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [r[1] for r in rows] == ["all"] * 3 and {r[2] for r in rows} == {"GFR@10"}
    full = run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN, *RUNS)
    for run, _, measure, value in rows:
        assert f"{run}\tall\t{measure}\t{value}\n" in full
    as_json = json.loads(run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"),
                                 *ORIGIN, "-m", "GFR@10", "--summary", "--format", "json",
                                 *RUNS))  # fmt: skip
    assert {run: set(per) for run, per in as_json.items()} == {r[0]: {"all"} for r in rows}
    assert math.isclose(as_json["Anserini-qld"]["all"]["GFR@10"], float(rows[1][3]))


@pytest.mark.parametrize(
    "args",
    [
        ("gfrc", "--attributes", str(path("cases", "r112-attributes.json")), "-m", "GFRC",
         str(path("cases", "r112-fairweb2.jsonl"))),
        ("gfrc2", "--attributes", str(path("cases", "r112-attributes.json")), "-m", "GFRC2",
         str(path("cases", "r112-fairweb2.jsonl"))),
        ("nuggets", "-m", "Recall-NtR", str(path("rag", "ikat-labels.jsonl"))),
    ],
)  # fmt: skip
def test_every_command_takes_measures_by_name(capsys, args):
    out = run_cli(capsys, *args)
    measures = {line.split("\t")[2] for line in out.splitlines()[1:]}
    assert measures == {args[args.index("-m") + 1]}


@pytest.mark.parametrize(
    "args, message",
    [
        (("gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN, "-m", "GFR@10",
          "--cutoffs", "5", RUNS[0]), "--cutoffs must include the depths the measures ask for"),
        (("gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN, "--format", "nev",
          "--summary", RUNS[0]), "--format nev"),
        (("gfrc2", "--attributes", str(path("cases", "r112-attributes.json")), "--clusters",
          "--format", "json", str(path("cases", "r112-fairweb2.jsonl"))), "--clusters"),
        (("gfrc", "--attributes", str(path("cases", "r112-attributes.json")), "-m", "nDCG",
          str(path("cases", "r112-fairweb2.jsonl"))), "GFRC"),
    ],
)  # fmt: skip
def test_combinations_that_would_be_ignored_are_refused(capsys, args, message):
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
