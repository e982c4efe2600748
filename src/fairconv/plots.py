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

from ._validation import (
    caller,
    check_choice,
    check_instance,
    check_int,
    check_names,
    fail,
    notice,
    public,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .io import ConversationBatch
    from .results import ScoreTable

__all__ = ["r_vs_gf", "gfrc2_clusters", "rigf_bars", "run_scatter", "system_means"]


class _Shown:
    """How one figure shows names (runs, topics, measures, attribute sets).

    A ``$`` is a dollar sign, never mathtext (a run named ``$x^$`` would fail to draw
    and ``$a$`` would print as math). A character the plot font has no glyph for is
    written as its code point (``<U+691C>``), so that names stay distinct instead of
    all printing as boxes; :meth:`notice` then says so once, as a FairconvWarning.
    """

    def __init__(self):
        self.missing: dict[str, str] = {}  # character -> a name holding it
        self._glyphs: set[int] | None = None

    def __call__(self, text) -> str:
        text = str(text).replace("$", r"\$")
        if text.isascii():
            return text
        if self._glyphs is None:
            self._glyphs = _font_glyphs()
        out = []
        for c in text:
            if ord(c) in self._glyphs or not c.isprintable():
                out.append(c)
            else:
                self.missing.setdefault(c, text)
                out.append(f"<U+{ord(c):04X}>")
        return "".join(out)

    def notice(self) -> None:
        if self.missing:
            chars = list(self.missing)
            shown = ", ".join(repr(c) for c in chars[:5]) + (" ..." if len(chars) > 5 else "")
            notice(
                f"{caller()}: the plot font has no glyph for {len(chars)} character(s) of the "
                f"names shown ({shown}, in {next(iter(self.missing.values()))!r}): the "
                "figure writes them as code points (<U+...>); name a font that has them "
                "in matplotlib.rcParams['font.family'] to see them"
            )


def _font_glyphs() -> set[int]:
    """The code points the fonts of ``rcParams['font.family']`` draw (with fallbacks)."""
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties, findfont
    from matplotlib.ft2font import FT2Font

    params: dict = dict(mpl.rcParams)
    names: list[str] = []
    for family in params["font.family"]:  # a generic family names its fonts
        names += list(params.get(f"font.{family}", [family]))
    glyphs: set[int] = set()
    for name in names:
        try:
            found = findfont(FontProperties(family=[name]), fallback_to_default=False)
        except ValueError:  # not installed
            continue
        glyphs.update(FT2Font(found).get_charmap())
    return glyphs


def _pyplot():
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to Agg
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'fairconv[plot]'") from None
    return plt


def _check_table(table: Any) -> None:
    from .results import ScoreTable

    check_instance(table, ScoreTable, "table")


def _check_measure(table: Any, name: Any, param: str) -> int:
    """Index of measure ``name``; ``param`` is the parameter that chose it."""
    if not isinstance(name, str) or name not in table.measures:
        have = ", ".join(table.measures) or "none"
        if param == "table":
            raise fail(param, f"have the measure {name!r}", f"measures {have}")
        raise fail(param, f"name a measure of the table ({have})", repr(name))
    return int(table.measures.index(name))


@public
def r_vs_gf(table: ScoreTable, /, *, by: str = "run", gf: str = "GF") -> Figure:
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
    _check_table(table)
    by = check_choice(by, "by", ("run", "topic"))
    ri = _check_measure(table, "R", "table")
    gi = _check_measure(table, gf, "gf")
    if by == "run":
        points = table.mean()[0][:, [ri, gi]]
    else:
        both = table.present[..., ri] & table.present[..., gi]
        points = np.where(both[..., None], table.values[..., [ri, gi]], np.nan).reshape(-1, 2)
    if not np.isfinite(points).all(axis=-1).any():
        raise ValueError(
            f"{caller()} has nothing to draw: the table has {len(table.runs)} run(s), "
            f"{len(table.topics)} topic(s) and no (run, topic) with both R and {gf} defined."
        )
    plt = _pyplot()
    shown = _Shown()
    fig, ax = plt.subplots(figsize=(5, 4))
    if by == "run" and len(table.runs) <= 8:
        mean, _ = table.mean()
        ax.scatter(mean[:, ri], mean[:, gi])
        _label_points(ax, mean[:, ri], mean[:, gi], table.runs, shown)
    elif by == "run":  # many runs: a marker and a legend entry each, no labels to collide
        mean, _ = table.mean()
        _scatter_runs(plt, fig, ax, table.runs, mean[:, ri], mean[:, gi], size=None, shown=shown)
    else:
        x, y = table.values[:, :, ri].T, table.values[:, :, gi].T  # (runs, topics)
        _scatter_runs(plt, fig, ax, table.runs, x, y, size=14, shown=shown)
    ax.margins(0.2)  # room for the run labels
    ax.xaxis.set_major_locator(plt.MaxNLocator(5))  # small R values have long ticks
    ax.set_xlabel("R (relevance)")
    ax.set_ylabel(shown(gf) + " (group fairness)")
    ax.set_title("R vs GF" + (" (mean over topics)" if by == "run" else ""))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    shown.notice()
    return fig


def _scatter_runs(plt, fig, ax, runs, x, y, *, size, shown) -> None:
    """One colour and marker per run, with a legend beside the axes.

    The legend has columns of at most 25 runs and never covers the points.
    """
    cmap = plt.get_cmap("tab20" if len(runs) > 10 else "tab10")
    for r, run in enumerate(runs):
        ax.scatter(
            x[r], y[r], label=shown(run), s=size, color=cmap(r % cmap.N),
            marker=_MARKERS[r % len(_MARKERS)],
        )  # fmt: skip
    columns = int(np.ceil(len(runs) / 25))
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False,
              ncols=columns)  # fmt: skip
    fig.set_size_inches(5 + 1.6 * columns, 4)


