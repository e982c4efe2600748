"""Error messages name the public function the user called, taken from the function."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from fairconv import _accel, divergences, gfr, gfrc, gfrc2, stats
from fairconv._validation import _CALLER, caller, calling, check_instance, public, public_name
from fairconv.datasets import fairweb1_pilot, load_case
from fairconv.io import read_run
from fairconv.results import ScoreTable


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
