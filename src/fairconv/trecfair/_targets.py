"""Targets: per-topic distributions over the cells of an intersection, built or read.

:class:`Targets` holds them factored (nothing of the size of the intersection);
:class:`TopicTargets` names their topics, dimensions and categories. They are built from
the relevant pages as the organisers' alignment notebooks did (:func:`build_targets`
from the files, :func:`targets_from_alignments` from padded arrays, both through one
builder over the relevant pages, flat) or read (:func:`read_targets`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _core
from .._accel import KeyTable
from .._files import write_output
from .._validation import (
    SUM_TOLERANCE,
    as_float_array,
    at_first,
    check_bool_array,
    check_distributions,
    check_int_array,
    check_int_choice,
    check_lengths,
    check_one_per,
    check_shape,
    fail,
    notice,
    public,
)
from ..io import _trecfair as _io
from . import _inputs
from ._arrays import check_alignments, counted_rows


class Targets:
    r"""Per-topic target distributions over the cells of an intersection, held factored.

    A target built from a topic's relevant pages (:func:`targets_from_alignments`) is

    .. math::
        \tau(a, r) = f(a)\, T(a, r) + g(a)\, \mu(r)

    with ``T`` the (sparse) relevant-set distribution, ``a`` the cell's part over the
    dimensions with a background, ``r`` over the others, ``mu`` the marginal of ``T``
    over ``r`` and ``f``, ``g`` the background mixing (spec section 6). Nothing of the
    size of the intersection is stored; :meth:`toarray` materialises it. Built by
    :func:`targets_from_alignments` and :func:`build_targets`, read by
    :func:`read_targets`.

    Parameters
    ----------
    batch_shape, cell_shape : tuple of int
        As the attributes.
    keys, tvals : ndarray
        The non-zero ``T``: sorted keys ``topic * n_cells + cell`` and their values.
    f, g : ndarray, shape (topics, A)
        The mixing of each topic and background cell ``a``; NaN rows: undefined.
    mu_keys, mu_vals : ndarray
        The non-zero ``mu``: sorted keys ``topic * R + r`` and their values.
    bg : tuple of int
        The dimensions with a background.

    Attributes
    ----------
    batch_shape : tuple of int
        The leading (topic) shape.
    cell_shape : tuple of int
        ``(G_1, ..., G_m)``.
    total : ndarray, shape batch_shape
        Sum of each target over the cells (NaN where the target is undefined).
    defined : ndarray of bool, shape batch_shape
        False where the relevant pages give the target no mass (spec 6.2).

    Examples
    --------
    >>> rows = [[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]]
    >>> t = targets_from_alignments(rows, lengths=[2], task=1, backgrounds=[[0.25, 0.75]])
    >>> t.batch_shape, t.cell_shape, t.toarray().tolist()
    ((1,), (3,), [[0.5, 0.3125, 0.1875]])
    """

    __slots__ = (
        "batch_shape",
        "cell_shape",
        "total",
        "defined",
        "_sumsq",
        "_keys",
        "_tvals",
        "_f",
        "_g",
        "_mu_keys",
        "_mu_vals",
        "_bg",
    )

    def __init__(self, batch_shape, cell_shape, keys, tvals, f, g, mu_keys, mu_vals, bg):
        self.batch_shape = tuple(batch_shape)
        self.cell_shape = tuple(cell_shape)
        self._keys, self._tvals = keys, tvals
        self._f, self._g = f, g
        self._mu_keys, self._mu_vals = mu_keys, mu_vals
        self._bg = tuple(bg)
        total, sumsq = _core.factored_sums(self._parts(), math.prod(self.batch_shape))
        defined = np.isfinite(f).all(axis=1)
        self.defined = defined.reshape(self.batch_shape)
        self.total = np.where(defined, total, np.nan).reshape(self.batch_shape)
        self._sumsq = np.where(defined, sumsq, np.nan)

    def __repr__(self) -> str:
        return f"Targets(batch_shape={self.batch_shape}, cell_shape={self.cell_shape})"

    def _parts(self) -> _core.Factored:
        return _core.Factored(
            self._keys,
            self._tvals,
            self._f,
            self._g,
            self._mu_keys,
            self._mu_vals,
            self.cell_shape,
            self._bg,
        )

    def _at(self, topics: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Target values of flat topic indices at flat cell indices (NaN if undefined)."""
        return _core.factored_values(self._parts(), topics, cells)

    @public
    def toarray(self) -> np.ndarray:
        """The dense targets, shape ``batch_shape + cell_shape`` (NaN where undefined).

        Returns
        -------
        ndarray of float64, shape batch_shape + cell_shape
            As large as the intersection.

        Examples
        --------
        >>> t = targets_from_alignments([[[[0.0, 1.0], [1.0, 0.0]]]], lengths=[2], task=1)
        >>> t.toarray().tolist()
        [[0.5, 0.5]]
        """
        nt = math.prod(self.batch_shape)
        n_cells = math.prod(self.cell_shape)
        topics = np.repeat(np.arange(nt, dtype=np.int64), n_cells)
        cells = np.tile(np.arange(n_cells, dtype=np.int64), nt)
        return self._at(topics, cells).reshape(self.batch_shape + self.cell_shape)


