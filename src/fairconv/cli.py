"""The ``fairconv`` command line: one subcommand per measure family, plus ``demo``.

Bad input ends with a one-line message on stderr (naming the file and line where
there is one) and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

import numpy as np

from . import __version__
from ._output import Outputs, UsageError

_OUTPUTS: list[Outputs] = []  # the outputs of the run in progress (one per main() call)


def _demo_divergences(out) -> None:
    import numpy as np

    from .divergences import distr_sim, jsd, nmd, rnod

    target = [0.7, 0.1, 0.1, 0.1]
    print("Divergences: worked example of the FairWeb-2 slides", file=out)
    print("target D* = (0.7, 0.1, 0.1, 0.1)", file=out)
    print(f"{'D':<24}{'JSD':>8}{'NMD':>8}{'RNOD':>8}", file=out)
    for name, d in (
        ("D1 = (0.1,0.7,0.1,0.1)", [0.1, 0.7, 0.1, 0.1]),
        ("D2 = (0.1,0.1,0.1,0.7)", [0.1, 0.1, 0.1, 0.7]),
    ):
        print(
            f"{name:<24}{float(jsd(d, target)):8.4f}{float(nmd(d, target)):8.4f}"
            f"{float(rnod(d, target)):8.4f}",
            file=out,
        )
    print(file=out)
    print("DistrSim against uniform targets (GFRC and GFRC2 papers)", file=out)
    rows: list[tuple[str, list[float], str]] = [
        ("(1,0,0)", [1, 0, 0], "JSD"),
        ("(5/6,1/6,0)", [5 / 6, 1 / 6, 0], "JSD"),
        ("(3/4,1/4,0)", [0.75, 0.25, 0], "JSD"),
        ("(4/5,1/5,0)", [0.8, 0.2, 0], "JSD"),
        ("(1/2,1/2,0)", [0.5, 0.5, 0], "JSD"),
        ("(0,0,0,1)", [0, 0, 0, 1], "RNOD"),
        ("(0,0,0.6,0.4)", [0, 0, 0.6, 0.4], "RNOD"),
        ("(0,0,1,0)", [0, 0, 1, 0], "RNOD"),
    ]
    for name, d, div in rows:
        g = len(d)
        sim = float(distr_sim(d, np.full(g, 1 / g), divergence=div))
        print(f"{name:<16}{div:<6}{sim:.6f}", file=out)


def _demo_gfr(out) -> None:
    from . import gfr

    qrels, runs, attributes = _pilot_inputs()
    table = gfr.evaluate(qrels, runs, attributes, cutoffs=[10, 20, 100])
    print(
        "GFR on the NTCIR-17 FairWeb-1 pilot pack (cutoff 10; the organisers' tool "
        "prints the same values)",
        file=out,
    )
    print(
        f"{'run':<22}{'topic':<7}{'attribute set':<14}{'ERR@10':>8}{'iRBU@10':>9}"
        f"{'GF-JSD':>8}{'GF-NMD':>8}{'GF-RNOD':>8}{'GFR@10':>8}",
        file=out,
    )
    for run in table.runs:
        for data in attributes:
            name = data.attribute.name
            for topic in data.memberships.topics:
                v = [
                    table.value(run, topic, m)
                    for m in (
                        "ERR@10",
                        "iRBU@10",
                        f"GF-JSD@10[{name}]",
                        f"GF-NMD@10[{name}]",
                        f"GF-RNOD@10[{name}]",
                        "GFR@10",
                    )
                ]
                print(
                    f"{run:<22}{topic:<7}{name:<14}"
                    + "".join(f"{x:8.4f}" if i != 1 else f"{x:9.4f}" for i, x in enumerate(v)),
                    file=out,
                )


def _pilot_inputs():
    from .datasets import fairweb1_pilot

    p = fairweb1_pilot()
    return p.qrels, list(p.runs), list(p.attributes)


def _demo_conversations(out) -> None:
    from . import gfrc, gfrc2
    from .datasets import load_case

    r112 = load_case("r112").conversations
    print(
        "GFRC, topic R112 of NTCIR-18 FairWeb-2 CS (GFRC2 paper, Table 5: Eq. 6, L=1000)", file=out
    )
    _print_rows(gfrc.evaluate(r112, preset="gfrc2-paper"), out)
    print("\nGFRC2, the same conversations (GFRC2 paper, Table 3: L=1000)", file=out)
    _print_rows(gfrc2.evaluate(r112), out)
    m002 = load_case("m002").conversations
    print(
        "\nGFRC, topic M002, New Bing vs Google Bard (EVIA 2023, Tables 1-2: Eq. 6, "
        "L=1250, gain l/2)",
        file=out,
    )
    _print_rows(gfrc.evaluate(m002, preset="evia2023"), out)


def _print_rows(table, out) -> None:
    print(f"{'run':<20}" + "".join(f"{m:>14}" for m in table.measures), file=out)
    for r, run in enumerate(table.runs):
        for t, _ in enumerate(table.topics):
            print(f"{run:<20}" + "".join(f"{v:14.6f}" for v in table.values[r, t]), file=out)


def _demo_rag(out) -> None:
    from . import nuggets, ragfair
    from .datasets import path

    qrels, runs, attributes = _pilot_inputs()
    movies = [a for a in attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    answers = ragfair.read_answers(
        path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies]
    )
    table = ragfair.evaluate(qrels, runs, movies, answers, cutoffs=[10])
    print(
        "RAG fairness gap on pilot topic P002 (retrieval: the top 10 of each pilot run; "
        "answers: bundled illustrative examples)",
        file=out,
    )
    names = [m for m in table.measures if m.startswith(("RIGF@10", "ADsim@10"))]
    print(f"{'run':<16}" + "".join(f"{m:>20}" for m in names), file=out)
    t = table.topics.index("P002")
    for r, run in enumerate(table.runs):
        cells = [table.values[r, t, table.measures.index(m)] for m in names]
        print(
            f"{run:<16}" + "".join(f"{'N/A':>20}" if np.isnan(v) else f"{v:20.4f}" for v in cells),
            file=out,
        )
    labels = nuggets.read_labels(path("rag", "ikat-labels.jsonl"))
    mean, _ = nuggets.coverage(labels).mean()
    print(
        "\nNugget coverage of the bundled iKAT-style labels (mean over turns): "
        + ", ".join(f"{m} {v:.4f}" for m, v in zip(nuggets.MEASURES, mean[0], strict=False)),
        file=out,
    )


def _cmd_demo(args) -> int:
    _demo_divergences(sys.stdout)
    print()
    _demo_gfr(sys.stdout)
    print()
    _demo_conversations(sys.stdout)
    print()
    _demo_rag(sys.stdout)
    return 0


# --------------------------------------------------------------------------- gfr
_INTEGER = re.compile(r"^[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def _int_list(text, option):
    """Comma-separated positive integers; an empty text is an empty list."""
    items = [x.strip() for x in text.split(",")] if text.strip() else []
    if not all(_INTEGER.match(x) and len(x) <= 18 for x in items):
        raise UsageError(
            f"{option} takes comma-separated positive integers without empty items, "
            f"e.g. 10,20,100; got {text!r}"
        )
    return [int(x) for x in items]


def _float_list(text, option, sep=","):
    """Numbers separated by ``sep``: finite decimals, exponent notation allowed."""
    items = [x.strip() for x in text.split(sep)]
    ok = all(_NUMBER.match(x) for x in items) and all(np.isfinite(float(x)) for x in items)
    if not ok:
        raise UsageError(
            f"{option} takes finite numbers separated by {sep!r}, without empty items; got {text!r}"
        )
    return [float(x) for x in items]


def _target(text):
    """A golddistr path, or comma-separated probabilities."""
    if os.path.exists(text) or not any(c.isdigit() for c in text.split(",")[0]):
        return text
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        return text


def _ranked_inputs(args):
    """qrels, runs and attribute sets named by --qrels, --attribute and RUN.

    The files are read on a few threads, largest first; an error is that of the first
    bad file in command-line order.
    """
    from . import gfr, readers
    from ._parallel import thread_map

    def judgments():
        qrels = readers.read_qrels(args.qrels)
        qrels.key_table  # noqa: B018 (built here, beside the other files' reading)
        return qrels

    jobs = [judgments]
    jobs += [
        lambda e=entry: gfr.load_attribute(e[0], e[1], _target(e[2]), e[3])
        for entry in args.attribute
    ]
    jobs += [lambda p=p: readers.read_run(p) for p in args.runs]
    paths = [args.qrels, *(e[1] for e in args.attribute), *args.runs]
    # largest files first: their working memory comes while little else is held
    done = thread_map(lambda job: job(), jobs, cost=[_size(p) for p in paths])
    n = len(args.attribute)
    return done[0], done[1 + n :], done[1 : 1 + n]


def _size(path) -> int:
    """A file's size in bytes (0 when it cannot be told: the reader reports why)."""
    try:
        return os.path.getsize(path)
    except (OSError, TypeError, ValueError):
        return 0


