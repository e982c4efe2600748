"""Rank-biased overlap of two rankings of ids (Webber, Moffat and Zobel, TOIS 2010)."""

from __future__ import annotations

import numpy as np

from .._validation import check_real, fail, fail_params, fail_type, kind_of, public
from ._results import RBOResult


def _ids(ranking, name: str) -> np.ndarray:
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__len__"):
        raise fail_type(name, "be a sequence of ids", kind_of(ranking))
    arr = np.asarray(ranking)
    if arr.dtype.kind == "U" and not isinstance(ranking, np.ndarray):
        if not all(isinstance(v, str) for v in ranking):  # numpy turns mixed ids into text
            arr = np.asarray(ranking, dtype=object)
    if arr.ndim != 1 or len(arr) == 0:
        raise fail(name, "be a non-empty 1-D sequence of ids", f"shape {arr.shape}")
    if arr.dtype.kind not in "iuU":
        raise fail_type(
            name, "hold ids that are all strings or all integers", f"an array of dtype {arr.dtype}"
        )
    uniq, counts = np.unique(arr, return_counts=True)
    if (counts > 1).any():
        raise fail(name, "list each id once", f"{uniq[np.argmax(counts > 1)].item()!r} twice")
    return arr


@public
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
    a = _ids(ranking_a, "ranking_a")
    b = _ids(ranking_b, "ranking_b")
    if (a.dtype.kind == "U") != (b.dtype.kind == "U"):
        raise fail_params(
            ("ranking_a", "ranking_b"),
            "hold ids of one kind",
            f"{a.dtype} and {b.dtype}",
            error=TypeError,
        )
    p = check_real(p, "p", low=0.0, high=1.0, closed="neither")
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
    # the paper's (1 - p)/p times sums of p^d / d, as (1 - p) times sums of p^(d-1) / d:
    # (1 - p)/p overflows for a subnormal p (1e-310), and p^d underflows to 0 before it
    with np.errstate(under="ignore"):
        q = p ** (d - 1) / d
        p_s, p_l, p_f = p**s, p**l, p**f
    rest = 1.0 - p
    log_term = _log_term(p)  # -ln(1 - p) / p = sum over d >= 1 of p^(d-1) / d
    lo = rest * (np.sum((X - x_l) * q[:l]) + x_l * log_term)
    ext = (
        rest * (np.sum(X * q[:l]) + x_s / s * np.sum((d[s:l] - s) * q[s:l]))
        + ((x_l - x_s) / l + x_s / s) * p_l
    )
    tail = log_term - np.sum(q)  # sum over d > f of p^(d-1) / d
    res = p_s + p_l - p_f - rest * (s * np.sum(q[s:]) + l * np.sum(q[l:]) + x_l * tail)
    lo, res, ext = (float(np.clip(v, 0.0, 1.0)) for v in (lo, res, ext))
    return RBOResult(ext, lo, res, ext, p, (s, l))


def _log_term(p: float) -> float:
    """-ln(1 - p) / p: by its series 1 + p/2 + p^2/3 + ... for small p (no 0/0)."""
    if p < 1e-3:
        return float(sum(p**k / (k + 1) for k in range(8)))
    return float(-np.log1p(-p) / p)
