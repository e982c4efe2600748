"""rankfair on the ranked-list route: runs, qrels and memberships in, a ScoreTable out.

:func:`evaluate` checks its options, reads the membership inputs of the attribute sets,
expands the measure names (section 9's wildcard) and hands the rest to
:func:`fairconv.rankings.evaluate_lists`: the shared front end reads and joins the runs
(each (topic, sample) a ranking), gives the missing-topic notice and scores blocks of
topics through :class:`_RankFamily`, whose kernel is :mod:`fairconv._core`'s.
docs/rankfair.md is the specification; section numbers below are its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .. import _core
from .._validation import (
    check_choice,
    check_cutoffs,
    check_distributions,
    check_flag,
    check_int,
    check_mapping,
    check_names,
    check_real,
    fail,
    fail_params,
    fail_type,
    notice,
    public,
)
from ..divergences import AttributeSet
from ..io._attributes import AttributeData
from ..io._frames import as_memberships
from ..io._tables import Qrels, read_golddistr
from ..io._text import FileFormatError
from ..rankings import (
    Column,
    JoinOptions,
    RankedFamily,
    RankedLists,
    evaluate_lists,
    join_options,
)
from ..results import MeasureName, ScoreTable, few

__all__ = ["evaluate", "measure_names", "RELEVANCE_BASES"]

EXPOSURE = (*_core.STATISTICS, "ARP")
"""The eight per-group statistics of section 3.1 (ARP last)."""
PREFIX = ("NDKL", *_core.YANG, "FAIR")
"""The prefix measures of section 4, per set."""
PROTECTED = (*_core.YANG, "FAIR")
"""The measures of one protected group."""
MODELS = {"gERR": "gerr", "RBP": "rbp"}
"""Expected exposure's browsing models by the last word of their names."""
EE = tuple(f"EE-{x}-{model}" for model in MODELS for x in "LDR")
"""Expected exposure's names: loss, disparity, relevance per browsing model."""
RELEVANCE_BASES = frozenset(
    {f"{s}-{m}" for s in ("EXPU", "EXPRU", "ERBR") for m in _core.METAS} | {"IAA", *EE}
)
"""The measures that use relevance: they need qrels and exist on the qrels' topics."""


def _set_bases() -> list[str]:
    return [f"{s}-{m}" for s in EXPOSURE for m in _core.METAS] + list(PREFIX) + list(EE)


def _doc_bases() -> list[str]:
    return ["IAA", *EE]


@public
def measure_names(set_names: Sequence[str], /, *, cutoffs: Sequence[int] = ()) -> list[str]:
    """Every measure name rankfair gives for these attribute sets, in output order.

    Parameters
    ----------
    set_names : sequence of str
        The attribute sets, in order.
    cutoffs : sequence of int
        Depths besides full depth.

    Returns
    -------
    list of str
        Per depth (full depth first): each set's ``STAT-M[SET]`` (eight statistics by
        seven meta-metrics), ``NDKL``, ``rND``, ``rKL``, ``rRD``, ``FAIR`` and the six
        ``EE-X-MODEL[SET]``; then ``IAA`` and the six per-doc ``EE-X-MODEL``.

    Examples
    --------
    >>> names = measure_names(["gender"], cutoffs=[10])
    >>> names[0], names[56], names[-1]
    ('EXP-MinMaxRatio[gender]', 'NDKL[gender]', 'EE-R-RBP@10')
    """
    cut = [None, *check_cutoffs(cutoffs, "cutoffs")]
    return [str(c.name) for c in _catalog(cut, list(set_names))]


def _catalog(cut, set_names: Sequence[str]) -> list[Column]:
    """Every measure, as route columns, in output order."""
    out = []
    for k in cut:
        for m, name in enumerate(set_names):
            out += [
                Column(MeasureName(b, k, name), sets=(m,), judged=b in RELEVANCE_BASES)
                for b in _set_bases()
            ]
        out += [Column(MeasureName(b, k), judged=True) for b in _doc_bases()]
    return out


def _defaults(cut, set_names, protected, hard, judged: bool) -> list[str]:
    """Section 9's measures without ``measures``, in output order."""
    out = []
    for k in cut:
        for m, name in enumerate(set_names):
            bases = ["EXP-MinMaxRatio", "NDKL"]
            if protected[m] is not None:
                bases += list(_core.YANG) + (["FAIR"] if hard[m] else [])
            if judged:
                bases.append("EXPU-MinMaxRatio")
            out += [str(MeasureName(b, k, name)) for b in bases]
        if judged:
            out += [str(MeasureName(b, k)) for b in ("IAA", *EE[:3])]
            out += [str(MeasureName(b, k, n)) for n in set_names for b in EE[:3]]
    return out


