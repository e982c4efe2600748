"""Keys that pack two integers into one int64 have no hidden limit.

A TREC Fair target table is indexed by ``topic * n_cells + cell``, where ``n_cells`` is
the product of the dimensions' category counts: a few dimensions with many categories
reach 2**63. A table (or alignments) that fits is read with exact keys; one that does
not is refused up front, never stored with keys that wrapped around. (The entity
dedupe of conversations, in test_core.py, and the repeated-label check of label files,
in test_agreement.py, compare pairs of codes as pairs, with no packed key at all.)
"""

import io
import math

import numpy as np
import pytest

from fairconv import trecfair
from fairconv.io import FileFormatError
from fairconv.io._trecfair import Dimension


def _dimensions(n, size):
    categories = tuple(f"c{k}" for k in range(size))
    return [Dimension(f"d{j}", categories, np.array([b"p"]), np.zeros((1, size))) for j in range(n)]


def _table(dims, rows):
    head = "\t".join(["topic_id", *(d.name for d in dims), "target"])
    return io.StringIO("\n".join([head, *("\t".join(r) for r in rows)]) + "\n")


def test_a_target_table_of_2_topics_by_2_56_cells_keeps_exact_keys():
    dims = _dimensions(8, 128)  # 2**56 cells
    rows = [
        ["1", *["c127"] * 8, "0.25"],
        ["1", *["c0"] * 8, "0.75"],
        ["2", *["c5"] * 7, "c6", "1"],
    ]
    targets = trecfair.read_targets(_table(dims, rows), dims)
    n_cells = 2**56
    top = n_cells - 1  # every dimension at its last category
    five = sum(5 * 128**k for k in range(1, 8)) + 6
    assert targets.topics == ("1", "2")
    assert targets.targets._keys.tolist() == [0, top, n_cells + five]
    assert targets.targets._tvals.tolist() == [0.75, 0.25, 1.0]


@pytest.mark.parametrize("n, size", [(9, 128), (8, 300)])
def test_a_target_table_past_2_63_keys_is_refused_at_its_header(n, size):
    dims = _dimensions(n, size)  # 2**63 and 300**8 cells: one topic is already too many
    cells = math.prod(len(d.categories) for d in dims)
    assert cells == size**n > 2**63 - 1
    rows = [["1", *["c1"] * n, "0.5"], ["1", *[f"c{size - 1}"] * n, "0.5"]]
    with pytest.raises(FileFormatError, match=rf"<.*>:1: 1 topics times {cells} cells"):
        trecfair.read_targets(_table(dims, rows), dims)


def test_targets_of_alignments_past_2_63_keys_are_refused_before_any_work():
    rows = [np.zeros((1, 1, 300)) for _ in range(8)]  # one topic, 300**8 cells
    for a in rows:
        a[0, 0, 1] = 1.0
    with pytest.raises(ValueError, match=r"'alignments' parameter .* 1 topics x 6561\d+ cells"):
        trecfair.targets_from_alignments(rows, lengths=[1], task=1)


def test_targets_built_past_2_63_keys_name_the_dimensions_not_the_alignments(tmp_path):
    dims = _dimensions(8, 300)  # page "p" in every dimension; 300**8 cells
    for d in dims:
        d.rows[0, 1] = 1.0
    qrels = tmp_path / "q.jsonl"
    qrels.write_text('{"id": 1, "rel_docs": ["p"]}\n')
    message = r"'dimensions' parameter of trecfair.build_targets .* 1 topics x 6561\d+ cells"
    with pytest.raises(ValueError, match=message):
        trecfair.build_targets(trecfair.read_qrels(qrels), dims, task=1)
