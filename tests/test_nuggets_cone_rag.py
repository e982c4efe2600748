"""CONE-RAG's (TREC iKAT 2024) NtN and NtR files, checked three ways.

1. the values CONE-RAG's own scripts computed on the cases of tests/reference/nuggets
   (exact);
2. a plain loop from the rules of the trecfair spec, section 10;
3. hypothesis properties.
"""

import json
import math
import shutil
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import nuggets
from fairconv.cli import main

REF = Path(__file__).parent / "reference" / "nuggets" / "cone-rag"
OLD = {"Recall-NtN": "Recall_NtN", "Precision-NtN": "Precision_NtN", "Recall-NtR": "Recall_NtR"}


def _files(case):
    d = REF / case
    ntn = d / "official" / "NtN" / "nuggets_results.json"
    ntr = sorted((d / "official" / "NtR").glob("coverage_*.jsonl"))
    return d / "gold.json", d / "response_nuggets.json", (ntn if ntn.exists() else None), ntr


def scores(labels, **options):
    """cone_rag_scores, and its notices: one per run lacking rows another run has (left
    out of its mean, as CONE-RAG leaves them out), counted in the table's notices."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = nuggets.cone_rag_scores(labels, **options)
    rows: dict = {}
    for run, turn in zip(labels.runs, labels.turns, strict=True):
        rows.setdefault(run, set()).add(turn)
    lacking = {run: [t for t in table.topics if t not in mine] for run, mine in rows.items()}
    expected = [
        f"run {run!r} has no NtN or NtR result for {len(turns)} of the {len(table.topics)} "
        "topics scored"
        for run, turns in lacking.items()
        if turns
    ]
    assert [str(w.message).split(" (")[0] for w in caught] == expected
    assert all(str(w.message).endswith("left out of its mean, as CONE-RAG leaves them out")
               for w in caught)  # fmt: skip
    assert table.notices["topics_missing"] == {run: len(t) for run, t in lacking.items()}
    return table


def _same(got, want):
    return (want is None and math.isnan(got)) or got == want


@pytest.mark.parametrize("case", ["basic", "random_bulk", "no_extracted_anywhere"])
def test_per_turn_values_and_run_means_equal_cone_rags(case):
    gold, resp, ntn, ntr = _files(case)
    view = json.loads((REF / case / "expected.json").read_text())["fairconv_view"]
    table = scores(nuggets.read_cone_rag(gold, resp, ntn=ntn, ntr=ntr))
    for row in view["per_turn"]:
        for m in table.measures:
            assert _same(table.value(row["run"], row["turn"], m), row[OLD[m]]), (row, m)
    for run, means in view["means"].items():
        for m in table.measures:
            want = means[OLD[m]]
            if m == "Recall-NtR" and not any(p.name == f"coverage_{run}.jsonl" for p in ntr):
                # no coverage file: CONE-RAG's recall_<run>.json says 0; undefined here
                assert math.isnan(table.value(run, "all", m)) and want == 0
                continue
            assert table.value(run, "all", m) == want, (run, m)


def test_ntr_alone_and_ntn_alone():
    gold, resp, ntn, ntr = _files("basic")
    only_ntr = scores(nuggets.read_cone_rag(gold, resp, ntr=ntr))
    assert only_ntr.measures == ("Recall-NtR",)
    assert only_ntr.value("runB", "all", "Recall-NtR") == 0.41666666666666663
    only_ntn = scores(nuggets.read_cone_rag(gold, resp, ntn=ntn))
    assert only_ntn.measures == ("Recall-NtN", "Precision-NtN")
    with pytest.raises(ValueError, match="'ntn' and 'ntr' parameters of io.read_cone_rag"):
        nuggets.read_cone_rag(gold, resp)


def test_gold_nuggets_without_text_are_read_as_ntr_reads_them():
    gold, resp, _, ntr = _files("err_gold_without_text")
    table = scores(nuggets.read_cone_rag(gold, resp, ntr=ntr))
    assert table.value("runA", "all", "Recall-NtR") == 1.0


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("err_turn_not_in_gold", r'response_nuggets.json: turn "5_5" is not in the gold nuggets'),
        ("err_nuggets_list", r'response_nuggets.json: turn "1_1", run "runA": "nuggets" must be '
         "a JSON object"),
    ],
)  # fmt: skip
def test_broken_inputs_name_file_and_key(case, message, capsys):
    gold, resp, _, _ = _files(case)
    ntn = _files("basic")[2]
    with pytest.raises(ValueError, match=message):
        nuggets.read_cone_rag(gold, resp, ntn=ntn)
    argv = ["nuggets", "--input-format", "cone-rag", "--gold", str(gold)]
    assert main([*argv, "--response-nuggets", str(resp), "--ntn", str(ntn)]) == 2
    assert "error: " in capsys.readouterr().err


def _copy(tmp_path):
    gold, resp, ntn, ntr = _files("basic")
    for p in (gold, resp, ntn, *ntr):
        shutil.copy(p, tmp_path / p.name)
    return tmp_path


def _edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["predicted_gold_nuggets"]["runA"].update({"1_1": ["[9]"]}),
         r"turn \"1_1\": '\[9\]' is not a gold nugget of the turn"),
        (lambda d: d["predictive_response_nuggets"]["runA"].update({"1_1": ["[4]"]}),
         r"'\[4\]' is not the id of one of the turn's 3 matched"),
        (lambda d: d["predictive_response_nuggets"]["runA"].update({"1_1": ["1"]}),
         r"'1' is not the id of one of"),
        (lambda d: d["predicted_gold_nuggets"]["runA"].update({"1_1": ["[1]", "[1]"]}),
         r"lists '\[1\]' twice"),
        (lambda d: d["predicted_gold_nuggets"]["runA"].pop("1_2"),
         r'"predicted_gold_nuggets" has no turn "1_2" for run "runA"'),
        (lambda d: d["predicted_gold_nuggets"]["runA"].update({"2_2": []}),
         r'run "runA", turn "2_2": the response nuggets file has no entry'),
        (lambda d: d.update(predicted_gold_nugets=d.pop("predicted_gold_nuggets")),
         r"unknown field \"predicted_gold_nugets\".*Did you mean 'predicted_gold_nuggets'"),
    ],
)  # fmt: skip
def test_ntn_results_that_do_not_fit_the_inputs(tmp_path, change, message):
    d = _copy(tmp_path)
    _edit(d / "nuggets_results.json", change)
    with pytest.raises(ValueError, match=message):
        nuggets.read_cone_rag(d / "gold.json", d / "response_nuggets.json",
                              ntn=d / "nuggets_results.json")  # fmt: skip


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"topic_turn_id": "1_3", "covered": [], "uncovered": [], "recall": 0},
         r'coverage_runA.jsonl:4: turn "1_3" has no gold nugget'),
        ({"topic_turn_id": "1_1", "covered": ["[1]"], "uncovered": ["[2]", "[3]"],
          "recall": 1 / 3}, r'coverage_runA.jsonl:4: run "runA" has a second coverage line for '
         r'turn "1_1" \(the first at .*coverage_runA.jsonl:1\)'),
        ({"topic_turn_id": "2_2", "covered": ["[1]"], "uncovered": [], "recall": 1.0},
         r'"covered" and "uncovered" must split the turn\'s gold nuggets'),
        ({"topic_turn_id": "2_2", "covered": ["[1]"], "uncovered": ["[2]"], "recall": 0.6},
         r'"recall" must be \|covered\| / \(\|covered\| \+ \|uncovered\|\) = 0.5, got 0.6'),
        ({"topic_turn_id": "2_2", "coverd": ["[1]"], "uncovered": ["[2]"], "recall": 0.5},
         r"unknown field \"coverd\" in a coverage line. Did you mean 'covered'"),
        ({"topic_turn_id": "2_2", "uncovered": ["[2]"], "recall": 0.5},
         r'coverage_runA.jsonl:4: a coverage line needs "covered"'),
    ],
)  # fmt: skip
def test_coverage_lines_that_do_not_fit_the_gold_file(tmp_path, line, message):
    d = _copy(tmp_path)
    with (d / "coverage_runA.jsonl").open("a") as f:
        f.write(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=message):
        nuggets.read_cone_rag(d / "gold.json", d / "response_nuggets.json",
                              ntr=[d / "coverage_runA.jsonl"])  # fmt: skip


def test_cli_prints_the_rows_and_cone_rags_means(capsys):
    gold, resp, ntn, ntr = _files("basic")
    argv = ["nuggets", "--input-format", "cone-rag", "--gold", str(gold),
            "--response-nuggets", str(resp), "--ntn", str(ntn)]  # fmt: skip
    for p in ntr:
        argv += ["--ntr", str(p)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "runA\t1_3\tRecall-NtN\t0.0\n" in out  # no gold nugget: 0, counted
    assert "runA\t2_1\tPrecision-NtN\tNaN\n" in out  # nothing extracted: left out
    assert "runA\tall\tRecall-NtN\t0.41666666666666663\n" in out
    assert "runB\tall\tRecall-NtR\t0.41666666666666663\n" in out
    assert main(["nuggets", "--input-format", "cone-rag", "--gold", str(gold)]) == 2
    assert "needs --gold" not in capsys.readouterr().err
    assert main(["nuggets", "--input-format", "cone-rag", "--ntr", str(ntr[0])]) == 2
    assert "needs --gold" in capsys.readouterr().err
    assert (
        main(["nuggets", "--input-format", "cone-rag", "--gold", str(gold), "--ntn", str(ntn)]) == 2
    )
    assert "--ntn needs --response-nuggets" in capsys.readouterr().err


# --------------------------------------------------------------------------- oracle, properties


def loop_cone_rag(gold, entries, predicted, predictive):
    """Per run: CONE-RAG's NtN means, one turn at a time (spec section 10)."""
    out = {}
    for run in dict.fromkeys(r for r, _, _ in entries):
        recalls, precisions = [], []
        for r, turn, matched in entries:
            if r != run:
                continue
            recalls.append(len(predicted[r, turn]) / len(gold[turn]) if gold[turn] else 0)
            if matched:
                precisions.append(len(predictive[r, turn]) / matched)
        out[run] = (
            sum(recalls) / len(recalls),
            sum(precisions) / len(precisions) if precisions else 0,
        )
    return out