def _label_points(ax, x, y, labels, shown) -> None:
    """Label points 3 pt up and right, moving a label down until it clears the others.

    Label boxes are estimated in points (about 5 pt per character, 9 pt high), so the
    labels of close runs do not print over each other.
    """
    fig = ax.figure
    ax.margins(0.2)
    fig.canvas.draw()  # fix the data-to-display transform before measuring
    to_points = 72.0 / fig.dpi
    placed: list[tuple[float, float, float, float]] = []
    for xi, yi, text in sorted(zip(x, y, labels, strict=True), key=lambda p: -p[1]):
        px, py = (ax.transData.transform((xi, yi)) * to_points).tolist()
        width, height, dy = 5.0 * len(text), 9.0, 3.0
        for _ in range(12):
            box = (px + 3, py + dy, px + 3 + width, py + dy + height)
            if not any(
                box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed
            ):
                break
            dy -= height
        placed.append(box)
        ax.annotate(shown(text), (xi, yi), fontsize=8, xytext=(3, dy), textcoords="offset points")


@public
def gfrc2_clusters(
    batch: ConversationBatch,
    clusters: Any,
    /,
    *,
    conversations: Sequence[int] | None = None,
    by: str = "auto",
    topics: Sequence[str] | None = None,
) -> Figure:
    """GFRC2's user clusters against word count: the paper's figures, or a whole task.

    Parameters
    ----------
    batch : ConversationBatch
        The conversations (:func:`fairconv.io.read_conversations`).
    clusters : Clusters
        Their user clusters (:func:`fairconv.gfrc2.clusters`), one row per cluster.
    conversations : sequence of int, optional
        With ``by="conversation"``: the conversations to draw, one panel each.
    by : {'auto', 'conversation', 'topic'}
        ``"conversation"``: one panel per conversation with GNP and each attribute
        set's DistrSim (the paper's Figures 4-5). ``"topic"``: a grid of panels, one
        per topic, with one marker style per run showing each cluster's Experience
        (the combined per-cluster score) — readable for a whole shared task.
        ``"auto"`` (default) picks ``"conversation"`` for up to 4 conversations.
    topics : sequence of str, optional
        With ``by="topic"``: the topics to draw (default all, at most 100).

    Returns
    -------
    matplotlib.figure.Figure
        x is the word count of the cluster (integer ticks); y is in [0, 1], higher is
        better.

    Raises
    ------
    ValueError
        If a conversation index or topic is unknown, nothing is chosen, or more than
        100 topic panels would be drawn (choose ``topics``).
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
    >>> grid = gfrc2_clusters(batch, gfrc2.clusters(batch), by="topic")
    >>> len(grid.axes)
    1
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig), plt.close(grid)
    (None, None)
    """
    by = check_choice(by, "by", ("auto", "conversation", "topic"))
    if len(batch) == 0:
        raise fail("batch", "hold at least one conversation", "an empty batch")
    if by == "auto":
        by = "conversation" if len(batch) <= 4 or conversations is not None else "topic"
    if by == "topic":
        return _clusters_by_topic(batch, clusters, topics)
    if conversations is not None:
        if isinstance(conversations, (str, bytes)) or not hasattr(conversations, "__iter__"):
            raise fail("conversations", "be a sequence of indices", repr(conversations))
        for c in conversations:
            check_int(c, "conversations", minimum=0, maximum=len(batch) - 1)
        if not list(conversations):
            raise fail("conversations", "name at least one conversation", "[]")
    plt = _pyplot()
    shown = _Shown()
    chosen = range(len(batch)) if conversations is None else list(conversations)
    chosen = [c for c in chosen if (clusters.conversation == c).any()] or list(chosen)[:1]
    fig, axes = plt.subplots(
        1, len(chosen), figsize=(4.5 * len(chosen), 3.6), squeeze=False, sharey=True
    )
    for ax, c in zip(axes[0], chosen, strict=False):
        rows = clusters.conversation == c
        wc = clusters.wc[rows]
        ax.plot(wc, clusters.gnp[rows], marker="o", label="GNP")
        for i, a in enumerate(batch.attribute_sets):
            ax.plot(
                wc,
                clusters.sim[a.name][rows],
                marker=_MARKERS[(i + 1) % len(_MARKERS)],
                label=f"GF ({shown(a.name)}, {a.divergence})",
            )
        ax.set_title(f"{shown(batch.runs[c])}\n{shown(batch.topics[c])}", fontsize=9)
        ax.set_xlabel("word count (wc) of the user cluster")
        _integer_ticks(ax)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("score")
    # beside the last panel, never over the data
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    fig.tight_layout()
    shown.notice()
    return fig


