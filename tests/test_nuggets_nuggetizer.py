"""nuggetizer's four scores (castorini/nuggetizer), checked three ways.

1. the values nuggetizer's own code computed on the cases of tests/reference/nuggets
   (exact);
2. a plain loop written from the definition (trecfair spec, section 10);
3. hypothesis properties.
"""

import gzip
import json
import statistics
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import FairconvWarning, nuggets
from fairconv.cli import main
from fairconv.io import read_scores

REF = Path(__file__).parent / "reference" / "nuggets"
CASES = REF / "nuggetizer"
NAMES = nuggets.NUGGETIZER_MEASURES
FIELDS = ("strict_vital_score", "strict_all_score", "vital_score", "all_score")


def _expected(case):
    return json.loads((CASES / f"{case}.expected.json").read_text())


def _records(case):
    text = (CASES / f"{case}.input.jsonl").read_text(encoding="utf-8-sig")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _quiet(call, *args, **kwargs):
    """Call, keeping fairconv's notice about unknown labels out of pytest's errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        return call(*args, **kwargs)


def scores(assignments, **options):
    """nuggetizer_scores, and its notices: one per run lacking topics another run has
    (left out of its mean, as nuggetizer leaves them out), counted in the notices."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = nuggets.nuggetizer_scores(assignments, **options)
    parts = assignments if isinstance(assignments, list) else [assignments]
    rows: dict = {}
    for part in parts:
        for run, topic in zip(part.runs, part.topics, strict=True):
            rows.setdefault(run, set()).add(topic)
    lacking = {run: [t for t in table.topics if t not in mine] for run, mine in rows.items()}
    expected = [
        f"run {run!r} has no assignment record for {len(topics)} of the {len(table.topics)} "
        f"topics scored ({', '.join(topics)}): they are left out of its mean, as nuggetizer "
        "leaves them out"
        for run, topics in lacking.items()
        if topics
    ]
    assert [str(w.message) for w in caught if "nuggetizer does not know" not in str(w.message)] == (
        expected
    )
    assert table.notices["topics_missing"] == {run: len(t) for run, t in lacking.items()}
    return table


# --------------------------------------------------------------------------- the oracle


def loop_scores(nuggets_of_record):
    """nuggetizer's four scores of one record, one nugget at a time (spec section 10)."""
    vital = [n for n in nuggets_of_record if n["importance"] == "vital"]
    credit = {"support": 1.0, "partial_support": 0.5}

    def strict(ns):
        return sum(1 for n in ns if n["assignment"] == "support") / len(ns) if ns else 0.0

    def graded(ns):
        total = sum(
            credit.get(n["assignment"], 0.0) if type(n["assignment"]) is str else 0.0 for n in ns
        )
        return total / len(ns) if ns else 0.0

    return (strict(vital), strict(nuggets_of_record), graded(vital), graded(nuggets_of_record))


# --------------------------------------------------------------------------- the official values

SCORED = [
    "basic", "readme_example", "empty_nuggets", "vital_free", "all_vital", "importance_labels",
    "assignment_labels", "failed_labels", "several_records_per_qid", "integer_qids", "qid_all",
    "several_run_ids", "duplicate_nuggets", "thirds", "extra_fields", "crlf_lines",
    "no_final_newline", "random_bulk",
]  # fmt: skip


def test_every_case_is_listed():
    cases = {p.name.split(".")[0] for p in CASES.glob("*.expected.json")}
    refused = set(REFUSED) | {"nuggets_empty_object", "nuggets_empty_string"}
    assert cases == set(SCORED) | refused | set(READ_BY_FAIRCONV_RULES)


@pytest.mark.parametrize("case", SCORED)
def test_each_record_and_the_mean_equal_nuggetizer(case):
    # every record made its own topic of one run: nuggetizer's 'all' row is then the run's
    expected = _expected(case)
    records = [dict(r, qid=f"t{i}", run_id="r") for i, r in enumerate(_records(case))]
    table = _quiet(nuggets.nuggetizer_scores, _quiet(nuggets.read_nuggetizer, records))
    for i, want in enumerate(expected["calculate_nugget_scores"]):
        got = [table.value("r", f"t{i}", m) for m in NAMES]
        assert got == [want[f] for f in FIELDS]
        assert got == list(loop_scores(records[i]["nuggets"]))
    assert [table.value("r", "all", m) for m in NAMES] == [
        expected["calculate_global_metrics"][f] for f in FIELDS
    ]


