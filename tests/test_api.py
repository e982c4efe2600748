"""The public API's shape: one pattern per family, names, measures and tables by name,
weights; every public function checks its arguments."""

import inspect
import subprocess
import sys
from pathlib import Path
from re import escape as re_escape

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fairconv
from fairconv import AttributeSet, gfr, gfrc, gfrc2, nuggets, ragfair, rankings
from fairconv.cli import main
from fairconv.conversation import ConversationOptions
from fairconv.datasets import PILOT_ATTRIBUTES, fairweb1_pilot, load_case, path
from fairconv.io import (
    find_span,
    read_answers,
    read_labels,
    read_run,
    turns_of,
    word_at,
)
from fairconv.results import MeasureName, ScoreTable

NAME = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz_-0123456789", min_size=1, max_size=12)
WORD = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789", min_size=1, max_size=6)
BASE = st.builds(
    lambda first, rest: first + "".join(sep + w for sep, w in rest),
    WORD,
    st.lists(st.tuples(st.sampled_from("-*"), WORD), max_size=3),
)


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


@pytest.fixture(scope="module")
def pilot_table(pilot):
    return gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10])


# --------------------------------------------------------------------------- names
@given(
    BASE,
    st.one_of(st.none(), st.integers(1, 10**6)),
    st.one_of(st.none(), NAME),
)
def test_measure_names_round_trip(base, cutoff, attribute):
    name = MeasureName(base, cutoff, attribute)
    assert MeasureName.parse(str(name)) == name


@pytest.mark.parametrize(
    "bad",
    ["", "GFR@", "GFR@0", "GFR@10[", "GF[A]@10", "a b", "GFR@-1", "GF__Re", "-GF", "GF-", "a--b"],
)
def test_malformed_measure_names_are_refused(bad):
    with pytest.raises(ValueError, match="not a measure name"):
        MeasureName.parse(bad)


def test_measure_bases_are_words_joined_by_hyphens_or_stars():
    assert MeasureName.join("GF", "JSD") == "GF-JSD"
    assert MeasureName.join("nDCG", "AWRF", product=True) == "nDCG*AWRF"
    assert MeasureName.parse("nDCG*AWRF@20[S]") == MeasureName("nDCG*AWRF", 20, "S")
    with pytest.raises(ValueError, match="not a word"):
        MeasureName.join("GF", "J_SD")
    with pytest.raises(ValueError, match="not a measure name"):
        MeasureName("GF JSD")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("GF_Re", "GF-Re"),
        ("GF_Re@10[ORIGIN]", "GF-Re@10[ORIGIN]"),
        ("GF_Gen[ORIGIN]", "GF-Gen[ORIGIN]"),
        ("Recall_NtN", "Recall-NtN"),
        ("Precision_NtN", "Precision-NtN"),
        ("Recall_NtR", "Recall-NtR"),
    ],
)
def test_an_old_measure_name_is_an_error_naming_the_new_one(old, new):
    with pytest.raises(ValueError, match=f"'{re_escape(old)}' is now spelled '{re_escape(new)}'"):
        MeasureName.parse(old)
    table = ScoreTable(
        topics=("t",),
        runs=("r",),
        measures=(new,),
        values=np.zeros((1, 1, 1)),
        present=np.ones((1, 1, 1), bool),
    )
    with pytest.raises(KeyError, match=f"old spelling of '{re_escape(new)}'"):
        table[old]
    with pytest.raises(KeyError, match=f"old spelling of '{re_escape(new)}'"):
        table.value("r", "t", old)


