"""No silent wrong number, no lost file: the rules for JSON inputs, identifiers, edge
inputs, warnings, outputs, arguments and messages, through the CLI and the API.

The rules for text files (encoding, numbers, empty files) are in test_readers_trust.py.
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from fairconv import AttributeSet, gfr, gfrc, gfrc2, ragfair
from fairconv.datasets import load_case, path
from fairconv.io import (
    batch_from_records,
    find_span,
    read_attribute_sets,
    read_conversations,
    turns_of,
    word_at,
)

PILOT = path("fairweb1-pilot")
CASES = path("cases")
SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]


def cli(*args, cwd=None):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    return proc.returncode, proc.stdout, proc.stderr


def one_line_error(code, err, *needles):
    assert code == 2, err
    err = "".join(x for x in err.splitlines(keepends=True) if ": warning: " not in x)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def gfr_args(*runs, extra=()):
    return (
        "gfr", "--qrels", PILOT / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        PILOT / "M-ORIGIN.golddistr", "nominal", *extra, *runs,
    )  # fmt: skip


def conversation(nuggets, **fields):
    rec = {"topic": "T", "run": "r", "text": "U:q S:a b c d e", "nuggets": nuggets}
    rec.update(fields)
    return rec


# --------------------------------------------------------------------------- rule 3
@pytest.mark.parametrize(
    "nugget, message",
    [
        ({"start": 3, "end": 3, "level": "2"}, 'nugget 1: "level" must be an integer, got "2"'),
        ({"start": 3, "end": 3, "level": True}, '"level" must be an integer, got true'),
        ({"start": 3, "end": 3, "level": [1]}, '"level" must be an integer, got [1]'),
        ({"start": 3, "end": 3, "level": 1.0}, '"level" must be an integer, got 1.0'),
        (
            {"start": 3, "end": 3, "level": 10**30},
            '"level" must be an integer, got 1000000000000000',
        ),
        ({"start": 3, "end": 3, "level": 10**17}, '"level" must be an integer within +-2^53'),
        ({"start": "3", "end": 3}, '"start" must be an integer, got "3"'),
        ({"start": 3, "end": 3, "turn": 0}, '"turn" must be >= 1'),
        ({"start": 3, "end": 3, "entity": 7}, '"entity" must be a string, got 7'),
        (
            {"start": 3, "end": 3, "entity": "a b"},
            'nugget 1: "entity" must not contain whitespace or control characters, got "a b"',
        ),
        ({"start": 3, "end": 3, "entity": "a\u00a0b"}, '"entity" must not contain whitespace'),
        ({"start": 3, "end": 3, "entity": "e\n"}, '"entity" must not contain whitespace'),
        ({"start": 3, "end": 3, "entity": ""}, '"entity" must be a non-empty string, got ""'),
        ({"start": 3, "end": 3, "groups": [0.5, 0.5]}, '"groups" must be an object'),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": [True, False]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": ["0.5", "0.5"]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": [1e400, 0]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
        (
            {"start": 3, "end": 3, "level": 1, "groups": {"A": ["NaN", 0]}},
            '"groups"."A" must be an array of 2 numbers',
        ),
    ],
)
def test_rule3_json_types_are_strict(tmp_path, nugget, message):
    f = tmp_path / "c.jsonl"
    text = json.dumps(conversation([nugget])).replace("1e+400", "1e400")
    f.write_text(text.replace('"NaN"', "NaN") + "\n")
    with pytest.raises(ValueError, match=r"c\.jsonl:1: " + ".*" + _re(message)):
        read_conversations(f, SETS)


def _re(text):
    import re

    return re.escape(text)


def test_rule3_missing_or_null_level_is_nonrelevant():
    a = batch_from_records([conversation([{"start": 3, "end": 3}])], SETS, sources=["x"])
    b = batch_from_records(
        [conversation([{"start": 3, "end": 3, "level": None}])], SETS, sources=["x"]
    )
    assert a.level.tolist() == b.level.tolist() == [0]


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"topic": 5}, '"topic" must be a non-empty string, got 5'),
        ({"run": ["r"]}, '"run" must be a non-empty string'),
        ({"text": 12}, '"text" must be a string'),
        ({"text": None, "turns": [{"role": "U", "start": 1, "end": 2},
                                  {"role": "S", "start": 4, "end": 6}]}, "contiguous"),
        ({"text": None, "turns": [{"role": "X", "start": 1, "end": 2}]}, '"role" must be'),
        ({"text": None, "turns": [{"role": "U", "start": 1, "end": 2},
                                  {"role": "S", "start": 3, "end": 6}], "length": 9},
         '"length" is 9 but the turns end at word 6'),
        ({"length": 4}, '"length" is 4 but the text has 6 words'),
        ({"nuggets": {"start": 1}}, '"nuggets" must be an array of objects'),
    ],
)  # fmt: skip
def test_rule3_record_fields(fields, message):
    record = dict(conversation([]), **fields)
    with pytest.raises(ValueError, match="c.jsonl:2: " + ".*" + _re(message)):
        batch_from_records([record], SETS, sources=["c.jsonl:2"])


def test_rule3_nuggets_lie_inside_one_system_turn():
    with pytest.raises(ValueError, match="crosses the end of its turn"):
        batch_from_records(
            [conversation([{"start": 2, "end": 3}], text="U:q S:a U:b S:c")], SETS, sources=["x"]
        )


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"A": {"target": [0.5, 0.5], "scale": 1}}', '"scale" must be a string'),
        ('{"A": {"target": [true, false], "scale": "nominal"}}', '"target" must be an array'),
        ('{"A": {"target": [0.5, 0.5], "scale": "nominal", "weight": 1}}', "unknown field"),
        ('{"A B": {"target": [0.5, 0.5], "scale": "nominal"}}', "whitespace"),
        ("[1, 2]", "expected an object"),
        ("", "empty"),
    ],
)
def test_rule3_attribute_set_files(tmp_path, text, message):
    f = tmp_path / "a.json"
    f.write_text(text)
    with pytest.raises(ValueError, match="a.json" + ".*" + _re(message)):
        read_attribute_sets(f)


def test_rule3_cli_names_file_line_and_field(tmp_path):
    c = tmp_path / "c.jsonl"
    c.write_text(
        json.dumps(conversation([]))
        + "\n"
        + json.dumps(conversation([{"start": 3, "end": 3, "level": "2"}], run="other"))
        + "\n"
    )
    code, out, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", c)
    one_line_error(code, err, f'{c}:2: nugget 1: "level" must be an integer, got "2"')


# --------------------------------------------------------------------------- rule 4
@pytest.mark.parametrize("name", ["a\tb", "a b", "a\nb", "x\x00", "\u2028"])
def test_rule4_identifiers_that_could_forge_rows_are_refused(name):
    for field in ("topic", "run"):
        with pytest.raises(ValueError, match=f'"{field}" must not contain whitespace'):
            batch_from_records([conversation([], **{field: name})], SETS, sources=["x"])


def test_rule4_entity_keys_are_identifiers_in_the_cli(tmp_path):
    """The second nugget's key has a space; the first (a valid key) is read as before."""
    c = tmp_path / "c.jsonl"
    nuggets = [{"start": 3, "end": 3, "entity": "k1"}, {"start": 5, "end": 5, "entity": "a b"}]
    c.write_text(json.dumps(conversation(nuggets)) + "\n")
    code, out, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", c)
    one_line_error(code, err, f'{c}:1: nugget 2: "entity" must not contain whitespace')
    assert out == ""


