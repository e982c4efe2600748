"""Fuzz the label-file reader (``item rater label`` rows): any bytes end in a label
matrix or a ValueError naming the file, and a valid file reads as a plain loop over its
lines says it should. Nothing may raise another exception or a warning."""

from __future__ import annotations

import math
import re

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairconv.agreement import read_label_file

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
NAME = st.text(st.sampled_from("abcxyz0123-_.é検"), min_size=1, max_size=4)
NUMBER = st.one_of(
    st.integers(-5, 5).map(str),
    st.sampled_from(["0.5", "1e0", "-2.25", "+3", ".5", "2.", "1E-1"]),
)
WORD = st.sampled_from(["yes", "no", "partial", "nan-ish", "info", "N/A", "1_0", "٣"])
TOKENS = st.one_of(
    NAME, NUMBER, WORD, st.sampled_from(["NaN", "-inf", "Infinity", "#", "\ufeff", "\x00"])
)


def oracle(text: str):
    """The matrix the formats promise, from a plain loop over the lines."""
    items, raters, cells = {}, {}, {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item, rater, label = line.split()
        items.setdefault(item, len(items))
        raters.setdefault(rater, len(raters))
        assert (item, rater) not in cells
        cells[(item, rater)] = label
    decimal = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
    numeric = all(decimal.match(v) for v in cells.values())
    out = [[None] * len(raters) for _ in items]
    for (item, rater), v in cells.items():
        out[items[item]][raters[rater]] = float(v) if numeric else v
    return tuple(items), tuple(raters), out, numeric


@FUZZ
@given(st.lists(st.tuples(NAME, NAME, st.one_of(NUMBER, WORD)), min_size=1, max_size=30))
def test_fuzz_labels_valid_files_read_as_the_oracle(tmp_path, rows):
    seen, lines = set(), []
    for item, rater, label in rows:
        if (item, rater) not in seen:
            seen.add((item, rater))
            lines.append(f"{item}\t{rater} {label}")
    text = "# item rater label\n" + "\n".join(lines) + "\n"
    f = tmp_path / "labels.txt"
    f.write_text(text, encoding="utf-8")
    m = read_label_file(f)
    items, raters, want, numeric = oracle(text)
    assert (m.items, m.raters, m.numeric) == (items, raters, numeric)
    got = m.labels.tolist()
    for row_got, row_want in zip(got, want, strict=True):
        for g, w in zip(row_got, row_want, strict=True):
            if w is None:
                assert g is None or (isinstance(g, float) and math.isnan(g))
            else:
                assert g == w


@FUZZ
@given(
    st.lists(st.lists(TOKENS, min_size=0, max_size=4), min_size=0, max_size=12),
    st.sampled_from(["\n", "\r\n", " \n"]),
)
def test_fuzz_labels_any_tokens_end_in_a_matrix_or_a_file_error(tmp_path, rows, end):
    f = tmp_path / "labels.txt"
    f.write_text(end.join(" ".join(r) for r in rows) + end, encoding="utf-8")
    try:
        m = read_label_file(f)
    except ValueError as exc:
        assert str(exc).startswith(f"{f}:") or str(exc).startswith(f"{f} "), exc
        return
    assert m.labels.shape == (len(m.items), len(m.raters))
    if m.numeric:
        assert not np.isinf(m.labels).any()
    else:  # a NaN or an infinity is no label, even among strings
        nan = re.compile(r"[+-]?(?i:nan|inf|infinity)")
        assert not any(isinstance(v, str) and nan.fullmatch(v) for v in m.labels.ravel())


@FUZZ
@given(st.binary(max_size=60))
def test_fuzz_labels_any_bytes_end_in_a_matrix_or_a_file_error(tmp_path, data):
    f = tmp_path / "labels.txt"
    f.write_bytes(data)
    try:
        read_label_file(f)
    except ValueError as exc:
        assert str(exc).startswith(str(f)), exc