def _expand(measures, cutoffs, catalog_names: set, set_names, protected) -> list[str]:
    """The names asked for (section 9).

    Each named without a depth is also given at every cutoff, and one named without a
    set that is not itself a measure is given for every set (rND, rKL, rRD and FAIR
    for every set that has a protected group, when some set has one).
    """
    out = []
    for given in measures:
        try:
            name = MeasureName.parse(given)
        except ValueError as exc:
            raise fail_params(
                "measures", "hold valid measure names", repr(given), hint=str(exc)
            ) from None
        depths = [name.cutoff] if name.cutoff is not None else [None, *cutoffs]
        for k in depths:
            exact = MeasureName(name.base, k, name.attribute)
            if str(exact) in catalog_names:
                out.append(str(exact))
                continue
            if name.attribute is not None:
                raise _unknown(given, name, set_names)
            each = [str(MeasureName(name.base, k, s)) for s in set_names]
            hits = [n for n in each if n in catalog_names]
            if name.base in PROTECTED and any(p is not None for p in protected):
                # the sets that have a protected group (the others would be an error)
                hits = [n for n, p in zip(each, protected, strict=True) if p is not None]
            if not hits:
                raise _unknown(given, name, set_names)
            out += hits
    return out


def _unknown(given: str, name: MeasureName, set_names) -> Exception:
    """A name that is not rankfair's, said by the word that is wrong (section 9)."""
    words = name.base.split("-")
    valid: tuple[str, ...]
    if len(words) == 2 and words[0] in EXPOSURE and words[1] not in _core.METAS:
        kind, word, valid = "meta-metric", words[1], _core.METAS
    elif len(words) == 2 and words[1] in _core.METAS:
        kind, word, valid = "statistic", words[0], EXPOSURE
    elif name.base in _set_bases() and name.attribute not in set_names:
        kind, word, valid = "attribute set", str(name.attribute), tuple(set_names)
    else:
        return fail_params(
            "measures",
            "hold rankfair's measure names",
            repr(given),
            hint="rankfair's measures are STAT-META with STAT in "
            f"{', '.join(EXPOSURE)} and META in {', '.join(_core.METAS)}, then "
            f"{', '.join(PREFIX)}, IAA and {', '.join(EE)}, with [SET] for a set's "
            "(rankfair.measure_names lists them)",
        )
    return fail(
        "measures",
        f"use a known {kind} ({', '.join(valid)})",
        f"{given!r}, whose {kind} {word!r} is unknown",
    )


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class _Options:
    relevance: str
    group_utility: str
    decay: float
    attention: float
    step: int
    discount: str
    epsilon: float
    patience: float
    stop: float
    complete: bool
    binarize: bool


def _open_unit(value, name: str) -> float:
    return check_real(value, name, low=0.0, high=1.0, closed="neither")


def _options(
    relevance, group_utility, decay, attention, step, discount, epsilon, patience, stop,
    complete, binarize,
) -> _Options:  # fmt: skip
    step = check_int(step, "step", minimum=1)
    discount = check_choice(discount, "discount", ("code", "paper"))
    if discount == "paper" and step == 1:
        raise fail("step", "be at least 2 with discount='paper' (log2(1) = 0)", "1")
    return _Options(
        check_choice(relevance, "relevance", ("binary", "graded")),
        check_choice(group_utility, "group_utility", ("ranked", "population")),
        _open_unit(decay, "decay"),
        _open_unit(attention, "attention"),
        step,
        discount,
        check_real(epsilon, "epsilon", low=0.0),
        _open_unit(patience, "patience"),
        _open_unit(stop, "stop"),
        check_flag(complete, "complete"),
        check_flag(binarize, "binarize"),
    )


def _is_file(value) -> bool:
    return isinstance(value, (str, bytes)) or hasattr(value, "__fspath__") or hasattr(value, "read")


def _sets(memberships, targets, protected):
    """The attribute sets: their data (AttributeData), targets, protected groups, hardness."""
    given = check_mapping(memberships, "memberships", "attribute set names", "membership inputs")
    if not given:
        raise fail("memberships", "name at least one attribute set", "an empty mapping")
    targets = (
        {}
        if targets is None
        else check_mapping(targets, "targets", "attribute set names", "distributions")
    )
    for name in targets:
        if name not in given:
            raise fail(
                "targets",
                f"name attribute sets of memberships ({', '.join(map(repr, given))})",
                repr(name),
            )
    if isinstance(protected, Mapping):
        for name in protected:
            if name not in given:
                raise fail(
                    "protected",
                    f"name attribute sets of memberships ({', '.join(map(repr, given))})",
                    repr(name),
                )
    elif protected is not None and (isinstance(protected, bool) or not isinstance(protected, int)):
        raise fail_type(
            "protected",
            "be a group number (1-based) or a mapping from set names to group numbers",
            repr(protected),
        )
    data, target_of, protected_of, hard = [], [], [], []
    for name, source in given.items():
        gm = as_memberships(source)
        g = gm.n_groups
        target = None
        if name in targets:
            value = targets[name]
            where = str(getattr(value, "name", value)) if _is_file(value) else None
            vector = read_golddistr(value) if where is not None else value
            try:
                target = check_distributions(vector, "targets")
            except (TypeError, ValueError) as exc:
                at = f"{where}: " if where else ""
                raise type(exc)(f"{at}the target of attribute set {name!r}: {exc}") from None
            if target.ndim != 1 or target.shape[0] != g:
                raise fail(
                    "targets",
                    f"give attribute set {name!r} a distribution over its {g} groups",
                    f"{where + ': ' if where else ''}shape {target.shape}",
                )
        try:
            attribute = AttributeSet(name, target if target is not None else np.full(g, 1 / g))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"memberships: attribute set {name!r}: {exc}") from None
        k = protected.get(name) if isinstance(protected, Mapping) else protected
        if k is not None:
            k = check_int(k, "protected", minimum=1, maximum=g) - 1
        data.append(AttributeData(attribute, gm))
        target_of.append(target)
        protected_of.append(k)
        hard.append(bool(((gm.matrix == 0) | (gm.matrix == 1)).all()))
    return data, target_of, protected_of, hard


