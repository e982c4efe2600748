"""Input checks shared by every public function.

Each check raises ``ValueError`` (or ``TypeError`` for the wrong kind of object) with
one message template: "The '<name>' parameter of <func> must <rule>. Got <what>
instead." The arithmetic in :mod:`fairconv._core` assumes these checks have passed.
"""

from __future__ import annotations

import numpy as np

SUM_TOLERANCE = 1e-5
"""A distribution sums to 1 within this tolerance (published targets have 6 digits)."""


def fail(name: str, func: str, rule: str, got: str) -> ValueError:
    """Build the standard error message (returned, so callers write ``raise fail(...)``)."""
    return ValueError(f"The '{name}' parameter of {func} must {rule}. Got {got} instead.")


def as_float_array(x, name: str, func: str) -> np.ndarray:
    """Convert ``x`` to a float64 array, with a TypeError for non-numeric input."""
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(
            f"The '{name}' parameter of {func} must be an array of numbers. "
            f"Got an object numpy cannot read as an array ({exc})."
        ) from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(
            f"The '{name}' parameter of {func} must be an array of numbers. "
            f"Got an array of dtype {arr.dtype} instead."
        )
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(
            f"The '{name}' parameter of {func} must be real. Got complex values instead."
        )
    return arr.astype(np.float64, copy=False)


def check_distributions(x, name: str, func: str, *, allow_nan_rows: bool = False) -> np.ndarray:
    """Check probability vectors along the last axis; return them as float64.

    Each vector must have at least two groups, finite non-negative entries and sum to 1
    within :data:`SUM_TOLERANCE`. Nothing is renormalised. With ``allow_nan_rows``, a
    vector that is entirely NaN passes (it marks a missing membership).
    """
    arr = as_float_array(x, name, func)
    if arr.ndim == 0:
        raise fail(name, func, "be an array with the groups on its last axis", "a scalar")
    if arr.shape[-1] < 2:
        raise fail(name, func, "have at least 2 groups on its last axis", f"shape {arr.shape}")
    sums = arr.sum(axis=-1)
    if allow_nan_rows:
        nan_rows = np.isnan(arr).all(axis=-1)
        if nan_rows.any():
            sums = np.where(nan_rows, 1.0, sums)
            work = np.where(nan_rows[..., None], 0.0, arr)
        else:
            work = arr
    else:
        work = arr
    if not np.isfinite(sums).all():
        bad = np.argwhere(~np.isfinite(work).all(axis=-1))
        where = _index(bad[0]) if len(bad) else ""
        raise fail(name, func, "contain only finite probabilities", f"NaN or infinity{where}")
    if work.size and work.min() < 0:
        bad = np.argwhere((work < 0).any(axis=-1))
        raise fail(
            name,
            func,
            "contain only non-negative probabilities",
            f"a negative entry{_index(bad[0])}",
        )
    off = np.abs(sums - 1.0) > SUM_TOLERANCE
    if off.any():
        bad = np.argwhere(off)[0] if off.ndim else ()
        raise fail(
            name,
            func,
            f"sum to 1 along its last axis (within {SUM_TOLERANCE:g})",
            f"sum {float(sums[tuple(bad)]):.10g}{_index(bad)}",
        )
    return arr


def _index(idx) -> str:
    idx = tuple(int(i) for i in idx)
    return f" at index {idx}" if idx else ""


def check_same_groups(p: np.ndarray, q: np.ndarray, func: str, names=("p", "q")) -> None:
    """Both arrays must have the same number of groups and broadcastable leading axes."""
    if p.shape[-1] != q.shape[-1]:
        raise ValueError(
            f"The '{names[0]}' and '{names[1]}' parameters of {func} must have "
            f"the same number of groups. Got shapes {p.shape} and {q.shape} instead."
        )
    try:
        np.broadcast_shapes(p.shape, q.shape)
    except ValueError:
        raise ValueError(
            f"The '{names[0]}' and '{names[1]}' parameters of {func} must have "
            f"broadcastable shapes. Got shapes {p.shape} and {q.shape} "
            "instead."
        ) from None


def check_choice(value, name: str, func: str, choices) -> str:
    """``value`` must be one of ``choices`` (compared case-insensitively for strings)."""
    if isinstance(value, str):
        for c in choices:
            if value.lower() == c.lower():
                return c
    raise fail(name, func, "be one of " + ", ".join(repr(c) for c in choices), repr(value))


def check_positive_int(value, name: str, func: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise fail(name, func, f"be an integer >= {minimum}", repr(value))
    return int(value)


def check_weights(weights, count: int, name: str, func: str) -> np.ndarray:
    """Non-negative weights, ``count`` of them, summing to 1 within the tolerance."""
    w = as_float_array(weights, name, func)
    if w.ndim != 1 or w.shape[0] != count:
        raise fail(name, func, f"hold {count} weights", f"shape {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise fail(name, func, "hold finite non-negative weights", repr(w.tolist()))
    if abs(w.sum() - 1.0) > SUM_TOLERANCE:
        raise fail(name, func, f"sum to 1 (within {SUM_TOLERANCE:g})", f"sum {w.sum():.10g}")
    return w
