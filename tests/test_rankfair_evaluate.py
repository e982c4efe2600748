"""rankfair.evaluate: files in, a table out, equal to the plain-loop oracle per (run, topic).

Random TREC runs, qrels and gmemb files are written, read back by fairconv, and every
value of the table is compared (1e-12) with tests/rankfair_oracle.py applied to the same
rankings parsed here line by line: the join (orders, samples, populations, depth cuts,
dropped docs) is checked with the arithmetic.
"""

import math
import re
import warnings

import numpy as np
import pytest

import rankfair_oracle as oracle
from fairconv import FairconvWarning, rankfair
from fairconv._core import METAS

RTOL = 1e-12
STATS = ("EXP", "EXPU", "EXPRU", "ATT", "ERBE", "ERBP", "ERBR")


def _close(got, want, what):
    if math.isnan(want):
        assert math.isnan(got), (what, got, want)
    else:
        assert math.isclose(got, want, rel_tol=RTOL, abs_tol=1e-15), (what, got, want)


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _dataset(tmp_path, seed, *, samples=False):
    """Random files; returns paths and the plain data the oracle reads."""
    rng = np.random.default_rng(seed)
    topics = [f"T{t}" for t in range(int(rng.integers(3, 7)))]
    pools, levels, soft, hard = {}, {}, {}, {}
    q_lines, a_lines, b_lines = [], [], []
    for t in topics:
        n = int(rng.integers(4, 40))
        pool = [f"{t}-d{i}" for i in range(n)]
        pools[t] = pool
        judged = rng.random(n) < 0.7
        no_relevant = rng.random() < 0.2
        levels[t] = {}
        for d, j in zip(pool, judged, strict=True):
            if j:
                lev = 0 if no_relevant else int(rng.choice(4, p=[0.4, 0.3, 0.2, 0.1]))
                levels[t][d] = lev
                q_lines.append(f"{t} 0 {d} {lev}")
        one_group = rng.random() < 0.15
        for d in pool:
            g = 0 if one_group else int(rng.integers(0, 3))
            hard[t, d] = [1.0 if k == g else 0.0 for k in range(3)]
            a_lines.append(f"{t} {d} " + " ".join(f"{v:g}" for v in hard[t, d]))
            w = round(float(rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, rng.random()])), 3)
            soft[t, d] = [w, 1.0 - w]
            b_lines.append(f"{t} {d} {w!r} {1.0 - w!r}")
    paths = {
        "qrels": _write(tmp_path / "qrels", q_lines),
        "A": _write(tmp_path / "A.gmemb", a_lines),
        "B": _write(tmp_path / "B.gmemb", b_lines),
        "runs": [],
    }
    rankings = {}
    for r in range(2 if not samples else 1):
        name = f"run{r}"
        lines = []
        for t in topics:
            if rng.random() < 0.15:
                continue  # the run lacks the topic
            n_samples = int(rng.integers(1, 4)) if samples else 1
            for s in range(n_samples):
                pool = pools[t]
                k = int(rng.integers(1, len(pool) + 1))
                ranked = [pool[i] for i in rng.permutation(len(pool))[:k]]
                rankings.setdefault((name, t), []).append(ranked)
                for i, d in enumerate(ranked):
                    lines.append(f"{t} S{s} {d} {i + 1} {100 - i} {name}")
        paths["runs"].append(_write(tmp_path / name, lines))
    return paths, dict(topics=topics, pools=pools, levels=levels, A=hard, B=soft), rankings


def _u(level, graded, top):
    if graded:
        return level / top if top else 0.0
    return 1.0 if level > 0 else 0.0