class _Dense:
    """Explicit targets, flattened to (targets, cells)."""

    def __init__(self, arr: np.ndarray, n_targets: int):
        self.flat = arr.reshape(n_targets, -1)
        with np.errstate(over="ignore"):  # a sum past float64: inf, found by the measures
            self.total = self.flat.sum(axis=1)
            self._sumsq = np.einsum("ij,ij->i", self.flat, self.flat)

    def _at(self, topics, cells):
        return self.flat[topics, cells]


def sparse_targets(n_topics, sizes, keys, values, undefined=None) -> Targets:
    """Explicit targets given as sorted non-zero (topic * n_cells + cell) keys.

    ``undefined`` (topics,) marks the topics whose target is undefined (NaN).
    """
    f = np.ones((n_topics, 1))
    g = np.zeros((n_topics, 1))
    if undefined is not None:
        f[undefined] = g[undefined] = np.nan
    return Targets(
        (n_topics,),
        tuple(sizes),
        np.asarray(keys, dtype=np.int64),
        np.asarray(values, dtype=np.float64),
        f,
        g,
        np.zeros(0, dtype=np.int64),
        np.zeros(0),
        (),
    )


def too_many_cells(name: str, n_topics: int, sizes) -> ValueError:
    """The error of (topic, cell) pairs past int64's keys (:func:`_io.cells_fit`)."""
    return fail(
        name,
        f"give at most {_io._KEY_LIMIT} (topic, cell) pairs: the topics times the "
        "product of the dimensions' category counts",
        f"{n_topics} topics x {math.prod(sizes)} cells",
    )


# --------------------------------------------------------------------------- weights
@public
def page_weights(levels, /, *, lengths, edition: int = 2022) -> np.ndarray:
    r"""Task 2 weights of relevant pages from their work levels (the ideal exposure).

    Levels are ordered Stub, Start, C, B, GA, FA (codes 0..5, most work needed first).
    With ``n_l`` relevant pages at level ``l``, level ``l`` takes the ideal positions
    ``P_l = n_{<l} + 1 .. n_{<l} + n_l`` and each of its pages weighs

    .. math::
        w(d) = \frac{1}{n_l} \sum_{k \in P_l} \delta(k).

    Parameters
    ----------
    levels : array_like of int, shape (..., R)
        Work level code (0..5) of each relevant page; -1 for a page without a level.
        Positions at or beyond ``lengths`` are ignored.
    lengths : array_like of int, shape (...)
        Number of relevant pages of each topic.
    edition : {2022, 2021}
        2021 leaves pages without a level out (weight 0, no position), as the official
        join does; 2022 refuses them (the official target would be NaN).

    Returns
    -------
    ndarray of float64, shape (..., R)
        Weights in (0, 1]; 0 at padding (and at 2021 pages without a level).

    Raises
    ------
    ValueError
        For a level outside -1..5, a 2022 page without one, or bad lengths.

    Notes
    -----
    Spec section 6.1; ``qw_tgt_exposure`` in ``Task2Alignment.py`` (2022) and
    ``Alignments.py`` (2021), whose float32 mean is taken here in float64 of the float32
    discounts (at most about 1e-7 relative apart).

    Examples
    --------
    >>> page_weights([[0, 5, 0]], lengths=[3]).round(6).tolist()
    [[1.0, 0.63093, 1.0]]
    """
    edition = check_int_choice(edition, "edition", _io.EDITIONS)
    lev = check_int_array(levels, "levels")
    if lev.ndim < 1:
        raise fail("levels", "have a page axis", f"shape {lev.shape}")
    n = check_lengths(lengths, lev.shape[:-1], "lengths", limit=lev.shape[-1])
    return _padded_weights(lev, n, edition)