# --------------------------------------------------------------------------- evaluate
@public
def evaluate(
    qrels,
    runs,
    memberships,
    /,
    *,
    measures: Sequence[str] | None = None,
    cutoffs: Sequence[int] | None = None,
    protected=None,
    targets=None,
    relevance: str = "binary",
    group_utility: str = "ranked",
    decay: float = 0.5,
    attention: float = 0.5,
    step: int = 10,
    discount: str = "code",
    epsilon: float = 1e-7,
    patience: float = 0.5,
    stop: float = 0.5,
    complete: bool = False,
    binarize: bool = False,
    unlisted: str = "error",
    order: str | None = None,
    duplicates: str = "error",
    n_jobs: int | None = None,
) -> ScoreTable:
    r"""Score runs with the classic fair-ranking measures, per topic.

    Parameters
    ----------
    qrels : Qrels, path, DataFrame, dict, records or None
        Relevance judgments (:func:`fairconv.io.as_qrels`); None when no measure asked
        for uses relevance (EXPU, EXPRU, ERBR, IAA, expected exposure).
    runs : run(s) or mapping of name to run
        Any input of :func:`fairconv.io.as_runs`: TREC runs, whose column 2 is each
        line's sample id, or in-memory runs with an optional ``sample`` column. Each
        (topic, sample) is one ranking; only expected exposure scores several samples
        of a topic.
    memberships : mapping of str to memberships
        Per attribute set (its name is the ``[SET]`` of the measure names), any input of
        :func:`fairconv.io.as_memberships`: a gmemb file, a DataFrame or a dict listing
        every candidate doc of each topic it covers (the topic's population).
    measures : sequence of str, optional
        The measures, by their printed names (``rND@10[gender]``, ``IAA``); a set
        measure named without its set is given for every set (``rND@10``). Default:
        each set's ``EXP-MinMaxRatio`` and ``NDKL``, with ``protected`` its ``rND``,
        ``rKL``, ``rRD`` (and ``FAIR`` for a hard set), with qrels its
        ``EXPU-MinMaxRatio``, ``IAA`` and ``EE-L/D/R-gERR`` per doc and per set.
    cutoffs : sequence of int, optional
        Depths: each measure named without a depth is also given at each (full depth
        stays); default none besides those the names ask for.
    protected : int or mapping of str to int, optional
        The protected group of rND, rKL, rRD and FAIR, 1-based (the k-th group column
        of the memberships), for every set or per set.
    targets : mapping of str to distribution, optional
        Per set, a target over its G groups (a golddistr file or a sequence) for NDKL
        (instead of the population's distribution) and FAIR (its protected share).
    relevance : {'binary', 'graded'}
        u(d) = 1 if its level > 0 (default), or level / L with L the highest level of
        the qrels.
    group_utility : {'ranked', 'population'}
        U_g of EXPU, EXPRU and ERBR over the ranked docs (FairRankTune's code) or over
        the set's population (its documentation; Singh and Joachims).
    decay, attention : float
        RBP's gamma (ERBE, ERBP, ERBR) and attention's p (ATT), in (0, 1).
    step : int
        rND/rKL/rRD's cut-off step, >= 1.
    discount : {'code', 'paper'}
        rND/rKL/rRD's discount log2(i + 1) (FairRank's code) or log2(i) (the paper).
    epsilon : float
        NDKL's smoothing (FairRankTune's 1e-7), >= 0.
    patience, stop : float
        Expected exposure's p and gERR's u, in (0, 1).
    complete : bool
        Expected exposure's target is every judged doc, not the relevant ones.
    binarize : bool
        Expected exposure counts every level above 0 as 1.
    unlisted : {'error', 'drop'}
        A ranked doc a set does not list for its topic is an error naming the run's
        file and line (default), or is left out of that set's rankings (later docs
        move up) with a notice.
    order : {None, 'file', 'score'}
        Rank order of a ranking's lines (as every family): None, files in line order
        and in-memory runs by score.
    duplicates : {'error', 'first'}
        A doc twice in one ranking is an error, or its first occurrence is kept.
    n_jobs : int, optional
        Threads: None for ``FAIRCONV_THREADS`` or every core, -1 every core, 1 none.

    Returns
    -------
    ScoreTable
        Per run and topic. A set measure has a row where the run ranks the topic and
        the set lists it (and, if it uses relevance, the qrels judge it); a topic the
        run lacks has no row and does not count in ``all`` (a notice). Undefined values
        are NaN with one notice per (run, measure) (counts in ``notices['undefined']``).
        Directions per measure (``table.directions``): ``STAT-LTwo`` is undirected.

    Raises
    ------
    ValueError
        For a bad option (naming it), a measure that is not rankfair's (listing the
        valid ones), one using relevance without qrels, rND/rKL/rRD/FAIR without a
        protected group, ARP or FAIR on a soft membership row of a ranked doc (naming
        its file and line), a ranked doc a set does not list (``unlisted='error'``),
        several samples of a topic for a measure other than expected exposure (naming
        the run and topic), and the readers' errors (file and line).
    TypeError
        For inputs of the wrong kind.

    Notes
    -----
    Each measure, with its equation, is in docs/rankfair.md and the array-level
    functions (:func:`group_values`, :func:`meta`, :func:`arp`, :func:`ndkl`,
    :func:`yang`, :func:`fair`, :func:`iaa`, :func:`expected_exposure`). ``@k`` keeps
    the first k docs of each ranking; the population, relevance and targets do not
    change with the depth.

    References
    ----------
    See docs/rankfair.md (FairRankTune 0.0.7; FairRank; expeval; Raj and Ekstrand,
    SIGIR 2022).

    Examples
    --------
    >>> from fairconv import rankfair
    >>> runs = {"sys": {"T1": {"a": 3.0, "c": 2.0, "b": 1.0}}}
    >>> groups = {"g": {"T1": {"a": [1, 0], "b": [1, 0], "c": [0, 1], "d": [0, 1]}}}
    >>> table = rankfair.evaluate(None, runs, groups, measures=["EXP-MaxMinDiff"])
    >>> table.measures, round(table.value("sys", "T1", "EXP-MaxMinDiff[g]"), 4)
    (('EXP-MaxMinDiff[g]',), 0.4345)
    """
    opts = _options(
        relevance, group_utility, decay, attention, step, discount, epsilon, patience, stop,
        complete, binarize,
    )  # fmt: skip
    join = join_options(order, duplicates, "uniform")
    unlisted = check_choice(unlisted, "unlisted", ("error", "drop"))
    given_cutoffs = () if cutoffs is None else check_cutoffs(cutoffs, "cutoffs")
    if measures is not None:
        measures = check_names(measures, "measures", "measure names")
    attributes, targets_of, protected_of, hard = _sets(memberships, targets, protected)
    set_names = [a.attribute.name for a in attributes]
    judged = qrels is not None
    asked_depths: set[int] = set(given_cutoffs)
    for m in measures or ():
        try:
            k = MeasureName.parse(m).cutoff
        except ValueError:
            continue  # named by _expand
        if k is not None:
            asked_depths.add(k)
    cut = [None, *sorted(asked_depths)]
    catalog = _catalog(cut, set_names)
    names = {str(c.name) for c in catalog}
    if measures is None:
        chosen = _defaults([None, *given_cutoffs], set_names, protected_of, hard, judged)
    else:
        chosen = _expand(measures, given_cutoffs, names, set_names, protected_of)
    for name in chosen:
        if name not in names:
            continue  # the route lists the valid ones
        parsed = MeasureName.parse(name)
        if parsed.base in RELEVANCE_BASES and not judged:
            raise fail(
                "qrels",
                f"be given for {name} (it uses relevance)",
                "None",
            )
        if parsed.base in PROTECTED:
            at = set_names.index(str(parsed.attribute))
            if protected_of[at] is None:
                raise fail(
                    "protected",
                    f"name the protected group of attribute set {parsed.attribute!r} for "
                    f"{name} (a 1-based group number)",
                    "None",
                )
    family = _RankFamily(opts, attributes, targets_of, protected_of, measures is None, unlisted)
    family.catalog = catalog
    table = evaluate_lists(
        qrels, runs, attributes, family, measures=chosen, join=join, n_jobs=n_jobs
    )
    return _undefined(table, family.why)


