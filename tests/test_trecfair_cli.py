"""``fairconv trecfair`` on the bundled synthetic data in the track's formats."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from fairconv import datasets
from fairconv import trecfair as tf
from fairconv._validation import FairconvWarning
from fairconv.cli import main

DATA = datasets.path("trecfair")
META22 = str(DATA / "trec_2022_articles_discrete.jsonl")
META21 = str(DATA / "trec_metadata_eval.jsonl")
QRELS = str(DATA / "trec_fair_eval_reldocs.jsonl")
T1 = [str(DATA / "t1-relfirst"), str(DATA / "t1-mixed")]
T2 = str(DATA / "t2-shuffled")
BG22 = ["--background", "sub-geo", "trec2022-world-pop", "--background", "src-geo",
        "trec2022-world-pop", "--background", "gender", "trec2022-gender"]  # fmt: skip


def run(capsys, *args):
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # the parser's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _api(task, edition, **kw):
    dims, work = tf.read_metadata(META22 if edition == 2022 else META21, edition=edition)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        return tf.evaluate(QRELS, T1 if task == 1 else [T2], dims, task=task, edition=edition,
                           work=work if task == 2 else None, **kw)  # fmt: skip


def _rows(text):
    return [line.split("\t") for line in text.splitlines()[1:]]


def test_task1_2022_prints_what_evaluate_gives_with_notices_on_stderr(capsys):
    code, out, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--metadata",
                         META22, *BG22, *T1)  # fmt: skip
    assert code == 0
    want = _api(1, 2022, backgrounds={"sub-geo": "trec2022-world-pop", "src-geo":
                "trec2022-world-pop", "gender": "trec2022-gender"})  # fmt: skip
    rows = _rows(out)
    assert len(rows) == 2 * (3 + 1) * 3
    for r, t, m, v in rows:
        assert float(v) == want.value(r, t, m)
    assert "AWRF[sub-geo,src-geo,gender,occ,alpha,age,pop,langs]" in {m for _, _, m, _ in rows}
    assert "fairconv trecfair: warning: run 't1-mixed': 1 of 91 ranked pages" in err
    assert "warning: some rows of dimension 'gender' sum to more than 1" in err


def test_task2_2021_uses_the_metadata_work_levels_and_the_cuts(capsys):
    code, out, err = run(capsys, "trecfair", "--task", "2", "--edition", "2021", "--qrels", QRELS,
                         "--metadata", META21, "--background", "geography", "trec2021-geography",
                         "--background", "gender", "trec2021-gender", "--summary", T2)  # fmt: skip
    assert code == 0
    assert "first 6 lines of each ranking" in err and "seq_no <= 25" in err
    want = _api(
        2, 2021, backgrounds={"geography": "trec2021-geography", "gender": "trec2021-gender"}
    )
    rows = _rows(out)
    assert {t for _, t, _, _ in rows} == {"all"}
    for r, t, m, v in rows:
        assert float(v) == want.value(r, t, m)


def test_dimensions_from_tables_and_explicit_targets(capsys, tmp_path):
    dims, _ = tf.read_metadata(META22, edition=2022, dimensions=["gender", "occ"])
    paths = []
    for d in dims:
        p = tmp_path / f"page-{d.name}-align.csv"
        lines = [",".join(["page_id", *d.categories])]
        lines += [",".join([pg.decode()] + [repr(float(x)) for x in row])
                  for pg, row in zip(d.pages, d.rows, strict=True)]  # fmt: skip
        p.write_text("\n".join(lines) + "\n")
        paths += ["--dimension", d.name, p]
    written = tmp_path / "targets.tsv"
    code, out, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, *paths,
                         "--write-targets", written, "-m", "nDCG*AWRF[gender,occ]",
                         *T1)  # fmt: skip
    assert code == 0 and written.exists()
    code, again, _ = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, *paths,
                         "--targets", written, "-m", "nDCG*AWRF[gender,occ]", *T1)  # fmt: skip
    assert code == 0 and again == out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        built = tf.build_targets(QRELS, dims, task=1)
    assert np.array_equal(tf.read_targets(written, dims).toarray(), built.toarray())


def test_write_targets_alone_and_never_over_an_input(capsys, tmp_path):
    out = tmp_path / "t2-targets.tsv"
    code, _, err = run(capsys, "trecfair", "--task", "2", "--qrels", QRELS, "--metadata", META22,
                       "--dimensions", "gender", "--write-targets", out)  # fmt: skip
    assert code == 0
    assert out.read_text().splitlines()[0] == "topic_id\tgender\ttarget"
    copy = tmp_path / "q.jsonl"
    copy.write_text(Path(QRELS).read_text())
    code, _, err = run(capsys, "trecfair", "--task", "2", "--qrels", copy, "--metadata", META22,
                       "--dimensions", "gender", "--write-targets", copy)  # fmt: skip
    assert code == 2 and "is the input" in err and len(err.strip().splitlines()) == 1
    assert copy.read_text() == Path(QRELS).read_text()
    code, _, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22,
                       "-o", T1[0], *T1)  # fmt: skip
    assert code == 2 and "is the input" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--task", "1", "--qrels", QRELS, *T1], "give either --dimension"),
        (["--task", "1", "--qrels", QRELS, "--metadata", META22], "give at least one RUN"),
        (
            [
                "--task",
                "1",
                "--qrels",
                QRELS,
                "--metadata",
                META22,
                "--targets",
                QRELS,
                "--work",
                QRELS,
                *T1,
            ],
            "cannot go with --targets",
        ),
        (
            ["--task", "1", "--qrels", QRELS, "--metadata", META22, "--depth", "-1", *T1],
            "argument --depth: takes K (an integer >= 1), 'edition' or 'none'; got '-1'",
        ),
        (
            ["--task", "2", "--qrels", QRELS, "--metadata", META22, *T1],
            "a Task 2 run line is 'topic seq_no page'; found 2 fields",
        ),
        (
            [
                "--task",
                "1",
                "--qrels",
                QRELS,
                "--metadata",
                META22,
                "--background",
                "occ",
                "trec2022-gender",
                *T1,
            ],
            "background of dimension 'occ'",
        ),
        (
            ["--task", "1", "--qrels", QRELS, "--metadata", META22, "--target-len", "10", *T1],
            "more than the target length 10",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, args, message):
    code, out, err = run(capsys, "trecfair", *args)
    errors = [line for line in err.splitlines() if "error:" in line]
    assert code == 2 and len(errors) == 1 and message in errors[0]
    assert err.splitlines()[-1] == errors[0]


def test_compare_discpower_and_agree_read_its_output(capsys, tmp_path):
    scores = tmp_path / "t1.tsv"
    code, _, _ = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22,
                     "--dimensions", "gender,occ", "-o", scores, *T1)  # fmt: skip
    assert code == 0
    code, out, err = run(capsys, "compare", "-m", "nDCG*AWRF[gender,occ]", "--test", "paired-t",
                         "--format", "json", scores)  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["n_topics"] == 3 and len(data["pairs"]) == 1
    code, out, err = run(capsys, "discpower", "-m", "nDCG", "-m", "AWRF[gender,occ]", "--test",
                         "paired-t", scores)  # fmt: skip
    assert code == 0, err
    assert "AWRF[gender,occ]" in out
    code, out, err = run(capsys, "agree", "-m", "nDCG", "-m", "nDCG*AWRF[gender,occ]", scores)
    assert code == 0, err
    assert "nDCG*AWRF[gender,occ]" in out


def test_depth_and_sequences_take_edition_none_or_a_number(capsys):
    """None means no cut (spelt 'none'); 'edition', the default, the edition's own cut."""
    base = ["trecfair", "--task", "2", "--edition", "2021", "--qrels", QRELS, "--metadata",
            META21, "--background", "geography", "trec2021-geography", "--summary", T2]  # fmt: skip
    code, default, err = run(capsys, *base)
    assert code == 0 and "first 6 lines of each ranking" in err
    code, edition, _ = run(capsys, *base, "--depth", "edition", "--sequences", "edition")
    assert code == 0 and edition == default
    code, cut, err = run(capsys, *base, "--depth", "6", "--sequences", "25")
    assert code == 0 and cut == default and "first 6 lines" not in err
    code, whole, err = run(capsys, *base, "--depth", "none", "--sequences", "none")
    assert code == 0 and whole != default and "left out" not in err
    code, zeros, err = run(capsys, *base, "--depth", "0", "--sequences", "0")
    assert code == 0 and zeros == whole
    assert "warning: --depth 0 for no cut is deprecated" in err and "write --depth none" in err
    assert "warning: --sequences 0 for no cut is deprecated" in err
    for bad in ("-1", "all", "2.5"):
        code, _, err = run(capsys, *base, "--depth", bad)
        assert code == 2 and "argument --depth: takes K" in err and len(err.splitlines()) == 1


