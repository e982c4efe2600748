"""Nugget scores three ways: match labels, nuggetizer (TREC RAG), CONE-RAG (TREC iKAT 2024).

python examples/nuggets_example.py

Every number printed is checked: the match-label ratios against the counts of the
bundled labels (Abbasiantaeb et al., Conversational Gold, Eqs. 4-6), the nuggetizer
values against those castorini/nuggetizer itself computed on the bundled file, the
CONE-RAG values against those of CONE-RAG's scripts.
"""

import statistics
import sys

import numpy as np

from fairconv import nuggets
from fairconv.datasets import path
from fairconv.io import read_labels


def check(what, value, reference):
    """Stop with exit status 1 when a value is not the reference value."""
    if not (value == reference or (np.isnan(reference) and np.isnan(value))):
        sys.exit(f"{what}: {value}, the reference value is {reference}")


# 1. fairconv's match labels: NtN and NtR per turn, the mean over turns per run
labels = nuggets.evaluate(read_labels(path("rag", "ikat-labels.jsonl")))
t1 = [labels.value("demo-run", "T1_1", m) for m in nuggets.MEASURES]
print("match labels, turn T1_1:", dict(zip(nuggets.MEASURES, t1, strict=True)))
# 2 of 4 gold nuggets matched; 3 of 3 extracted ones; 3 of 4 gold nuggets entailed
for measure, value, counted in zip(nuggets.MEASURES, t1, (2 / 4, 3 / 3, 3 / 4), strict=True):
    check(f"{measure} of turn T1_1", value, counted)

# the same formulas on count arrays (matched gold, gold, matched extracted, extracted, NtR)
arrays = nuggets.ratios(np.array([[2, 4, 3, 3, 3]]))
for measure, value in zip(nuggets.MEASURES, t1, strict=True):
    check(f"{measure} of the counts of turn T1_1", float(arrays[measure][0]), value)

# 2. nuggetizer: an assignment file written by `nuggetizer assign`
table = nuggets.nuggetizer_scores(nuggets.read_nuggetizer(path("rag", "nuggetizer-assign.jsonl")))
for topic in table.topics:
    row = {m: round(table.value("my.run.v2", topic, m), 4) for m in table.measures}
    print("nuggetizer", topic, row)
mean = {m: table.value("my.run.v2", "all", m) for m in table.measures}
print("nuggetizer mean:", {m: round(v, 4) for m, v in mean.items()})
# q1: one vital nugget (supported) of three; a partial support among the others
check("strict-all-score of q1", table.value("my.run.v2", "q1", "strict-all-score"), 1 / 3)
check("all-score of q1", table.value("my.run.v2", "q1", "all-score"), (1 + 0.5 + 0) / 3)
# q3 was not answered: nuggetizer still assigns it (against an empty answer): 0, not NaN
check("vital-score of q3", table.value("my.run.v2", "q3", "vital-score"), 0.0)
nuggetizer_all = {  # what `nuggetizer metrics` wrote in its "all" row
    "strict-vital-score": 0.6666666666666666,
    "strict-all-score": 0.4444444444444444,
    "vital-score": 0.6666666666666666,
    "all-score": 0.5,
}
for measure, value in nuggetizer_all.items():
    check(f"nuggetizer's mean {measure}", mean[measure], value)
check("mean all-score", mean["all-score"], statistics.mean([0.5, 1.0, 0.0]))

# 3. CONE-RAG: gold nuggets, response nuggets, NtN results, NtR coverage files
cone = path("rag", "cone-rag")
coverage = nuggets.cone_rag_scores(
    nuggets.read_cone_rag(
        cone / "gold.json",
        cone / "response_nuggets.json",
        ntn=cone / "nuggets_results.json",
        ntr=[cone / "coverage_runA.jsonl", cone / "coverage_runB.jsonl"],
    )
)
for run in coverage.runs:
    print("CONE-RAG", run, {m: round(coverage.value(run, "all", m), 4) for m in coverage.measures})
# turn 1_3 has no gold nugget: Recall-NtN is 0 there, and counts in the mean
check("Recall-NtN of runA on 1_3", coverage.value("runA", "1_3", "Recall-NtN"), 0.0)
recall = coverage.value("runA", "all", "Recall-NtN")
check("Recall-NtN of runA", recall, (2 / 3 + 1.0 + 0.0 + 0.0) / 4)
# turn 2_1 of runA extracted nothing: left out of the precision mean
check("Precision-NtN of runA on 2_1", coverage.value("runA", "2_1", "Precision-NtN"), np.nan)
cone_rag = {  # what CONE-RAG's scripts wrote
    ("runA", "Precision-NtN"): 0.5555555555555555,
    ("runB", "Recall-NtR"): 0.41666666666666663,
}
for (run, measure), value in cone_rag.items():
    check(f"CONE-RAG's {measure} of {run}", coverage.value(run, "all", measure), value)
