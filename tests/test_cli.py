"""fairconv.cli and its shared options (cli/_common): what every command does alike.

Demo output and version; one-line errors without tracebacks that speak in the command
line's own terms (the option or file at fault, no Python parameter name); argparse errors
naming the subcommand; identifiers and run names; --cutoffs and --gains; measures by
name, JSON output and summaries in every command; FIFO inputs in every input position;
the pre-scan of --attributes that keeps every golddistr file it names from being an
output."""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import threading

import pytest

from commandline import cli, gfr_args
from commandline import one_line_error as trust_one_line_error
from fairconv import __version__
from fairconv.cli import main
from fairconv.datasets import fairweb1_pilot, path

CASES = path("cases")


def run(*args):
    """Run the installed CLI in a subprocess; return (status, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "fairconv", *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"fairconv {__version__}"


def test_demo_prints_the_slides_divergence_example(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "D1 = (0.1,0.7,0.1,0.1)    0.3651  0.2000  0.5477" in out
    assert "D2 = (0.1,0.1,0.1,0.7)    0.3651  0.6000  0.6000" in out
    assert "(0,0,0,1)       RNOD  0.404881" in out


def test_demo_prints_the_pilot_pack_table(capsys):
    """The @10 values are those of the organisers' expected/ files (FairWeb-1 pilot)."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert (
        "Anserini-bm25         P002   M-ORIGIN        0.3371   0.9248  0.8184  0.8877  0.7496"
        in out
    )


