"""The group fairness gap of a RAG pipeline on the pilot pack, and nugget coverage.

python examples/rag_fairness.py [rigf.png]
"""

import sys

from fairconv import gfr, nuggets, ragfair, readers
from fairconv.datasets import path

pilot = path("fairweb1-pilot")
qrels = readers.read_qrels(pilot / "fairweb1pilot.qrels")
movies = [
    gfr.load_attribute(
        name, pilot / f"fairweb1pilot.{name}.gmemb", pilot / f"{name}.golddistr", scale
    )
    for name, scale in (("M-RATINGS", "ordinal"), ("M-ORIGIN", "nominal"))
]
runs = [readers.read_run(p) for p in sorted((pilot / "runs").iterdir())]
answers = ragfair.read_answers(path("rag", "pilot-answers.jsonl"), [m.attribute for m in movies])

table = ragfair.evaluate(qrels, runs, movies, answers, cutoffs=[10])
for run in table.runs:
    row = {m: round(table.value(run, "P002", m), 4) for m in table.measures}
    print(run, row)

coverage = nuggets.coverage(nuggets.read_labels(path("rag", "ikat-labels.jsonl")))
print(
    "nugget coverage (mean over turns):",
    {m: round(float(v), 4) for m, v in zip(coverage.measures, coverage.mean()[0][0], strict=False)},
)

if len(sys.argv) > 1:
    from fairconv.plots import rigf_bars

    rigf_bars(table, attribute="M-ORIGIN").savefig(sys.argv[1], dpi=120)
    print("wrote", sys.argv[1])