def test_old_measure_names_are_errors_in_evaluate_and_on_the_command_line(pilot, capsys):
    with pytest.raises(ValueError, match="'GF_Re@10' is now spelled 'GF-Re@10'"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GF_Re@10"])
    labels = Path(fairconv.__file__).parent / "data" / "rag" / "ikat-labels.jsonl"
    assert main(["nuggets", "-m", "Recall_NtR", str(labels)]) == 2
    err = capsys.readouterr().err
    assert "'Recall_NtR', the old spelling of 'Recall-NtR'" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("asked", "meant"),
    [
        ("gfr@10", "GFR@10"),
        ("GFR@99", None),
        ("GFR@01", "GFR@10"),
        ("GRF@10", "GFR@10"),
        ("GFR@1", "GFR@10"),
        ("GFRR@10", "GFR@10"),
        ("ER@10", "ERR@10"),
        ("iRBU@10x", "iRBU@10"),
    ],
)
def test_an_unknown_measure_gets_did_you_mean_within_one_edit(pilot_table, asked, meant):
    with pytest.raises(KeyError) as info:
        pilot_table[asked]
    message = str(info.value)
    if meant is None:
        assert "Did you mean" not in message and "valid measures" in message
    else:
        assert f"Did you mean '{meant}'" in message or f"or '{meant}'" in message
    with pytest.raises(ValueError, match="must name measures it computes") as info:
        _pick(pilot_table, asked)
    assert ("Did you mean" in str(info.value)) == (meant is not None)


def _pick(table, asked):
    from fairconv.results import pick

    return pick(table, [asked])


def test_every_printed_name_parses(pilot_table):
    for m in pilot_table.measures:
        assert str(MeasureName.parse(m)) == m


# --------------------------------------------------------------------------- one pattern
FAMILIES = [(gfr, gfr.gfr), (gfrc, gfrc.gfrc), (gfrc2, gfrc2.gfrc2), (ragfair, ragfair.ragfair)]
FAMILIES += [(nuggets, nuggets.ratios)]  # nuggets' array function: the per-turn ratios


@pytest.mark.parametrize("module, array_fn", FAMILIES, ids=lambda x: getattr(x, "__name__", ""))
def test_each_family_exports_an_array_function_of_dicts_and_an_evaluate_of_tables(module, array_fn):
    """The family pattern: ``f(data, /, *, options) -> dict`` and ``evaluate -> ScoreTable``."""
    assert {array_fn.__name__, "evaluate"} <= set(module.__all__)
    assert array_fn.__module__ == module.__name__ == module.evaluate.__module__
    for func, returns in ((array_fn, "dict[str, np.ndarray]"), (module.evaluate, "ScoreTable")):
        sig = inspect.signature(inspect.unwrap(func))
        assert sig.return_annotation == returns, (func.__qualname__, sig.return_annotation)
        kinds = [p.kind for p in sig.parameters.values()]
        data = [p for p in sig.parameters.values() if p.kind is p.POSITIONAL_ONLY]
        assert data and kinds == sorted(kinds), (func.__qualname__, kinds)
        assert set(kinds) <= {inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.KEYWORD_ONLY}
    # evaluate takes the array function's options of the same name, keyword-only
    options = {
        n for n, p in inspect.signature(array_fn).parameters.items() if p.kind is p.KEYWORD_ONLY
    }
    evaluate_params = inspect.signature(module.evaluate).parameters
    shared = options & set(evaluate_params)
    assert all(evaluate_params[n].kind is inspect.Parameter.KEYWORD_ONLY for n in shared)
    assert shared == options - {"lengths"}, options - set(evaluate_params)
    assert evaluate_params["measures"].kind is inspect.Parameter.KEYWORD_ONLY