def _padded_weights(lev: np.ndarray, n: np.ndarray, edition: int) -> np.ndarray:
    """:func:`page_weights` of checked arrays."""
    R = lev.shape[-1]
    mask = np.arange(R) < n[..., None]
    bad = mask & ((lev < -1) | (lev > 5))
    if bad.any():
        raise fail("levels", "be a work level code in 0..5 (or -1)", f"{int(lev[bad][0])}")
    missing = mask & (lev < 0)
    if edition == 2022 and missing.any():
        raise fail("levels", "give every relevant page a level (2022)", f"none{at_first(missing)}")
    used = np.flatnonzero(mask & (lev >= 0))
    out = np.zeros(lev.shape)
    out.reshape(-1)[used] = _core.work_level_weights(
        used // R, lev.reshape(-1)[used], math.prod(lev.shape[:-1])
    )
    return out


# --------------------------------------------------------------------------- building
@public
def targets_from_alignments(
    alignments,
    /,
    *,
    lengths,
    task: int,
    edition: int = 2022,
    known=None,
    levels=None,
    backgrounds=None,
) -> Targets:
    r"""Build per-topic targets from the relevant pages, as the organisers' notebooks did.

    1. Page weights: 1 (Task 1) or :func:`page_weights` of the work levels (Task 2).
    2. Relevant-set distribution over the cells: 2022
       :math:`T = \sum_{d \in R} w(d) A(d) / \sum_{d \in R} w(d)`; 2021
       :math:`T' = \sum_{d \in R,\ known} w(d) A(d)`, the all-unknown cell u cleared for
       Task 1, :math:`T = T' / \sum T'`.
    3. Background mixing: split a cell into ``(a, r)``, ``a`` over the dimensions with a
       background, with mass :math:`M(a) = \sum_r T(a, r)`, marginal
       :math:`\mu(r) = \sum_a T(a, r)`, imputed :math:`\tilde T(a, r) = T(a, r)` if
       :math:`M(a) > 0` else :math:`\mu(r)` and spread
       :math:`\theta(a, r) = \tilde T(a, r) / \sum_{r'} \tilde T(a, r')`. For each
       non-empty set K of background dimensions, the block :math:`B_K` (dimensions in K at
       a known category, the other background dimensions at their unknown one) with mass
       :math:`c_K` becomes

       .. math::
           T^*(c) = T(c)/2 + c_K \prod_{j \in K} \beta_j(c_j)\, \theta(a, r) / 2,

       and cells whose background dimensions are all unknown keep T. Not renormalised.

    Parameters
    ----------
    alignments : sequence of array_like, each (..., R, G_j)
        Alignment rows of each topic's relevant pages (padded to R), one array per
        dimension. Category 0 is the unknown category of a dimension with a background
        (and of every dimension in 2021).
    lengths : array_like of int, shape (...)
        Number of relevant pages per topic.
    task : {1, 2}
    edition : {2022, 2021}
    known : array_like of bool, shape (..., R), optional
        Whether the alignment tables list the page (default: all). 2021 skips unknown
        pages; 2022 refuses them (the official code fails on them).
    levels : array_like of int, shape (..., R)
        Work level codes (0..5 = Stub..FA; -1 none), required for Task 2.
    backgrounds : sequence of (array_like or None), optional
        Per dimension, None or the background distribution over categories 1..G_j-1
        (its known categories), summing to 1.

    Returns
    -------
    Targets
        The targets tau (batch shape ``...``); a topic whose relevant pages give no mass
        is undefined (NaN), with a :class:`~fairconv.FairconvWarning` naming its index.

    Raises
    ------
    ValueError
        For bad shapes, values, levels or backgrounds, a topic without relevant pages,
        or an unknown relevant page in 2022.

    Notes
    -----
    Spec section 6; ``Task1Alignment.py`` and ``Task2Alignment.py`` (``query_xalign``,
    ``avg_with_bg``, 2022), ``Alignments.py`` (``query_xalign``, ``query_xideal``, 2021).
    The rule is per cell, so the background dimensions may come in any order (the
    official notebooks need them first).

    Examples
    --------
    One dimension with a background: T on the unknown category, T/2 + (known mass)
    beta/2 on the others.

    >>> rows = [[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]]
    >>> t = targets_from_alignments(rows, lengths=[2], task=1, backgrounds=[[0.25, 0.75]])
    >>> t.toarray().tolist()
    [[0.5, 0.3125, 0.1875]]
    """
    task = check_int_choice(task, "task", _io.TASKS)
    edition = check_int_choice(edition, "edition", _io.EDITIONS)
    rows = check_alignments(alignments, None, "alignments")
    lead = rows[0].shape[:-1]
    sizes = tuple(a.shape[-1] for a in rows)
    batch, R = lead[:-1], lead[-1]
    nt = math.prod(batch)
    if not _io.cells_fit(nt, sizes):
        raise too_many_cells("alignments", nt, sizes)
    n = check_lengths(lengths, batch, "lengths", limit=R)
    if (n == 0).any():
        raise fail(
            "lengths", "be at least 1 (a topic needs a relevant page)", f"0{at_first(n == 0)}"
        )
    mask = np.arange(R) < n[..., None]
    kn = np.ones(lead, bool) if known is None else check_bool_array(known, "known")
    kn = check_shape(kn, lead, "known", "one flag per relevant page")
    if edition == 2022 and (mask & ~kn).any():
        raise fail(
            "known", "be True for every relevant page (2022)", f"False{at_first(mask & ~kn)}"
        )
    if edition == 2021:
        small = [j for j, s in enumerate(sizes) if s < 2]
        if small:
            raise fail(
                f"alignments[{small[0]}]",
                "have an unknown category 0 and a known one (2021)",
                f"{sizes[small[0]]} category",
            )
    if task == 2:
        if levels is None:
            raise fail("levels", "be given for Task 2", "None")
        lev = check_shape(
            check_int_array(levels, "levels"), lead, "levels", "one level per relevant page"
        )
        w = _padded_weights(lev, n, edition)
    else:
        w = mask.astype(np.float64)
    bgs = _check_backgrounds(backgrounds, sizes)
    use = np.flatnonzero(mask & kn & (w > 0))
    norm = w.reshape(nt, R).sum(axis=1) if edition == 2022 else None
    built, undefined, overflow = targets_of_pages(
        batch,
        sizes,
        use // R,
        w.reshape(-1)[use],
        counted_rows(rows, use, "alignments"),
        norm,
        task=task,
        edition=edition,
        backgrounds=bgs,
    )
    for bad, why in ((undefined & ~overflow, "give the target no mass"), (overflow, _OVERFLOW)):
        if bad.any():
            idx = [tuple(int(i) for i in np.unravel_index(t, batch)) for t in np.flatnonzero(bad)]
            notice(
                f"the relevant pages of topic(s) at index {', '.join(map(str, idx))} {why}; "
                "their target is undefined (NaN), as is every measure that uses it."
            )
    return built


