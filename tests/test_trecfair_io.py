"""trecfair from files: the readers, evaluate() and build_targets() (docs/trecfair.md 5-9).

The values are checked against the loop oracle (tests/trecfair_oracle.py) on random
cases written out in the track's file formats; every bad input the spec lists has a
case naming its file and line (or field).
"""

import gzip
import json
import math
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trecfair_oracle as oracle
from fairconv import io as fio
from fairconv import trecfair as tf
from fairconv._validation import FairconvWarning
from fairconv.io import FileFormatError, Qrels, Run

WORK = ["Stub", "Start", "C", "B", "GA", "FA"]


# --------------------------------------------------------------------------- writing cases
def _cats(case):
    out = []
    for j, g in enumerate(case["sizes"]):
        unknown = "@UNKNOWN" if case["edition"] == 2022 else ("Unknown" if j == 0 else "unknown")
        out.append([unknown] + [f"cat {j} {i}" for i in range(1, g)])  # names with spaces
    return out


def _write_case(case, d, *, sep=",", rng=None):
    """Write a case in the track's formats; returns the evaluate() inputs.

    With ``rng``, the table rows, the topics' blocks in the run and the qrels, and the
    Task 2 rankings come in a random order, with random distinct ``seq_no`` values.
    """
    cats = _cats(case)
    names = [f"dim{j}" for j in range(len(case["sizes"]))]
    pages = sorted(case["table"])
    topic_order = list(range(len(case["topics"])))
    if rng is not None:
        pages = [pages[i] for i in rng.permutation(len(pages))]
        topic_order = [int(i) for i in rng.permutation(len(topic_order))]
    dims = []
    for j, (name, cn) in enumerate(zip(names, cats, strict=True)):
        path = d / f"page-{name}-align.csv"
        lines = [sep.join(["page_id", *cn])]
        for p in pages:
            lines.append(sep.join([str(p)] + [repr(float(x)) for x in case["table"][p][j]]))
        path.write_text("\n".join(lines) + "\n")
        dims.append(tf.read_alignment(name, path))
    qrels = d / "qrels.jsonl"
    qrels.write_text(
        "".join(
            json.dumps({"id": i + 1, "title": "t", "rel_docs": case["topics"][i]["relevant"]})
            + "\n"
            for i in topic_order
        )
    )
    run = d / "run.tsv.gz"
    with gzip.open(run, "wt") as f:
        if case["task"] == 1:
            f.write("id\tpage_id\n")
            for i in topic_order:
                f.writelines(f"{i + 1}\t{p}\n" for p in case["topics"][i]["ranking"])
        else:
            f.write("id\tseq_no\tpage_id\n")
            for i in topic_order:
                rankings = case["topics"][i]["rankings"]
                seqs = [3 * s - 4 for s in range(len(rankings))]
                order = list(range(len(rankings)))
                if rng is not None:
                    seqs = [int(x) for x in rng.choice(10**6, len(rankings), replace=False) - 5000]
                    order = [int(x) for x in rng.permutation(len(rankings))]
                for s in order:
                    f.writelines(f"{i + 1}\t{seqs[s]}\t{p}\n" for p in rankings[s])
    kw = {"task": case["task"], "edition": case["edition"], "depth": None}
    if case["task"] == 2:
        kw["sequences"] = None
    if case["topics"][0]["target"] is not None:
        path = d / "targets.tsv"
        rows = ["\t".join(["topic_id", *names, "target"])]
        for i, t in enumerate(case["topics"]):
            for c, v in zip(oracle.cells(case["sizes"]), t["target"], strict=True):
                if v:
                    rows.append(
                        "\t".join([str(i + 1)] + [cats[j][c[j]] for j in range(len(c))] + [repr(v)])
                    )
            kw["targets"] = path
        path.write_text("\n".join(rows) + "\n")
    else:
        bgs = {}
        for j, b in enumerate(case["backgrounds"] or []):
            if b is not None:
                path = d / f"bg{j}.tsv"
                path.write_text(
                    "category\tweight\n"
                    + "".join(f"{c}\t{float(w)!r}\n" for c, w in zip(cats[j][1:], b, strict=True))
                )
                bgs[names[j]] = path
        kw["backgrounds"] = bgs or None
        if case["task"] == 2:
            levels = {}
            for t in case["topics"]:
                levels.update(t["levels"])
            path = d / "work.tsv"
            # a page no topic has is listed too: when no relevant page has a level (2021
            # tolerates that), the file still lists a page, as a work file must
            path.write_text(
                "page_id\tlevel\nno-such-page\tStub\n"
                + "".join(f"{p}\t{WORK[levels[p]]}\n" for p in pages if levels.get(p, -1) >= 0)
            )
            kw["work"] = path
    return qrels, run, dims, kw


def _visible_levels(case):
    """The levels a work file can give: none for unlisted pages (2021 leaves them out)."""
    for t in case["topics"]:
        if "levels" in t:
            t["levels"] = {p: (lv if p in case["table"] else -1) for p, lv in t["levels"].items()}
    return case


