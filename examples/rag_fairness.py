"""The group fairness gap of a RAG pipeline on the pilot pack, and nugget coverage.

python examples/rag_fairness.py [rigf.png]
"""

import sys

from fairconv import nuggets, ragfair
from fairconv.datasets import fairweb1_pilot, path
from fairconv.io import read_answers, read_labels

pilot = fairweb1_pilot()
movies = [a for a in pilot.attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
answers = read_answers(path("rag", "pilot-answers.jsonl"), [m.attribute for m in movies])

table = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers, cutoffs=[10])
for run in table.runs:
    row = {m: round(table.value(run, "P002", m), 4) for m in table.measures}
    print(run, row)

coverage = nuggets.evaluate(read_labels(path("rag", "ikat-labels.jsonl")))
print(
    "nugget coverage (mean over turns):",
    {m: round(v, 4) for m, v in coverage.means()[coverage.runs[0]].items()},
)

if len(sys.argv) > 1:
    from fairconv.plots import rigf_bars

    rigf_bars(table, attribute="M-ORIGIN").savefig(sys.argv[1], dpi=120)
    print("wrote", sys.argv[1])
