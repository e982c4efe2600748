"""``evaluate``: TREC Fair runs scored per topic, in three steps.

1. :func:`prepare`: the inputs checked and converted once, and each run cut as the
   edition's evaluation cut it (the lines it keeps);
2. :func:`targets_for`: the targets of the topics scored, read or built;
3. :func:`score`: each run scored, its pages flat (no padding), into one table.

The command line runs the same steps (and writes the targets of step 2 when asked).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _core
from .._accel import KeyTable
from .._validation import (
    check_cut,
    check_int_choice,
    fail,
    fail_params,
    notice,
    public,
)
from ..io import _trecfair as _io
from ..results import ScoreTable, notice_missing_topics
from . import _inputs
from ._measures import (
    MEASURES,
    check_target_len,
    measure_names,
    score_task1,
    score_task2,
)
from ._targets import TopicTargets, as_targets, build

_EDITION_DEPTH = {(1, 2021): 20, (2, 2021): 6}
"""The edition's cut of the lines kept per topic (Task 1) or ranking (Task 2)."""
_EDITION_SEQUENCES = {(2, 2021): 25}
"""The edition's cut of the rankings kept (those with seq_no <= it)."""


@dataclass
class Plan:
    """The checked inputs of an evaluation, and the lines each run keeps."""

    task: int
    edition: int
    dims: list
    universe: _inputs.Universe
    qrels: _io.FairQrels
    runs: list
    kept: list  # per run: (indices of the lines kept, position of every line in its list)
    topics: list  # the topics scored: those of the kept lines, sorted
    N: int


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
):
    r"""Score TREC Fair runs per topic, as the track's official evaluation does.

    Task 1: ``nDCG``, ``AWRF[SET]`` and ``nDCG*AWRF[SET]`` (:func:`task1`); Task 2:
    ``EE-L[SET]``, ``EE-D[SET]``, ``EE-R[SET]`` (:func:`task2`); SET the dimension
    names joined by ``,``. Targets are read (``targets``) or built from the relevant
    pages (:func:`build_targets`).

    Parameters
    ----------
    qrels : FairQrels or path
        Relevant pages (:func:`read_qrels`: the organisers' topic JSON Lines or TREC qrels).
    runs : FairRun, path, or sequence of them
        Runs of the task (:func:`read_run`); lines in file order are the rankings.
    dimensions : sequence of Dimension
        The alignment tables, intersected in this order (:func:`read_alignment`,
        :func:`read_metadata`). They must list the same pages.
    task : {1, 2}
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
        Naming the run file and topic (or the file and line): a ranking longer than N,
        a topic without a target or relevant page, an unlisted relevant page in 2022
        Task 2, tables that disagree on their pages, bad inputs of every reader.

    Warns
    -----
    FairconvWarning
        For what the official evaluation does that users may not expect: the 2021 cuts
        when they drop lines, a run lacking topics that others have, pages no table
        lists (2022 Task 1), undefined AWRF, multi-hot rows, undefined targets, sums past
        float64.

    See Also
    --------
    build_targets : the targets built here, alone.
    task1, task2 : the measures on arrays.

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
    """
    plan = prepare(
        qrels,
        runs,
        dimensions,
        task=task,
        edition=edition,
        target_len=target_len,
        depth=depth,
        sequences=sequences,
        topics=topics,
    )
    used = targets_for(plan, targets=targets, backgrounds=backgrounds, work=work)
    return score(plan, used, explicit=targets is not None)


# --------------------------------------------------------------------------- 1. prepare
def prepare(
    qrels, runs, dimensions, *, task, edition, target_len, depth, sequences, topics
) -> Plan:
    """Check and convert the inputs; cut each run as the edition's evaluation did."""
    task = check_int_choice(task, "task", _io.TASKS)
    edition = check_int_choice(edition, "edition", _io.EDITIONS)
    dims = _inputs.dimension_list(dimensions)
    q = _inputs.as_qrels(qrels)
    run_list = _inputs.as_runs(runs, task)
    N = check_target_len(target_len, task, edition)
    depth = check_cut(depth, "depth", words=("edition",))
    sequences = check_cut(sequences, "sequences", words=("edition",))
    if task == 1 and sequences not in ("edition", None):
        raise fail(
            "sequences",
            "be 'edition' or None for Task 1 (it cuts Task 2 rankings)",
            repr(sequences),
        )
    wanted = None
    if topics is not None:
        wanted = set(_inputs.topics_of(topics, {t for r in run_list for t in r.topics}, "runs"))
    universe = _inputs.Universe(dims)
    if edition == 2021:
        _inputs.require_unknown(dims)
    _inputs.multi_hot_notice(dims, universe)
    kept = _cut(run_list, task, edition, depth, sequences, wanted)
    found: set = set()
    for run, (lines, _) in zip(run_list, kept, strict=True):
        found.update(run.topics[t] for t in np.unique(run.topic_ids[lines]).tolist())
    return Plan(task, edition, dims, universe, q, run_list, kept, sorted(found), N)


