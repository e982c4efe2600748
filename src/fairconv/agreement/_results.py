"""The result records of :mod:`fairconv.agreement`: frozen, with ``to_dict`` and ``to_frame``."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np


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
