"""Word positions up to 2**53 in one conversation do not disturb the next one's turns.

A nugget's system turn is found by one search over all the conversations of a batch.
The turns and the nuggets of a conversation whose words run past 2**40 (and up to
2**53, the largest position a record may give) must not be mistaken for those of the
conversation that follows it.
"""

import json

import numpy as np
import pytest

from fairconv import AttributeSet, gfrc
from fairconv.io import batch_from_records, read_conversations

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
