"""Qrels, runs and group memberships, and the readers of their files (docs/formats.md).

qrels (NTCIR ``topic doc L<level>`` or TREC ``topic iter doc level``), gmemb
(``topic doc p1 .. pG``), golddistr (one probability per line) and TREC runs
(``topic Q0 doc rank score tag``), by the text rules of :mod:`fairconv.io._text`:
empty lines and lines starting with ``#`` are ignored, and every error names the file
and the line. (topic, doc) keys are joined by hashing (:func:`fairconv._accel.KeyTable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import cast

import numpy as np

from .._accel import KeyTable, first_occurrences, string_hashes
from .._validation import (
    LMAX_LIMIT,
    SUM_TOLERANCE,
    IndexLabel,
    at_line,
    first_bad_distribution,
    public,
)
from ._text import (
    NTCIR_LEVEL,
    RANK,
    TREC_LEVEL,
    FileFormatError,
    Rows,
    decoded,
    floats,
    integers,
    one_sample,
    refuse_reserved_topic,
    sample_codes,
    split_rows,
    topic_codes,
)

__all__ = [
    "Qrels",
    "GroupMemberships",
    "Run",
    "read_qrels",
    "read_gmemb",
    "read_golddistr",
    "read_run",
]


def _line(lines, index, i: int) -> int | IndexLabel:
    """Line i + 1 or ``lines[i]``; of a DataFrame's row, its ``index`` label."""
    line = i + 1 if lines is None else int(lines[i])
    return line if index is None else IndexLabel(index[line - 1])


def _check_unique(rows: Rows, topic_ids, docs, names, what):
    """A (topic, doc) key listed twice is an error naming its second line."""
    first = first_occurrences(topic_ids, docs)
    repeated = np.flatnonzero(first != np.arange(len(first)))
    if len(repeated):
        i = int(repeated[0])
        raise FileFormatError(
            rows.path,
            rows.line(i),
            f"doc {decoded(docs[i])!r} of topic "
            f"{names[topic_ids[i]]!r} {what} (first {at_line(rows.line(int(first[i])))})",
        )


@dataclass(frozen=True, eq=False)
class _Keyed:
    """Rows keyed by (topic, doc): ``topics[topic_ids[i]]`` and ``docs[i]`` of row i.

    ``docs`` is an array of byte strings (fixed width, or object for ragged ids).
    """

    source: str
    topics: tuple  # names, in order of first appearance
    topic_ids: np.ndarray = field(repr=False)
    docs: np.ndarray = field(repr=False)

    @property
    def doc_hashes(self) -> np.ndarray:
        """64-bit hash of every doc (:func:`fairconv._accel.string_hashes`).

        Computed on each access, so that the rows hold no more than the file gave.
        """
        return string_hashes(self.docs)


