"""What the README and the documentation say, checked against the library.

The command lines quoted in README.md and docs/*.md name commands and options that
exist; the commands said to print ``run topic measure value`` rows do, and the others
are named as exceptions; doc examples and notebooks use the installed package's data,
never a path into a clone; the example notebooks are saved executed, with outputs a
reader can read (the notebook runner, tests/notebooks.py, executes them in CI).
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fairconv.cli import build_parser
from notebooks import MAX_CHARS, problems

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _options(parser: argparse.ArgumentParser) -> dict[str, list | None]:
    return {o: a.choices for a in parser._actions for o in a.option_strings}


def _command_lines(text: str) -> list[str]:
    """Each ``fairconv ...`` command of the fenced blocks, continuation lines joined."""
    commands = []
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S):
        current = None
        for line in block.splitlines():
            line = re.sub(r"\s#\s.*$", "", line)
            # a command, not a message it prints ("fairconv trecfair: warning: ...")
            if re.match(r"^(\$ )?fairconv( [^\s:]+(\s|$)|$)", line):
                current = len(commands)
                commands.append(line.removeprefix("$ "))
            elif current is not None and (line.startswith(" ") or commands[current].endswith("\\")):
                commands[current] += " " + line.strip()
            else:
                current = None
    return [c.replace("\\", " ") for c in commands]


def _quoted_commands():
    for page in PAGES:
        for line in _command_lines(page.read_text(encoding="utf-8")):
            yield page.relative_to(ROOT), line


def test_the_pages_quote_command_lines():
    quoted = [line for _, line in _quoted_commands()]
    assert len(quoted) >= 20
    assert any(line.startswith("fairconv gfr ") for line in quoted)


@pytest.mark.parametrize("page, line", list(_quoted_commands()), ids=lambda x: str(x)[:60])
def test_every_quoted_command_and_option_exists(page, line):
    subcommands = _subcommands()
    words = line.split()
    top = _options(build_parser())
    if words[1].startswith("-"):
        assert words[1] in top, (page, line)
        return
    assert words[1] in subcommands, f"{page}: no command {words[1]!r}: {line}"
    options = _options(subcommands[words[1]])
    for option in re.findall(r"(?<![\w\[-])(--?[A-Za-z][\w-]*)", line):
        assert option in options, f"{page}: {words[1]} has no option {option}: {line}"
    # a synopsis's "a|b|c" alternatives are the option's choices
    for option, values in re.findall(r"(--[\w-]+)[ =]\[?([\w-]+(?:\|[\w-]+)+)", line):
        choices = options[option]
        if choices is not None:
            assert set(values.split("|")) <= {str(c) for c in choices}, (page, option, values)


def test_the_readme_lists_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = {line.split()[1] for line in _command_lines(readme)} - {"--version"}
    assert listed == set(_subcommands())


def _run(*argv, cwd):
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", *argv], capture_output=True, text=True, cwd=cwd
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_readme_names_the_commands_that_print_score_rows(tmp_path):
    """Those print ``run topic measure value`` rows; the README names them and no other."""
    from fairconv.datasets import path

    pilot = path("fairweb1-pilot")
    ranked = ["--qrels", str(pilot / "fairweb1pilot.qrels")]
    origin = ["M-ORIGIN", str(pilot / "fairweb1pilot.M-ORIGIN.gmemb")]
    origin += [str(pilot / "M-ORIGIN.golddistr"), "nominal"]
    cases = ["--attributes", str(path("cases", "r112-attributes.json"))]
    r112 = str(path("cases", "r112-fairweb2.jsonl"))
    runs = [str(p) for p in sorted((pilot / "runs").iterdir())]
    trec = path("trecfair")
    outputs = {
        "gfr": _run("gfr", *ranked, "--attribute", *origin, "--cutoffs", "10", *runs, cwd=tmp_path),
        "gfrc": _run("gfrc", *cases, r112, cwd=tmp_path),
        "gfrc2": _run("gfrc2", *cases, r112, cwd=tmp_path),
        "gfrc2 --clusters": _run("gfrc2", *cases, "--clusters", r112, cwd=tmp_path),
        "ragfair": _run(
            "ragfair",
            *ranked,
            "--attribute",
            *origin,
            "--answers",
            str(path("rag", "pilot-answers.jsonl")),
            "--cutoffs",
            "10",
            *runs,
            cwd=tmp_path,
        ),
        "nuggets": _run("nuggets", str(path("rag", "ikat-labels.jsonl")), cwd=tmp_path),
        "rankfair": _run(
            "rankfair",
            *["--memberships", "gender", str(path("rankfair", "gender.gmemb"))],
            str(path("rankfair", "runs", "run.relevance")),
            cwd=tmp_path,
        ),
        "demo": _run("demo", cwd=tmp_path),
        "trecfair": _run(
            "trecfair",
            "--task",
            "1",
            "--qrels",
            str(trec / "trec_fair_eval_reldocs.jsonl"),
            "--metadata",
            str(trec / "trec_2022_articles_discrete.jsonl"),
            *["--background", "gender", "trec2022-gender", str(trec / "t1-relfirst")],
            cwd=tmp_path,
        ),
    }
    prints_rows = {
        c for c, out in outputs.items() if out.startswith("run\ttopic\tmeasure\tvalue\n")
    }
    # the names the help of -m gives as examples are measures of that command (trecfair's
    # help names the measures of both tasks, with SET standing for the dimensions)
    for command, out in outputs.items():
        if command in {"gfr", "gfrc", "gfrc2", "ragfair", "nuggets"}:
            parser = _subcommands()[command]
            (help_text,) = [a.help for a in parser._actions if "-m" in a.option_strings]
            (examples,) = re.findall(r"by its printed name \(e\.g\. ([^)]*)\); repeat", help_text)
            printed = {row.split("\t")[2] for row in out.splitlines()[1:]}
            assert set(examples.split(", ")) <= printed, (command, examples)
    assert prints_rows == {"gfr", "gfrc", "gfrc2", "ragfair", "nuggets", "trecfair", "rankfair"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (sentence,) = re.findall(r"^((?:`\w+`(?:, | and ))+`\w+`) print tab-separated", readme, re.M)
    assert set(re.findall(r"`(\w+)`", sentence)) == prints_rows - {"gfrc2 --clusters"}
    # and the others are named as what they are not
    rest = readme[readme.index(sentence) :].split("\n\n")[0]
    for other in ("compare", "discpower", "agree", "labels", "gfrc2 --clusters", "demo"):
        assert f"`{other}`" in rest, other


def test_no_page_says_that_every_command_prints_score_rows():
    for page in PAGES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert not re.search(r"[Ee]very command prints", text), page


def _resolve(dotted: str):
    import importlib

    parts = dotted.split(".")
    if parts[:2] == ["fairconv", "ir_measures"]:
        # the module needs the ir-measures extra: look for the names in its source
        import ast

        tree = ast.parse((ROOT / "src" / "fairconv" / "ir_measures.py").read_text())
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        if not set(parts[2:3]) <= defined:
            raise AttributeError(dotted)
        return None
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            obj = getattr(obj, attribute)
        return obj
    raise ImportError(dotted)


def test_every_dotted_name_the_pages_quote_exists():
    names = {
        (page.relative_to(ROOT), name)
        for page in PAGES
        for name in re.findall(r"`(fairconv(?:\.\w+)+)", page.read_text(encoding="utf-8"))
    }
    assert len(names) > 20
    for page, name in sorted(names):
        try:
            _resolve(name)
        except (AttributeError, ImportError):
            pytest.fail(f"{page}: {name} does not exist")


# --------------------------------------------------------------------------- installed data
REPO_PATH = re.compile(r"(?<![\w.])(src|tests|docs|examples|benchmarks)/|/work/")


def _doctest_lines():
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith((">>>", "...")):
                yield f"{page.relative_to(ROOT)}:{number}", line
    for module in sorted((ROOT / "src").rglob("*.py")):
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith((">>>", "... ")):
                yield f"{module.relative_to(ROOT)}:{number}", line


def test_doc_examples_use_the_installed_package_not_a_clone():
    lines = list(_doctest_lines())
    assert len(lines) > 100
    assert any("fairconv.datasets" in line for _, line in lines)
    bad = [f"{where}: {line}" for where, line in lines if REPO_PATH.search(line)]
    assert not bad, bad


def _shell_examples():
    for page in PAGES[1:]:
        for block in re.findall(
            r"^```bash\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S
        ):
            yield page.name, block


def test_the_pages_have_shell_examples():
    assert {name for name, _ in _shell_examples()} >= {"gfr.md", "gfrc.md", "gfrc2.md"}


@pytest.mark.parametrize("page, block", list(_shell_examples()), ids=lambda x: str(x)[:20])
def test_shell_examples_run_from_the_installed_package(page, block, tmp_path):
    """Run in an empty folder: the data comes from the package, not from a clone."""
    assert not REPO_PATH.search(block), block
    bin_dir = Path(sys.executable).parent
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "MPLBACKEND": "Agg", "FAIRCONV_THREADS": "1"}
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() or list(tmp_path.iterdir())


def _console_sessions():
    """Per page, the commands of its ```console blocks and the output each shows.

    A ``$ `` line is a command (a line ending in ``\\`` continues on the next); the lines
    after it, to the next command or the end of the block, are what it prints on
    stdout. ```sh blocks (installing, cloning) are shown and not run.
    """
    for page in PAGES:
        session = []
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
            continued = False
            for line in block.splitlines():
                if continued:
                    session[-1][0] += "\n" + line
                elif line.startswith("$ "):
                    session.append([line[2:], []])
                else:
                    session[-1][1].append(line)
                continued = line.endswith("\\")
        if session:
            yield page.name, [(command, "\n".join(out)) for command, out in session]


def test_the_newcomer_pages_have_console_sessions():
    assert {"quickstart.md"} <= {name for name, _ in _console_sessions()}


@pytest.mark.parametrize("page, session", list(_console_sessions()), ids=lambda x: str(x)[:20])
def test_console_sessions_print_what_the_pages_show(page, session, tmp_path):
    """The commands of a page run one after the other in one shell, in an empty folder
    with the installed package, and each prints what the page shows (doctest's rules:
    ``...`` stands for any text, runs of whitespace are one space)."""
    import doctest

    marker = "@@ next command @@"
    script = "".join(f"echo '{marker}'\n{command}\n" for command, _ in session)
    assert not REPO_PATH.search(script), script
    bin_dir = Path(sys.executable).parent
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "MPLBACKEND": "Agg", "FAIRCONV_THREADS": "1"}
    env["HOME"] = str(tmp_path)
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    printed = proc.stdout.split(marker + "\n")[1:]
    assert len(printed) == len(session)
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for (command, want), got in zip(session, printed, strict=True):
        want = want.strip() + "\n" if want.strip() else ""
        assert checker.check_output(want, got, flags), f"{page}: $ {command}\n{got}"


# --------------------------------------------------------------------------- notebooks
def test_there_are_example_notebooks_of_the_pilot_and_the_conversations():
    names = {p.name for p in NOTEBOOKS}
    assert {"pilot_analysis.ipynb", "conversations.ipynb"} <= names


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_saved_executed_with_readable_outputs(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    assert problems(nb) == []
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    # a notebook of imports and assignments shows nothing: most cells show a result
    assert sum(bool(c["outputs"]) for c in code) >= len(code) - 2
    sources = "".join("".join(c["source"]) for c in code)
    assert not REPO_PATH.search(sources)
    assert any("image/png" in o.get("data", {}) for c in code for o in c["outputs"])


def _notebook(*outputs, executed=True):
    cell = {"cell_type": "code", "source": "x", "outputs": list(outputs)}
    cell["execution_count"] = 1 if executed else None
    return {"cells": [{"cell_type": "markdown", "source": "# t"}, cell]}


def _result(text):
    return {"output_type": "execute_result", "data": {"text/plain": text}}


def test_the_runner_accepts_short_text_and_refuses_array_reprs():
    assert problems(_notebook(_result("ScoreTable(3 runs x 4 topics x 42 measures)"))) == []
    (found,) = problems(_notebook(_result("Clusters(wc=array([33, 36]))")))
    assert "code cell 1 shows 'array('" in found
    (found,) = problems(_notebook({"output_type": "stream", "text": ["a = ", "array([1])"]}))
    assert "array(" in found


def test_the_runner_refuses_long_text_errors_and_unexecuted_cells():
    assert problems(_notebook(_result("x" * MAX_CHARS))) == []
    (found,) = problems(_notebook(_result("x" * (MAX_CHARS + 1))))
    assert f"{MAX_CHARS + 1} characters" in found
    error = {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}
    assert problems(_notebook(error)) == ["code cell 1 raised ValueError: bad"]
    assert problems(_notebook(executed=False)) == ["code cell 1 has not been executed"]
    # only what a reader sees as text counts: an image's bytes are not text
    image = {"output_type": "display_data", "data": {"image/png": "A" * 10_000}}
    assert problems(_notebook(image)) == []


# --------------------------------------------------------------------------- api.md
def _api_table_rows():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for family, *calls in re.findall(
        r"^\| `fairconv\.(\w+)` \| `([^`]*)` \| `([^`]*)` \|$", text, flags=re.M
    ):
        for call in calls:
            yield family, call


def _names(call: str) -> tuple[str, list[str]]:
    name, _, params = call.partition("(")
    words = [w.strip() for w in params.rstrip(")").split(",")]
    return name, [w for w in words if w and w not in ("/", "*")]


def test_api_md_gives_each_family_its_entry_points():
    families = {family for family, _ in _api_table_rows()}
    assert {"gfr", "gfrc", "gfrc2", "ragfair"} <= families


@pytest.mark.parametrize("family, call", list(_api_table_rows()), ids=lambda x: x[:30])
def test_api_md_signatures_are_the_functions_signatures(family, call):
    """The parameters api.md lists, in order, are the function's public parameters."""
    import importlib
    import inspect

    name, listed = _names(call)
    function = getattr(importlib.import_module(f"fairconv.{family}"), name)
    actual = []
    for p in inspect.signature(function).parameters.values():
        if p.name.startswith("_"):
            continue
        actual.append(f"**{p.name}" if p.kind is p.VAR_KEYWORD else p.name)
    assert listed == actual, f"api.md: {call}"


