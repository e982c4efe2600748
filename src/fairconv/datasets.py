"""Paths to the data bundled with fairconv (see ``fairconv/data/README.md``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["path"]


def path(*parts: str) -> Path:
    """Path of a bundled file or folder, e.g. ``path("fairweb1-pilot", "runs")``.

    Raises
    ------
    ValueError
        If nothing of that name is bundled.
    """
    p = Path(str(resources.files("fairconv") / "data")).joinpath(*parts)
    if not p.exists():
        raise ValueError(
            f"fairconv bundles no data at {'/'.join(parts)!r}; "
            "see fairconv/data/README.md for what it has."
        )
    return p
