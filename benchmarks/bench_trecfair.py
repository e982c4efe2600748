"""TREC Fair Ranking measures at the track's 2022 scale, beside a plain loop from the spec.

- Task 1: 50 topics x 500-page rankings over the full 8-dimension intersection of 2022
  (sub-geo 21, src-geo 21, gender 4, occ 30, alpha 4, age 5, pop 5, langs 5: 26,460,000
  cells), targets built with backgrounds on sub-geo, src-geo and gender, scored by
  ``trecfair.evaluate``. Goal: under 30 s and 2 GB peak memory (the process's peak RSS,
  data and interpreter included).
- Task 2: 50 topics x 100 rankings x 20 pages over sub-geo x gender, explicit targets,
  ``trecfair.evaluate`` against a plain loop over topics, rankings and pages written from
  the spec (dense cells, one outer product per page). Goal: at least 20x the loop.
- Then the plain Task 1 loop on a few topics (dense 26.5-million-cell vectors per topic,
  spec sections 3 and 6), extrapolated to 50 topics, and the largest difference to
  ``evaluate``.
- ``--memory``: the peak memory of ``fairconv trecfair --task 2`` in a fresh process,
  above an idle ``fairconv --help``, on a run file of 50 topics x 100 rankings x 20
  pages (sub-geo x gender, explicit targets), and on the same file with one more
  ranking of 1,000 pages. Memory must follow the input: the one long ranking adds 1%
  to the file, and should add about as much to the peak, not pad every ranking of the
  run to its length.

Alignment rows are shaped like the organisers' (unknown-heavy geography, gender and
occupations, multi-hot gender, fractional source shares, one-hot internal attributes).

    python benchmarks/bench_trecfair.py [--loop-topics 2] [--memory]
"""

import argparse
import math
import os
import resource
import tempfile
import time
import warnings

import numpy as np
from _memory import peak
from scipy.special import rel_entr

from fairconv import trecfair as tf
from fairconv._validation import FairconvWarning
from fairconv.io import Qrels, Run

NAMES = ("sub-geo", "src-geo", "gender", "occ", "alpha", "age", "pop", "langs")
SIZES = (21, 21, 4, 30, 4, 5, 5, 5)
N_PAGES = 30_000
rng = np.random.default_rng(2022)


def alignment_rows(n):
    out = [np.zeros((n, g)) for g in SIZES]

    def pick(j, p_unknown, k_max, how):
        g = SIZES[j]
        unknown = rng.random(n) < p_unknown
        out[j][unknown, 0] = 1
        rest = np.flatnonzero(~unknown)
        k = rng.integers(1, k_max + 1, len(rest))
        for c in range(k_max):  # one more category for the pages that have that many
            has = rest[k > c]
            cat = rng.integers(1, g, len(has))
            out[j][has, cat] = rng.random(len(has)) if how == "share" else 1.0
        if how in ("share", "normalise"):
            out[j][rest] /= out[j][rest].sum(axis=1, keepdims=True)

    pick(0, 0.5, 2, "normalise")  # sub-geo: regions, normalised
    pick(1, 0.1, 4, "share")  # src-geo: shares
    pick(2, 0.7, 2, "multi-hot")  # gender: not normalised
    pick(3, 0.7, 3, "normalise")  # occupations
    for j in range(4, 8):  # alpha, age, pop, langs: one-hot
        out[j][np.arange(n), rng.integers(0, SIZES[j], n)] = 1
    return out


ROWS = alignment_rows(N_PAGES)
PAGES = np.arange(N_PAGES).astype("S")


def dimensions(which):
    out = []
    for j in which:
        cats = ["@UNKNOWN"] + [f"{NAMES[j]}-{i}" for i in range(1, SIZES[j])]
        if j >= 4:  # no unknown category in the internal attributes
            cats[0] = f"{NAMES[j]}-0"
        out.append(tf.Dimension(NAMES[j], tuple(cats), PAGES, ROWS[j], "synthetic"))
    return out


def backgrounds(dims):
    bg = {}
    for d in dims[:3]:
        bg[d.name] = tf.Background(
            "synthetic", d.categories[1:], rng.dirichlet(np.ones(len(d.categories) - 1))
        )
    return bg


