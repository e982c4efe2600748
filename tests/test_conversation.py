"""The conversation model: words, turns, spans, the JSON Lines reader, bad input."""

import io as stdio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet, conversation, io
from fairconv.datasets import path
from fairconv.io import (
    Conversation,
    Nugget,
    batch_from_conversations,
    batch_from_records,
    find_span,
    read_attribute_sets,
    read_conversations,
    turns_of,
    word_at,
    write_conversations,
)

SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]
TEXT = (
    "U:Please list researchers. S:Here: Yoshua Bengio https://x/yb and Geoffrey Hinton "
    "U:More S:Fei-Fei Li"
)


def test_words_and_turns_follow_the_papers_rules():
    """measures.md section 3: 'U: Please' is two words, 'S:Yoshua' one (000, footnote 11)."""
    assert [(t.role, t.start, t.end) for t in turns_of("U: Please list S:Yoshua Bengio")] == [
        ("U", 1, 3),
        ("S", 4, 5),
    ]
    assert [(t.role, t.start, t.end) for t in turns_of(TEXT)] == [
        ("U", 1, 3),
        ("S", 4, 10),
        ("U", 11, 11),
        ("S", 12, 13),
    ]


def test_find_span_and_word_at():
    assert find_span(TEXT, "Yoshua Bengio https://x/yb") == (5, 7)
    assert find_span(TEXT, "Li") == (13, 13)
    assert word_at(TEXT, TEXT.index("Hinton")) == 10
    with pytest.raises(ValueError, match="fewer than 1 times"):
        find_span(TEXT, "Turing")
    with pytest.raises(ValueError, match="not inside a word"):
        word_at(TEXT, TEXT.index(" "))


def test_text_must_begin_with_user_turn():
    with pytest.raises(ValueError, match="must begin with 'U:'"):
        turns_of("S:Hello U:Hi")


def test_batch_from_records_with_text_and_system_turns():
    c = Conversation(
        "T",
        "r",
        (Nugget(12, 13, 2, memberships={"A": [1, 0]}), Nugget(5, 7, 1, "yb", {"A": [0, 1]})),
        text=TEXT,
    )
    batch = batch_from_conversations([c], SETS)
    assert batch.start.tolist() == [5, 12]  # sorted by position
    assert batch.turn.tolist() == [1, 2]  # system turns, 1-based
    assert batch.system_turns.tolist() == [2]
    assert batch.lengths.tolist() == [13]


def test_round_trip_through_json_lines(tmp_path):
    c = Conversation("T", "r", (Nugget(5, 7, 1, "yb", {"A": [0, 1]}),), text=TEXT)
    write_conversations([c], tmp_path / "c.jsonl")
    batch = read_conversations(tmp_path / "c.jsonl", SETS)
    assert batch.topics == ("T",) and batch.runs == ("r",)
    assert batch.memberships["A"].tolist() == [[0.0, 1.0]]


def test_conversations_are_written_whole_and_never_over_a_file(tmp_path):
    """write_conversations follows the output rule of every writer."""
    c = Conversation("T", "r", (Nugget(5, 7, 1, "yb", {"A": [0, 1]}),), text=TEXT)
    out = tmp_path / "c.jsonl"
    out.write_text("mine\n")
    with pytest.raises(FileExistsError, match="'out' parameter of io.write_conversations"):
        write_conversations([c], out)
    assert out.read_text() == "mine\n"
    write_conversations([c], out, overwrite=True)
    assert read_conversations(out, SETS).runs == ("r",)
    stream = stdio.StringIO()
    write_conversations([c], stream)
    assert stream.getvalue() == out.read_text(encoding="utf-8")
    with pytest.raises(TypeError, match="'conversations' parameter of io.write_conversations"):
        write_conversations([c.to_json()], tmp_path / "d.jsonl")
    assert not (tmp_path / "d.jsonl").exists()


MOVED = ["Turn", "turns_of", "find_span", "word_at", "Nugget", "Conversation",
         "ConversationBatch", "batch_from_conversations", "batch_from_records"]  # fmt: skip


@pytest.mark.parametrize("name", MOVED)
def test_the_records_keep_working_from_their_old_home_for_one_release(name):
    message = rf"fairconv\.conversation\.{name} has moved to fairconv\.io\.{name}"
    with pytest.warns(DeprecationWarning, match=message):
        old = getattr(conversation, name)
    assert old is getattr(io, name)
    assert name not in conversation.__all__
    with pytest.raises(AttributeError, match="has no attribute 'Turns'"):
        conversation.Turns  # noqa: B018