def _quiet_evaluate(*args, **kw):
    if len(args) == 4 and isinstance(args[3], dict):  # (qrels, runs, dims, options)
        *args, options = args
        kw = {**options, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        return tf.evaluate(*args, **kw)


@pytest.mark.parametrize("explicit", [True, False])
@pytest.mark.parametrize("edition", [2022, 2021])
@pytest.mark.parametrize("task", [1, 2])
def test_evaluate_from_files_agrees_with_the_oracle(tmp_path, task, edition, explicit):
    rng = np.random.default_rng(1000 * task + edition + explicit)
    checked = 0
    for k in range(12):
        case = _visible_levels(
            oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
        )
        d = tmp_path / str(k)
        d.mkdir()
        qrels, run, dims, kw = _write_case(case, d, sep="," if k % 2 else "\t")
        lines = sum(
            len(t.get("ranking", [])) + sum(map(len, t.get("rankings", []))) for t in case["topics"]
        )
        if lines == 0:
            with pytest.raises(ValueError, match="empty"):
                tf.read_run(run, task=task)
            continue
        table = _quiet_evaluate(qrels, [run], dims, **kw)
        want = oracle.score_case(case)
        group = ",".join(d.name for d in dims)
        for i, (t, w) in enumerate(zip(case["topics"], want, strict=True)):
            scored = len(t["ranking"]) if task == 1 else sum(map(len, t["rankings"]))
            assert (
                str(i + 1) in table.topics
                and table.present[table.topics.index(str(i + 1)), 0].all()
            ) == (scored > 0)
            if not scored:
                continue
            for base, value in w.items():
                name = base if base == "nDCG" else f"{base}[{group}]"
                got = table.value("run.tsv", str(i + 1), name)
                got = math.nan if got is None else got
                if math.isnan(value):
                    assert math.isnan(got), (k, i, name)
                else:
                    assert got == pytest.approx(value, rel=1e-12, abs=1e-15), (k, i, name)
                checked += 1
    assert checked > 30


def _frames(qrels_path, run_path, task):
    """The qrels and run of a written case as DataFrames, rows in the file's order.

    The run's scores fall within each ranking (so score order is file order), Task 2's
    ``seq_no`` in a ``sample`` column; a topic without a relevant page is a row of
    level 0 (a frame lists only topics that have rows).
    """
    import pandas as pd

    q = tf.read_qrels(qrels_path)
    counts = np.bincount(q.topic_ids, minlength=len(q.topics))
    bare = [t for t, c in zip(q.topics, counts.tolist(), strict=True) if c == 0]
    qrels = pd.DataFrame(
        {
            "query_id": [q.topics[t] for t in q.topic_ids.tolist()] + bare,
            "doc_id": q.docs.astype(str).tolist() + ["no-such-page"] * len(bare),
            "relevance": q.levels.tolist() + [0] * len(bare),
        },
        index=[f"q{i}" for i in range(len(q.docs) + len(bare))],
    )
    r = tf.read_run(run_path, task=task)
    columns = {
        "query_id": [r.topics[t] for t in r.topic_ids.tolist()],
        "doc_id": r.docs.astype(str).tolist(),
        "score": -np.arange(len(r), dtype=float),
    }
    if task == 2:
        columns["sample"] = [r.samples[s] for s in r.sample_ids.tolist()]
    return qrels, pd.DataFrame(columns), r


def _same_table(got, want):
    assert got.topics == want.topics and got.measures == want.measures
    assert np.array_equal(got.present, want.present)
    assert np.array_equal(got.values, want.values, equal_nan=True)
    assert dict(got.notices) == dict(want.notices)


@pytest.mark.parametrize("explicit", [True, False])
@pytest.mark.parametrize("edition", [2022, 2021])
@pytest.mark.parametrize("task", [1, 2])
def test_runs_and_qrels_in_memory_give_the_numbers_of_the_files(tmp_path, task, edition, explicit):
    """Issue 32: a TREC Fair run is a Run, its qrels Qrels; DataFrames, dicts, records
    and io objects give the same table as the track's files (values, cells, notices)."""
    rng = np.random.default_rng(7000 + 100 * task + edition + explicit)
    compared = 0
    for k in range(8):
        case = _visible_levels(
            oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
        )
        if not any(t.get("ranking") or any(t.get("rankings", [])) for t in case["topics"]):
            continue
        d = tmp_path / str(k)
        d.mkdir()
        qrels, run, dims, kw = _write_case(case, d, rng=rng if k % 2 else None)
        want = _quiet_evaluate(qrels, [run], dims, **kw)
        q_frame, r_frame, r = _frames(qrels, run, task)
        name = "run.tsv"
        _same_table(_quiet_evaluate(q_frame, {name: r_frame}, dims, **kw), want)
        # rows in file order whatever their scores say: order='file'
        flat = r_frame.assign(score=0.0)
        _same_table(_quiet_evaluate(q_frame, {name: flat}, dims, order="file", **kw), want)
        # records, and io's own objects made from them
        records = r_frame.to_dict("records")
        _same_table(_quiet_evaluate(q_frame.to_dict("records"), {name: records}, dims, **kw), want)
        objects = fio.as_qrels(q_frame), fio.as_run(r_frame, name=name)
        _same_table(_quiet_evaluate(*objects, dims, **kw), want)
        if not explicit:  # the targets built from a frame are those of the topic file
            opts = {"task": task, "edition": edition}
            opts.update((k, kw[k]) for k in ("backgrounds", "work") if k in kw)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FairconvWarning)
                topics = list(want.topics)
                built = tf.build_targets(q_frame, dims, topics=topics, **opts)
                filed = tf.build_targets(qrels, dims, topics=topics, **opts)
            assert built.topics == filed.topics
            assert np.array_equal(built.toarray(), filed.toarray(), equal_nan=True)
        # the run read by the track's reader is a Run; the topic file's qrels a Qrels
        assert isinstance(r, Run) and r.order == "file" and np.isnan(r.scores).all()
        assert isinstance(tf.read_qrels(qrels), Qrels)
        if task == 1:  # dicts: {topic: {page: level}}, {topic: {page: score}}
            q_dict: dict = {}
            for row in q_frame.itertuples():
                q_dict.setdefault(row.query_id, {})[row.doc_id] = row.relevance
            r_dict: dict = {}
            for row in r_frame.itertuples():
                r_dict.setdefault(row.query_id, {})[row.doc_id] = row.score
            _same_table(_quiet_evaluate(q_dict, {name: r_dict}, dims, **kw), want)
        compared += 1
    assert compared >= 4


def test_a_task2_frame_names_its_rankings_by_integer_seq_numbers(tmp_path):
    """A Task 2 run's rankings are its samples, named by their seq_no: a sample that is
    not an integer, or one integer spelled twice, is an error naming the row."""
    import pandas as pd

    dims, q, kw = _memory_case(tmp_path)
    frame = pd.DataFrame(
        {"query_id": ["1", "1"], "doc_id": ["1", "2"], "score": [2.0, 1.0], "sample": ["a", "a"]},
        index=[10, 11],
    )
    with pytest.raises(FileFormatError, match=r"index 10.*seq_no, an integer.*found 'a'"):
        _quiet_evaluate(q, {"r": frame}, dims, task=2, **kw)
    frame["sample"] = ["1", "01"]
    with pytest.raises(FileFormatError, match=r"index 11.*the seq_no '01' is the seq_no '1'"):
        _quiet_evaluate(q, {"r": frame}, dims, task=2, **kw)
    frame["sample"] = ["1", "2"]  # two rankings of one page each
    table = _quiet_evaluate(q, {"r": frame}, dims, task=2, **kw)
    assert table.topics == ("1",) and table.runs == ("r",)


def test_a_task1_frame_with_two_samples_of_a_topic_is_refused(tmp_path):
    import pandas as pd

    dims, q, _ = _memory_case(tmp_path)
    frame = pd.DataFrame(
        {"query_id": ["1", "1"], "doc_id": ["1", "2"], "score": [2.0, 1.0], "sample": ["1", "2"]},
        index=["x", "y"],
    )
    with pytest.raises(FileFormatError, match=r"index 'y'.*Task 1 scores one ranking per topic"):
        _quiet_evaluate(q, {"r": frame}, dims, task=1)


def test_a_run_without_scores_is_ranked_in_file_order_only(tmp_path):
    dims, q, _ = _memory_case(tmp_path)
    run = tmp_path / "t1"
    run.write_text("id\tpage_id\n1\t1\n1\t2\n")
    with pytest.raises(ValueError, match=r"run 't1' has no scores .* pass order='file'"):
        _quiet_evaluate(q, run, dims, task=1, order="score")
    assert _quiet_evaluate(q, run, dims, task=1, order="file").runs == ("t1",)


def _memory_case(tmp_path):
    """One dimension over pages 1-3, qrels of topic 1 (page 1 relevant) as a frame."""
    import pandas as pd

    align = tmp_path / "a.tsv"
    align.write_text("page_id\t@UNKNOWN\tx\n1\t0\t1\n2\t1\t0\n3\t0\t1\n")
    work = tmp_path / "work.tsv"
    work.write_text("page_id\tlevel\n1\tStub\n2\tFA\n3\tC\n")
    q = pd.DataFrame({"query_id": ["1"], "doc_id": ["1"], "relevance": [1]})
    return [tf.read_alignment("d", align)], q, {"work": work}


def test_the_old_names_of_run_and_qrels_warn_and_are_io_s(tmp_path):
    with pytest.warns(DeprecationWarning, match=r"trecfair.FairRun has moved to fairconv.io.Run"):
        assert tf.FairRun is Run
    with pytest.warns(DeprecationWarning, match=r"FairQrels has moved to fairconv.io.Qrels"):
        assert tf.FairQrels is Qrels


def _renamed(case):
    """The case with every page id renamed (a text id, no longer an integer)."""
    name = {p: f"page-{p}" for t in case["topics"] for p in t["relevant"]}
    for t in case["topics"]:
        for p in t.get("ranking", []) + [q for r in t.get("rankings", []) for q in r]:
            name.setdefault(p, f"page-{p}")
    for p in case["table"]:
        name.setdefault(p, f"page-{p}")
    out = dict(case, table={name[p]: v for p, v in case["table"].items()}, topics=[])
    for t in case["topics"]:
        u = dict(t, relevant=[name[p] for p in t["relevant"]])
        if "ranking" in t:
            u["ranking"] = [name[p] for p in t["ranking"]]
        if "rankings" in t:
            u["rankings"] = [[name[p] for p in r] for r in t["rankings"]]
        if "levels" in t:
            u["levels"] = {name[p]: lv for p, lv in t["levels"].items()}
        out["topics"].append(u)
    return out


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    config=st.sampled_from([(t, e) for t in (1, 2) for e in (2022, 2021)]),
    explicit=st.booleans(),
)
def test_file_order_ids_and_seq_numbers_change_nothing(seed, config, explicit):
    """Spec 1, 4, 9: pages are looked up by id, rankings by seq_no in any order."""
    task, edition = config
    rng = np.random.default_rng(seed)
    case = _visible_levels(oracle.random_case(rng, task=task, edition=edition, explicit=explicit))
    if not any(t.get("ranking") or any(t.get("rankings", [])) for t in case["topics"]):
        return
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        plain = _quiet_evaluate(*_args(_write_case(case, Path(a))))
        moved = _quiet_evaluate(*_args(_write_case(_renamed(case), Path(b), sep="\t", rng=rng)))
    assert plain.topics == moved.topics and plain.measures == moved.measures
    assert np.array_equal(plain.present, moved.present)
    np.testing.assert_allclose(moved.values, plain.values, rtol=1e-12, atol=1e-15)


