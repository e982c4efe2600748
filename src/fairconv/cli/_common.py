"""What the subcommands share: the parser class, option parsing, inputs and outputs.

The state of one run travels on its ``args``: ``args.outputs`` is the run's
:class:`~fairconv.cli._outputs.Outputs` (the no-overwrite guard), set by
:func:`fairconv.cli.main` before the command runs; ``args.jobs`` the threads asked for.
"""

from __future__ import annotations

import argparse
import os
import re
import textwrap

import numpy as np

from ._outputs import UsageError, say

__all__ = [
    "Parser",
    "UsageError",
    "add_lower_is_better",
    "add_ranked_inputs",
    "add_table_output",
    "emit",
    "float_list",
    "int_list",
    "lower_is_better",
    "ranked_inputs",
    "save_figure",
    "say",
    "score_sources",
    "write",
]


class _Formatter(argparse.HelpFormatter):
    """Help text wrapped at spaces only: a measure name (``Recall-NtN``) stays whole."""

    def _split_lines(self, text, width):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """Usage errors end with one line on stderr and exit status 2, like bad input."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------- options
_INTEGER = re.compile(r"^[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def int_list(text, option):
    """Comma-separated positive integers; an empty text is an empty list."""
    items = [x.strip() for x in text.split(",")] if text.strip() else []
    if not all(_INTEGER.match(x) and len(x) <= 18 for x in items):
        raise UsageError(
            f"{option} takes comma-separated positive integers without empty items, "
            f"e.g. 10,20,100; got {text!r}"
        )
    return [int(x) for x in items]


def float_list(text, option, sep=","):
    """Numbers separated by ``sep``: finite decimals, exponent notation allowed."""
    items = [x.strip() for x in text.split(sep)]
    ok = all(_NUMBER.match(x) for x in items) and all(np.isfinite(float(x)) for x in items)
    if not ok:
        raise UsageError(
            f"{option} takes finite numbers separated by {sep!r}, without empty items; got {text!r}"
        )
    return [float(x) for x in items]


def _jobs(text: str) -> int:
    """The value of -j/--jobs: an integer >= 1, or -1 for every available core."""
    value = text.strip()
    if not re.fullmatch("-?[0-9]{1,9}", value) or int(value) == 0 or int(value) < -1:
        raise argparse.ArgumentTypeError(
            f"takes an integer >= 1, or -1 for every available core; got {text!r}"
        )
    return int(value)


def score_sources(texts) -> list:
    """The SCORES arguments as :func:`fairconv.io.read_scores` takes them.

    ``NAME=FILE`` names the run of FILE (a file of one run), so that one run may be
    spread over several files (GFR in fairconv's TSV, nDCG in a trec_eval file); it
    becomes ``{NAME: FILE}``. A text that is itself an existing file is a path, ``=`` or
    not; an empty NAME or FILE is a usage error.
    """
    out: list = []
    for text in texts:
        name, sep, path = text.partition("=")
        if not sep or os.path.exists(text) or "/" in name or os.sep in name:
            out.append(text)
        elif not name or not path or any(c.isspace() for c in name):
            raise UsageError(
                f"a score file is given as FILE or NAME=FILE with a run name without "
                f"spaces; got {text!r}"
            )
        else:
            out.append({name: path})
    return out


def add_lower_is_better(parser) -> None:
    """``--lower-is-better MEASURE`` (repeatable), for the commands that read scores."""
    parser.add_argument(
        "--lower-is-better",
        action="append",
        default=[],
        metavar="MEASURE",
        help="a measure of the score files for which a lower value is better (repeat for "
        "several); on top of the directions fairconv knows (EE-D, EE-L, ...): another "
        "tool's measure is higher-is-better unless named here",
    )


def lower_is_better(args, measures) -> dict[str, str] | None:
    """``read_scores``' ``directions=`` for ``--lower-is-better``: those measures lower.

    Each one must be among ``measures`` (those the command analyses), named once.
    """
    from .._validation import calling, check_once

    named = list(args.lower_is_better)
    with calling(f"fairconv {args.command}"):
        check_once(named, "--lower-is-better", what="measure")
    unknown = [m for m in named if m not in measures]
    if unknown:
        raise UsageError(
            f"--lower-is-better names {unknown[0]!r}, which is not a measure the command "
            f"reads (-m {' -m '.join(measures)})"
        )
    return dict.fromkeys(named, "lower") or None


# --------------------------------------------------------------------------- ranked inputs
def _target(text):
    """A golddistr path, or comma-separated probabilities."""
    if os.path.exists(text) or not any(c.isdigit() for c in text.split(",")[0]):
        return text
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        return text


def ranked_inputs(args):
    """qrels, runs and attribute sets named by --qrels, --attribute and RUN.

    The files are read on ``args.jobs`` threads, largest first; an error is that of
    the first bad file in command-line order.
    """
    from .._accel import thread_map
    from ..io import load_attribute, read_qrels, read_run

    def judgments():
        qrels = read_qrels(args.qrels)
        qrels.key_table  # noqa: B018 (built here, beside the other files' reading)
        return qrels

    jobs = [judgments]
    jobs += [
        lambda e=entry: load_attribute(e[0], e[1], _target(e[2]), e[3]) for entry in args.attribute
    ]
    jobs += [lambda p=p: read_run(p) for p in args.runs]
    paths = [args.qrels, *(e[1] for e in args.attribute), *args.runs]
    # largest files first: their working memory comes while little else is held
    done = thread_map(lambda job: job(), jobs, cost=[_size(p) for p in paths], n_jobs=args.jobs)
    n = len(args.attribute)
    return done[0], done[1 + n :], done[1 : 1 + n]


def _size(path) -> int:
    """A file's size in bytes (0 when it cannot be told: the reader reports why)."""
    try:
        return os.path.getsize(path)
    except (OSError, TypeError, ValueError):
        return 0


SCALES = ("nominal", "ordinal")


class _AttributeOption(argparse.Action):
    """--attribute NAME GMEMB TARGET SCALE, repeatable; a SCALE that is none names it.

    Without the check, a forgotten SCALE takes the next argument (a run file), and the
    error is about the runs.
    """

    def __call__(self, parser, namespace, values, option_string=None):
        name, gmemb, target, scale = values
        if scale.lower() not in SCALES:
            parser.error(
                f"--attribute takes NAME GMEMB TARGET SCALE, SCALE being nominal or "
                f"ordinal; got {scale!r} as the SCALE of {name!r}: is SCALE missing "
                f"after {target!r}?"
            )
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), values])


