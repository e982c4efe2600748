"""The command line: demo output, version, and one-line errors without tracebacks."""

import subprocess
import sys

import pytest

from fairconv import __version__
from fairconv.cli import main


def run(*args):
    """Run the installed CLI in a subprocess; return (status, stdout, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv.cli", *args], capture_output=True, text=True
    )
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


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out


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
    assert "Recall_NtN 0.1667, Precision_NtN 0.5000, Recall_NtR 0.4167" in out


def test_usage_errors_are_one_line():
    code, out, err = run("gfr", "run.txt")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--qrels" in err and "Traceback" not in err


def test_python_dash_m_fairconv_cli_runs_the_command_modules(tmp_path):
    """`python -m fairconv.cli compare` shares the CLI's state with the command modules."""
    from fairconv.datasets import sakai_book

    f = tmp_path / "book.tsv"
    with open(f, "w") as out:
        sakai_book().table.to_tsv(out)
    code, out, err = run("compare", "-m", "nDCG@5", "--test", "tukey", str(f))
    assert code == 0, err
    assert "X\tY\t" in out
