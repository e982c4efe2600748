"""Output files of one command-line run: nothing the user owns is lost.

An output may not be one of the run's inputs, two outputs may not share a path, an
existing file is replaced only where the command allows it, and every file is written
under a temporary name and renamed into place only when the whole command has
succeeded (:meth:`Outputs.commit`): a run that fails, whatever check fails and however
late, or that is interrupted, leaves every file as it found it (:meth:`Outputs.discard`).
A symbolic link stays a link (the file it points to is replaced), and what is not a
regular file (``/dev/stdout``, a FIFO, a device) is written into, never replaced.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from collections.abc import Callable, Iterable

_STDERR = threading.Lock()


def say(line: str) -> None:
    """Print one line on stderr, whole, whichever thread prints it.

    Notices come from the worker threads of ``-j N`` too: the line and its end are
    one write under a lock, so that two never share a line (print writes them apart).
    """
    text = line.replace("\n", " ") + "\n"
    with _STDERR:
        sys.stderr.write(text)
        sys.stderr.flush()


class UsageError(ValueError):
    """A combination of options or paths that the command refuses."""


class Outputs:
    """The outputs of one command-line run.

    Parameters
    ----------
    inputs : iterable of str
        Every input path of the run.
    planned : iterable of str or None
        Output paths known from the options (``-o``, ``--plot``), claimed at once so
        that a clash is refused before any work is done.
    """

    def __init__(self, inputs: Iterable[str], planned: Iterable[str | None] = ()):
        self._inputs = {os.path.realpath(p): p for p in inputs if p not in (None, "-")}
        self._files = {}  # (device, inode) of each existing input: a hard link is one too
        for real, given in self._inputs.items():
            try:
                st = os.stat(real)
            except OSError:
                continue
            self._files[(st.st_dev, st.st_ino)] = given
        self._claimed: dict[str, str] = {}
        self._pending: list[tuple[str, str, str | None]] = []  # (temporary, real, notice)
        self._made_dirs: list[str] = []  # folders made for outputs, outermost first
        for path in planned:
            if path not in (None, "-"):
                self.claim(path)

    def claim(self, path: str, *, force: bool = True) -> None:
        """Reserve ``path`` for one output; UsageError if it clashes."""
        if not path:
            raise UsageError("an output path is empty")
        real = os.path.realpath(path)
        try:
            st = os.stat(real)
            same = self._files.get((st.st_dev, st.st_ino)) if stat.S_ISREG(st.st_mode) else None
        except OSError:
            same = None
        same = self._inputs.get(real, same)
        if same is not None:
            raise UsageError(f"the output {path} is the input {same}; choose another path")
        if real in self._claimed:
            raise UsageError(f"two outputs would both be written to {path}")
        if not force and os.path.exists(path):
            raise UsageError(f"{path} exists; pass --force to overwrite it")
        self._claimed[real] = path

    def write(
        self,
        path: str | None,
        writer: Callable,
        *,
        force: bool = True,
        mkdir: bool = False,
        text: bool = True,
        notice: str | None = None,
    ) -> None:
        """Write through ``writer(file)`` to ``path``, or to stdout for None or '-'.

        A file is written under a temporary name and moved into place by
        :meth:`commit`; ``notice`` is printed on stderr when it is.
        """
        if path in (None, "-"):
            writer(sys.stdout)
            return
        if os.path.realpath(path) not in self._claimed:
            self.claim(path, force=force)
        if mkdir:
            self._makedirs(os.path.dirname(path) or ".")
        try:
            mode = os.stat(path).st_mode  # through links, /proc/self/fd/1 included
        except FileNotFoundError:
            mode = None
        try:
            if mode is not None and not stat.S_ISREG(mode):  # a stream: written into
                self._write_to(path, writer, text)
                if notice:
                    say(notice)
                return
            real = os.path.realpath(path)  # a link's file is replaced, not the link
            directory, name = os.path.split(real)
            tmp = os.path.join(directory, f".{name}.{os.getpid()}.{len(self._pending)}.tmp")
            self._pending.append((tmp, real, notice))
            self._write_to(tmp, writer, text)
        except OSError as exc:  # named by the user's path, not the temporary one
            raise OSError(exc.errno, exc.strerror, path) from None

    def commit(self) -> None:
        """Move every file written into place: the command has succeeded."""
        pending, self._pending = self._pending, []
        try:
            for k, (tmp, real, notice) in enumerate(pending):
                try:
                    os.replace(tmp, real)
                except OSError as exc:
                    self._pending = pending[k:]
                    raise OSError(exc.errno, exc.strerror, real) from None
                if notice:
                    say(notice)
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove the files written and not committed, and the folders made for them."""
        for tmp, _, _ in self._pending:
            try:
                os.remove(tmp)
            except OSError:  # never made (a folder that cannot be written), or gone
                pass
        self._pending = []
        for folder in reversed(self._made_dirs):
            try:
                os.rmdir(folder)  # only if still empty: a committed file keeps it
            except OSError:
                break
        self._made_dirs = []

    def _makedirs(self, folder: str) -> None:
        missing = []
        while folder and not os.path.isdir(folder):
            missing.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for path in reversed(missing):
            os.mkdir(path)
            self._made_dirs.append(path)

    @staticmethod
    def _write_to(path: str, writer: Callable, text: bool) -> None:
        if text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                writer(f)
        else:
            writer(path)

    def figure(self, fig, path: str) -> None:
        """Save a matplotlib figure to ``path`` (format from its extension)."""
        ext = os.path.splitext(path)[1][1:].lower() or "png"
        self.write(
            path,
            lambda tmp: fig.savefig(tmp, dpi=150, format=ext),
            text=False,
            notice=f"wrote {path}",
        )
