"""The ranked-list front end: runs joined with qrels and memberships, and one route.

:func:`prepare` reads nothing itself: it joins runs (:class:`~fairconv.io.Run`) with
qrels and the membership files of the attribute sets
(:class:`~fairconv.io.AttributeData`) into :class:`RankedLists`, arrays over (topics,
runs, ranks) that the ranked-list families score.

Every ranked-list family (:mod:`fairconv.gfr`, :mod:`fairconv.ragfair`,
:mod:`fairconv.rankfair`) evaluates through one route, ``evaluate_lists``: convert the
inputs, check each option once, join, give the notices, score blocks of topics, build
the table. A family brings its measures (``Column``) and its kernel (a
``RankedFamily``), nothing else. The join either gives each ranked doc the membership of
its judgment (GF's rule) or, with ``lookup='ranked'`` (rankfair), looks every ranked doc
up in each set's memberships (the unlisted rule), makes each (topic, sample) of a run a
ranking of its own and keeps the populations beside the lists (:class:`RankingDetail`).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ._accel import KeyTable, argsort, first_occurrences, key_hashes, resolve_n_jobs, thread_map
from ._validation import (
    LEVEL_DTYPE,
    at_line,
    check_choice,
    check_cutoffs,
    check_instance,
    check_names,
    check_once,
    check_sequence_of,
    check_unique_names,
    fail,
    notice,
    public,
)
from .divergences import AttributeSet
from .io._attributes import AttributeData, load_attribute  # noqa: F401 (their home until 0.2)
from .io._frames import RUN_COLUMNS, as_inputs
from .io._tables import Qrels, Run
from .io._text import FileFormatError
from .results import (
    MeasureName,
    ScoreTable,
    cutoffs_of,
    few,
    notice_missing_topics,
    unknown_measure,
)

__all__ = ["RankedLists", "prepare", "run_names"]


def _topic_map(table, t_index: dict) -> np.ndarray:
    """The evaluation's id of each topic of a qrels, gmemb or run (-1 where absent)."""
    return np.array([t_index.get(t, -1) for t in table.topics], dtype=np.int64)


def _global_topic_ids(table, t_index: dict) -> np.ndarray:
    """Topic id of each row of a qrels, gmemb or run in the evaluation's topic list."""
    ids = _topic_map(table, t_index)
    return ids[table.topic_ids] if len(ids) else np.full(len(table.docs), -1, np.int64)


def _pieces(table, n: int) -> list[tuple[int, int]]:
    """Row ranges (lo, hi) splitting a table into about ``n`` (the threads) pieces.

    A piece ends where a topic's rows end, so that each topic's run of rows stays whole.
    """
    k = len(table.docs)
    if k == 0:
        return [(0, 0)]
    ids = table.topic_ids
    cuts = [0]
    for target in (k * j // n for j in range(1, n)):
        if target <= cuts[-1]:
            continue
        change = ids[target:] != ids[target - 1]
        cut = target + int(change.argmax()) if change.any() else k
        if cut < k:
            cuts.append(cut)
    cuts.append(k)
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def _by_score(run: Run, keep: np.ndarray, tid: np.ndarray) -> np.ndarray:
    """The rows ``keep`` of a run by topic, score descending, ties by doc id descending.

    Only the docs of tied (topic, score) stretches are compared as strings.
    """
    idx = keep[np.lexsort((-run.scores[keep], tid[keep]))]
    t, score = tid[idx], run.scores[idx]
    tie = (t[1:] == t[:-1]) & (score[1:] == score[:-1])
    if tie.any():
        member = np.zeros(len(idx), dtype=bool)
        member[1:] |= tie
        member[:-1] |= tie
        at = np.flatnonzero(member)
        stretch = np.cumsum(np.concatenate(([True], ~tie)))[at]
        _, doc_rank = np.unique(run.docs[idx[at]], return_inverse=True)
        idx[at] = idx[at][np.lexsort((-doc_rank.ravel(), stretch))]
    return idx


def notice_rising(run: Run, j: int) -> None:
    """The notice of a run ranked in its file's order whose score rises at line ``j``.

    The ranked-list families rank a file's lines in file order (the organisers' rule),
    whatever their scores say; a score that rises within a ranking suggests the file
    meant trec_eval's order.
    """
    notice(
        f"{run.source}: line {run.line(j)} of topic "
        f"{run.topics[run.topic_ids[j]]!r} scores higher than the line before it, "
        "but lines are ranked in file order (the organisers' rule); pass "
        "order='score' (--order score) to rank by score as trec_eval does"
    )


def _rankings_of(run: Run, tid: np.ndarray, keep: np.ndarray, by_sample: bool) -> np.ndarray:
    """The ranking of every line: its topic id, or with ``by_sample`` its (topic, sample).

    A ranking's code orders a topic's samples by their first line, so that sorting by
    code sorts by topic, then sample in order of appearance.
    """
    if not by_sample or len(run.samples) == 1:
        return tid
    pair = tid[keep] * len(run.samples) + run.sample_ids[keep]
    _, first, inverse = np.unique(pair, return_index=True, return_inverse=True)
    order = np.lexsort((first, tid[keep][first]))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    code = np.full(len(tid), -1, dtype=np.int64)
    code[keep] = rank[inverse.ravel()]
    return code


def _check_contiguous(run: Run, by_sample: bool) -> None:
    """The lines of one ranking form one block: else an error at the line they resume."""
    code = run.topic_ids
    if by_sample and len(run.samples) > 1:
        code = code * len(run.samples) + run.sample_ids
    if len(code) < 2:
        return
    heads = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1])))
    _, first = np.unique(code[heads], return_index=True)
    if len(first) == len(heads):
        return
    again = np.ones(len(heads), dtype=bool)
    again[first] = False
    j = int(heads[np.argmax(again)])
    topic = run.topics[run.topic_ids[j]]
    what = f"topic {topic!r}"
    if by_sample and len(run.samples) > 1:
        what += f", sample {run.samples[run.sample_ids[j]]!r}"
    earlier = int(np.argmax(code == code[j]))
    raise FileFormatError(
        run.source,
        run.line(j),
        f"the lines of {what} resume here after other lines (it began on line "
        f"{run.line(earlier)}): the lines of one ranking must form one block",
    )


