"""Names reach figures as text: no mathtext from a ``$`` in a run, topic or measure
name, and names outside the plot font give one clear notice, not matplotlib's warning
(pytest turns every other warning into an error)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import matplotlib
import pytest

matplotlib.use("Agg")

from fairconv import FairconvWarning, gfrc  # noqa: E402
from fairconv.datasets import path  # noqa: E402
from fairconv.io import read_attribute_sets, read_conversations  # noqa: E402
from fairconv.plots import r_vs_gf, run_scatter  # noqa: E402

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