_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p"]

_BETTER = {
    ("x", "higher"): " (better \u2192)",
    ("x", "lower"): " (\u2190 better)",
    ("y", "higher"): " (better \u2191)",
    ("y", "lower"): " (\u2193 better)",
}
"""The "better" arrow an axis label ends with, by the axis and the measure's direction
(an undirected measure gets none: no value is better)."""


def _better(axis: str, direction: str | None) -> str:
    return _BETTER.get((axis, direction or ""), "")


def _integer_ticks(ax) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))


def _clusters_by_topic(batch, clusters, topics) -> Figure:
    """A grid of topic panels, one marker style and colour per run."""
    all_topics = sorted(set(batch.topics))
    if topics is None:
        chosen = all_topics
    else:
        chosen = check_names(topics, "topics", "topic ids")
        unknown = [t for t in chosen if t not in all_topics]
        if unknown or not chosen:
            raise fail(
                "topics",
                f"name topics of the batch ({', '.join(all_topics[:10])}...)",
                repr(unknown or chosen),
            )
    if len(chosen) > 100:
        raise fail(
            "topics",
            "choose at most 100 topics to draw (one panel each)",
            f"{len(chosen)} topics",
        )
    plt = _pyplot()
    shown = _Shown()
    runs = list(dict.fromkeys(batch.runs))
    ncols = min(len(chosen), max(1, int(np.ceil(np.sqrt(len(chosen))))))
    nrows = int(np.ceil(len(chosen) / ncols))
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(3.0 * ncols + 1.8, 2.4 * nrows + 0.6),
        squeeze=False,
        sharey=True,
    )
    cmap = plt.get_cmap("tab20" if len(runs) > 10 else "tab10")
    conv_topic = np.asarray(batch.topics, dtype=object)[clusters.conversation]
    conv_run = np.asarray(batch.runs, dtype=object)[clusters.conversation]
    for k, (ax, topic) in enumerate(zip(axes.flat, chosen, strict=False)):
        in_topic = conv_topic == topic
        for i, run in enumerate(runs):
            rows = in_topic & (conv_run == run)
            if rows.any():
                ax.plot(
                    clusters.wc[rows],
                    clusters.experience[rows],
                    linestyle="-",
                    linewidth=0.6,
                    marker=_MARKERS[i % len(_MARKERS)],
                    markersize=3.5,
                    color=cmap(i % cmap.N),
                    label=shown(run),
                )
        ax.set_title(shown(topic), fontsize=8)
        ax.set_ylim(0, 1)
        ax.tick_params(labelsize=6)
        _integer_ticks(ax)
        ax.grid(alpha=0.3)
        if k % ncols == 0:
            ax.set_ylabel("Experience", fontsize=7)
    for ax in list(axes.flat)[len(chosen) :]:
        ax.set_visible(False)
    handles = [
        plt.Line2D(
            [],
            [],
            marker=_MARKERS[i % len(_MARKERS)],
            color=cmap(i % cmap.N),
            linestyle="",
            label=shown(run),
        )
        for i, run in enumerate(runs)
    ]
    fig.legend(handles=handles, loc="center right", fontsize=6, frameon=False)
    fig.supxlabel("word count (wc) of the user cluster", fontsize=8)
    fig.tight_layout(rect=(0, 0, 1 - 1.6 / (3.0 * ncols + 1.8), 1))
    shown.notice()
    return fig


