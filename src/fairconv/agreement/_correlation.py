"""Rank correlations of two score vectors, or of every pair of measures at once.

Kendall's tau (a, b), Spearman's rho, Pearson's r and the AP correlation tau_ap (a, b),
on pairwise kernels that compare every pair of systems in blocks of bounded memory.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._validation import (
    as_float_array,
    check_choice,
    fail,
    fail_params,
    fail_type,
    kind_of,
    public,
)
from ._results import CorrelationMatrix, CorrelationResult

METHODS = ("tau_a", "tau_b", "tau_ap_a", "tau_ap_b", "spearman", "pearson")
"""The coefficients :func:`correlation_matrix` computes."""


def _scipy_stats():
    """``scipy.stats``, imported on first use: reading labels does not load it."""
    from scipy import stats

    return stats


def _scipy_special():
    """``scipy.special``, imported on first use."""
    from scipy import special

    return special


_CHUNK_ELEMENTS = 1 << 22
"""Largest temporary array (elements) of the pairwise kernels: 16 MB of float32."""


def _scores(x, name: str) -> np.ndarray:
    arr = as_float_array(x, name)
    if arr.ndim != 1:
        raise fail(name, "be a 1-D array of scores, one per system", f"shape {arr.shape}")
    if len(arr) < 2:
        raise fail(name, "hold the scores of at least 2 systems", f"{len(arr)}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.argmax(bad))
        raise fail(
            name,
            "hold finite scores (drop the systems without a score first)",
            f"{float(arr[i])!r} at index {i}",
        )
    return arr


def _score_pair(x, y) -> np.ndarray:
    x = _scores(x, "x")
    y = _scores(y, "y")
    if x.shape != y.shape:
        raise fail_params(
            ("x", "y"), "hold scores of the same systems", f"lengths {len(x)} and {len(y)}"
        )
    return np.stack([x, y])


def _exact_ranks(given, X: np.ndarray) -> np.ndarray:
    """Dense ranks (1 = lowest) along the last axis of scores, as float64.

    ``given`` is the caller's input, ``X`` its float64 copy: integers are ranked as
    integers, because a float64 copy merges 2**62 and 2**62 + 1. Every rank
    coefficient (tau, rho, tau_ap) depends only on the order and the ties of the
    scores, which the dense ranks keep.
    """
    raw = np.asarray(given)
    exact = raw if raw.dtype.kind in "iu" and raw.shape == X.shape else X
    return _scipy_stats().rankdata(exact, method="dense", axis=-1).astype(np.float64)


def _rank_pair(x, y, X: np.ndarray) -> np.ndarray:
    """:func:`_exact_ranks` of x and y (their checked float copy X)."""
    return np.stack([_exact_ranks(x, X[0]), _exact_ranks(y, X[1])])


def _check_not_constant(
    X: np.ndarray, names: Sequence[str], what: str, ranks: np.ndarray | None = None
) -> None:
    """Refuse a constant row of X (judged on its exact ``ranks`` when given)."""
    E = X if ranks is None else ranks
    constant = (E == E[:, :1]).all(axis=1)
    if constant.any():
        i = int(np.argmax(constant))
        raise fail(
            names[i],
            f"not be constant: {what} is undefined when every system has the same score",
            f"{float(X[i, 0])!r} for all {X.shape[1]} systems",
        )


def _dense_ranks(X: np.ndarray) -> np.ndarray:
    """Dense ranks of each row (1 = lowest) as float32, exact for n < 2**24."""
    return _scipy_stats().rankdata(X, method="dense", axis=1).astype(np.float32)


def _sign_gram(X: np.ndarray) -> np.ndarray:
    """``G[r, s] = sum_{i<j} sign(X[r,j] - X[r,i]) * sign(X[s,j] - X[s,i])``.

    The sign vectors of all n(n-1)/2 pairs of systems are built a block of rows i at
    a time (every j > i) and multiplied in float32; each block's sums stay below
    2**24, so every count is exact, and the blocks are summed in float64.
    """
    m, n = X.shape
    R = _dense_ranks(X)
    gram = np.zeros((m, m))
    i0 = 0
    while i0 < n - 1:
        width = n - 1 - i0
        k = int(max(1, min(width, _CHUNK_ELEMENTS // (m * width))))
        i1 = i0 + k
        S = np.sign(R[:, None, i0 + 1 :] - R[:, i0:i1, None])  # (m, k, width): j - i
        # inside the block, a column j <= i is not a pair i < j
        S[:, np.arange(i0 + 1, n)[None, :] <= np.arange(i0, i1)[:, None]] = 0
        S = S.reshape(m, k * width)
        gram += (S @ S.T).astype(np.float64)
        i0 = i1
    return gram


def _weighted_above(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``G[r, s] = sum_i W[s, i] * #{j : X[r,j] > X[r,i] and X[s,j] > X[s,i]}``.

    The count is the number of systems above system i in both rows r and s; it is
    built a block of systems i at a time as a batch of (M, n) @ (n, M) products.
    """
    m, n = X.shape
    out = np.zeros((m, m))
    k = int(max(1, _CHUNK_ELEMENTS // (m * n)))
    for i0 in range(0, n, k):
        i1 = min(n, i0 + k)
        above = (X[:, None, :] > X[:, i0:i1, None]).astype(np.float32)  # (m, k, n)
        above = above.transpose(1, 0, 2)  # (k, m, n)
        both = (above @ above.transpose(0, 2, 1)).astype(np.float64)  # (k, m, m)
        out += np.einsum("irs,si->rs", both, W[:, i0:i1])
    return out


def _harmonic(n: int) -> np.ndarray:
    """``H[k] = 1 + 1/2 + ... + 1/k`` for k = 0..n."""
    return np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])


