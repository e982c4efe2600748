"""GFR: the FairWeb-1 pilot values, a loop oracle, properties, edge cases, bad input.

Also the notices of topic coverage (a run that matches no topic is an error; runs
without lists for some topics, and topics without a fairness component, are notices)
and weights at the edge of float64."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import types
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracles
from fairconv import AttributeSet, _core, gfr, ragfair, rankings
from fairconv._validation import FairconvWarning
from fairconv.cli import main
from fairconv.datasets import PILOT_ATTRIBUTES, fairweb1_pilot, path
from fairconv.io import AttributeData, load_attribute, read_gmemb, read_qrels, read_run, write_nev

PILOT = path("fairweb1-pilot")
EXPECTED = sorted((PILOT / "expected").glob("*.GFRnev"))
LINE = re.compile(r"^(\S+) ([A-Za-z-]+)(?:@(\d{4}))?=\s+(\S+)$")


@pytest.fixture(scope="module")
def pilot():
    p = fairweb1_pilot()
    table = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10, 20, 100])
    return p.qrels, p.runs, p.attributes, table


def test_pilot_pack_has_all_expected_files():
    assert len(EXPECTED) == 18  # 3 runs x 6 attribute sets


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.name)
def test_every_pilot_value_to_four_decimals(pilot, expected):
    """NTCIR-17 FairWeb-1 pilot pack: the organisers' GFRcompute output (4 decimals)."""
    qrels, runs, attributes, table = pilot
    run_file, set_name = expected.name.rsplit(".", 2)[:2]
    r = [p.source.endswith(run_file) for p in runs].index(True)
    checked = 0
    for line in expected.read_text().splitlines():
        match = LINE.match(line)
        if not match:
            assert " # syslen=" in line
            continue
        topic, base, cutoff, printed = match.groups()
        suffix = "" if cutoff is None else f"@{int(cutoff)}"
        name = f"{base}{suffix}[{set_name}]" if base.startswith("GF") else f"{base}{suffix}"
        got = table.values[table.topics.index(topic), r, table.measures.index(name)]
        assert f"{got:.4f}" == printed, (topic, name, got)
        checked += 1
    assert checked == 20 * len(
        attributes[[a.attribute.name for a in attributes].index(set_name)].memberships.topics
    )


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.name)
def test_nev_output_is_byte_identical(pilot, expected):
    qrels, runs, attributes, table = pilot
    run_file, set_name = expected.name.rsplit(".", 2)[:2]
    r = [p.source.endswith(run_file) for p in runs].index(True)
    m = [a.attribute.name for a in attributes].index(set_name)
    out = io.StringIO()
    lists = rankings.prepare(qrels, runs, attributes)
    write_nev(table, qrels, attributes, out, lengths=lists.lengths, run_index=r, attribute_index=m)
    assert out.getvalue() == expected.read_text()


def test_nev_takes_the_list_lengths_as_plain_values_and_writes_by_the_output_rule(pilot, tmp_path):
    qrels, runs, attributes, table = pilot
    lists = rankings.prepare(qrels, runs, attributes)
    out = tmp_path / "all.GFRnev"
    write_nev(table, qrels, attributes, out, lengths=lists.lengths)
    stream = io.StringIO()
    write_nev(table, qrels, attributes, stream, lengths=lists.lengths.tolist())
    assert out.read_text() == stream.getvalue()
    with pytest.raises(FileExistsError, match="'out' parameter of io.write_nev"):
        write_nev(table, qrels, attributes, out, lengths=lists.lengths)
    write_nev(table, qrels, attributes, out, lengths=lists.lengths, overwrite=True)
    with pytest.raises(ValueError, match=r"'lengths' parameter of io.write_nev must give a length"):
        write_nev(table, qrels, attributes, stream, lengths=lists.lengths[:, :1])
    with pytest.raises(ValueError, match=r"'lengths' parameter of io.write_nev must hold"):
        write_nev(table, qrels, attributes, stream, lengths=-lists.lengths)


def test_cli_nev_out_dir_reproduces_the_expected_files(tmp_path):
    args = [
        "gfr",
        "--qrels",
        str(PILOT / "fairweb1pilot.qrels"),
        "--format",
        "nev",
        "--out-dir",
        str(tmp_path),
    ]
    for name, scale in PILOT_ATTRIBUTES:
        args += [
            "--attribute",
            name,
            str(PILOT / f"fairweb1pilot.{name}.gmemb"),
            str(PILOT / f"{name}.golddistr"),
            scale,
        ]
    assert main(args + [str(p) for p in sorted((PILOT / "runs").iterdir())]) == 0
    for expected in EXPECTED:
        assert (tmp_path / expected.name).read_text() == expected.read_text()


def test_cli_tsv_values_and_all_rows(capsys):
    args = [
        "gfr",
        "--qrels",
        str(PILOT / "fairweb1pilot.qrels"),
        "--cutoffs",
        "10",
        "--attribute",
        "M-ORIGIN",
        str(PILOT / "fairweb1pilot.M-ORIGIN.gmemb"),
        str(PILOT / "M-ORIGIN.golddistr"),
        "nominal",
        str(PILOT / "runs" / "run.bm25-depThre6"),
    ]
    assert main(args) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert rows[0] == ["run", "topic", "measure", "value"]
    cell = {(r[1], r[2]): float(r[3]) for r in rows[1:]}
    assert f"{cell[('P002', 'GF-JSD@10[M-ORIGIN]')]:.4f}" == "0.8184"  # expected/ file
    assert f"{cell[('P002', 'ERR')]:.4f}" == "0.3401"
    assert ("P001", "GF-JSD[M-ORIGIN]") not in cell  # the set covers P002 only
    assert cell[("all", "GF-JSD[M-ORIGIN]")] == cell[("P002", "GF-JSD[M-ORIGIN]")]
    errs = [cell[(t, "ERR")] for t in ("P001", "P002", "P003", "P004")]
    assert cell[("all", "ERR")] == pytest.approx(np.mean(errs), abs=1e-15)
    # GFR of the movie topic: mean of ERR and GF-JSD[M-ORIGIN] (the only covering set)
    assert cell[("P002", "GFR")] == pytest.approx(
        (cell[("P002", "ERR")] + cell[("P002", "GF-JSD[M-ORIGIN]")]) / 2, abs=1e-15
    )


