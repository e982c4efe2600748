"""A label written NaN (pandas' missing value) or infinite is an error in a label file,
whether the other labels are numbers or strings."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fairconv.agreement import read_label_file


@pytest.mark.parametrize("others", [("1", "0"), ("yes", "no")])
@pytest.mark.parametrize("token", ["NaN", "nan", "-inf", "Infinity"])
def test_nan_labels_are_errors_naming_file_and_line(tmp_path, others, token):
    f = tmp_path / "labels.txt"
    f.write_text(f"i1 a {others[0]}\ni1 b {others[1]}\n# note\ni2 a {token}\ni2 b {others[0]}\n")
    message = f"{f}:4: the label {token!r} is not a finite number"
    with pytest.raises(ValueError, match="^" + message.replace("+", r"\+")):
        read_label_file(f)
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "labels", str(f)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_nan_labels_words_that_contain_nan_are_labels(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text("i1 a nana\ni1 b nan-ish\ni2 a info\ni2 b nana\n")
    assert read_label_file(f).labels.tolist() == [["nana", "nan-ish"], ["info", "nana"]]
