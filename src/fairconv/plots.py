"""Figures of the papers, with the ``plot`` extra (matplotlib).

- :func:`r_vs_gf`: R against GF per run or per (run, topic), as EVIA 2023 suggests
  looking at relevance and fairness side by side.
- :func:`gfrc2_clusters`: GNP and each attribute set's DistrSim against word count, one
  marker per user cluster (Figures 4-5 of the GFRC2 paper).
- :func:`rigf_bars`: per-topic RIGF bars of a RAG run (Figures 1-2 of the RIGF paper).
- :func:`run_scatter`: one labelled point per run, measure A against measure B
  (Figure 1 of the TREC iKAT 2024 nugget paper).

Each returns a matplotlib Figure; ``fig.savefig(path)`` writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import check_choice, check_int, fail

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .conversation import ConversationBatch
    from .results import ScoreTable

__all__ = ["r_vs_gf", "gfrc2_clusters", "rigf_bars", "run_scatter"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to Agg
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'fairconv[plot]'") from None
    return plt


def _check_table(table: Any, func: str) -> None:
    from .results import ScoreTable

    if not isinstance(table, ScoreTable):
        raise TypeError(
            f"The 'table' parameter of {func} must be a ScoreTable. "
            f"Got {type(table).__name__} instead."
        )


def _check_measure(table: Any, name: Any, param: str, func: str) -> int:
    """Index of measure ``name``; ``param`` is the parameter that chose it."""
    if not isinstance(name, str) or name not in table.measures:
        have = ", ".join(table.measures) or "none"
        if param == "table":
            raise fail(param, func, f"have the measure {name!r}", f"measures {have}")
        raise fail(param, func, f"name a measure of the table ({have})", repr(name))
    return int(table.measures.index(name))


def r_vs_gf(table: ScoreTable, *, by: str = "run", gf: str = "GF") -> Figure:
    """Scatter of R (x) against GF (y) from a GFRC table.

    Parameters
    ----------
    table : ScoreTable
        From :func:`fairconv.gfrc.evaluate`: it must have the measures ``R`` and
        ``gf``, shape (runs, topics, measures).
    by : {'run', 'topic'}
        ``"run"`` plots each run's mean over topics, labelled with the run name;
        ``"topic"`` one point per (run, topic), coloured by run.
    gf : str
        The GF measure on the y axis: ``"GF"`` (all attribute sets combined) or one
        set's, e.g. ``"GF[HINDEX]"``.

    Returns
    -------
    matplotlib.figure.Figure
        One axes; both scores in [0, 1], higher is better (up and right).

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable.
    ValueError
        If ``by`` is not a choice, the table lacks ``R`` or ``gf``, or there is no
        point to draw (no run, no topic, or no defined pair of values).
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    References
    ----------
    T. Sakai. Fairness-based Evaluation of Conversational Search: A Pilot Study.
    EVIA 2023 (relevance and fairness looked at side by side).

    Examples
    --------
    >>> from fairconv import gfrc
    >>> from fairconv.datasets import load_case
    >>> case = load_case("r112")
    >>> fig = r_vs_gf(gfrc.evaluate(case.conversations), by="topic")
    >>> fig.axes[0].get_xlabel()
    'R (relevance)'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    func = "r_vs_gf"
    _check_table(table, func)
    by = check_choice(by, "by", func, ("run", "topic"))
    ri = _check_measure(table, "R", "table", func)
    gi = _check_measure(table, gf, "gf", func)
    if by == "run":
        points = table.mean()[0][:, [ri, gi]]
    else:
        both = table.present[..., ri] & table.present[..., gi]
        points = np.where(both[..., None], table.values[..., [ri, gi]], np.nan).reshape(-1, 2)
    if not np.isfinite(points).all(axis=-1).any():
        raise ValueError(
            f"r_vs_gf has nothing to draw: the table has {len(table.runs)} run(s), "
            f"{len(table.topics)} topic(s) and no (run, topic) with both R and {gf} defined."
        )
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 4))
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
    ax.margins(0.2)  # room for the run labels
    ax.xaxis.set_major_locator(plt.MaxNLocator(5))  # small R values have long ticks
    ax.set_xlabel("R (relevance)")
    ax.set_ylabel(gf + " (group fairness)")
    ax.set_title("R vs GF" + (" (mean over topics)" if by == "run" else ""))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def gfrc2_clusters(
    batch: ConversationBatch, clusters: Any, *, conversations: Sequence[int] | None = None
) -> Figure:
    """GNP and DistrSim of each attribute set against word count, per user cluster.

    Parameters
    ----------
    batch : ConversationBatch
        The conversations (:func:`fairconv.conversation.read_conversations`).
    clusters : Clusters
        Their user clusters (:func:`fairconv.gfrc2.clusters`), one row per cluster.
    conversations : sequence of int, optional
        Indices of the conversations to draw, one panel each; all by default.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per conversation; x is the word count of the cluster, y the GNP and
        each attribute set's DistrSim, in [0, 1], higher is better.

    Raises
    ------
    ValueError
        If a conversation index is out of range or no conversation is chosen.
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    References
    ----------
    T. Sakai, S. Tao, Y.-I. Song. The GFRC2 paper, Figures 4-5 (topic R112).

    Examples
    --------
    >>> from fairconv import gfrc2
    >>> from fairconv.datasets import load_case
    >>> batch = load_case("r112").conversations
    >>> fig = gfrc2_clusters(batch, gfrc2.clusters(batch))
    >>> len(fig.axes)
    2
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    func = "gfrc2_clusters"
    if conversations is not None:
        if isinstance(conversations, (str, bytes)) or not hasattr(conversations, "__iter__"):
            raise fail("conversations", func, "be a sequence of indices", repr(conversations))
        for c in conversations:
            check_int(c, "conversations", func, minimum=0, maximum=len(batch) - 1)
        if not list(conversations):
            raise fail("conversations", func, "name at least one conversation", "[]")
    elif len(batch) == 0:
        raise fail("batch", func, "hold at least one conversation", "an empty batch")
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


def rigf_bars(table: ScoreTable, *, attribute: str | None = None, run: str | None = None) -> Figure:
    """Per-topic RIGF bars (percent) of one run; N/A topics are marked, not drawn.

    Parameters
    ----------
    table : ScoreTable
        From :func:`fairconv.ragfair.evaluate`, with the measure ``RIGF`` (or
        ``RIGF[<attribute>]``), shape (runs, topics, measures).
    attribute : str, optional
        One attribute set's RIGF instead of the combined one.
    run : str, optional
        The run to draw; the table's first run by default.

    Returns
    -------
    matplotlib.figure.Figure
        One bar per topic where the run has the measure: positive (blue) when the
        answer is fairer than the retrieved list, negative (red) when less fair; N/A
        where RIGF is undefined (GF_Re = 0).

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable.
    ValueError
        If the table lacks the measure, ``run`` is not one of its runs, or the run has
        no topic with the measure (nothing to draw).
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    References
    ----------
    S. Tao, T. Sakai. Measuring Group Fairness Differences in RAG Pipelines: A Pilot
    Study (BREV-RAG 2025), Figures 1-2.

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv.results import ScoreTable
    >>> v = np.array([[[12.5], [np.nan], [-3.0]]])
    >>> t = ScoreTable(("run-a",), ("T1", "T2", "T3"), ("RIGF",), v, np.ones(v.shape, bool))
    >>> fig = rigf_bars(t)
    >>> len(fig.axes[0].patches)
    2
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    func = "rigf_bars"
    _check_table(table, func)
    if attribute is not None and not isinstance(attribute, str):
        raise TypeError(
            f"The 'attribute' parameter of {func} must be a string. Got {attribute!r} instead."
        )
    name = "RIGF" if attribute is None else f"RIGF[{attribute}]"
    m = _check_measure(table, name, "attribute" if attribute is not None else "table", func)
    if run is None and not table.runs:
        raise fail("table", func, "hold at least one run", "a table without runs")
    if run is not None and run not in table.runs:
        raise fail("run", func, f"be one of {', '.join(map(repr, table.runs))}", repr(run))
    r = 0 if run is None else table.runs.index(run)
    if not table.present[r, :, m].any():
        raise ValueError(
            f"rigf_bars has nothing to draw: run {table.runs[r]!r} has no topic with {name}."
        )
    plt = _pyplot()
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