@st.composite
def cone_rag_inputs(draw):
    n_turns = draw(st.integers(1, 6))
    gold = {
        f"{t}_1": [f"[{j + 1}]" for j in range(draw(st.integers(0, 4)))] for t in range(n_turns)
    }
    entries, predicted, predictive = [], {}, {}
    for turn in gold:
        for run in ("rA", "rB"):
            if draw(st.booleans()):
                matched = draw(st.integers(0, 4))
                entries.append((run, turn, matched))
                predicted[run, turn] = (
                    draw(st.lists(st.sampled_from(gold[turn]), unique=True)) if gold[turn] else []
                )
                ids = [f"[{i + 1}]" for i in range(matched)]
                predictive[run, turn] = (
                    draw(st.lists(st.sampled_from(ids), unique=True)) if ids else []
                )
    return gold, entries, predicted, predictive


@given(cone_rag_inputs())
def test_agrees_with_the_loop(tmp_path_factory, data):
    gold, entries, predicted, predictive = data
    if not entries:
        return
    d = tmp_path_factory.mktemp("cone")
    (d / "gold.json").write_text(
        json.dumps({t: {g: {"text": g, "relevance": "1"} for g in ids} for t, ids in gold.items()})
    )
    resp: dict = {}
    for run, turn, matched in entries:
        resp.setdefault(turn, {})[run] = {"nuggets": {"matched": ["x"] * matched}}
    (d / "resp.json").write_text(json.dumps(resp))
    results: dict = {"predicted_gold_nuggets": {}, "predictive_response_nuggets": {}}
    for run, turn, _ in entries:
        results["predicted_gold_nuggets"].setdefault(run, {})[turn] = predicted[run, turn]
        results["predictive_response_nuggets"].setdefault(run, {})[turn] = predictive[run, turn]
    (d / "ntn.json").write_text(json.dumps(results))
    table = scores(nuggets.read_cone_rag(d / "gold.json", d / "resp.json", ntn=d / "ntn.json"))
    for run, (recall, precision) in loop_cone_rag(gold, entries, predicted, predictive).items():
        assert table.value(run, "all", "Recall-NtN") == recall
        assert table.value(run, "all", "Precision-NtN") == precision
    for run, turn, _ in entries:
        for m in table.measures:
            v = table.value(run, turn, m)
            assert math.isnan(v) or 0 <= v <= 1


