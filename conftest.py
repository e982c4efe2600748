"""The module of the ir_measures extra is imported only where the extra is installed.

It has no doctests; tests_extra/ tests it with the extra installed (.ci/run).
"""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("ir_measures") else ["src/fairconv/ir_measures.py"]