def run_scatter(
    runs: Sequence[str],
    x,
    y,
    *,
    x_label: str,
    y_label: str,
    title: str | None = None,
) -> Figure:
    """One labelled point per run: measure A (x) against measure B (y).

    The figure of the TREC iKAT 2024 nugget paper (Figure 1: nugget recall against
    nDCG@5 for each automatic run), for any two measures' system means.

    Parameters
    ----------
    runs : sequence of str
        The run names, one per point.
    x, y : array_like, shape (len(runs),)
        The runs' scores on the two measures (finite).
    x_label, y_label : str
        Axis labels (the measure names).
    title : str, optional
        E.g. the rank correlations of the two measures.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        Lengths that differ from the number of runs, or non-finite scores.
    """
    func = "run_scatter"
    names = [str(r) for r in runs]
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    for name, v in (("x", xs), ("y", ys)):
        if v.shape != (len(names),):
            raise fail(name, func, f"hold one score per run ({len(names)})", f"shape {v.shape}")
        if not np.isfinite(v).all():
            raise fail(name, func, "hold finite scores", "NaN or infinity")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.scatter(xs, ys, s=22, color="tab:blue", zorder=3)
    ax.margins(0.1)  # room for the labels of the outermost runs
    for name, a, b in zip(names, xs, ys, strict=True):
        ax.annotate(name, (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
