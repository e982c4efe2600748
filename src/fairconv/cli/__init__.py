"""The ``fairconv`` command line: one subcommand per measure family, plus ``demo``.

Bad input ends with a one-line message on stderr (naming the file and line where
there is one) and exit status 2; no traceback.

Each subcommand group lives in a module of its own (:mod:`.demo`, :mod:`.gfr`,
:mod:`.conversations`, :mod:`.ragfair`, :mod:`.nuggets`, :mod:`.rankfair`, :mod:`.stats`,
:mod:`.agreement`) that imports the library and :mod:`._common`, never this module or
another subcommand's. The state of one run (its outputs' no-overwrite guard) travels
on its ``args``.
"""

from __future__ import annotations

import os
import re
import sys

from .. import __version__
from . import agreement, conversations, demo, gfr, nuggets, ragfair, rankfair, stats, trecfair
from ._common import Parser
from ._outputs import Outputs, say

__all__ = ["main", "run", "build_parser"]


def build_parser() -> Parser:
    """The ``fairconv`` argument parser with every subcommand."""
    parser = Parser(
        prog="fairconv",
        description="Relevance and group fairness evaluation of ranked lists, "
        "conversations and RAG answers.",
    )
    parser.add_argument("--version", action="version", version=f"fairconv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for commands in (
        demo,
        gfr,
        conversations,
        ragfair,
        nuggets,
        trecfair,
        rankfair,
        stats,
        agreement,
    ):
        commands.add_commands(sub)
    return parser


def run() -> int:
    """The ``fairconv`` program: :func:`main` in a process of its own.

    The process keeps the memory it frees for reuse (:func:`_reuse_freed_memory`), a
    setting of the whole process that only the program makes; :func:`main` called in
    a process of the caller's (tests, notebooks) leaves the allocator alone.
    """
    _reuse_freed_memory()
    return main()


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def _reuse_freed_memory() -> bool:
    """Keep freed memory in the process for reuse; whether the setting was made.

    glibc gives blocks of 32 MiB and less from its heaps, and keeps up to 1 GiB freed
    at a heap's top instead of giving it back: the pages a step frees are then reused
    by the next one, where fresh pages from the system each cost the kernel a zeroing.
    Nothing changes where glibc is absent.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, 32 << 20) and mallopt(_M_TRIM_THRESHOLD, 1 << 30))


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
        say("fairconv: error: give a command (see 'fairconv --help')")
        return 2
    args.options = _options_of(parser, args.command)
    import warnings

    from .._validation import FairconvWarning

    default_show = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, FairconvWarning):
            say(f"fairconv {args.command}: warning: {message}")
        else:
            default_show(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        warnings.simplefilter("always", FairconvWarning)
        warnings.showwarning = show
        return _run(args)


def _run(args) -> int:
    """Run one command; bad input becomes one line on stderr and status 2."""
    outputs = None
    try:
        planned = (getattr(args, "output", None), getattr(args, "plot", None))
        args.outputs = outputs = Outputs(_inputs(args), planned)
        status = args.func(args)
        if not status:  # every check passed: the files written take their places
            args.outputs.commit()  # a command may have set a guard of its own
        return status
    except BrokenPipeError:  # e.g. piped into head: stop quietly, keeping the files
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if outputs is not None:
            args.outputs.commit()
        return 0
    except (ValueError, TypeError, ImportError) as exc:
        message = _in_command_terms(str(exc), getattr(args, "options", {}))
        say(f"fairconv {args.command}: error: {message}")
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        say(f"fairconv {args.command}: error: {where}{exc.strerror or exc}")
        return 2
    finally:  # a failed or interrupted run leaves every file as it found it
        if outputs is not None:
            outputs.discard()
            if args.outputs is not outputs:
                args.outputs.discard()


def _inputs(args) -> list[str]:
    """Every input file named on the command line (for the no-overwrite rule)."""
    names = []
    for key in (
        "qrels",
        "answers",
        "attributes",
        "labels",
        "topics",
        "gold",
        "response_nuggets",
        "ntn",
        "metadata",  # trecfair
        "targets",
        "work",
    ):
        value = getattr(args, key, None)
        if isinstance(value, str):
            names.append(value)
    for key in ("runs", "conversations", "scores", "labels", "ntr"):
        value = getattr(args, key, None)
        if isinstance(value, list):
            names += value
    for entry in getattr(args, "attribute", None) or []:
        names += [entry[1], entry[2]]
    # trecfair's and rankfair's NAME FILE pairs (a preset or a list of numbers is no file)
    for key in ("dimension", "background", "memberships", "target"):
        names += [entry[1] for entry in getattr(args, key, None) or []]
    if isinstance(getattr(args, "attributes", None), str):
        names += _golddistr_files(args.attributes)
    return names


def _golddistr_files(path: str) -> list[str]:
    """The golddistr files an attribute-set JSON names as targets (inputs too).

    The JSON is read as :func:`fairconv.io.read_attribute_sets` reads it (gzip, depth,
    lone surrogates), and a target is where that reader looks for it. A file that cannot
    be read, or a target that is no path (a NUL byte, a lone surrogate), names nothing
    here: the command then reports it.
    """
    from ..io._conversations import golddistr_path
    from ..io._json import read_json

    if not os.path.isfile(path):  # stdin or a stream is read once, by the command
        return []
    try:
        sets = read_json(path)
    except (OSError, ValueError):
        return []
    if not isinstance(sets, dict):
        return []
    targets = [
        spec["target"]
        for spec in sets.values()
        if isinstance(spec, dict) and isinstance(spec.get("target"), str)
    ]
    out = []
    for target in targets:
        try:
            os.fsencode(target)
        except UnicodeError:
            continue
        if "\x00" not in target:
            out.append(str(golddistr_path(path, target)))
    return out


_PARAMETER = re.compile(
    r"\bThe ('[A-Za-z_]\w*'(?:(?:, | and )'[A-Za-z_]\w*')*) parameters? of [A-Za-z_][\w.]*(?=[: ])"
)
"""The opening of the library's errors, "The 'x' parameter of func ..." or "The 'x' and
'y' parameters of func ..."."""

