"""GFRC2 on topic R112 (NTCIR-18 FairWeb-2 CS): the per-cluster table and the
paper's Figures 4-5 (GNP and GF against word count, one marker per user cluster).

The rows are checked against Tables 1 and 2 of T. Sakai, S. Tao, Y.-I. Song,
"Evaluating Group Fairness and Relevance in Conversational Search: An Alternative
Formulation" (the GFRC2 paper), to the six decimals it prints.

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

# The paper's Table 1 (COPWA-CS-QD-MN-2) and Table 2 (ORG-CS-D-MN-1): wc, GWCrel,
# WCnonrel, GNP, DistrSim[PRONOUN], DistrSim[HINDEX] and Experience of every cluster
published = [
    (33, 4, 31, "0.114286", "0.540852", "0.404881", "0.353340"),
    (36, 10, 31, "0.243902", "0.540852", "0.404881", "0.396545"),
    (39, 16, 31, "0.340426", "0.540852", "0.404881", "0.428720"),
    (54, 22, 43, "0.338462", "0.769708", "0.404881", "0.504350"),
    (63, 28, 49, "0.363636", "0.749772", "0.404881", "0.506096"),
    (87, 34, 70, "0.326923", "0.733061", "0.404881", "0.488288"),
    (39, 6, 36, "0.142857", "0.540852", "0.404881", "0.362863"),
    (42, 12, 36, "0.250000", "0.540852", "0.404881", "0.398578"),
    (45, 18, 36, "0.333333", "0.540852", "0.404881", "0.426355"),
    (105, 24, 93, "0.205128", "0.540852", "0.404881", "0.383620"),
    (108, 30, 93, "0.243902", "0.749772", "0.404881", "0.466185"),
]
if len(clusters.wc) != len(published):
    sys.exit(f"{len(clusters.wc)} clusters; Tables 1 and 2 of the GFRC2 paper list 11")
for i, row in enumerate(published):
    mine = (
        int(clusters.wc[i]),
        int(clusters.gwc_rel[i]),
        int(clusters.wc_nonrel[i]),
        *(f"{x:.6f}" for x in (clusters.gnp[i], clusters.sim["PRONOUN"][i])),
        *(f"{x:.6f}" for x in (clusters.sim["HINDEX"][i], clusters.experience[i])),
    )
    if mine != row:
        sys.exit(f"cluster {i + 1}: {mine}; the GFRC2 paper (Tables 1-2) prints {row}")