def _call(name, func) -> str:
    """``name(data, /, *, options)``: the parameters as api.md writes them."""
    import inspect

    params = list(inspect.signature(func).parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    parts, star = [], False
    for i, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star = True
        elif p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        else:
            parts.append(p.name)
        last = i + 1 == len(params) or params[i + 1].kind is not p.POSITIONAL_ONLY
        if p.kind is p.POSITIONAL_ONLY and last:
            parts.append("/")
    return f"{name}({', '.join(parts)})"


def public_api():
    """(module, entry) of every public name: ``f(sig)``, ``Class(sig)``, ``Class.method(sig)``
    or ``CONSTANT``, from ``fairconv.__all__`` and the ``__all__`` of the public modules."""
    import ast
    import importlib
    import inspect
    import types

    for name in ["fairconv", *REFERENCE_MODULES]:
        try:
            module = importlib.import_module(name)
        except ImportError:  # the ir-measures extra: its names, read from the source
            source = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
            tree = ast.parse(source.read_text(encoding="utf-8"))
            (names,) = [
                ast.literal_eval(node.value)
                for node in tree.body
                if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
            ]
            for attribute in names:
                yield name, attribute, None
            continue
        for attribute in module.__all__:
            obj = getattr(module, attribute)
            if isinstance(obj, types.ModuleType):
                continue
            if inspect.isfunction(obj):
                yield name, _call(attribute, obj), obj
            elif inspect.isclass(obj):
                try:
                    yield name, _call(attribute, obj), obj
                except ValueError:  # no signature (a warning class)
                    yield name, attribute, obj
                for key, value in vars(obj).items():
                    func = getattr(value, "__func__", value)  # classmethod, staticmethod
                    if key.startswith("_") or not inspect.isfunction(func):
                        continue
                    if func.__code__.co_filename != "<string>":  # not dataclass-made
                        yield name, _call(f"{attribute}.{key}", func), func
            else:
                yield name, attribute, obj


def _api_md_entries() -> dict[tuple[str, str], str]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("\n## Every public name\n", 1)[1]
    rows = re.findall(r"^\| `([\w.]+)` \| `([^`]+)` \| (.*) \|$", section, flags=re.M)
    return {(module, entry): returns for module, entry, returns in rows}


def test_api_md_lists_every_public_name_with_its_signature():
    """docs/api.md's last table: one row per public function, class (its constructor),
    public method and constant, with the parameters as the code has them; no row for a
    name that is gone. Without the ir-measures extra, its module's rows are checked by
    name only."""
    listed = set(_api_md_entries())
    entries = list(public_api())
    full = {(m, e) for m, e, obj in entries if obj is not None}
    by_name = {(m, e) for m, e, obj in entries if obj is None}  # names read from source
    assert len(full) > 200
    assert {("fairconv.results", "ScoreTable.select(*, runs, topics)"),
            ("fairconv", "jsd(p, q, /)")} <= full  # fmt: skip
    listed_names = {(m, e.split("(")[0].split(".")[0]) for m, e in listed}
    missing = sorted(full - listed) + sorted(by_name - listed_names)
    assert not missing, f"docs/api.md lacks (or has another signature for): {missing}"
    name_only = {m for m, _ in by_name}
    stale = sorted(
        (m, e)
        for m, e in listed
        if (
            (m, e.split("(")[0].split(".")[0]) not in by_name
            if m in name_only
            else (m, e) not in full
        )
    )
    assert not stale, f"docs/api.md lists names the code does not have: {stale}"


# --------------------------------------------------------------------------- the site
def _toctree_entries(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    entries = []
    for block in re.findall(r"^```\{toctree\}\n(.*?)^```", text, flags=re.M | re.S):
        entries += [line for line in block.splitlines() if line and not line.startswith(":")]
    return entries


def test_every_page_is_in_the_site_and_the_readme():
    """Each page is in one toctree (the landing page's, under a caption, or the guides'),
    so the sidebar shows it once; the README links every page but the reference."""
    pages = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"}
    entries = [e for page in (ROOT / "docs").glob("*.md") for e in _toctree_entries(page)]
    entries = [e for e in entries if not e.startswith("generated/")]  # the gallery's
    assert sorted(entries) == sorted(pages)
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    captions = re.findall(r"^```\{toctree\}\n(?::hidden:\n)?:caption: (.+)$", index, re.M)
    assert captions[0] == "Getting started" and len(captions) >= 4
    assert _toctree_entries(ROOT / "docs" / "guides.md") == [
        "guide-fairweb", "guide-trecfair", "guide-rag", "guide-conversations",
    ]  # fmt: skip
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([\w-]+)\.md\)", readme)) - {"index"}
    assert linked == pages - {"reference"}


def test_the_landing_page_says_where_to_start():
    """What fairconv is and who it is for, then links to the quick start, the guides,
    the gallery and the reference, before any other section."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    start = index.split("\n## Where to start\n", 1)[1].split("\n## ", 1)[0]
    for page in ("quickstart", "guides", "gallery", "reference", *(
        f"guide-{task}" for task in ("fairweb", "trecfair", "rag", "conversations")
    )):  # fmt: skip
        assert f"]({page}.md)" in start, page
    intro = index.split("\n## ", 1)[0]
    assert "researchers" in intro and "organisers" in intro


def test_the_site_builds_offline_from_the_docstrings():
    """conf.py: myst-nb for the pages and notebooks, autosummary and numpydoc for the
    reference, a theme with a sidebar and search; no intersphinx (no network); the
    generated pages and the build are ignored by git. CI executes the notebooks once,
    into the gallery, before it builds the site with warnings as errors."""
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    for extension in ("myst_nb", "numpydoc", "sphinx.ext.autosummary", "sphinx_design"):
        assert f'"{extension}"' in conf
    assert 'html_theme = "pydata_sphinx_theme"' in conf
    assert 'nb_execution_mode = "off"' in conf
    assert "sphinx.ext.intersphinx" not in conf
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {"docs/_build/", "docs/generated/"} <= set(ignored)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    notebooks = ci.index(".venv/bin/python tests/notebooks.py --out docs/generated/gallery\n")
    build = ci.index("sphinx-build -W --keep-going -q -b html docs docs/_build/html\n")
    assert ci.index("rm -rf docs/_build docs/generated\n") < notebooks < build
    assert ci.count("tests/notebooks.py") == 1  # executed once
    extra = re.search(r"^docs = \[(.*?)^\]", (ROOT / "pyproject.toml").read_text(), re.M | re.S)
    for package in ("myst-nb", "pydata-sphinx-theme", "sphinx-design", "nbclient"):
        assert f'"{package}>=' in extra.group(1), package


# --------------------------------------------------------------------------- docstrings
REFERENCE_MODULES = [
    line.strip()
    for line in (ROOT / "docs" / "reference.md").read_text(encoding="utf-8").splitlines()
    if line.strip().startswith("fairconv.")
]


def _public_functions():
    import importlib
    import inspect

    for name in REFERENCE_MODULES:
        if name == "fairconv.ir_measures":
            continue  # needs the ir-measures extra; tests_extra covers it
        module = importlib.import_module(name)
        for attribute in module.__all__:
            obj = getattr(module, attribute)
            if inspect.isfunction(obj):
                yield f"{name}.{attribute}", obj


def test_the_reference_lists_every_public_module():
    """Every module and package of fairconv whose name has no leading underscore (the
    command line aside, which docs/index.md and the README document)."""
    package = ROOT / "src" / "fairconv"
    public = {
        p.stem
        for p in [*package.glob("*.py"), *package.glob("*/__init__.py")]
        if not p.stem.startswith("_")
    }
    public |= {
        p.parent.name for p in package.glob("*/__init__.py") if not p.parent.name.startswith("_")
    }
    public -= {"__init__", "cli"}
    assert set(REFERENCE_MODULES) == {f"fairconv.{m}" for m in public}


def test_every_public_function_has_examples_that_run_as_doctests():
    """numpydoc's Examples section, with at least one ``>>>`` line (pytest runs them)."""
    import inspect

    functions = dict(_public_functions())
    assert len(functions) > 60
    missing = [
        name
        for name, f in functions.items()
        if not re.search(r"^Examples\n--------\n(.*\n)*>>> ", inspect.getdoc(f) or "", re.M)
    ]
    assert not missing, missing


def _public_classes():
    """Every class the public modules export, and its public methods (its own and those
    of the fairconv classes it derives from, such as the records' ``to_dict``)."""
    import importlib
    import inspect

    for name in REFERENCE_MODULES:
        if name == "fairconv.ir_measures":
            continue
        module = importlib.import_module(name)
        for attribute in module.__all__:
            cls = getattr(module, attribute)
            if not (inspect.isclass(cls) and cls.__module__.startswith("fairconv")):
                continue
            yield f"{name}.{attribute}", cls
            for base in cls.__mro__:
                if not base.__module__.startswith("fairconv"):
                    continue
                for key, value in vars(base).items():
                    func = getattr(value, "__func__", value)  # classmethod, staticmethod
                    if key.startswith("_") or not inspect.isfunction(func):
                        continue
                    if func.__code__.co_filename != "<string>":  # not dataclass-made
                        yield f"{name}.{attribute}.{key}", func


def test_every_public_class_and_method_has_examples_that_run_as_doctests():
    """As for functions: numpydoc's Examples with a ``>>>`` line, on the class and on each
    public method (pytest runs them with the module's doctests)."""
    import inspect

    documented = dict(_public_classes())
    classes = [n for n, c in documented.items() if inspect.isclass(c)]
    assert len(classes) > 40 and len(documented) - len(classes) > 40
    assert {"fairconv.results.ScoreTable.to_tsv", "fairconv.stats.Comparison.to_dict"} <= set(
        documented
    )
    missing = [
        name
        for name, obj in documented.items()
        if not re.search(r"^Examples\n--------\n(.*\n)*>>> ", inspect.getdoc(obj) or "", re.M)
    ]
    assert not missing, missing


def test_links_between_pages_resolve():
    """A link to another page names a page that exists, and a #section a heading of it."""

    def anchors(page: Path) -> set[str]:
        headings = re.findall(r"^#{1,3} (.+)$", page.read_text(encoding="utf-8"), flags=re.M)
        slugs = set()
        for h in headings:
            slug = re.sub(r"[^\w\- ]", "", h.strip().lower().replace("`", ""))
            slugs.add(slug.replace(" ", "-"))
        return slugs

    for page in PAGES:
        base = page.parent
        for target, _, anchor in re.findall(
            r"\]\(([\w./-]+\.md)(#([\w-]+))?\)", page.read_text(encoding="utf-8")
        ):
            linked = (base / target).resolve()
            assert linked.exists(), f"{page.name}: no page {target}"
            if anchor:
                assert anchor in anchors(linked), f"{page.name}: no section {target}#{anchor}"


# --------------------------------------------------------------------------- the gallery
def _conf(monkeypatch, gallery: Path):
    """docs/conf.py as a module, its gallery folder moved to ``gallery``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    monkeypatch.setattr(conf, "GALLERY", gallery)
    return conf


def test_the_gallery_has_a_card_and_a_page_per_notebook(monkeypatch, tmp_path):
    """Each examples/*.ipynb: a page (the notebook as saved, executed), a card with its
    title, first sentence and last figure as the thumbnail, linking to the page."""
    conf = _conf(monkeypatch, tmp_path)
    (tmp_path / "renamed.ipynb").write_text("{}", encoding="utf-8")  # no longer in examples/
    conf.gallery(None)
    assert sorted(tmp_path.glob("*.ipynb")) == [tmp_path / n.name for n in NOTEBOOKS]
    cards = (tmp_path / "cards.txt").read_text(encoding="utf-8")
    assert cards.startswith("````{grid}") and cards.count("~~~{grid-item-card}") == len(NOTEBOOKS)
    for notebook in NOTEBOOKS:
        saved = json.loads(notebook.read_text(encoding="utf-8"))
        assert json.loads((tmp_path / notebook.name).read_text(encoding="utf-8")) == saved
        title = "".join(saved["cells"][0]["source"]).splitlines()[0].lstrip("# ")
        card = cards[cards.index(f"~~~{{grid-item-card}} {title}\n") :].split("\n~~~\n")[0]
        assert f":link: generated/gallery/{notebook.stem}\n" in card
        assert f":img-top: /generated/gallery/{notebook.stem}.png\n" in card
        assert (tmp_path / f"{notebook.stem}.png").read_bytes().startswith(b"\x89PNG")
        sentence = card.rstrip().splitlines()[-1]
        assert sentence.endswith(".") and ". " not in sentence[:-1], sentence


def test_the_gallery_shows_the_executed_copies_of_the_same_code(monkeypatch, tmp_path):
    """tests/notebooks.py --out leaves executed copies: shown when they hold the code of
    examples/, replaced by the saved notebook when the code has changed since."""
    conf = _conf(monkeypatch, tmp_path)
    notebook = NOTEBOOKS[0]
    fresh = json.loads(notebook.read_text(encoding="utf-8"))
    code = [c for c in fresh["cells"] if c["cell_type"] == "code"]
    code[0]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "fresh run\n"}]
    (tmp_path / notebook.name).write_text(json.dumps(fresh), encoding="utf-8")
    conf.gallery(None)
    assert "fresh run" in (tmp_path / notebook.name).read_text(encoding="utf-8")
    code[0]["source"] = "print('older code')"
    (tmp_path / notebook.name).write_text(json.dumps(fresh), encoding="utf-8")
    conf.gallery(None)
    shown = (tmp_path / notebook.name).read_text(encoding="utf-8")
    assert json.loads(shown) == json.loads(notebook.read_text(encoding="utf-8"))


def test_the_notebook_runner_keeps_executed_copies_where_asked(tmp_path, monkeypatch):
    """--out DIR: the executed notebook goes to DIR, the one given is left unchanged.
    (nbformat and the kernel are stood in for: the docs extra is not installed here.)"""
    import types

    import notebooks

    source = tmp_path / "small.ipynb"
    cells = [
        {"cell_type": "markdown", "source": "# Small\n\nA notebook."},
        {"cell_type": "code", "source": "1 + 1", "outputs": [], "execution_count": None},
    ]
    source.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    before = source.read_bytes()

    def execute(path, *, timeout=600):
        executed = json.loads(Path(path).read_text(encoding="utf-8"))
        result = {"output_type": "execute_result", "data": {"text/plain": "2"}}
        executed["cells"][1].update(execution_count=1, outputs=[result])
        return executed

    fake = types.SimpleNamespace(
        read=lambda path, as_version: json.loads(Path(path).read_text(encoding="utf-8")),
        write=lambda nb, path: Path(path).write_text(json.dumps(nb), encoding="utf-8"),
    )
    errors = types.SimpleNamespace(CellExecutionError=RuntimeError)
    monkeypatch.setitem(sys.modules, "nbformat", fake)
    monkeypatch.setitem(sys.modules, "nbclient", types.SimpleNamespace(exceptions=errors))
    monkeypatch.setitem(sys.modules, "nbclient.exceptions", errors)
    monkeypatch.setattr(notebooks, "execute", execute)
    out = tmp_path / "gallery"
    # the notebook was saved without its outputs: that is reported, the fresh run is kept
    assert notebooks.main([str(source), "--out", str(out)]) == 1
    assert source.read_bytes() == before
    copy = json.loads((out / "small.ipynb").read_text(encoding="utf-8"))
    assert copy["cells"][1]["outputs"][0]["data"] == {"text/plain": "2"}

    # a cell that raises: reported, and no copy
    def raises(path, *, timeout=600):
        raise RuntimeError("a cell raised")

    monkeypatch.setattr(notebooks, "execute", raises)
    (out / "small.ipynb").unlink()
    assert notebooks.main([str(source), "--out", str(out)]) == 1
    assert not (out / "small.ipynb").exists()


# --------------------------------------------------------------------------- usage lines
def _usage_tokens(line: str) -> list[str]:
    """Words (a quoted string is one), brackets, parentheses and ``...``."""
    pattern = r"'[^']*'|\"[^\"]*\"|\[|\]|\(|\)|\.\.\.(?=[\s\]\)]|$)|[^\s\[\]()]+"
    return re.findall(pattern, line)


def _arity(action: argparse.Action) -> tuple[int, bool]:
    """(the values an option takes at least, whether it takes more)."""
    nargs = action.nargs
    if nargs is None:
        return (0, False) if isinstance(action, argparse._CountAction) else (1, False)
    if isinstance(nargs, int):
        return nargs, False
    return {"?": (0, False), "+": (1, True), "*": (0, True)}.get(nargs, (0, True))


def _repeatable(parser: argparse.ArgumentParser, action: argparse.Action) -> bool:
    """Whether giving the option twice keeps both values (append, count, or an action of
    fairconv's own that adds to a list): the action is called twice and looked at."""
    import copy

    if isinstance(action, argparse._CountAction):
        return True
    n = action.nargs if isinstance(action.nargs, int) else None
    first, second = (["nominal"] * n, ["ordinal"] * n) if n else ("nominal", "ordinal")
    namespace = argparse.Namespace(**{action.dest: copy.copy(action.default)})
    action(parser, namespace, first, action.option_strings[-1])
    action(parser, namespace, second, action.option_strings[-1])
    kept = getattr(namespace, action.dest)
    return isinstance(kept, list) and first in kept and second in kept


def usage_faults(line: str) -> list[str]:
    """What a ``fairconv COMMAND ...`` line says that the command's parser (the one its
    ``--help`` prints) does not do: an option it lacks; an option followed by fewer
    values than it takes, or by ``...`` (more values) when it takes a fixed number; an
    option shown as repeated (``--opt ...``, ``[--opt X]...``) that keeps only its last
    value; ``a|b|c`` that are not exactly its choices; a required option left out or in
    brackets."""
    words = line.split()
    if len(words) < 2 or words[1].startswith("-"):
        return []
    parser = _subcommands().get(words[1])
    if parser is None:
        return [f"no command {words[1]!r}"]
    options = {o: a for a in parser._actions for o in a.option_strings}
    faults, shown, depth = [], {}, 0
    tokens = _usage_tokens(line)[2:]
    groups = []  # the options inside each open bracket
    for i, token in enumerate(tokens):
        if token == "[":
            depth += 1
            groups.append([])
        elif token == "]":
            depth -= 1
            inside = groups.pop()
            if tokens[i + 1 : i + 2] == ["..."]:  # [--opt X]... : the group repeats
                faults += [f"{o} is shown repeated but keeps one value" for o in inside
                           if not _repeatable(parser, options[o])]  # fmt: skip
            if groups:
                groups[-1] += inside
        elif token.startswith("-") and token != "-" and not token.startswith("-$"):
            option = token.split("=")[0]
            if option not in options:
                faults.append(f"no option {option}")
                continue
            action = options[option]
            shown[option] = min(shown.get(option, depth), depth)
            if groups:
                groups[-1].append(option)
            rest = tokens[i + 1 :]
            if rest[:1] == ["..."]:  # --opt ... : the option again
                if not _repeatable(parser, action):
                    faults.append(f"{option} is shown repeated but keeps one value")
                continue
            least, more = _arity(action)
            values = [] if "=" not in token else [token.split("=", 1)[1]]
            for word in rest:
                if len(values) >= least or word in ("[", "]", "(", ")", "...", "|"):
                    break
                if word.startswith("-") and word != "-":
                    break
                values.append(word)
            if len(values) < least:
                faults.append(f"{option} takes {least} value(s), shown with {len(values)}")
            after = rest[len(values) - ("=" in token) :][:1]
            if after == ["..."] and not more:
                faults.append(f"{option} takes {least} value(s), shown with more (...)")
            for value in values:
                alternatives = value.strip("'\"").split("|")
                if len(alternatives) > 1 and action.choices is not None:
                    if set(alternatives) != {str(c) for c in action.choices}:
                        faults.append(
                            f"{option} shows {'|'.join(alternatives)}, its choices are "
                            + "|".join(str(c) for c in action.choices)
                        )
    for action in parser._actions:
        if action.required and action.option_strings:
            if not any(shown.get(o) == 0 for o in action.option_strings):
                faults.append(f"the required {action.option_strings[-1]} is not shown as such")
    return faults


def _readme_usage_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Command line\n", 1)[1].split("\n## ", 1)[0]
    return _command_lines(section)


def test_the_readme_usage_lines_are_each_commands_help():
    lines = _readme_usage_lines()
    assert {line.split()[1] for line in lines} - {"--version"} == set(_subcommands())
    faults = {line: usage_faults(line) for line in lines}
    assert not {line: f for line, f in faults.items() if f}


@pytest.mark.parametrize("page, line", list(_quoted_commands()), ids=lambda x: str(x)[:60])
def test_every_quoted_command_line_matches_its_help(page, line):
    assert usage_faults(line) == [], f"{page}: {line}"


@pytest.mark.parametrize(
    "line, fault",
    [
        ("fairconv nuggets --input-format cone-rag --gold G [--ntr A.jsonl ...]",
         "--ntr takes 1 value(s), shown with more (...)"),
        ("fairconv gfr --qrels Q [--format tsv|nev] RUN",
         "--format shows tsv|nev, its choices are tsv|json|nev"),
        ("fairconv gfr --qrels Q --attribute NAME GMEMB [--phi 0.99] RUN",
         "--attribute takes 4 value(s), shown with 2"),
        ("fairconv gfr [--qrels Q] RUN", "the required --qrels is not shown as such"),
        ("fairconv gfr --qrels Q [--phi P]... RUN",
         "--phi is shown repeated but keeps one value"),
        ("fairconv gfr --qrels Q --phi ... RUN", "--phi is shown repeated but keeps one value"),
        ("fairconv gfr --qrels Q --bogus RUN", "no option --bogus"),
        ("fairconv gfr --qrels Q --attribute A B C D [--attribute ...] RUN", None),
        ("fairconv report -m A -m B [--baseline RUN]... S", None),
        ("fairconv compare -m 'GF-JSD@10[M-ORIGIN]' S", None),
    ],
)  # fmt: skip
def test_the_usage_check_finds_each_kind_of_slip(line, fault):
    assert usage_faults(line) == ([] if fault is None else [fault])


def test_a_class_listed_again_away_from_its_home_is_not_indexed_twice(monkeypatch, tmp_path):
    """nuggets lists io's nuggetizer and CONE-RAG records: their reference pages under
    nuggets are not indexed (Sphinx refuses one class described twice), io's are."""
    conf = _conf(monkeypatch, tmp_path)
    reexported = conf.autosummary_context["reexported"]
    assert {"fairconv.nuggets.ConeRagLabels", "fairconv.nuggets.NuggetizerAssignments"} <= (
        reexported
    )
    assert not {"fairconv.io.ConeRagLabels", "fairconv.results.ScoreTable"} & reexported
    template = (ROOT / "docs" / "_templates" / "autosummary" / "class.rst").read_text()
    assert "{%- if fullname in reexported %}\n   :no-index:\n{%- endif %}" in template
