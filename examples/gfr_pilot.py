"""Score the three FairWeb-1 pilot runs with GFR and compare them.

python examples/gfr_pilot.py
"""

import sys

from fairconv import gfr
from fairconv.datasets import fairweb1_pilot

pilot = fairweb1_pilot()
table = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10])

print(f"{'run':<16}{'ERR@10':>8}{'GFR@10':>8}")
for run, means in table.means().items():
    print(f"{run:<16}{means['ERR@10']:8.4f}{means['GFR@10']:8.4f}")

print("\nPer-topic GFR@10 rows of the first run, as `fairconv gfr` prints them:")
table["GFR@10"].select(runs=table.runs[:1]).to_tsv(sys.stdout)