def _rank_lines(
    run: Run,
    t_index: dict,
    key_ids: np.ndarray,
    tables: Sequence[KeyTable],
    order: str | None,
    duplicates: str,
    by_sample: bool = False,
):
    """A run's kept lines in rank order as arrays.

    ``key_ids`` gives the id each topic's keys are hashed with (that of the
    ``tables``, the qrels' first). With ``by_sample``, each (topic, sample) is a ranking
    of its own (ordered, checked for duplicates and contiguous), a topic's samples in
    order of their first line; else a topic's lines are one ranking.

    Returns a :class:`_Ranked`: the topic id, the row in each table (-1 when absent),
    the place within its topic (0-based, over the topic's samples in order) and the
    sample (0-based, within its topic) of every kept line, the number of lines and of
    samples of every topic, and the first line of each line's (topic, doc) among the
    kept ones. The docs stay where they are in the run: lines are passed around as row
    indices.
    """
    tid = _global_topic_ids(run, t_index)
    keep = np.flatnonzero(tid >= 0)  # topics absent from qrels and gmemb are ignored
    ranking = _rankings_of(run, tid, keep, by_sample)
    in_line_order = order == "file" or (order is None and run.order == "file")
    if by_sample and (in_line_order or run.order == "file"):
        _check_contiguous(run, by_sample)
    if in_line_order:
        idx = keep[np.argsort(ranking[keep], kind="stable")]
        rising = (ranking[idx[1:]] == ranking[idx[:-1]]) & (
            run.scores[idx[1:]] > run.scores[idx[:-1]]
        )
        if rising.any() and run.order == "file":  # a file's order; row order was asked for
            notice_rising(run, int(idx[1:][np.argmax(rising)]))
    else:  # trec_eval: score descending, ties broken by doc id descending
        idx = _by_score(run, keep, ranking)
    group = ranking[idx]
    tid = tid[idx]
    keys = key_ids[tid]
    doc_hashes = run.doc_hashes[idx]
    hashes = key_hashes(keys, doc_hashes)
    several = False
    if by_sample and len(run.samples) > 1 and len(idx):
        new = np.concatenate(([True], group[1:] != group[:-1]))
        several = bool((new[1:] & (tid[1:] == tid[:-1])).any())  # a topic's second sample
    if not several:
        group = tid
    dup_hashes = key_hashes(group, doc_hashes) if several else hashes
    by_hash = argsort(dup_hashes)
    first = first_occurrences(group, run.docs, dup_hashes, by_hash, at=idx)
    repeated = first != np.arange(len(idx))
    if repeated.any():
        if duplicates == "error":
            j = int(np.argmax(repeated))
            ranked_list = f"topic {run.topics[run.topic_ids[idx[j]]]!r}"
            if several:
                ranked_list += f", sample {run.samples[run.sample_ids[idx[j]]]!r}"
            raise FileFormatError(
                run.source,
                run.line(int(idx[j])),
                f"doc "
                f"{run.docs[idx[j]].decode()!r} appears twice in the ranked list of "
                f"{ranked_list} (first {at_line(run.line(int(idx[first[j]])))}); "
                + (
                    "pass duplicates='first' (--keep-first-duplicate) to keep its first occurrence"
                    if run.order == "file"
                    else "if these rows hold several runs, name each in a run column "
                    f"({', '.join(RUN_COLUMNS)}); if the doc is listed twice in one run, "
                    "pass duplicates='first' to keep its first occurrence"
                ),
            )
        kept = np.flatnonzero(~repeated)
        idx, hashes, tid, keys, group = idx[kept], hashes[kept], tid[kept], keys[kept], group[kept]
    by_hash = argsort(hashes)
    counts = np.bincount(tid, minlength=len(t_index))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    place = np.arange(len(idx)) - starts[tid]
    rows = [table.find(keys, run.docs, hashes, by_hash, at=idx) for table in tables]
    if not several:
        sample = None
        n_samples = (counts > 0).astype(np.int64)
        same_doc = None
    else:  # rankings in order within a topic: a new code starts a new sample
        new = np.concatenate(([True], group[1:] != group[:-1]))
        topic_start = np.concatenate(([True], tid[1:] != tid[:-1]))
        heads = np.cumsum(new)
        sample = heads - heads[np.flatnonzero(topic_start)][np.cumsum(topic_start) - 1]
        n_samples = np.bincount(tid, weights=new, minlength=len(t_index)).astype(np.int64)
        same_doc = first_occurrences(tid, run.docs, hashes, by_hash, at=idx)
    return _Ranked(idx, tid, rows, place, sample, counts, n_samples, same_doc)


