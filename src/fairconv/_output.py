"""Output files of one command-line run: nothing the user owns is lost.

An output may not be one of the run's inputs, two outputs may not share a path, an
existing file is replaced only where the command allows it, and every file is written
under a temporary name and renamed into place when complete, so an interrupted run
leaves no truncated file.
"""

from __future__ import annotations

import os
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
        self._claimed: dict[str, str] = {}
        for path in planned:
            if path not in (None, "-"):
                self.claim(path)

    def claim(self, path: str, *, force: bool = True) -> None:
        """Reserve ``path`` for one output; UsageError if it clashes."""
        real = os.path.realpath(path)
        if real in self._inputs:
            raise UsageError(
                f"the output {path} is the input {self._inputs[real]}; choose another path"
            )
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
        directory, name = os.path.split(os.path.abspath(path))
        tmp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
        try:
            if text:
                with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                    writer(f)
            else:
                writer(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def figure(self, fig, path: str) -> None:
        """Save a matplotlib figure to ``path`` (format from its extension)."""
        ext = os.path.splitext(path)[1][1:].lower() or "png"
        self.write(path, lambda tmp: fig.savefig(tmp, dpi=150, format=ext), text=False)
        print(f"wrote {path}", file=sys.stderr)