FILES = [
    "basic", "readme_example", "empty_nuggets", "vital_free", "all_vital", "importance_labels",
    "assignment_labels", "failed_labels", "several_run_ids", "duplicate_nuggets", "thirds",
    "extra_fields", "crlf_lines", "no_final_newline",
]  # fmt: skip


@pytest.mark.parametrize("case", FILES)
def test_files_read_as_nuggetizer_reads_them(case):
    expected = _expected(case)
    assignments = _quiet(nuggets.read_nuggetizer, CASES / f"{case}.input.jsonl")
    table = scores(assignments)
    records = _records(case)
    for rec, want in zip(records, expected["calculate_nugget_scores"], strict=True):
        got = [table.value(rec["run_id"], str(rec["qid"]), m) for m in NAMES]
        assert got == [want[f] for f in FIELDS]
    if len({r["run_id"] for r in records}) == 1:  # nuggetizer's 'all' mixes runs
        run = records[0]["run_id"]
        assert [table.value(run, "all", m) for m in NAMES] == [
            expected["calculate_global_metrics"][f] for f in FIELDS
        ]


def test_two_run_ids_in_one_file_are_two_runs():
    table = scores(nuggets.read_nuggetizer(CASES / "several_run_ids.input.jsonl"))
    assert table.notices["topics_missing"] == {"demo-run": 0, "direct-assign": 1}
    assert table.runs == ("demo-run", "direct-assign")
    assert table.value("demo-run", "all", "vital-score") == 0.75  # (1 + 0.5) / 2
    assert table.value("direct-assign", "all", "vital-score") == 0.0


def test_nuggetizers_own_pipeline_files():
    pipe = REF / "nuggetizer-pipeline"
    table = nuggets.nuggetizer_scores(nuggets.read_nuggetizer(pipe / "assign_answers.jsonl"))
    rows = [json.loads(x) for x in (pipe / "metrics_answers.jsonl").read_text().splitlines()]
    assert table.runs == ("my.run.v2",)
    for row in rows:
        assert [table.value("my.run.v2", row["qid"], m) for m in NAMES] == [row[f] for f in FIELDS]
    joined = nuggets.read_nuggetizer(pipe / "assign_direct_joined.jsonl")
    assert sorted(set(joined.runs)) == ["demo-run", "direct-assign"]
    default = nuggets.nuggetizer_scores(
        nuggets.read_nuggetizer(pipe / "assign_default_importance.jsonl")
    )
    last = json.loads((pipe / "metrics_default_importance.jsonl").read_text().splitlines()[-1])
    run = default.runs[0]
    assert [default.value(run, "all", m) for m in NAMES] == [last[f] for f in FIELDS]


# --------------------------------------------------------------------------- broken inputs