@dataclass
class _Ranked:
    """One run's kept lines in rank order (:func:`_rank_lines`)."""

    lines: np.ndarray  # the run's row of each kept line
    topic: np.ndarray  # its topic id
    rows: list  # its row in each table (-1: absent)
    place: np.ndarray  # its place within its topic's lines (over the samples in order)
    sample: np.ndarray | None  # its sample within its topic (None: one per topic)
    counts: np.ndarray  # the lines of each topic
    n_samples: np.ndarray  # the samples of each topic
    same_doc: np.ndarray | None  # the kept line of its (topic, doc)'s first occurrence


@public
def run_names(runs: Sequence[Run], /) -> tuple[str, ...]:
    """The name of every run: its tag (the sixth column of a TREC run).

    Parameters
    ----------
    runs : sequence of Run
        The runs, at least one.

    Returns
    -------
    tuple of str
        Their names, in the order of ``runs``.

    Raises
    ------
    ValueError
        If two runs share a name, naming both files: their rows would merge in every
        output.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> run_names(fairweb1_pilot().runs)
    ('Anserini-bm25', 'Anserini-qld', 'Anserini-qljm')
    """
    return _distinct_names(check_sequence_of(runs, Run, "runs", min_len=1))


def _distinct_names(runs: Sequence[Run]) -> tuple[str, ...]:
    """:func:`run_names` of runs checked already."""
    seen: dict[str, Run] = {}
    for r in runs:
        if r.name in seen:
            raise ValueError(
                f"two runs are named {r.name!r}: {seen[r.name].source} and {r.source}; "
                "give each run its own tag"
            )
        seen[r.name] = r
    return tuple(seen)


BLOCK_ELEMENTS = 1 << 20
"""Padded elements (topics x runs x ranks x groups) per block of topics: bounds memory."""


@dataclass(frozen=True, eq=False)
class RankedLists:
    """Runs joined with qrels and memberships, stored flat: what GFR and RIGF score.

    Every ranked doc is one entry; the list of topic t and run r holds entries
    ``offsets[t, r] : offsets[t, r] + lengths[t, r]`` in rank order. Memory follows the
    number of ranked docs, not topics x runs x the longest list: the measures take
    padded blocks of topics of bounded size (:meth:`blocks`, :meth:`padded_levels`,
    :meth:`padded_memberships`).

    Parameters
    ----------
    topics, runs : tuple of str
        The names along the first two axes of ``lengths`` and ``offsets``.
    lengths, offsets : ndarray of int, shape (topics, runs)
        Length of each list and the position of its first entry.
    level : ndarray of int8 (``LEVEL_DTYPE``), shape (entries,)
        The level of each ranked doc (0: nonrelevant or unjudged).
    covered : list of ndarray
        Per attribute set, the indices of the topics it covers.
    tables : list of ndarray
        Per attribute set, its (n, G) membership matrix (the gmemb file's, not copied).
    rows : list of ndarray of int32
        Per attribute set, the row of ``tables`` of each entry; -1 (uniform) for
        nonrelevant, unjudged and unlisted docs. With ``lookup='ranked'`` (rankfair),
        the row of every ranked doc the set lists, -1 only where it does not.
    detail : RankingDetail, optional
        With ``lookup='ranked'``: the samples, judgments and populations (rankfair).

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> p = fairweb1_pilot()
    >>> lists = prepare(p.qrels, p.runs, p.attributes)
    >>> lists.runs, lists.lengths.shape, lists.covered[3].tolist()
    (('Anserini-bm25', 'Anserini-qld', 'Anserini-qljm'), (4, 3), [1])
    """

    topics: tuple
    runs: tuple
    lengths: np.ndarray
    offsets: np.ndarray
    level: np.ndarray
    covered: list
    tables: list
    rows: list
    detail: RankingDetail | None = None

    @property
    def depth(self) -> int:
        """The longest list (at least 1)."""
        return max(1, int(self.lengths.max(initial=0)))

    @public
    def syslen(self) -> dict:
        """{(run index, topic): length of that ranked list} for :func:`write_nev`.

        Returns
        -------
        dict of (int, str) to int
            The length of every non-empty ranked list, by (run index, topic).

        Examples
        --------
        >>> from fairconv.datasets import fairweb1_pilot
        >>> p = fairweb1_pilot()
        >>> prepare(p.qrels, p.runs, p.attributes).syslen()[0, "P002"]
        100
        """
        t, r = np.nonzero(self.lengths)
        return {
            (int(j), self.topics[i]): int(self.lengths[i, j]) for i, j in zip(t, r, strict=True)
        }

    @public
    def blocks(self, topics: np.ndarray, /, *, width: int = 1) -> list[np.ndarray]:
        """Split topic indices into blocks whose padded arrays stay small.

        Topics are taken in order of their longest list, so that each block pads to a
        depth close to its own lists; a block holds at most :data:`BLOCK_ELEMENTS`
        elements of ``width`` (e.g. the groups of a set) per padded position, or one
        topic when a single topic needs more.

        Parameters
        ----------
        topics : ndarray of int
            Indices into ``topics``.
        width : int, default 1
            Elements per padded position (e.g. the groups of a set).

        Returns
        -------
        list of ndarray of int
            The blocks of topic indices, in order of their longest list.

        Examples
        --------
        >>> import numpy as np
        >>> from fairconv.datasets import fairweb1_pilot
        >>> p = fairweb1_pilot()
        >>> [b.tolist() for b in prepare(p.qrels, p.runs, p.attributes).blocks(np.arange(4))]
        [[0, 1, 2, 3]]
        """
        topics = np.asarray(topics, dtype=np.int64)
        if len(topics) == 0:
            return []
        longest = np.maximum(self.lengths[topics].max(axis=1, initial=0), 1)
        order = np.argsort(longest, kind="stable")
        per_topic = longest[order] * max(1, len(self.runs)) * max(1, width)
        out, start, n = [], 0, len(order)
        while start < n:
            # in sorted order a block's padded size is its topic count times the cost of
            # its last topic: the largest end that fits is found by bisection
            end = bisect.bisect_right(
                range(start, n), BLOCK_ELEMENTS, key=lambda j: (j - start + 1) * per_topic[j]
            )
            end = max(start + 1, start + end)
            out.append(topics[order[start:end]])
            start = end
        return out

    def _index(self, topics: np.ndarray):
        lengths = self.lengths[topics]
        depth = max(1, int(lengths.max(initial=0)))
        k = np.arange(depth)
        inside = k < lengths[..., None]
        idx = self.offsets[topics][..., None] + k
        return np.where(inside, idx, 0), inside

    @public
    def padded_levels(self, topics: np.ndarray, /) -> np.ndarray:
        """(len(topics), runs, K) levels, K the longest of these lists; 0 beyond an end.

        Parameters
        ----------
        topics : ndarray of int
            Indices into ``topics``.

        Returns
        -------
        ndarray of int64, shape (len(topics), runs, K)
            The levels, 0 beyond each list's end.

        Examples
        --------
        >>> import numpy as np
        >>> from fairconv.datasets import fairweb1_pilot
        >>> p = fairweb1_pilot()
        >>> prepare(p.qrels, p.runs, p.attributes).padded_levels(np.array([1])).shape
        (1, 3, 100)
        """
        idx, inside = self._index(topics)
        if len(self.level) == 0:
            return np.zeros(idx.shape, dtype=np.int64)
        return np.where(inside, self.level[idx], 0).astype(np.int64)

    @public
    def padded_memberships(self, m: int, topics: np.ndarray, /) -> np.ndarray:
        """(len(topics), runs, K, G) membership vectors of set m; uniform beyond an end.

        Parameters
        ----------
        m : int
            The attribute set, an index into ``tables``.
        topics : ndarray of int
            Indices into ``topics``.

        Returns
        -------
        ndarray of float, shape (len(topics), runs, K, G)
            The membership vectors, uniform beyond each list's end and where ``rows``
            is -1.

        Examples
        --------
        >>> import numpy as np
        >>> from fairconv.datasets import fairweb1_pilot
        >>> p = fairweb1_pilot()
        >>> lists = prepare(p.qrels, p.runs, p.attributes)
        >>> lists.padded_memberships(3, np.array([1])).shape  # M-ORIGIN on P002: 8 groups
        (1, 3, 100, 8)
        """
        idx, inside = self._index(topics)
        table, rows = self.tables[m], self.rows[m]
        row = np.where(inside, rows[idx], -1) if len(rows) else np.full(idx.shape, -1)
        g = table.shape[1]
        if len(table) == 0:
            return np.full(row.shape + (g,), 1.0 / g)
        out = table.take(row, axis=0, mode="clip")  # -1 reads row 0, then set uniform
        np.copyto(out, 1.0 / g, where=(row < 0)[..., None])
        return out


