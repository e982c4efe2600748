"""Command-line commands of :mod:`fairconv.agreement`."""

from __future__ import annotations


def add_commands(sub) -> None:
    """Add this module's subcommands to the ``fairconv`` parser."""
