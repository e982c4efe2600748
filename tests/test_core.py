"""The shared core's ragged-array helpers against plain loops."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import _core
from fairconv.conversation import Conversation, Nugget


@given(st.lists(st.integers(0, 5), min_size=1, max_size=12), st.integers(1, 3))
def test_segment_sum_and_cumsum_agree_with_loops(sizes, width):
    rng = np.random.default_rng(sum(sizes))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    n = int(sum(sizes))
    x = rng.random((n, width))
    sums = _core.segment_sum(x, starts, n)
    cums = _core.segment_cumsum(x, starts)
    for i, (s, size) in enumerate(zip(starts, sizes, strict=False)):
        np.testing.assert_allclose(sums[i], x[s : s + size].sum(axis=0), atol=1e-12)
        for k in range(size):
            np.testing.assert_allclose(cums[s + k], x[s : s + k + 1].sum(axis=0), atol=1e-12)


def test_segment_cumsum_keeps_precision_across_a_large_batch():
    """Restarting at each segment keeps the error at the size of one segment's sum."""
    rng = np.random.default_rng(0)
    x = rng.random((200_000, 1)) * 1e3
    starts = np.arange(0, 200_000, 10)
    got = _core.segment_cumsum(x, starts)[-1, 0]
    assert got == pytest.approx(x[-10:, 0].sum(), abs=1e-10)


def test_running_mean_and_decay():
    x = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]])
    np.testing.assert_allclose(_core.running_mean(x)[0], [[1, 0], [0.5, 0.5], [1 / 3, 2 / 3]])
    np.testing.assert_allclose(
        _core.err_decay(np.array([0.25, 0.75, 0.75])), [0.25, 0.75 * 0.75, 0.75 * 0.75 * 0.25]
    )


def test_conversation_json_round_trip():
    c = Conversation("T", "r", (Nugget(2, 3, 2, "e", {"A": [1.0, 0.0]}),), text="U:q S:a b c")
    assert Conversation.from_json(c.to_json()) == c
