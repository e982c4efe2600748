"""Error messages follow one template, written once in ``fairconv._validation``.

"The '<name>' parameter of <caller> must <rule>. Got <what> instead." is formatted by
``fail``, ``fail_type``, ``fail_params`` and the ``check_*`` helpers only; the caller is
the public function the user called (``caller()``), never a name spelled in a message.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import fairconv
from fairconv import agreement, results, stats
from fairconv import trecfair as tf
from fairconv._validation import calling, fail_params, public_name
from fairconv.results import ScoreTable

SRC = Path(fairconv.__file__).parent

NOT_YET_CONVERTED: dict[str, int] = {}
"""Messages still formatted by hand, per module: the count may fall, never rise."""

_BY_HAND = re.compile(r"parameters? of \{caller\(\)\}|The '\w+' parameters? of [A-Za-z]")
"""The template's opening, written out instead of built by a helper of _validation."""


def _messages(tree: ast.Module):
    """(line, text) of every string literal but docstrings; an f-string's fields as {expr}."""
    bare = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                str(v.value) if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                for v in node.values
            )
            yield node.lineno, text
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in bare:
                yield node.lineno, node.value


def _public_names() -> set[str]:
    """The name of every function marked @public, as errors show it."""
    import importlib
    import importlib.util
    import pkgutil

    names = set()
    for info in pkgutil.walk_packages(fairconv.__path__, "fairconv."):
        if info.name.startswith("fairconv.cli") or info.name.endswith("__main__"):
            continue
        extra = info.name.rpartition(".")[2] in fairconv.EXTRA_MODULES
        if extra and importlib.util.find_spec(info.name.rpartition(".")[2]) is None:
            continue  # its extra is not installed (its source is scanned all the same)
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            for item in [obj, *(vars(obj).values() if isinstance(obj, type) else ())]:
                name = getattr(item, "__fairconv_public__", None)
                if name and "." in name:
                    names.add(name)
    return names


def _hand_made(path: Path, spelled: re.Pattern) -> list[tuple[int, str]]:
    found = {}
    for line, text in _messages(ast.parse(path.read_text(encoding="utf-8"))):
        if _BY_HAND.search(text) or spelled.search(text):
            found.setdefault(line, text)
    return sorted(found.items())


def test_no_module_formats_the_template_by_hand_or_spells_a_callers_name():
    names = _public_names()
    assert {"stats.compare", "trecfair.evaluate", "results.ScoreTable.join"} <= names
    spelled = re.compile(
        r"(?<![\w.])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")"
        r"(?=:| has | needs | must )"
    )
    over = {}
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "_validation.py":
            continue
        key = path.relative_to(SRC).as_posix()
        found = _hand_made(path, spelled)
        if len(found) > NOT_YET_CONVERTED.get(key, 0):
            over[key] = found
    assert not over, over


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """The scan above is not blind: each form it refuses is found in a sample."""
    spelled = re.compile(r"(?<![\w.])(stats\.compare)(?=:| has | needs | must )")
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""A module docstring naming stats.compare is fine."""\n'
        "def f(name, caller):\n"
        '    """The \'x\' parameter of f: docstrings are fine."""\n'
        "    a = f\"The '{name}' parameter of {caller()} must be fine. Got 1 instead.\"\n"
        "    b = (f\"The 'p' and 'q' parameters of {caller()} \"\n"
        '         "must add up.")\n'
        "    c = \"The 'x' parameter of ScoreTable must be built by fail.\"\n"
        '    d = "stats.compare: a spelled name"\n'
        '    e = "a message from fail, naming stats.compare as a hint"\n'
    )
    assert [line for line, _ in _hand_made(sample, spelled)] == [4, 5, 7, 8]


def _table():
    values = np.array([[[0.5], [0.25]], [[0.75], [0.5]], [[0.25], [0.0]]])
    return ScoreTable(
        topics=("q1", "q2", "q3"),
        runs=("a", "b"),
        measures=("M",),
        values=values,
        present=np.ones(values.shape, bool),
    )


