"""The command line's messages speak in its own terms: for a set of bad invocations of
every command, one line on stderr, exit status 2, the option or file at fault, no
Python parameter name, no doubled word, no traceback."""

from __future__ import annotations

import re

import pytest

from fairconv.cli import main
from fairconv.datasets import path

PILOT = path("fairweb1-pilot")
QRELS = str(PILOT / "fairweb1pilot.qrels")
GMEMB = str(PILOT / "fairweb1pilot.M-ORIGIN.gmemb")
GOLD = str(PILOT / "M-ORIGIN.golddistr")
RUN = str(PILOT / "runs" / "run.bm25-depThre6")
SETS = str(path("cases", "r112-attributes.json"))
CONVERSATIONS = str(path("cases", "r112-fairweb2.jsonl"))
ANSWERS = str(path("rag", "pilot-answers.jsonl"))
LABELS = str(path("rag", "ikat-labels.jsonl"))
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
    (["nuggets", "-m", "Recall", LABELS], "Recall"),
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
