"""Sphinx configuration of the fairconv documentation.

Build it offline with ``pip install -e '.[docs]'`` and
``sphinx-build -W --keep-going -b html docs docs/_build/html``. The pages are the
markdown files of this folder (through myst-parser); the API reference is generated
from the numpydoc docstrings (autosummary and numpydoc). Nothing is fetched: there is
no intersphinx.
"""

import fairconv

project = "fairconv"
author = "fairconv developers"
copyright = "2026, fairconv developers"
release = fairconv.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# markdown: "#section" links of the pages resolve to their headings
myst_heading_anchors = 3

# the API reference: one page per public module, one per public function or class
autosummary_generate = True
autosummary_imported_members = True
autosummary_ignore_module_all = False
autodoc_typehints = "none"
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "alabaster"
html_title = f"fairconv {release}"
html_static_path: list[str] = []
