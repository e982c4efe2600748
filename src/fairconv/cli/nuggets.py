"""``fairconv nuggets``: nugget scores from match labels, nuggetizer or CONE-RAG files."""

from __future__ import annotations

from ._common import add_table_output, emit

_FORMATS = ("labels", "nuggetizer", "cone-rag")


def add_commands(sub) -> None:
    """Add ``nuggets`` to the ``fairconv`` parser."""
    n = sub.add_parser(
        "nuggets",
        help="nugget scores: NtN/NtR from match labels or CONE-RAG files, nuggetizer's scores",
        description="Nugget scores per topic (or turn) and run, then each run's mean. "
        "labels: Recall-NtN, Precision-NtN and Recall-NtR from fairconv's match-label "
        "JSON Lines (one file). nuggetizer: strict-vital-score, strict-all-score, "
        "vital-score and all-score from castorini/nuggetizer assignment files (nuggetizer "
        "assign output; one or more). cone-rag: Recall-NtN, Precision-NtN and Recall-NtR "
        "as TREC iKAT 2024's CONE-RAG computes them, from its gold nuggets, response "
        "nuggets, NtN results and NtR coverage files.",
    )
    n.add_argument(
        "--input-format",
        default="labels",
        choices=_FORMATS,
        help="what the input files are (default: labels)",
    )
    n.add_argument(
        "--micro",
        action="store_true",
        help="labels: run scores as pooled ratios over turns (default: mean over turns)",
    )
    n.add_argument("--gold", metavar="GOLD.json", help="cone-rag: the gold nuggets file")
    n.add_argument(
        "--response-nuggets",
        metavar="RESP.json",
        help="cone-rag: the response nuggets file (NtN's input; needed with --ntn)",
    )
    n.add_argument(
        "--ntn", metavar="nuggets_results.json", help="cone-rag: NtN's nuggets_results.json"
    )
    n.add_argument(
        "--ntr",
        action="append",
        metavar="coverage_RUN.jsonl",
        help="cone-rag: an NtR coverage file (the run is the name between coverage_ and "
        ".jsonl); repeat for several",
    )
    add_table_output(n, "Precision-NtN, Recall-NtR")
    n.add_argument(
        "labels",
        nargs="*",
        metavar="FILE",
        help="labels: one LABELS.jsonl; nuggetizer: one or more assignment .jsonl files "
        "(the run is each record's run_id, else the file's name without extension)",
    )
    n.set_defaults(func=_cmd_nuggets)


def _refuse(args, options: list[str]) -> None:
    """Options that the input format does not take."""
    given = [o for o in options if getattr(args, o.lstrip("-").replace("-", "_"))]
    if given:
        raise ValueError(
            f"{', '.join(given)} do(es) not apply to --input-format {args.input_format}"
        )


def _cmd_nuggets(args) -> int:
    from .. import nuggets

    cone = ["--gold", "--response-nuggets", "--ntn", "--ntr"]
    if args.input_format == "cone-rag":
        _refuse(args, ["--micro"])
        if args.labels:
            raise ValueError(
                "--input-format cone-rag reads --gold, --response-nuggets, --ntn and --ntr, "
                f"not FILE arguments (got {' '.join(args.labels)})"
            )
        if not args.gold:
            raise ValueError("--input-format cone-rag needs --gold")
        if not args.ntn and not args.ntr:
            raise ValueError("--input-format cone-rag needs --ntn, --ntr or both")
        if args.ntn and not args.response_nuggets:
            raise ValueError("--ntn needs --response-nuggets (the matched nuggets it counts)")
        labels = nuggets.read_cone_rag(
            args.gold, args.response_nuggets, ntn=args.ntn, ntr=args.ntr or ()
        )
        table = nuggets.cone_rag_scores(labels)
    elif args.input_format == "nuggetizer":
        _refuse(args, ["--micro", *cone])
        if not args.labels:
            raise ValueError("--input-format nuggetizer needs one or more assignment files")
        table = nuggets.nuggetizer_scores([nuggets.read_nuggetizer(f) for f in args.labels])
    else:
        from ..io import read_labels

        _refuse(args, cone)
        if len(args.labels) != 1:
            raise ValueError(
                f"--input-format labels reads one LABELS.jsonl file (got {len(args.labels)})"
            )
        table = nuggets.evaluate(
            read_labels(args.labels[0]), average="micro" if args.micro else "macro"
        )
    emit(args, table, measures=args.measure)
    return 0
