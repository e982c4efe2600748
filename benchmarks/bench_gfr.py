"""GFR at TREC scale: ``fairconv gfr`` end to end beside pytrec_eval's nDCG@20.

The workload: 10,000 topics x 3 runs x 100 docs. Per topic, 100-150 judged docs
(L0/L1/L2 at 50/30/20%) out of a pool of 250 ClueWeb22-style ids (25 bytes); two gmemb
files listing every judged doc, G = 4 (ordinal) and G = 8 (nominal), 3-decimal
memberships; three runs of 100 docs drawn from the pool, 4-decimal scores; and a
TREC-format copy of the qrels for pytrec_eval.

Both tools run as whole processes (start-up, reading, scoring and writing per-topic
results included), alternating, best of 2; each run's peak memory is its ``ru_maxrss``.
pytrec_eval is timed when it is installed (``pip install pytrec-eval-terrier``), with
the script a user would write: the files read line by line into its dicts. Goals:
``fairconv gfr`` at least 1.8x pytrec_eval's docs/s (0.9x on the pure numpy path,
``FAIRCONV_PURE_NUMPY=1``), and peak memory at most 2.5x the input bytes.

Then, in this process, the time of each stage (reading, joining, scoring, writing)
at 1x, 2x and 4x a quarter of the topics, to show each grows linearly.

    python benchmarks/bench_gfr.py [--topics 10000] [--keep FOLDER]
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

POOL, DEPTH, RUNS = 250, 100, 3
SETS = (("A4", 4, "ordinal"), ("B8", 8, "nominal"))

PYTREC_SCRIPT = """\
import sys
import pytrec_eval

def read_qrels(path):
    qrels = {}
    with open(path) as f:
        for line in f:
            topic, _, doc, level = line.split()
            qrels.setdefault(topic, {})[doc] = int(level)
    return qrels

def read_run(path):
    run = {}
    with open(path) as f:
        for line in f:
            topic, _, doc, _, score, _ = line.split()
            run.setdefault(topic, {})[doc] = float(score)
    return run

evaluator = pytrec_eval.RelevanceEvaluator(read_qrels(sys.argv[1]), {"ndcg_cut.20"})
with open(sys.argv[2], "w") as out:
    for path in sys.argv[3:]:
        for topic, values in evaluator.evaluate(read_run(path)).items():
            out.write(f"{path}\\t{topic}\\tndcg_cut_20\\t{values['ndcg_cut_20']:.4f}\\n")
"""


def _write_lines(path, columns):
    """Write rows of space-separated columns (arrays of str) as one file."""
    lines = columns[0]
    for c in columns[1:]:
        lines = np.char.add(np.char.add(lines, " "), c)
    with open(path, "w") as f:
        f.write("\n".join(lines.tolist()))
        f.write("\n")


def write_workload(folder, n_topics, seed=0):
    """Write the workload's files; return their paths and total size in bytes."""
    rng = np.random.default_rng(seed)
    topic_names = np.array([f"{t + 1}" for t in range(n_topics)])
    pool = np.array(
        [
            f"clueweb22-en{d // 100000:04d}-{d // 1000 % 100:02d}-{d % 100000:05d}"
            for d in rng.choice(10**9, size=n_topics * POOL, replace=False)
        ]
    ).reshape(n_topics, POOL)
    n_judged = rng.integers(100, 151, size=n_topics)
    rows = np.concatenate([np.arange(k) for k in n_judged])
    topic_of = np.repeat(np.arange(n_topics), n_judged)
    perm = np.argsort(rng.random((n_topics, POOL)), axis=1)
    judged_doc = pool[topic_of, perm[topic_of, rows]]
    level = rng.choice(3, size=len(rows), p=[0.5, 0.3, 0.2])
    t = topic_names[topic_of]
    paths = {
        "qrels": os.path.join(folder, "qrels"),
        "trec_qrels": os.path.join(folder, "qrels.trec"),
    }
    _write_lines(paths["qrels"], [t, judged_doc, np.char.add("L", level.astype(str))])
    _write_lines(paths["trec_qrels"], [t, np.full(len(t), "0"), judged_doc, level.astype(str)])
    for name, g, _ in SETS:
        memb = rng.multinomial(1000, np.full(g, 1 / g), size=len(rows))
        memb[level == 0] = 1000 // g  # judged-nonrelevant docs listed as uniform
        text = [np.char.mod("%.3f", memb[:, k] / 1000) for k in range(g)]
        paths[name] = os.path.join(folder, f"{name}.gmemb")
        _write_lines(paths[name], [t, judged_doc, *text])
    runs = []
    for r in range(RUNS):
        pick = np.argsort(rng.random((n_topics, POOL)), axis=1)[:, :DEPTH]
        docs = np.take_along_axis(pool, pick, axis=1).ravel()
        scores = np.sort(rng.random((n_topics, DEPTH)) * 100, axis=1)[:, ::-1].ravel()
        rank = np.tile(np.arange(1, DEPTH + 1), n_topics).astype(str)
        path = os.path.join(folder, f"run{r}")
        _write_lines(
            path,
            [
                np.repeat(topic_names, DEPTH),
                np.full(len(docs), "Q0"),
                docs,
                rank,
                np.char.mod("%.4f", scores),
                np.full(len(docs), f"run{r}"),
            ],
        )
        runs.append(path)
    paths["runs"] = runs
    fairconv_inputs = [paths["qrels"], paths["A4"], paths["B8"], *runs]
    return paths, sum(os.path.getsize(p) for p in fairconv_inputs)