def test_ragfair_arrays_agree_with_evaluate_on_the_pilot_answers(pilot):
    movies = [a for a in pilot.attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    for data in movies:  # one set at a time: its columns and the overall values
        a = data.attribute
        table = ragfair.evaluate(pilot.qrels, pilot.runs, [data], answers, cutoffs=[10])
        lists = rankings.prepare(pilot.qrels, pilot.runs, [data])
        cov = lists.covered[0]
        d_a = np.full((len(cov), len(lists.runs), a.n_groups), np.nan)
        for i, (run, topic) in enumerate(zip(answers.runs, answers.topics, strict=True)):
            if lists.topics.index(topic) in cov.tolist():
                row = cov.tolist().index(lists.topics.index(topic))
                d_a[row, lists.runs.index(run)] = answers.distributions[a.name][i]
        got = ragfair.ragfair(
            lists.padded_levels(cov),
            [lists.padded_memberships(0, cov)],
            [d_a],
            [a],
            lengths=lists.lengths[cov],
            cutoffs=[10],
        )
        assert set(got) == set(table.measures)
        checked = 0
        for name, values in got.items():
            for j, t in enumerate(cov):
                for r, run in enumerate(lists.runs):
                    want = table.value(run, lists.topics[t], name)
                    assert values[j, r] == want or (np.isnan(want) and np.isnan(values[j, r])), (
                        name, run, lists.topics[t], values[j, r], want,
                    )  # fmt: skip
                    checked += np.isfinite(want)
        assert checked >= 20, checked


def test_nuggets_ratios_agree_with_evaluate_per_turn():
    labels = read_labels(path("rag", "ikat-labels.jsonl"))
    per = nuggets.ratios(labels.counts)
    table = nuggets.evaluate(labels)
    assert [t for t in table.topics if t != "all"] == ["T1_1", "T1_2", "T2_1"]
    for i, (run, topic, turn) in enumerate(
        zip(labels.runs, labels.topics, labels.turns, strict=True)
    ):
        unit = turn if turn.startswith(topic) else f"{topic}/{turn}"
        for name in nuggets.MEASURES:
            want = table.value(run, unit, name)
            assert per[name][i] == want or (np.isnan(want) and np.isnan(per[name][i]))


def test_conversation_families_agree_between_dict_and_table():
    batch = load_case("r112").conversations
    for module, array_fn in ((gfrc, gfrc.gfrc), (gfrc2, gfrc2.gfrc2)):
        arrays = array_fn(batch, preset="gfrc2-paper")
        table = module.evaluate(batch, preset="gfrc2-paper")
        for name, values in arrays.items():
            for i, run in enumerate(batch.runs):
                assert table.value(run, batch.topics[i], name) == values[i]


def test_gfr_arrays_agree_with_evaluate_on_the_pilot(pilot, pilot_table):
    lists = rankings.prepare(pilot.qrels, pilot.runs, pilot.attributes)
    m = [a.attribute.name for a in pilot.attributes].index("M-ORIGIN")
    cov = lists.covered[m]
    a = pilot.attributes[m].attribute
    got = gfr.gfr(
        lists.padded_levels(cov),
        [lists.padded_memberships(m, cov)],
        [a],
        lengths=lists.lengths[cov],
        cutoffs=[10],
    )
    assert got["ERR@10"].shape == (len(cov), len(lists.runs))
    for j, t in enumerate(cov):
        for r, run in enumerate(lists.runs):
            topic = lists.topics[t]
            for name in ("ERR@10", "GF-JSD@10[M-ORIGIN]"):
                assert got[name][j, r] == pytest.approx(
                    pilot_table.value(run, topic, name), abs=1e-15
                )


def test_fairconv_exposes_its_modules():
    for name in ("gfr", "gfrc", "gfrc2", "ragfair", "nuggets", "results", "datasets"):
        assert getattr(fairconv, name).__name__ == f"fairconv.{name}"
    with pytest.raises(AttributeError):
        fairconv.nonexistent  # noqa: B018


def test_python_dash_m_fairconv_works():
    out = subprocess.run(
        [sys.executable, "-m", "fairconv", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and out.stdout.strip() == f"fairconv {fairconv.__version__}"


# --------------------------------------------------------------------------- tables by name
def test_table_by_measure_name(pilot_table):
    one = pilot_table["GFR@10"]
    assert isinstance(one, ScoreTable) and one.measures == ("GFR@10",)
    assert one.value("Anserini-bm25", "P002", "GFR@10") == pilot_table.value(
        "Anserini-bm25", "P002", "GFR@10"
    )
    assert set(one.to_dict()["Anserini-qld"]["all"]) == {"GFR@10"}
    means = pilot_table.means()
    assert means["Anserini-bm25"]["GFR@10"] == one.means()["Anserini-bm25"]["GFR@10"]
    assert means["Anserini-bm25"]["GFR@10"] == pytest.approx(
        np.mean([one.value("Anserini-bm25", t, "GFR@10") for t in one.topics]), abs=1e-15
    )


def test_subset_of_measures_keeps_their_coverage(pilot_table):
    sub = pilot_table[["GF-JSD@10[M-ORIGIN]", "ERR@10"]]
    assert sub.measures == ("GF-JSD@10[M-ORIGIN]", "ERR@10")
    assert set(sub.to_dict()["Anserini-bm25"]) == {"P001", "P002", "P003", "P004", "all"}
    assert "P001" not in {
        t for t, cells in sub.to_dict()["Anserini-bm25"].items() if "GF-JSD@10[M-ORIGIN]" in cells
    }


@pytest.mark.parametrize(
    "call, listed",
    [
        (lambda t: t["GFR@11"], "GFR@10"),
        (lambda t: t.value("nobody", "P001", "GFR@10"), "Anserini-bm25"),
        (lambda t: t.value("Anserini-bm25", "P999", "GFR@10"), "P001"),
        (lambda t: t.select(runs=["nobody"]), "Anserini-qld"),
    ],
)
def test_unknown_names_are_key_errors_listing_the_valid_ones(pilot_table, call, listed):
    with pytest.raises(KeyError, match=listed):
        call(pilot_table)


def test_wide_frame(pilot_table):
    import pandas as pd

    frame = pilot_table[["GFR@10", "GF-JSD@10[M-ORIGIN]"]].to_frame(wide=True)
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (3 * 4, 2)
    assert np.isnan(frame.loc[("Anserini-bm25", "P001"), "GF-JSD@10[M-ORIGIN]"])
    assert frame.loc[("Anserini-bm25", "P002"), "GFR@10"] == pilot_table.value(
        "Anserini-bm25", "P002", "GFR@10"
    )


# --------------------------------------------------------------------------- weights
def test_explicit_weights_are_renormalised_over_the_sets_covering_a_topic(pilot, pilot_table):
    """On P002 only ERR, M-RATINGS and M-ORIGIN exist: their weights are renormalised."""
    w = [0.4, 0.1, 0.1, 0.1, 0.2, 0.05, 0.05]  # ERR, then the six sets in pilot order
    t = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10], weights=w)
    names = [n for n, _ in PILOT_ATTRIBUTES]
    for run in t.runs:
        parts = [(w[0], pilot_table.value(run, "P002", "ERR@10"))]
        for name, scale in PILOT_ATTRIBUTES:
            if name.startswith("M-"):
                div = "RNOD" if scale == "ordinal" else "JSD"
                value = pilot_table.value(run, "P002", f"GF-{div}@10[{name}]")
                parts.append((w[1 + names.index(name)], value))
        want = sum(wi * v for wi, v in parts) / sum(wi for wi, _ in parts)
        assert t.value(run, "P002", "GFR@10") == pytest.approx(want, abs=1e-15)


def test_equal_default_weights_are_the_fairweb_mean(pilot_table):
    """FairWeb: GFR on a movie topic is (ERR + GF-RNOD[M-RATINGS] + GF-JSD[M-ORIGIN]) / 3."""
    for run in pilot_table.runs:
        parts = [
            pilot_table.value(run, "P002", m)
            for m in ("ERR@10", "GF-RNOD@10[M-RATINGS]", "GF-JSD@10[M-ORIGIN]")
        ]
        assert pilot_table.value(run, "P002", "GFR@10") == pytest.approx(sum(parts) / 3, abs=1e-15)


@pytest.mark.parametrize(
    "weights, message",
    [
        ([0.5, 0.5], "hold 7 weights"),
        ([0.5] * 7, "sum to 1"),
        ([1.5, -0.5, 0, 0, 0, 0, 0], "non-negative"),
        ([np.nan] * 7, "finite"),
        ("1,0,0", "sequence of numbers"),
    ],
)
def test_bad_weights(pilot, weights, message):
    with pytest.raises((ValueError, TypeError), match=message):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, weights=weights)