_OVERFLOW = "give the target sums beyond float64 (alignment values too large)"


def _check_backgrounds(backgrounds, sizes) -> dict[int, np.ndarray]:
    """Per dimension with a background, its weights over categories 1..G_j-1."""
    out: dict[int, np.ndarray] = {}
    if backgrounds is None:
        return out
    backgrounds = check_one_per(backgrounds, "backgrounds", "dimension", count=len(sizes))
    for j, b in enumerate(backgrounds):
        if b is None:
            continue
        name = f"backgrounds[{j}]"
        arr = as_float_array(b, name)
        check_shape(arr, (sizes[j] - 1,), name, "one weight per known category", exact=True)
        out[j] = check_distributions(arr, name, min_groups=1)
    return out


def targets_of_pages(batch, sizes, group, weights, rows, norm, *, task, edition, backgrounds):
    """Targets from the relevant pages that count, flat (spec 6.2 and 6.3).

    Page i of topic ``group[i]`` (ascending) weighs ``weights[i]`` with sparse rows
    ``rows``; ``norm`` the sum of the weights of each topic's relevant pages (2022),
    None for 2021 (the sum of T'). Returns (Targets, undefined, overflow), the last two
    per topic: no mass, and sums past float64 (also undefined).
    """
    nt = math.prod(batch)
    n_cells = math.prod(sizes)
    parts = [
        (g + g0, c, v) for g0, _, g, c, v in _core.exposure_blocks(rows, sizes, weights, group, nt)
    ]
    if parts:
        g, c, v = (np.concatenate(x) for x in zip(*parts, strict=True))
    else:
        g, c, v = np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    if edition == 2021 and task == 1:
        keep = c != 0  # the all-unknown cell is the first cell
        g, c, v = g[keep], c[keep], v[keep]
    mass = np.bincount(g, weights=v, minlength=nt)
    if norm is None:
        norm = mass
    overflow = ~np.isfinite(mass) | ~np.isfinite(norm)
    undefined = ~(mass > 0) | overflow
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(undefined[g], 0.0, v / norm[g])
    f, gm, mu_key, mu_val = _core.mix_backgrounds(nt, sizes, g, c, v, backgrounds)
    f[undefined] = np.nan
    gm[undefined] = np.nan
    bg = tuple(sorted(backgrounds))
    built = Targets(batch, sizes, g * n_cells + c, v, f, gm, mu_key, mu_val, bg)
    return built, undefined, overflow