def _add_ranked_inputs(parser, attribute_help):
    parser.add_argument("--qrels", required=True, help="NTCIR (topic doc L2) or TREC qrels")
    parser.add_argument(
        "--attribute",
        nargs=4,
        action="append",
        default=[],
        metavar=("NAME", "GMEMB", "TARGET", "SCALE"),
        help=attribute_help,
    )
    parser.add_argument(
        "--order",
        default="file",
        choices=["file", "score"],
        help="rank order: the file's line order per topic (default, as the "
        "organisers' tool) or trec_eval's score order",
    )
    parser.add_argument(
        "--nonrelevant-membership",
        default="uniform",
        choices=["uniform", "listed"],
        help="judged-nonrelevant docs count as uniform in GF (the papers' rule, default) "
        "or with the vector the gmemb file lists (the organisers' tool)",
    )


def _cmd_gfr(args) -> int:

    from . import gfr, rankings

    if args.out_dir and args.format != "nev":
        raise UsageError("--out-dir writes .GFRnev files: it needs --format nev")
    if args.out_dir and args.output:
        raise UsageError("give -o/--output or --out-dir, not both")
    if args.format == "nev" and (args.measure or args.summary):
        raise UsageError("--format nev prints every measure of every topic: drop -m/--summary")
    if args.measure and args.cutoffs is not None:
        raise UsageError("give --cutoffs or -m/--measure: the measure names give their depths")
    qrels, runs, attributes = _ranked_inputs(args)
    options = dict(
        cutoffs=None if args.cutoffs is None else _int_list(args.cutoffs, "--cutoffs"),
        measures=args.measure,
        gains=_float_list(args.gains, "--gains", ":"),
        phi=args.phi,
        utility=args.utility,
        weights=None if args.weights is None else _float_list(args.weights, "--weights"),
    )
    duplicates = "first" if args.keep_first_duplicate else "error"
    lists = rankings.prepare(
        qrels,
        runs,
        attributes,
        order=args.order,
        duplicates=duplicates,
        nonrelevant_membership=args.nonrelevant_membership,
    )
    table = gfr.evaluate(qrels, runs, attributes, lists=lists, **options)
    if args.format != "nev":
        _emit(args, table)
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
                _write(
                    name,
                    lambda f, r=r, m=m: rankings.write_nev(
                        table, qrels, attributes, f, lists=lists, run_index=r, attribute_index=m
                    ),
                    force=args.force,
                    mkdir=True,
                )
        return 0
    _write(
        args.output,
        lambda f: rankings.write_nev(table, qrels, attributes, f, lists=lists),
    )
    return 0


