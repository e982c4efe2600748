"""``fairconv demo``: the library on the bundled data of the papers."""

from __future__ import annotations

import sys

import numpy as np

from ..results import MeasureName


def add_commands(sub) -> None:
    """Add ``demo`` to the ``fairconv`` parser."""
    demo = sub.add_parser("demo", help="run the library on the bundled data of the papers")
    demo.set_defaults(func=_cmd_demo)


def _demo_divergences(out) -> None:
    from ..divergences import distr_sim, jsd, nmd, rnod

    target = [0.7, 0.1, 0.1, 0.1]
    print("Divergences: worked example of the FairWeb-2 slides", file=out)
    print("target D* = (0.7, 0.1, 0.1, 0.1)", file=out)
    print(f"{'D':<24}{'JSD':>8}{'NMD':>8}{'RNOD':>8}", file=out)
    for name, d in (
        ("D1 = (0.1,0.7,0.1,0.1)", [0.1, 0.7, 0.1, 0.1]),
        ("D2 = (0.1,0.1,0.1,0.7)", [0.1, 0.1, 0.1, 0.7]),
    ):
        print(
            f"{name:<24}{float(jsd(d, target)):8.4f}{float(nmd(d, target)):8.4f}"
            f"{float(rnod(d, target)):8.4f}",
            file=out,
        )
    print(file=out)
    print("DistrSim against uniform targets (GFRC and GFRC2 papers)", file=out)
    rows: list[tuple[str, list[float], str]] = [
        ("(1,0,0)", [1, 0, 0], "JSD"),
        ("(5/6,1/6,0)", [5 / 6, 1 / 6, 0], "JSD"),
        ("(3/4,1/4,0)", [0.75, 0.25, 0], "JSD"),
        ("(4/5,1/5,0)", [0.8, 0.2, 0], "JSD"),
        ("(1/2,1/2,0)", [0.5, 0.5, 0], "JSD"),
        ("(0,0,0,1)", [0, 0, 0, 1], "RNOD"),
        ("(0,0,0.6,0.4)", [0, 0, 0.6, 0.4], "RNOD"),
        ("(0,0,1,0)", [0, 0, 1, 0], "RNOD"),
    ]
    for name, d, div in rows:
        g = len(d)
        sim = float(distr_sim(d, np.full(g, 1 / g), divergence=div))
        print(f"{name:<16}{div:<6}{sim:.6f}", file=out)


def _demo_gfr(out) -> None:
    from .. import gfr

    qrels, runs, attributes = _pilot_inputs()
    table = gfr.evaluate(qrels, runs, attributes, cutoffs=[10, 20, 100])
    print(
        "GFR on the NTCIR-17 FairWeb-1 pilot pack (cutoff 10; the organisers' tool "
        "prints the same values)",
        file=out,
    )
    print(
        f"{'run':<22}{'topic':<7}{'attribute set':<14}{'ERR@10':>8}{'iRBU@10':>9}"
        f"{'GF-JSD':>8}{'GF-NMD':>8}{'GF-RNOD':>8}{'GFR@10':>8}",
        file=out,
    )
    for run in table.runs:
        for data in attributes:
            name = data.attribute.name
            for topic in data.memberships.topics:
                v = [
                    table.value(run, topic, m)
                    for m in (
                        "ERR@10",
                        "iRBU@10",
                        *(
                            str(MeasureName(MeasureName.join("GF", d), 10, name))
                            for d in ("JSD", "NMD", "RNOD")
                        ),
                        "GFR@10",
                    )
                ]
                print(
                    f"{run:<22}{topic:<7}{name:<14}"
                    + "".join(f"{x:8.4f}" if i != 1 else f"{x:9.4f}" for i, x in enumerate(v)),
                    file=out,
                )


def _pilot_inputs():
    from ..datasets import fairweb1_pilot

    p = fairweb1_pilot()
    return p.qrels, list(p.runs), list(p.attributes)


def _demo_conversations(out) -> None:
    from .. import gfrc, gfrc2
    from ..datasets import load_case

    r112 = load_case("r112").conversations
    print(
        "GFRC, topic R112 of NTCIR-18 FairWeb-2 CS (GFRC2 paper, Table 5: Eq. 6, L=1000)", file=out
    )
    _print_rows(gfrc.evaluate(r112, preset="gfrc2-paper"), out)
    print("\nGFRC2, the same conversations (GFRC2 paper, Table 3: L=1000)", file=out)
    _print_rows(gfrc2.evaluate(r112), out)
    m002 = load_case("m002").conversations
    print(
        "\nGFRC, topic M002, New Bing vs Google Bard (EVIA 2023, Tables 1-2: Eq. 6, "
        "L=1250, gain l/2)",
        file=out,
    )
    _print_rows(gfrc.evaluate(m002, preset="evia2023"), out)


def _print_rows(table, out) -> None:
    print(f"{'run':<20}" + "".join(f"{m:>14}" for m in table.measures), file=out)
    for r, run in enumerate(table.runs):
        for t, _ in enumerate(table.topics):
            print(f"{run:<20}" + "".join(f"{v:14.6f}" for v in table.values[t, r]), file=out)


def _demo_rag(out) -> None:
    from .. import nuggets, ragfair
    from ..datasets import path
    from ..io import read_answers, read_labels

    qrels, runs, attributes = _pilot_inputs()
    movies = [a for a in attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    table = ragfair.evaluate(qrels, runs, movies, answers, cutoffs=[10])
    print(
        "RAG fairness gap on pilot topic P002 (retrieval: the top 10 of each pilot run; "
        "answers: bundled illustrative examples)",
        file=out,
    )
    names = [m for m in table.measures if m.startswith(("RIGF@10", "ADsim@10"))]
    print(f"{'run':<16}" + "".join(f"{m:>20}" for m in names), file=out)
    t = table.topics.index("P002")
    for r, run in enumerate(table.runs):
        cells = [table.values[t, r, table.measures.index(m)] for m in names]
        print(
            f"{run:<16}" + "".join(f"{'N/A':>20}" if np.isnan(v) else f"{v:20.4f}" for v in cells),
            file=out,
        )
    labels = read_labels(path("rag", "ikat-labels.jsonl"))
    mean, _ = nuggets.evaluate(labels).mean()
    print(
        "\nNugget coverage of the bundled iKAT-style labels (mean over turns): "
        + ", ".join(f"{m} {v:.4f}" for m, v in zip(nuggets.MEASURES, mean[0], strict=False)),
        file=out,
    )


def _cmd_demo(args) -> int:
    _demo_divergences(sys.stdout)
    print()
    _demo_gfr(sys.stdout)
    print()
    _demo_conversations(sys.stdout)
    print()
    _demo_rag(sys.stdout)
    return 0