def _args(written):
    qrels, run, dims, kw = written
    return qrels, [run], dims, kw


def test_several_runs_make_one_table_and_means_leave_nan_out(tmp_path):
    rng = np.random.default_rng(7)
    case = oracle.random_case(rng, task=1, edition=2022, explicit=True, m=2, n_topics=4)
    for t in case["topics"]:
        t["ranking"] = t["ranking"] or [0]
    qrels, run, dims, kw = _write_case(case, tmp_path)
    other = tmp_path / "other"
    other.write_text("1 0\n1 1\n3 2\n")
    table = _quiet_evaluate(qrels, [run, other], dims, **kw)
    assert table.runs == ("run.tsv", "other")
    assert table.present[:, 1].any(axis=1).tolist() == [t in ("1", "3") for t in table.topics]
    for r, name in enumerate(table.runs):
        for m, measure in enumerate(table.measures):
            vals = table.values[:, r, m][table.present[:, r, m]]
            vals = vals[~np.isnan(vals)]
            assert table.value(name, "all", measure) == pytest.approx(vals.mean(), rel=1e-15)


def test_a_run_lacking_topics_others_have_gets_the_notice_of_every_family(tmp_path):
    """Spec 5: no row there (the official evaluation leaves it out), said once per run."""
    rng = np.random.default_rng(7)
    case = oracle.random_case(rng, task=1, edition=2022, explicit=True, m=2, n_topics=4)
    for t in case["topics"]:
        t["ranking"] = t["ranking"] or [0]
    qrels, run, dims, kw = _write_case(case, tmp_path)
    other = tmp_path / "other"
    other.write_text("1 0\n1 1\n3 2\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = tf.evaluate(qrels, [run, other], dims, **kw)
    said = [str(w.message) for w in caught if "topics scored" in str(w.message)]
    assert said == [
        "run 'other' has no ranking for 2 of the 4 topics scored (2, 4): they are left out "
        "(no row), as the official evaluation leaves them out"
    ]
    assert table.notices["topics_scored"] == 4
    assert table.notices["topics_missing"] == {"run.tsv": 0, "other": 2}
    assert not table.present[[1, 3], 1].any()


@pytest.mark.parametrize("task", [1, 2])
def test_the_table_knows_which_way_each_measure_points(tmp_path, task):
    """EE-L and EE-D are lower-is-better; nDCG, AWRF, their product and EE-R higher."""
    rng = np.random.default_rng(task)
    case = oracle.random_case(rng, task=task, edition=2022, explicit=True, n_topics=3)
    qrels, run, dims, kw = _write_case(case, tmp_path)
    table = _quiet_evaluate(qrels, [run], dims, **kw)
    want = {1: ["higher"] * 3, 2: ["lower", "lower", "higher"]}[task]
    assert [table.directions[m] for m in table.measures] == want


# --------------------------------------------------------------------------- cuts (spec 3, 4, 7)
def _tiny(tmp_path, *, task, rows, relevant=(1,), edition=2021):
    align = tmp_path / "geo.tsv"
    pages = sorted({int(r.split()[-1]) for r in rows} | set(relevant))
    align.write_text(
        "page_id\tUnknown\tA\tB\n" + "".join(f"{p}\t0\t{p % 2}\t{1 - p % 2}\n" for p in pages)
    )
    qrels = tmp_path / "q.jsonl"
    qrels.write_text(json.dumps({"id": 7, "rel_docs": list(relevant)}) + "\n")
    run = tmp_path / "r"
    run.write_text("".join(r + "\n" for r in rows))
    dims = [tf.read_alignment("geography", align)]
    return qrels, run, dims


def test_2021_task1_scores_the_first_20_lines_against_an_ideal_over_1000(tmp_path):
    """Spec 3 and 7: the 2021 cut to 20 lines, IDCG over min(1000, |R|), a notice."""
    rows = [f"7 {p}" for p in range(1, 31)]
    qrels, run, dims = _tiny(tmp_path, task=1, rows=rows, relevant=list(range(1, 31)))
    with pytest.warns(FairconvWarning, match="first 20 lines.*10 line"):
        cut = tf.evaluate(qrels, run, dims, task=1, edition=2021)
    full = _quiet_evaluate(qrels, run, dims, task=1, edition=2021, depth=None)
    twenty = _quiet_evaluate(qrels, run, dims, task=1, edition=2021, depth=20)
    named = _quiet_evaluate(qrels, run, dims, task=1, edition=2021, depth="edition")
    dcg20 = sum(oracle.delta(k) for k in range(1, 21))
    idcg = sum(oracle.delta(k) for k in range(1, 31))
    assert cut.value("r", "7", "nDCG") == pytest.approx(dcg20 / idcg, rel=1e-12)
    assert full.value("r", "7", "nDCG") == pytest.approx(1.0, rel=1e-12)
    assert twenty.values.tolist() == cut.values.tolist() == named.values.tolist()


def test_2021_task2_keeps_six_lines_of_the_first_25_rankings(tmp_path):
    """Spec 4 and 7: 6 lines of the rankings with seq_no <= 25, against Z_50."""
    rows = [f"7 {s} {p}" for s in range(1, 31) for p in range(1, 9)]
    qrels, run, dims = _tiny(tmp_path, task=2, rows=rows)
    targets = tmp_path / "t.tsv"
    targets.write_text("topic_id\tUnknown\tA\tB\n7\t0\t0.5\t0.5\n")
    with pytest.warns(FairconvWarning) as caught:
        cut = tf.evaluate(qrels, run, dims, task=2, edition=2021, targets=targets)
    text = " | ".join(str(w.message) for w in caught)
    assert "first 6 lines of each ranking" in text and "50 line(s) were left out" in text
    assert "seq_no <= 25" in text and "40 line(s) of later rankings" in text
    by_hand = _quiet_evaluate(
        qrels, run, dims, task=2, edition=2021, targets=targets, depth=6, sequences=25
    )
    assert cut.values.tolist() == by_hand.values.tolist()
    # exposure of the six lines: pages 1..6, odd pages in A, even in B, each ranking alike
    eps = np.array([0.0, 0.0, 0.0])
    for k, p in enumerate(range(1, 7), start=1):
        eps[1 + (p % 2 == 0)] += oracle.delta(k)
    star = oracle.z_of(50) * np.array([0.0, 0.5, 0.5])
    assert cut.value("r", "7", "EE-D[geography]") == pytest.approx((eps**2).sum(), rel=1e-12)
    assert cut.value("r", "7", "EE-R[geography]") == pytest.approx(eps @ star, rel=1e-12)
    assert cut.value("r", "7", "EE-L[geography]") == pytest.approx(
        ((eps - star) ** 2).sum(), rel=1e-12
    )


def test_none_means_no_cut_and_0_is_deprecated_for_one_release(tmp_path):
    """House rule: None means no cut; "edition" (the default) the edition's own cut."""
    rows = [f"7 {s} {p}" for s in range(1, 31) for p in range(1, 9)]
    qrels, run, dims = _tiny(tmp_path, task=2, rows=rows)
    targets = tmp_path / "t.tsv"
    targets.write_text("topic_id\tUnknown\tA\tB\n7\t0\t0.5\t0.5\n")
    kw = {"task": 2, "edition": 2021, "targets": targets}
    whole = tf.evaluate(qrels, run, dims, depth=None, sequences=None, **kw)  # no notice
    deprecation = r"(depth|sequences)=0 for no cut is deprecated"
    with pytest.warns(DeprecationWarning, match=deprecation) as caught:
        zeros = tf.evaluate(qrels, run, dims, depth=0, sequences=0, **kw)
    assert {w.filename for w in caught} == {__file__}  # the user's line
    assert sorted(str(w.message)[:6] for w in caught) == ["depth=", "sequen"]
    assert zeros.values.tolist() == whole.values.tolist()
    edition = _quiet_evaluate(qrels, run, dims, **kw)
    assert edition.values.tolist() != whole.values.tolist()  # 6 lines of 25 rankings
    # 2022's own cut is none: its default keeps every line
    uncut = tf.evaluate(qrels, run, dims, task=2, targets=targets, depth=None, sequences=None)
    assert tf.evaluate(qrels, run, dims, task=2, targets=targets).values.tolist() == (
        uncut.values.tolist()
    )


def test_topics_restrict_the_rows(tmp_path):
    rows = ["7 1", "7 2", "8 1"]
    qrels, run, dims = _tiny(tmp_path, task=1, rows=rows)
    qrels.write_text('{"id": 7, "rel_docs": [1]}\n{"id": 8, "rel_docs": [2]}\n')
    table = _quiet_evaluate(qrels, run, dims, task=1, edition=2022, topics=["8"])
    assert table.topics == ("8",)


_IDS = st.text(st.sampled_from("ab7Z0-_.é"), min_size=1, max_size=3).filter(lambda t: t != "id")


@settings(max_examples=30, deadline=None)
@given(runs_have=st.sets(_IDS, min_size=1, max_size=5), asked=st.lists(_IDS, max_size=6))
def test_topics_are_topics_of_the_runs_each_once(runs_have, asked):
    """A typo in ``topics`` is refused naming it (as compare's --topics), never dropped;
    a topic asked twice too; else exactly the topics asked are scored."""
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        have = sorted(runs_have)
        align = d / "a.tsv"
        align.write_text("page_id\t@UNKNOWN\tA\n1\t0\t1\n")
        qrels = d / "q.jsonl"
        qrels.write_text("".join(json.dumps({"id": t, "rel_docs": [1]}) + "\n" for t in have))
        run = d / "r"
        run.write_text("".join(f"{t}\t1\n" for t in have))
        dims = [tf.read_alignment("geo", align)]
        if len(set(asked)) < len(asked):
            with pytest.raises(ValueError, match=r"'topics' .* list each topic once"):
                tf.evaluate(qrels, run, dims, task=1, topics=asked)
            return
        unknown = [t for t in asked if t not in runs_have]
        if unknown:
            with pytest.raises(ValueError, match=r"'topics' parameter .* must list topics of "):
                tf.evaluate(qrels, run, dims, task=1, topics=asked)
            return
        table = tf.evaluate(qrels, run, dims, task=1, topics=asked)
        assert set(table.topics) == set(asked)


def test_topics_name_the_ids_no_run_has_and_take_no_string(tmp_path):
    rows = ["7 1", "7 2", "8 1"]
    qrels, run, dims = _tiny(tmp_path, task=1, rows=rows)
    with pytest.raises(ValueError, match=r"must list topics of the runs\. Got '70', '9' instead"):
        tf.evaluate(qrels, run, dims, task=1, topics=["7", "70", "9"])
    with pytest.raises(TypeError, match=r"'topics' .* sequence of topic ids\. Got a str"):
        tf.evaluate(qrels, run, dims, task=1, topics="7")


@pytest.mark.parametrize(
    ("topics", "error", "match"),
    [
        ("101", TypeError, r"'topics' parameter of trecfair.build_targets must be a sequence "),
        (["1", "1"], ValueError, r"'topics' parameter .* list each topic once\. Got '1' twice"),
        (["1", "5"], ValueError, r"list topics of the qrels with relevant pages\. Got '5'"),
        ([1], TypeError, r"'topics' .* hold topic ids as str"),
    ],
)
def test_build_targets_names_topics_that_are_not_topics_of_the_qrels(
    tmp_path, topics, error, match
):
    paths = _files(tmp_path)
    with pytest.raises(error, match=match):
        tf.build_targets(paths["qrels"], _dims(paths), task=1, topics=topics)
    assert tf.build_targets(paths["qrels"], _dims(paths), task=1, topics=["2"]).topics == ("2",)


# --------------------------------------------------------------------------- readers
def test_metadata_2022_follows_the_organisers_derivation(tmp_path):
    """Spec 9, the organisers' per-page file (2022): each dimension's derivation."""
    recs = [
        {"page_id": 1, "page_subcont_regions": ["Western Europe", "Melanesia"],
         "source_subcont_regions": {"Polynesia": 1, "Micronesia": 1, "UNK": 2},
         "gender": ["cisgender female", "male"], "occupations": ["writer", "poet"],
         "first_letter_category": "a-d", "creation_date_category": "old",
         "relative_pageviews_category": "Low", "num_sitelinks_category": "1",
         "qual_cat": "GA"},
        {"page_id": 2, "page_subcont_regions": [], "source_subcont_regions": {},
         "gender": ["genderfluid", "transgender male", "Female", "@UNKNOWN"], "occupations": [],
         "first_letter_category": None, "creation_date_category": "new",
         "relative_pageviews_category": "High", "num_sitelinks_category": "2",
         "qual_cat": None},
        {"page_id": 1, "page_subcont_regions": ["Caribbean"], "source_subcont_regions": {},
         "gender": [], "occupations": [], "first_letter_category": "e-k",
         "creation_date_category": "new", "relative_pageviews_category": "High",
         "num_sitelinks_category": "2", "qual_cat": "FA"},
    ]  # fmt: skip
    path = tmp_path / "meta.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    dims, work = tf.read_metadata(path, edition=2022)
    by = {d.name: d for d in dims}
    assert [d.name for d in dims] == [
        "sub-geo",
        "src-geo",
        "gender",
        "occ",
        "alpha",
        "age",
        "pop",
        "langs",
    ]
    assert by["sub-geo"].categories == ("@UNKNOWN", "Oceania", "Western Europe")
    assert by["sub-geo"].rows.tolist() == [[0, 0.5, 0.5], [1, 0, 0]]
    assert by["src-geo"].categories == ("@UNKNOWN", "Oceania")
    assert by["src-geo"].rows.tolist() == [[0.5, 0.5], [1, 0]]
    assert by["gender"].categories == ("@UNKNOWN", "female", "male", "NB")
    assert by["gender"].rows.tolist() == [[0, 1, 1, 0], [1, 0, 1, 1]]  # multi-hot, as given
    assert by["occ"].categories == ("@UNKNOWN", "poet", "writer")
    assert by["occ"].rows.tolist() == [[0, 0.5, 0.5], [1, 0, 0]]
    assert by["alpha"].categories == ("a-d",) and by["alpha"].rows.tolist() == [[1], [0]]
    assert by["age"].rows.tolist() == [[0, 1], [1, 0]]  # 'new' sorts before 'old'
    assert work.pages.tolist() == [b"1", b"2"] and work.levels.tolist() == [4, -1]
    only, _ = tf.read_metadata(path, edition=2022, dimensions=["gender", "sub-geo"])
    assert [d.name for d in only] == ["gender", "sub-geo"]


def test_metadata_2021_geography_and_gender(tmp_path):
    """Spec 9 (2021): multi-hot geography, the gender reduction, the dropped value."""
    recs = [
        {"page_id": 5, "quality_score_disc": "Stub", "geographic_locations": ["Europe", "Asia"],
         "gender": ["male", "Taira no Kiyomori"]},
        {"page_id": 6, "quality_score_disc": "C", "geographic_locations": [], "gender": []},
        {"page_id": 7, "quality_score_disc": "B", "geographic_locations": ["Asia"],
         "gender": ["Taira no Kiyomori"]},
        {"page_id": 8, "quality_score_disc": "FA", "geographic_locations": ["Africa"],
         "gender": ["nonbinary", "cisgender female"]},
    ]  # fmt: skip
    path = tmp_path / "meta.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    dims, work = tf.read_metadata(path, edition=2021)
    geo, gender = dims
    assert geo.categories == ("Unknown", "Africa", "Asia", "Europe")
    assert gender.categories == ("unknown", "female", "male", "third")
    # page 7's only gender value was dropped: it leaves the intersection
    assert geo.pages.tolist() == [b"5", b"6", b"8"]
    assert geo.rows.tolist() == [[0, 0, 1, 1], [1, 0, 0, 0], [0, 1, 0, 0]]
    assert gender.rows.tolist() == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 1]]
    assert work.levels.tolist() == [0, 2, 3, 5]