def _args_of(d, kw, written_runs):
    """The command line of a case written by test_trecfair_io._write_case."""
    argv = ["trecfair", "--task", kw["task"], "--edition", kw["edition"], "--qrels", d / "qrels"]
    argv = [str(a) for a in argv]
    argv[-1] = str(d / "qrels.jsonl")
    for align in sorted(d.glob("page-*-align.csv")):
        argv += ["--dimension", align.name[len("page-") : -len("-align.csv")], str(align)]
    argv += ["--depth", "none"] + (["--sequences", "none"] if kw["task"] == 2 else [])
    if "targets" in kw:
        argv += ["--targets", str(kw["targets"])]
    for name, bg in (kw.get("backgrounds") or {}).items():
        argv += ["--background", name, str(bg)]
    if "work" in kw:
        argv += ["--work", str(kw["work"])]
    return argv + [str(r) for r in written_runs]


@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize(("task", "edition"), [(1, 2022), (1, 2021), (2, 2022), (2, 2021)])
def test_write_targets_changes_nothing_and_reads_back(capsys, tmp_path, task, edition, explicit):
    """An output option never changes what is computed, and fairconv reads what it
    writes: the scores with --write-targets are those without, and the targets written
    give the same scores with --targets (undefined targets, written nan, included; the
    values are the same to the last bit, their sums taken over the cells as read rather
    than in the built targets' factored form: within 1e-12)."""
    import trecfair_oracle as oracle
    from test_trecfair_io import _visible_levels, _write_case

    rng = np.random.default_rng([task, edition, explicit])
    checked = 0
    for k in range(6):
        case = _visible_levels(
            oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
        )
        if not any(t.get("ranking") or any(t.get("rankings", [])) for t in case["topics"]):
            continue
        d = tmp_path / str(k)
        d.mkdir()
        _, run_file, _, kw = _write_case(case, d)
        argv = _args_of(d, kw, [run_file])
        code, plain, err = run(capsys, *argv)
        if code != 0:  # a case the evaluation refuses is refused alike with the option
            assert run(capsys, *argv, "--write-targets", d / "w.tsv")[:2] == (code, plain)
            continue
        written = d / "targets-written.tsv"
        code, with_option, err2 = run(capsys, *argv, "--write-targets", written)
        assert code == 0 and with_option == plain and err2 == err
        reread = [a for a in argv if a != str(run_file)]
        for option in ("--background", "--work", "--targets"):  # built, or read: the same
            while option in reread:
                i = reread.index(option)
                del reread[i : i + (3 if option == "--background" else 2)]
        code, again, err3 = run(capsys, *reread, "--targets", written, run_file)
        assert code == 0, err3
        got, want = _rows(again), _rows(plain)
        assert [r[:3] for r in got] == [r[:3] for r in want]
        np.testing.assert_allclose(
            [float(r[3]) for r in got], [float(r[3]) for r in want], rtol=1e-12, atol=1e-15
        )
        checked += 1
    assert checked >= 3