# --------------------------------------------------------------------------- qrels
@dataclass(frozen=True, eq=False)
class Qrels(_Keyed):
    r"""Relevance judgments: a level per judged (topic, doc); unjudged docs are level 0.

    Parameters
    ----------
    source : str
        Where the rows came from: a file's name, ``<stream>`` or ``(DataFrame)``.
    topics : tuple of str
        The topic names, in order of first appearance.
    topic_ids : ndarray of int, shape (N,)
        Each row's topic: ``topics[topic_ids[i]]``.
    docs : ndarray of bytes, shape (N,)
        Each row's doc id (fixed-width bytes, or object for ragged ids).
    levels : ndarray of int, shape (N,)
        Each judgment's relevance level (0: nonrelevant).
    lines : ndarray of int, shape (N,), optional
        Each row's file line; None when row i is line i + 1.
    index : array_like, optional
        A DataFrame's own index labels, which messages name (None for a file).

    Examples
    --------
    >>> import io
    >>> q = read_qrels(io.StringIO("T1 d1 L2\nT1 d2 L0\n"))
    >>> q.topics, q.levels.tolist()
    (('T1',), [2, 0])
    """

    levels: np.ndarray = field(repr=False)
    lines: np.ndarray | None = field(default=None, repr=False)  # None: line i + 1
    index: object = field(default=None, repr=False)  # a DataFrame's index labels

    @public
    def line(self, i: int, /) -> int | IndexLabel:
        r"""The file line of judgment i (of a DataFrame's row, its index label).

        Parameters
        ----------
        i : int
            The row, from 0.

        Returns
        -------
        int or IndexLabel
            The line number, from 1; for a DataFrame's row, its index label (a str
            that reads ``index 5``, as messages write it).

        Examples
        --------
        >>> import io
        >>> read_qrels(io.StringIO("# judged by two assessors\nT1 d1 L2\n")).line(0)
        2
        """
        return _line(self.lines, self.index, i)

    @public
    def check_gains(self, n_levels: int, /) -> None:
        r"""Every level must have a gain: a higher one is an error naming its line.

        Parameters
        ----------
        n_levels : int
            The levels the gain table covers: 1 to ``n_levels``.

        Raises
        ------
        FileFormatError
            For the first judgment above ``n_levels``, naming its line.

        Examples
        --------
        >>> import io
        >>> q = read_qrels(io.StringIO("T1 d1 L3\n"))
        >>> q.check_gains(2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        fairconv.io._text.FileFormatError: <stream>:1: level L3 but the gain table covers ...
        """
        above = np.flatnonzero(self.levels > n_levels)
        if len(above):
            i = int(above[0])
            raise FileFormatError(
                self.source,
                self.line(i),
                f"level L{int(self.levels[i])} but the gain table covers levels 1..{n_levels}; "
                "give a gain for every level (e.g. gains=(1, 3, 7), --gains 1:3:7)",
            )

    @property
    def max_level(self) -> int:
        """The highest level in the file (0 when empty)."""
        return int(self.levels.max()) if len(self.levels) else 0

    @cached_property
    def key_table(self) -> KeyTable:
        """The judgments' (topic, doc) keys, for lookups (topics by their id here).

        Built once, on first use: the command line builds it on its reading threads.
        """
        return KeyTable(self.topic_ids, self.docs, self.doc_hashes)

    @cached_property
    def n_relevant(self) -> dict:
        """Judged relevant docs per topic."""
        rel = np.bincount(self.topic_ids, weights=self.levels > 0, minlength=len(self.topics))
        return dict(zip(self.topics, rel.astype(int).tolist(), strict=False))

    @cached_property
    def n_nonrelevant(self) -> dict:
        """Judged nonrelevant docs (level 0) per topic."""
        non = np.bincount(self.topic_ids, weights=self.levels == 0, minlength=len(self.topics))
        return dict(zip(self.topics, non.astype(int).tolist(), strict=False))


@public
def read_qrels(path, /) -> Qrels:
    """Read NTCIR (``topic doc L<level>``) or TREC (``topic iter doc level``) qrels.

    Negative TREC levels (junk pages) count as nonrelevant, as in trec_eval. A
    (topic, doc) judged twice is an error.

    Parameters
    ----------
    path : str, os.PathLike or text file
        The qrels file.

    Returns
    -------
    Qrels
        One row per judgment, in file order.

    Raises
    ------
    FileFormatError
        For a malformed line or a (topic, doc) judged twice, naming the line.

    See Also
    --------
    as_qrels : qrels from a DataFrame, a dict or records.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_qrels
    >>> qrels = read_qrels(path("fairweb1-pilot", "fairweb1pilot.qrels"))
    >>> qrels.topics, qrels.max_level
    (('P001', 'P002', 'P003', 'P004'), 2)
    """
    rows = split_rows(path, None, "qrels")
    width = rows.width
    if width == 3:
        doc_col = 1
        levels = integers(
            rows,
            2,
            NTCIR_LEVEL,
            f"an NTCIR qrels level must look like L0, L1, L2... (at most L{LMAX_LIMIT})",
        )
    elif width == 4:
        doc_col = 2
        levels = integers(
            rows,
            3,
            TREC_LEVEL,
            f"a TREC qrels level must be an integer (at most {LMAX_LIMIT})",
            maximum=LMAX_LIMIT,
        )
        levels = np.maximum(levels, 0)  # negative levels are nonrelevant, as in trec_eval
    else:
        raise FileFormatError(
            rows.path,
            rows.line(0),
            "expected NTCIR qrels "
            "(topic doc L<level>) or TREC qrels (topic iter doc level); "
            f"found {width} columns",
        )
    names, ids = topic_codes(rows.strings(0))
    refuse_reserved_topic(rows, names, ids)
    docs = rows.strings(doc_col)
    rows.release()
    _check_unique(rows, ids, docs, names, "is judged twice")
    return Qrels(rows.path, names, ids, docs, levels, rows.line_numbers)


