"""What the tests of :mod:`fairconv.stats` share.

Input checks, exact scaling, rounding bounds, random streams and chunks of trials, by
the conventions of the package's docstring.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._validation import (
    as_float_array,
    check_int,
    check_names,
    check_real,
    fail,
    fail_params,
    first_repeat,
)


def _scipy_stats():
    """``scipy.stats``, imported on first use: the command line starts without it."""
    from scipy import stats

    return stats


TIE_TOLERANCE = 1e-9
"""A trial ties the observed statistic within this relative tolerance."""

CHUNK_BYTES = 64 * 2**20
"""Memory of the random numbers and intermediate arrays of one chunk of trials."""

_EPS = float(np.finfo(np.float64).eps)


def _vector(x, name: str) -> np.ndarray:
    arr = as_float_array(x, name)
    if arr.ndim != 1:
        raise fail(name, "be a 1-d array of per-topic scores", f"shape {arr.shape}")
    if arr.shape[0] < 2:
        raise fail(name, "hold the scores of at least 2 topics", f"{arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise fail(
            name,
            "hold finite scores",
            f"NaN or infinity at topic {int(np.argmin(np.isfinite(arr)))}",
        )
    return arr


def _pair(x, y) -> tuple[np.ndarray, np.ndarray, int]:
    """The differences x - y of the scaled scores, their magnitudes |x| + |y|, and e.

    Both are divided by 2**e (:func:`fairconv._core.scaled`); the magnitudes bound the
    rounding of d.
    """
    a, b = _vector(x, "x"), _vector(y, "y")
    if a.shape != b.shape:
        raise fail("y", f"hold the {len(a)} topics of 'x'", f"{len(b)}")
    ab, e = _core.scaled(np.stack([a, b]))
    return ab[0] - ab[1], np.abs(ab[0]) + np.abs(ab[1]), e


def _unscaled(value, e: int, what: str, params: tuple[str, ...]):
    """``value * 2**e`` (a float or an array), refused when it exceeds the float range."""
    with np.errstate(over="ignore"):
        out = np.ldexp(value, e)
    if not np.isfinite(out).all():
        raise fail_params(
            params,
            f"hold scores small enough that {what} is a finite float",
            "scores for which it exceeds 1.8e308",
            hint="divide them by a constant",
        )
    return out if isinstance(out, np.ndarray) and out.ndim else float(out)


def _round_off(n: int, magnitude):
    """The largest rounding error of a float sum of n scores of total |size| magnitude.

    Differences and sums that are 0 on paper come out of floats as about 1e-17 for
    scores near 1 (0.1 + 0.2 - 0.3); ``4 n eps`` times their magnitude bounds that.
    """
    return 4.0 * n * _EPS * np.asarray(magnitude, dtype=np.float64)


def _constant(d: np.ndarray, mag: np.ndarray, axis: int = 0) -> np.ndarray:
    """Whether the values along ``axis`` are all equal, within rounding.

    ``mag`` holds the magnitudes of the scores each value comes from (|x| + |y| for a
    difference): values equal on paper (0.3 - 0.1 and 0.2) differ by less than
    :func:`_round_off` of the largest, a bound that moves with a common shift or scale
    of the scores and not with the values' own size.
    """
    spread = np.abs(d - d.mean(axis=axis, keepdims=True)).max(axis=axis)
    return np.asarray(~(spread > _round_off(d.shape[axis], mag.max(axis=axis))))


def _matrix(scores) -> np.ndarray:
    arr = as_float_array(scores, "scores")
    if arr.ndim != 2:
        raise fail("scores", "be a (topics, systems) array", f"shape {arr.shape}")
    if arr.shape[0] < 2 or arr.shape[1] < 2:
        raise fail("scores", "hold at least 2 topics and 2 systems", f"shape {arr.shape}")
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise fail(
            "scores",
            "hold finite scores",
            f"NaN or infinity at topic {bad[0]}, system {bad[1]}",
        )
    return arr


def _alpha(alpha) -> float:
    return check_real(alpha, "alpha", low=0.0, high=1.0, closed="neither")


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(check_int(seed, "seed", minimum=0))


def _seed_shown(seed) -> int | None:
    """The seed as a report prints it: the int, or None for a Generator or no seed."""
    return None if seed is None or isinstance(seed, np.random.Generator) else int(seed)


def _p_values(counts, trials: int, exact: bool) -> np.ndarray:
    """Count / N for an exact enumeration; the Monte Carlo (count + 1) / (B + 1) else.

    A Monte Carlo p counts the observed data as one of the trials, so that it is never
    0 and the test keeps its level (Phipson and Smyth, 2010).
    """
    counts = np.asarray(counts, dtype=np.float64)
    return counts / trials if exact else (counts + 1.0) / (trials + 1.0)


def _run_names(runs, m: int, name: str) -> tuple[str, ...]:
    """``runs`` checked as m distinct str names (default "0", "1", ...)."""
    if runs is None:
        return tuple(str(i) for i in range(m))
    names = check_names(runs, name, "run names")
    if len(names) != m:
        raise fail(name, f"name the {m} runs (columns)", f"{len(names)} names")
    repeat = first_repeat(names)
    if repeat is not None:
        i, j = repeat
        raise fail(name, "name each run once", f"{names[j]!r} at positions {i} and {j}")
    return tuple(names)


def _canonical(names: tuple[str, ...], topics=None) -> tuple[np.ndarray, np.ndarray | None]:
    """The order of runs (by name) and of topics (by id) in which trials are drawn.

    A seed then gives the same p whatever the order of the files, the runs or the
    topic file: the random trials see the scores in one order.
    """
    runs = np.array(sorted(range(len(names)), key=names.__getitem__), dtype=np.int64)
    if topics is None:
        return runs, None
    return runs, np.array(sorted(range(len(topics)), key=topics.__getitem__), dtype=np.int64)


def _check_topics(n: int, minimum: int, test: str, params: tuple[str, ...]) -> None:
    """Refuse fewer topics than ``test`` needs (its documented minimum)."""
    if n < minimum:
        raise fail_params(
            params,
            f"hold at least {minimum} topics for the {test} test",
            f"{n}",
            hint="with fewer the test cannot tell runs apart",
        )


MIN_TOPICS = {"bootstrap": 4}
"""Tests that need more topics than the 2 every test needs (statistics.md)."""


def _limit(observed, floor) -> np.ndarray:
    """The least trial statistic that reaches ``observed`` (statistics.md, Ties).

    A tie within ``TIE_TOLERANCE`` of the observed statistic counts. An observed
    statistic within ``floor`` (the rounding of its float computation) of 0 is 0 on
    paper: it comes out of a float sum as, say, 1e-17, and every trial reaches it.
    """
    obs = np.abs(np.asarray(observed, dtype=np.float64))
    return np.where(obs <= floor, 0.0, obs - TIE_TOLERANCE * obs)


def _chunk(per_trial: int) -> int:
    return max(1, CHUNK_BYTES // (8 * max(1, per_trial)))


def _grid(d: np.ndarray, n: int, axis: int | None = 0) -> np.ndarray:
    """A power of 2 per slice along ``axis``: multiples of it sum exactly (see _split)."""
    top = np.maximum(np.abs(d).max(axis=axis, keepdims=True), np.finfo(np.float64).tiny)
    return np.ldexp(1.0, np.maximum(np.frexp(top)[1] + (n - 1).bit_length() + 2 - 53, -1022))
