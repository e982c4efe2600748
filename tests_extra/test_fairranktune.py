"""fairconv.rankfair against FairRankTune 0.0.7 itself (``pip install fairranktune==0.0.7``).

On random inputs (tests_extra/record_fairranktune.py's generator, other seeds than the
recorded table's), every value FairRankTune defines is equal within 1e-9 relative
(docs/rankfair.md: the spec's "equal"), and every value it does not define (inf, nan,
a number computed from an undefined group value, a ZeroDivisionError) is NaN here. The
recorded table of the main suite is checked to be what FairRankTune returns now.
"""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from FairRankTune import Metrics
from record_fairranktune import OUT, frt_results, random_case

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import rankfair_frt as frt  # noqa: E402
from fairconv import rankfair as rf  # noqa: E402


def _check(case, result):
    got = frt.reproduce(case, result)
    if frt.frt_defines(result):
        want = frt.number(result["value"])
        assert got == pytest.approx(want, rel=1e-9, abs=frt.tolerance(result)), result
        return "equal"
    assert math.isnan(got), (result, got)
    return "nan"


@pytest.mark.parametrize("seed", range(8))
def test_random_inputs_agree_with_fairranktune(seed):
    rng = np.random.default_rng(1000 + seed)
    seen = {"equal": 0, "nan": 0}
    for _ in range(25):
        case = random_case(rng)
        for result in frt_results(case):
            seen[_check(case, result)] += 1
    assert seen["equal"] > 800 and seen["nan"] > 0, seen


def test_the_recorded_table_is_what_fairranktune_returns():
    table = json.loads(OUT.read_text(encoding="utf-8"))
    for case in table["cases"]:
        inputs = {k: v for k, v in case.items() if k != "results"}
        assert frt_results(inputs) == case["results"]


def test_ndkl_with_fairranktunes_own_target_on_cut_rankings():
    """FairRankTune's q is the ranked list's distribution: given that q, fairconv's NDKL
    is FairRankTune's on cut rankings too (docs/rankfair.md, section 4.1)."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        N = int(rng.integers(5, 60))
        labels = rng.integers(0, int(rng.integers(2, 6)), size=N)
        n = int(rng.integers(1, N + 1))
        order = rng.permutation(N)[:n]
        groups = {f"d{i}": int(labels[i]) for i in range(N)}
        ranking = pd.DataFrame({"r": [f"d{i}" for i in order]})
        want = Metrics.NDKL(ranking, groups)
        G = int(labels.max()) + 1
        m = np.eye(max(G, 2))[labels[order]]
        q = np.bincount(labels[order], minlength=max(G, 2)) / n
        assert float(rf.ndkl(m, q, lengths=n)) == pytest.approx(want, rel=1e-9)


def test_where_fairranktune_crashes_or_returns_none():
    """docs/rankfair.md, sections 3.1-3.2 and 10: ARP on a cut ranking and an unknown
    combo. FairRankTune raises or returns None; fairconv scores the ranked docs and
    refuses the combo with the seven words."""
    groups = {"a": 0, "b": 1, "c": 0, "d": 1}
    cut = pd.DataFrame({"r": ["a", "b", "c"]})
    with pytest.raises((KeyError, IndexError)):
        Metrics.ARP(cut, groups, "MinMaxRatio")
    assert rf.arp([0, 1, 0], lengths=3, n_groups=2).tolist() == [0.5, 0.5]
    assert Metrics.EXP(cut, groups, "Mean") is None
    with pytest.raises(ValueError, match="'MinMaxRatio', 'MaxMinRatio'"):
        rf.meta([0.5, 0.5], present=[True, True], meta="Mean")
