"""The one vectorised core: arithmetic only, no checks.

Every public module validates its input (:mod:`fairconv._validation`) and then calls
these functions. Conventions: float64 arrays; the group axis is last; batch axes
(topics, runs) lead; ragged data is either padded with a length array or flat with
segment start offsets.

One module per kind of arithmetic: the divergences, ragged arrays, means, ranked lists
(GFR, RAG), conversations (GFRC, GFRC2), nuggets, the TREC Fair measures and the
classic fair-ranking measures (rankfair). Callers use the names re-exported here
(``_core.jsd``, ``_core.err_decay``).
"""

from ._arrays import (
    length_mask,
    segment_cumsum,
    segment_sum,
)
from ._conversations import (
    cluster_probability,
    dedupe_levels,
    expectation,
    gain,
    gf_of_sets,
    gnp,
    group_starts,
    normaliser,
    position_weight,
    relevance,
    running_segment_means,
    segment_means,
    turn_mean,
)
from ._divergences import (
    DIVERGENCES,
    distr_sim,
    jsd,
    nmd,
    rnod,
)
from ._means import (
    column_scales,
    defined_means,
    exact_mean,
    fsum_means,
    scaled,
    sequential_mean,
)
from ._nuggets import (
    match_ratios,
    nuggetizer_scores,
    ratio,
)
from ._ranked import (
    adsim,
    at_cutoffs,
    attention,
    combine,
    err_decay,
    gf_at_cutoffs,
    gf_gen,
    normalised_sums,
    rigf,
    stop_probabilities,
    utility_at_cutoffs,
)
from ._rankfair import (
    METAS,
    STATISTICS,
    YANG,
    expected_exposure,
    expected_exposures,
    fair_prefix,
    group_statistic,
    inequity_of_attention,
    meta_metric,
    ndkl,
    pair_representation,
    yang,
)
from ._trecfair import (
    expected_exposure_loss,
    exposure_sums,
    sparse_js,
    trec_fair_discount,
    trec_fair_ndcg,
    work_level_weights,
)

__all__ = [
    "jsd",
    "nmd",
    "rnod",
    "DIVERGENCES",
    "distr_sim",
    "length_mask",
    "segment_sum",
    "segment_cumsum",
    "scaled",
    "column_scales",
    "fsum_means",
    "exact_mean",
    "sequential_mean",
    "defined_means",
    "err_decay",
    "at_cutoffs",
    "utility_at_cutoffs",
    "gf_at_cutoffs",
    "combine",
    "normalised_sums",
    "attention",
    "rigf",
    "gf_gen",
    "adsim",
    "stop_probabilities",
    "gain",
    "position_weight",
    "normaliser",
    "relevance",
    "group_starts",
    "segment_means",
    "running_segment_means",
    "gnp",
    "dedupe_levels",
    "turn_mean",
    "gf_of_sets",
    "cluster_probability",
    "expectation",
    "ratio",
    "match_ratios",
    "nuggetizer_scores",
    "trec_fair_discount",
    "work_level_weights",
    "trec_fair_ndcg",
    "sparse_js",
    "exposure_sums",
    "expected_exposure_loss",
    "STATISTICS",
    "METAS",
    "YANG",
    "group_statistic",
    "meta_metric",
    "pair_representation",
    "ndkl",
    "yang",
    "fair_prefix",
    "inequity_of_attention",
    "expected_exposure",
    "expected_exposures",
]