def test_gfr_of_a_movie_topic_is_the_mean_of_three(pilot):
    """measures.md: GFR-ERR+RNOD+JSD = (ERR + GF-RNOD[RATINGS] + GF-JSD[ORIGIN]) / 3."""
    _, _, _, table = pilot
    for run in table.runs:
        for k in ("", "@10"):
            want = np.mean(
                [
                    table.value(run, "P002", f"ERR{k}"),
                    table.value(run, "P002", f"GF-RNOD{k}[M-RATINGS]"),
                    table.value(run, "P002", f"GF-JSD{k}[M-ORIGIN]"),
                ]
            )
            assert table.value(run, "P002", f"GFR{k}") == pytest.approx(want, abs=1e-15)


# --------------------------------------------------------------------------- oracle
def _random_case(rng, tmp_path, n_topics=6, n_runs=3):
    """Write random qrels, gmemb, targets and runs; return them with plain dicts."""
    sets = []
    for m in range(rng.integers(1, 4)):
        g = int(rng.integers(2, 9))
        target = rng.dirichlet(np.ones(g))
        target[rng.random(g) < 0.3] = 0  # targets with zero entries
        if target.sum() == 0:
            target[0] = 1
        target /= target.sum()
        scale = ["nominal", "ordinal"][m % 2]
        sets.append(AttributeSet(f"S{m}", target, scale))
    topics = [f"T{i:02d}" for i in range(n_topics)]
    levels, members = {}, [dict() for _ in sets]
    q_lines, g_lines = [], [[] for _ in sets]
    covered = [
        sorted(rng.choice(topics, size=int(rng.integers(1, n_topics + 1)), replace=False))
        for _ in sets
    ]
    for t in topics[:-1]:  # the last topic is not judged at all
        for d in range(int(rng.integers(0, 25))):
            doc = f"d{d}"
            level = int(rng.integers(0, 3)) if t != topics[0] else 0  # T00: no relevant
            levels[(t, doc)] = level
            q_lines.append(f"{t} {doc} L{level}")
            for m, a in enumerate(sets):
                if t in covered[m] and rng.random() < 0.8:  # some judged docs unlisted
                    vec = (
                        rng.dirichlet(np.ones(a.n_groups))
                        if rng.random() < 0.5
                        else np.eye(a.n_groups)[rng.integers(a.n_groups)]
                    )
                    members[m][(t, doc)] = vec
                    g_lines[m].append(f"{t} {doc} " + " ".join(repr(float(x)) for x in vec))
    for m, t_list in enumerate(covered):  # a covered topic without listed docs
        for t in t_list:
            if not any(k[0] == t for k in members[m]):
                vec = np.full(sets[m].n_groups, 1 / sets[m].n_groups)
                members[m][(t, "zz")] = vec
                g_lines[m].append(f"{t} zz " + " ".join(repr(float(x)) for x in vec))
    (tmp_path / "q").write_text("\n".join(q_lines) + "\n")
    attrs = []
    for m, a in enumerate(sets):
        (tmp_path / f"g{m}").write_text("\n".join(g_lines[m]) + "\n")
        attrs.append(AttributeData(a, read_gmemb(tmp_path / f"g{m}")))
    runs, ranked = [], []
    for r in range(n_runs):
        lines, lists = [], {}
        for t in topics:
            if rng.random() < 0.15:
                continue  # the run lacks this topic
            n = int(rng.integers(1, 40))
            docs = [f"d{i}" for i in rng.permutation(40)[:n]]  # some unjudged
            lists[t] = docs
            lines += [f"{t} Q0 {d} {i + 1} {100 - i} run{r}" for i, d in enumerate(docs)]
        lines.append(f"X99 Q0 d1 1 1.0 run{r}")  # a topic no qrels or gmemb knows
        (tmp_path / f"r{r}").write_text("\n".join(lines) + "\n")
        runs.append(read_run(tmp_path / f"r{r}"))
        ranked.append(lists)
    qrels = read_qrels(tmp_path / "q")
    return qrels, runs, attrs, sets, levels, members, covered, ranked, topics


