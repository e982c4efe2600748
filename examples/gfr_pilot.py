"""Score the three FairWeb-1 pilot runs with GFR and compare them.

python examples/gfr_pilot.py
"""

import sys

from fairconv import gfr, readers
from fairconv.datasets import path

PILOT = path("fairweb1-pilot")
SETS = [
    ("R-HINDEX", "ordinal"),
    ("R-GENDER", "nominal"),
    ("M-RATINGS", "ordinal"),
    ("M-ORIGIN", "nominal"),
    ("T-FOLLOWERS", "ordinal"),
    ("Y-SUBSCS", "ordinal"),
]

qrels = readers.read_qrels(PILOT / "fairweb1pilot.qrels")
attributes = [
    gfr.load_attribute(
        name, PILOT / f"fairweb1pilot.{name}.gmemb", PILOT / f"{name}.golddistr", scale
    )
    for name, scale in SETS
]
runs = [readers.read_run(p) for p in sorted((PILOT / "runs").iterdir())]
table = gfr.evaluate(qrels, runs, attributes, cutoffs=[10])

mean, _ = table.mean()
print(f"{'run':<16}{'ERR@10':>8}{'GFR@10':>8}")
for r, run in enumerate(table.runs):
    print(
        f"{run:<16}{mean[r, table.measures.index('ERR@10')]:8.4f}"
        f"{mean[r, table.measures.index('GFR@10')]:8.4f}"
    )

print("\nPer-topic rows of the first run, as `fairconv gfr` prints them:")
first = gfr.evaluate(qrels, runs[:1], attributes[2:4], cutoffs=[10])
first.to_tsv(sys.stdout)
