"""The rules of every JSON Lines input that names runs (fairconv.io._json).

Every record of an input gives its run, or none does: a record without one among
records with one (or the other way round) is an error naming its line and the first
record's, whatever the reader; and two files of one name cannot give one run by their
name. Tested on generated inputs through the API and on the command line.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet, io, nuggets
from fairconv.cli import main

SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]
ENTITY = {"level": 1, "groups": {"A": [1, 0]}}


def conversation(k: int, run):
    rec = {"topic": f"T{k}", "text": "U:q S:a b", "nuggets": [{"start": 3, "end": 3}]}
    return rec if run is None else {**rec, "run": run}


def answer(k: int, run):
    rec = {"topic": f"T{k}", "entities": [ENTITY]}
    return rec if run is None else {**rec, "run": run}


def label(k: int, run):
    rec = {"topic": f"T{k}", "turn": f"T{k}_1", "gold": ["g"], "extracted": ["e"]}
    return rec if run is None else {**rec, "run": run}


def assignment(k: int, run):
    rec = {"qid": f"q{k}", "nuggets": [{"importance": "vital", "assignment": "support"}]}
    return rec if run is None else {**rec, "run_id": run}


# (make a record, the field, read a file, read records in memory, the run of a file
# whose records name none, that of records in memory naming none)
READERS = {
    "conversations": (conversation, "run", lambda p: io.read_conversations(p, SETS),
                      lambda r: io.batch_from_records(r, SETS, sources=[
                          f"record {i + 1}" for i in range(len(r))]),
                      "data.jsonl", None),
    "answers": (answer, "run", lambda p: io.read_answers(p, SETS),
                lambda r: io.as_answers(r, SETS), "", ""),
    "labels": (label, "run", io.read_labels, io.labels_from_records, "data.jsonl", "run"),
    "assignments": (assignment, "run_id", io.read_nuggetizer, io.read_nuggetizer, "data",
                    None),
}  # fmt: skip


def _runs(result):
    return tuple(result.runs)


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(max_examples=40, deadline=None)
@given(given_runs=st.lists(st.booleans(), min_size=1, max_size=6))
def test_every_record_gives_its_run_or_none_does(tmp_path_factory, kind, given_runs):
    make, field, read_file, read_records, file_run, memory_run = READERS[kind]
    records = [make(k, "r1" if g else None) for k, g in enumerate(given_runs)]
    path = tmp_path_factory.mktemp(kind) / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    other = [k for k, g in enumerate(given_runs) if g != given_runs[0]]
    if other:  # the first record that differs from the first names itself and the first
        k = other[0]
        told = f'gives a "{field}"' if given_runs[k] else f'has no "{field}"'
        for read, given, where, first in (
            (read_file, path, f"{path}:{k + 1}: ", f"{path}:1"),
            (read_records, records, f"record {k + 1}: ", "record 1"),
        ):
            if kind == "answers" and given is records:
                where, first = f"answers records:{k + 1}: ", "answers records:1"
            with pytest.raises(ValueError) as info:
                read(given)
            message = str(info.value)
            if given is records and memory_run is None and not given_runs[0]:
                # records in memory must name their run: the first says so already
                assert message.startswith("record 1: ") and field in message, message
                continue
            assert message.startswith(where + f"the record {told}"), message
            assert f"while {first} gives" in message
            assert f'give every record its "{field}", or none' in message
        return
    expected_file = ("r1",) * len(records) if given_runs[0] else (file_run,) * len(records)
    assert _runs(read_file(path)) == expected_file
    if given_runs[0]:
        assert _runs(read_records(records)) == ("r1",) * len(records)
    elif memory_run is None:  # records in memory must name their run
        with pytest.raises(ValueError, match=field):
            read_records(records)
    else:
        assert _runs(read_records(records)) == (memory_run,) * len(records)


def test_the_rule_holds_across_the_blocks_of_a_file(tmp_path, monkeypatch):
    """The first record of the file, not of a block, decides."""
    from fairconv.io import _answers, _conversations, _labels

    records = [conversation(k, "r" if k == 0 else None) for k in range(30)]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    for module in (_conversations, _labels, _answers):
        monkeypatch.setattr(module, "_BLOCK_BYTES", 50)
    with pytest.raises(ValueError, match=rf'^{path}:2: the record has no "run", while {path}:1'):
        io.read_conversations(path, SETS)
    labels = tmp_path / "l.jsonl"
    labels.write_text("".join(json.dumps(label(k, None if k < 20 else "r")) + "\n"
                              for k in range(25)))  # fmt: skip
    with pytest.raises(ValueError, match=rf'^{labels}:21: the record gives a "run"'):
        io.read_labels(labels)


@pytest.mark.parametrize("kind", ["conversations", "answers", "labels", "assignments"])
def test_the_command_line_names_the_record(tmp_path, capsys, kind):
    make, field, *_ = READERS[kind]
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(make(k, "r" if k != 1 else None)) + "\n" for k in range(3)))
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"A": {"target": [0.5, 0.5], "scale": "nominal"}}))
    argv = {
        "conversations": ["gfrc", "--attributes", str(sets), str(path)],
        "labels": ["nuggets", str(path)],
        "assignments": ["nuggets", "--input-format", "nuggetizer", str(path)],
    }.get(kind)
    if argv is None:  # answers: ragfair's inputs around them
        from fairconv.datasets import path as data

        pilot = data("fairweb1-pilot")
        lines = [json.dumps({"topic": "P002", "run": "Anserini-bm25", "entities": []}),
                 json.dumps({"topic": "P002", "entities": []})]  # fmt: skip
        path.write_text("\n".join(lines) + "\n")
        argv = ["ragfair", "--qrels", str(pilot / "fairweb1pilot.qrels"), "--attribute",
                "M-ORIGIN", str(pilot / "fairweb1pilot.M-ORIGIN.gmemb"),
                str(pilot / "M-ORIGIN.golddistr"), "nominal", "--answers", str(path),
                str(pilot / "runs" / "run.bm25-depThre6")]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f'{path}:2: the record has no "{field}", while {path}:1 gives one' in err


def _assign(path, run=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    rec = assignment(1, run)
    path.write_text(json.dumps(rec) + "\n")
    return path


def test_two_nuggetizer_files_of_one_name_give_no_one_run(tmp_path, capsys):
    a = _assign(tmp_path / "bm25" / "assign.jsonl")
    b = _assign(tmp_path / "splade" / "assign.jsonl")
    parts = [io.read_nuggetizer(a), io.read_nuggetizer(b)]
    with pytest.raises(ValueError) as info:
        nuggets.nuggetizer_scores(parts)
    message = str(info.value)
    assert message.startswith(f'{b}: the records have no "run_id" and take their file\'s name')
    assert f"'assign', as {a} does: two runs would merge" in message
    argv = ["nuggets", "--input-format", "nuggetizer", str(a), str(b)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(a) in err and str(b) in err
    # named runs, or a name given, are separate runs
    named = [io.read_nuggetizer(a, name="bm25"), io.read_nuggetizer(b, name="splade")]
    assert nuggets.nuggetizer_scores(named).runs == ("bm25", "splade")
    c = _assign(tmp_path / "x" / "assign.jsonl", run="splade")
    assert nuggets.nuggetizer_scores([io.read_nuggetizer(a), io.read_nuggetizer(c)]).runs == (
        "assign",
        "splade",
    )


def test_two_coverage_files_of_one_name_give_no_one_run(tmp_path, capsys):
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"1_1": {"g1": {"text": "x", "relevance": 1}}}))
    line = {"topic_turn_id": "1_1", "covered": ["g1"], "uncovered": [], "recall": 1.0,
            "response": "r"}  # fmt: skip
    files = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        files.append(tmp_path / folder / "coverage_x.jsonl")
        files[-1].write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError) as info:
        io.read_cone_rag(gold, ntr=files)
    message = str(info.value)
    assert message.startswith(f"{files[1]}: the coverage file names its run 'x', as {files[0]}")
    argv = ["nuggets", "--input-format", "cone-rag", "--gold", str(gold)]
    argv += ["--ntr", str(files[0]), "--ntr", str(files[1])]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two runs would merge" in err