@dataclass(frozen=True)
class JoinOptions:
    """How runs are joined with qrels and memberships (:func:`prepare`'s options), checked."""

    order: str | None = None
    duplicates: str = "error"
    nonrelevant_membership: str = "uniform"
    lookup: str = "judged"
    """'judged': a doc's membership is that of its judgment (GF's rule: unjudged and
    nonrelevant docs count as uniform); 'ranked': every ranked doc is looked up in each
    set's memberships, and each (topic, sample) of a run is a ranking of its own
    (rankfair: the set's population, samples, :class:`RankingDetail`)."""
    unlisted: str = "error"
    """With 'ranked': a ranked doc that a set in ``listed`` does not list for a topic it
    covers is an error naming the run's file and line ('error'), or is left out of that
    set's rankings with a notice per run and set ('drop')."""
    listed: tuple[int, ...] = ()
    """With 'ranked': the sets whose ranked docs must be listed (``unlisted``)."""


@dataclass(frozen=True, eq=False)
class RankingDetail:
    """What a join with ``lookup='ranked'`` adds to :class:`RankedLists` (rankfair).

    Entries of a (topic, run) follow its samples in order of their first line, each
    sample's docs in rank order.

    Attributes
    ----------
    sample : ndarray of int64, shape (entries,), or None
        Each entry's sample within its (topic, run), 0-based; None when every (topic,
        run) has one sample.
    n_samples : ndarray of int64, shape (topics, runs)
        The samples of each (topic, run) (0 where the run lacks the topic).
    judgment : ndarray of int64, shape (entries,)
        Each entry's row in the qrels, -1 where it is unjudged.
    same_doc : ndarray of int64, shape (entries,), or None
        The entry of the first occurrence of each entry's doc within its (topic, run)
        (several samples rank one doc); None when every (topic, run) has one sample.
    judged_rows : list of ndarray of int64
        Per set, the row of its memberships of each qrels row (-1: not listed).
    population_judgments : list of ndarray of int64
        Per set, the qrels row of each of its membership rows (-1: unjudged).
    population_topics : list of ndarray of int64
        Per set, the topic (index into ``topics``) of each of its membership rows.
    """

    sample: np.ndarray | None
    n_samples: np.ndarray
    judgment: np.ndarray
    same_doc: np.ndarray | None
    judged_rows: list
    population_judgments: list
    population_topics: list


