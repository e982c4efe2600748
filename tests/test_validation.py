"""fairconv._validation: the shared checks and the one template of every message.

- "The '<name>' parameter of <caller> must <rule>. Got <what> instead." is formatted by
  ``fail``, ``fail_type``, ``fail_params`` and the ``check_*`` helpers only; the caller
  is the public function the user called, taken from the function.
- The id rule (ID_FORBIDDEN) in its text and byte forms, and the whitespace-table rule
  derived from it, agree on every code point.
- did_you_mean; distribution rows checked before any arithmetic."""

from __future__ import annotations

import ast
import re
import sys
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fairconv
from fairconv import _accel, agreement, divergences, gfr, gfrc, gfrc2, results, stats
from fairconv import _validation as v
from fairconv import trecfair as tf
from fairconv._validation import (
    _CALLER,
    FairconvWarning,
    at_first,
    caller,
    calling,
    check_cut,
    check_distributions,
    check_instance,
    check_shape,
    deprecated,
    did_you_mean,
    fail_params,
    fill_doc,
    first_bad_distribution,
    notice,
    public,
    public_name,
)
from fairconv.datasets import fairweb1_pilot, load_case
from fairconv.io import FileFormatError, read_run
from fairconv.results import ScoreTable

# a private function of fairconv that gives a notice: its frames are fairconv's
_STAND_IN = {"__name__": "fairconv.stand_in", "notice": notice, "deprecated": deprecated}
_SOURCE = "def _library_function():\n    notice('a notice')\n    deprecated('a deprecation')\n"
exec(_SOURCE, _STAND_IN)
_library_function = _STAND_IN["_library_function"]


def test_notices_outside_a_public_call_point_at_the_first_line_outside_fairconv():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = _line_of_next_call()
        _library_function()
    assert [w.category for w in caught] == [FairconvWarning, DeprecationWarning]
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}


def _line_of_next_call():
    import sys

    return sys._getframe(1).f_lineno + 1


@pytest.mark.parametrize("value", [None, "edition"])
def test_a_cut_may_be_none_or_a_word_the_caller_names(value):
    assert check_cut(value, "depth", words=("edition",)) == value


def test_a_cut_is_an_integer_of_at_least_1():
    assert check_cut(np.int32(20), "depth") == 20
    assert type(check_cut(np.int32(20), "depth")) is int
    for bad in (-1, 2.0, True, "20", "edition"):
        with calling("f"), pytest.raises(ValueError, match=r"'depth' parameter of f must be None"):
            check_cut(bad, "depth")


def test_a_cut_of_0_is_none_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match=r"depth=0 for no cut is deprecated.*depth=None"):
        assert check_cut(0, "depth", words=("edition",)) is None


def test_check_shape_exact_and_at_first():
    arr = np.zeros((2, 3))
    assert check_shape(arr, (2, 3), "x", "one per page", exact=True) is arr
    with calling("f"), pytest.raises(ValueError, match=r"have shape \(3,\) \(one per page\)"):
        check_shape(np.zeros(1), (3,), "x", "one per page", exact=True)  # not broadcast
    assert check_shape(np.zeros(1), (3,), "x", "one per page").shape == (3,)
    mask = np.zeros((2, 3), dtype=bool)
    mask[1, 2] = True
    assert at_first(mask) == " at index (1, 2)"


def test_a_distribution_over_one_group_when_the_caller_allows_it():
    assert check_distributions([1.0], "b", min_groups=1).tolist() == [1.0]
    with calling("f"), pytest.raises(ValueError, match="at least 2 groups"):
        check_distributions([1.0], "b")
    with calling("f"), pytest.raises(ValueError, match="at least 1 group on"):
        check_distributions(np.zeros(0), "b", min_groups=1)


def test_fill_doc_writes_each_part_at_its_placeholder_indented():
    @fill_doc(opts="a : int\n    The a.\n\nb : str")
    def f():
        """Summary.

        Parameters
        ----------
        {opts}
        c : {'x', 'y'}
            Braces elsewhere stay: {not a placeholder}.
        """

    assert f.__doc__ == (
        "Summary.\n\n        Parameters\n        ----------\n        a : int\n"
        "            The a.\n\n        b : str\n        c : {'x', 'y'}\n"
        "            Braces elsewhere stay: {not a placeholder}.\n        "
    )


def test_fill_doc_refuses_a_placeholder_without_its_part():
    def f():
        """Summary.

        {missing}
        """

    with pytest.raises(KeyError, match=r"f's docstring has no text for \{missing\}"):
        fill_doc(other="x")(f)


def test_renamed_keywords_keep_working_with_a_deprecation_naming_the_new_one():
    from fairconv._validation import renamed

    @renamed(old="new")
    def f(*, new=0):
        return new

    with pytest.warns(DeprecationWarning, match=r"the 'old' parameter of .*f is now 'new'"):
        assert f(old=3) == 3
    assert f(new=4) == 4
    with pytest.raises(TypeError, match=r"got both 'old' and 'new', its new name"):
        f(old=1, new=2)