def test_alignment_tables_as_the_organisers_write_them(tmp_path):
    """Spec 9, alignment tables: comma or tab, an empty first field, True/False."""
    csv = tmp_path / "page-alpha-align.csv"
    csv.write_text(",Northern America,Western Europe\n12,True,False\n3,False,True\n")
    d = tf.read_alignment("alpha", csv)
    assert d.categories == ("Northern America", "Western Europe") and not d.has_unknown
    assert d.pages.tolist() == [b"12", b"3"] and d.rows.tolist() == [[1, 0], [0, 1]]
    tsv = tmp_path / "geo.tsv.gz"
    with gzip.open(tsv, "wt") as f:
        f.write("page\tUnknown\tLatin America and the Caribbean\n# a comment\n1\t0.5\t5e-1\n")
    d = tf.read_alignment("geography", tsv)
    assert d.categories == ("Unknown", "Latin America and the Caribbean") and d.has_unknown
    assert d.rows.tolist() == [[0.5, 0.5]]


def test_wide_targets_map_columns_by_name_and_may_omit_the_unknown(tmp_path):
    """Spec 9, targets (wide form): columns by name, the unknown column optional."""
    align = tmp_path / "a.csv"
    align.write_text("page_id,@UNKNOWN,x y,z\n1,0,1,0\n")
    dims = [tf.read_alignment("d", align)]
    wide = tmp_path / "task1-eval-d-target.csv"
    wide.write_text("topic_id,z,x y\n5,0.25,0.75\n6,1,0\n")
    t = tf.read_targets(wide, dims)
    assert t.topics == ("5", "6")
    assert t.toarray().tolist() == [[0, 0.75, 0.25], [0, 0, 1]]