def _expected(data, rankings, run, topic, name, *, graded=False, population_utility=False,
              targets=None, protected=None, step=10, epsilon=1e-7, decay=0.5, attention=0.5,
              patience=0.5, stop=0.5, complete=False, binarize=False):  # fmt: skip
    """The oracle's value of one measure name on one (run, topic)."""
    m = re.fullmatch(r"(?P<base>[A-Za-z-]+)(@(?P<k>\d+))?(\[(?P<set>\w+)\])?", name)
    base, k, set_name = m["base"], m["k"], m["set"]
    k = None if k is None else int(k)
    lev = data["levels"][topic]
    top = max((v for t in data["levels"].values() for v in t.values()), default=0)
    samples = rankings[run, topic]
    if base.startswith("EE-"):
        _, x, model = base.split("-")
        cut = [s[:k] if k else s for s in samples]
        memb = None
        if set_name:
            memb = {d: data[set_name][topic, d] for d in data["pools"][topic]}
        out = oracle.expected_exposure(
            cut, lev, memb, model.lower(), patience, stop, complete, binarize
        )
        return dict(zip("LDR", out, strict=True))[x]
    ranked = samples[0][:k] if k else samples[0]
    u = [_u(lev.get(d, 0), graded, top) for d in ranked]
    if base == "IAA":
        return oracle.iaa(u)
    table = data[set_name]
    rows = [table[topic, d] for d in ranked]
    pop = [table[topic, d] for d in data["pools"][topic]]
    G = len(pop[0])
    sizes = [sum(r[g] for r in pop) for g in range(G)]
    if base == "NDKL":
        q = targets[set_name] if targets and set_name in targets else [s / len(pop) for s in sizes]
        return oracle.ndkl(rows, q, epsilon)
    if base in ("rND", "rKL", "rRD"):
        pi = protected - 1
        return oracle.yang([r[pi] for r in rows], [r[pi] for r in pop], base, step)
    if base == "FAIR":
        pi = protected - 1
        p = targets[set_name][pi] if targets and set_name in targets else sizes[pi] / len(pop)
        return oracle.fair([int(r[pi]) for r in rows], p)
    stat, meta = base.split("-")
    if stat == "ARP":
        groups = [r.index(1.0) for r in rows]
        values = oracle.arp(groups, G)
        present = [any(g == j for g in groups) for j in range(G)]
        return oracle.meta(values, present, meta)
    utility = None
    if population_utility:
        utility = [
            sum(table[topic, d][g] * _u(lev.get(d, 0), graded, top) for d in data["pools"][topic])
            for g in range(G)
        ]
    values = oracle.group_values(rows, sizes, u, stat, decay, attention, utility)
    return oracle.meta(values, [s > 0 for s in sizes], meta)


def _check_table(table, data, rankings, **options):
    checked = 0
    for r, run in enumerate(table.runs):
        for t, topic in enumerate(table.topics):
            for j, name in enumerate(table.measures):
                present = table.present[t, r, j]
                uses_qrels = any(name.startswith(b) for b in ("EXPU", "EXPRU", "ERBR", "IAA", "EE"))
                ranked = (run, topic) in rankings
                judged = bool(data["levels"][topic]) or not uses_qrels
                assert present == (ranked and judged), (run, topic, name)
                if present:
                    want = _expected(data, rankings, run, topic, name, **options)
                    _close(float(table.values[t, r, j]), want, (run, topic, name))
                    checked += 1
    return checked


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        return call()


@pytest.mark.parametrize("seed", range(4))
def test_every_exposure_measure_matches_the_oracle(tmp_path, seed):
    paths, data, rankings = _dataset(tmp_path, seed)
    names = [f"{s}-{m}" for s in STATS for m in METAS]
    for graded, population in ((False, False), (True, True)):
        table = _quiet(
            lambda graded=graded, population=population: rankfair.evaluate(
                paths["qrels"], paths["runs"], {"A": paths["A"], "B": paths["B"]},
                measures=names, cutoffs=[3], relevance="graded" if graded else "binary",
                group_utility="population" if population else "ranked", decay=0.7,
                attention=0.3,
            )
        )  # fmt: skip
        assert _check_table(
            table, data, rankings, graded=graded, population_utility=population, decay=0.7,
            attention=0.3,
        ) > 0  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_prefix_measures_arp_and_iaa_match_the_oracle(tmp_path, seed):
    paths, data, rankings = _dataset(tmp_path, seed)
    target = [0.2, 0.5, 0.3]
    names = [f"ARP-{m}[A]" for m in METAS] + ["NDKL", "rND", "rKL", "rRD", "FAIR[A]", "IAA"]
    table = _quiet(
        lambda: rankfair.evaluate(
            paths["qrels"], paths["runs"], {"A": paths["A"], "B": paths["B"]}, measures=names,
            cutoffs=[5], protected={"A": 2, "B": 1}, targets={"A": target}, step=2, epsilon=0,
        )
    )  # fmt: skip
    protected_of = {"A": 2, "B": 1}
    for r, run in enumerate(table.runs):
        for t, topic in enumerate(table.topics):
            for j, name in enumerate(table.measures):
                if not table.present[t, r, j]:
                    assert (run, topic) not in rankings
                    continue
                set_name = name[-2] if name.endswith("]") else None
                want = _expected(
                    data, rankings, run, topic, name, targets={"A": target},
                    protected=protected_of.get(set_name), step=2, epsilon=0,
                )  # fmt: skip
                _close(float(table.values[t, r, j]), want, (run, topic, name))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("complete,binarize", [(False, False), (True, False), (False, True)])
