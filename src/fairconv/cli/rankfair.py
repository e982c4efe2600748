"""``fairconv rankfair``: the classic fair-ranking measures of TREC runs (docs/rankfair.md)."""

from __future__ import annotations

import re

from ._common import UsageError, _target, add_table_output, emit, int_list

_PROTECTED = re.compile(r"^(?:(?P<name>[^=\s]+)=)?(?P<k>[0-9]{1,9})$")


def add_commands(sub) -> None:
    """Add ``rankfair`` to the ``fairconv`` parser."""
    g = sub.add_parser(
        "rankfair",
        help="classic fair-ranking measures of TREC runs (exposure, NDKL, rND, FA*IR, IAA, EE)",
        description="Score TREC runs with the classic fair-ranking measures, each equal to its "
        "reference implementation (FairRankTune, FairRank, expeval, Raj and Ekstrand): "
        "exposure statistics with meta-metrics, NDKL, rND/rKL/rRD, FAIR, IAA and expected "
        "exposure. Prints run, topic, measure, value rows (TSV) with 'all' rows for the means.",
    )
    g.add_argument(
        "--qrels", help="NTCIR (topic doc L2) or TREC qrels; needed by the relevance measures"
    )
    g.add_argument(
        "--memberships",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "FILE"),
        help="an attribute set: its name and gmemb file (topic doc p1 .. pG), listing every "
        "candidate doc of each topic; repeat for each set",
    )
    g.add_argument(
        "--target",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "DISTR"),
        help="a set's target for NDKL and FAIR: a golddistr file or comma-separated "
        "probabilities; repeat per set",
    )
    g.add_argument(
        "--protected",
        action="append",
        default=[],
        metavar="K|NAME=K",
        help="the protected group (1-based) of rND, rKL, rRD and FAIR: K for every set, or "
        "NAME=K for one set (repeatable)",
    )
    g.add_argument(
        "--cutoffs",
        help="comma-separated depths: each measure named without a depth is also given at "
        "each (full depth stays)",
    )
    g.add_argument(
        "--relevance",
        default="binary",
        choices=["binary", "graded"],
        help="u = 1 for a level > 0 (default), or level / the highest level of the qrels",
    )
    g.add_argument(
        "--group-utility",
        default="ranked",
        choices=["ranked", "population"],
        help="U_g of EXPU, EXPRU, ERBR over the ranked docs (FairRankTune's code, default) or "
        "over the set's population",
    )
    g.add_argument("--decay", type=float, default=0.5, help="RBP's gamma (ERB*), default 0.5")
    g.add_argument("--attention", type=float, default=0.5, help="ATT's p, default 0.5")
    g.add_argument("--step", type=int, default=10, help="rND/rKL/rRD's cut-off step (10)")
    g.add_argument(
        "--discount",
        default="code",
        choices=["code", "paper"],
        help="rND/rKL/rRD's discount: log2(i + 1) (FairRank's code, default) or log2(i)",
    )
    g.add_argument("--epsilon", type=float, default=1e-7, help="NDKL's smoothing (1e-7)")
    g.add_argument("--patience", type=float, default=0.5, help="expected exposure's p (0.5)")
    g.add_argument("--stop", type=float, default=0.5, help="gERR's stop probability u (0.5)")
    g.add_argument(
        "--complete", action="store_true", help="expected exposure's target: every judged doc"
    )
    g.add_argument(
        "--binarize", action="store_true", help="expected exposure: every level > 0 counts as 1"
    )
    g.add_argument(
        "--unlisted",
        default="error",
        choices=["error", "drop"],
        help="a ranked doc a set does not list: an error (default), or left out of that set's "
        "rankings with a notice",
    )
    g.add_argument(
        "--order",
        default="file",
        choices=["file", "score"],
        help="rank order of a ranking's lines: the file's (default) or trec_eval's score order",
    )
    g.add_argument(
        "--keep-first-duplicate",
        action="store_true",
        help="keep only the first occurrence of a doc listed twice in a ranking (default: error)",
    )
    add_table_output(g, "EXP-MinMaxRatio[gender], rND@10 (every set), IAA")
    g.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (column 2: sample id)")
    g.set_defaults(func=_cmd_rankfair)


def _protected(texts: list[str]):
    """--protected K, or NAME=K per set: an int, a dict or None."""
    if not texts:
        return None
    parsed = [_PROTECTED.match(t.strip()) for t in texts]
    bad = [t for t, p in zip(texts, parsed, strict=True) if p is None]
    if bad:
        raise UsageError(f"--protected takes K or NAME=K, K a group number >= 1; got {bad[0]!r}")
    named = {p["name"]: int(p["k"]) for p in parsed if p is not None and p["name"]}
    plain = [int(p["k"]) for p in parsed if p is not None and not p["name"]]
    if plain and (named or len(plain) > 1):
        raise UsageError("--protected takes one K for every set, or NAME=K per set, not both")
    return plain[0] if plain else named


def _read(args):
    """Qrels (or None), the sets' memberships and the runs, read on ``args.jobs`` threads."""
    from .._accel import thread_map
    from ..io import read_gmemb, read_qrels, read_run

    jobs = []
    if args.qrels is not None:
        jobs.append(lambda: read_qrels(args.qrels))
    jobs += [lambda p=path: read_gmemb(p) for _, path in args.memberships]
    jobs += [lambda p=p: read_run(p) for p in args.runs]
    done = thread_map(lambda job: job(), jobs, n_jobs=args.jobs)
    qrels = done.pop(0) if args.qrels is not None else None
    n = len(args.memberships)
    memberships = {}
    for (name, _), data in zip(args.memberships, done[:n], strict=True):
        if name in memberships:
            raise UsageError(f"--memberships names the attribute set {name!r} twice")
        memberships[name] = data
    return qrels, memberships, done[n:]


def _cmd_rankfair(args) -> int:
    from .. import rankfair

    if not args.memberships:
        raise UsageError("give at least one attribute set: --memberships NAME FILE")
    targets = {}
    for name, distr in args.target:
        if name in targets:
            raise UsageError(f"--target names the attribute set {name!r} twice")
        targets[name] = _target(distr)
    protected = _protected(args.protected)
    qrels, memberships, runs = _read(args)
    table = rankfair.evaluate(
        qrels,
        runs,
        memberships,
        measures=args.measure,
        cutoffs=None if args.cutoffs is None else int_list(args.cutoffs, "--cutoffs"),
        protected=protected,
        targets=targets or None,
        relevance=args.relevance,
        group_utility=args.group_utility,
        decay=args.decay,
        attention=args.attention,
        step=args.step,
        discount=args.discount,
        epsilon=args.epsilon,
        patience=args.patience,
        stop=args.stop,
        complete=args.complete,
        binarize=args.binarize,
        unlisted=args.unlisted,
        order=args.order,
        duplicates="first" if args.keep_first_duplicate else "error",
        n_jobs=args.jobs,
    )
    emit(args, table)
    return 0
