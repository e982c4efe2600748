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


TEST_NAMES = {
    "randomised-tukey": "randomised Tukey HSD",
    "tukey": "two-way Tukey HSD",
    "paired-t": "paired t-test",
    "randomisation": "sign-flip randomisation test",
    "bootstrap": "paired bootstrap test",
}

EFFECT_SIZE_TEXT = {
    "ES_E": "ES_E = (mean(a) - mean(b)) / sqrt(V_E), V_E the two-way ANOVA residual variance",
    "d_z": "d_z = mean(d) / s_d of the per-topic differences d = a - b",
}


def _report(c) -> list[str]:
    """What a results section needs, one statement a line (test, B, seed, p, ...)."""
    level = f"{100 * (1 - c.alpha):g}%"
    lines = [f"measure: {c.measure}", f"test: {c.test} ({TEST_NAMES[c.test]})"]
    if c.test in ("paired-t", "tukey"):
        lines.append(f"p-values: {c.p_value_rule} distribution")
    else:
        seed = "none (fresh)" if c.seed is None else str(c.seed)
        if c.exact:
            lines.append(f"p-values: exact (count / N), all N = {c.n_resamples} enumerated")
        else:
            lines.append(f"p-values: {c.p_value_rule}, B = {c.n_resamples}, seed {seed}")
    dropped = f" ({c.n_dropped} left out: undefined values)" if c.n_dropped else ""
    lines.append(f"alpha: {c.alpha:g}; correction: {c.correction}; topics: {c.n_topics}{dropped}")
    lines.append(f"effect size: {EFFECT_SIZE_TEXT[c.effect_size_name]}")
    if c.test in ("tukey", "randomised-tukey"):
        lines.append(
            f"run intervals: two-way ANOVA {level} interval of each mean, conditional on "
            f"these {c.n_topics} topics"
        )
    if c.test == "tukey":
        lines.append(f"pair intervals: Tukey's simultaneous {level} CIs of the differences")
    elif c.test == "paired-t":
        lines.append(f"pair intervals: paired-t {level} CI of each difference (unadjusted)")
    return lines


def _compare_tsv(c, out) -> None:
    for line in _report(c):
        out.write(f"# {line}\n")
    run_ci = c.test in ("tukey", "randomised-tukey")
    pair_ci = c.test in ("tukey", "paired-t")
    out.write("run\tmean" + ("\tci_low\tci_high" if run_ci else "") + "\n")
    for s in c.runs:
        ci = f"\t{_number(s['ci_low'])}\t{_number(s['ci_high'])}" if run_ci else ""
        out.write(f"{s['name']}\t{s['mean']!r}{ci}\n")
    out.write(
        "a\tb\tdifference"
        + ("\tci_low\tci_high" if pair_ci else "")
        + "\tpvalue\teffect_size\tsignificant\n"
    )
    cols = c.pairs.columns()
    rows = zip(
        cols["a"].tolist(), cols["b"].tolist(), cols["difference"].tolist(),
        cols["ci_low"].tolist(), cols["ci_high"].tolist(), cols["pvalue"].tolist(),
        cols["effect_size"].tolist(), cols["significant"].tolist(), strict=True,
    )  # fmt: skip
    for a, b, diff, low, high, p, es, sig in rows:
        ci = f"\t{_number(low)}\t{_number(high)}" if pair_ci else ""
        out.write(f"{a}\t{b}\t{diff!r}{ci}\t{p!r}\t{_number(es)}\t{'yes' if sig else 'no'}\n")


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


def _latex_p(value: float) -> str:
    """A p as a table prints it: below 0.001 as "<0.001", never as 0.000."""
    if value < 0.001:
        return "$<0.001$"
    return f"{value:.3f}"


