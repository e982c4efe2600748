"""The checks of the array-level functions (padded arrays, batch axes leading).

Each uses the shared rules of :mod:`fairconv._validation`; what is particular to TREC
Fair is only the layout: one alignment array per dimension, and the rows that count
taken out of the padding as sparse rows for :mod:`fairconv._core`.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._validation import as_float_array, check_one_per, fail


def check_alignments(alignments, lead, name: str) -> list[np.ndarray]:
    """One array of shape lead + (G_j,) per dimension; ``lead`` None: the first array's."""
    alignments = check_one_per(alignments, name, "dimension")
    if len(alignments) == 0:
        raise fail(name, "hold at least one dimension", "an empty sequence")
    out = []
    for j, a in enumerate(alignments):
        arr = as_float_array(a, f"{name}[{j}]")
        if lead is None:
            if arr.ndim < 2:
                raise fail(f"{name}[0]", "be an array of shape (..., R, G_j)", f"shape {arr.shape}")
            lead = arr.shape[:-1]
        if arr.ndim != len(lead) + 1 or arr.shape[:-1] != tuple(lead):
            raise fail(f"{name}[{j}]", f"have shape {tuple(lead)} + (G,)", f"shape {arr.shape}")
        if arr.shape[-1] < 1:
            raise fail(f"{name}[{j}]", "have at least one category", f"shape {arr.shape}")
        out.append(arr)
    return out


def counted_rows(alignments, picked: np.ndarray, name: str) -> list:
    """The sparse rows of the picked positions (flat indices into the lead shape).

    Only these rows are checked (finite, >= 0) and used: rows at padding, or of pages no
    table lists, may hold anything.
    """
    out = []
    for j, a in enumerate(alignments):
        rows = np.take(a.reshape(-1, a.shape[-1]), picked, axis=0)  # faster than a mask
        # min and max propagate NaN: one pass each, the row search only on failure
        if rows.size and not (rows.min() >= 0 and rows.max() < np.inf):
            ok = ((rows >= 0) & (rows < np.inf)).all(axis=1)
            where = tuple(int(i) for i in np.unravel_index(picked[np.argmin(ok)], a.shape[:-1]))
            raise fail(
                f"{name}[{j}]", "hold finite non-negative numbers", f"a bad value at index {where}"
            )
        out.append(_core.sparse_rows(rows))
    return out
