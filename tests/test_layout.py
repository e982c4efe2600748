"""The package's layout: every module imports, imports point down the layers, no cycle.

The module graph is read from the source (every ``import`` statement, those inside
functions and ``TYPE_CHECKING`` blocks included). Importing ``a.b.c`` runs the
``__init__`` of every package above it, so an import of a module in another package
counts as an import of that package too.

The layers, bottom up (BRIEF's architecture): a module imports only from its own layer
or below. ``fairconv`` itself (whose names load their modules on first use) and
``__main__`` stand with the command line, at the top.
"""

import ast
import graphlib
import importlib
import pathlib
import pkgutil
import subprocess
import sys

import pytest

import fairconv

SRC = pathlib.Path(fairconv.__file__).parent
SUBCOMMANDS = {f"fairconv.cli.{m}" for m in ("demo", "gfr", "conversations", "ragfair",
                                            "nuggets", "rankfair", "stats",
                                            "agreement")}  # fmt: skip
ANALYSES = ("fairconv.stats", "fairconv.agreement")
FAMILIES = ("fairconv.gfr", "fairconv.gfrc", "fairconv.gfrc2", "fairconv.ragfair",
            "fairconv.nuggets", "fairconv.divergences", "fairconv.rankfair")  # fmt: skip


def _modules() -> dict[str, tuple[pathlib.Path, bool]]:
    """Every module of the package: name -> (path, is a package)."""
    out = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


MODULES = _modules()

LAYERS = (
    ("fairconv._validation", "fairconv._accel", "fairconv._core", "fairconv._records",
     "fairconv._files"),
    ("fairconv.divergences", "fairconv.results"),
    ("fairconv.io",),
    ("fairconv.rankings",),
    ("fairconv.gfr", "fairconv.gfrc", "fairconv.gfrc2", "fairconv.ragfair", "fairconv.nuggets",
     "fairconv.trecfair", "fairconv.rankfair", "fairconv.conversation", "fairconv.entities"),
    ("fairconv.stats", "fairconv.agreement", "fairconv.plots", "fairconv.datasets",
     "fairconv.ir_measures"),
    ("fairconv.cli", "fairconv.__main__", "fairconv"),
)  # fmt: skip
"""Each layer's modules and packages (a package's modules share its layer), bottom up."""


def layer_of(name: str) -> int | None:
    """The layer (1 = the bottom) of a module: that of its longest listed prefix."""
    found = [
        (len(entry), k)
        for k, entries in enumerate(LAYERS, start=1)
        for entry in entries
        if name == entry or name.startswith(entry + ".")
    ]
    return max(found)[1] if found else None


def _imported(name: str, source: str | None = None) -> set[str]:
    """The fairconv modules that module ``name``'s import statements name.

    ``source``: the module's text, if not the file's.
    """
    path, package = MODULES[name]
    here = name.split(".") if package else name.split(".")[:-1]
    found = set()
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here[: len(here) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:  # `from pkg import module` names a module
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m == "fairconv" or m.startswith("fairconv.")}


def _graph() -> dict[str, set[str]]:
    """name -> the modules whose import it runs (packages above them included)."""
    graph = {}
    for name in MODULES:
        edges = set()
        for target in _imported(name):
            parts = target.split(".")
            for k in range(1, len(parts) + 1):
                step = ".".join(parts[:k])
                # a package above the importer is being imported already
                if step in MODULES and step != name and not name.startswith(step + "."):
                    edges.add(step)
        graph[name] = edges
    return graph


