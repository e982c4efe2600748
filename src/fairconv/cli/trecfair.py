"""``fairconv trecfair``: the TREC Fair Ranking measures (Task 1 and Task 2, 2021 and 2022)."""

from __future__ import annotations

import argparse

from .._validation import notice
from ._common import add_table_output, emit
from ._outputs import UsageError


def add_commands(sub) -> None:
    """Add ``trecfair`` to the ``fairconv`` parser."""
    p = sub.add_parser(
        "trecfair",
        help="TREC Fair Ranking: nDCG, AWRF, nDCG*AWRF (Task 1); EE-L, EE-D, EE-R (Task 2)",
        description="The TREC Fair Ranking 2021/2022 measures per topic, as the track's "
        "official evaluation computes them (see docs/trecfair.md for its surprises).",
    )
    p.add_argument("--task", required=True, choices=["1", "2"])
    p.add_argument(
        "--edition",
        choices=["2022", "2021"],
        default="2022",
        help="the edition whose rules and defaults apply (default 2022)",
    )
    p.add_argument(
        "--qrels", required=True, help="relevant pages: the track's topic JSON Lines or TREC qrels"
    )
    p.add_argument(
        "--dimension",
        nargs=2,
        action="append",
        metavar=("NAME", "ALIGNMENT"),
        help="a fairness dimension and its alignment table; repeat, in intersection order",
    )
    p.add_argument(
        "--metadata",
        help="the organisers' per-page metadata file (instead of --dimension; gives the "
        "work levels too)",
    )
    p.add_argument(
        "--dimensions",
        help="comma-separated dimensions to take from --metadata (default: all, official order)",
    )
    p.add_argument("--targets", help="explicit targets, long or wide form (default: built)")
    p.add_argument(
        "--background",
        nargs=2,
        action="append",
        metavar=("NAME", "SOURCE"),
        help="background of a dimension for built targets: a table 'category weight' or a "
        "preset (trec2022-world-pop, trec2022-gender, trec2021-geography, trec2021-gender)",
    )
    p.add_argument("--work", help="work levels 'page_id level' (built Task 2 targets)")
    p.add_argument("--target-len", type=int, metavar="N", help="N (default by edition and task)")
    p.add_argument(
        "--depth",
        type=_cut_option,
        default="edition",
        metavar="K|edition|none",
        help="lines kept per topic (Task 1) or ranking (Task 2): K lines, 'none' for all, "
        "or 'edition' (default): the edition's own cut (2021 keeps 20 and 6, 2022 all)",
    )
    p.add_argument(
        "--sequences",
        type=_cut_option,
        default="edition",
        metavar="S|edition|none",
        help="Task 2: keep the rankings with seq_no <= S, 'none' for all, or 'edition' "
        "(default): the edition's own cut (2021 keeps 25, 2022 all)",
    )
    p.add_argument(
        "--order",
        default="file",
        choices=["file", "score"],
        help="rank order of each ranking: the file's line order (default, as the official "
        "evaluation) or trec_eval's score order (TREC run lines only: the track's own "
        "'topic page' lines have no score)",
    )
    p.add_argument("--topics", help="score only the topics of this file (one id per line)")
    p.add_argument(
        "--write-targets", metavar="FILE", help="write the targets used (long form) to FILE"
    )
    add_table_output(p, "nDCG, AWRF[gender], nDCG*AWRF[gender]")
    p.add_argument("runs", nargs="*", metavar="RUN", help="run files of the task")
    p.set_defaults(func=_cmd_trecfair)


def _cut_option(text: str):
    """A cut as the command line spells it: K, 'edition' or 'none' (0: none, deprecated)."""
    if text in ("edition", "none"):
        return None if text == "none" else text
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"takes K (an integer >= 1), 'edition' or 'none'; got {text!r}"
        )
    return value


