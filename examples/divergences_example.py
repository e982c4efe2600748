"""Compare achieved group distributions with a target, in one batched call.

The target and the two achieved distributions are the worked example of the NTCIR-18
FairWeb-2 task slides ("Why you should participate in the NTCIR-18 FairWeb-2 Task",
2024); the printed values are checked against the slides' and against Table 1 of
T. Sakai, S. Tao, Y.-I. Song, "Evaluating Group Fairness and Relevance in Conversational
Search: An Alternative Formulation" (the GFRC2 paper).

python examples/divergences_example.py
"""

import sys

import numpy as np

from fairconv import AttributeSet, jsd, nmd, rnod

target = np.array([0.7, 0.1, 0.1, 0.1])
achieved = np.array(
    [
        [0.1, 0.7, 0.1, 0.1],  # D1 of the FairWeb-2 slides
        [0.1, 0.1, 0.1, 0.7],  # D2
    ]
)
printed = {}
for name, divergence in (("JSD", jsd), ("NMD", nmd), ("RNOD", rnod)):
    printed[name] = [f"{x:.4f}" for x in divergence(achieved, target)]
    print(f"{name:<5}D1 {printed[name][0]}  D2 {printed[name][1]}")

hindex = AttributeSet("HINDEX", [0.25] * 4, "ordinal")
similarity = f"{float(hindex.similarity([0, 0, 0, 1])):.6f}"
print("DistrSim of (0,0,0,1) for HINDEX:", similarity)


def check(what, printed, published):
    """Stop with exit status 1 when a printed value is not the published one."""
    if printed != published:
        sys.exit(f"{what}: printed {printed}, published {published}")


# the FairWeb-2 slides: JSD, NMD and RNOD of D1 and D2 against the target
slides = {"JSD": ["0.3651", "0.3651"], "NMD": ["0.2000", "0.6000"], "RNOD": ["0.5477", "0.6000"]}
for name, values in slides.items():
    check(f"{name} of D1 and D2 (FairWeb-2 slides)", printed[name], values)
# GFRC2 paper, Table 1: DistrSim[HINDEX] of (0,0,0,1) against the uniform target
check("DistrSim[HINDEX] (GFRC2 paper, Table 1)", similarity, "0.404881")