@pytest.mark.parametrize("seed", range(12))
def test_evaluate_agrees_with_loop_oracle(tmp_path, seed):
    rng = np.random.default_rng(seed)
    qrels, runs, attrs, sets, levels, members, covered, ranked, topics = _random_case(rng, tmp_path)
    gains = (1, 3) if seed % 2 else (1.0, 2.5)
    mode = "listed" if seed % 3 == 0 else "uniform"
    judged_nonrelevant = {k for k, v in levels.items() if v == 0}
    listed_other = any(
        k in judged_nonrelevant and np.abs(np.asarray(v) - 1 / len(v)).max() > 1e-9
        for m in members
        for k, v in m.items()
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FairconvWarning)
        table = gfr.evaluate(
            qrels, runs, attrs, cutoffs=[1, 5, 10, 100], gains=gains, nonrelevant_membership=mode
        )
    # the default says once per membership file that it differs from the organisers' tool
    said = [w for w in caught if "judged-nonrelevant" in str(w.message)]
    assert bool(said) == (mode == "uniform" and listed_other)
    known = set(qrels.topics).union(*covered)  # qrels topics and gmemb topics
    assert table.topics == tuple(sorted(known))
    for r in range(len(runs)):
        for t in table.topics:
            docs = ranked[r].get(t, [])
            lv = {d: levels.get((t, d), 0) for d in docs}
            mb = [
                {d: members[m][(t, d)] for d in docs if (t, d) in members[m]}
                for m in range(len(sets))
            ]
            for k in (None, 1, 5, 10, 100):
                s = "" if k is None else f"@{k}"
                for d in ("JSD", "NMD", "RNOD"):
                    err, irbu, gf = oracles.gfr_topic(
                        docs,
                        lv,
                        mb,
                        [a.target for a in sets],
                        [d] * len(sets),
                        gains=gains,
                        cutoff=k,
                        listed_nonrelevant={
                            d for d in docs if (t, d) in judged_nonrelevant and mode == "listed"
                        },
                    )
                    ti = table.topics.index(t)
                    assert table.values[ti, r, table.measures.index(f"ERR{s}")] == pytest.approx(
                        err, abs=1e-12
                    )
                    assert table.values[ti, r, table.measures.index(f"iRBU{s}")] == pytest.approx(
                        irbu, abs=1e-12
                    )
                    for m, a in enumerate(sets):
                        col = table.measures.index(f"GF-{d}{s}[{a.name}]")
                        assert table.present[ti, r, col] == (t in covered[m])
                        if t in covered[m]:
                            assert table.values[ti, r, col] == pytest.approx(gf[m], abs=1e-12)


def test_array_api_agrees_with_loop_oracle():
    rng = np.random.default_rng(5)
    n_t, n_r, depth = 7, 3, 30
    sets = [
        AttributeSet("A", rng.dirichlet(np.ones(3)), "nominal"),
        AttributeSet("B", [0.5, 0, 0.25, 0.25, 0], "ordinal"),
    ]
    levels = rng.integers(0, 3, size=(n_t, n_r, depth))
    lengths = rng.integers(0, depth + 1, size=(n_t, n_r))
    memb = [rng.dirichlet(np.ones(a.n_groups), size=(n_t, n_r, depth)) for a in sets]
    memb[1][0, 0, 0] = np.nan  # a relevant doc without membership
    scores = gfr.gfr(levels, memb, sets, lengths=lengths, cutoffs=[3, 10])
    for t in range(n_t):
        for r in range(n_r):
            docs = list(range(lengths[t, r]))
            lv = {i: int(levels[t, r, i]) for i in docs}
            mb = [{i: x[t, r, i] for i in docs if not np.isnan(x[t, r, i]).any()} for x in memb]
            for k in (None, 3, 10):
                s = "" if k is None else f"@{k}"
                err, irbu, gf = oracles.gfr_topic(
                    docs, lv, mb, [a.target for a in sets], [a.divergence for a in sets], cutoff=k
                )
                assert scores[f"ERR{s}"][t, r] == pytest.approx(err, abs=1e-12)
                assert scores[f"iRBU{s}"][t, r] == pytest.approx(irbu, abs=1e-12)
                gfr_value = (err + gf[0] + gf[1]) / 3
                assert scores[f"GFR{s}"][t, r] == pytest.approx(gfr_value, abs=1e-12)


# --------------------------------------------------------------------------- properties
@st.composite
def ranked_lists(draw):
    depth = draw(st.integers(1, 12))
    g = draw(st.integers(2, 6))
    levels = np.array(draw(st.lists(st.integers(0, 2), min_size=depth, max_size=depth)))
    raw = (
        np.array(
            draw(
                st.lists(
                    st.lists(st.floats(0, 1), min_size=g, max_size=g),
                    min_size=depth,
                    max_size=depth,
                )
            )
        )
        + 1e-3
    )
    return levels, raw / raw.sum(axis=1, keepdims=True), g


@given(ranked_lists())
def test_scores_in_unit_interval_and_grow_with_depth(case):
    levels, memb, g = case
    a = AttributeSet("A", np.full(g, 1 / g), "ordinal")
    s = gfr.gfr(levels[None], [memb[None]], [a], cutoffs=[1, 2, 5])
    for name, v in s.items():
        assert 0.0 <= float(v[0]) <= 1.0 + 1e-12, name
    for base in ("ERR", "iRBU", "GF-JSD[A]", "GF-NMD[A]", "GF-RNOD[A]", "GFR"):
        at = [
            float(s[base.replace("[", f"@{k}[") if "[" in base else f"{base}@{k}"][0])
            for k in (1, 2, 5)
        ] + [float(s[base][0])]
        assert all(x <= y + 1e-15 for x, y in zip(at, at[1:], strict=False)), (base, at)


@given(ranked_lists())
def test_appending_a_nonrelevant_doc_changes_nothing(case):
    levels, memb, g = case
    a = AttributeSet("A", np.full(g, 1 / g), "nominal")
    before = gfr.gfr(levels[None], [memb[None]], [a], cutoffs=[])
    after = gfr.gfr(
        np.append(levels, 0)[None], [np.vstack([memb, memb[:1]])[None]], [a], cutoffs=[]
    )
    for name in before:
        assert float(after[name][0]) == pytest.approx(float(before[name][0]), abs=1e-15)