def _tau_ap_matrix(X: np.ndarray, variant: str) -> np.ndarray:
    """tau_ap of every ordered pair of rows; ``out[r, s]`` has row r as the truth."""
    m, n = X.shape
    p = _scipy_stats().rankdata(-X, method="min", axis=1).astype(np.int64)  # 1 = best
    t = _scipy_stats().rankdata(-X, method="max", axis=1).astype(np.int64) - p + 1
    if variant == "b":
        top = p == 1
        weight = np.where(top, 0.0, 1.0 / np.maximum(p - 1, 1))
        below_top = n - top.sum(axis=1)
        one_sided = 2.0 * _weighted_above(X, weight) / below_top[None, :] - 1.0
        return (one_sided + one_sided.T) / 2.0
    H = _harmonic(n)
    # term I: systems above i's tie group in both, times the mean of 1/(q - 1) over the
    # positions q = p .. p + t - 1 the group can take
    spread = (H[p + t - 2] - H[np.maximum(p - 2, 0)]) / t
    weight = np.where(p == 1, 0.0, spread)
    # term II: pairs inside a tie group, each concordant with probability 1/2
    within = ((t - 1) - (p - 1) * (H[p + t - 2] - H[p - 1])) / (2.0 * t)
    return 2.0 / (n - 1) * (_weighted_above(X, weight) + within.sum(axis=1)[None, :]) - 1.0


def _pearson_matrix(X: np.ndarray) -> np.ndarray:
    """Pearson's r of every pair of rows of a checked array without a constant row.

    Each row is divided by a power of 2 (exact), so that neither its mean nor its norm
    overflows (1e200) or underflows (1e-200); it is centred twice, the second pass
    removing the rounding of the first mean (which matters when the values differ in
    their last digits only); rows whose centred values, scaled to a largest |value| of
    1, are equal (identical or exactly proportional scores) have r exactly 1, and -1
    when one is the other negated.
    """
    X = np.ldexp(X, -np.frexp(np.abs(X).max(axis=1, keepdims=True))[1])
    centred = X - X.mean(axis=1, keepdims=True)
    centred -= centred.mean(axis=1, keepdims=True)
    centred /= np.abs(centred).max(axis=1, keepdims=True)
    unit = centred / np.linalg.norm(centred, axis=1, keepdims=True)
    out = unit @ unit.T
    np.clip(out, -1.0, 1.0, out=out)
    m = len(X)
    _, group = np.unique(np.concatenate([centred, -centred]) + 0.0, axis=0, return_inverse=True)
    group = group.ravel()
    out[group[:m, None] == group[None, :m]] = 1.0
    out[group[:m, None] == group[None, m:]] = -1.0
    np.fill_diagonal(out, 1.0)
    return out


def _pearson_pvalue(r: float, n: int) -> float:
    """scipy.stats.pearsonr's two-sided p of r on n systems (exact beta distribution)."""
    if n == 2:
        return 1.0
    ab = n / 2 - 1  # the upper tail of Beta(ab, ab) on [-1, 1] above |r|, by symmetry
    return float(min(1.0, 2 * _scipy_special().betainc(ab, ab, (1 - abs(r)) / 2)))