def join_options(order, duplicates, nonrelevant_membership) -> JoinOptions:
    """:func:`prepare`'s options, checked once; errors name the public function called."""
    return JoinOptions(
        None if order is None else check_choice(order, "order", ("file", "score")),
        check_choice(duplicates, "duplicates", ("error", "first")),
        check_choice(nonrelevant_membership, "nonrelevant_membership", ("uniform", "listed")),
    )


@public
def prepare(
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    /,
    *,
    order=None,
    duplicates="error",
    nonrelevant_membership="uniform",
    n_jobs: int | None = None,
) -> RankedLists:
    """Join runs with qrels and membership files into :class:`RankedLists`.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgments (:func:`~fairconv.io.read_qrels`).
    runs : sequence of Run
        Their names (tags) must be distinct.
    attributes : sequence of AttributeData
        The attribute sets, each with its memberships and target
        (:func:`~fairconv.io.load_attribute`).
    order : {None, 'file', 'score'}
        Rank order: a topic's lines in file order (the organisers' tool), or by score
        descending with ties by doc id descending (trec_eval). None (default): each run
        its own way (:attr:`~fairconv.io.Run.order`), runs read from files in file
        order and in-memory runs (DataFrames, dicts, records) by score.
    duplicates : {'error', 'first'}
        A doc listed twice in one ranked list is an error, or its first occurrence is
        kept.
    nonrelevant_membership : {'uniform', 'listed'}
        A judged-nonrelevant doc counts as uniform in GF (the papers' rule, default),
        or with the vector its gmemb file lists, as the organisers' tool reads it. The
        official gmemb files list uniform vectors for those docs, so both agree there;
        when a file lists another vector, the default says so once (a
        :class:`~fairconv.FairconvWarning`).
    n_jobs : int, optional
        Threads that join the sets and the runs: None for ``FAIRCONV_THREADS`` or
        else every available core, -1 for every core, 1 for none (no thread started).
        The result is the same.

    Returns
    -------
    RankedLists
        Topics are those of the qrels and of the gmemb files, sorted; run topics that
        none of them knows are left out (as trec_eval does).

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> from fairconv.rankings import prepare
    >>> p = fairweb1_pilot()
    >>> lists = prepare(p.qrels, p.runs, p.attributes)
    >>> lists.topics, lists.lengths.shape
    (('P001', 'P002', 'P003', 'P004'), (4, 3))
    """
    options = join_options(order, duplicates, nonrelevant_membership)
    threads = resolve_n_jobs(n_jobs)
    check_instance(qrels, Qrels, "qrels", what="a Qrels (fairconv.io.read_qrels)")
    runs = check_sequence_of(runs, Run, "runs", min_len=1)
    attributes = check_sequence_of(attributes, AttributeData, "attributes")
    return _join(qrels, runs, attributes, options, threads)


