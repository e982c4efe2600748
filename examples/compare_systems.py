"""Compare systems as a paper's results section does, on Sakai's book example.

python examples/compare_systems.py [means.png]
"""

import sys

from fairconv import stats
from fairconv.datasets import sakai_book

book = sakai_book()
X, Y, Z = book.scores.T

t = stats.paired_t_test(X, Y)
print(f"paired t-test, X vs Y: t({t.df}) = {t.statistic:.3f}, p = {t.pvalue:.3f}, "
      f"effect size {t.effect_size:.3f}, 95% CI [{t.ci_low:.4f}, {t.ci_high:.4f}]")  # fmt: skip
r = stats.randomisation_test(X, Y, n_resamples=2**20)
print(f"randomisation test, X vs Y: p = {r.pvalue:.5f} (exact: {r.exact})")

a = stats.anova2(book.scores)
print(f"two-way ANOVA: F({a.df_systems}, {a.df_residual}) = {a.f_systems:.3f}, "
      f"p = {a.p_systems:.3f}")  # fmt: skip

comparison = stats.compare(book.table, "nDCG@5", test="randomised-tukey", seed=1)
tukey = stats.compare(book.table, "nDCG@5", test="tukey")
print("\nall pairs: randomised Tukey HSD (B = 10,000, seed 1) and two-way Tukey HSD")
for p, q in zip(comparison.pairs, tukey.pairs, strict=True):
    print(f"  {p['a']} - {p['b']}: {p['difference']:+.4f}, p = {p['pvalue']:.4f} "
          f"(two-way Tukey {q['pvalue']:.3f}), ES_E = {p['effect_size']:.3f}")  # fmt: skip

if len(sys.argv) > 1:
    from fairconv.plots import system_means

    system_means(comparison).savefig(sys.argv[1], dpi=120)
    print("wrote", sys.argv[1])
