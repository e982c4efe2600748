"""Attribute sets with the membership file that covers their topics: a ranked-list input.

:class:`AttributeData` pairs an :class:`~fairconv.AttributeSet` (its name, target and
scale) with its group memberships (:class:`GroupMemberships`); :func:`load_attribute`
reads one from a gmemb input and a target (the command line's ``--attribute NAME GMEMB
TARGET SCALE``). :mod:`fairconv.rankings` joins them with runs and qrels.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import public
from ..divergences import AttributeSet
from ._frames import as_memberships
from ._tables import GroupMemberships, read_golddistr
from ._text import FileFormatError

__all__ = ["AttributeData", "load_attribute"]


@dataclass(frozen=True, eq=False)
class AttributeData:
    """An attribute set with the membership file that covers its topics.

    Parameters
    ----------
    attribute : AttributeSet
        The set: its name, target, scale and divergence.
    memberships : GroupMemberships
        The membership vectors of the judged docs of the topics it covers (G of the
        target each).

    Raises
    ------
    FileFormatError
        When the vectors' G is not the target's.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> data = fairweb1_pilot().attributes[3]
    >>> data.attribute.name, data.attribute.scale, data.memberships.topics
    ('M-ORIGIN', 'nominal', ('P002',))
    """

    attribute: AttributeSet
    memberships: GroupMemberships

    @public
    def __post_init__(self):
        if self.memberships.n_groups != self.attribute.n_groups:
            raise FileFormatError(
                self.memberships.source,
                None,
                f"has {self.memberships.n_groups} groups but the target "
                f"of {self.attribute.name} has {self.attribute.n_groups}",
            )


@public
def load_attribute(name: str, gmemb, target, scale: str, /, *, divergence=None) -> AttributeData:
    """Read one attribute set: a gmemb file and a target (golddistr path or vector).

    The CLI's ``--attribute NAME GMEMB TARGET SCALE``.

    Parameters
    ----------
    name : str
        The set's name, as measure names print it (``GF-JSD@10[<name>]``).
    gmemb : path, file, DataFrame or dict
        The memberships covering the set's topics (a gmemb file, or any input of
        :func:`fairconv.io.as_memberships`).
    target : path, file or sequence of float
        A golddistr file, or the target distribution itself.
    scale : {'nominal', 'ordinal'}
        Picks the default divergence (JSD or RNOD).
    divergence : {'JSD', 'NMD', 'RNOD'}, optional
        Overrides the scale's default.

    Returns
    -------
    AttributeData
        The attribute set with its memberships, checked against each other.

    Raises
    ------
    ValueError
        Naming the attribute set, and the file and line where there is one: a target
        that is not a distribution, a gmemb file with another number of groups.

    Examples
    --------
    >>> from fairconv.datasets import path
        >>> P = path("fairweb1-pilot")
    >>> gmemb, target = P / "fairweb1pilot.M-ORIGIN.gmemb", P / "M-ORIGIN.golddistr"
    >>> data = load_attribute("M-ORIGIN", gmemb, target, "nominal")
    >>> data.attribute
    AttributeSet(name='M-ORIGIN', scale='nominal', divergence='JSD')
    >>> data.memberships.topics
    ('P002',)
    """
    if isinstance(target, (str, bytes)) or hasattr(target, "__fspath__") or hasattr(target, "read"):
        source = str(getattr(target, "name", target))
        vector = read_golddistr(target)
    else:
        source, vector = None, target
    try:
        attribute = AttributeSet(name, vector, scale, divergence)
    except (ValueError, TypeError) as exc:
        where = f"{source}: " if source is not None else ""
        raise type(exc)(f"{where}attribute set {name!r}: {exc}") from None
    return AttributeData(attribute, as_memberships(gmemb, n_groups=attribute.n_groups))
