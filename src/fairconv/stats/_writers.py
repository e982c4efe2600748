"""The text of a comparison: what a results section states, as TSV, LaTeX and Markdown.

One writer per format, used by :meth:`Comparison.to_latex`,
:meth:`Comparison.to_markdown` and ``fairconv compare``; the helpers (names of the
tests, p-values as a table prints them, text escaped for LaTeX and Markdown) serve
:func:`fairconv.stats.report` too.
"""

from __future__ import annotations

import html
import re

TEST_NAMES = {
    "randomised-tukey": "randomised Tukey HSD",
    "tukey": "two-way Tukey HSD",
    "paired-t": "paired t-test",
    "randomisation": "sign-flip randomisation test",
    "bootstrap": "paired bootstrap test",
}
"""Each test's name in words."""

EFFECT_SIZE_TEXT = {
    "ES_E": "ES_E = (mean(a) - mean(b)) / sqrt(V_E), V_E the two-way ANOVA residual variance",
    "d_z": "d_z = mean(d) / s_d of the per-topic differences d = a - b",
}
"""Each effect size's definition in words."""

DIRECTION_TEXT = {
    "higher": "higher is better",
    "lower": "lower is better",
    "undirected": "undirected: no run is better",
}
"""Each direction in words."""

PAIRED_TESTS = ("paired-t", "randomisation", "bootstrap")
"""The tests of two runs (a correction runs over the pairs they test)."""


# --------------------------------------------------------------------------- numbers
def number(value: float) -> str:
    """A float at full precision (TSV), NaN (an undefined value) as fairconv prints it."""
    return "NaN" if value != value else repr(float(value))


def p_text(value: float) -> str:
    """A p-value as a table shows it: ``<0.001``, else 3 significant digits (``--``: NaN)."""
    if value != value:
        return "--"
    return "<0.001" if value < 0.001 else f"{value:#.3g}"