def add_ranked_inputs(parser, attribute_help):
    """--qrels, --attribute, --order and --nonrelevant-membership (gfr and ragfair)."""
    parser.add_argument("--qrels", required=True, help="NTCIR (topic doc L2) or TREC qrels")
    parser.add_argument(
        "--attribute",
        nargs=4,
        action=_AttributeOption,
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


# --------------------------------------------------------------------------- outputs
def add_table_output(parser, examples: str, formats=("tsv", "json")) -> None:
    """-m/--measure, --format, --summary, -o and -j: the options every score command has.

    ``examples`` names a few of the command's own measures for the help of -m.
    """
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="NAME",
        help=f"only this measure, by its printed name (e.g. {examples}); repeat for several",
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
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help="threads for the reading, joining, scoring and writing: an integer >= 1 "
        "(1: none), or -1 for every available core (default: FAIRCONV_THREADS if set, "
        "else every available core)",
    )


def emit(args, table, *, measures=None) -> None:
    """Write a score table as the options ask: TSV or JSON, all rows or the summary."""
    from .._validation import calling
    from ..results import pick

    if measures:
        with calling(f"fairconv {args.command}"):
            table = pick(table, measures)
    if args.format == "json":
        write(args, args.output, lambda f: table.to_json(f, summary=args.summary))
    else:
        write(args, args.output, lambda f: table.to_tsv(f, summary=args.summary))


def write(args, output, writer, **options) -> None:
    """Write to ``output`` through the run's no-overwrite guard (``args.outputs``)."""
    args.outputs.write(output, writer, **options)


def save_figure(args, fig, path) -> None:
    """Save a matplotlib figure through the run's no-overwrite guard."""
    args.outputs.figure(fig, path)