def _spearman_pvalue(r: float, n: int) -> float:
    """scipy.stats.spearmanr's two-sided p of rho on n >= 3 systems (Student's t)."""
    dof, rho = n - 2, np.float64(r)
    with np.errstate(divide="ignore"):  # rho = 1: t is infinite, p is 0
        t = rho * np.sqrt(np.clip(dof / ((rho + 1.0) * (1.0 - rho)), 0, None))
    return float(2 * _scipy_special().stdtr(dof, -abs(t)))


def _matrix(X: np.ndarray, method: str) -> np.ndarray:
    """The coefficient ``method`` for every pair of rows of a checked array."""
    if method in ("tau_a", "tau_b"):
        gram = _sign_gram(X)
        if method == "tau_a":
            n = X.shape[1]
            return gram / (n * (n - 1) / 2)
        untied = np.diag(gram)  # pairs not tied in each row: exact integers
        out = gram / np.sqrt(np.outer(untied, untied))
        np.clip(out, -1.0, 1.0, out=out)
        return out
    if method in ("tau_ap_a", "tau_ap_b"):
        return _tau_ap_matrix(X, method[-1])
    if method == "spearman":
        return _pearson_matrix(_scipy_stats().rankdata(X, axis=1))
    return _pearson_matrix(X)


_UNDEFINED_WHEN_CONSTANT = {
    "tau_b": "Kendall's tau-b",
    "tau_ap_b": "tau_ap-b",
    "spearman": "Spearman's rho",
    "pearson": "Pearson's r",
}


def _check_tau_ap_truth(X: np.ndarray, names: Sequence[str]) -> None:
    s = np.sort(X, axis=1)
    tied = (s[:, 1:] == s[:, :-1]).any(axis=1)
    if tied.any():
        i = int(np.argmax(tied))
        raise fail(
            names[i],
            "hold distinct scores for tau_ap variant 'a' (the truth has no ties; use "
            "variant 'b' when both score vectors have ties)",
            "tied scores",
        )


@public
def kendall_tau(x, y, /, *, variant: str = "b") -> CorrelationResult:
    r"""Kendall's rank correlation between the scores two measures give the systems.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Scores of the same n >= 2 systems (finite; higher is better).
    variant : {"b", "a"}
        ``"b"`` corrects for ties (as ``scipy.stats.kendalltau``); ``"a"`` does not.

    Returns
    -------
    CorrelationResult
        ``statistic`` in [-1, 1]: 1 for the same ranking, -1 for the reversed one.
        ``pvalue`` from ``scipy.stats.kendalltau`` for tau-b, None for tau-a.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 systems, NaN or infinite scores, or (tau-b) a
        constant vector.

    Notes
    -----
    With C and D the concordant and discordant pairs, P = n(n-1)/2 and T_x, T_y the
    pairs tied in x and in y:

    .. math:: \tau_a = \frac{C - D}{P}, \qquad
              \tau_b = \frac{C - D}{\sqrt{(P - T_x)(P - T_y)}}

    All pairs are compared in blocks of bounded memory (O(n^2) time).

    References
    ----------
    M. G. Kendall. Rank Correlation Methods. Griffin, 1970.

    Examples
    --------
    >>> r = kendall_tau([0.5, 0.4, 0.3, 0.2], [0.6, 0.3, 0.4, 0.1])
    >>> round(r.statistic, 4)
    0.6667
    >>> kendall_tau([1, 1, 2, 3], [1, 2, 3, 4], variant="a").statistic
    0.8333333333333334
    """
    variant = check_choice(variant, "variant", ("a", "b"))
    X = _score_pair(x, y)
    R = _rank_pair(x, y, X)
    if variant == "b":
        _check_not_constant(X, ("x", "y"), "Kendall's tau-b", R)
    value = float(_matrix(R, "tau_" + variant)[0, 1])
    pvalue = None
    if variant == "b":
        pvalue = float(_scipy_stats().kendalltau(R[0], R[1]).pvalue)
    return CorrelationResult(value, pvalue, "tau_" + variant, X.shape[1])


