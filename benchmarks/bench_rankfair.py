"""rankfair's two measurements (issue 35): the whole command beside fairconv gfr, and
rankfair.evaluate in one process beside FairRankTune.

1. Whole command. bench_gfr.py's workload (10,000 topics x 3 runs x 100 docs, two
   sets), plus a one-hot copy of each gmemb listing every pooled doc of its topic
   (every doc of the qrels or a run; the group of a listed doc is its largest
   membership, of another drawn at random). ``fairconv rankfair --qrels Q --memberships
   A4 A4.hard --memberships B8 B8.hard --protected 1 RUN...`` (the default measures)
   against ``fairconv gfr`` on the same runs and qrels, both as whole processes with
   ``FAIRCONV_PURE=1``, alternating, best of 3. Goal: at most 2x gfr's time.
2. In one process. 1,000 topics, each a pool of 250 docs with one-hot memberships of 4
   groups and a ranking of 100 of them (one run). FairRankTune 0.0.7 (``pip install
   fairranktune==0.0.7``) scores each ranking with ``EXP`` once per meta-metric (7
   calls per ranking), from a one-column DataFrame and the topic's
   ``item_group_dict``; fairconv runs ``rankfair.evaluate(None, run, {"A4": ...},
   measures=[the seven EXP-M[A4]])`` on the same inputs already in memory (a Run and
   GroupMemberships: reading excluded), and the array level alone
   (``group_values`` + ``meta``). The values are compared (1e-9 relative) before
   anything is timed. Goal: at least 100x FairRankTune's rankings per second.

    python benchmarks/bench_rankfair.py [--topics 10000] [--repeat 3] [--rankings 1000]
                                        [--frt-rankings 1000] [--skip-command]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import bench_gfr
import numpy as np
from _timing import best_of

from fairconv import rankfair

POOL, DEPTH, GROUPS = 250, 100, 4
GOAL = 100.0
COMMAND_GOAL = 2.0


# --------------------------------------------------------------------------- 1. command
def hard_copies(paths):
    """One-hot gmemb copies listing every doc of the qrels or a run, per set."""
    docs_of = {}
    for p in [paths["qrels"], *paths["runs"]]:
        with open(p) as f:
            for line in f:
                cols = line.split()
                topic, doc = cols[0], (cols[1] if p == paths["qrels"] else cols[2])
                docs_of.setdefault(topic, {})[doc] = None
    rng = np.random.default_rng(1)
    out = {}
    for name, g, _ in bench_gfr.SETS:
        listed = {}
        with open(paths[name]) as f:
            for line in f:
                topic, doc, *v = line.split()
                listed[topic, doc] = int(np.argmax(np.array(v, dtype=float)))
        target = paths[name] + ".hard"
        eye = [" ".join("1" if j == k else "0" for j in range(g)) for k in range(g)]
        with open(target, "w") as f:
            for topic, docs in docs_of.items():
                for doc in docs:
                    k = listed.get((topic, doc))
                    k = int(rng.integers(g)) if k is None else k
                    f.write(f"{topic} {doc} {eye[k]}\n")
        out[name] = target
    return out


def whole_commands(n_topics, repeat):
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        generate = [sys.executable, bench_gfr.__file__, "--generate", folder]
        subprocess.run([*generate, "--topics", str(n_topics)], check=True)
        paths, _ = bench_gfr.workload_paths(folder)
        hard = hard_copies(paths)
        print(
            f"{n_topics:,} topics x {bench_gfr.RUNS} runs x {bench_gfr.DEPTH} docs, one-hot "
            f"copies of both sets (written in {time.perf_counter() - t0:.0f} s)"
        )
        out = os.path.join(folder, "out")
        gfr = [sys.executable, "-m", "fairconv", *bench_gfr.fairconv_argv(paths, out + ".gfr")]
        ours = [sys.executable, "-m", "fairconv", "rankfair", "--qrels", paths["qrels"]]
        for name, _, _ in bench_gfr.SETS:
            ours += ["--memberships", name, hard[name]]
        ours += ["--protected", "1", "-o", out + ".rankfair", *paths["runs"]]
        commands = {"fairconv gfr": gfr, "fairconv rankfair": ours}
        best = dict.fromkeys(commands, float("inf"))
        for _ in range(repeat):  # alternating, best of repeat
            for name, argv in commands.items():
                for p in (out + ".gfr", out + ".rankfair"):
                    if os.path.exists(p):
                        os.remove(p)
                t, _ = bench_gfr.timed(argv, {"FAIRCONV_PURE": "1"})
                best[name] = min(best[name], t)
        for name, t in best.items():
            print(f"{name:<20}{t:9.2f} s  (FAIRCONV_PURE=1, best of {repeat})")
        ratio = best["fairconv rankfair"] / best["fairconv gfr"]
        verdict = "ok" if ratio <= COMMAND_GOAL else "MISSED"
        print(f"rankfair / gfr: {ratio:.2f}x (goal <= {COMMAND_GOAL:g}x: {verdict})")


# --------------------------------------------------------------------------- 2. process
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


def inputs(groups, rankings):
    """The same rankings as fairconv's in-memory inputs: a Run and GroupMemberships."""
    import pandas as pd

    from fairconv.io import as_memberships, as_run

    n = len(groups)
    topics = np.repeat([f"t{t}" for t in range(n)], DEPTH)
    docs = np.char.add("d", rankings.astype(str)).ravel()
    scores = np.tile(np.arange(DEPTH, 0, -1, dtype=float), n)
    run = as_run(pd.DataFrame({"query_id": topics, "doc_id": docs, "score": scores}), name="run")
    pool_topics = np.repeat([f"t{t}" for t in range(n)], POOL)
    pool_docs = np.tile(np.char.add("d", np.arange(POOL).astype(str)), n)
    onehot = np.eye(GROUPS)[groups.ravel()]
    memberships = as_memberships(
        {
            t: dict(zip(d.tolist(), m.tolist(), strict=True))
            for t, d, m in zip(
                pool_topics.reshape(n, POOL)[:, 0],
                pool_docs.reshape(n, POOL),
                onehot.reshape(n, POOL, GROUPS),
                strict=True,
            )
        }
    )
    return run, memberships


