"""The group fairness gap of a RAG pipeline on the pilot pack, and nugget coverage.

The measures are those of Z. Tao and T. Sakai, "Measuring Group Fairness Differences in
RAG Pipelines: A Pilot Study" (BREV-RAG 2025). The end of the script checks the printed
values: GF-Re against the NTCIR-17 FairWeb-1 organisers' output for the same lists
(GF-JSD and GF-RNOD of their ``*.GFRnev`` files), GF-Gen against DistrSim of each
answer's entities, RIGF against its definition, and the nugget coverage against the
counts of the labels (Abbasiantaeb et al., Conversational Gold, Eqs. 4-6).

python examples/rag_fairness.py [rigf.png]
"""

import json
import sys
from pathlib import Path

import numpy as np

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
means = coverage.means()[coverage.runs[0]]
print("nugget coverage (mean over turns):", {m: round(v, 4) for m, v in means.items()})

if len(sys.argv) > 1:
    from fairconv.plots import rigf_bars

    rigf_bars(table, attribute="M-ORIGIN").savefig(sys.argv[1], dpi=120)
    print("wrote", sys.argv[1])


# ---- the checks
def check(what, value, reference, digits):
    """Stop with exit status 1 when a value, to ``digits`` decimals, is not the reference."""
    if f"{value:.{digits}f}" != f"{reference:.{digits}f}":
        sys.exit(f"{what}: {value:.{digits}f}, the reference value is {reference:.{digits}f}")


lines = path("rag", "pilot-answers.jsonl").read_text().splitlines()
answer_of = {r["run"]: r["entities"] for r in map(json.loads, lines)}
for run in pilot.runs:
    stem = Path(run.source).name
    for data in movies:
        a = data.attribute
        organisers = {}  # "GF-JSD@0010" -> value, for topic P002
        for line in (pilot.expected / f"{stem}.{a.name}.GFRnev").read_text().splitlines():
            topic, measure, value = line.replace("=", " ").split()[:3]
            if topic == "P002" and measure != "#":  # "#" starts a comment
                organisers[measure] = float(value)
        for depth, suffix in (("", ""), ("@10", "@0010")):
            gf_re = table.value(run.name, "P002", f"GF-Re{depth}[{a.name}]")
            reference = organisers[f"GF-{a.divergence}{suffix}"]
            check(f"GF-Re{depth}[{a.name}] of {run.name} (organisers' file)", gf_re, reference, 4)
        # d_A: the normalised sum of the group vectors of the answer's relevant entities
        vectors = [e["groups"][a.name] for e in answer_of[run.name] if e.get("level", 0) > 0]
        gf_gen = a.similarity(np.mean(vectors, axis=0)) if vectors else 0.0
        check(f"GF-Gen[{a.name}] of {run.name}", table.value(run.name, "P002", f"GF-Gen[{a.name}]"),
              gf_gen, 12)  # fmt: skip
        gf_re = table.value(run.name, "P002", f"GF-Re[{a.name}]")
        rigf = table.value(run.name, "P002", f"RIGF[{a.name}]")
        check(f"RIGF[{a.name}] of {run.name}", rigf, (gf_gen - gf_re) / gf_re * 100, 10)

# Turns T1_1, T1_2 and T2_1: 2 of 4, 0 of 2 and 0 of 3 gold nuggets matched; 3 of 3,
# 0 of 2 and none extracted (left out); 3 of 4, 1 of 2 and 0 of 3 gold nuggets entailed
check("mean Recall-NtN", means["Recall-NtN"], (2 / 4 + 0 / 2 + 0 / 3) / 3, 12)
check("mean Precision-NtN", means["Precision-NtN"], (3 / 3 + 0 / 2) / 2, 12)
check("mean Recall-NtR", means["Recall-NtR"], (3 / 4 + 1 / 2 + 0 / 3) / 3, 12)