@pytest.mark.parametrize("target", ["gold.json", "response_nuggets.json", "nuggets_results.json",
                                    "coverage_runA.jsonl"])  # fmt: skip
def test_cli_never_writes_over_an_input(tmp_path, target, capsys):
    d = _copy(tmp_path)
    before = (d / target).read_bytes()
    argv = ["nuggets", "--input-format", "cone-rag", "--gold", str(d / "gold.json"),
            "--response-nuggets", str(d / "response_nuggets.json"),
            "--ntn", str(d / "nuggets_results.json"), "--ntr", str(d / "coverage_runA.jsonl"),
            "-o", str(d / target)]  # fmt: skip
    assert main(argv) == 2
    assert "is the input" in capsys.readouterr().err
    assert (d / target).read_bytes() == before


def test_a_stale_coverage_file_is_refused():
    # NtR skips a run whose coverage file exists: here one left from other inputs, whose
    # turn is not in this gold file
    gold, _, _, (stale, _) = _files("ntr_existing_output")
    with pytest.raises(ValueError, match=r'coverage_runA.jsonl:1: turn "0_0" has no gold nugget'):
        nuggets.read_cone_rag(gold, ntr=[stale])


@pytest.mark.parametrize("case", ["ntr_existing_output", "ntr_crash_midway", "basic"])
def test_coverage_files_alone(case):
    # NtR's files need no response nuggets; a partial file (NtR stopped midway) reads as
    # the turns it holds
    gold, _, _, ntr = _files(case)
    ntr = [p for p in ntr if case != "ntr_existing_output" or p.name == "coverage_runB.jsonl"]
    view = json.loads((REF / case / "expected.json").read_text())["fairconv_view"]
    table = scores(nuggets.read_cone_rag(gold, ntr=ntr))
    assert table.measures == ("Recall-NtR",)
    for p in ntr:
        run = p.name[len("coverage_") : -len(".jsonl")]
        for x in map(json.loads, p.read_text().splitlines()):
            assert table.value(run, x["topic_turn_id"], "Recall-NtR") == x["recall"]
    for run, means in view["means"].items():
        assert table.value(run, "all", "Recall-NtR") == means["Recall_NtR"]