_SAME_THING = {
    "n_jobs": "jobs",
    "attribute_sets": "attributes",
    "table": "scores",
    "directions": "lower_is_better",
}
"""Library parameters whose option has another stem."""


def _options_of(parser, command: str) -> dict[str, str]:
    """Each option's destination -> how the command line spells it (``--weights``, ``RUN``)."""
    sub = next((a.choices[command] for a in parser._actions if isinstance(a.choices, dict)), None)
    if sub is None:
        return {}
    out = {}
    for action in sub._actions:
        if action.option_strings:
            out[action.dest] = max(action.option_strings, key=len)
        elif action.metavar or action.dest:
            metavar = action.metavar if isinstance(action.metavar, str) else action.dest
            out[action.dest] = metavar
    return out


def _in_command_terms(message: str, options: dict[str, str]) -> str:
    """A library error spoken in the command's terms: its options, not Python parameters.

    "The 'weights' parameter of evaluate must ..." becomes "--weights must ..." and "The
    'test' and 'correction' parameters of compare must ..." "--test and --correction
    must ..."; a parameter with no option of the command becomes "A value given" ("The
    values given" for several).
    """

    def option(name: str) -> str | None:
        name = _SAME_THING.get(name, name)
        for candidate in (name, name.rstrip("s"), name + "s"):
            if candidate in options:
                return options[candidate]
        return None

    def subject(match) -> str:
        spelled = [option(name) for name in re.findall(r"'(\w+)'", match.group(1))]
        if len(spelled) == 1:
            return spelled[0] or "A value given"
        known = [s for s in spelled if s is not None]
        if len(known) < len(spelled):
            return "The values given"
        return ", ".join(known[:-1]) + " and " + known[-1]

    return _PARAMETER.sub(subject, message)
