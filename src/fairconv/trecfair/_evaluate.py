"""``evaluate``: TREC Fair runs scored per topic on the ranked-list route.

:func:`evaluate` converts the inputs once (:func:`fairconv.io.as_inputs`: the track's
files read by its own readers, DataFrames, dicts and records as every ranked-list
family takes them) and scores them on :func:`fairconv.rankings.evaluate_lists` with
:class:`TrecFairFamily`, which brings:

1. its join (:meth:`TrecFairFamily.join`): each run's rankings (a topic; in Task 2 a
   topic and a ``seq_no``) in rank order and cut as the edition's evaluation cut them;
   the targets of the topics scored, read or built; the kept lines of every run
   looked up in the qrels and the alignment tables, flat in (topic, run, rank) order;
2. where a run lacks a topic another run has, the route's notice: it is left out
   there (no cell), as the official evaluation leaves it out;
3. its kernel: blocks of topics, every run at once, scored flat
   (:meth:`TrecFairFamily.score`), and the runs' notices, in run order
   (:meth:`TrecFairFamily.finish`).

The command line runs the same route, and writes the targets of step 1 when asked.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .. import _core
from .._accel import KeyTable, thread_map
from .._validation import (
    LEVEL_DTYPE,
    FileFormatError,
    check_cut,
    check_int_choice,
    fail,
    fail_params,
    notice,
    public,
)
from ..io import Qrels, Run
from ..io import _trecfair as _io
from ..io._frames import as_inputs
from ..rankings import (
    Column,
    JoinOptions,
    RankedFamily,
    RankedLists,
    _by_score,
    evaluate_lists,
    join_options,
    notice_rising,
    run_names,
)
from ..results import ScoreTable
from . import _inputs
from ._measures import MEASURES, check_target_len, names_of, score_task1, score_task2
from ._targets import TopicTargets, as_targets, build

_EDITION_DEPTH = {(1, 2021): 20, (2, 2021): 6}
"""The edition's cut of the lines kept per topic (Task 1) or ranking (Task 2)."""
_EDITION_SEQUENCES = {(2, 2021): 25}
"""The edition's cut of the rankings kept (those with seq_no <= it)."""
BLOCK_LINES = 1 << 20
"""Kept lines scored at once (a block of topics, every run): bounds memory."""


