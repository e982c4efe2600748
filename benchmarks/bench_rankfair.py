"""rankfair in one process beside FairRankTune: the seven EXP meta-metrics of 1,000 rankings.

The workload of bench_gfr.py's A4 set, one run: 1,000 topics, each a pool of 250 docs
with one-hot memberships of 4 groups (the population) and a ranking of 100 of them.
FairRankTune 0.0.7 (``pip install fairranktune==0.0.7``) scores each ranking with
``EXP`` once per meta-metric (7 calls per ranking: its API gives one combo per call),
from a one-column DataFrame and the topic's ``item_group_dict``. fairconv scores the
same rankings at the array level: ``rankfair.group_values(..., statistic="EXP")`` on
the padded (1000, 100, 4) memberships, then ``rankfair.meta`` once per meta-metric.
Building the arrays from the ids is timed apart (what ``evaluate`` will do through the
shared ranked-list front end, whose own benchmark comes with it). The values are
compared (1e-9 relative) before anything is timed. Goal: at least 100x FairRankTune's
rankings per second.

    python benchmarks/bench_rankfair.py [--rankings 1000] [--frt-rankings 1000]
"""

import argparse
import time

import numpy as np
from _timing import best_of

from fairconv import rankfair

POOL, DEPTH, GROUPS = 250, 100, 4
GOAL = 100.0


def workload(n_rankings, seed=0):
    """Per topic: the pool's group of each doc (ids d0..d249) and a ranking of 100 ids."""
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, GROUPS, size=(n_rankings, POOL))
    rankings = np.argsort(rng.random((n_rankings, POOL)), axis=1)[:, :DEPTH]
    return groups, rankings


def arrays(groups, rankings):
    """The array level's inputs: memberships (T, 100, 4), sizes (T, 4), lengths (T,)."""
    ranked = np.take_along_axis(groups, rankings, axis=1)
    memberships = np.eye(GROUPS)[ranked]
    sizes = np.stack([np.bincount(g, minlength=GROUPS) for g in groups])
    return memberships, sizes, np.full(len(groups), DEPTH)


def fairconv_seven(memberships, sizes, lengths):
    values = rankfair.group_values(memberships, sizes, None, lengths=lengths, statistic="EXP")
    present = sizes > 0
    return {m: rankfair.meta(values, present=present, meta=m) for m in rankfair.METAS}


def frt_seven(groups, rankings, n):
    import pandas as pd
    from FairRankTune import Metrics

    ids = np.array([f"d{i}" for i in range(POOL)])
    out = {m: [] for m in rankfair.METAS}
    for t in range(n):
        item_group = dict(zip(ids.tolist(), groups[t].tolist(), strict=True))
        frame = pd.DataFrame({"r": ids[rankings[t]]})
        for m in rankfair.METAS:
            out[m].append(Metrics.EXP(frame, item_group, m)[0])
    return {m: np.array(v) for m, v in out.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rankings", type=int, default=1000)
    parser.add_argument("--frt-rankings", type=int, default=1000)
    args = parser.parse_args()
    groups, rankings = workload(args.rankings)
    memb, sizes, lengths = arrays(groups, rankings)
    ours = fairconv_seven(memb, sizes, lengths)
    try:
        import FairRankTune  # noqa: F401
    except ImportError:
        frt = None
        print("FairRankTune is not installed (pip install fairranktune==0.0.7): fairconv only")
    else:
        n = min(args.frt_rankings, args.rankings)
        t0 = time.perf_counter()
        theirs = frt_seven(groups, rankings, n)
        frt = n / (time.perf_counter() - t0)
        for m in rankfair.METAS:
            np.testing.assert_allclose(ours[m][:n], theirs[m], rtol=1e-9, atol=1e-15)
        print(f"FairRankTune EXP x 7 : {frt:12.1f} rankings/s ({n} rankings; values equal)")
    t_arrays = best_of(lambda: arrays(groups, rankings))
    t_score = best_of(lambda: fairconv_seven(memb, sizes, lengths))
    for label, t in (("array level", t_score), ("arrays + array level", t_arrays + t_score)):
        rate = args.rankings / t
        line = f"fairconv {label:<21}: {rate:12.1f} rankings/s"
        if frt is not None:
            ratio = rate / frt
            line += f"  {ratio:8.1f}x  (goal >= {GOAL:g}x {'ok' if ratio >= GOAL else 'MISSED'})"
        print(line)


if __name__ == "__main__":
    main()
