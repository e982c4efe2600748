"""Agreement: how alike two system rankings are, and how alike assessors label.

Rank correlations between the scores two measures (or two nugget sets, or two
assessors) give the same systems: Kendall's tau (:func:`kendall_tau`), Spearman's rho
(:func:`spearman`), Pearson's r (:func:`pearson`), the AP correlation tau_ap
(:func:`tau_ap`), every pair of measures at once (:func:`correlation_matrix`), and
rank-biased overlap of two rankings of ids (:func:`rbo`); the rankings of the runs of
a score table by several measures compared (:func:`agree`). Agreement between assessors
on a label matrix of shape (items, raters), NaN (or None) where a rater gave no label:
:func:`accuracy`, :func:`cohen_kappa`, :func:`fleiss_kappa`,
:func:`krippendorff_alpha` and :func:`majority_vote`; :func:`read_label_file` reads
``item rater label`` rows into such a matrix.

The array functions take higher-is-better scores: a system with a higher score is
ranked above one with a lower score. :func:`agree` ranks by each measure's direction
(a lower-is-better measure's lowest mean first) and refuses an undirected measure.
Every coefficient is returned in a frozen record whose value is ``statistic`` (as in
scipy's results). A coefficient that is undefined on the input (a constant score
vector for tau-b, rho, r and tau_ap-b; a single label for kappa and alpha) raises a
``ValueError``; nothing is returned as NaN, except by :func:`agree`, which gives NaN
with a notice for a measure that ranks every run alike.

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

from ._correlation import METHODS, correlation_matrix, kendall_tau, pearson, spearman, tau_ap
from ._labels import (
    LabelMatrix,
    accuracy,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    majority_vote,
    read_label_file,
)
from ._rankings import agree
from ._rbo import rbo
from ._results import (
    AgreementResult,
    CorrelationMatrix,
    CorrelationResult,
    MajorityVote,
    RankingAgreement,
    RBOResult,
)

__all__ = [
    "CorrelationResult",
    "CorrelationMatrix",
    "RBOResult",
    "AgreementResult",
    "MajorityVote",
    "RankingAgreement",
    "LabelMatrix",
    "kendall_tau",
    "spearman",
    "pearson",
    "tau_ap",
    "correlation_matrix",
    "agree",
    "rbo",
    "accuracy",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "majority_vote",
    "read_label_file",
    "METHODS",
]