@public
def evaluate(
    qrels,
    runs,
    dimensions,
    /,
    *,
    task: int,
    edition: int = 2022,
    targets=None,
    backgrounds=None,
    work=None,
    target_len: int | None = None,
    depth: int | str | None = "edition",
    sequences: int | str | None = "edition",
    topics=None,
    order: str | None = None,
    n_jobs: int | None = None,
) -> ScoreTable:
    r"""Score TREC Fair runs per topic, as the track's official evaluation does.

    Task 1: ``nDCG``, ``AWRF[SET]`` and ``nDCG*AWRF[SET]`` (:func:`task1`); Task 2:
    ``EE-L[SET]``, ``EE-D[SET]``, ``EE-R[SET]`` (:func:`task2`); SET the dimension
    names joined by ``,``. Targets are read (``targets``) or built from the relevant
    pages (:func:`build_targets`).

    Parameters
    ----------
    qrels : Qrels, path, DataFrame, dict or records
        Relevant pages: the track's files (:func:`read_qrels`: the organisers' topic
        JSON Lines or TREC qrels), or any input of :func:`fairconv.io.as_qrels`; a page
        is relevant when its level is above 0.
    runs : run(s) or mapping of name to run
        Runs of the task: files (:func:`read_run`, lines in file order are the
        rankings) or any input of :func:`fairconv.io.as_runs` (a :class:`~fairconv.io.Run`,
        a DataFrame with ``query_id``, ``doc_id``, ``score`` and, in Task 2, a
        ``sample`` column holding each line's ``seq_no``, dicts, records); their names
        must be distinct.
    dimensions : sequence of Dimension
        The alignment tables, intersected in this order (:func:`read_alignment`,
        :func:`read_metadata`). They must list the same pages.
    task : {1, 2}
        Task 1 scores one ranking per topic (a run with several samples of a topic is
        refused); Task 2 a sequence of rankings per topic, each a topic and a
        ``seq_no``, the run's sample ids (integers).
    edition : {2022, 2021}
        Picks the defaults of ``target_len``, ``depth``, ``sequences`` and the edition's
        rules (spec section 7).
    targets : TopicTargets or path, optional
        Explicit targets (:func:`read_targets`); default: built.
    backgrounds : mapping of str to (preset name, path or Background), optional
        Background distributions of built targets, per dimension name.
    work : WorkLevels or path, optional
        Work levels for built Task 2 targets (the metadata's, from :func:`read_metadata`).
    target_len : int, optional
        N: 500 / 1000 (Task 1, 2022 / 2021), 20 / 50 (Task 2).
    depth : int, "edition" or None
        Lines kept per topic (Task 1) or ranking (Task 2): ``"edition"`` (default) the
        edition's own cut (2021: the first 20 lines of a topic in Task 1, the first 6 of
        a ranking in Task 2; 2022: none), None no cut, an integer >= 1 that many lines.
        (0 for no cut is deprecated: pass None.)
    sequences : int, "edition" or None
        Task 2 rankings kept: those with ``seq_no <= sequences``; ``"edition"``
        (default) the edition's (2021: 25; 2022: all), None all. Task 1 has no
        rankings to cut: ``"edition"`` or None.
    topics : sequence of str, optional
        Score only these topics (each once, each a topic of some run: an id no run has
        is an error, never a topic silently left out).
    order : {None, 'file', 'score'}
        Rank order of each ranking: its lines in file (row) order, as the organisers'
        evaluation, or trec_eval's (score descending, ties by doc id descending). None
        (default): runs read from files in file order, runs from DataFrames, dicts or
        records by score (as :func:`fairconv.gfr.evaluate`). A file of the track's own
        forms (``topic page``, ``topic seq_no page``) has no scores: file order only.
    n_jobs : int, optional
        Threads that convert the inputs, look the runs' pages up and score blocks of
        topics: None for ``FAIRCONV_THREADS`` or else every available core, -1 for
        every core, 1 for none. The scores and the notices are the same.

    Returns
    -------
    ScoreTable
        One row per run and topic the run has (after the cuts and ``topics``): a topic
        that a run lacks and another run has is left out for it, as the official
        evaluation leaves it out (with a notice; ``notices["topics_missing"]`` counts
        them per run). ``nDCG``, ``AWRF``, ``nDCG*AWRF`` and ``EE-R`` are
        higher-is-better; ``EE-L`` and ``EE-D`` lower-is-better (the table's
        ``directions``). NaN where undefined (left out of the mean).

    Raises
    ------
    ValueError
        Naming the run file and topic (or the file and line; a DataFrame's row): a
        ranking longer than N, a page twice in one ranking, a topic without a target or
        relevant page, an unlisted relevant page in 2022 Task 2, tables that disagree
        on their pages, a Task 2 run whose sample ids are not integers, a Task 1 run
        with several samples of a topic, bad inputs of every reader.
    TypeError
        Naming the parameter, for an input of another kind.

    Warns
    -----
    FairconvWarning
        For what the official evaluation does that users may not expect: the 2021 cuts
        when they drop lines, a run lacking topics that others have, a file's score
        rising within a ranking ranked in file order, pages no table lists (2022 Task
        1), undefined AWRF, multi-hot rows, undefined targets, sums past float64.

    See Also
    --------
    build_targets : the targets built here, alone.
    task1, task2 : the measures on arrays.
    fairconv.rankings.evaluate_lists : the route of every ranked-list family.

    Notes
    -----
    Spec ``trecfair.md`` sections 3-7; the organisers' ``Task1Evaluation.py`` and
    ``Task2Evaluation.py`` (2021, 2022).

    Examples
    --------
    >>> import warnings
    >>> from fairconv import datasets, trecfair
    >>> d = datasets.path("trecfair")
    >>> dims, _ = trecfair.read_metadata(
    ...     d / "trec_2022_articles_discrete.jsonl", edition=2022, dimensions=["sub-geo"]
    ... )
    >>> qrels = trecfair.read_qrels(d / "trec_fair_eval_reldocs.jsonl")
    >>> with warnings.catch_warnings(record=True) as notices:
    ...     warnings.simplefilter("always")
    ...     table = trecfair.evaluate(
    ...         qrels, [d / "t1-relfirst"], dims, task=1,
    ...         backgrounds={"sub-geo": "trec2022-world-pop"},
    ...     )
    >>> print(notices[0].message)  # doctest: +ELLIPSIS
    run 't1-relfirst': 1 of 91 ranked pages are in no alignment table; ...
    >>> table.measures
    ('nDCG', 'AWRF[sub-geo]', 'nDCG*AWRF[sub-geo]')

    A run in memory, its rows in rank order:

    >>> import pandas as pd
    >>> run = trecfair.read_run(d / "t1-relfirst", task=1)
    >>> frame = pd.DataFrame({"query_id": [run.topics[t] for t in run.topic_ids],
    ...                       "doc_id": run.docs.astype(str), "score": 0.0})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     same = trecfair.evaluate(
    ...         qrels, {"t1-relfirst": frame}, dims, task=1, order="file",
    ...         backgrounds={"sub-geo": "trec2022-world-pop"},
    ...     )
    >>> same.values.tolist() == table.values.tolist()
    True
    """
    return evaluate_with(
        qrels,
        runs,
        TrecFairFamily(
            dimensions,
            task=task,
            edition=edition,
            targets=targets,
            backgrounds=backgrounds,
            work=work,
            target_len=target_len,
            depth=depth,
            sequences=sequences,
            topics=topics,
        ),
        order=order,
        n_jobs=n_jobs,
    )


