"""Figures: what they draw, and clear errors instead of empty figures or warnings.

Names reach figures as text: no mathtext from a ``$`` in a run, topic or measure name,
and names outside the plot font give one clear notice, not matplotlib's warning."""

import json
import subprocess
import sys
import warnings

import matplotlib  # the test extra brings matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from fairconv import AttributeSet, FairconvWarning, gfrc, gfrc2  # noqa: E402
from fairconv.datasets import load_case, path  # noqa: E402
from fairconv.io import read_attribute_sets, read_conversations  # noqa: E402
from fairconv.plots import gfrc2_clusters, r_vs_gf, rigf_bars, run_scatter  # noqa: E402
from fairconv.results import ScoreTable  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _table(runs, topics, measures, values=None, present=None):
    """A table from values given by run, then topic, then measure."""
    shape = (len(runs), len(topics), len(measures))
    v = np.zeros(shape) if values is None else np.asarray(values, dtype=float)
    m = np.ones(shape, bool) if present is None else np.asarray(present, dtype=bool)
    return ScoreTable(
        topics=topics,
        runs=runs,
        measures=measures,
        values=v.transpose(1, 0, 2),
        present=m.transpose(1, 0, 2),
    )


@pytest.fixture(scope="module")
def r112():
    return gfrc.evaluate(load_case("r112").conversations)


def test_r_vs_gf_draws_the_run_means(r112):
    fig = r_vs_gf(r112)
    points = fig.axes[0].collections[0].get_offsets()
    mean, _ = r112.mean()
    want = mean[:, [r112.measures.index("R"), r112.measures.index("GF")]]
    np.testing.assert_array_equal(np.asarray(points), want)
    assert [t.get_text() for t in fig.axes[0].texts] == list(r112.runs)


def test_r_vs_gf_by_topic_one_series_per_run(r112):
    fig = r_vs_gf(r112, by="TOPIC", gf="GF[HINDEX]")
    series = fig.axes[0].collections
    assert len(series) == len(r112.runs)
    for r, s in enumerate(series):
        got = np.asarray(s.get_offsets())
        want = r112.values[:, r][:, [r112.measures.index("R"), r112.measures.index("GF[HINDEX]")]]
        np.testing.assert_array_equal(got, want)


def test_rigf_bars_heights_and_na_markers():
    v = np.array([[[12.5], [np.nan], [-3.0], [0.0]], [[1.0], [2.0], [3.0], [4.0]]])
    present = np.ones(v.shape, bool)
    present[0, 3, 0] = False  # topic T4 has no RIGF for run a
    t = _table(["a", "b"], ["T1", "T2", "T3", "T4"], ["RIGF"], v, present)
    fig = rigf_bars(t, runs="a")
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights == [12.5, -3.0]
    assert [x.get_text() for x in fig.axes[0].texts] == ["N/A"]
    assert [x.get_text() for x in fig.axes[0].get_xticklabels()] == ["T1", "T2", "T3"]
    fig_b = rigf_bars(t, runs=["b"])
    assert [p.get_height() for p in fig_b.axes[0].patches] == [1.0, 2.0, 3.0, 4.0]
    both = rigf_bars(t)  # every run, one panel each, on the topics of either
    assert [ax.get_title() for ax in both.axes] == ["a", "b"]
    assert [p.get_height() for p in both.axes[1].patches] == [1.0, 2.0, 3.0, 4.0]
    assert [x.get_text() for x in both.axes[1].get_xticklabels()] == ["T1", "T2", "T3", "T4"]
    for f in (fig, fig_b, both):
        plt.close(f)


def test_rigf_bars_at_a_depth():
    v = np.array([[[5.0, -7.0]]])
    t = _table(["a"], ["T1"], ["RIGF", "RIGF@10"], v)
    fig = rigf_bars(t, cutoff=10)
    assert [p.get_height() for p in fig.axes[0].patches] == [-7.0]
    plt.close(fig)