def _cut(runs, task, edition, depth, sequences, wanted) -> list:
    """Per run, the lines kept (indices) and every line's position in its list.

    ``depth`` and ``sequences`` are checked: None (no cut), "edition" (the edition's
    own cut, with a notice saying how many lines it leaves out) or an integer.
    """
    by_edition = depth == "edition", sequences == "edition"
    if by_edition[0]:
        depth = _EDITION_DEPTH.get((task, edition))
    if by_edition[1]:
        sequences = _EDITION_SEQUENCES.get((task, edition))
    kept = []
    cut_lines = dropped = 0
    for run in runs:
        keep = np.ones(len(run.pages), dtype=bool)
        if wanted is not None:
            keep &= np.asarray([t in wanted for t in run.topics], dtype=bool)[run.topic_ids]
        if task == 1:
            pos = _core.positions_in_blocks(run.topic_ids)
        else:
            pos = _core.positions_in_blocks(run.topic_ids, run.seq)
            if sequences is not None:
                dropped += int((run.seq > sequences).sum())
                keep &= run.seq <= sequences
        if depth is not None:
            cut_lines += int((keep & (pos >= depth)).sum())
            keep &= pos < depth
        kept.append((np.flatnonzero(keep), pos))
    if cut_lines and by_edition[0]:
        what = (
            "the first 20 lines of each topic"
            if task == 1
            else "the first 6 lines of each ranking (a 'top 5' on a counter from 0)"
        )
        notice(
            f"edition 2021 scores {what}, as its official evaluation did; {cut_lines} "
            "line(s) were left out (depth=None keeps them)"
        )
    if dropped and by_edition[1]:
        notice(
            f"edition 2021 scores the rankings with seq_no <= {sequences}, as its "
            f"official evaluation did; {dropped} line(s) of later rankings were left out "
            "(sequences=None keeps them)"
        )
    return kept


# --------------------------------------------------------------------------- 2. targets
def targets_for(plan: Plan, *, targets, backgrounds, work) -> TopicTargets:
    """The targets of the topics scored: read (``targets``) or built."""
    names = tuple(d.name for d in plan.dims)
    if targets is None:
        q = plan.qrels
        counts = np.bincount(q.topic_ids, minlength=len(q.topics))
        with_pages = {t for t, c in zip(q.topics, counts.tolist(), strict=True) if c > 0}
        wanted = [t for t in plan.topics if t in with_pages]  # the others: an error in score
        return build(
            q,
            plan.dims,
            plan.universe,
            wanted,
            task=plan.task,
            edition=plan.edition,
            backgrounds=backgrounds,
            work=_inputs.as_work(work),
        )
    if backgrounds is not None or work is not None:
        raise fail_params(
            ("backgrounds", "work", "targets"),
            "not be given together: 'backgrounds' and 'work' build the targets that "
            "'targets' gives",
            "'targets' with " + ("'backgrounds'" if backgrounds is not None else "'work'"),
        )
    tt = as_targets(targets, plan.dims)
    if tt.dimensions != names or tt.categories != tuple(d.categories for d in plan.dims):
        raise ValueError(
            f"The targets ({tt.source}) are over the dimensions {list(tt.dimensions)} "
            f"with other categories or order than the evaluation's {list(names)}."
        )
    if plan.edition == 2021 and plan.task == 1 and len(tt.topics):
        at_u = tt.targets._at(np.arange(len(tt.topics)), np.zeros(len(tt.topics), np.int64))
        put = (at_u != 0) & tt.targets.defined.reshape(-1)  # an undefined target is NaN
        if put.any():
            i = int(np.argmax(put))
            raise ValueError(
                f"{tt.source}: the target of topic {tt.topics[i]!r} puts "
                f"{float(at_u[i]):.10g} on the all-unknown cell; 2021 Task 1 removes that "
                "cell, so it must be 0 (or absent)"
            )
    return tt