def test_expected_exposure_of_sampled_runs_matches_the_oracle(tmp_path, seed, complete, binarize):
    paths, data, rankings = _dataset(tmp_path, seed, samples=True)
    names = ["EE-L-gERR", "EE-D-RBP", "EE-R-gERR", "EE-L-RBP[A]", "EE-D-gERR[B]", "EE-R-RBP[B]"]
    table = _quiet(
        lambda: rankfair.evaluate(
            paths["qrels"], paths["runs"], {"A": paths["A"], "B": paths["B"]}, measures=names,
            cutoffs=[4], patience=0.7, stop=0.3, complete=complete, binarize=binarize,
        )
    )  # fmt: skip
    assert _check_table(
        table, data, rankings, patience=0.7, stop=0.3, complete=complete, binarize=binarize
    ) > 0  # fmt: skip


def test_the_spec_worked_example_of_expected_exposure(tmp_path):
    """docs/rankfair.md section 6: expeval's values, to its 6 printed decimals."""
    qrels = _write(tmp_path / "q", ["T 0 a 2", "T 0 b 1", "T 0 c 0", "T 0 d 1", "T 0 e 1"])
    run = _write(
        tmp_path / "r",
        ["T s1 a 1 4 x", "T s1 x 2 3 x", "T s1 b 3 2 x", "T s1 d 4 1 x"]
        + ["T s2 d 1 3 x", "T s2 b 2 2 x", "T s2 a 3 1 x"],
    )
    groups = _write(
        tmp_path / "g",
        [f"T {d} {1 if d in 'ace' else 0} {0 if d in 'ace' else 1}" for d in "abcdex"],
    )
    t = _quiet(lambda: rankfair.evaluate(qrels, [run], {"G": groups}, measures=["EE-L-gERR"]))
    names = ["EE-D-gERR", "EE-R-gERR", "EE-L-gERR", "EE-D-RBP", "EE-R-RBP", "EE-L-RBP"]
    table = _quiet(lambda: rankfair.evaluate(qrels, [run], {"G": groups}, measures=names))
    got = [round(table.value("x", "T", n), 6) for n in names]
    assert got == [0.598877, 0.608154, 0.418457, 0.910156, 0.898438, 0.368490]
    grouped = ["EE-D-gERR[G]", "EE-R-gERR[G]", "EE-L-gERR[G]"]
    table = _quiet(lambda: rankfair.evaluate(qrels, [run], {"G": groups}, measures=grouped))
    assert [round(table.value("x", "T", n), 6) for n in grouped] == [0.776611, 0.743164, 0.568848]
    assert t.measures == ("EE-L-gERR",)


# --------------------------------------------------------------------------- rows, notices
def test_a_listed_topic_the_run_lacks_has_no_row_and_a_notice():
    runs = {"r": {"T1": {"a": 2.0, "b": 1.0}}}
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1]}, "T2": {"a": [1, 0], "b": [0, 1]}}}
    with pytest.warns(FairconvWarning, match=r"no ranking for 1 of the 2 topics .*T2.*left out"):
        table = rankfair.evaluate(None, runs, groups, measures=["EXP-MinMaxRatio"])
    assert table.present[:, 0, 0].tolist() == [True, False]
    assert table.notices["topics_missing"] == {"r": 1}
    assert table.value("r", "all", "EXP-MinMaxRatio[g]") == table.value(
        "r", "T1", "EXP-MinMaxRatio[g]"
    )