@given(ranked_lists(), st.sampled_from(["nominal", "ordinal"]))
def test_batched_call_equals_one_list_at_a_time(case, kind):
    """The same bits: no sum's order depends on the batch around a list."""
    levels, memb, g = case
    a = AttributeSet("A", np.full(g, 1 / g), kind)
    batch = gfr.gfr(np.stack([levels, levels[::-1]]), [np.stack([memb, memb[::-1]])], [a])
    for i, (lv, mb) in enumerate(((levels, memb), (levels[::-1], memb[::-1]))):
        single = gfr.gfr(lv, [mb], [a])
        for name in batch:
            assert float(batch[name][i]) == float(single[name])


def test_stop_probabilities_of_fairweb():
    """measures.md section 2: gains L1=1, L2=3 give satisfaction 1/4 and 3/4."""
    assert gfr.stop_probabilities((1, 3)).tolist() == [0.0, 0.25, 0.75]


def test_slides_decay_example_is_nine_sixteenths():
    """004 slides: Decay of an L2 doc after an L2... the arithmetic gives 9/16 (not 8/16)."""
    # ranks: L1 (1/4), then L2 (3/4): decay_2 = 3/4 * (1 - 1/4) = 9/16
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    s = gfr.gfr([1, 2], [np.full((2, 2), 0.5)], [a], cutoffs=[1])
    assert float(s["ERR"]) - float(s["ERR@1"]) == pytest.approx(9 / 16 / 2, abs=1e-15)


# --------------------------------------------------------------------------- edge cases
def _files(tmp_path, qrels, gmemb, run):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "g").write_text(gmemb)
    (tmp_path / "r").write_text(run)
    return tmp_path / "q", tmp_path / "g", tmp_path / "r"


def _eval(tmp_path, qrels, gmemb, run, **kw):
    q, g, r = _files(tmp_path, qrels, gmemb, run)
    data = load_attribute("A", g, [0.5, 0.5], "nominal")
    return gfr.evaluate(read_qrels(q), [read_run(r)], [data], **kw)


def test_topic_without_relevant_doc_scores_zero(tmp_path):
    with pytest.warns(FairconvWarning, match="non-uniform vector for a judged-nonrelevant doc"):
        t = _eval(
            tmp_path, "T1 a L0\nT2 b L2\n", "T1 a 1 0\nT2 b 1 0\n", "T1 Q0 a 1 1 x\nT2 Q0 b 1 1 x\n"
        )
    assert t.value("x", "T1", "ERR") == 0 and t.value("x", "T1", "GF-JSD[A]") == 0
    assert t.value("x", "T2", "ERR") == 0.75


def test_run_without_a_covered_topic_scores_zero_there(tmp_path):
    with pytest.warns(FairconvWarning, match="run 'x' has no ranked list for 1 of the 2 topics"):
        t = _eval(tmp_path, "T1 a L2\nT2 b L2\n", "T1 a 1 0\nT2 b 1 0\n", "T2 Q0 b 1 1 x\n")
    assert t.value("x", "T1", "ERR") == 0 and t.value("x", "T1", "GFR") == 0


def test_a_topic_only_the_gmemb_knows_has_no_judged_doc(tmp_path):
    """Its docs are unjudged, even those whose ids a judged topic has (joined by topic)."""
    gmemb = "T1 a 1 0\nT0 a 0 1\nT2 a 0 1\n"
    run = "T0 Q0 a 1 1 x\nT1 Q0 a 1 1 x\nT2 Q0 a 1 1 x\n"
    t = _eval(tmp_path, "T1 a L2\n", gmemb, run)
    assert t.topics == ("T0", "T1", "T2")
    assert t.value("x", "T1", "ERR") == 0.75
    assert t.value("x", "T0", "ERR") == 0 and t.value("x", "T2", "ERR") == 0
    assert t.value("x", "T0", "GF-JSD[A]") == 0 and t.value("x", "T2", "GF-JSD[A]") == 0


def test_run_topic_unknown_to_qrels_and_gmemb_is_ignored(tmp_path):
    t = _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 1 x\nT9 Q0 a 1 1 x\n")
    assert t.topics == ("T1",)


def test_duplicate_doc_is_an_error_naming_file_line_topic_and_doc(tmp_path):
    with pytest.raises(
        ValueError,
        match=r"r:3: doc 'a' appears twice in the ranked list "
        r"of topic 'T1' \(first on line 1\)",
    ):
        _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 3 x\nT1 Q0 b 2 2 x\nT1 Q0 a 3 1 x\n")


def test_keep_first_duplicate(tmp_path):
    t = _eval(
        tmp_path,
        "T1 a L2\nT1 b L1\n",
        "T1 a 1 0\nT1 b 0 1\n",
        "T1 Q0 b 1 3 x\nT1 Q0 a 2 2 x\nT1 Q0 b 3 1 x\n",
        duplicates="first",
    )
    want = oracles.gfr_topic(
        ["b", "a"], {"a": 2, "b": 1}, [{"a": [1, 0], "b": [0, 1]}], [[0.5, 0.5]], ["JSD"]
    )
    assert t.value("x", "T1", "ERR") == pytest.approx(want[0], abs=1e-15)
    assert t.value("x", "T1", "GF-JSD[A]") == pytest.approx(want[2][0], abs=1e-15)


def test_score_order_is_trec_eval_order(tmp_path):
    run = "T1 Q0 a 1 1.0 x\nT1 Q0 b 2 2.0 x\nT1 Q0 c 3 2.0 x\n"  # by score: c, b, a
    t = _eval(tmp_path, "T1 a L0\nT1 b L0\nT1 c L2\n", "T1 c 1 0\n", run, order="score")
    assert t.value("x", "T1", "ERR") == 0.75
    with pytest.warns(FairconvWarning, match=r"line 2 of topic 'T1' scores higher .*order='score'"):
        t = _eval(tmp_path, "T1 a L0\nT1 b L0\nT1 c L2\n", "T1 c 1 0\n", run)
    assert t.value("x", "T1", "ERR") == pytest.approx(0.75 / 3)


