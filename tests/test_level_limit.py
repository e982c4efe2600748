"""The level limit is written once (fairconv._validation.LMAX_LIMIT, LEVEL_DTYPE): the
readers' patterns and messages and the stored levels follow it."""

import io

import numpy as np
import pytest

from fairconv import _validation as v
from fairconv.io import FileFormatError, _text, read_qrels, read_run
from fairconv.rankings import prepare


def test_level_dtype_holds_the_limit():
    assert np.iinfo(v.LEVEL_DTYPE).max >= v.LMAX_LIMIT
    assert v.LEVEL_DTYPE.itemsize == 1  # the smallest that holds it: levels take one byte


def test_ntcir_pattern_is_built_from_the_limit():
    top = b"L%d" % v.LMAX_LIMIT
    assert _text.NTCIR_LEVEL.match(top) and not _text.NTCIR_LEVEL.match(b"L%d" % (v.LMAX_LIMIT + 1))
    assert _text.NTCIR_LEVEL.pattern == rb"^L([0-9]{1,2}|100)$"  # the documented form


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"T1 d L%d\n", f"at most L{v.LMAX_LIMIT}"),
        (b"T1 0 d %d\n", f"at most {v.LMAX_LIMIT}"),
    ],
)
def test_a_level_beyond_the_limit_is_refused_naming_it(line, message):
    with pytest.raises(FileFormatError, match=message) as err:
        read_qrels(io.BytesIO(line % (v.LMAX_LIMIT + 1)))
    assert err.value.line == 1
    assert len(read_qrels(io.BytesIO(line % v.LMAX_LIMIT)).levels) == 1


def test_the_top_level_is_stored_as_read():
    qrels = read_qrels(io.BytesIO(b"T1 a L%d\nT1 b L1\n" % v.LMAX_LIMIT))
    run = read_run(io.BytesIO(b"T1 Q0 a 1 2.0 r\nT1 Q0 b 2 1.0 r\nT1 Q0 c 3 0.5 r\n"))
    ranked = prepare(qrels, [run], [])
    assert ranked.level.dtype == v.LEVEL_DTYPE
    assert ranked.level.tolist() == [v.LMAX_LIMIT, 1, 0]


def test_the_documented_limit_is_the_limit():
    """Docstrings that state the level limit state LMAX_LIMIT."""
    import re

    from fairconv import conversation, entities, gfr
    from fairconv.io import _frames

    docs = "\n".join(
        (obj.__doc__ or "")
        for module in (conversation, entities, gfr, _frames)
        for obj in [module, *vars(module).values()]
        if callable(obj) or obj is module
    )
    stated = re.findall(
        r"lmax <= (\d+)|levels? [^.]*?(?:in|at most) 0?\.?\.?(\d+)|\(1\.\.(\d+)\)", docs
    )
    numbers = {int(n) for found in stated for n in found if n}
    assert numbers == {v.LMAX_LIMIT}, numbers
