r"""Divergences between distributions over groups: JSD, NMD, RNOD and DistrSim.

All functions take the achieved distribution ``p`` and the target ``q`` with the groups
on the last axis and broadcast over any leading (batch) axes. Inputs are checked and
never renormalised: each vector must hold finite entries in [0, 1] summing to 1 within
1e-5. Divergences are lower-is-closer; DistrSim = 1 - divergence is higher-is-fairer.

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
from numpy.typing import ArrayLike, NDArray

from . import _core
from ._validation import (
    check_choice,
    check_distributions,
    check_instance,
    check_same_groups,
    fail,
    fail_params,
    id_fault,
    public,
)

__all__ = ["jsd", "nmd", "rnod", "distr_sim", "AttributeSet", "SCALES", "DIVERGENCE_NAMES"]

SCALES = ("nominal", "ordinal")
"""The scales of an attribute set's groups."""

DIVERGENCE_NAMES = ("JSD", "NMD", "RNOD")
"""The divergences DistrSim can use; names are accepted case-insensitively."""

DEFAULT_DIVERGENCE = {"nominal": "JSD", "ordinal": "RNOD"}
"""The FairWeb tasks' divergence for each scale."""


def _pair(p: ArrayLike, q: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    pp = check_distributions(p, "p")
    qq = check_distributions(q, "q")
    check_same_groups(pp, qq)
    return pp, qq


@public
def jsd(p: ArrayLike, q: ArrayLike, /) -> NDArray[np.float64]:
    r"""Jensen-Shannon divergence (base 2) between ``p`` and ``q``.

    Parameters
    ----------
    p, q : array_like of float, shape (..., G)
        Probability vectors over G >= 2 groups: entries in [0, 1] summing to 1 within
        1e-5. Leading axes broadcast against each other.

    Returns
    -------
    ndarray of float, shape (...)
        Divergence in [0, 1]; 0 iff p == q, 1 iff their supports are disjoint. Lower
        is closer. Symmetric.

    Raises
    ------
    TypeError
        If an input is not numeric.
    ValueError
        If an input is not an array of probability vectors (the message names the
        first offending vector), or ``p`` and ``q`` differ in G or do not broadcast.

    See Also
    --------
    nmd : for ordinal groups.
    rnod : for ordinal groups.
    distr_sim : 1 minus a divergence.

    Notes
    -----
    .. math:: JSD(p, q) = \tfrac12 KL(p \| m) + \tfrac12 KL(q \| m),\quad m = (p+q)/2

    with base-2 logarithms and 0 log 0 = 0. It equals
    ``scipy.spatial.distance.jensenshannon(p, q, base=2) ** 2`` (scipy's function is
    the square root of the divergence, and renormalises its inputs).

    References
    ----------
    T. Sakai, J. Y. Kim, I. Kang. ACM TOIS 42(1), 2023 (JSD for nominal groups).
    FairWeb-2 task slides: the D1/D2 example (JSD 0.3651 for both).

    Examples
    --------
    >>> round(float(jsd([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.3651
    >>> jsd([[1, 0], [0.5, 0.5]], [0.5, 0.5]).round(6).tolist()
    [0.311278, 0.0]
    """
    pp, qq = _pair(p, q)
    return _core.jsd(pp, qq)


@public
def nmd(p: ArrayLike, q: ArrayLike, /) -> NDArray[np.float64]:
    r"""Normalised match distance between ``p`` and ``q`` (ordinal groups).

    Parameters
    ----------
    p, q : array_like of float, shape (..., G)
        Probability vectors over G >= 2 ordered groups (entries in [0, 1] summing to 1
        within 1e-5); leading axes broadcast.

    Returns
    -------
    ndarray of float, shape (...)
        Divergence in [0, 1]; 0 iff p == q. Lower is closer. Symmetric.

    Raises
    ------
    TypeError
        If an input is not numeric.
    ValueError
        If an input is not an array of probability vectors, or ``p`` and ``q``
        differ in G or do not broadcast.

    See Also
    --------
    rnod : the root of its ordinal variant.
    jsd : for nominal groups.
    distr_sim : 1 minus a divergence.

    Notes
    -----
    .. math:: NMD(p, q) = \frac{1}{G-1} \sum_{i=1}^{G} |P_i - Q_i|

    where P and Q are the cumulative sums of p and q.

    References
    ----------
    T. Sakai. ACL-IJCNLP 2021 (NMD). FairWeb-2 task slides: the D1/D2 example
    (0.2000 and 0.6000).

    Examples
    --------
    >>> round(float(nmd([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.2
    >>> round(float(nmd([0.1, 0.1, 0.1, 0.7], [0.7, 0.1, 0.1, 0.1])), 4)
    0.6
    """
    pp, qq = _pair(p, q)
    return _core.nmd(pp, qq)


@public
def rnod(p: ArrayLike, q: ArrayLike, /) -> NDArray[np.float64]:
    r"""Root normalised order-aware divergence RNOD(p || q) (ordinal groups).

    Parameters
    ----------
    p : array_like of float, shape (..., G)
        Achieved distributions over G >= 2 ordered groups (entries in [0, 1] summing
        to 1 within 1e-5).
    q : array_like of float, shape (..., G)
        Target distributions; leading axes broadcast against ``p``.

    Returns
    -------
    ndarray of float, shape (...)
        Divergence >= 0; 0 iff p == q. Lower is closer. Not symmetric. In [0, 1] when
        every entry of the target ``q`` is positive; with zero entries in ``q`` it can
        exceed 1 for G >= 5, e.g. RNOD((0, 1, 0, 0, 0) || (0.98, 0, 0, 0.01, 0.01)) =
        1.0297.

    Raises
    ------
    TypeError
        If an input is not numeric.
    ValueError
        If an input is not an array of probability vectors, or ``p`` and ``q``
        differ in G or do not broadcast.

    See Also
    --------
    nmd : for ordinal groups.
    jsd : for nominal groups.
    distr_sim : 1 minus a divergence.

    Notes
    -----
    .. math::
        DW_i = \sum_j |i-j| (p_j - q_j)^2,\quad
        OD = \frac{1}{|S|} \sum_{i \in S} DW_i,\quad
        RNOD = \sqrt{OD / (G-1)}

    where S = {i : q_i > 0}: only the groups the target supports are averaged.

    References
    ----------
    T. Sakai. ACL-IJCNLP 2021 (RNOD). FairWeb-2 task slides: the D1/D2 example
    (OD 0.90 and 1.08, RNOD 0.5477 and 0.6000).

    Examples
    --------
    >>> round(float(rnod([0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1])), 4)
    0.5477
    >>> round(float(rnod([0, 1, 0, 0, 0], [0.98, 0, 0, 0.01, 0.01])), 4)
    1.0297
    """
    pp, qq = _pair(p, q)
    return _core.rnod(pp, qq)


def resolve_divergence(divergence: str | None = None, scale: str | None = None) -> str:
    """The divergence name for an explicit ``divergence`` or, failing that, a ``scale``.

    Parameters
    ----------
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        Case-insensitive; takes precedence over ``scale``.
    scale : {'nominal', 'ordinal'}, optional
        Case-insensitive; nominal picks JSD, ordinal picks RNOD.
    func : str
        The public function to name in error messages.

    Returns
    -------
    str
        One of :data:`DIVERGENCE_NAMES`, upper case.

    Raises
    ------
    TypeError
        If neither is given.
    ValueError
        If a name is not one of the choices.

    Examples
    --------
    >>> resolve_divergence("rnod"), resolve_divergence(scale="Nominal")
    ('RNOD', 'JSD')
    """
    if divergence is not None:
        return check_choice(divergence, "divergence", DIVERGENCE_NAMES)
    if scale is not None:
        return DEFAULT_DIVERGENCE[check_choice(scale, "scale", SCALES)]
    raise fail_params(
        ("divergence", "scale"),
        "not both be None: give a divergence (JSD, NMD or RNOD) or a scale (nominal picks "
        "JSD, ordinal picks RNOD)",
        "None for both",
        error=TypeError,
    )


@public
def distr_sim(
    p: ArrayLike, q: ArrayLike, /, *, divergence: str | None = None, scale: str | None = None
) -> NDArray[np.float64]:
    r"""DistrSim = 1 - divergence(p || q), the group fairness of ``p`` against ``q``.

    Parameters
    ----------
    p : array_like of float, shape (..., G)
        Achieved distributions (entries in [0, 1] summing to 1 within 1e-5).
    q : array_like of float, shape (..., G)
        Target distributions; leading axes broadcast against ``p``.
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        Which divergence (case-insensitive); takes precedence over ``scale``.
    scale : {'nominal', 'ordinal'}, optional
        Picks the default divergence: nominal -> JSD, ordinal -> RNOD.

    Returns
    -------
    ndarray of float, shape (...)
        Similarity, higher is fairer; 1 iff p == q. In [0, 1] except RNOD against a
        target with zero entries, which can make it negative.

    Raises
    ------
    TypeError
        If neither ``divergence`` nor ``scale`` is given, or an input is not numeric.
    ValueError
        If a name is not one of the choices, an input is not an array of probability
        vectors, or ``p`` and ``q`` differ in G or do not broadcast.

    See Also
    --------
    jsd : the divergence of nominal groups.
    nmd : of ordinal groups.
    rnod : of ordinal groups.

    Notes
    -----
    .. math:: DistrSim(p, q) = 1 - D(p \| q),\quad D \in \{JSD, NMD, RNOD\}

    Erratum: Table 4 (b) of the GFRC2 paper prints 0.809126 for p = (1/2, 1/2, 0)
    against the uniform target over three groups. The exact value is 0.80912550
    (0.8091255 to seven digits), which rounds to 0.809125: the printed cell is one
    unit high in the sixth digit. The six-digit target 0.333333 per group gives
    0.8091256 (to seven digits), which rounds to the printed value. fairconv
    computes with the target it is given; with the exact 1/3 it gives the exact value.

    References
    ----------
    T. Sakai, J. Y. Kim, I. Kang. ACM TOIS 42(1), 2023 (DistrSim in GFR).
    T. Sakai, S. Tao, Y.-I. Song. Evaluating Group Fairness and Relevance in
    Conversational Search: An Alternative Formulation (the GFRC2 paper), Table 1
    (0.540852, 0.404881) and Table 4 (0.733061, 0.809126).

    Examples
    --------
    >>> round(float(distr_sim([1, 0, 0], [1/3, 1/3, 1/3], scale="nominal")), 6)
    0.540852
    >>> round(float(distr_sim([0, 0, 0, 1], [0.25] * 4, divergence="rnod")), 6)
    0.404881
    >>> round(float(distr_sim([0.5, 0.5, 0], [1/3, 1/3, 1/3], divergence="JSD")), 7)
    0.8091255
    """
    name = resolve_divergence(divergence, scale)
    pp, qq = _pair(p, q)
    return _core.distr_sim(pp, qq, name)


def _check_name(given: object) -> str:
    name: str = check_instance(given, str, "name")
    if id_fault(name) is not None or "[" in name or "]" in name:  # an id, with no brackets
        raise fail(
            "name",
            "be a non-empty string without whitespace, control characters or brackets "
            "(it becomes part of measure names such as GF-JSD@10[NAME])",
            repr(name),
        )
    return name


@dataclass(frozen=True)
class AttributeSet:
    """One attribute set: a name, its G groups' target distribution, scale and divergence.

    Parameters
    ----------
    name : str
        E.g. ``"M-ORIGIN"`` or ``"PRONOUN"``; no whitespace, control characters or
        brackets, since it becomes part of measure names (``GF-JSD@10[M-ORIGIN]``).
    target : array_like of float, shape (G,)
        Target ("gold") distribution over G >= 2 groups: entries in [0, 1] summing to
        1 within 1e-5 (6-digit targets such as 0.333333 x 3 are accepted as given,
        not renormalised). Stored as a read-only float64 copy.
    scale : {'nominal', 'ordinal'}
        Case-insensitive. Nominal groups default to JSD, ordinal ones to RNOD.
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        The divergence of this set's GF, case-insensitive; ``None`` picks it from the
        scale. Stored upper case.

    Attributes
    ----------
    n_groups : int
        G, the length of the target.

    Raises
    ------
    TypeError
        If ``name`` is not a string or ``target`` not numeric.
    ValueError
        If the name is empty or contains whitespace, control characters or brackets,
        the target is not one probability vector, or the scale or divergence is not
        one of the choices.

    References
    ----------
    T. Sakai, J. Y. Kim, I. Kang. ACM TOIS 42(1), 2023 (attribute sets, nominal and
    ordinal groups).

    Examples
    --------
    >>> hindex = AttributeSet("HINDEX", [0.25] * 4, "Ordinal")
    >>> hindex.scale, hindex.divergence, hindex.n_groups
    ('ordinal', 'RNOD', 4)
    >>> AttributeSet("HINDEX", [0.25] * 4, "ordinal", divergence="nmd").divergence
    'NMD'
    """

    name: str
    target: np.ndarray = field(repr=False)
    scale: str = "nominal"
    divergence: str | None = None

    @public
    def __post_init__(self) -> None:
        _check_name(self.name)
        target = check_distributions(self.target, "target")
        if target.ndim != 1:
            raise fail("target", "be one vector of G probabilities", f"shape {target.shape}")
        target = target.copy()
        target.flags.writeable = False
        scale = check_choice(self.scale, "scale", SCALES)
        divergence = resolve_divergence(self.divergence, scale)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "divergence", divergence)

    @property
    def n_groups(self) -> int:
        """The number of groups G."""
        return int(self.target.shape[0])

    @public
    def similarity(self, p: ArrayLike, /, *, divergence: str | None = None) -> NDArray[np.float64]:
        """DistrSim of achieved distribution(s) against this set's target.

        Parameters
        ----------
        p : array_like of float, shape (..., G)
            Achieved distributions over this set's G groups.
        divergence : {'JSD', 'NMD', 'RNOD'}, optional
            Overrides the set's divergence (case-insensitive).

        Returns
        -------
        ndarray of float, shape (...)
            As :func:`distr_sim`: higher is fairer, 1 iff p equals the target.

        Raises
        ------
        TypeError, ValueError
            As :func:`distr_sim`.

        Examples
        --------
        >>> a = AttributeSet("HINDEX", [0.25] * 4, "ordinal")
        >>> round(float(a.similarity([0, 0, 0, 1])), 6)
        0.404881
        """
        chosen = self.divergence if divergence is None else divergence
        return distr_sim(p, self.target, divergence=chosen)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, AttributeSet)
            and self.name == other.name
            and self.scale == other.scale
            and self.divergence == other.divergence
            and np.array_equal(self.target, other.target)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.scale, self.divergence, self.target.tobytes()))
