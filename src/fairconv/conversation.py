"""Conversations with annotated nuggets, shared by ``gfrc``, ``gfrc2`` and ``ragfair``.

A conversation is ``U1 S1 ... UT ST``. Its words are the white-space separated tokens
of the whole text, user turns included; a token beginning with ``U:`` or ``S:`` starts
a turn and is itself a word (``U: Please`` is two words, ``S:Yoshua`` one). A nugget is
a 1-based inclusive word span inside one system turn, with a relevance level (0 =
nonrelevant), an optional entity key (to spot repeats) and one membership vector per
attribute set.

:class:`Conversation` and :class:`Nugget` are records for people; a
:class:`ConversationBatch` holds many conversations as flat arrays (nuggets sorted by
position, with offsets per conversation) for the vectorised measures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ._validation import SUM_TOLERANCE
from .divergences import AttributeSet

__all__ = [
    "Nugget",
    "Turn",
    "Conversation",
    "ConversationBatch",
    "turns_of",
    "find_span",
    "word_at",
    "read_conversations",
    "write_conversations",
    "read_attribute_sets",
]

_TURN_MARK = re.compile(r"^[US]:", re.M)


# --------------------------------------------------------------------------- text helpers
@dataclass(frozen=True)
class Turn:
    """A turn: role ``"U"`` or ``"S"`` and its 1-based inclusive word span."""

    role: str
    start: int
    end: int


def turns_of(text: str) -> tuple[Turn, ...]:
    """Turns of a conversation text, from the tokens that begin with ``U:`` or ``S:``.

    Raises ValueError if the text does not begin with ``U:``.

    >>> [(t.role, t.start, t.end) for t in turns_of("U:Hi there S:Hello! U: More S:Sure")]
    [('U', 1, 2), ('S', 3, 3), ('U', 4, 5), ('S', 6, 6)]
    """
    joined = "\n".join(text.split())  # one word per line: C-level, no word loop
    if not joined.startswith("U:"):
        raise ValueError(
            "a conversation text must begin with 'U:' (the first user turn); "
            f"it begins with {joined[:20]!r}"
        )
    n_words = joined.count("\n") + 1
    marks = [m.start() for m in _TURN_MARK.finditer(joined)]
    firsts, word, prev = [], 1, 0
    for pos in marks:  # a few turn marks, not every word
        word += joined.count("\n", prev, pos)
        prev = pos
        firsts.append(word)
    ends = firsts[1:] + [n_words + 1]
    return tuple(Turn(joined[p], s, e - 1) for p, s, e in zip(marks, firsts, ends))


def find_span(text: str, phrase: str, *, occurrence: int = 1) -> tuple[int, int]:
    """Word span (start, end), 1-based inclusive, of the words containing ``phrase``.

    ``occurrence`` picks the n-th match. The span covers every word the phrase touches,
    so ``find_span("U:a S:Yoshua Bengio", "Bengio")`` is (3, 3).

    >>> find_span("U:Who? S:Here: Yoshua Bengio https://x.org/yb", "Yoshua Bengio")
    (3, 4)
    """
    at = -1
    for _ in range(occurrence):
        at = text.find(phrase, at + 1)
        if at < 0:
            raise ValueError(f"{phrase!r} occurs fewer than {occurrence} times in the text")
    return word_at(text, at), word_at(text, at + len(phrase) - 1)


def word_at(text: str, offset: int) -> int:
    """1-based position of the word covering character ``offset`` (0-based)."""
    if not 0 <= offset < len(text) or text[offset].isspace():
        raise ValueError(f"character offset {offset} is not inside a word of the text")
    return len(text[: offset + 1].split())


# --------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Nugget:
    """A span of words in a system turn.

    ``groups`` maps attribute-set names to membership vectors; it may be empty for a
    nonrelevant nugget (level 0). ``turn`` is the 1-based system turn, needed only when
    the conversation has neither text nor turns.
    """

    start: int
    end: int
    level: int = 0
    entity: str | None = None
    groups: Mapping[str, Sequence[float]] = field(default_factory=dict)
    turn: int | None = None


@dataclass(frozen=True)
class Conversation:
    """One conversation of one run for one topic, with its nuggets.

    Give ``text`` (turns and length follow from it), or ``turns`` and ``length``, or
    neither (then every nugget needs its system ``turn``).
    """

    topic: str
    run: str
    nuggets: tuple[Nugget, ...] = ()
    text: str | None = None
    turns: tuple[Turn, ...] | None = None
    length: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "nuggets", tuple(self.nuggets))
        if self.text is not None:
            turns = turns_of(self.text)
            object.__setattr__(self, "turns", turns)
            object.__setattr__(self, "length", turns[-1].end)
        elif self.turns is not None:
            object.__setattr__(
                self, "turns", tuple(Turn(*t) if not isinstance(t, Turn) else t for t in self.turns)
            )

    def to_json(self) -> dict:
        """The JSON Lines record of docs/formats.md."""
        out = {"topic": self.topic, "run": self.run}
        if self.text is not None:
            out["text"] = self.text
        elif self.turns is not None:
            out["turns"] = [{"role": t.role, "start": t.start, "end": t.end} for t in self.turns]
            if self.length is not None:
                out["length"] = self.length
        out["nuggets"] = []
        for n in self.nuggets:
            rec = {"start": n.start, "end": n.end, "level": n.level}
            if n.entity is not None:
                rec["entity"] = n.entity
            if n.groups:
                rec["groups"] = {k: [float(x) for x in v] for k, v in n.groups.items()}
            if n.turn is not None:
                rec["turn"] = n.turn
            out["nuggets"].append(rec)
        return out

    @classmethod
    def from_json(cls, record: dict) -> Conversation:
        turns = record.get("turns")
        return cls(
            topic=str(record["topic"]),
            run=str(record.get("run", "")),
            nuggets=tuple(
                Nugget(
                    start=n["start"],
                    end=n["end"],
                    level=n.get("level", 0) or 0,
                    entity=n.get("entity"),
                    groups=n.get("groups") or {},
                    turn=n.get("turn"),
                )
                for n in record.get("nuggets", ())
            ),
            text=record.get("text"),
            turns=None
            if turns is None
            else tuple(Turn(t["role"], t["start"], t["end"]) for t in turns),
            length=record.get("length"),
        )


# --------------------------------------------------------------------------- batch
@dataclass(frozen=True, eq=False)
class ConversationBatch:
    """Many conversations as flat nugget arrays, sorted by position in each.

    Nuggets of conversation c are ``offsets[c]:offsets[c+1]``. ``turn`` is the 1-based
    system turn of each nugget; ``system_turns[c]`` the number of system turns (-1 when
    the record gives no turn structure). ``groups[name]`` is (n_nuggets, G) with NaN rows
    where a nugget gives no vector. ``entity`` holds integer keys (-1: none).
    ``sources[c]`` names where conversation c came from (file:line) for messages.
    """

    topics: tuple
    runs: tuple
    offsets: np.ndarray
    start: np.ndarray
    end: np.ndarray
    level: np.ndarray
    turn: np.ndarray
    entity: np.ndarray
    groups: dict
    system_turns: np.ndarray
    lengths: np.ndarray
    sources: tuple
    attributes: tuple = ()

    def __len__(self) -> int:
        return len(self.topics)

    @property
    def n_nuggets(self) -> int:
        return int(self.offsets[-1])

    @property
    def conversation_of(self) -> np.ndarray:
        """Index of the conversation of every nugget."""
        return np.repeat(np.arange(len(self)), np.diff(self.offsets))

    @classmethod
    def from_conversations(
        cls,
        conversations: Sequence[Conversation],
        attributes: Sequence[AttributeSet],
        *,
        sources=None,
    ):
        """Build and check a batch from records; nuggets may be given in any order."""
        conversations = list(conversations)
        if sources is None:
            sources = [
                f"conversation {i + 1} (topic {c.topic!r}, run {c.run!r})"
                for i, c in enumerate(conversations)
            ]
        return cls.from_records([c.to_json() for c in conversations], attributes, sources=sources)

    @classmethod
    def from_records(
        cls, records: Sequence[dict], attributes: Sequence[AttributeSet], *, sources: Sequence[str]
    ):
        """Build and check a batch from JSON records (docs/formats.md)."""
        sources = tuple(sources)
        turns, lengths = [], []
        for rec, where in zip(records, sources):
            try:
                if rec.get("text") is not None:
                    t = turns_of(rec["text"])
                    turns.append(t)
                    lengths.append(t[-1].end)
                elif rec.get("turns") is not None:
                    turns.append(
                        tuple(
                            Turn(str(x["role"]), int(x["start"]), int(x["end"]))
                            for x in rec["turns"]
                        )
                    )
                    lengths.append(int(rec.get("length", turns[-1][-1].end)))
                else:
                    turns.append(None)
                    lengths.append(-1 if rec.get("length") is None else int(rec["length"]))
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                raise ValueError(f"{where}: {exc}") from None
        counts = np.array([len(r.get("nuggets", ())) for r in records], dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(counts)))
        flat = [n for r in records for n in r.get("nuggets", ())]
        start = _ints([n.get("start") for n in flat], "start", sources, offsets)
        end = _ints([n.get("end") for n in flat], "end", sources, offsets)
        level = _ints([n.get("level") or 0 for n in flat], "level", sources, offsets)
        turn = _ints([n.get("turn", -1) for n in flat], "turn", sources, offsets)
        keys = {}
        entity = np.fromiter(
            (
                -1 if n.get("entity") is None else keys.setdefault(n["entity"], len(keys))
                for n in flat
            ),
            np.int64,
            len(flat),
        )
        groups = {
            a.name: _memberships(
                [(n.get("groups") or {}).get(a.name) for n in flat], a, sources, offsets
            )
            for a in attributes
        }
        system_turns = np.array(
            [-1 if t is None else sum(x.role == "S" for x in t) for t in turns], dtype=np.int64
        )
        batch = cls(
            tuple(str(r["topic"]) for r in records),
            tuple(str(r.get("run", "")) for r in records),
            offsets,
            start,
            end,
            level,
            turn,
            entity,
            groups,
            system_turns,
            np.array(lengths, dtype=np.int64),
            sources,
            tuple(attributes),
        )
        return batch._sorted()._checked(turns)

    def _sorted(self) -> ConversationBatch:
        order = np.lexsort((self.start, self.conversation_of))
        if (order == np.arange(len(order))).all():
            return self
        return ConversationBatch(
            self.topics,
            self.runs,
            self.offsets,
            self.start[order],
            self.end[order],
            self.level[order],
            self.turn[order],
            self.entity[order],
            {k: v[order] for k, v in self.groups.items()},
            self.system_turns,
            self.lengths,
            self.sources,
            self.attributes,
        )

    def _checked(self, turns) -> ConversationBatch:
        """Check spans, levels and memberships; derive system turns from turn spans."""
        conv = self.conversation_of
        bad = self.start < 1
        _raise_first(bad, self, "its start word must be >= 1")
        _raise_first(self.end < self.start, self, "its start word is after its end word")
        too_long = (self.lengths[conv] >= 0) & (self.end > self.lengths[conv])
        _raise_first(too_long, self, "it ends after the last word of the conversation")
        same = conv[1:] == conv[:-1]
        overlap = np.zeros(len(conv), dtype=bool)
        overlap[1:] = same & (self.start[1:] <= self.end[:-1])
        _raise_first(overlap, self, "it overlaps the nugget before it")
        _raise_first(self.level < 0, self, "its level must be >= 0")
        turn = self.turn.copy()
        has_turns = np.array([t is not None for t in turns], dtype=bool)
        if has_turns.any():
            turn = _system_turns(self, turns, has_turns, conv, turn)
        lacking = (turn < 1) & ~has_turns[conv]
        _raise_first(lacking, self, "it needs a 'turn' (the record has no text or turns)")
        for a in self.attributes:
            m = self.groups[a.name]
            given = ~np.isnan(m).any(axis=1)
            partial = np.isnan(m).any(axis=1) & ~np.isnan(m).all(axis=1)
            _raise_first(partial, self, f"its {a.name} membership has missing entries")
            mg = np.where(given[:, None], m, 0.0)
            _raise_first(
                given & ((mg < 0).any(axis=1) | ~np.isfinite(mg).all(axis=1)),
                self,
                f"its {a.name} membership must be finite and non-negative",
            )
            _raise_first(
                given & (np.abs(mg.sum(axis=1) - 1) > SUM_TOLERANCE),
                self,
                f"its {a.name} membership must sum to 1 (within {SUM_TOLERANCE:g})",
            )
        return ConversationBatch(
            self.topics,
            self.runs,
            self.offsets,
            self.start,
            self.end,
            self.level,
            turn,
            self.entity,
            self.groups,
            self.system_turns,
            self.lengths,
            self.sources,
            self.attributes,
        )

    def table(self, scores: dict):
        """A ScoreTable of per-conversation score arrays (one conversation per run and
        topic; a run without a topic that another run has scores 0 there).
        """
        from .results import ScoreTable

        names = list(scores)
        return ScoreTable.from_items(
            self.runs,
            self.topics,
            names,
            np.column_stack([scores[n] for n in names]),
            sources=self.sources,
        )

    def effective_levels(self, lmax: int, *, dedupe: bool = True, func: str = "") -> np.ndarray:
        """Levels with later mentions of an already credited entity set to 0.

        A relevant nugget whose entity key appeared in an earlier relevant nugget of the
        same conversation earns nothing (Sakai, EVIA 2023, Section 5): its words count
        as nonrelevant. Levels above ``lmax`` are an error.
        """
        _raise_first(
            self.level > lmax,
            self,
            f"its level exceeds lmax = {lmax}"
            + (f" (the 'lmax' option of {func})" if func else ""),
        )
        level = self.level.copy()
        rel = np.flatnonzero((level > 0) & (self.entity >= 0))
        if dedupe and len(rel):
            key = self.conversation_of[rel] * (int(self.entity.max()) + 1) + self.entity[rel]
            _, first = np.unique(key, return_index=True)  # nuggets are in position order
            repeat = np.ones(len(rel), dtype=bool)
            repeat[first] = False
            level[rel[repeat]] = 0
        return level

    def check_relevant_groups(self, relevant: np.ndarray) -> None:
        """Every relevant nugget must give a membership vector for every attribute set."""
        for a in self.attributes:
            missing = relevant & np.isnan(self.groups[a.name][:, 0])
            _raise_first(
                missing,
                self,
                f"it is relevant but gives no {a.name} membership "
                f"(attribute sets: {', '.join(x.name for x in self.attributes)})",
            )


def _memberships(vectors, a: AttributeSet, sources, offsets) -> np.ndarray:
    """(n, G) array of the given vectors; NaN rows where a nugget gives none."""
    out = np.full((len(vectors), a.n_groups), np.nan)
    given = np.fromiter((v is not None for v in vectors), bool, len(vectors))
    rows = [v for v in vectors if v is not None]
    if not rows:
        return out
    try:
        values = np.array(rows, dtype=np.float64).reshape(len(rows), -1)
        ok = values.shape[1] == a.n_groups
    except (ValueError, TypeError):
        ok = False
    if not ok:
        for i, v in enumerate(vectors):
            if v is not None and (
                not isinstance(v, (list, tuple))
                or len(v) != a.n_groups
                or not all(isinstance(x, (int, float)) for x in v)
            ):
                raise _nugget_error(
                    sources,
                    offsets,
                    i,
                    f"its {a.name} membership must be "
                    f"{a.n_groups} numbers (the groups of {a.name}); got {v!r}",
                )
    out[given] = values
    return out


def _ints(values, name, sources, offsets):
    try:
        arr = np.array(values, dtype=np.float64)
        ok = np.isfinite(arr) & (arr == np.round(arr))
    except (TypeError, ValueError):
        ok = np.array(
            [isinstance(v, (int, float)) and not isinstance(v, bool) for v in values], dtype=bool
        )
        arr = None
    if len(values) and not ok.all():
        raise _nugget_error(
            sources,
            offsets,
            int(np.argmin(ok)),
            f"its '{name}' must be an integer; got {values[int(np.argmin(ok))]!r}",
        )
    return np.zeros(0, np.int64) if arr is None else arr.astype(np.int64)


def _nugget_error(sources, offsets, i, message) -> ValueError:
    c = int(np.searchsorted(offsets, i, side="right") - 1)
    return ValueError(f"{sources[c]}: nugget {i - offsets[c] + 1}: {message}")


def _raise_first(bad: np.ndarray, batch: ConversationBatch, message: str) -> None:
    if bad.any():
        i = int(np.argmax(bad))
        c = int(batch.conversation_of[i])
        raise ValueError(
            f"{batch.sources[c]}: the nugget at words {batch.start[i]}-"
            f"{batch.end[i]} (nugget {i - batch.offsets[c] + 1}): {message}"
        )


def _system_turns(batch, turns, has_turns, conv, turn):
    """Turn index of each nugget of the conversations that give turn spans."""
    t_conv, t_start, t_end, t_role, t_sys = [], [], [], [], []
    for c, ts in enumerate(turns):  # one iteration per turn, not per word
        if ts is None:
            continue
        s = 0
        for t in ts:
            s += t.role == "S"
            t_conv.append(c)
            t_start.append(t.start)
            t_end.append(t.end)
            t_role.append(t.role == "S")
            t_sys.append(s)
    t_conv, t_start, t_end = map(np.array, (t_conv, t_start, t_end))
    t_role, t_sys = np.array(t_role, dtype=bool), np.array(t_sys)
    # the turn of a nugget: the last turn of its conversation starting at or before it
    key_turn = t_conv * (1 << 40) + t_start
    key_nug = conv * (1 << 40) + batch.start
    pos = np.searchsorted(key_turn, key_nug, side="right") - 1
    use = has_turns[conv]
    idx = np.flatnonzero(use)
    p = pos[idx]
    inside = (p >= 0) & (t_conv[np.maximum(p, 0)] == conv[idx])
    bad = np.zeros(len(conv), dtype=bool)
    bad[idx[~inside]] = True
    _raise_first(bad, batch, "it lies outside every turn")
    bad[idx] = batch.end[idx] > t_end[p]
    _raise_first(bad, batch, "it crosses the end of its turn")
    bad[idx] = ~t_role[p]
    _raise_first(bad, batch, "it lies in a user turn; nuggets belong to system turns")
    given = turn[idx] >= 1
    bad[:] = False
    bad[idx[given]] = turn[idx[given]] != t_sys[p[given]]
    _raise_first(bad, batch, "its 'turn' disagrees with the turn its words are in")
    turn = turn.copy()
    turn[idx] = t_sys[p]
    return turn


# --------------------------------------------------------------------------- files
def read_attribute_sets(path) -> list[AttributeSet]:
    """Read the attribute-set JSON of docs/formats.md (target as a list or golddistr path)."""
    from pathlib import Path

    from .readers import read_golddistr

    path = Path(path)
    try:
        spec = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    if not isinstance(spec, dict) or not spec:
        raise ValueError(
            f"{path}: expected an object mapping attribute-set names to "
            '{"target": [...], "scale": "nominal" | "ordinal"}'
        )
    out = []
    for name, entry in spec.items():
        if not isinstance(entry, dict) or "target" not in entry or "scale" not in entry:
            raise ValueError(f"{path}: attribute set {name!r} needs a 'target' and a 'scale'")
        target = entry["target"]
        if isinstance(target, str):
            target = read_golddistr(path.parent / target)
        try:
            out.append(AttributeSet(name, target, entry["scale"], entry.get("divergence")))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}: attribute set {name!r}: {exc}") from None
    return out


def read_conversations(paths, attributes: Sequence[AttributeSet]) -> ConversationBatch:
    """Read annotated conversations (JSON Lines, docs/formats.md) into a checked batch.

    ``paths`` is one file or a list of files. A record without ``run`` takes its
    file's name. Errors name the file and line: invalid JSON, missing fields, bad spans
    (outside the conversation, in a user turn, overlapping, start after end),
    memberships of the wrong length or not summing to 1, text not beginning with ``U:``.
    """
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    records, sources = [], []
    for path in paths:
        recs, lines = _json_lines(path)
        run = _base(path)
        for rec, line in zip(recs, lines):
            where = f"{path}:{line}"
            if (
                not isinstance(rec, dict)
                or "topic" not in rec
                or not isinstance(rec.get("nuggets", []), list)
                or not all(isinstance(n, dict) for n in rec.get("nuggets", []))
            ):
                raise ValueError(
                    f"{where}: a conversation record needs a 'topic' and a list "
                    "of 'nuggets' (objects with 'start' and 'end')"
                )
            records.append(rec if "run" in rec else dict(rec, run=run))
            sources.append(where)
    return ConversationBatch.from_records(records, attributes, sources=sources)


def _base(path) -> str:
    import os

    return os.path.basename(str(path))


def _json_lines(path):
    """Parse a JSON Lines file in one C call when it is valid; else name the bad line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    raw = text.split("\n")
    numbered = [(i + 1, s) for i, s in enumerate(raw) if s.strip()]
    try:
        records = json.loads("[" + ",".join(s for _, s in numbered) + "]")
        if len(records) == len(numbered):
            return records, [n for n, _ in numbered]
    except json.JSONDecodeError:
        pass
    for n, s in numbered:
        try:
            json.loads(s)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: invalid JSON: {exc.msg} (column {exc.colno})") from None
    raise ValueError(f"{path}: expected one JSON object per line")


def write_conversations(conversations: Sequence[Conversation], path) -> None:
    """Write conversations as JSON Lines."""
    with open(path, "w", encoding="utf-8") as f:
        for c in conversations:
            f.write(json.dumps(c.to_json(), ensure_ascii=False) + "\n")