def _undefined(table: ScoreTable, why) -> ScoreTable:
    """One notice per (run, measure) with NaN values; their counts in the notices."""
    nan = np.isnan(table.values) & table.present
    counts: dict = {}
    if nan.any():
        topics = np.asarray(table.topics, dtype=object)
        for r, m in zip(*np.nonzero(nan.any(axis=0)), strict=True):
            where = nan[:, r, m]
            run, measure = table.runs[r], table.measures[m]
            n, rows = int(where.sum()), int(table.present[:, r, m].sum())
            notice(
                f"run {run!r}: {measure} is undefined (NaN) on {n} of its {rows} topics "
                f"({few(list(topics[where]))}): {why(measure)}; left out of its mean"
            )
            counts.setdefault(run, {})[measure] = n
    return table._replace(notices={**table.notices, "undefined": counts})


# --------------------------------------------------------------------------- the family
_WHY_META = {
    "MinMaxRatio": "every group's value is 0",
    "MaxMinRatio": "some group's value is 0 (e.g. a group absent from the ranking)",
}


def _why(measure: str) -> str:
    """Why a measure can be undefined (sections 3-6)."""
    base = MeasureName.parse(measure).base
    if base.startswith("EE-"):
        return "the topic has no target doc (no relevant doc; complete=True takes its judged docs)"
    if base == "IAA":
        return "the ranking is empty"
    if base == "NDKL":
        return "the ranking is empty, or epsilon is 0 and a prefix holds a group the target lacks"
    if base in _core.YANG:
        return (
            "the protected group is none or all of the population, or the ranking is "
            "shorter than the step"
        )
    if base == "FAIR":
        return "the ranking is empty"
    stat, meta = base.split("-")
    reasons = []
    if stat in ("EXPU", "EXPRU", "ERBR"):
        reasons.append("a group with members has no relevant ranked doc (U_g = 0)")
    if stat == "ARP":
        reasons.append("one group holds every ranked doc")
    if meta in _WHY_META:
        reasons.append(_WHY_META[meta])
    reasons.append("the ranking is empty" if not reasons else "")
    return " or ".join(r for r in reasons if r)


