"""Record FairRankTune 0.0.7's values on random inputs for the main suite.

Run once with FairRankTune installed (``pip install fairranktune==0.0.7``, BSD-3):

    python tests_extra/record_fairranktune.py [--cases 40] [--seed 20250101]

It writes tests/reference/rankfair/fairranktune.json: each case's inputs (a ranking, the
population's ``item_group_dict``, the relevance of the ranked items, the RBP decay and
the attention p) and FairRankTune's value of every metric and combo it accepts there,
with its per-group values; inf and nan as the strings "inf" and "nan". The inputs
follow docs/rankfair.md, section 13: 1 to 5 groups, rankings of 5 to 100 items, full
and cut rankings, a group absent from the ranking, groups and topics without relevant
items. ARP only on full rankings (FairRankTune raises otherwise), NDKL and IAA on one
ranking each. tests_extra/test_fairranktune.py imports :func:`random_case` and
:func:`frt_results` to compare live on more inputs.
"""

import argparse
import json
import math
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
from FairRankTune import Metrics

OUT = Path(__file__).resolve().parents[1] / "tests" / "reference" / "rankfair" / "fairranktune.json"
COMBOS = (
    "MinMaxRatio",
    "MaxMinRatio",
    "MaxMinDiff",
    "MaxAbsDiff",
    "MeanAbsDev",
    "LTwo",
    "Variance",
)


def random_case(rng: np.random.Generator) -> dict:
    """One random input: population, ranking, relevance, decay and attention."""
    G = int(rng.integers(1, 6))
    N = int(rng.integers(5, 101))
    labels = rng.integers(0, G, size=N)
    items = [f"d{i}" for i in range(N)]
    order = rng.permutation(N)
    kind = rng.choice(["full", "cut", "absent"], p=[0.45, 0.35, 0.2])
    if kind == "cut":
        order = order[: int(rng.integers(1, N + 1))]
    elif kind == "absent":  # a group with members but none ranked
        gone = labels[order[0]] if G == 1 else int(rng.integers(0, G))
        kept = order[labels[order] != gone]
        order = kept if len(kept) else order
    graded = bool(rng.random() < 0.5)
    level = rng.integers(0, 4, size=N) * (rng.random(N) < 0.5)
    if rng.random() < 0.2:  # a group without relevant items
        level[labels == labels[0]] = 0
    if rng.random() < 0.1:  # a topic without relevant items
        level[:] = 0
    u = level / 3 if graded else (level > 0).astype(float)
    return {
        "ranking": [items[i] for i in order],
        "groups": {items[i]: int(labels[i]) for i in range(N)},
        "relevance": [float(u[i]) for i in order],
        "decay": float(np.round(rng.uniform(0.01, 0.99), 4)),
        "p": float(np.round(rng.uniform(0.01, 0.99), 4)),
        "full": len(order) == N,
    }


def _text(value) -> float | str:
    """A JSON number, or "inf", "-inf", "nan" (JSON has no such numbers)."""
    value = float(value)
    return value if math.isfinite(value) else repr(value)


def frt_results(case: dict) -> list[dict]:
    """FairRankTune's value (and group values) of every metric and combo on the case."""
    ranking = pd.DataFrame({"r": case["ranking"]})
    rel = pd.DataFrame({"r": case["relevance"]})
    weights = [1 / np.log2(k + 1) for k in range(1, len(case["ranking"]) + 1)]
    ctr = pd.DataFrame({"r": [u * w for u, w in zip(case["relevance"], weights, strict=True)]})
    groups, decay, p = case["groups"], case["decay"], case["p"]
    calls = {
        "EXP": lambda c: Metrics.EXP(ranking, groups, c),
        "EXPU": lambda c: Metrics.EXPU(ranking, groups, rel, c),
        "EXPRU": lambda c: Metrics.EXPRU(ranking, groups, rel, ctr, c),
        "AWRF": lambda c: Metrics.AWRF(ranking, groups, p, c),
        "ERBE": lambda c: Metrics.ERBE(ranking, groups, decay, c),
        "ERBP": lambda c: Metrics.ERBP(ranking, groups, decay, c),
        "ERBR": lambda c: Metrics.ERBR(ranking, groups, rel, decay, c),
    }
    if case["full"]:
        calls["ARP"] = lambda c: Metrics.ARP(ranking, groups, c)
    calls["NDKL"] = lambda c: (Metrics.NDKL(ranking, groups), None)
    calls["IAA"] = lambda c: (Metrics.IAA(ranking, rel), None)
    out = []
    with np.errstate(all="ignore"):  # FairRankTune divides by 0 (the edges it has)
        for metric, call in calls.items():
            for combo in COMBOS if metric not in ("NDKL", "IAA") else (None,):
                result: dict = {"metric": metric} | ({"combo": combo} if combo else {})
                try:
                    value, per_group = call(combo)
                except ZeroDivisionError as exc:  # ARP: one group holds every item
                    out.append(result | {"error": type(exc).__name__})
                    continue
                result["value"] = _text(value)
                if per_group is not None:
                    result["group_values"] = [_text(per_group[g]) for g in sorted(per_group)]
                out.append(result)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20250101)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    cases = []
    for _ in range(args.cases):
        case = random_case(rng)
        case["results"] = frt_results(case)
        cases.append(case)
    table = {
        "about": (
            "FairRankTune's values on random inputs, recorded by "
            "tests_extra/record_fairranktune.py; docs/rankfair.md sections 3-5 and 13. "
            "EXPRU's ctr is u(d_k) w(k); NDKL's q is FairRankTune's own (the ranked list's)."
        ),
        "fairranktune": version("fairranktune"),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "seed": args.seed,
        "cases": cases,
    }
    # one line per case: the table diffs case by case
    head = json.dumps({k: v for k, v in table.items() if k != "cases"}, indent=1)[:-2]
    lines = ",\n".join("  " + json.dumps(case, separators=(",", ":")) for case in cases)
    OUT.write_text(f'{head},\n "cases": [\n{lines}\n ]\n}}\n', encoding="utf-8")
    n = sum(len(c["results"]) for c in cases)
    print(f"wrote {n} values of {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