def test_written_targets_read_back_the_same(tmp_path):
    """Spec 9: --write-targets writes the long form that --targets reads."""
    rng = np.random.default_rng(3)
    case = oracle.random_case(rng, task=2, edition=2022, explicit=False, m=2, n_topics=3)
    qrels, run, dims, kw = _write_case(case, tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        built = tf.build_targets(
            qrels, dims, task=2, backgrounds=kw["backgrounds"], work=kw["work"]
        )
    out = tmp_path / "written.tsv"
    built.to_tsv(out)
    back = tf.read_targets(out, dims)
    assert back.topics == built.topics
    assert np.array_equal(back.toarray(), built.toarray())
    explicit = _quiet_evaluate(qrels, run, dims, task=2, targets=back)
    rebuilt = _quiet_evaluate(
        qrels, run, dims, task=2, backgrounds=kw["backgrounds"], work=kw["work"]
    )
    assert np.array_equal(explicit.values, rebuilt.values, equal_nan=True)


def test_targets_are_written_by_the_output_rule_of_every_writer(tmp_path, monkeypatch):
    """Never over a file unasked; a writer failing part-way leaves the old file whole."""
    paths = _files(tmp_path)
    built = tf.build_targets(paths["qrels"], _dims(paths), task=1)
    out = tmp_path / "targets.tsv"
    built.to_tsv(out)
    first = out.read_text()
    with pytest.raises(FileExistsError, match=r"'out' parameter of trecfair.TopicTargets.to_tsv"):
        built.to_tsv(out)
    built.to_tsv(out, overwrite=True)
    assert out.read_text() == first

    def half_then_fail(self, f):
        f.write("topic_id\td\ttarget\n1\tx\t")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tf.TopicTargets, "_write", half_then_fail)
    with pytest.raises(OSError, match="No space left"):
        built.to_tsv(out, overwrite=True)
    assert out.read_text() == first
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary


def test_undefined_targets_round_trip_as_nan(tmp_path):
    """fairconv reads what it writes: a 2021 Task 1 topic with only fully unknown
    relevant pages has an undefined target, written as one nan row, read back so."""
    paths = _files(
        tmp_path,
        align="page_id\tUnknown\tx\ty\n1\t0\t1\t0\n2\t0\t0\t1\n3\t1\t0\t0\n",
    )
    dims = _dims(paths)
    with pytest.warns(FairconvWarning, match=r"topic\(s\) '2' give the target no mass"):
        built = tf.build_targets(paths["qrels"], dims, task=1, edition=2021)
    out = tmp_path / "written.tsv"
    built.to_tsv(out)
    assert out.read_text().splitlines()[-1] == "2\tUnknown\tnan"
    with pytest.warns(FairconvWarning, match=r"written.tsv: the targets of topic\(s\) '2' are nan"):
        back = tf.read_targets(out, dims)
    assert back.targets.defined.tolist() == built.targets.defined.tolist() == [True, False]
    assert np.array_equal(back.toarray(), built.toarray(), equal_nan=True)


def test_trec_forms_of_runs_and_qrels(tmp_path):
    """Spec 9: TREC run lines in file order, TREC qrels with level > 0; spec 2: rank 2."""
    align = tmp_path / "a.tsv"
    align.write_text("page_id\t@UNKNOWN\tx\n" + "".join(f"d{i}\t0\t1\n" for i in range(4)))
    dims = [tf.read_alignment("d", align)]
    qrels = tmp_path / "q.txt"
    qrels.write_text("T1 0 d1 2\nT1 0 d2 0\nT1 0 d3 -1\n")
    run = tmp_path / "trec.run"
    run.write_text("T1 Q0 d2 1 9 mytag\nT1 Q0 d1 2 8 mytag\n")
    q = tf.read_qrels(qrels)
    assert isinstance(q, Qrels) and q.docs.tolist() == [b"d1", b"d2", b"d3"]
    assert q.levels.tolist() == [2, 0, 0]  # as io.read_qrels reads it: level > 0 relevant
    r = tf.read_run(run, task=1)
    assert isinstance(r, Run) and r.name == "mytag" and r.scores.tolist() == [9.0, 8.0]
    table = _quiet_evaluate(q, r, dims, task=1)
    assert table.value("mytag", "T1", "nDCG") == pytest.approx(1.0)  # rank 2 weighs 1 too
    # the same files read by io's readers are the same inputs
    same = _quiet_evaluate(fio.read_qrels(qrels), fio.read_run(run), dims, task=1)
    assert same.values.tolist() == table.values.tolist()


def test_a_trec_run_out_of_rank_order_gets_the_notice_of_the_ranked_list_files(tmp_path):
    """Decision of issue 33: file order, with the notice when a score rises, as gfr's:
    the same notice, given when the run is ranked (not when it is read), and
    order='score' ranks it as trec_eval does."""
    from fairconv import gfr

    run = tmp_path / "trec.run"
    run.write_text("T1 Q0 d1 1 1.0 tag\nT1 Q0 d2 2 2.0 tag\nT2 Q0 d3 1 9 tag\n")
    tf.read_run(run, task=1)  # no notice: the order is the evaluation's
    qrels = tmp_path / "q"
    qrels.write_text("T1 0 d1 1\n")
    with warnings.catch_warnings(record=True) as ranked:
        warnings.simplefilter("always")
        gfr.evaluate(fio.read_qrels(qrels), [fio.read_run(run)], [])
    (theirs,) = [str(w.message) for w in ranked if "scores higher" in str(w.message)]
    align = tmp_path / "a.tsv"
    align.write_text("page_id\t@UNKNOWN\tx\nd1\t0\t1\nd2\t0\t1\nd3\t1\t0\n")
    dims = [tf.read_alignment("d", align)]
    with pytest.warns(FairconvWarning, match=r"trec.run: line 2 of topic 'T1' scores higher") as w:
        table = tf.evaluate(qrels, run, dims, task=1, topics=["T1"])
    assert [str(x.message) for x in w] == [theirs] and {x.filename for x in w} == {__file__}
    assert table.value("tag", "T1", "nDCG") == pytest.approx(1.0)  # d1 first: file order
    by_score = tf.evaluate(qrels, run, dims, task=1, topics=["T1"], order="score")  # no notice
    assert by_score.value("tag", "T1", "nDCG") == pytest.approx(1.0)  # d1 second weighs 1
    assert by_score.value("tag", "T1", "AWRF[d]") == table.value("tag", "T1", "AWRF[d]")