def _one_hot_rows(matrix: np.ndarray) -> np.ndarray:
    return ((matrix == 0) | (matrix == 1)).all(axis=1)


class _RankFamily(RankedFamily):
    """rankfair's measures and kernel on the ranked-list route (:func:`evaluate_lists`)."""

    item = "ranking"
    action = "they are left out"
    scores_missing = False

    def __init__(self, opts: _Options, attributes, targets, protected, defaults: bool, unlisted):
        self.opts = opts
        self.attributes = attributes
        self.targets = targets
        self.protected = protected
        self.defaults = defaults
        self.unlisted = unlisted
        self.catalog: list[Column] = []
        self.why = _why

    # ----------------------------------------------------------------- the route's hooks
    def columns(self, sets: Sequence[AttributeSet]) -> list[Column]:
        return self.catalog

    def check(self, qrels: Qrels, attributes) -> None:
        self.qrels = qrels

    def join(self, qrels, runs, attributes, options: JoinOptions, threads: int, wanted):
        self.wanted = wanted
        listed = tuple(
            m
            for m in range(len(attributes))
            if any(n.attribute == self._name(m) and not n.base.startswith("EE-") for n in wanted)
        )
        ranked = JoinOptions(
            options.order, options.duplicates, lookup="ranked", unlisted=self.unlisted,
            listed=listed,
        )  # fmt: skip
        return super().join(qrels, runs, attributes, ranked, threads, wanted)

    def _name(self, m: int) -> str:
        return self.attributes[m].attribute.name

    def notices(self, lists: RankedLists, wanted: frozenset) -> dict:
        detail = lists.detail
        assert detail is not None
        several = detail.n_samples > 1
        self.sampled_runs = np.zeros(len(lists.runs), dtype=bool)
        if several.any():
            one_ranking = sorted(
                (str(n) for n in wanted if not n.base.startswith("EE-")),
                key=lambda n: n,
            )
            for r in np.flatnonzero(several.any(axis=0)).tolist():
                counts = detail.n_samples[:, r][detail.n_samples[:, r] > 0]
                if one_ranking and not self.defaults:
                    t = int(np.argmax(several[:, r]))
                    raise ValueError(
                        f"run {lists.runs[r]!r} has {int(detail.n_samples[t, r])} samples "
                        f"(rankings) of topic {lists.topics[t]!r}: only expected exposure "
                        f"(EE-*) scores several rankings of a topic, and {one_ranking[0]} "
                        "takes one ranking per topic; give one sample id per topic (column 2 "
                        "of a TREC run, the sample column) or ask for EE measures only"
                    )
                only = "; it gets the EE measures only" if one_ranking else ""
                notice(
                    f"run {lists.runs[r]!r} has several samples (rankings) of some topics "
                    f"({int(counts.min())} to {int(counts.max())} per topic): expected "
                    f"exposure averages over them{only}"
                )
            self.sampled_runs = np.asarray(several.any(axis=0))
        return {"runs_with_samples": int(self.sampled_runs.sum())}

    def cells(self, lists: RankedLists, column: Column, cells: np.ndarray) -> np.ndarray:
        if column.name.base.startswith("EE-") or not self.sampled_runs.any():
            return cells
        return cells & ~self.sampled_runs

    def attach(self, lists: RankedLists) -> None:
        """Populations, relevance and the checks that need the join (soft rows, targets)."""
        detail = lists.detail
        assert detail is not None
        qrels, opts = self.qrels, self.opts
        n_t = len(lists.topics)
        top = qrels.max_level
        levels = qrels.levels.astype(np.float64)
        if opts.relevance == "graded":
            u_judged = levels / top if top > 0 else np.zeros(len(levels))
        else:
            u_judged = (levels > 0).astype(np.float64)
        self.u_of_judgment = np.append(u_judged, 0.0)  # -1: unjudged, u = 0
        self.u_entry = self.u_of_judgment[detail.judgment]
        wanted_sets = {n.attribute for n in self.wanted if n.attribute is not None}
        self.pop: list = []
        for m, data in enumerate(self.attributes):
            gm = data.memberships
            topic = detail.population_topics[m]
            sizes = _topic_sums(gm.matrix, topic, n_t)
            utility = None
            if opts.group_utility == "population":
                u = self.u_of_judgment[detail.population_judgments[m]]
                utility = _topic_sums(gm.matrix * u[:, None], topic, n_t)
            count = np.bincount(topic, minlength=n_t)
            yang = any(n.attribute == self._name(m) and n.base in _core.YANG for n in self.wanted)
            # the rows of each topic's population, for rND/rKL/rRD's normaliser
            order = np.argsort(topic, kind="stable") if yang else None
            start = np.concatenate(([0], np.cumsum(count)))
            self.pop.append((sizes, utility, count, order, start))
            if self._name(m) in wanted_sets:
                self._check_rows(lists, m)
                self._majority(lists, m, sizes, count)
        self._rank_in_sample(lists)
        self._judged_slots(lists)

    def _majority(self, lists: RankedLists, m: int, sizes, count) -> None:
        """RRD is meant for a minority protected group: a notice where it is not (4.2)."""
        pi, name = self.protected[m], self._name(m)
        if pi is None or not any(n.base == "rRD" and n.attribute == name for n in self.wanted):
            return
        cov = lists.covered[m]
        over = cov[sizes[cov, pi] > count[cov] / 2]
        if len(over):
            topics = [lists.topics[t] for t in over.tolist()]
            notice(
                f"attribute set {name!r}: the protected group is the majority of the "
                f"population on {len(topics)} of its {len(cov)} topics ({few(topics)}): rRD "
                "is meant for a minority protected group, and can exceed 1 there"
            )

    def _check_rows(self, lists: RankedLists, m: int) -> None:
        """ARP and FAIR need one-hot rows of ranked docs; EE's target docs must be listed."""
        detail = lists.detail
        assert detail is not None
        name, gm = self._name(m), self.attributes[m].memberships
        bases = {n.base for n in self.wanted if n.attribute == name}
        hard_only = sorted(b for b in bases if b == "FAIR" or b.startswith("ARP-"))
        if hard_only:
            rows = lists.rows[m]
            mark = np.zeros(len(gm.matrix), dtype=bool)
            mark[rows[rows >= 0]] = True
            ranked = np.flatnonzero(mark)
            soft = ranked[~_one_hot_rows(gm.matrix[ranked])]
            if len(soft):
                i = int(soft.min())
                raise FileFormatError(
                    gm.source,
                    gm.line(i),
                    f"{hard_only[0]} needs one-of-K (one-hot) memberships, and doc "
                    f"{gm.docs[i].decode()!r} of topic {gm.topics[gm.topic_ids[i]]!r}, ranked, "
                    f"has the soft row {gm.matrix[i].tolist()} in attribute set {name!r}",
                )
        if any(b.startswith("EE-") for b in bases) and self.unlisted == "error":
            qrels, opts = self.qrels, self.opts
            target = qrels.levels >= 0 if opts.complete else qrels.levels > 0
            covers = np.zeros(len(lists.topics), dtype=bool)
            covers[lists.covered[m]] = True
            t_index = {t: i for i, t in enumerate(lists.topics)}
            q_topic = np.array([t_index[t] for t in qrels.topics], dtype=np.int64)
            lacking = target & (detail.judged_rows[m] < 0) & covers[q_topic[qrels.topic_ids]]
            if lacking.any():
                i = int(np.argmax(lacking))
                raise FileFormatError(
                    qrels.source,
                    qrels.line(i),
                    f"doc {qrels.docs[i].decode()!r} of topic "
                    f"{qrels.topics[qrels.topic_ids[i]]!r}, a target doc of expected exposure, "
                    f"is not listed by the memberships of attribute set {name!r} "
                    f"({gm.source}); pass unlisted='drop' (--unlisted drop) to let it carry "
                    "exposure to no group",
                )

    def _rank_in_sample(self, lists: RankedLists) -> None:
        """Each entry's 0-based rank within its sample (its place when one sample)."""
        detail = lists.detail
        assert detail is not None
        n = len(lists.level)
        entry = np.arange(n, dtype=np.int64)
        # the first entry of each (topic, run): offsets of lists that hold entries
        head = np.zeros(n, dtype=bool)
        starts = lists.offsets[lists.lengths > 0]
        head[starts] = True
        if detail.sample is not None:
            head[1:] |= detail.sample[1:] != detail.sample[:-1]
        first = np.maximum.accumulate(np.where(head, entry, 0)) if n else entry
        self.rank = entry - first

    def _judged_slots(self, lists: RankedLists) -> None:
        """Expected exposure's doc axis: a topic's judged docs first, by qrels row."""
        qrels = self.qrels
        t_index = {t: i for i, t in enumerate(lists.topics)}
        q_topic = np.array([t_index[t] for t in qrels.topics], dtype=np.int64)
        topic_of_row = q_topic[qrels.topic_ids] if len(q_topic) else np.zeros(0, np.int64)
        order = np.argsort(topic_of_row, kind="stable")
        count = np.bincount(topic_of_row, minlength=len(lists.topics))
        start = np.concatenate(([0], np.cumsum(count)))
        slot = np.empty(len(order), dtype=np.int64)
        slot[order] = np.arange(len(order)) - start[topic_of_row[order]]
        self.judged = (order, start, count, slot)

    def jobs(self, lists: RankedLists, wanted: frozenset) -> list:
        """The blocks of topics to score, per set and per doc.

        Per set, blocks of its topics (all but EE); per-doc measures and every set's
        expected exposure in blocks of the qrels' topics (their run and target
        exposures computed once for all sets).
        """
        work: list = []
        for m, a in enumerate(self.attributes):
            name = self._name(m)
            if any(n.attribute == name and not n.base.startswith("EE-") for n in wanted):
                g = a.memberships.n_groups
                work += [(m, tt) for tt in lists.blocks(lists.covered[m], width=g)]
        if any(n.attribute is None or n.base.startswith("EE-") for n in wanted):
            judged = np.flatnonzero(self._in_qrels(lists))
            width = max([a.memberships.n_groups for a in self.attributes] + [1])
            work += [(None, tt) for tt in lists.blocks(judged, width=width)]
        return work

    def _in_qrels(self, lists: RankedLists) -> np.ndarray:
        judged = set(self.qrels.topics)
        return np.fromiter((t in judged for t in lists.topics), bool, len(lists.topics))

    # ----------------------------------------------------------------- scoring
    def score(self, lists: RankedLists, job, wanted: frozenset):
        m, tt = job
        idx, inside = lists._index(tt)
        out: list = []
        if m is None:
            u = np.where(inside, self.u_entry[idx] if len(self.u_entry) else 0.0, 0.0)
            for n in wanted:
                if n.base == "IAA":
                    out.append((n, _core.inequity_of_attention(u, _cut(inside, n.cutoff))))
            ee = [n for n in wanted if n.base.startswith("EE-")]
            out += self._expected_exposure(lists, tt, idx, inside, ee)
            return tt, out
        names = [n for n in wanted if n.attribute == self._name(m)]
        keep = inside & (lists.rows[m][idx] >= 0) if len(lists.level) else inside
        idx, inside = _compact(idx, keep)
        rows = lists.rows[m][idx] if len(lists.level) else np.zeros(idx.shape, np.int64)
        gm = self.attributes[m].memberships
        g = gm.n_groups
        x = np.where(inside[..., None], gm.matrix.take(np.maximum(rows, 0), axis=0), 0.0)
        u = np.where(inside, self.u_entry[idx] if len(self.u_entry) else 0.0, 0.0)
        sizes, utility, count, _, _ = self.pop[m]
        n_g = sizes[tt][:, None, :]
        present = n_g > 0
        pop_u = utility[tt][:, None, :] if self.opts.group_utility == "population" else None
        opts = self.opts
        per_group: dict = {}
        for n in names:
            base, k = n.base, n.cutoff
            if base.startswith("EE-"):
                continue
            live = _cut(inside, k)
            if base in PREFIX:
                out.append((n, self._prefix(m, tt, base, x, live, n_g, count)))
                continue
            stat, meta = base.split("-")
            if stat == "ARP":
                groups = np.argmax(x, axis=-1)
                v = _core.pair_representation(groups, live, g)
                ranked = np.stack([((groups == j) & live).any(-1) for j in range(g)], axis=-1)
                out.append((n, _core.meta_metric(v, ranked, meta)))
                continue
            if (stat, k) not in per_group:  # one statistic serves its seven meta-metrics
                per_group[stat, k] = _core.group_statistic(
                    x, n_g, u, live, stat, opts.decay, opts.attention, pop_u
                )
            v = per_group[stat, k]
            out.append((n, _core.meta_metric(v, np.broadcast_to(present, v.shape), meta)))
        return tt, out

    def _prefix(self, m, tt, base, x, live, n_g, count) -> np.ndarray:
        """NDKL, rND/rKL/rRD or FAIR of set m's rankings of a block (section 4)."""
        opts = self.opts
        target = self.targets[m]
        if base == "NDKL":
            if target is not None:
                q = np.broadcast_to(target, n_g.shape)
            else:
                q = n_g / np.maximum(count[tt], 1)[:, None, None]
            return _core.ndkl(x, q, live, opts.epsilon)
        pi = self.protected[m]
        mass = np.where(live, x[..., pi], 0.0)
        if base == "FAIR":
            p = (
                np.full(len(tt), target[pi])
                if target is not None
                else np.divide(n_g[:, 0, pi], np.maximum(count[tt], 1))
            )
            return _core.fair_prefix(mass, np.broadcast_to(p[:, None], mass.shape[:-1]), live)
        _, _, _, order, start = self.pop[m]
        size = count[tt]
        width = max(1, int(size.max(initial=0)))
        j = np.arange(width)
        inside_pop = j < size[:, None]
        rows = order[np.minimum(start[tt][:, None] + j, max(len(order) - 1, 0))]
        matrix = self.attributes[m].memberships.matrix
        pop = np.where(inside_pop, matrix[rows, pi] if len(order) else 0.0, 0.0)
        n = live.sum(axis=-1)
        topic = np.broadcast_to(np.arange(len(tt))[:, None], n.shape)  # the runs share it
        return _core.yang(
            mass, n, pop, size, base, opts.step, opts.discount, True, population_ids=topic
        )

    def _expected_exposure(self, lists, tt, idx, inside, wanted) -> list:
        """EE-L/D/R per doc and per group of each set, per model and depth.

        Expected exposure drops no doc (section 6): a target doc a set does not list
        carries exposure to no group (its row is zeros).
        """
        if not wanted:
            return []
        detail = lists.detail
        assert detail is not None
        opts, qrels = self.opts, self.qrels
        order, start, count, slot_of = self.judged
        b, runs = inside.shape[:2]
        entry = np.where(inside, idx, 0)
        judgment = np.where(inside, detail.judgment[entry] if len(entry.ravel()) else -1, -1)
        # unjudged docs take slots after the topic's judged ones, one per distinct doc
        same = entry if detail.same_doc is None else np.where(inside, detail.same_doc[entry], 0)
        unjudged_first = inside & (judgment < 0) & (same == entry)
        extra = np.cumsum(unjudged_first, axis=-1) - 1
        j_count = count[tt][:, None, None]
        own = np.where(judgment >= 0, slot_of[np.maximum(judgment, 0)], j_count + extra)
        # a repeat of an unjudged doc (another sample) takes its first occurrence's slot
        first_place = np.where(inside, same - lists.offsets[tt][..., None], 0)
        slot = np.where(
            (judgment < 0) & (same != entry),
            np.take_along_axis(own, np.minimum(first_place, own.shape[-1] - 1), axis=-1),
            own,
        )
        n_unjudged = unjudged_first.sum(axis=-1)
        width = max(1, int((count[tt][:, None] + n_unjudged).max(initial=0)))
        d = np.arange(width)
        is_judged = d < count[tt][:, None]  # (b, width)
        q_rows = order[np.minimum(start[tt][:, None] + d, max(len(order) - 1, 0))]
        level = np.where(is_judged, qrels.levels[q_rows] if len(order) else -1, -1)
        levels = np.broadcast_to(level[:, None, :], (b, runs, width)).astype(np.int64)
        # samples: (b, runs, S, K') by each entry's sample and rank within it
        sample = (
            np.zeros(entry.shape, np.int64)
            if detail.sample is None
            else np.where(inside, detail.sample[entry], 0)
        )
        s_max = max(1, int(detail.n_samples[tt].max(initial=0)))
        rank = np.where(inside, self.rank[entry] if len(entry.ravel()) else 0, 0)
        depth = max(1, int((rank + 1)[inside].max(initial=0)))
        doc_index = np.full((b, runs, s_max, depth), -1, dtype=np.int64)
        bi, ri, ki = np.nonzero(inside)
        doc_index[bi, ri, sample[bi, ri, ki], rank[bi, ri, ki]] = slot[bi, ri, ki]
        lengths = np.zeros((b, runs, s_max), dtype=np.int64)
        np.add.at(lengths, (bi, ri, sample[bi, ri, ki]), 1)
        n_samples = detail.n_samples[tt]
        groups: dict = {}  # the set of each attribute: its memberships of the doc slots
        for name in dict.fromkeys(n.attribute for n in wanted):
            if name is None:
                groups[None] = None
                continue
            m = [a.attribute.name for a in self.attributes].index(name)
            matrix = self.attributes[m].memberships.matrix
            g_rows = detail.judged_rows[m][q_rows] if len(order) else np.full(q_rows.shape, -1)
            listed = is_judged & (g_rows >= 0)
            memb = np.where(listed[..., None], matrix.take(np.maximum(g_rows, 0), axis=0), 0.0)
            groups[name] = np.broadcast_to(memb[:, None], (b, runs, width, matrix.shape[1]))
        out = []
        for k in sorted({n.cutoff for n in wanted}, key=lambda c: -1 if c is None else c):
            n_k = lengths if k is None else np.minimum(lengths, k)
            live = np.arange(depth) < n_k[..., None]
            for model in MODELS:
                asked = [n for n in wanted if n.cutoff == k and n.base.endswith(model)]
                if not asked:
                    continue
                sets = list(dict.fromkeys(n.attribute for n in asked))
                triples = _core.expected_exposures(
                    doc_index, levels, live, n_samples, [groups[a] for a in sets],
                    MODELS[model], opts.patience, opts.stop, opts.complete, opts.binarize,
                )  # fmt: skip
                value = {
                    (a, x): v
                    for a, triple in zip(sets, triples, strict=True)
                    for x, v in zip("LDR", triple, strict=True)
                }
                out += [(n, value[n.attribute, n.base.split("-")[1]]) for n in asked]
        return out


