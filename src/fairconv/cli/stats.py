"""``fairconv compare`` and ``fairconv discpower``: the commands of :mod:`fairconv.stats`."""

from __future__ import annotations

import json
import sys

from ._common import save_figure, score_sources, write


def add_commands(sub) -> None:
    """Add this module's subcommands to the ``fairconv`` parser."""
    from ..stats import CORRECTIONS, TESTS

    c = sub.add_parser(
        "compare",
        help="significance tests, effect sizes and CIs of systems on one measure",
        description="Compare the systems of per-topic score files on one measure: the systems "
        "by mean with their two-way ANOVA CIs, then every pair with its difference, p-value, "
        "effect size and significance.",
    )
    _add_score_inputs(c)
    c.add_argument("-m", "--measure", required=True, help="the measure, by its printed name")
    _add_test_options(c, TESTS)
    c.add_argument(
        "--correction",
        default="none",
        choices=list(CORRECTIONS),
        help="p-value correction for the pairwise tests (a Tukey test refuses one)",
    )
    _add_nan_policy(c)
    c.add_argument("--format", default="tsv", choices=["tsv", "json", "latex"])
    c.add_argument("--plot", metavar="FILE", help="write the system means with their CIs")
    c.add_argument("-o", "--output", help="write to this file instead of stdout")
    c.set_defaults(func=_cmd_compare)

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


def _add_nan_policy(parser) -> None:
    parser.add_argument(
        "--nan-policy",
        default="raise",
        choices=["raise", "omit"],
        help="topics where a system's value is undefined: an error (default) or left out",
    )


def _number(value: float) -> str:
    """A float at full precision, NaN (an undefined effect size or CI) as fairconv prints it."""
    return "NaN" if value != value else repr(value)


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
    parser.add_argument("--seed", type=int, help="seed of the randomised tests")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")


def _read(args, measures):
    from ..io import read_scores, read_topics

    topics = None if args.topics is None else read_topics(args.topics)
    return read_scores(
        score_sources(args.scores),
        measures=measures,
        topics=topics,
        input_format=args.input_format,
    )


def _cmd_compare(args) -> int:
    from .. import stats

    table = _read(args, [args.measure])
    result = stats.compare(
        table,
        args.measure,
        test=args.test,
        n_resamples=args.n_resamples,
        seed=args.seed,
        alpha=args.alpha,
        nan_policy=args.nan_policy,
        correction=args.correction,
    )
    if args.plot:
        from ..plots import system_means

        save_figure(args, system_means(result), args.plot)
    writer = {"tsv": _compare_tsv, "json": _compare_json, "latex": _compare_latex}[args.format]
    write(args, args.output, lambda f: writer(result, f))
    if result.n_dropped:
        print(
            f"fairconv compare: {result.n_dropped} topic(s) left out (undefined values)",
            file=sys.stderr,
        )
    return 0


def _compare_tsv(c, out) -> None:
    extra = "" if c.correction == "none" else f", {c.correction} correction"
    if c.n_dropped:
        extra += f", {c.n_dropped} topic(s) with undefined values left out"
    out.write(f"# {c.measure}, {c.test}, {c.n_topics} topics, alpha {c.alpha:g}{extra}\n")
    out.write("system\tmean\tci_low\tci_high\n")
    for s in c.systems:
        out.write(f"{s['name']}\t{s['mean']!r}\t{_number(s['ci_low'])}\t{_number(s['ci_high'])}\n")
    out.write("a\tb\tdifference\tpvalue\teffect_size\tsignificant\n")
    for p in c.pairs:
        out.write(
            f"{p['a']}\t{p['b']}\t{p['difference']!r}\t{p['pvalue']!r}\t"
            f"{_number(p['effect_size'])}\t"
            f"{'yes' if p['significant'] else 'no'}\n"
        )


def _compare_json(c, out) -> None:
    json.dump(c.to_dict(), out, indent=1, allow_nan=False)
    out.write("\n")