def _join(
    qrels: Qrels,
    runs: list[Run],
    attributes: list[AttributeData],
    options: JoinOptions,
    threads: int,
) -> RankedLists:
    """:func:`prepare` on inputs and options checked already."""
    order, duplicates = options.order, options.duplicates
    listed_rule = options.nonrelevant_membership
    ranked = options.lookup == "ranked"
    names = _distinct_names(runs)
    topics = sorted(set(qrels.topics).union(*(a.memberships.topics for a in attributes)))
    t_index = {t: i for i, t in enumerate(topics)}
    judged = qrels.key_table  # keys by the qrels' topic ids
    # the id a topic's keys are hashed with: its id in the qrels, others' one past them
    q_index = {t: i for i, t in enumerate(qrels.topics)}
    key_ids = np.array([q_index.get(t, -1) for t in topics], dtype=np.int64)
    key_ids[key_ids < 0] = len(q_index) + np.arange(int((key_ids < 0).sum()))
    nonrelevant_judged = np.append(qrels.levels == 0, False)  # the last: not judged (-1)

    # the key id of each topic of each set (every gmemb topic is an evaluation topic)
    set_keys = [key_ids[_topic_map(a.memberships, t_index)] for a in attributes]

    def set_rows(m, lo, hi):
        """The judgment of gmemb rows lo..hi, and whether a nonrelevant one is non-uniform."""
        data = attributes[m]
        gm = data.memberships
        hit = judged.find_aligned(set_keys[m][gm.topic_ids[lo:hi]], gm.docs[lo:hi])
        non_uniform = False
        if listed_rule == "uniform" and not ranked:  # max |v - 1/G| from the extremes
            vectors = gm.matrix[lo:hi][nonrelevant_judged[hit]]
            if vectors.size:
                u = 1.0 / data.attribute.n_groups
                non_uniform = vectors.max() - u > 1e-9 or u - vectors.min() > 1e-9
        return hit, non_uniform

    def set_table(m):
        """The keys of set m's memberships, hashed as the runs' keys (rankfair)."""
        gm = attributes[m].memberships
        return KeyTable(set_keys[m][gm.topic_ids], gm.docs, gm.doc_hashes)

    # the sets (in a few pieces each) and the runs in one pool, largest first: the
    # cores stay busy to the end
    pieces = [
        (m, lo, hi) for m, a in enumerate(attributes) for lo, hi in _pieces(a.memberships, threads)
    ]
    tables: list = [judged]
    if ranked:
        tables += thread_map(set_table, range(len(attributes)), n_jobs=threads)
    jobs: list = [partial(set_rows, m, lo, hi) for m, lo, hi in pieces]
    jobs += [
        partial(_rank_lines, r, t_index, key_ids, tables, order, duplicates, ranked) for r in runs
    ]
    sizes = [hi - lo for _, lo, hi in pieces] + [len(run.docs) for run in runs]
    done = thread_map(lambda job: job(), jobs, cost=sizes, n_jobs=threads)
    lines: list = done[len(pieces) :]
    del done[len(pieces) :]  # lines holds the runs' arrays alone: place() drops them
    covered = [np.array(sorted(t_index[t] for t in a.memberships.topics)) for a in attributes]
    covered = [c.astype(np.int64) for c in covered]
    if ranked:
        _check_listed(runs, lines, attributes, covered, topics, options)

    def judged_rows(m):
        """The gmemb row of every judgment, and whether a nonrelevant doc is non-uniform.

        The row is -1 (uniform) where a doc is unlisted or counts as uniform; the last
        entry stands for unjudged docs. Also the gmemb row of each judgment as listed.
        """
        found = [done[i] for i, piece in enumerate(pieces) if piece[0] == m]
        hit = np.concatenate([h for h, _ in found])
        row_of_judged = np.full(len(qrels.docs) + 1, -1, dtype=np.int32)
        listed = np.flatnonzero(hit >= 0)
        row_of_judged[hit[listed]] = listed
        as_listed = row_of_judged[:-1].astype(np.int64)
        if listed_rule == "uniform":
            row_of_judged[nonrelevant_judged] = -1
        return row_of_judged, any(u for _, u in found), hit, as_listed

    per_set = thread_map(judged_rows, range(len(attributes)), n_jobs=threads)
    n_t, n_r = len(topics), len(runs)
    lengths = np.zeros((n_t, n_r), dtype=np.int64)
    n_samples = np.zeros((n_t, n_r), dtype=np.int64)
    for r, run_lines in enumerate(lines):
        lengths[:, r] = run_lines.counts
        n_samples[:, r] = run_lines.n_samples
    offsets = np.concatenate(([0], np.cumsum(lengths.ravel())[:-1])).reshape(n_t, n_r)
    n_entries = int(lengths.sum())
    judged_level = np.append(qrels.levels, 0).astype(LEVEL_DTYPE)  # row -1 (unjudged): level 0
    level = np.zeros(n_entries, dtype=LEVEL_DTYPE)
    row_arrays = [np.full(n_entries, -1, dtype=np.int32) for _ in attributes]
    several = ranked and any(r.sample is not None for r in lines)
    judgment = np.full(n_entries if ranked else 0, -1, dtype=np.int64)
    sample = np.zeros(n_entries, dtype=np.int64) if several else None
    same_doc = np.arange(n_entries, dtype=np.int64) if several else None

    def place(r):
        """Run r's entries into the flat arrays (each run's places are its own)."""
        got = lines[r]
        lines[r] = None  # each run's arrays are dropped once its entries are placed
        pos = offsets[got.topic, r] + got.place
        rows = got.rows[0]
        level[pos] = judged_level[rows]
        if ranked:
            judgment[pos] = rows
            for row_of, found in zip(row_arrays, got.rows[1:], strict=True):
                row_of[pos] = found
            if several and got.sample is not None:
                sample[pos] = got.sample
                same_doc[pos] = pos[got.same_doc]
            return
        for row_of, (row_of_judged, *_) in zip(row_arrays, per_set, strict=True):
            row_of[pos] = row_of_judged[rows]

    thread_map(place, range(n_r), n_jobs=threads)
    for data, (_, non_uniform, *_) in zip(attributes, per_set, strict=True):
        if non_uniform and not ranked:
            notice(
                f"{data.memberships.source}: lists a non-uniform vector for a "
                "judged-nonrelevant doc; GF counts such docs as uniform (the papers' rule), "
                "whereas the organisers' tool uses the listed vector: pass "
                "nonrelevant_membership='listed' (--nonrelevant-membership listed) "
                "to reproduce it"
            )
    tables_m = [data.memberships.matrix for data in attributes]
    detail = None
    if ranked:
        detail = RankingDetail(
            sample,
            n_samples,
            judgment,
            same_doc,
            [as_listed for *_, as_listed in per_set],
            [hit for _, _, hit, _ in per_set],
            [_global_topic_ids(a.memberships, t_index) for a in attributes],
        )
    return RankedLists(
        tuple(topics), names, lengths, offsets, level, covered, tables_m, row_arrays, detail
    )


def _check_listed(runs, lines, attributes, covered, topics, options: JoinOptions) -> None:
    """Ranked docs that a set does not list for a topic it covers: an error, or a notice.

    With ``unlisted='drop'`` their rows stay -1 (left out of that set's rankings).
    """
    for m in options.listed:
        covers = np.zeros(len(topics), dtype=bool)
        covers[covered[m]] = True
        name = attributes[m].attribute.name
        for run, got in zip(runs, lines, strict=True):
            unlisted = (got.rows[1 + m] < 0) & covers[got.topic]
            if not unlisted.any():
                continue
            if options.unlisted == "error":
                j = int(got.lines[unlisted].min())
                raise FileFormatError(
                    run.source,
                    run.line(j),
                    f"doc {run.docs[j].decode()!r} of topic {run.topics[run.topic_ids[j]]!r} "
                    f"is not listed by the memberships of attribute set {name!r} "
                    f"({attributes[m].memberships.source}), which must list every candidate "
                    "doc of the topic; pass unlisted='drop' (--unlisted drop) to leave such "
                    "docs out of its rankings",
                )
            n = int(unlisted.sum())
            notice(
                f"run {run.name!r} ranks {n} doc{'s' * (n != 1)} that attribute set {name!r} "
                f"does not list for {'their topics' if n != 1 else 'its topic'}: left out "
                "of its rankings (unlisted='drop'; later docs move up)"
            )