@pytest.mark.parametrize(
    "table, message",
    [
        (_table(["a"], [], ["R", "GF"]), "nothing to draw.*1 run.*0 topic"),
        (_table([], ["t"], ["R", "GF"]), "nothing to draw.*0 run"),
        (_table(["a"], ["t"], ["R", "GF"], np.full((1, 1, 2), np.nan)), "nothing to draw"),
        (
            _table(["a"], ["t"], ["R", "GF"], present=[[[True, False]]]),
            "nothing to draw",
        ),
    ],
)
@pytest.mark.parametrize("by", ["run", "topic"])
def test_r_vs_gf_refuses_empty_input(table, message, by):
    """Warnings are errors in this suite: an empty legend or axis warning would fail."""
    with pytest.raises(ValueError, match=f"r_vs_gf has {message}"):
        r_vs_gf(table, by=by)
    assert plt.get_fignums() == []


@pytest.mark.parametrize(
    "table, options, message",
    [
        (_table([], ["t"], ["RIGF"]), {}, "'table' parameter of plots.rigf_bars.*at least one run"),
        (_table(["a"], [], ["RIGF"]), {}, "nothing to draw: run 'a' has no topic with RIGF"),
        (
            _table(["a"], ["t"], ["RIGF"], present=[[[False]]]),
            {},
            "nothing to draw",
        ),
        (_table(["a"], ["t"], ["RIGF"]), {"runs": "b"}, "'runs' parameter of plots.rigf_bars.*'a'"),
        (_table(["a"], ["t"], ["RIGF"]), {"runs": []}, "'runs' parameter .* 1 to 12 runs"),
        (
            _table(["a"], ["t"], ["RIGF"]),
            {"attribute": "X"},
            r"'attribute' parameter of plots.rigf_bars.*\(RIGF\)\. Got 'RIGF\[X\]'",
        ),
        (
            _table(["a"], ["t"], ["GF"]),
            {},
            "'table' parameter of plots.rigf_bars must have the measure 'RIGF'. Got measures GF",
        ),
    ],
)
def test_rigf_bars_refuses_empty_or_unknown_input(table, options, message):
    with pytest.raises(ValueError, match=message):
        rigf_bars(table, **options)
    assert plt.get_fignums() == []


def test_bad_arguments(r112):
    with pytest.raises(ValueError, match="'by' parameter of plots.r_vs_gf"):
        r_vs_gf(r112, by="conversation")
    with pytest.raises(ValueError, match=r"'gf' parameter of plots.r_vs_gf.*GF\[X\]"):
        r_vs_gf(r112, gf="GF[X]")
    with pytest.raises(
        ValueError, match="'table' parameter of plots.r_vs_gf must have the measure 'R'"
    ):
        r_vs_gf(_table(["a"], ["t"], ["GF"]))
    with pytest.raises(TypeError, match="'table' parameter of plots.r_vs_gf must be a ScoreTable"):
        r_vs_gf({"R": 1})
    with pytest.raises(
        TypeError, match="'table' parameter of plots.rigf_bars must be a ScoreTable"
    ):
        rigf_bars(None)
    with pytest.raises(TypeError, match="'attribute' parameter of plots.rigf_bars"):
        rigf_bars(_table(["a"], ["t"], ["RIGF"]), attribute=3)


def test_gfrc2_clusters_panels_and_bad_indices():
    batch = load_case("r112").conversations
    cl = gfrc2.clusters(batch)
    assert len(gfrc2_clusters(batch, cl).axes) == 2
    assert len(gfrc2_clusters(batch, cl, conversations=[1]).axes) == 1
    with pytest.raises(
        ValueError, match=r"'conversations' parameter of plots.gfrc2_clusters.*0\.\.1"
    ):
        gfrc2_clusters(batch, cl, conversations=[2])
    with pytest.raises(ValueError, match="'conversations' parameter of plots.gfrc2_clusters"):
        gfrc2_clusters(batch, cl, conversations=[])
    with pytest.raises(ValueError, match="'conversations' parameter of plots.gfrc2_clusters"):
        gfrc2_clusters(batch, cl, conversations=1)