@pytest.fixture(scope="module")
def pilot():
    return fairweb1_pilot()


def test_the_name_is_the_public_module_path_and_the_qualified_name():
    assert public_name(stats.compare.__wrapped__) == "stats.compare"
    assert gfr.evaluate.__fairconv_public__ == "gfr.evaluate"
    assert divergences.jsd.__fairconv_public__ == "divergences.jsd"
    assert read_run.__fairconv_public__ == "io.read_run"
    assert ScoreTable.select.__fairconv_public__ == "results.ScoreTable.select"
    assert divergences.AttributeSet.__post_init__.__fairconv_public__ == "divergences.AttributeSet"


def test_a_message_names_the_function_called():
    with pytest.raises(ValueError, match=r"^The 'p' parameter of divergences\.jsd must"):
        divergences.jsd([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"'phi' parameter of gfr\.gfr must"):
        gfr.gfr(np.zeros((1, 1, 2), int), [np.full((1, 1, 2, 2), 0.5)], [], phi=2.0)


def test_a_nested_public_call_names_the_outermost_function(pilot):
    # gfrc.evaluate calls gfrc.gfrc; gfr.evaluate calls rankings.prepare and pick
    case = load_case("r112")
    with pytest.raises(ValueError, match=r"'L' parameter of gfrc\.evaluate must"):
        gfrc.evaluate(case.conversations, L=1)
    with pytest.raises(ValueError, match=r"'L' parameter of gfrc2\.evaluate must"):
        gfrc2.evaluate(case.conversations, L=1)
    with pytest.raises(ValueError, match=r"'order' parameter of gfr\.evaluate must"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, order="nope")
    with pytest.raises(ValueError, match=r"'measures' parameter of gfr\.evaluate must"):
        gfr.evaluate(pilot.qrels, pilot.runs, pilot.attributes, measures=["nDCG@10"])


def test_the_name_is_reset_after_a_call_and_after_an_error():
    assert _CALLER.get() is None
    divergences.jsd([0.5, 0.5], [0.5, 0.5])
    assert _CALLER.get() is None
    with pytest.raises(ValueError):
        divergences.jsd([0.5, 0.6], [0.5, 0.5])
    assert _CALLER.get() is None and caller() == "fairconv"
    # the next call names itself, not the one that failed
    with pytest.raises(ValueError, match=r"of divergences\.nmd must"):
        divergences.nmd([0.5, 0.6], [0.5, 0.5])


def test_worker_threads_name_the_caller(pilot, monkeypatch):
    """Checks that run on the executor's threads name the function the user called."""
    seen = []

    @public
    def outer(n_jobs):
        return _accel.thread_map(lambda i: (seen.append(caller()), threading.get_ident())[1],
                                 range(8), n_jobs=n_jobs)  # fmt: skip

    idents = outer(4)
    assert set(idents) != {threading.get_ident()}  # the work ran on other threads
    assert seen == [outer.__fairconv_public__] * 8
    assert outer.__fairconv_public__.endswith("test_worker_threads_name_the_caller.<locals>.outer")
    seen.clear()

    with calling("gfr.evaluate"):
        assert _accel.thread_map(lambda i: caller(), range(5), n_jobs=3) == ["gfr.evaluate"] * 5


def test_a_worker_error_names_the_caller():
    def check(i):
        return check_instance(i, str, "item")

    with calling("io.read_run"):
        with pytest.raises(TypeError, match=r"^The 'item' parameter of io\.read_run must be a str"):
            _accel.thread_map(check, [1, 2, 3], n_jobs=3)


def test_check_instance_is_a_type_error_in_the_one_template():
    assert check_instance("x", str, "name") == "x"
    with calling("f"):
        with pytest.raises(TypeError) as info:
            check_instance(3, (str, bytes), "name")
        assert str(info.value) == (
            "The 'name' parameter of f must be a str or a bytes. Got an int instead."
        )
        with pytest.raises(TypeError, match="must be a Qrels .read_qrels.. Got a list instead"):
            check_instance([], tuple, "qrels", what="a Qrels (read_qrels)")


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


ALL = "".join(map(chr, range(sys.maxunicode + 1)))


def _in_ranges(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in v.ID_FORBIDDEN)


def _plain_rule(char: str) -> bool:
    """The rule in words: whitespace, a control character, the BOM or a surrogate."""
    code = ord(char)
    return (
        char.isspace()
        or code < 0x20
        or 0x7F <= code <= 0x9F
        or code == 0xFEFF
        or 0xD800 <= code <= 0xDFFF
    )


_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),  # any code point, surrogates included
        st.sampled_from([c for c in ALL[:0x3100] if _plain_rule(c)] + ["\ufeff", "a", "é"]),
    ),
    max_size=6,
)


def test_ranges_are_the_rule_in_words():
    # every code point: the ranges hold exactly what the rule names
    forbidden = v.NOT_IN_ID.findall(ALL)
    assert forbidden == [c for c in ALL if _plain_rule(c)]
    assert forbidden == [c for c in ALL if _in_ranges(ord(c))]