def _trecfair_files(tmp_path):
    files = {
        "align": "page_id\t@UNKNOWN\tx\ty\n1\t0\t1\t0\n2\t0\t0\t1\n3\t1\t0\t0\n",
        "qrels": '{"id": 1, "rel_docs": [1, 2]}\n{"id": 2, "rel_docs": ["3"]}\n',
        "run": "id\tpage_id\n1\t1\n1\t2\n2\t3\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


_ROWS = [[[[0.0, 1.0, 0.0]]]]

API_MESSAGES = [
    # fail_params: several parameters together, and a hint after "instead"
    (
        lambda _: agreement.cohen_kappa([1, 2], [1]),
        ValueError,
        "The 'a' and 'b' parameters of agreement.cohen_kappa must label the same items. "
        "Got lengths 2 and 1 instead.",
    ),
    (
        lambda _: agreement.rbo(["a"], [1]),
        TypeError,
        "The 'ranking_a' and 'ranking_b' parameters of agreement.rbo must hold ids of one "
        "kind. Got <U1 and int64 instead.",
    ),
    (
        lambda _: stats.compare(_table(), "M", test="tukey", correction="holm"),
        ValueError,
        "The 'test' and 'correction' parameters of stats.compare must not add a correction "
        "to tukey, which already controls the familywise error. Got 'holm' "
        "instead; use a pairwise test, or no correction.",
    ),
    (
        lambda _: results.cutoffs_of(["GF_Re@10"]),
        ValueError,
        "The 'measures' parameter of results.cutoffs_of must hold valid measure names. "
        "Got 'GF_Re@10' instead; 'GF_Re@10' is now spelled 'GF-Re@10'.",
    ),
    (
        lambda _: _table().join(_table().select(runs=["a"])),
        ValueError,
        "The 'others' parameter of results.ScoreTable.join must hold the runs of the first "
        "table. Got table 0 instead; it lacks b.",
    ),
    # check_names: a sequence of str (run names, topic ids, measure names)
    (
        lambda _: stats.compare(_table().values[:, :, 0], "M", runs="ab"),
        TypeError,
        "The 'runs' parameter of stats.compare must be a sequence of run names. Got a str instead.",
    ),
    (
        lambda _: stats.compare(_table().values[:, :, 0], "M", runs=["a", 2]),
        TypeError,
        "The 'runs' parameter of stats.compare must hold run names as str. "
        "Got an int 2 at position 1 instead.",
    ),
    (
        lambda _: stats.scores_of(_table(), "M", topics=["q1", 2]),
        TypeError,
        "The 'topics' parameter of stats.scores_of must hold topic ids as str. "
        "Got an int 2 at position 1 instead.",
    ),
    (
        lambda _: results.cutoffs_of("GFR@10"),
        TypeError,
        "The 'measures' parameter of results.cutoffs_of must be a sequence of measure "
        "names. Got a str instead.",
    ),
    # check_one_per: one entry per dimension
    (
        lambda _: tf.targets_from_alignments(np.zeros((1, 2, 2)), lengths=[1], task=1),
        TypeError,
        "The 'alignments' parameter of trecfair.targets_from_alignments must be a sequence "
        "with one entry per dimension. Got an ndarray instead.",
    ),
    (
        lambda _: tf.targets_from_alignments([], lengths=[1], task=1),
        ValueError,
        "The 'alignments' parameter of trecfair.targets_from_alignments must hold at least "
        "one dimension. Got an empty sequence instead.",
    ),
    (
        lambda _: tf.targets_from_alignments(_ROWS, lengths=[1], task=1, backgrounds=[None, None]),
        ValueError,
        "The 'backgrounds' parameter of trecfair.targets_from_alignments must have one "
        "entry per dimension (1). Got 2 instead.",
    ),
    # check_mapping
    (
        lambda d: tf.evaluate(
            d / "qrels",
            d / "run",
            [tf.read_alignment("d", d / "align")],
            task=1,
            backgrounds=["uniform"],
        ),  # fmt: skip
        TypeError,
        "The 'backgrounds' parameter of trecfair.evaluate must be a mapping from dimension "
        "name to a background (a preset name, a file, or a Background). Got a list instead.",
    ),
    # check_bool_array
    (
        lambda _: tf.task1(
            np.array([[1, 0]]),
            [np.array([[[0.0, 1.0], [1.0, 0.0]]])],
            np.array([[0.5, 0.5]]),
            known=np.array([[True, True]]),
            lengths=np.array([2]),
            n_relevant=np.array([1]),
        ),  # fmt: skip
        TypeError,
        "The 'relevant' parameter of trecfair.task1 must be an array of booleans. "
        "Got an array of dtype int64 instead.",
    ),
    # check_instance, for the kinds several functions take
    (
        lambda _: stats.scores_of({}, "M"),
        TypeError,
        "The 'table' parameter of stats.scores_of must be a ScoreTable. Got a dict instead.",
    ),
    (
        lambda _: stats.compare(_table(), 3),
        TypeError,
        "The 'measure' parameter of stats.compare must be a str. Got an int instead.",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), API_MESSAGES)
def test_messages_through_the_api(tmp_path, call, error, message):
    with pytest.raises(error) as info:
        call(_trecfair_files(tmp_path))
    assert str(info.value) == message


def test_fail_params_names_one_or_several_parameters():
    with calling("f"):
        assert str(fail_params("x", "be 1", "2")) == (
            "The 'x' parameter of f must be 1. Got 2 instead."
        )
        assert str(fail_params(("x", "y", "z"), "agree", "no", hint="fix them")) == (
            "The 'x', 'y' and 'z' parameters of f must agree. Got no instead; fix them."
        )
        assert isinstance(fail_params("x", "r", "g", error=TypeError), TypeError)


def test_the_names_in_the_table_are_the_functions_names():
    assert public_name(tf.targets_from_alignments.__wrapped__) == (
        "trecfair.targets_from_alignments"
    )
    assert ScoreTable.join.__fairconv_public__ == "results.ScoreTable.join"


def test_the_command_line_names_options_for_several_parameters(tmp_path, capsys):
    from fairconv.cli import main
    from fairconv.datasets import sakai_book

    scores = tmp_path / "book.tsv"
    with open(scores, "w") as out:
        sakai_book().table.to_tsv(out)
    argv = ["compare", str(scores), "-m", "nDCG@5", "--test", "tukey", "--correction", "holm"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "fairconv compare: error: --test and --correction must not add a correction to "
        "tukey, which already controls the familywise error. Got 'holm' instead; use a "
        "pairwise test, or no correction.\n"
    )


def _numpy_scalar_calls():
    from fairconv import divergences, gfr, io
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    table = ScoreTable.from_columns(["q"], ["r"], [("m", np.array([[0.5]]), None)])
    return {
        "cutoffs": lambda x: gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[x]),
        "phi": lambda x: gfr.evaluate(p.qrels, p.runs, p.attributes, phi=x),
        "alpha": lambda x: stats.compare(table, "m", alpha=x),
        "select": lambda x: table.select(topics=[x]),
        "value": lambda x: table.value(x, "q", "m"),
        "divergence": lambda x: divergences.jsd(np.array([0.5, x]), np.array([0.5, 0.5])),
        "run score": lambda x: io.as_run({"q": {"a": x}}),
        "qrels level": lambda x: io.as_qrels({"q": {"a": x}}),
        "table value": lambda x: ScoreTable.from_columns(
            ["q"], ["r"], [("m", np.array([[x]]), None)]
        ),
    }


NUMPY_SCALARS = [np.float64("nan"), np.float32(2.5), np.float64(-np.inf), np.int64(-1),
                 np.int32(1000), np.str_("x"), np.bool_(True), np.float16(1.5)]  # fmt: skip


@pytest.mark.parametrize("value", NUMPY_SCALARS, ids=repr)
def test_values_are_written_as_the_user_wrote_them_never_numpys_repr(value):
    """numpy 2's repr of its scalars (np.float64(nan)) never reaches a message: a value
    reads nan, 2.5, -1, 'x', as the user wrote it."""
    for name, call in _numpy_scalar_calls().items():
        try:
            call(value)
        except (ValueError, TypeError, KeyError) as exc:
            message = str(exc)
            assert "np." not in message and "float64(" not in message, (name, message)