def test_undefined_targets_are_written_nan_and_read_back(capsys, tmp_path):
    """2021 Task 1: a topic whose relevant pages are all fully unknown has an undefined
    target; --write-targets keeps the run valid and writes it as one nan row, which
    --targets reads, with --topics leaving it out too."""
    align = tmp_path / "geo.tsv"
    align.write_text("page_id\tUnknown\tA\tB\n1\t0\t1\t0\n2\t0\t0\t1\n9\t1\t0\t0\n")
    qrels = tmp_path / "q.jsonl"
    qrels.write_text('{"id": 7, "rel_docs": [1]}\n{"id": 8, "rel_docs": [9]}\n')
    run_file = tmp_path / "r"
    run_file.write_text("7 1\n7 2\n8 9\n8 1\n")
    base = ["trecfair", "--task", "1", "--edition", "2021", "--qrels", qrels,
            "--dimension", "geography", align]  # fmt: skip
    code, plain, err = run(capsys, *base, run_file)
    assert code == 0 and "topic(s) '8' give the target no mass" in err
    assert [r[3] for r in _rows(plain) if r[1] == "8" and r[2].startswith("AWRF")] == ["NaN"]
    written = tmp_path / "t.tsv"
    code, out, _ = run(capsys, *base, "--write-targets", written, run_file)
    assert code == 0 and out == plain
    assert written.read_text().splitlines()[-1] == "8\tUnknown\tnan"
    code, out, err = run(capsys, *base, "--targets", written, run_file)
    assert code == 0 and out == plain and "targets of topic(s) '8' are nan (undefined)" in err
    topics = tmp_path / "topics.txt"
    topics.write_text("7\n")
    code, out, _ = run(capsys, *base, "--targets", written, "--topics", topics, run_file)
    assert code == 0 and {r[1] for r in _rows(out)} == {"7", "all"}