def test_scores_that_never_rise_in_file_order_say_nothing(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", FairconvWarning)
        t = _eval(
            tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 2.0 x\nT1 Q0 b 2 2.0 x\nT2 Q0 c 1 9 x\n"
        )
    assert t.value("x", "T1", "ERR") == 0.75  # the tie keeps file order: a (L2) first


def test_cli_names_a_rising_score_on_one_line_of_stderr(tmp_path):
    (tmp_path / "q").write_text("T1 a L2\n")
    (tmp_path / "g").write_text("T1 a 1 0\n")
    (tmp_path / "r").write_text("T1 Q0 a 1 1.0 x\nT1 Q0 b 2 2.0 x\n")
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "gfr", "--qrels", tmp_path / "q", "--attribute", "A",
         tmp_path / "g", "0.5,0.5", "nominal", tmp_path / "r"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0
    assert proc.stderr.count("\n") == 1
    assert "fairconv gfr: warning:" in proc.stderr and "--order score" in proc.stderr


def test_list_shorter_than_cutoff_keeps_last_value(tmp_path):
    t = _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 1 x\n", cutoffs=[1, 50])
    assert t.value("x", "T1", "ERR@50") == t.value("x", "T1", "ERR@1") == t.value("x", "T1", "ERR")


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(gains=(3, 1)), "non-decreasing"),
        (dict(gains=(0, 3)), "positive"),
        (dict(cutoffs=[0]), r"'cutoffs' parameter of gfr.evaluate must be an integer >= 1"),
        (dict(cutoffs="10"), r"'cutoffs' parameter of gfr.evaluate must be a sequence"),
        (dict(phi=1.5), r"'phi' parameter of gfr.evaluate must be a number in \(0, 1\)"),
        (dict(order="rank"), "'order' parameter"),
        (dict(weights=[0.5, 0.6]), "sum to 1"),
        (dict(weights=[0.5]), "hold 2 weights"),
    ],
)
def test_bad_options(tmp_path, kw, message):
    with pytest.raises(ValueError, match=message):
        _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 1 x\n", **kw)


def test_array_api_bad_input():
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    with pytest.raises(ValueError, match="lie in 0..2"):
        gfr.gfr([3], [[[1, 0]]], [a])
    with pytest.raises(ValueError, match="integer array"):
        gfr.gfr([1.5], [[[1, 0]]], [a])
    with pytest.raises(ValueError, match=r"have shape \(1, 2\)"):
        gfr.gfr([1], [[[1, 0, 0]]], [a])
    with pytest.raises(ValueError, match="sum to 1"):
        gfr.gfr([1], [[[1, 1]]], [a])
    with pytest.raises(ValueError, match="one AttributeSet per membership"):
        gfr.gfr([1], [], [a])


