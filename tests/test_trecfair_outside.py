"""trecfair against outside references: the track's own code on the bundled data.

- ``tests/reference/trecfair/pagealign-2022/``: the alignment tables and work levels the
  organisers' ``PageAlignments.py`` derives from the bundled 2022 metadata (spec 9);
- ``tests/reference/trecfair/official/bundled-2022.json``: the per-topic values of the
  track's 2022 metrics on the bundled runs, targets built with the official backgrounds
  (spec 3, 4, 6), to be met within 1e-6 relative (the official discounts are float32).
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from fairconv import datasets
from fairconv import trecfair as tf
from fairconv._validation import FairconvWarning

REF = Path(__file__).parent / "reference" / "trecfair"
DATA = datasets.path("trecfair")


@pytest.fixture(scope="module")
def metadata():
    return tf.read_metadata(DATA / "trec_2022_articles_discrete.jsonl", edition=2022)


def test_metadata_gives_the_organisers_alignment_tables(metadata):
    dims, work = metadata
    for d in dims:
        official = tf.read_alignment(d.name, REF / "pagealign-2022" / f"page-{d.name}-align.csv.gz")
        assert official.categories == d.categories
        at = {p: i for i, p in enumerate(official.pages.tolist())}
        assert sorted(at) == sorted(d.pages.tolist())
        rows = official.rows[[at[p] for p in d.pages.tolist()]]
        assert np.array_equal(rows, d.rows), d.name
    levels = tf.read_work(REF / "pagealign-2022" / "page-quality.csv.gz")
    at = {p: i for i, p in enumerate(levels.pages.tolist())}
    assert [int(levels.levels[at[p]]) for p in work.pages.tolist()] == work.levels.tolist()


def test_values_equal_the_track_code_on_the_bundled_runs(metadata):
    dims, work = metadata
    ref = json.loads((REF / "official" / "bundled-2022.json").read_text())
    group = "[" + ",".join(d.name for d in dims) + "]"
    compared = 0
    for run, topics in ref["runs"].items():
        task = 1 if run.startswith("t1") else 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FairconvWarning)
            table = tf.evaluate(
                DATA / "trec_fair_eval_reldocs.jsonl",
                DATA / run,
                dims,
                task=task,
                backgrounds=ref["backgrounds"],
                work=work if task == 2 else None,
            )
        assert set(table.topics) == set(topics)
        for topic, values in topics.items():
            for base, want in values.items():
                name = base if base == "nDCG" else base + group
                assert table.value(run, topic, name) == pytest.approx(want, rel=1e-6, abs=0)
                compared += 1
    assert compared == 27
