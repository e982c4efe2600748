"""``fairconv nuggets``: nugget recall and precision from match labels."""

from __future__ import annotations

from ._common import add_table_output, emit


def add_commands(sub) -> None:
    """Add ``nuggets`` to the ``fairconv`` parser."""
    n = sub.add_parser(
        "nuggets",
        help="nugget recall and precision (NtN, NtR) from match labels",
        description="Recall-NtN, Precision-NtN and Recall-NtR per turn and per run from "
        "nugget match labels (TREC iKAT 2024 style).",
    )
    n.add_argument(
        "--micro",
        action="store_true",
        help="run scores as pooled ratios over turns (default: mean over turns)",
    )
    add_table_output(n, "Recall_NtN, Precision_NtN")
    n.add_argument("labels", metavar="LABELS.jsonl")
    n.set_defaults(func=_cmd_nuggets)


def _cmd_nuggets(args) -> int:
    from .. import nuggets
    from ..io import read_labels

    labels = read_labels(args.labels)
    table = nuggets.coverage(labels, average="micro" if args.micro else "macro")
    emit(args, table, measures=args.measure)
    return 0