def test_no_command_is_a_one_line_error(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "fairconv: error: give a command (see 'fairconv --help')\n"


def test_demo_prints_the_papers_conversation_tables(capsys):
    """000 Tables 3 and 5 (R112) and 001 Tables 1-2 (M002)."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert (
        "COPWA-CS-QD-MN-2          0.008532      0.733061      0.404881      0.568971      0.382158"
        in out
    )
    assert "ORG-CS-D-MN-1             0.001175      0.002913      0.002024      0.002038" in out
    assert "GoogleBard-trial1         0.001395      0.404881      0.430272" in out


def test_demo_prints_the_rag_case(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "RAG fairness gap on pilot topic P002" in out
    assert "Anserini-qljm" in out and "N/A" in out
    assert "Recall-NtN 0.1667, Precision-NtN 0.5000, Recall-NtR 0.4167" in out


def test_usage_errors_are_one_line():
    code, out, err = run("gfr", "run.txt")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--qrels" in err and "Traceback" not in err


def test_python_dash_m_fairconv_runs_a_command_module_in_its_own_process(tmp_path):
    """The command's output guard travels on its arguments: no state shared by modules."""
    from fairconv.datasets import sakai_book

    f = tmp_path / "book.tsv"
    with open(f, "w") as out:
        sakai_book().table.to_tsv(out)
    code, out, err = run("compare", "-m", "nDCG@5", "--test", "tukey", str(f), "-o", str(f))
    assert code == 2 and "is the input" in err, err
    code, out, err = run("compare", "-m", "nDCG@5", "--test", "tukey", str(f))
    assert code == 0, err
    assert "X\tY\t" in out


PILOT = path("fairweb1-pilot")
GFR_ARGS = [
    "gfr",
    "--qrels",
    str(PILOT / "fairweb1pilot.qrels"),
    "--attribute",
    "M-ORIGIN",
    str(PILOT / "fairweb1pilot.M-ORIGIN.gmemb"),
    str(PILOT / "M-ORIGIN.golddistr"),
    "nominal",
    *(str(p) for p in sorted((PILOT / "runs").iterdir())),
]


def test_jobs_sets_the_threads_and_changes_no_output(capsys, monkeypatch):
    monkeypatch.delenv("FAIRCONV_THREADS", raising=False)
    outputs = []
    for jobs in ([], ["-j", "1"], ["--jobs", "3"], ["-j", "-1"]):
        assert main(GFR_ARGS + jobs) == 0
        outputs.append(capsys.readouterr().out)
    assert len(set(outputs)) == 1 and outputs[0].startswith("run\ttopic")
    monkeypatch.setenv("FAIRCONV_THREADS", "1")
    assert main(GFR_ARGS) == 0
    assert capsys.readouterr().out == outputs[0]


@pytest.mark.parametrize("jobs", ["0", "-2", "x", "1.5"])
def test_a_bad_jobs_count_is_a_usage_error(capsys, jobs):
    with pytest.raises(SystemExit) as exc:
        main([*GFR_ARGS, "-j", jobs])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert "argument -j/--jobs: takes an integer >= 1, or -1 for every available core" in err


def test_a_bad_fairconv_threads_is_a_one_line_error(capsys, monkeypatch):
    monkeypatch.setenv("FAIRCONV_THREADS", "zero")
    assert main(GFR_ARGS) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "fairconv gfr: error: The environment variable FAIRCONV_THREADS must" in err


@pytest.mark.parametrize("command", ["gfr", "ragfair", "gfrc", "gfrc2", "nuggets"])
def test_every_table_command_takes_jobs(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "-j N, --jobs N" in capsys.readouterr().out


# --------------------------------------------------------------------------- outputs
LABELS = "i1 a 1\ni1 b 1\ni2 a 0\ni2 b 1\n"


def labels_file(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text(LABELS)
    return f


def one_line_error(code, err, *needles):
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def test_an_output_through_a_link_replaces_the_file_and_keeps_the_link(tmp_path):
    f = labels_file(tmp_path)
    (tmp_path / "mine.txt").write_text("old\n")
    link = tmp_path / "link"
    link.symlink_to("mine.txt")
    code, out, err = run("labels", str(f), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "mine.txt"
    assert (tmp_path / "mine.txt").read_text().startswith("measure\tvalue\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["labels.txt", "link", "mine.txt"]


@pytest.mark.parametrize("through_a_link", [False, True])
def test_an_output_that_is_a_stream_is_written_into_not_replaced(tmp_path, through_a_link):
    """A FIFO, or a link to one (as /dev/stdout is a link to a pipe or terminal); a link
    of our own, not /dev/stdout, so that a failing run cannot replace a system file."""
    f = labels_file(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = fifo
    if through_a_link:
        target = tmp_path / "stdout"
        target.symlink_to(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    code, out, err = run("labels", str(f), "-o", str(target))
    is_fifo = stat.S_ISFIFO(os.lstat(fifo).st_mode)
    if is_fifo and not got:  # nothing was written into it: let the reader see the end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(10)
    assert code == 0, err
    assert is_fifo and target.is_symlink() == through_a_link
    assert got and got[0].startswith("measure\tvalue\n")


@pytest.mark.parametrize("target", ["", "folder", "missing/out.tsv"])
def test_an_output_that_cannot_be_written_is_named_as_given(tmp_path, target):
    (tmp_path / "folder").mkdir()
    f = labels_file(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "labels", str(f), "-o", target],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    one_line_error(proc.returncode, proc.stderr)
    assert ".tmp" not in proc.stderr
    if target:
        assert f"error: {target}: " in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "labels.txt"]


@pytest.mark.parametrize("errno", [13, 30])  # EACCES, EROFS
def test_an_output_into_a_folder_that_cannot_be_written_is_one_line(tmp_path, capsys, monkeypatch,
                                                                    errno):  # fmt: skip
    """-o into a read-only folder: the temporary file is never made, and its clean-up
    (which on a read-only file system fails with EROFS, not ENOENT) hides nothing: one
    line naming the path given, status 2, no traceback. The file system is simulated:
    root writes into any folder."""
    import builtins

    folder = tmp_path / "read-only"
    folder.mkdir()
    real_open, real_remove = builtins.open, os.remove

    def refused(path, *args, **kwargs):
        if str(path).startswith(str(folder)):
            raise OSError(errno, os.strerror(errno), str(path))
        return real_open(path, *args, **kwargs)

    def remove(path, *args, **kwargs):
        if str(path).startswith(str(folder)):
            raise OSError(30, os.strerror(30), str(path))  # before the lookup, as Linux does
        return real_remove(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refused)
    monkeypatch.setattr(os, "remove", remove)
    f = labels_file(tmp_path)
    out = folder / "out.tsv"
    code = main(["labels", str(f), "-o", str(out)])
    err = capsys.readouterr().err
    one_line_error(code, err, f"fairconv labels: error: {out}: {os.strerror(errno)}")
    assert list(folder.iterdir()) == []


def test_notices_from_worker_threads_are_whole_lines(tmp_path, monkeypatch):
    """With -j N, notices come from the worker threads: each is one whole line on
    stderr, never two glued on one line and then an empty one (print writes a line
    and its end apart; the stream here lets another thread in between any two writes)."""
    import io
    import time

    class Yielding(io.StringIO):
        def write(self, text):
            time.sleep(0.0005)
            return super().write(text)

    pilot = path("fairweb1-pilot")
    runs = []
    for k in range(8):  # scores that rise in file order: a notice per run
        f = tmp_path / f"run{k}"
        f.write_text("".join(f"P00{t} Q0 d{i} {i + 1} {i} r{k}\n" for t in (1, 2)
                             for i in range(4)))  # fmt: skip
        runs.append(str(f))
    stream = Yielding()
    monkeypatch.setattr(sys, "stderr", stream)
    code = main(["gfr", "--qrels", str(pilot / "fairweb1pilot.qrels"), "-j", "4",
                 "-o", str(tmp_path / "out.tsv"), *runs])  # fmt: skip
    lines = stream.getvalue().split("\n")
    assert code == 0 and lines[-1] == ""
    notices = [line for line in lines[:-1] if "scores higher than the line before it" in line]
    assert len(notices) == 8, lines
    assert all(line.startswith("fairconv gfr: warning: ") for line in lines[:-1]), lines
    assert all(line.count("fairconv gfr:") == 1 for line in lines[:-1]), lines


def test_a_hard_link_of_an_input_is_refused_as_the_output(tmp_path):
    f = labels_file(tmp_path)
    os.link(f, tmp_path / "other-name")
    code, out, err = run("labels", str(f), "-o", str(tmp_path / "other-name"))
    one_line_error(code, err, "is the input")
    assert (tmp_path / "other-name").read_text() == LABELS


def test_a_golddistr_named_in_the_attribute_json_is_an_input(tmp_path):
    """The no-overwrite rule covers the files an input names, not only the command line."""
    sets = json.loads((CASES / "r112-attributes.json").read_text())
    sets["PRONOUN"]["target"] = "pronoun.golddistr"
    (tmp_path / "attrs.json").write_text(json.dumps(sets))
    gold = tmp_path / "pronoun.golddistr"
    gold.write_text("0.333333\n0.333333\n0.333333\n")
    conversations = shutil.copy(CASES / "r112-fairweb2.jsonl", tmp_path)
    args = ["gfrc", "--attributes", str(tmp_path / "attrs.json"), str(conversations)]
    code, out, err = run(*args, "-o", str(gold))
    one_line_error(code, err, "is the input", "pronoun.golddistr")
    assert gold.read_text() == "0.333333\n0.333333\n0.333333\n"
    code, out, err = run(*args)
    assert code == 0, err


# --------------------------------------------------------------------------- agree, labels
def test_label_numbers_follow_the_readers_decimal_rule(tmp_path):
    """1_0 and Arabic-Indic digits are not numbers (Python's float takes them): labels."""
    for text in ("i1 a 1_0\ni1 b 10\n", "i1 a \u0661\ni1 b 1\n"):
        f = tmp_path / "l.txt"
        f.write_text(text, encoding="utf-8")
        code, out, err = run("labels", str(f))
        assert code == 0, err
        assert "accuracy\t0.0\n" in out  # two different labels, not one number
    f.write_text("i1 a 1\ni1 b 1e0\ni2 a 0\ni2 b 0.0\n")
    code, out, err = run("labels", str(f))
    assert "accuracy\t1.0\n" in out, err  # numbers: 1 = 1e0, 0 = 0.0
    code, out, err = run("labels", str(f), "--categories", "0,1_0")
    one_line_error(code, err, "--categories", "'1_0' is not a finite number")


def test_agree_names_a_measure_given_twice(tmp_path):
    scores = tmp_path / "s.tsv"
    scores.write_text("".join(f"r{i}\tT\tA\t0.{i}\n" for i in range(1, 4)))
    code, out, err = run("agree", "-m", "A", "-m", "A", str(scores))
    one_line_error(code, err, "'A' twice")


def test_agree_between_one_file_twice_is_refused(tmp_path):
    scores = tmp_path / "s.tsv"
    scores.write_text("".join(f"r{i}\tT\tA\t0.{i}\n" for i in range(1, 4)))
    os.link(scores, tmp_path / "t.tsv")
    for other in (scores, tmp_path / "." / "s.tsv", tmp_path / "t.tsv"):
        code, out, err = run("agree", "--between", "-m", "A", str(scores), str(other))
        one_line_error(code, err, "--between compares two score files; both are")


QRELS = str(PILOT / "fairweb1pilot.qrels")


GMEMB = str(PILOT / "fairweb1pilot.M-ORIGIN.gmemb")


GOLD = str(PILOT / "M-ORIGIN.golddistr")


RUN = str(PILOT / "runs" / "run.bm25-depThre6")


SETS = str(path("cases", "r112-attributes.json"))


CONVERSATIONS = str(path("cases", "r112-fairweb2.jsonl"))


ANSWERS = str(path("rag", "pilot-answers.jsonl"))


LABELS_JSONL = str(path("rag", "ikat-labels.jsonl"))


ATTRIBUTE = ["--attribute", "M-ORIGIN", GMEMB, GOLD, "nominal"]


# (invocation, what the message must name)
BAD = [
    (["gfr", "--qrels", QRELS, "--attribute", "M-ORIGIN", GMEMB, GOLD, RUN], "SCALE"),
    (["gfr", "--qrels", QRELS, "--weights", "0.5,0.4", RUN], "--weights"),
    (["gfr", "--qrels", QRELS, *ATTRIBUTE, "--weights", "0.2,0.2", RUN], "--weights"),
    (["gfr", "--qrels", QRELS, "--cutoffs", "5", "-m", "GFR@10", RUN], "--cutoffs"),
    (["gfr", "--qrels", QRELS, "--cutoffs", "0", RUN], "--cutoffs"),
    (["gfr", "--qrels", QRELS, "--phi", "1.5", RUN], "--phi"),
    (["gfr", "--qrels", QRELS, "--gains", "1:-3", RUN], "--gains"),
    (["gfr", "--qrels", QRELS, "-m", "GRF@10", RUN], "GRF@10"),
    (["gfr", "--qrels", QRELS, "-m", "GFR@", RUN], "GFR@"),
    (["gfr", "--qrels", QRELS, "-j", "0", RUN], "-j"),
    (["gfr", "--qrels", RUN, RUN], RUN),
    (["gfr", "--qrels", QRELS, QRELS], QRELS),
    (["gfr", "--qrels", "/nonexistent/qrels", RUN], "/nonexistent/qrels"),
    (["ragfair", "--qrels", QRELS, *ATTRIBUTE, "--answers", ANSWERS, "--weights", "2", RUN], ""),
    (["ragfair", "--qrels", QRELS, "--answers", ANSWERS, RUN], "--attribute"),
    (
        ["ragfair", "--qrels", QRELS, *ATTRIBUTE, "--answers", ANSWERS, "--cutoffs", "x", RUN],
        "--cutoffs",
    ),
    (["gfrc", "--attributes", SETS, "--L", "1", CONVERSATIONS], "--L"),
    (["gfrc", "--attributes", SETS, "--lmax", "0", CONVERSATIONS], "--lmax"),
    (["gfrc", "--attributes", SETS, "--weights", "1,0", CONVERSATIONS], "--weights"),
    (["gfrc", "--attributes", SETS, "-m", "GFRC2", CONVERSATIONS], "GFRC2"),
    (["gfrc2", "--attributes", SETS, "--L", "1", CONVERSATIONS], "--L"),
    (["gfrc2", "--attributes", SETS, "--weights", "0.5,0.6,0", CONVERSATIONS], "--weights"),
    (["gfrc2", "--attributes", CONVERSATIONS, CONVERSATIONS], CONVERSATIONS),
    (["nuggets", "-m", "Recall", LABELS_JSONL], "Recall"),
    (["nuggets", QRELS], QRELS),
    (["labels", GMEMB], GMEMB),
]


def _says_python(message: str) -> list[str]:
    """Python-isms that a command-line user would not recognise."""
    found = re.findall(r"'[a-z]+_[a-z_]+'|\bparameters? of\b|\b[a-z]+\(\)", message)
    found += re.findall(r"\b(?:n_jobs|attribute_sets|nan_policy|n_resamples|func)\b", message)
    return found


def _doubled_words(message: str) -> list[str]:
    return re.findall(r"\b([A-Za-z]+)\s+\1\b", message, flags=re.IGNORECASE)


@pytest.mark.parametrize(
    ("argv", "names"), BAD, ids=[f"{i}-{a[0]}" for i, (a, _) in enumerate(BAD)]
)
def test_cli_messages_in_the_command_terms(capsys, argv, names):
    try:
        code = main(argv)
    except SystemExit as exc:  # the parser's own errors
        code = exc.code
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if ": warning: " not in x]
    assert code == 2 and out == "", err
    assert len(lines) == 1 and "Traceback" not in err, err
    message = lines[0]
    assert message.startswith(f"fairconv {argv[0]}: error: "), message
    assert names in message, message
    assert not _says_python(message), message
    assert not _doubled_words(message), message


def test_cli_messages_checks_can_fail():
    assert _says_python("The 'n_jobs' parameter of gfr.evaluate must be >= 1.")
    assert _doubled_words("the qrels DataFrame DataFrame needs a column")
    assert _says_python("The 'test' and 'correction' parameters of stats.compare must differ.")


FIFO_QRELS = PILOT / "fairweb1pilot.qrels"


FIFO_GMEMB = PILOT / "fairweb1pilot.M-ORIGIN.gmemb"


FIFO_GOLD = PILOT / "M-ORIGIN.golddistr"


RUNS = [PILOT / "runs" / "run.bm25-depThre6", PILOT / "runs" / "run.qld-depThre6"]


FIFO_ANSWERS = path("rag", "pilot-answers.jsonl")


FIFO_SETS = path("cases", "r112-attributes.json")


FIFO_CONVERSATIONS = path("cases", "r112-fairweb2.jsonl")


FIFO_LABELS = path("rag", "ikat-labels.jsonl")


def _run(args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _through_fifo(tmp_path, args, position):
    """Run ``args`` with the file at ``position`` given as a FIFO instead."""
    fifo = tmp_path / f"pipe{position}"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(args[position]), fifo])
    try:
        return _run([*args[:position], fifo, *args[position + 1 :]], tmp_path)
    finally:
        writer.kill()
        writer.wait()


def _scores(tmp_path):
    f = tmp_path / "scores.tsv"
    proc = _run(["gfr", "--qrels", FIFO_QRELS, "-o", f, *RUNS], tmp_path)
    assert proc.returncode == 0, proc.stderr
    return f


def _label_file(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text("i1 a 1\ni1 b 0\ni2 a 1\ni2 b 1\ni3 a 0\ni3 b 0\n")
    return f


RANKED = ["--qrels", FIFO_QRELS, "--attribute", "M-ORIGIN", FIFO_GMEMB, FIFO_GOLD, "nominal"]


FIFO_CASES = {
    "gfr": (["gfr", *RANKED, *RUNS], [2, 5, 6, 8, 9]),
    "ragfair": (["ragfair", *RANKED, "--answers", FIFO_ANSWERS, RUNS[0]], [2, 5, 9, 10]),
    "gfrc": (["gfrc", "--attributes", FIFO_SETS, FIFO_CONVERSATIONS], [2, 3]),
    "gfrc2": (["gfrc2", "--attributes", FIFO_SETS, FIFO_CONVERSATIONS], [2, 3]),
    "nuggets": (["nuggets", FIFO_LABELS], [1]),
}


@pytest.mark.parametrize(
    ("command", "position"),
    [(c, p) for c, (_, positions) in sorted(FIFO_CASES.items()) for p in positions],
)
def test_fifo_inputs(tmp_path, command, position):
    args = list(FIFO_CASES[command][0])
    if command == "ragfair":  # the answers of the one run given
        answers = tmp_path / "answers.jsonl"
        lines = FIFO_ANSWERS.read_text().splitlines(keepends=True)
        answers.write_text("".join(x for x in lines if '"Anserini-bm25"' in x))
        args[args.index(FIFO_ANSWERS)] = answers
    want = _run(args, tmp_path)
    assert want.returncode == 0, want.stderr
    got = _through_fifo(tmp_path, args, position)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), got.stderr


@pytest.mark.parametrize("command", ["labels", "compare", "discpower", "agree"])
def test_fifo_inputs_of_the_analyses(tmp_path, command):
    if command == "labels":
        args = ["labels", _label_file(tmp_path)]
    else:
        args = [command, "-m", "ERR", _scores(tmp_path)]
        args[3:3] = ["-m", "iRBU"] if command == "agree" else ["--B", "200"]
    want = _run(args, tmp_path)
    assert want.returncode == 0, want.stderr
    got = _through_fifo(tmp_path, args, len(args) - 1)
    assert (got.returncode, got.stdout) == (0, want.stdout), got.stderr


PRESCAN_CONVERSATIONS = path("cases", "r112-fairweb2.jsonl")


PRESCAN_SETS = json.loads(path("cases", "r112-attributes.json").read_text())


def _prescan_run(tmp_path, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _sets_with_golddistr(tmp_path):
    """The bundled sets, the first one's target given as a golddistr file."""
    sets = json.loads(json.dumps(PRESCAN_SETS))
    name = next(iter(sets))
    target = sets[name]["target"]
    (tmp_path / "first.golddistr").write_text("".join(f"{x!r}\n" for x in target))
    sets[name]["target"] = "first.golddistr"
    return sets


@pytest.mark.parametrize("compress", [False, True])
def test_attributes_prescan_protects_golddistr_files(tmp_path, compress):
    sets = json.dumps(_sets_with_golddistr(tmp_path))
    f = tmp_path / ("sets.json.gz" if compress else "sets.json")
    f.write_bytes(gzip.compress(sets.encode()) if compress else sets.encode())
    before = (tmp_path / "first.golddistr").read_bytes()
    code, out, err = _prescan_run(
        tmp_path, "gfrc", "--attributes", f, "-o", "first.golddistr", PRESCAN_CONVERSATIONS
    )
    assert code == 2 and err.count("\n") == 1, err
    assert "the output first.golddistr is the input" in err
    assert (tmp_path / "first.golddistr").read_bytes() == before
    code, out, err = _prescan_run(
        tmp_path, "gfrc", "--attributes", f, "-o", "out.tsv", PRESCAN_CONVERSATIONS
    )
    assert code == 0, err  # the same file reads as attribute sets


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("first\x00.golddistr", "cannot be read (embedded null byte)"),
        ("first\ud800.golddistr", "lone surrogate"),
    ],
)
def test_attributes_prescan_targets_that_are_no_path(tmp_path, target, message):
    sets = _sets_with_golddistr(tmp_path)
    sets[next(iter(sets))]["target"] = target
    f = tmp_path / "sets.json"
    f.write_text(json.dumps(sets))  # \u escapes: the file is valid JSON
    code, out, err = _prescan_run(
        tmp_path, "gfrc", "--attributes", f, "-o", "out.tsv", PRESCAN_CONVERSATIONS
    )
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"fairconv gfrc: error: {f}: ") and message in err, err
    assert not (tmp_path / "out.tsv").exists()


def test_attributes_prescan_deep_nesting(tmp_path):
    f = tmp_path / "sets.json"
    f.write_text('{"A": {"target": ' + "[" * 1000 + "]" * 1000 + ', "scale": "nominal"}}')
    code, out, err = _prescan_run(tmp_path, "gfrc", "--attributes", f, PRESCAN_CONVERSATIONS)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"fairconv gfrc: error: {f}: "), err


def conversation(nuggets, **fields):
    rec = {"topic": "T", "run": "r", "text": "U:q S:a b c d e", "nuggets": nuggets}
    rec.update(fields)
    return rec


def test_rule3_cli_names_file_line_and_field(tmp_path):
    c = tmp_path / "c.jsonl"
    c.write_text(
        json.dumps(conversation([]))
        + "\n"
        + json.dumps(conversation([{"start": 3, "end": 3, "level": "2"}], run="other"))
        + "\n"
    )
    code, out, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", c)
    trust_one_line_error(code, err, f'{c}:2: nugget 1: "level" must be an integer, got "2"')


def test_rule4_entity_keys_are_identifiers_in_the_cli(tmp_path):
    """The second nugget's key has a space; the first (a valid key) is read as before."""
    c = tmp_path / "c.jsonl"
    nuggets = [{"start": 3, "end": 3, "entity": "k1"}, {"start": 5, "end": 5, "entity": "a b"}]
    c.write_text(json.dumps(conversation(nuggets)) + "\n")
    code, out, err = cli("gfrc", "--attributes", CASES / "r112-attributes.json", c)
    trust_one_line_error(code, err, f'{c}:1: nugget 2: "entity" must not contain whitespace')
    assert out == ""


def test_rule4_two_runs_with_one_name_in_the_cli(tmp_path):
    run = (PILOT / "runs" / "run.bm25-depThre6").read_bytes()
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "run").write_bytes(run)
    code, _, err = cli(*gfr_args(tmp_path / "a" / "run", tmp_path / "b" / "run"))
    trust_one_line_error(code, err, "two runs are named 'Anserini-bm25'", "a/run", "b/run")


