"""The data bundled with fairconv (see ``fairconv/data/README.md``), ready to score.

- :func:`fairweb1_pilot`: the NTCIR-17 FairWeb-1 pilot pack (qrels, three runs, six
  attribute sets), ready for :func:`fairconv.gfr.evaluate`.
- :func:`load_case`: the papers' worked conversations with their attribute sets.
- :func:`path`: the path of any bundled file.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["path", "fairweb1_pilot", "load_case", "PilotPack", "Case", "PILOT_ATTRIBUTES"]

PILOT_ATTRIBUTES = (
    ("R-HINDEX", "ordinal"),
    ("R-GENDER", "nominal"),
    ("M-RATINGS", "ordinal"),
    ("M-ORIGIN", "nominal"),
    ("T-FOLLOWERS", "ordinal"),
    ("Y-SUBSCS", "ordinal"),
)
"""The pilot's attribute sets and their scales (nominal: JSD; ordinal: RNOD)."""

_CASES = {
    "r112": ("r112-fairweb2.jsonl", "r112-attributes.json"),
    "m002": ("m002-evia2023.jsonl", "m002-attributes.json"),
}


def path(*parts: str) -> Path:
    """Path of a bundled file or folder, e.g. ``path("fairweb1-pilot", "runs")``.

    Raises
    ------
    ValueError
        If nothing of that name is bundled.
    """
    p = Path(str(resources.files("fairconv") / "data")).joinpath(*parts)
    if not p.exists():
        raise ValueError(
            f"fairconv bundles no data at {'/'.join(parts)!r}; "
            "see fairconv/data/README.md for what it has."
        )
    return p


@dataclass(frozen=True, eq=False)
class PilotPack:
    """The FairWeb-1 pilot pack read into fairconv's objects.

    Attributes
    ----------
    qrels : Qrels
    runs : tuple of Run
        BM25, QLD and QLJM baselines, 100 docs per topic.
    attributes : tuple of AttributeData
        The six attribute sets of :data:`PILOT_ATTRIBUTES` with their gmemb files.
    expected : Path
        The folder of the organisers' ``.GFRnev`` outputs for these runs.
    """

    qrels: object
    runs: tuple
    attributes: tuple
    expected: Path


def fairweb1_pilot() -> PilotPack:
    """Read the NTCIR-17 FairWeb-1 pilot pack bundled with fairconv.

    Returns
    -------
    PilotPack
        Ready for ``gfr.evaluate(p.qrels, p.runs, p.attributes)``.

    Examples
    --------
    >>> from fairconv import gfr
    >>> p = fairweb1_pilot()
    >>> [r.tag for r in p.runs]
    ['Anserini-bm25', 'Anserini-qld', 'Anserini-qljm']
    >>> t = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    >>> round(t.value("Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]"), 4)
    0.8184
    """
    from . import readers
    from .rankings import load_attribute

    pilot = path("fairweb1-pilot")
    qrels = readers.read_qrels(pilot / "fairweb1pilot.qrels")
    runs = tuple(readers.read_run(p) for p in sorted((pilot / "runs").iterdir()))
    attributes = tuple(
        load_attribute(
            name, pilot / f"fairweb1pilot.{name}.gmemb", pilot / f"{name}.golddistr", scale
        )
        for name, scale in PILOT_ATTRIBUTES
    )
    return PilotPack(qrels, runs, attributes, pilot / "expected")


@dataclass(frozen=True, eq=False)
class Case:
    """A worked conversation case: its attribute sets and conversations."""

    name: str
    attribute_sets: tuple
    conversations: object


def load_case(name: str) -> Case:
    """Read one of the papers' worked cases: ``"r112"`` (GFRC2 paper) or ``"m002"`` (EVIA 2023).

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid ones.

    Examples
    --------
    >>> case = load_case("r112")
    >>> case.conversations.runs
    ('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1')
    """
    from .conversation import read_attribute_sets, read_conversations

    if name not in _CASES:
        raise ValueError(
            f"The 'name' parameter of load_case must be one of {', '.join(map(repr, _CASES))}. "
            f"Got {name!r} instead."
        )
    conversations, attributes = _CASES[name]
    sets = tuple(read_attribute_sets(path("cases", attributes)))
    return Case(name, sets, read_conversations(path("cases", conversations), sets))
