"""Output files of one command-line run: nothing the user owns is lost.

An output may not be one of the run's inputs, two outputs may not share a path, an
existing file is replaced only where the command allows it, and every file is written
under a temporary name and renamed into place when complete, so an interrupted run
leaves no truncated file. A symbolic link stays a link (the file it points to is
replaced), and what is not a regular file (``/dev/stdout``, a FIFO, a device) is
written into, never replaced.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable


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
    ) -> None:
        """Write through ``writer(file)`` to ``path``, or to stdout for None or '-'."""
        if path in (None, "-"):
            writer(sys.stdout)
            return
        if os.path.realpath(path) not in self._claimed:
            self.claim(path, force=force)
        if mkdir:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        try:
            mode = os.stat(path).st_mode  # through links, /proc/self/fd/1 included
        except FileNotFoundError:
            mode = None
        try:
            if mode is not None and not stat.S_ISREG(mode):  # a stream: written into
                self._write_to(path, writer, text)
                return
            real = os.path.realpath(path)  # a link's file is replaced, not the link
            directory, name = os.path.split(real)
            tmp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
            try:
                self._write_to(tmp, writer, text)
                os.replace(tmp, real)
            finally:
                if os.path.exists(tmp):
                    os.remove(tmp)
        except OSError as exc:  # named by the user's path, not the temporary one
            raise OSError(exc.errno, exc.strerror, path) from None

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
        self.write(path, lambda tmp: fig.savefig(tmp, dpi=150, format=ext), text=False)
        print(f"wrote {path}", file=sys.stderr)
