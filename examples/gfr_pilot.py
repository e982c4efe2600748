"""Score the three FairWeb-1 pilot runs with GFR and compare them.

The pilot pack of NTCIR-17 FairWeb-1 comes with the organisers' own output
(``*.GFRnev``, four decimals, one file per run and attribute set): every ERR@10 and
GF@10 behind the printed GFR@10 is checked against it, and each GFR@10 against the mean
of the organisers' values (equal weights: ERR and the attribute sets of the topic).

python examples/gfr_pilot.py
"""

import sys
from collections import defaultdict
from pathlib import Path

from fairconv import gfr
from fairconv.datasets import fairweb1_pilot

pilot = fairweb1_pilot()
table = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10])

print(f"{'run':<16}{'ERR@10':>8}{'GFR@10':>8}")
for run, means in table.means().items():
    print(f"{run:<16}{means['ERR@10']:8.4f}{means['GFR@10']:8.4f}")

print("\nPer-topic GFR@10 rows of the first run, as `fairconv gfr` prints them:")
table["GFR@10"].select(runs=table.runs[:1]).to_tsv(sys.stdout)

# The organisers' files: "<topic> ERR@0010=  0.3371" and "<topic> GF-JSD@0010=  0.8184"
# in run.<name>.<attribute set>.GFRnev
organisers = defaultdict(dict)  # (run, topic) -> {measure: printed value}
for run in pilot.runs:
    stem = Path(run.source).name
    for data in pilot.attributes:
        a = data.attribute
        nev = pilot.expected / f"{stem}.{a.name}.GFRnev"
        for line in nev.read_text().splitlines():
            topic, measure, value = line.replace("=", " ").split()[:3]
            if measure == "ERR@0010":
                organisers[run.name, topic]["ERR@10"] = value
            elif measure == f"GF-{a.divergence}@0010":
                organisers[run.name, topic][f"GF-{a.divergence}@10[{a.name}]"] = value

checked = 0
for (run, topic), printed in organisers.items():
    for measure, value in printed.items():
        mine = f"{table.value(run, topic, measure):.4f}"
        if mine != value:
            sys.exit(f"{measure} of {run} on {topic}: {mine}, the organisers' file says {value}")
        checked += 1
    # GFR@10: the mean of ERR@10 and the topic's GF@10 values (each within 0.5e-4)
    mean = sum(map(float, printed.values())) / len(printed)
    if abs(table.value(run, topic, "GFR@10") - mean) > 0.5e-4:
        sys.exit(f"GFR@10 of {run} on {topic} is not the mean of the organisers' values")
print(f"\n{checked} ERR@10 and GF@10 values agree with the organisers' files")