def test_rule4_two_runs_with_one_name_in_the_cli(tmp_path):
    run = (PILOT / "runs" / "run.bm25-depThre6").read_bytes()
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "run").write_bytes(run)
    code, _, err = cli(*gfr_args(tmp_path / "a" / "run", tmp_path / "b" / "run"))
    one_line_error(code, err, "two runs are named 'Anserini-bm25'", "a/run", "b/run")


def test_rule4_two_attribute_sets_with_one_name_in_the_cli():
    extra = ("--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
             PILOT / "M-ORIGIN.golddistr", "nominal")  # fmt: skip
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=extra))
    one_line_error(code, err, "distinct names", "M-ORIGIN")


# --------------------------------------------------------------------------- rule 5
def test_rule5_no_relevant_nugget_under_cumulative_scores_zero():
    b = batch_from_records([conversation([{"start": 3, "end": 4}])], SETS, sources=["x"])
    for name, v in gfrc.gfrc(b, method="cumulative", empty="uniform").items():
        assert v.tolist() == [0.0] or name in ("GF[A]", "GF", "GFRC"), name
    assert gfrc.gfrc(b, method="cumulative")["GFRC"].tolist() == [0.0]


def test_rule5_lists_of_depth_zero_and_a_single_topic():
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    s = gfr.gfr(np.zeros((1, 0), np.int64), [np.zeros((1, 0, 2))], [a], cutoffs=[5])
    assert all(v.tolist() == [0.0] for k, v in s.items() if not k.startswith("GF-")), s
    one = gfr.gfr([[2, 1]], [[[[1, 0], [0, 1]]]], [a], cutoffs=[1])
    assert one["ERR@1"].shape == (1,) and 0 < float(one["GFR"][0]) <= 1


def test_rule5_empty_turns_score():
    rec = conversation([{"start": 2, "end": 2, "level": 1, "groups": {"A": [1, 0]}}],
                       text="U:q S:a U:b S: U:c S:d")  # fmt: skip
    b = batch_from_records([rec], SETS, sources=["x"])
    ignore = gfrc.gfrc(b)["GF[A]"][0]
    uniform = gfrc.gfrc(b, empty="uniform")["GF[A]"][0]
    assert uniform > ignore  # the two empty system turns count as uniform (similarity 1)


