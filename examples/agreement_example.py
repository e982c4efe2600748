"""The agreement workflow of the TREC iKAT 2024 nugget paper, on illustrative numbers.

1. Rank the runs by nugget recall computed with two gold nugget sets (human and LLM)
   and by nDCG@5, and compare the rankings: Kendall's tau-b, tau_ap, Spearman's rho.
2. Three annotators judge whether responses match nuggets; their majority vote is the
   human answer, which an automatic matcher is compared with (accuracy, Cohen's kappa).
3. Plot nugget recall against nDCG@5, one labelled point per run (the paper's Figure 1).

The numbers are made up for the illustration; no public labels exist for the paper.
The end of the script checks the printed values against scipy (Kendall's tau-b,
Spearman's rho) and against the textbook formulas of accuracy, Cohen's kappa and
Fleiss' kappa (J. L. Fleiss, Psychological Bulletin 76(5), 1971) on the same labels.

python examples/agreement_example.py
"""

import sys

import numpy as np
from scipy import stats

from fairconv import agreement as ag

runs = ["sys-1", "sys-2", "sys-3", "sys-4", "sys-5", "sys-6", "sys-7", "sys-8"]
measures = ["nDCG@5", "Recall-NtN[human]", "Recall-NtN[LLM]"]
means = np.array(
    [
        [0.48, 0.41, 0.37, 0.33, 0.30, 0.22, 0.18, 0.12],  # nDCG@5
        [0.14, 0.12, 0.10, 0.11, 0.07, 0.06, 0.06, 0.03],  # recall, human nuggets
        [0.15, 0.11, 0.12, 0.10, 0.08, 0.05, 0.07, 0.04],  # recall, LLM nuggets
    ]
)

print("1. Rank correlations of the system rankings (8 runs)")
tau = ag.correlation_matrix(means, method="tau_b", measures=measures).statistic
rho = ag.correlation_matrix(means, method="spearman", measures=measures).statistic
ap = ag.correlation_matrix(means, method="tau_ap_b", measures=measures).statistic
print(f"{'measure A':<20}{'measure B':<20}{'tau_b':>7}{'tau_ap':>8}{'rho':>7}")
for a in range(len(measures)):
    for b in range(a + 1, len(measures)):
        print(f"{measures[a]:<20}{measures[b]:<20}{tau[a, b]:7.3f}{ap[a, b]:8.3f}{rho[a, b]:7.3f}")

print("\n2. Human majority vote against an automatic matcher (20 response-nugget pairs)")
rng = np.random.default_rng(2024)
truth = rng.integers(0, 2, 20)
annotators = np.stack([np.where(rng.random(20) < 0.85, truth, 1 - truth) for _ in range(3)], 1)
vote = ag.majority_vote(annotators)  # three binary labels never tie
matcher = np.where(rng.random(20) < 0.8, truth, 1 - truth)
fleiss = ag.fleiss_kappa(annotators).statistic
accuracy = ag.accuracy(vote.labels, matcher).statistic
cohen = ag.cohen_kappa(vote.labels, matcher).statistic
print("Fleiss' kappa of the annotators:", round(fleiss, 3))
print("Accuracy of the matcher:        ", round(accuracy, 3))
print("Cohen's kappa of the matcher:   ", round(cohen, 3))

try:
    import matplotlib

    matplotlib.use("Agg")
except ImportError:
    print("\n3. (install matplotlib for the figure)")
else:
    from fairconv.plots import run_scatter

    title = f"Kendall's tau-b = {tau[0, 1]:.3f}, Spearman's rho = {rho[0, 1]:.3f}"
    fig = run_scatter(
        runs, means[0], means[1], x_label=measures[0], y_label=measures[1], title=title
    )
    fig.savefig("agreement_figure.png", dpi=120)
    print("\n3. wrote agreement_figure.png")


# ---- the checks
def check(what, value, reference):
    """Stop with exit status 1 when a value differs from the reference (beyond 1e-12)."""
    if not abs(value - reference) <= 1e-12:
        sys.exit(f"{what}: {value}, the reference value is {reference}")


for a in range(len(measures)):
    for b in range(a + 1, len(measures)):
        pair = f"{measures[a]} and {measures[b]}"
        check(f"tau_b of {pair}", tau[a, b], stats.kendalltau(means[a], means[b]).statistic)
        check(f"rho of {pair}", rho[a, b], stats.spearmanr(means[a], means[b]).statistic)
# Cohen's kappa from the 2 x 2 table: (observed - chance agreement) / (1 - chance)
table = np.array([[np.sum((vote.labels == i) & (matcher == j)) for j in (0, 1)] for i in (0, 1)])
observed = np.trace(table) / table.sum()
chance = table.sum(axis=1) @ table.sum(axis=0) / table.sum() ** 2
check("accuracy", accuracy, observed)
check("Cohen's kappa", cohen, (observed - chance) / (1 - chance))
# Fleiss' kappa: n_ij raters putting item i in category j, n = 3 raters per item
n_ij = np.stack([(annotators == j).sum(axis=1) for j in (0, 1)], axis=1)
p_i = ((n_ij**2).sum(axis=1) - 3) / (3 * 2)
p_j = n_ij.sum(axis=0) / n_ij.sum()
check("Fleiss' kappa", fleiss, (p_i.mean() - (p_j**2).sum()) / (1 - (p_j**2).sum()))