def fairconv_argv(paths, output):
    argv = ["gfr", "--qrels", paths["qrels"], "-o", output]
    for name, g, scale in SETS:
        argv += ["--attribute", name, paths[name], ",".join([repr(1 / g)] * g), scale]
    return argv + paths["runs"]


def timed(argv, env=None):
    """Wall time and peak RSS (bytes) of one process; stops the benchmark if it fails."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed ({proc.returncode}): {error}")
    return elapsed, usage.ru_maxrss * 1024


def whole_processes(paths, size, folder, n_docs):
    try:
        import pytrec_eval  # noqa: F401

        have_pytrec = True
    except ImportError:
        have_pytrec = False
    out = os.path.join(folder, "out")
    commands = {
        "fairconv gfr": (
            [sys.executable, "-m", "fairconv", *fairconv_argv(paths, out + ".fc")],
            None,
        ),
        "fairconv gfr, numpy only": (
            [sys.executable, "-m", "fairconv", *fairconv_argv(paths, out + ".np")],
            dict(os.environ, FAIRCONV_PURE_NUMPY="1"),
        ),
    }
    if have_pytrec:
        script = os.path.join(folder, "pytrec.py")
        with open(script, "w") as f:
            f.write(PYTREC_SCRIPT)
        commands["pytrec_eval nDCG@20"] = (
            [sys.executable, script, paths["trec_qrels"], out + ".pt", *paths["runs"]],
            None,
        )
    best = {name: (float("inf"), 0) for name in commands}
    for _ in range(2):
        for name, (argv, env) in commands.items():
            for p in (out + ".fc", out + ".np", out + ".pt"):
                if os.path.exists(p):
                    os.remove(p)
            t, rss = timed(argv, env)
            best[name] = (min(best[name][0], t), max(best[name][1], rss))
    print(f"{'command':<28}{'seconds':>9}{'docs/s':>12}{'peak RSS':>11}{'x input':>9}")
    for name, (t, rss) in best.items():
        print(f"{name:<28}{t:9.2f}{n_docs / t:12,.0f}{rss / 2**20:8.0f} MiB{rss / size:8.2f}x")
    for name in ("fairconv gfr", "fairconv gfr, numpy only"):
        rss = best[name][1]
        print(
            f"{name}: peak memory {rss / size:.2f}x the input (goal <= 2.5x: "
            f"{'ok' if rss / size <= 2.5 else 'MISSED'})"
        )
    if have_pytrec:
        ref = best["pytrec_eval nDCG@20"][0]
        for name, goal in (("fairconv gfr", 1.8), ("fairconv gfr, numpy only", 0.9)):
            ratio = ref / best[name][0]
            print(
                f"{name}: {ratio:.2f}x pytrec_eval's docs/s (goal >= {goal}x: "
                f"{'ok' if ratio >= goal else 'MISSED'})"
            )
    else:
        print("pytrec_eval is not installed: pip install pytrec-eval-terrier to compare")


def stages(folder, n_topics):
    """Seconds per stage, in this process, for one workload."""
    from fairconv import gfr, rankings, readers

    paths, _ = write_workload(folder, n_topics, seed=n_topics)
    t = {}
    t0 = time.perf_counter()
    qrels = readers.read_qrels(paths["qrels"])
    attributes = [
        gfr.load_attribute(name, paths[name], [1 / g] * g, scale) for name, g, scale in SETS
    ]
    runs = [readers.read_run(p) for p in paths["runs"]]
    t["read"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    lists = rankings.prepare(qrels, runs, attributes)
    t["join"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    table = gfr.evaluate(qrels, runs, attributes, lists=lists)
    t["score"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    table.to_tsv(io.StringIO())
    t["write"] = time.perf_counter() - t0
    for p in os.listdir(folder):
        os.remove(os.path.join(folder, p))
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--keep", help="write the workload into this folder and keep it")
    parser.add_argument("--no-stages", action="store_true", help="skip the 1x/2x/4x stage timing")
    args = parser.parse_args()
    n_docs = args.topics * RUNS * DEPTH
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        t0 = time.perf_counter()
        paths, size = write_workload(folder, args.topics)
        print(
            f"{args.topics:,} topics x {RUNS} runs x {DEPTH} docs = {n_docs:,} ranked docs; "
            f"{size / 2**20:.0f} MiB of input (written in {time.perf_counter() - t0:.0f} s)"
        )
        whole_processes(paths, size, folder, n_docs)
        if args.no_stages:
            return
        print()
        base = max(1, args.topics // 4)
        print(f"stages in one process (seconds), at 1x, 2x and 4x {base:,} topics")
        print(f"{'topics':>8}{'read':>8}{'join':>8}{'score':>8}{'write':>8}")
        with tempfile.TemporaryDirectory() as scratch:
            for k in (1, 2, 4):
                t = stages(scratch, base * k)
                print(
                    f"{base * k:8,}"
                    + "".join(f"{t[s]:8.2f}" for s in ("read", "join", "score", "write"))
                )


if __name__ == "__main__":
    main()
