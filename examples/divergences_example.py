"""Compare achieved group distributions with a target, in one batched call.

python examples/divergences_example.py
"""

import numpy as np

from fairconv import AttributeSet, jsd, nmd, rnod

target = np.array([0.7, 0.1, 0.1, 0.1])
achieved = np.array(
    [
        [0.1, 0.7, 0.1, 0.1],  # D1 of the FairWeb-2 slides
        [0.1, 0.1, 0.1, 0.7],
    ]
)  # D2
print("JSD ", np.round(jsd(achieved, target), 4))
print("NMD ", np.round(nmd(achieved, target), 4))
print("RNOD", np.round(rnod(achieved, target), 4))

hindex = AttributeSet("HINDEX", [0.25] * 4, "ordinal")
print("DistrSim of (0,0,0,1) for HINDEX:", round(float(hindex.similarity([0, 0, 0, 1])), 6))