@pytest.mark.parametrize(
    "func, options, message",
    [
        (gfrc.gfrc, dict(L=1), "'L' parameter of gfrc.gfrc must be an integer >= 2"),
        (gfrc2.gfrc2, dict(L=True), "'L' parameter of gfrc2.gfrc2 must be an integer >= 2"),
        (gfrc.gfrc, dict(lmax=101), "'lmax' parameter of gfrc.gfrc must be an integer in 1..100"),
        (gfrc.gfrc, dict(weights=[0.5, 0.5, np.inf]), "finite non-negative"),
        (gfrc2.gfrc2, dict(weights=[0, 0, 0]), "sum to 1"),
        (gfrc.gfrc, dict(dedupe="yes"), "'dedupe' parameter of gfrc.gfrc must be True or False"),
    ],
)
def test_rule5_parameters_outside_their_domain(func, options, message):
    with pytest.raises(ValueError, match=_re(message)):
        func(load_case("r112").conversations, **options)


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(cutoffs=[10, 0]), "'cutoffs' parameter of gfr.evaluate must be an integer >= 1"),
        (dict(cutoffs=[True]), "'cutoffs' parameter of gfr.evaluate must be an integer >= 1"),
        (dict(gains=[1] * 101), "lmax <= 100"),
        (dict(gains=[1, 1e308]), "finite"),
        (dict(phi=float("nan")), "'phi' parameter of gfr.evaluate must be a number in (0, 1)"),
    ],
)
def test_rule5_ranked_list_parameters(options, message):
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    with pytest.raises(ValueError, match=_re(message)):
        gfr.evaluate(p.qrels, p.runs, p.attributes, **options)


@pytest.mark.parametrize("text", ["10,,20", "10,", "1_0", "-5", "ten"])
def test_rule5_cli_cutoffs_without_empty_items(text):
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=("--cutoffs", text)))
    one_line_error(code, err, "--cutoffs takes comma-separated positive integers")


@pytest.mark.parametrize("text", ["1:inf", "1:nan", "1::3", "1:1_0"])
def test_rule5_cli_gains_are_finite_numbers(text):
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=("--gains", text)))
    one_line_error(code, err, "--gains takes finite numbers")


# --------------------------------------------------------------------------- rule 7
def test_rule7_huge_values_are_refused_before_arithmetic():
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    with pytest.raises(ValueError):
        gfr.gfr([[1]], [[[[1e308, 1e308]]]], [a])
    with pytest.raises(ValueError):
        ragfair.rigf([1e308], [np.inf])
    # a huge but finite RIGF is a number, not a warning (the suite runs with -W error)
    assert np.isfinite(ragfair.rigf([1.0], [1e-300])).all()


# --------------------------------------------------------------------------- rule 8
def test_rule8_an_output_that_is_an_input_is_refused(tmp_path):
    run = tmp_path / "run"
    run.write_bytes((PILOT / "runs" / "run.bm25-depThre6").read_bytes())
    before = run.read_bytes()
    code, _, err = cli(*gfr_args(run, extra=("-o", run)))
    one_line_error(code, err, "is the input")
    assert run.read_bytes() == before


def test_rule8_two_outputs_at_one_path_are_refused(tmp_path):
    out = tmp_path / "out"
    code, _, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", "-o", out,
                       "--plot", out, CASES / "r112-fairweb2.jsonl")  # fmt: skip
    one_line_error(code, err, "two outputs")
    assert not out.exists()


def test_rule8_out_dir_keeps_existing_files_unless_forced(tmp_path):
    run = PILOT / "runs" / "run.bm25-depThre6"
    target = tmp_path / "run.bm25-depThre6.M-ORIGIN.GFRnev"
    target.write_text("mine\n")
    code, _, err = cli(*gfr_args(run, extra=("--format", "nev", "--out-dir", tmp_path)))
    one_line_error(code, err, "exists", "--force")
    assert target.read_text() == "mine\n"
    code, _, err = cli(*gfr_args(run, extra=("--format", "nev", "--out-dir", tmp_path, "--force")))
    assert code == 0, err
    assert target.read_text() == (PILOT / "expected" / target.name).read_text()


@pytest.mark.parametrize(
    "extra, message",
    [
        (("--out-dir", "x"), "--out-dir writes .GFRnev files: it needs --format nev"),
        (("--format", "nev", "--out-dir", "x", "-o", "y"), "not both"),
    ],
)
def test_rule8_options_the_combination_would_ignore_are_usage_errors(tmp_path, extra, message):
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=extra), cwd=tmp_path)
    one_line_error(code, err, message)
    assert list(tmp_path.iterdir()) == []


