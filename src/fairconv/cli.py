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


def _cmd_demo(args) -> int:
    _demo_divergences(sys.stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fairconv",
        description="Relevance and group fairness evaluation of ranked lists, "
                    "conversations and RAG answers.")
    parser.add_argument("--version", action="version", version=f"fairconv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="run the library on the bundled data of the papers")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (ValueError, TypeError) as exc:
        print(f"fairconv {args.command}: error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"fairconv {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
