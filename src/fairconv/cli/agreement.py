"""``fairconv agree`` and ``fairconv labels``: the commands of :mod:`fairconv.agreement`."""

from __future__ import annotations

import json
import os

from ._common import (
    add_lower_is_better,
    lower_is_better,
    save_figure,
    say,
    score_sources,
    write,
)


# --------------------------------------------------------------------------- labels
def _number(value: float) -> str:
    return "NaN" if value != value else repr(float(value))


def _label_text(value) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "NaN"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _cmd_labels(args) -> int:
    from .. import agreement

    data = agreement.read_label_file(args.labels)
    n_raters = len(data.raters)
    if n_raters < 2 and not args.vote:
        raise ValueError(
            f"{args.labels}: agreement needs at least 2 raters; the file has {n_raters} "
            f"({', '.join(data.raters)})"
        )
    categories = None
    if args.categories is not None:
        categories = [c for c in args.categories.split(",") if c]
        if data.numeric:  # numbers as the label file's are read
            from ..io._text import decimal

            numbers = [decimal(c.encode()) for c in categories]
            for text, value in zip(categories, numbers, strict=True):
                if value is None:
                    raise ValueError(
                        f"--categories: {text!r} is not a finite number, and the labels of "
                        f"{args.labels} are numbers"
                    )
            categories = numbers
    if args.vote:
        vote = agreement.majority_vote(data.labels, ties=args.ties, categories=categories)

        def write_votes(out) -> None:
            out.write("item\tlabel\tvotes\tratings\n")
            out.write(
                "".join(
                    f"{item}\t{_label_text(label)}\t{v}\t{n}\n"
                    for item, label, v, n in zip(
                        data.items,
                        vote.labels.tolist(),
                        vote.votes.tolist(),
                        vote.n_ratings.tolist(),
                        strict=True,
                    )
                )
            )

        def votes_json(out) -> None:
            rows = [
                {"item": item, "label": _json_label(label), "votes": v, "ratings": n}
                for item, label, v, n in zip(
                    data.items,
                    vote.labels.tolist(),
                    vote.votes.tolist(),
                    vote.n_ratings.tolist(),
                    strict=True,
                )
            ]
            json.dump({"votes": rows}, out, indent=1, allow_nan=False)
            out.write("\n")

        write(args, args.output, votes_json if args.format == "json" else write_votes)
        return 0
    rows: list[tuple[str, float]] = []
    if n_raters == 2:
        a, b = data.labels[:, 0], data.labels[:, 1]
        acc = agreement.accuracy(a, b)
        kappa = agreement.cohen_kappa(a, b, weighting=args.weighting, categories=categories)
        name = "cohen_kappa" if args.weighting is None else f"cohen_kappa[{args.weighting}]"
        rows += [("n_items", acc.n_items), ("accuracy", acc.statistic), (name, kappa.statistic)]
    else:
        rows.append(("n_items", len(data.items)))
        counts = (
            (data.labels == data.labels) if data.numeric else (data.labels != None)  # noqa: E711
        ).sum(axis=1)
        if (counts == counts[0]).all() and counts[0] >= 2:
            rows.append(("fleiss_kappa", agreement.fleiss_kappa(data.labels).statistic))
        else:
            say(
                "fairconv labels: fleiss_kappa left out: the items do not all have the same "
                "number of labels"
            )
    alpha = agreement.krippendorff_alpha(data.labels, level=args.level, categories=categories)
    rows.append((f"krippendorff_alpha[{args.level}]", alpha.statistic))
    rows.insert(1, ("n_raters", n_raters))

    def write_rows(out) -> None:
        out.write("measure\tvalue\n")
        for name, value in rows:
            text = str(value) if isinstance(value, int) else _number(value)
            out.write(f"{name}\t{text}\n")

    def rows_json(out) -> None:
        data = {name: (None if value != value else value) for name, value in rows}
        json.dump(data, out, indent=1, allow_nan=False)
        out.write("\n")

    write(args, args.output, rows_json if args.format == "json" else write_rows)
    return 0


def _json_label(label):
    """A label for JSON: None for no label (NaN), an int for a whole number."""
    if isinstance(label, float):
        if label != label:
            return None
        return int(label) if label.is_integer() else label
    return label


# --------------------------------------------------------------------------- agree
TAU_AP = (
    "tau_ap-b (Urbano and Marrero, ICTIR 2017): the symmetric AP correlation with ties, "
    "the mean of tau_ap taking each ranking as the truth"
)
P_RULE = (
    "tau_b_pvalue: scipy.stats.kendalltau's two-sided p, exact for up to 33 runs without "
    "ties (a perfect tau over 3 runs has p = 1/3), else the normal approximation"
)


def _topics_text(pairs) -> str:
    counts = sorted({n for p in pairs for n in p["n_topics"]})
    return ", ".join(map(str, counts))