def _many_conversations(n_topics, n_runs):
    from fairconv.io import batch_from_records

    records = []
    for t in range(n_topics):
        for r in range(n_runs):
            n = {"start": 3 + r % 3, "end": 3 + r % 3, "level": 1 + (t + r) % 2,
                 "groups": {"A": [1.0, 0.0] if r % 2 else [0.0, 1.0]}}  # fmt: skip
            records.append({"topic": f"T{t:02d}", "run": f"run-{r:02d}",
                            "text": "U:q S:a b c d e f", "nuggets": [n]})  # fmt: skip
    sets = [AttributeSet("A", [0.5, 0.5], "nominal")]
    return batch_from_records(records, sets, sources=["x"] * len(records))


def test_gfrc2_clusters_of_a_whole_task_is_a_grid_of_topics():
    from fairconv import gfrc2

    batch = _many_conversations(30, 14)
    fig = gfrc2_clusters(batch, gfrc2.clusters(batch))
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == [f"T{t:02d}" for t in range(30)]
    assert len(visible[0].lines) == 14  # one line of markers per run
    ticks = visible[0].get_xticks()
    assert np.allclose(ticks, np.round(ticks))  # word counts are integers
    assert len(fig.legends[0].get_texts()) == 14
    plt.close(fig)
    with pytest.raises(ValueError, match="at most 100 topics"):
        gfrc2_clusters(_many_conversations(101, 1), gfrc2.clusters(_many_conversations(101, 1)))


def test_r_vs_gf_with_many_runs_uses_a_legend_and_labels_never_overlap():
    from fairconv import gfrc

    table = gfrc.evaluate(_many_conversations(3, 14))
    fig = r_vs_gf(table)
    assert len(fig.axes[0].get_legend().get_texts()) == 14 and not fig.axes[0].texts
    plt.close(fig)
    # few runs: labels, moved apart where the points coincide
    v = np.array([[[0.5, 0.5]], [[0.5, 0.5]], [[0.5001, 0.5]]])
    t = _table(["run-a", "run-b", "run-c"], ["T1"], ["R", "GF"], v)
    fig = r_vs_gf(t)
    boxes = [txt.get_window_extent() for txt in fig.axes[0].texts]
    assert len(boxes) == 3
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    plt.close(fig)


