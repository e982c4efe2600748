"""The data bundled with fairconv (see ``fairconv/data/README.md``), ready to score.

- :func:`fairweb1_pilot`: the NTCIR-17 FairWeb-1 pilot pack (qrels, three runs, six
  attribute sets), ready for :func:`fairconv.gfr.evaluate`.
- :func:`load_case`: the papers' worked conversations with their attribute sets.
- :func:`rankfair_pack`: a synthetic pack for :mod:`fairconv.rankfair` (every candidate
  doc's memberships, qrels, deterministic and sampled runs).
- :func:`path`: the path of any bundled file.

Everything is read from the installed package, so the published values can be
reproduced offline.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .divergences import AttributeSet
    from .io import AttributeData, ConversationBatch, GroupMemberships, Qrels, Run

from ._validation import fail_type, public
from .results import ScoreTable

__all__ = [
    "path",
    "fairweb1_pilot",
    "load_case",
    "sakai_book",
    "rankfair_pack",
    "PilotPack",
    "RankfairPack",
    "Case",
    "BookExample",
    "PILOT_ATTRIBUTES",
]

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
    "r112": (
        "r112-fairweb2.jsonl",
        "r112-attributes.json",
        "T. Sakai et al., GFRC2 paper: topic R112 of NTCIR-18 FairWeb-2 CS, Tables 1-5",
    ),
    "m002": (
        "m002-evia2023.jsonl",
        "m002-attributes.json",
        "T. Sakai, EVIA 2023: topic M002 (New Bing vs Google Bard), Tables 1-2",
    ),
}


@public
def path(*parts: str) -> Path:
    """Path of a bundled file or folder.

    Parameters
    ----------
    *parts : str
        Path components below ``fairconv/data``, e.g. ``"fairweb1-pilot", "runs"``.

    Returns
    -------
    Path
        An existing file or folder inside the installed package's data (resolved:
        no ``..`` and no link left in it).

    Raises
    ------
    TypeError
        If a component is not a string.
    ValueError
        If nothing of that name is bundled, or the components lead out of the bundled
        data (an absolute path, ``..``).

    Examples
    --------
    >>> sorted(p.name for p in path("fairweb1-pilot", "runs").iterdir())
    ['run.bm25-depThre6', 'run.qld-depThre6', 'run.qljm-depThre6']
    """
    for part in parts:
        if not isinstance(part, str):
            raise fail_type("parts", "be strings", repr(part))
    root = Path(str(resources.files("fairconv") / "data")).resolve()
    try:
        p = root.joinpath(*parts).resolve()
    except (OSError, ValueError):  # a NUL byte, a loop of links
        p = None
    if p is None or not p.is_relative_to(root) or not p.exists():
        raise ValueError(
            f"fairconv bundles no data at {'/'.join(parts)!r}; "
            "see fairconv/data/README.md for what it has."
        )
    return p


@dataclass(frozen=True, eq=False)
class PilotPack:
    """The FairWeb-1 pilot pack read into fairconv's objects.

    Parameters
    ----------
    qrels : Qrels
        Graded judgments (L0-L2) of the four pilot topics P001-P004.
    runs : tuple of Run
        The BM25, QLD and QLJM baselines (tags ``Anserini-bm25``, ``Anserini-qld``,
        ``Anserini-qljm``), 100 docs per topic.
    attributes : tuple of AttributeData
        The six attribute sets of :data:`PILOT_ATTRIBUTES` with their gmemb files;
        each covers the topics of its gmemb file.
    expected : Path
        The folder of the organisers' ``.GFRnev`` outputs for these runs
        (``<run>.<attribute set>.GFRnev``).
    folder : Path
        The folder of the pack itself.

    Examples
    --------
    >>> pilot = fairweb1_pilot()
    >>> pilot.qrels.topics, len(pilot.runs), len(pilot.attributes)
    (('P001', 'P002', 'P003', 'P004'), 3, 6)
    """

    qrels: Qrels
    runs: tuple[Run, ...]
    attributes: tuple[AttributeData, ...]
    expected: Path
    folder: Path | None = None


@public
def fairweb1_pilot() -> PilotPack:
    r"""Read the NTCIR-17 FairWeb-1 pilot pack bundled with fairconv.

    The qrels are read with :func:`fairconv.io.read_qrels`, the runs with
    :func:`fairconv.io.read_run` (in file-name order) and each attribute set of
    :data:`PILOT_ATTRIBUTES` with :func:`fairconv.io.load_attribute` from its gmemb
    file, its golddistr target and its scale.

    Returns
    -------
    PilotPack
        Ready for ``gfr.evaluate(p.qrels, p.runs, p.attributes)``; every value of
        ``p.expected`` is reproduced by it.

    Raises
    ------
    ValueError
        If the installed package lacks its data files (a broken installation).

    See Also
    --------
    fairconv.gfr.evaluate : scores the pack.

    Notes
    -----
    On a movie topic (P002) the pilot's GFR combines ERR with the sets that cover it,
    equally weighted:

    .. math:: GFR@k = \tfrac13 \left(ERR@k + GF\text{-}RNOD@k[RATINGS]
              + GF\text{-}JSD@k[ORIGIN]\right)

    References
    ----------
    NTCIR-17 FairWeb-1 task organisers, web search subtask pilot pack.
    T. Sakai, J. Y. Kim, I. Kang. A Versatile Framework for Evaluating Ranked Lists in
    Terms of Group Fairness and Relevance. ACM TOIS 42(1), 2023.

    Examples
    --------
    >>> from fairconv import gfr
    >>> p = fairweb1_pilot()
    >>> [r.name for r in p.runs]
    ['Anserini-bm25', 'Anserini-qld', 'Anserini-qljm']
    >>> [a.attribute.name for a in p.attributes]
    ['R-HINDEX', 'R-GENDER', 'M-RATINGS', 'M-ORIGIN', 'T-FOLLOWERS', 'Y-SUBSCS']
    >>> t = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    >>> round(t.value("Anserini-bm25", "P002", "ERR@10"), 4)
    0.3371
    >>> round(t.value("Anserini-bm25", "P002", "GF-JSD@10[M-ORIGIN]"), 4)
    0.8184
    >>> round(t.value("Anserini-bm25", "P002", "GFR@10"), 4)
    0.5998
    """
    from .io import load_attribute, read_qrels, read_run

    pilot = path("fairweb1-pilot")
    qrels = read_qrels(pilot / "fairweb1pilot.qrels")
    runs = tuple(read_run(p) for p in sorted((pilot / "runs").iterdir()))
    attributes = tuple(
        load_attribute(
            name, pilot / f"fairweb1pilot.{name}.gmemb", pilot / f"{name}.golddistr", scale
        )
        for name, scale in PILOT_ATTRIBUTES
    )
    return PilotPack(qrels, runs, attributes, pilot / "expected", pilot)


@dataclass(frozen=True, eq=False)
class Case:
    """A worked conversation case of the papers: attribute sets and conversations.

    Parameters
    ----------
    name : str
        ``"r112"`` or ``"m002"``.
    attribute_sets : tuple of AttributeSet
        The sets the nuggets give memberships for, in file order.
    conversations : ConversationBatch
        The annotated conversations, one per run.
    paper : str
        The paper and tables the case reproduces.
    conversations_path, attributes_path : Path
        The bundled files it was read from.

    Examples
    --------
    >>> case = load_case("r112")
    >>> case.name, [a.name for a in case.attribute_sets], case.conversations.runs
    ('r112', ['PRONOUN', 'HINDEX'], ('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1'))
    """

    name: str
    attribute_sets: tuple[AttributeSet, ...]
    conversations: ConversationBatch
    paper: str = ""
    conversations_path: Path | None = None
    attributes_path: Path | None = None


@public
def load_case(name: str, /) -> Case:
    """Read one of the papers' worked conversation cases.

    Parameters
    ----------
    name : {'r112', 'm002'}
        ``"r112"``: topic R112 of NTCIR-18 FairWeb-2 CS, runs COPWA-CS-QD-MN-2 and
        ORG-CS-D-MN-1, with the PRONOUN (nominal) and HINDEX (ordinal) sets (GFRC2
        paper, Tables 1-5). ``"m002"``: topic M002, New Bing vs Google Bard, with the
        RATINGS (ordinal) and ORIGIN (nominal) sets (EVIA 2023, Tables 1-2).
        Case-insensitive.

    Returns
    -------
    Case
        The attribute sets (:func:`fairconv.io.read_attribute_sets`) and the
        conversations (:func:`fairconv.io.read_conversations`).

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        For an unknown name; the message lists the valid ones.

    References
    ----------
    T. Sakai. Fairness-based Evaluation of Conversational Search: A Pilot Study.
    EVIA 2023, Tables 1-2.
    T. Sakai et al. The GFRC2 paper (NTCIR-18 FairWeb-2 CS), Tables 1-5.

    Examples
    --------
    >>> case = load_case("r112")
    >>> case.conversations.runs
    ('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1')
    >>> [(a.name, a.divergence) for a in case.attribute_sets]
    [('PRONOUN', 'JSD'), ('HINDEX', 'RNOD')]
    >>> load_case("m002").conversations.n_nuggets
    12
    """
    from ._validation import check_choice
    from .io import read_attribute_sets, read_conversations

    if not isinstance(name, str):
        raise fail_type("name", f"be one of {', '.join(map(repr, _CASES))}", repr(name))
    key = check_choice(name, "name", tuple(_CASES))
    conversations_file, attributes_file, paper = _CASES[key]
    conversations_path = path("cases", conversations_file)
    attributes_path = path("cases", attributes_file)
    sets = tuple(read_attribute_sets(attributes_path))
    return Case(
        key,
        sets,
        read_conversations(conversations_path, sets),
        paper,
        conversations_path,
        attributes_path,
    )


@dataclass(frozen=True, eq=False)
class BookExample:
    """Sakai's book example: per-topic nDCG@5 of three systems over 20 topics.

    Parameters
    ----------
    topics : tuple of str
        Q1..Q20.
    systems : tuple of str
        ("X", "Y", "Z").
    scores : ndarray, shape (20, 3)
        nDCG@5 per topic (row) and system (column).
    table : ScoreTable
        The same scores as a table with the measure ``nDCG@5``.

    Examples
    --------
    >>> book = sakai_book()
    >>> book.systems, book.scores.shape, book.table.measures
    (('X', 'Y', 'Z'), (20, 3), ('nDCG@5',))
    """

    topics: tuple
    systems: tuple
    scores: np.ndarray
    table: ScoreTable


@public
def sakai_book() -> BookExample:
    """The 20-topic, 3-system example of Sakai's book (Table 5.1), bundled.

    T. Sakai, *Information access evaluation methodology* (in Japanese), Corona, 2015;
    the files are those of the elinor project's test data (MIT licence, kept in
    ``fairconv/data/stats/``).

    Returns
    -------
    BookExample
        The topics, the systems and their nDCG@5 scores, as an array and a table.

    Examples
    --------
    >>> book = sakai_book()
    >>> book.scores.shape, book.systems
    ((20, 3), ('X', 'Y', 'Z'))
    >>> round(float(book.scores[:, 0].mean() - book.scores[:, 1].mean()), 4)
    0.075
    """
    columns: list[list[float]] = []
    topics: tuple[str, ...] = ()
    for name in ("X", "Y", "Z"):
        rows = path("stats", f"{name}.csv").read_text(encoding="utf-8").split()
        ids = tuple(r.split(",")[0] for r in rows[1:])
        if topics and ids != topics:
            raise ValueError(f"the bundled {name}.csv lists other topics than X.csv")
        topics = ids
        columns.append([float(r.split(",")[1]) for r in rows[1:]])
    scores = np.array(columns).T
    values = scores[:, :, None].copy()
    table = ScoreTable(
        topics=topics,
        runs=("X", "Y", "Z"),
        measures=("nDCG@5",),
        values=values,
        present=np.ones(values.shape, bool),
    )
    return BookExample(topics, ("X", "Y", "Z"), scores, table)


@dataclass(frozen=True, eq=False)
class RankfairPack:
    """The synthetic pack of the classic fair-ranking measures, read (``data/rankfair``).

    Parameters
    ----------
    qrels : Qrels
        Levels 0-2 of the eight topics R1-R8.
    runs : tuple of Run
        ``balanced``, ``relevance``, ``shuffled`` (one ranking of 20 docs per topic) and
        ``stochastic`` (10 sampled rankings per topic).
    memberships : dict of str to GroupMemberships
        ``gender`` (two groups, group 1 the minority) and ``region`` (three groups),
        one-hot, listing every candidate doc of each topic.
    folder : Path
        The folder of the pack.

    Examples
    --------
    >>> pack = rankfair_pack()
    >>> [r.name for r in pack.runs], len(pack.runs[3].samples)
    (['balanced', 'relevance', 'shuffled', 'stochastic'], 10)
    """

    qrels: Qrels
    runs: tuple[Run, ...]
    memberships: dict[str, GroupMemberships]
    folder: Path


@public
def rankfair_pack() -> RankfairPack:
    """Read the synthetic pack bundled for :mod:`fairconv.rankfair` (its README says how).

    Returns
    -------
    RankfairPack
        Ready for ``rankfair.evaluate(p.qrels, p.runs, p.memberships, protected=1)``.

    Examples
    --------
    >>> from fairconv import rankfair
    >>> p = rankfair_pack()
    >>> table = rankfair.evaluate(p.qrels, p.runs[:3], p.memberships, protected={"gender": 1},
    ...                           measures=["rND[gender]"])
    >>> round(table.value("relevance", "all", "rND[gender]"), 4)
    0.178
    """
    from .io import read_gmemb, read_qrels, read_run

    folder = path("rankfair")
    runs = tuple(read_run(p) for p in sorted((folder / "runs").iterdir()))
    memberships = {name: read_gmemb(folder / f"{name}.gmemb") for name in ("gender", "region")}
    return RankfairPack(read_qrels(folder / "rankfair.qrels"), runs, memberships, folder)
