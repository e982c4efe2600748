"""The command line's outputs (cli/_outputs.py): what it writes, and what it never overwrites.

Nothing is written before every check has passed: a command that fails, however late
its failing check, leaves every file the user has as it was, and no other file. An
output that is an input, two outputs at one path, an existing file in --out-dir unless
forced, and options a combination would ignore are usage errors."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from commandline import cli, gfr_args, one_line_error
from fairconv.datasets import path

PILOT = path("fairweb1-pilot")
CASES = path("cases")
RANKED = (
    "--qrels", PILOT / "fairweb1pilot.qrels",
    "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
    PILOT / "M-ORIGIN.golddistr", "nominal",
)  # fmt: skip


def _snapshot(folder):
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _run(args, cwd):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    return proc.returncode, proc.stderr


COMMANDS = {
    "gfrc-late-measure": (
        "gfrc", "--attributes", CASES / "r112-attributes.json", "-m", "NOPE",
        "--plot", "fig.png", "-o", "out.tsv", CASES / "r112-fairweb2.jsonl",
    ),
    "gfrc2-late-measure": (
        "gfrc2", "--attributes", CASES / "r112-attributes.json", "-m", "NOPE",
        "--plot", "fig.png", "-o", "out.tsv", CASES / "r112-fairweb2.jsonl",
    ),
    "ragfair-late-measure": (
        "ragfair", *RANKED, "--answers", path("rag", "pilot-answers.jsonl"), "-m", "NOPE",
        "--plot", "fig.png", "-o", "out.tsv", PILOT / "runs" / "run.bm25-depThre6",
    ),
    "gfr-nev-files-that-would-collide": (
        "gfr", *RANKED, "--format", "nev", "--out-dir", "new/nev",
        PILOT / "runs" / "run.bm25-depThre6", "a/run.bm25-depThre6",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_nothing_written_before_checks(tmp_path, case):
    (tmp_path / "fig.png").write_bytes(b"the user's figure")
    (tmp_path / "out.tsv").write_text("the user's table\n")
    (tmp_path / "a").mkdir()
    run = (PILOT / "runs" / "run.bm25-depThre6").read_text()  # the same base name
    (tmp_path / "a" / "run.bm25-depThre6").write_text(run.replace(" Anserini-bm25", " other"))
    before = _snapshot(tmp_path)
    code, err = _run(COMMANDS[case], tmp_path)
    err = "".join(x for x in err.splitlines(keepends=True) if ": warning: " not in x)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert _snapshot(tmp_path) == before
    assert not (tmp_path / "new").exists()
    assert sorted(os.listdir(tmp_path)) == ["a", "fig.png", "out.tsv"]


def test_nothing_written_before_checks_a_successful_run_writes_every_file(tmp_path):
    (tmp_path / "fig.png").write_bytes(b"old")
    args = COMMANDS["gfrc-late-measure"]
    args = tuple("GFRC" if a == "NOPE" else a for a in args)
    code, err = _run(args, tmp_path)
    assert code == 0, err
    assert (tmp_path / "fig.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "out.tsv").read_text().startswith("run\ttopic\tmeasure\tvalue\n")
    assert err == "wrote fig.png\n"
    assert sorted(os.listdir(tmp_path)) == ["fig.png", "out.tsv"]


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
