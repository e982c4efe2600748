"""The optional accelerator of the ``fast`` extra (orjson), and the one switch that turns it off.

With the extra installed, orjson decodes JSON Lines (:func:`json_decoder`, for
:func:`fairconv.io.iter_jsonl`) and formats the values of score tables
(:func:`repr_text`). Each use gives exactly what the
standard route gives: the same values, bit for bit, the same strings and the same
errors. ``FAIRCONV_PURE=1`` in the environment makes every reader and writer take the
standard route, as when the extra is absent.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import numpy as np


def module(name: str) -> ModuleType | None:
    """The accelerator module ``name`` (e.g. ``"orjson"``), or None.

    None when it is not installed or when ``FAIRCONV_PURE`` is set to anything but the
    empty string.
    """
    if os.environ.get("FAIRCONV_PURE"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def json_decoder():
    """``orjson.loads`` when the ``fast`` extra is installed and FAIRCONV_PURE is unset, else None.

    The caller runs the same checks on what it returns as on the standard decoder's
    values.
    """
    orjson = module("orjson")
    return None if orjson is None else orjson.loads


# repr() writes a finite double in positional notation exactly when its magnitude is
# in [1e-4, 1e16) (or it is zero); orjson writes the same shortest digits there, in the
# same layout. Below 1e-4 orjson writes some values positionally and its exponents
# without repr's leading zero (1e-7, not 1e-07): those values take repr.
_LOW, _HIGH = 1e-4, 1e16


def repr_text(values: np.ndarray) -> tuple[bytes, np.ndarray, np.ndarray]:
    """``repr`` of every value of a 1-d float array, as one ASCII text.

    Returns the text, and the start and length of each value's string in it (the
    strings are separated by commas). orjson formats the values in the range where its
    text equals ``repr``'s; the others (tiny, huge, NaN, infinite) go through ``repr``.
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    if len(values) == 0:
        return b"", np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    orjson = module("orjson")
    plain = np.zeros(len(values), dtype=bool)
    if orjson is not None:
        size = np.abs(values)
        plain = ((size >= _LOW) & (size < _HIGH)) | (values == 0)
    parts = []
    if plain.any():
        parts.append(orjson.dumps(values[plain], option=orjson.OPT_SERIALIZE_NUMPY)[1:-1])  # type: ignore[union-attr]
    if not plain.all():
        parts.append(",".join(map(repr, values[~plain].tolist())).encode())
    text = b",".join(parts)
    commas = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == 44)
    starts = np.concatenate(([0], commas + 1))
    lengths = np.append(commas, len(text)) - starts
    if plain.all() or not plain.any():
        return text, starts, lengths
    # the text holds the plain values first: each string back to its value's place
    k = int(plain.sum())
    at, size = np.empty_like(starts), np.empty_like(lengths)
    at[plain], at[~plain] = starts[:k], starts[k:]
    size[plain], size[~plain] = lengths[:k], lengths[k:]
    return text, at, size
