"""fairconv.io._json: the rules of every JSON and JSON Lines input.

Every record of an input gives its run, or none does: a record without one among
records with one (or the other way round) is an error naming its line and the first
record's, whatever the reader; two files of one name cannot merge. The readers'
shortcuts (text-read depth, key count, numbers) give what the full rules give, on
generated texts."""

import importlib.util
import json
import re
import sys
from io import BytesIO

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet, io, nuggets
from fairconv.cli import main
from fairconv.io import Unreadable, iter_jsonl
from fairconv.io import _json as rules

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


# strings full of what the shortcuts look at: quotes, backslashes, brackets, digits, e;
# numbers of up to 26 digits, and strings that look like numbers with long exponents
text = st.text(alphabet='"\\[]{}:,0123456789eE+-. aé\n', max_size=12)


number = st.one_of(
    st.integers(-(10**25), 10**25),
    st.floats(allow_nan=False, allow_infinity=False),
    st.builds(lambda m, e: f"{m}e{e}", st.integers(-999, 999), st.integers(-400, 400)),
)


values = st.recursive(
    st.one_of(st.none(), st.booleans(), text, number),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=20,
)


def keys(value) -> int:
    """The number of keys of every object in a decoded value."""
    if isinstance(value, dict):
        return len(value) + sum(map(keys, value.values()))
    if isinstance(value, list):
        return sum(map(keys, value))
    return 0


def nesting(value) -> int:
    """The nesting depth of a decoded value, straight from the definition."""
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


def integers(value):
    """Every int in a decoded value."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in integers(v)]
    if isinstance(value, list):
        return [x for v in value for x in integers(v)]
    return [value] if type(value) is int else []


def canonical(value):
    """Decoded values with Unreadable numbers as their text, for comparison."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, Unreadable):
        return ("unreadable", value.text)
    return (type(value).__name__, repr(value))


# --------------------------------------------------------------------------- surrogates
@pytest.fixture(params=["pure"] + (["orjson"] if importlib.util.find_spec("orjson") else []))
def decoder(request, monkeypatch):
    """Both JSON routes: the standard decoder, and orjson where it is installed (CI runs
    this file again with the fast extra)."""
    if request.param == "orjson":
        monkeypatch.delenv("FAIRCONV_PURE", raising=False)
    else:
        monkeypatch.setenv("FAIRCONV_PURE", "1")
    return request.param


# escapes of surrogates, paired or not, next to escaped backslashes and look-alike text
PIECES = [r"\ud800", r"\uDBFF", r"\udc00", r"\uDFFF", r"\uD83D", r"\ude00", "\\\\", "u",
          "d800", "a", r"\u0041", r"\n"]  # fmt: skip


CONVERSATION = {"topic": "T", "run": "r", "text": "U:q S:a b", "nuggets": [
    {"start": 3, "end": 3, "level": 1, "entity": "e", "groups": {"A": [1, 0]}}]}  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_structure_read_from_the_text_is_that_of_the_values(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert rules._structure(data) == (nesting(value), keys(value))


@pytest.mark.parametrize(
    "value",
    [["x:y", "z"], {"": "", "a": "[:"}, ["", "", ":"], {"a": ["]", "", "{"]}, [["}"], "", [""]]],
)
def test_strings_side_by_side_leave_every_mark_on_its_side(value):
    data = json.dumps(value).encode()
    assert rules._structure(data) == (nesting(value), keys(value))


def test_a_key_twice_counts_twice():
    assert rules._structure(b'{"a": 1, "a": {"b:": "c\\\\", "d": "e\\":"}}') == (2, 4)


@settings(max_examples=500, deadline=None)
@given(values, st.booleans())
def test_plain_numbers_decode_as_the_number_hooks_do(value, ascii_only):
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    hooked = canonical(rules._loads(data.decode(), False))
    plain, short = rules._number_shapes(data)
    if plain:
        assert canonical(rules._loads(data.decode(), True)) == hooked
    if short:
        assert all(abs(x) < 2**63 for x in integers(value))


def test_long_or_huge_numbers_take_the_hooks():
    for literal in ["1" * 21, "-" + "9" * 25, "1e400", "2.5E+308", "1" + "0" * 120 + ".5"]:
        assert not rules._number_shapes(f'{{"x": {literal}}}'.encode())[0]
    for literal in ["1" * 20, "-" + "9" * 19]:
        assert rules._number_shapes(f'{{"x": {literal}}}'.encode()) == (True, False)
    for literal in ["9" * 18, "0.28900000000000003", "1e99", "-3.5E-12", "1e-99"]:
        assert rules._number_shapes(f'{{"x": {literal}, "id": "e400123"}}'.encode()) == (
            True,
            True,
        )


def test_identifier_rule_is_the_definition_on_every_code_point():
    """An id refuses exactly white space, control characters, the BOM and surrogates."""
    from fairconv._validation import NOT_IN_ID

    for c in map(chr, range(sys.maxunicode + 1)):
        refused = c.isspace() or ord(c) < 32 or 127 <= ord(c) < 160
        refused = refused or c == "\ufeff" or 0xD800 <= ord(c) <= 0xDFFF
        assert bool(NOT_IN_ID.search(c)) == refused, hex(ord(c))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8), st.booleans())
