"""The output rule of every writer: nothing the user owns is lost.

Every function of fairconv that writes a file (``ScoreTable.to_tsv``, ``to_json``,
``TopicTargets.to_tsv``, ``io.write_conversations``, ``io.write_nev``,
``gfrc2.write_clusters``) and the command line's outputs write through this module:

- an open text file is written into, as given;
- a path is written under a temporary name in the same folder and renamed into place
  only when the whole output is written, so a writer that fails part-way (a full disk,
  a bad value found late, an interrupt) leaves the old file, or no file, as it was;
- a file already at the path is an error unless the caller passes ``overwrite=True``;
- what is not a regular file (``/dev/stdout``, a FIFO) is written into, never replaced;
  a symbolic link stays a link (the file it points to is replaced).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections.abc import Callable

from ._validation import check_instance, fail_params

_COUNTER = itertools.count()


def temporary_path(real: str) -> str:
    """A new name beside ``real`` for writing it: hidden, and unique in this process."""
    directory, name = os.path.split(real)
    return os.path.join(directory, f".{name}.{os.getpid()}.{next(_COUNTER)}.tmp")


def is_stream(path) -> bool:
    """Whether ``path`` exists and is not a regular file (a FIFO, a device, a terminal)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def open_text(path, mode: str = "w"):
    """A text file for writing fairconv's outputs: UTF-8, newlines written as LF."""
    return open(path, mode, encoding="utf-8", newline="\n")


def write_output(
    out,
    writer: Callable,
    /,
    *,
    overwrite: bool = False,
    param: str = "out",
    text: bool = True,
) -> None:
    """Call ``writer`` on ``out`` (an open file), or write a new file at the path ``out``.

    Parameters
    ----------
    out : path or open file
        Where to write. A path is written atomically (module docstring).
    writer : callable
        ``writer(f)`` writes the whole output into the open file ``f``; with
        ``text=False``, ``writer(path)`` writes the file at ``path`` itself.
    overwrite : bool
        Replace a file that is already at ``out``; by default that is an error.
    param : str
        The caller's name for ``out``, for messages.
    text : bool
        Open the file for ``writer`` (UTF-8 text), or pass it the path.

    Raises
    ------
    FileExistsError
        A file is at ``out`` and ``overwrite`` is False.
    TypeError
        ``out`` is neither a path nor an open file.
    OSError
        The folder cannot be written; the message names ``out``, not the temporary
        file.
    """
    if hasattr(out, "write"):
        writer(out)
        return
    check_instance(out, (str, os.PathLike), param, what="a path or an open text file")
    given = os.fspath(out)
    if os.path.lexists(given) and not overwrite:
        raise _exists(param, given)
    if is_stream(given):
        _write(given, writer, text, "w")
        return
    real = os.path.realpath(given)  # a link's file is replaced, not the link
    tmp = temporary_path(real)
    try:
        _write(tmp, writer, text, "x")
        _place(tmp, real, overwrite)
    except FileExistsError:
        _remove(tmp)
        if overwrite:
            raise
        raise _exists(param, given) from None
    except OSError as exc:
        _remove(tmp)
        raise OSError(exc.errno, exc.strerror, given) from None
    except BaseException:
        _remove(tmp)
        raise


def _place(tmp: str, real: str, overwrite: bool) -> None:
    """Move the written file into place; without ``overwrite``, never over a file."""
    if overwrite:
        os.replace(tmp, real)
        return
    try:
        os.link(tmp, real)  # fails if a file appeared meanwhile
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if os.path.lexists(real):
            raise FileExistsError(real) from None
        os.replace(tmp, real)
        return
    _remove(tmp)


def _exists(param: str, given: str) -> Exception:
    return fail_params(
        param,
        "name a file that does not exist yet",
        f"a file that exists ({given})",
        hint="pass overwrite=True to replace it",
        error=FileExistsError,
    )


def _write(path: str, writer: Callable, text: bool, mode: str) -> None:
    if text:
        with open_text(path, mode) as f:
            writer(f)
    else:
        if mode == "x":  # reserve the name, then let the writer fill it
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        writer(path)


def _remove(path: str) -> None:
    """Remove a temporary file if it is there: a clean-up never hides the error it follows."""
    with contextlib.suppress(OSError):
        os.remove(path)
