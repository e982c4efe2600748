"""GFRC2: the R112 tables cell by cell, a loop oracle, properties, bad input, CLI."""

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import oracles
from conftest_data import SETS, random_record
from fairconv import gfrc2
from fairconv.cli import main
from fairconv.datasets import path
from fairconv.io import batch_from_records, read_attribute_sets, read_conversations

REFERENCE = Path(__file__).parent / "reference" / "gfrc2_clusters.csv"


@pytest.fixture(scope="module")
def r112():
    sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    return read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)


def _rows():
    with open(REFERENCE, newline="") as f:
        return list(csv.DictReader(f))


def test_000_tables_1_and_2_every_cell(r112):
    """000 Table 1 (COPWA) and Table 2 (ORG): wc, GWCrel, WCnonrel, GNP, both DistrSim
    and Experience of every user cluster, at the printed 6 digits."""
    c = gfrc2.clusters(r112)
    rows = _rows()
    assert len(rows) == len(c.wc) == 11
    for i, row in enumerate(rows):
        assert r112.runs[c.conversation[i]] == row["run"]
        assert int(c.wc[i]) == int(row["wc"])
        assert c.gwc_rel[i] == float(row["GWCrel"])
        assert c.wc_nonrel[i] == float(row["WCnonrel"])
        for got, key in (
            (c.gnp[i], "GNP"),
            (c.sim["PRONOUN"][i], "PRONOUN"),
            (c.sim["HINDEX"][i], "HINDEX"),
            (c.experience[i], "Experience"),
        ):
            assert round(float(got), 6) == pytest.approx(float(row[key]), abs=1e-12), key
        assert c.prob[i] == 1 / 1000


def test_000_table1_achieved_distributions(r112):
    """000 Table 1: D(PRONOUN) goes (1,0,0) ... (3/4,1/4,0), (4/5,1/5,0), (5/6,1/6,0)."""
    d = gfrc2.clusters(r112).achieved["PRONOUN"][:6]
    np.testing.assert_allclose(d[3:], [[3 / 4, 1 / 4, 0], [4 / 5, 1 / 5, 0], [5 / 6, 1 / 6, 0]])


@pytest.mark.parametrize("seed", range(8))
def test_agrees_with_loop_oracle(seed):
    rng = np.random.default_rng(seed)
    records = [random_record(rng, topic=f"T{i}", n_sets=3)[0] for i in range(25)]
    batch = batch_from_records(records, SETS, sources=["x"] * 25)
    L = int(rng.choice([20, 60, 1000]))  # clusters beyond L for small L
    weights = rng.dirichlet(np.ones(4)).tolist()
    dedupe = bool(seed % 2)
    got = gfrc2.gfrc2(batch, L=L, weights=weights, dedupe=dedupe)
    c = gfrc2.clusters(batch, L=L, weights=weights, dedupe=dedupe)
    sets = [(a.name, a.target.tolist(), a.divergence) for a in SETS]
    k = 0
    for i, rec in enumerate(records):
        rows, (egnp, egf, total) = oracles.gfrc2(
            rec["nuggets"], sets, L=L, weights=weights, dedupe=dedupe
        )
        for wc, gwc, nonrel, gnp, _sims, experience, prob in rows:
            assert (c.conversation[k], c.wc[k]) == (i, wc)
            assert (c.gwc_rel[k], c.wc_nonrel[k], c.prob[k]) == (gwc, nonrel, prob)
            assert c.gnp[k] == pytest.approx(gnp, abs=1e-12)
            assert c.experience[k] == pytest.approx(experience, abs=1e-12)
            k += 1
        assert got["EGNP"][i] == pytest.approx(egnp, abs=1e-12)
        for name in egf:
            assert got[f"EGF[{name}]"][i] == pytest.approx(egf[name], abs=1e-12)
        assert got["GFRC2"][i] == pytest.approx(total, abs=1e-12)
    assert k == len(c.wc)


seeds = st.integers(0, 2**32 - 1)


def _one(rec):
    return batch_from_records([rec], SETS[:2], sources=["x"])


