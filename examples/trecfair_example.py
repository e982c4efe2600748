"""TREC Fair Ranking 2022 measures on the bundled synthetic data, in the track's formats.

Reads the organisers' per-page metadata (8 fairness dimensions and the work levels), the
topic file and three runs, builds the targets with the official backgrounds, and prints
Task 1 (nDCG, AWRF, nDCG*AWRF) and Task 2 (EE-L, EE-D, EE-R) per topic and run. The
values asserted below are those the track's own code gives on these files (within 1e-6).

    python examples/trecfair_example.py
"""

import sys
import warnings

from fairconv import FairconvWarning, datasets
from fairconv import trecfair as tf

data = datasets.path("trecfair")
dims, work = tf.read_metadata(data / "trec_2022_articles_discrete.jsonl", edition=2022)
qrels = tf.read_qrels(data / "trec_fair_eval_reldocs.jsonl")
backgrounds = {
    "sub-geo": "trec2022-world-pop",
    "src-geo": "trec2022-world-pop",
    "gender": "trec2022-gender",
}
print("dimensions:", ", ".join(f"{d.name} ({len(d.categories)})" for d in dims))

with warnings.catch_warnings(record=True) as notices:  # what the official code does quietly
    warnings.simplefilter("always", FairconvWarning)
    task1 = tf.evaluate(
        qrels,
        [data / "t1-relfirst", data / "t1-mixed"],
        dims,
        task=1,
        backgrounds=backgrounds,
    )
    task2 = tf.evaluate(
        qrels, data / "t2-shuffled", dims, task=2, backgrounds=backgrounds, work=work
    )
for notice in notices:
    print("notice:", notice.message)

task1.to_tsv(sys.stdout, summary=True)
task2.to_tsv(sys.stdout, summary=True)

SET = "[" + ",".join(d.name for d in dims) + "]"
official = {  # the track's code on the same files
    ("t1-relfirst", "101", "nDCG"): 0.8829273581504822,
    ("t1-relfirst", "101", "AWRF" + SET): 0.6692592906784736,
    ("t1-mixed", "103", "nDCG*AWRF" + SET): 0.23456499930943134,
    ("t2-shuffled", "102", "EE-L" + SET): 0.509349220356504,
    ("t2-shuffled", "103", "EE-R" + SET): 1.0502320287095195,
}
for (run, topic, measure), value in official.items():
    table = task1 if run.startswith("t1") else task2
    got = table.value(run, topic, measure)
    if not abs(got - value) <= 1e-6 * value:
        sys.exit(f"{measure} of {run} on topic {topic}: {got}; the track's code gives {value}")
means = {  # the means over the three topics of the track's values, to six decimals
    (task1, "t1-relfirst", "nDCG*AWRF" + SET): "0.642102",
    (task2, "t2-shuffled", "EE-L" + SET): "0.422719",
}
for (table, run, measure), value in means.items():
    if f"{table.value(run, 'all', measure):.6f}" != value:
        sys.exit(f"the mean {measure} of {run} is not {value}, the mean of the track's values")
# the fairer ranking of relevant pages scores higher on the track's metric
if not task1.value("t1-relfirst", "all", "nDCG*AWRF" + SET) > task1.value(
    "t1-mixed", "all", "nDCG*AWRF" + SET
):
    sys.exit("t1-relfirst should score higher than t1-mixed on nDCG*AWRF")
print("ok: the values agree with the track's code")
