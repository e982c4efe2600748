"""The output rule of every writer (fairconv._files): atomic, never over a file unasked."""

import io
import os

import pytest

from fairconv._files import write_output


def _writes(text):
    def writer(f):
        f.write(text)

    return writer


def _fails_after(text):
    def writer(f):
        f.write(text)
        raise OSError(28, "No space left on device")

    return writer


def test_a_new_file_is_written(tmp_path):
    out = tmp_path / "scores.tsv"
    write_output(out, _writes("a\tb\n"))
    assert out.read_text() == "a\tb\n"
    assert os.listdir(tmp_path) == ["scores.tsv"]


def test_an_open_file_is_written_into():
    buf = io.StringIO()
    write_output(buf, _writes("x"))
    assert buf.getvalue() == "x"


def test_an_existing_file_is_kept_unless_overwrite(tmp_path):
    out = tmp_path / "scores.tsv"
    out.write_text("old")
    with pytest.raises(FileExistsError, match=r"'out' parameter .* exists .* overwrite=True"):
        write_output(out, _writes("new"))
    assert out.read_text() == "old"
    write_output(out, _writes("new"), overwrite=True)
    assert out.read_text() == "new"


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_writer_failing_part_way_leaves_the_old_file_whole(tmp_path, overwrite):
    out = tmp_path / "scores.tsv"
    if overwrite:
        out.write_text("old")
    with pytest.raises(OSError, match="No space left"):
        write_output(out, _fails_after("half"), overwrite=overwrite)
    assert (out.read_text() == "old") if overwrite else not out.exists()
    assert sorted(os.listdir(tmp_path)) == (["scores.tsv"] if overwrite else [])


def test_an_interrupt_leaves_no_temporary_file(tmp_path):
    def interrupted(f):
        f.write("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_output(tmp_path / "out.json", interrupted)
    assert os.listdir(tmp_path) == []


def test_a_folder_that_is_a_file_is_an_oserror_naming_the_path(tmp_path):
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "out.tsv"
    with pytest.raises(NotADirectoryError) as info:
        write_output(out, _writes("x"))
    assert info.value.filename == str(out)


def test_a_folder_that_does_not_exist_is_an_oserror_naming_the_path(tmp_path):
    out = tmp_path / "missing" / "out.tsv"
    with pytest.raises(FileNotFoundError) as info:
        write_output(out, _writes("x"))
    assert info.value.filename == str(out)


def test_a_link_stays_a_link(tmp_path):
    target = tmp_path / "real.tsv"
    target.write_text("old")
    link = tmp_path / "link.tsv"
    link.symlink_to(target)
    write_output(link, _writes("new"), overwrite=True)
    assert link.is_symlink() and target.read_text() == "new"


def test_a_path_of_the_wrong_kind_is_a_type_error():
    with pytest.raises(TypeError, match="'out' parameter .* a path or an open text file"):
        write_output(3, _writes("x"))
