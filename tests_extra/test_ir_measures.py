"""GFR inside ir_measures (the ir_measures extra): the numbers of ``fairconv gfr --order score``."""

import subprocess
import sys

import ir_measures
import pytest

from fairconv import FairconvWarning, gfr
from fairconv import ir_measures as fc
from fairconv.datasets import fairweb1_pilot, path

P = path("fairweb1-pilot")
SETS = (("M-RATINGS", "ordinal"), ("M-ORIGIN", "nominal"))
# the movie sets cover one of the pilot's four topics: GFR is ERR alone on the others,
# and fairconv says so inside ir_measures as everywhere
ERR_ALONE = "GFR is ERR alone on 3 of the 4 topics"


@pytest.fixture(scope="module")
def setup():
    pilot = fairweb1_pilot()
    movies = [a for a in pilot.attributes if a.attribute.name in dict(SETS)]
    fc.register_spec("fw1-movies", movies)
    qrels = {}
    for line in (P / "fairweb1pilot.qrels").read_text().splitlines():
        t, d, level = line.split()
        qrels.setdefault(t, {})[d] = int(level[1:])
    return pilot, movies, qrels


@pytest.mark.parametrize("run_file", sorted(p.name for p in (P / "runs").iterdir()))
@pytest.mark.parametrize("cutoff", [None, 10, 20])
def test_iter_calc_equals_fairconv_gfr_order_score(setup, tmp_path, run_file, cutoff):
    pilot, movies, qrels = setup
    run = list(ir_measures.read_trec_run(str(P / "runs" / run_file)))
    text = "GFR(spec='fw1-movies')" + ("" if cutoff is None else f"@{cutoff}")
    measure = ir_measures.parse_measure(text)
    with pytest.warns(FairconvWarning, match=ERR_ALONE):
        got = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    args = [sys.executable, "-m", "fairconv", "gfr", "--qrels", str(P / "fairweb1pilot.qrels"),
            "--order", "score", "-m", "GFR" if cutoff is None else f"GFR@{cutoff}"]  # fmt: skip
    for name, scale in SETS:
        args += ["--attribute", name, str(P / f"fairweb1pilot.{name}.gmemb"),
                 str(P / f"{name}.golddistr"), scale]  # fmt: skip
    out = subprocess.run([*args, str(P / "runs" / run_file)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    want = {
        topic: float(value)
        for _, topic, _, value in (line.split("\t") for line in out.stdout.splitlines()[1:])
        if topic != "all"
    }
    assert got == {t: v for t, v in want.items() if t in qrels}


def test_gfr_beside_ndcg_in_calc_aggregate(setup):
    _, _, qrels = setup
    run = list(ir_measures.read_trec_run(str(P / "runs" / "run.bm25-depThre6")))
    with pytest.warns(FairconvWarning, match=ERR_ALONE):
        result = ir_measures.calc_aggregate(
            [ir_measures.nDCG @ 10, fc.GFR(spec="fw1-movies") @ 10], qrels, run
        )
    assert set(map(str, result)) == {"nDCG@10", "GFR(spec='fw1-movies')@10"}
    assert 0 < result[fc.GFR(spec="fw1-movies") @ 10] < 1


def test_an_unknown_spec_lists_the_registered_ones(setup):
    _, _, qrels = setup
    run = list(ir_measures.read_trec_run(str(P / "runs" / "run.bm25-depThre6")))
    with pytest.raises(ValueError, match="no such spec.*fw1-movies"):
        ir_measures.calc_aggregate([fc.GFR(spec="nope") @ 10], qrels, run)


def test_register_spec_checks_its_arguments(setup):
    with pytest.raises(
        ValueError,
        match=r"^The 'name' parameter of ir_measures.register_spec must not contain whitespace",
    ):
        fc.register_spec("a b", setup[1])
    with pytest.raises(TypeError, match=r"^The 'name' parameter of ir_measures.register_spec"):
        fc.register_spec(3, setup[1])
    with pytest.raises(TypeError, match="AttributeData"):
        fc.register_spec("x", ["not a set"])
    assert "fw1-movies" in fc.specs()
    assert gfr.evaluate  # the module imports beside the rest of fairconv
