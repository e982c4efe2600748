"""The result records of :mod:`fairconv.agreement`: frozen, on the one record base."""

from __future__ import annotations

from dataclasses import field

import numpy as np

from .._records import Record, record
from .._validation import public


@record
class CorrelationResult(Record):
    """A correlation between two score vectors.

    Parameters
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

    Examples
    --------
    >>> from fairconv import agreement
    >>> r = agreement.kendall_tau([0.3, 0.2, 0.1], [0.25, 0.3, 0.05])
    >>> round(r.statistic, 4), r.method, r.n_systems
    (0.3333, 'tau_b', 3)
    """

    statistic: float
    pvalue: float | None
    method: str
    n_systems: int


@record(eq=False)
class CorrelationMatrix(Record):
    """One coefficient for every pair of measures.

    Parameters
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

    Examples
    --------
    >>> from fairconv import agreement
    >>> m = agreement.correlation_matrix([[0.3, 0.2, 0.1], [0.25, 0.3, 0.05]], method="tau_b")
    >>> m.statistic.round(3).tolist(), m.measures
    ([[1.0, 0.333], [0.333, 1.0]], ('0', '1'))
    """

    statistic: np.ndarray = field(repr=False)
    method: str
    measures: tuple
    n_systems: int

    def _table(self):
        """One row per measure: its name, then its coefficient with every measure."""
        names = [str(m) for m in self.measures]
        return {"measure": names, **{m: self.statistic[:, i] for i, m in enumerate(names)}}

    @public
    def to_frame(self):
        """The matrix as a pandas DataFrame indexed by measure (needs pandas).

        Returns
        -------
        pandas.DataFrame
            Shape (M, M): rows and columns named by measure.

        Examples
        --------
        >>> from fairconv import agreement
        >>> means = [[0.3, 0.2, 0.1], [0.25, 0.3, 0.05]]
        >>> m = agreement.correlation_matrix(means, method="tau_b", measures=["A", "B"])
        >>> round(float(m.to_frame().loc["A", "B"]), 3)
        0.333
        """
        frame = super().to_frame()
        return frame.set_index("measure").rename_axis(None)


@record
class RBOResult(Record):
    """Rank-biased overlap of two rankings.

    Parameters
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

    Examples
    --------
    >>> from fairconv import agreement
    >>> r = agreement.rbo(["a", "b", "c"], ["a", "c", "b"], p=0.9)
    >>> round(r.statistic, 3), round(r.min, 4), r.depth
    (0.955, 0.4775, (3, 3))
    """

    statistic: float
    min: float
    res: float
    ext: float
    p: float
    depth: tuple

    def _table(self):
        row = super()._table()
        row["depth"] = [list(self.depth)]
        return row


@record
class AgreementResult(Record):
    """Agreement between raters on a set of items.

    Parameters
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
    weighting : str or None
        The weighting of Cohen's kappa (``"linear"``, ``"quadratic"``; None otherwise).
    level : str or None
        The level of Krippendorff's alpha (None for the other coefficients).

    Examples
    --------
    >>> from fairconv import agreement
    >>> r = agreement.cohen_kappa([1, 0, 1, 1], [1, 0, 0, 1])
    >>> r.statistic, r.method, r.n_items
    (0.5, 'cohen_kappa', 4)
    """

    statistic: float
    method: str
    n_items: int
    n_raters: int
    weighting: str | None = None
    level: str | None = None


@record(eq=False)
class MajorityVote(Record):
    """The label most raters gave each item.

    Parameters
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

    Examples
    --------
    >>> from fairconv import agreement
    >>> v = agreement.majority_vote([[1, 1, 0], [0, 0, 1]])
    >>> v.labels.tolist(), v.votes.tolist(), v.tied.tolist()
    ([1.0, 0.0], [2, 2], [False, False])
    """

    labels: np.ndarray = field(repr=False)
    votes: np.ndarray = field(repr=False)
    n_ratings: np.ndarray = field(repr=False)
    tied: np.ndarray = field(repr=False)
    ties: str

    @property
    def statistic(self) -> np.ndarray:
        """The majority labels (the same array as :attr:`labels`)."""
        return self.labels

    @public
    def to_dict(self) -> dict:
        """Lists of labels (None where there is none), votes, ratings and ties.

        Returns
        -------
        dict
            ``labels`` (a list, None where there is none), ``votes``, ``n_ratings``, ``tied``
            (lists) and ``ties``.

        Examples
        --------
        >>> from fairconv import agreement
        >>> agreement.majority_vote([[1, 1, 0], [0, 0, 1]]).to_dict()["labels"]
        [1, 0]
        """
        labels = [None if _is_missing(v) else _plain_label(v) for v in self.labels.tolist()]
        return {
            "labels": labels,
            "votes": self.votes.tolist(),
            "n_ratings": self.n_ratings.tolist(),
            "tied": self.tied.tolist(),
            "ties": self.ties,
        }

    def _table(self):
        """One row per item: label (None where there is none), votes, ratings, tied."""
        d = self.to_dict()
        return {
            "label": d["labels"],
            "votes": d["votes"],
            "n_ratings": d["n_ratings"],
            "tied": d["tied"],
        }


def _plain_label(v):
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


@record(eq=False)
class RankingAgreement(Record):
    """How alike several measures rank the same runs: one row per pair of measures.

    Parameters
    ----------
    measures, directions : tuple of str
        The measures and their directions (``'higher'`` or ``'lower'``): each ranks
        the runs best first by its direction.
    runs : tuple of str
        The runs ranked, in the order of the columns of ``means``.
    means : ndarray, shape (measures, runs)
        Each run's mean of each measure, over the topics where every run has it.
    n_topics : tuple of int
        Those topics' number, per measure.
    pairs : tuple of dict
        Per pair of measures (a, b) in the order given: ``tau_b`` with its two-sided
        ``tau_b_pvalue`` (scipy's), ``tau_ap`` (tau_ap-b, symmetric), ``spearman``,
        ``n_systems`` and ``n_topics`` ([a's, b's]); NaN where undefined (a measure
        with the same mean for every run).

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv import agreement
    >>> from fairconv.results import ScoreTable
    >>> v = np.array([[[0.5, 0.1]], [[0.4, 0.2]], [[0.2, 0.3]]]).transpose(1, 0, 2)
    >>> table = ScoreTable(topics=("q1",), runs=("a", "b", "c"), measures=("nDCG", "EE-D"),
    ...                    values=v, present=np.ones(v.shape, bool))
    >>> r = agreement.agree(table, ["nDCG", "EE-D"])
    >>> r.directions, r.pairs[0]["tau_b"]
    (('higher', 'lower'), 1.0)
    """

    measures: tuple[str, ...]
    directions: tuple[str, ...]
    runs: tuple[str, ...]
    means: np.ndarray = field(repr=False)
    n_topics: tuple[int, ...]
    pairs: tuple[dict, ...] = field(repr=False)

    def _table(self):
        """One row per pair of measures."""
        keys = ("a", "b", "tau_b", "tau_b_pvalue", "tau_ap", "spearman", "n_systems")
        return {k: [p[k] for p in self.pairs] for k in keys}
