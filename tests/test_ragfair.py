"""RIGF and ADsim: the tables of Tao and Sakai (003), a loop oracle, properties, errors."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracles
from fairconv import AttributeSet, _core, io, ragfair
from fairconv.cli import main
from fairconv.datasets import fairweb1_pilot, path
from fairconv.io import load_attribute, read_answers, read_golddistr, read_qrels, read_run
from fairconv.results import ScoreTable

REFERENCE = Path(__file__).parent / "reference" / "rigf_tables.csv"
ORIGIN = read_golddistr(path("fairweb1-pilot", "M-ORIGIN.golddistr"))


def _table_rows():
    with open(REFERENCE, newline="") as f:
        return list(csv.DictReader(f))


def _groups():
    out = {}
    for row in _table_rows():
        out.setdefault((row["table"], row["run"], row["attribute"]), []).append(row)
    return out


@pytest.mark.parametrize("key", sorted(_groups()), ids=lambda k: " ".join(k))
def test_tables_recomputed_from_printed_gf_values(key):
    """003 Tables 1-3. The paper computed RIGF from unrounded GF values, so RIGF from the
    printed 4-digit pairs may differ by a few hundredths of a point (M001 ORIGIN: -19.70
    vs -19.71 printed): each row is checked within 0.05 points. N/A exactly where
    GF-Re = 0; ADsim N/A exactly where GF-Re = 0 or GF-Gen = 0."""
    rows = _groups()[key]
    topics = [r for r in rows if r["topic"] != "mean"]
    mean_row = next(r for r in rows if r["topic"] == "mean")
    assert len(topics) == 15
    re_ = np.array([float(r["gf_re"]) for r in topics])
    gen = np.array([float(r["gf_gen"]) for r in topics])
    got = ragfair.rigf(gen, re_)
    for r, value in zip(topics, got, strict=False):
        if r["rigf"] == "":
            assert np.isnan(value) and float(r["gf_re"]) == 0
        else:
            assert value == pytest.approx(float(r["rigf"]), abs=0.05), r["topic"]
        if key[2] != "overall":
            assert (r["adsim"] == "") == (float(r["gf_re"]) == 0 or float(r["gf_gen"]) == 0)
    # the mean row: over all topics for GF, over the defined topics for RIGF and ADsim
    printed_rigf = np.array([float(r["rigf"]) if r["rigf"] else np.nan for r in topics])
    adsim = np.array([float(r["adsim"]) if r["adsim"] else np.nan for r in topics])
    values = np.stack([re_, gen, printed_rigf, got, adsim], axis=1)[:, None]
    table = ScoreTable(
        topics=tuple(r["topic"] for r in topics),
        runs=("run",),
        measures=("GF-Re", "GF-Gen", "RIGF-printed", "RIGF", "ADsim"),
        values=values,
        present=np.ones(values.shape, dtype=bool),
    )
    # A mean of rounded cells is off the rounded mean of the exact cells by at most half a
    # unit of the cells plus half a unit of the printed mean: 1e-4 for GF and ADsim,
    # 0.01 for RIGF (RSLFW RATINGS: 19.6054 from the printed cells, 19.60 printed).
    mean, count = table.mean()
    assert mean[0, 0] == pytest.approx(float(mean_row["gf_re"]), abs=1e-4)
    assert mean[0, 1] == pytest.approx(float(mean_row["gf_gen"]), abs=1e-4)
    assert mean[0, 2] == pytest.approx(float(mean_row["rigf"]), abs=0.01)
    assert mean[0, 3] == pytest.approx(float(mean_row["rigf"]), abs=0.05)
    assert count[0, 3] == int((re_ != 0).sum())
    if key[2] != "overall":
        assert mean[0, 4] == pytest.approx(float(mean_row["adsim"]), abs=1e-4)


def test_table3_overall_gf_is_the_equal_weight_mean():
    """003 Table 3: the overall GF-Re and GF-Gen that fairconv combines (w_ORIGIN =
    w_RATINGS = 0.5) from the per-set values of Tables 1-2, and the RIGF it derives
    from them: GF to the printed 4 digits (1e-4 for the rounding of two 4-digit inputs),
    RIGF within 0.05, N/A exactly where the paper prints it."""
    rows = _groups()
    for run in ("THUIR-QD-RR-3", "RSLFW-Q-RR-4"):
        table = "Table 1" if run.startswith("THUIR") else "Table 2"
        o = {r["topic"]: r for r in rows[(table, run, "ORIGIN")]}
        a = {r["topic"]: r for r in rows[(table, run, "RATINGS")]}
        overall = [r for r in rows[("Table 3", run, "overall")] if r["topic"] != "mean"]
        got = {}
        for col in ("gf_re", "gf_gen"):
            per_set = np.array(
                [
                    [float(o[r["topic"]][col]) for r in overall],
                    [float(a[r["topic"]][col]) for r in overall],
                ]
            )
            got[col] = _core.combine(per_set, np.array([0.5, 0.5]))
            want = np.array([float(r[col]) for r in overall])
            assert np.abs(got[col] - want).max() <= 1.01e-4
        rigf = ragfair.rigf(got["gf_gen"], got["gf_re"])
        for r, value in zip(overall, rigf, strict=True):
            if r["rigf"] in ("", "N/A"):
                assert np.isnan(value)
            else:
                assert value == pytest.approx(float(r["rigf"]), abs=0.05)


def test_gf_gen_of_answers_matches_table_cells():
    """003: a single RATINGS group-3 movie gives 0.4796 (uniform target, RNOD); a single
    North American movie gives 0.2617 for ORIGIN (FairWeb-1 target, JSD); a group-3 and
    a group-4 movie, one American and one European (THUIR M006), 0.6773 and 0.5123."""
    ratings = AttributeSet("RATINGS", [0.25] * 4, "ordinal")
    origin = AttributeSet("ORIGIN", ORIGIN, "nominal")
    one = [{"level": 2, "groups": {"RATINGS": [0, 0, 1, 0], "ORIGIN": [0, 1, 0, 0, 0, 0, 0, 0]}}]
    two = one + [
        {"level": 2, "groups": {"RATINGS": [0, 0, 0, 1], "ORIGIN": [0, 0, 0, 0, 0, 1, 0, 0]}}
    ]
    d = ragfair.answer_distributions([one, two, []], [ratings, origin])
    r = ragfair.gf_gen(d["RATINGS"], ratings.target, divergence="RNOD")
    o = ragfair.gf_gen(d["ORIGIN"], origin.target, divergence="JSD")
    assert np.round(r, 4).tolist() == [0.4796, 0.6773, 0.0]
    assert np.round(o, 4).tolist() == [0.2617, 0.5123, 0.0]


def _write_case(tmp_path, qrels, gmemb, run, answers):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "g").write_text(gmemb)
    (tmp_path / "r").write_text(run)
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    data = load_attribute("RATINGS", tmp_path / "g", [0.25] * 4, "ordinal")
    return (
        read_qrels(tmp_path / "q"),
        [read_run(tmp_path / "r")],
        [data],
        read_answers(tmp_path / "a.jsonl", [data.attribute]),
    )


@pytest.mark.filterwarnings("ignore:.*judged-nonrelevant:fairconv._validation.FairconvWarning")
def test_adsim_is_one_when_list_and_answer_share_one_group(tmp_path):
    """003 Table 1, M001 RATINGS: ADsim 1.0000 beside a one-group answer (only relevant
    docs give exposure; a nonrelevant doc in another group changes nothing)."""
    case = _write_case(
        tmp_path,
        "M1 a L2\nM1 b L0\nM1 c L1\n",
        "M1 a 0 0 1 0\nM1 b 1 0 0 0\nM1 c 0 0 1 0\n",
        "M1 Q0 b 1 3 x\nM1 Q0 a 2 2 x\nM1 Q0 c 3 1 x\n",
        [
            {
                "topic": "M1",
                "run": "x",
                "entities": [{"level": 2, "groups": {"RATINGS": [0, 0, 1, 0]}}],
            }
        ],
    )
    t = ragfair.evaluate(*case)
    assert t.value("x", "M1", "ADsim[RATINGS]") == 1.0
    assert round(t.value("x", "M1", "GF-Gen[RATINGS]"), 4) == 0.4796


@pytest.mark.filterwarnings("ignore:.*judged-nonrelevant:fairconv._validation.FairconvWarning")
def test_undefined_values_are_nan_and_counted(tmp_path, capsys):
    case = _write_case(
        tmp_path,
        "M1 a L2\nM2 b L0\n",
        "M1 a 0 0 1 0\nM2 b 1 0 0 0\n",
        "M1 Q0 a 1 2 x\nM2 Q0 b 1 1 x\n",
        [
            {"topic": "M1", "run": "x", "entities": []},
            {
                "topic": "M2",
                "run": "x",
                "entities": [{"level": 1, "groups": {"RATINGS": [0, 0, 0, 1]}}],
            },
        ],
    )
    t = ragfair.evaluate(*case)
    assert t.value("x", "M1", "GF-Gen[RATINGS]") == 0.0  # names nothing
    assert t.value("x", "M1", "RIGF[RATINGS]") == -100.0
    assert np.isnan(t.value("x", "M1", "ADsim[RATINGS]"))
    assert np.isnan(t.value("x", "M2", "RIGF[RATINGS]"))  # GF-Re = 0
    assert t.value("x", "all", "RIGF[RATINGS]") == -100.0  # mean over defined
    import io

    out = io.StringIO()
    t.to_tsv(out)
    assert "x\tM2\tRIGF[RATINGS]\tNaN\n" in out.getvalue()
    assert "x\tall\tn[RIGF[RATINGS]]\t1\n" in out.getvalue()
    assert t.to_dict()["x"]["M2"]["RIGF[RATINGS]"] is None  # None in records


# random memberships list other vectors for nonrelevant docs; GF counts them as uniform
@pytest.mark.filterwarnings("ignore:.*judged-nonrelevant:fairconv._validation.FairconvWarning")
@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_loop_oracle(tmp_path, seed):
    rng = np.random.default_rng(seed)
    g = int(rng.integers(2, 7))
    target = rng.dirichlet(np.ones(g))
    target[rng.random(g) < 0.3] = 0
    target = target / target.sum() if target.sum() else np.eye(g)[0]
    scale = ["nominal", "ordinal"][seed % 2]
    topics = [f"T{i}" for i in range(8)]
    q, gm, run, answers = [], [], [], []
    levels, memb, ranked, answer_of = {}, {}, {}, {}
    for t in topics:
        docs = [f"d{i}" for i in rng.permutation(30)[: int(rng.integers(1, 25))]]
        ranked[t] = docs
        run += [f"{t} Q0 {d} {k + 1} {30 - k} x" for k, d in enumerate(docs)]
        for d in (f"d{i}" for i in range(30)):
            if rng.random() < 0.6:
                levels[(t, d)] = int(rng.integers(0, 3))
                q.append(f"{t} {d} L{levels[(t, d)]}")
                if rng.random() < 0.8:
                    v = (
                        rng.dirichlet(np.ones(g))
                        if rng.random() < 0.5
                        else np.eye(g)[rng.integers(g)]
                    )
                    memb[(t, d)] = v.tolist()
                    gm.append(f"{t} {d} " + " ".join(repr(float(x)) for x in v))
        ents = [
            (int(rng.integers(0, 3)), rng.dirichlet(np.ones(g)).tolist())
            for _ in range(int(rng.integers(0, 4)))
        ]
        answer_of[t] = ents
        answers.append(
            {
                "topic": t,
                "run": "x",
                "entities": [{"level": lv, "groups": {"A": v}} for lv, v in ents],
            }
        )
    (tmp_path / "q").write_text("\n".join(q) + "\n")
    (tmp_path / "g").write_text("\n".join(gm) + "\n")
    (tmp_path / "r").write_text("\n".join(run) + "\n")
    (tmp_path / "a").write_text("".join(json.dumps(a) + "\n" for a in answers))
    data = load_attribute("A", tmp_path / "g", target, scale)
    cutoff = [None, 5, 10][seed % 3]
    t = ragfair.evaluate(
        read_qrels(tmp_path / "q"),
        [read_run(tmp_path / "r")],
        [data],
        read_answers(tmp_path / "a", [data.attribute]),
        cutoffs=[] if cutoff is None else [cutoff],
    )
    depth = "" if cutoff is None else f"@{cutoff}"
    for topic in data.memberships.topics:
        docs = ranked[topic]
        want = oracles.ragfair_topic(
            docs,
            {d: levels.get((topic, d), 0) for d in docs},
            {d: memb[(topic, d)] for d in docs if (topic, d) in memb},
            target.tolist(),
            data.attribute.divergence,
            answer_of[topic],
            cutoff=cutoff,
        )
        got = [
            t.value("x", topic, f"{m}[A]")
            for m in (f"GF-Re{depth}", "GF-Gen", f"RIGF{depth}", f"ADsim{depth}")
        ]
        for w, v in zip(want, got, strict=False):
            if w is None:
                assert np.isnan(v)
            else:
                assert v == pytest.approx(w, abs=1e-12)


@given(st.floats(0.001, 1), st.integers(2, 8))
def test_rigf_zero_when_equal_and_adsim_one_when_equal(gf, g):
    assert float(ragfair.rigf(gf, gf)) == 0.0
    d = np.random.default_rng(g).dirichlet(np.ones(g))
    for div in ("JSD", "NMD", "RNOD"):
        assert float(ragfair.adsim(d, d, divergence=div)) == pytest.approx(1.0, abs=1e-12)


@given(st.permutations(range(6)))
def test_permuting_topics_changes_no_mean(perm):
    rows = [
        row
        for row in _table_rows()
        if row["table"] == "Table 1" and row["attribute"] == "ORIGIN" and row["topic"] != "mean"
    ][:6]

    def table(order):
        v = np.array([[float(rows[i]["gf_re"]), float(rows[i]["gf_gen"])] for i in order])
        v = np.column_stack([v, ragfair.rigf(v[:, 1], v[:, 0])])
        return ScoreTable.from_items(
            ["r"] * 6, [rows[i]["topic"] for i in order], ["GF-Re", "GF-Gen", "RIGF"], v
        )

    np.testing.assert_allclose(table(perm).mean()[0], table(range(6)).mean()[0], atol=1e-12)


def test_answers_naming_a_topic_the_run_lacks(tmp_path):
    with pytest.raises(ValueError, match=r"a\.jsonl:2: the answer names topic 'M9'"):
        ragfair.evaluate(
            *_write_case(
                tmp_path,
                "M1 a L2\n",
                "M1 a 0 0 1 0\n",
                "M1 Q0 a 1 1 x\n",
                [
                    {"topic": "M1", "run": "x", "entities": []},
                    {"topic": "M9", "run": "x", "entities": []},
                ],
            )
        )


@pytest.mark.parametrize(
    "entity, message",
    [
        (
            {"level": 2, "groups": {"RATINGS": [0, 1, 0]}},
            r'a\.jsonl:1: entity 1: "groups"\."RATINGS" must be an array of 4 numbers',
        ),
        ({"level": 2, "groups": {"RATINGS": [0.5, 0.6, 0, 0]}}, "summing to 1"),
        ({"level": 2, "groups": {"RATINGS": [True, 0, 0, 0]}}, "must be an array of 4 numbers"),
        ({"level": 2}, "it is relevant but gives no RATINGS membership"),
        ({"level": -1}, r'entity 1: "level" must be >= 0, got -1'),
        ({"level": "2"}, r'entity 1: "level" must be an integer, got "2"'),
        ({"level": True}, r'entity 1: "level" must be an integer, got true'),
    ],
)
def test_bad_answer_entities(tmp_path, entity, message):
    with pytest.raises(ValueError, match=message):
        _write_case(
            tmp_path,
            "M1 a L2\n",
            "M1 a 0 0 1 0\n",
            "M1 Q0 a 1 1 x\n",
            [{"topic": "M1", "run": "x", "entities": [entity]}],
        )


def test_answer_for_an_unknown_run(tmp_path):
    with pytest.raises(ValueError, match="the answer's run 'y' is none of the runs given"):
        ragfair.evaluate(
            *_write_case(
                tmp_path,
                "M1 a L2\n",
                "M1 a 0 0 1 0\n",
                "M1 Q0 a 1 1 x\n",
                [{"topic": "M1", "run": "y", "entities": []}],
            )
        )


def test_conversation_records_are_accepted_as_answers(tmp_path):
    case = _write_case(
        tmp_path,
        "M1 a L2\n",
        "M1 a 0 0 1 0\n",
        "M1 Q0 a 1 1 x\n",
        [
            {
                "topic": "M1",
                "run": "x",
                "text": "U:q S:a",
                "nuggets": [
                    {"start": 2, "end": 2, "level": 2, "groups": {"RATINGS": [0, 0, 1, 0]}}
                ],
            }
        ],
    )
    assert round(ragfair.evaluate(*case).value("x", "M1", "GF-Gen[RATINGS]"), 4) == 0.4796


def test_cli_ragfair_and_plot(tmp_path, capsys):
    p = path("fairweb1-pilot")
    args = [
        "ragfair",
        "--qrels",
        str(p / "fairweb1pilot.qrels"),
        "--cutoff",
        "10",
        "--answers",
        str(path("rag", "pilot-answers.jsonl")),
        "--plot",
        str(tmp_path / "b.png"),
    ]
    for name, scale in (("M-RATINGS", "ordinal"), ("M-ORIGIN", "nominal")):
        args += [
            "--attribute",
            name,
            str(p / f"fairweb1pilot.{name}.gmemb"),
            str(p / f"{name}.golddistr"),
            scale,
        ]
    assert main(args + [str(f) for f in sorted((p / "runs").iterdir())]) == 0
    out = capsys.readouterr().out
    assert "Anserini-qljm\tP002\tADsim[M-ORIGIN]\tNaN" in out
    assert "Anserini-qljm\tP002\tRIGF\t-100.0" in out
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_error_is_one_line(tmp_path):
    (tmp_path / "a.jsonl").write_text(
        '{"topic": "P002", "run": "Anserini-bm25", '
        '"entities": [{"level": 2, "groups": {"M-RATINGS": [1]}}]}\n'
    )
    p = path("fairweb1-pilot")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "fairconv",
            "ragfair",
            "--qrels",
            str(p / "fairweb1pilot.qrels"),
            "--attribute",
            "M-RATINGS",
            str(p / "fairweb1pilot.M-RATINGS.gmemb"),
            str(p / "M-RATINGS.golddistr"),
            "ordinal",
            "--answers",
            str(tmp_path / "a.jsonl"),
            str(p / "runs" / "run.bm25-depThre6"),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "a.jsonl:1: entity 1" in proc.stderr


# --------------------------------------------------------------------------- audit fixes
@pytest.mark.parametrize(
    "gen, re_, name, got",
    [
        (1e308, -1e308, "gf_gen", r"1e\+308"),  # gf_gen - gf_re overflowed
        (0.5, -1e308, "gf_re", r"-1e\+308"),
        (1.5, 0.5, "gf_gen", "1.5"),
        ([0.5, 0.5], [0.5, -0.5], "gf_re", r"-0\.5 at index \(1,\)"),
    ],
)
def test_rigf_refuses_values_outside_the_range_of_gf(gen, re_, name, got):
    """measures.md 1 and 5: DistrSim is at most 1 and (RNOD being at most sqrt(2)) at
    least 1 - sqrt(2); GF-Re, GF-Gen and their weighted means keep to that range."""
    with pytest.raises(
        ValueError, match=rf"'{name}' parameter of ragfair.rigf must hold GF values.*{got}"
    ):
        ragfair.rigf(gen, re_)


def test_rigf_of_a_gf_re_next_to_zero_is_an_error_naming_it():
    """measures.md 5: RIGF = (GF-Gen - GF-Re) / GF-Re * 100, undefined only at GF-Re = 0;
    a GF-Re of 1e-320 gives about 1e322 percent, beyond the float range: an error that
    names gf_re and the value, never inf."""
    with pytest.raises(
        ValueError, match=r"'gf_re' parameter of ragfair.rigf .* Got 1e-320 instead"
    ):
        ragfair.rigf(1.0, 1e-320)
    with pytest.raises(ValueError, match=r"finite float. Got 1e-320 at index \(0,\) instead"):
        ragfair.rigf([-0.4, 0.5, 0.5], [1e-320, 0.0, 1e-300])
    assert ragfair.rigf(0.5, 1e-300).tolist() == pytest.approx(5e301)
    assert np.isnan(ragfair.rigf(0.5, 0.0))
    low = 1 - np.sqrt(2)  # the ends of the range are GF values
    assert float(ragfair.rigf(low, 1.0)) == pytest.approx((low - 1) * 100, abs=1e-12)


def _one_list(**kw):
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    args = dict(
        levels=[[2, 0]],
        memberships=[np.array([[[1.0, 0.0], [0.5, 0.5]]])],
        answers=[[[0.5, 0.5]]],
        sets=[a],
    )
    args.update(kw)
    extra = {k: v for k, v in args.items() if k not in ("levels", "memberships", "answers", "sets")}
    return ragfair.ragfair(
        args["levels"], args["memberships"], args["answers"], args["sets"], **extra
    )


def test_padding_and_nonrelevant_rows_are_neither_checked_nor_used():
    """measures.md 5: GF-Re is GF of GFR over the retrieved list and d_L sums relevant
    docs only; ranks beyond a list's length are not in it, and a nonrelevant doc's row
    plays no part (the docstring: rows of nonrelevant docs are not used)."""
    want = _one_list(cutoffs=[1, 3])
    padded = _one_list(
        levels=[[2, 0, 9, -1]],
        memberships=[np.array([[[1.0, 0.0], [0.0, 0.0], [np.nan, np.nan], [7.0, 7.0]]])],
        lengths=[2],
        cutoffs=[1, 3],
    )
    assert padded.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(padded[k], want[k], err_msg=k)
    d = ragfair.attention_distribution([1, 0], [[1.0, 0.0], [0.0, 0.0]])
    assert d.tolist() == [1.0, 0.0]


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(levels=[[3, 0]]), "'levels' parameter of ragfair.ragfair must lie in 0..2"),
        (
            dict(memberships=[np.array([[[1.0, 1.0], [0.5, 0.5]]])]),
            "'memberships[0]' parameter of ragfair.ragfair must sum to 1",
        ),
        (dict(memberships=np.zeros((1, 1, 2, 2))), "'memberships' parameter of ragfair.ragfair"),
        (dict(lengths=[5]), "'lengths' parameter of ragfair.ragfair"),
        (dict(gains=(3, 1)), "'gains' parameter of ragfair.ragfair must give"),
        (dict(gains=[True, True]), "'gains' parameter of ragfair.ragfair must be a sequence"),
        (
            dict(weights=[1e308]),
            "'weights' parameter of ragfair.ragfair must hold weights of at most 1",
        ),
    ],
)
def test_array_errors_name_ragfair(kw, message):
    """Each error names the function called (ragfair), not the helper that checks."""
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        _one_list(**kw)


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(gains=(3, 1)), "'gains' parameter of ragfair.evaluate"),
        (dict(order="rank"), "'order' parameter of ragfair.evaluate"),
        (dict(duplicates="last"), "'duplicates' parameter of ragfair.evaluate"),
        (
            dict(nonrelevant_membership="x"),
            "'nonrelevant_membership' parameter of ragfair.evaluate",
        ),
    ],
)
def test_evaluate_errors_name_ragfair_evaluate(kw, message):
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    movies = [a for a in p.attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    with pytest.raises(ValueError, match=re.escape(message)):
        ragfair.evaluate(p.qrels, p.runs, movies, answers, **kw)


def test_overall_values_are_undefined_where_every_covering_set_has_weight_zero(tmp_path):
    """measures.md 5 (GF-Re, GF-Gen weighted over attribute sets; 2: a set covers the
    topics of its gmemb file): the weights are renormalised over the sets covering a
    topic, so where those all weigh 0 the overall values are undefined (NaN)."""
    (tmp_path / "q").write_text("M1 a L2\nM2 b L2\n")
    (tmp_path / "g1").write_text("M1 a 0 0 1 0\n")
    (tmp_path / "g2").write_text("M2 b 1 0\n")
    (tmp_path / "r").write_text("M1 Q0 a 1 2 x\nM2 Q0 b 1 1 x\n")
    sets = [
        load_attribute("RATINGS", tmp_path / "g1", [0.25] * 4, "ordinal"),
        load_attribute("ORIGIN", tmp_path / "g2", [0.5, 0.5], "nominal"),
    ]
    entity = {"level": 1, "groups": {"RATINGS": [0, 0, 1, 0], "ORIGIN": [1, 0]}}
    (tmp_path / "a.jsonl").write_text(
        "".join(
            json.dumps({"topic": t, "run": "x", "entities": [entity]}) + "\n"
            for t in "M1 M2".split()
        )
    )
    answers = read_answers(tmp_path / "a.jsonl", [s.attribute for s in sets])
    qrels, run = read_qrels(tmp_path / "q"), read_run(tmp_path / "r")
    t = ragfair.evaluate(qrels, [run], sets, answers, weights=[1, 0])
    assert t.value("x", "M1", "GF-Re") == t.value("x", "M1", "GF-Re[RATINGS]")
    for m in ("GF-Re", "GF-Gen", "RIGF"):
        assert np.isnan(t.value("x", "M2", m)), m
    assert t.value("x", "all", "GF-Re") == t.value("x", "M1", "GF-Re")


def test_answers_keep_working_from_their_old_home_for_one_release():
    with pytest.warns(
        DeprecationWarning, match=r"fairconv\.ragfair\.Answers has moved to fairconv\.io"
    ):
        assert ragfair.Answers is io.Answers
    assert ragfair.answer_distributions is io._answers.answer_distributions


def test_rule9_lower_case_divergence_names_are_accepted():
    assert float(ragfair.gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="rnod")) == pytest.approx(
        float(ragfair.gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="RNOD")), abs=0
    )
    assert float(ragfair.adsim([1, 0], [1, 0], divergence="jsd")) == 1.0


@pytest.mark.parametrize("gf_re", [1e-320, -5e-324, 1e-310])
def test_overflow_warnings_rigf_of_a_gf_re_next_to_zero(gf_re):
    with pytest.raises(
        ValueError, match=f"'gf_re' parameter of ragfair.rigf .* Got {gf_re!r} instead"
    ):
        ragfair.rigf(0.5, gf_re)


PILOT = path("fairweb1-pilot")


RUN = PILOT / "runs" / "run.bm25-depThre6"


def _run_file(tmp_path, rename=None, keep=None):
    lines = RUN.read_text().splitlines()
    if keep is not None:
        lines = [x for x in lines if x.split()[0] in keep]
    if rename is not None:
        lines = [rename(x.split()[0]) + " " + x.split(maxsplit=1)[1] for x in lines]
    f = tmp_path / "run.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


def test_topic_coverage_in_ragfair(tmp_path):
    f = _run_file(tmp_path, rename=lambda t: "Q" + t[1:])
    p = fairweb1_pilot()
    movies = [a for a in p.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    with pytest.raises(ValueError, match="run 'Anserini-bm25' with topics Q001"):
        ragfair.evaluate(p.qrels, [read_run(f)], movies, answers)


def test_a_run_without_an_answer_another_run_has_gets_the_notice_of_every_family(tmp_path, capsys):
    """GF-Gen is 0 where a run has no answer for a topic that another run answers: the
    missing-topic notice of every family says so (it was silent), attributed to the
    caller's line, counted in the table's notices, one stderr line on the command line;
    GF-Re alone reads no answer and says nothing."""
    import warnings

    from fairconv import FairconvWarning
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    movies = [a for a in p.attributes if a.attribute.name.startswith("M-")]
    answers_file = path("rag", "pilot-answers.jsonl")
    lines = answers_file.read_text().splitlines(keepends=True)
    assert json.loads(lines[0])["run"] == "Anserini-bm25"
    answers = io.as_answers([json.loads(x) for x in lines[1:]], [a.attribute for a in movies])
    message = (
        r"^run 'Anserini-bm25' has no answer for 1 of the 4 topics scored \(P002\): GF-Gen is 0 "
        r"there, as for an answer that names no relevant entity$"
    )
    with pytest.warns(FairconvWarning, match=message) as caught:
        table = ragfair.evaluate(p.qrels, p.runs, movies, answers)
    assert [w.filename for w in caught] == [__file__]
    assert table.notices["answers_missing"] == {r: int(r == "Anserini-bm25") for r in table.runs}
    assert table.value("Anserini-bm25", "P002", "GF-Gen[M-ORIGIN]") == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", FairconvWarning)
        ragfair.evaluate(p.qrels, p.runs, movies, answers, measures=["GF-Re[M-ORIGIN]"])
        every = io.as_answers([json.loads(x) for x in lines], [a.attribute for a in movies])
        assert set(ragfair.evaluate(p.qrels, p.runs, movies, every).notices["answers_missing"]
                   .values()) == {0}  # fmt: skip
    f = tmp_path / "answers.jsonl"
    f.write_text("".join(lines[1:]))
    pilot = path("fairweb1-pilot")
    args = ["ragfair", "--qrels", str(pilot / "fairweb1pilot.qrels"), "--answers", str(f),
            "-o", str(tmp_path / "out.tsv")]  # fmt: skip
    for name, scale in (("M-RATINGS", "ordinal"), ("M-ORIGIN", "nominal")):
        args += ["--attribute", name, str(pilot / f"fairweb1pilot.{name}.gmemb"),
                 str(pilot / f"{name}.golddistr"), scale]  # fmt: skip
    assert main(args + [str(r) for r in sorted((pilot / "runs").iterdir())]) == 0
    err = capsys.readouterr().err
    assert (
        "fairconv ragfair: warning: run 'Anserini-bm25' has no answer for 1 of the 4 topics "
        "scored (P002): GF-Gen is 0 there, as for an answer that names no relevant entity\n"
    ) in err
