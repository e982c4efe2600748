"""GFR at TREC scale: ``fairconv gfr`` end to end beside pytrec_eval's nDCG@20.

The workload: 10,000 topics x 3 runs x 100 docs. Per topic, 100-150 judged docs
(L0/L1/L2 at 50/30/20%) out of a pool of 250 ClueWeb22-style ids (25 bytes); two gmemb
files listing every judged doc, G = 4 (ordinal) and G = 8 (nominal), 3-decimal
memberships; three runs of 100 docs drawn from the pool, 4-decimal scores; and a
TREC-format copy of the qrels for pytrec_eval.

Both tools run as whole processes (start-up, reading, scoring and writing per-topic
results included), alternating, best of 3; each run's peak memory is its ``ru_maxrss``.
pytrec_eval is timed when it is installed (``pip install pytrec-eval-terrier``), with
the script a user would write: the files read line by line into its dicts.
``fairconv gfr`` runs twice: with numpy alone (``FAIRCONV_PURE=1``) and, when the
``fast`` extra is installed, with its accelerator (which ``fairconv gfr`` no longer
uses: orjson formatted the output values until the TSV writer became the plain route,
docs/performance.md; the two lines time the same code).
Goals: at least 0.9x pytrec_eval's docs/s with numpy alone and 1.8x with an
accelerator, and peak memory at most 2.5x the input bytes.

Then the peak memory of ``fairconv gfr`` on skewed lists: one topic ranking 100,000 docs
among 2,000 topics of one doc each (goal: under 300 MB). Last, in this process, the
time of each stage (reading, joining, scoring, writing)
at 1x, 2x and 4x a quarter of the topics, to show each grows linearly.

    python benchmarks/bench_gfr.py [--topics 10000] [--keep FOLDER]
"""

import argparse
import hashlib
import importlib.util
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
    paths, _ = workload_paths(folder)
    _write_lines(paths["qrels"], [t, judged_doc, np.char.add("L", level.astype(str))])
    _write_lines(paths["trec_qrels"], [t, np.full(len(t), "0"), judged_doc, level.astype(str)])
    for name, g, _ in SETS:
        memb = rng.multinomial(1000, np.full(g, 1 / g), size=len(rows))
        memb[level == 0] = 1000 // g  # judged-nonrelevant docs listed as uniform
        text = [np.char.mod("%.3f", memb[:, k] / 1000) for k in range(g)]
        _write_lines(paths[name], [t, judged_doc, *text])
    for r in range(RUNS):
        pick = np.argsort(rng.random((n_topics, POOL)), axis=1)[:, :DEPTH]
        docs = np.take_along_axis(pool, pick, axis=1).ravel()
        scores = np.sort(rng.random((n_topics, DEPTH)) * 100, axis=1)[:, ::-1].ravel()
        rank = np.tile(np.arange(1, DEPTH + 1), n_topics).astype(str)
        _write_lines(
            paths["runs"][r],
            [
                np.repeat(topic_names, DEPTH),
                np.full(len(docs), "Q0"),
                docs,
                rank,
                np.char.mod("%.4f", scores),
                np.full(len(docs), f"run{r}"),
            ],
        )
    return workload_paths(folder)


def workload_paths(folder):
    """The paths of a workload written by :func:`write_workload`, and its input bytes."""
    paths = {
        "qrels": os.path.join(folder, "qrels"),
        "trec_qrels": os.path.join(folder, "qrels.trec"),
        "runs": [os.path.join(folder, f"run{r}") for r in range(RUNS)],
    }
    paths.update({name: os.path.join(folder, f"{name}.gmemb") for name, _, _ in SETS})
    inputs = [paths["qrels"], *(paths[name] for name, _, _ in SETS), *paths["runs"]]
    return paths, sum(os.path.getsize(p) for p in inputs if os.path.exists(p))


def fairconv_argv(paths, output):
    argv = ["gfr", "--qrels", paths["qrels"], "-o", output]
    for name, g, scale in SETS:
        argv += ["--attribute", name, paths[name], ",".join([repr(1 / g)] * g), scale]
    return argv + paths["runs"]