def test_relevance_measures_exist_only_on_judged_topics():
    runs = {"r": {"T1": {"a": 2.0, "b": 1.0}, "T2": {"a": 2.0, "b": 1.0}}}
    groups = {"g": {t: {"a": [1, 0], "b": [0, 1]} for t in ("T1", "T2")}}
    qrels = {"T1": {"a": 1, "b": 1}}
    table = rankfair.evaluate(qrels, runs, groups, measures=["IAA", "EXP-LTwo", "EXPU-LTwo"])
    assert table.present[:, 0, :].tolist() == [[True, True, True], [False, True, False]]
    assert table.directions["EXP-LTwo[g]"] == "undirected"


@pytest.mark.parametrize(
    "name,qrels,runs,options,pattern",
    [
        (
            "EXPU-MinMaxRatio",  # group 1 has no relevant ranked doc: U_g = 0
            {"T1": {"a": 1}},
            {"r": {"T1": {"a": 2.0, "b": 1.0}}},
            {},
            r"EXPU-MinMaxRatio\[g\] is undefined \(NaN\) on 1 of its 1 topics \(T1\)",
        ),
        (
            "EXP-MaxMinRatio",  # group 1 absent from the ranking: min V = 0
            None,
            {"r": {"T1": {"a": 2.0}}},
            {},
            r"EXP-MaxMinRatio\[g\] is undefined",
        ),
        ("ARP-MinMaxRatio", None, {"r": {"T1": {"a": 2.0}}}, {}, r"one group holds every"),
        ("rND", None, {"r": {"T1": {"a": 2.0, "b": 1.0}}}, {"protected": 1}, r"shorter than"),
        ("EE-L-gERR", {"T1": {"a": 0}}, {"r": {"T1": {"a": 2.0}}}, {}, r"no target doc"),
        ("EE-D-RBP[g]", {"T1": {"a": 0}}, {"r": {"T1": {"a": 2.0}}}, {}, r"no target doc"),
        (
            "NDKL",
            None,
            {"r": {"T1": {"a": 2.0}}},
            {"epsilon": 0, "targets": {"g": [0, 1]}},
            r"epsilon is 0",
        ),  # fmt: skip
    ],
)
def test_every_undefined_case_is_nan_with_one_notice(name, qrels, runs, options, pattern):
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}}
    with pytest.warns(FairconvWarning, match=pattern) as caught:
        table = rankfair.evaluate(qrels, runs, groups, measures=[name], **options)
    assert np.isnan(table.values).all() and not np.isinf(table.values).any()
    assert sum("undefined" in str(w.message) for w in caught) == 1
    (measure,) = table.measures
    assert table.notices["undefined"] == {"r": {measure: 1}}


def test_undefined_values_give_one_notice_per_run_and_measure_naming_five_topics():
    topics = [f"T{i}" for i in range(8)]
    runs = {"r": {t: {"a": 2.0} for t in topics}}
    groups = {"g": {t: {"a": [1, 0], "b": [0, 1]} for t in topics}}
    with pytest.warns(FairconvWarning) as caught:
        rankfair.evaluate(None, runs, groups, measures=["EXP-MaxMinRatio"])
    messages = [str(w.message) for w in caught if "undefined" in str(w.message)]
    assert len(messages) == 1
    assert "on 8 of its 8 topics (T0, T1, T2, T3, T4 and 3 more)" in messages[0]