REFUSED = {
    "err_bad_json": r"err_bad_json.input.jsonl:2: invalid JSON",
    "err_empty_file": r"err_empty_file.input.jsonl: the file is empty",
    "err_gzip": r"err_gzip.input.jsonl:1: a control character",
    "err_missing_assignment_okay": r"\.jsonl:1: nugget 2: needs \"assignment\"$",
    "err_missing_assignment_vital": r"\.jsonl:1: nugget 1: needs \"assignment\" \(no nugget .* "
    "nuggetizer create",
    "err_missing_importance": r"\.jsonl:1: nugget 1: needs \"importance\"",
    "err_missing_nuggets": r"\.jsonl:1: an assignment record needs \"nuggets\"",
    "err_missing_qid": r"\.jsonl:2: an assignment record needs \"qid\"",
    "err_nugget_not_object": r"\.jsonl:1: nugget 1: must be a JSON object, got \"support\"",
    "err_nuggets_null": r"\.jsonl:1: \"nuggets\" must be an array of nugget objects, got null",
    "err_nuggets_object": r"\.jsonl:1: \"nuggets\" must be an array",
    "err_nuggets_string": r"\.jsonl:1: \"nuggets\" must be an array",
    "nuggets_empty_object": r"\.jsonl:1: \"nuggets\" must be an array of nugget objects, got \{\}",
    "nuggets_empty_string": r"\.jsonl:1: \"nuggets\" must be an array of nugget objects, got \"\"",
    "err_record_array": r"\.jsonl:1: an assignment record must be a JSON object, got \[1, 2\]",
    "err_record_null": r"\.jsonl:1: an assignment record must be a JSON object, got null",
    "err_record_string": r"\.jsonl:1: an assignment record must be a JSON object",
    "qid_all": r"\.jsonl:1: \"qid\" is \"all\"",
    "integer_qids": r"\.jsonl:2: run 'runA' has a second record for qid '7' \(the first at "
    r".*integer_qids.input.jsonl:1\).*decimal string",
    "several_records_per_qid": r"\.jsonl:2: .* second record for qid 'q1'.*retrieval-mode",
    "random_bulk": r"random_bulk.input.jsonl:\d+: run 'run.' has a second record",
}
READ_BY_FAIRCONV_RULES = ("err_blank_line", "err_trailing_blank_line", "err_bom")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_broken_files_are_errors_naming_file_line_and_field(case, capsys):
    path = CASES / f"{case}.input.jsonl"
    with pytest.raises(ValueError, match=REFUSED[case]):
        _quiet(nuggets.read_nuggetizer, path)
    assert main(["nuggets", "--input-format", "nuggetizer", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fairconv nuggets: error: ") and "\n" not in err


@pytest.mark.parametrize("case", READ_BY_FAIRCONV_RULES)
def test_blank_lines_and_bom_are_read_by_fairconvs_json_rules(case):
    # nuggetizer stops on these (JSONDecodeError); fairconv's readers skip blank lines
    # and a leading byte-order mark
    assert _expected(case)["nuggetizer_metrics_exit_code"] == 6
    table = nuggets.nuggetizer_scores(nuggets.read_nuggetizer(CASES / f"{case}.input.jsonl"))
    records = _records(case)
    for rec in records:
        want = loop_scores(rec["nuggets"])
        assert [table.value(rec["run_id"], rec["qid"], m) for m in NAMES] == list(want)


def test_gzip_files_are_read(tmp_path):
    path = tmp_path / "run7.jsonl.gz"
    path.write_bytes(gzip.compress((CASES / "basic.input.jsonl").read_bytes()))
    plain = nuggets.read_nuggetizer(CASES / "basic.input.jsonl")
    assert nuggets.read_nuggetizer(path).counts.tolist() == plain.counts.tolist()


def test_the_run_without_run_id_is_the_files_stem_or_the_name_given(tmp_path):
    rec = {"qid": "q1", "nuggets": [{"importance": "vital", "assignment": "support"}]}
    path = tmp_path / "my.run.v2.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    assert nuggets.read_nuggetizer(path).runs == ("my.run.v2",)
    assert nuggets.read_nuggetizer(path, name="x").runs == ("x",)
    with pytest.raises(ValueError, match=r"record 1: the record has no \"run_id\""):
        nuggets.read_nuggetizer([rec])
    assert nuggets.read_nuggetizer([rec], name="x").topics == ("q1",)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"qid": 1.5}, r'record 1: "qid" must be a non-empty string, got 1.5'),
        ({"qid": None}, r'"qid" must be a non-empty string, got null'),
        ({"qid": True}, r'"qid" must be a non-empty string, got true'),
        ({"qid": "a b"}, r'"qid" must not contain whitespace'),
        ({"run_id": ""}, r'"run_id" must be a non-empty string'),
        ({"qdi": "q"},
         r"record 1: unknown field \"qdi\" in an assignment record. Did you mean 'qid'\?"),
        ({"nuggets": [{"importance": "vital", "assignment": "support"},
                      {"importance": "vital", "assignement": "support"}]},
         r"record 1: nugget 2: needs \"assignment\" \(it has \"assignement\". Did you mean "
         r"'assignment'\?\)$"),
        ({"nuggets": [{"importance": "vital", "assignment": "support"}, 3]},
         r"record 1: nugget 2: must be a JSON object, got 3"),
    ],
)  # fmt: skip
def test_bad_records_name_the_record_and_field(change, message):
    rec = {"qid": "q1", "run_id": "r", "nuggets": []}
    rec.update(change)
    with pytest.raises(ValueError, match=message):
        _quiet(nuggets.read_nuggetizer, [rec])