def test_an_import_from_the_old_home_warns_at_the_importing_line():
    with pytest.warns(DeprecationWarning) as caught:
        from fairconv.conversation import Nugget as Old  # noqa: F401
    assert caught[0].filename == __file__


def test_bundled_cases_read():
    sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    assert [a.name for a in sets] == ["PRONOUN", "HINDEX"]
    batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    assert len(batch) == 2 and batch.n_nuggets == 11


def _batch(nuggets, **rec):
    record = {"topic": "T", "run": "r", "text": TEXT, "nuggets": nuggets}
    record.update(rec)
    return batch_from_records([record], SETS, sources=["c.jsonl:7"])


@pytest.mark.parametrize(
    "nuggets, rec, message",
    [
        (
            [{"start": 13, "end": 14, "level": 1, "groups": {"A": [1, 0]}}],
            {},
            "c.jsonl:7: .* ends after the last word",
        ),
        ([{"start": 1, "end": 2, "level": 1, "groups": {"A": [1, 0]}}], {}, "lies in a user turn"),
        ([{"start": 10, "end": 12, "level": 1, "groups": {"A": [1, 0]}}], {}, "crosses the end"),
        ([{"start": 6, "end": 5, "level": 1}], {}, "start word is after its end word"),
        (
            [
                {"start": 5, "end": 7, "level": 1, "groups": {"A": [1, 0]}},
                {"start": 7, "end": 8, "level": 1, "groups": {"A": [1, 0]}},
            ],
            {},
            "overlaps",
        ),
        ([{"start": 5, "end": 7, "level": -1}], {}, "level must be >= 0"),
        (
            [{"start": 5, "end": 7, "level": 1, "groups": {"A": [1, 0, 0]}}],
            {},
            r'c\.jsonl:7: nugget 1: "groups"\."A" must be an array of 2 numbers',
        ),
        ([{"start": 5, "end": 7, "level": 1, "groups": {"A": [0.5, 0.6]}}], {}, "summing to 1"),
        ([{"start": 5, "end": 7, "level": 1, "groups": {"A": [-0.5, 1.5]}}], {}, "non-negative"),
        (
            [{"start": 5.5, "end": 7, "level": 1}],
            {},
            'nugget 1: "start" must be an integer, got 5.5',
        ),
        ([], {"text": "S:Hi U:there"}, "must begin with 'U:'"),
        ([{"start": 5, "end": 7, "level": 1}], {"text": None}, "needs a 'turn'"),
    ],
)
def test_bad_conversations(nuggets, rec, message):
    with pytest.raises(ValueError, match=message):
        _batch(nuggets, **rec)


