"""Weights at the edge of float64: renormalising subnormal weights keeps their ratios."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from fairconv import FairconvWarning, _core, gfr
from fairconv.datasets import fairweb1_pilot, path

PILOT = path("fairweb1-pilot")


@pytest.mark.parametrize("w0", [5e-324, 1e-310, 2.5e-308])
def test_weights_edge_subnormal_weight_over_one_component(w0):
    """GFR where only the utility covers a topic is the utility, whatever w_0 > 0."""
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]  # covers P002 only
    with pytest.warns(FairconvWarning, match="GFR is ERR alone on 3 of the 4 topics"):
        table = gfr.evaluate(p.qrels, p.runs, origin, weights=[w0, 1.0])
    for run in table.runs:
        for topic in ("P001", "P003", "P004"):
            assert table.value(run, topic, "GFR") == table.value(run, topic, "ERR")
    args = [
        sys.executable, "-m", "fairconv", "gfr", "--qrels", PILOT / "fairweb1pilot.qrels",
        "--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        PILOT / "M-ORIGIN.golddistr", "nominal", "--weights", f"{w0!r},1",
        PILOT / "runs" / "run.bm25-depThre6",
    ]  # fmt: skip
    proc = subprocess.run(list(map(str, args)), capture_output=True, text=True, check=True)
    cell = {tuple(r.split("\t")[1:3]): r.split("\t")[3] for r in proc.stdout.splitlines()[1:]}
    assert cell[("P001", "GFR")] == cell[("P001", "ERR")]


def test_weights_edge_ratios_of_subnormal_weights():
    """Two covering components with subnormal weights: the plain weighted mean."""
    v = np.array([[0.2], [0.8]])
    for w in ([4e-323, 1e-323], [1e-320, 3e-320], [1.0, 5e-324], [0.25, 0.75]):
        a, b = Fraction(w[0]), Fraction(w[1])  # the weights as stored, exactly
        want = float((a * Fraction(0.2) + b * Fraction(0.8)) / (a + b))
        assert _core.combine(v, np.array(w))[0] == pytest.approx(want, rel=1e-15, abs=0)