def test_rule4_two_attribute_sets_with_one_name_in_the_cli():
    extra = ("--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
             PILOT / "M-ORIGIN.golddistr", "nominal")  # fmt: skip
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=extra))
    trust_one_line_error(code, err, "distinct names", "M-ORIGIN")


@pytest.mark.parametrize("text", ["10,,20", "10,", "1_0", "-5", "ten"])
def test_rule5_cli_cutoffs_without_empty_items(text):
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=("--cutoffs", text)))
    trust_one_line_error(code, err, "--cutoffs takes comma-separated positive integers")


@pytest.mark.parametrize("text", ["1:inf", "1:nan", "1::3", "1:1_0"])
def test_rule5_cli_gains_are_finite_numbers(text):
    code, _, err = cli(*gfr_args(PILOT / "runs" / "run.bm25-depThre6", extra=("--gains", text)))
    trust_one_line_error(code, err, "--gains takes finite numbers")


# --------------------------------------------------------------------------- rule 10
def test_rule10_a_bad_inline_target_names_its_attribute_set():
    code, _, err = cli("gfr", "--qrels", PILOT / "fairweb1pilot.qrels", "--attribute",
                       "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb", "0.5,0.6", "nominal",
                       PILOT / "runs" / "run.bm25-depThre6")  # fmt: skip
    trust_one_line_error(code, err, "attribute set 'M-ORIGIN'", "sum to 1")