# --------------------------------------------------------------------------- gmemb
@dataclass(frozen=True, eq=False)
class GroupMemberships(_Keyed):
    r"""Group membership vectors of judged docs for one attribute set (a gmemb file).

    Its topics are the topics the attribute set covers.

    Parameters
    ----------
    source : str
        Where the rows came from: a file's name, ``<stream>`` or ``(DataFrame)``.
    topics : tuple of str
        The topic names, in order of first appearance.
    topic_ids : ndarray of int, shape (N,)
        Each row's topic: ``topics[topic_ids[i]]``.
    docs : ndarray of bytes, shape (N,)
        Each row's doc id (fixed-width bytes, or object for ragged ids).
    matrix : ndarray of float, shape (N, G)
        Each judged doc's membership vector over the G groups.
    lines : ndarray of int, shape (N,), optional
        Each row's file line; None when row i is line i + 1.
    index : array_like, optional
        A DataFrame's own index labels, which messages name (None for a file).

    Examples
    --------
    >>> import io
    >>> g = read_gmemb(io.StringIO("T1 d1 1 0\nT1 d2 0.5 0.5\n"))
    >>> g.topics, g.matrix.tolist()
    (('T1',), [[1.0, 0.0], [0.5, 0.5]])
    """

    matrix: np.ndarray = field(repr=False)
    lines: np.ndarray | None = field(default=None, repr=False)  # None: line i + 1
    index: object = field(default=None, repr=False)  # a DataFrame's own index labels

    @public
    def line(self, i: int, /) -> int | IndexLabel:
        r"""The file line (a DataFrame's row, with its index label) of row i.

        Parameters
        ----------
        i : int
            The row, from 0.

        Returns
        -------
        int or IndexLabel
            The line number, from 1; for a DataFrame's row, its index label (a str
            that reads ``index 5``, as messages write it).

        Examples
        --------
        >>> import io
        >>> read_gmemb(io.StringIO("# two groups\nT1 d1 1 0\n")).line(0)
        2
        """
        return _line(self.lines, self.index, i)

    @property
    def n_groups(self) -> int:
        """The number of groups G of every vector."""
        return int(self.matrix.shape[1])


