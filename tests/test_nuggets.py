"""Nugget recall and precision (002, TREC iKAT 2024) from match labels."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import io, nuggets
from fairconv.cli import main
from fairconv.datasets import path
from fairconv.io import read_labels


def test_bundled_labels_per_turn_and_macro(capsys):
    labels = read_labels(path("rag", "ikat-labels.jsonl"))
    t = nuggets.evaluate(labels)
    # T1_1: gold g2, g4 matched of 4; e1, e2, e3 all match; 3 of 4 gold entailed
    assert [t.value("demo-run", "T1_1", m) for m in nuggets.MEASURES] == [0.5, 1.0, 0.75]
    assert [t.value("demo-run", "T1_2", m) for m in nuggets.MEASURES] == [0.0, 0.0, 0.5]
    assert np.isnan(t.value("demo-run", "T2_1", "Precision-NtN"))  # 0/0
    assert t.value("demo-run", "all", "Precision-NtN") == 0.5  # over defined turns
    assert t.value("demo-run", "all", "Recall-NtR") == pytest.approx(1.25 / 3)


def test_micro_pools_the_counts():
    t = nuggets.evaluate(read_labels(path("rag", "ikat-labels.jsonl")), average="micro")
    assert t.value("demo-run", "all", "Recall-NtN") == pytest.approx(2 / 9)
    assert t.value("demo-run", "all", "Precision-NtN") == pytest.approx(3 / 5)
    assert t.value("demo-run", "all", "Recall-NtR") == pytest.approx(4 / 9)


def _loop(rec):
    gold, ext = rec["gold"], rec["extracted"]
    matched_g = {g for _, g in rec["ntn"]}
    matched_e = {e for e, _ in rec["ntn"]}
    ratio = lambda a, b: a / b if b else float("nan")  # noqa: E731
    return (
        ratio(len(matched_g), len(gold)),
        ratio(len(matched_e), len(ext)),
        ratio(len(set(rec["ntr"])), len(gold)),
    )


@st.composite
def records(draw):
    out = []
    for i in range(draw(st.integers(1, 8))):
        gold = [f"g{j}" for j in range(draw(st.integers(0, 6)))]
        ext = [f"e{j}" for j in range(draw(st.integers(0, 6)))]
        pairs = (
            draw(st.lists(st.tuples(st.sampled_from(ext), st.sampled_from(gold)), max_size=8))
            if gold and ext
            else []
        )
        ntr = draw(st.lists(st.sampled_from(gold), unique=True)) if gold else []
        out.append(
            {
                "topic": f"T{i % 3}",
                "turn": f"T{i % 3}_{i}",
                "run": "r",
                "gold": gold,
                "extracted": ext,
                "ntn": [list(p) for p in pairs],
                "ntr": ntr,
            }
        )
    return out


@given(records(), st.randoms(use_true_random=False))
def test_agrees_with_loop_in_range_and_order_free(recs, rnd):
    t = nuggets.evaluate(io.labels_from_records(recs))
    for rec in recs:
        want = _loop(rec)
        for m, w in zip(nuggets.MEASURES, want, strict=False):
            got = t.value("r", rec["turn"], m)
            assert (np.isnan(got) and np.isnan(w)) or got == pytest.approx(w, abs=1e-15)
            assert np.isnan(got) or 0 <= got <= 1
    shuffled = list(recs)
    rnd.shuffle(shuffled)
    t2 = nuggets.evaluate(io.labels_from_records(shuffled))
    np.testing.assert_allclose(t.mean()[0], t2.mean()[0], atol=1e-15)


GOOD = {"topic": "T", "turn": "T_1", "gold": ["g1"], "extracted": ["e1"]}


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"ntn": [["e1", "g9"]]},
            r"""l\.jsonl:1: "ntn" names nuggets that are not in "extracted" or "gold": \['g9'\]""",
        ),
        ({"ntn": [["e9", "g1"]]}, r"""\['e9'\]"""),
        ({"ntr": ["g2"]}, r""""ntr" names nuggets that are not in "gold": \['g2'\]"""),
        ({"ntr": ["g1", "g1"]}, r""""ntr" lists the nugget id 'g1' twice"""),
        ({"turn": None}, r""""turn" must be a non-empty string, got null"""),
        ({"gold": "g1"}, r'"gold" must be an array of nugget ids, got "g1"'),
        ({"gold": ["g1", "g1"]}, r""""gold" lists the nugget id 'g1' twice"""),
        ({"extracted": [1]}, r""""extracted\[0\]" must be a non-empty string, got 1"""),
        ({"gold": [True]}, r""""gold\[0\]" must be a non-empty string, got true"""),
        ({"topic": 7}, r""""topic" must be a non-empty string, got 7"""),
        ({"topic": "T 1"}, r""""topic" must not contain whitespace"""),
        ({"run": "a\tb"}, r""""run" must not contain whitespace"""),
        ({"run": ""}, r""""run" must be a non-empty string"""),
        ({"ntn": [["e1"]]}, r""""ntn" must be an array of \[extracted, gold\] pairs"""),
        ({"ntn": {"e1": "g1"}}, r""""ntn" must be an array"""),
        ({"ntn": [["e1", 2]]}, r""""ntn\[0\]\[1\]" must be a non-empty string, got 2"""),
        ({"ntr": "g1"}, r""""ntr" must be an array of nugget ids"""),
    ],
)
def test_bad_labels_name_file_line_and_field(tmp_path, change, message):
    (tmp_path / "l.jsonl").write_text(json.dumps(dict(GOOD, **change)) + "\n")
    with pytest.raises(ValueError, match=message):
        read_labels(tmp_path / "l.jsonl")


@pytest.mark.parametrize("missing", ["topic", "turn", "gold", "extracted"])
def test_missing_fields(missing):
    rec = {k: v for k, v in GOOD.items() if k != missing}
    with pytest.raises(ValueError, match=f'record 1: a label record needs "{missing}"'):
        io.labels_from_records([rec])


def test_records_that_are_not_objects():
    with pytest.raises(
        ValueError, match=r"record 2: a label record must be a JSON object, got \[1\]"
    ):
        io.labels_from_records([GOOD, [1]])


def test_empty_label_file_is_an_error(tmp_path):
    (tmp_path / "l.jsonl").write_text("\n\n")
    with pytest.raises(ValueError, match="l.jsonl.*empty"):
        read_labels(tmp_path / "l.jsonl")


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: io.labels_from_records(GOOD),
            TypeError,
            "'records' parameter of io.labels_from_records",
        ),
        (
            lambda: io.labels_from_records("abc"),
            TypeError,
            "'records' parameter of io.labels_from_records",
        ),
        (
            lambda: io.labels_from_records([]),
            ValueError,
            "'records' parameter of io.labels_from_records must hold at least one",
        ),
        (
            lambda: io.labels_from_records([GOOD], sources=["a", "b"]),
            ValueError,
            "'sources' parameter of io.labels_from_records.*Got 2",
        ),
        (
            lambda: io.labels_from_records([GOOD], sources=[1]),
            TypeError,
            "'sources' parameter of io.labels_from_records",
        ),
        (
            lambda: nuggets.evaluate([GOOD]),
            TypeError,
            "'labels' parameter of nuggets.evaluate must be a MatchLabels.*Got list",
        ),
        (
            lambda: nuggets.evaluate(io.labels_from_records([GOOD]), average="mean"),
            ValueError,
            "'average' parameter of nuggets.evaluate",
        ),
        (lambda: read_labels(3), TypeError, "'path' parameter of io.read_labels"),
        (
            lambda: io.MatchLabels(("r",), ("t",), ("u",), np.array([[2, 1, 0, 0, 0]]), ("s",)),
            ValueError,
            "'counts' parameter of io.MatchLabels",
        ),
        (
            lambda: io.MatchLabels(("r",), ("t",), (), np.zeros((1, 5), int), ("s",)),
            ValueError,
            "'turns' parameter of io.MatchLabels",
        ),
    ],
)
def test_bad_arguments_name_function_and_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_average_is_case_insensitive_and_micro_differs_from_macro():
    labels = read_labels(path("rag", "ikat-labels.jsonl"))
    micro = nuggets.evaluate(labels, average="MICRO")
    macro = nuggets.evaluate(labels)
    assert micro.value("demo-run", "all", "Recall-NtN") == pytest.approx(2 / 9)
    assert macro.value("demo-run", "all", "Recall-NtN") == pytest.approx((0.5 + 0 + 0) / 3)


def test_turn_ids_that_do_not_start_with_their_topic_are_prefixed():
    recs = [dict(GOOD, topic="T1", turn="T10_1"), dict(GOOD, topic="T10", turn="T10_1")]
    t = nuggets.evaluate(io.labels_from_records(recs))
    assert t.topics == ("T1/T10_1", "T10_1")


def test_cli(capsys):
    assert main(["nuggets", str(path("rag", "ikat-labels.jsonl"))]) == 0
    out = capsys.readouterr().out
    assert "demo-run\tT1_1\tRecall-NtN\t0.5\n" in out
    assert "demo-run\tT2_1\tPrecision-NtN\tNaN\n" in out
    assert "demo-run\tall\tn[Precision-NtN]\t2\n" in out
    assert main(["nuggets", "--micro", str(path("rag", "ikat-labels.jsonl"))]) == 0
    assert "demo-run\tall\tRecall-NtN\t0.2222222222222222\n" in capsys.readouterr().out


# --------------------------------------------------------------------------- row names
@pytest.mark.parametrize(
    "pairs, names",
    [
        ([("T1", "2"), ("T1", "T1/2")], ("T1/2", "T1/T1%2F2")),
        ([("A/x", "y"), ("A", "x/y")], ("A%2Fx/y", "A/x%2Fy")),
        ([("T1", "T1_1"), ("T1_1", "T1_1")], ("T1/T1_1", "T1_1/T1_1")),  # one turn id, 2 topics
        ([("A", "A%2Fx/y"), ("A/x", "y")], ("A%2Fx/y", "A/A%252Fx%2Fy")),
        ([("T1", "T1_1"), ("T1", "T1_2"), ("T2", "3")], ("T1_1", "T1_2", "T2/3")),  # ordinary
    ],
)
def test_distinct_topic_turn_pairs_get_distinct_rows(pairs, names):
    """002 scores each evaluated turn (Eqs. 4-6): two distinct (topic, turn) pairs are
    two turns, never one row reported as a duplicate."""
    recs = [dict(GOOD, topic=p, turn=t) for p, t in pairs]
    t = nuggets.evaluate(io.labels_from_records(recs))
    assert sorted(t.topics) == sorted(names)
    assert len(t.topics) == len(pairs)


# ids that make topic, turn, separator and escape look alike
TOPICS = st.sampled_from(["T1", "T1/2", "T1_1", "T1%2F2", "%", "A/x"])
TURNS = st.sampled_from(["2", "T1/2", "T1_1", "_1", "%2F2", "T1%2F2", "/2", "x/2"])


@given(st.lists(st.tuples(TOPICS, TURNS), min_size=2, max_size=8, unique=True))
def test_row_names_are_one_to_one_with_the_pairs(pairs):
    recs = [dict(GOOD, topic=p, turn=t) for p, t in pairs]
    t = nuggets.evaluate(io.labels_from_records(recs))
    assert len(t.topics) == len(pairs)


def test_the_same_pair_twice_in_one_run_is_still_an_error():
    with pytest.raises(ValueError, match=r"run 'run' has two entries for topic 'T_1'"):
        nuggets.evaluate(io.labels_from_records([GOOD, GOOD]))


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("tpoic", r"record 1: unknown field \"tpoic\" in a label record. Did you mean 'topic'\?"),
        ("score", r"record 1: unknown field \"score\" in a label record \(the fields are topic,"),
    ],
)
def test_unknown_fields_of_label_records_are_refused(field, message):
    rec = {"topic": "T1", "turn": "T1_1", "gold": [], "extracted": [], field: 1}
    with pytest.raises(ValueError, match=message):
        io.labels_from_records([rec])


def test_ratios_is_the_array_function_of_evaluate():
    counts = np.array([[[1, 2, 1, 1, 2], [0, 0, 0, 3, 0]]])
    r = nuggets.ratios(counts)
    assert r["Recall-NtN"].shape == (1, 2)
    assert r["Recall-NtR"][0, 0] == 1.0 and np.isnan(r["Recall-NtR"][0, 1])
    with pytest.raises(ValueError, match="The 'counts' parameter of nuggets.ratios must"):
        nuggets.ratios([[2, 1, 0, 0, 0]])


def test_evaluate_measures_picks_and_orders_the_columns():
    labels = read_labels(path("rag", "ikat-labels.jsonl"))
    t = nuggets.evaluate(labels, measures=["Recall-NtR", "Recall-NtN"])
    assert t.measures == ("Recall-NtR", "Recall-NtN")
    assert t.value("demo-run", "T1_1", "Recall-NtR") == 0.75
    with pytest.raises(ValueError, match="'Recall_NtN', the old spelling of 'Recall-NtN'"):
        nuggets.evaluate(labels, measures=["Recall_NtN"])


@pytest.mark.parametrize("name", ["MatchLabels", "labels_from_records"])
def test_the_label_records_keep_working_from_their_old_home_for_one_release(name):
    with pytest.warns(
        DeprecationWarning, match=rf"fairconv\.nuggets\.{name} has moved to fairconv\.io"
    ):
        assert getattr(nuggets, name) is getattr(io, name)


def test_the_nugget_readers_are_ios_objects():
    """One home per reader, documented there: nuggets re-exports the same objects."""
    assert nuggets.read_nuggetizer is io.read_nuggetizer
    assert nuggets.read_cone_rag is io.read_cone_rag
    assert nuggets.NuggetizerAssignments is io.NuggetizerAssignments


def test_labels_that_name_no_run_give_a_run_that_reads_back(tmp_path, capsys):
    """In memory, the run named ``run`` (never ""); in a file, the file's name: either way
    the TSV written reads back with the same values."""
    from fairconv.io import read_scores

    recs = [{**GOOD, "topic": f"T{k}", "turn": f"T{k}_1"} for k in range(3)]
    labels = io.labels_from_records(recs)
    assert set(labels.runs) == {"run"}
    out = tmp_path / "scores.tsv"
    table = nuggets.evaluate(labels)
    table.to_tsv(out)
    back = read_scores(out)
    assert back.runs == ("run",) and back.value("run", "T1_1", "Recall-NtN") == table.value(
        "run", "T1_1", "Recall-NtN"
    )
    f = tmp_path / "my-labels.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    cli_out = tmp_path / "cli.tsv"
    assert main(["nuggets", "-o", str(cli_out), str(f)]) == 0
    assert read_scores(cli_out).runs == ("my-labels.jsonl",)


def test_a_run_without_labels_for_a_turn_is_left_out_there_with_a_notice(tmp_path, capsys):
    from fairconv import FairconvWarning

    recs = [{**GOOD, "run": r, "topic": t, "turn": f"{t}_1"}
            for r, t in (("a", "T1"), ("a", "T2"), ("b", "T1"))]  # fmt: skip
    message = (
        r"^run 'b' has no match labels for 1 of the 2 topics scored \(T2_1\): they are left "
        r"out of its mean$"
    )
    with pytest.warns(FairconvWarning, match=message) as caught:
        table = nuggets.evaluate(io.labels_from_records(recs))
    assert len(caught) == 1 and caught[0].filename == __file__
    assert table.notices == {"topics_scored": 2, "topics_missing": {"a": 0, "b": 1}}
    assert not table.present[table.topics.index("T2_1"), table.runs.index("b")].any()
    f = tmp_path / "l.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert main(["nuggets", "-o", str(tmp_path / "o.tsv"), str(f)]) == 0
    assert capsys.readouterr().err == (
        "fairconv nuggets: warning: run 'b' has no match labels for 1 of the 2 topics scored "
        "(T2_1): they are left out of its mean\n"
    )
