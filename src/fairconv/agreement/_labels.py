"""Agreement between assessors on a label matrix, and the label files it is read from.

Accuracy, Cohen's (weighted) kappa, Fleiss' kappa, Krippendorff's alpha and the majority
vote, on labels coded once (numbers, or strings with their categories).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import _accel
from .._validation import (
    as_float_array,
    check_choice,
    fail,
    fail_params,
    fail_type,
    public,
)
from ..io._text import DECIMAL, FileFormatError, split_rows
from ._results import AgreementResult, MajorityVote, _is_missing, _plain_label


@dataclass(frozen=True)
class _Coded:
    codes: np.ndarray  # int64, same shape as the labels, -1 where missing
    categories: np.ndarray  # the label of each code, lowest first
    numeric: bool
    ordered: bool  # numbers, or strings ordered by the caller's categories


def _missing_mask(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "f":
        return np.isnan(arr)
    return np.frompyfunc(_is_missing, 1, 1)(arr).astype(bool)


def _encode(labels, name: str, *, categories=None, ndim: int = 2) -> _Coded:
    """Label codes 0..K-1 (in category order) and -1 for a missing rating."""
    try:
        arr = np.asarray(labels)
    except ValueError:
        arr = None
    if arr is not None and arr.dtype.kind == "U" and not isinstance(labels, np.ndarray):
        arr = np.asarray(labels, dtype=object)  # numpy would turn mixed numbers into text
    if arr is None or arr.dtype.kind not in "biufUO" or arr.ndim != ndim:
        shape = "(items, raters)" if ndim == 2 else "(items,)"
        got = "a ragged sequence" if arr is None else f"shape {arr.shape}, dtype {arr.dtype}"
        raise fail(name, f"be an array of labels of shape {shape}", got)
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    if arr.dtype.kind == "O":
        missing = _missing_mask(arr)
        kinds = {type(v) for v in arr[~missing].tolist()}
        if kinds and all(
            issubclass(t, (int, float, np.integer, np.floating)) and not issubclass(t, bool)
            for t in kinds
        ):
            arr = np.where(missing, np.nan, arr).astype(np.float64)
        elif all(issubclass(t, str) for t in kinds):
            values = arr[~missing].astype(str)
            return _coded_strings(values, missing, name, categories)
        else:
            shown = ", ".join(sorted(k.__name__ for k in kinds))
            raise fail_type(
                name,
                "hold labels that are all numbers or all strings (None or NaN for a missing "
                "rating)",
                shown,
            )
    if arr.dtype.kind == "U":
        missing = np.zeros(arr.shape, bool)
        return _coded_strings(arr.reshape(-1), missing, name, categories)
    missing = np.isnan(arr)
    if np.isinf(arr).any():
        raise fail(name, "hold finite labels (NaN for a missing rating)", "infinity")
    values = arr[~missing]
    if categories is None:
        cats, inv = np.unique(values, return_inverse=True)
    else:
        cats = as_float_array(categories, "categories")
        if cats.ndim != 1 or len(np.unique(cats)) != len(cats) or not np.isfinite(cats).all():
            raise fail("categories", "list distinct finite labels", repr(categories))
        order = np.argsort(cats, kind="stable")
        at = np.searchsorted(cats[order], values)
        at = np.minimum(at, len(cats) - 1)
        unknown = cats[order][at] != values
        if unknown.any():
            raise fail(
                name,
                "hold only labels listed in 'categories'",
                f"the label {float(values[np.argmax(unknown)])!r}",
            )
        inv = order[at]
    codes = np.full(arr.shape, -1, np.int64)
    codes[~missing] = inv.reshape(-1)
    return _Coded(codes, cats, True, True)


def _coded_strings(values, missing, name, categories) -> _Coded:
    if categories is None:
        cats, inv = np.unique(values, return_inverse=True)
        ordered = False
    else:
        if isinstance(categories, str) or not all(isinstance(c, str) for c in categories):
            raise fail_type(
                "categories", "list the string labels from lowest to highest", repr(categories)
            )
        cats = np.asarray(list(categories), dtype=str)
        if len(set(categories)) != len(cats):
            raise fail("categories", "list distinct labels", repr(categories))
        lookup = {c: i for i, c in enumerate(categories)}
        try:
            inv = np.fromiter(map(lookup.__getitem__, values.tolist()), np.int64, len(values))
        except KeyError as exc:
            raise fail(
                name, "hold only labels listed in 'categories'", f"the label {exc.args[0]!r}"
            ) from None
        ordered = True
    codes = np.full(missing.shape, -1, np.int64)
    codes[~missing] = inv.reshape(-1)
    return _Coded(codes, cats, False, ordered)


def _matrix_codes(labels, *, categories=None, min_raters: int = 2) -> _Coded:
    coded = _encode(labels, "labels", categories=categories)
    items, raters = coded.codes.shape
    if items < 1 or raters < min_raters:
        raise fail(
            "labels",
            f"be a label matrix of shape (items, raters) with at least 1 item and "
            f"{min_raters} raters",
            f"shape {coded.codes.shape}",
        )
    return coded


def _pair_codes(a, b, categories=None) -> tuple[_Coded, np.ndarray]:
    """Codes (items, 2) of two raters on one category list, and the items both rated."""
    ca = _encode(a, "a", categories=categories, ndim=1)
    cb = _encode(b, "b", categories=categories, ndim=1)
    if ca.codes.shape != cb.codes.shape:
        raise fail_params(
            ("a", "b"), "label the same items", f"lengths {len(ca.codes)} and {len(cb.codes)}"
        )
    if ca.numeric != cb.numeric:
        kinds = ["numbers" if c.numeric else "strings" for c in (ca, cb)]
        raise fail_params(
            ("a", "b"), "both hold numbers or both strings", " and ".join(kinds), error=TypeError
        )
    if categories is None:
        cats = np.union1d(ca.categories, cb.categories)
        codes = np.stack(
            [
                np.where(c.codes >= 0, np.searchsorted(cats, c.categories)[c.codes], -1)
                if len(c.categories)
                else c.codes
                for c in (ca, cb)
            ],
            axis=1,
        )
        coded = _Coded(codes, cats, ca.numeric, ca.numeric)
    else:
        coded = _Coded(np.stack([ca.codes, cb.codes], axis=1), ca.categories, ca.numeric, True)
    both = (coded.codes >= 0).all(axis=1)
    if not both.any():
        raise fail_params(("a", "b"), "both label at least one item", "no item labelled by both")
    return coded, np.asarray(both)


def _counts(codes: np.ndarray, k: int) -> np.ndarray:
    """(items, K) number of raters who gave each label."""
    items = codes.shape[0]
    rows = np.broadcast_to(np.arange(items)[:, None], codes.shape)
    keep = codes >= 0
    return np.bincount(rows[keep] * k + codes[keep], minlength=items * k).reshape(items, k)


@public
def accuracy(a, b, /) -> AgreementResult:
    r"""Share of the items two raters label alike.

    Parameters
    ----------
    a, b : array_like, shape (items,)
        Labels of the same items (numbers with NaN, or strings with None, for no
        label). Items that either rater left unlabelled are left out.

    Returns
    -------
    AgreementResult
        ``statistic`` in [0, 1]; ``n_items`` the items both labelled.

    Raises
    ------
    ValueError
        Different lengths, or no item labelled by both.

    Notes
    -----
    .. math:: acc = \frac{1}{N} \sum_{i=1}^{N} [a_i = b_i]

    Examples
    --------
    >>> accuracy([1, 0, 1, 1], [1, 0, 0, 1]).statistic
    0.75
    """
    coded, both = _pair_codes(a, b)
    c = coded.codes[both]
    return AgreementResult(float(np.mean(c[:, 0] == c[:, 1])), "accuracy", int(both.sum()), 2)


@public
def cohen_kappa(
    a, b, /, *, weighting: str | None = None, categories: Sequence | None = None
) -> AgreementResult:
    r"""Cohen's kappa between two raters, optionally weighted for graded labels.

    Parameters
    ----------
    a, b : array_like, shape (items,)
        Labels of the same items (NaN or None for no label; those items are left out).
    weighting : {None, "linear", "quadratic"}
        None: every disagreement counts 1. ``"linear"``/``"quadratic"``: a disagreement
        between the i-th and j-th categories counts ``|i - j|`` or ``(i - j)^2``, as
        ``sklearn.metrics.cohen_kappa_score`` does (category positions, not values).
    categories : sequence, optional
        Every label, lowest first: fixes the positions used by the weights (needed for
        string labels when weighting) and may list labels nobody used.

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1: 1 for perfect agreement, 0 for the agreement expected by
        chance from the two raters' label frequencies.

    Raises
    ------
    ValueError
        Different lengths, no item labelled by both, string labels with weighting but
        no ``categories``, or only one label used by both raters (kappa undefined).

    Notes
    -----
    With n_ij the items a labels i and b labels j, N the total, ``e_ij = n_i. n_.j / N``
    and w_ij the disagreement weight:

    .. math:: \kappa = 1 - \frac{\sum_{ij} w_{ij} n_{ij}}{\sum_{ij} w_{ij} e_{ij}}

    which with w_ij = [i != j] is (p_o - p_e) / (1 - p_e).

    References
    ----------
    J. Cohen. A Coefficient of Agreement for Nominal Scales. Educational and
    Psychological Measurement 20(1), 1960. J. Cohen. Weighted Kappa. Psychological
    Bulletin 70(4), 1968.

    Examples
    --------
    >>> round(cohen_kappa([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]).statistic, 4)
    0.6154
    >>> round(cohen_kappa([0, 1, 2, 2], [0, 2, 2, 1], weighting="quadratic").statistic, 4)
    0.6364
    """
    if weighting is not None:
        weighting = check_choice(weighting, "weighting", ("linear", "quadratic"))
    coded, both = _pair_codes(a, b, categories)
    if weighting is not None and not coded.ordered:
        raise fail(
            "categories",
            f"list the string labels from lowest to highest for {weighting} weighting",
            "None",
        )
    k = len(coded.categories)
    c = coded.codes[both]
    # integer counts, weights and margins: one division at the end, so that a kappa
    # that is -1 or 1 on paper is exactly that
    table = np.bincount(c[:, 0] * k + c[:, 1], minlength=k * k).reshape(k, k)
    outer = np.outer(table.sum(axis=1), table.sum(axis=0))  # N times the expected counts
    pos = np.arange(k)
    if weighting is None:
        weight = (pos[:, None] != pos[None, :]).astype(np.int64)
    elif weighting == "linear":
        weight = np.abs(pos[:, None] - pos[None, :])
    else:
        weight = (pos[:, None] - pos[None, :]) ** 2
    chance = int((weight * outer).sum())
    if chance == 0:
        raise fail_params(
            ("a", "b"),
            "use at least two labels between them: kappa is undefined when chance agreement "
            "is certain",
            f"one label ({_plain_label(coded.categories[c[0, 0]].item())!r}) on all {len(c)} items",
        )
    value = 1.0 - int(table.sum()) * int((weight * table).sum()) / chance
    return AgreementResult(float(value), "cohen_kappa", int(both.sum()), 2, weighting=weighting)


@public
def fleiss_kappa(labels, /) -> AgreementResult:
    r"""Fleiss' kappa: chance-corrected agreement of many raters on nominal labels.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label). Every item
        must have the same number n >= 2 of labels (raters need not be the same
        people for every item).

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1; 1 for perfect agreement, 0 at chance.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, items with different numbers of labels, fewer
        than 2 labels per item, or a single label used throughout (undefined).

    Notes
    -----
    With N items, n labels per item and n_ij the labels j given to item i:

    .. math::
        P_i = \frac{\sum_j n_{ij}^2 - n}{n(n-1)},\quad
        p_j = \frac{\sum_i n_{ij}}{N n},\quad
        \kappa = \frac{\bar P - \sum_j p_j^2}{1 - \sum_j p_j^2}

    References
    ----------
    J. L. Fleiss. Measuring Nominal Scale Agreement Among Many Raters. Psychological
    Bulletin 76(5), 1971 (Eqs. 2-8; Table 1 is the test's example).

    Examples
    --------
    >>> labels = [[1, 1, 1], [1, 2, 2], [2, 2, 2], [3, 3, 1]]
    >>> round(fleiss_kappa(labels).statistic, 4)
    0.4667
    """
    coded = _matrix_codes(labels)
    counts = _counts(coded.codes, len(coded.categories)).astype(float)
    per_item = counts.sum(axis=1)
    n = per_item[0]
    if (per_item != n).any() or n < 2:
        differ = int(np.argmax(per_item != n)) if (per_item != n).any() else 0
        raise fail(
            "labels",
            "give every item the same number (at least 2) of labels; Krippendorff's "
            "alpha allows them to differ",
            f"{int(per_item[0])} labels on item 0 and {int(per_item[differ])} on item {differ}",
        )
    items = len(counts)
    agree = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    share = counts.sum(axis=0) / (items * n)
    chance = np.sum(share**2)
    if chance == 1.0:
        raise fail(
            "labels",
            "use at least two labels: kappa is undefined when chance agreement is certain",
            f"only {_plain_label(coded.categories[0].item())!r}",
        )
    value = (agree.mean() - chance) / (1.0 - chance)
    return AgreementResult(float(value), "fleiss_kappa", items, coded.codes.shape[1])


@public
def krippendorff_alpha(
    labels, /, *, level: str = "nominal", categories: Sequence | None = None
) -> AgreementResult:
    r"""Krippendorff's alpha from the coincidence matrix of the pairable labels.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label); items with
        fewer than 2 labels are not pairable and are left out.
    level : {"nominal", "ordinal", "interval"}
        The difference function: nominal (equal or not), ordinal (the ranks between
        the two labels) or interval (squared difference of the values; numeric
        labels only).
    categories : sequence, optional
        Every label, lowest first; needed for string labels at the ordinal level.

    Returns
    -------
    AgreementResult
        ``statistic`` <= 1: 1 for perfect agreement, 0 at chance; ``n_items`` the
        pairable items.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, no pairable item, a single value throughout
        (undefined), string labels at the interval level or at the ordinal level
        without ``categories``.

    Notes
    -----
    With m_u the labels of item u, the coincidences
    o_ck = sum_u (pairs of labels c, k in u) / (m_u - 1), n_c = sum_k o_ck and
    n = sum_c n_c:

    .. math:: \alpha = 1 - (n - 1)
              \frac{\sum_{c,k} o_{ck}\, \delta^2_{ck}}{\sum_{c,k} n_c n_k\, \delta^2_{ck}}

    with delta^2 = [c != k] (nominal),
    (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 (ordinal) or (c - k)^2 (interval).

    References
    ----------
    K. Krippendorff. Computing Krippendorff's Alpha-Reliability. University of
    Pennsylvania, 2011 (Sections B-D; the example of Section C is in the tests).

    Examples
    --------
    >>> nan = float("nan")
    >>> labels = [[1, 1, nan], [2, 2, 3], [3, 3, 3], [1, 2, 1]]
    >>> krippendorff_alpha(labels).statistic
    0.5
    >>> round(krippendorff_alpha(labels, level="interval").statistic, 4)
    0.7727
    """
    level = check_choice(level, "level", ("nominal", "ordinal", "interval"))
    coded = _matrix_codes(labels, categories=categories)
    if level == "interval" and not coded.numeric:
        raise fail_type(
            "labels", "hold numbers at the interval level (it uses their differences)", "strings"
        )
    if level == "ordinal" and not coded.ordered:
        raise fail("categories", "list the string labels from lowest to highest", "None")
    k = len(coded.categories)
    counts = _counts(coded.codes, k).astype(float)
    per_item = counts.sum(axis=1)
    pairable = per_item >= 2
    counts, per_item = counts[pairable], per_item[pairable]
    if not pairable.any():
        raise fail("labels", "give at least one item 2 or more labels", "none")
    scaled = counts / (per_item - 1)[:, None]
    coincidence = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    n_c = coincidence.sum(axis=0)
    n = n_c.sum()
    if level == "nominal":
        delta = 1.0 - np.eye(k)
    elif level == "ordinal":
        middle = np.cumsum(n_c) - n_c / 2.0
        delta = (middle[:, None] - middle[None, :]) ** 2
    else:  # divided by a power of 2 (alpha is a ratio): no overflow at 1e200
        v = coded.categories.astype(float)
        v = np.ldexp(v, -np.frexp(np.abs(v).max())[1])
        delta = (v[:, None] - v[None, :]) ** 2
    expected = np.sum(np.outer(n_c, n_c) * delta)
    if expected == 0:
        raise fail(
            "labels",
            "hold at least two different pairable values: alpha is undefined otherwise",
            "a single value",
        )
    value = 1.0 - (n - 1.0) * np.sum(coincidence * delta) / expected
    return AgreementResult(
        float(value), "krippendorff_alpha", int(pairable.sum()), coded.codes.shape[1], level=level
    )


@public
def majority_vote(
    labels, /, *, ties: str = "missing", categories: Sequence | None = None
) -> MajorityVote:
    r"""The label most raters gave each item.

    Parameters
    ----------
    labels : array_like, shape (items, raters)
        Labels (numbers with NaN, or strings with None, for no label).
    ties : {"missing", "lowest", "highest"}
        When two or more labels share the most votes: no majority label (NaN or None;
        the default), or the lowest / highest of the tied labels (numbers by value,
        strings in the order of ``categories``).
    categories : sequence, optional
        Every label, lowest first; needed for string labels with ``"lowest"`` or
        ``"highest"``.

    Returns
    -------
    MajorityVote
        The labels, the winning vote counts, the number of ratings and which items
        were tied. An item nobody labelled gets no label.

    Raises
    ------
    ValueError
        A matrix that is not 2-D, or string labels with an ordered tie rule but no
        ``categories``.

    Notes
    -----
    .. math:: \hat y_i = \arg\max_c \, n_{ic}

    A label needs only the most votes (a plurality), not more than half.

    Examples
    --------
    >>> vote = majority_vote([[1, 1, 0], [0, 1, float("nan")], [0, 0, 0]])
    >>> vote.labels
    array([ 1., nan,  0.])
    >>> majority_vote([[1, 1, 0], [0, 1, float("nan")]], ties="highest").labels
    array([1., 1.])
    """
    ties = check_choice(ties, "ties", ("missing", "lowest", "highest"))
    coded = _matrix_codes(labels, categories=categories, min_raters=1)
    if ties != "missing" and not coded.ordered:
        raise fail(
            "categories",
            f"list the string labels from lowest to highest for ties={ties!r}",
            "None",
        )
    k = len(coded.categories)
    if k == 0:
        raise fail("labels", "hold at least one label", "no label at all")
    counts = _counts(coded.codes, k)
    n_ratings = counts.sum(axis=1)
    votes = counts.max(axis=1)
    tied = (counts == votes[:, None]).sum(axis=1) > 1
    tied &= n_ratings > 0
    if ties == "highest":
        winner = k - 1 - np.argmax(counts[:, ::-1], axis=1)
    else:
        winner = np.argmax(counts, axis=1)
    none = (n_ratings == 0) | (tied & (ties == "missing"))
    if coded.numeric:
        out = np.where(none, np.nan, coded.categories[winner])
    else:
        out = coded.categories[winner].astype(object)
        out[none] = None
    return MajorityVote(out, votes.astype(np.int64), n_ratings.astype(np.int64), tied, ties)


@dataclass(frozen=True, eq=False)
class LabelMatrix:
    """Labels read from a file: one row per item, one column per rater.

    Parameters
    ----------
    items, raters : tuple of str
        In order of first appearance in the file.
    labels : ndarray, shape (items, raters)
        float with NaN (every label in the file is a number) or object with None
        (string labels) where a rater gave the item no label.

    Examples
    --------
    >>> import numpy as np
    >>> m = LabelMatrix(("i1", "i2"), ("A", "B"), np.array([[1.0, 1.0], [0.0, np.nan]]))
    >>> m.labels.shape
    (2, 2)
    """

    items: tuple
    raters: tuple
    labels: np.ndarray

    @property
    def numeric(self) -> bool:
        """Whether the labels are numbers."""
        return self.labels.dtype.kind == "f"

    @public
    def to_dict(self) -> dict:
        """``{item: {rater: label}}`` for the labels given.

        Returns
        -------
        dict of str to dict of str to label
            ``{item: {rater: label}}``; an item's dict leaves out the raters without a label.

        Examples
        --------
        >>> import numpy as np
        >>> m = LabelMatrix(("i1", "i2"), ("A", "B"), np.array([[1.0, 1.0], [0.0, np.nan]]))
        >>> m.to_dict()
        {'i1': {'A': 1, 'B': 1}, 'i2': {'A': 0}}
        """
        out: dict = {}
        for i, item in enumerate(self.items):
            row = {}
            for r, rater in enumerate(self.raters):
                v = self.labels[i, r]
                if not _is_missing(v):
                    row[rater] = _plain_label(v.item() if hasattr(v, "item") else v)
            out[item] = row
        return out


def _all_numbers():
    """Lines of decimals as the readers take them, or NaN and infinities (refused later)."""
    number = rb"(?:%s|[+-]?(?i:nan|inf|infinity))" % DECIMAL.pattern[1:-1]
    return re.compile(rb"(?:%s\n)*%s" % (number, number))


_ALL_NUMBERS = _all_numbers()
_NOT_FINITE_LINE = re.compile(rb"^[+-]?(?i:nan|inf|infinity)$", re.MULTILINE)
"""A label written as NaN or an infinity, on a line of its own."""
_CHUNK = 1 << 12
"""Sorted neighbours compared at a time by :func:`_first_appearance`."""
_TOKENS = 1 << 16
"""Labels outside the fast number forms decoded at a time."""
_ROWS = 1 << 16


def _first_appearance(rows, c: int) -> tuple[tuple[str, ...], np.ndarray]:
    """(column c's distinct tokens in order of first appearance, decoded; each row's code).

    A stable sort of the tokens' bytes groups equal tokens, the earliest first; each
    group's first row gives its rank. Neighbours are compared a block at a time, and
    the tokens are dropped before the codes are built: beside the file, the peak is
    the tokens and their order.
    """
    column = rows.strings(c)
    n = len(column)
    order = np.argsort(column, kind="stable")
    new = np.ones(n, dtype=bool)  # whether each sorted row starts a group
    for lo in range(1, n, _CHUNK):
        hi = min(lo + _CHUNK, n)
        new[lo:hi] = column[order[lo:hi]] != column[order[lo - 1 : hi - 1]]
    first = order[new]  # the earliest row of each group (the sort is stable)
    ranked = np.argsort(first, kind="stable")
    names = tuple(bytes(u).decode("utf-8") for u in column[first[ranked]].tolist())
    del column, first
    small = np.int32 if n < 2**31 else np.int64
    rank = np.empty(len(ranked), dtype=small)
    rank[ranked] = np.arange(len(ranked), dtype=small)
    group = np.cumsum(new, dtype=small)
    np.subtract(group, 1, out=group)
    del new
    codes = np.empty(n, dtype=small)
    codes[order] = rank[group]
    return names, codes


def _refuse_repeated(path, rows, items, raters, ii, rr) -> None:
    """Two rows for one (item, rater): an error at the second, naming the first."""
    order = np.lexsort((rr, ii))  # by item, then rater; file order within a pair
    repeated = np.flatnonzero((ii[order[1:]] == ii[order[:-1]]) & (rr[order[1:]] == rr[order[:-1]]))
    if len(repeated):  # the second of the pair that comes first in the file
        second = order[repeated + 1]
        k = int(np.argmin(second))
        later, earlier = int(second[k]), int(order[repeated[k]])
        raise FileFormatError(
            path,
            rows.line(later),
            f"a second label of rater {raters[rr[later]]!r} for item {items[ii[later]]!r} "
            f"(the first is on line {rows.line(earlier)})",
        )


@public
def read_label_file(path, /) -> LabelMatrix:
    r"""Read ``item rater label`` rows (whitespace-separated) into a label matrix.

    Blank lines and lines starting with ``#`` are ignored. Labels are numbers if every
    label in the file is a finite number written as the readers' decimals (not ``1_0``
    or digits of other scripts), strings otherwise. A rater with no row for
    an item has no label for it; two rows for the same item and rater are an error.

    Parameters
    ----------
    path : str or os.PathLike
        The file (docs/formats.md, "Label files").

    Returns
    -------
    LabelMatrix
        One row per item, one column per rater, in order of first appearance.

    Raises
    ------
    ValueError
        A line without exactly 3 columns, a label written ``NaN`` or infinite, or a
        repeated (item, rater); the message names the file and line.

    Examples
    --------
    >>> import io
    >>> from fairconv.agreement import read_label_file
    >>> m = read_label_file(io.StringIO("i1 a 1\ni1 b 1\ni2 a 0\ni2 b 1\n"))
    >>> m.items, m.raters
    (('i1', 'i2'), ('a', 'b'))
    """
    rows = split_rows(path, 3, "label")
    if len(rows) == 0:
        raise FileFormatError(path, 0, "no label rows (expected 'item rater label' lines)")
    # array work on the tokens' bytes: no Python object per row (memory follows the file)
    items, ii = _first_appearance(rows, 0)
    raters, rr = _first_appearance(rows, 1)
    values = np.empty(len(rows))
    plain = np.empty(len(rows), dtype=bool)
    for lo in range(0, len(rows), _ROWS):  # a block at a time: the parser's arrays stay small
        hi = lo + _ROWS
        values[lo:hi], plain[lo:hi] = _accel.decimals(
            rows.buf, rows.starts[lo:hi, 2], rows.ends[lo:hi, 2]
        )
    other = np.flatnonzero(~plain)  # exponents, long decimals, NaN, inf, words
    del plain
    numeric = True
    for lo in range(0, len(other), _TOKENS):  # a block at a time: bytes objects stay few
        at = other[lo : lo + _TOKENS]
        tokens = _accel.strings(rows.buf, rows.starts[at, 2], rows.ends[at, 2]).tolist()
        joined = b"\n".join(tokens)
        found = _NOT_FINITE_LINE.search(joined)
        if found:  # NaN or an infinity: no label, whatever the other labels are
            k = joined.count(b"\n", 0, found.start())
            raise FileFormatError(
                path,
                rows.line(int(at[k])),
                f"the label {tokens[k].decode()!r} is not a finite number; leave out the "
                "row of a rater who gave no label",
            )
        if numeric and _ALL_NUMBERS.fullmatch(joined):
            values[at] = np.fromiter(map(float, tokens), np.float64, len(tokens))
        else:
            numeric = False
    if not numeric:
        del values
        names, codes = _first_appearance(rows, 2)
    del other
    rows.release()  # the line numbers stay, for the messages below
    _refuse_repeated(path, rows, items, raters, ii, rr)
    if numeric:
        labels = np.full((len(items), len(raters)), np.nan)
        labels[ii, rr] = values
    else:
        labels = np.full((len(items), len(raters)), None, dtype=object)
        labels[ii, rr] = np.array(names, dtype=object)[codes]
    return LabelMatrix(items, raters, labels)