def test_invalid_json_names_file_and_line(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"topic": "T", "nuggets": []}\n\n{"topic": "U", "nuggets": [}\n')
    with pytest.raises(ValueError, match=r"c\.jsonl:3: invalid JSON"):
        read_conversations(f, SETS)


def test_record_without_topic(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"nuggets": []}\n')
    with pytest.raises(ValueError, match=r'c\.jsonl:1: "topic" must be a non-empty string'):
        read_conversations(f, SETS)


def test_attribute_set_file_errors(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{"A": {"target": [0.5, 0.6], "scale": "nominal"}}')
    with pytest.raises(ValueError, match="attribute set 'A': .*sum to 1"):
        read_attribute_sets(f)
    f.write_text('{"A": {"target": [0.5, 0.5]}}')
    with pytest.raises(ValueError, match='needs a "target" and a "scale"'):
        read_attribute_sets(f)
    f.write_text('{"A": ')
    with pytest.raises(ValueError, match=r"a\.json:1: invalid JSON"):
        read_attribute_sets(f)
    (tmp_path / "t.golddistr").write_text("0.5\n0.5\n")
    f.write_text('{"A": {"target": "t.golddistr", "scale": "ordinal"}}')
    assert read_attribute_sets(f)[0].target.tolist() == [0.5, 0.5]


def test_a_golddistr_path_that_cannot_be_opened_names_its_attribute_set(tmp_path):
    f = tmp_path / "a.json"
    for target, reason in [("missing", "No such file"), (".", "Is a directory"),
                           ("t\\u0000", "embedded null byte")]:  # fmt: skip
        f.write_text(f'{{"A": {{"target": "{target}", "scale": "ordinal"}}}}')
        with pytest.raises(ValueError, match=rf"a\.json: attribute set 'A': .*\({reason}"):
            read_attribute_sets(f)


ENTITY_KEYS = st.sampled_from([None, "a", "b", "c", "d"])


@settings(max_examples=60, deadline=None)
@given(
    keys=st.lists(st.lists(ENTITY_KEYS, min_size=0, max_size=4), min_size=1, max_size=8),
    block_bytes=st.integers(1, 400),
)
def test_a_file_read_in_blocks_is_the_batch_of_all_its_records(tmp_path_factory, keys, block_bytes):
    """Blocks of any size give the batch of the whole file: entity keys are coded in
    order of first appearance over all the blocks, as over all the records."""
    from fairconv.io import _conversations

    records = []
    for c, row in enumerate(keys):
        nuggets = [{"start": 2 * k + 3, "end": 2 * k + 3, "level": 1, "entity": e,
                    "groups": {"A": [1, 0]}} for k, e in enumerate(row)]  # fmt: skip
        nuggets = [{k: v for k, v in n.items() if v is not None} for n in nuggets]
        text = "U:q S:" + " ".join(f"w{i}" for i in range(2 * len(row) + 2))
        records.append({"topic": f"T{c}", "run": "r", "text": text, "nuggets": nuggets})
    f = tmp_path_factory.mktemp("blocks") / "c.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    whole = batch_from_records(records, SETS, sources=[f"{f}:{c + 1}" for c in range(len(keys))])
    old = _conversations._BLOCK_BYTES
    _conversations._BLOCK_BYTES = block_bytes
    try:
        read = read_conversations(f, SETS)
    finally:
        _conversations._BLOCK_BYTES = old
    first_seen: dict = {}
    expected = [first_seen.setdefault(e, len(first_seen)) for row in keys for e in row if e]
    assert read.entity[read.entity >= 0].tolist() == expected
    for name in ("offsets", "start", "end", "level", "turn", "entity", "system_turns", "lengths"):
        assert getattr(read, name).tolist() == getattr(whole, name).tolist(), name
    assert read.memberships["A"].tolist() == whole.memberships["A"].tolist()
    assert (read.topics, read.runs, read.sources) == (whole.topics, whole.runs, whole.sources)


def test_every_conversation_measure_documents_its_options_with_the_one_text():
    """The options' text is written once (conversation.OPTIONS) and is what every
    signature that takes an option says of it, as plain numpydoc."""
    import inspect

    from fairconv import gfrc, gfrc2
    from fairconv.conversation import OPTIONS, ConversationOptions, option_docs

    functions = [gfrc.gfrc, gfrc.evaluate, gfrc.turns, gfrc2.gfrc2, gfrc2.evaluate, gfrc2.clusters]
    for f in functions:
        doc = inspect.getdoc(f)
        assert "{" + "options}" not in doc and "{" + "preset}" not in doc
        for name in inspect.signature(f).parameters:
            if name in OPTIONS:
                assert option_docs(name) in doc, (f.__qualname__, name)
    fields = inspect.getdoc(ConversationOptions)
    assert option_docs(*OPTIONS, optional=False) in fields
    assert set(OPTIONS) == set(ConversationOptions.__dataclass_fields__)


def test_the_old_names_of_the_memberships_and_attribute_sets_work_for_one_release():
    """Nugget's and ConversationBatch's ``groups`` are ``memberships``, the batch's
    ``attributes`` its ``attribute_sets``: the old keywords and attributes give a
    DeprecationWarning naming the new name, attributed to the caller's line."""
    a = AttributeSet("A", [0.5, 0.5], "nominal")
    with pytest.warns(DeprecationWarning, match="'groups' parameter of io.Nugget is now") as w:
        old = io.Nugget(4, 5, 2, groups={"A": [1, 0]})
    assert w[0].filename == __file__
    assert old == io.Nugget(4, 5, 2, memberships={"A": [1, 0]})
    with pytest.warns(DeprecationWarning, match=r"io.Nugget.groups is now io.Nugget.memberships"):
        assert old.groups == {"A": [1, 0]}
    c = io.Conversation("T1", "r", (old,), text="U:Who is it S:Yoshua Bengio")
    batch = io.batch_from_conversations([c], [a])
    with pytest.warns(DeprecationWarning, match=r"ConversationBatch.groups is now"):
        assert batch.groups is batch.memberships
    with pytest.warns(DeprecationWarning, match=r"ConversationBatch.attributes is now"):
        assert batch.attributes == (a,)
    with pytest.raises(TypeError, match="got both 'groups' and 'memberships'"):
        io.Nugget(4, 5, 2, groups={}, memberships={})
