"""The rules for text files: encoding, control characters, numbers, empty files;
hostile bytes end in an error naming the file. Each rule holds for the library's
readers and for the line-by-line oracle of tests/oracles.py (which agree on generated
files: tests/test_fast_readers.py)."""

import gzip
import io
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairconv.io
import oracles
from fairconv.datasets import path

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


def test_rule1_a_bom_after_the_start_in_the_cli(tmp_path):
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


def test_rule6_an_empty_run_in_the_cli(tmp_path):
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


NEAR = st.lists(
    st.tuples(
        st.sampled_from(["T1", "T2", "T\u00e9", "T1"]),
        st.sampled_from(["a", "b", "c", "a"]),
        st.sampled_from(["L0", "L2", "L-1", "L100", "L101", "2", "-1", "1.0", "1e3", "1_0"]),
    ),
    max_size=6,
)


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