@public
def read_gmemb(path, /, *, n_groups: int | None = None) -> GroupMemberships:
    """Read a gmemb file: a topic, a doc and G probabilities summing to 1 per line.

    Parameters
    ----------
    path : str, os.PathLike or text file
        The gmemb file.
    n_groups : int, optional
        Expected G (e.g. the target's length); a row with another count is an error.

    Returns
    -------
    GroupMemberships
        One row per line, in file order.

    Raises
    ------
    FileFormatError
        For a malformed line, a vector not summing to 1 or a (topic, doc) given twice,
        naming the line.

    See Also
    --------
    as_memberships : memberships from a DataFrame, a dict or records.
    load_attribute : a gmemb file with its target.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_gmemb
    >>> memberships = read_gmemb(path("fairweb1-pilot", "fairweb1pilot.M-ORIGIN.gmemb"))
    >>> memberships.topics, memberships.n_groups
    (('P002',), 8)
    """
    rows = split_rows(path, None, "gmemb", min_cols=4)
    width = rows.width
    if n_groups is not None and width != n_groups + 2:
        raise FileFormatError(
            rows.path,
            rows.line(0),
            f"expected {n_groups} group probabilities "
            f"(the target has {n_groups} groups), found {width - 2}",
        )
    matrix = floats(rows, list(range(2, width)), "gmemb", "group probability")
    names, ids = topic_codes(rows.strings(0))
    refuse_reserved_topic(rows, names, ids)
    docs = rows.strings(1)
    rows.release()
    i = first_bad_distribution(matrix)
    if i >= 0:
        row = matrix[i]
        in_range = bool(((row >= 0) & (row <= 1 + SUM_TOLERANCE)).all())
        found = f"{row.tolist()} with sum {row.sum():.10g}" if in_range else row.tolist()
        raise FileFormatError(
            rows.path,
            rows.line(i),
            "group probabilities must be finite, in [0, 1] and sum to 1 (within "
            f"{SUM_TOLERANCE:g}); found {found}",
        )
    _check_unique(rows, ids, docs, names, "is listed twice")
    return GroupMemberships(rows.path, names, ids, docs, matrix, rows.line_numbers)


@public
def read_golddistr(path, /) -> np.ndarray:
    """Read a target distribution: one probability per line.

    Parameters
    ----------
    path : str, os.PathLike or text file
        A golddistr file (docs/formats.md): the probability of each group, in the
        groups' order, one per line.

    Returns
    -------
    ndarray, shape (G,)
        The probabilities as read; :class:`fairconv.AttributeSet` checks that they
        form a distribution.

    Raises
    ------
    FileFormatError
        For fewer than two lines, or a line that is not one decimal number (the file
        and line named).

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_golddistr
    >>> target = read_golddistr(path("fairweb1-pilot", "M-ORIGIN.golddistr"))
    >>> len(target), round(float(target.sum()), 6)
    (8, 1.0)
    """
    rows = split_rows(path, 1, "golddistr")
    if len(rows) < 2:
        raise FileFormatError(
            rows.path,
            None,
            "a golddistr file needs one probability per "
            f"group and at least 2 groups; found {len(rows)} lines",
        )
    return floats(rows, [0], "golddistr", "probability")[:, 0]