@given(seeds)
def test_gnp_in_unit_interval(seed):
    c = gfrc2.clusters(_one(random_record(np.random.default_rng(seed))[0]))
    assert ((c.gnp > 0) & (c.gnp <= 1)).all()


@given(seeds, st.data())
def test_moving_a_relevant_nugget_earlier(seed, data):
    """000, end of section 3: within L and without passing another relevant nugget,
    moving one relevant nugget earlier never lowers EGNP and leaves every EGF as is."""
    rec, _ = random_record(np.random.default_rng(seed))
    nuggets = sorted(rec["nuggets"], key=lambda n: n["start"])
    rel = [i for i, n in enumerate(nuggets) if n["level"] > 0]
    assume(rel)
    i = data.draw(st.sampled_from(rel))
    floor = max([nuggets[j]["end"] for j in range(i)] + [0])  # no overlap with any nugget
    turn = next(t for t in rec["turns"] if t["start"] <= nuggets[i]["start"] <= t["end"])
    lowest = max(floor + 1, turn["start"])
    assume(lowest < nuggets[i]["start"])
    shift = data.draw(st.integers(1, nuggets[i]["start"] - lowest))
    moved = [dict(n) for n in nuggets]
    moved[i]["start"] -= shift
    moved[i]["end"] -= shift
    before = gfrc2.gfrc2(_one(rec))
    after = gfrc2.gfrc2(_one(dict(rec, nuggets=moved)))
    assert after["EGNP"][0] >= before["EGNP"][0] - 1e-15
    for a in SETS[:2]:
        assert after[f"EGF[{a.name}]"][0] == pytest.approx(before[f"EGF[{a.name}]"][0], abs=1e-15)


@given(seeds)
def test_single_component_weights(seed):
    b = _one(random_record(np.random.default_rng(seed))[0])
    assert gfrc2.gfrc2(b, weights=[1, 0, 0])["GFRC2"][0] == pytest.approx(
        gfrc2.gfrc2(b)["EGNP"][0], abs=1e-15
    )
    for m, a in enumerate(SETS[:2]):
        w = [0, 0, 0]
        w[m + 1] = 1
        s = gfrc2.gfrc2(b, weights=w)
        assert s["GFRC2"][0] == pytest.approx(s[f"EGF[{a.name}]"][0], abs=1e-15)


@given(seeds)
def test_scores_at_most_one(seed):
    s = gfrc2.gfrc2(_one(random_record(np.random.default_rng(seed))[0]), L=5)
    for v in s.values():
        assert 0 <= float(v[0]) <= 1 + 1e-12


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(weights=[0.5, 0.5]), "hold 3 weights"),
        (dict(weights=[1.2, -0.1, -0.1]), "non-negative"),
        (dict(weights=[0.5, 0.3, 0.3]), "sum to 1"),
        (dict(L=1), r"'L' parameter of gfrc2.gfrc2 must be an integer >= 2"),
        (dict(lmax=0), r"'lmax' parameter of gfrc2.gfrc2 must be an integer in 1\.\.100"),
        (dict(lmax=1), "exceeds lmax = 1"),
        # Prob = 1/L (measures.md 4): past 2^53 L is not exact as a float, and an int
        # past the float range raised a bare OverflowError
        (dict(L=10**400), r"'L' parameter of gfrc2.gfrc2 must be an integer <= 2\^53"),
        (dict(L=2**60), r"'L' parameter of gfrc2.gfrc2 must be an integer <= 2\^53"),
        (dict(L=np.uint64(2**64 - 1)), r"'L' parameter of gfrc2.gfrc2 must be an integer <= 2\^53"),
        (
            dict(weights=[1e308, 1e308, 0]),
            "'weights' parameter of gfrc2.gfrc2 must hold weights of",
        ),
    ],
)
def test_bad_options(r112, options, message):
    with pytest.raises(ValueError, match=message):
        gfrc2.gfrc2(r112, **options)