def test_gfrc_weights_cover_r_and_every_set():
    batch = load_case("r112").conversations
    plain = gfrc.gfrc(batch, preset="gfrc2-paper")
    only_r = gfrc.gfrc(batch, preset="gfrc2-paper", weights=[1, 0, 0])
    np.testing.assert_array_equal(only_r["GFRC"], plain["R"])
    w = [0.2, 0.5, 0.3]
    got = gfrc.gfrc(batch, preset="gfrc2-paper", weights=w)
    np.testing.assert_allclose(
        got["GF"], (0.5 * plain["GF[PRONOUN]"] + 0.3 * plain["GF[HINDEX]"]) / 0.8, atol=1e-15
    )
    np.testing.assert_allclose(got["GFRC"], 0.2 * plain["R"] + 0.8 * got["GF"], atol=1e-15)


# --------------------------------------------------------------------------- options
def test_presets_set_the_fields_that_apply():
    assert ConversationOptions.resolve() == ConversationOptions(L=1000, variant="eq7")
    evia = ConversationOptions.resolve("evia2023")
    assert (evia.L, evia.variant, evia.gain) == (1250, "eq6", "linear")
    assert ConversationOptions.resolve("evia2023", L=500).L == 500
    with pytest.raises(TypeError, match="unknown option"):
        ConversationOptions.resolve(alpha=0.5)