def evaluate_with(qrels, runs, family: TrecFairFamily, *, order, n_jobs) -> ScoreTable:
    """:func:`evaluate` with its family built (the command line's, writing targets)."""
    join = join_options(order, "error", "uniform")
    qrels, runs = as_inputs(
        qrels,
        runs,
        n_jobs=n_jobs,
        read_qrels=_io.read_qrels,
        read_run=partial(_io.read_run, task=family.task),
    )
    return evaluate_lists(qrels, runs, [], family, join=join, n_jobs=n_jobs)


def _in_order(run: Run, order: str | None) -> bool:
    """Whether ``run`` is ranked in its lines' order; a run without scores must be."""
    in_order = order == "file" or (order is None and run.order == "file")
    if not in_order and len(run) and np.isnan(run.scores).any():
        raise ValueError(
            f"{run.source}: run {run.name!r} has no scores (the track's 'topic page' "
            "lines): it is ranked in file order only; pass order='file' (--order file)"
        )
    return in_order


def _cut_of(value, name: str, edition_cut: int | None):
    """(the cut, whether it is the edition's): ``value`` checked, "edition" resolved."""
    value = check_cut(value, name, words=("edition",))
    return (edition_cut, True) if value == "edition" else (value, False)


class TrecFairFamily(RankedFamily):
    """TREC Fair on the ranked-list route: its join, measures, kernel and notices.

    Built with the options of :func:`evaluate`, each checked once here; the route
    gives it the converted qrels and runs (:class:`~fairconv.io.Qrels`,
    :class:`~fairconv.io.Run`) and no attribute sets (the dimensions are its own).
    ``on_targets``, when given, is called with the targets the evaluation uses once
    they are read or built, before any run is scored.
    """

    item = "ranking"
    action = "they are left out (no row), as the official evaluation leaves them out"
    scores_missing = False
    shared_topics = False  # the join names a topic without relevant pages, where needed

    def __init__(
        self,
        dimensions,
        *,
        task,
        edition,
        targets,
        backgrounds,
        work,
        target_len,
        depth,
        sequences,
        topics,
        on_targets=None,
    ):
        self.task = check_int_choice(task, "task", _io.TASKS)
        self.edition = check_int_choice(edition, "edition", _io.EDITIONS)
        self.dims = _inputs.dimension_list(dimensions)
        self.N = check_target_len(target_len, self.task, self.edition)
        key = (self.task, self.edition)
        self.depth, self.edition_depth = _cut_of(depth, "depth", _EDITION_DEPTH.get(key))
        if self.task == 1 and sequences not in ("edition", None):
            check_cut(sequences, "sequences", words=("edition",))  # a bad value named first
            raise fail(
                "sequences",
                "be 'edition' or None for Task 1 (it cuts Task 2 rankings)",
                repr(sequences),
            )
        self.sequences, self.edition_sequences = _cut_of(
            sequences, "sequences", _EDITION_SEQUENCES.get(key)
        )
        if targets is not None and (backgrounds is not None or work is not None):
            raise fail_params(
                ("backgrounds", "work", "targets"),
                "not be given together: 'backgrounds' and 'work' build the targets that "
                "'targets' gives",
                "'targets' with " + ("'backgrounds'" if backgrounds is not None else "'work'"),
            )
        self.topics, self.targets, self.backgrounds, self.work = topics, targets, backgrounds, work
        self.on_targets = on_targets
        self.names = names_of([d.name for d in self.dims], self.task)

    def columns(self, sets) -> list[Column]:
        return [Column(name) for name in self.names]

    # ----------------------------------------------------------------------- the join
    def join(
        self, qrels, runs, attributes, options: JoinOptions, threads: int, wanted: frozenset
    ) -> RankedLists:
        """The kept lines of every run, flat in (topic, run, rank) order, with targets.

        The entries of ``lists`` are the lines the edition's evaluation scores, their
        level 1 where the page is relevant; beside them the family keeps each entry's
        position in its ranking (``rank``) and alignment row (``row``, -1: in no
        table), each (topic, run)'s number of rankings and each topic's target.
        """
        names = run_names(runs)
        for run in runs:
            _in_order(run, options.order)  # a run that cannot be ranked so: before notices
        seqs = [self._seq_of(run) for run in runs]
        chosen = None
        if self.topics is not None:
            have = {t for run in runs for t in run.topics}
            chosen = set(_inputs.topics_of(self.topics, have, "runs"))
        self.universe = universe = _inputs.Universe(self.dims)
        if self.edition == 2021:
            _inputs.require_unknown(self.dims)
        _inputs.multi_hot_notice(self.dims, universe)
        ranked = self._cut(runs, seqs, chosen, options.order)
        found: set = set()
        for run, (lines, _, _) in zip(runs, ranked, strict=True):
            found.update(run.topics[t] for t in np.unique(run.topic_ids[lines]).tolist())
        topics = sorted(found)
        q = _inputs.relevant(qrels)
        self.tt = tt = self._targets(q, topics)
        if self.on_targets is not None:
            self.on_targets(tt)

        t_index = {t: i for i, t in enumerate(topics)}
        q_index = {t: i for i, t in enumerate(q.topics)}
        tt_index = {t: i for i, t in enumerate(tt.topics)}
        n_rel = np.bincount(q.topic_ids, minlength=len(q.topics))
        self.target = np.asarray([tt_index.get(t, -1) for t in topics], dtype=np.int64)
        self.n_relevant = np.asarray(
            [n_rel[q_index[t]] if t in q_index else 0 for t in topics], dtype=np.int64
        )
        judged = KeyTable(q.topic_ids, q.docs) if len(q.docs) else None

        def look_up(r: int):
            """Run r's kept lines: their topic, relevance and alignment row."""
            run, (lines, _, _) = runs[r], ranked[r]
            table_topic = np.asarray([t_index.get(t, -1) for t in run.topics], np.int64)
            in_qrels = np.asarray([q_index.get(t, len(q.topics)) for t in run.topics], np.int64)
            pages = run.docs[lines]
            rel = np.zeros(len(lines), dtype=bool)
            if judged is not None and len(lines):
                rel = judged.find(in_qrels[run.topic_ids[lines]], pages) >= 0
            row, known = universe.lookup(pages)
            return table_topic[run.topic_ids[lines]], rel, np.where(known, row, -1)

        looked = thread_map(look_up, range(len(runs)), n_jobs=threads)
        explicit = self.targets is not None
        n_t, n_r = len(topics), len(runs)
        lengths = np.zeros((n_t, n_r), dtype=np.int64)
        for r, (tix, _, _) in enumerate(looked):
            lengths[:, r] = np.bincount(tix, minlength=n_t)
        for r, (run, (lines, _, _), (tix, rel, row)) in enumerate(
            zip(runs, ranked, looked, strict=True)
        ):
            self._check_run(run, lines, tix, rel, row, lengths[:, r], topics, q, explicit)
        offsets = (np.cumsum(lengths.ravel()) - lengths.ravel()).reshape(n_t, n_r)
        n = int(lengths.sum())
        level = np.zeros(n, dtype=LEVEL_DTYPE)
        self.rank = np.zeros(n, dtype=np.int64)
        self.row = np.full(n, -1, dtype=np.int64)
        self.n_rankings = np.zeros((n_t, n_r), dtype=np.int64)
        self.unlisted = np.zeros(n_r, dtype=np.int64)
        self.run_topics = []  # per run, its topics (indices) in its own order
        for r, ((_, pos, code), (tix, rel, row)) in enumerate(zip(ranked, looked, strict=True)):
            at = offsets[tix, r] + _core.positions_in_blocks(tix)
            level[at] = rel
            self.rank[at] = pos
            self.row[at] = row
            heads = _core.block_starts(code)
            self.n_rankings[:, r] = np.bincount(tix[heads], minlength=n_t)
            self.unlisted[r] = int((row < 0).sum())
            self.run_topics.append(tix[_core.block_starts(tix)])
        self.runs, self.topic_names, self.lengths = runs, topics, lengths
        return RankedLists(tuple(topics), names, lengths, offsets, level, [], [], [])

    def _seq_of(self, run: Run) -> np.ndarray | None:
        """Task 2: each line's ``seq_no``; Task 1: None, after checking one sample a topic."""
        if self.task == 2:
            return _io.seq_numbers(run)
        k = len(run.samples)
        if k > 1:
            pairs = np.unique(run.topic_ids * k + run.sample_ids)
            twice = np.flatnonzero(pairs[1:] // k == pairs[:-1] // k)
            if len(twice):
                t = int(pairs[twice[0]] // k)
                lines = np.flatnonzero(run.topic_ids == t)
                first = run.sample_ids[lines[0]]
                j = int(lines[np.argmax(run.sample_ids[lines] != first)])
                raise FileFormatError(
                    run.source,
                    run.line(j),
                    f"Task 1 scores one ranking per topic; topic {run.topics[t]!r} of run "
                    f"{run.name!r} has lines of sample {run.samples[run.sample_ids[j]]!r} "
                    f"here and of sample {run.samples[first]!r} on line "
                    f"{run.line(int(lines[0]))} (Task 2 scores several rankings of a topic)",
                )
        return None

    def _cut(self, runs, seqs, wanted, order) -> list:
        """Per run, its kept lines in rank order, their positions and rankings.

        Each ranking (a topic; in Task 2 a topic and a ``seq_no``) in file order or by
        score (``order``), then the edition's cut (``depth``, ``sequences``), with a
        notice saying how many lines the edition's own cut leaves out.
        """
        kept = []
        cut_lines = dropped = 0
        for run, seq in zip(runs, seqs, strict=True):
            in_order = _in_order(run, order)
            _io.check_rankings(run, task=self.task, in_order=in_order)
            code = run.topic_ids
            if self.task == 2 and len(run.samples) > 1:
                code = run.topic_ids * len(run.samples) + run.sample_ids
            keep = np.ones(len(run), dtype=bool)
            if wanted is not None:
                keep &= np.asarray([t in wanted for t in run.topics], dtype=bool)[run.topic_ids]
            if seq is not None and self.sequences is not None:
                dropped += int((seq > self.sequences).sum())
                keep &= seq <= self.sequences
            lines = np.flatnonzero(keep)
            if in_order:  # a ranking's lines are together: a topic's, in file order
                lines = lines[np.argsort(run.topic_ids[lines], kind="stable")]
                rising = (code[lines[1:]] == code[lines[:-1]]) & (
                    run.scores[lines[1:]] > run.scores[lines[:-1]]
                )
                if rising.any() and run.order == "file":  # a file's order, not rows asked
                    notice_rising(run, int(lines[1:][np.argmax(rising)]))
            else:
                lines = _by_score(run, lines, code)
            pos = _core.positions_in_blocks(code[lines])
            if self.depth is not None:
                within = pos < self.depth
                cut_lines += int((~within).sum())
                lines, pos = lines[within], pos[within]
            kept.append((lines, pos, code[lines]))
        if cut_lines and self.edition_depth:
            what = (
                "the first 20 lines of each topic"
                if self.task == 1
                else "the first 6 lines of each ranking (a 'top 5' on a counter from 0)"
            )
            notice(
                f"edition 2021 scores {what}, as its official evaluation did; {cut_lines} "
                "line(s) were left out (depth=None keeps them)"
            )
        if dropped and self.edition_sequences:
            notice(
                f"edition 2021 scores the rankings with seq_no <= {self.sequences}, as its "
                f"official evaluation did; {dropped} line(s) of later rankings were left out "
                "(sequences=None keeps them)"
            )
        return kept

    def _targets(self, q: Qrels, topics: list) -> TopicTargets:
        """The targets of the topics scored: read (``targets``) or built."""
        names = tuple(d.name for d in self.dims)
        if self.targets is None:
            counts = np.bincount(q.topic_ids, minlength=len(q.topics))
            with_pages = {t for t, c in zip(q.topics, counts.tolist(), strict=True) if c > 0}
            wanted = [t for t in topics if t in with_pages]  # the others: an error later
            return build(
                q,
                self.dims,
                self.universe,
                wanted,
                task=self.task,
                edition=self.edition,
                backgrounds=self.backgrounds,
                work=_inputs.as_work(self.work),
            )
        tt = as_targets(self.targets, self.dims)
        if tt.dimensions != names or tt.categories != tuple(d.categories for d in self.dims):
            raise ValueError(
                f"The targets ({tt.source}) are over the dimensions {list(tt.dimensions)} "
                f"with other categories or order than the evaluation's {list(names)}."
            )
        if self.edition == 2021 and self.task == 1 and len(tt.topics):
            at_u = tt.targets._at(np.arange(len(tt.topics)), np.zeros(len(tt.topics), np.int64))
            put = (at_u != 0) & tt.targets.defined.reshape(-1)  # an undefined target is NaN
            if put.any():
                i = int(np.argmax(put))
                raise ValueError(
                    f"{tt.source}: the target of topic {tt.topics[i]!r} puts "
                    f"{float(at_u[i]):.10g} on the all-unknown cell; 2021 Task 1 removes "
                    "that cell, so it must be 0 (or absent)"
                )
        return tt

    def _check_run(self, run, lines, tix, rel, row, counts, topics, q, explicit) -> None:
        """Check what one run's kept lines need; errors name its file and topic, or line.

        A target and relevant pages for each of its topics, rankings of at most N
        pages (Task 1), relevant pages in the tables (2022 Task 2).
        """
        own = tix[_core.block_starts(tix)]  # its topics, in its own order
        no_target = self.target[own] < 0
        need_rel = not (self.edition == 2021 and self.task == 2 and explicit)
        bad = no_target | (need_rel & (self.n_relevant[own] == 0))
        if bad.any():
            k = int(np.argmax(bad))
            t = topics[own[k]]
            if no_target[k]:
                how = (
                    f"the targets ({self.tt.source})"
                    if explicit
                    else f"the qrels ({q.source}), so its target cannot be built"
                )
                raise ValueError(
                    f"{run.source}: topic {t!r} of run {run.name!r} has no target in {how}; "
                    "leave it out with topics= (--topics)"
                )
            raise ValueError(
                f"{run.source}: topic {t!r} of run {run.name!r} has no relevant page in the "
                f"qrels ({q.source}); leave it out with topics= (--topics)"
            )
        if self.task == 1:
            over = counts[own] > self.N
            if over.any():
                t = int(own[np.argmax(over)])
                raise ValueError(
                    f"{run.source}: topic {topics[t]!r} of run {run.name!r} ranks "
                    f"{int(counts[t])} pages, more than the target length {self.N} "
                    "(target_len)"
                )
        elif self.edition == 2022:
            stray = np.flatnonzero(rel & (row < 0))
            if len(stray):
                j = int(lines[stray[0]])
                raise FileFormatError(
                    run.source,
                    run.line(j),
                    f"relevant page {run.docs[j].decode('utf-8')!r} is in no alignment "
                    "table; 2022 Task 2 looks up every retrieved relevant page",
                )

    # ----------------------------------------------------------------------- the kernel
    def attach(self, lists: RankedLists) -> None:
        """Where each measure overflows float64, filled by the blocks scored."""
        self.overflow = np.zeros((len(MEASURES[self.task]),) + lists.lengths.shape, bool)

    def jobs(self, lists: RankedLists, wanted: frozenset) -> list:
        """Blocks of consecutive topics of at most :data:`BLOCK_LINES` kept lines."""
        per_topic = lists.lengths.sum(axis=1)
        out, start, total = [], 0, 0
        for t, n in enumerate(per_topic.tolist()):  # per topic, not per line
            if total and total + n > BLOCK_LINES:
                out.append((start, t))
                start, total = t, 0
            total += n
        if start < len(per_topic):
            out.append((start, len(per_topic)))
        return out

    def score(self, lists: RankedLists, job, wanted: frozenset):
        """One block of topics, every run: each (topic, run) a group of the kernel."""
        t0, t1 = job
        n_r = len(lists.runs)
        lengths = lists.lengths[t0:t1].ravel()
        lo = int(lists.offsets[t0, 0])
        hi = lo + int(lengths.sum())
        group = np.repeat(np.arange(len(lengths)), lengths)
        rank, row = self.rank[lo:hi], self.row[lo:hi]
        rel, known = lists.level[lo:hi] > 0, row >= 0
        tindex = np.repeat(self.target[t0:t1], n_r)
        sizes = self.universe.sizes
        if self.task == 1:
            out, overflow = score_task1(
                len(lengths),
                group[rel],
                rank[rel],
                group[known],
                rank[known],
                self.universe.take(row[known]),
                sizes,
                np.repeat(np.maximum(self.n_relevant[t0:t1], 1), n_r),
                self.tt.targets,
                tindex,
                edition=self.edition,
                N=self.N,
            )
            over = (overflow, overflow, overflow)  # AWRF, and with it the product
        else:
            counts = rel if self.edition == 2022 else known
            out, over = score_task2(
                len(lengths),
                group[counts],
                rank[counts],
                self.n_rankings[t0:t1].ravel(),
                self.universe.take(row[counts]),
                sizes,
                self.tt.targets,
                tindex,
                N=self.N,
            )
        shape = (t1 - t0, n_r)
        for m, mask in enumerate(over):
            self.overflow[m, t0:t1] = mask.reshape(shape)
        keys = MEASURES[self.task]
        return np.arange(t0, t1), [
            (name, out[key].reshape(shape)) for name, key in zip(self.names, keys, strict=True)
        ]

    def finish(self, values: dict, covered: np.ndarray, wanted: frozenset) -> list:
        """Each run's notices, in run order; the measures of an evaluation of no topic."""
        for r, run in enumerate(self.runs):
            self._notices(r, run, values)
        n_r = len(self.runs)
        return [(name, np.zeros((0, n_r))) for name in self.names if name not in values]

    def _notices(self, r: int, run, values: dict) -> None:
        """Run r's notices: pages in no table (2022 Task 1), undefined AWRF, overflows."""
        own = self.run_topics[r]
        if not len(own):
            return
        topics = self.topic_names
        over = self.overflow[:, own, r]
        if self.task == 1:
            n = int(self.lengths[:, r].sum())
            if self.edition == 2022 and self.unlisted[r]:
                notice(
                    f"run {run.name!r}: {int(self.unlisted[r])} of {n} ranked pages are in "
                    "no alignment table; edition 2022 gives them no exposure (their "
                    "attention is lost)"
                )
            awrf = values[self.names[1]][own, r]
            nan = [topics[t] for t in own[np.isnan(awrf) & ~over[1]].tolist()]
            if nan:
                notice(
                    f"run {run.name!r}: AWRF is undefined (NaN) on topic(s) "
                    f"{', '.join(map(repr, nan[:10]))}{' ...' if len(nan) > 10 else ''}: "
                    "no ranked page with alignment, or an undefined target"
                )
            flagged = [(self.names[1], over[1])]
        else:
            flagged = list(zip(self.names, over, strict=True))
        for name, mask in flagged:
            if mask.any():
                shown = ", ".join(repr(topics[t]) for t in own[mask][:10].tolist())
                notice(
                    f"run {run.name!r}: {name} is NaN on topic(s) {shown}: its sums overflow "
                    "float64 (alignment or target values too large)"
                )