def test_measures_picks_among_those_the_files_give():
    gold, resp, ntn, ntr = _files("basic")
    labels = nuggets.read_cone_rag(gold, resp, ntn=ntn)
    assert scores(labels, measures=["Precision-NtN"]).measures == ("Precision-NtN",)
    with pytest.raises(ValueError, match="must name measures it computes"):
        scores(labels, measures=["Recall-NtR"])  # no coverage file read


TURN_IDS = st.one_of(
    st.sampled_from(["1_1", "all", "1 1", "1\t1", "", " 1_1", "1_1\n", "\u00a01", "ok"]),
    st.text(max_size=4),
)


@pytest.mark.parametrize("place", ["gold", "response", "coverage"])
@given(turn=TURN_IDS)
def test_turn_ids_follow_the_id_rule_wherever_they_are(tmp_path_factory, place, turn):
    """A turn id is a row of the table: the id rule of every reader holds for the keys of
    the gold and response files as for coverage lines, and 'all' (the mean rows) is
    refused with a message that says so."""
    from fairconv._validation import id_fault, json_repr

    d = tmp_path_factory.mktemp("ids")
    good = "1_1"
    ids = {place: turn, **{p: good for p in ("gold", "response", "coverage") if p != place}}
    bad = id_fault(turn) is not None or turn == "all"
    gold_turns = {good: {"g1": {"text": "x"}}}
    if place == "gold" or not bad:  # a valid turn of the other files has its gold nuggets
        gold_turns[turn] = {"g1": {"text": "x"}}
    (d / "gold.json").write_text(json.dumps(gold_turns))
    resp = {ids["response"]: {"runA": {"nuggets": {"matched": ["a"]}}}}
    (d / "resp.json").write_text(json.dumps(resp))
    line = {"topic_turn_id": ids["coverage"], "covered": ["g1"], "uncovered": [], "recall": 1.0}
    (d / "coverage_runA.jsonl").write_text(json.dumps(line) + "\n")
    try:
        nuggets.read_cone_rag(d / "gold.json", d / "resp.json", ntr=[d / "coverage_runA.jsonl"])
    except ValueError as exc:
        assert bad, exc
        message = str(exc)
        if turn == "all":
            assert "is the name of the mean rows in fairconv's output; rename the turn" in message
        else:
            assert '"turn id" must' in message or '"topic_turn_id" must' in message
            assert json_repr(turn) in message  # as messages write values
        where = {"gold": "gold.json", "response": "resp.json", "coverage": "coverage_runA.jsonl:1"}
        assert message.startswith(str(d / where[place])), message
    else:
        assert not bad


def test_a_turn_with_a_space_is_refused_on_the_command_line(tmp_path, capsys):
    (tmp_path / "gold.json").write_text(json.dumps({"1 1": {"g1": {"text": "x"}}}))
    line = {"topic_turn_id": "1_1", "covered": [], "uncovered": [], "recall": 0}
    (tmp_path / "coverage_r.jsonl").write_text(json.dumps(line) + "\n")
    argv = ["nuggets", "--input-format", "cone-rag", "--gold", str(tmp_path / "gold.json"),
            "--ntr", str(tmp_path / "coverage_r.jsonl")]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and '"turn id" must not contain' in err and '"1 1"' in err