def test_cli_bad_input_is_one_line_on_stderr(tmp_path):
    import subprocess
    import sys

    q, g, r = _files(tmp_path, "T1 a L2\n", "T1 a 0.5 0.4\n", "T1 Q0 a 1 1 x\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "fairconv",
            "gfr",
            "--qrels",
            str(q),
            "--attribute",
            "A",
            str(g),
            "0.5,0.5",
            "nominal",
            str(r),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"{g}:1: group probabilities must" in proc.stderr


def test_cli_missing_file(tmp_path, capsys):
    assert main(["gfr", "--qrels", str(tmp_path / "none"), str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "none" in err and "No such file" in err


def test_records_and_frame(pilot):
    _, _, _, table = pilot
    d = table.to_dict()
    assert f"{d['Anserini-bm25']['P002']['GF-JSD[M-ORIGIN]']:.4f}" == "0.8546"
    assert d["Anserini-bm25"]["all"]["ERR"] == pytest.approx(
        np.mean([d["Anserini-bm25"][t]["ERR"] for t in ("P001", "P002", "P003", "P004")])
    )
    frame = table.to_frame()  # the pandas extra is in the test install
    assert list(frame.columns) == ["run", "topic", "measure", "value"]
    assert len(frame) == int(table.present.sum())
    row = frame[
        (frame.topic == "P002")
        & (frame.measure == "GF-JSD[M-ORIGIN]")
        & (frame.run == "Anserini-bm25")
    ]
    assert f"{row.value.iloc[0]:.4f}" == "0.8546"


def test_frame_without_pandas_says_how_to_install(pilot, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'fairconv\[pandas\]'"):
        pilot[3].to_frame()


def test_lines_with_compensating_column_counts_are_caught(tmp_path):
    """A short line followed by a long one keeps the token count right; the reader
    still names the short line instead of shifting the columns."""
    with pytest.raises(ValueError, match=r"r:1: expected 6 columns in this run line, found 5"):
        _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 x\nT1 Q0 b 2 2 x y\n")


def test_tab_separated_files_are_read(tmp_path):
    t = _eval(tmp_path, "T1\ta\tL2\n", "T1\ta\t1\t0\n", "T1\tQ0\ta\t1\t1\tx\n")
    assert t.value("x", "T1", "ERR") == 0.75


@pytest.mark.parametrize("vector", ["1 0", "0.5 0.4999999", "0.4999999 0.5000001"])
def test_a_nonuniform_vector_of_a_nonrelevant_doc_is_told(tmp_path, vector):
    """Entries above or below 1/G by more than 1e-9 both count as non-uniform."""
    with pytest.warns(FairconvWarning, match="non-uniform vector for a judged-nonrelevant doc"):
        _eval(tmp_path, "T1 a L0\nT1 b L1\n", f"T1 a {vector}\nT1 b 1 0\n", "T1 Q0 a 1 1 x\n")


def test_uniform_vectors_of_nonrelevant_docs_are_not_told(tmp_path):
    t = _eval(tmp_path, "T1 a L0\nT1 b L1\n", "T1 a 0.5 0.5\nT1 b 1 0\n", "T1 Q0 a 1 1 x\n")
    assert t.value("x", "T1", "ERR") == 0


@pytest.mark.parametrize("levels", [[[0, 0]], [[0, 2]], np.zeros((1, 0), dtype=int)])
def test_gf_is_float_when_no_rank_adds_to_it(levels):
    """GF is a float array even where no rank has a decay (nonrelevant docs, no docs)."""
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    k = len(levels[0])
    memb = np.tile([1.0, 0.0], (1, k, 1)).reshape(1, k, 2)
    out = gfr.gfr(levels, [memb], [a], cutoffs=[1])
    for name, value in out.items():
        assert value.dtype == np.float64, name
    assert out["GF-JSD@1[A]"].tolist() == [0.0]


# --------------------------------------------------------------------------- audit fixes
A2 = AttributeSet("A", [0.5, 0.5], "nominal")
ONE = ([[2, 0]], [np.array([[[1.0, 0.0], [0.5, 0.5]]])])  # a relevant doc, a nonrelevant one


@pytest.mark.parametrize(
    "levels, membership, lengths",
    [
        ([[2, 0]], [[1.0, 0.0], [0.0, 0.0]], None),  # a nonrelevant doc's row: not used
        ([[2, 0]], [[1.0, 0.0], [np.nan, 0.0]], None),
        ([[2, 0]], [[1.0, 0.0], [0.0, 0.0]], [2]),
        ([[2, 0, 5]], [[1.0, 0.0], [0.5, 0.5], [0.5, 0.5]], [2]),  # level 5 beyond the length
        ([[2, 0, -1]], [[1.0, 0.0], [0.5, 0.5], [1.0, 1.0]], [2]),
        ([[2, 0, 2]], [[1.0, 0.0], [0.5, 0.5], [np.inf, 0.0]], [2]),
    ],
)
def test_padding_and_nonrelevant_rows_are_neither_checked_nor_used(levels, membership, lengths):
    """measures.md 2: a nonrelevant doc counts as uniform whatever its vector, and ranks
    beyond a list's length are not in it (the docstring: positions at or beyond
    ``lengths`` are ignored, rows of nonrelevant docs are not used)."""
    want = gfr.gfr(*ONE, [A2], cutoffs=[1, 5])
    got = gfr.gfr(levels, [np.array([membership])], [A2], lengths=lengths, cutoffs=[1, 5])
    assert got.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)


def test_the_audit_examples_score_and_relevant_rows_are_still_checked():
    gfr.gfr([[2, 0]], [np.array([[[1.0, 0.0], [0.0, 0.0]]])], [A2], lengths=[1])
    gfr.gfr([[2, 5]], [np.full((1, 2, 2), 0.5)], [A2], lengths=[1])
    with pytest.raises(ValueError, match=r"'memberships\[0\]' parameter of gfr.gfr must sum to 1"):
        gfr.gfr([[2, 0]], [np.array([[[1.0, 1.0], [0.0, 0.0]]])], [A2])  # a relevant row
    with pytest.raises(ValueError, match=r"'levels' parameter of gfr.gfr must lie in 0\.\.2"):
        gfr.gfr([[2, 5]], [np.full((1, 2, 2), 0.5)], [A2], lengths=[2])


@pytest.mark.parametrize(
    "kw, error, message",
    [
        (dict(gains=(3, 1)), ValueError, "'gains' parameter of gfr.evaluate must give"),
        (
            dict(nonrelevant_membership="x"),
            ValueError,
            "'nonrelevant_membership' parameter of gfr.evaluate",
        ),
        (
            dict(phi=10**400),
            ValueError,
            "'phi' parameter of gfr.evaluate must be a number in (0, 1)",
        ),
        (
            dict(weights=[1e308, 1e308]),
            ValueError,
            "'weights' parameter of gfr.evaluate must hold weights of at most 1",
        ),
        (dict(weights=[True, False]), TypeError, "'weights' parameter of gfr.evaluate must be a"),
        (dict(gains=[True, True]), TypeError, "'gains' parameter of gfr.evaluate must be a"),
    ],
)
def test_option_errors_name_evaluate(tmp_path, kw, error, message):
    """Each error names the function called and its parameter; no numpy warning or
    OverflowError (the suite runs with -W error)."""
    with pytest.raises(error, match=re.escape(message)):
        _eval(tmp_path, "T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 1 x\n", **kw)


def test_evaluate_with_no_run_names_evaluate(pilot):
    qrels, _, attributes, _ = pilot
    with pytest.raises(ValueError, match=r"'runs' parameter of gfr.evaluate must hold at least 1"):
        gfr.evaluate(qrels, [], attributes)


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(phi=10**400), "'phi' parameter of gfr.gfr"),
        (dict(gains=(3, 1)), "'gains' parameter of gfr.gfr must give"),
        (
            dict(weights=[1e308, 0.0]),
            "'weights' parameter of gfr.gfr must hold weights of at most 1",
        ),
    ],
)
def test_array_option_errors_name_gfr(kw, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        gfr.gfr(*ONE, [A2], **kw)


def test_gfr_is_undefined_where_no_weighted_component_covers_a_topic(pilot):
    """measures.md 2: GFR is a weighted mean of the utility and the GF of each set that
    covers the topic, the weights renormalised there; with w_0 = 0 and only M-RATINGS
    weighted, the topics M-RATINGS does not cover have no GFR (NaN, as documented)."""
    qrels, runs, attributes, table = pilot
    names = [a.attribute.name for a in attributes]
    w = [0.0] * (len(names) + 1)
    w[1 + names.index("M-RATINGS")] = 1.0
    t = gfr.evaluate(qrels, runs, attributes, weights=w, measures=["GFR@10"])
    for run in t.runs:
        assert t.value(run, "P002", "GFR@10") == table.value(run, "P002", "GF-RNOD@10[M-RATINGS]")
        assert all(np.isnan(t.value(run, topic, "GFR@10")) for topic in ("P001", "P003", "P004"))
    out = io.StringIO()
    t.to_tsv(out)
    assert "Anserini-bm25\tall\tn[GFR@10]\t1\n" in out.getvalue()


def test_docs_nev_sample_is_a_line_the_organisers_tool_printed():
    """docs/gfr.md quotes one line of the nev layout; it must be byte-identical to the
    organisers' expected .GFRnev file (9 spaces after '=')."""
    docs = Path(__file__).parents[1] / "docs" / "gfr.md"
    samples = re.findall(r"`(P\d{3} [A-Za-z-]+@\d{4}=\s+\S+)`", docs.read_text())
    expected = (PILOT / "expected" / "run.bm25-depThre6.M-ORIGIN.GFRnev").read_text()
    assert samples and all(s in expected.splitlines() for s in samples)


@pytest.mark.parametrize("seed", range(6))
def test_the_join_is_the_same_in_any_number_of_pieces(tmp_path, seed, monkeypatch):
    """gmemb files are joined in pieces cut at topic ends, one per thread: the pieces
    (here from gmemb files whose topics are interleaved, so a topic spans pieces) give
    the values of one whole piece."""
    rng = np.random.default_rng(100 + seed)
    qrels, runs, attrs, *_ = _random_case(rng, tmp_path, n_topics=9)
    shuffled = []
    for m, data in enumerate(attrs):
        path = tmp_path / f"g{m}"
        lines = path.read_text().splitlines()
        if seed % 2:
            lines = [lines[i] for i in rng.permutation(len(lines))]
        path.write_text("\n".join(lines) + "\n")
        shuffled.append(AttributeData(data.attribute, read_gmemb(path)))
    tables = []
    for n in (1, 2, 3, 5, 50):
        assert len(rankings._pieces(shuffled[0].memberships, n)) <= n
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FairconvWarning)
            tables.append(gfr.evaluate(qrels, runs, shuffled, cutoffs=[5, 100], n_jobs=n))
    for t in tables[1:]:
        np.testing.assert_array_equal(t.values, tables[0].values)
        np.testing.assert_array_equal(t.present, tables[0].present)