def test_gfrc2_takes_the_presets_patience():
    batch = load_case("r112").conversations
    a = gfrc2.gfrc2(batch, preset="evia2023")
    b = gfrc2.gfrc2(batch, L=1250)
    np.testing.assert_array_equal(a["GFRC2"], b["GFRC2"])


# --------------------------------------------------------------------------- names of runs
def test_two_runs_with_one_name_are_an_error_naming_both_files(tmp_path, pilot):
    src = pilot.runs[0].source
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "run.txt").write_bytes(Path(src).read_bytes())
    runs = [read_run(tmp_path / d / "run.txt") for d in ("a", "b")]
    with pytest.raises(
        ValueError, match=r"two runs are named 'Anserini-bm25': .*a/run\.txt and .*b/run\.txt"
    ):
        gfr.evaluate(pilot.qrels, runs, pilot.attributes)


def test_two_attribute_sets_with_one_name_are_refused(pilot):
    twice = [pilot.attributes[0], pilot.attributes[0]]
    with pytest.raises(ValueError, match="distinct names"):
        gfr.evaluate(pilot.qrels, pilot.runs, twice)
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    with pytest.raises(ValueError, match="distinct names"):
        gfr.gfr([[1]], [[[[1.0, 0.0]]], [[[1.0, 0.0]]]], [a, a])


# --------------------------------------------------------------------------- ragged lists
def test_scores_do_not_depend_on_the_block_size(pilot, pilot_table, monkeypatch):
    """Lists are stored flat and scored in padded blocks; tiny blocks give the same table."""
    monkeypatch.setattr(rankings, "BLOCK_ELEMENTS", 7)
    small = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[10])
    np.testing.assert_array_equal(small.present, pilot_table.present)
    np.testing.assert_array_equal(small.values, pilot_table.values)


@given(st.lists(st.integers(0, 60), min_size=1, max_size=40), st.integers(1, 500))
def test_blocks_cover_every_topic_once_within_their_budget(lengths, budget):
    import unittest.mock

    n = len(lengths)
    lens = np.array(lengths, dtype=np.int64)[:, None]
    offsets = np.concatenate(([0], np.cumsum(lens.ravel())[:-1])).reshape(n, 1)
    lists = rankings.RankedLists(
        tuple(map(str, range(n))), ("r",), lens, offsets, np.zeros(int(lens.sum()), np.int64),
        [], [], [],
    )  # fmt: skip
    with unittest.mock.patch.object(rankings, "BLOCK_ELEMENTS", budget):
        blocks = lists.blocks(np.arange(n), width=2)
    assert sorted(np.concatenate(blocks).tolist()) == list(range(n))
    for b in blocks:
        padded = len(b) * max(1, int(lens[b].max())) * 2
        assert padded <= budget or len(b) == 1
        assert lists.padded_levels(b).shape == (len(b), 1, max(1, int(lens[b].max())))


SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]


def _re(text):
    import re

    return re.escape(text)


