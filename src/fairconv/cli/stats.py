"""``fairconv compare``, ``report`` and ``discpower``: the commands of :mod:`fairconv.stats`."""

from __future__ import annotations

import json

from ._common import (
    add_lower_is_better,
    lower_is_better,
    save_figure,
    say,
    score_sources,
    write,
)


def add_commands(sub) -> None:
    """Add this module's subcommands to the ``fairconv`` parser."""
    from ..stats import CORRECTIONS, DETAILS, TESTS

    c = sub.add_parser(
        "compare",
        help="significance tests, effect sizes and CIs of systems on one measure",
        description="Compare the systems of per-topic score files on one measure: the systems "
        "best first by the measure's direction (the lowest mean first when lower is better), "
        "with their two-way ANOVA CIs, then every pair (or every pair with a --baseline) with "
        "its difference, p-value, effect size and significance.",
    )
    _add_score_inputs(c)
    c.add_argument(
        "-m",
        "--measure",
        action="append",
        required=True,
        help="the measure, by its printed name (one: compare takes one measure)",
    )
    _add_test_options(c, TESTS)
    c.add_argument(
        "--correction",
        default="none",
        choices=list(CORRECTIONS),
        help="p-value correction for the pairwise tests (a Tukey test refuses one)",
    )
    _add_baseline(c)
    _add_nan_policy(c)
    c.add_argument(
        "--format",
        default="tsv",
        choices=["tsv", "json", "latex", "markdown"],
        help="tsv (default): statement lines, the runs, the pairs; json; latex (booktabs); "
        "markdown",
    )
    c.add_argument("--plot", metavar="FILE", help="write the system means with their CIs")
    c.add_argument("-o", "--output", help="write to this file instead of stdout")
    c.set_defaults(func=_cmd_compare)

    r = sub.add_parser(
        "report",
        help="a paper's results table: runs x measures, each mean marked where runs differ "
        "significantly",
        description="One row per run, one column per measure, each cell the run's mean, "
        "marked where the run differs significantly: with the letters of the runs it is "
        "better than (every pair, the default), or with a triangle up (better) or down "
        "(worse) against each --baseline. Each measure is tested as compare tests it, "
        "with the same options; its direction decides which run is better and which mean "
        "is the best (bold).",
    )
    _add_score_inputs(r)
    r.add_argument(
        "-m",
        "--measure",
        action="append",
        required=True,
        metavar="MEASURE",
        help="a measure, by its printed name: one column each, in the order given (repeat)",
    )
    _add_test_options(r, TESTS)
    r.add_argument(
        "--correction",
        default="none",
        choices=list(CORRECTIONS),
        help="p-value correction for the pairwise tests, over the pairs of each measure",
    )
    _add_baseline(r)
    _add_nan_policy(r)
    r.add_argument(
        "--details",
        default="none",
        choices=list(DETAILS),
        help="cells: effect sizes and intervals in the cells; table: every pair tested in "
        "a second table (default: none)",
    )
    r.add_argument(
        "--decimals", type=int, default=4, help="decimals of the means in latex and markdown (4)"
    )
    r.add_argument(
        "--format",
        default="tsv",
        choices=["tsv", "json", "latex", "markdown"],
        help="tsv (default) and json: every digit of the means and p-values; latex "
        "(booktabs) and markdown: the table for a paper, its caption stating the test",
    )
    r.add_argument("-o", "--output", help="write to this file instead of stdout")
    r.set_defaults(func=_cmd_report)

    d = sub.add_parser(
        "discpower",
        help="discriminative power of measures (Sakai, SIGIR 2006): their ASL curves",
        description="For each measure, the p-values (ASLs) of every pair of systems in "
        "increasing order and the fraction below alpha.",
    )
    _add_score_inputs(d)
    d.add_argument(
        "-m", "--measure", action="append", required=True, help="a measure; repeat for several"
    )
    _add_test_options(d, TESTS)
    _add_nan_policy(d)
    d.add_argument("--format", default="tsv", choices=["tsv", "json"])
    d.add_argument("--plot", metavar="FILE", help="write the ASL curves in one figure")
    d.add_argument("-o", "--output", help="write to this file instead of stdout")
    d.set_defaults(func=_cmd_discpower)


def _add_baseline(parser) -> None:
    parser.add_argument(
        "--baseline",
        action="append",
        metavar="RUN",
        help="test only the pairs of this run with each other run (repeat for several "
        "baselines); a correction then runs over those pairs",
    )


def _add_score_inputs(parser) -> None:
    from ..io._scores import SCORE_FORMATS

    parser.add_argument(
        "--input-format",
        choices=list(SCORE_FORMATS),
        help="the layout of the score files (default: detected)",
    )
    parser.add_argument("--topics", metavar="FILE", help="only the topics listed, one a line")
    parser.add_argument(
        "scores",
        nargs="+",
        metavar="SCORES",
        help="per-topic score files: fairconv TSV, trec_eval -q, ir_measures or ranx "
        "output; NAME=FILE names the run of a file (one run may span several files)",
    )
    add_lower_is_better(parser)


def _add_nan_policy(parser) -> None:
    parser.add_argument(
        "--nan-policy",
        default="raise",
        choices=["raise", "omit"],
        help="topics where a system's value is undefined: an error (default) or left out",
    )