def timed(argv, env=None):
    """Wall time and peak RSS (bytes) of one process; stops the benchmark if it fails."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed ({proc.returncode}): {error}")
    return elapsed, usage.ru_maxrss * 1024


def whole_processes(paths, size, folder, n_docs, repeat):
    try:
        import pytrec_eval  # noqa: F401

        have_pytrec = True
    except ImportError:
        have_pytrec = False
    out = os.path.join(folder, "out")
    fairconv = [sys.executable, "-m", "fairconv", *fairconv_argv(paths, out)]
    commands = {"fairconv gfr, numpy": (fairconv, {"FAIRCONV_PURE": "1"})}
    fast = importlib.util.find_spec("orjson") is not None
    if fast:
        commands["fairconv gfr, fast"] = (fairconv, {"FAIRCONV_PURE": ""})
    else:
        print("the fast extra is not installed: pip install 'fairconv[fast]' to time it")
    if have_pytrec:
        script = os.path.join(folder, "pytrec.py")
        with open(script, "w") as f:
            f.write(PYTREC_SCRIPT)
        argv = [sys.executable, script, paths["trec_qrels"], out + ".pytrec", *paths["runs"]]
        commands["pytrec_eval nDCG@20"] = (argv, {})
    best = {name: (float("inf"), 0) for name in commands}
    outputs = {}
    for _ in range(repeat):  # alternating, best of repeat
        for name, (argv, env) in commands.items():
            for p in (out, out + ".pytrec"):
                if os.path.exists(p):
                    os.remove(p)
            t, rss = timed(argv, env)
            best[name] = (min(best[name][0], t), max(best[name][1], rss))
            if name.startswith("fairconv"):  # a digest: the parent stays small
                with open(out, "rb") as f:
                    outputs[name] = hashlib.file_digest(f, "sha256").hexdigest()
    if len(set(outputs.values())) > 1:
        raise SystemExit("the two routes of fairconv gfr wrote different outputs")
    print(f"{'command':<24}{'seconds':>9}{'docs/s':>12}{'peak RSS':>13}{'x input':>9}")
    for name, (t, rss) in best.items():
        print(f"{name:<24}{t:9.2f}{n_docs / t:12,.0f}{rss / 2**20:9.0f} MiB{rss / size:8.2f}x")
    for name in (n for n in best if n.startswith("fairconv")):
        rss = best[name][1]
        verdict = "ok" if rss / size <= 2.5 else "MISSED"
        print(f"{name}: peak memory {rss / size:.2f}x the input (goal <= 2.5x: {verdict})")
    if not have_pytrec:
        print("pytrec_eval is not installed: pip install pytrec-eval-terrier to compare")
        return
    goals = {"fairconv gfr, numpy": (0.9, "numpy alone"), "fairconv gfr, fast": (1.8, "fast")}
    for name, (goal, what) in goals.items():
        if name in best:
            ratio = best["pytrec_eval nDCG@20"][0] / best[name][0]
            verdict = "ok" if ratio >= goal else "MISSED"
            print(f"{name}: {ratio:.2f}x pytrec_eval's docs/s (goal {what} >= {goal}x: {verdict})")


def skewed(folder):
    """Peak RSS of fairconv gfr on one 100,000-doc list among 2,000 one-doc topics."""
    qrels, gmemb, run = (os.path.join(folder, f"skewed.{x}") for x in ("qrels", "gmemb", "run"))
    with open(qrels, "w") as q, open(gmemb, "w") as g, open(run, "w") as r:
        for t in range(2000):
            q.write(f"t{t} d0 L1\n")
            g.write(f"t{t} d0 0.500 0.500\n")
            n = 100_000 if t == 0 else 1
            r.writelines(f"t{t} Q0 d{k} {k + 1} {n - k} skew\n" for k in range(n))
    size = sum(os.path.getsize(p) for p in (qrels, gmemb, run))
    argv = [sys.executable, "-m", "fairconv", "gfr", "--qrels", qrels, "--attribute", "A"]
    argv += [gmemb, "0.5,0.5", "nominal", "-o", os.path.join(folder, "skewed.tsv"), run]
    t, rss = timed(argv)
    verdict = "ok" if rss < 300e6 else "MISSED"
    print(
        f"skewed lists ({size / 1e6:.1f} MB of input): {t:.2f} s, peak memory "
        f"{rss / 1e6:.0f} MB (goal < 300 MB: {verdict})"
    )


def stages(folder, n_topics):
    """Seconds per stage, in this process, for one workload."""
    from fairconv import gfr, rankings
    from fairconv.io import load_attribute, read_qrels, read_run

    paths, _ = write_workload(folder, n_topics, seed=n_topics)
    t = {}
    t0 = time.perf_counter()
    qrels = read_qrels(paths["qrels"])
    attributes = [load_attribute(name, paths[name], [1 / g] * g, scale) for name, g, scale in SETS]
    runs = [read_run(p) for p in paths["runs"]]
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
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (best of)")
    parser.add_argument("--no-stages", action="store_true", help="skip the 1x/2x/4x stage timing")
    parser.add_argument("--generate", help=argparse.SUPPRESS)  # write the workload, then exit
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat takes a whole number >= 1")
    if args.generate:
        write_workload(args.generate, args.topics)
        return
    n_docs = args.topics * RUNS * DEPTH
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        t0 = time.perf_counter()
        # written by another process, so that this one stays small: a child's peak RSS
        # counts the pages of its parent at fork time
        generate = [sys.executable, __file__, "--generate", folder, "--topics", str(args.topics)]
        subprocess.run(generate, check=True)
        paths, size = workload_paths(folder)
        print(
            f"{args.topics:,} topics x {RUNS} runs x {DEPTH} docs = {n_docs:,} ranked docs; "
            f"{size / 2**20:.0f} MiB of input (written in {time.perf_counter() - t0:.0f} s)"
        )
        whole_processes(paths, size, folder, n_docs, args.repeat)
        skewed(folder)
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
