"""Hand-computed cases, one per surprise of trecfair.md section 8 (tests/reference/trecfair).

Each file names the spec sections it illustrates and how its values were obtained; the
values are asserted to 1e-12 relative (they are exact up to double rounding).
"""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import trecfair_oracle as oracle
from fairconv import trecfair as tf
from fairconv._validation import FairconvWarning

FILES = sorted((Path(__file__).parent / "reference" / "trecfair").glob("*.json"))


def _load(path):
    case = json.loads(path.read_text())
    case["table"] = {int(k): v for k, v in case["table"].items()}
    for t in case["topics"]:
        if "levels" in t:
            t["levels"] = {int(k): v for k, v in t["levels"].items()}
        # the evaluation's cuts (2021: --depth 20 for Task 1; --depth 6 --sequences 25)
        if "seq_nos" in t:
            keep = [s <= case.get("sequences", math.inf) for s in t["seq_nos"]]
            t["rankings"] = [r for r, k in zip(t["rankings"], keep, strict=True) if k]
        if "depth" in case:
            if case["task"] == 1:
                t["ranking"] = t["ranking"][: case["depth"]]
            else:
                t["rankings"] = [r[: case["depth"]] for r in t["rankings"]]
    return case


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_reference_case(path):
    case = _load(path)
    assert case["section"] and case["illustrates"] and case["source"]
    arr = oracle.case_arrays(case)
    if "targets" in arr:
        targets = arr["targets"]
    else:
        b = arr["build"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FairconvWarning)
            targets = tf.targets_from_alignments(
                b["alignments"],
                lengths=b["lengths"],
                task=case["task"],
                edition=case["edition"],
                known=b["known"],
                levels=b["levels"],
                backgrounds=b["backgrounds"],
            )
        if "target_total" in case:
            np.testing.assert_allclose(targets.total, case["target_total"], rtol=1e-15)
    if case["task"] == 1:
        got = tf.task1(
            arr["relevant"],
            arr["alignments"],
            targets,
            known=arr["known"],
            lengths=arr["lengths"],
            n_relevant=arr["n_relevant"],
            edition=case["edition"],
        )
    else:
        got = tf.task2(
            arr["relevant"],
            arr["alignments"],
            targets,
            known=arr["known"],
            lengths=arr["lengths"],
            edition=case["edition"],
        )
    loops = oracle.score_case(case)
    for i, want in enumerate(case["expected"]):
        if "AWRF" in want:
            awrf = math.nan if want["AWRF"] is None else want["AWRF"]
            want = dict(want, AWRF=awrf, **{"nDCG*AWRF": want["nDCG"] * awrf})
        for name, value in want.items():
            if math.isnan(value):
                assert math.isnan(got[name][i]) and math.isnan(loops[i][name]), name
            else:
                assert got[name][i] == pytest.approx(value, rel=1e-12, abs=1e-300), name
                assert loops[i][name] == pytest.approx(value, rel=1e-12, abs=1e-300), name