def test_other_unknown_fields_are_ignored_as_nuggetizer_ignores_them():
    rec = {"qid": "q1", "run_id": "r", "docid": "d", "something": 1,
           "nuggets": [{"importance": "vital", "assignment": "support", "extra": [1]}]}  # fmt: skip
    assert nuggets.read_nuggetizer([rec]).counts.tolist() == [[1, 1, 0, 1, 1, 0]]


def test_unknown_labels_are_scored_as_nuggetizer_scores_them_with_one_notice(tmp_path):
    path = CASES / "random_bulk.input.jsonl"
    records = [dict(r, qid=f"t{i}") for i, r in enumerate(_records("random_bulk"))]
    lines = "\n".join(map(json.dumps, records)) + "\n"
    (tmp_path / "bulk.jsonl").write_text(lines)
    with pytest.warns(FairconvWarning) as caught:
        nuggets.read_nuggetizer(tmp_path / "bulk.jsonl")
    texts = [str(w.message) for w in caught]
    assert len(texts) == 2  # one for importance, one for assignment
    assert "importance nuggetizer does not know" in texts[0]
    assert '"Vital" (' in texts[0] and "bulk.jsonl:1: nugget 1" in texts[0]
    assert "assignment nuggetizer does not know" in texts[1]
    assert path.exists()


def test_non_string_labels_are_counted_as_nuggetizer_counts_them_with_a_notice():
    rec = {"qid": "q1", "run_id": "r", "nuggets": [
        {"importance": None, "assignment": "support"},
        {"importance": "vital", "assignment": 1},
        {"importance": ["vital"], "assignment": True}]}  # fmt: skip
    with pytest.warns(FairconvWarning) as caught:
        counts = nuggets.read_nuggetizer([rec]).counts
    texts = [str(w.message) for w in caught]
    assert 'null (record 1: nugget 1), ["vital"] (record 1: nugget 3)' in texts[0]
    assert "1 (record 1: nugget 2), true (record 1: nugget 3)" in texts[1]
    assert counts.tolist() == [[1, 0, 0, 3, 1, 0]]
    assert list(nuggets.nuggetizer(counts)["all-score"]) == [loop_scores(rec["nuggets"])[3]]


# --------------------------------------------------------------------------- command line


def test_cli_prints_score_rows_that_read_back(tmp_path, capsys):
    out = tmp_path / "scores.tsv"
    files = [str(REF / "nuggetizer-pipeline" / "assign_answers.jsonl"),
             str(CASES / "several_run_ids.input.jsonl")]  # fmt: skip
    assert main(["nuggets", "--input-format", "nuggetizer", "-o", str(out), *files]) == 0
    text = out.read_text()
    assert text.startswith("run\ttopic\tmeasure\tvalue\n")
    assert "my.run.v2\tq1\tstrict-all-score\t0.3333333333333333\n" in text
    assert "my.run.v2\tall\tall-score\t0.5\n" in text
    with pytest.warns(FairconvWarning, match="some runs lack a value on topics"):
        table = read_scores(out)  # direct-assign answered q1 only
    assert set(table.runs) == {"my.run.v2", "demo-run", "direct-assign"}
    assert table.measures == NAMES


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--input-format", "nuggetizer"], "needs one or more assignment files"),
        (["--input-format", "nuggetizer", "--micro", "f"], "--micro do(es) not apply"),
        (["--input-format", "nuggetizer", "--gold", "g", "f"], "--gold do(es) not apply"),
    ],
)
def test_cli_options_that_do_not_fit_the_format(argv, message, capsys):
    assert main(["nuggets", *argv]) == 2
    assert message in capsys.readouterr().err


# --------------------------------------------------------------------------- properties

LABELS_I = ["vital", "okay", "failed", "Vital", None]
LABELS_A = ["support", "partial_support", "not_support", "failed", "Support", 0.5]

nugget = st.fixed_dictionaries(
    {"importance": st.sampled_from(LABELS_I), "assignment": st.sampled_from(LABELS_A)}
)
record_nuggets = st.lists(nugget, max_size=12)