# --------------------------------------------------------------------------- conversations
def _conversations(args):
    from .conversation import read_attribute_sets, read_conversations

    return read_conversations(args.conversations, read_attribute_sets(args.attributes))


def _save_figure(fig, path) -> None:
    _OUTPUTS[-1].figure(fig, path)


def _conversation_options(args) -> dict:
    """The options shared by the conversation commands (ConversationOptions fields)."""
    return dict(
        preset=args.preset,
        L=args.L,
        lmax=args.lmax,
        dedupe=False if args.no_dedupe else None,
        weights=None if args.weights is None else _float_list(args.weights, "--weights"),
    )


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


def _cmd_gfrc(args) -> int:
    from . import gfrc

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
        from .plots import r_vs_gf

        _save_figure(r_vs_gf(table, by=args.plot_by), args.plot)
    _emit(args, table, measures=args.measure)
    return 0


def _cmd_gfrc2(args) -> int:
    from . import gfrc2

    batch = _conversations(args)
    options = _conversation_options(args)
    if args.clusters and (args.measure or args.summary or args.format != "tsv"):
        raise UsageError("--clusters prints the per-cluster TSV: drop -m, --summary, --format")
    if args.plot or args.clusters:
        clusters = gfrc2.clusters(batch, **options)
    if args.plot:
        from .plots import gfrc2_clusters

        _save_figure(gfrc2_clusters(batch, clusters, by=args.plot_by), args.plot)
    if args.clusters:
        _write(args.output, lambda f: gfrc2.write_clusters(batch, clusters, f))
    else:
        _emit(args, gfrc2.evaluate(batch, **options), measures=args.measure)
    return 0


