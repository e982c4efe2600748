"""Ragged data: length masks and segment sums over flat arrays with start offsets."""

from __future__ import annotations

import numpy as np


# --------------------------------------------------------------------------- ragged data
def length_mask(lengths: np.ndarray, size: int) -> np.ndarray:
    """Boolean mask (..., size): True where the position is within the length."""
    return np.arange(size) < np.asarray(lengths)[..., None]


def segment_sum(x: np.ndarray, starts: np.ndarray, n_items: int) -> np.ndarray:
    """Sum each segment of flat ``x`` (axis 0); segment s is x[starts[s]:starts[s+1]].

    ``starts`` is non-decreasing with ``len(starts)`` segments; empty segments sum to 0.
    """
    n_seg = len(starts)
    out = np.zeros((n_seg,) + x.shape[1:], dtype=np.result_type(x, np.float64))
    if n_items == 0 or n_seg == 0:
        return out
    ends = np.append(starts[1:], n_items)
    nonempty = ends > starts
    out[nonempty] = np.add.reduceat(x, starts[nonempty], axis=0)
    return out


def segment_cumsum(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Cumulative sum along axis 0 that restarts at every segment start.

    Each segment's total is subtracted at the next start and the rounding residue the
    running sum carries across a boundary is removed, so every value has the precision
    of a sum over its own segment, however large the batch.
    """
    n = len(x)
    y = np.array(x, dtype=np.float64)
    inner = np.unique(starts[(starts > 0) & (starts < n)])
    if len(inner) == 0:
        return np.cumsum(y, axis=0)
    totals = np.add.reduceat(y, np.concatenate(([0], inner)), axis=0)[:-1]
    y[inner] -= totals
    out = np.cumsum(y, axis=0)
    carried = out[inner - 1] - totals  # ~1e-16 per boundary, accumulated
    fix = np.concatenate((np.zeros_like(carried[:1]), carried))
    out -= fix[np.searchsorted(inner, np.arange(n), side="right")]
    return out
