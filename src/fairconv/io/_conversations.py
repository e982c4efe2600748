"""The JSON readers of conversations and attribute sets, and the conversations' writer.

Each reads JSON Lines (or one JSON document) by the rules of :mod:`fairconv.io._json`
and hands the decoded records to the builder that checks them and makes arrays of
them (:func:`fairconv.io.batch_from_records`). Every error names the file, the line and
the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter, methodcaller
from pathlib import Path

from .._files import write_output
from .._validation import Where, check_sequence_of, fail_type, file_error, kind_of, public
from ..divergences import AttributeSet
from ._conversation_records import Blocks, Conversation, ConversationBatch
from ._json import (
    Blockwise,
    FileRuns,
    json_repr,
    json_str,
    one_way_of_naming_runs,
    read_json,
)
from ._tables import read_golddistr
from ._text import FileFormatError, source_name

__all__ = ["read_attribute_sets", "read_conversations", "write_conversations", "golddistr_path"]


def golddistr_path(path, target: str) -> Path:
    """Where an attribute-set JSON's ``"target"`` file is: next to the JSON ``path``."""
    return Path(str(path)).parent / target


@public
def read_attribute_sets(path, /) -> list[AttributeSet]:
    """Read the attribute-set JSON of docs/formats.md.

    The file is an object mapping each set's name to ``{"target": [...] | "golddistr
    path", "scale": "nominal" | "ordinal", "divergence": optional}``.

    Parameters
    ----------
    path : str, os.PathLike or file
        The JSON file; a golddistr path in it is relative to the file's folder.

    Returns
    -------
    list of AttributeSet
        The sets in the order of the file.

    Raises
    ------
    ValueError
        Naming the file and the set: invalid JSON or UTF-8, an empty file, a field of
        the wrong type, a target that is not a distribution.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_attribute_sets
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> [(s.name, s.scale, s.divergence) for s in sets]
    [('PRONOUN', 'nominal', 'JSD'), ('HINDEX', 'ordinal', 'RNOD')]
    """
    spec = read_json(path)
    where = Where(source_name(path))
    if not isinstance(spec, dict) or not spec:
        raise file_error(
            where,
            "expected an object mapping attribute-set names to "
            '{"target": [...], "scale": "nominal" | "ordinal"}',
        )
    out = []
    for name, entry in spec.items():
        json_str(name, "attribute-set name", where)
        if not isinstance(entry, dict) or "target" not in entry or "scale" not in entry:
            raise file_error(where, f'attribute set {name!r} needs a "target" and a "scale"')
        unknown = set(entry) - {"target", "scale", "divergence"}
        if unknown:
            raise file_error(
                where, f"attribute set {name!r}: unknown field(s) {', '.join(sorted(unknown))}"
            )
        target = entry["target"]
        for key in ("scale", "divergence"):
            value = entry.get(key)
            if key in entry and type(value) is not str:
                raise file_error(
                    where,
                    f'attribute set {name!r}: "{key}" must be a string, got {json_repr(value)}',
                )
        if isinstance(target, str):
            golddistr = golddistr_path(path, target)
            try:
                target = read_golddistr(golddistr)
            except FileFormatError:
                raise
            except (OSError, ValueError) as exc:  # missing, a folder, a NUL byte
                raise file_error(
                    where,
                    f'attribute set {name!r}: the "target" file {str(golddistr)!r} '
                    f"cannot be read ({getattr(exc, 'strerror', None) or exc})",
                ) from None
        elif not isinstance(target, list) or not all(type(x) in (int, float) for x in target):
            raise file_error(
                where,
                f'attribute set {name!r}: "target" must be an array of numbers or a '
                f"golddistr path, got {json_repr(target)}",
            )
        try:
            out.append(AttributeSet(name, target, entry["scale"], entry.get("divergence")))
        except (ValueError, TypeError) as exc:
            raise file_error(where, f"attribute set {name!r}: {exc}") from None
    return out


