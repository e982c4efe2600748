"""FairRankTune's inputs in fairconv's arrays: the rules of docs/rankfair.md, sections 9-10.

A case is one FairRankTune call as tests_extra/record_fairranktune.py makes it: a
ranking (item ids, best first), ``item_group_dict`` (the population, hard groups), the
relevance of the ranked items, the RBP decay and the attention p; a result names the
metric and the combo (meta-metric). :func:`reproduce` gives fairconv's value of a
result and whether FairRankTune defines it. Used by the main suite on the recorded
table (tests/reference/rankfair/fairranktune.json) and by tests_extra on live calls.
"""

import math

import numpy as np

from fairconv import rankfair as rf

EXPOSURE = ("EXP", "EXPU", "EXPRU", "AWRF", "ERBE", "ERBP", "ERBR", "ARP")
"""FairRankTune's metrics with a combo; NDKL and IAA have none."""

DIFFERENCES = ("MaxMinDiff", "MaxAbsDiff", "MeanAbsDev")


def number(value) -> float:
    """A recorded value: a float, or "inf", "-inf", "nan" as FairRankTune gave them."""
    return float(value)


def frt_defines(result) -> bool:
    """FairRankTune defines a value when it and every group value behind it are finite
    (where a group value is inf or nan its meta-metrics are inf, nan or a finite number
    computed from them: docs/rankfair.md, section 3.2)."""
    if "error" in result:  # FairRankTune raised (ARP's ZeroDivisionError)
        return False
    groups = [number(x) for x in result.get("group_values", [])]
    return math.isfinite(number(result["value"])) and all(math.isfinite(x) for x in groups)


def tolerance(result) -> float:
    """The absolute slack of a comparison, besides 1e-9 relative: a few ulps of the group
    values for a difference of them (whose exact value may be 0 where FairRankTune's has
    rounding noise: equal groups), their square for Variance; 0 for the others."""
    groups = [abs(number(x)) for x in result.get("group_values", [])]
    scale = max(groups, default=0.0)
    if result.get("combo") in DIFFERENCES:
        return 8 * np.spacing(scale)
    if result.get("combo") == "Variance":
        return 8 * np.spacing(scale * scale)
    return 0.0


def reproduce(case, result) -> float:
    """fairconv's value of one FairRankTune result on the case's inputs."""
    ranking, groups = case["ranking"], case["groups"]
    labels = sorted(set(groups.values()))
    code = {g: i for i, g in enumerate(labels)}
    G = max(len(labels), 2)  # a population of one group: a second, empty one
    ranked = [code[groups[d]] for d in ranking]
    n = len(ranking)
    m = np.eye(G)[ranked] if n else np.zeros((0, G))
    sizes = np.bincount([code[g] for g in groups.values()], minlength=G)
    metric = result["metric"]
    if metric == "NDKL":  # FRT's q: the ranked list's own distribution
        return float(rf.ndkl(m, np.bincount(ranked, minlength=G) / n, lengths=n))
    if metric == "IAA":
        return float(rf.iaa(case["relevance"], lengths=n))
    if metric == "ARP":
        values = rf.arp(ranked, lengths=n, n_groups=G)
        present = np.bincount(ranked, minlength=G) > 0
    else:
        values = rf.group_values(
            m,
            sizes,
            case["relevance"],
            lengths=n,
            statistic="ATT" if metric == "AWRF" else metric,
            decay=case["decay"],
            attention=case["p"],
        )
        present = sizes > 0
    return float(rf.meta(values, present=present, meta=result["combo"]))