def test_byte_rule_agrees_with_text_rule_on_every_code_point():
    data = ALL.encode("utf-8", "surrogatepass")
    found = [m.group().decode("utf-8", "surrogatepass") for m in v.NOT_IN_ID_BYTES.finditer(data)]
    assert found == v.NOT_IN_ID.findall(ALL)


def test_table_rule_is_the_id_rule_but_the_separators():
    from fairconv.io._text import _BAD_TABLE_BYTES

    data = ALL.encode("utf-8", "surrogatepass")
    found = {m.group().decode("utf-8", "surrogatepass") for m in _BAD_TABLE_BYTES.finditer(data)}
    ids = set(v.NOT_IN_ID.findall(ALL))
    surrogates = {chr(c) for c in range(0xD800, 0xE000)}  # not UTF-8: refused as such
    assert ids - found == set(v.TOKEN_SEPARATORS) | surrogates
    assert found - ids == set()


@given(st.lists(_TEXT, max_size=8))
def test_first_bad_id_agrees_on_text_and_bytes(ids):
    expected = next((i for i, t in enumerate(ids) if v.id_fault(t) is not None), -1)
    assert v.first_bad_id(ids) == expected
    assert v.first_bad_id(np.array(ids, dtype=object)) == expected
    encoded = [t.encode("utf-8", "surrogatepass") for t in ids]
    assert v.first_bad_id(encoded) == expected
    for i, t in enumerate(ids):  # the plain loop: one character at a time
        bad = not t or any(_plain_rule(c) for c in t)
        assert (v.id_fault(t) is not None) == bad, i


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a b", '"topic" must not contain whitespace or control characters, got "a b"'),
        ("a\u3000b", '"topic" must not contain whitespace or control characters'),
        ("a\x85", '"topic" must not contain whitespace or control characters'),
        ("\ufeffa", '"topic" must not contain a byte-order mark \\(U\\+FEFF\\) or a lone'),
        ("", '"topic" must be a non-empty string, got ""'),
        (3, '"topic" must be a non-empty string, got 3'),
    ],
)
def test_check_id(value, message):
    with pytest.raises(FileFormatError, match="^f.json:3: nugget 2: " + message) as err:
        v.check_id(value, "topic", v.Where("f.json", 3).then("nugget 2"))
    assert (err.value.path, err.value.line) == ("f.json", 3)
    assert v.check_id("T-1\u00e9", "topic", "f.json") == "T-1\u00e9"


def test_overflow_warnings_distribution_rows_in_memory():
    rows = np.array([[0.5, 0.5], [1e308, 1e308], [0.25, 0.75]])
    assert first_bad_distribution(rows) == 1


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("levle", " Did you mean 'level'?"),  # adjacent swap
        ("runn", " Did you mean 'run'?"),  # insertion
        ("lvel", " Did you mean 'level'?"),  # deletion
        ("lavel", " Did you mean 'level'?"),  # substitution
        ("nuggets", ""),  # exact names are not misspellings
        ("leelv", ""),  # three letters moved is more than one edit
        ("xyz", ""),
        ("", ""),
    ],
)
def test_did_you_mean_one_edit_away(word, expected):
    assert did_you_mean(word, ["level", "run", "nuggets", "text"]) == expected


def test_did_you_mean_names_every_close_choice_in_order():
    assert did_you_mean("ab", ["abc", "xb", "ba"]) == " Did you mean 'abc', 'xb' or 'ba'?"


def test_did_you_mean_case_insensitive_for_measure_names():
    assert did_you_mean("ndcg", ["nDCG", "ERR"]) == ""
    assert did_you_mean("ndcg", ["nDCG", "ERR"], ignore_case=True) == " Did you mean 'nDCG'?"
    assert did_you_mean("GRF", ["GFR", "ERR"], ignore_case=True) == " Did you mean 'GFR'?"


def test_notices_given_on_worker_threads_point_at_the_callers_line(tmp_path):
    """A notice given on a thread of the pool (a run read and joined there) names the
    user's line, never concurrent/futures/thread.py or the library."""
    import threading

    from fairconv import gfr
    from fairconv.datasets import fairweb1_pilot

    p = fairweb1_pilot()
    runs = []
    for k in range(4):  # scores that rise in file order: a notice per run, from its thread
        f = tmp_path / f"run{k}"
        f.write_text("".join(f"P001 Q0 d{i} {i + 1} {i} r{k}\n" for i in range(5)))
        runs.append(f)
    seen = []

    def show(message, category, filename, lineno, file=None, line=None):
        main = threading.current_thread() is threading.main_thread()
        seen.append((str(message), main, filename, lineno))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        line = _line_of_next_call()
        gfr.evaluate(p.qrels, runs, p.attributes, n_jobs=4)
    rising = [s for s in seen if "scores higher than the line before it" in s[0]]
    assert len(rising) == 4 and not any(main for _, main, _, _ in rising)  # on the pool
    assert {(f, n) for _, _, f, n in seen} == {(__file__, line)}


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