GRAPH = _graph()


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports of ``graph`` that point to a higher layer: (importer, imported)."""
    return sorted(
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(name)
    )


def test_every_module_has_a_layer():
    assert not [m for m in MODULES if layer_of(m) is None]
    assert layer_of("fairconv.io._conversations") == 3
    assert layer_of("fairconv.stats._compare") == 6
    assert layer_of("fairconv") == 7 and layer_of("fairconv._core._means") == 1


def test_every_import_points_to_its_own_layer_or_below():
    """Function-level and type-checking imports included: io imports no family, a
    family no analysis, nothing the command line."""
    assert not upward(GRAPH)


def test_the_layer_check_finds_an_upward_import():
    """An import of a family from io, written inside a function, would be found."""
    fake = {**GRAPH, "fairconv.io._json": GRAPH["fairconv.io._json"] | {"fairconv.nuggets"}}
    assert upward(fake) == [("fairconv.io._json", "fairconv.nuggets")]
    hidden = "if TYPE_CHECKING:\n    def f():\n        from ..nuggets import evaluate\n"
    assert "fairconv.nuggets" in _imported("fairconv.io._json", hidden)


def test_the_module_graph_has_no_cycle():
    try:
        order = list(graphlib.TopologicalSorter(GRAPH).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"an import cycle: {' -> '.join(exc.args[1])}")
    assert set(order) == set(MODULES)


def test_the_graph_sees_every_kind_of_import():
    """The reading of the source finds imports in functions and relative imports."""
    assert "fairconv.io" in GRAPH["fairconv.cli.conversations"]  # in a function
    assert "fairconv.io" in GRAPH["fairconv.conversation"]  # the package above io._json
    assert "fairconv.results" in GRAPH["fairconv.stats._compare"]


def test_score_tables_import_no_analysis():
    """results holds data classes: the analyses take them, never the other way round."""
    bad = [m for m in GRAPH["fairconv.results"] if m.startswith(ANALYSES + FAMILIES)]
    assert not bad
    # below it only the layer every module may use: the accelerators, the arithmetic
    # (its means) and the checks
    allowed = {"fairconv._accel", "fairconv._core", "fairconv._files", "fairconv._validation"}
    assert GRAPH["fairconv.results"] <= allowed


def test_subcommands_import_downwards_only():
    for name in SUBCOMMANDS:
        wrong = GRAPH[name] & (SUBCOMMANDS | {"fairconv.cli"})
        assert not wrong, (name, wrong)
    library = [m for m in MODULES if not m.startswith("fairconv.cli") and m != "fairconv.__main__"]
    for name in library:
        assert not any(m.startswith("fairconv.cli") for m in GRAPH[name]), name


def test_performance_code_is_called_through_its_boundary():
    """Outside fairconv._accel, nothing imports its private submodules."""
    for name in MODULES:
        if not name.startswith("fairconv._accel"):
            inside = [m for m in _imported(name) if m.startswith("fairconv._accel.")]
            assert not inside, (name, inside)


def test_every_module_imports():
    root = pathlib.Path(fairconv.__file__).parent
    found = []
    for info in pkgutil.walk_packages(fairconv.__path__, "fairconv."):
        if info.name == "fairconv.ir_measures" and importlib.util.find_spec("ir_measures") is None:
            continue  # the ir-measures extra: tests_extra/ imports it
        module = importlib.import_module(info.name)
        assert module.__name__ == info.name and pathlib.Path(module.__file__).is_relative_to(root)
        found.append(info.name)
    assert set(MODULES) - {"fairconv", "fairconv.ir_measures"} <= set(found)


@pytest.mark.parametrize("old", ["readers", "inputs", "scores", "_bytes", "_keys", "_parallel",
                                 "_fast", "_output", "_cli_stats", "_cli_agreement"])  # fmt: skip
def test_the_old_module_paths_are_gone(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"fairconv.{old}")


def test_every_name_of_the_io_package_resolves():
    import fairconv.io

    private = [importlib.import_module(m) for m in MODULES if m.startswith("fairconv.io._")]
    for name in fairconv.io.__all__:
        obj = getattr(fairconv.io, name)
        # each public name is an object of a private submodule (a class, a function or a
        # constant), under its own name
        homes = [m.__name__ for m in private if vars(m).get(name) is obj]
        assert homes, name
        if callable(obj):
            assert obj.__name__ == name and obj.__module__ in homes, (name, homes)
    assert set(fairconv.io.__all__) <= set(dir(fairconv.io))
    with pytest.raises(AttributeError, match="has no attribute 'read_nothing'"):
        fairconv.io.read_nothing  # noqa: B018


BLOCK_EXTRAS = (
    "import sys\n"
    "for name in ('ir_measures', 'orjson', 'pandas', 'matplotlib'):\n"
    "    sys.modules[name] = None  # import raises ImportError: the extra is absent\n"
)


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_EXTRAS + code], capture_output=True, text=True
    )


def test_star_import_works_without_the_extras():
    proc = _python(
        "from fairconv import *\n"
        "from fairconv.io import *\n"
        "names = dir()\n"
        "print(sorted(k for k in ('gfr', 'io', 'stats', 'jsd', 'ir_measures') if k in names))\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["['gfr',", "'io',", "'jsd',", "'stats']"]


def test_a_missing_extra_is_an_attribute_error_naming_it():
    proc = _python(
        "import fairconv\n"
        "print(hasattr(fairconv, 'ir_measures'))\n"
        "try:\n"
        "    fairconv.ir_measures\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    assert proc.returncode == 0, proc.stderr
    has, message = proc.stdout.splitlines()
    assert has == "False"
    assert "needs the ir-measures extra (pip install 'fairconv[ir-measures]'" in message


def test_hasattr_never_raises():
    for name in ("ir_measures", "plots", "io", "no_such_module"):
        hasattr(fairconv, name)
    assert "ir_measures" in dir(fairconv) and "ir_measures" not in fairconv.__all__