def fixed(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals (``--`` for NaN, the minus sign of -0.0 kept off)."""
    if value != value:
        return "--"
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def interval(low: float, high: float, decimals: int) -> str:
    """``[low, high]``; ``--`` where the test gives none."""
    if low != low or high != high:
        return "--"
    return f"[{fixed(low, decimals)}, {fixed(high, decimals)}]"


# --------------------------------------------------------------------------- escaping
_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # a row or a cell may start with a name: \\ would read [ as its option
    "[": "{[}",
    "]": "{]}",
    # ligatures of the text fonts (-- and --- are dashes, `` and '' quotes, !` and ?`
    # inverted marks): a name keeps its characters
    "-": "-{}",
    "'": "'{}",
    "`": "{`}",
}
_LATEX_SPECIAL = re.compile(r"[\\{}$&%#_~^<>|`\[\]]|-(?=-)|'(?=')")


def latex_text(text: str) -> str:
    r"""``text`` as LaTeX prints it: every special character escaped, no ligature made.

    Examples
    --------
    >>> print(latex_text("run_1 & 50% {x} $5 #2 a--b"))
    run\_1 \& 50\% \{x\} \$5 \#2 a-{}-b
    >>> print(latex_text("~a^b \\ c"))
    \textasciitilde{}a\textasciicircum{}b \textbackslash{} c
    """
    return _LATEX_SPECIAL.sub(lambda m: _LATEX[m.group()], str(text))


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&$^])")


def markdown_text(text: str) -> str:
    r"""``text`` as Markdown prints it: the characters that mean something escaped.

    CommonMark lets a backslash escape any ASCII punctuation: code spans, emphasis,
    links, HTML and entities, GitHub's strikethrough, math and table cells (``|``).

    Examples
    --------
    >>> print(markdown_text("run_1|*x*"))
    run\_1\|\*x\*
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def html_text(text: str) -> str:
    """``text`` as HTML prints it."""
    return html.escape(str(text))


# --------------------------------------------------------------------------- comparison
def p_phrase(c) -> str:
    """How a comparison's p-values were made, in a caption's words."""
    if c.test in ("paired-t", "tukey"):
        return f"p from the {'t' if c.test == 'paired-t' else 'studentized range'} distribution"
    if c.exact:
        return f"exact p over all {c.n_resamples:,} permutations"
    seed = "a fresh seed" if c.seed is None else f"seed {c.seed}"
    return f"Monte Carlo p = (count + 1)/(B + 1), B = {c.n_resamples:,}, {seed}"


def statements(c) -> list[str]:
    """What a results section states about a comparison, one statement a line."""
    level = f"{100 * (1 - c.alpha):g}%"
    lines = [
        f"measure: {c.measure} ({DIRECTION_TEXT[c.direction]})",
        f"test: {c.test} ({TEST_NAMES[c.test]})",
    ]
    if c.test in ("paired-t", "tukey"):
        lines.append(f"p-values: {c.p_value_rule} distribution")
    elif c.exact:
        lines.append(f"p-values: exact (count / N), all N = {c.n_resamples} enumerated")
    else:
        seed = "none (fresh)" if c.seed is None else str(c.seed)
        lines.append(f"p-values: {c.p_value_rule}, B = {c.n_resamples}, seed {seed}")
    dropped = f" ({c.n_dropped} left out: undefined values)" if c.n_dropped else ""
    lines.append(f"alpha: {c.alpha:g}; correction: {c.correction}; topics: {c.n_topics}{dropped}")
    if c.baseline is not None:
        family = (
            " (the Tukey test's p-values are those of its family of all pairs)"
            if c.test not in PAIRED_TESTS
            else f" (the correction runs over these {len(c.pairs)} pairs)"
            if c.correction != "none"
            else ""
        )
        lines.append(f"pairs: each run against the baseline(s) {', '.join(c.baseline)}{family}")
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


def _has_run_intervals(c) -> bool:
    return c.test in ("tukey", "randomised-tukey")


def _has_pair_intervals(c) -> bool:
    return c.test in ("tukey", "paired-t")


def comparison_tsv(c) -> str:
    """The comparison as ``fairconv compare`` prints it: statements, runs, pairs."""
    out = [f"# {line}\n" for line in statements(c)]
    run_ci, pair_ci = _has_run_intervals(c), _has_pair_intervals(c)
    out.append("run\tmean" + ("\tci_low\tci_high" if run_ci else "") + "\n")
    for s in c.runs:
        ci = f"\t{number(s['ci_low'])}\t{number(s['ci_high'])}" if run_ci else ""
        out.append(f"{s['name']}\t{s['mean']!r}{ci}\n")
    out.append(
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
        ci = f"\t{number(low)}\t{number(high)}" if pair_ci else ""
        out.append(f"{a}\t{b}\t{diff!r}{ci}\t{p!r}\t{number(es)}\t{'yes' if sig else 'no'}\n")
    return "".join(out)


def _caption(c, *, latex: bool) -> str:
    """The caption of a comparison's tables, in LaTeX or in plain words (Markdown)."""
    name = latex_text if latex else markdown_text
    percent = "\\%" if latex else "%"
    level = f"{100 * (1 - c.alpha):g}{percent}"
    if c.effect_size_name == "ES_E":
        effect = (
            r"$ES_E = (\bar a - \bar b)/\sqrt{V_E}$"
            if latex
            else "ES_E = (mean(a) - mean(b)) / sqrt(V_E)"
        )
    else:
        effect = r"$d_z = \bar d / s_d$" if latex else "d_z = mean(d) / s_d"
    parts = []
    if _has_run_intervals(c):
        parts.append(
            f"Run intervals: two-way ANOVA {level} intervals of the means, conditional on "
            "these topics."
        )
    if _has_pair_intervals(c):
        kind = "Tukey's simultaneous" if c.test == "tukey" else "paired-t"
        parts.append(f"Pair intervals: {kind} {level} CIs of the differences.")
    if c.baseline is not None:
        listed = ", ".join(map(name, c.baseline))
        parts.append(f"Pairs: each run against the baseline(s) {listed}.")
    dropped = f" ({c.n_dropped} left out: undefined values)" if c.n_dropped else ""
    alpha = f"$\\alpha = {c.alpha:g}$" if latex else f"alpha = {c.alpha:g}"
    return (
        f"{name(c.measure)} ({DIRECTION_TEXT[c.direction]}) over {c.n_topics} topics{dropped}: "
        f"{TEST_NAMES[c.test]}, {p_phrase(c)}; {alpha}, correction: {c.correction}; "
        f"effect size {effect}." + "".join(" " + p for p in parts)
    )


def comparison_latex(c) -> str:
    """The comparison as a LaTeX table (booktabs): runs by mean, then the pairs."""
    caption = _caption(c, latex=True)
    run_ci, pair_ci = _has_run_intervals(c), _has_pair_intervals(c)
    out = ["\\begin{table}[t]\n\\centering\n", f"\\caption{{{caption}}}\n"]
    out.append(f"\\begin{{tabular}}{{{'lrr' if run_ci else 'lr'}}}\n\\toprule\n")
    out.append("Run & Mean" + (" & Interval" if run_ci else "") + " \\\\\n\\midrule\n")
    for s in c.runs:
        ci = f" & {interval(s['ci_low'], s['ci_high'], 4)}" if run_ci else ""
        out.append(f"{latex_text(s['name'])} & {fixed(s['mean'], 4)}{ci} \\\\\n")
    out.append("\\bottomrule\n\\end{tabular}\n\n\\medskip\n")
    a, b = ("Run", "Baseline") if c.baseline is not None else ("A", "B")
    out.append(
        f"\\begin{{tabular}}{{{'llr' + ('r' if pair_ci else '') + 'rr'}}}\n\\toprule\n"
        f"{a} & {b} & Difference" + (" & CI" if pair_ci else "")
        + f" & $p$ & ${c.effect_size_name}$ \\\\\n\\midrule\n"
    )  # fmt: skip
    for p in c.pairs:
        mark = "$^{*}$" if p["significant"] else ""
        ci = f" & {interval(p['ci_low'], p['ci_high'], 4)}" if pair_ci else ""
        shown = p_text(p["pvalue"]).replace("<", "$<$")
        out.append(
            f"{latex_text(p['a'])} & {latex_text(p['b'])} & {fixed(p['difference'], 4)}{ci} & "
            f"{shown}{mark} & {fixed(p['effect_size'], 3)} \\\\\n"
        )
    out.append(
        "\\bottomrule\n\\end{tabular}\n"
        f"\\\\[2pt]{{\\footnotesize $^{{*}}$: $p < {c.alpha:g}$}}\n\\end{{table}}\n"
    )
    return "".join(out)


def comparison_markdown(c) -> str:
    """The comparison as Markdown: its caption, then the runs and the pairs as tables."""
    run_ci, pair_ci = _has_run_intervals(c), _has_pair_intervals(c)
    out = [_caption(c, latex=False), "\n\n"]
    out.append("| Run | Mean |" + (" Interval |" if run_ci else "") + "\n")
    out.append("| :-- | --: |" + (" :-- |" if run_ci else "") + "\n")
    for s in c.runs:
        ci = f" {interval(s['ci_low'], s['ci_high'], 4)} |" if run_ci else ""
        out.append(f"| {markdown_text(s['name'])} | {fixed(s['mean'], 4)} |{ci}\n")
    a, b = ("Run", "Baseline") if c.baseline is not None else ("A", "B")
    out.append(
        f"\n| {a} | {b} | Difference |" + (" CI |" if pair_ci else "")
        + f" p | {markdown_text(c.effect_size_name)} |\n"
        + "| :-- | :-- | --: |" + (" :-- |" if pair_ci else "") + " --: | --: |\n"
    )  # fmt: skip
    for p in c.pairs:
        mark = "<sup>\\*</sup>" if p["significant"] else ""
        ci = f" {interval(p['ci_low'], p['ci_high'], 4)} |" if pair_ci else ""
        out.append(
            f"| {markdown_text(p['a'])} | {markdown_text(p['b'])} | "
            f"{fixed(p['difference'], 4)} |{ci} {markdown_text(p_text(p['pvalue']))}{mark} | "
            f"{fixed(p['effect_size'], 3)} |\n"
        )
    out.append(f"\n<sup>\\*</sup>: p < {c.alpha:g}\n")
    return "".join(out)
