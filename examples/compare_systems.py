"""Compare systems as a paper's results section does, on Sakai's book example.

The 20 topics x 3 systems of T. Sakai, *Information access evaluation methodology*
(Corona, 2015), Table 5.1; the printed values are checked against the book's. The
last table is the results table of a paper (``stats.report``): the means, marked with
the letters of the systems each is significantly better than.

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

report = stats.report(book.table, ["nDCG@5"], test="paired-t")
print("\nthe results table (paired t-tests of every pair, no correction):")
print(report.to_markdown())

if len(sys.argv) > 1:
    from fairconv.plots import system_means

    system_means(comparison).savefig(sys.argv[1], dpi=120)
    print("wrote", sys.argv[1])


def check(what, value, published, digits):
    """Stop with exit status 1 when a value, printed to the book's digits, is not the book's."""
    if f"{value:.{digits}f}" != published:
        sys.exit(f"{what}: printed {value:.{digits}f}, published {published}")


# Sakai 2015, the example of Table 5.1: the paired t-test of X and Y (t, p, effect
# size, the 95% interval 0.0750 +- 0.0742), the two-way ANOVA and the effect sizes
# ES_E of the three pairs
check("t statistic (Sakai 2015, Table 5.1 example)", t.statistic, "2.116", 3)
check("t-test p-value (Sakai 2015)", t.pvalue, "0.048", 3)
check("t-test effect size (Sakai 2015)", t.effect_size, "0.473", 3)
check("95% CI, low end (Sakai 2015: 0.0750 - 0.0742)", t.ci_low, "0.0008", 4)
check("95% CI, high end (Sakai 2015: 0.0750 + 0.0742)", t.ci_high, "0.1492", 4)
check("ANOVA F of the systems (Sakai 2015)", a.f_systems, "2.475", 3)
check("ANOVA p of the systems (Sakai 2015)", a.p_systems, "0.098", 3)
for p, es in zip(comparison.pairs, ("0.507", "0.676", "0.169"), strict=True):
    check(f"ES_E of {p['a']} - {p['b']} (Sakai 2015)", p["effect_size"], es, 3)
# the table marks X as significantly better than Y, and nothing else: the book's
# paired t-tests give p = 0.048 for X - Y and more than 0.05 for the other pairs
if [row[0] for row in report.marks] != ["b", "", ""]:
    sys.exit(f"the results table's marks: {report.marks} (X better than Y only, p = 0.048)")
# every one of the 2**20 sign flips: the exact p is 69120 / 1048576
check("exact randomisation p", r.pvalue, f"{69120 / 2**20:.5f}", 5)
if not r.exact:
    sys.exit("the randomisation test should enumerate all 2**20 sign flips")