def test_unlisted_docs_are_an_error_or_dropped_with_a_notice(tmp_path):
    run = _write(tmp_path / "run", ["T1 Q0 a 1 3 r", "T1 Q0 z 2 2 r", "T1 Q0 b 3 1 r"])
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1], "c": [0, 1]}}}
    with pytest.raises(ValueError, match=r"run:2: doc 'z' of topic 'T1' is not listed by the "
                       r"memberships of attribute set 'g'.*unlisted='drop'"):  # fmt: skip
        rankfair.evaluate(None, [run], groups, measures=["EXP-MaxMinDiff"])
    with pytest.warns(FairconvWarning, match=r"run 'r' ranks 1 doc that attribute set 'g'"):
        dropped = rankfair.evaluate(
            None, [run], groups, measures=["EXP-MaxMinDiff"], unlisted="drop"
        )
    plain = rankfair.evaluate(
        None, {"r": {"T1": {"a": 3.0, "b": 1.0}}}, groups, measures=["EXP-MaxMinDiff"]
    )
    assert dropped.value("r", "T1", "EXP-MaxMinDiff[g]") == plain.value(
        "r", "T1", "EXP-MaxMinDiff[g]"
    )


def test_several_samples_per_topic(tmp_path):
    run = _write(
        tmp_path / "run", ["T1 s1 a 1 3 r", "T1 s1 b 2 2 r", "T1 s2 b 1 3 r", "T1 s2 a 2 2 r"]
    )
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}}
    qrels = {"T1": {"a": 1}}
    with pytest.raises(ValueError, match=r"run 'r' has 2 samples \(rankings\) of topic 'T1'"):
        rankfair.evaluate(qrels, [run], groups, measures=["EXP-MaxMinDiff", "EE-L-gERR"])
    with pytest.warns(
        FairconvWarning, match=r"several samples .*\(2 to 2 per topic\).*EE measures"
    ):
        table = rankfair.evaluate(qrels, [run], groups)
    on = {m: bool(table.present[0, 0, j]) for j, m in enumerate(table.measures)}
    assert on["EE-L-gERR"] and on["EE-R-gERR[g]"] and not on["EXP-MinMaxRatio[g]"]
    # one doc in both samples is no duplicate: it is ranked once per sample
    assert table.value("r", "T1", "EE-D-gERR") > 0


def test_a_ranking_whose_lines_are_not_contiguous_is_an_error(tmp_path):
    run = _write(tmp_path / "run", ["T1 s1 a 1 3 r", "T1 s2 b 1 3 r", "T1 s1 b 2 2 r"])
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}}
    with pytest.raises(ValueError, match=r"run:3: the lines of topic 'T1', sample 's1' resume "
                       r"here after other lines \(it began on line 1\)"):  # fmt: skip
        rankfair.evaluate({"T1": {"a": 1}}, [run], groups, measures=["EE-L-gERR"])


def test_order_duplicates_and_the_file_order_warning_are_per_sample(tmp_path):
    run = _write(
        tmp_path / "run", ["T1 s1 a 1 1 r", "T1 s1 b 2 2 r", "T1 s2 a 1 9 r", "T1 s2 a 2 1 r"]
    )
    groups = {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}}
    twice = r"run:4: doc 'a' appears twice in the ranked list of topic 'T1', sample 's2' "
    with pytest.warns(FairconvWarning), pytest.raises(ValueError, match=twice + r"\(first on"):
        rankfair.evaluate({"T1": {"a": 1}}, [run], groups, measures=["EE-L-gERR"])
    with pytest.warns(FairconvWarning) as caught:
        rankfair.evaluate(
            {"T1": {"a": 1}}, [run], groups, measures=["EE-L-gERR"], duplicates="first"
        )
    rising = [str(w.message) for w in caught if "scores higher" in str(w.message)]
    assert len(rising) == 1 and "line 2 " in rising[0]  # s2's first line rises from s1's last


