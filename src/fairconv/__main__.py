"""``python -m fairconv``: the command line of :func:`fairconv.cli.main`."""

import sys

from .cli import run

if __name__ == "__main__":
    sys.exit(run())
