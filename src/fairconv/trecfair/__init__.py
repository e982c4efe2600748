r"""TREC Fair Ranking 2021 and 2022: AWRF, nDCG x AWRF and expected exposure (EE-L/D/R).

The measures of the TREC Fair Ranking track, per topic, as the organisers' code computes
them (github.com/fair-trec/trec2022-fair-public ``wptrec/metrics``; trec2021-fair-public
``metrics.py``):

- Task 1 scores one ranking per topic: ``nDCG`` with the track's discount, ``AWRF``
  (one minus the Jensen-Shannon divergence, in nats, between the attention-weighted
  exposure of the groups and a target distribution) and their product ``nDCG*AWRF``;
- Task 2 scores a sequence of rankings per topic: the expected exposure loss ``EE-L``,
  disparity ``EE-D`` and relevance ``EE-R`` of the groups.

A group is a **cell** of the intersection of the fairness dimensions (geography, gender,
...): a page's alignment over the cells is the outer product of its per-dimension
alignment rows. Cells are ordered row-major, the first dimension slowest. Per-page
intersections are never formed: weighted sums of outer products are one sparse matrix
product after splitting the dimensions into two groups, and the divergences only visit
the cells a ranking exposes (the others enter through sums known in closed form), so the
2022 intersection of 8 dimensions (about 26 million cells) costs what its non-zero
alignments cost.

Per-edition behaviour that surprises (the official code's, reproduced here):

- ranks 1 and 2 both weigh 1 (``1/log2(max(k, 2))``, in single precision);
- the divergence is in nats on renormalised inputs, so AWRF never falls below
  ``1 - ln 2 = 0.307``;
- EE-R is the plain dot product of system and target exposure, and the target exposure
  is the target distribution times the exposure of one full ranking (``Z_20``, ``Z_50``);
- 2022 drops pages that no alignment table lists, with their attention; 2021 Task 1
  removes the all-unknown cell and falls back to a uniform exposure;
- alignment rows are used as given (the 2022 gender rows are multi-hot and sum to 2 for
  a page about two people).

The two entry points of every family: :func:`task1` and :func:`task2` on padded arrays
(category 0 of a dimension is its unknown category wherever one is needed: the
dimensions with a background, and every dimension in edition 2021), and
:func:`evaluate` on runs and qrels: the track's files (read by :func:`read_run` and
:func:`read_qrels`, which give the :class:`~fairconv.io.Run` and
:class:`~fairconv.io.Qrels` of every ranked-list family), or DataFrames, dicts and records
as :func:`fairconv.io.as_runs` and :func:`fairconv.io.as_qrels` take them.
Targets are read (:func:`read_targets`) or built (:func:`build_targets`,
:func:`targets_from_alignments`).
"""

from .._validation import moved
from ..io import Qrels, Run
from ..io._trecfair import (
    BACKGROUND_PRESETS,
    WORK_LEVELS,
    Background,
    Dimension,
    WorkLevels,
    read_alignment,
    read_background,
    read_qrels,
    read_run,
    read_work,
)
from ._evaluate import evaluate
from ._measures import Z_20, Z_50, discount, exposure_of_ranking, measure_names, task1, task2
from ._metadata import read_metadata
from ._targets import (
    Targets,
    TopicTargets,
    build_targets,
    page_weights,
    read_targets,
    targets_from_alignments,
)

__all__ = [
    "evaluate",
    "build_targets",
    "measure_names",
    "read_run",
    "read_qrels",
    "read_alignment",
    "read_metadata",
    "read_targets",
    "read_background",
    "read_work",
    "Dimension",
    "WorkLevels",
    "Background",
    "TopicTargets",
    "BACKGROUND_PRESETS",
    "task1",
    "task2",
    "targets_from_alignments",
    "page_weights",
    "Targets",
    "discount",
    "exposure_of_ranking",
    "WORK_LEVELS",
    "Z_20",
    "Z_50",
]

__getattr__ = moved(__name__, "fairconv.io", {"FairRun": Run, "FairQrels": Qrels})