def test_pieces_end_where_topics_end():
    ids = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3])
    table = types.SimpleNamespace(docs=np.zeros(len(ids)), topic_ids=ids)
    for n in range(1, 12):
        pieces = rankings._pieces(table, n)
        assert pieces[0][0] == 0 and pieces[-1][1] == len(ids)
        assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:], strict=False))
        assert all(lo < hi and (lo == 0 or ids[lo] != ids[lo - 1]) for lo, hi in pieces)
    assert rankings._pieces(table, 2) == [(0, 5), (5, 10)]
    assert rankings._pieces(types.SimpleNamespace(docs=[], topic_ids=ids[:0]), 3) == [(0, 0)]


def test_only_the_measures_asked_for_are_computed(monkeypatch):
    """measures= computes what it names and what those need (GFR: the utility and each
    set's own divergence), nothing else."""
    from fairconv import _core

    calls = []
    gf = _core.gf_at_cutoffs

    def spy(decay, membership, target, divergences, cutoffs):
        calls.append(tuple(divergences))
        return gf(decay, membership, target, divergences, cutoffs)

    monkeypatch.setattr(_core, "gf_at_cutoffs", spy)
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    with pytest.warns(FairconvWarning, match="GFR is ERR alone on 3 of the 4 topics"):
        full = gfr.evaluate(p.qrels, p.runs, origin, cutoffs=[10])
    assert calls and set(calls) == {("JSD", "NMD", "RNOD")}
    calls.clear()
    table = gfr.evaluate(p.qrels, p.runs, origin, measures=["GF-NMD@10[M-ORIGIN]"])
    assert table.measures == ("GF-NMD@10[M-ORIGIN]",)
    assert set(calls) == {("NMD",)}
    calls.clear()
    gfr.evaluate(p.qrels, p.runs, origin, measures=["ERR@10"])
    assert calls == []
    calls.clear()
    with pytest.warns(FairconvWarning, match="GFR is ERR alone"):
        table = gfr.evaluate(p.qrels, p.runs, origin, measures=["GFR@10", "ERR"])
    assert set(calls) == {("JSD",)}  # M-ORIGIN is nominal: GFR takes its JSD
    np.testing.assert_array_equal(table.values, full[["GFR@10", "ERR"]].values)


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


def _re(text):
    import re

    return re.escape(text)


def test_rule5_lists_of_depth_zero_and_a_single_topic():
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    s = gfr.gfr(np.zeros((1, 0), np.int64), [np.zeros((1, 0, 2))], [a], cutoffs=[5])
    assert all(v.tolist() == [0.0] for k, v in s.items() if not k.startswith("GF-")), s
    one = gfr.gfr([[2, 1]], [[[[1, 0], [0, 1]]]], [a], cutoffs=[1])
    assert one["ERR@1"].shape == (1,) and 0 < float(one["GFR"][0]) <= 1


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(cutoffs=[10, 0]), "'cutoffs' parameter of gfr.evaluate must be an integer >= 1"),
        (dict(cutoffs=[True]), "'cutoffs' parameter of gfr.evaluate must be an integer >= 1"),
        (dict(gains=[1] * 101), "lmax <= 100"),
        (dict(gains=[1, 1e308]), "finite"),
        (dict(phi=float("nan")), "'phi' parameter of gfr.evaluate must be a number in (0, 1)"),
    ],
)
def test_rule5_ranked_list_parameters(options, message):
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    with pytest.raises(ValueError, match=_re(message)):
        gfr.evaluate(p.qrels, p.runs, p.attributes, **options)