# --------------------------------------------------------------------------- 3. score
def score(plan: Plan, tt: TopicTargets, *, explicit: bool) -> ScoreTable:
    """Each run's kept lines scored per topic, flat, into one table."""
    measures = measure_names([d.name for d in plan.dims], task=plan.task)
    col_of = {t: i for i, t in enumerate(plan.topics)}
    values = np.zeros((len(plan.topics), len(plan.runs), len(measures)))
    present = np.zeros((len(plan.topics), len(plan.runs)), dtype=bool)
    for r, (run, (lines, _)) in enumerate(zip(plan.runs, plan.kept, strict=True)):
        has = [col_of[run.topics[t]] for t in np.unique(run.topic_ids[lines]).tolist()]
        present[has, r] = True
    run_names = tuple(run.name for run in plan.runs)
    notices = {
        "topics_scored": len(plan.topics),
        "topics_missing": notice_missing_topics(
            plan.topics,
            run_names,
            ~present,
            item="ranking",
            action="they are left out (no row), as the official evaluation leaves them out",
        ),
    }
    for r, (run, (lines, pos)) in enumerate(zip(plan.runs, plan.kept, strict=True)):
        if len(lines) == 0:
            continue
        topics, out = _score_run(plan, tt, run, lines, pos, measures, explicit=explicit)
        cols = np.asarray([col_of[t] for t in topics], dtype=np.int64)
        for m, key in enumerate(MEASURES[plan.task]):
            values[cols, r, m] = out[key]
    return ScoreTable.from_columns(
        plan.topics,
        run_names,
        [(name, values[:, :, m], present) for m, name in enumerate(measures)],
        notices=notices,
    )


class _Lines:
    """A run's kept lines, joined with the targets, the qrels and the alignment tables.

    A topic's lines come together, in file order.
    """

    def __init__(self, plan: Plan, tt: TopicTargets, run, lines, pos, *, explicit: bool):
        q = plan.qrels
        tid = run.topic_ids[lines]
        codes = np.unique(tid)
        self.topics = [run.topics[t] for t in codes.tolist()]
        self.target, n_rel = _topic_rows(plan, tt, run, self.topics, explicit=explicit)
        self.n_relevant = np.maximum(n_rel, 1)
        slot = np.full(len(run.topics), -1, dtype=np.int64)
        slot[codes] = np.arange(len(codes))
        order = np.argsort(slot[tid], kind="stable")
        self.lines = lines[order]
        self.group = slot[tid[order]]
        self.rank = pos[self.lines]
        q_index = {t: i for i, t in enumerate(q.topics)}
        q_of = np.asarray([q_index.get(t, -1) for t in run.topics], dtype=np.int64)
        self.pages = run.pages[self.lines]
        self.relevant = _pairs(q_of[run.topic_ids[self.lines]], self.pages, q)
        self.row, self.known = plan.universe.lookup(self.pages)


def _topic_rows(plan: Plan, tt: TopicTargets, run, topics, *, explicit: bool):
    """Each topic's target (an index into ``tt``) and its count of relevant pages.

    A topic without a target, or without a relevant page where one is needed, is an
    error naming the run file and the topic.
    """
    q = plan.qrels
    t_index = {t: i for i, t in enumerate(tt.topics)}
    q_index = {t: i for i, t in enumerate(q.topics)}
    n_rel_q = np.bincount(q.topic_ids, minlength=len(q.topics))
    need_rel = not (plan.edition == 2021 and plan.task == 2 and explicit)
    target = np.empty(len(topics), dtype=np.int64)
    n_rel = np.zeros(len(topics), dtype=np.int64)
    for k, t in enumerate(topics):  # per topic, not per line
        if t not in t_index:
            how = (
                f"the targets ({tt.source})"
                if explicit
                else f"the qrels ({q.source}), so its target cannot be built"
            )
            raise ValueError(
                f"{run.source}: topic {t!r} of run {run.name!r} has no target in {how}; "
                "leave it out with topics="
            )
        target[k] = t_index[t]
        n_rel[k] = n_rel_q[q_index[t]] if t in q_index else 0
        if need_rel and n_rel[k] == 0:
            raise ValueError(
                f"{run.source}: topic {t!r} of run {run.name!r} has no relevant page in the "
                f"qrels ({q.source}); leave it out with topics="
            )
    return target, n_rel