@example(["\\ud800", "\\\\", "\\udc00"], False)  # halves that an escaped backslash keeps apart
def test_a_lone_surrogate_is_refused_exactly_when_the_decoder_gives_one(pieces, as_key):
    """The text's pre-check never misses a lone surrogate the decoder would give."""
    text = "".join(pieces)
    line = f'{{"{text}": 1}}' if as_key else f'{{"topic": "{text}"}}'
    decoded = json.loads(line)
    lone = any(0xD800 <= ord(c) <= 0xDFFF for c in json.dumps(decoded, ensure_ascii=False))
    stream = BytesIO(line.encode() + b"\n")
    stream.name = "s.jsonl"
    try:
        assert iter_jsonl(stream) == [(1, decoded)]
        assert not lone
    except ValueError as exc:
        assert lone and str(exc).startswith("s.jsonl:1: "), str(exc)
        assert "must be valid Unicode text" in str(exc)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("topic", "T\\ud800", '"topic" must be valid Unicode text, got "T\\ud800"'),
        ("run", "\\udc00r", '"run" must be valid Unicode text, got "\\udc00r"'),
        ("text", "U:q S:a \\udbffb", '"text" must be valid Unicode text'),
        ("entity", "e\\ud800", '"entity" of item 1 of "nuggets" must be valid Unicode text'),
    ],
)
def test_a_lone_surrogate_in_a_conversation_names_file_line_and_field(
    tmp_path, decoder, field, value, message
):
    from fairconv import AttributeSet
    from fairconv.io import read_conversations

    line = json.dumps(CONVERSATION)
    old = f'"{CONVERSATION.get(field, "e")}"'
    f = tmp_path / "c.jsonl"
    f.write_text(line + "\n" + line.replace(old, f'"{value}"', 1) + "\n")
    with pytest.raises(ValueError, match=re.escape(f"c.jsonl:2: {message}")):
        read_conversations(f, [AttributeSet("A", [0.5, 0.5], "nominal")])


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("a.jsonl", '{"topic": "M\\ud800", "run": "r", "entities": []}',
         'a.jsonl:1: "topic" must be valid Unicode text'),
        ("l.jsonl", '{"topic": "T", "turn": "T_1", "gold": ["g\\udc00"], "extracted": [], '
                    '"ntn": [], "ntr": []}',
         'l.jsonl:1: item 1 of "gold" must be valid Unicode text, got "g\\udc00"'),
        ("s.json", '{"A\\ud800": {"target": [0.5, 0.5], "scale": "nominal"}}',
         's.json: a key must be valid Unicode text, got "A\\ud800"'),
        ("s.json", '{"A": {"target": "x\\ud800.golddistr", "scale": "nominal"}}',
         's.json: "target" of "A" must be valid Unicode text'),
    ],
)  # fmt: skip
def test_a_lone_surrogate_in_every_json_reader(tmp_path, decoder, name, text, message):
    from fairconv import AttributeSet
    from fairconv.io import read_answers, read_attribute_sets, read_labels

    f = tmp_path / name
    f.write_text(text + "\n")
    read = {
        "a.jsonl": lambda: read_answers(f, [AttributeSet("A", [0.5, 0.5], "nominal")]),
        "l.jsonl": lambda: read_labels(f),
        "s.json": lambda: read_attribute_sets(f),
    }[name]
    with pytest.raises(ValueError, match=re.escape(message)):
        read()


def test_a_lone_surrogate_in_the_cli_is_one_error_line_and_no_output(tmp_path, decoder):
    import subprocess
    import sys

    from fairconv.datasets import path

    f = tmp_path / "s.jsonl"
    f.write_text('{"topic":"\\ud800","run":"r","text":"U:a S:b","nuggets":[]}\n')
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "gfrc", "--attributes",
         str(path("cases", "r112-attributes.json")), str(f)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    assert proc.stderr.count("\n") == 1
    assert f'{f}:1: "topic" must be valid Unicode text, got "\\ud800"' in proc.stderr