@public
def spearman(x, y, /) -> CorrelationResult:
    r"""Spearman's rank correlation: Pearson's r of the (average) ranks.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Scores of the same n >= 2 systems (finite).

    Returns
    -------
    CorrelationResult
        ``statistic`` in [-1, 1] (equal to ``scipy.stats.spearmanr``); ``pvalue`` from
        scipy for n >= 3, None for 2 systems.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 systems, NaN, or a constant vector.

    Notes
    -----
    .. math:: \rho = \frac{\sum_i (r_i - \bar r)(s_i - \bar s)}
              {\sqrt{\sum_i (r_i - \bar r)^2 \sum_i (s_i - \bar s)^2}}

    with r and s the ranks of x and y, ties given their average rank.

    Examples
    --------
    >>> spearman([0.5, 0.4, 0.3, 0.2], [0.6, 0.3, 0.4, 0.1]).statistic
    0.8
    """
    X = _score_pair(x, y)
    R = _rank_pair(x, y, X)
    _check_not_constant(X, ("x", "y"), "Spearman's rho", R)
    value = float(_matrix(R, "spearman")[0, 1])
    pvalue = _spearman_pvalue(value, X.shape[1]) if X.shape[1] >= 3 else None
    return CorrelationResult(value, pvalue, "spearman", X.shape[1])


@public
def pearson(x, y, /) -> CorrelationResult:
    r"""Pearson's linear correlation of two score vectors.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Scores of the same n >= 2 systems (finite).

    Returns
    -------
    CorrelationResult
        ``statistic`` in [-1, 1] (equal to ``scipy.stats.pearsonr``); ``pvalue`` from
        scipy.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 systems, NaN, or a constant vector.

    Notes
    -----
    .. math:: r = \frac{\sum_i (x_i - \bar x)(y_i - \bar y)}
              {\sqrt{\sum_i (x_i - \bar x)^2 \sum_i (y_i - \bar y)^2}}

    Examples
    --------
    >>> round(pearson([1, 2, 3, 4], [2, 4, 5, 9]).statistic, 4)
    0.9648
    """
    X = _score_pair(x, y)
    _check_not_constant(X, ("x", "y"), "Pearson's r")
    value = float(_matrix(X, "pearson")[0, 1])
    return CorrelationResult(value, _pearson_pvalue(value, X.shape[1]), "pearson", X.shape[1])


@public
def tau_ap(x, y, /, *, variant: str = "a") -> CorrelationResult:
    r"""AP correlation: Kendall's tau with more weight on the top of the ranking.

    Parameters
    ----------
    x : array_like, shape (n,)
        Scores of n >= 2 systems under the truth (the reference measure).
    y : array_like, shape (n,)
        Scores of the same systems under the estimate.
    variant : {"a", "b"}
        ``"a"`` (Urbano and Marrero's tau_ap-a): x is the truth and must have no
        ties; ties in y are broken at random and the coefficient is the expected
        tau_ap over those orders (without ties it is Yilmaz et al.'s tau_ap).
        ``"b"`` (tau_ap-b): ties allowed in both; the mean of the coefficient taking
        each vector as the truth in turn, so it is symmetric.

    Returns
    -------
    CorrelationResult
        ``statistic`` in [-1, 1]: 1 for the same ranking, -1 for the reversed one;
        ``pvalue`` None. Variant a is not symmetric in x and y.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 systems, NaN, ties in x (variant a), or a
        constant vector (variant b).

    Notes
    -----
    Walking down the estimate, C(i) is the number of systems above position i in the
    estimate that are also above it in the truth (Yilmaz et al., Eq. 2):

    .. math:: \tau_{AP} = \frac{2}{n-1} \sum_{i=2}^{n} \frac{C(i)}{i-1} - 1

    tau_ap-a averages this over every order of the tied systems of y: with p_i the
    first position of i's tie group (size t_i), the systems above the group count
    with the mean of 1/(q-1) over its positions q = p_i .. p_i + t_i - 1, and each
    pair inside a group is concordant with probability 1/2. tau_ap-b counts, for
    each system i below the first tie group of y, the systems strictly above i in
    both vectors, divides by p_i - 1, averages over those systems and maps to [-1, 1];
    the two directions are then averaged (Urbano and Marrero, Sections 3-4).

    References
    ----------
    E. Yilmaz, J. A. Aslam, S. Robertson. A New Rank Correlation Coefficient for
    Information Retrieval. SIGIR 2008.
    J. Urbano, M. Marrero. The Treatment of Ties in AP Correlation. ICTIR 2017.

    Examples
    --------
    >>> truth = [0.9, 0.8, 0.7, 0.6, 0.5]
    >>> round(tau_ap(truth, [0.9, 0.8, 0.7, 0.5, 0.6]).statistic, 4)
    0.875
    >>> round(tau_ap(truth, [0.8, 0.9, 0.7, 0.6, 0.5]).statistic, 4)
    0.5
    >>> round(tau_ap([1, 1, 2, 3], [1, 2, 2, 3], variant="b").statistic, 4)
    0.7222
    """
    variant = check_choice(variant, "variant", ("a", "b"))
    X = _score_pair(x, y)
    R = _rank_pair(x, y, X)
    if variant == "a":
        _check_tau_ap_truth(R[:1], ("x",))
    else:
        _check_not_constant(X, ("x", "y"), "tau_ap-b", R)
    value = float(np.clip(_tau_ap_matrix(R, variant)[0, 1], -1.0, 1.0))
    return CorrelationResult(value, None, "tau_ap_" + variant, X.shape[1])