# --------------------------------------------------------------------------- by topic id
class TopicTargets:
    r"""Targets by topic id over the intersection of named dimensions.

    Parameters
    ----------
    topics : tuple of str
        The topic ids, one per batch entry of ``targets``.
    dimensions : tuple of str
        The dimension names (the track's word for attribute sets).
    categories : tuple of tuple of str
        The categories of each dimension, cells row-major (the first dimension slowest).
    targets : Targets
        Batch shape ``(len(topics),)``.
    source : str
        Where they came from (a file, or ``built``).

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> table = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
    >>> gender = trecfair.read_alignment("gender", table)
    >>> targets = io.StringIO("topic_id,gender,target\n101,female,1\n")
    >>> t = trecfair.read_targets(targets, [gender])
    >>> t.topics, t.dimensions, t.categories
    (('101',), ('gender',), (('Unknown', 'female', 'male'),))
    """

    __slots__ = ("topics", "dimensions", "categories", "targets", "source")

    def __init__(self, topics, dimensions, categories, targets: Targets, source="built"):
        self.topics = tuple(topics)
        self.dimensions = tuple(dimensions)
        self.categories = tuple(tuple(c) for c in categories)
        self.targets = targets
        self.source = source

    def __repr__(self) -> str:
        return (
            f"TopicTargets({len(self.topics)} topics, dimensions={list(self.dimensions)}, "
            f"source={self.source!r})"
        )

    @public
    def toarray(self) -> np.ndarray:
        r"""Dense targets, shape (topics, G_1, ..., G_m).

        Returns
        -------
        ndarray of float64, shape (topics, G_1, ..., G_m)
            NaN rows for undefined targets; as large as the intersection.

        Examples
        --------
        >>> import io
        >>> from fairconv import trecfair
        >>> table = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
        >>> gender = trecfair.read_alignment("gender", table)
        >>> long_form = "topic_id,gender,target\n101,female,0.5\n101,male,0.5\n"
        >>> trecfair.read_targets(io.StringIO(long_form), [gender]).toarray().tolist()
        [[0.0, 0.5, 0.5]]
        """
        return self.targets.toarray()

    @public
    def to_tsv(self, out, /, *, overwrite: bool = False) -> None:
        r"""Write the long form: ``topic_id``, the dimension names, ``target``; non-zero cells.

        What :func:`read_targets` reads back: an undefined target (NaN) is one row of
        its topic, at the first cell, with the value ``nan``. Every cell of the
        intersection is visited, a chunk at a time: with many dimensions the file is as
        large as the intersection.

        Parameters
        ----------
        out : path or text file
            Where to write: a path (a new file, written under a temporary name and put
            in place when whole) or an open text file.
        overwrite : bool
            Replace a file that is already at ``out``; by default that is an error.

        Raises
        ------
        FileExistsError
            ``out`` names a file that exists and ``overwrite`` is False.

        Examples
        --------
        >>> import io
        >>> from fairconv import trecfair
        >>> table = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
        >>> gender = trecfair.read_alignment("gender", table)
        >>> targets = io.StringIO("topic_id,gender,target\n101,female,1\n")
        >>> t = trecfair.read_targets(targets, [gender])
        >>> out = io.StringIO()
        >>> t.to_tsv(out)
        >>> [line.split() for line in out.getvalue().splitlines()]
        [['topic_id', 'gender', 'target'], ['101', 'female', '1.0']]
        """
        write_output(out, self._write, overwrite=overwrite)

    def _write(self, f) -> None:
        sizes = self.targets.cell_shape
        n_cells = math.prod(sizes)
        f.write("\t".join(("topic_id", *self.dimensions, "target")) + "\n")
        names = [np.asarray(c, dtype=object) for c in self.categories]
        defined = self.targets.defined.reshape(-1)
        step = 1 << 20
        for t, topic in enumerate(self.topics):
            if not defined[t]:  # one row says it: the value nan
                f.write("\t".join((topic, *(c[0] for c in self.categories), "nan")) + "\n")
                continue
            for lo in range(0, n_cells, step):
                cells = np.arange(lo, min(lo + step, n_cells), dtype=np.int64)
                v = self.targets._at(np.full(cells.shape, t, dtype=np.int64), cells)
                keep = v != 0
                cells, v = cells[keep], v[keep]
                coords = np.unravel_index(cells, sizes)
                cols = [names[j][coords[j]] for j in range(len(sizes))]
                topic_col = [topic] * len(v)
                f.writelines(
                    "\t".join(r) + "\n"
                    for r in zip(topic_col, *cols, map(repr, v.tolist()), strict=True)
                )


