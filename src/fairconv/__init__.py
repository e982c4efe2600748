"""fairconv: relevance and group fairness evaluation for search and conversational systems.

Modules
-------
divergences
    JSD, NMD, RNOD and DistrSim between distributions over groups; ``AttributeSet``.
gfr
    GFR over ranked lists (ERR, iRBU, GF per attribute set).
gfrc, gfrc2
    GFRC (turn-based R and GF) and GFRC2 (word-level expected experience) of
    conversations.
ragfair
    RIGF and ADsim: the group fairness gap from retrieval to generation.
rankfair
    The classic fair-ranking measures (FairRankTune's exposure family and
    meta-metrics, NDKL, IAA, rND/rKL/rRD, FA*IR's prefix score, expected exposure).
nuggets
    Nugget recall and precision from match labels.
stats, agreement
    Significance tests, effect sizes and confidence intervals; rank correlation and
    assessor agreement.
io
    Readers, writers and in-memory inputs (files, DataFrames, dicts, records).
conversation, rankings, results, datasets, entities, plots, ir_measures
    The data layer, score tables, bundled data, entity helpers, figures (the ``plot``
    extra) and the ir_measures integration (the ``ir-measures`` extra).

Each module is imported when first used: ``import fairconv; fairconv.gfr.evaluate(...)``.
"""

import importlib

__version__ = "0.1.0"

from ._validation import FairconvWarning  # noqa: E402
from .divergences import AttributeSet, distr_sim, jsd, nmd, rnod  # noqa: E402

MODULES = (
    "agreement",
    "conversation",
    "datasets",
    "divergences",
    "entities",
    "gfr",
    "gfrc",
    "gfrc2",
    "io",
    "nuggets",
    "plots",
    "ragfair",
    "rankfair",
    "rankings",
    "results",
    "stats",
    "trecfair",
)
"""The modules that need nothing beyond numpy and scipy (``plots`` imports matplotlib
only when it draws)."""

EXTRA_MODULES = {"ir_measures": "ir-measures"}
"""Modules that need an extra to import, and the extra: reachable as attributes, and
left out of ``from fairconv import *``."""

__all__ = [
    "AttributeSet",
    "FairconvWarning",
    "distr_sim",
    "jsd",
    "nmd",
    "rnod",
    "__version__",
    *MODULES,
]


def __getattr__(name: str):
    if name in MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in EXTRA_MODULES:
        try:
            return importlib.import_module(f".{name}", __name__)
        except ImportError as exc:
            # an attribute that cannot be had: hasattr() is False, never an error
            raise AttributeError(
                f"module 'fairconv' has no attribute {name!r}: fairconv.{name} needs the "
                f"{EXTRA_MODULES[name]} extra (pip install 'fairconv[{EXTRA_MODULES[name]}]'; "
                f"{exc})"
            ) from None
    raise AttributeError(f"module 'fairconv' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(MODULES) | set(EXTRA_MODULES))
