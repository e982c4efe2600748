"""``fairconv gfr``: GFR of TREC runs, as a table or the organisers' ``.GFRnev`` layout."""

from __future__ import annotations

import os

from ._common import (
    UsageError,
    add_ranked_inputs,
    add_table_output,
    emit,
    float_list,
    int_list,
    ranked_inputs,
    write,
)


def add_commands(sub) -> None:
    """Add ``gfr`` to the ``fairconv`` parser."""
    g = sub.add_parser(
        "gfr",
        help="GFR of TREC runs (ERR, iRBU, GF-JSD/NMD/RNOD, GFR)",
        description="Score TREC runs with GFR (Sakai, Kim and Kang, TOIS 2023) as NTCIR "
        "FairWeb does. Prints run, topic, measure, value rows (TSV) with 'all' "
        "rows for the means, or the organisers' .GFRnev layout.",
    )
    add_ranked_inputs(
        g,
        "an attribute set: its name, gmemb file, target (golddistr file "
        "or comma-separated probabilities) and scale (nominal: JSD in GFR; "
        "ordinal: RNOD); repeat for each set",
    )
    g.add_argument(
        "--cutoffs",
        help="comma-separated depths (default 10,20,100, or those of -m); full depth is "
        "always reported",
    )
    g.add_argument(
        "--gains", default="1:3", help="gain of each level 1..lmax, colon-separated (default 1:3)"
    )
    g.add_argument("--phi", type=float, default=0.99, help="iRBU persistence (default 0.99)")
    g.add_argument(
        "--utility", default="ERR", choices=["ERR", "iRBU"], help="the utility in GFR (default ERR)"
    )
    g.add_argument(
        "--weights",
        help="comma-separated w0 (utility), w1..wM (attribute sets "
        "in order); default equal weights over the utility and the sets "
        "covering each topic",
    )
    g.add_argument(
        "--keep-first-duplicate",
        action="store_true",
        help="keep only the first occurrence of a doc listed twice for a topic (default: error)",
    )
    add_table_output(g, "GFR@10, GF-JSD@10[M-ORIGIN]", ("tsv", "json", "nev"))
    g.add_argument("--out-dir", help="with --format nev: write <run>.<set>.GFRnev files here")
    g.add_argument("--force", action="store_true", help="with --out-dir: overwrite existing files")
    g.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")
    g.set_defaults(func=_cmd_gfr)


def _cmd_gfr(args) -> int:
    from .. import gfr, rankings
    from ..io import write_nev

    if args.out_dir and args.format != "nev":
        raise UsageError("--out-dir writes .GFRnev files: it needs --format nev")
    if args.out_dir and args.output:
        raise UsageError("give -o/--output or --out-dir, not both")
    if args.format == "nev" and (args.measure or args.summary):
        raise UsageError("--format nev prints every measure of every topic: drop -m/--summary")
    qrels, runs, attributes = ranked_inputs(args)
    options = dict(
        cutoffs=None if args.cutoffs is None else int_list(args.cutoffs, "--cutoffs"),
        measures=args.measure,
        gains=float_list(args.gains, "--gains", ":"),
        phi=args.phi,
        utility=args.utility,
        weights=None if args.weights is None else float_list(args.weights, "--weights"),
    )
    duplicates = "first" if args.keep_first_duplicate else "error"
    lists = rankings.prepare(
        qrels,
        runs,
        attributes,
        order=args.order,
        duplicates=duplicates,
        nonrelevant_membership=args.nonrelevant_membership,
        n_jobs=args.jobs,
    )
    table = gfr.evaluate(qrels, runs, attributes, lists=lists, n_jobs=args.jobs, **options)
    if args.format != "nev":
        emit(args, table)
        return 0
    if args.out_dir:
        files: dict[str, str] = {}
        for r, run in enumerate(runs):
            base = os.path.basename(run.source)
            if base in files:
                raise ValueError(
                    f"two runs have the file name {base!r} ({files[base]} and {run.source}); "
                    "their .GFRnev files would overwrite each other"
                )
            files[base] = run.source
            for m, data in enumerate(attributes):
                name = os.path.join(args.out_dir, f"{base}.{data.attribute.name}.GFRnev")
                write(
                    args,
                    name,
                    lambda f, r=r, m=m: write_nev(
                        table,
                        qrels,
                        attributes,
                        f,
                        lengths=lists.lengths,
                        run_index=r,
                        attribute_index=m,
                    ),
                    force=args.force,
                    mkdir=True,
                )
        return 0
    write(
        args, args.output, lambda f: write_nev(table, qrels, attributes, f, lengths=lists.lengths)
    )
    return 0