# --------------------------------------------------------------------------- rule 9
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: ragfair.rigf(["a"], [1.0]), TypeError, "'gf_gen' parameter of ragfair.rigf"),
        (lambda: ragfair.rigf([1.0, 2.0], [1.0, 2.0, 3.0]), ValueError,
         "'gf_re' parameter of ragfair.rigf"),
        (lambda: ragfair.adsim([0.5, 0.5], [1.0, 0.0, 0.0], divergence="jsd"), ValueError,
         "'answer_distribution' parameter of ragfair.adsim"),
        (lambda: ragfair.adsim([0.5, 0.5], [1, 0], divergence="KL"), ValueError,
         "'divergence' parameter of ragfair.adsim"),
        (lambda: ragfair.gf_gen([0.5, 0.6], [0.5, 0.5], divergence="jsd"), ValueError,
         "'answer_distribution' parameter of ragfair.gf_gen"),
        (lambda: ragfair.attention_distribution([1.5], [[1, 0]]), ValueError,
         "'levels' parameter of ragfair.attention_distribution"),
        (lambda: ragfair.attention_distribution([1], [[1, 0]], cutoff=0), ValueError,
         "'cutoff' parameter of ragfair.attention_distribution"),
        (lambda: turns_of(None), TypeError,
         "'text' parameter of io.turns_of must be a string"),
        (lambda: find_span("U:a S:b", "b", occurrence=0), ValueError,
         "'occurrence' parameter of io.find_span"),
        (lambda: word_at("U:a", -1), ValueError, "'offset' parameter of io.word_at"),
        (lambda: gfr.gfr([[1]], np.zeros((1, 1, 2)), [SETS[0]]), TypeError,
         "'memberships' parameter of gfr.gfr"),
        (lambda: gfrc.gfrc("batch.jsonl"), TypeError, "'batch' parameter of gfrc.gfrc"),
    ],
)  # fmt: skip
def test_rule9_every_public_function_checks_its_arguments(call, error, message):
    with pytest.raises(error, match=_re(message)):
        call()


P = path("fairweb1-pilot")


ORIGIN = ("--attribute", "M-ORIGIN", str(P / "fairweb1pilot.M-ORIGIN.gmemb"),
          str(P / "M-ORIGIN.golddistr"), "nominal")  # fmt: skip


def test_gfr_measures_by_name_give_their_cutoffs(pilot):
    names = ["GFR@10", "GF-JSD@5[M-ORIGIN]", "ERR"]
    picked = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=names)
    full = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, cutoffs=[5, 10])
    assert picked.measures == tuple(names)
    for run in full.runs:
        for topic in full.topics:
            for m in names:
                try:
                    want = full.value(run, topic, m)
                except KeyError:  # the set does not cover the topic
                    with pytest.raises(KeyError):
                        picked.value(run, topic, m)
                    continue
                assert picked.value(run, topic, m) == want


def test_unknown_measure_names_list_the_valid_ones(pilot):
    with pytest.raises(ValueError, match=r"must name measures it computes \(ERR, iRBU, .*GFR@7"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@7", "nDCG@7"])
    with pytest.raises(ValueError, match="not a measure name"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@"])
    with pytest.raises(ValueError, match=r"'cutoffs' .* must include the depths the measures ask"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["GFR@10"], cutoffs=[5])


def test_conversation_and_rag_measures_by_name(pilot):
    batch = load_case("r112").conversations
    assert gfrc.evaluate(batch, measures=["GFRC", "R"]).measures == ("GFRC", "R")
    assert gfrc2.evaluate(batch, measures=["EGF[HINDEX]"]).measures == ("EGF[HINDEX]",)
    with pytest.raises(ValueError, match="GFRC2"):
        gfrc2.evaluate(batch, measures=["GFRC"])
    movies = [a for a in pilot.attributes if a.attribute.name.startswith("M-")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    t = ragfair.evaluate(pilot.qrels, pilot.runs, movies, answers, measures=["RIGF@10", "GF-Gen"])
    assert t.measures == ("RIGF@10", "GF-Gen")