def _compare_latex(c, out) -> None:
    level = f"{100 * (1 - c.alpha):g}\\%"
    if c.test in ("paired-t", "tukey"):
        how = f"p from the {c.p_value_rule.removeprefix('from the ')} distribution"
    elif c.exact:
        how = f"exact p over all {c.n_resamples} permutations"
    else:
        seed = "a fresh seed" if c.seed is None else f"seed {c.seed}"
        how = f"Monte Carlo p = (count + 1)/(B + 1), B = {c.n_resamples}, {seed}"
    effect = (
        "$ES_E = (\\bar a - \\bar b)/\\sqrt{V_E}$"
        if c.effect_size_name == "ES_E"
        else "$d_z = \\bar d / s_d$"
    )
    run_ci = c.test in ("tukey", "randomised-tukey")
    pair_ci = c.test in ("tukey", "paired-t")
    intervals = ""
    if run_ci:
        intervals += (
            f" Run intervals: two-way ANOVA {level} intervals of the means, conditional on "
            "these topics."
        )
    if pair_ci:
        kind = "Tukey's simultaneous" if c.test == "tukey" else "paired-t"
        intervals += f" Pair intervals: {kind} {level} CIs of the differences."
    dropped = f" ({c.n_dropped} left out: undefined values)" if c.n_dropped else ""
    out.write("\\begin{table}[t]\n\\centering\n")
    out.write(
        f"\\caption{{{_tex(c.measure)} over {c.n_topics} topics{dropped}: "
        f"{TEST_NAMES[c.test]}, {how}; $\\alpha = {c.alpha:g}$, correction: "
        f"{c.correction}; effect size {effect}.{intervals}}}\n"
    )
    cols = "lrr" if run_ci else "lr"
    out.write(f"\\begin{{tabular}}{{{cols}}}\n\\toprule\n")
    out.write("Run & Mean" + (" & Interval" if run_ci else "") + " \\\\\n\\midrule\n")
    for s in c.runs:
        ci = f" & [{s['ci_low']:.4f}, {s['ci_high']:.4f}]" if run_ci else ""
        out.write(f"{_tex(s['name'])} & {s['mean']:.4f}{ci} \\\\\n")
    out.write("\\bottomrule\n\\end{tabular}\n\n\\medskip\n")
    spec = "llr" + ("r" if pair_ci else "") + "rr"
    out.write(
        f"\\begin{{tabular}}{{{spec}}}\n\\toprule\nA & B & Difference"
        + (" & CI" if pair_ci else "")
        + f" & $p$ & ${c.effect_size_name}$ \\\\\n\\midrule\n"
    )
    for p in c.pairs:
        mark = "$^{*}$" if p["significant"] else ""
        ci = f" & [{p['ci_low']:.4f}, {p['ci_high']:.4f}]" if pair_ci else ""
        out.write(
            f"{_tex(p['a'])} & {_tex(p['b'])} & {p['difference']:.4f}{ci} & "
            f"{_latex_p(p['pvalue'])}{mark} & "
            f"{_latex_number(p['effect_size'])} \\\\\n"
        )
    out.write(
        f"\\bottomrule\n\\end{{tabular}}\n\\\\[2pt]{{\\footnotesize $^{{*}}$: $p < {c.alpha:g}$}}\n"
    )
    out.write("\\end{table}\n")


def _cmd_discpower(args) -> int:
    from .._validation import calling, check_once
    from ..stats._common import _alpha
    from ..stats._compare import _discriminative_power, _scores_of

    with calling("fairconv discpower"):
        check_once(args.measure, "-m")
    table = _read(args, args.measure)
    alpha = _alpha(args.alpha)
    results = {}
    for measure in args.measure:
        x, topics, dropped = _scores_of(table, measure, args.nan_policy, None)
        if dropped:
            print(
                f"fairconv discpower: {measure}: {dropped} topic(s) left out (undefined values)",
                file=sys.stderr,
            )
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
            out.write(f"# {measure}: {r.n_topics} topics; p-values: {report(r)}\n")
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
            data[m] = d
        json.dump(data, out, indent=1, allow_nan=False)
        out.write("\n")

    write(args, args.output, tsv if args.format == "tsv" else as_json)
    return 0