# --------------------------------------------------------------------------- bad input
ALIGN = "page_id\t@UNKNOWN\tx\ty\n1\t0\t1\t0\n2\t0\t0\t1\n3\t1\t0\t0\n"


def _files(tmp_path, **texts):
    paths = {}
    defaults = {
        "align": ALIGN,
        "qrels": '{"id": 1, "rel_docs": [1, 2]}\n{"id": 2, "rel_docs": ["3"]}\n',
        "run": "id\tpage_id\n1\t1\n1\t2\n2\t3\n",
        "run2": "id\tseq_no\tpage_id\n1\t1\t1\n1\t1\t2\n1\t2\t2\n",
        "targets": "topic_id\td\ttarget\n1\tx\t0.5\n1\ty\t0.5\n2\t@UNKNOWN\t1\n",
        "bg": "category\tweight\nx\t1\ny\t3\n",
        "work": "page_id\tlevel\n1\tStub\n2\tFA\n3\tC\n",
    }
    for key, text in {**defaults, **texts}.items():
        paths[key] = tmp_path / key
        paths[key].write_text(text)
    return paths


READER_ERRORS = [
    # runs (spec 9, Runs)
    (
        "run",
        "1\t1\t7\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:1: a Task 1 run line .* found 3",
    ),
    (
        "run2",
        "1\tx\t1\n",
        lambda p: tf.read_run(p["run2"], task=2),
        r"run2:1: a seq_no .* integer; found 'x'",
    ),
    ("run2", "1\t1.5\t1\n", lambda p: tf.read_run(p["run2"], task=2), r"run2:1: a seq_no"),
    (
        "run",
        "1 1\n1 2\n1 1\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:3: page '1' appears twice .*line 1",
    ),
    (
        "run",
        "1 1\n2 2\n1 3\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:3: the lines of topic 1 are not contiguous",
    ),
    (
        "run2",
        "1 1 1\n1 2 2\n1 1 3\n",
        lambda p: tf.read_run(p["run2"], task=2),
        r"run2:3: the lines of ranking 1 seq_no 1",
    ),
    ("run", "\n# nothing\n", lambda p: tf.read_run(p["run"], task=1), r"run: the file is empty"),
    ("run", "id\tpage_id\n", lambda p: tf.read_run(p["run"], task=1), r"run: the file is empty"),
    (
        "run",
        "id\tpage_id\n1\t1\n1\t2\nid\tpage_id\n2\t3\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:4: a header line \('id page_id'\) after the first line: two runs joined",
    ),
    (
        "run2",
        "1\t1\t1\nid\tseq_no\tpage_id\n1\t2\t2\n",
        lambda p: tf.read_run(p["run2"], task=2),
        r"run2:2: a header line \('id seq_no page_id'\) after the first line",
    ),
    (
        "run",
        "1 Q0 a 1 2.5 t\n1 Q0 b two 1.5 t\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:2: a rank \(4th column\) must be an integer >= 0; found 'two'",
    ),
    (
        "run",
        "1 Q0 a 1 2.5 t\n1 Q0 b 2 inf t\n",
        lambda p: tf.read_run(p["run"], task=1),
        r"run:2: the score \(5th column\) of a run line must be a finite number",
    ),
    # qrels (spec 9, Qrels)
    ("qrels", '{"rel_docs": [1]}\n', lambda p: tf.read_qrels(p["qrels"]), r'qrels:1: "id" must be'),
    (
        "qrels",
        '{"id": true, "rel_docs": [1]}\n',
        lambda p: tf.read_qrels(p["qrels"]),
        r'qrels:1: "id" must be',
    ),
    (
        "qrels",
        '{"id": 1, "rel_docs": 5}\n',
        lambda p: tf.read_qrels(p["qrels"]),
        r'qrels:1: "rel_docs" must be an array',
    ),
    (
        "qrels",
        '{"id": 1, "rel_docs": [1.5]}\n',
        lambda p: tf.read_qrels(p["qrels"]),
        r'qrels:1: "rel_docs item" must be',
    ),
    (
        "qrels",
        '{"id": 1, "rel_docs": [1]}\n{"id": "1", "rel_docs": []}\n',
        lambda p: tf.read_qrels(p["qrels"]),
        r"qrels:2: topic \"id\" '1' appears twice",
    ),
    (
        "qrels",
        "1 0 a 1\n1 0 a 2\n",
        lambda p: tf.read_qrels(p["qrels"]),
        r"qrels:2: .* judged twice",
    ),
    (
        "qrels",
        "1 0 a x\n",
        lambda p: tf.read_qrels(p["qrels"]),
        r"qrels:1: a TREC qrels level must be an integer",
    ),
    # alignment tables (spec 9, Alignment tables)
    (
        "align",
        "page_id\n1\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:1: the header names no category",
    ),
    (
        "align",
        "page_id\tx\tx\n1\t1\t0\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:1: category 'x' appears twice",
    ),
    (
        "align",
        "page_id\tx\tUnknown\n1\t1\t0\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:1: the unknown category 'Unknown' must be the first",
    ),
    (
        "align",
        "page_id\tx\n1\t1\n1\t0\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:3: page '1' is listed twice .*line 2",
    ),
    (
        "align",
        "page_id\tx\ty\n1\t1\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: expected 3 fields .* found 2",
    ),
    (
        "align",
        "page_id,x\n1,-0.5\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: the value of a table line must be >= 0",
    ),
    (
        "align",
        "page_id,x\n1,inf\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: the value of a table line must be a finite number",
    ),
    (
        "align",
        "page_id,x\n1,NaN\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: .* finite number",
    ),
    (
        "align",
        "id,x\n1,1\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:1: the header must start with 'page_id'",
    ),
    (
        "align",
        "page_id,x,y\n1,1, 0\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: field 3 of this alignment line, ' 0', has a space next to its comma",
    ),
    (
        "align",
        "page_id\tx\ty\n1 \t1\t0\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: field 1 of this alignment line, '1 ', has a space next to its tab",
    ),
    (
        "align",
        "page_id,x\n1,0. 5\n",
        lambda p: tf.read_alignment("d", p["align"]),
        r"align:2: the value of a table line must be a finite number; found '0\. 5'",
    ),
    # work levels and backgrounds (spec 9)
    (
        "work",
        "page_id,level\n1, Stub\n",
        lambda p: tf.read_work(p["work"]),
        r"work:2: field 2 of this work level line, ' Stub', has a space next to its comma",
    ),
    (
        "bg",
        "female\t0.5\nmale\t0.5\n",
        lambda p: tf.read_background(p["bg"]),
        r"bg:1: the first line must be the header, the names of the columns \(e\.g\. "
        r"'category<TAB>weight'\); found 'female 0\.5', a category and its weight",
    ),
    (
        "bg",
        "category,weight\nfemale ,1\n",
        lambda p: tf.read_background(p["bg"]),
        r"bg:2: field 1 of this background line, 'female ', has a space next to its comma",
    ),
    (
        "work",
        "page_id\tlevel\n1\tGood\n",
        lambda p: tf.read_work(p["work"]),
        r"work:2: a work level must be one of",
    ),
    (
        "work",
        "page_id\tlevel\n1\tC\n1\tB\n",
        lambda p: tf.read_work(p["work"]),
        r"work:3: page '1' is listed twice",
    ),
    (
        "bg",
        "category,weight\nx,-1\n",
        lambda p: tf.read_background(p["bg"]),
        r"bg:2: the weight .* >= 0",
    ),
    (
        "bg",
        "category,weight\nx,0\ny,0\n",
        lambda p: tf.read_background(p["bg"]),
        r"bg: the weights sum to 0",
    ),
    (
        "bg",
        "category,weight\nx,1\nx,2\n",
        lambda p: tf.read_background(p["bg"]),
        r"bg:3: category 'x' is listed twice",
    ),
]


@pytest.mark.parametrize(("key", "text", "call", "match"), READER_ERRORS)
def test_reader_errors_name_file_and_line(tmp_path, key, text, call, match):
    paths = _files(tmp_path, **{key: text})
    with pytest.raises(ValueError, match=match):
        call(paths)