def _tex(text: str) -> str:
    """Text safe in LaTeX: its special characters escaped."""
    text = text.replace("\\", "\0")
    for a, b in (("_", r"\_"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"), ("$", r"\$"),
                 ("{", r"\{"), ("}", r"\}"), ("^", r"\^{}"), ("~", r"\~{}")):  # fmt: skip
        text = text.replace(a, b)
    return text.replace("\0", r"\textbackslash{}")


def _latex_number(value: float) -> str:
    return "--" if value != value else f"{value:.3f}"


def _compare_latex(c, out) -> None:
    names = {
        "randomised-tukey": "randomised Tukey HSD",
        "tukey": "Tukey HSD",
        "paired-t": "paired t-test",
        "randomisation": "randomisation test",
        "bootstrap": "bootstrap test",
    }
    out.write("\\begin{table}[t]\n\\centering\n")
    out.write(
        f"\\caption{{{_tex(c.measure)}: system means with {100 * (1 - c.alpha):g}\\% CIs "
        f"over {c.n_topics} topics, and every pair by the {names[c.test]}"
        + ("" if c.correction == "none" else f" ({c.correction} correction)")
        + ".}\n"
    )
    out.write("\\begin{tabular}{lrr}\n\\toprule\nSystem & Mean & CI \\\\\n\\midrule\n")
    for s in c.systems:
        ci = "--" if s["ci_low"] != s["ci_low"] else f"[{s['ci_low']:.4f}, {s['ci_high']:.4f}]"
        out.write(f"{_tex(s['name'])} & {s['mean']:.4f} & {ci} \\\\\n")
    out.write("\\bottomrule\n\\end{tabular}\n\n\\medskip\n")
    out.write(
        "\\begin{tabular}{llrrr}\n\\toprule\nA & B & Difference & $p$ & Effect size \\\\\n"
        "\\midrule\n"
    )
    for p in c.pairs:
        mark = "$^{*}$" if p["significant"] else ""
        out.write(
            f"{_tex(p['a'])} & {_tex(p['b'])} & {p['difference']:.4f} & "
            f"{p['pvalue']:.3f}{mark} & {_latex_number(p['effect_size'])} \\\\\n"
        )
    out.write(
        f"\\bottomrule\n\\end{{tabular}}\n\\\\[2pt]{{\\footnotesize $^{{*}}$: $p < {c.alpha:g}$}}\n"
    )
    out.write("\\end{table}\n")


def _cmd_discpower(args) -> int:
    from .. import stats

    table = _read(args, args.measure)
    results = {}
    for measure in args.measure:
        x, _, dropped = stats.scores_of(table, measure, nan_policy=args.nan_policy)
        if dropped:
            print(
                f"fairconv discpower: {measure}: {dropped} topic(s) left out (undefined values)",
                file=sys.stderr,
            )
        results[measure] = stats.discriminative_power(
            x, test=args.test, alpha=args.alpha, n_resamples=args.n_resamples, seed=args.seed
        )
    runs = table.runs
    if args.plot:
        from ..plots import asl_curves

        save_figure(args, asl_curves(results), args.plot)

    def tsv(out):
        out.write("measure\trank\ta\tb\tasl\n")
        for measure, r in results.items():
            for i, ((j, k), p) in enumerate(zip(r.pairs, r.asl.tolist(), strict=True), 1):
                out.write(f"{measure}\t{i}\t{runs[j]}\t{runs[k]}\t{p!r}\n")
        out.write("measure\tdiscriminative_power\n")
        for measure, r in results.items():
            out.write(f"{measure}\t{r.power!r}\n")

    def as_json(out):
        data = {
            m: {
                "test": r.test,
                "alpha": r.alpha,
                "discriminative_power": r.power,
                "pairs": [
                    {"a": runs[j], "b": runs[k], "asl": p}
                    for (j, k), p in zip(r.pairs, r.asl.tolist(), strict=True)
                ],
            }
            for m, r in results.items()
        }
        json.dump(data, out, indent=1, allow_nan=False)
        out.write("\n")

    write(args, args.output, tsv if args.format == "tsv" else as_json)
    return 0
