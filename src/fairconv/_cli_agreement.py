"""Command-line commands of :mod:`fairconv.agreement`: ``agree`` and ``labels``."""

from __future__ import annotations

import sys


# --------------------------------------------------------------------------- labels
def _number(value: float) -> str:
    return "NaN" if value != value else repr(float(value))


def _label_text(value) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "NaN"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _cmd_labels(args) -> int:
    from . import agreement
    from .cli import _write

    data = agreement.read_label_file(args.labels)
    n_raters = len(data.raters)
    if n_raters < 2 and not args.vote:
        raise ValueError(
            f"{args.labels}: agreement needs at least 2 raters; the file has {n_raters} "
            f"({', '.join(data.raters)})"
        )
    categories = None
    if args.categories is not None:
        categories = [c for c in args.categories.split(",") if c]
        if data.numeric:
            categories = [float(c) for c in categories]
    if args.vote:
        vote = agreement.majority_vote(data.labels, ties=args.ties, categories=categories)

        def write_votes(out) -> None:
            out.write("item\tlabel\tvotes\tratings\n")
            out.write(
                "".join(
                    f"{item}\t{_label_text(label)}\t{v}\t{n}\n"
                    for item, label, v, n in zip(
                        data.items,
                        vote.labels.tolist(),
                        vote.votes.tolist(),
                        vote.n_ratings.tolist(),
                        strict=True,
                    )
                )
            )

        _write(args.output, write_votes)
        return 0
    rows: list[tuple[str, float]] = []
    if n_raters == 2:
        a, b = data.labels[:, 0], data.labels[:, 1]
        acc = agreement.accuracy(a, b)
        kappa = agreement.cohen_kappa(a, b, weighting=args.weighting, categories=categories)
        name = "cohen_kappa" if args.weighting is None else f"cohen_kappa[{args.weighting}]"
        rows += [("n_items", acc.n_items), ("accuracy", acc.statistic), (name, kappa.statistic)]
    else:
        rows.append(("n_items", len(data.items)))
        counts = (
            (data.labels == data.labels) if data.numeric else (data.labels != None)  # noqa: E711
        ).sum(axis=1)
        if (counts == counts[0]).all() and counts[0] >= 2:
            rows.append(("fleiss_kappa", agreement.fleiss_kappa(data.labels).statistic))
        else:
            print(
                "fairconv labels: fleiss_kappa left out: the items do not all have the same "
                "number of labels",
                file=sys.stderr,
            )
    alpha = agreement.krippendorff_alpha(data.labels, level=args.level, categories=categories)
    rows.append((f"krippendorff_alpha[{args.level}]", alpha.statistic))
    rows.insert(1, ("n_raters", n_raters))

    def write_rows(out) -> None:
        out.write("measure\tvalue\n")
        for name, value in rows:
            text = str(value) if isinstance(value, int) else _number(value)
            out.write(f"{name}\t{text}\n")

    _write(args.output, write_rows)
    return 0


# --------------------------------------------------------------------------- parser
def add_commands(sub) -> None:
    """Add this module's subcommands to the ``fairconv`` parser."""
    lab = sub.add_parser(
        "labels",
        help="agreement between assessors: accuracy, Cohen's and Fleiss' kappa, "
        "Krippendorff's alpha, majority labels",
        description="Read 'item rater label' rows (docs/formats.md, Label files; labels "
        "are numbers or strings; a rater with no row for an item gave it no label). "
        "With two raters prints accuracy and Cohen's kappa, with more Fleiss' kappa "
        "(when every item has the same number of labels); Krippendorff's alpha always. "
        "Output: 'measure value' rows. With --vote: the majority label of each item "
        "instead ('item label votes ratings' rows; NaN where there is none).",
    )
    lab.add_argument(
        "--weighting",
        choices=["linear", "quadratic"],
        help="weighted Cohen's kappa for graded labels (two raters); disagreements "
        "count by the distance between the categories' positions",
    )
    lab.add_argument(
        "--level",
        choices=["nominal", "ordinal", "interval"],
        default="nominal",
        help="Krippendorff's alpha difference function (default nominal); interval "
        "needs numeric labels",
    )
    lab.add_argument(
        "--categories",
        metavar="L1,L2,...",
        help="every label from lowest to highest, comma-separated: the order that "
        "--weighting, --level ordinal and --ties lowest/highest need for string labels "
        "(numbers are ordered by value)",
    )
    lab.add_argument(
        "--vote", action="store_true", help="print the majority label of each item instead"
    )
    lab.add_argument(
        "--ties",
        choices=["missing", "lowest", "highest"],
        default="missing",
        help="with --vote, an item whose top labels tie gets no label (default), or the "
        "lowest or highest of them",
    )
    lab.add_argument("-o", "--output", help="write to this file instead of stdout")
    lab.add_argument("labels", metavar="FILE", help="'item rater label' rows")
    lab.set_defaults(func=_cmd_labels)
