"""Sphinx configuration of the fairconv documentation.

Build it offline with ``pip install -e '.[docs]'`` and
``sphinx-build -W --keep-going -b html docs docs/_build/html``. The pages are the
markdown files of this folder (MyST, through myst-nb); the API reference is generated
from the numpydoc docstrings (autosummary and numpydoc); the gallery is the example
notebooks of ``examples/`` with their outputs. Nothing is fetched: there is no
intersphinx, and the theme (pydata-sphinx-theme) ships its fonts and scripts.

The notebooks are not executed here. ``python tests/notebooks.py --out
docs/generated/gallery`` executes them (CI runs it before this build) and writes the
executed copies where the gallery takes them from; a notebook without such a copy, or
whose copy was made from other code, is shown as saved in ``examples/`` (saved
executed: tests/test_docs.py checks it).
"""

import base64
import json
import shutil
from pathlib import Path

import fairconv

project = "fairconv"
author = "fairconv developers"
copyright = "2026, fairconv developers"
release = fairconv.__version__
version = release

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx_design",
]

# .rst first: autosummary writes the reference pages with the first suffix
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]

# markdown: "#section" links of the pages resolve to their headings
myst_heading_anchors = 3

# notebooks: shown with the outputs they hold (see the module docstring)
nb_execution_mode = "off"
nb_merge_streams = True

# the API reference: one page per public module, one per public function or class
autosummary_generate = True
autosummary_imported_members = True
autosummary_ignore_module_all = False
autodoc_typehints = "none"
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


def _reexported_classes() -> set[str]:
    """Name each class that a public module lists again, away from its home module.

    ``fairconv.nuggets.ConeRagLabels`` is ``fairconv.io``'s, for instance. Its page is
    not indexed (``:no-index:``, _templates/autosummary/class.rst): one class described
    twice is a duplicate for Sphinx, and references go to its home.
    """
    import importlib
    import pkgutil

    modules = [
        importlib.import_module(f"fairconv.{m.name}")
        for m in pkgutil.iter_modules(fairconv.__path__)
        if not m.name.startswith("_") and m.name not in ("cli", "ir_measures")
    ]
    listed = {
        (module.__name__, name): getattr(module, name)
        for module in modules
        for name in getattr(module, "__all__", ())
        if isinstance(getattr(module, name), type)
    }

    def home(module: str, cls: type) -> bool:
        return cls.__module__ == module or cls.__module__.startswith(module + ".")

    return {
        f"{module}.{name}"
        for (module, name), cls in listed.items()
        if not home(module, cls)
        and any(home(other, cls) for (other, _), c in listed.items() if c is cls)
    }


autosummary_context = {"reexported": _reexported_classes()}

html_theme = "pydata_sphinx_theme"
html_title = f"fairconv {release}"
html_static_path = ["_static"]
html_css_files = ["fairconv.css"]
html_sidebars = {"**": ["sidebar-nav-full"], "index": []}
html_theme_options = {
    "navbar_align": "left",
    "navbar_center": ["navbar-main"],
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
    "navigation_with_keys": False,
}

# --------------------------------------------------------------------------- gallery
DOCS = Path(__file__).resolve().parent
EXAMPLES = DOCS.parent / "examples"
GALLERY = DOCS / "generated" / "gallery"


def _code(notebook: dict) -> list[str]:
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def _card(name: str, notebook: dict) -> str:
    """A gallery card: the notebook's title and first sentence, its last figure."""
    first = "".join(notebook["cells"][0]["source"]).strip().split("\n\n")
    title = first[0].lstrip("# ").strip()
    summary = ""
    if len(first) > 1:  # its first sentence
        summary = " ".join(first[1].split()).split(". ")[0].rstrip(".:") + "."
    figures = [
        output["data"]["image/png"]
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    image = ""
    if figures:
        png = figures[-1]
        GALLERY.joinpath(f"{name}.png").write_bytes(
            base64.b64decode("".join(png) if isinstance(png, list) else png)
        )
        image = f":img-top: /generated/gallery/{name}.png\n:img-alt: {title}\n"
    # a tilde fence: a title may hold backticks (`fairconv.rankfair`), which the info
    # string of a backtick fence cannot
    return (
        f"~~~{{grid-item-card}} {title}\n:link: generated/gallery/{name}\n:link-type: doc\n"
        f"{image}\n{summary}\n~~~\n"
    )


def gallery(app) -> None:
    """Put each example notebook, executed, in generated/gallery/, with the cards."""
    GALLERY.mkdir(parents=True, exist_ok=True)
    sources = sorted(EXAMPLES.glob("*.ipynb"))
    for copy in GALLERY.glob("*.ipynb"):  # of a notebook since renamed or removed
        if copy.name not in {s.name for s in sources}:
            copy.unlink()
    cards = []
    for source in sources:
        saved = json.loads(source.read_text(encoding="utf-8"))
        target = GALLERY / source.name
        executed = json.loads(target.read_text(encoding="utf-8")) if target.exists() else None
        if executed is None or _code(executed) != _code(saved):
            shutil.copyfile(source, target)
            executed = saved
        cards.append(_card(source.stem, executed))
    text = "````{grid} 1 2 2 3\n:gutter: 3\n\n" + "\n".join(cards) + "````\n"
    cards_file = GALLERY / "cards.txt"  # rewritten only when it changes (incremental builds)
    if not cards_file.exists() or cards_file.read_text(encoding="utf-8") != text:
        cards_file.write_text(text, encoding="utf-8")


def notebook_links(app, doctree) -> None:
    """Point a page's links to ``examples/NAME.ipynb`` at the notebook's gallery page.

    Such a link opens the file on the repository's web pages, the executed notebook in
    the site.
    """
    from sphinx.addnodes import pending_xref

    for node in doctree.findall(pending_xref):
        target = Path(node.get("reftarget", ""))
        if node.get("reftype") == "myst" and target.parent.name == "examples":
            if (EXAMPLES / f"{target.name}.ipynb").exists():
                node["reftarget"] = f"generated/gallery/{target.name}"


def setup(app):
    """Build the gallery before Sphinx reads the sources; link the notebooks to it."""
    app.connect("builder-inited", gallery)
    app.connect("doctree-read", notebook_links)