def _cmd_trecfair(args) -> int:
    from .. import trecfair as tf
    from ..trecfair._evaluate import TrecFairFamily, evaluate_with

    _check_options(args)
    dims, work, backgrounds, topics = _inputs(args)
    qrels = tf.read_qrels(args.qrels)
    runs = [tf.read_run(path, task=args.task) for path in args.runs]
    if not runs:  # --write-targets alone: the targets of the qrels' topics (or --topics)
        if args.targets:
            used = tf.read_targets(args.targets, dims)
        else:
            used = tf.build_targets(
                qrels,
                dims,
                task=args.task,
                edition=args.edition,
                backgrounds=backgrounds,
                work=work,
                topics=topics,
            )
        args.outputs.write(args.write_targets, used.to_tsv)
        return 0
    # evaluate's own route, with the targets it uses written once they are known (before
    # any run is scored): an output option never changes what is computed
    family = TrecFairFamily(
        dims,
        task=args.task,
        edition=args.edition,
        targets=args.targets,
        backgrounds=backgrounds,
        work=work,
        target_len=args.target_len,
        depth=args.depth,
        sequences=args.sequences,
        topics=topics,
        on_targets=(
            (lambda used: args.outputs.write(args.write_targets, used.to_tsv))
            if args.write_targets
            else None
        ),
    )
    table = evaluate_with(qrels, runs, family, order=args.order, n_jobs=args.jobs)
    emit(args, table, measures=args.measure)
    return 0


def _check_options(args) -> None:
    """The options that go (or not) together, checked before any file is read."""
    args.task, args.edition = int(args.task), int(args.edition)
    if args.write_targets:  # refused before any work if it clashes with an input or -o
        args.outputs.claim(args.write_targets)
    if not args.runs and not args.write_targets:
        raise UsageError("give at least one RUN (or --write-targets FILE to build targets only)")
    if bool(args.dimension) == bool(args.metadata):
        raise UsageError("give either --dimension NAME ALIGNMENT (repeatable) or --metadata FILE")
    if args.dimensions and not args.metadata:
        raise UsageError("--dimensions selects from --metadata; give --metadata FILE")
    if args.targets and (args.background or args.work):
        raise UsageError("--background and --work build targets; they cannot go with --targets")
    if args.target_len is not None and args.target_len < 1:
        raise UsageError("--target-len must be an integer >= 1")
    for option in ("depth", "sequences"):
        if getattr(args, option) == 0:
            notice(
                f"--{option} 0 for no cut is deprecated and will be refused in the next "
                f"release; write --{option} none"
            )
            setattr(args, option, None)


def _inputs(args):
    """The dimensions, work levels, backgrounds and topics the options name."""
    from .. import trecfair as tf

    work = None
    if args.metadata:
        names = None if not args.dimensions else args.dimensions.split(",")
        dims, work = tf.read_metadata(args.metadata, edition=args.edition, dimensions=names)
    else:
        dims = [tf.read_alignment(name, path) for name, path in _dimensions(args.dimension)]
    if args.work:
        work = tf.read_work(args.work)
    if args.targets or args.task == 1:
        work = None  # the metadata's work levels build Task 2 targets only
    backgrounds: dict | None = None
    if args.background:
        backgrounds = {}
        for name, source in args.background:
            if name in backgrounds:
                raise UsageError(f"--background {name} is given twice")
            backgrounds[name] = source
    topics = None
    if args.topics:
        from ..io import read_topics

        topics = list(read_topics(args.topics))
    return dims, work, backgrounds, topics


def _dimensions(given: list) -> list:
    """The --dimension NAME ALIGNMENT pairs, each NAME a dimension name, given once."""
    from ..io._trecfair import dimension_name_fault

    seen: set = set()
    for name, _ in given:
        fault = dimension_name_fault(name)
        if fault:
            raise UsageError(f"--dimension NAME ALIGNMENT: NAME must {fault}; got {name!r}")
        if name in seen:
            raise UsageError(f"--dimension {name} is given twice")
        seen.add(name)
    return given