def test_rule8_a_failed_run_leaves_no_partial_output(tmp_path):
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"topic": "T", "nuggets": [{"start": 1}]}\n')
    out = tmp_path / "out.tsv"
    code, _, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", "-o", out, bad)
    assert code == 2 and not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["c.jsonl"]


# --------------------------------------------------------------------------- rule 9
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: ragfair.rigf(["a"], [1.0]), TypeError, "'gf_gen' parameter of ragfair.rigf"),
        (lambda: ragfair.rigf([1.0, 2.0], [1.0, 2.0, 3.0]), ValueError,
         "'gf_re' parameter of ragfair.rigf"),
        (lambda: ragfair.adsim([0.5, 0.5], [1.0, 0.0, 0.0], divergence="jsd"), ValueError,
         "'answer_distribution' parameter of ragfair.adsim"),
        (lambda: ragfair.adsim([0.5, 0.5], [1, 0], divergence="KL"), ValueError,
         "'divergence' parameter of ragfair.adsim"),
        (lambda: ragfair.gf_gen([0.5, 0.6], [0.5, 0.5], divergence="jsd"), ValueError,
         "'answer_distribution' parameter of ragfair.gf_gen"),
        (lambda: ragfair.attention_distribution([1.5], [[1, 0]]), ValueError,
         "'levels' parameter of ragfair.attention_distribution"),
        (lambda: ragfair.attention_distribution([1], [[1, 0]], cutoff=0), ValueError,
         "'cutoff' parameter of ragfair.attention_distribution"),
        (lambda: turns_of(None), TypeError,
         "'text' parameter of io.turns_of must be a string"),
        (lambda: find_span("U:a S:b", "b", occurrence=0), ValueError,
         "'occurrence' parameter of io.find_span"),
        (lambda: word_at("U:a", -1), ValueError, "'offset' parameter of io.word_at"),
        (lambda: gfr.gfr([[1]], np.zeros((1, 1, 2)), [SETS[0]]), TypeError,
         "'memberships' parameter of gfr.gfr"),
        (lambda: gfrc.gfrc("batch.jsonl"), TypeError, "'batch' parameter of gfrc.gfrc"),
    ],
)  # fmt: skip
def test_rule9_every_public_function_checks_its_arguments(call, error, message):
    with pytest.raises(error, match=_re(message)):
        call()


def test_rule9_lower_case_divergence_names_are_accepted():
    assert float(ragfair.gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="rnod")) == pytest.approx(
        float(ragfair.gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="RNOD")), abs=0
    )
    assert float(ragfair.adsim([1, 0], [1, 0], divergence="jsd")) == 1.0


# --------------------------------------------------------------------------- rule 10
def test_rule10_a_bad_inline_target_names_its_attribute_set():
    code, _, err = cli("gfr", "--qrels", PILOT / "fairweb1pilot.qrels", "--attribute",
                       "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb", "0.5,0.6", "nominal",
                       PILOT / "runs" / "run.bm25-depThre6")  # fmt: skip
    one_line_error(code, err, "attribute set 'M-ORIGIN'", "sum to 1")


@pytest.mark.parametrize(
    "args",
    [("gfrc", "--bogus"), ("gfrc", "--attributes", "a.json", "--bogus", "c.jsonl"),
     ("gfr", "--qrels", "q", "--cutoffs")],
)  # fmt: skip
def test_rule10_argparse_errors_name_the_subcommand(args):
    code, _, err = cli(*args)
    one_line_error(code, err, f"fairconv {args[0]}: error:", f"see 'fairconv {args[0]} --help'")


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"topic": "T", "topic": "U", "nuggets": []}\n', "the key 'topic' appears twice"),
        (  # in a nugget, on line 2: the key count of the text and the values disagree
            '{"topic": "T", "nuggets": []}\n{"topic": "T", "nuggets": [{"start": 1, "start": 2}]}',
            "c.jsonl:2: the key 'start' appears twice",
        ),
        (  # in a field no reader reads
            '{"topic": "T", "nuggets": [], "meta": {"a": 1, "a": 2}}\n',
            "c.jsonl:1: the key 'a' appears twice",
        ),
        ("[" * 40 + "]" * 40 + "\n", "nests deeper than 16 levels"),
        ('{"topic": "T", "nuggets": [}\n', "c.jsonl:1: invalid JSON"),
        ("\n\n", "the file is empty"),
    ],
)
def test_rule3_json_lines_files(tmp_path, text, message):
    f = tmp_path / "c.jsonl"
    f.write_text(text)
    with pytest.raises(ValueError, match=_re(message)):
        read_conversations(f, SETS)


def test_rule3_a_bom_before_json_is_skipped(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(conversation([])).encode() + b"\n")
    assert read_conversations(f, SETS).topics == ("T",)
