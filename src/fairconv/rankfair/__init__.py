r"""The classic fair-ranking measures, each equal to its reference implementation.

FairRankTune's exposure family (EXP, EXPU, EXPRU, ATT, ERBE, ERBP, ERBR, ARP) with its
seven meta-metrics, NDKL and IAA; Yang and Stoyanovich's rND, rKL and rRD with the
exact normaliser; the FA*IR prefix score of Raj and Ekstrand; and Diaz et al.'s
expected exposure with the gERR and RBP browsing models, per doc and per group.
docs/rankfair.md (the specification) gives every equation, where the references
disagree and the rule chosen.

:func:`evaluate` scores runs against qrels and the membership inputs of attribute sets
(the ranked-list route of every family) and returns a
:class:`~fairconv.results.ScoreTable`; :func:`measure_names` lists the names it gives.

The array level: batch axes lead; a ranking is padded to K positions and ``lengths``
gives its length, positions beyond it being ignored whatever they hold. Undefined
values are NaN (never inf). :func:`group_values` and :func:`meta` give the exposure
family (``EXP-MinMaxRatio`` is ``meta(group_values(..., statistic="EXP"),
meta="MinMaxRatio")``), :func:`arp` ARP's per-group values, :func:`ndkl`,
:func:`yang`, :func:`fair`, :func:`iaa` and :func:`expected_exposure` the others.
"""

from ._arrays import (
    METAS,
    STATISTICS,
    arp,
    expected_exposure,
    fair,
    group_values,
    iaa,
    meta,
    ndkl,
    yang,
)
from ._evaluate import evaluate, measure_names

__all__ = [
    "evaluate",
    "measure_names",
    "group_values",
    "meta",
    "arp",
    "ndkl",
    "yang",
    "fair",
    "iaa",
    "expected_exposure",
    "STATISTICS",
    "METAS",
]
