"""Agreement: how alike two system rankings are, and how alike assessors label.

Rank correlations between the scores two measures (or two nugget sets, or two
assessors) give the same systems: Kendall's tau (:func:`kendall_tau`), Spearman's rho
(:func:`spearman`), Pearson's r (:func:`pearson`), the AP correlation tau_ap
(:func:`tau_ap`), every pair of measures at once (:func:`correlation_matrix`), and
rank-biased overlap of two rankings of ids (:func:`rbo`). Agreement between assessors
on a label matrix of shape (items, raters), NaN (or None) where a rater gave no label:
:func:`accuracy`, :func:`cohen_kappa`, :func:`fleiss_kappa`,
:func:`krippendorff_alpha` and :func:`majority_vote`; :func:`read_label_file` reads
``item rater label`` rows into such a matrix.

Scores are higher-is-better: a system with a higher score is ranked above one with a
lower score. Every coefficient is returned in a frozen record whose value is
``statistic`` (as in scipy's results). A coefficient that is undefined on the input
(a constant score vector for tau-b, rho, r and tau_ap-b; a single label for kappa
and alpha) raises a ``ValueError``; nothing is returned as NaN.

Labels
------
Numeric labels (NaN missing) or strings (None or NaN missing). For the nominal
coefficients (accuracy, unweighted kappa, Fleiss' kappa, nominal alpha, majority
vote) only equality matters. Where order matters (weighted kappa, ordinal alpha,
the ``"lowest"``/``"highest"`` tie rules of the majority vote) numbers are ordered by
value and strings need ``categories``, the labels listed from lowest to highest.
Interval alpha needs numeric labels (it uses their differences).

References
----------
M. G. Kendall. Rank Correlation Methods. Griffin, 1970 (tau-a, tau-b).
E. Yilmaz, J. A. Aslam, S. Robertson. A New Rank Correlation Coefficient for
Information Retrieval. SIGIR 2008 (tau_ap).
J. Urbano, M. Marrero. The Treatment of Ties in AP Correlation. ICTIR 2017
(tau_ap-a and tau_ap-b).
W. Webber, A. Moffat, J. Zobel. A Similarity Measure for Indefinite Rankings.
ACM TOIS 28(4), 2010 (RBO).
J. Cohen. A Coefficient of Agreement for Nominal Scales. Educational and
Psychological Measurement 20(1), 1960.
J. L. Fleiss. Measuring Nominal Scale Agreement Among Many Raters. Psychological
Bulletin 76(5), 1971.
K. Krippendorff. Computing Krippendorff's Alpha-Reliability. University of
Pennsylvania, 2011.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import scipy.stats

from ._validation import as_float_array, check_choice, check_real, fail

__all__ = [
    "CorrelationResult",
    "CorrelationMatrix",
    "RBOResult",
    "AgreementResult",
    "MajorityVote",
    "LabelMatrix",
    "kendall_tau",
    "spearman",
    "pearson",
    "tau_ap",
    "correlation_matrix",
    "rbo",
    "accuracy",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "majority_vote",
    "read_label_file",
    "METHODS",
]

METHODS = ("tau_a", "tau_b", "tau_ap_a", "tau_ap_b", "spearman", "pearson")
"""The coefficients :func:`correlation_matrix` computes."""

_CHUNK_ELEMENTS = 1 << 22
"""Largest temporary array (elements) of the pairwise kernels: 16 MB of float32."""


# --------------------------------------------------------------------------- records
def _pandas(owner: str):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            f"{owner}.to_frame needs pandas: pip install 'fairconv[pandas]'"
        ) from None
    return pd


def _frame(rows: list[dict], owner: str):
    return _pandas(owner).DataFrame(rows)


@dataclass(frozen=True)
class CorrelationResult:
    """A correlation between two score vectors.

    Attributes
    ----------
    statistic : float
        The coefficient, in [-1, 1]; 1 when the two rank the systems alike.
    pvalue : float or None
        scipy's two-sided p-value of no association (tau-b, rho, r); None where scipy
        gives none (tau-a, tau_ap, and rho on 2 systems).
    method : str
        One of :data:`METHODS`.
    n_systems : int
        Number of systems compared.
    """

    statistic: float
    pvalue: float | None
    method: str
    n_systems: int

    def to_dict(self) -> dict:
        """The fields as a plain dict."""
        return asdict(self)

    def to_frame(self):
        """A one-row pandas DataFrame (needs the pandas extra)."""
        return _frame([self.to_dict()], "CorrelationResult")


@dataclass(frozen=True, eq=False)
class CorrelationMatrix:
    """One coefficient for every pair of measures.

    Attributes
    ----------
    statistic : ndarray, shape (M, M)
        ``statistic[a, b]`` is the coefficient of measure a with measure b (for the
        asymmetric tau_ap-a, a is the truth); 1 on the diagonal.
    method : str
        One of :data:`METHODS`.
    measures : tuple of str
        The names of the rows (``"0"``, ``"1"``, ... when none were given).
    n_systems : int
        Number of systems compared.
    """

    statistic: np.ndarray
    method: str
    measures: tuple
    n_systems: int

    def to_dict(self) -> dict:
        """``{"method", "measures", "n_systems", "statistic"}`` with nested lists."""
        return {
            "method": self.method,
            "measures": list(self.measures),
            "n_systems": self.n_systems,
            "statistic": self.statistic.tolist(),
        }

    def to_frame(self):
        """The matrix as a pandas DataFrame indexed by measure (needs pandas)."""
        pd = _pandas("CorrelationMatrix")
        return pd.DataFrame(self.statistic, index=list(self.measures), columns=list(self.measures))


@dataclass(frozen=True)
class RBOResult:
    """Rank-biased overlap of two rankings.

    Attributes
    ----------
    statistic : float
        RBO_ext, the extrapolated value, in [0, 1]; 1 for identical rankings.
    min, res, ext : float
        The lower bound RBO_min, the residual RBO_res (RBO lies in
        [min, min + res]) and the point estimate RBO_ext.
    p : float
        Persistence.
    depth : tuple of int
        Lengths of the two rankings, shorter first.
    """

    statistic: float
    min: float
    res: float
    ext: float
    p: float
    depth: tuple

    def to_dict(self) -> dict:
        """The fields as a plain dict."""
        out = asdict(self)
        out["depth"] = list(self.depth)
        return out

    def to_frame(self):
        """A one-row pandas DataFrame (needs the pandas extra)."""
        return _frame([self.to_dict()], "RBOResult")


@dataclass(frozen=True)
class AgreementResult:
    """Agreement between raters on a set of items.

    Attributes
    ----------
    statistic : float
        The coefficient: accuracy in [0, 1]; kappa and alpha at most 1 (1 for
        perfect agreement, 0 for chance agreement, negative below chance).
    method : str
        ``"accuracy"``, ``"cohen_kappa"``, ``"fleiss_kappa"`` or
        ``"krippendorff_alpha"``.
    n_items : int
        Items that entered the computation.
    n_raters : int
        Raters (columns of the label matrix).
    option : str or None
        The weighting of Cohen's kappa or the level of Krippendorff's alpha.
    """

    statistic: float
    method: str
    n_items: int
    n_raters: int
    option: str | None = None

    def to_dict(self) -> dict:
        """The fields as a plain dict."""
        return asdict(self)

    def to_frame(self):
        """A one-row pandas DataFrame (needs the pandas extra)."""
        return _frame([self.to_dict()], "AgreementResult")


@dataclass(frozen=True, eq=False)
class MajorityVote:
    """The label most raters gave each item.

    Attributes
    ----------
    labels : ndarray, shape (items,)
        The majority label: float with NaN (numeric labels) or object with None
        (strings) where there is none (no rating, or a tie under ``ties="missing"``).
    votes : ndarray of int, shape (items,)
        Raters who gave the most frequent label.
    n_ratings : ndarray of int, shape (items,)
        Raters who labelled the item.
    tied : ndarray of bool, shape (items,)
        Whether two or more labels shared the most votes.
    ties : str
        The tie rule applied.
    """

    labels: np.ndarray
    votes: np.ndarray
    n_ratings: np.ndarray
    tied: np.ndarray
    ties: str

    @property
    def statistic(self) -> np.ndarray:
        """The majority labels (the same array as :attr:`labels`)."""
        return self.labels

    def to_dict(self) -> dict:
        """Lists of labels (None where there is none), votes, ratings and ties."""
        labels = [None if _is_missing(v) else _plain_label(v) for v in self.labels.tolist()]
        return {
            "labels": labels,
            "votes": self.votes.tolist(),
            "n_ratings": self.n_ratings.tolist(),
            "tied": self.tied.tolist(),
            "ties": self.ties,
        }

    def to_frame(self):
        """One row per item (needs the pandas extra)."""
        d = self.to_dict()
        return _frame(
            [
                {"label": a, "votes": b, "n_ratings": c, "tied": t}
                for a, b, c, t in zip(
                    d["labels"], d["votes"], d["n_ratings"], d["tied"], strict=True
                )
            ],
            "MajorityVote",
        )


def _plain_label(v):
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


# --------------------------------------------------------------------------- checks
def _scores(x, name: str, func: str) -> np.ndarray:
    arr = as_float_array(x, name, func)
    if arr.ndim != 1:
        raise fail(name, func, "be a 1-D array of scores, one per system", f"shape {arr.shape}")
    if len(arr) < 2:
        raise fail(name, func, "hold the scores of at least 2 systems", f"{len(arr)}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.argmax(bad))
        raise fail(
            name,
            func,
            "hold finite scores (drop the systems without a score first)",
            f"{float(arr[i])!r} at index {i}",
        )
    return arr


def _score_pair(x, y, func: str) -> np.ndarray:
    x = _scores(x, "x", func)
    y = _scores(y, "y", func)
    if x.shape != y.shape:
        raise ValueError(
            f"The 'x' and 'y' parameters of {func} must hold scores of the same systems. "
            f"Got lengths {len(x)} and {len(y)} instead."
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
    return scipy.stats.rankdata(exact, method="dense", axis=-1).astype(np.float64)


def _rank_pair(x, y, X: np.ndarray) -> np.ndarray:
    """:func:`_exact_ranks` of x and y (their checked float copy X)."""
    return np.stack([_exact_ranks(x, X[0]), _exact_ranks(y, X[1])])


def _check_not_constant(
    X: np.ndarray, names: Sequence[str], func: str, what: str, ranks: np.ndarray | None = None
) -> None:
    """Refuse a constant row of X (judged on its exact ``ranks`` when given)."""
    E = X if ranks is None else ranks
    constant = (E == E[:, :1]).all(axis=1)
    if constant.any():
        i = int(np.argmax(constant))
        raise ValueError(
            f"The '{names[i]}' parameter of {func} must not be constant: {what} is "
            f"undefined when every system has the same score. Got {float(X[i, 0])!r} for all "
            f"{X.shape[1]} systems instead."
        )


# --------------------------------------------------------------------------- kernels
def _dense_ranks(X: np.ndarray) -> np.ndarray:
    """Dense ranks of each row (1 = lowest) as float32, exact for n < 2**24."""
    return scipy.stats.rankdata(X, method="dense", axis=1).astype(np.float32)


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
    p = scipy.stats.rankdata(-X, method="min", axis=1).astype(np.int64)  # 1 = best
    t = scipy.stats.rankdata(-X, method="max", axis=1).astype(np.int64) - p + 1
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
    return float(min(1.0, 2 * scipy.special.betainc(ab, ab, (1 - abs(r)) / 2)))


def _spearman_pvalue(r: float, n: int) -> float:
    """scipy.stats.spearmanr's two-sided p of rho on n >= 3 systems (Student's t)."""
    dof, rho = n - 2, np.float64(r)
    with np.errstate(divide="ignore"):  # rho = 1: t is infinite, p is 0
        t = rho * np.sqrt(np.clip(dof / ((rho + 1.0) * (1.0 - rho)), 0, None))
    return float(2 * scipy.special.stdtr(dof, -abs(t)))


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
        return _pearson_matrix(scipy.stats.rankdata(X, axis=1))
    return _pearson_matrix(X)


_UNDEFINED_WHEN_CONSTANT = {
    "tau_b": "Kendall's tau-b",
    "tau_ap_b": "tau_ap-b",
    "spearman": "Spearman's rho",
    "pearson": "Pearson's r",
}


def _check_tau_ap_truth(X: np.ndarray, names: Sequence[str], func: str) -> None:
    s = np.sort(X, axis=1)
    tied = (s[:, 1:] == s[:, :-1]).any(axis=1)
    if tied.any():
        i = int(np.argmax(tied))
        raise fail(
            names[i],
            func,
            "hold distinct scores for tau_ap variant 'a' (the truth has no ties; use "
            "variant 'b' when both score vectors have ties)",
            "tied scores",
        )


# --------------------------------------------------------------------------- correlations
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
    func = "kendall_tau"
    variant = check_choice(variant, "variant", func, ("a", "b"))
    X = _score_pair(x, y, func)
    R = _rank_pair(x, y, X)
    if variant == "b":
        _check_not_constant(X, ("x", "y"), func, "Kendall's tau-b", R)
    value = float(_matrix(R, "tau_" + variant)[0, 1])
    pvalue = None
    if variant == "b":
        pvalue = float(scipy.stats.kendalltau(R[0], R[1]).pvalue)
    return CorrelationResult(value, pvalue, "tau_" + variant, X.shape[1])


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
    func = "spearman"
    X = _score_pair(x, y, func)
    R = _rank_pair(x, y, X)
    _check_not_constant(X, ("x", "y"), func, "Spearman's rho", R)
    value = float(_matrix(R, "spearman")[0, 1])
    pvalue = _spearman_pvalue(value, X.shape[1]) if X.shape[1] >= 3 else None
    return CorrelationResult(value, pvalue, "spearman", X.shape[1])


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
    func = "pearson"
    X = _score_pair(x, y, func)
    _check_not_constant(X, ("x", "y"), func, "Pearson's r")
    value = float(_matrix(X, "pearson")[0, 1])
    return CorrelationResult(value, _pearson_pvalue(value, X.shape[1]), "pearson", X.shape[1])


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
    func = "tau_ap"
    variant = check_choice(variant, "variant", func, ("a", "b"))
    X = _score_pair(x, y, func)
    R = _rank_pair(x, y, X)
    if variant == "a":
        _check_tau_ap_truth(R[:1], ("x",), func)
    else:
        _check_not_constant(X, ("x", "y"), func, "tau_ap-b", R)
    value = float(np.clip(_tau_ap_matrix(R, variant)[0, 1], -1.0, 1.0))
    return CorrelationResult(value, None, "tau_ap_" + variant, X.shape[1])


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
    func = "correlation_matrix"
    method = check_choice(method, "method", func, METHODS)
    X = as_float_array(scores, "scores", func)
    if X.ndim != 2 or X.shape[0] < 1:
        raise fail("scores", func, "be a 2-D array (measures, systems)", f"shape {X.shape}")
    if X.shape[1] < 2:
        raise fail("scores", func, "hold the scores of at least 2 systems", f"shape {X.shape}")
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        raise fail("scores", func, "hold finite scores", f"{float(X[r, c])!r} at index ({r}, {c})")
    if measures is None:
        names = tuple(str(i) for i in range(X.shape[0]))
    else:
        if isinstance(measures, (str, bytes)) or not hasattr(measures, "__len__"):
            raise TypeError(
                f"The 'measures' parameter of {func} must be a sequence of names. "
                f"Got {measures!r} ({type(measures).__name__}) instead."
            )
        names = tuple(measures)
        if len(names) != X.shape[0]:
            raise fail(
                "measures", func, f"name the {X.shape[0]} rows of 'scores'", f"{len(names)} names"
            )
    labels = [f"scores[{name}]" for name in names]
    R = X if method == "pearson" else _exact_ranks(scores, X)  # values, or exact ranks
    if method in _UNDEFINED_WHEN_CONSTANT:
        _check_not_constant(X, labels, func, _UNDEFINED_WHEN_CONSTANT[method], R)
    if method == "tau_ap_a":
        _check_tau_ap_truth(R, labels, func)
    out = _matrix(R, method)
    if method.startswith("tau_ap"):
        np.clip(out, -1.0, 1.0, out=out)
        np.fill_diagonal(out, 1.0)
    return CorrelationMatrix(out, method, names, X.shape[1])


# --------------------------------------------------------------------------- RBO
def _ids(ranking, name: str, func: str) -> np.ndarray:
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__len__"):
        raise TypeError(
            f"The '{name}' parameter of {func} must be a sequence of ids. "
            f"Got {type(ranking).__name__} instead."
        )
    arr = np.asarray(ranking)
    if arr.dtype.kind == "U" and not isinstance(ranking, np.ndarray):
        if not all(isinstance(v, str) for v in ranking):  # numpy turns mixed ids into text
            arr = np.asarray(ranking, dtype=object)
    if arr.ndim != 1 or len(arr) == 0:
        raise fail(name, func, "be a non-empty 1-D sequence of ids", f"shape {arr.shape}")
    if arr.dtype.kind not in "iuU":
        raise TypeError(
            f"The '{name}' parameter of {func} must hold ids that are all strings or all "
            f"integers. Got an array of dtype {arr.dtype} instead."
        )
    uniq, counts = np.unique(arr, return_counts=True)
    if (counts > 1).any():
        raise fail(name, func, "list each id once", f"{uniq[np.argmax(counts > 1)].item()!r} twice")
    return arr


def rbo(ranking_a, ranking_b, /, *, p: float = 0.9) -> RBOResult:
    r"""Rank-biased overlap of two rankings of ids (Webber, Moffat and Zobel, 2010).

    Parameters
    ----------
    ranking_a, ranking_b : sequence of str or int
        Ids from the top down; each id at most once; the two may differ in length
        and need not hold the same ids.
    p : float
        Persistence in (0, 1): the weight of depth d is proportional to p^(d-1), so
        the top 1/(1-p) ranks carry most of it.

    Returns
    -------
    RBOResult
        ``min`` <= ``ext`` <= ``min + res``, all in [0, 1]; ``statistic`` is ``ext``.
        Symmetric in the two rankings.

    Raises
    ------
    ValueError
        An empty ranking, an id listed twice, or p outside (0, 1).
    TypeError
        Ids that are not all strings or all integers.

    Notes
    -----
    With S the shorter ranking (length s), L the longer (length l), X_d the number of
    ids of S found in the top d of L and in the top d of S (all of S for d > s),
    and f = l + s - X_l (Section 4):

    .. math::
        RBO_{min} = \frac{1-p}{p} \Big( \sum_{d=1}^{l} \frac{X_d - X_l}{d} p^d
                    - X_l \ln(1-p) \Big)

        RBO_{ext} = \frac{1-p}{p} \Big( \sum_{d=1}^{l} \frac{X_d}{d} p^d
                    + \sum_{d=s+1}^{l} \frac{X_s (d-s)}{s d} p^d \Big)
                    + \Big( \frac{X_l - X_s}{l} + \frac{X_s}{s} \Big) p^l

        RBO_{res} = p^s + p^l - p^f - \frac{1-p}{p} \Big( s \sum_{d=s+1}^{f}
                    \frac{p^d}{d} + l \sum_{d=l+1}^{f} \frac{p^d}{d}
                    + X_l \big( -\ln(1-p) - \sum_{d=1}^{f} \frac{p^d}{d} \big) \Big)

    RBO_min assumes the unseen ids never match; RBO_min + RBO_res assumes every
    unseen id matches as early as it can; RBO_ext assumes S goes on agreeing at the
    rate X_s / s (the paper's Eqs. 11, 30 and 32; with s = l they reduce to Eqs. 11,
    13 and 32 for even lists).

    References
    ----------
    W. Webber, A. Moffat, J. Zobel. A Similarity Measure for Indefinite Rankings.
    ACM TOIS 28(4), 2010.

    Examples
    --------
    >>> r = rbo(["a", "b", "c", "d"], ["b", "a", "c", "e"], p=0.9)
    >>> round(r.min, 4), round(r.ext, 4), round(r.min + r.res, 4)
    (0.4225, 0.7177, 0.8818)
    >>> rbo(["a", "b", "c"], ["a", "b", "c"]).statistic
    1.0
    """
    func = "rbo"
    a = _ids(ranking_a, "ranking_a", func)
    b = _ids(ranking_b, "ranking_b", func)
    if (a.dtype.kind == "U") != (b.dtype.kind == "U"):
        raise TypeError(
            f"The 'ranking_a' and 'ranking_b' parameters of {func} must hold ids of one "
            f"kind. Got {a.dtype} and {b.dtype} instead."
        )
    p = check_real(p, "p", func, low=0.0, high=1.0, closed="neither")
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return _rbo(short, long_, p)


def _rbo(short: np.ndarray, long_: np.ndarray, p: float) -> RBOResult:
    s, l = len(short), len(long_)  # noqa: E741 (the paper's names)
    # an id in both lists joins the overlap at the depth where the later of its two
    # positions is reached
    _, inverse = np.unique(np.concatenate([short, long_]), return_inverse=True)
    pos_long = np.full(len(short) + len(long_), -1, np.int64)
    pos_long[inverse[s:]] = np.arange(1, l + 1)
    at = pos_long[inverse[:s]]
    joined = np.maximum(at[at > 0], np.flatnonzero(at > 0) + 1)
    X = np.cumsum(np.bincount(joined, minlength=l + 1)[1:]).astype(np.float64)  # X_1..X_l
    x_s, x_l = X[s - 1], X[l - 1]
    f = int(l + s - x_l)
    d = np.arange(1, f + 1, dtype=np.float64)
    pd_over_d = p**d / d  # p^d / d for d = 1..f
    scale = (1.0 - p) / p
    log_term = -np.log1p(-p)
    lo = scale * (np.sum((X - x_l) * pd_over_d[:l]) + x_l * log_term)
    ext = (
        scale * (np.sum(X * pd_over_d[:l]) + x_s / s * np.sum((d[s:l] - s) * pd_over_d[s:l]))
        + ((x_l - x_s) / l + x_s / s) * p**l
    )
    tail = log_term - np.sum(pd_over_d)  # sum over d > f of p^d / d
    res = (
        p**s
        + p**l
        - p**f
        - scale * (s * np.sum(pd_over_d[s:]) + l * np.sum(pd_over_d[l:]) + x_l * tail)
    )
    lo, res, ext = (float(np.clip(v, 0.0, 1.0)) for v in (lo, res, ext))
    return RBOResult(ext, lo, res, ext, p, (s, l))


# --------------------------------------------------------------------------- labels
@dataclass(frozen=True)
class _Coded:
    codes: np.ndarray  # int64, same shape as the labels, -1 where missing
    categories: np.ndarray  # the label of each code, lowest first
    numeric: bool
    ordered: bool  # numbers, or strings ordered by the caller's categories


def _missing_mask(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "f":
        return np.isnan(arr)
    return np.frompyfunc(_is_missing, 1, 1)(arr).astype(bool)


def _encode(labels, name: str, func: str, *, categories=None, ndim: int = 2) -> _Coded:
    """Label codes 0..K-1 (in category order) and -1 for a missing rating."""
    try:
        arr = np.asarray(labels)
    except ValueError:
        arr = None
    if arr is not None and arr.dtype.kind == "U" and not isinstance(labels, np.ndarray):
        arr = np.asarray(labels, dtype=object)  # numpy would turn mixed numbers into text
    if arr is None or arr.dtype.kind not in "biufUO" or arr.ndim != ndim:
        shape = "(items, raters)" if ndim == 2 else "(items,)"
        got = "a ragged sequence" if arr is None else f"shape {arr.shape}, dtype {arr.dtype}"
        raise fail(name, func, f"be an array of labels of shape {shape}", got)
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    if arr.dtype.kind == "O":
        missing = _missing_mask(arr)
        kinds = {type(v) for v in arr[~missing].tolist()}
        if kinds and all(
            issubclass(t, (int, float, np.integer, np.floating)) and not issubclass(t, bool)
            for t in kinds
        ):
            arr = np.where(missing, np.nan, arr).astype(np.float64)
        elif all(issubclass(t, str) for t in kinds):
            values = arr[~missing].astype(str)
            return _coded_strings(values, missing, name, func, categories)
        else:
            shown = ", ".join(sorted(k.__name__ for k in kinds))
            raise TypeError(
                f"The '{name}' parameter of {func} must hold labels that are all numbers "
                f"or all strings (None or NaN for a missing rating). Got {shown} instead."
            )
    if arr.dtype.kind == "U":
        missing = np.zeros(arr.shape, bool)
        return _coded_strings(arr.reshape(-1), missing, name, func, categories)
    missing = np.isnan(arr)
    if np.isinf(arr).any():
        raise fail(name, func, "hold finite labels (NaN for a missing rating)", "infinity")
    values = arr[~missing]
    if categories is None:
        cats, inv = np.unique(values, return_inverse=True)
    else:
        cats = as_float_array(categories, "categories", func)
        if cats.ndim != 1 or len(np.unique(cats)) != len(cats) or not np.isfinite(cats).all():
            raise fail("categories", func, "list distinct finite labels", repr(categories))
        order = np.argsort(cats, kind="stable")
        at = np.searchsorted(cats[order], values)
        at = np.minimum(at, len(cats) - 1)
        unknown = cats[order][at] != values
        if unknown.any():
            raise fail(
                name,
                func,
                "hold only labels listed in 'categories'",
                f"the label {float(values[np.argmax(unknown)])!r}",
            )
        inv = order[at]
    codes = np.full(arr.shape, -1, np.int64)
    codes[~missing] = inv.reshape(-1)
    return _Coded(codes, cats, True, True)


def _coded_strings(values, missing, name, func, categories) -> _Coded:
    if categories is None:
        cats, inv = np.unique(values, return_inverse=True)
        ordered = False
    else:
        if isinstance(categories, str) or not all(isinstance(c, str) for c in categories):
            raise TypeError(
                f"The 'categories' parameter of {func} must list the string labels from "
                f"lowest to highest. Got {categories!r} instead."
            )
        cats = np.asarray(list(categories), dtype=str)
        if len(set(categories)) != len(cats):
            raise fail("categories", func, "list distinct labels", repr(categories))
        lookup = {c: i for i, c in enumerate(categories)}
        try:
            inv = np.fromiter(map(lookup.__getitem__, values.tolist()), np.int64, len(values))
        except KeyError as exc:
            raise fail(
                name, func, "hold only labels listed in 'categories'", f"the label {exc.args[0]!r}"
            ) from None
        ordered = True
    codes = np.full(missing.shape, -1, np.int64)
    codes[~missing] = inv.reshape(-1)
    return _Coded(codes, cats, False, ordered)


def _matrix_codes(labels, func: str, *, categories=None, min_raters: int = 2) -> _Coded:
    coded = _encode(labels, "labels", func, categories=categories)
    items, raters = coded.codes.shape
    if items < 1 or raters < min_raters:
        raise fail(
            "labels",
            func,
            f"be a label matrix of shape (items, raters) with at least 1 item and "
            f"{min_raters} raters",
            f"shape {coded.codes.shape}",
        )
    return coded


def _pair_codes(a, b, func: str, categories=None) -> tuple[_Coded, np.ndarray]:
    """Codes (items, 2) of two raters on one category list, and the items both rated."""
    ca = _encode(a, "a", func, categories=categories, ndim=1)
    cb = _encode(b, "b", func, categories=categories, ndim=1)
    if ca.codes.shape != cb.codes.shape:
        raise ValueError(
            f"The 'a' and 'b' parameters of {func} must label the same items. "
            f"Got lengths {len(ca.codes)} and {len(cb.codes)} instead."
        )
    if ca.numeric != cb.numeric:
        raise TypeError(
            f"The 'a' and 'b' parameters of {func} must both hold numbers or both strings."
        )
    if categories is None:
        cats = np.union1d(ca.categories, cb.categories)
        codes = np.stack(
            [
                np.where(c.codes >= 0, np.searchsorted(cats, c.categories)[c.codes], -1)
                if len(c.categories)
                else c.codes
                for c in (ca, cb)
            ],
            axis=1,
        )
        coded = _Coded(codes, cats, ca.numeric, ca.numeric)
    else:
        coded = _Coded(np.stack([ca.codes, cb.codes], axis=1), ca.categories, ca.numeric, True)
    both = (coded.codes >= 0).all(axis=1)
    if not both.any():
        raise ValueError(
            f"The 'a' and 'b' parameters of {func} must both label at least one item. "
            "Got no item labelled by both instead."
        )
    return coded, np.asarray(both)


def _counts(codes: np.ndarray, k: int) -> np.ndarray:
    """(items, K) number of raters who gave each label."""
    items = codes.shape[0]
    rows = np.broadcast_to(np.arange(items)[:, None], codes.shape)
    keep = codes >= 0
    return np.bincount(rows[keep] * k + codes[keep], minlength=items * k).reshape(items, k)


def accuracy(a, b, /) -> AgreementResult:
    r"""Share of the items two raters label alike.

    Parameters
    ----------
    a, b : array_like, shape (items,)
        Labels of the same items (numbers with NaN, or strings with None, for no
        label). Items that either rater left unlabelled are left out.

    Returns
    -------
    AgreementResult
        ``statistic`` in [0, 1]; ``n_items`` the items both labelled.

    Raises
    ------
    ValueError
        Different lengths, or no item labelled by both.

    Notes
    -----
    .. math:: acc = \frac{1}{N} \sum_{i=1}^{N} [a_i = b_i]

    Examples
    --------
    >>> accuracy([1, 0, 1, 1], [1, 0, 0, 1]).statistic
    0.75
    """
    coded, both = _pair_codes(a, b, "accuracy")
    c = coded.codes[both]
    return AgreementResult(float(np.mean(c[:, 0] == c[:, 1])), "accuracy", int(both.sum()), 2)


def cohen_kappa(
    a, b, /, *, weighting: str | None = None, categories: Sequence | None = None
) -> AgreementResult:
    r"""Cohen's kappa between two raters, optionally weighted for graded labels.

    Parameters
    ----------
    a, b : array_like, shape (items,)
        Labels of the same items (NaN or None for no label; those items are left out).
    weighting : {None, "linear", "quadratic"}
        None: every disagreement counts 1. ``"linear"``/``"quadratic"``: a disagreement
        between the i-th and j-th categories counts |i - j| or (i - j)^2, as
        ``sklearn.metrics.cohen_kappa_score`` does (category positions, not values).
    categories : sequence, optional
        Every label, lowest first: fixes the positions used by the weights (needed for
        string labels when weighting) and may list labels nobody used.

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1: 1 for perfect agreement, 0 for the agreement expected by
        chance from the two raters' label frequencies.

    Raises
    ------
    ValueError
        Different lengths, no item labelled by both, string labels with weighting but
        no ``categories``, or only one label used by both raters (kappa undefined).

    Notes
    -----
    With n_ij the items a labels i and b labels j, N the total, e_ij = n_i. n_.j / N
    and w_ij the disagreement weight:

    .. math:: \kappa = 1 - \frac{\sum_{ij} w_{ij} n_{ij}}{\sum_{ij} w_{ij} e_{ij}}

    which with w_ij = [i != j] is (p_o - p_e) / (1 - p_e).

    References
    ----------
    J. Cohen. A Coefficient of Agreement for Nominal Scales. Educational and
    Psychological Measurement 20(1), 1960. J. Cohen. Weighted Kappa. Psychological
    Bulletin 70(4), 1968.

    Examples
    --------
    >>> round(cohen_kappa([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]).statistic, 4)
    0.6154
    >>> round(cohen_kappa([0, 1, 2, 2], [0, 2, 2, 1], weighting="quadratic").statistic, 4)
    0.6364
    """
    func = "cohen_kappa"
    if weighting is not None:
        weighting = check_choice(weighting, "weighting", func, ("linear", "quadratic"))
    coded, both = _pair_codes(a, b, func, categories)
    if weighting is not None and not coded.ordered:
        raise fail(
            "categories",
            func,
            f"list the string labels from lowest to highest for {weighting} weighting",
            "None",
        )
    k = len(coded.categories)
    c = coded.codes[both]
    # integer counts, weights and margins: one division at the end, so that a kappa
    # that is -1 or 1 on paper is exactly that
    table = np.bincount(c[:, 0] * k + c[:, 1], minlength=k * k).reshape(k, k)
    outer = np.outer(table.sum(axis=1), table.sum(axis=0))  # N times the expected counts
    pos = np.arange(k)
    if weighting is None:
        weight = (pos[:, None] != pos[None, :]).astype(np.int64)
    elif weighting == "linear":
        weight = np.abs(pos[:, None] - pos[None, :])
    else:
        weight = (pos[:, None] - pos[None, :]) ** 2
    chance = int((weight * outer).sum())
    if chance == 0:
        raise ValueError(
            f"The 'a' and 'b' parameters of {func} must use at least two labels between "
            "them: kappa is undefined when chance agreement is certain. Got one label "
            f"({_plain_label(coded.categories[c[0, 0]].item())!r}) on all {len(c)} items instead."
        )
    value = 1.0 - int(table.sum()) * int((weight * table).sum()) / chance
    return AgreementResult(float(value), "cohen_kappa", int(both.sum()), 2, weighting)


def fleiss_kappa(labels, /) -> AgreementResult:
    r"""Fleiss' kappa: chance-corrected agreement of many raters on nominal labels.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label). Every item
        must have the same number n >= 2 of labels (raters need not be the same
        people for every item).

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1; 1 for perfect agreement, 0 at chance.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, items with different numbers of labels, fewer
        than 2 labels per item, or a single label used throughout (undefined).

    Notes
    -----
    With N items, n labels per item and n_ij the labels j given to item i:

    .. math::
        P_i = \frac{\sum_j n_{ij}^2 - n}{n(n-1)},\quad
        p_j = \frac{\sum_i n_{ij}}{N n},\quad
        \kappa = \frac{\bar P - \sum_j p_j^2}{1 - \sum_j p_j^2}

    References
    ----------
    J. L. Fleiss. Measuring Nominal Scale Agreement Among Many Raters. Psychological
    Bulletin 76(5), 1971 (Eqs. 2-8; Table 1 is the test's example).

    Examples
    --------
    >>> labels = [[1, 1, 1], [1, 2, 2], [2, 2, 2], [3, 3, 1]]
    >>> round(fleiss_kappa(labels).statistic, 4)
    0.4667
    """
    func = "fleiss_kappa"
    coded = _matrix_codes(labels, func)
    counts = _counts(coded.codes, len(coded.categories)).astype(float)
    per_item = counts.sum(axis=1)
    n = per_item[0]
    if (per_item != n).any() or n < 2:
        differ = int(np.argmax(per_item != n)) if (per_item != n).any() else 0
        raise fail(
            "labels",
            func,
            "give every item the same number (at least 2) of labels; Krippendorff's "
            "alpha allows them to differ",
            f"{int(per_item[0])} labels on item 0 and {int(per_item[differ])} on item {differ}",
        )
    items = len(counts)
    agree = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    share = counts.sum(axis=0) / (items * n)
    chance = np.sum(share**2)
    if chance == 1.0:
        raise fail(
            "labels",
            func,
            "use at least two labels: kappa is undefined when chance agreement is certain",
            f"only {_plain_label(coded.categories[0].item())!r}",
        )
    value = (agree.mean() - chance) / (1.0 - chance)
    return AgreementResult(float(value), "fleiss_kappa", items, coded.codes.shape[1])


def krippendorff_alpha(
    labels, /, *, level: str = "nominal", categories: Sequence | None = None
) -> AgreementResult:
    r"""Krippendorff's alpha from the coincidence matrix of the pairable labels.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label); items with
        fewer than 2 labels are not pairable and are left out.
    level : {"nominal", "ordinal", "interval"}
        The difference function: nominal (equal or not), ordinal (the ranks between
        the two labels) or interval (squared difference of the values; numeric
        labels only).
    categories : sequence, optional
        Every label, lowest first; needed for string labels at the ordinal level.

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1: 1 for perfect agreement, 0 at chance; ``n_items`` the
        pairable items.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, no pairable item, a single value throughout
        (undefined), string labels at the interval level or at the ordinal level
        without ``categories``.

    Notes
    -----
    With m_u the labels of item u, the coincidences
    o_ck = sum_u (pairs of labels c, k in u) / (m_u - 1), n_c = sum_k o_ck and
    n = sum_c n_c:

    .. math:: \alpha = 1 - (n - 1)
              \frac{\sum_{c,k} o_{ck}\, \delta^2_{ck}}{\sum_{c,k} n_c n_k\, \delta^2_{ck}}

    with delta^2 = [c != k] (nominal),
    (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 (ordinal) or (c - k)^2 (interval).

    References
    ----------
    K. Krippendorff. Computing Krippendorff's Alpha-Reliability. University of
    Pennsylvania, 2011 (Sections B-D; the example of Section C is in the tests).

    Examples
    --------
    >>> nan = float("nan")
    >>> labels = [[1, 1, nan], [2, 2, 3], [3, 3, 3], [1, 2, 1]]
    >>> krippendorff_alpha(labels).statistic
    0.5
    >>> round(krippendorff_alpha(labels, level="interval").statistic, 4)
    0.7727
    """
    func = "krippendorff_alpha"
    level = check_choice(level, "level", func, ("nominal", "ordinal", "interval"))
    coded = _matrix_codes(labels, func, categories=categories)
    if level == "interval" and not coded.numeric:
        raise TypeError(
            f"The 'labels' parameter of {func} must hold numbers at the interval level "
            "(it uses their differences). Got strings instead."
        )
    if level == "ordinal" and not coded.ordered:
        raise fail("categories", func, "list the string labels from lowest to highest", "None")
    k = len(coded.categories)
    counts = _counts(coded.codes, k).astype(float)
    per_item = counts.sum(axis=1)
    pairable = per_item >= 2
    counts, per_item = counts[pairable], per_item[pairable]
    if not pairable.any():
        raise fail("labels", func, "give at least one item 2 or more labels", "none")
    scaled = counts / (per_item - 1)[:, None]
    coincidence = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    n_c = coincidence.sum(axis=0)
    n = n_c.sum()
    if level == "nominal":
        delta = 1.0 - np.eye(k)
    elif level == "ordinal":
        middle = np.cumsum(n_c) - n_c / 2.0
        delta = (middle[:, None] - middle[None, :]) ** 2
    else:  # divided by a power of 2 (alpha is a ratio): no overflow at 1e200
        v = coded.categories.astype(float)
        v = np.ldexp(v, -np.frexp(np.abs(v).max())[1])
        delta = (v[:, None] - v[None, :]) ** 2
    expected = np.sum(np.outer(n_c, n_c) * delta)
    if expected == 0:
        raise fail(
            "labels",
            func,
            "hold at least two different pairable values: alpha is undefined otherwise",
            "a single value",
        )
    value = 1.0 - (n - 1.0) * np.sum(coincidence * delta) / expected
    return AgreementResult(
        float(value), "krippendorff_alpha", int(pairable.sum()), coded.codes.shape[1], level
    )


def majority_vote(
    labels, /, *, ties: str = "missing", categories: Sequence | None = None
) -> MajorityVote:
    r"""The label most raters gave each item.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label).
    ties : {"missing", "lowest", "highest"}
        When two or more labels share the most votes: no majority label (NaN or None;
        the default), or the lowest / highest of the tied labels (numbers by value,
        strings in the order of ``categories``).
    categories : sequence, optional
        Every label, lowest first; needed for string labels with ``"lowest"`` or
        ``"highest"``.

    Returns
    -------
    MajorityVote
        The labels, the winning vote counts, the number of ratings and which items
        were tied. An item nobody labelled gets no label.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, or string labels with an ordered tie rule but no
        ``categories``.

    Notes
    -----
    .. math:: \hat y_i = \arg\max_c \, n_{ic}

    A label needs only the most votes (a plurality), not more than half.

    Examples
    --------
    >>> vote = majority_vote([[1, 1, 0], [0, 1, float("nan")], [0, 0, 0]])
    >>> vote.labels
    array([ 1., nan,  0.])
    >>> majority_vote([[1, 1, 0], [0, 1, float("nan")]], ties="highest").labels
    array([1., 1.])
    """
    func = "majority_vote"
    ties = check_choice(ties, "ties", func, ("missing", "lowest", "highest"))
    coded = _matrix_codes(labels, func, categories=categories, min_raters=1)
    if ties != "missing" and not coded.ordered:
        raise fail(
            "categories",
            func,
            f"list the string labels from lowest to highest for ties={ties!r}",
            "None",
        )
    k = len(coded.categories)
    if k == 0:
        raise fail("labels", func, "hold at least one label", "no label at all")
    counts = _counts(coded.codes, k)
    n_ratings = counts.sum(axis=1)
    votes = counts.max(axis=1)
    tied = (counts == votes[:, None]).sum(axis=1) > 1
    tied &= n_ratings > 0
    if ties == "highest":
        winner = k - 1 - np.argmax(counts[:, ::-1], axis=1)
    else:
        winner = np.argmax(counts, axis=1)
    none = (n_ratings == 0) | (tied & (ties == "missing"))
    if coded.numeric:
        out = np.where(none, np.nan, coded.categories[winner])
    else:
        out = coded.categories[winner].astype(object)
        out[none] = None
    return MajorityVote(out, votes.astype(np.int64), n_ratings.astype(np.int64), tied, ties)


# --------------------------------------------------------------------------- label files
@dataclass(frozen=True, eq=False)
class LabelMatrix:
    """Labels read from a file: one row per item, one column per rater.

    Attributes
    ----------
    items, raters : tuple of str
        In order of first appearance in the file.
    labels : ndarray, shape (items, raters)
        float with NaN (every label in the file is a number) or object with None
        (string labels) where a rater gave the item no label.
    """

    items: tuple
    raters: tuple
    labels: np.ndarray

    @property
    def numeric(self) -> bool:
        """Whether the labels are numbers."""
        return self.labels.dtype.kind == "f"

    def to_dict(self) -> dict:
        """``{item: {rater: label}}`` for the labels given."""
        out: dict = {}
        for i, item in enumerate(self.items):
            row = {}
            for r, rater in enumerate(self.raters):
                v = self.labels[i, r]
                if not _is_missing(v):
                    row[rater] = _plain_label(v.item() if hasattr(v, "item") else v)
            out[item] = row
        return out


def _all_numbers():
    """Lines of decimals as the readers take them, or NaN and infinities (refused later)."""
    from .io._text import DECIMAL

    number = rb"(?:%s|[+-]?(?i:nan|inf|infinity))" % DECIMAL.pattern[1:-1]
    return re.compile(rb"(?:%s\n)*%s" % (number, number))


_ALL_NUMBERS = _all_numbers()


def read_label_file(path) -> LabelMatrix:
    """Read ``item rater label`` rows (whitespace-separated) into a label matrix.

    Blank lines and lines starting with ``#`` are ignored. Labels are numbers if every
    label in the file is a finite number written as the readers' decimals (not ``1_0``
    or digits of other scripts), strings otherwise. A rater with no row for
    an item has no label for it; two rows for the same item and rater are an error.

    Parameters
    ----------
    path : str or os.PathLike
        The file (docs/formats.md, "Label files").

    Returns
    -------
    LabelMatrix

    Raises
    ------
    ValueError
        A line without exactly 3 columns, a label written ``NaN`` or infinite, or a
        repeated (item, rater); the message names the file and line.
    """
    from .io._text import FileFormatError, split_rows

    rows = split_rows(path, 3, "label")
    if len(rows) == 0:
        raise FileFormatError(path, 0, "no label rows (expected 'item rater label' lines)")
    items_col = [t.decode("utf-8", errors="replace") for t in rows.column(0)]
    raters_col = [t.decode("utf-8", errors="replace") for t in rows.column(1)]
    raw_labels = rows.column(2)
    label_col = [t.decode("utf-8", errors="replace") for t in raw_labels]
    items = tuple(dict.fromkeys(items_col))
    raters = tuple(dict.fromkeys(raters_col))
    i_index = {v: i for i, v in enumerate(items)}
    r_index = {v: i for i, v in enumerate(raters)}
    ii = np.fromiter(map(i_index.__getitem__, items_col), np.int64, len(items_col))
    rr = np.fromiter(map(r_index.__getitem__, raters_col), np.int64, len(raters_col))
    cell = ii * len(raters) + rr
    _, first, counts = np.unique(cell, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = np.flatnonzero(cell == cell[first[np.argmax(counts > 1)]])
        raise FileFormatError(
            path,
            rows.line(int(dup[1])),
            f"a second label of rater {raters_col[dup[1]]!r} for item {items_col[dup[1]]!r} "
            f"(the first is on line {rows.line(int(dup[0]))})",
        )
    values = None
    if _ALL_NUMBERS.fullmatch(b"\n".join(raw_labels)):  # the readers' decimals, or NaN/inf
        values = np.array(label_col, dtype=np.float64)
    if values is not None:
        bad = ~np.isfinite(values)
        if bad.any():
            row = int(np.argmax(bad))
            raise FileFormatError(
                path,
                rows.line(row),
                f"the label {label_col[row]!r} is not a finite number; leave out the row "
                "of a rater who gave no label",
            )
        labels = np.full((len(items), len(raters)), np.nan)
        labels[ii, rr] = values
    else:
        labels = np.full((len(items), len(raters)), None, dtype=object)
        labels[ii, rr] = np.array(label_col, dtype=object)
    return LabelMatrix(items, raters, labels)