@public
def read_targets(path, dimensions, /) -> TopicTargets:
    r"""Read targets (long or wide form) onto the categories of ``dimensions``.

    Parameters
    ----------
    path : path or file object
        Long form: header ``topic_id``, the dimension names, ``target``; one row per
        topic and cell, cells not listed 0. Wide form (one dimension): ``topic_id`` then
        the categories (the organisers' ``task{1,2}-<mode>-<dim>-target.csv.gz``).
    dimensions : sequence of Dimension
        The dimensions of the evaluation (their names and categories).

    Returns
    -------
    TopicTargets
        Their source is the file; a topic written ``nan`` is undefined (a notice says
        which).

    Raises
    ------
    ValueError
        Naming file and line: other dimensions or categories, a cell twice, a negative
        value, a topic summing to 0, a topic mixing ``nan`` (an undefined target, as
        :meth:`TopicTargets.to_tsv` writes it) and numbers.

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> alignment = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
    >>> gender = trecfair.read_alignment("gender", alignment)
    >>> long_form = io.StringIO("topic_id,gender,target\n101,female,1\n")
    >>> targets = trecfair.read_targets(long_form, [gender])
    >>> targets.topics, targets.dimensions
    (('101',), ('gender',))
    """
    dims = _inputs.dimension_list(dimensions)
    table = _io.read_target_table(path, dims)
    sizes = [len(c) for c in table.categories]
    if table.undefined.any():
        notice(
            f"{table.source}: the targets of topic(s) {_some(table.topics, table.undefined)} "
            "are nan (undefined), as is every measure that uses them"
        )
    return TopicTargets(
        table.topics,
        table.dimensions,
        table.categories,
        sparse_targets(len(table.topics), sizes, table.keys, table.values, table.undefined),
        table.source,
    )


