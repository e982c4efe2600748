r"""GFRC: turn-based relevance (R) and group fairness (GF) of conversations.

Sakai, "Fairness-based Evaluation of Conversational Search: A Pilot Study", EVIA 2023;
the NTCIR-18 FairWeb-2 CS subtask; restated with its Eq. 6/7/9 variants in the GFRC2
paper. For a conversation with relevant nuggets n ending at word ``wc(n)``:

.. math::
    R = \frac{1}{N} \sum_n pw(n)\, g(n),\qquad
    GF^m = \frac{1}{|T|} \sum_{t \in T} DistrSim(D^m_t \| D^{m*}),\qquad
    GF = \frac{\sum_m w_m GF^m}{\sum_m w_m},\qquad
    GFRC = w_0 R + \sum_m w_m GF^m

with ``pw = max(0, 1 - (wc-1)/L)``, ``N = (L+1)/2`` (eq6); ``pw = max(0, 1 - wc/L)``,
``N = (L+1)/2`` (eq7, what FairWeb-2 computed); ``pw = max(0, 1 - wc/L)``,
``N = (L-1)/2`` (eq9). Gain ``g = (2^l - 1)/2^lmax`` (exp) or ``l/lmax`` (linear). ``D_t``
is the mean membership of the relevant nuggets of system turn t (independent) or of
all relevant nuggets up to turn t (cumulative); T is the set of turns with a relevant
nugget, or every system turn when empty turns count as uniform. The weights
``w_0..w_M`` (R first) sum to 1; by default they are equal, which makes GFRC the plain
mean of R and every GF^m (the FairWeb-2 summary) and GF the mean of the GF^m. GF's own
weights are ``w_m / (1 - w_0)``; when ``w_0 = 1`` (GFRC = R) the weights say nothing
of them, and GF keeps its default, the plain mean of the GF^m.

Two entry points, as in every measure family: :func:`gfrc` returns a dict of arrays
(one value per conversation), :func:`evaluate` a :class:`~fairconv.results.ScoreTable`
by run and topic. Options are those of :class:`~fairconv.conversation.ConversationOptions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from . import _core
from ._records import Record, record
from ._validation import fill_doc, public
from .conversation import BATCH_DOC, PRESET_DOC, PRESETS, measure_setup, option_docs
from .io._conversation_records import ConversationBatch, _raise_first
from .results import MeasureName, ScoreTable, pick

__all__ = ["gfrc", "evaluate", "turns", "Turns", "PRESETS"]


_OPTIONS = option_docs("L", "lmax", "dedupe", "variant", "gain", "method", "empty")
_WEIGHTS = """weights : sequence of float, optional
    M + 1 weights, w_0 for R then one per attribute set; finite, non-negative,
    summing to 1. Default equal. GF weighs the GF^m by w_1..w_M renormalised to
    sum to 1; with w_0 = 1 (GFRC = R) GF is the plain mean of the GF^m."""


def _setup(batch, preset, weights, given):
    opts, w = measure_setup(batch, preset, weights, given)
    level = batch.effective_levels(opts.lmax, dedupe=opts.dedupe)
    batch.check_relevant_groups(level > 0)
    return opts, w, level


class _ConversationRows(Record):
    """Records with one row per (conversation, turn or cluster), by run and topic.

    ``conversation`` indexes ``runs`` and ``topics``; ``achieved`` and ``sim`` hold one
    array per attribute set.

    The table names each row's run and topic (the conversation index when the names
    are not known), then the fields of ``_BEFORE``, D and DistrSim per attribute set,
    then the fields of ``_AFTER``.
    """

    conversation: np.ndarray
    achieved: dict
    sim: dict
    runs: tuple[str, ...]
    topics: tuple[str, ...]
    _BEFORE: ClassVar[tuple[str, ...]] = ()
    _AFTER: ClassVar[tuple[str, ...]] = ()

    def _table(self):
        """One row per row of the arrays: run, topic, the values, D and DistrSim."""
        conv = self.conversation.tolist()
        out: dict = (
            {"run": [self.runs[c] for c in conv], "topic": [self.topics[c] for c in conv]}
            if self.runs
            else {"conversation": conv}
        )
        out.update({name: getattr(self, name) for name in self._BEFORE})
        for name, sim in self.sim.items():
            out[str(MeasureName("D", None, name))] = [
                tuple(r) for r in self.achieved[name].tolist()
            ]
            out[str(MeasureName("DistrSim", None, name))] = sim
        out.update({name: getattr(self, name) for name in self._AFTER})
        return out

    def _summary(self):
        """Counts rather than values: rows, conversations, runs, attribute sets."""
        conv = sorted(set(self.conversation.tolist()))
        summary: list = [("rows", len(self.conversation)), ("conversations", len(conv))]
        if self.runs:
            summary.append(("runs", list(dict.fromkeys(self.runs[c] for c in conv))))
        return [*summary, ("attribute_sets", list(self.sim))]


@record(eq=False)
class Turns(_ConversationRows):
    """Per-turn GF cells: one row per (conversation, system turn with a relevant nugget).

    As in Table 4 (b)-(c) of the GFRC2 paper and Table 2 of EVIA 2023. ``repr`` gives
    counts; in a notebook the record shows a table of at most 20 rows
    (run, topic, turn, D and DistrSim per attribute set), as ``to_frame()`` gives it
    whole; ``to_dict()`` gives plain Python values.

    Parameters
    ----------
    conversation : ndarray of int, shape (rows,)
        The conversation of each row, an index into ``runs`` and ``topics``.
    turn : ndarray of int, shape (rows,)
        The system turn, 1-based.
    achieved : dict of str to ndarray of float, shape (rows, G)
        The turn's achieved distribution D, per attribute set.
    sim : dict of str to ndarray of float, shape (rows,)
        Its DistrSim against the set's target, per attribute set.
    runs, topics : tuple of str, optional
        The run and topic of each conversation of the batch (empty when not known).

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.gfrc import turns
    >>> t = turns(load_case("r112").conversations, preset="gfrc2-paper")
    >>> t  # doctest: +ELLIPSIS
    Turns(rows=3, conversations=2, runs=[...] (2), attribute_sets=['PRONOUN', 'HINDEX'] (2))
    >>> t.to_frame()[["run", "turn", "DistrSim[PRONOUN]"]].round(4)
                    run  turn  DistrSim[PRONOUN]
    0  COPWA-CS-QD-MN-2     1             0.7331
    1     ORG-CS-D-MN-1     1             0.5409
    2     ORG-CS-D-MN-1     2             0.8091
    """

    conversation: np.ndarray
    turn: np.ndarray
    achieved: dict
    sim: dict
    runs: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    _BEFORE = ("turn",)


@public
@fill_doc(batch=BATCH_DOC, preset=PRESET_DOC, options=_OPTIONS)
def turns(
    batch: ConversationBatch,
    /,
    *,
    preset: str | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
    variant: str | None = None,
    gain: str | None = None,
    method: str | None = None,
    empty: str | None = None,
) -> Turns:
    """The per-turn achieved distributions and DistrSim values behind GF^m.

    Parameters
    ----------
    {batch}
    {preset}
    {options}

    Returns
    -------
    Turns
        One row per (conversation, system turn with a relevant nugget).

    Raises
    ------
    ValueError
        As :func:`gfrc`.

    See Also
    --------
    gfrc : the measures these turns make.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.gfrc import turns
    >>> t = turns(load_case("r112").conversations, preset="gfrc2-paper")
    >>> t.conversation.tolist(), t.turn.tolist()
    ([0, 1, 1], [1, 1, 2])
    >>> [round(x, 4) for x in t.sim["PRONOUN"].tolist()]
    [0.7331, 0.5409, 0.8091]
    """
    given = dict(L=L, lmax=lmax, dedupe=dedupe, variant=variant, gain=gain, method=method)
    opts, _, level = _setup(batch, preset, None, dict(given, empty=empty))
    return _turns(batch, level, opts)


def _turns(batch, level, opts) -> Turns:
    rel = np.flatnonzero(level > 0)
    conv = batch.conversation_of[rel]
    turn = batch.turn[rel]
    if opts.empty == "uniform":
        unknown = batch.system_turns < 0
        if unknown.any():
            c = int(np.argmax(unknown))
            raise ValueError(
                f"{batch.sources[c]}: empty='uniform' needs the turn structure "
                "(text, or turns and length); this record gives only each "
                "nugget's turn"
            )
    decreasing = np.zeros(len(batch.turn), dtype=bool)
    decreasing[rel[1:]] = (conv[1:] == conv[:-1]) & (turn[1:] < turn[:-1])
    _raise_first(decreasing, batch, "its turn is before the turn of the nugget before it")
    # one group of relevant nuggets per (conversation, system turn)
    starts = _core.group_starts(np.column_stack([conv, turn]))
    ends = np.append(starts[1:], len(rel)) - 1 if len(starts) else starts
    group_conv = conv[starts]
    conv_first = _core.group_starts(conv)
    achieved, sim = {}, {}
    for a in batch.attribute_sets:
        memb = batch.memberships[a.name][rel]
        if opts.method == "independent":
            d = _core.segment_means(memb, starts)
        else:
            d = _core.running_segment_means(memb, conv_first)[ends]
        achieved[a.name] = d
        sim[a.name] = _core.distr_sim(d, a.target, a.divergence)
    return Turns(group_conv, turn[starts], achieved, sim, tuple(batch.runs), tuple(batch.topics))


@public
@fill_doc(batch=BATCH_DOC, preset=PRESET_DOC, weights=_WEIGHTS, options=_OPTIONS)
def gfrc(
    batch: ConversationBatch,
    /,
    *,
    preset: str | None = None,
    weights: Sequence[float] | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
    variant: str | None = None,
    gain: str | None = None,
    method: str | None = None,
    empty: str | None = None,
) -> dict[str, np.ndarray]:
    r"""R, GF per attribute set, GF and GFRC of every conversation of a batch.

    Parameters
    ----------
    {batch}
    {preset}
    {weights}
    {options}

    Returns
    -------
    dict of str to ndarray (conversations,)
        ``R``, ``GF[<set>]``, ``GF``, ``GFRC``; all in [0, 1] (GF with RNOD against a
        target with zero entries can be negative), higher is better. A conversation
        without relevant nuggets scores 0 on every measure.

    Raises
    ------
    ValueError
        For bad options or weights, a nugget above ``lmax``, a relevant nugget without
        a membership, or ``empty='uniform'`` without the turn structure.

    See Also
    --------
    evaluate : the same measures as a table by run and topic.
    turns : the per-turn values behind GF^m.

    Notes
    -----
    .. math::
        R = \frac{1}{N} \sum_n pw(n)\, g(n),\qquad
        GFRC = w_0 R + \sum_m w_m GF^m

    The GFRC2 paper's Eq. 6 (``pw = 1 - (wc-1)/L``) is what it intends; the FairWeb-2
    CS official values were computed with Eq. 7 (``pw = 1 - wc/L``), the default
    preset. Eq. 9 is the variant whose normaliser ``(L-1)/2`` matches Eq. 7's weights.

    References
    ----------
    T. Sakai, "Fairness-based Evaluation of Conversational Search: A Pilot Study",
    EVIA 2023, Eqs. 1-4; the GFRC2 paper, Eqs. 6, 7, 9 and Tables 4-5.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> case = load_case("r112")
    >>> out = gfrc(case.conversations, preset="gfrc2-paper")
    >>> [round(x, 6) for x in out["GFRC"].tolist()]
    [0.382158, 0.362287]
    """
    given = dict(
        L=L, lmax=lmax, dedupe=dedupe, variant=variant, gain=gain, method=method, empty=empty
    )
    return dict(_scores(batch, preset, weights, given))


def _scores(batch, preset, weights, given) -> list[tuple[str, np.ndarray]]:
    """(measure, values per conversation) of :func:`gfrc`, in output order."""
    opts, w, level = _setup(batch, preset, weights, given)
    rel = np.flatnonzero(level > 0)
    n_conv = len(batch)
    conv = batch.conversation_of[rel]
    r = _core.relevance(
        conv,
        batch.end[rel],
        level[rel],
        n_conv,
        L=opts.L,
        variant=opts.variant,
        kind=opts.gain,
        lmax=opts.lmax,
    )
    per_turn = _turns(batch, level, opts)
    out = [("R", r)]
    parts = []
    for a in batch.attribute_sets:
        if opts.empty == "uniform":  # every system turn counts, an empty one as uniform
            uniform = float(
                _core.distr_sim(np.full(a.n_groups, 1.0 / a.n_groups), a.target, a.divergence)
            )
            gf = _core.turn_mean(
                per_turn.conversation, per_turn.sim[a.name], n_conv, batch.system_turns, uniform
            )
        else:
            gf = _core.turn_mean(per_turn.conversation, per_turn.sim[a.name], n_conv)
        out.append((str(MeasureName("GF", None, a.name)), gf))
        parts.append(gf)
    stack = np.stack(parts) if parts else np.zeros((0, n_conv))
    out.append(("GF", _core.gf_of_sets(stack, w)))
    out.append(("GFRC", _core.combine(np.vstack([r[None], stack]), w)))
    return out


@public
@fill_doc(batch=BATCH_DOC, preset=PRESET_DOC, weights=_WEIGHTS, options=_OPTIONS)
def evaluate(
    batch: ConversationBatch,
    /,
    *,
    measures: Sequence[str] | None = None,
    preset: str | None = None,
    weights: Sequence[float] | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
    variant: str | None = None,
    gain: str | None = None,
    method: str | None = None,
    empty: str | None = None,
) -> ScoreTable:
    """GFRC scores per run and topic (one conversation per run and topic).

    Parameters
    ----------
    {batch}
    measures : sequence of str, optional
        Only these measures, by the names the output prints (``GFRC``,
        ``GF[PRONOUN]``...); default all.
    {preset}
    {weights}
    {options}

    Returns
    -------
    ScoreTable
        The measures of :func:`gfrc` by run and topic. A run without a conversation
        for a topic that another run has scores 0 there, with a notice naming the run
        and the topics (:meth:`~fairconv.io.ConversationBatch.table`).

    Raises
    ------
    ValueError
        As :func:`gfrc`; for an unknown measure, or two conversations of one run for
        one topic.

    See Also
    --------
    gfrc : the same measures per conversation, as arrays.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> table = evaluate(load_case("r112").conversations, preset="gfrc2-paper")
    >>> round(table.value("COPWA-CS-QD-MN-2", "R112", "GFRC"), 6)
    0.382158
    """
    given = dict(
        L=L, lmax=lmax, dedupe=dedupe, variant=variant, gain=gain, method=method, empty=empty
    )
    scores = _scores(batch, preset, weights, given)  # checks batch before batch.table
    return pick(batch.table(scores), measures)
