"""Multiple-comparison corrections of the p-values of a family of tests."""

from __future__ import annotations

import numpy as np

from .._validation import as_float_array, check_choice, fail, public

CORRECTIONS = ("none", "bonferroni", "holm", "bh")
"""Multiple-comparison corrections of the p-values of pairwise tests."""


@public
def adjust_pvalues(p, /, *, correction: str) -> np.ndarray:
    r"""Adjust a family of p-values: Bonferroni, Holm or Benjamini-Hochberg.

    Parameters
    ----------
    p : array_like
        p-values in [0, 1], any shape (adjusted as one family).
    correction : {'none', 'bonferroni', 'holm', 'bh'}

    Returns
    -------
    ndarray
        Adjusted p-values in [0, 1], the shape of ``p``.

    Raises
    ------
    ValueError
        For an unknown correction or values outside [0, 1].

    Notes
    -----
    The definitions of ``statsmodels.stats.multitest.multipletests``: Bonferroni
    ``min(1, m p)``; Holm's step-down ``max_{j<=i} min(1, (m - j + 1) p_(j))``;
    Benjamini-Hochberg's step-up ``min_{j>=i} min(1, m p_(j) / j)``.

    References
    ----------
    S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6(2), 1979; Y. Benjamini and Y. Hochberg, "Controlling the
    false discovery rate", JRSS B 57(1), 1995.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03], correction="holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    method = check_choice(correction, "correction", CORRECTIONS)
    arr = as_float_array(p, "p")
    if not np.isfinite(arr).all() or (arr < 0).any() or (arr > 1).any():
        raise fail("p", "hold p-values in [0, 1]", "values outside it")
    flat = arr.ravel()
    m = len(flat)
    if method == "none" or m == 0:
        return arr.copy()
    if method == "bonferroni":
        return np.minimum(1.0, arr * m)
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    if method == "holm":
        adj = np.maximum.accumulate(np.minimum(1.0, ranked * (m - np.arange(m))))
    else:
        adj = np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1]
        adj = np.minimum(1.0, adj)
    out = np.empty(m)
    out[order] = adj
    return out.reshape(arr.shape)