# --------------------------------------------------------------------------- names
def test_measure_names_wildcards_and_defaults():
    runs = {"r": {"T1": {"a": 3.0, "b": 2.0}}}
    groups = {
        "g": {"T1": {"a": [1, 0], "b": [0, 1]}},
        "h": {"T1": {"a": [0.5, 0.5], "b": [0, 1]}},
    }
    table = rankfair.evaluate(None, runs, groups, measures=["rND@2"], protected=1, step=1)
    assert table.measures == ("rND@2[g]", "rND@2[h]")
    table = rankfair.evaluate({"T1": {"a": 1}}, runs, groups, measures=["EE-L-gERR", "IAA"],
                              cutoffs=[1])  # fmt: skip
    assert table.measures == ("EE-L-gERR", "EE-L-gERR@1", "IAA", "IAA@1")
    table = rankfair.evaluate({"T1": {"a": 1, "b": 1}}, runs, groups, protected={"g": 2}, step=1)
    assert table.measures == (
        "EXP-MinMaxRatio[g]", "NDKL[g]", "rND[g]", "rKL[g]", "rRD[g]", "FAIR[g]",
        "EXPU-MinMaxRatio[g]", "EXP-MinMaxRatio[h]", "NDKL[h]", "EXPU-MinMaxRatio[h]", "IAA",
        "EE-L-gERR", "EE-D-gERR", "EE-R-gERR", "EE-L-gERR[g]", "EE-D-gERR[g]", "EE-R-gERR[g]",
        "EE-L-gERR[h]", "EE-D-gERR[h]", "EE-R-gERR[h]",
    )  # fmt: skip
    assert table.directions["NDKL[g]"] == "lower"
    assert table.directions["EE-R-gERR[g]"] == "higher"
    assert table.directions["EXP-MinMaxRatio[h]"] == "higher"
    assert rankfair.measure_names(["g"])[5] == "EXP-LTwo[g]"


# --------------------------------------------------------------------------- properties
@pytest.mark.parametrize("seed", range(3))
def test_relabelling_groups_changes_nothing_but_the_protected_groups_measures(tmp_path, seed):
    paths, data, _ = _dataset(tmp_path, seed)
    perm = [2, 0, 1]
    lines = paths["A"].read_text().splitlines()
    moved = []
    for line in lines:
        t, d, *v = line.split()
        moved.append(f"{t} {d} " + " ".join(v[k] for k in perm))
    relabelled = _write(tmp_path / "A2.gmemb", moved)
    names = [f"{s}-{m}" for s in ("EXP", "ATT", "ERBP", "EXPU", "ARP") for m in METAS]
    names += ["NDKL", "rND", "FAIR"]
    first = _quiet(lambda: rankfair.evaluate(
        paths["qrels"], paths["runs"], {"A": paths["A"]}, measures=names, protected=1, step=2
    ))  # fmt: skip
    second = _quiet(lambda: rankfair.evaluate(
        paths["qrels"], paths["runs"], {"A": relabelled}, measures=names,
        protected=perm.index(0) + 1, step=2,
    ))  # fmt: skip
    np.testing.assert_allclose(first.values, second.values, rtol=1e-12, atol=1e-15)
    assert (first.present == second.present).all()


def test_ranking_the_protected_group_first_or_last_bounds_rnd_and_rkl():
    pool = {f"d{i}": [1, 0] if i < 12 else [0, 1] for i in range(40)}
    first = {f"d{i}": 40.0 - i for i in range(40)}
    last = {f"d{i}": float(i) for i in range(40)}
    mixed = {f"d{i}": float((i * 7) % 40) for i in range(40)}
    runs = {"first": {"T": first}, "last": {"T": last}, "mixed": {"T": mixed}}
    table = rankfair.evaluate(
        None, runs, {"g": {"T": pool}}, measures=["rND", "rKL"], protected=1, step=5
    )
    best = table.values[0, [0, 1], :].max(axis=0)
    assert np.allclose(best, 1.0)
    assert (table.values[0, 2, :] < best).all()


# --------------------------------------------------------------------------- directions
def _pack_table(measures):
    from fairconv.datasets import rankfair_pack

    p = rankfair_pack()
    return rankfair.evaluate(p.qrels, p.runs[:3], p.memberships, measures=measures)


def test_agree_refuses_an_undirected_ltwo_naming_it():
    from fairconv import agreement

    table = _pack_table(["EXP-LTwo[gender]", "EXP-MinMaxRatio[gender]", "NDKL[gender]"])
    with pytest.raises(ValueError, match=r"'EXP-LTwo\[gender\]', which is undirected"):
        agreement.agree(table, ["EXP-LTwo[gender]", "NDKL[gender]"])
    result = agreement.agree(table, ["EXP-MinMaxRatio[gender]", "NDKL[gender]"])
    assert result.pairs[0]["tau_b"] == 1.0  # a higher and a lower-is-better measure agree