# --------------------------------------------------------------------------- the route
@dataclass(frozen=True)
class Column:
    """One measure a ranked-list family can give.

    ``sets`` says where it exists: on every topic (empty), or on the topics that one of
    these attribute sets covers (and with ``judged``, of those only the qrels' topics).
    ``needs`` lists the measures it is computed from
    (GFR from ERR and each set's GF), computed whenever it is asked for.
    """

    name: MeasureName
    sets: tuple[int, ...] = ()
    needs: tuple[MeasureName, ...] = ()
    judged: bool = False
    """It exists only on the topics of the qrels (a measure of relevance, in a family
    whose topics are also those of the memberships alone)."""


class RankedFamily:
    """What a ranked-list family brings to :func:`evaluate_lists`: its measures and kernel.

    A family subclasses this, is built with its own options checked, and gives its
    measures (:meth:`columns`) and its kernel (:meth:`jobs`, :meth:`score`, and
    :meth:`finish` for measures computed from others). The route converts and checks the
    inputs, joins them (:meth:`join`: :func:`prepare` by default), gives the notices,
    scores the jobs on the caller's threads and builds the table. The other methods have
    defaults that do nothing.
    """

    item = "ranked list"
    """What a run can lack for a topic, for the missing-topic notice."""
    action = "they score 0 there"
    """What the family does where a run lacks a topic, for the same notice."""
    scores_missing = True
    """A run lacking a topic scores there (0, as the organisers' tools), or has no cell
    there (False: its rows are left out)."""
    shared_topics = True
    """A run sharing no topic with the qrels is an error (:func:`check_shared_topics`);
    False where the family's join checks the topics it needs judged itself."""

    def columns(self, sets: Sequence[AttributeSet]) -> list[Column]:
        """Every measure the family gives for these attribute sets, in output order."""
        raise NotImplementedError

    def check(self, qrels: Qrels, attributes: Sequence[AttributeData]) -> None:
        """Check the inputs against the options (e.g. the qrels' levels and the gains)."""

    def join(
        self, qrels, runs, attributes, options: JoinOptions, threads: int, wanted: frozenset
    ) -> RankedLists:
        """Join the runs with the qrels and memberships (:func:`prepare`'s join)."""
        return _join(qrels, runs, attributes, options, threads)

    def missing(self, lists: RankedLists) -> np.ndarray:
        """(topics, runs): where a run lacks a topic that is scored."""
        return lists.lengths == 0

    def attach(self, lists: RankedLists) -> None:
        """Join what the family scores beside the lists (ragfair's answers)."""

    def jobs(self, lists: RankedLists, wanted: frozenset) -> list:
        """The units of work: e.g. (attribute set or None, block of topic indices)."""
        raise NotImplementedError

    def score(self, lists: RankedLists, job, wanted: frozenset):
        """``(topic indices, [(measure, values (topics, runs)), ...])`` of one job."""
        raise NotImplementedError

    def finish(self, values: dict, covered: np.ndarray, wanted: frozenset) -> list:
        """``[(measure, values (T, R)), ...]`` computed from the others (GFR)."""
        return []

    def cells(self, lists: RankedLists, column: Column, cells: np.ndarray) -> np.ndarray:
        """(T, R): where a measure has a value, from the route's (T, R) rule."""
        return cells

    def notices(self, lists: RankedLists, wanted: frozenset) -> dict:
        """The family's own notices (given) and their counts (returned)."""
        return {}


def _wanted(columns: list[Column], measures) -> tuple[list[Column], frozenset]:
    """The columns asked for, in the order asked, and every measure they need."""
    if measures is None:
        asked = columns
    else:
        by_name = {str(c.name): c for c in columns}
        names = check_names(measures, "measures", "measure names")
        unknown = [m for m in names if m not in by_name]
        if unknown or not names:
            raise fail(
                "measures",
                f"name measures it computes ({', '.join(by_name)})",
                ", ".join(unknown_measure(m, list(by_name)) for m in unknown) or "none",
            )
        check_once(names, "measures", what="measure")
        asked = [by_name[m] for m in names]
    needs = {c.name: c.needs for c in columns}
    wanted: set[MeasureName] = set()
    todo = [c.name for c in asked]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.add(name)
            todo.extend(needs[name])
    return asked, frozenset(wanted)


def check_shared_topics(qrels: Qrels, runs: Sequence[Run]) -> None:
    """A run that shares no topic with the qrels is an error naming a few ids of each.

    Its scores would all be 0: a mistake (runs of another track) rather than a result.
    """
    judged = set(qrels.topics)
    for run in runs:
        if judged.isdisjoint(run.topics):
            raise fail(
                "runs",
                "hold runs that share topics with the qrels (are they of one track?)",
                f"run {run.name!r} with topics {few(run.topics)} against the qrels' topics "
                f"{few(qrels.topics)}",
            )


def cutoffs_for(cutoffs, measures, default):
    """The cutoffs given, or those the measure names ask for, or the default.

    Cutoffs and measures together must agree: every depth a measure name asks for is
    one of the cutoffs.
    """
    if measures is None:
        return default if cutoffs is None else cutoffs
    asked = cutoffs_of(measures)
    if cutoffs is None:
        return asked
    given = check_cutoffs(cutoffs, "cutoffs")
    lacking = [k for k in asked if k not in given]
    if lacking:
        raise fail(
            "cutoffs",
            f"include the depths the measures ask for ({', '.join(map(str, asked))})",
            f"{', '.join(map(str, given)) or 'no cutoff'}, without {lacking[0]}",
        )
    return given