@public
def rigf_bars(
    table: ScoreTable,
    /,
    *,
    attribute: str | None = None,
    cutoff: int | None = None,
    runs: str | Sequence[str] | None = None,
) -> Figure:
    """RIGF per topic as bars, one panel per run (the RAG paper's Figures 1-2).

    Parameters
    ----------
    table : ScoreTable
        The output of :func:`fairconv.ragfair.evaluate`.
    attribute : str, optional
        The attribute set; the overall RIGF by default.
    cutoff : int, optional
        The depth of the retrieved list (``RIGF@10``); full depth by default.
    runs : str or sequence of str, optional
        The run or runs to draw, one panel each (default: every run, at most 12).

    Returns
    -------
    matplotlib.figure.Figure
        Bars in percent, blue above 0 (the answer fairer than the list), red below;
        ``N/A`` where RIGF is undefined (GF-Re = 0).

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable.
    ValueError
        If the table lacks the measure, a run is unknown, more than 12 panels would be
        drawn, or a run has no topic with the measure (nothing to draw).
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    References
    ----------
    S. Tao, T. Sakai. Measuring Group Fairness Differences in RAG Pipelines: A Pilot
    Study. BREV-RAG 2025, Figures 1-2.

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv.results import ScoreTable
    >>> v = np.array([[[12.5]], [[np.nan]], [[-3.0]]])
    >>> t = ScoreTable(topics=("T1", "T2", "T3"), runs=("run-a",), measures=("RIGF",),
    ...                values=v, present=np.ones(v.shape, bool))
    >>> fig = rigf_bars(t)
    >>> len(fig.axes[0].patches)
    2
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    from .results import MeasureName

    _check_table(table)
    if attribute is not None:
        check_instance(attribute, str, "attribute")
    if cutoff is not None:
        check_int(cutoff, "cutoff", minimum=1)
    name = str(MeasureName("RIGF", cutoff, attribute))
    m = _check_measure(table, name, "attribute" if attribute is not None else "table")
    if not table.runs:
        raise fail("table", "hold at least one run", "a table without runs")
    chosen = list(table.runs) if runs is None else [runs] if isinstance(runs, str) else list(runs)
    for run in chosen:
        if run not in table.runs:
            raise fail("runs", f"name runs of {', '.join(map(repr, table.runs))}", repr(run))
    if not chosen or len(chosen) > 12:
        raise fail("runs", "name 1 to 12 runs (one panel each)", f"{len(chosen)} runs")
    index = [table.runs.index(run) for run in chosen]
    empty = [run for run, r in zip(chosen, index, strict=True) if not table.present[:, r, m].any()]
    if empty:
        raise ValueError(
            f"{caller()} has nothing to draw: run {empty[0]!r} has no topic with {name}."
        )
    plt = _pyplot()
    shown = _Shown()
    topics = [t for i, t in enumerate(table.topics) if table.present[i, index, m].any()]
    cols = [table.topics.index(t) for t in topics]
    fig, axes = plt.subplots(
        len(chosen),
        1,
        figsize=(max(5, 0.3 * len(topics) + 1.5), 1.2 + 2.2 * len(chosen)),
        squeeze=False,
        sharex=True,
    )
    x = np.arange(len(topics))
    for ax, run, r in zip(axes[:, 0], chosen, index, strict=True):
        values = table.values[cols, r, m]
        listed = table.present[cols, r, m]
        defined = listed & ~np.isnan(values)
        colours = np.where(values[defined] >= 0, "tab:blue", "tab:red")
        ax.bar(x[defined], values[defined], color=colours, width=0.7)
        for i in x[listed & ~defined]:
            ax.text(i, 0, "N/A", ha="center", va="bottom", fontsize=6, rotation=90)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlim(-1, len(topics))
        ax.set_ylabel(f"{shown(name)} (%)", fontsize=8)
        ax.set_title(shown(run), fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    step = max(1, int(np.ceil(len(topics) / 60)))  # at most ~60 labels
    axes[-1, 0].set_xticks(x[::step], list(map(shown, topics[::step])), rotation=90, fontsize=7)
    fig.tight_layout()
    shown.notice()
    return fig


@public
def run_scatter(
    runs: Sequence[str],
    x,
    y,
    /,
    *,
    x_label: str,
    y_label: str,
    title: str | None = None,
    directions: tuple[str, str] | None = None,
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
    directions : (str, str), optional
        The two measures' directions (``'higher'``, ``'lower'`` or ``'undirected'``):
        each axis label then ends with an arrow to the better end ("better →"); none
        for an undirected measure, or when not given.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: one labelled point per run.

    Raises
    ------
    ValueError
        Lengths that differ from the number of runs, non-finite scores, or directions
        that are not two of the three.

    Examples
    --------
    >>> from fairconv.plots import run_scatter
    >>> fig = run_scatter(
    ...     ["bm25", "qld"], [0.28, 0.27], [0.41, 0.37], x_label="ERR@10", y_label="GFR@10"
    ... )
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()
    ('ERR@10', 'GFR@10')
    """
    from .results import DIRECTIONS

    if directions is not None:
        if isinstance(directions, str) or len(directions) != 2:
            raise fail("directions", "be a pair (x's, y's)", repr(directions))
        for d in directions:
            check_choice(d, "directions", DIRECTIONS)
    dx, dy = directions if directions is not None else (None, None)
    names = [str(r) for r in runs]
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    for name, v in (("x", xs), ("y", ys)):
        if v.shape != (len(names),):
            raise fail(name, f"hold one score per run ({len(names)})", f"shape {v.shape}")
        if not np.isfinite(v).all():
            raise fail(name, "hold finite scores", "NaN or infinity")
    plt = _pyplot()
    shown = _Shown()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.scatter(xs, ys, s=22, color="tab:blue", zorder=3)
    ax.margins(0.1)  # room for the labels of the outermost runs
    for name, a, b in zip(names, xs, ys, strict=True):
        ax.annotate(shown(name), (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(shown(x_label) + _better("x", dx))
    ax.set_ylabel(shown(y_label) + _better("y", dy))
    if title:
        ax.set_title(shown(title), fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    shown.notice()
    return fig


@public
def system_means(comparison: Any, /) -> Figure:
    """System means with their confidence intervals, best first.

    Parameters
    ----------
    comparison : Comparison
        The output of :func:`fairconv.stats.compare`.

    Returns
    -------
    matplotlib.figure.Figure
        One point per system with its two-way ANOVA CI, the best on top (the order of
        :attr:`Comparison.runs`: by the measure's direction); the x label ends with an
        arrow to the better end ("better →", "← better"), none for an undirected
        measure.

    Raises
    ------
    TypeError
        If ``comparison`` is not a Comparison.
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> from fairconv.stats import compare
    >>> fig = system_means(compare(sakai_book().table, "nDCG@5", test="tukey"))
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['X', 'Y', 'Z']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    from .stats import Comparison

    check_instance(comparison, Comparison, "comparison", what="a Comparison (stats.compare)")
    plt = _pyplot()
    shown = _Shown()
    systems = comparison.runs
    n = len(systems)
    fig, ax = plt.subplots(figsize=(5.5, 1.2 + 0.32 * n))
    y = np.arange(n)
    mean = np.array([s["mean"] for s in systems])
    low = np.array([s["ci_low"] for s in systems])
    high = np.array([s["ci_high"] for s in systems])
    err = [mean - low, high - mean] if np.isfinite(low).all() else None
    ax.errorbar(mean, y, xerr=err, fmt="o", capsize=3)
    ax.set_yticks(y, [shown(s["name"]) for s in systems], fontsize=8 if n <= 30 else 6)
    ax.invert_yaxis()  # the first (best) system on top
    ax.set_xlabel(
        f"mean {shown(comparison.measure)} over {comparison.n_topics} topics"
        + _better("x", comparison.direction)
    )
    if np.isfinite(low).all():
        title = f"{100 * (1 - comparison.alpha):g}% intervals, conditional on these topics"
    else:
        title = f"means (the {comparison.test} test gives no interval per run)"
    ax.set_title(title, fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    shown.notice()
    return fig


@public
def asl_curves(results: dict) -> Figure:
    """ASL curves of several measures in one figure (Sakai, SIGIR 2006).

    Parameters
    ----------
    results : dict of str to DiscriminativePowerResult
        Per measure, the output of :func:`fairconv.stats.discriminative_power`.

    Returns
    -------
    matplotlib.figure.Figure
        For each measure, the p-values of all system pairs in increasing order against
        the pair's rank; a dashed line at alpha. A curve that stays lower separates
        more pairs: the more discriminative measure.

    Raises
    ------
    TypeError
        If ``results`` is not a dict.
    ValueError
        If ``results`` is empty.
    ImportError
        If matplotlib is not installed (``pip install 'fairconv[plot]'``).

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.
    """
    if not check_instance(results, dict, "results"):
        raise fail("results", "hold at least one result (there is nothing to draw)", "{}")
    plt = _pyplot()
    shown = _Shown()
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    alpha = None
    for i, (name, r) in enumerate(results.items()):
        ranks = np.arange(1, len(r.asl) + 1)
        ax.plot(
            ranks, r.asl, marker=_MARKERS[i % len(_MARKERS)], markersize=3, linewidth=1,
            label=f"{shown(name)} ({100 * r.power:.0f}% < {r.alpha:g})",
        )  # fmt: skip
        alpha = r.alpha
    if alpha is not None:
        ax.axhline(alpha, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("system pairs, sorted by p-value")
    ax.set_ylabel("achieved significance level (p)")
    ax.set_ylim(0, 1)
    longest = max(len(r.asl) for r in results.values())
    ax.set_xlim(0.5, longest + 0.5)
    from matplotlib.ticker import MaxNLocator

    # pair ranks 1, 2, ...: integer ticks even for a single pair
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5, min_n_ticks=1))
    # below the axes, never over the curves
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False,
              ncols=min(3, len(results)))  # fmt: skip
    ax.grid(alpha=0.3)
    fig.tight_layout()
    shown.notice()
    return fig
