"""fairconv.io._conversation_records: the conversation records and their words and turns.

measures.md section 3: the words of a conversation are its white-space separated
tokens (``str.split()``); a word beginning with ``U:`` or ``S:`` opens a turn, and a
text must open with a user turn. Words and turns of many texts at once equal the
definition, text by text; spans (find_span, word_at); batch_from_records; word positions
up to 2**53 in one conversation do not disturb the next one's turns, and a nugget's
system turn is found by one search over all the conversations of a batch."""

import json
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet, gfrc, io
from fairconv.io import (
    Conversation,
    Nugget,
    batch_from_conversations,
    batch_from_records,
    find_span,
    read_conversations,
    turns_of,
    word_at,
)
from fairconv.io import _conversation_records as conversation
from fairconv.io._conversation_records import _text_turns


def reference(text: str):
    """(n_words, ok, turns as (start, end, role)) straight from the definition."""
    words = text.split()
    opens = [i for i, w in enumerate(words, start=1) if w[:2] in ("U:", "S:")]
    ok = bool(words) and words[0].startswith("U:")
    ends = [s - 1 for s in opens[1:]] + [len(words)] * bool(opens)
    turns = [(s, e, words[s - 1][0]) for s, e in zip(opens, ends, strict=True)]
    return len(words), ok, turns


def test_wide_spaces_are_every_non_ascii_space():
    every = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and c > 127}
    assert set(conversation._WIDE_SPACES) == every
    ascii_spaces = {chr(b) for b in range(128) if conversation._SPACE_BYTES[b]}
    assert ascii_spaces == {chr(c) for c in range(128) if chr(c).isspace()}


# letters that look like turn marks, spaces of every kind, multi-byte neighbours of the
# wide spaces (U+2019, U+3001, U+00A1) and a lone surrogate
PIECES = st.sampled_from(
    ["U:", "S:", "U", "S", ":", "u:", "x", "é", "’", "、", "¡", "\ud800", "U:x", "S:y"]
    + [" ", "\n", "\t", "\x1c", "\x1f", "\x0b"]
    + list(conversation._WIDE_SPACES)
)
TEXTS = st.lists(PIECES, max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXTS, max_size=8))
def test_text_turns_equal_the_definition(texts):
    n_words, ok, text, start, system = _text_turns(texts)
    for k, t in enumerate(texts):
        n, good, turns = reference(t)
        assert n_words[k] == n and ok[k] == good
        mine = start[text == k].tolist()
        assert mine == [s for s, _, _ in turns]
        assert system[text == k].tolist() == [r == "S" for _, _, r in turns]
        if good:
            assert [(x.start, x.end, x.role) for x in turns_of(t)] == turns
        else:
            with pytest.raises(ValueError, match="must begin with 'U:'"):
                turns_of(t)


@settings(max_examples=50, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=12))
def test_text_turns_in_tiny_steps(texts):
    whole = _text_turns(texts)
    step = conversation._TEXT_STEP
    conversation._TEXT_STEP = 3  # a step of one or two texts
    try:
        stepped = _text_turns(texts)
    finally:
        conversation._TEXT_STEP = step
    for a, b in zip(whole, stepped, strict=True):
        assert np.array_equal(a, b)


def test_records_with_text_turns_and_neither_in_one_batch():
    """The turn table merges text turns and given turns in record order."""
    sets = [AttributeSet("A", [0.5, 0.5], "nominal")]
    nug = {"start": 3, "end": 3, "level": 1, "groups": {"A": [1, 0]}}
    records = [
        {
            "topic": "t",
            "run": "r",
            "turns": [{"role": "U", "start": 1, "end": 1}, {"role": "S", "start": 2, "end": 4}],
            "nuggets": [nug],
        },
        {
            "topic": "t",
            "run": "s",
            "text": "U:a b S:c d U:e S:f g h",
            "nuggets": [dict(nug, start=7, end=8), nug],
        },
        {"topic": "t", "run": "u", "nuggets": [dict(nug, turn=2)]},
        {"topic": "t", "run": "v", "text": "U:a S:b c", "nuggets": [nug]},
    ]
    batch = batch_from_records(records, sets, sources=["a", "b", "c", "d"])
    assert batch.turn.tolist() == [1, 1, 2, 2, 1]
    assert batch.system_turns.tolist() == [1, 2, -1, 1]
    assert batch.lengths.tolist() == [4, 8, -1, 3]


SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]


BIG = 2**53


# words 1-10 user, 11-2**41 system, then user, then a system turn that ends at word 2**53
LONG = {
    "topic": "T1",
    "run": "r",
    "turns": [
        {"role": "U", "start": 1, "end": 10},
        {"role": "S", "start": 11, "end": 2**41},
        {"role": "U", "start": 2**41 + 1, "end": BIG - 100},
        {"role": "S", "start": BIG - 99, "end": BIG},
    ],
    "nuggets": [
        {"start": 12, "end": 15, "level": 1, "groups": {"A": [1, 0]}},
        {"start": 2**41 - 5, "end": 2**41, "level": 2, "groups": {"A": [0, 1]}},
        {"start": BIG - 50, "end": BIG - 40, "level": 1, "groups": {"A": [1, 0]}},
        {"start": BIG - 3, "end": BIG, "level": 2, "groups": {"A": [0, 1]}},
    ],
}


# an ordinary conversation after it: "U:a b S:c d U:e S:f g"
SHORT = {
    "topic": "T2",
    "run": "r",
    "text": "U:a b S:c d U:e S:f g",
    "nuggets": [
        {"start": 3, "end": 3, "level": 1, "groups": {"A": [1, 0]}},
        {"start": 6, "end": 7, "level": 2, "groups": {"A": [0, 1]}},
    ],
}


TURNS = [1, 1, 2, 2, 1, 2]  # the system turn of every nugget, LONG's then SHORT's


def _batch(records):
    return batch_from_records(
        records, SETS, sources=[f"c.jsonl:{i + 1}" for i in range(len(records))]
    )


@pytest.mark.parametrize("records", [[LONG, SHORT], [SHORT, LONG]], ids=["long-first", "long-last"])
def test_turns_of_nuggets_past_word_2_40_before_and_after_another_conversation(records):
    batch = _batch(records)
    by_topic = {batch.topics[c]: c for c in range(len(batch))}
    turn = batch.turn.tolist()
    got = [
        turn[i]
        for t in ("T1", "T2")
        for i in range(batch.offsets[by_topic[t]], batch.offsets[by_topic[t] + 1])
    ]
    assert got == TURNS
    assert batch.system_turns[by_topic["T1"]] == 2 and batch.system_turns[by_topic["T2"]] == 2
    assert batch.lengths[by_topic["T1"]] == BIG


def test_read_conversations_and_gfrc_agree_with_each_conversation_alone(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (LONG, SHORT)), encoding="utf-8")
    batch = read_conversations(path, SETS)
    assert batch.turn.tolist() == TURNS
    both = gfrc.evaluate(batch, L=BIG)
    for record in (LONG, SHORT):
        alone = gfrc.evaluate(_batch([record]), L=BIG)
        topic = record["topic"]
        for measure in alone.measures:
            a, b = alone.value("r", topic, measure), both.value("r", topic, measure)
            assert np.isfinite(a) and a == b, (topic, measure, a, b)


def test_a_nugget_in_a_user_turn_past_word_2_40_is_still_named():
    nuggets = [{"start": 2**41 + 5, "end": 2**41 + 6, "level": 1, "groups": {"A": [1, 0]}}]
    with pytest.raises(ValueError, match=r"c\.jsonl:1: nugget 1 .* lies in a user turn"):
        _batch([{**LONG, "nuggets": nuggets}, SHORT])


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
