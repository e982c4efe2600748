"""The ``fast`` extra: orjson reads JSON Lines to the same values and the same errors.

Every input is read twice, with orjson and with FAIRCONV_PURE=1 (the standard decoder
and the full rules); the two must agree value for value (types included) or refuse
with the same message.
"""

import json

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairconv import AttributeSet, _accel
from fairconv.io import Unreadable, iter_jsonl, read_conversations

SETS = [AttributeSet("A", [0.5, 0.5], "nominal")]

# number literals written as they are: long, huge, tiny, signed, with exponents
literal = st.one_of(
    st.integers(-(10**25), 10**25).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(
        lambda m, f, e: f"{m}.{f}e{e}",
        st.integers(-(10**20), 10**20),
        st.integers(0, 10**22),
        st.integers(-420, 420),
    ),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "-0", "1E+2", "1e-400", "2.5E308"]),
)
key = st.text(alphabet='ab"\\:{}é', max_size=3).map(lambda k: json.dumps(k))
scalar = st.one_of(
    literal,
    st.sampled_from(["true", "false", "null", '"\\ud800"', '"\\u00e9"', '"x\\"y"']),
    st.text(alphabet='a"\\:{}[]é\u2028 ', max_size=6).map(json.dumps),
)


def obj(inner):
    return st.lists(st.tuples(key, inner), max_size=4).map(
        lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
    )


def arr(inner):
    return st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]")


value = st.recursive(scalar, lambda inner: st.one_of(obj(inner), arr(inner)), max_leaves=12)


def all_keys(values) -> int:
    """Keys of every object among the values (the most a caller can count)."""
    out = 0
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            out += len(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def canonical(v):
    if isinstance(v, dict):
        return {k: canonical(x) for k, x in v.items()}
    if isinstance(v, list):
        return [canonical(x) for x in v]
    if isinstance(v, Unreadable):
        return ("unreadable", v.text)
    return (type(v).__name__, repr(v))


def outcome(read, pure):
    with pytest.MonkeyPatch.context() as m:
        if pure:
            m.setenv("FAIRCONV_PURE", "1")
        else:
            m.delenv("FAIRCONV_PURE", raising=False)
        try:
            return ("ok", read())
        except ValueError as exc:
            return ("error", str(exc))


@pytest.fixture
def decoded(monkeypatch):
    """Count the lines orjson decodes, so a test shows the fast route ran."""
    calls = []

    def counting(data):
        calls.append(1)
        return orjson.loads(data)

    monkeypatch.setattr(_accel, "json_decoder", lambda: None if _pure() else counting)
    return calls


def _pure():
    import os

    return bool(os.environ.get("FAIRCONV_PURE"))


@settings(max_examples=300, deadline=None)
@given(st.lists(value, min_size=1, max_size=4))
def test_fast_and_pure_routes_agree_on_any_json_lines(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("j") / "x.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def read():
        return [(n, canonical(v)) for n, v in iter_jsonl(path, count_keys=all_keys)]

    fast = outcome(read, pure=False)
    pure = outcome(read, pure=True)
    assert fast == pure


def test_the_fast_route_runs_and_a_repeated_key_is_still_refused(tmp_path, decoded):
    good = tmp_path / "good.jsonl"
    good.write_text('{"a": 1, "b": [1.5, 2]}\n\n{"a": 2}\n')
    assert iter_jsonl(good, count_keys=all_keys) == [
        (1, {"a": 1, "b": [1.5, 2]}),
        (3, {"a": 2}),
    ]
    assert len(decoded) == 2
    twice = tmp_path / "twice.jsonl"
    twice.write_text('{"a": 1}\n{"a": {"b": 1, "b": 2}}\n')
    with pytest.raises(ValueError, match=r"twice\.jsonl:2: the key 'b' appears twice"):
        iter_jsonl(twice, count_keys=all_keys)


def conversation_line(nuggets, extra=""):
    text = "U:q S:" + " ".join(["w"] * 30)
    head = f'{{"topic": "t", "run": "r", "text": "{text}", '
    return head + f'"nuggets": [{", ".join(nuggets)}]{extra}}}'


NUG = '{"start": %s, "end": %s, "level": %s, "groups": {"A": [%s, %s]}}'


@pytest.mark.parametrize(
    "line",
    [
        conversation_line([NUG % (3, 4, 1, "0.25", "0.75"), NUG % (6, 6, 2, 1, 0)]),
        conversation_line([NUG % (3, 4, 1, "0.25", "0.75")], ', "meta": {"x": 1}'),
        conversation_line([NUG % (3, 4, 1, "0.25", "0.75")], ', "run": "again"'),
        conversation_line([NUG % ("99999999999999999999", 4, 1, "0.25", "0.75")]),
        conversation_line([NUG % (3, 4, 1, "1e400", "0.75")]),
        conversation_line([NUG % (3, 4, 1, "0.25" + "0" * 120, "0.75")]),
        conversation_line([NUG % (3, 4, 1, "NaN", "0.75")]),
        conversation_line([NUG % (3, 4, "1.0", "0.25", "0.75")]),
        conversation_line([NUG.replace('"end"', '"start"') % (3, 4, 1, "0.25", "0.75")]),
    ],
)
def test_conversations_read_the_same_both_ways(tmp_path, line):
    path = tmp_path / "c.jsonl"
    path.write_text(line + "\n" + line.replace('"t"', '"u"', 1) + "\n")

    def read():
        b = read_conversations(path, SETS)
        return (
            b.topics,
            b.start.tolist(),
            b.end.tolist(),
            b.level.tolist(),
            b.turn.tolist(),
            np.asarray(b.memberships["A"]).tolist(),
        )

    fast = outcome(read, pure=False)
    assert fast == outcome(read, pure=True)
