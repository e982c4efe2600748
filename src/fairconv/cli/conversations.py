"""``fairconv gfrc`` and ``fairconv gfrc2``: the conversation measures."""

from __future__ import annotations

from ._common import UsageError, add_table_output, emit, float_list, save_figure, write


def add_commands(sub) -> None:
    """Add ``gfrc`` and ``gfrc2`` to the ``fairconv`` parser."""
    c = sub.add_parser(
        "gfrc",
        help="GFRC of conversations (R, GF per attribute set, GF, GFRC)",
        description="Turn-based relevance and group fairness of conversations (Sakai, EVIA "
        "2023; NTCIR-18 FairWeb-2 CS). Prints run, topic, measure, value rows.",
    )
    _add_conversation_inputs(c, "w0 (R), w1..wM (attribute sets)")
    c.add_argument("--variant", choices=["eq6", "eq7", "eq9"], help="R variant")
    c.add_argument("--gain", choices=["exp", "linear"], help="(2^l-1)/2^lmax or l/lmax")
    c.add_argument(
        "--method",
        choices=["independent", "cumulative"],
        help="achieved distribution per turn, or of all turns so far",
    )
    c.add_argument(
        "--empty",
        choices=["ignore", "uniform"],
        help="system turns without relevant nuggets: left out (default) or "
        "counted with a uniform distribution",
    )
    c.add_argument("--plot", metavar="FILE", help="write the R vs GF figure (plot extra)")
    c.add_argument(
        "--plot-by",
        choices=["run", "topic"],
        default="run",
        help="one point per run (mean) or per run and topic",
    )
    add_table_output(c, "GFRC, R, GF[HINDEX]")
    c.add_argument("conversations", nargs="+", metavar="CONVERSATIONS.jsonl")
    c.set_defaults(func=_cmd_gfrc)

    c2 = sub.add_parser(
        "gfrc2",
        help="GFRC2 of conversations (EGNP, EGF per attribute set, GFRC2)",
        description="Word-level expected experience of conversations (the GFRC2 paper, "
        "Eqs. 11-21). Prints run, topic, measure, value rows, or with "
        "--clusters the per-cluster table.",
    )
    _add_conversation_inputs(c2, "w0 (GNP), w1..wM (attribute sets)")
    c2.add_argument(
        "--clusters",
        action="store_true",
        help="print the per-cluster table (wc, GWCrel, WCnonrel, GNP, D, "
        "DistrSim, Experience, Prob)",
    )
    c2.add_argument(
        "--plot-by",
        choices=["auto", "conversation", "topic"],
        default="auto",
        help="conversation: a panel per conversation with GNP and each set's DistrSim (the "
        "paper's figures); topic: a grid of topic panels, one marker per run; auto "
        "(default): conversation for up to 4 conversations",
    )
    c2.add_argument(
        "--plot",
        metavar="FILE",
        help="write GNP and GF against word count (the paper's Figures 4-5; plot extra)",
    )
    add_table_output(c2, "GFRC2, EGNP, EGF[HINDEX]")
    c2.add_argument("conversations", nargs="+", metavar="CONVERSATIONS.jsonl")
    c2.set_defaults(func=_cmd_gfrc2)


def _add_conversation_inputs(parser, weights_help: str) -> None:
    """The inputs and options that gfrc and gfrc2 share (ConversationOptions)."""
    parser.add_argument("--attributes", required=True, help="attribute-set JSON file")
    parser.add_argument(
        "--preset",
        choices=["fairweb2", "gfrc2-paper", "evia2023"],
        help="named settings: fairweb2 (official: L=1000, eq7, exp gain; the "
        "default), gfrc2-paper (the same with eq6), evia2023 (L=1250, eq6, "
        "linear gain); the options below override it",
    )
    parser.add_argument("--L", type=int, help="patience in words, an integer >= 2")
    parser.add_argument("--lmax", type=int, help="highest relevance level (default 2)")
    parser.add_argument(
        "--weights",
        help=f"comma-separated weights {weights_help}, summing to 1; default equal",
    )
    parser.add_argument(
        "--no-dedupe",
        action="store_true",
        help="credit later mentions of an entity too (default: they earn nothing)",
    )


def _conversations(args):
    from ..io import read_attribute_sets, read_conversations

    return read_conversations(args.conversations, read_attribute_sets(args.attributes))


def _conversation_options(args) -> dict:
    """The options shared by the conversation commands (ConversationOptions fields)."""
    return dict(
        preset=args.preset,
        L=args.L,
        lmax=args.lmax,
        dedupe=False if args.no_dedupe else None,
        weights=None if args.weights is None else float_list(args.weights, "--weights"),
    )


def _cmd_gfrc(args) -> int:
    from .. import gfrc

    batch = _conversations(args)
    table = gfrc.evaluate(
        batch,
        variant=args.variant,
        gain=args.gain,
        method=args.method,
        empty=args.empty,
        **_conversation_options(args),
    )
    if args.plot:
        from ..plots import r_vs_gf

        save_figure(args, r_vs_gf(table, by=args.plot_by), args.plot)
    emit(args, table, measures=args.measure)
    return 0


def _cmd_gfrc2(args) -> int:
    from .. import gfrc2

    batch = _conversations(args)
    options = _conversation_options(args)
    if args.clusters and (args.measure or args.summary or args.format != "tsv"):
        raise UsageError("--clusters prints the per-cluster TSV: drop -m, --summary, --format")
    if args.plot or args.clusters:
        clusters = gfrc2.clusters(batch, **options)
    if args.plot:
        from ..plots import gfrc2_clusters

        save_figure(args, gfrc2_clusters(batch, clusters, by=args.plot_by), args.plot)
    if args.clusters:
        write(args, args.output, lambda f: gfrc2.write_clusters(batch, clusters, f))
    else:
        emit(args, gfrc2.evaluate(batch, **options), measures=args.measure)
    return 0
