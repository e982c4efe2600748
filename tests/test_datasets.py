"""Bundled data sets: the FairWeb-1 pilot pack and the papers' worked cases."""

import dataclasses
import re

import numpy as np
import pytest

from fairconv import gfr
from fairconv.datasets import (
    PILOT_ATTRIBUTES,
    Case,
    PilotPack,
    fairweb1_pilot,
    load_case,
    path,
)
from fairconv.divergences import AttributeSet
from fairconv.io import read_attribute_sets, read_conversations


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


def test_pilot_pack_holds_the_pilot_files(pilot):
    assert isinstance(pilot, PilotPack)
    assert [r.name for r in pilot.runs] == ["Anserini-bm25", "Anserini-qld", "Anserini-qljm"]
    assert [(a.attribute.name, a.attribute.scale) for a in pilot.attributes] == list(
        PILOT_ATTRIBUTES
    )
    assert [a.attribute.divergence for a in pilot.attributes] == [
        "RNOD" if s == "ordinal" else "JSD" for _, s in PILOT_ATTRIBUTES
    ]
    assert pilot.qrels.topics == ("P001", "P002", "P003", "P004")
    assert pilot.expected == path("fairweb1-pilot", "expected")
    assert len(list(pilot.expected.iterdir())) == len(pilot.runs) * len(PILOT_ATTRIBUTES)


def _nev_values(file):
    """(topic, measure name as fairconv prints it, printed value) of a .GFRnev file."""
    attribute = file.name.split(".")[-2]
    out = []
    for line in file.read_text().splitlines():
        m = re.fullmatch(r"(\S+) ([A-Za-z-]+)(?:@0*(\d+))?=\s+(\S+)", line)
        if m is None:
            continue
        topic, base, k, value = m.groups()
        name = base + (f"@{k}" if k else "")
        if base.startswith("GF-"):
            name += f"[{attribute}]"
        out.append((topic, name, float(value)))
    return out


def test_pilot_pack_reproduces_every_value_of_the_organisers_tool(pilot):
    """NTCIR-17 FairWeb-1 pilot: GFRcompute's printed values, 4 decimals, every file."""
    table = gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes)
    tag = {"bm25": "Anserini-bm25", "qld": "Anserini-qld", "qljm": "Anserini-qljm"}
    checked = 0
    for file in sorted(pilot.expected.iterdir()):
        run = tag[file.name.split(".")[1].split("-")[0]]
        rows = _nev_values(file)
        assert len(rows) == 20  # one topic per set: 5 measures x 4 depths
        for topic, measure, want in rows:
            assert round(table.value(run, topic, measure), 4) == pytest.approx(want, abs=1e-9)
            checked += 1
    assert checked == 18 * 20


def test_records_are_frozen(pilot):
    with pytest.raises(dataclasses.FrozenInstanceError):
        pilot.runs = ()
    case = load_case("r112")
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.conversations = None


@pytest.mark.parametrize(
    "name, runs, sets",
    [
        ("r112", ("COPWA-CS-QD-MN-2", "ORG-CS-D-MN-1"), ["PRONOUN", "HINDEX"]),
        ("m002", ("NewBing-trial1", "GoogleBard-trial1"), ["RATINGS", "ORIGIN"]),
    ],
)
def test_cases_equal_reading_their_files(name, runs, sets):
    case = load_case(name)
    assert isinstance(case, Case) and case.name == name and case.paper
    assert case.conversations.runs == runs
    assert [a.name for a in case.attribute_sets] == sets
    assert all(isinstance(a, AttributeSet) for a in case.attribute_sets)
    want_sets = read_attribute_sets(case.attributes_path)
    assert list(case.attribute_sets) == want_sets
    want = read_conversations(case.conversations_path, want_sets)
    for field in ("offsets", "start", "end", "level", "turn", "entity"):
        np.testing.assert_array_equal(getattr(case.conversations, field), getattr(want, field))
    for a in sets:
        np.testing.assert_array_equal(case.conversations.memberships[a], want.memberships[a])
    assert case.conversations_path.parent == path("cases")


def test_case_names_are_case_insensitive():
    assert load_case("R112").name == "r112"


@pytest.mark.parametrize("bad", ["r113", "", "pilot"])
def test_unknown_case_lists_the_valid_names(bad):
    with pytest.raises(ValueError, match=r"'name' parameter of datasets.load_case.*'r112', 'm002'"):
        load_case(bad)


@pytest.mark.parametrize("bad", [None, 112, b"r112"])
def test_case_name_of_the_wrong_type(bad):
    with pytest.raises(TypeError, match=r"'name' parameter of datasets.load_case.*'r112', 'm002'"):
        load_case(bad)


def test_path_refuses_what_is_not_bundled():
    with pytest.raises(ValueError, match="bundles no data at 'nothing/here'"):
        path("nothing", "here")
    with pytest.raises(TypeError, match="'parts' parameter of datasets.path"):
        path("cases", 3)


@pytest.mark.parametrize(
    "parts",
    [
        ("/etc/passwd",),
        ("..", "cli.py"),
        ("cases", "..", "..", "cli.py"),
        ("cases", "/etc"),
        ("cases", "a\x00"),
    ],
)
def test_path_refuses_what_lies_outside_the_bundled_data(parts):
    """The docstring's promise: a file or folder inside the bundled data, else ValueError."""
    with pytest.raises(ValueError, match="fairconv bundles no data at"):
        path(*parts)


def test_path_resolves_inside_the_bundled_data():
    root = path()
    assert path("fairweb1-pilot", "..", "cases") == path("cases") == root / "cases"
    assert path("cases", "r112-attributes.json").is_relative_to(root)
