"""The optional accelerators of the ``fast`` extra, and the one switch that turns them off.

With the extra installed, orjson decodes JSON Lines (:func:`fairconv.readers.iter_jsonl`)
and formats the values of score tables (:func:`reprs`). Each use gives exactly what the
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


# repr() writes a finite double in positional notation exactly when its magnitude is
# in [1e-4, 1e16) (or it is zero); orjson writes the same shortest digits there, in the
# same layout. Below 1e-4 orjson writes some values positionally and its exponents
# without repr's leading zero (1e-7, not 1e-07): those values take repr.
_LOW, _HIGH = 1e-4, 1e16


def reprs(values: np.ndarray) -> list[str]:
    """``repr`` of every value of a 1-d float array, as a list of str.

    orjson formats the values in the range where its text equals ``repr``'s; the
    others (tiny, huge, NaN, infinite) go through ``repr``.
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    orjson = module("orjson")
    if orjson is None or len(values) == 0:
        return list(map(repr, values.tolist()))
    size = np.abs(values)
    plain = ((size >= _LOW) & (size < _HIGH)) | (values == 0)
    if plain.all():
        return _dumps(orjson, values)
    out = np.empty(len(values), dtype=object)
    out[plain] = _dumps(orjson, values[plain])
    out[~plain] = list(map(repr, values[~plain].tolist()))
    return out.tolist()


def _dumps(orjson: ModuleType, values: np.ndarray) -> list[str]:
    """Orjson's text of each value (an empty array gives an empty list)."""
    if len(values) == 0:
        return []
    return orjson.dumps(values, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode().split(",")
