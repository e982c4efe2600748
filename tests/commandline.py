"""Running the command line in a subprocess, for the tests of every module that has a
command: ``python -m fairconv ARGS`` and the checks of its one-line errors."""

import subprocess
import sys

from fairconv.datasets import path

PILOT = path("fairweb1-pilot")


def cli(*args, cwd=None) -> tuple[int, str, str]:
    """``python -m fairconv ARGS``: (status, stdout, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    return proc.returncode, proc.stdout, proc.stderr


def one_line_error(code: int, err: str, *needles: str) -> None:
    """Status 2 and one error line (notices aside), no traceback, holding each needle."""
    assert code == 2, err
    err = "".join(x for x in err.splitlines(keepends=True) if ": warning: " not in x)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def cli_error(*args) -> str:
    """The one stderr line of a command that must fail with status 2 and print nothing."""
    code, out, err = cli(*args)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def gfr_args(*runs, extra=()) -> tuple:
    """``fairconv gfr`` on the pilot qrels and its M-ORIGIN set."""
    return (
        "gfr", "--qrels", PILOT / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        PILOT / "M-ORIGIN.golddistr", "nominal", *extra, *runs,
    )  # fmt: skip