_SEPARATED = {
    "alignment": (lambda p: tf.read_alignment("d", p), ["page_id", "Unknown", "x y"]),
    "background": (tf.read_background, ["category", "weight"]),
    "work": (tf.read_work, ["page_id", "level"]),
}


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(sorted(_SEPARATED)),
    sep=st.sampled_from([",", "\t"]),
    data=st.data(),
)
def test_a_space_around_a_field_is_named_never_the_readers_marker(kind, sep, data):
    """Spaces inside a field are kept (category names hold them); next to a separator
    or at a line's end they are an error naming the file, line and field, and the
    reader's own marker (byte 0xFF) never shows."""
    read, header = _SEPARATED[kind]
    rows = {
        "alignment": [["p1", "0", "1"], ["p2", "1", "0"], ["p3", "0.5", "0.5"]],
        "background": [["x y", "1"], ["z", "3"]],
        "work": [["p1", "Stub"], ["p2", "FA"], ["p3", "C"]],
    }[kind]
    line = data.draw(st.integers(0, len(rows) - 1))
    field = data.draw(st.integers(0, len(rows[line]) - 1))
    where = data.draw(st.sampled_from(["start", "end", "none"]))
    spaced = [list(r) for r in rows]
    if where == "start":
        spaced[line][field] = " " + spaced[line][field]
    elif where == "end":
        spaced[line][field] += " "
    text = "\n".join(sep.join(r) for r in [header, *spaced]) + "\n"
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"{kind}.txt"
        path.write_text(text)
        if where == "none":
            read(path)
            return
        with pytest.raises(FileFormatError) as info:
            read(path)
    message = str(info.value)
    assert info.value.line == line + 2 and info.value.path == str(path)
    assert f"field {field + 1} of this" in message and "has a space next to its" in message
    assert "0xff" not in message and "codec" not in message and "\xff" not in message


def _dims(paths):
    return [tf.read_alignment("d", paths["align"])]


def _ev(paths, **kw):
    kw.setdefault("task", 1)
    run = paths["run"] if kw["task"] == 1 else paths["run2"]
    return tf.evaluate(paths["qrels"], run, _dims(paths), **kw)


TARGET_ERRORS = [
    (
        "topic_id\tgeo\ttarget\n1\tx\t1\n",
        r"targets:1: the header names the dimensions geo; the evaluation has d",
    ),
    ("topic_id\td\ttarget\n1\tz\t1\n", r"targets:2: 'z' is not a category of dimension 'd'"),
    (
        "topic_id\td\ttarget\n1\tx\t1\n1\tx\t2\n",
        r"targets:3: the cell of topic '1' is listed twice .*line 2",
    ),
    ("topic_id\td\ttarget\n1\tx\t-1\n", r"targets:2: the target value .* >= 0"),
    ("topic_id\td\ttarget\n1\tx\t0\n", r"targets: the targets of topic '1' sum to 0"),
    (
        "topic_id\td\ttarget\n1\tx\tnan\n1\ty\t0.5\n",
        r"targets:3: topic '1' has a target value here and nan \(an undefined target\) on line 2",
    ),
    ("topic_id\tx\ty\n1\tnan\t1\n", r"targets:2: topic '1' has a target value here and nan"),
    ("topic_id\td\ttarget\n1\tx\tinf\n", r"targets:2: the target value .* finite number"),
    ("topic_id,d,target\n1,x,1 \n", r"targets:2: field 3 of this target line, '1 ', has a space"),
    (
        "topic_id\tx\tq\n1\t1\t0\n",
        r"targets:1: the header's categories must be those of dimension 'd'",
    ),
]


@pytest.mark.parametrize(("text", "match"), TARGET_ERRORS)
def test_target_errors(tmp_path, text, match):
    paths = _files(tmp_path, targets=text)
    with pytest.raises(ValueError, match=match):
        tf.read_targets(paths["targets"], _dims(paths))


EVALUATE_ERRORS = [
    (
        {},
        {"target_len": 1, "targets": "T"},
        r"run: topic '1' of run 'run' ranks 2 pages, more than the target length 1",
    ),
    (
        {"qrels": '{"id": 1, "rel_docs": [1]}\n{"id": 2, "rel_docs": []}\n'},
        {},
        r"run: topic '2' of run 'run' has no target .*qrels.*with topics= \(--topics\)$",
    ),
    (
        {"qrels": '{"id": 1, "rel_docs": [1]}\n{"id": 2, "rel_docs": []}\n'},
        {"targets": "T"},
        r"run: topic '2' of run 'run' has no relevant page.*with topics= \(--topics\)$",
    ),
    (
        {"targets": "topic_id\td\ttarget\n1\tx\t1\n"},
        {"targets": "T"},
        r"run: topic '2' of run 'run' has no target in the targets.*\(--topics\)$",
    ),
    (
        {},
        {"backgrounds": {"e": "B"}},
        r"'backgrounds' parameter .* name dimensions of the evaluation \(d\). Got 'e'",
    ),
    (
        {"bg": "category\tweight\nx\t1\n"},
        {"backgrounds": {"d": "B"}},
        r"background of dimension 'd' .* missing: y",
    ),
    (
        {"bg": "category\tweight\nx\t1\ny\t1\nz\t1\n"},
        {"backgrounds": {"d": "B"}},
        r"not categories of 'd': z",
    ),
    (
        {"align": "page_id\tx\ty\n1\t1\t0\n2\t0\t1\n3\t1\t0\n"},
        {"backgrounds": {"d": "B"}},
        r"only dimensions with an unknown category",
    ),
    (
        {"align": "page_id\tx\ty\n1\t1\t0\n2\t0\t1\n3\t1\t0\n"},
        {"edition": 2021},
        r"Edition 2021 needs an unknown category first .* 'd'",
    ),
    (
        {},
        {"edition": 2021, "targets": "T"},
        r"targets: the target of topic '2' puts 1 on the all-unknown cell",
    ),
    (
        {"work": "page_id\tlevel\n1\tStub\n"},
        {"task": 2, "work": "W"},
        r"work: relevant page '2' of topic '1' has no work level",
    ),
    (
        {"align": "page_id\t@UNKNOWN\tx\ty\n1\t0\t1\t0\n3\t1\t0\t0\n"},
        {"task": 1},
        r"relevant page '2' of topic '1' is not in the alignment tables",
    ),
    (
        {
            "align": "page_id\t@UNKNOWN\tx\ty\n1\t0\t1\t0\n3\t1\t0\t0\n",
            "targets": "topic_id\td\ttarget\n1\tx\t1\n",
        },
        {"task": 2, "targets": "T"},
        r"run2:3: relevant page '2' is in no alignment table",
    ),
    ({}, {"task": 2}, r"'work' parameter .* be given to build Task 2 targets"),
    ({}, {"depth": -1}, r"'depth' parameter .* be None \(no cut\), 'edition' or an integer >= 1"),
    ({}, {"depth": "all"}, r"'depth' parameter .* Got 'all' instead"),
    ({}, {"depth": 2.0}, r"'depth' parameter .* Got 2\.0 instead"),
    ({}, {"sequences": 3}, r"'sequences' parameter .* 'edition' or None for Task 1"),
    ({}, {"targets": "T", "work": "W"}, r"must not be given together.*Got 'targets' with 'work'"),
]