@pytest.mark.parametrize(
    ("dimension", "message"),
    [
        (["--dimension", "geo", "G", "--dimension", "geo", "G"], "--dimension geo is given twice"),
        (
            ["--dimension", "geo graphy", "G"],
            "--dimension NAME ALIGNMENT: NAME must be a non-empty dimension name without "
            "whitespace, brackets or commas; got 'geo graphy'",
        ),
        (["--dimension", "a[1]", "G"], "NAME must be a non-empty dimension name"),
    ],
)
def test_dimension_errors_name_the_option_typed(capsys, tmp_path, dimension, message):
    align = tmp_path / "geo.tsv"
    align.write_text("page_id\tUnknown\tA\n1\t0\t1\n")
    argv = ["trecfair", "--task", "1", "--qrels", QRELS]
    argv += [str(align) if a == "G" else a for a in dimension] + [T1[0]]
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith("fairconv trecfair: error: ") and message in err


def test_topics_that_no_run_has_are_refused_as_compare_refuses_them(capsys, tmp_path):
    """A file of typos gave a header and exit 0: now one line naming them, status 2."""
    typos = tmp_path / "topics.txt"
    typos.write_text("1O1\n102\n")
    base = ["trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22, "--dimensions",
            "gender", "--topics", typos]  # fmt: skip
    code, out, err = run(capsys, *base, *T1)
    assert code == 2 and out == ""
    assert err == (
        "fairconv trecfair: error: --topics must list topics of the runs. Got '1O1' instead.\n"
    )
    code, _, err = run(capsys, *base, "--write-targets", tmp_path / "t.tsv")
    assert code == 2 and "--topics must list topics of the qrels with relevant pages" in err
    assert not (tmp_path / "t.tsv").exists()
    typos.write_text("102\n")
    code, out, _ = run(capsys, *base, *T1)
    assert code == 0 and {r[1] for r in _rows(out)} == {"102", "all"}