def _write_pairs(pairs, fmt: str, out) -> None:
    import json

    from ..stats._writers import latex_text

    def num(v: float) -> str:
        return "NaN" if v != v else repr(v)

    def tex(v: float, digits: int = 3) -> str:
        return "--" if v != v else f"{v:.{digits}f}"

    if fmt == "json":
        rows = [{k: (None if v != v else v) if isinstance(v, float) else v
                 for k, v in p.items()} for p in pairs]  # fmt: skip
        json.dump({"tau_ap": TAU_AP, "p_value": P_RULE, "pairs": rows}, out, indent=2,
                  allow_nan=False)  # fmt: skip
        out.write("\n")
        return
    if fmt == "latex":
        n_runs = pairs[0]["n_systems"] if pairs else 0
        out.write("\\begin{table}[t]\n\\centering\n")
        out.write(
            f"\\caption{{Agreement of the run rankings: {n_runs} runs ranked by their mean "
            f"over {_topics_text(pairs)} topics. Kendall's $\\tau_b$ with its two-sided $p$ "
            "(exact for up to 33 runs without ties), $\\tau_{ap}$-b (Urbano and Marrero, "
            "2017: symmetric, ties allowed) and Spearman's $\\rho$; -- where undefined.}\n"
        )
        out.write("\\begin{tabular}{llrrrrr}\n\\hline\n")
        out.write("A & B & $\\tau_b$ & $p$ & $\\tau_{ap}$-b & $\\rho$ & runs \\\\\n\\hline\n")
        for p in pairs:
            out.write(
                f"{latex_text(p['a'])} & {latex_text(p['b'])} & {tex(p['tau_b'])} & "
                f"{tex(p['tau_b_pvalue'])} & {tex(p['tau_ap'])} & {tex(p['spearman'])} & "
                f"{p['n_systems']} \\\\\n"
            )
        out.write("\\hline\n\\end{tabular}\n\\end{table}\n")
        return
    out.write(f"# tau_ap: {TAU_AP}\n# p: {P_RULE}\n")
    out.write("a\tb\ttau_b\ttau_b_pvalue\ttau_ap\tspearman\tn_systems\tn_topics_a\tn_topics_b\n")
    for p in pairs:
        out.write(
            f"{p['a']}\t{p['b']}\t{num(p['tau_b'])}\t{num(p['tau_b_pvalue'])}\t"
            f"{num(p['tau_ap'])}\t{num(p['spearman'])}\t{p['n_systems']}\t"
            f"{p['n_topics'][0]}\t{p['n_topics'][1]}\n"
        )


