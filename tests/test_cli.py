"""The command line: demo output, version, and one-line errors without tracebacks."""

import json
import os
import shutil
import stat
import subprocess
import sys
import threading

import pytest

from fairconv import __version__
from fairconv.cli import main
from fairconv.datasets import path

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
