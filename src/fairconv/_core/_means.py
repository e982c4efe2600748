"""Means over topics: exact, sequential and scaled sums."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


# --------------------------------------------------------------------------- means
def scaled(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """``arr / 2**e`` with its largest |value| in [0.5, 1), and e (0 for an all-0 array).

    Division by a power of 2 is exact for every value within a factor 2^1021 of the
    largest: sums, means and their rounding are those of the values, but squares
    neither overflow (1e200) nor underflow (1e-300). A value smaller still becomes
    subnormal and may lose its last bits.
    """
    top = float(np.abs(arr).max()) if arr.size else 0.0
    e = math.frexp(top)[1] if top > 0 else 0
    return (np.ldexp(arr, -e) if e else arr), e


def column_scales(x: np.ndarray) -> np.ndarray:
    """The exponent e_j of each column of (n, ...) ``x``, scaling it to [0.5, 1).

    The largest finite |value| of column j over 2^e_j is in [0.5, 1) (e_j is 0 for an
    all-0 column; NaN and infinities are left out).

    Dividing a column by 2^e_j is exact for every value within a factor 2^1021 of the
    column's largest, and its sum of n values then stays below n in magnitude.
    """
    with np.errstate(invalid="ignore"):
        top = np.max(np.where(np.isfinite(x), np.abs(x), 0.0), axis=0, initial=0.0)
    return np.frexp(top)[1]


def fsum_means(x: np.ndarray) -> np.ndarray:
    r"""Column means of (n, k) ``x`` from correctly rounded sums, without overflow.

    .. math::
        \bar x_j = 2^{e_j}\, \mathrm{fl}\Big(\mathrm{fl}\big(\sum_i x_{ij} / 2^{e_j}\big) / n\Big)

    with the sum rounded once (``math.fsum``) and 2^{e_j} the scale of column j
    (:func:`column_scales`). Two columns whose sums are equal on paper (0.1 + 0.2 + 0.3
    and 0.3 + 0.2 + 0.1, or 0.3 + 0.3 + 0.0) get the same mean, bit for bit, whatever
    the order of their values; finite values near 1.8e308 do not overflow, and a column
    of tiny values keeps its bits whatever the other columns hold.
    """
    e = column_scales(x)
    s = np.ldexp(x, -e)
    n = x.shape[0]
    sums = np.array([math.fsum(col) for col in s.T.tolist()], dtype=np.float64)
    return np.ldexp(sums / n, e)


def exact_mean(x: np.ndarray) -> float:
    r"""The mean of doubles rounded once, as ``statistics.mean``: their exact sum over n.

    .. math::
        \bar x = \mathrm{fl}\Big(\frac{1}{n} \sum_i x_i\Big)

    with the sum exact. It is the sum of the doubles :func:`math.fsum` returns for
    what is left after each one is taken away (a few passes; each leaves less than
    half an ulp), taken as fractions. For values whose partial sums stay finite
    (scores, ratios in [0, 1]): ``math.fsum`` raises OverflowError beyond.
    """
    rest = x.tolist()
    parts = []
    while True:
        part = math.fsum(rest)
        if part == 0.0:
            break
        parts.append(Fraction(part))
        rest.append(-part)
    return float(sum(parts, Fraction(0)) / len(x))


def sequential_mean(x: np.ndarray) -> float:
    """The sum of x over len(x), the values added left to right; 0 for no value.

    As CONE-RAG averages its per-turn ratios (values in [0, 1], whose sum is finite).
    """
    return float(np.add.accumulate(x)[-1] / len(x)) if len(x) else 0.0


def defined_means(values: np.ndarray, defined: np.ndarray, count: np.ndarray) -> np.ndarray:
    r"""Means over axis 0 of the values where ``defined``; NaN where ``count`` is 0.

    .. math::
        \bar x = \frac{1}{n} \sum_{i\,:\,defined} x_i,\qquad n = count

    A sum past the largest double is taken again with the values of each cell divided
    by a power of 2 (:func:`column_scales`, exact) and the mean scaled back, so finite
    values always give their finite mean; infinities of both signs give NaN.
    """
    cells = np.where(defined, values, 0.0)
    n = np.maximum(count, 1)
    with np.errstate(invalid="ignore", over="ignore"):  # inf and -inf: a NaN mean
        mean = np.where(count > 0, cells.sum(axis=0) / n, np.nan)
        over = np.isinf(mean) & np.isfinite(cells).all(axis=0)
        if over.any():
            e = column_scales(cells)
            rescaled = np.ldexp(np.ldexp(cells, -e).sum(axis=0) / n, e)
            mean[over] = rescaled[over]
    return mean