@public
def correlation_matrix(
    scores, /, *, method: str, measures: Sequence[str] | None = None
) -> CorrelationMatrix:
    r"""One coefficient for every pair of rows of a (measures, systems) score array.

    Parameters
    ----------
    scores : array_like, shape (M, n)
        Row a holds the scores measure a gives the n >= 2 systems (finite).
    method : {"tau_b", "tau_a", "tau_ap_a", "tau_ap_b", "spearman", "pearson"}
        The coefficient, as :func:`kendall_tau`, :func:`tau_ap`, :func:`spearman`
        and :func:`pearson` define it.
    measures : sequence of str, optional
        Names of the rows, for the record.

    Returns
    -------
    CorrelationMatrix
        ``statistic[a, b]`` equals the pairwise function on rows a and b (for
        ``"tau_ap_a"`` row a is the truth, so the matrix is not symmetric).

    Raises
    ------
    ValueError
        A non-2-D array, fewer than 2 systems, NaN, a constant row (where the
        coefficient is undefined), ties in a row for ``"tau_ap_a"``, or names that do
        not match the rows.

    Notes
    -----
    Kendall's numerators for all pairs of rows are one matrix product of the
    rows' pair-sign vectors, ``sign(x_j - x_i)`` over the n(n-1)/2 pairs i < j,
    computed a block of pairs at a time (bounded memory). tau_ap counts, for each
    system, the systems above it in both rows with a batch of matrix products.

    Examples
    --------
    >>> S = [[0.5, 0.4, 0.3, 0.2], [0.6, 0.3, 0.4, 0.1], [0.1, 0.2, 0.3, 0.4]]
    >>> correlation_matrix(S, method="tau_b").statistic.round(4)
    array([[ 1.    ,  0.6667, -1.    ],
           [ 0.6667,  1.    , -0.6667],
           [-1.    , -0.6667,  1.    ]])
    """
    method = check_choice(method, "method", METHODS)
    X = as_float_array(scores, "scores")
    if X.ndim != 2 or X.shape[0] < 1:
        raise fail("scores", "be a 2-D array (measures, systems)", f"shape {X.shape}")
    if X.shape[1] < 2:
        raise fail("scores", "hold the scores of at least 2 systems", f"shape {X.shape}")
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        raise fail("scores", "hold finite scores", f"{float(X[r, c])!r} at index ({r}, {c})")
    if measures is None:
        names = tuple(str(i) for i in range(X.shape[0]))
    else:
        if isinstance(measures, (str, bytes)) or not hasattr(measures, "__len__"):
            raise fail_type("measures", "be a sequence of names", kind_of(measures))
        names = tuple(measures)
        if len(names) != X.shape[0]:
            raise fail("measures", f"name the {X.shape[0]} rows of 'scores'", f"{len(names)} names")
    labels = [f"scores[{name}]" for name in names]
    R = X if method == "pearson" else _exact_ranks(scores, X)  # values, or exact ranks
    if method in _UNDEFINED_WHEN_CONSTANT:
        _check_not_constant(X, labels, _UNDEFINED_WHEN_CONSTANT[method], R)
    if method == "tau_ap_a":
        _check_tau_ap_truth(R, labels)
    out = _matrix(R, method)
    if method.startswith("tau_ap"):
        np.clip(out, -1.0, 1.0, out=out)
        np.fill_diagonal(out, 1.0)
    return CorrelationMatrix(out, method, names, X.shape[1])