# --------------------------------------------------------------------------- RAG
def _cmd_ragfair(args) -> int:
    from . import ragfair

    qrels, runs, attributes = _ranked_inputs(args)
    if not attributes:
        raise ValueError("give at least one --attribute NAME GMEMB TARGET SCALE")
    answers = ragfair.read_answers(args.answers, [a.attribute for a in attributes])
    weights = None if args.weights is None else _float_list(args.weights, "--weights")
    table = ragfair.evaluate(
        qrels,
        runs,
        attributes,
        answers,
        cutoffs=None if args.cutoffs is None else _int_list(args.cutoffs, "--cutoffs"),
        measures=args.measure,
        weights=weights,
        order=args.order,
        nonrelevant_membership=args.nonrelevant_membership,
    )
    if args.plot:
        from .plots import rigf_bars

        depths = [] if args.cutoffs is None else _int_list(args.cutoffs, "--cutoffs")
        figure = rigf_bars(
            table,
            attribute=args.plot_attribute,
            cutoff=depths[0] if depths else None,
            runs=args.plot_run,
        )
        _save_figure(figure, args.plot)
    _emit(args, table)
    return 0


def _cmd_nuggets(args) -> int:
    from . import nuggets

    labels = nuggets.read_labels(args.labels)
    table = nuggets.coverage(labels, average="micro" if args.micro else "macro")
    _emit(args, table, measures=args.measure)
    return 0


def _inputs(args) -> list[str]:
    """Every input file named on the command line (for the no-overwrite rule)."""
    names = []
    for key in ("qrels", "answers", "attributes", "labels", "topics"):
        value = getattr(args, key, None)
        if isinstance(value, str):
            names.append(value)
    for key in ("runs", "conversations", "scores"):
        names += list(getattr(args, key, None) or [])
    for entry in getattr(args, "attribute", None) or []:
        names += [entry[1], entry[2]]
    if isinstance(getattr(args, "attributes", None), str):
        names += _golddistr_files(args.attributes)
    return names


def _golddistr_files(path: str) -> list[str]:
    """The golddistr files an attribute-set JSON names as targets (inputs too).

    Where :func:`conversation.read_attribute_sets` reads them; a file that cannot be
    read names none here (the command then reports it).
    """
    import json

    from .conversation import golddistr_path

    if not os.path.isfile(path):  # stdin or a stream is read once, by the command
        return []
    try:
        with open(path, encoding="utf-8-sig") as f:
            sets = json.load(f)
    except (OSError, ValueError):
        return []
    if not isinstance(sets, dict):
        return []
    return [
        str(golddistr_path(path, spec["target"]))
        for spec in sets.values()
        if isinstance(spec, dict) and isinstance(spec.get("target"), str)
    ]


def _emit(args, table, *, measures=None) -> None:
    """Write a score table as the options ask: TSV or JSON, all rows or the summary."""
    from .results import pick

    table = pick(table, measures, f"fairconv {args.command}") if measures else table
    if args.format == "json":
        _write(args.output, lambda f: table.to_json(f, summary=args.summary))
    else:
        _write(args.output, lambda f: table.to_tsv(f, summary=args.summary))


def _add_table_output(parser, formats=("tsv", "json")) -> None:
    """-m/--measure, --format, --summary and -o: the options every score command has."""
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="NAME",
        help="only this measure, by its printed name (e.g. GFR@10, GF-JSD@10[M-ORIGIN]); "
        "repeat for several",
    )
    parser.add_argument(
        "--format",
        default="tsv",
        choices=list(formats),
        help="tsv: run topic measure value rows (default); json: "
        "{run: {topic: {measure: value}}} with 'all' and null for undefined values"
        + ("; nev: the organisers' GFRnev layout" if "nev" in formats else ""),
    )
    parser.add_argument("--summary", action="store_true", help="print only the 'all' rows")
    parser.add_argument("-o", "--output", help="write to this file instead of stdout")


def _write(output, writer, **options) -> None:
    """Write to ``output`` through the run's :class:`~fairconv._output.Outputs`."""
    _OUTPUTS[-1].write(output, writer, **options)


