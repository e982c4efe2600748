"""Record FairRank's and expeval's values on random inputs for the main suite.

Neither is a package: run this once with checkouts of both (read and run, not copied;
github.com/DataResponsibly/FairRank @ cc20367, MIT; github.com/diazf/expeval @ 69ab070):

    PYTHONHASHSEED=0 python tests_extra/record_references.py --fairrank DIR --expeval DIR

(expeval sums over Python sets, whose order follows the hash seed: its values' last bit
does too; the seed 0 gives this table bit for bit.)

It writes two tables into tests/reference/rankfair/:

- fairrank.json: hard rankings of a population (N = 10..120, steps 1, 2, 5, 10), the
  protected flag of each rank, and FairRank's unnormalised rND, rKL, rRD, summed over
  its cut-offs with its per-cut functions (``calculaterND``, ``calculaterKL``,
  ``calculaterRD``) and its discount 1 / log2(i + 1), as ``calculateNDFairness`` does
  (which itself runs on Python 2 only); ``clamped`` marks a ranking with an all- or
  no-protected prefix at a cut-off, where FairRank's KL replaces the share by 0.001
  (docs/rankfair.md, section 10).
- expeval.json: sampled runs (3 to 30 docs, graded levels, unjudged docs, 1 to 5
  samples, one-hot groups, both browsing models, random patience and stop,
  ``complete`` and ``binarize``) and expeval's unnormalised EE-D, EE-R, EE-L per doc
  and per group, computed in memory with its modules (``exposure.expected``,
  ``exposure.target``, ``group.exposure``, ``group.metrics``), full floats; inf as the
  string "inf" (a group EE-D when no target doc is ranked).
"""

import argparse
import importlib
import json
import math
import sys
import types
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "reference" / "rankfair"


def _dump(path: Path, head: dict, cases: list) -> None:
    """The table with one line per case (it diffs case by case)."""
    text = json.dumps(head, indent=1)[:-2]
    lines = ",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in cases)
    path.write_text(f'{text},\n "cases": [\n{lines}\n ]\n}}\n', encoding="utf-8")


def fairrank_cases(fairrank: Path, rng: np.random.Generator, n: int) -> list:
    sys.modules.setdefault("dataGenerator", types.ModuleType("dataGenerator"))  # unused
    sys.path.insert(0, str(fairrank))
    measures = importlib.import_module("measures")
    functions = {
        "rND": measures.calculaterND,
        "rKL": measures.calculaterKL,
        "rRD": measures.calculaterRD,
    }
    cases = []
    for _ in range(n):
        N = int(rng.integers(10, 121))
        P = int(rng.integers(1, N))
        ranked = np.zeros(N, dtype=int)
        ranked[rng.choice(N, size=P, replace=False)] = 1
        step = int(rng.choice([1, 2, 5, 10]))
        case = {"step": step, "protected": "".join(map(str, ranked)), "clamped": False}
        for name, f in functions.items():
            raw = 0.0
            for i in range(step, N + 1, step):
                x = int(ranked[:i].sum())
                case["clamped"] |= x in (0, i)
                raw += f(i, x, N, P) / math.log(i + 1, 2)
            case[name] = raw
        cases.append(case)
    return cases


def expeval_cases(expeval: Path, rng: np.random.Generator, n: int) -> list:
    sys.path.insert(0, str(expeval))
    exposure = importlib.import_module("exposure")
    group = importlib.import_module("group")
    permutation = importlib.import_module("permutation")
    cases = []
    while len(cases) < n:
        D = int(rng.integers(3, 31))
        docs = [f"d{i}" for i in range(D)]
        judged = rng.random(D) < 0.7
        drawn = rng.integers(0, 4, size=D)
        level = [int(v) if j else -1 for v, j in zip(drawn, judged, strict=True)]
        options = {
            "model": str(rng.choice(["gerr", "rbp"])),
            "patience": float(np.round(rng.uniform(0.1, 0.9), 3)),
            "stop": float(np.round(rng.uniform(0.1, 0.9), 3)),
            "complete": bool(rng.random() < 0.3),
            "binarize": bool(rng.random() < 0.3),
        }
        qrels = {}
        for d, v in zip(docs, level, strict=True):
            v = 1 if options["binarize"] and v > 0 else v
            if v > 0 or (options["complete"] and v == 0):
                qrels[d] = v
        if not qrels:
            continue  # no target: expeval skips the topic
        samples = []
        perms = {}
        for s in range(int(rng.integers(1, 6))):
            order = rng.permutation(D)[: int(rng.integers(1, D + 1))]
            samples.append([int(i) for i in order])
            perms[str(s)] = permutation.Permutation()
            for k, i in enumerate(order, start=1):
                perms[str(s)].add(k, docs[i])
        G = int(rng.integers(2, 5))
        gid = [int(g) for g in rng.integers(0, G, size=D)]
        args = (options["model"], options["patience"], options["stop"])
        run = exposure.expected(perms, qrels, *args)
        target, *doc_metrics = exposure.target(qrels, *args, options["complete"])
        for m in doc_metrics:
            m.compute(run)
        gids = {docs[i]: [gid[i]] for i in range(D) if docs[i] in qrels}
        g_target = group.exposure(target, gids, qrels, options["complete"])
        g_run = group.exposure(run, gids, qrels, options["complete"])
        relevant = sum(1 for v in qrels.values() if v > 0)
        size = len(target) if options["complete"] else math.inf
        group_metrics = group.metrics(g_target, *args, size, relevant)
        for m in group_metrics:
            m.compute(g_run)
        names = ("EE-D", "EE-R", "EE-L")  # expeval's disparity, relevance, difference
        cases.append(
            {
                "levels": level,
                "samples": samples,
                "groups": gid,
                "n_groups": G,
                "options": options,
                "per_doc": {k: m.value for k, m in zip(names, doc_metrics, strict=True)},
                "per_group": {
                    k: m.value if math.isfinite(m.value) else repr(m.value)
                    for k, m in zip(names, group_metrics, strict=True)
                },
            }
        )
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fairrank", type=Path, required=True)
    parser.add_argument("--expeval", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=20250102)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    about = "recorded by tests_extra/record_references.py; docs/rankfair.md sections 4.2, 6, 13"
    fr = fairrank_cases(args.fairrank, rng, 150)
    _dump(OUT / "fairrank.json", {"about": f"FairRank @ cc20367, {about}", "seed": args.seed}, fr)
    ee = expeval_cases(args.expeval, rng, 150)
    _dump(OUT / "expeval.json", {"about": f"expeval @ 69ab070, {about}", "seed": args.seed}, ee)
    print(f"wrote {len(fr)} FairRank and {len(ee)} expeval cases to {OUT}")


if __name__ == "__main__":
    main()
