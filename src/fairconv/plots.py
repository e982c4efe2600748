"""Figures of the papers, with the ``plot`` extra (matplotlib).

- :func:`r_vs_gf`: R against GF per run or per (run, topic), as EVIA 2023 suggests
  looking at relevance and fairness side by side.
- :func:`gfrc2_clusters`: GNP and each attribute set's DistrSim against word count, one
  marker per user cluster (Figures 4-5 of the GFRC2 paper).
- :func:`rigf_bars`: per-topic RIGF bars of a RAG run (Figures 1-2 of the RIGF paper).

Each returns a matplotlib Figure; ``fig.savefig(path)`` writes it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["r_vs_gf", "gfrc2_clusters", "rigf_bars"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to Agg
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'fairconv[plot]'") from None
    return plt


def r_vs_gf(table, *, by: str = "run", gf: str = "GF"):
    """Scatter of R (x) against GF (y) from a :func:`fairconv.gfrc.gfrc` table.

    ``by="run"`` plots each run's mean over topics; ``by="topic"`` one point per
    (run, topic), coloured by run. ``gf`` may name one attribute set, ``"GF[HINDEX]"``.
    """
    if by not in ("run", "topic"):
        raise ValueError(
            f"The 'by' parameter of r_vs_gf must be 'run' or 'topic'. Got {by!r} instead."
        )
    for name in ("R", gf):
        if name not in table.measures:
            raise ValueError(f"r_vs_gf needs a table with {name!r}; it has {list(table.measures)}")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 4))
    ri, gi = table.measures.index("R"), table.measures.index(gf)
    if by == "run":
        mean, _ = table.mean()
        ax.scatter(mean[:, ri], mean[:, gi])
        for r, run in enumerate(table.runs):
            ax.annotate(
                run,
                (mean[r, ri], mean[r, gi]),
                fontsize=8,
                xytext=(3, 3),
                textcoords="offset points",
            )
    else:
        for r, run in enumerate(table.runs):
            ax.scatter(table.values[r, :, ri], table.values[r, :, gi], label=run, s=14)
        ax.legend(fontsize=7)
    ax.set_xlabel("R (relevance)")
    ax.set_ylabel(gf + " (group fairness)")
    ax.set_title("R vs GF" + (" (mean over topics)" if by == "run" else ""))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def gfrc2_clusters(batch, clusters, *, conversations=None):
    """GNP and DistrSim of each attribute set against word count, per user cluster.

    One panel per conversation (all, or the indices in ``conversations``), as Figures
    4-5 of the GFRC2 paper; each marker is the cluster of users who stop at the end of
    one relevant nugget.
    """
    plt = _pyplot()
    chosen = range(len(batch)) if conversations is None else list(conversations)
    chosen = [c for c in chosen if (clusters.conversation == c).any()] or list(chosen)[:1]
    fig, axes = plt.subplots(
        1, len(chosen), figsize=(4.5 * len(chosen), 3.6), squeeze=False, sharey=True
    )
    markers = ["s", "^", "D", "v", "P", "X"]
    for ax, c in zip(axes[0], chosen, strict=False):
        rows = clusters.conversation == c
        wc = clusters.wc[rows]
        ax.plot(wc, clusters.gnp[rows], marker="o", label="GNP")
        for i, a in enumerate(batch.attributes):
            ax.plot(
                wc,
                clusters.sim[a.name][rows],
                marker=markers[i % len(markers)],
                label=f"GF ({a.name}, {a.divergence})",
            )
        ax.set_title(f"{batch.runs[c]}\n{batch.topics[c]}", fontsize=9)
        ax.set_xlabel("word count (wc) of the user cluster")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("score")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def rigf_bars(table, *, attribute: str | None = None, run: str | None = None):
    """Per-topic RIGF bars (percent) of one run; N/A topics are marked, not drawn."""
    name = "RIGF" if attribute is None else f"RIGF[{attribute}]"
    if name not in table.measures:
        raise ValueError(f"rigf_bars needs a table with {name!r}; it has {list(table.measures)}")
    plt = _pyplot()
    r = 0 if run is None else table.runs.index(run)
    m = table.measures.index(name)
    topics = [t for i, t in enumerate(table.topics) if table.present[r, i, m]]
    values = np.array([table.values[r, table.topics.index(t), m] for t in topics])
    fig, ax = plt.subplots(figsize=(max(5, 0.45 * len(topics)), 3.6))
    defined = ~np.isnan(values)
    colours = np.where(values[defined] >= 0, "tab:blue", "tab:red")
    x = np.arange(len(topics))
    ax.bar(x[defined], values[defined], color=colours, width=0.7)
    ax.set_xlim(-1, len(topics))
    for i in x[~defined]:
        ax.text(i, 0, "N/A", ha="center", va="bottom", fontsize=7, rotation=90)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, topics, rotation=90, fontsize=7)
    ax.set_ylabel(f"{name} (%)")
    ax.set_title(f"{table.runs[r]}: {name} per topic", fontsize=10)
    fig.tight_layout()
    return fig