def _add_test_options(parser, tests) -> None:
    parser.add_argument(
        "--test",
        default="randomised-tukey",
        choices=list(tests),
        help="default: randomised Tukey HSD",
    )
    parser.add_argument(
        "--B", type=int, default=10000, dest="n_resamples", help="trials (default 10,000)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the randomised tests (default 0)"
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")


def _read(args, measures):
    from ..io import read_scores, read_topics

    topics = None if args.topics is None else read_topics(args.topics)
    return read_scores(
        score_sources(args.scores),
        measures=measures,
        topics=topics,
        input_format=args.input_format,
        directions=lower_is_better(args, measures),
    )


def _cmd_compare(args) -> int:
    from .. import stats
    from ._outputs import UsageError

    if len(args.measure) != 1:
        raise UsageError(
            f"compare takes one measure; got -m {' -m '.join(args.measure)}. Run compare "
            "once per measure, or use discpower or agree for several"
        )
    measure = args.measure[0]
    table = _read(args, [measure])
    result = stats.compare(
        table,
        measure,
        test=args.test,
        n_resamples=args.n_resamples,
        seed=args.seed,
        alpha=args.alpha,
        nan_policy=args.nan_policy,
        correction=args.correction,
        baseline=args.baseline,
    )
    if args.plot:
        from ..plots import system_means

        save_figure(args, system_means(result), args.plot)
    write(args, args.output, lambda f: f.write(_comparison_text(result, args.format)))
    if result.n_dropped:
        say(f"fairconv compare: {result.n_dropped} topic(s) left out (undefined values)")
    return 0


def _comparison_text(c, fmt: str) -> str:
    """A comparison in the format asked: the writers of :class:`fairconv.stats.Comparison`."""
    if fmt == "json":
        return json.dumps(c.to_dict(), indent=1, allow_nan=False) + "\n"
    if fmt == "latex":
        return c.to_latex()
    if fmt == "markdown":
        return c.to_markdown()
    from ..stats._writers import comparison_tsv

    return comparison_tsv(c)


def _cmd_report(args) -> int:
    from .. import stats
    from .._validation import calling, check_once

    with calling("fairconv report"):
        check_once(args.measure, "-m")
    table = _read(args, args.measure)
    result = stats.report(
        table,
        args.measure,
        baseline=args.baseline,
        test=args.test,
        n_resamples=args.n_resamples,
        seed=args.seed,
        alpha=args.alpha,
        correction=args.correction,
        nan_policy=args.nan_policy,
        details=args.details,
    )
    if args.format == "json":
        text = json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n"
    elif args.format == "latex":
        text = result.to_latex(decimals=args.decimals)
    elif args.format == "markdown":
        text = result.to_markdown(decimals=args.decimals)
    else:
        from ..stats._report import _tsv

        text = _tsv(result)
    write(args, args.output, lambda f: f.write(text))
    return 0


def _cmd_discpower(args) -> int:
    from .._validation import calling, check_once
    from ..stats._common import _alpha
    from ..stats._compare import _discriminative_power, _scores_of, direction_in
    from ..stats._writers import DIRECTION_TEXT, TEST_NAMES

    with calling("fairconv discpower"):
        check_once(args.measure, "-m")
    table = _read(args, args.measure)
    alpha = _alpha(args.alpha)
    results = {}
    for measure in args.measure:
        x, topics, dropped = _scores_of(table, measure, args.nan_policy, None)
        if dropped:
            say(f"fairconv discpower: {measure}: {dropped} topic(s) left out (undefined values)")
        results[measure] = _discriminative_power(
            x, tuple(table.runs), topics, args.test, alpha, args.n_resamples, args.seed
        )
    if args.plot:
        from ..plots import asl_curves

        save_figure(args, asl_curves(results), args.plot)

    def report(r) -> str:
        if r.test in ("paired-t", "tukey"):
            how = "p from the " + ("t" if r.test == "paired-t" else "studentized range")
            return f"{how} distribution"
        if r.exact:
            return f"exact (count / N), all N = {r.n_resamples} enumerated"
        return f"Monte Carlo ((count + 1) / (B + 1)), B = {r.n_resamples}, seed {r.seed}"

    def tsv(out):
        first = next(iter(results.values()))
        out.write(f"# test: {first.test} ({TEST_NAMES[first.test]})\n")
        out.write(f"# alpha: {first.alpha:g}; correction: none (the ASLs are per pair)\n")
        for measure, r in results.items():
            direction = DIRECTION_TEXT[direction_in(table, measure)]
            out.write(f"# {measure} ({direction}): {r.n_topics} topics; p-values: {report(r)}\n")
        out.write("measure\trank\ta\tb\tasl\n")
        for measure, r in results.items():
            out.write(
                "".join(
                    f"{measure}\t{i}\t{a}\t{b}\t{p!r}\n"
                    for i, a, b, p in zip(
                        *(r._table()[c] for c in ("rank", "a", "b")), r.asl.tolist(), strict=True
                    )  # fmt: skip
                )
            )
        out.write("measure\tdiscriminative_power\n")
        for measure, r in results.items():
            out.write(f"{measure}\t{r.power!r}\n")

    def as_json(out):
        data = {}
        for m, r in results.items():
            d = r.to_dict()
            d["discriminative_power"] = d.pop("power")
            d["p_value"] = report(r)
            d["direction"] = direction_in(table, m)
            data[m] = d
        json.dump(data, out, indent=1, allow_nan=False)
        out.write("\n")

    write(args, args.output, tsv if args.format == "tsv" else as_json)
    return 0
