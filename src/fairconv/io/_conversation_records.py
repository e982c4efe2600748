"""Conversations with annotated nuggets: the records and the rules of their JSON records.

A conversation is ``U1 S1 ... UT ST``. Its words are the white-space separated tokens
of the whole text, user turns included; a token beginning with ``U:`` or ``S:`` starts
a turn and is itself a word (``U: Please`` is two words, ``S:Yoshua`` one). A nugget is
a 1-based inclusive word span inside one system turn, with a relevance level (0 =
nonrelevant), an optional entity key (to spot repeats) and one membership vector per
attribute set.

:class:`Conversation` and :class:`Nugget` are records for people; a
:class:`ConversationBatch` holds many conversations as flat arrays (nuggets sorted by
position, with offsets per conversation) for the vectorised measures
(:mod:`fairconv.gfrc`, :mod:`fairconv.gfrc2`). :func:`batch_from_records` checks the
JSON records of docs/formats.md and builds a batch of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, count, repeat
from operator import is_not

import numpy as np

from .. import _core
from .._validation import (
    LMAX_LIMIT,
    caller,
    check_int,
    check_sequence_of,
    fail,
    fail_type,
    file_error,
    first_bad_id,
    id_fault,
    kind_of,
    public,
    renamed,
    unknown_field,
)
from ..divergences import AttributeSet
from ..results import ScoreTable, notice_missing_topics
from ._json import (
    json_groups,
    json_ints,
    json_item_error,
    json_repr,
    json_str,
    one_way_of_naming_runs,
)
from ._text import RESERVED_TOPIC, RESERVED_TOPIC_RULE

__all__ = [
    "batch_from_records",
    "batch_from_conversations",
    "Nugget",
    "Turn",
    "Conversation",
    "ConversationBatch",
    "turns_of",
    "find_span",
    "word_at",
]

# The characters str.split() splits on (str.isspace), beyond ASCII; a test checks the
# list against every code point.
_WIDE_SPACES = (
    "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
_SPACE_BYTES = bytes(int(chr(b).isspace()) for b in range(128)) + bytes(128)  # ASCII ones
_WIDE_KEYS = {
    n: np.array(
        sorted(int.from_bytes(c.encode(), "big") for c in _WIDE_SPACES if len(c.encode()) == n)
    )
    for n in (2, 3)
}  # each wide space's UTF-8 bytes as one big-endian integer, by length
_TEXT_STEP = 1 << 25  # bytes of text analysed at once


# --------------------------------------------------------------------------- text helpers
@dataclass(frozen=True)
class Turn:
    """A turn: role ``"U"`` or ``"S"`` and its 1-based inclusive word span.

    Parameters
    ----------
    role : {'U', 'S'}
        User or system.
    start, end : int
        The turn's first and last word, 1-based, inclusive.

    Examples
    --------
    >>> turns_of("U:Who is it S:Yoshua Bengio")
    (Turn(role='U', start=1, end=3), Turn(role='S', start=4, end=5))
    """

    role: str
    start: int
    end: int


@public
def turns_of(text: str, /) -> tuple[Turn, ...]:
    """Turns of a conversation text, from the tokens that begin with ``U:`` or ``S:``.

    Parameters
    ----------
    text : str
        The conversation: words separated by whitespace; a word that begins with
        ``U:`` (user) or ``S:`` (system) begins a turn, and counts as a word of it.

    Returns
    -------
    tuple of Turn
        Each turn's role (``"U"`` or ``"S"``) and its first and last word, 1-based.

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        If the text does not begin with ``U:``.

    Examples
    --------
    >>> [(t.role, t.start, t.end) for t in turns_of("U:Hi there S:Hello! U: More S:Sure")]
    [('U', 1, 2), ('S', 3, 3), ('U', 4, 5), ('S', 6, 6)]
    """
    _check_text(text, "text")
    n_words, ok, _, start, system = _text_turns([text])
    if not ok[0]:
        raise ValueError(_opening_error(text))
    ends = np.append(start[1:] - 1, n_words[0])
    return tuple(
        Turn("S" if s else "U", int(a), int(b))
        for s, a, b in zip(system.tolist(), start.tolist(), ends.tolist(), strict=True)
    )


def _opening_error(text: str) -> str:
    return (
        "a conversation text must begin with 'U:' (the first user turn); "
        f"it begins with {chr(10).join(text.split())[:20]!r}"
    )


def _text_turns(texts: Sequence[str]):
    """Word counts and turn starts of many texts at once, by the rule of :func:`turns_of`.

    The words of a text are what ``str.split()`` gives; a word beginning with ``U:`` or
    ``S:`` opens a turn. The texts are read as UTF-8 bytes, a step of about 32 MB at a
    time, with no Python loop per word.

    Returns
    -------
    n_words : (K,) int64
        Words in each text.
    ok : (K,) bool
        Whether the text's first word opens a user turn (``U:``).
    text, start, system : (M,) arrays
        For every turn-opening word of every text, in text order: the text (int64), its
        1-based word position (int64) and whether it opens a system turn (bool).
    """
    n_words, ok, parts = [], [], []
    k = 0
    while k < len(texts):
        pieces: list[bytes] = []
        size = 0
        while k + len(pieces) < len(texts) and (not pieces or size < _TEXT_STEP):
            pieces.append(texts[k + len(pieces)].encode("utf-8", "surrogatepass"))
            size += len(pieces[-1]) + 1
        counts, first_ok, (t, w, s) = _turns_in(pieces)
        n_words.append(counts)
        ok.append(first_ok)
        parts.append((t + k, w, s))
        k += len(pieces)
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0, dtype=bool), empty, empty, np.zeros(0, dtype=bool)
    t, w, s = (np.concatenate(x) for x in zip(*parts, strict=True))
    return np.concatenate(n_words), np.concatenate(ok), t, w, s


def _turns_in(pieces: list[bytes]):
    """:func:`_text_turns` for one step of encoded texts."""
    data = b"\n" + b"\n".join(pieces) + b"\n\n"
    buf = np.frombuffer(data, dtype=np.uint8)
    begins = np.cumsum([1] + [len(p) + 1 for p in pieces])[:-1]  # byte of each text
    space = np.frombuffer(data.translate(_SPACE_BYTES), dtype=bool)
    if not data.isascii():
        space = space.copy()
        _mark_wide_spaces(buf, space)
    # the byte before each word: a space followed by a non-space (True > False)
    before = np.flatnonzero(space[:-1] > space[1:])
    first = np.searchsorted(before, begins - 1)  # index of each text's first word
    n_words = np.diff(np.append(first, len(before)))
    colon = np.flatnonzero(buf == 58)
    colon = colon[colon >= 2]
    mark = colon - 1  # "U:" or "S:" beginning a word
    mark = mark[((buf[mark] == 85) | (buf[mark] == 83)) & space[mark - 1]]
    text = np.searchsorted(begins, mark, side="right") - 1
    word = np.searchsorted(before, mark - 1) - first[text] + 1
    head = np.append(before, -1)[first] + 1  # the first byte of each text's first word
    ok = (n_words > 0) & (buf[head] == 85) & (buf[head + 1] == 58)
    return n_words, ok, (text, word, buf[mark] == 83)


def _mark_wide_spaces(buf: np.ndarray, space: np.ndarray) -> None:
    """Set ``space`` on every byte of the non-ASCII white-space characters in ``buf``."""
    lead = np.flatnonzero((buf == 0xC2) | ((buf >= 0xE1) & (buf <= 0xE3)))
    lead = lead[lead + 2 < len(buf)]
    key2 = (buf[lead].astype(np.int64) << 8) | buf[lead + 1]
    key3 = (key2 << 8) | buf[lead + 2]
    for n, key in ((2, key2), (3, key3)):
        at = lead[np.isin(key, _WIDE_KEYS[n])]
        for j in range(n):
            space[at + j] = True


@public
def find_span(text: str, phrase: str, /, *, occurrence: int = 1) -> tuple[int, int]:
    """Word span (start, end), 1-based inclusive, of the words containing ``phrase``.

    Parameters
    ----------
    text : str
        The conversation's text.
    phrase : str
        The characters to find (with at least one word).
    occurrence : int, optional
        Which match, from 1 (the first).

    Returns
    -------
    (int, int)
        The first and last word the phrase touches, as nugget spans count them: so
        ``find_span("U:a S:Yoshua Bengio", "Bengio")`` is (3, 3).

    Raises
    ------
    TypeError
        If ``text`` or ``phrase`` is not a string.
    ValueError
        If the phrase has no word, ``occurrence`` is not a positive integer, or the
        phrase occurs fewer times.

    Examples
    --------
    >>> find_span("U:Who? S:Here: Yoshua Bengio https://x.org/yb", "Yoshua Bengio")
    (3, 4)
    """
    _check_text(text, "text")
    _check_text(phrase, "phrase")
    if not phrase.strip():
        raise fail("phrase", "contain a word", repr(phrase))
    check_int(occurrence, "occurrence", minimum=1)
    at = -1
    for _ in range(occurrence):
        at = text.find(phrase, at + 1)
        if at < 0:
            raise ValueError(f"{phrase!r} occurs fewer than {occurrence} times in the text")
    return word_at(text, at), word_at(text, at + len(phrase) - 1)


@public
def word_at(text: str, offset: int, /) -> int:
    """1-based position of the word covering character ``offset`` (0-based).

    Parameters
    ----------
    text : str
        The conversation's text; words are separated by whitespace.
    offset : int
        A character position, >= 0.

    Returns
    -------
    int
        The word's position, as nugget spans count words (the first word is 1).

    Raises
    ------
    TypeError
        If ``text`` is not a string or ``offset`` not an integer.
    ValueError
        If ``offset`` is negative, past the text or on whitespace.

    Examples
    --------
    >>> word_at("one two three", 4)
    2
    """
    _check_text(text, "text")
    check_int(offset, "offset", minimum=0)
    if not 0 <= offset < len(text) or text[offset].isspace():
        raise ValueError(f"character offset {offset} is not inside a word of the text")
    return len(text[: offset + 1].split())


def _check_text(value, name: str) -> None:
    if not isinstance(value, str):
        raise fail_type(name, "be a string", kind_of(value))


# --------------------------------------------------------------------------- records
@renamed(groups="memberships")
@dataclass(frozen=True)
class Nugget:
    """A span of words in a system turn.

    ``memberships`` maps attribute-set names to membership vectors (the ``groups`` of
    a JSON record); it may be empty for a nonrelevant nugget (level 0). ``turn`` is
    the 1-based system turn, needed only when the conversation has neither text nor
    turns.

    Parameters
    ----------
    start, end : int
        The nugget's first and last word in the conversation, 1-based, inclusive.
    level : int, default 0
        Its relevance level (0: nonrelevant).
    entity : str, optional
        The entity it mentions; a later relevant mention of the same entity in the
        conversation earns nothing when duplicates are removed.
    memberships : mapping of str to sequence of float, optional
        The membership vector of each attribute set, by the set's name (a record's
        ``groups``; the keyword ``groups=`` is deprecated).
    turn : int, optional
        The 1-based system turn that holds it.

    Examples
    --------
    >>> n = Nugget(4, 5, level=2, entity="yb", memberships={"PRONOUN": [1, 0, 0]})
    >>> n.start, n.end, n.level, n.turn
    (4, 5, 2, None)
    """

    start: int
    end: int
    level: int = 0
    entity: str | None = None
    memberships: Mapping[str, Sequence[float]] = field(default_factory=dict)
    turn: int | None = None


@dataclass(frozen=True)
class Conversation:
    """One conversation of one run for one topic, with its nuggets.

    Give ``text`` (turns and length follow from it), or ``turns`` and ``length``, or
    neither (then every nugget needs its system ``turn``).

    Parameters
    ----------
    topic, run : str
        The topic and the run.
    nuggets : sequence of Nugget, optional
        Its nuggets, in any order.
    text : str, optional
        The conversation's text, turns marked by ``U:`` and ``S:`` (:func:`turns_of`).
    turns : sequence of Turn, optional
        The turns, when there is no text.
    length : int, optional
        The number of words, with ``turns``.

    Examples
    --------
    >>> c = Conversation("T1", "my-run", (Nugget(4, 5, 2),), text="U:Who is it S:Yoshua Bengio")
    >>> [(t.role, t.start, t.end) for t in c.turns], c.length
    ([('U', 1, 3), ('S', 4, 5)], 5)
    """

    topic: str
    run: str
    nuggets: tuple[Nugget, ...] = ()
    text: str | None = None
    turns: tuple[Turn, ...] | None = None
    length: int | None = None

    @public
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

    @public
    def to_json(self) -> dict:
        """The JSON Lines record of docs/formats.md.

        Returns
        -------
        dict
            ``topic``, ``run``, then ``text`` (or ``turns`` and ``length``) and ``nuggets``,
            each nugget's fields that are set.

        Examples
        --------
        >>> c = Conversation("T1", "my-run", (Nugget(4, 5, 2),), text="U:Who is it S:Yoshua Bengio")
        >>> c.to_json()["nuggets"]
        [{'start': 4, 'end': 5, 'level': 2}]
        """
        out: dict[str, object] = {"topic": self.topic, "run": self.run}
        if self.text is not None:
            out["text"] = self.text
        elif self.turns is not None:
            out["turns"] = [{"role": t.role, "start": t.start, "end": t.end} for t in self.turns]
            if self.length is not None:
                out["length"] = self.length
        nuggets: list[dict[str, object]] = []
        out["nuggets"] = nuggets
        for n in self.nuggets:
            rec: dict[str, object] = {"start": n.start, "end": n.end, "level": n.level}
            if n.entity is not None:
                rec["entity"] = n.entity
            if n.memberships:
                rec["groups"] = {k: [float(x) for x in v] for k, v in n.memberships.items()}
            if n.turn is not None:
                rec["turn"] = n.turn
            nuggets.append(rec)
        return out

    @classmethod
    @public
    def from_json(cls, record: dict, /) -> Conversation:
        """A conversation from its JSON record (no checks: see :func:`batch_from_records`).

        Parameters
        ----------
        record : dict
            A record of a conversations file (docs/formats.md).

        Returns
        -------
        Conversation
            The record's conversation, unchecked.

        Examples
        --------
        >>> record = {"topic": "T1", "run": "my-run", "text": "U:Hi S:Hello", "nuggets": []}
        >>> Conversation.from_json(record).to_json() == record
        True
        """
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
                    memberships=n.get("groups") or {},
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
@renamed(groups="memberships", attributes="attribute_sets")
@dataclass(frozen=True, eq=False)
class ConversationBatch:
    """Many conversations as flat nugget arrays with offsets, sorted by position.

    Built and checked by :func:`batch_from_records` (or
    :func:`fairconv.io.read_conversations`);
    the measures read its arrays and never change them.

    Parameters
    ----------
    topics, runs : tuple of str
        The topic and the run of each conversation.
    offsets : ndarray of int, shape (conversations + 1,)
        Nuggets of conversation c are ``offsets[c]:offsets[c+1]``.
    start, end, level, turn, entity : ndarray of int, shape (nuggets,)
        1-based inclusive word span, level, 1-based system turn and entity key (-1:
        none) of each nugget.
    memberships : dict of str to ndarray (nuggets, G)
        Membership vectors per attribute set; NaN rows where a nugget gives none.
    system_turns, lengths : ndarray of int, shape (conversations,)
        Number of system turns and of words (-1 when the record does not say).
    sources : tuple of str
        Per conversation, where it came from (``file:line``).
    attribute_sets : tuple of AttributeSet
        The attribute sets of ``memberships``, in order.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> batch = load_case("r112").conversations
    >>> batch.runs, batch.offsets.tolist(), batch.start[:3].tolist()
    (('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1'), [0, 6, 11], [32, 34, 37])
    """

    topics: tuple
    runs: tuple
    offsets: np.ndarray
    start: np.ndarray
    end: np.ndarray
    level: np.ndarray
    turn: np.ndarray
    entity: np.ndarray
    memberships: dict
    system_turns: np.ndarray
    lengths: np.ndarray
    sources: tuple
    attribute_sets: tuple = ()

    def __len__(self) -> int:
        return len(self.topics)

    @property
    def n_nuggets(self) -> int:
        """The number of nuggets of all conversations."""
        return int(self.offsets[-1])

    @property
    def conversation_of(self) -> np.ndarray:
        """Index of the conversation of every nugget."""
        return np.repeat(np.arange(len(self)), np.diff(self.offsets))

    @public
    def table(self, scores, /) -> ScoreTable:
        """A ScoreTable of per-conversation scores: one cell per run and topic.

        Parameters
        ----------
        scores : mapping or sequence of (str, array_like of shape (conversations,))
            Each measure's name and its value for every conversation, in output order.

        Returns
        -------
        ScoreTable
            Runs in order of first appearance, topics sorted. A run without a
            conversation for a topic that another run has scores 0 there, with a notice
            (:class:`~fairconv.FairconvWarning`) naming the run and the topics; the
            counts are the table's ``notices`` (``topics_scored``, ``topics_missing``).

        Raises
        ------
        ValueError
            For two conversations of one run for one topic, naming both.

        Examples
        --------
        >>> import numpy as np
        >>> from fairconv.datasets import load_case
        >>> batch = load_case("r112").conversations
        >>> batch.table({"X": np.array([0.25, 0.5])}).value("ORG-CS-D-MN-1", "R112", "X")
        0.5
        """
        pairs = list(scores.items()) if isinstance(scores, Mapping) else list(scores)
        names = [str(name) for name, _ in pairs]
        values = np.zeros((len(self), len(pairs)))
        for k, (_, v) in enumerate(pairs):
            values[:, k] = v
        base = ScoreTable.from_items(self.runs, self.topics, names, values, sources=self.sources)
        t_index = {t: i for i, t in enumerate(base.topics)}
        r_index = {r: i for i, r in enumerate(base.runs)}
        given = np.zeros((len(base.topics), len(base.runs)), dtype=bool)
        given[
            np.fromiter(map(t_index.__getitem__, self.topics), np.int64, len(self)),
            np.fromiter(map(r_index.__getitem__, self.runs), np.int64, len(self)),
        ] = True
        missing = notice_missing_topics(
            base.topics, base.runs, ~given, item="conversation", action="they score 0 there"
        )
        return ScoreTable(
            topics=base.topics,
            runs=base.runs,
            measures=base.measures,
            values=base.values,
            present=base.present,
            notices={"topics_scored": len(base.topics), "topics_missing": missing},
        )

    @public
    def effective_levels(self, lmax: int, /, *, dedupe: bool = True) -> np.ndarray:
        """Levels with later mentions of an already credited entity set to 0.

        A relevant nugget whose entity key appeared in an earlier relevant nugget of the
        same conversation earns nothing (Sakai, EVIA 2023, Section 5): its words count
        as nonrelevant. Levels above ``lmax`` are an error.

        Parameters
        ----------
        lmax : int
            The highest level allowed.
        dedupe : bool, default True
            Zero the later relevant mentions of an entity; False returns a copy of ``level``.

        Returns
        -------
        ndarray of int, shape (nuggets,)
            Each nugget's level, with the later mentions of a credited entity at 0.

        Raises
        ------
        ValueError
            For a level above ``lmax``, naming the conversation and the nugget.

        Examples
        --------
        >>> a = AttributeSet("A", [0.5, 0.5], "nominal")
        >>> nuggets = (Nugget(2, 3, 2, "yb", {"A": [1, 0]}), Nugget(4, 5, 2, "yb", {"A": [1, 0]}))
        >>> c = Conversation("T1", "my-run", nuggets, text="U:Who S:Yoshua Bengio: Yoshua Bengio")
        >>> batch_from_conversations([c], [a]).effective_levels(2).tolist()  # "yb" counts once
        [2, 0]
        """
        _raise_first(
            self.level > lmax,
            self,
            f"its level exceeds lmax = {lmax}" + f" (the 'lmax' option of {caller()})",
        )
        if not dedupe:
            return self.level.copy()
        return _core.dedupe_levels(self.conversation_of, self.entity, self.level)

    @public
    def check_relevant_groups(self, relevant: np.ndarray, /) -> None:
        """Every relevant nugget must give a membership vector for every attribute set.

        Parameters
        ----------
        relevant : ndarray of bool, shape (nuggets,)
            Which nuggets are relevant.

        Raises
        ------
        ValueError
            For the first relevant nugget without a vector, naming its conversation.

        Examples
        --------
        >>> import numpy as np
        >>> a = AttributeSet("A", [0.5, 0.5], "nominal")
        >>> c = Conversation("T1", "my-run", (Nugget(4, 5, 0),), text="U:Who is it S:Yoshua Bengio")
        >>> batch = batch_from_conversations([c], [a])
        >>> batch.check_relevant_groups(np.array([True]))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: conversation 1 ...: nugget 1 (words 4-5): it is relevant but gives no A ...
        """
        for a in self.attribute_sets:
            missing = relevant & np.isnan(self.memberships[a.name][:, 0])
            _raise_first(
                missing,
                self,
                f"it is relevant but gives no {a.name} membership "
                f"(attribute sets: {', '.join(x.name for x in self.attribute_sets)})",
            )


@public
def batch_from_conversations(
    conversations: Sequence[Conversation], attribute_sets: Sequence[AttributeSet], /
) -> ConversationBatch:
    """Build and check a batch from :class:`Conversation` records (any nugget order).

    Parameters
    ----------
    conversations : sequence of Conversation
        The conversations, in any order.
    attribute_sets : sequence of AttributeSet
        The sets whose memberships the nuggets give under ``memberships``.

    Returns
    -------
    ConversationBatch
        The conversations' nuggets as arrays, sorted by position.

    Raises
    ------
    TypeError
        If an item is not a Conversation.
    ValueError
        For the errors of :func:`batch_from_records`, naming the conversation.

    See Also
    --------
    batch_from_records : a batch from JSON records.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.io import iter_jsonl
    >>> case = load_case("r112")
    >>> records = [r for _, r in iter_jsonl(case.conversations_path)]
    >>> conversations = [Conversation.from_json(r) for r in records]
    >>> batch_from_conversations(conversations, case.attribute_sets).runs
    ('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1')
    """
    conversations = check_sequence_of(conversations, Conversation, "conversations")
    sources = [
        f"conversation {i + 1} (topic {c.topic!r}, run {c.run!r})"
        for i, c in enumerate(conversations)
    ]
    return batch_from_records([c.to_json() for c in conversations], attribute_sets, sources=sources)


def _turn_structure(rec: dict, where: str, words):
    """(turns, length) of one record: from its text, its turns, or neither.

    ``words`` is ``(n_words, ok)`` of the record's text from :func:`_text_turns`. The
    turns are ``"text"`` (they come from the text), a list of ``(start, end, system)``
    spans, or None.
    """
    text = rec.get("text")
    if text is not None:
        if type(text) is not str:
            raise file_error(where, f'"text" must be a string, got {json_repr(text)}')
        length, ok = words
        if not ok:
            raise file_error(where, f"{_opening_error(text)}")
        stated = rec.get("length")
        if stated is not None and stated != length:
            raise file_error(
                where, f'"length" is {json_repr(stated)} but the text has {length} words'
            )
        return "text", length
    raw = rec.get("turns")
    given = rec.get("length")
    if given is not None and (type(given) is not int or not 1 <= given <= 1 << 53):
        raise file_error(where, f'"length" must be a positive integer, got {json_repr(given)}')
    if raw is None:
        return None, -1 if given is None else given
    if not isinstance(raw, list) or not raw or not all(isinstance(t, dict) for t in raw):
        raise file_error(where, '"turns" must be a non-empty array of objects')
    spans: list[tuple[int, int, bool]] = []
    expected = 1
    for k, t in enumerate(raw, start=1):
        if not t.keys() <= _TURN_FIELDS:
            raise file_error(where, f"turn {k}: {unknown_field([t], _TURN_FIELDS, 'a turn')[1]}")
        role = t.get("role")
        if role not in ("U", "S"):
            raise file_error(where, f'turn {k}: "role" must be "U" or "S", got {json_repr(role)}')
        span = []
        for key in ("start", "end"):
            v = t.get(key)
            if type(v) is not int or not 1 <= v <= 1 << 53:
                raise file_error(
                    where, f'turn {k}: "{key}" must be a positive integer, got {json_repr(v)}'
                )
            span.append(v)
        if span[0] != expected or span[1] < span[0]:
            raise file_error(
                where,
                f"turn {k}: turns must be contiguous and not overlap: it spans "
                f"words {span[0]}-{span[1]}, expected to start at word {expected}",
            )
        expected = span[1] + 1
        spans.append((span[0], span[1], role == "S"))
    if given is None:
        given = expected - 1
    elif given != expected - 1:
        raise file_error(where, f'"length" is {given} but the turns end at word {expected - 1}')
    return spans, given


_RECORD_FIELDS = frozenset({"topic", "run", "text", "turns", "length", "nuggets"})
"""The fields of a conversation record (docs/formats.md); any other is an error."""
_NUGGET_FIELDS = frozenset({"start", "end", "level", "entity", "groups", "turn"})
"""The fields of a nugget in a conversation record."""
_TURN_FIELDS = frozenset({"role", "start", "end"})


@public
def batch_from_records(
    records: Sequence[dict], attribute_sets: Sequence[AttributeSet], /, *, sources: Sequence[str]
) -> ConversationBatch:
    """Build and check a batch from JSON records (the format of docs/formats.md).

    Parameters
    ----------
    records : sequence of dict
        Decoded conversation records: ``topic``, ``run``, ``nuggets`` and ``text``, or
        ``turns`` and ``length``, or neither (then each nugget gives its ``turn``).
    attribute_sets : sequence of AttributeSet
        The sets whose memberships the nuggets give under ``groups``.
    sources : sequence of str
        Where each record comes from (``file:line``), for messages.

    Returns
    -------
    ConversationBatch
        Nuggets sorted by position in each conversation.

    Raises
    ------
    ValueError
        Naming the record, the nugget and the field: a field of the wrong JSON type
        (integers are JSON integers; a missing or null level is 0), spans outside the
        conversation, in a user turn, across turns or overlapping, memberships of the
        wrong length or not summing to 1, turns that are not contiguous, a length
        that disagrees with the text or the turns.

    See Also
    --------
    batch_from_conversations : a batch from Conversation records.
    read_conversations : a batch from a file.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.io import iter_jsonl
    >>> case = load_case("r112")
    >>> lines = iter_jsonl(case.conversations_path)
    >>> batch = batch_from_records(
    ...     [r for _, r in lines], case.attribute_sets, sources=[f"r112:{n}" for n, _ in lines]
    ... )
    >>> batch.runs, batch.offsets.tolist()
    (('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1'), [0, 6, 11])
    """
    sets = check_sequence_of(attribute_sets, AttributeSet, "attribute_sets")
    records = list(records)
    sources = tuple(sources)
    if len(sources) != len(records):
        raise fail("sources", f"name each of the {len(records)} records", f"{len(sources)}")
    blocks = Blocks(sets)
    blocks.add(records, sources)
    return blocks.batch()


class Blocks:
    """A :class:`ConversationBatch` built a block of records at a time (the readers' way).

    Each block is checked by the rules of :func:`batch_from_records` and turned into
    arrays, so that a reader drops its records before it decodes the next block: few
    decoded objects are alive at once. :meth:`batch` joins the blocks; entity keys are
    coded in order of first appearance over all of them. What is kept between blocks
    is arrays: no Python object per nugget or entity key stays alive.
    """

    def __init__(self, sets: Sequence[AttributeSet]) -> None:
        self.sets = tuple(sets)
        self.parts: list[ConversationBatch] = []
        self.keys: list[np.ndarray] = []  # per block, its entity keys in order of appearance
        self.key_first: list[np.ndarray] = []  # the position of each one's first nugget
        self.n_keys = 0  # entity keys of the blocks added so far (one block's may repeat)
        self.nuggets = 0  # nuggets of the blocks added so far
        self.first: tuple[bool, str] | None = None  # whether the first record gives a run

    def add(self, records: list, sources: Sequence[str]) -> None:
        """Check a block of records and keep its arrays; the first bad record names itself."""
        self.parts.append(_block(records, tuple(sources), self))

    def batch(self) -> ConversationBatch:
        """The blocks added, as one batch."""
        parts = self.parts or [_block([], (), self)]
        first = parts[0]
        if len(parts) == 1:
            return first  # its entity indices are its codes already
        shift = np.cumsum([0] + [p.n_nuggets for p in parts])
        nuggets = {f: np.concatenate([getattr(p, f) for p in parts]) for f in _NUGGET_ARRAYS}
        # entity codes in order of first appearance over all blocks: the keys a block
        # shares with an earlier block take that block's code
        keys, inverse = np.unique(np.concatenate(self.keys), return_inverse=True)
        first_at = np.full(len(keys), np.iinfo(np.int64).max)
        np.minimum.at(first_at, inverse.reshape(-1), np.concatenate(self.key_first))
        rank = np.empty(len(keys), dtype=np.int64)
        rank[np.argsort(first_at, kind="stable")] = np.arange(len(keys))
        code_of = np.append(rank[inverse.reshape(-1)], -1)  # the index -1 reads -1
        nuggets["entity"] = code_of[nuggets["entity"]]
        return ConversationBatch(
            topics=tuple(chain.from_iterable(p.topics for p in parts)),
            runs=tuple(chain.from_iterable(p.runs for p in parts)),
            offsets=np.concatenate(
                [p.offsets[:-1] + s for p, s in zip(parts, shift, strict=False)] + [shift[-1:]]
            ),
            memberships={
                a.name: np.concatenate([p.memberships[a.name] for p in parts]) for a in self.sets
            },
            system_turns=np.concatenate([p.system_turns for p in parts]),
            lengths=np.concatenate([p.lengths for p in parts]),
            sources=tuple(chain.from_iterable(p.sources for p in parts)),
            attribute_sets=self.sets,
            **nuggets,
        )


_NUGGET_ARRAYS = ("start", "end", "level", "turn", "entity")
"""The per-nugget arrays of a batch, in the order of its fields."""


def _block(records: list, sources: tuple, blocks: Blocks) -> ConversationBatch:
    """One block's batch, its ``entity`` indices of :func:`_entity_indices` (-1: none)."""
    sets = blocks.sets
    with_text = [
        c for c, r in enumerate(records) if isinstance(r, dict) and type(r.get("text")) is str
    ]
    n_words, text_ok, *text_turn = _text_turns([records[c]["text"] for c in with_text])
    words = dict(zip(with_text, zip(n_words.tolist(), text_ok.tolist(), strict=True), strict=True))
    spans: dict[int, list] = {}
    lengths, topics, runs, nuggets = [], [], [], []
    for c, (rec, where) in enumerate(zip(records, sources, strict=True)):
        if not isinstance(rec, dict):
            raise file_error(where, "a conversation record must be a JSON object")
        if not rec.keys() <= _RECORD_FIELDS:
            raise file_error(where, f"{unknown_field([rec], _RECORD_FIELDS, 'a record')[1]}")
        topics.append(json_str(rec.get("topic"), "topic", where))
        run = rec.get("run")
        if blocks.first is None:
            blocks.first = (run is not None, where)
        if run is None and not blocks.first[0]:
            raise file_error(where, 'the record has no "run": a conversation record names its run')
        one_way_of_naming_runs(run is not None, blocks.first[0], where, blocks.first[1], "run")
        runs.append(json_str(run, "run", where))
        items = rec.get("nuggets", [])
        if not isinstance(items, list) or not all(map(isinstance, items, repeat(dict))):
            raise file_error(where, '"nuggets" must be an array of objects')
        nuggets.append(items)
        t, n = _turn_structure(rec, where, words.get(c))
        if type(t) is list:
            spans[c] = t
        lengths.append(n)
    if RESERVED_TOPIC in topics:
        raise file_error(sources[topics.index(RESERVED_TOPIC)], f'"topic": {RESERVED_TOPIC_RULE}')
    counts = np.fromiter(map(len, nuggets), np.int64, len(nuggets))
    offsets = np.concatenate(([0], np.cumsum(counts)))
    flat = list(chain.from_iterable(nuggets))
    extra = unknown_field(flat, _NUGGET_FIELDS, "a nugget")
    if extra is not None:
        raise json_item_error(sources, offsets, extra[0], "nugget", extra[1])

    def values(field):
        return [n.get(field) for n in flat]

    def ints(field, default=None):
        return json_ints(values(field), field, sources, offsets, default=default)

    start, end, level = ints("start"), ints("end"), ints("level", 0)
    given_turns = values("turn")
    turn = json_ints(given_turns, "turn", sources, offsets, default=-1)
    bad_turn = (turn < 1) & np.fromiter(map(is_not, given_turns, repeat(None)), bool, len(flat))
    if bad_turn.any():
        i = int(np.argmax(bad_turn))
        raise json_item_error(
            sources, offsets, i, "nugget", f'"turn" must be >= 1, got {int(turn[i])}'
        )
    entity = _entity_indices(values("entity"), sources, offsets, blocks)
    groups = json_groups(flat, sets, sources, offsets)
    table = _turn_table(with_text, n_words, text_turn, spans)
    has_turns = np.zeros(len(records), dtype=bool)
    has_turns[with_text] = True
    has_turns[list(spans)] = True
    system_turns = np.bincount(table[0][table[3]], minlength=len(records))
    system_turns[~has_turns] = -1
    batch = ConversationBatch(
        tuple(topics),
        tuple(runs),
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
        tuple(sets),
    )
    return _checked(_sorted(batch), table, has_turns)


def _turn_table(with_text, n_words, text_turn, spans):
    """(conversation, start, end, system) of every turn, sorted by conversation and start.

    ``with_text``, ``n_words`` and ``text_turn`` are the records with a text and what
    :func:`_text_turns` found in them; ``spans`` maps records to their given turns.
    """
    text, start, system = text_turn
    end = np.empty_like(start)
    end[:-1] = start[1:] - 1
    last = np.ones(len(start), dtype=bool)
    last[:-1] = text[1:] != text[:-1]
    end[last] = n_words[text[last]]
    given = [(c, a, b, s) for c, ts in spans.items() for a, b, s in ts]  # one per turn
    conv = np.concatenate((np.asarray(with_text, dtype=np.int64)[text], [g[0] for g in given]))
    conv = conv.astype(np.int64)
    start = np.concatenate((start, [g[1] for g in given])).astype(np.int64)
    end = np.concatenate((end, [g[2] for g in given])).astype(np.int64)
    system = np.concatenate((system, [g[3] for g in given])).astype(bool)
    order = np.lexsort((start, conv))
    return conv[order], start[order], end[order], system[order]


def _entity_indices(entities: list, sources, offsets, blocks: Blocks) -> np.ndarray:
    """The index of each nugget's entity key among the keys of every block; -1 for none.

    Within a block, the keys are numbered in order of first appearance (its codes), and
    the block's keys and their first positions are kept as arrays for
    :meth:`Blocks.batch`. A key is an identifier, as :func:`fairconv.io._json.json_str`
    checks one: a non-empty string without whitespace or control characters.
    """
    if not set(map(type, entities)) <= {str, type(None)}:
        i = next(i for i, e in enumerate(entities) if e is not None and type(e) is not str)
        message = f'"entity" must be a string, got {json_repr(entities[i])}'
        raise json_item_error(sources, offsets, i, "nugget", message)
    # each entity's first position: one dict call per nugget, in C (map over setdefault)
    seen: dict = {}
    first = np.fromiter(map(seen.setdefault, entities, count()), np.int64, len(entities))
    none_at = seen.pop(None, -1)
    keys = list(seen)
    bad_key = first_bad_id(keys)  # one pass over all the keys
    if bad_key >= 0:
        i = entities.index(keys[bad_key])
        rule = id_fault(keys[bad_key])
        message = f'"entity" must {rule}, got {json_repr(keys[bad_key])}'
        raise json_item_error(sources, offsets, i, "nugget", message)
    # codes in order of first appearance: the rank of each first position
    keyed = first != none_at
    codes = np.full(len(entities), -1, dtype=np.int64)
    codes[keyed] = np.unique(first[keyed], return_inverse=True)[1].reshape(-1) + blocks.n_keys
    blocks.keys.append(np.array(keys, dtype=str))
    blocks.key_first.append(np.fromiter(seen.values(), np.int64, len(keys)) + blocks.nuggets)
    blocks.n_keys += len(keys)
    blocks.nuggets += len(entities)
    return codes


def _sorted(batch: ConversationBatch) -> ConversationBatch:
    order = np.lexsort((batch.start, batch.conversation_of))
    if (order == np.arange(len(order))).all():
        return batch
    return replace(
        batch,
        start=batch.start[order],
        end=batch.end[order],
        level=batch.level[order],
        turn=batch.turn[order],
        entity=batch.entity[order],
        memberships={k: v[order] for k, v in batch.memberships.items()},
    )


def _checked(batch: ConversationBatch, table, has_turns) -> ConversationBatch:
    """Check spans and levels; derive the system turn of each nugget from turn spans."""
    conv = batch.conversation_of
    _raise_first(batch.start < 1, batch, "its start word must be >= 1")
    _raise_first(batch.end < batch.start, batch, "its start word is after its end word")
    too_long = (batch.lengths[conv] >= 0) & (batch.end > batch.lengths[conv])
    _raise_first(too_long, batch, "it ends after the last word of the conversation")
    same = conv[1:] == conv[:-1]
    overlap = np.zeros(len(conv), dtype=bool)
    overlap[1:] = same & (batch.start[1:] <= batch.end[:-1])
    _raise_first(overlap, batch, "it overlaps the nugget before it")
    _raise_first(batch.level < 0, batch, "its level must be >= 0")
    _raise_first(batch.level > LMAX_LIMIT, batch, f"its level must be at most {LMAX_LIMIT}")
    turn = batch.turn
    if has_turns.any():
        turn = _system_turns(batch, table, has_turns, conv, turn)
    lacking = (turn < 1) & ~has_turns[conv]
    _raise_first(lacking, batch, "it needs a 'turn' (the record has no text or turns)")
    return replace(batch, turn=turn)


def _raise_first(bad: np.ndarray, batch: ConversationBatch, message: str) -> None:
    if bad.any():
        i = int(np.argmax(bad))
        c = int(batch.conversation_of[i])
        raise file_error(
            batch.sources[c],
            f"nugget {i - batch.offsets[c] + 1} (words {batch.start[i]}-{batch.end[i]}): {message}",
        )


def _system_turns(batch, table, has_turns, conv, turn):
    """Turn index of each nugget of the conversations that give turn spans."""
    t_conv, t_start, t_end, t_role = table
    so_far = np.cumsum(t_role)  # system turns so far, over all conversations
    opens = np.ones(len(t_conv), dtype=bool)
    opens[1:] = t_conv[1:] != t_conv[:-1]
    # minus those of earlier conversations: the system turn number of each turn
    t_sys = so_far - np.maximum.accumulate(np.where(opens, so_far - t_role, 0))
    # the turn of a nugget: the last turn of its conversation starting at or before it,
    # found by one search over keys conversation * (U + 1) + rank, where rank counts the
    # U distinct turn starts at or before a word. Word positions may be as large as
    # 2**53, ranks are at most U <= len(t_start): the key stays below
    # n_conversations * (U + 1), checked here with Python's integers.
    starts = np.unique(t_start)
    width = len(starts) + 1
    if len(batch.lengths) * width > np.iinfo(np.int64).max:
        raise ValueError(
            f"{len(batch.lengths)} conversations with {len(starts)} distinct turn starts are "
            "too many to index at once; read them in smaller batches"
        )
    key_turn = t_conv * width + np.searchsorted(starts, t_start, side="right")
    key_nug = conv * width + np.searchsorted(starts, batch.start, side="right")
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
