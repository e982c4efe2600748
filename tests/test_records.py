"""The record base of every result: to_dict, to_frame, a short repr and an HTML table."""

import json
import math
from dataclasses import field

import numpy as np

from fairconv._records import REPR_LIMIT, Record, record


@record(eq=False)
class _Example(Record):
    name: str
    value: float
    count: np.int64
    values: np.ndarray = field(repr=False)
    names: tuple = ()

    def _table(self):
        return {"name": list(self.names), "value": self.values}


def _example(n=3, value=float("nan")):
    return _Example("m", value, np.int64(4), np.arange(n) / 2, tuple(f"run{i}" for i in range(n)))


def test_to_dict_gives_plain_json_values():
    d = _example().to_dict()
    assert d["value"] is None and type(d["count"]) is int and d["values"] == [0.0, 0.5, 1.0]
    assert json.loads(json.dumps(d, allow_nan=False)) == d


def test_repr_is_short_for_any_size():
    for n in (3, 100_000):
        text = repr(_example(n, 0.25))
        assert len(text) <= REPR_LIMIT and text.startswith("_Example(")
    assert "value=0.25" in repr(_example(3, 0.25))


def test_html_shows_at_most_20_rows_and_says_what_it_leaves_out():
    page = _example(45)._repr_html_()
    assert page.count("<tr>") == 21 and "25 more rows not shown" in page
    assert "run0" in page and "run44" not in page
    small = _example(3)._repr_html_()
    assert "not shown" not in small and "NaN" not in small and "run2" in small


def test_to_frame_names_runs():
    frame = _example(3).to_frame()
    assert frame["name"].tolist() == ["run0", "run1", "run2"]
    assert math.isclose(frame["value"].iloc[2], 1.0)
