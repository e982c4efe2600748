"""GFRC2 on topic R112 (NTCIR-18 FairWeb-2 CS): the per-cluster table and the
paper's Figures 4-5 (GNP and GF against word count, one marker per user cluster).

    python examples/gfrc2_figure.py [r112-gfrc2.png]
"""

import sys

from fairconv import gfrc2
from fairconv.datasets import load_case
from fairconv.plots import gfrc2_clusters

batch = load_case("r112").conversations
clusters = gfrc2.clusters(batch, L=1000)
gfrc2.write_clusters(batch, clusters, sys.stdout)

out = sys.argv[1] if len(sys.argv) > 1 else "r112-gfrc2.png"
gfrc2_clusters(batch, clusters).savefig(out, dpi=120)
print("wrote", out)