class _Parser(argparse.ArgumentParser):
    """Usage errors end with one line on stderr and exit status 2, like bad input."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``fairconv`` argument parser with every subcommand."""
    parser = _Parser(
        prog="fairconv",
        description="Relevance and group fairness evaluation of ranked lists, "
        "conversations and RAG answers.",
    )
    parser.add_argument("--version", action="version", version=f"fairconv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    demo = sub.add_parser("demo", help="run the library on the bundled data of the papers")
    demo.set_defaults(func=_cmd_demo)

    g = sub.add_parser(
        "gfr",
        help="GFR of TREC runs (ERR, iRBU, GF-JSD/NMD/RNOD, GFR)",
        description="Score TREC runs with GFR (Sakai, Kim and Kang, TOIS 2023) as NTCIR "
        "FairWeb does. Prints run, topic, measure, value rows (TSV) with 'all' "
        "rows for the means, or the organisers' .GFRnev layout.",
    )
    _add_ranked_inputs(
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
    _add_table_output(g, ("tsv", "json", "nev"))
    g.add_argument("--out-dir", help="with --format nev: write <run>.<set>.GFRnev files here")
    g.add_argument("--force", action="store_true", help="with --out-dir: overwrite existing files")
    g.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")
    g.set_defaults(func=_cmd_gfr)

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
    _add_table_output(c)
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
    _add_table_output(c2)
    c2.add_argument("conversations", nargs="+", metavar="CONVERSATIONS.jsonl")
    c2.set_defaults(func=_cmd_gfrc2)

    r = sub.add_parser(
        "ragfair",
        help="RIGF and ADsim: the group fairness gap from retrieval to generation",
        description="GF of the retrieved list (GF_Re), of the generated answer (GF_Gen), "
        "their relative gap RIGF (percent) and ADsim per attribute set, and "
        "the weighted overall GF_Re, GF_Gen, RIGF (Tao and Sakai, 2025).",
    )
    _add_ranked_inputs(r, "an attribute set, as for 'fairconv gfr'; repeat for each set")
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
    _add_table_output(r)
    r.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (the retrieval)")
    r.set_defaults(func=_cmd_ragfair)

    n = sub.add_parser(
        "nuggets",
        help="nugget recall and precision (NtN, NtR) from match labels",
        description="Recall_NtN, Precision_NtN and Recall_NtR per turn and per run from "
        "nugget match labels (TREC iKAT 2024 style).",
    )
    n.add_argument(
        "--micro",
        action="store_true",
        help="run scores as pooled ratios over turns (default: mean over turns)",
    )
    _add_table_output(n)
    n.add_argument("labels", metavar="LABELS.jsonl")
    n.set_defaults(func=_cmd_nuggets)

    from . import _cli_agreement, _cli_stats

    _cli_stats.add_commands(sub)
    _cli_agreement.add_commands(sub)
    return parser


def run() -> int:
    """The ``fairconv`` program: :func:`main` in a process of its own.

    The process keeps the memory it frees for reuse
    (:func:`fairconv._parallel.reuse_freed_memory`).
    """
    from ._parallel import reuse_freed_memory

    reuse_freed_memory()
    return main()


def main(argv=None) -> int:
    """Run the command line; return the exit status (2 for bad input or usage)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # name the subcommand whose options they are not
        prog = f"fairconv {args.command}" if getattr(args, "command", None) else "fairconv"
        parser.exit(
            2,
            f"{prog}: error: unrecognized arguments: {' '.join(extra)} (see '{prog} --help')\n",
        )
    if not getattr(args, "func", None):
        print("fairconv: error: give a command (see 'fairconv --help')", file=sys.stderr)
        return 2
    import warnings

    from ._validation import FairconvWarning

    default_show = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, FairconvWarning):
            print(f"fairconv {args.command}: warning: {message}", file=sys.stderr)
        else:
            default_show(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        warnings.simplefilter("always", FairconvWarning)
        warnings.showwarning = show
        return _run(args)


def _run(args) -> int:
    """Run one command; bad input becomes one line on stderr and status 2."""
    try:
        _OUTPUTS.append(
            Outputs(_inputs(args), (getattr(args, "output", None), getattr(args, "plot", None)))
        )
        return args.func(args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, ImportError) as exc:
        print(f"fairconv {args.command}: error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"fairconv {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if _OUTPUTS:
            _OUTPUTS.pop()


if __name__ == "__main__":  # pragma: no cover
    # `python -m fairconv.cli`: run the imported module, whose state the command
    # modules share, not this second copy of it
    from fairconv.cli import main as _main

    sys.exit(_main())
