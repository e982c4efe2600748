"""GFRC2 on topic R112 (NTCIR-18 FairWeb-2 CS): the per-cluster table and the
paper's Figures 4-5 (GNP and GF against word count, one marker per user cluster).

    python examples/gfrc2_figure.py [r112-gfrc2.png]
"""

import sys

from fairconv import gfrc2
from fairconv.conversation import read_attribute_sets, read_conversations
from fairconv.datasets import path
from fairconv.plots import gfrc2_clusters

sets = read_attribute_sets(path("cases", "r112-attributes.json"))
batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
clusters = gfrc2.clusters(batch, L=1000)
gfrc2.write_clusters(batch, clusters, sys.stdout)

out = sys.argv[1] if len(sys.argv) > 1 else "r112-gfrc2.png"
gfrc2_clusters(batch, clusters).savefig(out, dpi=120)
print("wrote", out)