# --------------------------------------------------------------------------- rule 7
def test_rule7_huge_values_are_refused_before_arithmetic():
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    with pytest.raises(ValueError):
        gfr.gfr([[1]], [[[[1e308, 1e308]]]], [a])
    with pytest.raises(ValueError):
        ragfair.rigf([1e308], [np.inf])
    # a huge but finite RIGF is a number, not a warning (the suite runs with -W error)
    assert np.isfinite(ragfair.rigf([1.0], [1e-300])).all()


QRELS = PILOT / "fairweb1pilot.qrels"


RUN = PILOT / "runs" / "run.bm25-depThre6"


ORIGIN = ("--attribute", "M-ORIGIN", PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
          PILOT / "M-ORIGIN.golddistr", "nominal")  # fmt: skip


def _cli(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)], capture_output=True, text=True
    )
    return proc.returncode, proc.stdout, proc.stderr


def _run_file(tmp_path, rename=None, keep=None):
    lines = RUN.read_text().splitlines()
    if keep is not None:
        lines = [x for x in lines if x.split()[0] in keep]
    if rename is not None:
        lines = [rename(x.split()[0]) + " " + x.split(maxsplit=1)[1] for x in lines]
    f = tmp_path / "run.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


def test_topic_coverage_a_run_sharing_no_topic_is_an_error(tmp_path):
    f = _run_file(tmp_path, rename=lambda t: "Q" + t[1:])  # P001 -> Q001
    p = fairweb1_pilot()
    with pytest.raises(ValueError, match="run 'Anserini-bm25' with topics Q001, Q002") as info:
        gfr.evaluate(p.qrels, [read_run(f)], p.attributes)
    assert "the qrels' topics P001, P002" in str(info.value)
    code, out, err = _cli("gfr", "--qrels", QRELS, f)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "'Anserini-bm25'" in err and "Q001" in err and "P001" in err, err
    assert "parameter" not in err, err


def test_topic_coverage_partial_overlap_is_a_notice(tmp_path):
    f = _run_file(tmp_path, keep={"P001", "P002"})
    p = fairweb1_pilot()
    message = "run 'Anserini-bm25' has no ranked list for 2 of the 4 topics scored (P003, P004)"
    with pytest.warns(FairconvWarning, match=message.replace("(", r"\(").replace(")", r"\)")):
        table = gfr.evaluate(p.qrels, [read_run(f)], p.attributes)
    assert table.value("Anserini-bm25", "P003", "ERR") == 0.0
    code, out, err = _cli("gfr", "--qrels", QRELS, *ORIGIN, f)
    assert code == 0 and f"fairconv gfr: warning: {message}" in err, err
    code, whole, _ = _cli("gfr", "--qrels", QRELS, *ORIGIN, RUN)
    kept = [x for x in whole.splitlines() if x.split("\t")[1] in ("topic", "P001", "P002")]
    assert [x for x in out.splitlines() if x.split("\t")[1] != "all"][: len(kept)] == kept


def test_topic_coverage_gfr_without_fairness_is_a_notice():
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    message = r"GFR is ERR alone on 3 of the 4 topics: no attribute set covers them \(P001, P003"
    with pytest.warns(FairconvWarning, match=message):
        gfr.evaluate(p.qrels, p.runs, origin)
    with pytest.warns(FairconvWarning, match="GFR is iRBU alone on 4 of the 4 topics: no attr"):
        gfr.evaluate(p.qrels, p.runs, [], utility="iRBU")
    code, out, err = _cli("gfr", "--qrels", QRELS, "--utility", "iRBU", RUN)
    assert code == 0 and err == (
        "fairconv gfr: warning: GFR is iRBU alone on 4 of the 4 topics: no attribute set is given\n"
    )
    assert out.startswith("run\ttopic\tmeasure\tvalue\n")
    code, out, err = _cli("gfr", "--qrels", QRELS, *ORIGIN, RUN)
    assert code == 0 and err.count("\n") == 1 and "(P001, P003, P004)" in err, err


def test_topic_coverage_every_topic_covered_says_nothing(recwarn):
    p = fairweb1_pilot()
    gfr.evaluate(p.qrels, p.runs, p.attributes)
    gfr.evaluate(p.qrels, p.runs, [], measures=["ERR"])  # no GFR asked for
    assert not [w for w in recwarn if issubclass(w.category, FairconvWarning)]


def test_topic_coverage_counts_on_the_table(tmp_path):
    f = _run_file(tmp_path, keep={"P001", "P002"})
    f.write_text(f.read_text().replace(" Anserini-bm25", " part"))
    p = fairweb1_pilot()
    origin = [a for a in p.attributes if a.attribute.name == "M-ORIGIN"]
    with pytest.warns(FairconvWarning):
        table = gfr.evaluate(p.qrels, [*p.runs, read_run(f)], origin)
    assert table.notices["topics_scored"] == 4
    assert table.notices["topics_without_fairness"] == 3
    assert table.notices["topics_missing"] == {**{r: 0 for r in table.runs[:-1]}, "part": 2}
    assert gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["ERR"]).notices == {
        "topics_scored": 4,
        "topics_missing": dict.fromkeys(table.runs[:-1], 0),
        "topics_without_fairness": 0,
    }