@given(st.lists(record_nuggets, min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_agrees_with_the_loop_and_statistics_mean(lists, rnd):
    recs = [{"qid": f"q{i}", "run_id": "r", "nuggets": ns} for i, ns in enumerate(lists)]
    table = _quiet(nuggets.nuggetizer_scores, _quiet(nuggets.read_nuggetizer, recs))
    per = np.array([loop_scores(ns) for ns in lists])
    for i in range(len(lists)):
        got = [table.value("r", f"q{i}", m) for m in NAMES]
        assert got == list(per[i])
        assert all(0.0 <= v <= 1.0 for v in got)
        assert got[0] <= got[2] and got[1] <= got[3]  # strict <= graded
        if not any(n["importance"] == "vital" for n in lists[i]):
            assert got[0] == got[2] == 0.0  # vital-free: 0, not NaN
        if not lists[i]:
            assert got == [0.0] * 4
    means = [table.value("r", "all", m) for m in NAMES]
    assert means == [statistics.mean(per[:, k].tolist()) for k in range(4)]
    # the nuggets of a record and the records of a file in any order
    shuffled = [dict(r, nuggets=rnd.sample(r["nuggets"], len(r["nuggets"]))) for r in recs]
    rnd.shuffle(shuffled)
    again = _quiet(nuggets.nuggetizer_scores, _quiet(nuggets.read_nuggetizer, shuffled))
    assert np.array_equal(again.values, table.values)
    assert [again.value("r", "all", m) for m in NAMES] == means


@pytest.mark.parametrize(
    "counts",
    [[[1, 2, 0, 3, 1, 0]], [[2, 1, 2, 4, 1, 2]], [[1, 0, 0, 1, -1, 0]], [[1.0, 0, 0, 1, 0, 0]],
     [1, 2, 3]],
)  # fmt: skip
def test_bad_counts_name_the_parameter(counts):
    with pytest.raises(ValueError, match="The 'counts' parameter of nuggets.nuggetizer must"):
        nuggets.nuggetizer(counts)


def test_scores_of_a_bad_argument_name_the_function():
    with pytest.raises(TypeError, match="'assignments' parameter of nuggets.nuggetizer_scores"):
        nuggets.nuggetizer_scores([1])
    with pytest.raises(TypeError, match="'path_or_records' parameter of io.read_nuggetizer"):
        nuggets.read_nuggetizer(3)


def test_cli_never_writes_over_an_input(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    path.write_bytes((CASES / "basic.input.jsonl").read_bytes())
    argv = ["nuggets", "--input-format", "nuggetizer", "-o", str(path), str(path)]
    assert main(argv) == 2
    assert "is the input" in capsys.readouterr().err
    assert path.read_bytes() == (CASES / "basic.input.jsonl").read_bytes()


def test_cli_notice_names_file_line_and_nugget(capsys):
    path = CASES / "importance_labels.input.jsonl"
    assert main(["nuggets", "--input-format", "nuggetizer", "--summary", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1  # one notice: only importances are unknown here
    assert err[0].startswith("fairconv nuggets: warning: 10 nugget(s) have an importance")
    assert f'"Vital" ({path}:1: nugget 2)' in err[0]


def test_one_run_and_topic_in_two_files_is_an_error_naming_both(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for p in (a, b):
        p.write_bytes((CASES / "basic.input.jsonl").read_bytes())
    parts = [nuggets.read_nuggetizer(a), nuggets.read_nuggetizer(b)]
    with pytest.raises(
        ValueError,
        match=r"run 'runA' has two entries for topic 'q1' \(.*a.jsonl:1 and .*b.jsonl:1\)",
    ):
        nuggets.nuggetizer_scores(parts)


def test_measures_picks_and_orders_the_columns():
    assignments = nuggets.read_nuggetizer(CASES / "basic.input.jsonl")
    table = nuggets.nuggetizer_scores(assignments, measures=["all-score", "vital-score"])
    assert table.measures == ("all-score", "vital-score")
    assert table.value("runA", "all", "all-score") == 0.5
    with pytest.raises(ValueError, match="old spelling|Did you mean 'all-score'"):
        nuggets.nuggetizer_scores(assignments, measures=["all_score"])


def test_the_unknown_label_notice_points_at_the_callers_line():
    rec = {"qid": "q1", "run_id": "r", "nuggets": [{"importance": "Vital", "assignment": "x"}]}
    with pytest.warns(FairconvWarning, match="nuggetizer does not know") as caught:
        nuggets.read_nuggetizer([rec])
    assert {w.filename for w in caught} == {__file__}