# --------------------------------------------------------------------------- directions, legends
def _legend_clear_of_the_data(fig):
    """Every legend lies inside the figure and over no axes' data area."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    assert legends
    frame = fig.bbox
    for legend in legends:
        box = legend.get_window_extent(renderer)
        assert box.x0 >= frame.x0 - 1 and box.x1 <= frame.x1 + 1, (box, frame)
        assert box.y0 >= frame.y0 - 1 and box.y1 <= frame.y1 + 1, (box, frame)
        for ax in fig.axes:
            if ax.get_visible():
                assert not box.overlaps(ax.get_window_extent(renderer)), (box, ax.bbox)


def test_the_legends_sit_outside_the_data():
    from fairconv import stats
    from fairconv.datasets import sakai_book

    batch = load_case("r112").conversations
    _legend_clear_of_the_data(gfrc2_clusters(batch, gfrc2.clusters(batch)))
    _legend_clear_of_the_data(gfrc2_clusters(batch, gfrc2.clusters(batch), conversations=[0]))
    grid = _many_conversations(6, 3)
    _legend_clear_of_the_data(gfrc2_clusters(grid, gfrc2.clusters(grid), by="topic"))
    from fairconv.plots import asl_curves

    book = sakai_book()
    curves = {m: stats.discriminative_power(book.scores * k, test="tukey")
              for m, k in (("nDCG@5", 1.0), ("a much longer measure name[set]", 0.5))}  # fmt: skip
    _legend_clear_of_the_data(asl_curves(curves))
    _legend_clear_of_the_data(r_vs_gf(gfrc.evaluate(_many_conversations(3, 14))))


@pytest.mark.parametrize(
    "measure, directions, order, arrow",
    [
        ("nDCG@5", None, ["X", "Y", "Z"], "(better \u2192)"),
        ("EE-D[g]", None, ["Z", "Y", "X"], "(\u2190 better)"),
        ("LTwo", {"LTwo": "undirected"}, ["X", "Y", "Z"], None),
    ],
)
def test_system_means_put_the_best_on_top_and_point_to_it(measure, directions, order, arrow):
    from fairconv import stats
    from fairconv.datasets import sakai_book
    from fairconv.plots import system_means

    book = sakai_book().table
    table = ScoreTable(topics=book.topics, runs=book.runs, measures=(measure,),
                       values=book.values, present=book.present,
                       directions=directions)  # fmt: skip
    fig = system_means(stats.compare(table, measure, test="tukey"))
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == order
    label = fig.axes[0].get_xlabel()
    if arrow is None:
        assert "better" not in label  # no run is better on an undirected measure
    else:
        assert label.endswith(arrow)


def test_run_scatter_points_each_axis_to_its_better_end():
    from fairconv.plots import run_scatter

    fig = run_scatter(["a", "b"], [0.1, 0.2], [0.3, 0.1], x_label="nDCG", y_label="EE-D",
                      directions=("higher", "lower"))  # fmt: skip
    ax = fig.axes[0]
    assert ax.get_xlabel() == "nDCG (better \u2192)" and ax.get_ylabel() == "EE-D (\u2193 better)"
    plain = run_scatter(["a", "b"], [0.1, 0.2], [0.3, 0.1], x_label="x", y_label="y",
                        directions=("undirected", "higher"))  # fmt: skip
    assert plain.axes[0].get_xlabel() == "x" and plain.axes[0].get_ylabel() == "y (better \u2191)"
    with pytest.raises(ValueError, match="'directions' parameter of plots.run_scatter"):
        run_scatter(["a"], [0.1], [0.2], x_label="x", y_label="y", directions=("up", "higher"))
    with pytest.raises(ValueError, match="'directions' parameter of plots.run_scatter .* pair"):
        run_scatter(["a"], [0.1], [0.2], x_label="x", y_label="y", directions="higher")


CASES = path("cases")


def _texts(fig):
    return [t for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


def _conversations(tmp_path, runs):
    records = [json.loads(x) for x in (CASES / "r112-fairweb2.jsonl").read_text().splitlines()]
    f = tmp_path / "c.jsonl"
    f.write_text(
        "".join(json.dumps(dict(r, run=runs[i % len(runs)])) + "\n" for i, r in enumerate(records))
    )
    return f


@pytest.mark.parametrize("name", ["$x^$", "$a$", r"$\frac{$", "cost$5"])
def test_plot_names_are_never_mathtext(tmp_path, name):
    fig = run_scatter([name, "bm25"], [0.1, 0.2], [0.3, 0.4], x_label=f"ERR{name}", y_label="GFR")
    fig.savefig(tmp_path / "f.png")  # mathtext would fail to parse, or print as math
    shown = {t.get_text() for t in _texts(fig)}
    for text in (name, f"ERR{name}"):
        escaped = text.replace("$", r"\$")
        assert escaped in shown
        t = next(t for t in _texts(fig) if t.get_text() == escaped)
        assert t._preprocess_math(escaped) == (text, False)  # drawn as plain text
    sets = read_attribute_sets(CASES / "r112-attributes.json")
    table = gfrc.evaluate(read_conversations(_conversations(tmp_path, [name, "b"]), sets))
    r_vs_gf(table).savefig(tmp_path / "g.png")


def test_plot_names_outside_the_font_give_one_notice(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = run_scatter(["検索", "bm25"], [0.1, 0.2], [0.3, 0.4], x_label="ERR", y_label="GFR")
        fig.savefig(tmp_path / "f.png")
    assert [w.category for w in caught] == [FairconvWarning], [str(w.message) for w in caught]
    assert "no glyph for 2 character(s)" in str(caught[0].message)
    assert "<U+691C><U+7D22>" in {t.get_text() for t in _texts(fig)}  # distinct, not boxes
    sets = tmp_path / "sets.json"
    sets.write_text((CASES / "r112-attributes.json").read_text())
    proc = subprocess.run(
        [sys.executable, "-W", "error::UserWarning", "-m", "fairconv", "gfrc",
         "--attributes", str(CASES / "r112-attributes.json"), "--plot", "fig.png",
         str(_conversations(tmp_path, ["検索", "b"]))],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    notices = proc.stderr.splitlines()
    assert len(notices) == 2 and notices[1] == "wrote fig.png", proc.stderr
    assert notices[0].startswith(
        "fairconv gfrc: warning: plots.r_vs_gf: the plot font has no glyph"
    )