def evaluate_seven(run, memberships):
    names = [f"EXP-{m}" for m in rankfair.METAS]
    return rankfair.evaluate(None, run, {"A4": memberships}, measures=names, n_jobs=1)


def in_one_process(args):
    groups, rankings = workload(args.rankings)
    memb, sizes, lengths = arrays(groups, rankings)
    ours = fairconv_seven(memb, sizes, lengths)
    run, memberships = inputs(groups, rankings)
    table = evaluate_seven(run, memberships)
    order = [int(t[1:]) for t in table.topics]  # the table's topics are sorted as text
    for m in rankfair.METAS:
        got = table.values[:, 0, table.measures.index(f"EXP-{m}[A4]")]
        np.testing.assert_allclose(got, ours[m][order], rtol=1e-12, atol=1e-15)
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
    t_eval = best_of(lambda: evaluate_seven(run, memberships))
    t_score = best_of(lambda: fairconv_seven(memb, sizes, lengths))
    for label, t in (("rankfair.evaluate", t_eval), ("array level alone", t_score)):
        rate = args.rankings / t
        line = f"fairconv {label:<18}: {rate:12.1f} rankings/s"
        if frt is not None:
            ratio = rate / frt
            line += f"  {ratio:8.1f}x  (goal >= {GOAL:g}x {'ok' if ratio >= GOAL else 'MISSED'})"
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rankings", type=int, default=1000)
    parser.add_argument("--frt-rankings", type=int, default=1000)
    parser.add_argument("--skip-command", action="store_true", help="only the in-process one")
    args = parser.parse_args()
    if not args.skip_command:
        whole_commands(args.topics, args.repeat)
        print()
    in_one_process(args)


if __name__ == "__main__":
    main()