@pytest.mark.parametrize(
    "args",
    [("gfrc", "--bogus"), ("gfrc", "--attributes", "a.json", "--bogus", "c.jsonl"),
     ("gfr", "--qrels", "q", "--cutoffs")],
)  # fmt: skip
def test_rule10_argparse_errors_name_the_subcommand(args):
    code, _, err = cli(*args)
    trust_one_line_error(
        code, err, f"fairconv {args[0]}: error:", f"see 'fairconv {args[0]} --help'"
    )


P = path("fairweb1-pilot")


ORIGIN = ("--attribute", "M-ORIGIN", str(P / "fairweb1pilot.M-ORIGIN.gmemb"),
          str(P / "M-ORIGIN.golddistr"), "nominal")  # fmt: skip


RATINGS = ("--attribute", "M-RATINGS", str(P / "fairweb1pilot.M-RATINGS.gmemb"),
           str(P / "M-RATINGS.golddistr"), "ordinal")  # fmt: skip


ALL_RUNS = [str(p) for p in sorted((P / "runs").iterdir())]


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_json_output_is_the_table_dict_with_null_for_undefined(capsys):
    out = run_cli(capsys, "ragfair", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN,
                  *RATINGS, "--answers", str(path("rag", "pilot-answers.jsonl")),
                  "--cutoffs", "10", "--format", "json", *ALL_RUNS)  # fmt: skip
    assert "NaN" not in out
    data = json.loads(out)
    assert data["Anserini-qljm"]["P002"]["RIGF@10[M-ORIGIN]"] == -100.0
    assert data["Anserini-qljm"]["P002"]["ADsim@10[M-ORIGIN]"] is None
    assert set(data["Anserini-bm25"]) == {"P002", "all"}


def test_summary_prints_only_the_all_rows(capsys):
    out = run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN,
                  "-m", "GFR@10", "--summary", *ALL_RUNS)  # fmt: skip
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [r[1] for r in rows] == ["all"] * 3 and {r[2] for r in rows} == {"GFR@10"}
    full = run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN, *ALL_RUNS)
    for run, _, measure, value in rows:
        assert f"{run}\tall\t{measure}\t{value}\n" in full
    as_json = json.loads(run_cli(capsys, "gfr", "--qrels", str(P / "fairweb1pilot.qrels"),
                                 *ORIGIN, "-m", "GFR@10", "--summary", "--format", "json",
                                 *ALL_RUNS))  # fmt: skip
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
          "--cutoffs", "5", ALL_RUNS[0]), "--cutoffs must include the depths the measures ask for"),
        (("gfr", "--qrels", str(P / "fairweb1pilot.qrels"), *ORIGIN, "--format", "nev",
          "--summary", ALL_RUNS[0]), "--format nev"),
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