def _score_run(plan: Plan, tt: TopicTargets, run, lines, pos, measures, *, explicit: bool):
    """One run's topics and measures (each (topics,)), with the run's notices."""
    x = _Lines(plan, tt, run, lines, pos, explicit=explicit)
    if plan.task == 1:
        out, overflows = _task1_run(plan, tt, run, x, measures)
    else:
        out, overflows = _task2_run(plan, tt, run, x, measures)
    for measure, over in overflows:
        if over.any():
            shown = ", ".join(repr(x.topics[k]) for k in np.flatnonzero(over)[:10].tolist())
            notice(
                f"run {run.name!r}: {measure} is NaN on topic(s) {shown}: its sums overflow "
                "float64 (alignment or target values too large)"
            )
    return x.topics, out


def _task1_run(plan: Plan, tt: TopicTargets, run, x: _Lines, measures):
    """Task 1 of one run's lines: nDCG, AWRF, their product; the run's notices."""
    T = len(x.topics)
    n = np.bincount(x.group, minlength=T)
    over = np.flatnonzero(n > plan.N)
    if len(over):
        k = int(over[0])
        raise ValueError(
            f"{run.source}: topic {x.topics[k]!r} of run {run.name!r} ranks {int(n[k])} "
            f"pages, more than the target length {plan.N} (target_len)"
        )
    known, rel = x.known, x.relevant
    out, overflow = score_task1(
        T,
        x.group[rel],
        x.rank[rel],
        x.group[known],
        x.rank[known],
        plan.universe.take(x.row[known]),
        plan.universe.sizes,
        x.n_relevant,
        tt.targets,
        x.target,
        edition=plan.edition,
        N=plan.N,
    )
    if plan.edition == 2022 and not known.all():
        notice(
            f"run {run.name!r}: {int((~known).sum())} of {len(known)} ranked pages are in "
            "no alignment table; edition 2022 gives them no exposure (their attention is "
            "lost)"
        )
    nan = [x.topics[k] for k in np.flatnonzero(np.isnan(out["AWRF"]) & ~overflow).tolist()]
    if nan:
        notice(
            f"run {run.name!r}: AWRF is undefined (NaN) on topic(s) "
            f"{', '.join(map(repr, nan[:10]))}{' ...' if len(nan) > 10 else ''}: no ranked "
            "page with alignment, or an undefined target"
        )
    return out, [(measures[1], overflow)]  # AWRF, and with it the product


def _task2_run(plan: Plan, tt: TopicTargets, run, x: _Lines, measures):
    """Task 2 of one run's lines: EE-L, EE-D, EE-R."""
    if plan.edition == 2022:
        stray = np.flatnonzero(x.relevant & ~x.known)
        if len(stray):
            i = int(stray[0])
            raise ValueError(
                f"{run.source}:{int(run.lines[x.lines[i]])}: relevant page "
                f"{x.pages[i].decode('utf-8')!r} is in no alignment table; 2022 Task 2 "
                "looks up every retrieved relevant page"
            )
    counts = x.relevant if plan.edition == 2022 else x.known
    heads = _core.block_starts(x.group, run.seq[x.lines])  # a ranking's lines are together
    out, over = score_task2(
        len(x.topics),
        x.group[counts],
        x.rank[counts],
        np.bincount(x.group[heads], minlength=len(x.topics)),
        plan.universe.take(x.row[counts]),
        plan.universe.sizes,
        tt.targets,
        x.target,
        N=plan.N,
    )
    return out, list(zip(measures, over, strict=True))


def _pairs(topic_ids: np.ndarray, pages: np.ndarray, q: _io.FairQrels):
    """Whether each (topic index of the qrels, page) is relevant; -1: a topic it lacks."""
    if len(q.pages) == 0 or len(pages) == 0:
        return np.zeros(len(pages), bool)
    table = KeyTable(q.topic_ids, q.pages)
    return table.find(np.where(topic_ids < 0, len(q.topics), topic_ids), pages) >= 0