def _topic_sums(rows: np.ndarray, topic: np.ndarray, n_topics: int) -> np.ndarray:
    """(topics, G): the sums of (n, G) rows by their topic.

    A membership file lists a topic's docs in one stretch, as a rule: each stretch is
    summed in place (``np.add.reduceat``), then the stretches by topic.
    """
    out = np.zeros((n_topics, rows.shape[1]))
    if len(rows) == 0:
        return out
    heads = np.flatnonzero(np.concatenate(([True], topic[1:] != topic[:-1])))
    np.add.at(out, topic[heads], np.add.reduceat(rows, heads, axis=0))
    return out


def _cut(inside: np.ndarray, k: int | None) -> np.ndarray:
    """The positions within the first k of each ranking (all for None)."""
    if k is None or k >= inside.shape[-1]:
        return inside
    out = inside.copy()
    out[..., k:] = False
    return out


def _compact(idx: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries ``keep`` moved up within each ranking: (entries, inside) padded."""
    if keep.all() or keep.size == 0:
        return idx, keep
    n = keep.sum(axis=-1)
    depth = max(1, int(n.max(initial=0)))
    out = np.zeros(keep.shape[:-1] + (depth,), dtype=idx.dtype)
    place = np.cumsum(keep, axis=-1) - 1
    lead = np.nonzero(keep)
    out[lead[:-1] + (place[keep],)] = idx[keep]
    return out, np.arange(depth) < n[..., None]