def test_a_misspelt_background_preset_is_named_with_its_option(capsys):
    code, _, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22,
                       "--background", "gender", "trec2022-gendr", *T1)  # fmt: skip
    (error,) = [line for line in err.splitlines() if ": warning: " not in line]
    assert code == 2 and error.startswith(
        "fairconv trecfair: error: --background must map each dimension name"
    )
    assert error.endswith(
        "Got 'trec2022-gendr' for 'gender' (neither a preset nor a file) instead. "
        "Did you mean 'trec2022-gender'?"
    )


def test_a_trec_run_out_of_rank_order_is_said_on_the_command_line(capsys, tmp_path):
    run_file = tmp_path / "trec.run"
    run_file.write_text("101 Q0 1 1 1.0 tag\n101 Q0 2 2 2.0 tag\n")
    code, out, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22,
                         "--dimensions", "gender", run_file)  # fmt: skip
    assert code == 0 and out.startswith("run\ttopic\tmeasure\tvalue\n")
    assert (
        f"fairconv trecfair: warning: {run_file}: line 2 of topic '101' scores higher than the "
        "line before it, but lines are ranked in file order (the organisers' rule)"
    ) in err


def test_order_score_ranks_a_trec_run_as_trec_eval_and_needs_scores(capsys, tmp_path):
    """--order score: the TREC run ranked by score, no notice; the track's own run lines
    have no score: one line on stderr, exit 2."""
    run_file = tmp_path / "trec.run"
    run_file.write_text("101 Q0 2001 1 2.0 tag\n101 Q0 9999 2 1.0 tag\n101 Q0 1009 3 3.0 tag\n")
    args = ["trecfair", "--task", "1", "--qrels", QRELS, "--metadata", META22,
            "--dimensions", "gender", "--measure", "nDCG"]  # fmt: skip
    code, by_file, err = run(capsys, *args, run_file)
    assert code == 0 and "scores higher" in err
    code, by_score, err = run(capsys, *args, "--order", "score", run_file)
    assert code == 0 and "scores higher" not in err
    nDCG = {row[1]: float(row[3]) for row in _rows(by_file)}
    assert float(_rows(by_score)[0][3]) > nDCG["101"]  # the relevant page 1009 first
    code, out, err = run(capsys, *args, "--order", "score", T1[0])
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "run 't1-relfirst' has no scores" in err and "--order file" in err


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {"run": "id\tpage_id\n101\t1\nid\tpage_id\n102\t2\n"},
            "run:3: a header line ('id page_id') after the first line: two runs joined",
        ),
        (
            {"align": "page_id,Unknown,female,male\n1, 0,1,0\n"},
            "align:2: field 2 of this alignment line, ' 0', has a space next to its comma",
        ),
        (
            {"bg": "female\t0.5\nmale\t0.5\n"},
            "bg:1: the first line must be the header, the names of the columns",
        ),
        (
            {"run": "101 Q0 1 one 2.5 t\n"},
            "run:1: a rank (4th column) must be an integer >= 0; found 'one'",
        ),
    ],
)
def test_bad_tables_are_named_by_file_and_line(capsys, tmp_path, files, message):
    texts = {
        "run": "101\t1\n",
        "align": "page_id,Unknown,female,male\n1,0,1,0\n2,0,0,1\n",
        "bg": "category,weight\nfemale,1\nmale,1\n",
        **files,
    }
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    code, out, err = run(capsys, "trecfair", "--task", "1", "--qrels", QRELS, "--dimension",
                         "gender", tmp_path / "align", "--background", "gender", tmp_path / "bg",
                         tmp_path / "run")  # fmt: skip
    (error,) = [line for line in err.splitlines() if ": warning: " not in line]
    assert code == 2 and out == ""
    assert error.startswith(f"fairconv trecfair: error: {tmp_path}/{message}"), error


