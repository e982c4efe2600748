"""fairconv: relevance and group fairness evaluation for search and conversational systems.

Modules
-------
divergences
    JSD, NMD, RNOD and DistrSim between distributions over groups.
"""

__version__ = "0.1.0"

from .divergences import AttributeSet, distr_sim, jsd, nmd, rnod  # noqa: E402

__all__ = ["AttributeSet", "distr_sim", "jsd", "nmd", "rnod", "__version__"]
