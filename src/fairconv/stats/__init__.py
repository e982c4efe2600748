r"""Compare systems over topics: significance tests, effect sizes and confidence intervals.

Every function takes scores of the same topics for each system: two (topics,) arrays
for the tests of two systems, a (topics, systems) array for the others; ``compare``
takes a :class:`~fairconv.results.ScoreTable` and a measure name. Every test is
two-sided. Definitions follow Sakai's book (*Information access evaluation
methodology*, 2015) and Sakai (SIGIR 2006) for the bootstrap test and discriminative
power; the randomised Tukey HSD is Carterette's (TOIS 2012).

Randomised tests
----------------
- A trial's statistic ties the observed one when it is within 1e-9 times the observed
  statistic (the tolerance of the definitions), so that float rounding never drops a
  tie that is exact on paper. An observed statistic that is 0 within the rounding of
  its float computation (at most ``4 n eps`` times the sum of the magnitudes of the
  scores it adds up, eps = 2.2e-16) is 0 on paper, and every trial ties it: p = 1.
- A Monte Carlo p is ``(count + 1) / (B + 1)``: the data count as one of the trials,
  so that p is never 0. An exact enumeration gives ``count / N``; ``exact`` is True
  when every sign vector or permutation was enumerated, which happens whenever there
  are no more of them than ``n_resamples``.
- ``seed`` defaults to 0 (an int or a ``numpy.random.Generator``; None draws a fresh
  one), so that two runs give the same p, for every chunk size: the random numbers
  are drawn in one stream of uniform doubles, trial after trial, whatever the
  chunking. :func:`compare` and :func:`discriminative_power` draw the trials with the
  runs in the order of their names and the topics in the order of their ids: the
  same seed gives the same p whatever the order of the files, runs or topics.
- Trials run in chunks of bounded memory, all pairs from one set of trials, the sign
  flips of many pairs in one matrix product; memory does not grow with B, nor, for
  the tests of two runs made on every pair, with topics x runs^2 (pairs are taken a
  block at a time).
- Minimum topics: 2 for every test, 4 for the bootstrap test (on 2 topics every
  sample has t* = 0 and p is 1 / (B + 1) for any data; on 3 it rejects a true null
  hypothesis more often than alpha). Fewer is a ``ValueError``.

Undefined tests
---------------
A test whose statistic is undefined on the data raises a ``ValueError`` that says so:
the t-based tests when x - y is the same on every topic, the ANOVA and both Tukey tests
when the residual variance is 0. "The same" is judged within rounding: the spread of
the values is at most ``4 n eps`` times the largest magnitude of the scores they come
from, so that differences equal on paper (0.3 - 0.1 and 0.5 - 0.3) are equal, and a
constant added to every score, or a common scale, changes nothing.

Large and small scores
----------------------
Scores are divided by a power of 2 before any sum (exact; for the tests of two runs,
per pair, so that one run near 1e200 does not change another pair's p), so that sums
of squares neither overflow nor underflow; results in the units of the scores (differences,
means, confidence intervals, sums of squares) are multiplied back. One that exceeds
the float range (about 1.8e308) is refused with a ``ValueError``; sums of squares below
it underflow to 0 like any float (F, t and p do not depend on the scale).
"""

from __future__ import annotations

from ._anova import anova2, randomised_tukey_hsd, tukey_hsd
from ._compare import EFFECT_SIZES, TESTS, compare, discriminative_power, scores_of
from ._corrections import CORRECTIONS, adjust_pvalues
from ._pairs import bootstrap_test, paired_t_test, randomisation_test
from ._report import DETAILS, Report, report
from ._results import (
    Anova2Result,
    BootstrapTestResult,
    Comparison,
    DiscriminativePowerResult,
    PairedTTestResult,
    Pairs,
    PairwiseTestsResult,
    RandomisationTestResult,
    RandomisedTukeyHSDResult,
    TukeyHSDResult,
)

__all__ = [
    "TESTS",
    "EFFECT_SIZES",
    "CORRECTIONS",
    "DETAILS",
    "paired_t_test",
    "randomisation_test",
    "bootstrap_test",
    "anova2",
    "tukey_hsd",
    "randomised_tukey_hsd",
    "discriminative_power",
    "adjust_pvalues",
    "compare",
    "report",
    "scores_of",
    "PairwiseTestsResult",
    "PairedTTestResult",
    "RandomisationTestResult",
    "BootstrapTestResult",
    "Anova2Result",
    "TukeyHSDResult",
    "RandomisedTukeyHSDResult",
    "DiscriminativePowerResult",
    "Comparison",
    "Pairs",
    "Report",
]