@pytest.mark.parametrize(("texts", "kw", "match"), EVALUATE_ERRORS)
def test_evaluate_errors_name_what_and_where(tmp_path, texts, kw, match):
    paths = _files(tmp_path, **texts)
    swap = {"T": paths["targets"], "B": paths["bg"], "W": paths["work"]}
    kw = {k: swap.get(v, v) if isinstance(v, str) else v for k, v in kw.items()}
    if "backgrounds" in kw:
        kw["backgrounds"] = {k: swap.get(v, v) for k, v in kw["backgrounds"].items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        with pytest.raises(ValueError, match=match):
            _ev(paths, **kw)


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        (
            {"qrels": "FRAME"},
            ValueError,
            r"the qrels DataFrame needs a topic column named one of query_id, qid, q_id; it "
            r"has id, rel_docs",
        ),
        ({"qrels": 5}, TypeError, r"'qrels' parameter .* Got an int instead"),
        ({"task": 2, "work": 5}, TypeError, r"'work' parameter .* be WorkLevels .* Got an int"),
        ({"targets": 5}, TypeError, r"'targets' parameter .* be TopicTargets .* Got an int"),
        ({"runs": [5]}, TypeError, r"'runs' parameter of trecfair.evaluate must .* Got an int"),
        ({"runs": 5}, TypeError, r"'runs' parameter of trecfair.evaluate must .* Got an int"),
        (
            {"backgrounds": {"d": 5}},
            TypeError,
            r"'backgrounds' parameter of trecfair.evaluate must map each dimension name to a "
            r"preset name, a Background, a path or an open file\. Got an int for 'd' instead",
        ),
        (
            {"backgrounds": {"d": "trec2022-gendr"}},
            ValueError,
            r"'backgrounds' .* Got 'trec2022-gendr' for 'd' \(neither a preset nor a file\) "
            r"instead\. Did you mean 'trec2022-gender'\?$",
        ),
    ],
)
def test_evaluate_names_the_parameter_the_user_wrote(tmp_path, kw, error, match):
    """Not the readers' own 'path' and 'source': evaluate has no such parameter."""
    import pandas as pd

    paths = _files(tmp_path)
    args = {"qrels": paths["qrels"], "runs": paths["run"], "task": 1, **kw}
    if args["qrels"] == "FRAME":
        args["qrels"] = pd.DataFrame({"id": [1], "rel_docs": [[1]]})
    if args["task"] == 2:
        args["runs"] = paths["run2"]
    qrels, runs = args.pop("qrels"), args.pop("runs")
    with pytest.raises(error, match=match):
        tf.evaluate(qrels, runs, _dims(paths), **args)


def test_tables_that_disagree_on_their_pages_are_refused(tmp_path):
    paths = _files(tmp_path)
    other = tmp_path / "other.tsv"
    other.write_text("page_id\tUnknown\tA\n1\t1\t0\n2\t0\t1\n4\t0\t1\n")
    dims = [tf.read_alignment("d", paths["align"]), tf.read_alignment("e", other)]
    with pytest.raises(
        ValueError, match=r"dimension 'd' \(.*align\) lacks page '4', which dimension 'e' \(.*other"
    ):
        tf.evaluate(paths["qrels"], paths["run"], dims, task=1)


def test_two_runs_with_one_name_are_refused(tmp_path):
    paths = _files(tmp_path)
    (tmp_path / "sub").mkdir()
    again = tmp_path / "sub" / "run"
    again.write_text("1 1\n")
    with pytest.raises(ValueError, match="two runs are named 'run'"):
        tf.evaluate(
            paths["qrels"], [paths["run"], again], _dims(paths), task=1, targets=paths["targets"]
        )


def test_metadata_errors_name_line_and_field(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text('{"page_id": 1, "quality_score_disc": "C"}\n')
    with pytest.raises(
        ValueError, match=r'm.jsonl:1: "geographic_locations" must be an array .*missing'
    ):
        tf.read_metadata(path, edition=2021)
    path.write_text(
        '{"page_id": 1, "quality_score_disc": "C", "geographic_locations": ["Asia", "Asia"]}\n'
    )
    with pytest.raises(
        ValueError, match=r"m.jsonl:1: \"geographic_locations\" has 'Asia' listed twice"
    ):
        tf.read_metadata(path, edition=2021)
    path.write_text('{"page_id": 1, "quality_score_disc": "Top", "geographic_locations": []}\n')
    with pytest.raises(ValueError, match=r'm.jsonl:1: "quality_score_disc" must be one of'):
        tf.read_metadata(path, edition=2021)
    with pytest.raises(ValueError, match=r"'dimensions' parameter .* Got \['occ'\]"):
        tf.read_metadata(path, edition=2021, dimensions=["occ"])


# --------------------------------------------------------------------------- notices (spec 8)
def test_notices_for_unlisted_pages_undefined_awrf_and_multi_hot_rows(tmp_path):
    """Spec 3 and 8: unlisted pages dropped (2022), NaN AWRF, rows used as given."""
    paths = _files(
        tmp_path,
        align="page_id\t@UNKNOWN\tx\ty\n1\t0\t1\t1\n2\t0\t0\t1\n3\t1\t0\t0\n",
        run="1\t1\n1\t9\n2\t8\n",
        targets="topic_id\td\ttarget\n1\tx\t1\n2\tx\t1\n",
    )
    with pytest.warns(FairconvWarning) as caught:
        table = _ev(paths, targets=paths["targets"])
    text = " | ".join(str(w.message) for w in caught)
    assert "rows of dimension 'd' sum to more than 1" in text
    assert "2 of 3 ranked pages are in no alignment table" in text
    assert "AWRF is undefined (NaN) on topic(s) '2'" in text
    assert math.isnan(table.value("run", "2", "AWRF[d]"))
    assert table.value("run", "1", "AWRF[d]") == pytest.approx(
        1 - oracle.js({(1,): 1, (2,): 1}, {(1,): 1, (2,): 0})
    )


def test_2021_task2_pages_without_a_work_level_are_left_out_with_a_notice(tmp_path):
    paths = _files(
        tmp_path,
        align="page_id\tUnknown\tx\ty\n1\t0\t1\t0\n2\t0\t0\t1\n3\t1\t0\t0\n",
        work="page_id\tlevel\n2\tFA\n3\tC\n",
    )
    with pytest.warns(
        FairconvWarning, match=r"1 relevant page\(s\) have no work level .*'1' of topic '1'"
    ):
        tf.build_targets(paths["qrels"], _dims(paths), task=2, edition=2021, work=paths["work"])


@pytest.mark.parametrize("task", [1.0, 3, True, "1"])
def test_the_run_reader_takes_the_task_as_the_integer_1_or_2(tmp_path, task):
    run = tmp_path / "r.txt"
    run.write_text("1 5\n")
    with pytest.raises(
        ValueError, match=rf"'task' parameter of trecfair.read_run must be 1 or 2\. Got {task!r}"
    ):
        tf.read_run(run, task=task)
    assert tf.read_run(run, task=1).name == "r.txt"


def test_the_run_reader_names_a_run_name_that_is_not_a_string(tmp_path):
    run = tmp_path / "r.txt"
    run.write_text("1 5\n")
    with pytest.raises(TypeError, match=r"'name' parameter of trecfair.read_run must be a str"):
        tf.read_run(run, task=1, name=5)


@pytest.mark.parametrize("edition", [2022.0, True, 2020, "2022"])
def test_the_metadata_reader_takes_the_edition_as_the_integer_2021_or_2022(tmp_path, edition):
    path = tmp_path / "meta.jsonl"
    path.write_text("")
    message = (
        rf"'edition' parameter of trecfair.read_metadata must be 2021 or 2022\. Got {edition!r}"
    )
    with pytest.raises(ValueError, match=message):
        tf.read_metadata(path, edition=edition)


def test_2021_task2_with_targets_scores_topics_the_qrels_lack(tmp_path):
    """2021 Task 2 with explicit targets uses no relevance: a run whose topics the qrels
    lack is scored (the route's shared-topic rule is the family's own check here)."""
    align = tmp_path / "a.tsv"
    align.write_text("page_id\tUnknown\tx\n1\t0\t1\n2\t1\t0\n")
    run = tmp_path / "run"
    run.write_text("id\tseq_no\tpage_id\n5\t1\t1\n5\t1\t2\n")
    qrels = tmp_path / "q.jsonl"
    qrels.write_text('{"id": 9, "rel_docs": [1]}\n')
    targets = tmp_path / "t.tsv"
    targets.write_text("topic_id\td\ttarget\n5\tx\t1\n")
    dims = [tf.read_alignment("d", align)]
    table = _quiet_evaluate(qrels, run, dims, task=2, edition=2021, targets=targets)
    assert table.topics == ("5",) and table.value("run", "5", "EE-D[d]") == pytest.approx(2.0)
    with pytest.raises(ValueError, match=r"topic '5' of run 'run' has no relevant page"):
        _quiet_evaluate(qrels, run, dims, task=2, edition=2022, targets=targets)
