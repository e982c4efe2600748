"""Divergences between distributions over groups: JSD, NMD, RNOD and DistrSim.

All functions take the achieved distribution ``p`` and the target ``q`` with the groups
on the last axis and broadcast over any leading (batch) axes. Inputs are checked and
never renormalised: each vector must be finite, non-negative and sum to 1 within 1e-5.

References
----------
T. Sakai. Evaluating Evaluation Measures for Ordinal Classification and Ordinal
Quantification. ACL-IJCNLP 2021 (NMD, RNOD).
T. Sakai, J. Y. Kim, I. Kang. A Versatile Framework for Evaluating Ranked Lists in
Terms of Group Fairness and Relevance. ACM TOIS 42(1), 2023 (DistrSim in GFR).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _core
from ._validation import check_choice, check_distributions, check_same_groups, fail

__all__ = ["jsd", "nmd", "rnod", "distr_sim", "AttributeSet", "SCALES", "DIVERGENCE_NAMES"]

SCALES = ("nominal", "ordinal")
DIVERGENCE_NAMES = ("JSD", "NMD", "RNOD")
DEFAULT_DIVERGENCE = {"nominal": "JSD", "ordinal": "RNOD"}


def _pair(p, q, func):
    p = check_distributions(p, "p", func)
    q = check_distributions(q, "q", func)
    check_same_groups(p, q, func)
    return p, q


def jsd(p, q, /):
    r"""Jensen-Shannon divergence (base 2) between ``p`` and ``q``.

    Parameters
    ----------
    p, q : array_like, shape (..., G)
        Probability vectors over G >= 2 groups; leading axes broadcast.

    Returns
    -------
    ndarray, shape (...)
        Divergence in [0, 1]; 0 iff p == q. Lower is closer. Symmetric.

    Notes
    -----
    .. math:: JSD(p, q) = \\tfrac12 KL(p \\| m) + \\tfrac12 KL(q \\| m),\\quad m = (p+q)/2

    with base-2 logarithms and 0 log 0 = 0. It equals
    ``scipy.spatial.distance.jensenshannon(p, q, base=2) ** 2``.

    Examples
    --------
    >>> round(float(jsd([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.3651
    """
    p, q = _pair(p, q, "jsd")
    return _core.jsd(p, q)


def nmd(p, q, /):
    r"""Normalised match distance between ``p`` and ``q`` (ordinal groups).

    Returns
    -------
    ndarray, shape (...)
        Divergence in [0, 1]. Symmetric. Lower is closer.

    Notes
    -----
    .. math:: NMD(p, q) = \\frac{1}{G-1} \\sum_{i=1}^{G} |P_i - Q_i|

    where P and Q are the cumulative sums of p and q (Sakai, ACL 2021).

    Examples
    --------
    >>> round(float(nmd([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.2
    """
    p, q = _pair(p, q, "nmd")
    return _core.nmd(p, q)


def rnod(p, q, /):
    r"""Root normalised order-aware divergence RNOD(p || q) (ordinal groups).

    Returns
    -------
    ndarray, shape (...)
        Divergence >= 0; 0 iff p == q. In [0, 1] when every entry of the target ``q``
        is positive. With zero entries in ``q`` it can exceed 1 for G >= 5, e.g.
        RNOD((0, 1, 0, 0, 0) || (0.98, 0, 0, 0.01, 0.01)) = 1.0297. Not symmetric.

    Notes
    -----
    .. math::
        DW_i = \\sum_j |i-j| (p_j - q_j)^2,\\quad
        OD = \\frac{1}{|S|} \\sum_{i \\in S} DW_i,\\quad
        RNOD = \\sqrt{OD / (G-1)}

    where S = {i : q_i > 0}: only the groups the target supports are averaged.

    Examples
    --------
    >>> round(float(rnod([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.5477
    """
    p, q = _pair(p, q, "rnod")
    return _core.rnod(p, q)


def resolve_divergence(divergence=None, scale=None, func="distr_sim") -> str:
    """The divergence name for an explicit ``divergence`` or, failing that, a ``scale``."""
    if divergence is not None:
        return check_choice(divergence, "divergence", func, DIVERGENCE_NAMES)
    if scale is not None:
        return DEFAULT_DIVERGENCE[check_choice(scale, "scale", func, SCALES)]
    raise TypeError(
        f"{func} needs a 'divergence' (JSD, NMD or RNOD) or a 'scale' "
        "(nominal picks JSD, ordinal picks RNOD)."
    )


def distr_sim(p, q, /, *, divergence=None, scale=None):
    """DistrSim = 1 - divergence(p || q), the group fairness of ``p`` against target ``q``.

    Parameters
    ----------
    p, q : array_like, shape (..., G)
        Achieved and target distributions.
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        Which divergence; takes precedence over ``scale``.
    scale : {'nominal', 'ordinal'}, optional
        Picks the default divergence: nominal -> JSD, ordinal -> RNOD.

    Returns
    -------
    ndarray, shape (...)
        Similarity, higher is fairer; 1 iff p == q. In [0, 1] except RNOD against a
        target with zero entries, which can make it negative.

    Examples
    --------
    >>> round(float(distr_sim([1, 0, 0], [1/3, 1/3, 1/3], scale="nominal")), 6)
    0.540852
    """
    name = resolve_divergence(divergence, scale)
    p, q = _pair(p, q, "distr_sim")
    return _core.distr_sim(p, q, name)


@dataclass(frozen=True)
class AttributeSet:
    """One attribute set: a name, its G groups' target distribution, scale and divergence.

    Parameters
    ----------
    name : str
        E.g. ``"M-ORIGIN"`` or ``"PRONOUN"``.
    target : array_like, shape (G,)
        Target ("gold") distribution; sums to 1 within 1e-5 (6-digit targets such as
        0.333333 x 3 are accepted as given).
    scale : {'nominal', 'ordinal'}
        Nominal groups default to JSD, ordinal ones to RNOD.
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        The default divergence of this set's GF; ``None`` picks it from the scale.
    """

    name: str
    target: np.ndarray = field(repr=False)
    scale: str = "nominal"
    divergence: str | None = None

    def __post_init__(self):
        func = "AttributeSet"
        if not isinstance(self.name, str) or not self.name:
            raise fail("name", func, "be a non-empty string", repr(self.name))
        target = check_distributions(self.target, "target", func)
        if target.ndim != 1:
            raise fail("target", func, "be one vector of G probabilities", f"shape {target.shape}")
        target = target.copy()
        target.flags.writeable = False
        scale = check_choice(self.scale, "scale", func, SCALES)
        divergence = resolve_divergence(self.divergence, scale, func)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "divergence", divergence)

    @property
    def n_groups(self) -> int:
        """The number of groups G."""
        return int(self.target.shape[0])

    def similarity(self, p, *, divergence: str | None = None):
        """DistrSim of the achieved distribution(s) ``p`` (..., G) against this target."""
        return distr_sim(p, self.target, divergence=divergence or self.divergence)

    def __eq__(self, other):
        return (
            isinstance(other, AttributeSet)
            and self.name == other.name
            and self.scale == other.scale
            and self.divergence == other.divergence
            and np.array_equal(self.target, other.target)
        )

    def __hash__(self):
        return hash((self.name, self.scale, self.divergence, self.target.tobytes()))
