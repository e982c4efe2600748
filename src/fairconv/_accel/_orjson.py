"""The optional accelerator of the ``fast`` extra (orjson), and the one switch that turns it off.

With the extra installed, orjson decodes JSON Lines (:func:`json_decoder`, for
:func:`fairconv.io.iter_jsonl`), giving exactly what the standard route gives: the
same values, bit for bit, and the same errors. ``FAIRCONV_PURE=1`` in the environment
makes every reader take the standard route, as when the extra is absent.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


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