def _same_file(a: str, b: str) -> bool:
    """Two paths of one file (links and spellings included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # a path that is not there: its reader reports it
        return os.path.realpath(a) == os.path.realpath(b)


def _cmd_agree(args) -> int:
    import numpy as np

    from .. import agreement
    from .._validation import calling, check_once
    from ..agreement._rankings import oriented, ranking_pairs, run_means
    from ..io import read_scores, read_topics

    with calling("fairconv agree"):
        check_once(args.measure, "-m")
    measures = list(args.measure)
    topics = None if args.topics is None else read_topics(args.topics)
    fmt = args.input_format
    if args.between:
        if len(args.scores) != 2:
            raise ValueError(
                f"--between compares two score files; got {len(args.scores)} "
                f"({' '.join(args.scores)})"
            )
        if _same_file(*args.scores):
            raise ValueError(
                f"--between compares two score files; both are {args.scores[0]} ({args.scores[1]})"
            )
        lower = lower_is_better(args, measures)
        tables = [
            read_scores([p], measures=measures, topics=topics, input_format=fmt, directions=lower)
            for p in args.scores
        ]
        runs = [r for r in tables[0].runs if r in set(tables[1].runs)]
        for t, path in zip(tables, args.scores, strict=True):
            left = [r for r in t.runs if r not in runs]
            if left:
                say(
                    f"fairconv agree: {path}: {len(left)} run(s) not in the other file "
                    f"left out ({', '.join(left[:5])}{', ...' if len(left) > 5 else ''})"
                )
        if len(runs) < 2:
            raise ValueError("the two score files have fewer than 2 runs in common")
        tables = [t.select(runs=runs) for t in tables]
        pairs = []
        shown = []
        for m in measures:
            rows = [run_means(t, m) for t in tables]
            for path, (_, n) in zip(args.scores, rows, strict=True):
                if n == 0:
                    raise ValueError(
                        f"{path}: no topic has {m} for every run; the run means need topics "
                        "that all runs were scored on"
                    )
            names = [f"{p}:{m}" for p in args.scores]
            directions = [t.directions[m] for t in tables]
            means = np.stack([r[0] for r in rows])
            with calling("fairconv agree"):
                pairs += ranking_pairs(
                    names, oriented(means, directions, names), [r[1] for r in rows]
                )
            shown.append((names, means, directions))
    else:
        if len(measures) < 2:
            raise ValueError("give at least two measures (-m A -m B), or --between with two files")
        table = read_scores(
            score_sources(args.scores),
            measures=measures,
            topics=topics,
            input_format=fmt,
            directions=lower_is_better(args, measures),
        )
        result = agreement.agree(table, measures)
        runs = list(result.runs)
        pairs = list(result.pairs)
        shown = [(measures, result.means, list(result.directions))]
    if args.plot:
        from ..plots import run_scatter

        names, means, directions = shown[0]
        p = pairs[0]
        title = f"Kendall's tau-b = {p['tau_b']:.3f}, Spearman's rho = {p['spearman']:.3f}"
        title = title.replace("nan", "undefined")
        fig = run_scatter(
            runs, means[0], means[1], x_label=names[0], y_label=names[1], title=title,
            directions=(directions[0], directions[1]),
        )  # fmt: skip
        save_figure(args, fig, args.plot)
    write(args, args.output, lambda out: _write_pairs(pairs, args.format, out))
    return 0


# --------------------------------------------------------------------------- parser
def add_commands(sub) -> None:
    """Add this module's subcommands to the ``fairconv`` parser."""
    agr = sub.add_parser(
        "agree",
        help="rank correlations of the system rankings two or more measures give "
        "(Kendall's tau-b, tau_ap-b, Spearman's rho)",
        description="Rank the runs by their mean score on each measure, best first by the "
        "measure's direction (EE-D: the lowest first; --lower-is-better for another tool's "
        "measure; an undirected measure is refused), and compare the rankings for every "
        "pair of measures: Kendall's tau-b, tau_ap-b (Urbano and "
        "Marrero's symmetric AP correlation with ties) and Spearman's rho. A run's mean "
        "for a measure is taken over the topics where every run has that measure (a "
        "topic where some run lacks it, or has NaN, is left out for all runs). With "
        "--between, one measure's ranking in one file is compared with its ranking in "
        "another (e.g. recall with human vs LLM nuggets), over the runs both files have.",
    )
    agr.add_argument(
        "-m",
        "--measure",
        action="append",
        required=True,
        metavar="MEASURE",
        help="a measure name as the score files print it; repeat (at least two, or one "
        "with --between)",
    )
    agr.add_argument("--topics", metavar="FILE", help="use only the topics listed in FILE")
    agr.add_argument(
        "--input-format",
        help="format of the score files (default: detected; see docs/formats.md, "
        "Per-topic score files)",
    )
    agr.add_argument(
        "--between",
        action="store_true",
        help="the two SCORES files hold the same measure(s) for the same runs: compare "
        "each measure's ranking across the files",
    )
    agr.add_argument(
        "--format",
        choices=["tsv", "json", "latex"],
        default="tsv",
        help="tsv: 'a b tau_b tau_b_pvalue tau_ap spearman n_systems n_topics_a "
        "n_topics_b' rows after two comment lines (default); json: "
        '{"tau_ap", "p_value", "pairs": [...]}; latex: a table with a caption',
    )
    agr.add_argument(
        "--plot",
        metavar="FILE",
        help="write measure A against measure B, one labelled point per run (the "
        "first pair; plot extra)",
    )
    agr.add_argument("-o", "--output", help="write to this file instead of stdout")
    add_lower_is_better(agr)
    agr.add_argument(
        "scores",
        nargs="+",
        metavar="SCORES",
        help="per-topic score files; NAME=FILE names the run of a file (one run may span "
        "several files)",
    )
    agr.set_defaults(func=_cmd_agree)

    lab = sub.add_parser(
        "labels",
        help="agreement between assessors: accuracy, Cohen's and Fleiss' kappa, "
        "Krippendorff's alpha, majority labels",
        description="Read 'item rater label' rows (docs/formats.md, Label files; labels "
        "are numbers or strings; a rater with no row for an item gave it no label). "
        "With two raters prints accuracy and Cohen's kappa, with more Fleiss' kappa "
        "(when every item has the same number of labels); Krippendorff's alpha always. "
        "Output: 'measure value' rows. With --vote: the majority label of each item "
        "instead ('item label votes ratings' rows; NaN where there is none).",
    )
    lab.add_argument(
        "--weighting",
        choices=["linear", "quadratic"],
        help="weighted Cohen's kappa for graded labels (two raters); disagreements "
        "count by the distance between the categories' positions",
    )
    lab.add_argument(
        "--level",
        choices=["nominal", "ordinal", "interval"],
        default="nominal",
        help="Krippendorff's alpha difference function (default nominal); interval "
        "needs numeric labels",
    )
    lab.add_argument(
        "--categories",
        metavar="L1,L2,...",
        help="every label from lowest to highest, comma-separated: the order that "
        "--weighting, --level ordinal and --ties lowest/highest need for string labels "
        "(numbers are ordered by value)",
    )
    lab.add_argument(
        "--vote", action="store_true", help="print the majority label of each item instead"
    )
    lab.add_argument(
        "--ties",
        choices=["missing", "lowest", "highest"],
        default="missing",
        help="with --vote, an item whose top labels tie gets no label (default), or the "
        "lowest or highest of them",
    )
    lab.add_argument(
        "--format",
        default="tsv",
        choices=["tsv", "json"],
        help="tsv: measure value rows (item label votes ratings with --vote); json: an "
        "object of the same",
    )
    lab.add_argument("-o", "--output", help="write to this file instead of stdout")
    lab.add_argument("labels", metavar="FILE", help="'item rater label' rows")
    lab.set_defaults(func=_cmd_labels)
