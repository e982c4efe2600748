"""The organisers' per-page metadata: the track's dimensions and work levels, derived.

The derivation of ``PageAlignments.py`` (2022) and ``Alignments.py`` (2021), the track's
domain rules (docs/trecfair.md, section 9): regions folded into the track's categories
(Oceania's subregions summed), gender words reduced, one-hot internal attributes. The
records and the JSON rules of their fields come from :mod:`fairconv.io`.
"""

from __future__ import annotations

import re
from functools import partial
from itertools import chain

import numpy as np

from .. import _core
from .._validation import FileFormatError, check_int_choice, fail, json_repr, public
from ..io._trecfair import (
    EDITIONS,
    WORK_LEVELS,
    Dimension,
    PageRecords,
    WorkLevels,
    read_page_records,
    repeated_at,
)

_OCEANIA = ("Australia and New Zealand", "Melanesia", "Micronesia", "Polynesia")
_GENDER_WORDS = re.compile(r"(?:tran|ci)sgender\s+((?:fe)?male)")
DIMENSIONS_2022 = ("sub-geo", "src-geo", "gender", "occ", "alpha", "age", "pop", "langs")
"""The dimensions of the 2022 metadata, in the official order."""
DIMENSIONS_2021 = ("geography", "gender")
"""The dimensions of the 2021 metadata, in the official order."""
_ONE_HOT_2022 = {
    "alpha": "first_letter_category",
    "age": "creation_date_category",
    "pop": "relative_pageviews_category",
    "langs": "num_sitelinks_category",
}


@public
def read_metadata(path, /, *, edition: int, dimensions=None):
    """Dimensions and work levels from the organisers' per-page metadata file.

    2022 (``trec_2022_articles_discrete[_assessed].json.gz``): ``sub-geo``,
    ``src-geo``, ``gender``, ``occ``, ``alpha``, ``age``, ``pop``, ``langs`` and the
    work level ``qual_cat``. 2021 (``trec_metadata[_eval].json.gz``): ``geography``,
    ``gender`` (evaluation data only) and ``quality_score_disc``. The derivation is the
    organisers' (docs/trecfair.md); a page listed again is ignored (first wins).

    Parameters
    ----------
    path : path or file object
        The metadata file of the track (JSON Lines).
    edition : {2022, 2021}
    dimensions : sequence of str, optional
        The dimensions to build, in this order (default: all, in the official order;
        2021 without ``gender`` when no record has the field).

    Returns
    -------
    dimensions : list of Dimension
        In the order asked (default: the official order); they list the same pages.
    work : WorkLevels
        The work level of every page (-1 where the record has none).

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> path = datasets.path("trecfair", "trec_2022_articles_discrete.jsonl")
    >>> dimensions, work = trecfair.read_metadata(path, edition=2022)
    >>> [d.name for d in dimensions]
    ['sub-geo', 'src-geo', 'gender', 'occ', 'alpha', 'age', 'pop', 'langs']
    >>> dimensions[2].categories
    ('@UNKNOWN', 'female', 'male', 'NB')
    """
    edition = check_int_choice(edition, "edition", EDITIONS)
    recs = read_page_records(path)
    official = DIMENSIONS_2022 if edition == 2022 else DIMENSIONS_2021
    if dimensions is None:
        names = list(official)
        if edition == 2021 and not any("gender" in r for r in recs.records):
            names = ["geography"]
    else:
        names = list(dimensions)
        bad = [d for d in names if d not in official]
        if bad or len(set(names)) != len(names) or not names:
            raise fail(
                "dimensions", f"name distinct dimensions among {', '.join(official)}", repr(names)
            )
    builders = _BUILD_2022 if edition == 2022 else _BUILD_2021
    built = []
    keep = np.ones(len(recs.pages), dtype=bool)
    for d in names:
        cats, rows, listed = builders[d](recs)
        keep &= listed
        built.append((d, cats, rows))
    out = [Dimension(d, cats, recs.pages[keep], rows[keep], recs.name) for d, cats, rows in built]
    level_key = "qual_cat" if edition == 2022 else "quality_score_disc"
    levels = recs.values(
        level_key, (str,), "a work level (Stub, Start, C, B, GA, FA)", nullable=True
    )
    code = {w: i for i, w in enumerate(WORK_LEVELS)}
    code[None] = -1  # type: ignore[index]
    stray = [i for i, v in enumerate(levels) if v not in code]
    if stray:
        raise recs.error(
            stray[0],
            f'"{level_key}" must be one of {", ".join(WORK_LEVELS)}, '
            f"got {json_repr(levels[stray[0]])}",
        )
    work = WorkLevels(
        recs.name, recs.pages, np.fromiter(map(code.__getitem__, levels), np.int64, len(levels))
    )
    return out, work