def as_targets(targets, dims) -> TopicTargets:
    """Targets as given: TopicTargets, or a file to read onto ``dims``."""
    return _inputs.given(
        targets,
        "targets",
        TopicTargets,
        lambda path: read_targets(path, dims),
        "be TopicTargets (read_targets)",
    )


@public
def build_targets(
    qrels,
    dimensions,
    /,
    *,
    task: int,
    edition: int = 2022,
    backgrounds=None,
    work=None,
    topics=None,
) -> TopicTargets:
    r"""Build each topic's target from its relevant pages, as the organisers' notebooks did.

    Page weights (1 in Task 1; the work-level ideal exposure in Task 2), the weighted
    mean (2022) or normalised sum (2021, all-unknown cell cleared in Task 1) of the
    relevant pages' intersected alignments, then background mixing of the dimensions
    given in ``backgrounds`` (see :func:`targets_from_alignments`, spec section 6).

    Parameters
    ----------
    qrels : Qrels, path, DataFrame, dict or records
        The relevant pages (level above 0): the track's files (:func:`read_qrels`) or
        any input of :func:`fairconv.io.as_qrels`.
    dimensions : sequence of Dimension
        The alignment tables (:func:`read_alignment`, :func:`read_metadata`).
    task : {1, 2}
    edition : {2022, 2021}
    backgrounds : mapping of str to (str, path or Background), optional
        Per dimension name, a preset (``trec2022-world-pop``, ``trec2022-gender``,
        ``trec2021-geography``, ``trec2021-gender``), a table file or a
        :class:`Background`, over exactly the dimension's known categories.
    work : WorkLevels or path
        Work levels of the relevant pages; required for Task 2.
    topics : sequence of str, optional
        Build only these topics, each once, each a topic of the qrels with a relevant
        page (default: every topic with a relevant page).

    Returns
    -------
    TopicTargets
        Topics whose relevant pages give no mass have an undefined (NaN) target, with a
        :class:`~fairconv.FairconvWarning` naming them.

    Raises
    ------
    ValueError
        For a relevant page the tables do not list (2022), a relevant page without a
        work level (2022 Task 2), backgrounds that do not match their dimensions, or
        ``topics`` that are not topics of the qrels with relevant pages.

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> d = datasets.path("trecfair")
    >>> dims, _ = trecfair.read_metadata(
    ...     d / "trec_2022_articles_discrete.jsonl", edition=2022, dimensions=["sub-geo"]
    ... )
    >>> qrels = trecfair.read_qrels(d / "trec_fair_eval_reldocs.jsonl")
    >>> trecfair.build_targets(qrels, dims, task=1, backgrounds={"sub-geo": "trec2022-world-pop"})
    TopicTargets(3 topics, dimensions=['sub-geo'], source='built')
    """
    task = check_int_choice(task, "task", _io.TASKS)
    edition = check_int_choice(edition, "edition", _io.EDITIONS)
    dims = _inputs.dimension_list(dimensions)
    q = _inputs.relevant(_inputs.as_qrels(qrels))
    universe = _inputs.Universe(dims)
    work = _inputs.as_work(work)
    counts = np.bincount(q.topic_ids, minlength=len(q.topics))
    wanted = [t for t, c in zip(q.topics, counts.tolist(), strict=True) if c > 0]
    if topics is not None:
        wanted = _inputs.topics_of(topics, set(wanted), "qrels with relevant pages")
    return build(
        q, dims, universe, wanted, task=task, edition=edition, backgrounds=backgrounds, work=work
    )


