"""``fairconv ragfair``: RIGF and ADsim of RAG answers against the retrieved lists."""

from __future__ import annotations

from ._common import (
    add_ranked_inputs,
    add_table_output,
    emit,
    float_list,
    int_list,
    ranked_inputs,
    save_figure,
)


def add_commands(sub) -> None:
    """Add ``ragfair`` to the ``fairconv`` parser."""
    r = sub.add_parser(
        "ragfair",
        help="RIGF and ADsim: the group fairness gap from retrieval to generation",
        description="GF of the retrieved list (GF-Re), of the generated answer (GF-Gen), "
        "their relative gap RIGF (percent) and ADsim per attribute set, and "
        "the weighted overall GF-Re, GF-Gen, RIGF (Tao and Sakai, 2025).",
    )
    add_ranked_inputs(r, "an attribute set, as for 'fairconv gfr'; repeat for each set")
    r.add_argument("--answers", required=True, help="RAG answers (JSON Lines)")
    r.add_argument(
        "--cutoffs",
        help="comma-separated depths of the retrieved list besides full depth (e.g. 10; "
        "default none, or those of -m)",
    )
    r.add_argument(
        "--weights",
        help="comma-separated weights of the attribute sets for the overall values (default equal)",
    )
    r.add_argument("--plot", metavar="FILE", help="write the per-topic RIGF bar chart")
    r.add_argument(
        "--plot-attribute",
        metavar="NAME",
        help="attribute set of the bar chart (default: the overall RIGF)",
    )
    r.add_argument(
        "--plot-run",
        action="append",
        metavar="RUN",
        help="a run to draw, one panel each; repeat for several (default: every run, at most 12)",
    )
    add_table_output(r, "RIGF@10, ADsim@10[M-ORIGIN]")
    r.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (the retrieval)")
    r.set_defaults(func=_cmd_ragfair)


def _cmd_ragfair(args) -> int:
    from .. import ragfair
    from ..io import read_answers

    qrels, runs, attributes = ranked_inputs(args)
    if not attributes:
        raise ValueError("give at least one --attribute NAME GMEMB TARGET SCALE")
    answers = read_answers(args.answers, [a.attribute for a in attributes])
    weights = None if args.weights is None else float_list(args.weights, "--weights")
    table = ragfair.evaluate(
        qrels,
        runs,
        attributes,
        answers,
        cutoffs=None if args.cutoffs is None else int_list(args.cutoffs, "--cutoffs"),
        measures=args.measure,
        weights=weights,
        order=args.order,
        nonrelevant_membership=args.nonrelevant_membership,
        n_jobs=args.jobs,
    )
    if args.plot:
        from ..plots import rigf_bars

        depths = [] if args.cutoffs is None else int_list(args.cutoffs, "--cutoffs")
        figure = rigf_bars(
            table,
            attribute=args.plot_attribute,
            cutoff=depths[0] if depths else None,
            runs=args.plot_run,
        )
        save_figure(args, figure, args.plot)
    emit(args, table)
    return 0
