"""Unknown fields in records are refused, with a "did you mean" for a near miss."""

from __future__ import annotations

import pytest

from fairconv._validation import did_you_mean


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("levle", " Did you mean 'level'?"),  # adjacent swap
        ("runn", " Did you mean 'run'?"),  # insertion
        ("lvel", " Did you mean 'level'?"),  # deletion
        ("lavel", " Did you mean 'level'?"),  # substitution
        ("nuggets", ""),  # exact names are not misspellings
        ("leelv", ""),  # three letters moved is more than one edit
        ("xyz", ""),
        ("", ""),
    ],
)
def test_did_you_mean_one_edit_away(word, expected):
    assert did_you_mean(word, ["level", "run", "nuggets", "text"]) == expected


def test_did_you_mean_names_every_close_choice_in_order():
    assert did_you_mean("ab", ["abc", "xb", "ba"]) == " Did you mean 'abc', 'xb' or 'ba'?"


def test_did_you_mean_case_insensitive_for_measure_names():
    assert did_you_mean("ndcg", ["nDCG", "ERR"]) == ""
    assert did_you_mean("ndcg", ["nDCG", "ERR"], ignore_case=True) == " Did you mean 'nDCG'?"
    assert did_you_mean("GRF", ["GFR", "ERR"], ignore_case=True) == " Did you mean 'GFR'?"