def build(q, dims, universe, wanted, *, task, edition, backgrounds, work) -> TopicTargets:
    """The targets of the topics ``wanted`` (each with a relevant page), with the notices.

    ``q`` holds the relevant pages alone (:func:`fairconv.trecfair._inputs.relevant`).
    """
    if edition == 2021:
        _inputs.require_unknown(dims)
    bgs = {j: b for j, b in enumerate(_inputs.backgrounds_for(backgrounds, dims)) if b is not None}
    names = tuple(d.name for d in dims)
    cats = tuple(d.categories for d in dims)
    if not wanted:
        return TopicTargets((), names, cats, sparse_targets(0, universe.sizes, [], []))
    index = {t: i for i, t in enumerate(q.topics)}
    tsel = np.asarray([index[t] for t in wanted], dtype=np.int64)
    take = np.flatnonzero(np.isin(q.topic_ids, tsel))
    slot = np.full(len(q.topics), -1, dtype=np.int64)
    slot[tsel] = np.arange(len(tsel))
    t_of = slot[q.topic_ids[take]]
    order = np.argsort(t_of, kind="stable")
    take, t_of = take[order], t_of[order]
    pages = q.docs[take]
    pos, known = universe.lookup(pages)
    if edition == 2022 and not known.all():
        i = int(np.argmin(known))
        raise ValueError(
            f"{q.source}: relevant page {pages[i].decode('utf-8')!r} of topic "
            f"{wanted[t_of[i]]!r} is not in the alignment tables ({dims[0].source}); "
            "2022 targets need every relevant page"
        )
    if not _io.cells_fit(len(tsel), universe.sizes):
        raise too_many_cells("dimensions", len(tsel), universe.sizes)
    nt = len(tsel)
    if task == 2:
        w = _work_weights(work, pages, t_of, wanted, edition)
    else:
        w = np.ones(len(pages))
    use = np.flatnonzero(known & (w > 0))
    norm = np.bincount(t_of, weights=w, minlength=nt) if edition == 2022 else None
    built, undefined, overflow = targets_of_pages(
        (nt,),
        universe.sizes,
        t_of[use],
        w[use],
        universe.take(pos[use]),
        norm,
        task=task,
        edition=edition,
        backgrounds=bgs,
    )
    for bad, why in (
        (undefined & ~overflow, "give the target no mass (no page with a known category)"),
        (overflow, _OVERFLOW),
    ):
        if bad.any():
            notice(
                f"the relevant pages of topic(s) {_some(wanted, bad)} {why}; their target is "
                "undefined (NaN), as is every measure that uses it"
            )
    if task == 2:
        over = built.total.reshape(-1) > 1 + SUM_TOLERANCE
        if over.any():
            notice(
                f"the built targets of topic(s) {_some(wanted, over)} sum to more than 1 "
                "(multi-hot alignment rows); Task 2 uses them as given, which raises the "
                "target exposure"
            )
    return TopicTargets(wanted, names, cats, built)


def _work_weights(work, pages, t_of, wanted, edition) -> np.ndarray:
    """Task 2 weights of the relevant pages (``t_of`` their topic) from their work levels.

    A page without a level: an error in 2022, left out with a notice in 2021.
    """
    if work is None:
        raise fail("work", "be given to build Task 2 targets (work levels)", "None")
    lev = _levels_of(work, pages)
    missing = lev < 0
    if missing.any():
        i = int(np.argmax(missing))
        if edition == 2022:
            raise ValueError(
                f"{work.source}: relevant page {pages[i].decode('utf-8')!r} of topic "
                f"{wanted[t_of[i]]!r} has no work level; 2022 Task 2 targets need one for "
                "every relevant page"
            )
        notice(
            f"{int(missing.sum())} relevant page(s) have no work level "
            f"(first {pages[i].decode('utf-8')!r} of topic {wanted[t_of[i]]!r}); the 2021 "
            "targets leave them out, as the official code does"
        )
    w = np.zeros(len(pages))
    w[~missing] = _core.work_level_weights(t_of[~missing], lev[~missing], len(wanted))
    return w


def _some(topics, mask: np.ndarray) -> str:
    """The topics where ``mask`` holds, quoted, ten at most."""
    shown = [topics[i] for i in np.flatnonzero(mask)[:10].tolist()]
    more = int(mask.sum()) - len(shown)
    return ", ".join(map(repr, shown)) + (f" and {more} more" if more > 0 else "")


def _levels_of(work, pages: np.ndarray) -> np.ndarray:
    if len(work.pages) == 0:
        return np.full(len(pages), -1, dtype=np.int64)
    at = KeyTable(np.zeros(len(work.pages), np.int64), work.pages).find(
        np.zeros(len(pages), np.int64), pages
    )
    return np.where(at >= 0, work.levels[np.maximum(at, 0)], -1)