def test_large_alignment_values_are_nan_with_a_notice_never_inf(capsys, tmp_path):
    """Sums past float64: NaN with a warning line naming run, measure and topic; no
    numpy RuntimeWarning, no inf, exit 0 (issue 33's decision)."""
    align = tmp_path / "geo.tsv"
    align.write_text("page_id\tUnknown\tA\tB\n1\t0\t1e300\t0\n2\t0\t0\t1\n3\t0\t1\t1\n")
    qrels = tmp_path / "q.jsonl"
    qrels.write_text('{"id": 7, "rel_docs": [1, 2]}\n{"id": 8, "rel_docs": [2, 3]}\n')
    run_file = tmp_path / "r"
    run_file.write_text("7 1 1\n7 1 2\n8 1 2\n8 1 3\n")
    targets = tmp_path / "t.tsv"
    targets.write_text("topic_id\tgeo\ttarget\n7\tA\t0.5\n7\tB\t0.5\n8\tA\t1\n")
    code, out, err = run(capsys, "trecfair", "--task", "2", "--qrels", qrels, "--dimension",
                         "geo", align, "--targets", targets, run_file)  # fmt: skip
    assert code == 0 and "RuntimeWarning" not in err and "inf" not in out.lower()
    rows = {(r[1], r[2]): r[3] for r in _rows(out)}
    assert rows[("7", "EE-D[geo]")] == "NaN" and rows[("8", "EE-D[geo]")] != "NaN"
    assert (
        "warning: run 'r': EE-D[geo] is NaN on topic(s) '7': its sums overflow float64 "
        "(alignment or target values too large)"
    ) in err


def _bad_invocations(tmp_path):
    """Bad trecfair command lines, each with what its message must name."""
    f = {
        "align": "page_id\tUnknown\tA\tB\n1\t0\t1\t0\n",
        "multi": "page_id\tA\tB\n1\t1\t0\n",
        "targets": "topic_id\tgeo\ttarget\n101\tA\t-1\n",
        "other_targets": "topic_id\tsex\ttarget\n101\tA\t1\n",
        "bg": "category\tweight\nA\t1\nC\t1\n",
        "work": "page_id\tlevel\n1\tGood\n",
        "topics": "999\n",
    }
    for name, text in f.items():
        (tmp_path / name).write_text(text)
    p = {k: str(tmp_path / k) for k in f}
    base = ["trecfair", "--task", "1", "--qrels", QRELS]
    geo = ["--dimension", "geo", p["align"]]
    return [
        (base + geo + ["--targets", p["targets"], T1[0]], "must be >= 0"),
        (base + geo + ["--targets", p["other_targets"], T1[0]], "the header names"),
        (base + geo + ["--background", "geo", p["bg"], T1[0]], "background of dimension 'geo'"),
        (base + ["--dimension", "geo", p["multi"], "--background", "geo", p["bg"], T1[0]],
         "--background must name only dimensions with an unknown category"),
        (base + geo + ["--topics", p["topics"], T1[0]], "--topics must list topics"),
        (base + geo + ["--target-len", "0", T1[0]], "--target-len"),
        (["trecfair", "--task", "2", "--qrels", QRELS, *geo, "--work", p["work"], T2],
         "a work level must be one of"),
        (["trecfair", "--task", "1", "--sequences", "3", "--qrels", QRELS, *geo, T1[0]],
         "--sequences must be 'edition' or None for Task 1"),
        (base + ["--metadata", META22, "--dimensions", "gender,sex", T1[0]], "--dimensions"),
        (base + geo + ["--dimension", "geo2", str(DATA / "t1-mixed"), T1[0]], "t1-mixed"),
    ]  # fmt: skip


def test_bad_invocations_are_one_line_in_the_commands_terms(capsys, tmp_path):
    """Every message names the option or file the user wrote: no 'A value given', no
    Python parameter, one line, status 2."""
    for argv, names in _bad_invocations(tmp_path):
        code, out, err = run(capsys, *argv)
        errors = [line for line in err.splitlines() if ": warning: " not in line]
        assert code == 2 and out == "" and len(errors) == 1, (argv, err)
        assert errors[0].startswith("fairconv trecfair: error: "), errors[0]
        assert names in errors[0], (names, errors[0])
        assert "A value given" not in errors[0] and "parameter" not in errors[0], errors[0]