def test_compare_and_report_mark_no_better_run_for_an_undirected_ltwo():
    from fairconv import stats

    table = _pack_table(["EXP-LTwo[gender]", "EXP-MinMaxRatio[gender]"])
    assert stats.compare(table, "EXP-LTwo[gender]", test="paired-t").direction == "undirected"
    report = stats.report(table, ["EXP-LTwo[gender]", "EXP-MinMaxRatio[gender]"], test="paired-t")
    assert report.directions == ("undirected", "higher")
    assert not report.best[:, 0].any() and report.best[:, 1].any()
    assert all(marks[0] == "" for marks in report.marks)


def test_rrd_with_a_protected_majority_gives_values_with_a_notice():
    pool = {f"d{i}": [1, 0] if i < 30 else [0, 1] for i in range(40)}
    runs = {"r": {"T": {f"d{i}": float(i) for i in range(40)}}}
    with pytest.warns(FairconvWarning, match=r"majority of the population on 1 of its 1 topics"):
        table = rankfair.evaluate(None, runs, {"g": {"T": pool}}, measures=["rRD"], protected=1)
    assert np.isfinite(table.values).all()


@pytest.mark.parametrize(
    "name,groups,runs,options,pattern",
    [
        (  # the population holds one group: P = N
            "rND",
            {"g": {"T1": {"a": [1, 0], "b": [1, 0]}}},
            {"r": {"T1": {"a": 2.0, "b": 1.0}}},
            {"protected": 1, "step": 1},
            r"none or all of the population",
        ),
        (  # every ranked doc dropped: an empty ranking
            "FAIR",
            {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}},
            {"r": {"T1": {"z": 2.0}}},
            {"protected": 1, "unlisted": "drop"},
            r"FAIR\[g\] is undefined .*the ranking is empty",
        ),
        (  # every group's exposure is 0 in an empty ranking: max V = 0
            "ATT-MinMaxRatio",
            {"g": {"T1": {"a": [1, 0], "b": [0, 1]}}},
            {"r": {"T1": {"z": 2.0}}},
            {"unlisted": "drop"},
            r"every group's value is 0",
        ),
    ],
)
def test_more_undefined_cases_are_nan_with_a_notice(name, groups, runs, options, pattern):
    with pytest.warns(FairconvWarning) as caught:
        table = rankfair.evaluate(None, runs, groups, measures=[name], **options)
    assert np.isnan(table.values).all()
    assert any(re.search(pattern, str(w.message)) for w in caught), [str(w.message) for w in caught]


def test_a_run_equal_to_its_target_has_zero_loss():
    qrels = {"T": {"a": 3, "b": 2, "c": 1, "d": 0}}
    runs = {"r": {"T": {"a": 4.0, "b": 3.0, "c": 2.0}}}
    groups = {"g": {"T": {d: [1, 0] if d in "ac" else [0, 1] for d in "abcd"}}}
    names = ["EE-L-gERR", "EE-L-RBP", "EE-L-gERR[g]", "EE-L-RBP[g]"]
    table = rankfair.evaluate(qrels, runs, groups, measures=names, patience=0.7, stop=0.2)
    assert np.abs(table.values).max() < 1e-15


def test_equal_groups_are_at_their_fair_values():
    groups = {"g": {"T": {d: [0.5, 0.5] for d in "abcd"}}}
    runs = {"r": {"T": {"a": 4.0, "b": 3.0, "c": 2.0}}}
    names = [f"{s}-{m}" for s in ("EXP", "ATT", "ERBE", "ERBP") for m in METAS]
    table = rankfair.evaluate(None, runs, groups, measures=names)
    fair = {"MinMaxRatio": 1.0, "MaxMinRatio": 1.0, "MaxMinDiff": 0.0, "MaxAbsDiff": 0.0,
            "MeanAbsDev": 0.0, "Variance": 0.0}  # fmt: skip
    for j, name in enumerate(table.measures):
        meta = name.split("[")[0].split("-")[1]
        if meta in fair:
            assert table.values[0, 0, j] == fair[meta], name