def evaluate_lists(
    qrels,
    runs,
    attributes,
    family: RankedFamily,
    /,
    *,
    measures: Sequence[str] | None = None,
    join: JoinOptions | None = None,
    lists: RankedLists | None = None,
    n_jobs: int | None = None,
) -> ScoreTable:
    """The one evaluation route of the ranked-list families (gfr, ragfair, ...).

    1. convert the inputs (:func:`fairconv.io.as_inputs`: files, DataFrames, dicts);
    2. check each option once (the family is built with its own, ``join`` with the
       join's);
    3. join the runs with the qrels and memberships (:func:`prepare`);
    4. give the notices: a run lacking topics that are scored (one notice per run,
       :func:`fairconv.results.notice_missing_topics`), then the family's own;
    5. score blocks of topics of bounded size on ``n_jobs`` threads, only the measures
       asked for and those they need;
    6. build the table (:meth:`fairconv.results.ScoreTable.from_columns`).

    Parameters
    ----------
    qrels : Qrels, path, DataFrame, dict, records or None
        Any input of :func:`fairconv.io.as_qrels` (None: no judgments).
    runs : run(s) or mapping of name to run
        Any input of :func:`fairconv.io.as_runs`; their names must be distinct.
    attributes : sequence of AttributeData
        The attribute sets with their memberships.
    family : RankedFamily
        The family's measures and kernel, built with its checked options.
    measures : sequence of str, optional
        Only these measures, in this order (all the family gives when None); an unknown
        name is an error listing the valid ones.
    join : JoinOptions, optional
        The join's options (:func:`join_options`); default ``JoinOptions()``.
    lists : RankedLists, optional
        The join of these inputs, when the caller has made it already.
    n_jobs : int, optional
        Threads that convert, join and score: None for ``FAIRCONV_THREADS`` or else
        every available core, -1 for every core, 1 for none. The scores are the same.

    Returns
    -------
    ScoreTable
        Topics: those of the qrels and of the membership files, sorted. A run without a
        list for a topic scores 0 there (with the notice), as the organisers' tool; in a
        family whose missing topics have no cell (``scores_missing`` False: rankfair)
        it has no cell there. A measure of relevance (``Column.judged``) exists on the
        qrels' topics only. ``qrels`` may be None for a family whose measures do not
        use relevance.
    """
    threads = resolve_n_jobs(n_jobs)
    join = JoinOptions() if join is None else join
    judged = qrels is not None
    qrels, runs = as_inputs(qrels if judged else no_qrels(), runs, n_jobs=threads)
    runs = check_sequence_of(runs, Run, "runs", min_len=1)
    attributes = check_sequence_of(attributes, AttributeData, "attributes")
    check_unique_names([a.attribute.name for a in attributes], "attributes")
    sets = [a.attribute for a in attributes]
    asked, wanted = _wanted(family.columns(sets), measures)
    family.check(qrels, attributes)
    if lists is None:
        lists = family.join(qrels, runs, attributes, join, threads, wanted)
    if judged and family.shared_topics:
        check_shared_topics(qrels, runs)
    n_t, n_r = len(lists.topics), len(lists.runs)
    covered = np.zeros((len(attributes), n_t), dtype=bool)
    for m, cov in enumerate(lists.covered):
        covered[m, cov] = True
    judged_topics = set(qrels.topics)
    in_qrels = np.fromiter((t in judged_topics for t in lists.topics), bool, n_t)

    def topics_of(column: Column) -> np.ndarray:
        """(T,): the topics where a measure exists, whatever the runs hold."""
        on = np.ones(n_t, dtype=bool) if not column.sets else covered[list(column.sets)].any(0)
        return np.asarray(on & in_qrels if column.judged else on)

    scored = np.zeros(n_t, dtype=bool)
    for c in asked:
        scored |= topics_of(c)
    missing = family.missing(lists) & scored[:, None]
    notices = {
        "topics_scored": int(scored.sum()),
        "topics_missing": notice_missing_topics(
            [t for t, on in zip(lists.topics, scored, strict=True) if on],
            lists.runs,
            missing[scored],
            item=family.item,
            action=family.action,
        ),
    }
    notices.update(family.notices(lists, wanted))
    family.attach(lists)
    jobs = family.jobs(lists, wanted)
    values: dict[MeasureName, np.ndarray] = {}
    for rows, parts in thread_map(
        lambda job: family.score(lists, job, wanted), jobs, n_jobs=threads
    ):
        for name, v in parts:
            values.setdefault(name, np.zeros((n_t, n_r)))[rows] = v
    values.update(family.finish(values, covered, wanted))

    def where(column: Column) -> np.ndarray:
        cells = np.broadcast_to(topics_of(column)[:, None], (n_t, n_r))
        if not family.scores_missing:
            cells = cells & ~missing
        return family.cells(lists, column, cells)

    return ScoreTable.from_columns(
        lists.topics,
        lists.runs,
        [(c.name, values[c.name], where(c)) for c in asked],
        notices=notices,
    )


def no_qrels() -> Qrels:
    """The qrels of an evaluation without judgments: no topic, no doc."""
    empty = np.zeros(0, dtype=np.int64)
    return Qrels("no qrels", (), empty, np.zeros(0, dtype="S8"), empty)