def task1_inputs(T=50, K=500):
    rel = [rng.choice(N_PAGES, size=int(rng.integers(50, 300)), replace=False) for _ in range(T)]
    n_rel = sum(len(r) for r in rel)
    qrels = Qrels(
        "synthetic",
        tuple(str(t) for t in range(T)),
        np.repeat(np.arange(T), [len(r) for r in rel]),
        PAGES[np.concatenate(rel)],
        np.ones(n_rel, np.int64),
    )
    rankings = []
    for r in rel:
        take = rng.choice(r, size=min(len(r), K // 3), replace=False)
        rest = rng.choice(np.setdiff1d(np.arange(N_PAGES), take), size=K - len(take), replace=False)
        rankings.append(rng.permutation(np.concatenate((take, rest))))
    pages = PAGES[np.concatenate(rankings)]
    pages[rng.random(len(pages)) < 0.05] = b"unlisted"  # some pages no table lists
    # an unlisted page twice in one ranking would be refused: give each its own id
    bad = np.flatnonzero(pages == b"unlisted")
    pages = pages.astype("S16")
    pages[bad] = np.char.add(b"x", bad.astype("S"))
    run = Run(
        "synthetic", qrels.topics, np.repeat(np.arange(T), K), pages, "run",
        np.full(T * K, np.nan), np.arange(1, T * K + 1),
    )  # fmt: skip
    return qrels, run, rel, rankings


def bench_task1():
    dims = dimensions(range(8))
    qrels, run, _, _ = task1_inputs()
    bg = backgrounds(dims)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        table = tf.evaluate(qrels, run, dims, task=1, backgrounds=bg)
    dt = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return dt, peak, table, (dims, qrels, run, bg)


def task2_inputs(T=50, S=100, K=20, which=(0, 2)):
    rel = [rng.choice(N_PAGES, size=int(rng.integers(20, 100)), replace=False) for _ in range(T)]
    n_rel = sum(len(r) for r in rel)
    qrels = Qrels(
        "synthetic",
        tuple(str(t) for t in range(T)),
        np.repeat(np.arange(T), [len(r) for r in rel]),
        PAGES[np.concatenate(rel)],
        np.ones(n_rel, np.int64),
    )
    seqs = np.zeros((T, S, K), np.int64)
    for t, r in enumerate(rel):
        for s in range(S):
            take = rng.choice(r, size=min(len(r), 8), replace=False)
            rest = rng.choice(
                np.setdiff1d(np.arange(N_PAGES), take), size=K - len(take), replace=False
            )
            seqs[t, s] = rng.permutation(np.concatenate((take, rest)))
    n_lines = T * S * K
    run = Run(
        "synthetic", qrels.topics, np.repeat(np.arange(T), S * K), PAGES[seqs.reshape(-1)],
        "run", np.full(n_lines, np.nan), np.arange(1, n_lines + 1),
        samples=tuple(map(str, range(S))), sample_ids=np.tile(np.repeat(np.arange(S), K), T),
    )  # fmt: skip
    n_cells = math.prod(SIZES[j] for j in which)
    tau = rng.dirichlet(np.ones(n_cells), T) * (rng.random((T, n_cells)) < 0.5)
    tau[:, 0] += 1e-3
    keys = np.flatnonzero(tau.reshape(-1))
    dims = dimensions(which)
    targets = tf.TopicTargets(
        qrels.topics,
        [d.name for d in dims],
        [d.categories for d in dims],
        tf.Targets(
            (T,), tuple(SIZES[j] for j in which), keys, tau.reshape(-1)[keys], np.ones((T, 1)),
            np.zeros((T, 1)), np.zeros(0, np.int64), np.zeros(0), (),
        ),
    )  # fmt: skip
    return qrels, run, dims, targets, rel, seqs, tau


def task2_loop(rel, seqs, tau, which):
    """Spec 4, plainly: per topic, ranking and page, one dense outer product."""
    d = tf.discount(seqs.shape[2])
    n_cells = tau.shape[1]
    out = []
    for t in range(seqs.shape[0]):
        relevant = set(rel[t].tolist())
        eps = np.zeros(n_cells)
        for s in range(seqs.shape[1]):
            for k in range(seqs.shape[2]):
                page = int(seqs[t, s, k])
                if page in relevant:
                    a = np.ones(1)
                    for j in which:
                        a = np.multiply.outer(a, ROWS[j][page]).reshape(-1)
                    eps += d[k] * a
        eps /= seqs.shape[1]
        star = tf.Z_20 * tau[t]
        out.append((((eps - star) ** 2).sum(), (eps**2).sum(), float(eps @ star)))
    return np.array(out)


def bench_task2(which=(0, 2)):
    qrels, run, dims, targets, rel, seqs, tau = task2_inputs(which=which)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        table = tf.evaluate(qrels, run, dims, task=2, targets=targets)
        times.append(time.perf_counter() - t0)
    fast = min(times)
    # the array-level function on the arrays evaluate() builds (ids already joined)
    relevant = np.zeros(seqs.shape, bool)
    for t, r in enumerate(rel):
        relevant[t] = np.isin(seqs[t], r)
    align = [ROWS[j][seqs] for j in which]
    dense = tau.reshape((len(rel),) + tuple(SIZES[j] for j in which))
    known, lengths = np.ones(seqs.shape, bool), np.full(seqs.shape[:2], seqs.shape[2])
    core = []
    for _ in range(3):
        t0 = time.perf_counter()
        out = tf.task2(relevant, align, dense, known=known, lengths=lengths)
        core.append(time.perf_counter() - t0)
    slow = math.inf
    for _ in range(3):  # best of three, as for the vectorised calls
        t0 = time.perf_counter()
        loop = task2_loop(rel, seqs, tau, which)
        slow = min(slow, time.perf_counter() - t0)
    got = table.values[:, 0][[table.topics.index(t) for t in qrels.topics]]
    arrays = np.stack([out["EE-L"], out["EE-D"], out["EE-R"]], axis=1)
    diff = max(
        np.max(np.abs(got - loop) / np.abs(loop)), np.max(np.abs(arrays - loop) / np.abs(loop))
    )
    return fast, min(core), slow, diff


def task1_loop_topic(t, dims, qrels, run, bg, rel, rankings):
    """Spec 3 and 6, plainly: dense T, the K-block mixing, dense E, dense JS (one topic)."""

    def dense(pages, w):
        v = np.zeros(math.prod(SIZES))
        left_n = math.prod(SIZES[:3])
        for p, wi in zip(pages, w, strict=True):  # one outer product per page, in two halves
            a = ROWS[0][p] * wi
            for j in (1, 2):
                a = np.multiply.outer(a, ROWS[j][p]).reshape(-1)
            b = ROWS[3][p]
            for j in range(4, 8):
                b = np.multiply.outer(b, ROWS[j][p]).reshape(-1)
            v.reshape(left_n, -1)[np.flatnonzero(a)] += np.multiply.outer(a[a != 0], b)
        return v

    r = rel[t]
    T = dense(r, np.ones(len(r))).reshape(SIZES) / len(r)
    M = T.sum(axis=tuple(range(3, 8)))
    mu = T.sum(axis=(0, 1, 2))
    Tt = np.where((M > 0)[..., None, None, None, None, None], T, mu)
    theta = Tt / Tt.sum(axis=tuple(range(3, 8)), keepdims=True)
    del Tt
    out = T.copy()
    betas = [bg[dims[i].name].weights for i in range(3)]
    for K in range(1, 8):
        sel = tuple(slice(1, None) if K >> i & 1 else 0 for i in range(3))
        beta = np.ones(())
        for i in range(3):
            if K >> i & 1:
                beta = np.multiply.outer(beta, betas[i])
        cK = T[sel].sum()
        out[sel] = T[sel] / 2 + cK * beta.reshape(beta.shape + (1,) * 5) * theta[sel] / 2
    del theta
    tau = out.reshape(-1)
    ranking = rankings[t]
    pages = run.docs[t * 500 : (t + 1) * 500]
    listed = np.char.startswith(pages, b"x") == 0
    d = tf.discount(500)
    E = dense(ranking[listed], d[listed])
    p, q = E / E.sum(), tau / tau.sum()
    m = (p + q) / 2
    return 1 - 0.5 * (rel_entr(p, m).sum() + rel_entr(q, m).sum())


MEMORY = """
import contextlib, os
from fairconv.cli import main
with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
    assert main(["trecfair", "--task", "2", "--qrels", f"{path}/qrels.jsonl",
                 "--dimension", "sub-geo", f"{path}/sub-geo.tsv",
                 "--dimension", "gender", f"{path}/gender.tsv",
                 "--targets", f"{path}/targets.tsv", "--summary", f"{path}/{kind}"]) == 0
"""


def write_memory_files(folder):
    """The tables, qrels, targets and the two Task 2 runs of ``--memory``."""
    which = (0, 2)
    qrels, run, dims, targets, *_ = task2_inputs(which=which)
    for d in dims:
        with open(os.path.join(folder, f"{d.name}.tsv"), "w") as f:
            f.write("\t".join(("page_id", *d.categories)) + "\n")
            f.writelines(
                p.decode() + "\t" + "\t".join(map(repr, row.tolist())) + "\n"
                for p, row in zip(d.pages, d.rows, strict=True)
            )
    with open(os.path.join(folder, "qrels.jsonl"), "w") as f:
        for t, topic in enumerate(qrels.topics):
            pages = qrels.docs[qrels.topic_ids == t]
            f.write(f'{{"id": {topic}, "rel_docs": [{", ".join(p.decode() for p in pages)}]}}\n')
    targets.to_tsv(os.path.join(folder, "targets.tsv"))
    lines = [
        f"{run.topics[t]}\t{run.samples[s]}\t{p.decode()}\n"
        for t, s, p in zip(run.topic_ids.tolist(), run.sample_ids.tolist(), run.docs, strict=True)
    ]
    extra = PAGES[rng.choice(N_PAGES, size=1000, replace=False)]
    long = lines[:2000] + [f"{run.topics[0]}\t100\t{p.decode()}\n" for p in extra]
    for kind, rows in (("t2-short", lines), ("t2-long", long + lines[2000:])):
        with open(os.path.join(folder, kind), "w") as f:
            f.write("id\tseq_no\tpage_id\n")
            f.writelines(rows)


def bench_memory():
    with tempfile.TemporaryDirectory() as folder:
        write_memory_files(folder)
        idle = min(peak(MEMORY, "--help") for _ in range(2))
        print(f"idle 'fairconv --help': {idle / 2**20:.1f} MB peak RSS")
        print(f"{'run':<10}{'file MB':>9}{'peak MB':>9}{'above idle MB':>15}")
        above = {}
        for kind in ("t2-short", "t2-long"):
            size = os.path.getsize(os.path.join(folder, kind))
            top = min(peak(MEMORY, folder, kind) for _ in range(2))
            above[kind] = top - idle
            print(f"{kind:<10}{size / 2**20:9.1f}{top / 2**20:9.1f}{above[kind] / 2**20:15.1f}")
        grew = above["t2-long"] / above["t2-short"]
        print(
            f"one 1,000-page ranking (1% more lines) multiplies the peak above idle by "
            f"{grew:.2f}; goal <= 1.1: {'ok' if grew <= 1.1 else 'MISSED'}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop-topics", type=int, default=2, help="Task 1 loop topics (0: none)")
    parser.add_argument("--memory", action="store_true", help="only the memory of one long ranking")
    args = parser.parse_args()
    if args.memory:
        bench_memory()
        return
    dt1, peak, table, inputs = bench_task1()
    ok1 = dt1 < 30 and peak < 2048
    print(
        f"Task 1, 2022 scale (50 topics x 500 pages, 8 dimensions, {math.prod(SIZES):,} cells, "
        f"targets built): {dt1:.2f} s, peak RSS {peak:.0f} MB; goal < 30 s and < 2 GB: "
        f"{'ok' if ok1 else 'MISSED'}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        fast, core, slow, diff = bench_task2()
    ratio = slow / core
    print(
        f"Task 2 (50 topics x 100 rankings x 20 pages, sub-geo x gender; best of 3): plain loop "
        f"{slow:.2f} s; "
        f"task2() on the arrays {core:.3f} s: {ratio:.0f}x, goal >= 20x: "
        f"{'ok' if ratio >= 20 else 'MISSED'}; evaluate() from the records, joining "
        f"100,000 page ids, {fast:.3f} s: {slow / fast:.1f}x (largest relative difference "
        f"{diff:.1e})"
    )
    if args.loop_topics:
        dims, qrels, run, bg = inputs
        rel, rankings = _rankings_of(qrels, run)
        t0 = time.perf_counter()
        awrf = [
            task1_loop_topic(t, dims, qrels, run, bg, rel, rankings)
            for t in range(args.loop_topics)
        ]
        dl = (time.perf_counter() - t0) / args.loop_topics
        name = f"AWRF[{','.join(NAMES)}]"
        got = [table.value("run", str(t), name) for t in range(args.loop_topics)]
        diff = max(abs(a - b) / a for a, b in zip(awrf, got, strict=True))
        print(
            f"Task 1 plain loop: {dl:.1f} s per topic ({50 * dl:.0f} s for 50 topics, "
            f"extrapolated from {args.loop_topics}): evaluate is {50 * dl / dt1:.0f}x; largest "
            f"relative difference in AWRF {diff:.1e}"
        )


def _rankings_of(qrels, run):
    rel = [
        np.asarray(qrels.docs[qrels.topic_ids == t]).astype(np.int64)
        for t in range(len(qrels.topics))
    ]
    rankings = []
    for t in range(len(qrels.topics)):
        pages = run.docs[run.topic_ids == t]
        listed = np.char.startswith(pages, b"x") == 0
        ids = np.zeros(len(pages), np.int64)
        ids[listed] = pages[listed].astype(np.int64)
        rankings.append(ids)
    return rel, rankings


if __name__ == "__main__":
    main()