def _one_per(rec, items, cats, n_pages, key, recs: PageRecords, *, twice="listed twice"):
    """A 0/1 matrix (pages, categories); an item twice for one page is an error."""
    code = {c: i for i, c in enumerate(cats)}
    col = np.fromiter(map(code.__getitem__, items), np.int64, len(items))
    again = repeated_at(rec * len(cats) + col)
    if again >= 0:
        raise recs.error(int(rec[again]), f'"{key}" has {items[again]!r} {twice}')
    out = np.zeros((n_pages, len(cats)))
    out[rec, col] = 1.0
    return out


def _normalised(rows: np.ndarray) -> np.ndarray:
    return _core.sum_to_one(rows)


def _with_unknown(rows: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    rows = rows.copy()
    rows[unknown, 0] = 1.0
    return rows


def _gender_values(items: list, other: str, allowed: tuple) -> list:
    """The organisers' reduction of gender labels (spec 9)."""
    joined = "\x1f".join(items)
    reduced = _GENDER_WORDS.sub(r"\1", joined).split("\x1f") if items else []
    if len(reduced) != len(items):  # a label held the separator
        reduced = [_GENDER_WORDS.sub(r"\1", v) for v in items]
    keep = set(allowed)
    return [v if v in keep else other for v in reduced]


def _regions(recs: PageRecords, key: str):
    """sub-geo: 1 per listed region, Oceania's subregions summed, unknown if none, normalised."""
    lists = recs.values(key, (list,), "an array of region names")
    rec, items = recs.flat(lists, key)
    raw = sorted(set(items))
    rows = _one_per(rec, items, raw, len(lists), key, recs)
    return _fold(raw, rows, np.asarray([len(x) == 0 for x in lists], dtype=bool))


def _fold(raw, rows, unknown):
    names = [("Oceania" if c in _OCEANIA else c) for c in raw if c not in ("@UNKNOWN",)]
    cats = ["@UNKNOWN"] + sorted(set(names))
    col = {c: i for i, c in enumerate(cats)}
    out = np.zeros((rows.shape[0], len(cats)))
    for j, c in enumerate(raw):  # a loop over categories, not pages
        target = 0 if c == "@UNKNOWN" else col["Oceania" if c in _OCEANIA else c]
        out[:, target] += rows[:, j]
    out = _with_unknown(out, unknown | ~(out.sum(axis=1) > 0))
    return tuple(cats), _normalised(out), np.ones(rows.shape[0], bool)


def _sources(recs: PageRecords):
    """src-geo: the shares by region (``UNK`` unknown), Oceania summed, normalised."""
    key = "source_subcont_regions"
    objs = recs.values(key, (dict,), "an object of region shares")
    counts = np.fromiter(map(len, objs), np.int64, len(objs))
    regions = list(chain.from_iterable(o.keys() for o in objs))
    shares = list(chain.from_iterable(o.values() for o in objs))
    if not set(map(type, shares)) <= {int, float}:
        k = next(i for i, v in enumerate(shares) if type(v) not in (int, float))
        at = int(np.searchsorted(np.cumsum(counts), k, side="right"))
        raise recs.error(at, f'"{key}"."{regions[k]}" must be a number, got {json_repr(shares[k])}')
    vals = np.asarray(shares, dtype=np.float64)
    bad = ~(np.isfinite(vals) & (vals >= 0))
    if bad.any():
        k = int(np.argmax(bad))
        at = int(np.searchsorted(np.cumsum(counts), k, side="right"))
        raise recs.error(
            at, f'"{key}"."{regions[k]}" must be a finite number >= 0, got {shares[k]!r}'
        )
    names = ["@UNKNOWN" if r == "UNK" else r for r in regions]
    raw = sorted(set(names))
    col = {c: i for i, c in enumerate(raw)}
    rows = np.zeros((len(objs), len(raw)))
    rec = np.repeat(np.arange(len(objs)), counts)
    np.add.at(rows, (rec, np.fromiter(map(col.__getitem__, names), np.int64, len(names))), vals)
    rows = _core.scaled_rows(rows)  # shares summing past float64: scaled before folding
    return _fold(raw, rows, ~(rows.sum(axis=1) > 0))


def _gender(recs: PageRecords, *, edition: int):
    key = "gender"
    if edition == 2022:
        cats, other = ("@UNKNOWN", "female", "male", "NB"), "NB"
    else:
        cats, other = ("unknown", "female", "male", "third"), "third"
    lists = recs.values(key, (list,), "an array of gender labels")
    rec, items = recs.flat(lists, key)
    listed = np.ones(len(lists), dtype=bool)
    if edition == 2021:  # one erroneous value the organisers dropped
        drop = np.asarray([v == "Taira no Kiyomori" for v in items], dtype=bool)
        if drop.any():
            had = np.bincount(rec, minlength=len(lists)) > 0
            rec = rec[~drop]
            items = [v for v, d in zip(items, drop.tolist(), strict=True) if not d]
            listed = ~had | (np.bincount(rec, minlength=len(lists)) > 0)
    values = _gender_values(items, other, cats)
    code = {c: i for i, c in enumerate(cats)}
    col = np.fromiter(map(code.__getitem__, values), np.int64, len(values))
    rows = np.zeros((len(lists), len(cats)))
    rows[rec, col] = 1.0  # repeats count once
    rows[~(rows.sum(axis=1) > 0), 0] = 1.0
    return cats, rows, listed


def _occupations(recs: PageRecords):
    key = "occupations"
    lists = recs.values(key, (list,), "an array of occupations")
    rec, items = recs.flat(lists, key)
    raw = sorted(set(items) - {"@UNKNOWN"})
    cats = ["@UNKNOWN"] + raw
    rows = _one_per(rec, items, cats, len(lists), key, recs)
    rows[~(rows.sum(axis=1) > 0), 0] = 1.0
    return tuple(cats), _normalised(rows), np.ones(len(lists), bool)


def _one_hot(recs: PageRecords, *, key: str):
    values = recs.values(key, (str,), "a string", nullable=True)
    cats = sorted(set(values) - {None})
    code = {c: i for i, c in enumerate(cats)}
    rows = np.zeros((len(values), max(len(cats), 1)))
    given = np.asarray([v is not None for v in values], dtype=bool)
    col = np.fromiter((code[v] for v in values if v is not None), np.int64, int(given.sum()))
    rows[np.flatnonzero(given), col] = 1.0
    if not cats:
        raise FileFormatError(recs.name, None, f'"{key}" is null for every page (no category)')
    return tuple(cats), rows, np.ones(len(values), bool)


def _geography(recs: PageRecords):
    key = "geographic_locations"
    lists = recs.values(key, (list,), "an array of continents")
    rec, items = recs.flat(lists, key)
    cats = ["Unknown"] + sorted(set(items) - {"Unknown"})
    rows = _one_per(rec, items, cats, len(lists), key, recs)
    rows[~(rows.sum(axis=1) > 0), 0] = 1.0
    return tuple(cats), rows, np.ones(len(lists), bool)


_BUILD_2022: dict = {
    "sub-geo": lambda r: _regions(r, "page_subcont_regions"),
    "src-geo": _sources,
    "gender": lambda r: _gender(r, edition=2022),
    "occ": _occupations,
    **{d: partial(_one_hot, key=k) for d, k in _ONE_HOT_2022.items()},
}
_BUILD_2021: dict = {"geography": _geography, "gender": lambda r: _gender(r, edition=2021)}