def test_cli_scores_and_clusters(capsys, tmp_path):
    args = [
        "gfrc2",
        "--attributes",
        str(path("cases", "r112-attributes.json")),
        str(path("cases", "r112-fairweb2.jsonl")),
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "ORG-CS-D-MN-1\tR112\tGFRC2\t0.00203" in out
    assert main(args[:3] + ["--clusters", "--plot", str(tmp_path / "f.png")] + args[3:]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split("\t")[:6] == ["run", "topic", "wc", "GWCrel", "WCnonrel", "GNP"]
    assert len(table) == 12
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    assert main(args[:3] + ["--weights", "0.5,0.5"] + args[3:]) == 2
    assert "hold 3 weights" in capsys.readouterr().err


def test_write_clusters_round_numbers(r112):
    out = io.StringIO()
    gfrc2.write_clusters(r112, gfrc2.clusters(r112), out)
    first = out.getvalue().splitlines()[1].split("\t")
    assert first[:5] == ["COPWA-CS-QD-MN-2", "R112", "33", "4.0", "31.0"]


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda b: gfrc2.evaluate(b, L=1), ValueError, "'L' parameter of gfrc2.evaluate"),
        (lambda b: gfrc2.evaluate(b, lmax=0), ValueError, "'lmax' parameter of gfrc2.evaluate"),
        (lambda b: gfrc2.evaluate(5), TypeError, "'batch' parameter of gfrc2.evaluate"),
    ],
)
def test_evaluate_errors_name_gfrc2_evaluate(r112, call, error, message):
    """Each error names the function called: gfrc2.evaluate, not gfrc2 (nor an
    AttributeError of a batch that is not one)."""
    with pytest.raises(error, match=message):
        call(r112)


def test_patience_of_two_to_the_53_is_accepted(r112):
    s = gfrc2.gfrc2(r112, L=2**53)
    assert all(np.isfinite(v).all() and (v >= 0).all() for v in s.values())


def test_clusters_read_well_in_a_notebook(r112):
    """Issue 24: a short repr without arrays, a compact HTML table, a frame, plain dicts."""
    import json

    from fairconv._records import REPR_LIMIT

    c = gfrc2.clusters(r112)
    text = repr(c)
    assert len(text) <= REPR_LIMIT and "array(" not in text
    assert text.startswith("Clusters(rows=11, conversations=2, runs=['COPWA-CS-QD-MN-2'")
    page = c._repr_html_()
    assert "array(" not in page and "not shown" not in page and page.count("<tr>") == 12
    assert "<th>DistrSim[PRONOUN]</th>" in page and "ORG-CS-D-MN-1" in page
    frame = c.to_frame()
    assert list(frame.columns) == [
        "run", "topic", "wc", "gwc_rel", "wc_nonrel", "gnp", "D[PRONOUN]",
        "DistrSim[PRONOUN]", "D[HINDEX]", "DistrSim[HINDEX]", "experience", "prob",
    ]  # fmt: skip
    assert frame["run"].tolist() == [r112.runs[i] for i in c.conversation.tolist()]
    assert frame["gnp"].tolist() == c.gnp.tolist() and set(frame["topic"]) == {"R112"}
    d = c.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert d["wc"] == c.wc.tolist() and type(d["wc"][0]) is int
    assert d["achieved"]["PRONOUN"] == c.achieved["PRONOUN"].tolist()


def test_clusters_html_says_what_it_leaves_out(r112):
    c = gfrc2.clusters(r112)
    rows = np.arange(45) % len(c.wc)

    def take(runs=(), topics=()):
        arrays = [getattr(c, f)[rows] for f in ("conversation", "wc", "gwc_rel", "wc_nonrel")]
        per_set = [{k: v[rows] for k, v in d.items()} for d in (c.achieved, c.sim)]
        return type(c)(*arrays, c.gnp[rows], *per_set, c.experience[rows], c.prob[rows],
                       runs, topics)  # fmt: skip

    page = take(c.runs, c.topics)._repr_html_()
    assert page.count("<tr>") == 21 and "25 more rows not shown" in page
    assert len(repr(take(c.runs, c.topics))) <= 500
    # without the batch's names, rows are named by conversation index
    assert take().to_frame().columns[0] == "conversation"
    assert "runs=" not in repr(take())