@public
def read_conversations(paths, attribute_sets: Sequence[AttributeSet], /) -> ConversationBatch:
    """Read annotated conversations (JSON Lines, docs/formats.md) into a checked batch.

    Parameters
    ----------
    paths : path or sequence of paths
        One file or several. Every record of a file gives its ``run``, or none does:
        then the file's name is the run (two files of one name in different folders
        are an error).
    attribute_sets : sequence of AttributeSet
        The sets the nuggets give memberships for (:func:`read_attribute_sets`).

    Returns
    -------
    ConversationBatch
        The conversations' nuggets as arrays, checked, with the attribute sets.

    Raises
    ------
    ValueError
        Naming the file, the line and the field: invalid JSON or UTF-8, an empty
        file, a record without ``run`` among records with one, and every rule of
        :func:`batch_from_records`.

    See Also
    --------
    write_conversations : writes conversations as JSON Lines.
    batch_from_records : a batch from records in memory.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_attribute_sets, read_conversations
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    >>> batch.runs, batch.topics
    (('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1'), ('R112', 'R112'))
    """
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__") or hasattr(paths, "read"):
        paths = [paths]
    elif not isinstance(paths, Sequence):
        raise fail_type("paths", "be a path, an open file or a sequence of them", kind_of(paths))
    for path in paths:
        source_name(path, "paths")
    batch = Blocks(check_sequence_of(attribute_sets, AttributeSet, "attribute_sets"))
    file_runs = FileRuns(
        'the records have no "run" and take their file\'s name',
        'Give the records a "run" field, or the files different names.',
    )
    first: dict[str, tuple[bool, str]] = {}  # per file: whether its first record gives a run

    def name_runs(name: str, block: list) -> None:  # the reader's own rule, over every line
        wheres = [Where(name, line) for line, _ in block]
        given = _name_runs([r for _, r in block], wheres, first.get(name), file_runs)
        if given is not None:
            first[name] = given

    def build(name: str, block: list) -> None:
        batch.add([r for _, r in block], [Where(name, line) for line, _ in block])

    blocks = Blockwise(name_runs, build)
    for path in paths:
        blocks.read(path, count_keys=_record_keys, block_bytes=_BLOCK_BYTES)
    blocks.check()
    return batch.batch()


_BLOCK_BYTES = 1 << 18
"""Text of conversation records decoded at a time: their objects are dropped once the
block is arrays, so that few are alive at once and the collector's passes stay short
(bench_gfrc's command took the least time with blocks of 256 KB: 1 MB and 4 MB blocks
cost 15% and 40% more, 64 KB blocks 15% more, in the fixed work per block)."""


def _name_runs(records: list, wheres: list, first, file_runs: FileRuns):
    """Give the records without ``run`` their file's name, by the rules of runs.

    Every record of a file gives its run, or none does (``first``: whether the file's
    first record gives one, and where it is; None before it); two files naming one run
    are an error. Returns ``first``.
    """
    dicts = [(r, w) for r, w in zip(records, wheres, strict=True) if type(r) is dict]
    given = list(map(methodcaller("__contains__", "run"), map(itemgetter(0), dicts)))
    if first is None and dicts:
        first = (given[0], dicts[0][1])
    if first is None or (first[0] and all(given)):
        return first
    for (rec, where), has in zip(dicts, given, strict=True):
        one_way_of_naming_runs(has, first[0], where, first[1], "run")
        run = os.path.basename(where.path)
        file_runs.add(run, where.path, where)
        rec["run"] = run
    return first


def _record_keys(values: list) -> int:
    """Keys of the objects conversations are read from (``count_keys`` of :func:`iter_jsonl`).

    The records, their nuggets and turns, and the nuggets' groups.
    """
    records = [v for v in values if type(v) is dict]
    lists = [x for r in records for x in (r.get("nuggets"), r.get("turns")) if type(x) is list]
    items = [x for x in chain.from_iterable(lists) if type(x) is dict]
    groups = [g for g in map(methodcaller("get", "groups"), items) if type(g) is dict]
    return sum(map(len, records)) + sum(map(len, items)) + sum(map(len, groups))


@public
def write_conversations(
    conversations: Sequence[Conversation], out, /, *, overwrite: bool = False
) -> None:
    """Write conversations as JSON Lines, one record per conversation (docs/formats.md).

    Parameters
    ----------
    conversations : sequence of Conversation
        The conversations to write, one record each, in order.
    out : path or text file
        Where to write: an open file is written into; a path is written whole or not
        at all (the output rule of every writer), never over a file unless
        ``overwrite``.
    overwrite : bool
        Replace a file already at the path ``out``.

    Raises
    ------
    TypeError
        If an item is not a :class:`Conversation`, or ``out`` is neither a path nor an
        open file.
    FileExistsError
        If a file is at the path ``out`` and ``overwrite`` is False.

    See Also
    --------
    read_conversations : reads them back.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from fairconv.io import Conversation, Nugget, iter_jsonl, write_conversations
    >>> c = Conversation("T1", "A", [Nugget(4, 5, level=2)], text="U: hi S: a b c")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_conversations([c], Path(folder) / "c.jsonl")
    ...     iter_jsonl(Path(folder) / "c.jsonl")[0][1]["nuggets"]
    [{'start': 4, 'end': 5, 'level': 2}]
    """
    records = check_sequence_of(conversations, Conversation, "conversations")
    text = "".join(json.dumps(c.to_json(), ensure_ascii=False) + "\n" for c in records)
    write_output(out, lambda f: f.write(text), overwrite=overwrite)
