"""The command line's pre-scan of --attributes (which golddistr files an attribute-set
JSON names, so that no output replaces them) reads the JSON as the reader does."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from fairconv.datasets import path

CONVERSATIONS = path("cases", "r112-fairweb2.jsonl")
SETS = json.loads(path("cases", "r112-attributes.json").read_text())


def _run(tmp_path, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _sets_with_golddistr(tmp_path):
    """The bundled sets, the first one's target given as a golddistr file."""
    sets = json.loads(json.dumps(SETS))
    name = next(iter(sets))
    target = sets[name]["target"]
    (tmp_path / "first.golddistr").write_text("".join(f"{x!r}\n" for x in target))
    sets[name]["target"] = "first.golddistr"
    return sets


@pytest.mark.parametrize("compress", [False, True])
def test_attributes_prescan_protects_golddistr_files(tmp_path, compress):
    sets = json.dumps(_sets_with_golddistr(tmp_path))
    f = tmp_path / ("sets.json.gz" if compress else "sets.json")
    f.write_bytes(gzip.compress(sets.encode()) if compress else sets.encode())
    before = (tmp_path / "first.golddistr").read_bytes()
    code, out, err = _run(
        tmp_path, "gfrc", "--attributes", f, "-o", "first.golddistr", CONVERSATIONS
    )
    assert code == 2 and err.count("\n") == 1, err
    assert "the output first.golddistr is the input" in err
    assert (tmp_path / "first.golddistr").read_bytes() == before
    code, out, err = _run(tmp_path, "gfrc", "--attributes", f, "-o", "out.tsv", CONVERSATIONS)
    assert code == 0, err  # the same file reads as attribute sets


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("first\x00.golddistr", "cannot be read (embedded null byte)"),
        ("first\ud800.golddistr", "lone surrogate"),
    ],
)
def test_attributes_prescan_targets_that_are_no_path(tmp_path, target, message):
    sets = _sets_with_golddistr(tmp_path)
    sets[next(iter(sets))]["target"] = target
    f = tmp_path / "sets.json"
    f.write_text(json.dumps(sets))  # \u escapes: the file is valid JSON
    code, out, err = _run(tmp_path, "gfrc", "--attributes", f, "-o", "out.tsv", CONVERSATIONS)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"fairconv gfrc: error: {f}: ") and message in err, err
    assert not (tmp_path / "out.tsv").exists()


def test_attributes_prescan_deep_nesting(tmp_path):
    f = tmp_path / "sets.json"
    f.write_text('{"A": {"target": ' + "[" * 1000 + "]" * 1000 + ', "scale": "nominal"}}')
    code, out, err = _run(tmp_path, "gfrc", "--attributes", f, CONVERSATIONS)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"fairconv gfrc: error: {f}: "), err