# --------------------------------------------------------------------------- runs
@dataclass(frozen=True, eq=False)
class Run(_Keyed):
    r"""A TREC run: its name, and its lines' topics, docs and scores, in file order.

    ``name`` is the run's name: the tag (6th column) of a TREC run file unless
    :func:`read_run` or :func:`as_run` is given one.

    ``order`` is how it is ranked unless the evaluation says otherwise: ``'file'`` (a
    file's line order, the organisers' rule) or ``'score'`` (an in-memory run, ranked
    as trec_eval ranks it).

    Every line has a sample id, a string kept as topics are: ``samples[sample_ids[i]]``
    is line i's. It is column 2 of a TREC run line (usually ``Q0``; TREC Fair's
    ``seq_no``), or an in-memory run's ``sample`` column; a run without one has every
    line in the sample ``Q0``. Several samples of a topic are several rankings of it
    (expected exposure, TREC Fair Task 2). ``sample_ids`` is read-only: where every line
    has one sample, it is a view of a single 0.

    Parameters
    ----------
    source : str
        Where the rows came from: a file's name, ``<stream>`` or ``(DataFrame)``.
    topics : tuple of str
        The topic names, in order of first appearance.
    topic_ids : ndarray of int, shape (N,)
        Each row's topic: ``topics[topic_ids[i]]``.
    docs : ndarray of bytes, shape (N,)
        Each row's doc id (fixed-width bytes, or object for ragged ids).
    name : str
        The run's name.
    scores : ndarray of float, shape (N,)
        Each line's score.
    lines : ndarray of int, shape (N,), optional
        Each row's file line; None when row i is line i + 1.
    index : array_like, optional
        A DataFrame's own index labels, which messages name (None for a file).
    order : {'file', 'score'}, default 'file'
        How the run is ranked unless the evaluation says otherwise.
    samples : tuple of str, default ('Q0',)
        The sample names, in order of first appearance.
    sample_ids : ndarray of int, shape (N,), optional
        Each line's sample: ``samples[sample_ids[i]]``; None for every line in the
        first sample.

    Examples
    --------
    >>> import io
    >>> run = read_run(io.StringIO("T1 Q0 d1 1 2.5 bm25\nT1 Q0 d2 2 1.5 bm25\n"))
    >>> run.name, run.topics, run.scores.tolist(), run.order
    ('bm25', ('T1',), [2.5, 1.5], 'file')
    >>> run.samples, run.sample_ids.tolist()
    (('Q0',), [0, 0])
    """

    name: str
    scores: np.ndarray = field(repr=False)
    lines: np.ndarray | None = field(repr=False)  # None: line i + 1
    index: object = field(default=None, repr=False)  # a DataFrame's index labels
    order: str = "file"
    samples: tuple = ("Q0",)  # names, in order of first appearance
    # the code of each line's sample; None (when built): every line in samples[0]
    sample_ids: np.ndarray = field(default=cast(np.ndarray, None), repr=False)

    def __post_init__(self):
        if self.sample_ids is None:
            ids = np.broadcast_to(np.int64(0), (len(self.docs),))
            object.__setattr__(self, "sample_ids", ids)

    def __len__(self):
        return len(self.docs)

    @public
    def line(self, i: int, /) -> int | IndexLabel:
        r"""The file line of record i (of a DataFrame's row, its index label).

        Parameters
        ----------
        i : int
            The row, from 0.

        Returns
        -------
        int or IndexLabel
            The line number, from 1; for a DataFrame's row, its index label (a str
            that reads ``index 5``, as messages write it).

        Examples
        --------
        >>> import io
        >>> read_run(io.StringIO("\nT1 Q0 d1 1 2.5 bm25\n")).line(0)
        2
        """
        return _line(self.lines, self.index, i)


@public
def read_run(path, /, *, name: str | None = None) -> Run:
    """Read a TREC run ``topic Q0 doc rank score tag``.

    The run's name (:attr:`Run.name`) is ``name`` when given, else the tag (6th
    column) of the first line. Column 2 is each line's sample id
    (:attr:`Run.samples`, :attr:`Run.sample_ids`). Rank order is decided when the run
    is evaluated (file order by default, or trec_eval's score order).

    Parameters
    ----------
    path : str, os.PathLike or text file
        The run file.
    name : str, optional
        The run's name; None for the tag of the first line.

    Returns
    -------
    Run
        Its lines in file order.

    Raises
    ------
    FileFormatError
        For a malformed line, naming it.

    See Also
    --------
    as_run : a run from a DataFrame, a dict or records.
    as_runs : several runs at once.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_run
    >>> run = read_run(path("fairweb1-pilot", "runs", "run.bm25-depThre6"))
    >>> run.topics, len(run.docs)
    (('P001', 'P002', 'P003', 'P004'), 400)
    """
    rows = split_rows(path, 6, "run")
    integers(rows, 3, RANK, "a rank (4th column) must be an integer >= 0")
    values = floats(rows, [4], "run", "score (5th column)")[:, 0]
    names, ids = topic_codes(rows.strings(0))
    refuse_reserved_topic(rows, names, ids)
    docs = rows.strings(2)
    same = rows.same_token(1)  # usually Q0 on every line
    samples, sample_ids = (
        sample_codes(rows.strings(1)) if same is None else one_sample(same, len(rows))
    )
    return Run(
        rows.path,
        names,
        ids,
        docs,
        name or decoded(rows.token(0, 5)),
        values,
        rows.line_numbers,
        samples=samples,
        sample_ids=sample_ids,
    )
