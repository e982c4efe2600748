"""fairconv.io._tables: the text table readers (qrels, runs, gmemb, golddistr), their
every rule in one place.

- The readers (array work over the bytes of a file) against the line-by-line oracle of
  tests/oracles.py (one line, one token at a time): on generated files both accept and
  refuse the same inputs, with the same message, and give bit-identical values.
- The rules for text files, for the library and the oracle alike: encoding, BOM,
  control characters, levels, scores and ranks, probabilities, empty files, gz paths and
  file objects; hostile bytes end in an error naming the file.
- The level limit (fairconv._validation.LMAX_LIMIT, LEVEL_DTYPE): the readers' patterns,
  messages and stored levels follow it; gmemb entries are checked before any sum; the
  reserved topic id ``all`` is refused naming file:line."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import fairconv.io
import oracles
from commandline import cli_error
from fairconv import _validation as v
from fairconv import gfr
from fairconv._accel import _bytes, _keys
from fairconv.datasets import path
from fairconv.io import (
    FileFormatError,
    _tables,
    _text,
    load_attribute,
    read_gmemb,
    read_qrels,
    read_run,
)
from fairconv.rankings import prepare

# --------------------------------------------------------------------------- tokens
TOPICS = st.sampled_from([b"T1", b"T2", b"10", b"T\xc3\xa9", b"#T", b"\xef\xbb\xbfT1"])
DOCS = st.one_of(
    st.sampled_from([b"a", b"b", b"clueweb22-en0000-00-00000", b"d\xc3\xa9"]),
    st.text(
        st.characters(min_codepoint=33, max_codepoint=0x2FF, exclude_categories=("Cc", "Zs")),
        min_size=1,
        max_size=6,
    ).map(str.encode),  # fmt: skip
    st.binary(min_size=1, max_size=3).filter(lambda b: not any(c <= 32 for c in b)),
    st.integers(250, 300).map(lambda n: b"x" * n),  # longer than the pad: ragged route
)
NUMBERS = st.one_of(
    st.sampled_from(
        [
            b"0",
            b"1",
            b"0.5",
            b"-0.000",
            b"+.5",
            b"5.",
            b".",
            b"-",
            b"1e-3",
            b"1E+2",
            b"1_0",
            b"inf",
            b"nan",
            b"0x10",
            b"1e999",
            b"00012.50",
            b"123456789012345",
            b"1234567890123456",
            b"0.1000000000000000055511",
            b"9" * 30,
            b"1.2.3",
            b"--1",
        ]
    ),  # fmt: skip
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: repr(x).encode()),
    st.tuples(st.integers(0, 10**17), st.integers(0, 18), st.sampled_from([b"", b"-", b"+"])).map(
        lambda t: t[2] + _place_dot(str(t[0]), t[1])
    ),
)
SEPARATORS = st.sampled_from([b" ", b"\t", b"  ", b" \t"])


def _place_dot(digits: str, k: int) -> bytes:
    k = min(k, len(digits))
    return (
        (digits[: len(digits) - k] + "." + digits[len(digits) - k :]).encode()
        if k
        else digits.encode()
    )


def lines_of(row):
    """A file of rows built by ``row``, with blank and comment lines, CRLF, a BOM..."""
    line = st.one_of(
        row,
        row,
        row,
        st.just([b""]),
        st.just([b"#", b"a", b"comment"]),
        st.just([b"#x"]),
    )

    @st.composite
    def build(draw):
        lines = draw(st.lists(line, min_size=1, max_size=7))
        sep = draw(SEPARATORS)
        eol = draw(st.sampled_from([b"\n", b"\r\n"]))
        text = eol.join(
            draw(st.sampled_from([b"", b" "]))
            + sep.join(tokens)
            + draw(st.sampled_from([b"", b"\t"]))
            for tokens in lines
        )
        bom = b"\xef\xbb\xbf" if draw(st.booleans()) else b""
        return bom + text + (eol if draw(st.booleans()) else b"")

    return build()


NTCIR_LEVELS = [b"L0", b"L2", b"L100", b"L101", b"L", b"L-1", b"L01", b"L099", b"2", b"L0100",
                b"L000100", b"L00"]  # fmt: skip
TREC_LEVELS = [b"0", b"1", b"-1", b"100", b"101", b"-5", b"x", b"007", b"", b"0100", b"-0100",
               b"0" * 17 + b"100"]  # fmt: skip
QRELS = st.one_of(
    st.tuples(TOPICS, DOCS, st.sampled_from(NTCIR_LEVELS)),
    st.tuples(TOPICS, st.just(b"0"), DOCS, st.sampled_from(TREC_LEVELS)),
).map(lambda t: [x for x in t if x])
GMEMB = st.tuples(
    TOPICS,
    DOCS,
    st.sampled_from(
        [
            [b"0.5", b"0.5"],
            [b"0.25", b"0.75"],
            [b"1", b"0"],
            [b"1e-1", b"0.9"],
            [b".5", b"5e-1"],
            [b"0.1000000000000000055511", b"0.9"],
            [b"0.5", b"0.6"],
            [b"x", b"1"],
            [b"0.5"],
        ]
    ),  # fmt: skip
).map(lambda t: [t[0], t[1], *t[2]])
RUN = st.tuples(
    TOPICS,
    st.sampled_from([b"Q0", b"Q0", b"0", b"1", b"#s", b"s\xc3\xa9"]),  # the sample id
    DOCS,
    st.sampled_from([b"1", b"2", b"0", b"-1", b"1.0", b"9" * 18, b"9" * 19, b"007"]),
    NUMBERS,
    st.sampled_from([b"tag", b"other"]),
).map(list)
GOLD = st.tuples(NUMBERS).map(list)


# --------------------------------------------------------------------------- library and oracle
def _canonical(value):
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SO":
            return [bytes(x) for x in value.tolist()]
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, _tables._Keyed):
        fields = {k: _canonical(v) for k, v in vars(value).items() if k != "doc_hashes"}
        fields["lines"] = (
            [value.line(i) for i in range(len(value.docs))] if hasattr(value, "line") else None
        )
        return fields
    return value


# the step sizes of every loop over steps of a file, and tiny ones that split a
# generated file into many steps (a step boundary inside a token, a row, a line)
STEPS = [(_bytes, "_CHUNK"), (_bytes, "_ROWS"), (_keys, "_ROWS"), (_text, "_STEP")]
TINY = (5, 3, 2, 7)


def outcome(read, data: bytes, tiny: bool = False):
    """("ok", the canonical value) or ("error", the message) of ``read`` on ``data``."""
    old = [getattr(m, name) for m, name in STEPS]
    if tiny:
        for (m, name), size in zip(STEPS, TINY, strict=True):
            setattr(m, name, size)
    try:
        stream = io.BytesIO(data)
        stream.name = "f.txt"
        return ("ok", _canonical(read(stream)))
    except ValueError as exc:
        return ("error", str(exc))
    finally:
        for (m, name), size in zip(STEPS, old, strict=True):
            setattr(m, name, size)


def same_as_the_oracle(kind, data):
    """The library's outcome, which must be the oracle's, in steps of any size."""
    library, oracle, _ = READERS[kind]
    expected = outcome(oracle, data)
    assert outcome(library, data) == expected
    assert outcome(library, data, tiny=True) == expected
    return expected


READERS = {
    "qrels": (fairconv.io.read_qrels, oracles.read_qrels, QRELS),
    "gmemb": (fairconv.io.read_gmemb, oracles.read_gmemb, GMEMB),
    "golddistr": (fairconv.io.read_golddistr, oracles.read_golddistr, GOLD),
    "run": (fairconv.io.read_run, oracles.read_run, RUN),
}


@pytest.mark.parametrize("kind", list(READERS))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_readers_agree_with_the_line_by_line_oracle(kind, data):
    same_as_the_oracle(kind, data.draw(lines_of(READERS[kind][2])))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120), st.sampled_from(list(READERS)))
def test_on_random_bytes_the_readers_agree_with_the_oracle(data, kind):
    same_as_the_oracle(kind, data)


@pytest.mark.parametrize("kind", list(READERS))
@pytest.mark.parametrize("wanted", ["ok", "error"])
def test_the_generated_files_reach_both_outcomes(kind, wanted):
    """The strategies above make readable files and broken ones, for every reader."""
    library, _, row = READERS[kind]
    find(
        lines_of(row),
        lambda d: outcome(library, d)[0] == wanted,
        settings=settings(max_examples=2000, database=None),
    )


@pytest.mark.parametrize(
    "kind, data, message",
    [
        ("qrels", b"T1 a L1\nT1 b L1 x\n", "f.txt:2: expected 3 columns in this qrels line"),
        ("qrels", b"# c\n\nT1 a L1\n\n  \r\nT1 b\n", "f.txt:6: expected 3 columns"),
        ("qrels", b"T1 a\n", "f.txt:1: expected NTCIR qrels"),
        ("run", b"T1 Q0 a 1 2\n", "f.txt:1: expected 6 columns in this run line, found 5"),
        ("run", b"T1 Q0 a 1 2 t\r\n\r\nT1 Q0 b 2 1 t u\r\n", "f.txt:3: expected 6 columns"),
        ("gmemb", b"\n# x\nT1 a 1\n", "f.txt:3: a gmemb line needs at least 4 columns; found 3"),
        ("gmemb", b"T1 a 1 0\nT1 b 1 0 0\n", "f.txt:2: expected 4 columns in this gmemb line"),
        ("golddistr", b"0.5\n0.25 0.25\n", "f.txt:2: expected 1 columns in this golddistr line"),
        ("golddistr", b"#\n\n", "f.txt: the file is empty (no golddistr rows)"),
    ],
)  # fmt: skip
def test_the_tokeniser_names_the_first_line_of_another_width(kind, data, message):
    """The widths of every line are counted as array work: the first one off is named."""
    assert same_as_the_oracle(kind, data)[1].startswith(message)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=12),
    st.lists(st.sampled_from([b"", b"# c", b"  ", b"\r"]), max_size=12),
    st.sampled_from([None, 3]),
    st.integers(1, 4),
)
def test_the_first_line_of_another_width_is_the_oracles(widths, extra, ncols, min_cols):
    """Rows of random widths among blank and comment lines: the line the tokeniser names
    (or the rows it gives) are those of the line-by-line rule."""
    lines = [b" ".join(b"t%d" % k for k in range(w)) for w in widths]
    for i, x in enumerate(extra):
        lines.insert((3 * i) % (len(lines) + 1), x)
    data = b"\n".join(lines)
    stream = io.BytesIO(data)
    stream.name = "f.txt"
    try:
        rows = _text.split_rows(stream, ncols, "t", min_cols)
        got = ("ok", [rows.line(i) for i in range(len(rows))], rows.width)
    except ValueError as exc:
        got = ("error", str(exc))
    try:
        _, expected_rows = oracles._rows(io.BytesIO(data), "t", ncols, min_cols)
        expected = ("ok", [n for n, _ in expected_rows], len(expected_rows[0][1]))
    except ValueError as exc:
        expected = ("error", str(exc).replace("<stream>", "f.txt"))
    assert got == expected


# integers as they are written: an L or a sign, leading zeros, digits
INTEGER_TOKENS = st.builds(
    lambda lead, zeros, digits: lead + b"0" * zeros + digits,
    st.sampled_from([b"", b"L", b"-", b"+", b"L-", b"L+", b"-L", b"--"]),
    st.integers(0, 20),
    st.one_of(
        st.sampled_from([b"", b"0", b"1", b"2", b"99", b"100", b"101", b"999"]),
        st.integers(0, 10**20).map(lambda n: str(n).encode()),
    ),
).filter(bool)
INTEGER_ROWS = {
    "NTCIR level": ("qrels", b"T1 d%d %s"),
    "TREC level": ("qrels", b"T1 0 d%d %s"),
    "rank": ("run", b"T1 Q0 d%d %s 1.5 tag"),
}


@settings(max_examples=500, deadline=None)
@given(st.lists(INTEGER_TOKENS, min_size=1, max_size=6), st.sampled_from(list(INTEGER_ROWS)))
def test_integer_tokens_read_as_the_oracle_reads_them(tokens, column):
    """Leading zeros, digit counts and signs: the array route takes what the rule takes."""
    kind, row = INTEGER_ROWS[column]
    same_as_the_oracle(kind, b"".join(row % (i, t) + b"\n" for i, t in enumerate(tokens)))


@pytest.mark.parametrize(
    "column, token",
    [("NTCIR level", t) for t in (b"L0100", b"L000100", b"L0001", b"L00", b"L099", b"L100")]
    + [("TREC level", t) for t in (b"0100", b"-0100", b"0" * 18 + b"1", b"-" + b"0" * 18)]
    + [("rank", t) for t in (b"0" * 18, b"0" * 19, b"+1", b"-0")],
)
def test_integer_forms_read_as_the_oracle_reads_them(column, token):
    kind, row = INTEGER_ROWS[column]
    same_as_the_oracle(kind, row % (1, token) + b"\n")


def test_exponents_and_long_decimals_read_as_float_reads_them():
    run = fairconv.io.read_run(
        io.BytesIO(b"T1 Q0 a 1 1e-3 t\nT1 Q0 b 2 2.5E+4 t\nT1 Q0 c 3 " + b"1" * 20 + b" t\n")
    )
    assert run.scores.tolist() == [1e-3, 2.5e4, float("1" * 20)]
    with pytest.raises(ValueError, match="f.txt:2: the score .* found '1e999'"):
        stream = io.BytesIO(b"T1 Q0 a 1 1e-3 t\nT1 Q0 b 2 1e999 t\n")
        stream.name = "f.txt"
        fairconv.io.read_run(stream)


# --------------------------------------------------------------------------- numbers
def _column(tokens):
    """A padded buffer holding the tokens, one per line, and their bounds."""
    data = b"\n".join(tokens)
    buf = _bytes.padded(data)
    starts, ends = _bytes.bounds(buf)
    return buf, starts, ends


@given(st.lists(NUMBERS.filter(lambda b: b != b""), min_size=1, max_size=50))
def test_decimals_are_the_doubles_float_gives(tokens):
    buf, starts, ends = _column(tokens)
    assert len(starts) == len(tokens)
    values, ok = _bytes.decimals(buf, starts, ends)
    for token, value, good in zip(tokens, values.tolist(), ok.tolist(), strict=True):
        if good:
            assert oracles.DECIMAL.match(token)
            assert np.float64(value).tobytes() == np.float64(float(token)).tobytes(), token


@given(st.integers(0, 10**15 - 1), st.integers(0, 15), st.sampled_from([b"", b"-", b"+"]))
def test_every_decimal_of_at_most_15_digits_takes_the_fast_route(mantissa, k, sign):
    token = sign + _place_dot(str(mantissa), k)
    values, ok = _bytes.decimals(*_column([token]))
    assert ok[0]
    assert np.float64(values[0]).tobytes() == np.float64(float(token)).tobytes()


@given(st.lists(st.binary(min_size=1, max_size=20).filter(lambda b: not any(c <= 32 for c in b)),
                min_size=1, max_size=30))  # fmt: skip
def test_unsigned_agrees_with_int(tokens):
    values, ok = _bytes.unsigned(*_column(tokens), 18)
    for token, value, good in zip(tokens, values.tolist(), ok.tolist(), strict=True):
        expected = token.isdigit() and len(token) <= 18
        assert good == expected, token
        if good:
            assert value == int(token)


# --------------------------------------------------------------------------- strings
def test_ragged_ids_are_object_arrays_and_join_like_fixed_ones():
    from fairconv._accel import KeyTable

    long = b"y" * 400
    q = fairconv.io.read_qrels(io.BytesIO(b"T1 a L1\nT1 " + long + b" L2\n"))
    assert q.docs.dtype == object and q.docs.tolist() == [b"a", long]
    run = fairconv.io.read_run(io.BytesIO(b"T1 Q0 " + long + b" 1 2 t\nT1 Q0 a 2 1 t\n"))
    table = KeyTable(q.topic_ids, q.docs)
    assert table.find(np.zeros(2, np.int64), run.docs).tolist() == [1, 0]


def test_fixed_width_strings_hold_no_bytes_beyond_a_token():
    buf, starts, ends = _column([b"abc", b"a", b"abcdef"])
    s = _bytes.strings(buf, starts, ends)
    assert s.dtype == np.dtype("S8") and s.tolist() == [b"abc", b"a", b"abcdef"]
    assert s.view(np.uint8).reshape(3, 8)[1, 1:].tolist() == [0] * 7


@pytest.mark.parametrize("read", [fairconv.io.read_run, oracles.read_run])
def test_line_numbers_count_blank_comment_and_crlf_lines(read):
    data = b"\xef\xbb\xbf\r\n# c\r\n\r\nT1 Q0 a 1 1 t\r\n\r\n  \r\nT1 Q0 b 2 x t\r\n"
    assert outcome(read, data) == (
        "error",
        "f.txt:7: the score (5th column) of a run line must be a finite number; found 'x'",
    )


def test_an_empty_line_tail_and_leading_spaces_keep_line_numbers():
    run = fairconv.io.read_run(io.BytesIO(b"  \n\nT1 Q0 a 1 1 t\nT1 Q0 b 2 1 t"))
    assert [run.line(i) for i in range(2)] == [3, 4]


def test_mostly_short_ids_with_some_long_ones_read_as_bytes_objects():
    """Padding every id to the longest would cost more than the text: object docs."""
    ids = [b"d%d" % i if i % 2000 else b"L%d" % i + b"x" * 200 for i in range(20_000)]
    data = b"".join(b"T1 " + d + b" L1\n" for d in ids)
    q = fairconv.io.read_qrels(io.BytesIO(data))
    assert q.docs.dtype == object and q.docs.tolist() == ids
    assert same_as_the_oracle("qrels", data)[0] == "ok"


_BYTE_EDGES = [bytes([b]) for b in (0, 8, 9, 10, 11, 12, 13, 14, 31, 32, 65, 126, 127, 128, 255)]


@settings(max_examples=300)
@given(
    st.one_of(st.binary(max_size=64), st.lists(st.sampled_from(_BYTE_EDGES)).map(b"".join)),
    st.integers(1, 9),
    st.sampled_from([b"", b"ab c\n", b"\t\r\n"]),
)
def test_the_array_byte_check_is_the_text_byte_rule(data, step, text):
    """_plain_text says 'plain' exactly for ASCII with no control byte but tab, LF, CR.

    Steps of a few bytes put the bad byte at every place within and across steps.
    """
    data = text * 3 + data + text
    allowed = set(range(32, 127)) | {9, 10, 13}  # printable ASCII, tab, LF, CR
    want = all(b in allowed for b in data)
    before = _text._STEP
    _text._STEP = step
    try:
        got = _text._plain_text(np.frombuffer(data, dtype=np.uint8))
    finally:
        _text._STEP = before
    assert got is want


@given(
    st.lists(st.binary(min_size=1, max_size=40).filter(lambda t: min(t) > 32), min_size=1),
    st.booleans(),
    st.integers(0, 2),
)
def test_fixed_width_tokens_are_their_bytes_then_zeros(tokens, one_length, extra_words):
    """Every byte of _fixed's items: the token's, then zeros up to any width >= it."""
    if one_length:
        tokens = [(t * 40)[: len(tokens[0])] for t in tokens]
    buf = _bytes.padded(b" ".join(tokens))
    starts, ends = _bytes.bounds(buf)
    w = (-(-max(map(len, tokens)) // 8) + extra_words) * 8
    got = _bytes._fixed(buf, starts, ends - starts, w)
    want = b"".join(t + b"\0" * (w - len(t)) for t in tokens)
    assert got.dtype == np.dtype(f"S{w}") and got.tobytes() == want


PILOT = path("fairweb1-pilot")


@pytest.fixture(scope="module", params=["library", "oracle"])
def readers(request):
    """The readers under test: fairconv's, or the line-by-line oracle's."""
    return fairconv.io if request.param == "library" else oracles


def cli_gfr(qrels, gmemb, run):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "gfr", "--qrels", str(qrels), "--attribute", "A",
         str(gmemb), "0.5,0.5", "nominal", str(run)],
        capture_output=True, text=True,
    )  # fmt: skip
    return proc.returncode, proc.stdout, proc.stderr


def write(tmp_path, name, data: bytes):
    f = tmp_path / name
    f.write_bytes(data)
    return f


GOOD_Q = b"T1 a L2\nT1 b L0\nT2 c L1\n"


GOOD_G = b"T1 a 1 0\nT1 b 0.5 0.5\nT2 c 0 1\n"


GOOD_R = b"T1 Q0 a 1 2.0 x\nT1 Q0 b 2 1.0 x\nT2 Q0 c 1 1.0 x\n"


NEAR = st.lists(
    st.tuples(
        st.sampled_from(["T1", "T2", "T\u00e9", "T1"]),
        st.sampled_from(["a", "b", "c", "a"]),
        st.sampled_from(["L0", "L2", "L-1", "L100", "L101", "2", "-1", "1.0", "1e3", "1_0"]),
    ),
    max_size=6,
)


# --------------------------------------------------------------------------- rule 1
def test_rule1_a_bom_is_skipped_and_changes_no_score(tmp_path):
    plain = cli_gfr(write(tmp_path, "q", GOOD_Q), write(tmp_path, "g", GOOD_G),
                    write(tmp_path, "r", GOOD_R))  # fmt: skip
    bom = b"\xef\xbb\xbf"
    with_bom = cli_gfr(write(tmp_path, "qb", bom + GOOD_Q), write(tmp_path, "gb", bom + GOOD_G),
                       write(tmp_path, "rb", bom + GOOD_R))  # fmt: skip
    assert plain[0] == with_bom[0] == 0
    assert plain[1] == with_bom[1]


@pytest.mark.parametrize(
    "bad, what",
    [
        (b"\xff", "not UTF-8"),
        (b"\xc3", "not UTF-8"),
        (b"\x00", "control character"),
        (b"\x0b", "control character"),
        (b"\x0c", "control character"),
        (b"\x1f", "control character"),
        (b"\x7f", "control character"),
        (b"\xc2\x85", "control character"),
        (b"\xe2\x80\xa8", "control character"),
    ],
)
@pytest.mark.parametrize("which", ["qrels", "gmemb", "run"])
def test_rule1_bad_bytes_are_errors_naming_file_and_line(tmp_path, bad, what, which):
    files = {"qrels": GOOD_Q, "gmemb": GOOD_G, "run": GOOD_R}
    lines = files[which].split(b"\n")
    lines[1] = lines[1].replace(b"b", b"b" + bad, 1)
    files[which] = b"\n".join(lines)
    paths = {k: write(tmp_path, k, v) for k, v in files.items()}
    code, out, err = cli_gfr(paths["qrels"], paths["gmemb"], paths["run"])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"{paths[which]}:2:" in err and what in err


@pytest.mark.parametrize(
    "data, line",
    [
        (b"\xef\xbb\xbfT1 a L2\n\xef\xbb\xbfT1 b L1\n", 2),  # cat of two files with a BOM
        (b"T1 a L2\nT1 b L1\n\xef\xbb\xbfT2 c L1\n", 3),
        (b"T1 a L2\nT1 b\xef\xbb\xbf L1\n", 2),
        (b"\xef\xbb\xbf\xef\xbb\xbfT1 a L2\n", 1),
        (b"T1 a L2\n# \xef\xbb\xbf in a comment\n", 2),
    ],
)
def test_rule1_a_bom_after_the_start_is_an_error_naming_file_and_line(
    tmp_path, data, line, readers
):
    """It would be an invisible part of a token: a second topic that looks like the first."""
    with pytest.raises(ValueError, match=rf"q:{line}: a byte-order mark \(U\+FEFF\) is allowed"):
        readers.read_qrels(write(tmp_path, "q", data))


def test_rule1_a_bom_after_the_start_in_thecli_error(tmp_path):
    bom = b"\xef\xbb\xbf"
    q = write(tmp_path, "q", bom + GOOD_Q + bom + GOOD_Q.replace(b"T", b"U"))
    code, out, err = cli_gfr(q, write(tmp_path, "g", GOOD_G), write(tmp_path, "r", GOOD_R))
    assert code == 2 and out == "" and f"{q}:4: a byte-order mark" in err, err


def test_rule1_topics_that_are_not_utf8_never_merge(tmp_path, readers):
    """Two topic ids that a replacing decoder would both turn into U+FFFD."""
    q = write(tmp_path, "q", b"T\xff a L2\nT\xfe b L2\n")
    with pytest.raises(ValueError, match=r"q:1: the line is not UTF-8"):
        readers.read_qrels(q)


def test_rule1_crlf_and_tabs_are_whitespace(tmp_path, readers):
    crlf = readers.read_qrels(
        write(tmp_path, "q", GOOD_Q.replace(b"\n", b"\r\n").replace(b" ", b"\t"))
    )
    plain = readers.read_qrels(write(tmp_path, "p", GOOD_Q))
    assert crlf.topics == plain.topics and crlf.docs.tolist() == plain.docs.tolist()
    np.testing.assert_array_equal(crlf.levels, plain.levels)


# --------------------------------------------------------------------------- rule 2
@pytest.mark.parametrize(
    "qrels, message",
    [
        (b"T1 a L-1\n", "L0, L1, L2"),
        (b"T1 a L101\n", "at most L100"),
        (b"T1 a L1_0\n", "L0, L1, L2"),
        (b"T1 a 2\n", "L0, L1, L2"),
        (b"T1 0 a 1.0\n", "must be an integer"),
        (b"T1 0 a 1_0\n", "must be an integer"),
        (b"T1 0 a 99999999999999999999999\n", "must be an integer"),
        (b"T1 0 a 101\n", "at most 100"),
    ],
)
def test_rule2_levels(tmp_path, qrels, message, readers):
    with pytest.raises(ValueError, match=r"q:1: .*" + message):
        readers.read_qrels(write(tmp_path, "q", qrels))


def test_rule2_negative_trec_levels_are_nonrelevant(tmp_path, readers):
    q = readers.read_qrels(write(tmp_path, "q", b"T1 0 a -2\nT1 0 b 2\n"))
    assert q.levels.tolist() == [0, 2]


@pytest.mark.parametrize(
    "line, message",
    [
        (b"T1 Q0 a 1 inf x", "finite number"),
        (b"T1 Q0 a 1 nan x", "finite number"),
        (b"T1 Q0 a 1 1_0 x", "finite number"),
        (b"T1 Q0 a 1 1e999 x", "finite number"),
        (b"T1 Q0 a 1 0x10 x", "finite number"),
        (b"T1 Q0 a -1 1.0 x", "integer >= 0"),
        (b"T1 Q0 a 1.5 1.0 x", "integer >= 0"),
    ],
)
def test_rule2_scores_and_ranks(tmp_path, line, message, readers):
    with pytest.raises(ValueError, match=r"r:2: .*" + message):
        readers.read_run(write(tmp_path, "r", b"T1 Q0 z 0 1e-05 x\n" + line + b"\n"))


def test_rule2_exponents_and_zero_based_ranks_are_read(tmp_path, readers):
    run = readers.read_run(write(tmp_path, "r", b"T1 Q0 a 0 1e-05 x\nT1 Q0 b 1 -2.5E+3 x\n"))
    assert run.scores.tolist() == [1e-05, -2500.0]


@pytest.mark.parametrize("row", [b"T1 a 0.5 inf", b"T1 a 0.5 nan", b"T1 a 1_0 0"])
def test_rule2_probabilities(tmp_path, row, readers):
    with pytest.raises(ValueError, match=r"g:1: .*finite number"):
        readers.read_gmemb(write(tmp_path, "g", row + b"\n"))


# --------------------------------------------------------------------------- rule 6
@pytest.mark.parametrize("content", [b"", b"\n\n", b"# a comment\n\n"])
@pytest.mark.parametrize("reader", ["read_qrels", "read_gmemb", "read_run", "read_golddistr"])
def test_rule6_a_file_without_records_is_an_error(tmp_path, content, reader, readers):
    with pytest.raises(ValueError, match=r"f: the file is empty"):
        getattr(readers, reader)(write(tmp_path, "f", content))


def test_rule6_an_empty_run_in_thecli_error(tmp_path):
    code, _, err = cli_gfr(write(tmp_path, "q", GOOD_Q), write(tmp_path, "g", GOOD_G),
                           write(tmp_path, "r", b""))  # fmt: skip
    assert code == 2 and f"{tmp_path / 'r'}: the file is empty" in err


# --------------------------------------------------------------------------- inputs
def test_gz_paths_and_file_objects_read_the_same(tmp_path, readers):
    plain = readers.read_run(PILOT / "runs" / "run.bm25-depThre6")
    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress((PILOT / "runs" / "run.bm25-depThre6").read_bytes()))
    for other in (readers.read_run(gz), readers.read_run(io.BytesIO(gz.read_bytes() and
                  (PILOT / "runs" / "run.bm25-depThre6").read_bytes()))):  # fmt: skip
        assert other.docs.tolist() == plain.docs.tolist() and other.name == plain.name
        np.testing.assert_array_equal(other.scores, plain.scores)
    bad = write(tmp_path, "bad.gz", b"not gzip")
    with pytest.raises(ValueError, match="bad.gz: is not a readable gzip file"):
        readers.read_run(bad)


# --------------------------------------------------------------------------- fuzz
@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(["qrels", "gmemb", "golddistr", "run"]))
def test_random_bytes_end_in_a_result_or_an_error_naming_the_file(readers, data, kind):
    reader = {"qrels": readers.read_qrels, "gmemb": readers.read_gmemb,
              "golddistr": readers.read_golddistr, "run": readers.read_run}[kind]  # fmt: skip
    f = io.BytesIO(data)
    f.name = "fuzz.txt"
    try:
        reader(f)
    except ValueError as exc:
        assert str(exc).startswith("fuzz.txt"), str(exc)


@settings(max_examples=150, deadline=None)
@given(NEAR)
def test_near_valid_qrels_end_in_a_result_or_an_error_naming_the_line(readers, rows):
    text = "\n".join(" ".join(r) for r in rows)
    f = io.BytesIO(text.encode())
    f.name = "q.txt"
    try:
        q = readers.read_qrels(f)
    except ValueError as exc:
        assert str(exc).startswith("q.txt"), str(exc)
    else:
        assert (q.levels >= 0).all() and (q.levels <= 100).all()


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


@pytest.mark.parametrize("row", ["1e308 1e308", "1.7e308 1.7e308 -1.7e308", "0.5 1e308"])
def test_overflow_warnings_gmemb_entries_checked_before_summing(tmp_path, row):
    f = tmp_path / "x.gmemb"
    f.write_text(f"P002 d0 0.5 0.5 {'0 ' * (row.count(' ') - 1)}\nP002 d1 {row}\n")
    message = f"{f}:2: group probabilities must be finite, in [0, 1] and sum to 1"
    with pytest.raises(ValueError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        read_gmemb(f)
    golddistr = tmp_path / "t.golddistr"
    n = row.count(" ") + 1
    golddistr.write_text("\n".join([f"{1 / n!r}"] * n) + "\n")
    proc = subprocess.run(
        [
            sys.executable, "-W", "error", "-m", "fairconv", "gfr",
            "--qrels", str(PILOT / "fairweb1pilot.qrels"),
            "--attribute", "X", str(f), str(golddistr), "nominal",
            str(PILOT / "runs" / "run.bm25-depThre6"),
        ],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


RULE = "the topic id 'all' is reserved for the mean over topics in score files"


def _gfr(qrels, gmemb, run):
    return (
        "gfr", "--qrels", qrels, "--attribute", "X", gmemb, PILOT / "M-ORIGIN.golddistr",
        "nominal", run,
    )  # fmt: skip


def _pilot_with_all(tmp_path, name, src, line):
    lines = src.read_text().splitlines()
    lines[line - 1] = "all " + lines[line - 1].split(maxsplit=1)[1]
    f = tmp_path / name
    f.write_text("\n".join(lines) + "\n")
    return f


@pytest.mark.parametrize(
    ("kind", "reader", "src"),
    [
        ("qrels", read_qrels, PILOT / "fairweb1pilot.qrels"),
        ("gmemb", read_gmemb, PILOT / "fairweb1pilot.M-ORIGIN.gmemb"),
        ("run", read_run, PILOT / "runs" / "run.bm25-depThre6"),
    ],
)
def test_reserved_topic_in_text_inputs(tmp_path, kind, reader, src):
    f = _pilot_with_all(tmp_path, kind, src, 3)
    with pytest.raises(ValueError, match=f"^{f}:3: {RULE}"):
        reader(f)
    files = {
        "qrels": PILOT / "fairweb1pilot.qrels",
        "gmemb": PILOT / "fairweb1pilot.M-ORIGIN.gmemb",
        "run": PILOT / "runs" / "run.bm25-depThre6",
    }
    files[kind] = f
    assert f"{f}:3: {RULE}" in cli_error(*_gfr(files["qrels"], files["gmemb"], files["run"]))


# --------------------------------------------------------------------------- edge cases
def _files(tmp_path, qrels, gmemb, run):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "g").write_text(gmemb)
    (tmp_path / "r").write_text(run)
    return tmp_path / "q", tmp_path / "g", tmp_path / "r"


def _gfr_of_files(tmp_path, qrels, gmemb, run, **kw):
    q, g, r = _files(tmp_path, qrels, gmemb, run)
    data = load_attribute("A", g, [0.5, 0.5], "nominal")
    return gfr.evaluate(read_qrels(q), [read_run(r)], [data], **kw)


def test_trec_qrels_are_read(tmp_path):
    t = _gfr_of_files(
        tmp_path, "T1 0 a 2\nT1 0 b -2\n", "T1 a 1 0\n", "T1 Q0 b 1 1 x\nT1 Q0 a 2 1 x\n"
    )
    assert t.value("x", "T1", "ERR") == pytest.approx(0.75 / 2)


@pytest.mark.parametrize(
    "qrels, gmemb, run, message",
    [
        (
            "T1 a L2\n",
            "T1 a 0.5 0.4\n",
            "T1 Q0 a 1 1 x\n",
            r"g:1: group probabilities must .* sum 0\.9",
        ),
        (
            "T1 a L2\n",
            "T1 a 0.5 0.25 0.25\n",
            "T1 Q0 a 1 1 x\n",
            r"g:1: expected 2 group probabilities",
        ),
        ("T1 a L2\n", "T1 a 1 0\nT1 b 1\n", "T1 Q0 a 1 1 x\n", r"g:2: expected 4 columns"),
        ("T1 a L2\n", "T1 a 1 x\n", "T1 Q0 a 1 1 x\n", r"g:1: the group probability .* 'x'"),
        (
            "T1 a L2\n",
            "T1 a 1 0\nT1 a 1 0\n",
            "T1 Q0 a 1 1 x\n",
            r"g:2: doc 'a' of topic 'T1' is listed twice",
        ),
        (
            "T1 a L2\nT1 a L1\n",
            "T1 a 1 0\n",
            "T1 Q0 a 1 1 x\n",
            r"q:2: doc 'a' of topic 'T1' is judged twice",
        ),
        (
            "T1 a 2\n",
            "T1 a 1 0\n",
            "T1 Q0 a 1 1 x\n",
            r"q:1: an NTCIR qrels level must look like L0",
        ),
        (
            "T1 a L3\n",
            "T1 a 1 0\n",
            "T1 Q0 a 1 1 x\n",
            r"q:1: level L3 but the gain table covers levels 1\.\.2",
        ),
        ("T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 1 x\nT1 Q0 b 2\n", r"r:2: expected 6 columns"),
        ("T1 a L2\n", "T1 a 1 0\n", "T1 Q0 a 1 high x\n", r"r:1: the score .* 'high'"),
        (
            "# judged\nT1 a L2\n\nT1 b L\n",
            "T1 a 1 0\n",
            "T1 Q0 a 1 1 x\n",
            r"q:4: an NTCIR qrels level",
        ),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, qrels, gmemb, run, message):
    with pytest.raises(ValueError, match=message):
        _gfr_of_files(tmp_path, qrels, gmemb, run)


def test_comments_and_blank_lines_are_ignored(tmp_path):
    t = _gfr_of_files(tmp_path, "# qrels\nT1 a L2\n\n", "T1 a 1 0\n", "\nT1 Q0 a 1 1 x\n# end\n")
    assert t.value("x", "T1", "ERR") == 0.75
