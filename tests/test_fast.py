"""The accelerators' switch: ``FAIRCONV_PURE`` turns every optional module off.

Run by the main suite (standard route) and again by CI with the ``fast`` extra
installed (tests_extra/test_fast_json.py checks orjson's JSON decoding).
"""

import numpy as np

from fairconv._accel import _orjson


def test_pure_turns_every_accelerator_off(monkeypatch):
    monkeypatch.setenv("FAIRCONV_PURE", "1")
    assert _orjson.module("numpy") is None
    monkeypatch.setenv("FAIRCONV_PURE", "")
    assert _orjson.module("numpy") is np
    assert _orjson.module("no_such_module_of_fairconv") is None
