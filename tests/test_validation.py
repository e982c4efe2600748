"""The shared checks of fairconv._validation that have no other home in the tests."""

import warnings

import numpy as np
import pytest

from fairconv._validation import (
    FairconvWarning,
    at_first,
    calling,
    check_cut,
    check_distributions,
    check_shape,
    deprecated,
    fill_doc,
    notice,
)

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
