"""The ``fairconv`` command line: one subcommand per measure family, plus ``demo``.

Bad input ends with a one-line message on stderr (naming the file and line where
there is one) and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__


def _demo_divergences(out) -> None:
    import numpy as np

    from .divergences import distr_sim, jsd, nmd, rnod

    target = [0.7, 0.1, 0.1, 0.1]
    print("Divergences: worked example of the FairWeb-2 slides", file=out)
    print("target D* = (0.7, 0.1, 0.1, 0.1)", file=out)
    print(f"{'D':<24}{'JSD':>8}{'NMD':>8}{'RNOD':>8}", file=out)
    for name, d in (("D1 = (0.1,0.7,0.1,0.1)", [0.1, 0.7, 0.1, 0.1]),
                    ("D2 = (0.1,0.1,0.1,0.7)", [0.1, 0.1, 0.1, 0.7])):
        print(f"{name:<24}{float(jsd(d, target)):8.4f}{float(nmd(d, target)):8.4f}"
              f"{float(rnod(d, target)):8.4f}", file=out)
    print(file=out)
    print("DistrSim against uniform targets (GFRC and GFRC2 papers)", file=out)
    rows = [("(1,0,0)", [1, 0, 0], "JSD"), ("(5/6,1/6,0)", [5 / 6, 1 / 6, 0], "JSD"),
            ("(3/4,1/4,0)", [0.75, 0.25, 0], "JSD"), ("(4/5,1/5,0)", [0.8, 0.2, 0], "JSD"),
            ("(1/2,1/2,0)", [0.5, 0.5, 0], "JSD"), ("(0,0,0,1)", [0, 0, 0, 1], "RNOD"),
            ("(0,0,0.6,0.4)", [0, 0, 0.6, 0.4], "RNOD"), ("(0,0,1,0)", [0, 0, 1, 0], "RNOD")]
    for name, d, div in rows:
        g = len(d)
        sim = float(distr_sim(d, np.full(g, 1 / g), divergence=div))
        print(f"{name:<16}{div:<6}{sim:.6f}", file=out)


def _demo_gfr(out) -> None:
    from . import gfr
    from .datasets import path

    pilot = path("fairweb1-pilot")
    qrels, runs, attributes = _pilot_inputs(pilot)
    table = gfr.evaluate(qrels, runs, attributes, cutoffs=[10, 20, 100])
    print("GFR on the NTCIR-17 FairWeb-1 pilot pack (cutoff 10; the organisers' tool "
          "prints the same values)", file=out)
    print(f"{'run':<22}{'topic':<7}{'attribute set':<14}{'ERR@10':>8}{'iRBU@10':>9}"
          f"{'GF-JSD':>8}{'GF-NMD':>8}{'GF-RNOD':>8}{'GFR@10':>8}", file=out)
    for r, run in enumerate(table.runs):
        for data in attributes:
            name = data.attribute.name
            for topic in data.memberships.topics:
                v = [table.value(run, topic, m) for m in
                     ("ERR@10", "iRBU@10", f"GF-JSD@10[{name}]", f"GF-NMD@10[{name}]",
                      f"GF-RNOD@10[{name}]", "GFR@10")]
                print(f"{run:<22}{topic:<7}{name:<14}" + "".join(f"{x:8.4f}" if i != 1
                      else f"{x:9.4f}" for i, x in enumerate(v)), file=out)


PILOT_ATTRIBUTES = (("R-HINDEX", "ordinal"), ("R-GENDER", "nominal"),
                    ("M-RATINGS", "ordinal"), ("M-ORIGIN", "nominal"),
                    ("T-FOLLOWERS", "ordinal"), ("Y-SUBSCS", "ordinal"))


def _pilot_inputs(pilot):
    from . import gfr, readers

    qrels = readers.read_qrels(pilot / "fairweb1pilot.qrels")
    runs = [readers.read_run(p) for p in sorted((pilot / "runs").iterdir())]
    attributes = [gfr.load_attribute(name, pilot / f"fairweb1pilot.{name}.gmemb",
                                     pilot / f"{name}.golddistr", scale)
                  for name, scale in PILOT_ATTRIBUTES]
    return qrels, runs, attributes


def _cmd_demo(args) -> int:
    _demo_divergences(sys.stdout)
    print()
    _demo_gfr(sys.stdout)
    return 0


# --------------------------------------------------------------------------- gfr
def _int_list(text, option):
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{option} takes comma-separated integers, e.g. 10,20,100; "
                         f"got {text!r}") from None
    return values


def _float_list(text, option, sep=","):
    try:
        return [float(x) for x in text.split(sep) if x.strip()]
    except ValueError:
        raise ValueError(f"{option} takes numbers separated by {sep!r}; got {text!r}") from None


def _target(text):
    """A golddistr path, or comma-separated probabilities."""
    import os

    if os.path.exists(text) or not any(c.isdigit() for c in text.split(",")[0]):
        return text
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        return text


def _cmd_gfr(args) -> int:
    from . import gfr, readers

    qrels = readers.read_qrels(args.qrels)
    attributes = [gfr.load_attribute(name, gmemb, _target(target), scale)
                  for name, gmemb, target, scale in args.attribute]
    runs = [readers.read_run(p) for p in args.runs]
    options = dict(cutoffs=_int_list(args.cutoffs, "--cutoffs"),
                   gains=_float_list(args.gains, "--gains", ":"), phi=args.phi,
                   utility=args.utility, order=args.order,
                   duplicates="first" if args.keep_first_duplicate else "error",
                   weights=None if args.weights is None else _float_list(args.weights,
                                                                          "--weights"))
    table = gfr.evaluate(qrels, runs, attributes, **options)
    if args.format == "tsv":
        _write(args.output, table.to_tsv)
        return 0
    syslen = gfr.list_lengths(runs, table.topics, args.order, options["duplicates"])
    if args.out_dir:
        import os

        os.makedirs(args.out_dir, exist_ok=True)
        for r, run in enumerate(runs):
            for m, data in enumerate(attributes):
                name = f"{os.path.basename(run.source)}.{data.attribute.name}.GFRnev"
                with open(os.path.join(args.out_dir, name), "w") as f:
                    gfr.write_nev(table, qrels, runs, attributes, f, run_index=r,
                                  attribute_index=m, syslen=syslen)
        return 0
    _write(args.output, lambda f: gfr.write_nev(table, qrels, runs, attributes, f,
                                                syslen=syslen))
    return 0


def _write(output, writer):
    if output in (None, "-"):
        writer(sys.stdout)
    else:
        with open(output, "w") as f:
            writer(f)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fairconv",
        description="Relevance and group fairness evaluation of ranked lists, "
                    "conversations and RAG answers.")
    parser.add_argument("--version", action="version", version=f"fairconv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="run the library on the bundled data of the papers")
    demo.set_defaults(func=_cmd_demo)

    g = sub.add_parser(
        "gfr", help="GFR of TREC runs (ERR, iRBU, GF-JSD/NMD/RNOD, GFR)",
        description="Score TREC runs with GFR (Sakai, Kim and Kang, TOIS 2023) as NTCIR "
                    "FairWeb does. Prints run, topic, measure, value rows (TSV) with 'all' "
                    "rows for the means, or the organisers' .GFRnev layout.")
    g.add_argument("--qrels", required=True, help="NTCIR (topic doc L2) or TREC qrels")
    g.add_argument("--attribute", nargs=4, action="append", default=[],
                   metavar=("NAME", "GMEMB", "TARGET", "SCALE"),
                   help="an attribute set: its name, gmemb file, target (golddistr file or "
                        "comma-separated probabilities) and scale (nominal: JSD in GFR; "
                        "ordinal: RNOD); repeat for each set")
    g.add_argument("--cutoffs", default="10,20,100", help="comma-separated depths "
                   "(default 10,20,100); full depth is always reported")
    g.add_argument("--gains", default="1:3", help="gain of each level 1..lmax, "
                   "colon-separated (default 1:3)")
    g.add_argument("--phi", type=float, default=0.99, help="iRBU persistence (default 0.99)")
    g.add_argument("--utility", default="ERR", choices=["ERR", "iRBU"],
                   help="the utility in GFR (default ERR)")
    g.add_argument("--weights", help="comma-separated w0 (utility), w1..wM (attribute sets "
                   "in order); default equal weights over the utility and the sets "
                   "covering each topic")
    g.add_argument("--order", default="file", choices=["file", "score"],
                   help="rank order: the file's line order per topic (default, as the "
                        "organisers' tool) or trec_eval's score order")
    g.add_argument("--keep-first-duplicate", action="store_true",
                   help="keep only the first occurrence of a doc listed twice for a topic "
                        "(default: error)")
    g.add_argument("--format", default="tsv", choices=["tsv", "nev"],
                   help="tsv: run topic measure value rows (default); nev: the "
                        "organisers' GFRnev layout")
    g.add_argument("--out-dir", help="with --format nev: write <run>.<set>.GFRnev files here")
    g.add_argument("-o", "--output", help="write to this file instead of stdout")
    g.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")
    g.set_defaults(func=_cmd_gfr)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, TypeError) as exc:
        print(f"fairconv {args.command}: error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"fairconv {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
