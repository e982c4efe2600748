"""Huge entries are refused by name before any arithmetic: no numpy overflow warning
(pytest turns warnings into errors), no inf that no input holds."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from fairconv import ragfair
from fairconv._validation import first_bad_distribution
from fairconv.datasets import path
from fairconv.io import read_gmemb

PILOT = path("fairweb1-pilot")


@pytest.mark.parametrize("row", ["1e308 1e308", "1.7e308 1.7e308 -1.7e308", "0.5 1e308"])
def test_overflow_warnings_gmemb_entries_checked_before_summing(tmp_path, row):
    f = tmp_path / "x.gmemb"
    f.write_text(f"P002 d0 0.5 0.5 {'0 ' * (row.count(' ') - 1)}\nP002 d1 {row}\n")
    message = f"{f}:2: group probabilities must be finite, in [0, 1] and sum to 1"
    with pytest.raises(ValueError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        read_gmemb(f)
    golddistr = tmp_path / "t.golddistr"
    n = row.count(" ") + 1
    golddistr.write_text("\n".join([f"{1 / n!r}"] * n) + "\n")
    proc = subprocess.run(
        [
            sys.executable, "-W", "error", "-m", "fairconv", "gfr",
            "--qrels", str(PILOT / "fairweb1pilot.qrels"),
            "--attribute", "X", str(f), str(golddistr), "nominal",
            str(PILOT / "runs" / "run.bm25-depThre6"),
        ],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_overflow_warnings_distribution_rows_in_memory():
    rows = np.array([[0.5, 0.5], [1e308, 1e308], [0.25, 0.75]])
    assert first_bad_distribution(rows) == 1


@pytest.mark.parametrize("gf_re", [1e-320, -5e-324, 1e-310])
def test_overflow_warnings_rigf_of_a_gf_re_next_to_zero(gf_re):
    with pytest.raises(
        ValueError, match=f"'gf_re' parameter of ragfair.rigf .* Got {gf_re!r} instead"
    ):
        ragfair.rigf(0.5, gf_re)
